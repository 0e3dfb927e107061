"""The five per-message stages as Celery tasks, and the chain that links them (R-PIPE-1)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from celery import Task, chain, shared_task
from celery.canvas import Signature

from config.settings import get_settings
from memory_tasks import pipeline
from memory_tasks.tasks.base import RETRY_OPTIONS
from memory_tasks.vectors import index


class MessageStageTask(Task):
    """A stage that owns one message: a final failure marks the message FAILED with the error."""

    def on_failure(self, exc: BaseException, task_id: str, args: tuple, kwargs: dict, einfo: Any) -> None:
        message_id = _message_id(args[0] if args else kwargs.get("message_id") or kwargs.get("payload"))
        if message_id is not None:
            detail = getattr(exc, "raw_text", None)
            error = f"{self.name}: {type(exc).__name__}: {exc}"
            pipeline.mark_message_failed(message_id, error + (f"\nraw output: {detail}" if detail else ""))


def _message_id(arg: Any) -> int | None:
    if isinstance(arg, int):
        return arg
    if isinstance(arg, dict):
        return arg.get("message_id")
    return None


class IndexStageTask(Task):
    """An index stage: a final failure marks its memories FAILED; the sweep picks them up."""

    def on_failure(self, exc: BaseException, task_id: str, args: tuple, kwargs: dict, einfo: Any) -> None:
        memory_ids = args[0] if args else kwargs.get("memory_ids")
        if memory_ids:
            index.mark_vector_failed(list(memory_ids), f"{self.name}: {type(exc).__name__}: {exc}")


@shared_task(name="memory.extract_candidates", base=MessageStageTask, bind=True, **RETRY_OPTIONS)
def extract_candidates(self: Task, message_id: int) -> dict | None:
    return pipeline.extract_stage(message_id)


@shared_task(name="memory.refine_candidates", base=MessageStageTask, bind=True, **RETRY_OPTIONS)
def refine_candidates(self: Task, payload: dict | None) -> dict | None:
    return pipeline.refine_stage(payload)


@shared_task(name="memory.upsert_memories", base=MessageStageTask, bind=True, **RETRY_OPTIONS)
def upsert_memories(self: Task, payload: dict | None) -> list[int]:
    return pipeline.upsert_stage(payload)


@shared_task(name="memory.embed_memories", base=IndexStageTask, bind=True, **RETRY_OPTIONS)
def embed_memories(self: Task, memory_ids: list[int]) -> list[int]:
    if get_settings().MEMORY_MILVUS_ENABLED:
        return index.embed_memories(memory_ids)
    return memory_ids


@shared_task(name="memory.upsert_vectors", base=IndexStageTask, bind=True, **RETRY_OPTIONS)
def upsert_vectors(self: Task, memory_ids: list[int]) -> dict:
    # A message touches a few rows: no flush (the sweep flushes its batches).
    return asdict(index.sync_vectors(memory_ids, flush=False))


def message_chain(message_id: int) -> Signature:
    """extract -> refine -> upsert -> embed -> upsert_vectors for one message."""
    return chain(
        extract_candidates.si(message_id),
        refine_candidates.s(),
        upsert_memories.s(),
        embed_memories.s(),
        upsert_vectors.s(),
    )


def index_chain(memory_ids: list[int]) -> Signature:
    """embed -> upsert_vectors for memories changed outside the pipeline (tools, consolidation)."""
    return chain(embed_memories.si(memory_ids), upsert_vectors.s())
