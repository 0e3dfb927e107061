"""Confirm, don't rewrite (R-WRITE-3): real PostgreSQL, Milvus and (for the bursts) a real worker.

A statement that says what an active memory already says refreshes it — expiry, confidence,
`last_confirmed_at`, history op "confirm" — and keeps its text, revision and vector. A changed
value or a new detail still overwrites.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from memory_tasks.api import record_turn
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import HistorySource, LongTermMemory, MemoryHistory
from memory_tasks.db.session import session_scope
from memory_tasks.extraction.candidates import Candidate
from memory_tasks.memories.store import WriteContext, lock_user
from memory_tasks.memories.write_path import write_candidates
from memory_tasks.vectors import index
from memory_tasks.vectors.milvus_store import get_store
from tests.helpers import ingest

pytestmark = [pytest.mark.slow]


def _active(user_id: int) -> list[tuple]:
    """Every column of the user's active memories a confirmation must leave alone, by id."""
    with session_scope() as session:
        rows = session.execute(
            select(
                LongTermMemory.id,
                LongTermMemory.memory_key,
                LongTermMemory.memory_type,
                LongTermMemory.content,
                LongTermMemory.revision,
                LongTermMemory.vector_status,
                LongTermMemory.vector_text_hash,
                LongTermMemory.is_core,
            )
            .where(LongTermMemory.user_id == user_id, LongTermMemory.is_active.is_(True))
            .order_by(LongTermMemory.id)
        )
        return [tuple(row) for row in rows]


def _ops(user_id: int) -> list[tuple]:
    with session_scope() as session:
        rows = session.execute(
            select(MemoryHistory.memory_key, MemoryHistory.op, MemoryHistory.old_content, MemoryHistory.new_content)
            .where(MemoryHistory.user_id == user_id)
            .order_by(MemoryHistory.id)
        )
        return [tuple(row) for row in rows]


def _write(user_id: int, message_id: int, *candidates: Candidate, days_later: int = 0) -> list[int]:
    with session_scope() as session:
        lock_user(session, user_id)
        now = db_now(session) + timedelta(days=days_later)
        ctx = WriteContext(user_id, HistorySource.EXTRACTION, now, 180, message_id=message_id, stated_at=now)
        return write_candidates(session, ctx, list(candidates)).touched


def test_a_paraphrase_confirms_and_keeps_text_revision_and_vector(db, milvus_env) -> None:
    user = 1401
    first = record_turn(user, "我很喜欢川菜")
    [memory_id] = _write(user, first, Candidate("upsert", "preference", "food-sichuan-cuisine", "很喜欢川菜"))
    index.sync_vectors([memory_id])
    before = _active(user)
    with session_scope() as session:
        expires_before = session.get(LongTermMemory, memory_id).expires_at

    again = record_turn(user, "我特别爱吃川菜")
    touched = _write(
        user,
        again,
        Candidate("upsert", "preference", "food-sichuan-cuisine", "特别爱吃川菜", confidence=0.95),
        days_later=3,
    )
    assert touched == []  # nothing for index sync: no re-embedding, no Milvus write
    assert _active(user) == before
    assert before[0][5] == "SYNCED"
    with session_scope() as session:
        row = session.get(LongTermMemory, memory_id)
        assert row.last_confirmed_at is not None
        assert row.expires_at >= expires_before + timedelta(days=3)
        assert row.confidence == pytest.approx(0.95)
    assert _ops(user)[-1] == ("food-sichuan-cuisine", "confirm", "很喜欢川菜", "很喜欢川菜")

    # The same turn delivered again confirms nothing twice.
    _write(user, again, Candidate("upsert", "preference", "food-sichuan-cuisine", "特别爱吃川菜"), days_later=3)
    assert [op for _, op, *_ in _ops(user)].count("confirm") == 1


@pytest.mark.parametrize(
    ("stored", "stated"),
    [
        ("住在北京", "住在上海"),  # a changed value
        ("住在北京", "住在北京朝阳区"),  # a new detail
        ("Wakes up at 6", "Wakes up at 6:30"),  # a new number
        ("喜欢川菜", "喜欢川菜和湘菜"),  # a new item
    ],
)
def test_a_changed_value_or_new_detail_still_overwrites(db, milvus_env, stored: str, stated: str) -> None:
    user = 1402
    first = record_turn(user, stored)
    _write(user, first, Candidate("upsert", "fact", "slot", stored))
    later = record_turn(user, stated)
    assert _write(user, later, Candidate("upsert", "fact", "slot", stated), days_later=1) != []
    [(_id, _key, _type, content, revision, *_)] = _active(user)
    assert (content, revision) == (stated, 2)
    assert _ops(user)[-1][1] == "upsert"


FIRST_BURST = ["我很喜欢川菜", "我住在北京", "以后回复尽量用中文", "I am allergic to peanuts", "I love Italian food."]
# The same facts again, mostly in other words.
REPEAT_BURST = [
    "我特别爱吃川菜",
    "我现在住在北京",
    "以后回复尽量用中文",
    "I am allergic to peanuts",
    "I really love Italian food.",
]


def test_sending_a_burst_again_in_any_order_leaves_identical_memories(worker, db) -> None:
    user = 1403
    for text in FIRST_BURST:
        assert ingest(user, text)["status"] == "PROCESSED"
    before = _active(user)
    assert len(before) == len(FIRST_BURST)
    assert {status for *_, status, _hash, _core in before} == {"SYNCED"}
    stored_vectors = get_store().stored([row[0] for row in before])
    history_before = len(_ops(user))

    for burst in (REPEAT_BURST, list(reversed(REPEAT_BURST))):
        for text in burst:
            assert ingest(user, text)["status"] == "PROCESSED"
        assert _active(user) == before
    assert get_store().stored([row[0] for row in before]) == stored_vectors
    new_ops = _ops(user)[history_before:]
    assert [op for _, op, *_ in new_ops] == ["confirm"] * (2 * len(REPEAT_BURST))
    assert all(old == new for _, _, old, new in new_ops)
