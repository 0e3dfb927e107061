"""Lifecycle on beat: TTL expiry and per-user consolidation (R-LIFE-1/2, R-BEAT-3).

Thin tasks over `memory_tasks.jobs`. Consolidation fans out: the beat task only claims
the users whose memories changed since their last consolidation and enqueues one
`memory.consolidate_user` per user, never one giant task.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from celery import Task, shared_task

from memory_tasks import jobs
from memory_tasks.task_names import CONSOLIDATE_USER, EXPIRE_MEMORIES, SCHEDULE_CONSOLIDATION
from memory_tasks.tasks.base import MemoryTask

# A plan goes stale when the user writes meanwhile: plan again a little later.
STALE_RETRY_SEC = 30
# An LLM consolidation makes one call per 60 memories, each up to EXTRACT_TIMEOUT_SEC,
# so it gets far more time than a pipeline stage (and stays well under the visibility timeout).
CONSOLIDATE_SOFT_TIME_LIMIT_SEC = 900
CONSOLIDATE_TIME_LIMIT_SEC = CONSOLIDATE_SOFT_TIME_LIMIT_SEC + 30


# Beat jobs are not retried: the next beat run is the retry.
@shared_task(name=EXPIRE_MEMORIES, base=MemoryTask, autoretry_for=(), ignore_result=True)
def expire_memories(now: str | None = None) -> int:
    """Expire due memories; `now` (ISO 8601) replaces the database clock. Returns how many."""
    return jobs.expire_memories(datetime.fromisoformat(now) if now else None)


@shared_task(name=SCHEDULE_CONSOLIDATION, base=MemoryTask, autoretry_for=(), ignore_result=True)
def schedule_consolidation() -> int:
    """Enqueue `memory.consolidate_user` per changed user; returns how many users."""
    return jobs.schedule_consolidation()


@shared_task(
    name=CONSOLIDATE_USER,
    base=MemoryTask,
    bind=True,
    soft_time_limit=CONSOLIDATE_SOFT_TIME_LIMIT_SEC,
    time_limit=CONSOLIDATE_TIME_LIMIT_SEC,
)
def consolidate_user(self: Task, user_id: int, force: bool = False) -> dict[str, Any]:
    """Consolidate one user (see `jobs.consolidate_user`); a stale plan is retried a little later."""
    outcome = jobs.consolidate_user(user_id, force)
    if outcome["status"] == "stale":
        raise self.retry(countdown=STALE_RETRY_SEC)
    return outcome
