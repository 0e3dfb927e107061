"""Timeouts wherever a dependency can hang (issue 11 item 6; R-FAIL-3): PostgreSQL sessions, forget-user and Milvus."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from config.settings import get_settings
from memory_tasks.api import record_turn
from memory_tasks.db.session import reset_engine, session_scope
from memory_tasks.errors import is_transient
from memory_tasks.forget import forget_user
from memory_tasks.memories.store import USER_WRITE_LOCK_NAMESPACE, lock_user
from memory_tasks.vectors.milvus_store import get_store

USER = 7501


@pytest.fixture
def short_db_timeouts(db, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Sessions whose lock waits end after one second, their statements after two."""
    monkeypatch.setenv("MEMORY_DB_LOCK_TIMEOUT_SEC", "1")
    monkeypatch.setenv("MEMORY_DB_STATEMENT_TIMEOUT_SEC", "2")
    get_settings.cache_clear()
    reset_engine()
    yield
    monkeypatch.undo()
    get_settings.cache_clear()
    reset_engine()


def test_a_session_waiting_for_the_users_lock_gives_up_after_the_lock_timeout(short_db_timeouts) -> None:
    """R-FAIL-3: a write blocked by another holder of the user's lock fails (transient, so the task retries)
    after MEMORY_DB_LOCK_TIMEOUT_SEC instead of outliving LONG_TERM_MEMORY_UPSERT_TIMEOUT_SEC."""
    locked, release = threading.Event(), threading.Event()

    def holder() -> None:
        with session_scope() as session:
            lock_user(session, USER)
            locked.set()
            release.wait(10)

    thread = threading.Thread(target=holder)
    thread.start()
    try:
        assert locked.wait(10)
        started = time.monotonic()
        with pytest.raises(OperationalError) as caught, session_scope() as session:
            lock_user(session, USER)
        assert time.monotonic() - started < 5
        assert "lock timeout" in str(caught.value) and is_transient(caught.value)
    finally:
        release.set()
        thread.join()


def test_a_hung_statement_is_cut_off_by_the_statement_timeout(short_db_timeouts) -> None:
    """R-FAIL-3: no statement of a worker runs longer than MEMORY_DB_STATEMENT_TIMEOUT_SEC."""
    started = time.monotonic()
    with pytest.raises(OperationalError, match="statement timeout"), session_scope() as session:
        session.execute(text("SELECT pg_sleep(10)"))
    assert time.monotonic() - started < 5


@pytest.mark.slow
def test_forget_user_never_holds_the_users_lock_while_it_waits_for_milvus(
    db, milvus_env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-LIFE-3 (issue 11 item 6): while the vector purge talks to Milvus, another writer can take the user's lock."""
    record_turn(USER, "I live in Lisbon")
    store = get_store()
    real_delete_user = store.delete_user
    lock_was_free: list[bool] = []

    def slow_delete_user(user_id: int) -> None:
        # The user's lock, tried without waiting from another connection: free only if forget released it.
        with session_scope() as session:
            free = session.execute(
                text("SELECT pg_try_advisory_xact_lock(:namespace, :user_id)"),
                {"namespace": USER_WRITE_LOCK_NAMESPACE, "user_id": user_id},
            ).scalar()
        lock_was_free.append(bool(free))
        real_delete_user(user_id)

    monkeypatch.setattr(store, "delete_user", slow_delete_user)
    assert forget_user(USER)["milvus"] == "deleted"
    assert lock_was_free == [True]
