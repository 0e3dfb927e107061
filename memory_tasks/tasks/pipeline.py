"""The five per-message stages as Celery tasks (R-PIPE-1); `memory_tasks.dispatch` chains them.

The first is a turn's debounce trigger: it extracts once for the whole window it leads
(`memory_tasks.db.windows`), or does nothing when a later turn's trigger will.

The first three own the message (a final failure marks it FAILED), the last two their
memory ids (a final failure marks the vectors FAILED for the sweep). Only the last
stage's result is stored: the chain hands each result to the next stage itself.
"""

from __future__ import annotations

from dataclasses import asdict

from celery import Task, shared_task

from config.settings import get_settings
from memory_tasks import dispatch, pipeline
from memory_tasks.task_names import (
    EMBED_MEMORIES,
    EXTRACT_CANDIDATES,
    REFINE_CANDIDATES,
    RELEASE_TRIGGER,
    UPSERT_MEMORIES,
    UPSERT_VECTORS,
)
from memory_tasks.tasks.base import MemoryTask, Owns
from memory_tasks.vectors import index


# The debounce countdown ran out: the chain goes to the broker now (`dispatch.enqueue_message`).
@shared_task(name=RELEASE_TRIGGER, base=MemoryTask, ignore_result=True)
def release_trigger(message_id: int) -> str | None:
    if not isinstance(message_id, int) or isinstance(message_id, bool):  # anyone with the broker can send it
        return None
    return dispatch.enqueue_message(message_id)


# Bound: the task id names the run that takes the debounce window (a redelivery keeps it).
# It counts the window's attempts in the transaction that takes it (`pipeline.extract_stage`).
@shared_task(
    name=EXTRACT_CANDIDATES, base=MemoryTask, owns=Owns.MESSAGE, counts_own_attempts=True, ignore_result=True, bind=True
)
def extract_candidates(self: Task, message_id: int) -> dict | None:
    return pipeline.extract_stage(message_id, self.request.id)


@shared_task(name=REFINE_CANDIDATES, base=MemoryTask, owns=Owns.MESSAGE, ignore_result=True)
def refine_candidates(payload: dict | None) -> dict | None:
    return pipeline.refine_stage(payload)


@shared_task(name=UPSERT_MEMORIES, base=MemoryTask, owns=Owns.MESSAGE, ignore_result=True)
def upsert_memories(payload: dict | None) -> list[int]:
    return pipeline.upsert_stage(payload)


@shared_task(name=EMBED_MEMORIES, base=MemoryTask, owns=Owns.MEMORIES, ignore_result=True)
def embed_memories(memory_ids: list[int]) -> list[int]:
    if get_settings().MEMORY_MILVUS_ENABLED:
        return index.embed_memories(memory_ids)
    return memory_ids


# Its result is the chain's result (enqueue_turn's task id).
@shared_task(name=UPSERT_VECTORS, base=MemoryTask, owns=Owns.MEMORIES)
def upsert_vectors(memory_ids: list[int]) -> dict:
    # A message touches a few rows: no flush (the sweep flushes its batches).
    return asdict(index.sync_vectors(memory_ids, flush=False))
