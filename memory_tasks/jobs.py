"""What beat runs, as plain functions (R-BEAT): the tasks in `memory_tasks/tasks/` wrap them and
the CLI runs them on demand (`rescan`, `expire`).

Every job claims its rows (FOR UPDATE SKIP LOCKED plus a lease), so overlapping runs
split the work, and enqueues what follows through `memory_tasks.dispatch`.
"""

from __future__ import annotations

import logging
import time
from dataclasses import asdict
from datetime import datetime
from typing import Any

from config.settings import get_settings
from memory_tasks import dispatch, forget, queued
from memory_tasks.db.claims import claim_memories_to_sync, claim_messages_to_rescan, revive_messages
from memory_tasks.db.windows import window_leaders
from memory_tasks.extraction.review import get_reviewer
from memory_tasks.memories import consolidation, lifecycle
from memory_tasks.vectors import audit, index
from memory_tasks.vectors.milvus_store import COMPACTION_WAIT_SEC, Compaction, get_store

logger = logging.getLogger(__name__)

RESCAN_BATCH = 200
# One sweep run handles at most this many index batches, then leaves the rest to the next run.
MAX_INDEX_BATCHES_PER_RUN = 20
EXPIRY_BATCH_SIZE = 500
# One expiry run stops starting batches after this long; the next beat run continues.
EXPIRY_BUDGET_SEC = 60.0
# At most this many users are enqueued per consolidation fan-out, the longest-waiting first.
CONSOLIDATE_FAN_OUT_LIMIT = 1000
# The end of a sweep run compacts when the collection holds more sealed segments than this per
# partition (`MilvusStore.compact`).
SEGMENTS_PER_PARTITION = 2
# ... and waits for it this long at most. The index worker (concurrency 1) serves the chains'
# embed and upsert_vectors tasks too, and they queue behind the wait: a compaction at 30k-100k
# vectors takes 76-130 s (docs/reliability.md), so waiting it out held every new memory's vector
# back that long. Milvus goes on compacting after the wait; the next run asks again if needed.
SWEEP_COMPACTION_WAIT_SEC = 10.0
# Past this many sealed segments per partition the sweep is writing faster than Milvus merges
# (a backlog: after an outage, a bulk import): the run waits for the compaction, up to
# milvus_store.COMPACTION_WAIT_SEC, so the sweep slows to Milvus' pace. Without that wait a
# 100k backlog left 116 segments and growing (docs/reliability.md, "Milvus reload").
SEGMENTS_PER_PARTITION_CEILING = 4


def rescan_messages() -> int:
    """Restart the pipeline for PENDING messages whose task was lost and FAILED ones due a retry,
    with one trigger per window of a conversation (a window whose trigger was lost is found here).

    Returns how many messages were claimed and re-enqueued.
    """
    settings = get_settings()
    if not settings.LONG_TERM_MEMORY_SCAN_ENABLED:
        return 0
    message_ids = claim_messages_to_rescan(
        limit=RESCAN_BATCH,
        debounce_sec=settings.LONG_TERM_MEMORY_DEBOUNCE_SEC,
        lease_sec=settings.LONG_TERM_MEMORY_CLAIM_LEASE_SEC,
        max_attempts=settings.LONG_TERM_MEMORY_MAX_ATTEMPTS,
        backoff_sec=settings.LONG_TERM_MEMORY_RETRY_BACKOFF_SEC,
        # A chain waiting in a backlog is not lost: enqueuing it again would run it twice.
        exclude_ids=queued.queued_message_ids(settings),
    )
    # One trigger per debounce window: the newest turn leads it and takes the others (issue 16).
    for message_id in window_leaders(message_ids):
        dispatch.enqueue_message(message_id)
    if message_ids:
        logger.info("messages re-enqueued", extra={"message_ids": message_ids})
    return len(message_ids)


def requeue_messages(message_ids: list[int] | None) -> list[int]:
    """Give dead letters another life (attempts reset) and enqueue them; returns the ids requeued.

    `message_ids` None means every DEAD message; otherwise only those of them that are
    DEAD or FAILED are requeued.
    """
    revived = revive_messages(message_ids)
    for message_id in revived:
        dispatch.enqueue_message(message_id)
    if revived:
        logger.info("messages requeued", extra={"message_ids": revived})
    return revived


def sync_index_batch(batches_left: int = MAX_INDEX_BATCHES_PER_RUN) -> dict[str, int] | None:
    """Claim one batch of DIRTY/FAILED memories, sync it, and ask for the next batch if this one was full.

    Returns the sync counts, or None when the index is off or nothing was due. A batch that
    fails is synced again row by row (`index.sync_vectors_one_by_one`): the rows that fail
    alone are marked FAILED with backoff, the others are SYNCED (issue 11, item 4).
    No batch flushes: the last batch of a run flushes once and compacts when segments pile up,
    so the segments a restart must reload stay few (`seal_segments`), checks a batch of SYNCED
    rows against Milvus (`audit_vector_index`) and re-queues forget-user purges still pending.
    """
    settings = get_settings()
    if not (settings.MEMORY_INDEX_WORKER_ENABLED and settings.MEMORY_MILVUS_ENABLED):
        return None
    memory_ids = claim_memories_to_sync(
        limit=settings.MEMORY_INDEX_WORKER_BATCH_SIZE, lease_sec=settings.LONG_TERM_MEMORY_CLAIM_LEASE_SEC
    )
    result = None
    if memory_ids:
        try:
            result = index.sync_vectors(memory_ids)
        except index.SYNC_FAILURES as exc:
            logger.warning(
                "index batch failed, syncing row by row", extra={"memory_ids": memory_ids, "error": str(exc)}
            )
            result = index.sync_vectors_one_by_one(memory_ids)
    if len(memory_ids) == settings.MEMORY_INDEX_WORKER_BATCH_SIZE and batches_left > 1:
        dispatch.enqueue_index_batch(batches_left - 1)
    else:
        seal_segments()
        audit_vector_index()
        requeue_vector_purges()
    return asdict(result) if result is not None else None


def seal_segments() -> Compaction | None:
    """Once per sweep run: flush, then compact if more than SEGMENTS_PER_PARTITION sealed segments
    per partition are left, waiting for it at most SWEEP_COMPACTION_WAIT_SEC, or up to
    COMPACTION_WAIT_SEC past SEGMENTS_PER_PARTITION_CEILING (Milvus is falling behind).

    A restart replays what is not flushed and loads every sealed segment, one by one. Each flush
    leaves a segment per partition written to (neither the chain's writes nor the sweep's
    batches flush), and Milvus merges them only when compacted: flushing once per run and
    asking for a compaction whenever segments pile up keeps both bounded (issue 11 item 7).
    Returns the compaction (`completed` False when Milvus was still at it when the wait
    ended), or None when none was needed (or Milvus is off). A failure is logged only; the
    next run tries again.
    """
    store = get_store()
    if store is None:
        return None
    try:
        store.flush()
        segments = store.segment_count()
        partitions = max(store.partition_count(), 1)
        if segments <= SEGMENTS_PER_PARTITION * partitions:
            return None
        behind = segments > SEGMENTS_PER_PARTITION_CEILING * partitions
        compaction = store.compact(timeout=COMPACTION_WAIT_SEC if behind else SWEEP_COMPACTION_WAIT_SEC)
    except index.SYNC_FAILURES as exc:
        logger.warning("flush/compaction failed", extra={"error": str(exc)})
        return None
    if compaction is not None:
        figures = {"segments_before": segments, "segments_after": compaction.segments, "sec": compaction.seconds}
        if compaction.completed:
            logger.info("milvus compacted", extra=figures)
        elif behind:
            logger.warning(
                "milvus compaction still running after the full wait, the next sweep run compacts again", extra=figures
            )
        else:
            logger.info("milvus compaction goes on in the background", extra=figures)
    return compaction


def audit_vector_index() -> audit.AuditResult | None:
    """Once per sweep run, after the flush and any compaction: check a batch of SYNCED rows against
    Milvus (`vectors.audit`); those it does not hold as recorded are DIRTY again, for the next run.

    Returns the audit, or None when it failed (logged only; the next run tries again).
    """
    try:
        return audit.audit_vectors()
    except index.SYNC_FAILURES as exc:
        logger.warning("vector audit failed", extra={"error": str(exc)})
        return None


def requeue_vector_purges() -> int:
    """Enqueue the vector purge of every forgotten user whose purge is unverified and not tried lately.

    The purge task retries by itself; this catches purges whose task was lost (a broker
    outage when forget-user ran). Returns how many were enqueued.
    """
    user_ids = forget.purges_due(get_settings().LONG_TERM_MEMORY_CLAIM_LEASE_SEC)
    for user_id in user_ids:
        dispatch.enqueue_vector_purge(user_id)
    return len(user_ids)


def expire_memories(now: datetime | None = None) -> int:
    """Expire due memories in batches until none is left or the budget is used; returns how many.

    `now` replaces the database clock, for operators and tests. The index sync of each
    batch is enqueued at once, so the vectors of expired rows leave Milvus.
    """
    deadline = time.monotonic() + EXPIRY_BUDGET_SEC
    expired = 0
    while True:
        memory_ids = lifecycle.expire_batch(EXPIRY_BATCH_SIZE, now)
        dispatch.enqueue_index_sync(memory_ids)
        expired += len(memory_ids)
        if len(memory_ids) < EXPIRY_BATCH_SIZE or time.monotonic() >= deadline:
            return expired


def schedule_consolidation() -> int:
    """Enqueue one consolidation per user changed since their last one; returns how many users.

    Each expires after one consolidation interval, so a backlog never piles up duplicates.
    """
    settings = get_settings()
    if not settings.LONG_TERM_MEMORY_ENABLED:
        return 0
    expires = settings.LONG_TERM_MEMORY_CONSOLIDATE_INTERVAL_SEC
    user_ids = consolidation.schedule_due_users(
        CONSOLIDATE_FAN_OUT_LIMIT, lambda user_id: dispatch.enqueue_consolidation(user_id, expires)
    )
    if user_ids:
        logger.info("consolidation fanned out", extra={"user_ids": user_ids})
    return len(user_ids)


def consolidate_user(user_id: int, force: bool = False) -> dict[str, Any]:
    """Plan and apply the consolidation of one user, then enqueue the index sync of what changed.

    Returns {user_id, status, changed_ids, …}: status `not due` for a user with no change
    since their last consolidation (unless `force`; a duplicate task from an overlapping
    fan-out lands here), `applied`, or `stale` when the user wrote meanwhile (nothing
    changed; plan again later).
    """
    if not force and not consolidation.is_due(user_id):
        return {"user_id": user_id, "status": "not due", "changed_ids": []}
    plan = consolidation.plan_consolidation(user_id, get_reviewer())
    result = consolidation.apply_plan(plan)
    if result.status == "applied":
        dispatch.enqueue_index_sync(list(result.changed_ids))
    return {**result.to_json(), "counts": plan.counts(), "engine": plan.engine}
