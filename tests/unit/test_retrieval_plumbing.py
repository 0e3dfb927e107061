"""Reindex naming, the touch task's contract and the once-only outage log (no services needed)."""

from __future__ import annotations

import logging

import pytest

from memory_tasks.retrieval.outage import Outage


def test_the_touch_task_keeps_its_name_and_goes_to_the_index_queue() -> None:
    """R-READ-5: reads publish memory.touch_memories by name; it runs beside index sync."""
    from config.celery import TASK_ROUTES
    from memory_tasks.task_names import TOUCH_MEMORIES as TOUCH_TASK
    from memory_tasks.tasks import app

    assert TOUCH_TASK == "memory.touch_memories" and TOUCH_TASK in app.tasks
    assert TASK_ROUTES[TOUCH_TASK]["queue"] == "index"


def test_an_outage_is_logged_when_it_starts_and_when_it_ends(caplog) -> None:
    outage = Outage("thing", logging.getLogger("test.outage"))
    with caplog.at_level(logging.INFO, logger="test.outage"):
        for _ in range(3):
            outage.failed(ConnectionError("refused"))
        outage.recovered()
        outage.recovered()
    assert [r.getMessage() for r in caplog.records] == [
        "thing unavailable: ConnectionError: refused",
        "thing available again",
    ]


def test_an_outage_is_skipped_only_within_its_retry_window(monkeypatch) -> None:
    clock = [100.0]
    monkeypatch.setattr("memory_tasks.retrieval.outage.time.monotonic", lambda: clock[0])
    outage = Outage("thing", logging.getLogger("test.outage"))
    assert not outage.skip()
    outage.failed("down", retry_sec=30)
    assert outage.skip()
    clock[0] += 31
    assert not outage.skip() and outage.down


@pytest.mark.parametrize(
    ("live", "existing", "expected"),
    [
        ("memory_text_v1", set(), "memory_text_v2"),
        ("memory_text_v1", {"memory_text_v2"}, "memory_text_v3"),
        ("memories", set(), "memories_v2"),
    ],
)
def test_the_next_collection_name_skips_existing_ones(monkeypatch, live, existing, expected) -> None:
    from memory_tasks.vectors import reindex

    class FakeStore:
        def __init__(self, name: str) -> None:
            self.name = name

        def dimension(self) -> int | None:
            return 384 if self.name in existing else None

    monkeypatch.setattr(reindex, "_store", FakeStore)
    assert reindex.next_collection_name(live) == expected
