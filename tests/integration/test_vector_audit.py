"""The vector audit finds SYNCED rows Milvus does not hold as recorded and has them written again (R-VEC-4).

Milvus 2.3 can lose an acknowledged delete around a compaction or a restart: one `make chaos` run
ended with a SYNCED row whose vector in Milvus held another text (docs/reliability.md). Here the
losses are made by hand, straight into Milvus, on real PostgreSQL and Milvus; the sweep runs in
this process (`jobs.sync_index_batch`) as the index worker runs it.
"""

from __future__ import annotations

import grpc
import pytest
from sqlalchemy import select

from memory_tasks import jobs
from memory_tasks.api import record_turn
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import HistorySource, LongTermMemory
from memory_tasks.db.session import session_scope
from memory_tasks.extraction.candidates import Candidate
from memory_tasks.memories.store import WriteContext, lock_user
from memory_tasks.memories.write_path import write_candidates
from memory_tasks.status import collect_status
from memory_tasks.vectors import audit, index
from memory_tasks.vectors.embedders import get_embedder
from memory_tasks.vectors.milvus_store import StoredVector, VectorRow, VectorStoreTransientError, get_store

USER = 7501
FACTS = {
    "fact-cello": "Plays the cello in a community orchestra",
    "fact-porto": "Works as a night-shift nurse in Porto",
    "fact-pens": "Collects vintage fountain pens",
    "fact-tomatoes": "Grows tomatoes on a tiny balcony",
    "fact-japanese": "Learning Japanese with flashcards every morning",
}


def _write(candidates: list[Candidate]) -> None:
    with session_scope() as session:
        lock_user(session, USER)
        write_candidates(session, WriteContext(USER, HistorySource.TOOL, db_now(session), 180), candidates)


def _rows() -> dict[str, LongTermMemory]:
    with session_scope() as session:
        rows = session.scalars(select(LongTermMemory).where(LongTermMemory.user_id == USER)).all()
        session.expunge_all()
    return {row.memory_key: row for row in rows}


def _insert_raw(memory_id: int, text_hash: str) -> None:
    """A row straight into Milvus under `memory_id`, beside whatever is there (as a lost delete leaves it)."""
    store = get_store()
    store.ensure_collection(get_embedder().dim)
    vector = [1.0] * get_embedder().dim
    store._client.insert(
        store.collection, [{"id": memory_id, "user_id": USER, "text_hash": text_hash, "vector": vector}]
    )


def _synced_facts() -> dict[str, LongTermMemory]:
    """The five facts written, the last one deleted again, and every row synced."""
    record_turn(USER, "hello there")
    _write([Candidate("upsert", "fact", key, content) for key, content in FACTS.items()])
    _write([Candidate("delete", "fact", "fact-japanese", "")])
    rows = _rows()
    index.sync_vectors([row.id for row in rows.values()])
    rows = _rows()
    assert {row.vector_status for row in rows.values()} == {"SYNCED"}
    assert not rows["fact-japanese"].is_active
    return rows


@pytest.mark.slow
def test_the_store_counts_every_row_under_an_id_though_a_query_shows_one(db, milvus_collection: str) -> None:
    """R-VEC-4: Milvus 2.3 answers a query with one row per primary key (the older one, here), so a lost
    delete hides from a read of the rows; `stored` counts them, in growing and sealed segments alike."""
    store = get_store()
    dim = get_embedder().dim
    store.replace([VectorRow(i, USER, f"{i:064d}", [1.0] * dim) for i in range(1, 10)], flush=False)
    _insert_raw(3, "f" * 64)
    store.flush()
    _insert_raw(7, "e" * 64)
    _insert_raw(7, "d" * 64)
    stored = store.stored(list(range(1, 12)))
    assert sorted(stored) == list(range(1, 10))
    assert {i: v.rows for i, v in stored.items() if v.rows != 1} == {3: 2, 7: 3}
    assert not stored[3].holds(f"{3:064d}") and stored[5].holds(f"{5:064d}")
    store.replace([VectorRow(7, USER, "c" * 64, [1.0] * dim)])
    assert store.stored([7])[7] == StoredVector(USER, "c" * 64)


class _AnswerLost(grpc.RpcError):
    """What a client sees when Milvus took an insert and died before answering it."""

    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.UNAVAILABLE

    def details(self) -> str:
        return "connection lost before the answer"


@pytest.mark.slow
def test_an_insert_milvus_took_but_did_not_answer_is_not_sent_again(
    db, milvus_collection: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-VEC-4: pymilvus resends an insert whose answer was lost, and Milvus 2.3 keeps both copies under one
    id (the duplicates `make chaos` found after killing Milvus). The store sends it once and fails; the
    caller's retry (delete, then insert) leaves one row."""
    store = get_store()
    dim = get_embedder().dim
    store.replace([VectorRow(1, USER, "a" * 64, [1.0] * dim)], flush=False)
    stub = store._client._get_connection()._stub
    insert = stub.Insert

    def took_then_lost(*args, **kwargs):
        insert(*args, **kwargs)
        raise _AnswerLost()

    monkeypatch.setattr(stub, "Insert", took_then_lost)
    with pytest.raises(VectorStoreTransientError):
        store.replace([VectorRow(2, USER, "b" * 64, [1.0] * dim)], flush=False)
    monkeypatch.setattr(stub, "Insert", insert)
    assert store.stored([2])[2].rows == 1
    store.replace([VectorRow(2, USER, "b" * 64, [1.0] * dim)], flush=False)
    assert store.stored([1, 2]) == {1: StoredVector(USER, "a" * 64), 2: StoredVector(USER, "b" * 64)}


@pytest.mark.slow
def test_the_sweep_finds_and_rewrites_every_vector_milvus_does_not_hold_as_recorded(db, milvus_collection: str) -> None:
    """R-VEC-4: a second row under one id (a lost delete), a missing vector, a vector of another text and a
    vector left for an inactive memory are each found by the end of a sweep run and sent back to DIRTY; the
    next run writes them again, and Milvus then holds exactly what PostgreSQL records."""
    rows = _synced_facts()
    ids = {key: row.id for key, row in rows.items()}
    store = get_store()
    _insert_raw(ids["fact-cello"], "0" * 64)  # duplicated
    store._client.delete(store.collection, filter=f"id in [{ids['fact-porto']}]")  # missing
    store._client.delete(store.collection, filter=f"id in [{ids['fact-pens']}]")
    _insert_raw(ids["fact-pens"], "1" * 64)  # stale
    _insert_raw(ids["fact-japanese"], rows["fact-japanese"].vector_text_hash or "2" * 64)  # leftover

    jobs.sync_index_batch()  # nothing DIRTY: the run only seals and audits

    after = _rows()
    wrong = {"fact-cello", "fact-porto", "fact-pens", "fact-japanese"}
    assert {key for key, row in after.items() if row.vector_status == "DIRTY"} == wrong
    assert after["fact-tomatoes"].vector_status == "SYNCED"
    assert after["fact-tomatoes"].vector_checked_at is not None

    jobs.sync_index_batch()  # writes them again, then audits the rewritten rows first

    after = _rows()
    assert {row.vector_status for row in after.values()} == {"SYNCED"}
    assert all(row.vector_checked_at is not None for row in after.values())
    stored = store.stored(list(ids.values()))
    assert ids["fact-japanese"] not in stored
    for key in FACTS.keys() - {"fact-japanese"}:
        assert stored[ids[key]].holds(index.text_hash(index.index_text("fact", key, FACTS[key]))), key


@pytest.mark.slow
def test_the_audit_counts_what_it_found_and_checks_the_never_checked_first(db, milvus_collection: str) -> None:
    """R-VEC-4: one audit reports what it found; a batch smaller than the rows takes rows not checked since
    their last sync before rows checked already, and a mended or newly synced row is checked again first."""
    rows = _synced_facts()
    ids = {key: row.id for key, row in rows.items()}
    _insert_raw(ids["fact-cello"], "0" * 64)

    first = audit.audit_vectors(limit=2)
    assert first.checked == 2
    assert first.found == {"duplicated": 1, "held": 1}
    assert first.mended == [ids["fact-cello"]]

    assert collect_status()["vector_audit"]["unchecked"] == 3  # cello went back to DIRTY
    second = audit.audit_vectors(limit=3)  # the three rows not checked yet, not the one just checked
    assert (second.checked, second.found, second.mended) == (3, {"held": 3}, [])
    assert collect_status()["vector_audit"]["unchecked"] == 0
    checked = _rows()
    assert checked["fact-cello"].vector_checked_at is None
    assert all(checked[key].vector_checked_at is not None for key in ids.keys() - {"fact-cello"})

    _write([Candidate("upsert", "fact", "fact-pens", "Collects vintage fountain pens and inks")])
    index.sync_vectors([ids["fact-pens"]])  # a new write: unchecked again, so among the first checked
    assert _rows()["fact-pens"].vector_checked_at is None
    assert audit.audit_vectors(limit=2).checked == 2
    assert _rows()["fact-pens"].vector_checked_at is not None


@pytest.mark.slow
def test_a_row_synced_again_while_the_audit_looked_is_left_to_that_sync(db, milvus_collection: str) -> None:
    """R-VEC-4: the audit's marks are compare-and-set on the revision it read: a row edited and synced between
    its PostgreSQL read and its Milvus read (Milvus then holds the new text) stays SYNCED, not sent back."""
    rows = _synced_facts()
    cello = rows["fact-cello"].id
    real = get_store()

    class EditingStore:
        """The real store; its read for the audit first edits and syncs the cello fact."""

        def stored(self, memory_ids: list[int]):
            _write([Candidate("upsert", "fact", "fact-cello", "Plays the viola in a community orchestra")])
            index.sync_vectors([cello], store=real)
            return real.stored(memory_ids)

    result = audit.audit_vectors(store=EditingStore())
    assert result.found.get("stale") == 1  # Milvus holds the new text, PostgreSQL's row read said the old one
    assert result.mended == []
    after = _rows()["fact-cello"]
    assert (after.vector_status, after.revision) == ("SYNCED", rows["fact-cello"].revision + 1)
