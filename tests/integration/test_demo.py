"""`make run`'s sample conversation through the real worker stores exactly the memories a careful
person would write down (issue 13 item 7): the pin of tests/unit/test_rules_engine.py, end to end
(gate, dedup, merge and the write model included)."""

from __future__ import annotations

import pytest

from memory_tasks.api import list_memories, record_turn
from memory_tasks.demo import SAMPLE_CONVERSATION
from tests.helpers import ingest
from tests.unit.test_rules_engine import DEMO_MEMORIES

pytestmark = [pytest.mark.slow]


def test_the_demo_conversation_stores_what_a_careful_person_would_write(worker, db) -> None:
    """Issue 13 item 7: turn by turn, as the demo sends them; nothing merged away, nothing extra."""
    user_id = 7900
    for role, text in SAMPLE_CONVERSATION:
        if role == "user":
            assert ingest(user_id, text)["status"] in ("PROCESSED", "SKIPPED")
        else:
            record_turn(user_id, text, role=role)
    stored = {m["memory_key"]: (m["memory_type"], m["content"]) for m in list_memories(user_id)}
    assert stored == DEMO_MEMORIES
