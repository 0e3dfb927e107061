"""A compaction is waited for, within a bound, and its outcome reported (issue 11 item 7; R-VEC-4).

The pymilvus client is replaced by one that answers the compaction calls as Milvus 2.3 does.
"""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from memory_tasks.vectors import milvus_store
from memory_tasks.vectors.milvus_store import MilvusStore


class CompactingClient:
    """Milvus whose compaction job reports `states` one poll after another (the last one repeats)."""

    states: ClassVar[list[str]] = []
    polls = 0

    def __init__(self, **_: Any) -> None:
        pass

    def has_collection(self, _name: str, **_: Any) -> bool:
        return True

    def compact(self, _name: str, **_: Any) -> int:
        return 42

    def get_compaction_state(self, job_id: int, **_: Any) -> str:
        assert job_id == 42
        CompactingClient.polls += 1
        return self.states[min(self.polls, len(self.states)) - 1]

    def list_persistent_segments(self, _name: str, **_: Any) -> list[int]:
        return [1, 2] if self.states[-1] == "Completed" else [1, 2, 3, 4, 5]


@pytest.fixture
def client(monkeypatch: pytest.MonkeyPatch) -> type[CompactingClient]:
    monkeypatch.setattr(CompactingClient, "polls", 0)
    monkeypatch.setattr(milvus_store, "MilvusClient", CompactingClient)
    monkeypatch.setattr(milvus_store, "COMPACTION_POLL_SEC", 0.0)
    return CompactingClient


def test_a_compaction_is_waited_for_until_milvus_says_it_completed(client: type[CompactingClient]) -> None:
    """Issue 11 item 7: not fire-and-forget: the store polls the job until Completed, then counts the segments."""
    client.states = ["Executing", "Executing", "Completed"]
    compaction = MilvusStore("http://milvus:19530", "memory_text_v1").compact(timeout=60)
    assert compaction is not None and compaction.completed
    assert client.polls == 3
    assert compaction.segments == 2


def test_a_compaction_still_running_when_the_wait_ends_is_reported_unfinished(client: type[CompactingClient]) -> None:
    """Issue 11 item 7: the wait is bounded; a job still executing then is reported so, with the segments left."""
    client.states = ["Executing"]
    compaction = MilvusStore("http://milvus:19530", "memory_text_v1").compact(timeout=0)
    assert compaction is not None and not compaction.completed
    assert compaction.segments == 5
