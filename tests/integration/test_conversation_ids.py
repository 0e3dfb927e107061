"""Conversation ids: a chat server's own ids and the ones the sequence gives never collide or run out (R-SAFE-4)."""

from __future__ import annotations

from sqlalchemy import select, text

from memory_tasks.db.models import Conversation, Message
from memory_tasks.db.session import session_scope
from memory_tasks.turns import record_turn

LARGEST = 2**31 - 1


def _conversation_of(message_id: int) -> int:
    with session_scope() as session:
        return session.scalar(select(Message.conversation_id).where(Message.id == message_id))


def _next_sequence_id() -> int:
    with session_scope() as session:
        return session.scalar(text("SELECT nextval(pg_get_serial_sequence('conversations', 'id'))")) + 1


def test_the_largest_given_conversation_id_does_not_stop_new_conversations(db) -> None:
    """The schemathesis run found it: one turn naming conversation 2**31 - 1 moved the sequence to its end,
    and every later turn of a user without a conversation failed with 500 until the database was fixed."""
    assert _conversation_of(record_turn(9101, "我住在杭州", conversation_id=LARGEST)) == LARGEST
    started = [_conversation_of(record_turn(user_id, "我喜欢喝乌龙茶")) for user_id in (9102, 9103)]
    assert LARGEST not in started and len(set(started)) == 2
    assert _conversation_of(record_turn(9101, "我养了一只猫")) == LARGEST  # the user's latest conversation


def test_new_conversations_skip_the_ids_a_chat_server_gave(db) -> None:
    upcoming = _next_sequence_id()
    for offset in range(3):  # the next three ids of the sequence, taken by another user's chat server
        record_turn(9201, f"第{offset}句", conversation_id=upcoming + offset)
    first = _conversation_of(record_turn(9202, "我住在北京"))
    second = _conversation_of(record_turn(9203, "我住在上海"))
    assert first == upcoming + 3 and second == upcoming + 4
    with session_scope() as session:
        owners = dict(session.execute(select(Conversation.id, Conversation.user_id)).all())
    assert [owners[upcoming + offset] for offset in range(5)] == [9201, 9201, 9201, 9202, 9203]


def test_skipping_a_given_id_works_beside_the_largest_one(db) -> None:
    """The end of a run of taken ids is found with id + 1 in bigint: 2**31 - 1 + 1 overflows an integer."""
    record_turn(9301, "我住在杭州", conversation_id=LARGEST)
    upcoming = _next_sequence_id()
    record_turn(9301, "我住在北京", conversation_id=upcoming)
    assert _conversation_of(record_turn(9302, "我喜欢喝乌龙茶")) == upcoming + 1


def test_migration_0008_gives_back_a_sequence_an_older_version_exhausted(db) -> None:
    """An install that met the old bug: its sequence stands at 2**31 - 1. Upgrading through 0008 moves it back
    to the end of the first run of ids in use, and new conversations start again."""
    from alembic import command

    from memory_tasks.db.migrate import alembic_config, upgrade_to_head

    record_turn(9401, "我住在杭州", conversation_id=LARGEST)
    first_run = [_conversation_of(record_turn(9402 + index, "我喜欢喝乌龙茶")) for index in range(2)]
    with session_scope() as session:
        session.execute(text(f"SELECT setval(pg_get_serial_sequence('conversations', 'id'), {LARGEST})"))
    command.downgrade(alembic_config(), "0007")
    upgrade_to_head()
    started = _conversation_of(record_turn(9410, "我养了一只猫"))
    assert started not in (*first_run, LARGEST) and started < LARGEST
