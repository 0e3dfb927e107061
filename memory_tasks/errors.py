"""One error taxonomy: transient (retry later with backoff) or permanent (retrying cannot help).

R-PIPE-10, R-FAIL-1. Transient: rate limits, 5xx answers, timeouts, refused connections,
database operational errors, a broker or Milvus that is down or overloaded. Permanent:
authentication (401/403), a dimension mismatch, invalid input, output unusable for this
input. Modules raising errors of their own subclass `TransientError` or `PermanentError`
(the embedders, the Milvus store); the errors of libraries are classified here by type and
code. The Celery retry policy (memory_tasks/tasks/base.py) is built from these tuples.

This module imports nothing from the project, so any layer may use it.
"""

from __future__ import annotations

import grpc
import redis.exceptions
from pymilvus.exceptions import (
    AutoIDException,
    CannotInferSchemaException,
    ConnectionConfigException,
    DataNotMatchException,
    DataTypeNotMatchException,
    DataTypeNotSupportException,
    FieldsTypeException,
    FieldTypeException,
    InvalidConsistencyLevel,
    MilvusException,
    ParamError,
    PartitionKeyException,
    PrimaryKeyException,
    ServerVersionIncompatibleException,
)
from sqlalchemy.exc import OperationalError


class TransientError(Exception):
    """A failure that heals by itself (an outage, a rate limit, a timeout): retry later with backoff."""


class PermanentError(Exception):
    """Retrying the same work cannot succeed (bad credentials, a dimension mismatch, invalid input)."""


# What the tasks retry with backoff, by type. Milvus errors are classified by code
# (`milvus_error_is_transient`); the Milvus store raises them as VectorStore*Error.
TRANSIENT_TYPES: tuple[type[BaseException], ...] = (
    TransientError,
    OperationalError,
    redis.exceptions.ConnectionError,
    ConnectionError,
    TimeoutError,
)
PERMANENT_TYPES: tuple[type[BaseException], ...] = (PermanentError,)

# HTTP statuses of an OpenAI-compatible server that heal by themselves; any other error
# status (400, 401, 403, 404, 422 …) says the request itself is wrong.
TRANSIENT_HTTP_STATUS = frozenset({408, 409, 429})

# Milvus server codes (milvus pkg/util/merr) that mean the request is wrong: unimplemented,
# no such collection / index / database / alias / field, an illegal schema, invalid or
# missing parameters, not authenticated or not permitted, a malformed REST request. Any
# other code is the server's own trouble (not ready, rate limit, memory, channels,
# segments, timeouts, internal) and heals by retrying.
MILVUS_PERMANENT_CODES = frozenset(
    {10, 100, 102, 105, 107, 701, 702, 800, 801, 802, 1100, 1101, 1102, 1400, 1401}
    | {1600, 1601, 1602, 1603, 1700, 1701, 1800, 1801, 1802, 1803, 1804, 1806, 3000}
)
# pymilvus' own checks of the request before it is sent.
MILVUS_INPUT_ERRORS: tuple[type[MilvusException], ...] = (
    ParamError,
    ConnectionConfigException,
    DataNotMatchException,
    DataTypeNotMatchException,
    DataTypeNotSupportException,
    CannotInferSchemaException,
    PrimaryKeyException,
    PartitionKeyException,
    FieldsTypeException,
    FieldTypeException,
    AutoIDException,
    InvalidConsistencyLevel,
    ServerVersionIncompatibleException,
)
# gRPC statuses (pymilvus reports a call that ran out of retries with one) that heal by themselves.
GRPC_TRANSIENT_CODES = frozenset(
    {
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        grpc.StatusCode.ABORTED,
        grpc.StatusCode.CANCELLED,
        grpc.StatusCode.INTERNAL,
        grpc.StatusCode.UNKNOWN,
    }
)

# The chat client keeps its three error classes (transient, permanent, unusable output);
# they are recognised here by qualified name so that neither module imports the other.
LLM_TRANSIENT_CLASS = "memory_tasks.llm.LLMTransientError"


def transient_http_status(status: int) -> bool:
    """True when an HTTP error status is worth a retry (429, 5xx, 408, 409)."""
    return status >= 500 or status in TRANSIENT_HTTP_STATUS


def milvus_error_is_transient(exc: MilvusException) -> bool:
    """True when a Milvus error is the server's trouble (retry), False when the request is wrong."""
    if isinstance(exc, MILVUS_INPUT_ERRORS) or exc.is_input_error:
        return False
    if exc.retriable:
        return True
    code = exc.code
    if isinstance(code, grpc.StatusCode):
        return code in GRPC_TRANSIENT_CODES
    return code not in MILVUS_PERMANENT_CODES


def is_transient(exc: BaseException) -> bool:
    """True when `exc` heals by itself and the work should be retried later; False otherwise.

    Permanent errors and anything unknown (a bug) are False: they fail at once.
    """
    if isinstance(exc, PermanentError):
        return False
    if isinstance(exc, TRANSIENT_TYPES):
        return True
    if isinstance(exc, MilvusException):
        return milvus_error_is_transient(exc)
    if isinstance(exc, grpc.RpcError):
        code = exc.code() if callable(getattr(exc, "code", None)) else None
        return code in GRPC_TRANSIENT_CODES
    return any(f"{cls.__module__}.{cls.__qualname__}" == LLM_TRANSIENT_CLASS for cls in type(exc).__mro__)
