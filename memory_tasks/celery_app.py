"""The Celery application (`celery -A memory_tasks worker|beat|flower`).

Importing it configures the app and nothing else: senders (`memory_tasks.dispatch`) send
by task name and never need the task modules. Workers import those at start-up
(`include`), so the tasks can use the dispatch module without an import circle.
"""

from __future__ import annotations

import logging
import os
from typing import Any

from celery import Celery
from celery.signals import (
    beat_init,
    before_task_publish,
    setup_logging,
    task_postrun,
    task_prerun,
    worker_init,
    worker_process_init,
)

from config.celery import celery_config
from config.settings import get_settings
from memory_tasks import logs, metrics
from memory_tasks.db.session import get_engine
from memory_tasks.heartbeat import record_beat_tick
from memory_tasks.held_tasks import RestoreHeldTriggers
from memory_tasks.task_event_buffer import BufferKeepingEvents
from schedules.beat import beat_schedule

TASK_MODULES = ["memory_tasks.tasks"]

# Task events from pool threads are not lost on Celery 5.6.3 (memory_tasks/task_event_buffer.py).
app = Celery("memory_tasks", include=TASK_MODULES, events=BufferKeepingEvents)
# The default app of every thread, not only of the importing one (Celery's "current app" is
# thread-local): a chain built in another thread (the HTTP service runs routes in a thread
# pool) would otherwise be sent with Celery's built-in default app, to amqp://localhost.
app.set_default()
app.conf.update(celery_config(get_settings()))
app.conf.beat_schedule = beat_schedule(get_settings())
# After a Redis restart, the debounce triggers the workers held go back to their queue at once.
app.steps["consumer"].add(RestoreHeldTriggers)


@worker_process_init.connect
def _fresh_connections_in_child(**_: object) -> None:
    """Forked children must not share the parent's pooled DB connections."""
    get_engine().dispose(close=False)


@setup_logging.connect
def _logging(**_: object) -> None:
    logs.configure_logging(log_content=get_settings().MEMORY_LOG_CONTENT)


@task_prerun.connect
def _task_started(task_id: str, task: Any, args: tuple = (), **_: object) -> None:
    owns = getattr(getattr(task, "owns", None), "value", None)  # MemoryTask's Owns
    logs.bind_task(task_id, task.name, logs.task_ids(owns, args or ()))
    metrics.task_started(task_id)


@task_postrun.connect
def _task_finished(task_id: str, task: Any, state: str | None = None, **_: object) -> None:
    metrics.task_finished(task_id, task.name, state)
    logs.unbind_task()


@worker_init.connect
def _worker_metrics(**_: object) -> None:
    """In the worker's main process, before the pool forks: a clean multiprocess folder, then the exporter."""
    settings = get_settings()
    if not settings.MEMORY_WORKER_METRICS_PORT:
        return
    if metrics.multiproc_dir() is None:
        logging.getLogger(__name__).error(
            "MEMORY_WORKER_METRICS_PORT needs PROMETHEUS_MULTIPROC_DIR (a folder per worker): no metrics served"
        )
        return
    metrics.clean_multiproc_dir(keep_pid=os.getpid())
    metrics.serve_worker_metrics(settings.MEMORY_WORKER_METRICS_PORT, settings.MEMORY_WORKER_METRICS_HOST)


def _beat_sent_a_job(**_: object) -> None:
    record_beat_tick(get_settings())


@beat_init.connect
def _beat_heartbeat(**_: object) -> None:
    """Only the beat process records a tick for each job it sends (`heartbeat`)."""
    before_task_publish.connect(_beat_sent_a_job, weak=False)
