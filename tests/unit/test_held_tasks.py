"""Which deliveries a worker gives back after a Redis restart: debounce triggers only (R-FAIL-1)."""

from __future__ import annotations

import json

import pytest

from memory_tasks.held_tasks import _is_trigger


def _delivery(task: object) -> str:
    return json.dumps([{"body": "e30=", "headers": {"task": task, "eta": "2026-12-02T12:00:00+00:00"}}, "", "llm"])


def test_a_release_trigger_is_given_back() -> None:
    assert _is_trigger(_delivery("memory.release_trigger"))


@pytest.mark.parametrize("task", ["memory.extract_candidates", "memory.upsert_vectors", None, 7])
def test_other_tasks_may_still_be_running_and_are_left_to_the_visibility_timeout(task: object) -> None:
    assert not _is_trigger(_delivery(task))


@pytest.mark.parametrize("raw", [b"not json", b"[]", b"{}", b'[{"headers": null}]', b"[1, 2, 3]"])
def test_an_unreadable_delivery_is_left_alone(raw: bytes) -> None:
    assert not _is_trigger(raw)
