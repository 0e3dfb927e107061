"""Milvus and embedding faults classified, bounded and reported ready only when loaded (issue 11 items 5-7).

R-FAIL-1, R-FAIL-3, R-VEC-4, R-READ-3.
"""

from __future__ import annotations

from typing import Any, ClassVar

import pymilvus
import pytest
from pymilvus import MilvusException
from pymilvus.client.types import LoadState

from memory_tasks import stack
from memory_tasks.errors import is_transient
from memory_tasks.vectors import milvus_store
from memory_tasks.vectors.milvus_store import MilvusStore, VectorStorePermanentError, VectorStoreTransientError


@pytest.mark.parametrize(
    "exc",
    [
        MilvusException(code=101, message="collection not loaded[collection=memory_text_v1]"),
        MilvusException(code=103, message="collection not fully loaded"),
        MilvusException(code=65535, message="fail to search on QueryNode: collection is loading"),
        MilvusException(code=2, message="service unavailable: Milvus Proxy is not ready yet"),
    ],
    ids=["not-loaded", "not-fully-loaded", "loading", "proxy-not-ready"],
)
def test_a_collection_not_loaded_or_loading_is_transient(exc: MilvusException) -> None:
    """R-FAIL-1: after a Milvus restart the collection reloads; meanwhile its errors are retried, never final."""
    assert is_transient(exc)


@pytest.mark.parametrize(
    "exc",
    [
        MilvusException(code=1400, message="not authenticated: invalid user or password"),
        MilvusException(code=1401, message="privilege not permitted"),
    ],
    ids=["bad-credentials", "not-permitted"],
)
def test_bad_credentials_are_permanent(exc: MilvusException) -> None:
    """R-PIPE-10: a refused login fails at once (no retry can fix it)."""
    assert not is_transient(exc)


class RecordingClient:
    """A MilvusClient that records each call's keyword arguments; `state` is the collection's load state."""

    calls: ClassVar[list[tuple[str, dict[str, Any]]]] = []
    state: ClassVar[LoadState] = LoadState.Loaded
    failure: ClassVar[BaseException | None] = None

    def __init__(self, **_: object) -> None:
        pass

    def _record(self, name: str, kwargs: dict[str, Any]) -> None:
        self.calls.append((name, kwargs))
        if self.failure:
            raise self.failure

    def has_collection(self, _name: str, **kwargs: Any) -> bool:
        self._record("has_collection", kwargs)
        return True

    def describe_collection(self, _name: str, **kwargs: Any) -> dict:
        self._record("describe_collection", kwargs)
        return {"fields": [{"name": "vector", "params": {"dim": 3}}]}

    def load_collection(self, _name: str, **kwargs: Any) -> None:
        self._record("load_collection", kwargs)
        RecordingClient.state = LoadState.Loaded

    def search(self, _name: str, **kwargs: Any) -> list:
        self._record("search", kwargs)
        return [[{"id": 7, "distance": 0.9}]]

    def list_collections(self) -> list[str]:
        return ["memory_text_v1"]

    def get_load_state(self, _name: str, **_: Any) -> dict:
        return {"state": self.state}

    def close(self) -> None:
        pass


@pytest.fixture
def client(monkeypatch: pytest.MonkeyPatch) -> type[RecordingClient]:
    monkeypatch.setattr(RecordingClient, "calls", [])
    monkeypatch.setattr(RecordingClient, "state", LoadState.Loaded)
    monkeypatch.setattr(RecordingClient, "failure", None)
    monkeypatch.setattr(milvus_store, "MilvusClient", RecordingClient)
    monkeypatch.setattr(pymilvus, "MilvusClient", RecordingClient)
    return RecordingClient


def test_a_chat_path_search_bounds_every_milvus_call_by_its_timeout(client: type[RecordingClient]) -> None:
    """R-FAIL-3, R-READ-3: the search, and the load of a collection not yet ensured, carry the retrieval budget."""
    hits = MilvusStore("http://milvus:19530", "memory_text_v1").search(1, [0.1, 0.2, 0.3], 5, timeout=0.5)
    assert [h.memory_id for h in hits] == [7]
    assert {name for name, _ in client.calls} == {"has_collection", "describe_collection", "load_collection", "search"}
    assert all(kwargs.get("timeout") == 0.5 for _, kwargs in client.calls), client.calls


def test_a_search_past_its_timeout_is_a_transient_vector_store_error(client: type[RecordingClient]) -> None:
    """R-READ-3: a timed-out search raises the store's transient error, on which retrieval falls back to lexical."""
    client.failure = MilvusException(code=1, message="rpc deadline exceeded")
    with pytest.raises(VectorStoreTransientError):
        MilvusStore("http://milvus:19530", "memory_text_v1").search(1, [0.1, 0.2, 0.3], 5, timeout=0.5)


def test_bad_milvus_credentials_fail_the_store_permanently(client: type[RecordingClient]) -> None:
    """R-PIPE-10: a refused login leaves the store as VectorStorePermanentError (stored as the vector_error)."""
    client.failure = MilvusException(code=1400, message="not authenticated")
    with pytest.raises(VectorStorePermanentError, match="not authenticated"):
        MilvusStore("http://milvus:19530", "memory_text_v1").ensure_collection(3)


@pytest.mark.parametrize(
    ("state", "ready"),
    [(LoadState.Loading, False), (LoadState.Loaded, True), (LoadState.NotLoad, True)],
    ids=["loading", "loaded", "not-loaded-then-loaded"],
)
def test_milvus_is_ready_only_once_the_collection_is_loaded(
    client: type[RecordingClient], state: LoadState, ready: bool
) -> None:
    """Issue 11 item 7: `make up` waits while the collection loads after a restart, and loads one nobody loads."""
    client.state = state
    assert stack.milvus_ready("http://milvus:19530", "memory_text_v1") is ready
    assert stack.milvus_ready("http://milvus:19530", "another_collection") is True  # created on first use
