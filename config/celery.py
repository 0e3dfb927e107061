"""Celery settings built from `config.settings` (queues, routes, limits, reliability)."""

from __future__ import annotations

import math
from typing import Any

from kombu import Exchange, Queue

from config.settings import Settings
from memory_tasks.task_names import (
    CONSOLIDATE_USER,
    EMBED_MEMORIES,
    EXTRACT_CANDIDATES,
    PURGE_USER_VECTORS,
    REFINE_CANDIDATES,
    RELEASE_TRIGGER,
    SYNC_INDEX_BATCH,
    TOUCH_MEMORIES,
    UPSERT_MEMORIES,
    UPSERT_VECTORS,
)

# Slow, LLM-bound stages; index sync; periodic maintenance. Separate queues so slow LLM
# work can never starve index sync (R-OPS-1).
QUEUE_LLM = "llm"
QUEUE_INDEX = "index"
QUEUE_MAINTENANCE = "maintenance"
ALL_QUEUES = (QUEUE_LLM, QUEUE_INDEX, QUEUE_MAINTENANCE)

# Redis transport priorities (0 is served first). A worker asks Redis for the queues it
# consumes priority level by priority level (BRPOP over every queue at level 0, then
# level 3, ...), so within one worker a level-0 task of any queue comes before a level-6
# one, and queues of one level are served round-robin (issue 12 item 2).
PRIORITY_STEPS = (0, 3, 6, 9)
# The later stages of a started chain and index work: before any new extraction.
PRIORITY_CHAIN = 0
# A new message's extraction waits behind every started chain, so a backlog of new turns
# never delays the turns already extracted.
PRIORITY_NEW_MESSAGE = 6
# Consolidation is the least urgent LLM work.
PRIORITY_BACKGROUND = 9

# By task name; every other task (the beat jobs) goes to the maintenance queue. Every route
# names its priority: a process that registers the tasks (a worker) sends each with its Task
# class's `priority`, which Celery fills from `task_default_priority` when that is set and
# which then overrides the route's, so there is no default priority (issue 12: the worker-sent
# extractions of redirects and re-triggers, and of the rescan, all went at priority 0).
TASK_ROUTES = {
    EXTRACT_CANDIDATES: {"queue": QUEUE_LLM, "priority": PRIORITY_NEW_MESSAGE},
    REFINE_CANDIDATES: {"queue": QUEUE_LLM, "priority": PRIORITY_CHAIN},
    UPSERT_MEMORIES: {"queue": QUEUE_LLM, "priority": PRIORITY_CHAIN},
    # Held by the llm worker until due; it only sends the chain, which then waits its turn.
    RELEASE_TRIGGER: {"queue": QUEUE_LLM, "priority": PRIORITY_CHAIN},
    EMBED_MEMORIES: {"queue": QUEUE_INDEX, "priority": PRIORITY_CHAIN},
    UPSERT_VECTORS: {"queue": QUEUE_INDEX, "priority": PRIORITY_CHAIN},
    SYNC_INDEX_BATCH: {"queue": QUEUE_INDEX, "priority": PRIORITY_CHAIN},
    TOUCH_MEMORIES: {"queue": QUEUE_INDEX, "priority": PRIORITY_CHAIN},
    PURGE_USER_VECTORS: {"queue": QUEUE_INDEX, "priority": PRIORITY_CHAIN},
    # Consolidating a user may call the chat model.
    CONSOLIDATE_USER: {"queue": QUEUE_LLM, "priority": PRIORITY_BACKGROUND},
    "memory.*": {"queue": QUEUE_MAINTENANCE, "priority": PRIORITY_CHAIN},
}


def soft_time_limit(settings: Settings) -> float:
    return settings.soft_time_limit_sec


def hard_time_limit(settings: Settings) -> float:
    return settings.hard_time_limit_sec


# The scheduler class of `celery beat` (schedules/scheduler.py), by name: config/ does not import schedules/.
BEAT_SCHEDULER = "schedules.scheduler:LockedScheduler"


def is_redis_url(url: str) -> bool:
    """True if `url` names a Redis server (redis://, rediss://, redis+socket://, sentinel://)."""
    return url.split("://", 1)[0].split("+", 1)[0] in ("redis", "rediss", "sentinel")


def broker_transport_options(settings: Settings) -> dict[str, Any]:
    """The options of the broker's transport; those of one transport mean nothing to another."""
    if is_redis_url(settings.CELERY_BROKER_URL):
        return {
            # Redis redelivers unacknowledged messages after this: a task held by a killed
            # worker waits this long; it exceeds the longest countdown plus the hard time limit,
            # so a running or waiting task is never delivered twice (R-SAFE-1, config/settings.py).
            "visibility_timeout": math.ceil(settings.visibility_timeout_sec),
            "priority_steps": list(PRIORITY_STEPS),
            # Readable sub-queue names: `llm:6` holds the llm queue's priority-6 messages.
            "sep": ":",
            **({"global_keyprefix": settings.CELERY_REDIS_KEY_PREFIX} if settings.CELERY_REDIS_KEY_PREFIX else {}),
        }
    # RabbitMQ (amqp://) redelivers when the consumer's connection closes, not on a timer, so
    # there is no visibility timeout; publisher confirms make a send return only once the
    # broker has the message.
    return {"confirm_publish": True}


def celery_config(settings: Settings) -> dict[str, Any]:
    """Everything `app.conf` needs, derived from the validated settings."""
    hard_limit = hard_time_limit(settings)
    return {
        "broker_url": settings.CELERY_BROKER_URL,
        "result_backend": settings.CELERY_RESULT_BACKEND or None,
        "task_serializer": "json",
        "result_serializer": "json",
        "accept_content": ["json"],
        "timezone": "UTC",
        "enable_utc": True,
        # Each queue has its own exchange and routing key: with Celery's defaults every queue
        # would be bound to the default exchange under one key and get a copy of every task.
        "task_queues": [Queue(name, Exchange(name, type="direct"), routing_key=name) for name in ALL_QUEUES],
        "task_default_queue": QUEUE_MAINTENANCE,
        "task_routes": TASK_ROUTES,
        # A typo in a queue name should fail loudly, not create a queue nobody consumes.
        "task_create_missing_queues": False,
        # Tasks are idempotent, so a message is acknowledged only after the task ran and a
        # worker that dies mid-task gives it back (R-SAFE-1).
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        # A worker holding countdown tasks (debounce triggers) raises its prefetch by one per
        # task held, and would then take new extractions off the broker into its own FIFO
        # buffer ahead of later stages sent after them: on Redis, a worker takes a task only
        # when a pool slot is free, so the priority queues decide what runs next (issue 12).
        "worker_disable_prefetch": is_redis_url(settings.CELERY_BROKER_URL),
        "task_soft_time_limit": soft_time_limit(settings),
        "task_time_limit": hard_limit,
        # No STARTED state in the result backend: it cost every task a Redis write that nobody
        # reads (Flower and the metrics see task-started events; issue 12).
        "task_track_started": False,
        "result_expires": 24 * 3600,
        "task_ignore_result": False,
        "worker_send_task_events": True,
        "task_send_sent_event": True,
        "broker_transport_options": broker_transport_options(settings),
        "result_backend_transport_options": (
            {"global_keyprefix": settings.CELERY_REDIS_KEY_PREFIX}
            if settings.CELERY_REDIS_KEY_PREFIX and is_redis_url(settings.CELERY_RESULT_BACKEND)
            else {}
        ),
        # Exactly one beat schedules (issue 15 item 5): every `celery beat` of this app, one
        # started by hand included, sends nothing unless it holds the PostgreSQL beat lock.
        "beat_scheduler": BEAT_SCHEDULER,
        "broker_connection_retry_on_startup": True,
        "worker_hijack_root_logger": False,
    }
