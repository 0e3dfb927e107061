"""One error taxonomy: what is retried with backoff and what fails at once (R-PIPE-10, R-FAIL-1)."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import grpc
import pytest
import redis.exceptions
from pymilvus.exceptions import MilvusException, ParamError
from sqlalchemy.exc import OperationalError

from config.settings import Settings
from memory_tasks import app, task_names
from memory_tasks.errors import PermanentError, TransientError, is_transient, transient_http_status
from memory_tasks.llm import LLMOutputError, LLMPermanentError, LLMTransientError
from memory_tasks.tasks import base
from memory_tasks.tasks.base import PERMANENT_ERRORS, TRANSIENT_ERRORS, MemoryTask, Owns
from memory_tasks.vectors import milvus_store
from memory_tasks.vectors.embedders import (
    EmbeddingError,
    EmbeddingPermanentError,
    EmbeddingTransientError,
    OpenAIEmbedder,
)
from memory_tasks.vectors.milvus_store import (
    MilvusStore,
    VectorStoreError,
    VectorStorePermanentError,
    VectorStoreTransientError,
)

TRANSIENT = [
    TransientError("outage"),
    LLMTransientError("429"),
    OperationalError("SELECT 1", {}, Exception("connection refused")),
    redis.exceptions.ConnectionError("refused"),
    ConnectionError("refused"),
    TimeoutError("slow"),
    EmbeddingTransientError("503"),
    VectorStoreTransientError("unreachable"),
    MilvusException(code=2, message="service unavailable"),
    MilvusException(code=8, message="rate limit exceeded"),
    MilvusException(code=65535, message="unexpected error"),
    MilvusException(code=grpc.StatusCode.UNAVAILABLE, message="retries ran out"),
    MilvusException(code=1100, message="odd but retriable", retriable=True),
]
PERMANENT = [
    PermanentError("no"),
    LLMPermanentError("401"),
    LLMOutputError("not JSON", "{oops"),
    EmbeddingPermanentError("wrong dimension"),
    VectorStorePermanentError("wrong dimension"),
    MilvusException(code=1100, message="invalid parameter"),
    MilvusException(code=100, message="collection not found"),
    MilvusException(code=1401, message="privilege not permitted"),
    MilvusException(code=2, message="bad filter", is_input_error=True),
    MilvusException(code=grpc.StatusCode.UNAUTHENTICATED, message="bad token"),
    ParamError(message="dim must be a positive integer"),
    ValueError("a bug"),
]


@pytest.mark.parametrize("exc", TRANSIENT, ids=repr)
def test_outages_rate_limits_and_timeouts_are_transient(exc: BaseException) -> None:
    """R-PIPE-10: what heals by itself is retried later."""
    assert is_transient(exc)


@pytest.mark.parametrize("exc", PERMANENT, ids=repr)
def test_refusals_bad_input_and_bugs_are_permanent(exc: BaseException) -> None:
    """R-PIPE-10: what cannot succeed on retry fails at once."""
    assert not is_transient(exc)


def test_the_retry_policy_retries_exactly_what_the_classifier_calls_transient() -> None:
    """One taxonomy: the tasks' autoretry_for and dont_autoretry_for agree with is_transient."""
    for exc in TRANSIENT:
        if not isinstance(exc, MilvusException):  # the Milvus store raises these as VectorStore*Error
            assert isinstance(exc, TRANSIENT_ERRORS) and not isinstance(exc, PERMANENT_ERRORS), exc
    for exc in PERMANENT:
        assert not isinstance(exc, TRANSIENT_ERRORS), exc


@pytest.mark.parametrize(
    ("status", "transient"),
    [(429, True), (500, True), (503, True), (408, True), (400, False), (401, False), (403, False), (422, False)],
)
def test_http_statuses_of_a_server(status: int, transient: bool) -> None:
    """R-PIPE-10: rate limits and server errors heal; refusals of the request do not."""
    assert transient_http_status(status) is transient


# --- the base task ----------------------------------------------------------------------------

BEAT_JOBS = {
    task_names.SYNC_INDEX_BATCH,
    task_names.RESCAN_MESSAGES,
    task_names.EXPIRE_MEMORIES,
    task_names.SCHEDULE_CONSOLIDATION,
}
OWNERS = {
    task_names.EXTRACT_CANDIDATES: Owns.MESSAGE,
    task_names.REFINE_CANDIDATES: Owns.MESSAGE,
    task_names.UPSERT_MEMORIES: Owns.MESSAGE,
    task_names.EMBED_MEMORIES: Owns.MEMORIES,
    task_names.UPSERT_VECTORS: Owns.MEMORIES,
}


def _tasks() -> dict[str, MemoryTask]:
    app.loader.import_default_modules()
    return {name: task for name, task in app.tasks.items() if name.startswith("memory.")}


def test_every_task_has_the_one_retry_policy() -> None:
    """R-PIPE-10: backoff 2 s doubling to 60 s with jitter, 5 retries; beat jobs wait for the next run."""
    for name, task in _tasks().items():
        assert isinstance(task, MemoryTask), name
        assert task.autoretry_for == (() if name in BEAT_JOBS else TRANSIENT_ERRORS), name
        assert task.dont_autoretry_for == PERMANENT_ERRORS, name
        assert (task.retry_backoff, task.retry_backoff_max, task.retry_jitter, task.max_retries) == (2, 60, True, 5)
        assert task.owns is OWNERS.get(name, Owns.NOTHING), name


@pytest.fixture
def recorded_failures(monkeypatch: pytest.MonkeyPatch) -> list[tuple]:
    failures: list[tuple] = []
    monkeypatch.setattr(base.pipeline, "mark_message_failed", lambda *args: failures.append(("message", *args)))
    monkeypatch.setattr(
        base.index, "mark_vector_failed", lambda *args, **kwargs: failures.append(("vectors", *args, kwargs))
    )
    return failures


def test_a_final_failure_is_recorded_on_what_the_stage_owns(recorded_failures: list[tuple]) -> None:
    """R-SAFE-2: the message (rescan) or the memory ids (sweep) carry the error; nothing else is touched."""
    tasks = _tasks()
    tasks[task_names.EXTRACT_CANDIDATES].on_failure(LLMOutputError("not JSON", "{oops"), "t1", (42,), {}, None)
    tasks[task_names.REFINE_CANDIDATES].on_failure(LLMTransientError("429"), "t2", ({"message_id": 43},), {}, None)
    tasks[task_names.UPSERT_VECTORS].on_failure(VectorStoreTransientError("down"), "t3", ([1, 2],), {}, None)
    tasks[task_names.TOUCH_MEMORIES].on_failure(ConnectionError("down"), "t4", (7, [1], "now"), {}, None)
    tasks[task_names.REFINE_CANDIDATES].on_failure(ValueError("bug"), "t5", (None,), {}, None)
    tasks[task_names.EMBED_MEMORIES].on_failure(EmbeddingPermanentError("401"), "t6", ([3],), {}, None)
    assert recorded_failures == [
        ("message", 42, "memory.extract_candidates: LLMOutputError: not JSON\nraw output: {oops"),
        ("message", 43, "memory.refine_candidates: LLMTransientError: 429"),
        ("vectors", [1, 2], "memory.upsert_vectors: VectorStoreTransientError: down", {"outage": True}),
        ("vectors", [3], "memory.embed_memories: EmbeddingPermanentError: 401", {"outage": False}),
    ]


def test_a_chain_failing_for_good_on_an_outage_costs_its_vectors_no_attempt(recorded_failures: list[tuple]) -> None:
    """Issue 11 item 2 (R-FAIL-1): retries used up on Milvus or the embedder being down mark the
    rows FAILED as an outage (no attempt counted, `index.mark_vector_failed(outage=True)`), so a
    long outage never makes a vector DEAD; the row's own failure (a bug, a permanent error) counts."""
    tasks = _tasks()
    for exc in (
        VectorStoreTransientError("collection not loaded"),
        EmbeddingTransientError("503"),
        ConnectionError("reset"),
    ):
        tasks[task_names.UPSERT_VECTORS].on_failure(exc, "t", ([9],), {}, None)
    tasks[task_names.UPSERT_VECTORS].on_failure(KeyError("bug"), "t", ([9],), {}, None)
    assert [failure[-1] for failure in recorded_failures] == [{"outage": True}] * 3 + [{"outage": False}]


# --- the embedders and the Milvus store raise one of the two kinds ----------------------------


@pytest.fixture
def embedding_server() -> Iterator[tuple[str, list]]:
    """A /v1/embeddings endpoint answering what `answers` holds: a status code, or a vector dimension."""
    answers: list = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            answer = answers[0]
            if isinstance(answer, int):
                body = json.dumps({"error": {"message": "no", "type": "x"}}).encode()
                self.send_response(answer)
            else:
                data = [{"object": "embedding", "index": 0, "embedding": [0.1] * answer[1]}]
                body = json.dumps({"object": "list", "data": data, "model": "m"}).encode()
                self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1", answers
    server.shutdown()


def _embedder(base_url: str) -> OpenAIEmbedder:
    settings = Settings(
        _env_file=None,
        MEMORY_EMBEDDING_BASE_URL=base_url,
        MEMORY_EMBEDDING_DIM=4,
        LONG_TERM_MEMORY_UPSERT_TIMEOUT_SEC=2,
    )
    return OpenAIEmbedder(settings)


@pytest.mark.parametrize(
    ("answer", "kind"),
    [
        (503, EmbeddingTransientError),
        (429, EmbeddingTransientError),
        (401, EmbeddingPermanentError),
        (403, EmbeddingPermanentError),
        (("dim", 3), EmbeddingPermanentError),
    ],
    ids=["503", "429", "401", "403", "dimension"],
)
def test_embedding_failures_are_split_into_transient_and_permanent(
    embedding_server: tuple[str, list], answer: object, kind: type[EmbeddingError]
) -> None:
    """R-PIPE-10: a refused key or a wrong dimension fails at once; an overloaded server is retried."""
    base_url, answers = embedding_server
    answers.append(answer)
    with pytest.raises(kind):
        _embedder(base_url).embed_passages(["我喜欢喝乌龙茶"])


def test_an_unreachable_embedding_server_is_transient() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(EmbeddingTransientError):
        _embedder(f"http://127.0.0.1:{port}/v1").embed_query("hello")


class FakeMilvusClient:
    """Raises `failure` from every call; reports a collection of dimension 3."""

    failure: BaseException | None = None

    def __init__(self, **_: object) -> None:
        pass

    def has_collection(self, _name: str, **_: object) -> bool:
        if self.failure:
            raise self.failure
        return True

    def describe_collection(self, _name: str, **_: object) -> dict:
        return {"fields": [{"name": "vector", "params": {"dim": 3}}]}


@pytest.mark.parametrize(
    ("failure", "kind"),
    [
        (MilvusException(code=2, message="service unavailable"), VectorStoreTransientError),
        (MilvusException(code=grpc.StatusCode.DEADLINE_EXCEEDED, message="retry timeout"), VectorStoreTransientError),
        (MilvusException(code=1100, message="invalid parameter"), VectorStorePermanentError),
    ],
)
def test_milvus_errors_leave_the_store_as_one_of_the_two_kinds(
    monkeypatch: pytest.MonkeyPatch, failure: MilvusException, kind: type[VectorStoreError]
) -> None:
    """R-PIPE-10: MilvusException is classified by its code; callers never see it raw."""
    monkeypatch.setattr(FakeMilvusClient, "failure", failure)
    monkeypatch.setattr(milvus_store, "MilvusClient", FakeMilvusClient)
    with pytest.raises(kind) as caught:
        MilvusStore("http://milvus:19530", "memories").search(1, [0.1, 0.2, 0.3], 5)
    assert caught.value.__cause__ is failure


def test_a_collection_of_another_dimension_is_permanent(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-VEC-4: retrying cannot fix a dimension mismatch; reindex can."""
    monkeypatch.setattr(milvus_store, "MilvusClient", FakeMilvusClient)
    with pytest.raises(VectorStorePermanentError, match="dimension 3"):
        MilvusStore("http://milvus:19530", "memories").ensure_collection(4)
