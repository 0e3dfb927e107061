"""A burst of one user's turns across several worker processes ends where one-by-one does (R-PIPE-6/7)."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import func, select
from sqlalchemy import text as sql_text

from memory_tasks.api import enqueue_turn, list_memories, message_state, record_turn, wait_for_message
from memory_tasks.db.models import LongTermMemory
from memory_tasks.db.session import session_scope
from memory_tasks.memories.store import USER_WRITE_LOCK_NAMESPACE, lock_user
from tests.helpers import ingest

pytestmark = [pytest.mark.slow]

TURNS = [
    "我住在北京",
    "我喜欢吃川菜",
    "I work as a nurse",
    "我喜欢喝奶茶",
    "以后回复尽量用中文",
    "我搬到上海了",
    "I have a cat",
    "我不喝奶茶了",
    "我的目标是年底前考过N1",
    "我正在开发PAI项目",
    "I moved to Shenzhen",
    "我对花生过敏",
    "回复不超过200字",
    "我喜欢喝奶茶",
    "I'm a vegetarian",
    "我喜欢听爵士乐",
    "我搬到杭州了",
    "I love hiking",
    "以后回复用英文",
    "我不喝奶茶了",
]


def _state(user_id: int) -> list[tuple]:
    return sorted((m["memory_type"], m["memory_key"], m["content"]) for m in list_memories(user_id))


def _rows(user_id: int) -> int:
    with session_scope() as session:
        return session.scalar(select(func.count()).where(LongTermMemory.user_id == user_id))


def test_concurrent_burst_of_one_user_matches_sequential_processing(start_worker, db) -> None:
    """R-PIPE-7: per-user lock + statement time: no duplicate, no lost update, same end state."""
    start_worker(concurrency=2)
    start_worker(concurrency=2)

    for text in TURNS:
        assert ingest(901, text)["status"] in ("PROCESSED", "SKIPPED")
    sequential = _state(901)

    message_ids = [record_turn(902, text) for text in TURNS]
    # Newest first: the most adversarial order a backlog, retries or a rescan can produce.
    for message_id in reversed(message_ids):
        enqueue_turn(message_id, countdown=0)
    states = [wait_for_message(message_id, 180) for message_id in message_ids]
    assert all(s["status"] in ("PROCESSED", "SKIPPED") for s in states), states
    concurrent = _state(902)

    assert concurrent == sequential
    assert ("fact", "residence-city", "住在杭州") in sequential
    assert not any("奶茶" in content for _, _, content in sequential)
    assert _rows(902) == _rows(901)  # no duplicate row either, active or not


def _waiting_for_write_lock(user_id: int) -> int:
    """How many database sessions wait for the user's write lock right now."""
    with session_scope() as session:
        return session.scalar(
            sql_text(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
                "AND classid = :namespace AND objid = :user_id AND objsubid = 2"
            ),
            {"namespace": USER_WRITE_LOCK_NAMESPACE, "user_id": user_id},
        )


def _wait_until(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True


def test_different_users_do_not_wait_for_each_other(start_worker, db) -> None:
    """R-PIPE-7: the write lock is per user: while user A's lock is held, A's write waits and B's
    whole burst finishes; then A's finishes too, and both end alike, isolated."""
    start_worker(concurrency=2)
    first_of_a = record_turn(903, TURNS[0])
    with session_scope() as holder:
        lock_user(holder, 903)  # held until this block ends, as a long write of user A would
        enqueue_turn(first_of_a, countdown=0)
        assert _wait_until(lambda: _waiting_for_write_lock(903) == 1, 60), "A's write never reached the lock"
        for text_b in TURNS[:6]:
            assert ingest(904, text_b)["status"] in ("PROCESSED", "SKIPPED")
        # It should still be waiting: B never needed A's lock, and A never got it.
        assert _waiting_for_write_lock(903) == 1
        assert message_state(first_of_a)["status"] == "PENDING"
    assert wait_for_message(first_of_a, 60)["status"] == "PROCESSED"
    for text_a in TURNS[1:6]:
        assert ingest(903, text_a)["status"] in ("PROCESSED", "SKIPPED")
    assert _state(903) == _state(904)
    assert {m["user_id"] for m in list_memories(903)} == {903}
