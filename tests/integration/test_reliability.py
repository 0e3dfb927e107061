"""Nothing is lost: lost tasks, killed workers, failures and concurrent claimers (R-SAFE-1, R-BEAT-1/4).

Each test starts the worker it needs (`start_worker`), so no module-wide worker competes for tasks.
"""

from __future__ import annotations

import os
import signal
import threading
import time

import psutil
import pytest
from sqlalchemy import select, text, update

from memory_tasks.api import enqueue_turn, list_memories, record_turn, wait_for_message
from memory_tasks.db.claims import claim_memories_to_sync, claim_messages_to_rescan
from memory_tasks.db.models import Message
from memory_tasks.db.session import session_scope
from tests.fake_openai import text as reply_text
from tests.helpers import OOLONG_CANDIDATES, hang_then_answer

pytestmark = [pytest.mark.slow]

CLAIM_ARGS = {"limit": 100, "debounce_sec": 0, "lease_sec": 300, "max_attempts": 5, "backoff_sec": 0}


def test_rescan_restarts_a_pending_message_whose_task_was_lost(start_worker, db) -> None:
    """R-BEAT-1: a message recorded but never enqueued (lost task) is processed by the rescan."""
    from memory_tasks.tasks.maintenance import rescan_messages

    start_worker()
    message_id = record_turn(601, "我喜欢喝乌龙茶")  # recorded, never enqueued
    rescan_messages.apply_async()  # what beat sends every LONG_TERM_MEMORY_SCAN_INTERVAL_SEC
    assert wait_for_message(message_id, 60)["status"] == "PROCESSED"
    assert any("乌龙茶" in m["content"] for m in list_memories(601))


def test_rescan_leaves_a_freshly_enqueued_message_alone(db) -> None:
    """R-BEAT-4: a message claimed by its own chain is not handed out again within the lease."""
    message_id = record_turn(602, "I work as a nurse")
    with session_scope() as session:
        session.execute(update(Message).where(Message.id == message_id).values(memory_claimed_at=text("now()")))
    assert message_id not in claim_messages_to_rescan(**CLAIM_ARGS)


def test_failed_message_is_retried_after_backoff_and_not_beyond_max_attempts(db) -> None:
    """R-BEAT-1: FAILED messages come back with backoff, a bounded number of times."""
    message_id = record_turn(603, "I work as a nurse")
    with session_scope() as session:
        session.execute(
            update(Message)
            .where(Message.id == message_id)
            .values(memory_status="FAILED", memory_attempts=1, updated_at=text("now() - interval '2 minutes'"))
        )
    assert claim_messages_to_rescan(**{**CLAIM_ARGS, "backoff_sec": 3600}) == []
    assert claim_messages_to_rescan(**{**CLAIM_ARGS, "backoff_sec": 60}) == [message_id]
    with session_scope() as session:
        session.execute(
            update(Message).where(Message.id == message_id).values(memory_attempts=5, memory_claimed_at=None)
        )
    assert claim_messages_to_rescan(**{**CLAIM_ARGS, "backoff_sec": 0}) == []


def test_concurrent_claimers_never_get_the_same_message(db) -> None:
    """R-BEAT-4: FOR UPDATE SKIP LOCKED + lease: overlapping rescans split the work."""
    ids = {record_turn(604 + i % 3, f"I live in city number {i}") for i in range(60)}
    results: list[list[int]] = []
    barrier = threading.Barrier(4)

    def claim() -> None:
        barrier.wait()
        results.append(claim_messages_to_rescan(**{**CLAIM_ARGS, "limit": 20}))

    threads = [threading.Thread(target=claim) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    claimed = [i for batch in results for i in batch]
    assert len(claimed) == len(set(claimed))
    assert set(claimed) <= ids


def test_rows_locked_by_another_claimer_are_skipped_not_waited_for(db) -> None:
    """R-BEAT-4: a claim does not block on, nor return, rows another transaction holds."""
    first = record_turn(610, "I live in Oslo")
    second = record_turn(611, "I live in Lima")
    with session_scope() as holder:
        holder.execute(select(Message).where(Message.id == first).with_for_update())
        started = time.monotonic()
        claimed = claim_messages_to_rescan(**CLAIM_ARGS)
        assert time.monotonic() - started < 5
    assert first not in claimed and second in claimed


def test_index_sweep_claims_are_disjoint(db) -> None:
    """R-BEAT-4: the DIRTY sweep uses the same claim discipline."""
    from memory_tasks.db.clock import db_now
    from memory_tasks.db.models import HistorySource
    from memory_tasks.extraction.candidates import Candidate
    from memory_tasks.memories.store import WriteContext, lock_user
    from memory_tasks.memories.write_path import write_candidates

    record_turn(612, "hello there")
    with session_scope() as session:
        lock_user(session, 612)
        ctx = WriteContext(612, HistorySource.TOOL, db_now(session), 180)
        write_candidates(
            session,
            ctx,
            [Candidate("upsert", "fact", f"fact-{i}", f"distinct fact {i} about topic {i * 7}") for i in range(6)],
        )
    a = claim_memories_to_sync(limit=4, lease_sec=300)
    b = claim_memories_to_sync(limit=4, lease_sec=300)
    assert len(a) == 4 and len(b) == 2 and not set(a) & set(b)


def _pool_children(worker) -> list[psutil.Process]:
    return psutil.Process(worker.process.pid).children(recursive=True)


def test_killed_pool_process_loses_nothing(start_worker, db, fake_openai) -> None:
    """R-SAFE-1: acks_late + reject_on_worker_lost: a task whose process is killed runs again."""
    hang_then_answer(fake_openai, OOLONG_CANDIDATES, hang_sec=30)  # until the worker is killed
    worker = start_worker({"OPENAI_BASE_URL": fake_openai.base_url}, concurrency=1)
    message_id = record_turn(620, "我喜欢喝乌龙茶")
    enqueue_turn(message_id, countdown=0)
    deadline = time.monotonic() + 20
    while not fake_openai.requests and time.monotonic() < deadline:
        time.sleep(0.1)
    assert fake_openai.requests, "the extract stage never called the model"
    for child in _pool_children(worker):
        os.kill(child.pid, signal.SIGKILL)
    state = wait_for_message(message_id, 90)
    assert state["status"] == "PROCESSED", state
    assert [m["memory_key"] for m in list_memories(620)] == ["drink-preference"]


def test_whole_worker_killed_mid_task_is_recovered_by_the_rescan(start_worker, db, fake_openai) -> None:
    """R-SAFE-1: even with the whole worker gone (message stuck unacked), the rescan finishes the job."""
    from memory_tasks.tasks.maintenance import rescan_messages

    fake_openai.script(reply_text('{"candidates": []}', delay=30))
    env = {"OPENAI_BASE_URL": fake_openai.base_url}
    worker = start_worker(env, concurrency=1)
    message_id = record_turn(621, "I live in Berlin")
    enqueue_turn(message_id, countdown=0)
    deadline = time.monotonic() + 20
    while not fake_openai.requests and time.monotonic() < deadline:
        time.sleep(0.1)
    worker.kill()
    fake_openai.default = lambda body: reply_text('{"candidates": []}')
    start_worker(env, concurrency=1)
    # The lease of the lost claim runs out (it must outlast the hard time limit, so it is
    # moved back rather than shortened).
    with session_scope() as session:
        session.execute(
            update(Message).where(Message.id == message_id).values(memory_claimed_at=text("now() - interval '1 hour'"))
        )
    assert rescan_messages.run() == 1
    assert wait_for_message(message_id, 60)["status"] == "PROCESSED"
