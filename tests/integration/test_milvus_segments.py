"""The index sweep keeps Milvus' sealed segments few, so a restart reloads in seconds (issue 11 item 7; R-VEC-4).

Real PostgreSQL and Milvus, a collection of its own per test created by the store. The sweep runs in
this process (`jobs.sync_index_batch`), each next batch of a run right after the last, as the index
worker runs them.
"""

from __future__ import annotations

import time

import pytest
from pymilvus import MilvusClient

from config.settings import get_settings
from memory_tasks import dispatch, jobs
from memory_tasks.api import record_turn
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import HistorySource
from memory_tasks.db.session import session_scope
from memory_tasks.extraction.candidates import Candidate
from memory_tasks.memories.store import WriteContext, lock_user
from memory_tasks.memories.write_path import write_candidates
from memory_tasks.vectors.embedders import get_embedder
from memory_tasks.vectors.milvus_store import COMPACTION_WAIT_SEC, get_store

USER = 7401
# Far apart, so that dedup keeps every one as its own memory.
FACTS = [
    "Plays the cello in a community orchestra",
    "Allergic to shellfish",
    "Works as a night-shift nurse in Porto",
    "Learning Japanese with flashcards every morning",
    "Collects vintage fountain pens",
    "Grows tomatoes on a tiny balcony",
]


@pytest.fixture
def collection(milvus_collection: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """A fresh collection of 3 partitions; sweep batches of 2 rows."""
    monkeypatch.setenv("MEMORY_MILVUS_NUM_PARTITIONS", "3")
    monkeypatch.setenv("MEMORY_INDEX_WORKER_BATCH_SIZE", "2")
    get_settings.cache_clear()
    get_store.cache_clear()
    return milvus_collection


def _write_facts(facts: list[str]) -> None:
    """Tool-style writes of one memory per fact: DIRTY rows, left to the sweep."""
    record_turn(USER, "hello there")
    with session_scope() as session:
        lock_user(session, USER)
        ctx = WriteContext(USER, HistorySource.TOOL, db_now(session), 180)
        write_candidates(session, ctx, [Candidate("upsert", "fact", f"fact-{FACTS.index(f)}", f) for f in facts])


def _count_flushes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every flush the store sends Milvus, by collection name, from now on."""
    client = get_store()._client
    flushes: list[str] = []
    real = client.flush

    def flush(collection_name: str, *args, **kwargs):
        flushes.append(collection_name)
        return real(collection_name, *args, **kwargs)

    monkeypatch.setattr(client, "flush", flush)
    return flushes


@pytest.mark.slow
def test_a_new_collection_has_the_configured_number_of_partitions(db, collection: str) -> None:
    """Issue 11 item 7: MEMORY_MILVUS_NUM_PARTITIONS reaches the collection Milvus creates (not its default of 64)."""
    get_store().ensure_collection(get_embedder().dim)
    client = MilvusClient(uri=get_settings().MEMORY_MILVUS_URI)
    try:
        assert len(client.list_partitions(collection)) == 3
    finally:
        client.close()


@pytest.mark.slow
def test_a_sweep_run_flushes_once_however_many_batches_it_syncs(
    db, collection: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 11 item 7: a run of 3 batches (6 rows, batches of 2) flushes Milvus once, at its end, and syncs every row."""
    _write_facts(FACTS)
    monkeypatch.setattr(dispatch, "enqueue_index_batch", jobs.sync_index_batch)
    flushes = _count_flushes(monkeypatch)
    jobs.sync_index_batch()
    assert flushes == [collection]
    assert len(get_store().user_vector_ids(USER)) == len(FACTS)


@pytest.mark.slow
def test_the_end_of_a_sweep_run_compacts_until_the_segments_are_few_again(
    db, collection: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 11 item 7: once more than SEGMENTS_PER_PARTITION sealed segments per partition pile up, the run's end
    asks for a compaction, and the collection is back within the bound after a few more runs, as beat sends
    them (each waits SWEEP_COMPACTION_WAIT_SEC at most; a compaction that outlasts it is waited on by the next
    run). The tests' Milvus compacts only when asked (tests/conftest.py, TEST_MILVUS_SETTINGS)."""
    monkeypatch.setenv("MEMORY_MILVUS_NUM_PARTITIONS", "1")
    get_settings.cache_clear()
    get_store.cache_clear()
    bound = jobs.SEGMENTS_PER_PARTITION
    for fact in FACTS[: bound + 2]:  # each run flushes one more sealed segment
        _write_facts([fact])
        jobs.sync_index_batch()
    assert get_store().partition_count() == 1
    deadline = time.monotonic() + COMPACTION_WAIT_SEC
    while get_store().segment_count() > bound and time.monotonic() < deadline:
        jobs.sync_index_batch()  # nothing left to sync: the run only seals and compacts
    assert get_store().segment_count() <= bound
    assert len(get_store().user_vector_ids(USER)) == bound + 2
