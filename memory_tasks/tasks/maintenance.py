"""Periodic safety nets: the message rescan (R-BEAT-1)."""

from __future__ import annotations

from celery import shared_task

from memory_tasks import jobs
from memory_tasks.task_names import RESCAN_MESSAGES
from memory_tasks.tasks.base import MemoryTask


# Not retried: the next beat run is the retry.
@shared_task(name=RESCAN_MESSAGES, base=MemoryTask, autoretry_for=(), ignore_result=True)
def rescan_messages() -> int:
    """Re-enqueue lost PENDING and due FAILED messages; returns how many (see `jobs.rescan_messages`)."""
    return jobs.rescan_messages()
