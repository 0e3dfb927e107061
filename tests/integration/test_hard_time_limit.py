"""A run killed by Celery's hard time limit still counts (issue 11 item 3; R-FAIL-2).

The hard limit SIGKILLs the pool child; the worker's main process then reports the task
failed with `TimeLimitExceeded` (`on_failure` runs there), which is not transient: the
attempt counted at pick-up stays, so a message whose run hits the limit every time is DEAD
after LONG_TERM_MEMORY_MAX_ATTEMPTS runs instead of being restarted forever.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from config.settings import get_settings
from memory_tasks import jobs
from memory_tasks.api import enqueue_turn, message_state, record_turn
from memory_tasks.db.session import session_scope
from memory_tasks.memories.store import lock_user

pytestmark = [pytest.mark.slow]

USER = 7501
# 2 s I/O budgets: soft limit 4 s, hard limit 6 s; the lease must exceed the hard limit.
LIMITS = {
    "LONG_TERM_MEMORY_ENGINE": "rules",
    "LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC": "2",
    "LONG_TERM_MEMORY_UPSERT_TIMEOUT_SEC": "2",
    "LONG_TERM_MEMORY_CLAIM_LEASE_SEC": "8",
    "LONG_TERM_MEMORY_MAX_ATTEMPTS": "2",
    "LONG_TERM_MEMORY_RETRY_BACKOFF_SEC": "1",
}


@pytest.fixture
def limits(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    for name, value in LIMITS.items():
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    yield LIMITS
    monkeypatch.undo()
    get_settings.cache_clear()


def test_a_run_killed_by_the_hard_time_limit_counts_and_the_message_is_dead_after_its_attempts(
    start_worker, db, limits: dict[str, str]
) -> None:
    """R-FAIL-2: the upsert stage waits for the user's lock (held here) inside a PostgreSQL call,
    where the soft limit cannot interrupt it, until the 6 s hard limit kills the child; every run
    does, so after 2 runs the message is DEAD with the time limit as its cause."""
    worker = start_worker(limits, concurrency=1)
    message_id = record_turn(USER, "My favourite drink is green tea")
    with session_scope() as holder:
        lock_user(holder, USER)  # held until the test is done with the worker
        enqueue_turn(message_id, countdown=0)
        deadline = time.monotonic() + 120
        state = message_state(message_id)
        while state["status"] != "DEAD" and time.monotonic() < deadline:
            jobs.rescan_messages()  # what beat does: restart the run once its lease is over
            time.sleep(1)
            state = message_state(message_id)
    assert state["status"] == "DEAD", state
    assert state["attempts"] == 2 and ": TimeLimitExceeded" in state["error"], state  # not the soft limit
    log = worker.log_path.read_text()
    assert log.count("Hard time limit") == 2, log[-3000:]
