"""The index sweep isolates failures per row, backs off, caps and shows them (issue 11 item 4; R-FAIL-3, R-VEC-4).

Real PostgreSQL and Milvus; the embedder is the local one with one text (or every text) made to fail.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import select, update

from config.settings import get_settings
from memory_tasks import jobs
from memory_tasks.api import record_turn
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import HistorySource, LongTermMemory, VectorStatus
from memory_tasks.db.session import session_scope
from memory_tasks.extraction.candidates import Candidate
from memory_tasks.memories.store import WriteContext, lock_user
from memory_tasks.memories.write_path import write_candidates
from memory_tasks.status import collect_status
from memory_tasks.vectors.embedders import EmbeddingPermanentError, EmbeddingTransientError, get_embedder
from memory_tasks.vectors.milvus_store import get_store

USER = 7301
POISON = "poison-pill"
# Far apart, so that dedup keeps every one as its own memory.
CONTENTS = {
    "alpha": "Plays the cello in a community orchestra",
    "beta": "Allergic to shellfish",
    "gamma": "Works as a night-shift nurse in Porto",
    "delta": "Learning Japanese with flashcards every morning",
    POISON: "Collects vintage fountain pens",
}


def _write(user_id: int, keys: list[str]) -> dict[str, int]:
    """Tool-style writes of one fact per key (DIRTY rows, no index task); returns {key: memory id}."""
    record_turn(user_id, "hello there")
    with session_scope() as session:
        lock_user(session, user_id)
        ctx = WriteContext(user_id, HistorySource.TOOL, db_now(session), 180)
        write_candidates(session, ctx, [Candidate("upsert", "fact", key, CONTENTS[key]) for key in keys])
    with session_scope() as session:
        rows = session.execute(
            select(LongTermMemory.memory_key, LongTermMemory.id).where(LongTermMemory.user_id == user_id)
        )
        return dict(rows.all())


def _rows(ids: list[int]) -> dict[int, LongTermMemory]:
    with session_scope() as session:
        return {m.id: m for m in session.scalars(select(LongTermMemory).where(LongTermMemory.id.in_(ids)))}


@contextmanager
def _embedder_failing(monkeypatch: pytest.MonkeyPatch, error: Exception, only: str | None) -> Iterator[None]:
    """The process embedder raises `error` for a batch holding `only` (or for every batch)."""
    embedder = get_embedder()
    real = embedder.embed_passages

    def embed_passages(texts: list[str]):
        if only is None or any(only in text for text in texts):
            raise error
        return real(texts)

    monkeypatch.setattr(embedder, "embed_passages", embed_passages)
    yield
    monkeypatch.setattr(embedder, "embed_passages", real)


@pytest.fixture
def index_settings(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A cap of 2 own failures; backoff long enough that a failed row waits during the test."""
    monkeypatch.setenv("MEMORY_INDEX_MAX_ATTEMPTS", "2")
    monkeypatch.setenv("MEMORY_INDEX_RETRY_BACKOFF_SEC", "600")
    get_settings.cache_clear()
    yield
    monkeypatch.undo()
    get_settings.cache_clear()


def _make_due(memory_id: int) -> None:
    """End a row's backoff now (as time passing would)."""
    with session_scope() as session:
        session.execute(
            update(LongTermMemory).where(LongTermMemory.id == memory_id).values(vector_next_attempt_at=None)
        )


@pytest.mark.slow
def test_one_memory_that_cannot_be_embedded_does_not_hold_back_its_batch_nor_later_sweeps(
    db, milvus_env, index_settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-FAIL-3, R-VEC-4: the rest of the batch is SYNCED and in Milvus; the bad row is FAILED with its error
    and a backoff, and the next sweep takes the newer rows instead of claiming the bad one first again."""
    ids = _write(USER, ["alpha", "beta", POISON, "gamma"])
    with _embedder_failing(monkeypatch, EmbeddingPermanentError("HTTP 400: input rejected"), only=POISON):
        result = jobs.sync_index_batch()
    assert result is not None and result["synced"] == 3 and result["failed"] == 1
    rows = _rows(list(ids.values()))
    bad = rows[ids[POISON]]
    assert bad.vector_status == VectorStatus.FAILED.value and "input rejected" in bad.vector_error
    assert bad.vector_attempts == 1 and bad.vector_next_attempt_at is not None
    good = [ids[k] for k in ("alpha", "beta", "gamma")]
    assert all(rows[i].vector_status == VectorStatus.SYNCED.value for i in good)
    assert set(get_store().stored(good)) == set(good)

    # A later write is synced by the next sweep; the bad row (older) waits for its backoff.
    later = _write(USER, ["delta"])["delta"]
    assert jobs.sync_index_batch()["synced"] == 1
    assert _rows([later])[later].vector_status == VectorStatus.SYNCED.value
    assert _rows([ids[POISON]])[ids[POISON]].vector_attempts == 1


@pytest.mark.slow
def test_a_row_that_keeps_failing_is_dead_after_the_cap_and_status_shows_it(
    db, milvus_env, index_settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-FAIL-3, R-OPS-3: MEMORY_INDEX_MAX_ATTEMPTS own failures -> DEAD (never claimed again), counted and listed."""
    ids = _write(USER, ["alpha", POISON])
    bad = ids[POISON]
    with _embedder_failing(monkeypatch, EmbeddingPermanentError("HTTP 400: input rejected"), only=POISON):
        jobs.sync_index_batch()
        _make_due(bad)
        jobs.sync_index_batch()
        _make_due(bad)
        assert jobs.sync_index_batch() is None  # DEAD: nothing is due
    row = _rows([bad])[bad]
    assert row.vector_status == VectorStatus.DEAD.value and row.vector_attempts == 2
    status = collect_status()
    assert status["vectors"]["DEAD"] == 1 and status["vectors"]["SYNCED"] == 1
    assert any(
        f["kind"] == "memory" and f["id"] == bad and "input rejected" in f["error"] for f in status["recent_failures"]
    )


@pytest.mark.slow
def test_an_embedding_outage_marks_the_batch_failed_without_using_up_attempts(
    db, milvus_env, index_settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-FAIL-1, R-FAIL-3: an embedder down for everyone is not the rows' fault: FAILED with a backoff, 0 attempts;
    once it is back the rows are synced."""
    ids = list(_write(USER, ["alpha", "beta", "gamma"]).values())
    with _embedder_failing(monkeypatch, EmbeddingTransientError("connection refused"), only=None):
        result = jobs.sync_index_batch()
    assert result is not None and result["failed"] == 3 and result["synced"] == 0
    rows = _rows(ids)
    assert all(r.vector_status == VectorStatus.FAILED.value and r.vector_attempts == 0 for r in rows.values())
    assert all(r.vector_next_attempt_at is not None for r in rows.values())
    assert jobs.sync_index_batch() is None  # all of them wait for the backoff

    for memory_id in ids:
        _make_due(memory_id)
    assert jobs.sync_index_batch()["synced"] == 3
    assert set(get_store().stored(ids)) == set(ids)
