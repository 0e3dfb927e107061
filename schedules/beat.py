"""The Celery beat schedule: every periodic job, its interval, queue and expiry (R-BEAT).

Each entry's `expires` equals its interval, so runs that pile up while workers are busy
are dropped instead of executed back to back. Only the beat holding the one-beat lock
sends them (`schedules/scheduler.py`); overlapping runs would still be safe because every
job claims its rows with FOR UPDATE SKIP LOCKED.
"""

from __future__ import annotations

from typing import Any

from config.celery import QUEUE_INDEX, QUEUE_MAINTENANCE
from config.settings import Settings
from memory_tasks.task_names import EXPIRE_MEMORIES, RESCAN_MESSAGES, SCHEDULE_CONSOLIDATION, SYNC_INDEX_BATCH


def _entry(task: str, every_sec: float, queue: str) -> dict[str, Any]:
    return {"task": task, "schedule": every_sec, "options": {"queue": queue, "expires": every_sec}}


def beat_schedule(settings: Settings) -> dict[str, dict[str, Any]]:
    """The enabled periodic jobs, keyed by a stable kebab-case name."""
    schedule: dict[str, dict[str, Any]] = {}
    if settings.LONG_TERM_MEMORY_SCAN_ENABLED:
        # Every LONG_TERM_MEMORY_SCAN_INTERVAL_SEC (120 s): restart lost PENDING and due FAILED messages.
        schedule["rescan-messages"] = _entry(
            RESCAN_MESSAGES, settings.LONG_TERM_MEMORY_SCAN_INTERVAL_SEC, QUEUE_MAINTENANCE
        )
    if settings.MEMORY_INDEX_WORKER_ENABLED and settings.MEMORY_MILVUS_ENABLED:
        # Every MEMORY_INDEX_WORKER_INTERVAL_SEC (30 s): sync DIRTY/FAILED memories to Milvus.
        schedule["sync-vector-index"] = _entry(SYNC_INDEX_BATCH, settings.MEMORY_INDEX_WORKER_INTERVAL_SEC, QUEUE_INDEX)
    # Every LONG_TERM_MEMORY_EXPIRY_INTERVAL_SEC (1 h): deactivate expired memories, drop their vectors.
    schedule["expire-memories"] = _entry(
        EXPIRE_MEMORIES, settings.LONG_TERM_MEMORY_EXPIRY_INTERVAL_SEC, QUEUE_MAINTENANCE
    )
    if settings.LONG_TERM_MEMORY_ENABLED:
        # Every LONG_TERM_MEMORY_CONSOLIDATE_INTERVAL_SEC (6 h): one memory.consolidate_user per user
        # whose memories changed since their last consolidation.
        schedule["schedule-consolidation"] = _entry(
            SCHEDULE_CONSOLIDATION, settings.LONG_TERM_MEMORY_CONSOLIDATE_INTERVAL_SEC, QUEUE_MAINTENANCE
        )
    return schedule
