"""Forgetting a user (R-LIFE-3) in PostgreSQL and Milvus, leaving every other user intact (R-SAFE-3)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select, update

from memory_tasks import dispatch, jobs
from memory_tasks.__main__ import main
from memory_tasks.api import record_turn
from memory_tasks.db.models import (
    Conversation,
    EmbeddingCache,
    ForgottenUser,
    LongTermMemory,
    MemoryHistory,
    Message,
    User,
)
from memory_tasks.db.session import session_scope
from memory_tasks.extraction.candidates import MEMORY_TYPES
from memory_tasks.forget import ForgetError, forget_user, purge_user_vectors
from memory_tasks.memories.store import lock_user
from memory_tasks.status import collect_status
from memory_tasks.tools import execute
from memory_tasks.vectors import index
from memory_tasks.vectors.embedders import get_embedder
from memory_tasks.vectors.milvus_store import VectorStoreTransientError, get_store
from tests.conftest import PROJECT_ROOT

USERS = (901, 902, 903)
# Every user has this memory: its embedding-cache entry is shared and must survive a forget.
SHARED = {"key": "drink-preference", "content": "喜欢喝乌龙茶", "memory_type": "preference"}
PER_USER_TABLES = (
    (LongTermMemory, LongTermMemory.user_id),
    (MemoryHistory, MemoryHistory.user_id),
    (Message, Message.user_id),
    (Conversation, Conversation.user_id),
    (User, User.id),
)


def _populate(user_id: int) -> list[int]:
    """Turns, tool-written memories (created, appended, deleted) and their history; returns memory ids."""
    record_turn(user_id, f"我是用户{user_id}，我养了一只猫")
    record_turn(user_id, "好的，记住了", role="assistant")
    execute(user_id, "memory_save", SHARED)
    execute(user_id, "memory_save", {"key": "pet", "content": f"Has a cat named Miso-{user_id}", "memory_type": "fact"})
    execute(user_id, "memory_append", {"key": "pet", "content": f"Miso-{user_id} is {user_id % 10} years old"})
    execute(
        user_id,
        "memory_save",
        {"key": "side-project", "content": f"Builds compiler #{user_id}", "memory_type": "project"},
    )
    execute(user_id, "memory_delete", {"key": "side-project"})
    with session_scope() as session:
        return list(session.scalars(select(LongTermMemory.id).where(LongTermMemory.user_id == user_id)))


def _index(memory_ids: list[int]) -> None:
    """What the index chain does, in process: cache the embeddings, write Milvus, mark SYNCED."""
    index.embed_memories(memory_ids)
    index.sync_vectors(memory_ids)


def _user_rows(user_id: int) -> dict[str, Any]:
    """Every row of the user, table by table, comparable before and after."""
    with session_scope() as session:
        return {
            model.__tablename__: sorted(
                tuple(getattr(row, c.key) for c in model.__table__.columns)
                for row in session.scalars(select(model).where(column == user_id))
            )
            for model, column in PER_USER_TABLES
        }


def _cache_hashes() -> set[str]:
    with session_scope() as session:
        return set(session.scalars(select(EmbeddingCache.text_hash)))


def _derived_hashes(*user_ids: int) -> set[str]:
    """Hashes of every text that may have been embedded from these users' memories and history:
    the content, "key: content" and "[type] key: content" (any type)."""
    with session_scope() as session:
        rows = session.execute(
            select(MemoryHistory.memory_key, MemoryHistory.old_content, MemoryHistory.new_content).where(
                MemoryHistory.user_id.in_(user_ids)
            )
        ).all()
    texts = {(key, content) for key, *contents in rows for content in contents if content}
    return {
        index.text_hash(text)
        for key, content in texts
        for text in [content, f"{key}: {content}", *(index.index_text(t, key, content) for t in MEMORY_TYPES)]
    }


def _memory_ids(user_id: int) -> list[int]:
    with session_scope() as session:
        return list(session.scalars(select(LongTermMemory.id).where(LongTermMemory.user_id == user_id)))


def _vectors_of(user_id: int) -> list[int]:
    """Milvus ids found by a search filtered on the user."""
    query = get_embedder().embed_query("猫 cat 乌龙茶").tolist()
    return [hit.memory_id for hit in get_store().search(user_id, query, limit=50, strong=True)]


@pytest.fixture
def populated(db, milvus_env) -> dict[int, list[int]]:
    """Three users with turns, memories, history, cached embeddings and vectors."""
    ids = {user_id: _populate(user_id) for user_id in USERS}
    # No worker runs here: the index syncs the tools enqueued are done in process.
    _index([i for user_ids in ids.values() for i in user_ids])
    return ids


@pytest.mark.slow
def test_forgetting_one_user_removes_all_of_theirs_and_nothing_else(populated: dict[int, list[int]]) -> None:
    """R-LIFE-3, R-SAFE-3: no row, history, message, cache entry or vector of the user is left; others intact."""
    gone, kept = USERS[0], USERS[1:]
    before = {user_id: _user_rows(user_id) for user_id in kept}
    kept_vectors = {user_id: sorted(_vectors_of(user_id)) for user_id in kept}
    assert all(kept_vectors.values()) and _vectors_of(gone)
    cache_before = _cache_hashes()
    own_hashes = _derived_hashes(gone) - _derived_hashes(*kept)
    assert cache_before & own_hashes

    counts = forget_user(gone)

    assert all(not rows for rows in _user_rows(gone).values())
    assert counts["memories"] == len(populated[gone]) == 3
    assert counts["messages"] == 2 and counts["conversations"] == 1 and counts["users"] == 1
    assert counts["history"] >= 5  # create, create, append, create, delete
    assert counts["vectors"] == 2 and counts["milvus"] == "deleted"  # the deleted memory had no vector
    assert _vectors_of(gone) == [] and get_store().stored(populated[gone]) == {}
    # Its own texts left the embedding cache; every other entry (the texts it shares too) stayed.
    cache_after = _cache_hashes()
    assert not cache_after & own_hashes
    assert cache_before - own_hashes <= cache_after
    assert counts["embedding_cache"] == len(cache_before - cache_after) > 0
    # It should leave every other user exactly as they were.
    for user_id in kept:
        assert _user_rows(user_id) == before[user_id]
        assert sorted(_vectors_of(user_id)) == kept_vectors[user_id]


@pytest.mark.slow
def test_forgetting_again_finds_nothing_and_reports_zeros(populated: dict[int, list[int]]) -> None:
    """R-LIFE-3: safe to re-run."""
    forget_user(USERS[0])
    again = forget_user(USERS[0])
    assert {k: v for k, v in again.items() if k not in ("user_id", "milvus")} == {
        "memories": 0,
        "history": 0,
        "messages": 0,
        "conversations": 0,
        "users": 0,
        "embedding_cache": 0,
        "vectors": 0,
    }
    assert forget_user(4242)["users"] == 0  # a user never seen is no error


def _purge_pending(user_id: int) -> bool:
    """True while `status` lists the user's vector purge as not verified."""
    return any(p["user_id"] == user_id for p in collect_status()["vector_purges_pending"])


@pytest.mark.slow
def test_with_milvus_down_the_truth_goes_now_the_purge_is_pending_and_done_once_milvus_is_back(
    populated: dict[int, list[int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-LIFE-3, R-FAIL-1 (issue 11 item 7): forgetting never waits for Milvus. PostgreSQL is cleared at once,
    the purge is pending in `status` (with its error), no vector is written for the user meanwhile (even if they
    come back), and once Milvus answers the purge removes every vector, verified by a strong read."""
    gone = USERS[0]
    store = get_store()
    real_delete_user = store.delete_user

    def down(user_id: int) -> None:
        raise VectorStoreTransientError("Milvus went away")

    monkeypatch.setattr(store, "delete_user", down)
    counts = forget_user(gone)

    assert counts["milvus"] == "pending" and counts["memories"] == 3
    assert all(not rows for rows in _user_rows(gone).values())
    assert _purge_pending(gone)
    assert any(
        f["kind"] == "vector purge of user" and f["id"] == gone and "went away" in f["error"]
        for f in collect_status()["recent_failures"]
    )
    assert _vectors_of(gone)  # still in Milvus: that is what the purge is for

    # The user comes back while the purge is pending: their new memory waits (DIRTY), unwritten.
    execute(gone, "memory_save", {"key": "city", "content": "Lives in Lisbon", "memory_type": "fact"})
    new_ids = _memory_ids(gone)
    assert index.sync_vectors(new_ids).skipped == 1
    assert get_store().stored(new_ids) == {}

    monkeypatch.setattr(store, "delete_user", real_delete_user)  # Milvus is back
    purge_user_vectors(gone)
    assert not _purge_pending(gone)
    assert get_store().user_vector_ids(gone) == []
    assert populated[gone] and get_store().stored(populated[gone]) == {}
    # The purge is verified: the comer-back's memory is indexed and a late duplicate purge leaves it alone.
    assert index.sync_vectors(new_ids).synced == 1
    assert purge_user_vectors(gone) == 0
    assert set(get_store().stored(new_ids)) == set(new_ids)


@pytest.mark.slow
def test_a_queued_purge_is_finished_by_a_worker(
    populated: dict[int, list[int]], monkeypatch: pytest.MonkeyPatch, start_worker
) -> None:
    """R-LIFE-3 (issue 11 item 7): the purge forget-user could not do in the call is done by
    memory.purge_user_vectors on a real worker, which verifies no vector is left."""
    gone = USERS[1]
    start_worker()

    def down(user_id: int) -> None:
        raise VectorStoreTransientError("Milvus went away")

    monkeypatch.setattr(get_store(), "delete_user", down)  # down for this process only
    assert forget_user(gone)["milvus"] == "pending"
    deadline = time.monotonic() + 60
    while _purge_pending(gone) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not _purge_pending(gone)
    assert get_store().user_vector_ids(gone) == [] and _vectors_of(USERS[2])


def test_a_purge_whose_task_was_lost_is_sent_again_by_the_sweep(db, monkeypatch: pytest.MonkeyPatch) -> None:
    """R-LIFE-3 (issue 11 item 7): a purge not tried for a lease (its task lost, the broker down) is re-sent by
    the index sweep, and not before."""
    sent: list[int] = []

    def lost(user_id: int, countdown: float | None = None) -> bool:
        sent.append(user_id)
        return False

    record_turn(USERS[0], "我喜欢爬山")
    with _settings(monkeypatch, MEMORY_MILVUS_ENABLED="true", MEMORY_MILVUS_URI="http://127.0.0.1:1"):
        monkeypatch.setattr(dispatch, "enqueue_vector_purge", lost)
        forget_user(USERS[0])
    monkeypatch.setattr(dispatch, "enqueue_vector_purge", lost)  # _settings undid it
    assert sent == [USERS[0]] and jobs.requeue_vector_purges() == 0  # tried just now: not due yet
    with session_scope() as session:
        session.execute(update(ForgottenUser).values(purge_attempted_at=func.now() - timedelta(hours=1)))
    assert jobs.requeue_vector_purges() == 1 and sent == [USERS[0], USERS[0]]


@contextmanager
def _settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> Iterator[None]:
    """Settings (and the Milvus store built from them) with `env` applied, restored afterwards."""
    from config.settings import get_settings

    for name, value in env.items():
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    get_store.cache_clear()
    try:
        yield
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()
        get_store.cache_clear()


def test_an_unreachable_milvus_does_not_stop_the_forget(db, monkeypatch: pytest.MonkeyPatch) -> None:
    """R-LIFE-3, R-SAFE-2 (issue 11 item 7): Milvus enabled but down: PostgreSQL is cleared, the purge is pending."""
    record_turn(USERS[0], "我喜欢爬山")
    with _settings(monkeypatch, MEMORY_MILVUS_ENABLED="true", MEMORY_MILVUS_URI="http://127.0.0.1:1"):
        counts = forget_user(USERS[0])
    assert counts["milvus"] == "pending" and counts["vectors"] == 0 and counts["messages"] == 1
    assert all(not rows for rows in _user_rows(USERS[0]).values())
    assert _purge_pending(USERS[0])


def test_with_milvus_disabled_postgres_is_cleared_and_the_result_says_so(db, monkeypatch: pytest.MonkeyPatch) -> None:
    """R-LIFE-3: no vector store configured: everything in PostgreSQL goes, `milvus` is "disabled"."""
    with _settings(monkeypatch, MEMORY_MILVUS_ENABLED="false"):
        record_turn(USERS[0], "I live in Lisbon")
        counts = forget_user(USERS[0])
    assert counts["milvus"] == "disabled" and counts["vectors"] == 0 and counts["messages"] == 1
    assert all(not rows for rows in _user_rows(USERS[0]).values())


@pytest.mark.parametrize("user_id", [0, -3, 2**31, "901", None, True])
def test_an_invalid_user_id_is_refused(user_id: Any) -> None:
    """R-SAFE-4: bad input gets a clear error."""
    with pytest.raises(ForgetError, match="user id"):
        forget_user(user_id)


@pytest.mark.slow
def test_forget_waits_for_a_write_in_progress_and_removes_it_too(db, milvus_env) -> None:
    """R-LIFE-3, R-PIPE-7: under the user's lock, a concurrent write cannot survive the forget."""
    user_id = USERS[0]
    record_turn(user_id, "我喜欢爬山")
    locked = threading.Event()

    def slow_writer() -> None:
        with session_scope() as session:
            lock_user(session, user_id)
            locked.set()
            session.add(
                LongTermMemory(user_id=user_id, memory_key="hobby", memory_type="preference", content="喜欢爬山")
            )
            time.sleep(1.0)

    writer = threading.Thread(target=slow_writer)
    writer.start()
    assert locked.wait(10)
    counts = forget_user(user_id)
    writer.join()
    assert counts["memories"] == 1
    assert _memory_ids(user_id) == []


def test_cli_refuses_without_yes(db, capsys: pytest.CaptureFixture[str]) -> None:
    """R-OPS-3: forget-user without --yes exits non-zero, says why, deletes nothing."""
    record_turn(USERS[0], "我喜欢爬山")
    assert main(["forget-user", "--user", str(USERS[0])]) != 0
    assert "--yes" in capsys.readouterr().err
    with session_scope() as session:
        assert session.scalar(select(func.count()).select_from(Message)) == 1


@pytest.mark.slow
def test_cli_forgets_and_prints_the_counts_as_json(populated: dict[int, list[int]]) -> None:
    """R-OPS-3, R-LIFE-3: `python -m memory_tasks forget-user --user ID --yes` prints JSON counts."""
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    run = subprocess.run(
        [sys.executable, "-m", "memory_tasks", "forget-user", "--user", str(USERS[1]), "--yes"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    counts = json.loads(run.stdout)
    assert counts["user_id"] == USERS[1] and counts["memories"] == 3 and counts["vectors"] == 2
    assert all(not rows for rows in _user_rows(USERS[1]).values())
    assert _user_rows(USERS[0])["long_term_memories"]
