"""Task errors survive Celery's pickling with their diagnostic fields (R-PIPE-9/10)."""

import pickle

from memory_tasks.llm import LLMOutputError, LLMTransientError
from memory_tasks.tasks.base import TRANSIENT_ERRORS


def test_output_error_keeps_its_type_and_raw_text() -> None:
    """The raw model output reaches the message's stored error (Celery pickles exceptions)."""
    error = pickle.loads(pickle.dumps(LLMOutputError("not JSON", "{oops")))
    assert type(error) is LLMOutputError and error.raw_text == "{oops"


def test_transient_error_keeps_its_retry_hint() -> None:
    error = pickle.loads(pickle.dumps(LLMTransientError("429", retry_after=3.0)))
    assert type(error) is LLMTransientError and error.retry_after == 3.0


def test_only_transient_errors_are_retried() -> None:
    """R-PIPE-10: bad output and permanent API errors fail fast."""
    from memory_tasks.llm import LLMPermanentError

    assert issubclass(LLMTransientError, TRANSIENT_ERRORS)
    assert not issubclass(LLMOutputError, TRANSIENT_ERRORS)
    assert not issubclass(LLMPermanentError, TRANSIENT_ERRORS)
