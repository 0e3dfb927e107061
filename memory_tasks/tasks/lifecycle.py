"""Lifecycle on beat: TTL expiry and per-user consolidation (R-LIFE-1/2, R-BEAT-3).

Thin tasks: the logic is `memory_tasks.memories.lifecycle` and `.consolidation`.
Consolidation fans out: the beat task only claims the users whose memories changed
since their last consolidation and enqueues one `memory.consolidate_user` per user,
never one giant task.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime
from typing import Any

from celery import Task, shared_task

from config.celery import QUEUE_LLM
from config.settings import get_settings
from memory_tasks.extraction.review import get_reviewer
from memory_tasks.memories import consolidation, lifecycle
from memory_tasks.tasks.base import RETRY_OPTIONS
from memory_tasks.tools import enqueue_index_sync

logger = logging.getLogger(__name__)

EXPIRY_BATCH_SIZE = 500
# One sweep stops starting batches after this long; the next beat run continues.
EXPIRY_BUDGET_SEC = 60.0
# At most this many users are enqueued per fan-out, the longest-waiting first.
CONSOLIDATE_FAN_OUT_LIMIT = 1000
# A plan goes stale when the user writes meanwhile: plan again a little later.
STALE_RETRY_SEC = 30
# An LLM consolidation makes one call per 60 memories, each up to EXTRACT_TIMEOUT_SEC,
# so it gets far more time than a pipeline stage (and stays well under the visibility timeout).
CONSOLIDATE_SOFT_TIME_LIMIT_SEC = 900
CONSOLIDATE_TIME_LIMIT_SEC = CONSOLIDATE_SOFT_TIME_LIMIT_SEC + 30


@shared_task(name="memory.expire_memories", ignore_result=True)
def expire_memories(now: str | None = None) -> int:
    """Expire due memories in batches until none is left or the budget is used; returns how many.

    `now` (ISO 8601) replaces the database clock, for operators and tests. The index sync
    of each batch is enqueued at once, so the vectors of expired rows leave Milvus.
    """
    clock = datetime.fromisoformat(now) if now else None
    deadline = time.monotonic() + EXPIRY_BUDGET_SEC
    expired = 0
    while True:
        memory_ids = lifecycle.expire_batch(EXPIRY_BATCH_SIZE, clock)
        enqueue_index_sync(memory_ids)
        expired += len(memory_ids)
        if len(memory_ids) < EXPIRY_BATCH_SIZE or time.monotonic() >= deadline:
            return expired


@shared_task(name="memory.schedule_consolidation", ignore_result=True)
def schedule_consolidation() -> int:
    """Enqueue `memory.consolidate_user` for each user changed since their last consolidation.

    Each task expires after one consolidation interval, so a backlog never piles up
    duplicates. It goes to the llm queue: the LLM engine is slow, and the offline one
    embeds, so neither may hold up index sync. Returns how many users were enqueued.
    """
    settings = get_settings()
    if not settings.LONG_TERM_MEMORY_ENABLED:
        return 0
    expires = settings.LONG_TERM_MEMORY_CONSOLIDATE_INTERVAL_SEC

    def enqueue(user_id: int) -> None:
        consolidate_user.apply_async(args=[user_id], expires=expires, queue=QUEUE_LLM)

    user_ids = consolidation.schedule_due_users(CONSOLIDATE_FAN_OUT_LIMIT, enqueue)
    if user_ids:
        logger.info("consolidation fanned out", extra={"user_ids": user_ids})
    return len(user_ids)


@shared_task(
    name="memory.consolidate_user",
    bind=True,
    soft_time_limit=CONSOLIDATE_SOFT_TIME_LIMIT_SEC,
    time_limit=CONSOLIDATE_TIME_LIMIT_SEC,
    **RETRY_OPTIONS,
)
def consolidate_user(self: Task, user_id: int, force: bool = False) -> dict[str, Any]:
    """Plan and apply the consolidation of one user, then enqueue the index sync of what changed.

    Does nothing for a user with no change since their last consolidation unless `force`
    (a duplicate task from an overlapping fan-out lands here). A stale plan is retried.
    """
    if not force and not consolidation.is_due(user_id):
        return {"user_id": user_id, "status": "not due", "changed_ids": []}
    plan = consolidation.plan_consolidation(user_id, get_reviewer())
    result = consolidation.apply_plan(plan)
    if result.status == "stale":
        raise self.retry(countdown=STALE_RETRY_SEC)
    enqueue_index_sync(list(result.changed_ids))
    return {**result.to_json(), "counts": plan.counts(), "engine": plan.engine}
