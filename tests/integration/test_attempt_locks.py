"""The attempt bookkeeping keeps the lock order of debounce windows: the conversation, then its turns (issue 12).

A stage's `begin_attempt` / `end_attempt` try a one-row UPDATE first. When a window took the
turn while that UPDATE waited for the row, PostgreSQL keeps the row locked although nothing
matched; the full path then waits for the conversation's lock. Holding the turn there
deadlocked with a trigger holding the conversation and waiting for the turn (the full LoCoMo
bench, 2026-12-01 22:36 UTC: three extraction tasks retried after DeadlockDetected).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Connection

from memory_tasks import pipeline
from memory_tasks.db.models import MessageStatus
from memory_tasks.db.session import get_engine
from memory_tasks.turns import record_turn
from tests.helpers import statements_sent

USER = 9_410


def _wait_until_blocked(watcher: Connection, statement_like: str, timeout: float = 10.0) -> None:
    """Return once a backend waits for a lock while running a statement like `statement_like`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        waiting = watcher.execute(
            text(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND datname = current_database() AND query ILIKE :like"
            ),
            {"like": statement_like},
        ).scalar_one()
        if waiting:
            return
        time.sleep(0.05)
    raise AssertionError(f"no backend blocked on {statement_like!r} within {timeout} s")


def _in_thread(call: Callable[[], object]) -> tuple[threading.Thread, list[object]]:
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(call())
        except Exception as exc:  # noqa: BLE001 - the test asserts on it
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, outcome


@pytest.mark.parametrize(
    ("bookkeeping", "fast_update", "expected"),
    [
        (
            lambda m: pipeline.begin_attempt(m, 5),
            "UPDATE messages SET memory_attempts=(messages.memory_attempts + %",
            True,
        ),
        (pipeline.end_attempt, "UPDATE messages SET memory_attempts=(messages.memory_attempts - %", None),
    ],
    ids=["begin_attempt", "end_attempt"],
)
def test_attempt_bookkeeping_on_a_turn_a_window_took_meanwhile_does_not_deadlock_with_a_trigger(
    db, bookkeeping, fast_update: str, expected: object
) -> None:
    """Issue 12 / R-SAFE-1: the full path of the bookkeeping holds no row of the fast path while it
    waits for the conversation, so a trigger holding the conversation can lock the turn."""
    message_id = record_turn(USER, "I moved to Lisbon last year.")
    engine = get_engine()
    with engine.connect() as window_run, engine.connect() as trigger, engine.connect() as watcher:
        watcher.execution_options(isolation_level="AUTOCOMMIT")
        # A stage counted one attempt on the lone turn (so both fast paths match it as they find
        # it), then another run takes the turn into its window and has not committed yet.
        watcher.execute(text("UPDATE messages SET memory_attempts = 1 WHERE id = :id"), {"id": message_id})
        window_run.execute(
            text("UPDATE messages SET memory_window_run = 'other-run', memory_claimed_at = now() WHERE id = :id"),
            {"id": message_id},
        )
        thread, outcome = _in_thread(lambda: bookkeeping(message_id))
        _wait_until_blocked(watcher, fast_update)
        # A trigger of the conversation holds its lock, as `claim_window`'s caller does.
        conversation_id = trigger.execute(
            text("SELECT conversation_id FROM messages WHERE id = :id"), {"id": message_id}
        ).scalar_one()
        trigger.execute(text("SELECT id FROM conversations WHERE id = :id FOR UPDATE"), {"id": conversation_id})
        window_run.commit()
        _wait_until_blocked(watcher, "%FROM conversations%FOR UPDATE%")
        # The trigger now locks the turn, as the window claim does; with the row still held by
        # the bookkeeping this is a deadlock, and PostgreSQL fails one of the two.
        trigger.execute(text("SET LOCAL lock_timeout = '10s'"))
        locked = trigger.execute(
            text("SELECT id FROM messages WHERE id = :id FOR UPDATE"), {"id": message_id}
        ).scalar_one()
        trigger.commit()
        thread.join(timeout=15)

    assert locked == message_id
    assert outcome == [expected]


def _state(message_id: int) -> tuple[str, int]:
    with get_engine().connect() as connection:
        row = connection.execute(
            text("SELECT memory_status, memory_attempts FROM messages WHERE id = :id"), {"id": message_id}
        ).one()
    return row.memory_status, row.memory_attempts


def test_a_trigger_whose_own_turn_is_out_of_attempts_ends_it_dead_and_runs_the_rest_of_its_window(db) -> None:
    """R-FAIL-2, issue 12: the trigger counts its window's attempts itself. Its own turn, out of
    attempts, is DEAD with them all counted; the window's other turn is extracted and gets its
    attempt back (the give-back speaks for a turn the run holds, not for the dead one)."""
    earlier = record_turn(USER, "我平时用 React 写前端。")
    trigger = record_turn(USER, "我是素食者，但是吃鸡蛋。")
    with get_engine().begin() as connection:
        connection.execute(text("UPDATE messages SET memory_attempts = 5 WHERE id = :id"), {"id": trigger})
    payload = pipeline.extract_stage(trigger, "run-dead-leader")
    assert _state(trigger) == ("DEAD", 5)
    assert payload is not None and payload["message_id"] == earlier and payload["message_ids"] == [earlier]
    assert _state(earlier) == ("PENDING", 0)


def test_finishing_a_window_does_not_wait_for_a_trigger_holding_its_conversation(db) -> None:
    """Issue 12 / R-SAFE-1: the trigger's finishing transaction writes each turn once. A turn
    written twice in one transaction has PostgreSQL check its conversation key (FOR KEY SHARE),
    which waits for a trigger holding the conversation while that trigger waits for the turn:
    three deadlocks in the full LoCoMo bench (2026-12-03) before the give-back moved after `_finish`."""
    first, second = record_turn(USER, "The weather was nice."), record_turn(USER, "We walked a lot.")
    with get_engine().begin() as connection:
        connection.execute(
            text("UPDATE messages SET memory_attempts = 1 WHERE id IN (:a, :b)"), {"a": first, "b": second}
        )
    with get_engine().connect() as trigger:
        conversation_id = trigger.execute(
            text("SELECT conversation_id FROM messages WHERE id = :id"), {"id": first}
        ).scalar_one()
        trigger.execute(text("SELECT id FROM conversations WHERE id = :id FOR UPDATE"), {"id": conversation_id})
        thread, outcome = _in_thread(lambda: pipeline._finish_all([first, second], MessageStatus.PROCESSED, {}))
        thread.join(timeout=5)
        finished_while_held = not thread.is_alive()
        trigger.rollback()
        thread.join(timeout=10)
    assert finished_while_held and outcome == [None]
    assert _state(first) == ("PROCESSED", 0) and _state(second) == ("PROCESSED", 0)


def _sent_about(sent: list[tuple[str, object]], table: str) -> list[str]:
    return [statement for statement, _ in sent if f" {table} " in f" {statement} ".replace("\n", " ")]


def test_a_stage_of_a_one_turn_window_counts_and_gives_back_its_attempt_in_one_statement_each(db) -> None:
    """Issue 12: the stage's payload names its run and a window of one turn, so the bookkeeping
    around refine and upsert neither locks the conversation nor looks the window up."""
    message_id = record_turn(USER, "我平时用 React 写前端。")
    payload = pipeline.extract_stage(message_id, "run-lone")
    assert payload is not None and payload["message_ids"] == [message_id] and payload["run_id"] == "run-lone"
    window = pipeline.StageWindow.of(payload)
    with statements_sent() as began:
        assert pipeline.begin_attempt(message_id, 5, window) is True
    assert _state(message_id) == ("PENDING", 1)
    with statements_sent() as ended:
        pipeline.end_attempt(message_id, window)
    assert _state(message_id) == ("PENDING", 0)
    for sent in (began, ended):
        assert _sent_about(sent, "conversations") == []
        assert len(_sent_about(sent, "messages")) == 1


def test_a_stage_of_a_window_of_several_turns_counts_every_turn_without_a_one_row_try_first(db) -> None:
    """Issue 12: a payload naming several turns goes straight to the window's path (the one-row
    statement could never match it) and counts an attempt on each turn."""
    first = record_turn(USER, "我平时用 React 写前端。")
    second = record_turn(USER, "我是素食者，但是吃鸡蛋。")
    payload = pipeline.extract_stage(second, "run-pair")
    assert payload is not None and payload["message_ids"] == [first, second]
    with statements_sent() as sent:
        assert pipeline.begin_attempt(second, 5, pipeline.StageWindow.of(payload)) is True
    assert not [s for s, _ in sent if "memory_window_run IS NULL" in s]
    assert (_state(first), _state(second)) == (("PENDING", 1), ("PENDING", 1))


def test_a_stage_whose_turn_another_run_took_counts_that_runs_whole_window(db) -> None:
    """R-FAIL-2: a payload saying its run holds the turn alone is only a hint. When another run
    holds the turn now with another turn, both are counted, as the window's path counts them."""
    message_id = record_turn(USER, "我平时用 React 写前端。")
    payload = pipeline.extract_stage(message_id, "run-lone")
    other = record_turn(USER, "我是素食者，但是吃鸡蛋。")
    with get_engine().begin() as connection:
        connection.execute(
            text("UPDATE messages SET memory_window_run = 'run-later', memory_claimed_at = now() WHERE id IN (:a, :b)"),
            {"a": message_id, "b": other},
        )
    assert pipeline.begin_attempt(message_id, 5, pipeline.StageWindow.of(payload)) is True
    assert (_state(message_id), _state(other)) == (("PENDING", 1), ("PENDING", 1))
