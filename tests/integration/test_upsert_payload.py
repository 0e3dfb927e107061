"""The upsert stage re-validates its payload: hand-sent garbage writes nothing (issue 11 item 9; R-FAIL-4, R-SAFE-3)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from memory_tasks import app
from memory_tasks.api import list_memories, record_turn, wait_for_message
from memory_tasks.db.models import LongTermMemory
from memory_tasks.db.session import session_scope
from memory_tasks.pipeline import upsert_stage
from memory_tasks.task_names import UPSERT_MEMORIES

USER = 7401


def _stored_keys(user_id: int) -> list[str]:
    """Every memory row of the user, valid or not (list_memories hides what reads treat as noise)."""
    with session_scope() as session:
        return list(session.scalars(select(LongTermMemory.memory_key).where(LongTermMemory.user_id == user_id)))


PROFILE_99 = {
    "op": "upsert",
    "memory_type": "profile",
    "key": "display-name",
    "content": "Alice",
    "importance": 99,
    "confidence": 1.0,
}


@pytest.mark.slow
def test_a_hand_sent_upsert_of_a_profile_with_importance_99_writes_nothing(worker, db) -> None:
    """R-FAIL-4, R-SAFE-3: a `memory.upsert_memories` sent by hand to a real worker is validated like LLM output."""
    message_id = record_turn(USER, "hello there")
    app.send_task(UPSERT_MEMORIES, args=({"message_id": message_id, "candidates": [PROFILE_99]},))
    assert wait_for_message(message_id, 60)["status"] == "PROCESSED"
    assert _stored_keys(USER) == []


@pytest.mark.parametrize(
    "payload",
    [
        ["not", "a", "dict"],
        {"message_id": "1", "candidates": []},
        {"message_id": True, "candidates": []},
        {"message_id": 1, "candidates": "upsert everything"},
        {"message_id": 1},
    ],
    ids=["list", "id-as-text", "id-as-bool", "candidates-as-text", "no-candidates"],
)
def test_a_malformed_upsert_payload_is_refused_without_an_error(db, payload: Any) -> None:
    """R-FAIL-4: a payload of the wrong shape writes nothing and does not fail the task."""
    record_turn(USER, "hello there")
    assert upsert_stage(payload) == []
    assert _stored_keys(USER) == []


def test_each_candidate_is_coerced_and_gated_again(db) -> None:
    """R-FAIL-4: invalid items (profile, confidence 2, below the confidence floor, not an object) are dropped,
    the valid one is written with its importance clamped to 1..5."""
    message_id = record_turn(USER, "I play the cello")
    candidates = [
        PROFILE_99,
        {**PROFILE_99, "memory_type": "fact", "key": "cello", "content": "Plays the cello", "importance": 99},
        {"memory_type": "fact", "key": "too-sure", "content": "Is sure", "confidence": 2},
        {"memory_type": "fact", "key": "unsure", "content": "Maybe likes jazz", "confidence": 0.1},
        "upsert everything",
    ]
    touched = upsert_stage({"message_id": message_id, "candidates": candidates})
    memories = list_memories(USER)
    assert [(m["memory_key"], m["importance"]) for m in memories] == [("cello", 5)]
    assert touched == [memories[0]["id"]] and _stored_keys(USER) == ["cello"]
