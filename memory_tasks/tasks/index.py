"""The DIRTY/FAILED sweep that keeps Milvus in line with PostgreSQL (R-BEAT-2, R-VEC-4)."""

from __future__ import annotations

import logging
from dataclasses import asdict

from celery import shared_task
from pymilvus.exceptions import MilvusException

from config.settings import get_settings
from memory_tasks.db.claims import claim_memories_to_sync
from memory_tasks.tasks.base import TRANSIENT_ERRORS
from memory_tasks.vectors import index

logger = logging.getLogger(__name__)

# One sweep run handles at most this many batches, then leaves the rest to the next run.
MAX_BATCHES_PER_RUN = 20


@shared_task(name="memory.sync_index_batch", ignore_result=True)
def sync_index_batch(batches_left: int = MAX_BATCHES_PER_RUN) -> dict | None:
    """Claim one batch of DIRTY/FAILED memories, sync it, and chain the next batch if full.

    A batch that fails is marked FAILED with the error and retried by a later sweep.
    """
    settings = get_settings()
    if not (settings.MEMORY_INDEX_WORKER_ENABLED and settings.MEMORY_MILVUS_ENABLED):
        return None
    memory_ids = claim_memories_to_sync(
        limit=settings.MEMORY_INDEX_WORKER_BATCH_SIZE, lease_sec=settings.LONG_TERM_MEMORY_CLAIM_LEASE_SEC
    )
    if not memory_ids:
        return None
    try:
        result = index.sync_vectors(memory_ids)
    except (*TRANSIENT_ERRORS, MilvusException) as exc:
        index.mark_vector_failed(memory_ids, f"{type(exc).__name__}: {exc}")
        logger.warning("index sync failed", extra={"memory_ids": memory_ids, "error": str(exc)})
        return None
    if len(memory_ids) == settings.MEMORY_INDEX_WORKER_BATCH_SIZE and batches_left > 1:
        sync_index_batch.apply_async(args=(batches_left - 1,))
    return asdict(result)
