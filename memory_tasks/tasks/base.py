"""What every task shares: which errors are worth a retry, and the backoff."""

from __future__ import annotations

import redis.exceptions
from sqlalchemy.exc import OperationalError

from memory_tasks.llm import LLMTransientError
from memory_tasks.vectors.embedders import EmbeddingError
from memory_tasks.vectors.milvus_store import VectorStoreError

# Outages that heal by themselves: retried with exponential backoff and jitter (R-PIPE-10).
# Anything else (bad LLM output, a 401, a bug) fails the task at once.
TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (
    LLMTransientError,
    OperationalError,
    redis.exceptions.ConnectionError,
    EmbeddingError,
    VectorStoreError,
    ConnectionError,
    TimeoutError,
)

RETRY_OPTIONS = {
    "autoretry_for": TRANSIENT_ERRORS,
    "retry_backoff": 2,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 5,
}
