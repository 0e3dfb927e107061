"""The DIRTY/FAILED sweep that keeps Milvus in line with PostgreSQL (R-BEAT-2, R-VEC-4)."""

from __future__ import annotations

from celery import shared_task

from memory_tasks import jobs
from memory_tasks.task_names import SYNC_INDEX_BATCH
from memory_tasks.tasks.base import MemoryTask


# Not retried: a failed batch is marked FAILED and a later sweep takes it again.
@shared_task(name=SYNC_INDEX_BATCH, base=MemoryTask, autoretry_for=(), ignore_result=True)
def sync_index_batch(batches_left: int = jobs.MAX_INDEX_BATCHES_PER_RUN) -> dict | None:
    """One batch of the sweep; see `jobs.sync_index_batch`."""
    return jobs.sync_index_batch(batches_left)
