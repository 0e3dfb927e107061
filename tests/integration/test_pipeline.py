"""The per-message chain end to end: real worker, real PostgreSQL, Redis and Milvus (R-PIPE, R-VEC-1)."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import func, select, update

from memory_tasks.api import enqueue_turn, list_memories, message_state, record_turn, wait_for_message
from memory_tasks.db.models import LongTermMemory, MemoryHistory, Message
from memory_tasks.db.session import session_scope
from memory_tasks.vectors.milvus_store import get_store
from tests import task_events
from tests.helpers import ingest
from tests.task_events import TaskLog

pytestmark = [pytest.mark.slow]

task_log = task_events.task_log


def _snapshot(user_id: int) -> tuple[list[tuple], int]:
    with session_scope() as session:
        rows = session.execute(
            select(
                LongTermMemory.id,
                LongTermMemory.memory_key,
                LongTermMemory.content,
                LongTermMemory.is_active,
                LongTermMemory.revision,
            )
            .where(LongTermMemory.user_id == user_id)
            .order_by(LongTermMemory.id)
        ).all()
        history = session.scalar(select(func.count()).where(MemoryHistory.user_id == user_id))
    return [tuple(r) for r in rows], history


@pytest.mark.parametrize(
    ("text", "memory_type", "needle"),
    [("我喜欢吃川菜", "preference", "川菜"), ("I live in Berlin", "fact", "Berlin")],
)
def test_user_message_ends_synced_and_in_milvus(worker, db, text: str, memory_type: str, needle: str) -> None:
    """R-PIPE-1, R-VEC-1: the whole chain turns a statement into a SYNCED memory with its vector in Milvus."""
    user_id = 501 if memory_type == "preference" else 502
    state = ingest(user_id, text)
    assert state["status"] == "PROCESSED", state
    memories = list_memories(user_id)
    assert [m["memory_type"] for m in memories] == [memory_type]
    assert needle in memories[0]["content"]
    assert memories[0]["vector_status"] == "SYNCED"
    stored = get_store().stored([memories[0]["id"]])
    assert stored[memories[0]["id"]].user_id == user_id


def test_reenqueued_message_leaves_the_same_rows(worker, db) -> None:
    """R-PIPE-6: processing a message twice (redelivery, rescan) changes nothing the second time."""
    state = ingest(503, "以后回复尽量用中文")
    assert state["status"] == "PROCESSED"
    before = _snapshot(503)
    with session_scope() as session:
        session.execute(update(Message).where(Message.id == state["message_id"]).values(memory_status="PENDING"))
    enqueue_turn(state["message_id"], countdown=0)
    again = wait_for_message(state["message_id"], 60)
    assert again["status"] == "PROCESSED"
    assert _snapshot(503) == before


def test_assistant_message_produces_no_memory(worker, db) -> None:
    """R-DATA-2: assistant turns are context, never a fact source."""
    message_id = record_turn(504, "You live in Berlin and love Sichuan food.", role="assistant")
    enqueue_turn(message_id, countdown=0)
    state = wait_for_message(message_id, 30)
    assert state["status"] == "SKIPPED"
    assert list_memories(504) == []


def test_short_term_request_and_small_talk_store_nothing(worker, db) -> None:
    """R-TYPE-3, R-PIPE-8: a reminder for tonight is not a long-term memory; 好的 is skipped."""
    assert ingest(505, "今晚提醒我给妈妈打电话")["status"] == "PROCESSED"
    assert ingest(505, "好的")["status"] == "SKIPPED"
    assert list_memories(505) == []


def test_new_value_of_a_single_valued_slot_overwrites(worker, db) -> None:
    """R-PIPE-5: 我住在北京 then 我搬到上海了 leaves only 上海 active, under one key."""
    ingest(506, "我住在北京")
    ingest(506, "我搬到上海了")
    contents = [m["content"] for m in list_memories(506) if m["memory_type"] == "fact"]
    assert len(contents) == 1 and "上海" in contents[0] and "北京" not in contents[0]


def test_unknown_message_id_is_a_quiet_no_op(worker, db, task_log: TaskLog) -> None:
    """Saleor rule: a task whose row is gone returns quietly, and its chain ends there (issue 12 item 2)."""
    from memory_tasks.dispatch import message_chain

    message_chain(987654321).apply_async()
    deadline = time.monotonic() + 30
    while not task_log.runs() and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(3)
    assert [name for _, name, _ in task_log.runs()] == ["memory.extract_candidates"]
    assert message_state(987654321) is None
