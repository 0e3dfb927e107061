"""The base class of every task: which errors are retried, the backoff, and what a final failure records.

Retries follow the one error taxonomy (`memory_tasks.errors`): transient errors are
retried with exponential backoff and jitter (R-PIPE-10), or after the server's
Retry-After when it sent one; permanent ones (bad LLM output, a 401, a dimension
mismatch) and bugs fail the task at once. A task declares what it owns, so its final
failure is recorded there: the message (FAILED with the error for the rescan, DEAD once
its attempts are used up) or the memory ids (FAILED vectors, for the index sweep).

A stage owning a message counts one attempt when it picks the message up and gives it
back when the run ends without a fault of this message (success, or a dependency that
failed): only the message's own failures, crashes and time-outs use up its life
(docs/reliability.md). The message a stage is given leads its debounce window; the pipeline's
bookkeeping applies to every turn of that window.
"""

from __future__ import annotations

import enum
import logging
from typing import Any

from celery import Task
from celery.exceptions import Retry, TimeLimitExceeded
from celery.utils.time import get_exponential_backoff_interval
from celery.worker import state as worker_state
from celery.worker.request import Request

from config.settings import MAX_TASK_COUNTDOWN_SEC, get_settings
from memory_tasks import pipeline, queued
from memory_tasks.errors import PERMANENT_TYPES, TRANSIENT_TYPES, is_transient
from memory_tasks.llm import LLMOutputError, LLMPermanentError, LLMTransientError
from memory_tasks.vectors import index

# llm.py's classes are listed beside the taxonomy's tuples until they subclass its bases.
TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (*TRANSIENT_TYPES, LLMTransientError)
PERMANENT_ERRORS: tuple[type[BaseException], ...] = (*PERMANENT_TYPES, LLMPermanentError, LLMOutputError)
# A server's Retry-After is honoured up to this many seconds (a hostile or broken hint
# must not park a message for days; the rescan is the retry beyond). The visibility timeout
# is derived from it (config/settings.py).
MAX_RETRY_AFTER_SEC = MAX_TASK_COUNTDOWN_SEC

logger = logging.getLogger(__name__)


class Owns(enum.Enum):
    """What a task's final failure is recorded on."""

    NOTHING = "nothing"
    MESSAGE = "message"  # first argument: the message id, or a stage payload holding it
    MEMORIES = "memories"  # first argument: the memory ids


class HardLimitReportingRequest(Request):
    """Celery's request, which also hands a hard time limit to the task's `on_failure`.

    When the hard limit kills a pool child, Celery 5.6 only marks the result failed; 5.7.0
    calls `on_failure` too, but its worker exits when Redis restarts (requirements.txt pins
    5.6.3). Without this, a run the hard limit killed ended as a lost run (the rescan's note)
    instead of FAILED with `TimeLimitExceeded` (tests/integration/test_hard_time_limit.py).
    Drop it when moving to a Celery that calls `on_failure` itself, or it runs twice.
    """

    def on_timeout(self, soft: bool, timeout: float) -> None:
        super().on_timeout(soft, timeout)
        if soft or worker_state.should_terminate:
            return
        try:
            self.task.on_failure(TimeLimitExceeded(timeout), self.id, self.args, self.kwargs, None)
        except Exception:  # the worker's timer must go on; the rescan records the lost run instead
            logger.exception("hard time limit not recorded", extra={"task_id": self.id})


class MemoryTask(Task):
    """Every task of this package; `@shared_task(base=MemoryTask, owns=Owns.…)`.

    Beat jobs pass `autoretry_for=()`: they are not retried, the next beat run is their retry.
    A stage that counts its message's attempts itself (`counts_own_attempts=True`: the trigger,
    which counts them in the transaction that takes its window, `pipeline.extract_stage`)
    skips the bookkeeping around its run.
    """

    autoretry_for = TRANSIENT_ERRORS
    dont_autoretry_for = PERMANENT_ERRORS
    retry_backoff = 2
    retry_backoff_max = 60
    retry_jitter = True
    max_retries = 5
    owns = Owns.NOTHING
    counts_own_attempts = False
    Request = HardLimitReportingRequest

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Run the task; a stage owning a message does the attempt bookkeeping around the run."""
        message_id = self._owned_message(args, kwargs)
        if message_id is None:
            return super().__call__(*args, **kwargs)
        settings = get_settings()
        queued.clear_queued(settings, message_id)
        if self.counts_own_attempts:
            return self._run_counting_itself(message_id, settings, args, kwargs)
        window = pipeline.StageWindow.of(args[0] if args else kwargs.get("payload"))
        try:
            runnable = pipeline.begin_attempt(message_id, settings.LONG_TERM_MEMORY_MAX_ATTEMPTS, window)
        except TRANSIENT_ERRORS as exc:
            raise self.retry(exc=exc, countdown=self.backoff_countdown()) from exc
        if not runnable:
            # Finished, unknown or dead: the stage sees that and returns its "nothing to do".
            return self._end_chain_unless(super().__call__(*args, **kwargs))
        try:
            result = super().__call__(*args, **kwargs)
        except Retry:
            # Retried (with countdown) for a dependency's failure: not this message's fault.
            pipeline.give_back_attempt(message_id, window)
            queued.mark_queued(settings, [message_id])
            raise
        except TRANSIENT_ERRORS:
            # Retries used up on a dependency: FAILED (on_failure) with its attempts intact.
            pipeline.give_back_attempt(message_id, window)
            raise
        pipeline.give_back_attempt(message_id, window)
        if isinstance(result, dict):
            # The chain now sends the next stage, for every turn of the window.
            queued.mark_queued(settings, pipeline.window_ids(result) or [message_id])
        return self._end_chain_unless(result)

    def _run_counting_itself(self, message_id: int, settings: Any, args: tuple, kwargs: dict) -> Any:
        """`__call__` for a stage that counts and gives back its attempts itself: the queued register only."""
        try:
            result = super().__call__(*args, **kwargs)
        except Retry:
            queued.mark_queued(settings, [message_id])
            raise
        if isinstance(result, dict):
            queued.mark_queued(settings, pipeline.window_ids(result) or [message_id])
        return self._end_chain_unless(result)

    def _end_chain_unless(self, result: Any) -> Any:
        """`result`; when it is empty (no candidates, no memory changed) the rest of the chain is dropped.

        A message whose extraction yields nothing thus runs one task, not five (issue 12 item 2):
        the worker sends the next stage only while `request.chain` still holds it.
        """
        if not result:
            self.request.chain = None
        return result

    def backoff_countdown(self) -> float:
        """Seconds before the next retry, as `autoretry_for` counts them for an error of the run:
        exponential in the retries so far, capped at `retry_backoff_max`, with full jitter.
        (A bare `retry()` would wait Celery's default_retry_delay, 180 s.)"""
        return get_exponential_backoff_interval(
            factor=int(max(1.0, self.retry_backoff)),
            retries=self.request.retries,
            maximum=self.retry_backoff_max,
            full_jitter=self.retry_jitter,
        )

    def retry(
        self, args=None, kwargs=None, exc=None, throw=True, eta=None, countdown=None, max_retries=None, **options
    ):
        """Celery's retry, waiting at least the server's Retry-After (`exc.retry_after`) when it sent one."""
        hint = getattr(exc, "retry_after", None)
        if isinstance(hint, (int, float)) and eta is None:
            countdown = max(countdown or 0.0, min(float(hint), MAX_RETRY_AFTER_SEC))
        return super().retry(args, kwargs, exc, throw, eta, countdown, max_retries, **options)

    def _owned_message(self, args: tuple, kwargs: dict) -> int | None:
        if self.owns is not Owns.MESSAGE:
            return None
        return _message_id(args[0] if args else kwargs.get("message_id") or kwargs.get("payload"))

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
                # Retries used up on an outage (Milvus or the embedder down for everyone): the
                # rows wait for the sweep without losing one of their own attempts.
                index.mark_vector_failed(list(memory_ids), error, outage=is_transient(exc))


def _message_id(arg: Any) -> int | None:
    """The message id of a stage's first argument: the id itself, or the payload dict holding it."""
    if isinstance(arg, int):
        return arg
    if isinstance(arg, dict):
        return arg.get("message_id")
    return None
