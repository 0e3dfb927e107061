"""The DIRTY/FAILED sweep that keeps Milvus in line with PostgreSQL (R-BEAT-2, R-VEC-4)."""

from __future__ import annotations

from celery import shared_task

from memory_tasks import dispatch, forget, jobs
from memory_tasks.task_names import PURGE_USER_VECTORS, SYNC_INDEX_BATCH
from memory_tasks.tasks.base import TRANSIENT_ERRORS, MemoryTask


# Not retried: a failed batch is marked FAILED and a later sweep takes it again.
@shared_task(name=SYNC_INDEX_BATCH, base=MemoryTask, autoretry_for=(), ignore_result=True)
def sync_index_batch(batches_left: int = jobs.MAX_INDEX_BATCHES_PER_RUN) -> dict | None:
    """One batch of the sweep; see `jobs.sync_index_batch`."""
    return jobs.sync_index_batch(batches_left)


# A fresh purge starts this long after one used up its retries (Milvus still down).
PURGE_RESTART_SEC = 300


# Transient errors are retried with the one policy; once those retries are used up a fresh
# purge is sent, so it goes on until a strong read finds no vector of the user (the right to
# be forgotten has no retry budget). A permanent error (bad credentials) ends it; the purge
# stays pending in `status` and the index sweep sends it again.
@shared_task(name=PURGE_USER_VECTORS, base=MemoryTask, bind=True, ignore_result=True)
def purge_user_vectors(self: MemoryTask, user_id: int) -> int:
    """Delete every vector of a forgotten user; see `forget.purge_user_vectors`."""
    try:
        return forget.purge_user_vectors(user_id)
    except TRANSIENT_ERRORS:
        if self.request.retries >= self.max_retries:
            dispatch.enqueue_vector_purge(user_id, countdown=PURGE_RESTART_SEC)
        raise
