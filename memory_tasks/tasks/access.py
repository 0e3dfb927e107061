"""Deferred access statistics of retrieval reads (R-READ-5)."""

from __future__ import annotations

from datetime import datetime

from celery import shared_task

from memory_tasks.retrieval.access import record_access
from memory_tasks.task_names import TOUCH_MEMORIES
from memory_tasks.tasks.base import MemoryTask


@shared_task(name=TOUCH_MEMORIES, base=MemoryTask, ignore_result=True)
def touch_memories(user_id: int, memory_ids: list[int], accessed_at: str) -> int:
    """Record that retrieval returned these memories at `accessed_at` (ISO time); returns rows updated."""
    return record_access(user_id, memory_ids, datetime.fromisoformat(accessed_at))
