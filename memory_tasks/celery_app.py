"""The Celery application (`celery -A memory_tasks worker|beat|flower`).

Importing it configures the app and nothing else: senders (`memory_tasks.dispatch`) send
by task name and never need the task modules. Workers import those at start-up
(`include`), so the tasks can use the dispatch module without an import circle.
"""

from __future__ import annotations

from celery import Celery
from celery.signals import setup_logging, worker_process_init

from config.celery import celery_config
from config.logging import configure_logging
from config.settings import get_settings
from memory_tasks.db.session import get_engine
from schedules.beat import beat_schedule

TASK_MODULES = ["memory_tasks.tasks"]

app = Celery("memory_tasks", include=TASK_MODULES)
# The default app of every thread, not only of the importing one (Celery's "current app" is
# thread-local): a chain built in another thread (the HTTP service runs routes in a thread
# pool) would otherwise be sent with Celery's built-in default app, to amqp://localhost.
app.set_default()
app.conf.update(celery_config(get_settings()))
app.conf.beat_schedule = beat_schedule(get_settings())


@worker_process_init.connect
def _fresh_connections_in_child(**_: object) -> None:
    """Forked children must not share the parent's pooled DB connections."""
    get_engine().dispose(close=False)


@setup_logging.connect
def _logging(**_: object) -> None:
    configure_logging()
