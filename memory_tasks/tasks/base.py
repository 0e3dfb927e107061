"""The base class of every task: which errors are retried, the backoff, and what a final failure records.

Retries follow the one error taxonomy (`memory_tasks.errors`): transient errors are
retried with exponential backoff and jitter (R-PIPE-10); permanent ones (bad LLM output,
a 401, a dimension mismatch) and bugs fail the task at once. A task declares what it
owns, so its final failure is recorded there: the message (its state becomes FAILED
with the error, for the rescan) or the memory ids (FAILED vectors, for the index sweep).
"""

from __future__ import annotations

import enum
from typing import Any

from celery import Task

from memory_tasks import pipeline
from memory_tasks.errors import PERMANENT_TYPES, TRANSIENT_TYPES
from memory_tasks.llm import LLMOutputError, LLMPermanentError, LLMTransientError
from memory_tasks.vectors import index

# llm.py's classes are listed beside the taxonomy's tuples until they subclass its bases.
TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (*TRANSIENT_TYPES, LLMTransientError)
PERMANENT_ERRORS: tuple[type[BaseException], ...] = (*PERMANENT_TYPES, LLMPermanentError, LLMOutputError)


class Owns(enum.Enum):
    """What a task's final failure is recorded on."""

    NOTHING = "nothing"
    MESSAGE = "message"  # first argument: the message id, or a stage payload holding it
    MEMORIES = "memories"  # first argument: the memory ids


class MemoryTask(Task):
    """Every task of this package; `@shared_task(base=MemoryTask, owns=Owns.…)`.

    Beat jobs pass `autoretry_for=()`: they are not retried, the next beat run is their retry.
    """

    autoretry_for = TRANSIENT_ERRORS
    dont_autoretry_for = PERMANENT_ERRORS
    retry_backoff = 2
    retry_backoff_max = 60
    retry_jitter = True
    max_retries = 5
    owns = Owns.NOTHING

    def on_failure(self, exc: BaseException, task_id: str, args: tuple, kwargs: dict, einfo: Any) -> None:
        """Record the final failure (retries used up, or a permanent error) on what the task owns."""
        error = f"{self.name}: {type(exc).__name__}: {exc}"
        if self.owns is Owns.MESSAGE:
            message_id = _message_id(args[0] if args else kwargs.get("message_id") or kwargs.get("payload"))
            if message_id is not None:
                detail = getattr(exc, "raw_text", None)
                pipeline.mark_message_failed(message_id, error + (f"\nraw output: {detail}" if detail else ""))
        elif self.owns is Owns.MEMORIES:
            memory_ids = args[0] if args else kwargs.get("memory_ids")
            if memory_ids:
                index.mark_vector_failed(list(memory_ids), error)


def _message_id(arg: Any) -> int | None:
    """The message id of a stage's first argument: the id itself, or the payload dict holding it."""
    if isinstance(arg, int):
        return arg
    if isinstance(arg, dict):
        return arg.get("message_id")
    return None
