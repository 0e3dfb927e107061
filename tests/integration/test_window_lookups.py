"""Every lookup of a window's turns by its run reads an index, not the messages table (issue 12).

Each stage of a window finds the turns it holds by `memory_window_run` (begin and end of the
attempt, a failure's marking, a redelivered trigger). Without an index each of those read every
message: 90 ms at 1M messages, several times per window and stage. The plans are read at 100k
messages, where PostgreSQL's planner would scan the table if no index answered.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from sqlalchemy import text

from memory_tasks import pipeline
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import Message
from memory_tasks.db.session import get_engine, session_scope
from memory_tasks.db.windows import claim_window
from tests.helpers import statements_sent

pytestmark = [pytest.mark.slow]

RUN_ID = "run-held"
# 100k old, finished turns of 1,000 users, then one window of three turns held by RUN_ID.
FILL = """
INSERT INTO users (id) SELECT g FROM generate_series(1, 1000) g;
INSERT INTO conversations (id, user_id) SELECT g, g FROM generate_series(1, 1000) g;
INSERT INTO messages (id, user_id, conversation_id, role, content, memory_status, created_at, updated_at)
SELECT g, 1 + g % 1000, 1 + g % 1000, 'user', 'message ' || g, 'PROCESSED',
       now() - interval '1 day', now() - interval '1 day'
FROM generate_series(1, 100000) g;
INSERT INTO messages (id, user_id, conversation_id, role, content, memory_status, memory_claimed_at,
                      memory_window_run, created_at, updated_at)
SELECT 100000 + g, 7, 7, 'user', 'held ' || g, 'PENDING', now(), :run_id, now(), now()
FROM generate_series(1, 3) g;
ANALYZE users, conversations, messages;
"""
LEADER_ID = 100003


def _redelivered_trigger_claim() -> None:
    with session_scope() as session:
        leader = session.get(Message, LEADER_ID, with_for_update=True)
        claim_window(session, leader, RUN_ID, db_now(session), max_wait_sec=5, max_turns=8, lease_sec=300)


LOOKUPS: dict[str, Callable[[], object]] = {
    "begin_attempt": lambda: pipeline.begin_attempt(LEADER_ID, 5),
    "end_attempt": lambda: pipeline.end_attempt(LEADER_ID),
    "mark_message_failed": lambda: pipeline.mark_message_failed(LEADER_ID, "boom"),
    "redelivered trigger": _redelivered_trigger_claim,
}


@pytest.mark.parametrize("lookup", list(LOOKUPS))
def test_a_windows_turns_are_found_by_index_at_100k_messages(db, lookup: str) -> None:
    """Issue 12 (rescan and window queries flat from 10k to 1M messages): no statement that
    selects by the window's run scans the messages table."""
    with get_engine().begin() as connection:
        connection.execute(text(FILL), {"run_id": RUN_ID})
    with statements_sent() as sent:
        LOOKUPS[lookup]()
    by_run = [(s, p) for s, p in sent if "memory_window_run =" in s and "messages" in s]
    assert by_run, "the lookup sent no statement selecting by the window's run"
    raw = get_engine().raw_connection()
    try:
        with raw.cursor() as cursor:
            for statement, parameters in by_run:
                cursor.execute("EXPLAIN " + statement, parameters)
                plan = "\n".join(row[0] for row in cursor.fetchall())
                assert "Seq Scan on messages" not in plan, f"{statement}\n{plan}"
        raw.rollback()
    finally:
        raw.close()
