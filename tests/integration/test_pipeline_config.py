"""Pipeline behaviour under non-default settings; each test starts its own worker."""

from __future__ import annotations

import pytest

from memory_tasks.api import list_memories
from tests.helpers import ingest

pytestmark = [pytest.mark.slow]


def test_disabled_memory_skips_messages(start_worker, db) -> None:
    """R-CONF: LONG_TERM_MEMORY_ENABLED=false is handled explicitly: SKIPPED, nothing stored."""
    start_worker({"LONG_TERM_MEMORY_ENABLED": "false"})
    state = ingest(507, "我喜欢喝乌龙茶")
    assert state["status"] == "SKIPPED"
    assert "disabled" in state["error"]
    assert list_memories(507) == []
