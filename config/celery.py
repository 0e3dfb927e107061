"""Celery settings built from `config.settings` (queues, routes, limits, reliability)."""

from __future__ import annotations

from typing import Any

from kombu import Exchange, Queue

from config.settings import Settings
from memory_tasks.task_names import (
    CONSOLIDATE_USER,
    EMBED_MEMORIES,
    EXTRACT_CANDIDATES,
    PURGE_USER_VECTORS,
    REFINE_CANDIDATES,
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

# By task name; every other task (the beat jobs) goes to the maintenance queue.
TASK_ROUTES = {
    EXTRACT_CANDIDATES: {"queue": QUEUE_LLM},
    REFINE_CANDIDATES: {"queue": QUEUE_LLM},
    UPSERT_MEMORIES: {"queue": QUEUE_LLM},
    EMBED_MEMORIES: {"queue": QUEUE_INDEX},
    UPSERT_VECTORS: {"queue": QUEUE_INDEX},
    SYNC_INDEX_BATCH: {"queue": QUEUE_INDEX},
    TOUCH_MEMORIES: {"queue": QUEUE_INDEX},
    PURGE_USER_VECTORS: {"queue": QUEUE_INDEX},
    # Consolidating a user may call the chat model.
    CONSOLIDATE_USER: {"queue": QUEUE_LLM},
    "memory.*": {"queue": QUEUE_MAINTENANCE},
}


def soft_time_limit(settings: Settings) -> float:
    return settings.soft_time_limit_sec


def hard_time_limit(settings: Settings) -> float:
    return settings.hard_time_limit_sec


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
        "task_soft_time_limit": soft_time_limit(settings),
        "task_time_limit": hard_limit,
        "task_track_started": True,
        "result_expires": 24 * 3600,
        "task_ignore_result": False,
        "worker_send_task_events": True,
        "task_send_sent_event": True,
        # Redis redelivers unacknowledged messages after this; it must exceed the longest
        # task (and countdowns) or a running task would be delivered twice (R-SAFE-1).
        "broker_transport_options": {
            "visibility_timeout": int(max(3600, 2 * hard_limit)),
            **({"global_keyprefix": settings.CELERY_REDIS_KEY_PREFIX} if settings.CELERY_REDIS_KEY_PREFIX else {}),
        },
        "result_backend_transport_options": (
            {"global_keyprefix": settings.CELERY_REDIS_KEY_PREFIX} if settings.CELERY_REDIS_KEY_PREFIX else {}
        ),
        "broker_connection_retry_on_startup": True,
        "worker_hijack_root_logger": False,
    }
