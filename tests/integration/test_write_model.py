"""The write model against real PostgreSQL and Milvus, stage by stage (R-PIPE-4/5/6, R-DATA-6, R-VEC).

The stages are called as plain functions here (what each Celery task runs), so a
redelivery is simply a second call.
"""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from memory_tasks import pipeline
from memory_tasks.api import list_memories, message_state, record_turn
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import EmbeddingCache, HistorySource, LongTermMemory, MemoryHistory
from memory_tasks.db.session import session_scope
from memory_tasks.extraction.candidates import Candidate
from memory_tasks.memories.dedup import merge_near_duplicates, scorer_for
from memory_tasks.memories.store import WriteContext, apply_candidate, lock_user
from memory_tasks.memories.write_path import write_candidates
from memory_tasks.vectors import index
from memory_tasks.vectors.milvus_store import get_store

pytestmark = [pytest.mark.slow]


def _rows(user_id: int) -> list[tuple]:
    with session_scope() as session:
        return [
            tuple(r)
            for r in session.execute(
                select(
                    LongTermMemory.id,
                    LongTermMemory.memory_key,
                    LongTermMemory.content,
                    LongTermMemory.is_active,
                    LongTermMemory.revision,
                    LongTermMemory.vector_status,
                )
                .where(LongTermMemory.user_id == user_id)
                .order_by(LongTermMemory.id)
            )
        ]


def _history(user_id: int) -> list[tuple]:
    with session_scope() as session:
        return [
            tuple(r)
            for r in session.execute(
                select(
                    MemoryHistory.memory_key,
                    MemoryHistory.op,
                    MemoryHistory.source,
                    MemoryHistory.old_content,
                    MemoryHistory.new_content,
                    MemoryHistory.source_message_id,
                )
                .where(MemoryHistory.user_id == user_id)
                .order_by(MemoryHistory.id)
            )
        ]


def _cache_size() -> int:
    with session_scope() as session:
        return session.scalar(select(func.count()).select_from(EmbeddingCache))


def test_every_stage_run_twice_gives_the_same_end_state(db, milvus_env) -> None:
    """R-PIPE-6: redelivery of any stage (extract, refine, upsert, embed, sync) changes nothing."""
    message_id = record_turn(1101, "我住在北京，喜欢吃川菜")
    first = pipeline.extract_stage(message_id)
    assert pipeline.extract_stage(message_id) == first
    refined = pipeline.refine_stage(first)
    assert pipeline.refine_stage(first) == refined

    memory_ids = pipeline.upsert_stage(refined)
    assert len(memory_ids) == 2
    rows, history = _rows(1101), _history(1101)
    assert pipeline.upsert_stage(refined) == []
    assert (_rows(1101), _history(1101)) == (rows, history)

    index.embed_memories(memory_ids)
    cached = _cache_size()
    index.embed_memories(memory_ids)
    assert _cache_size() == cached  # one text is never embedded twice

    first_sync = index.sync_vectors(memory_ids)
    second_sync = index.sync_vectors(memory_ids)
    assert first_sync.synced == second_sync.synced == 2
    assert {m["vector_status"] for m in list_memories(1101)} == {"SYNCED"}
    assert set(get_store().stored(memory_ids)) == set(memory_ids)
    assert message_state(message_id)["status"] == "PROCESSED"


def test_history_records_every_change_with_its_source(db) -> None:
    """R-DATA-6: create, append, overwrite and delete each leave one history row with old and new content."""
    message_id = record_turn(1102, "seed turn for history")
    steps = [
        Candidate("upsert", "preference", "drink-tea", "喜欢喝乌龙茶"),
        Candidate("append", "preference", "drink-tea", "也喜欢普洱"),
        Candidate("append", "preference", "drink-tea", "也喜欢普洱"),  # no double append
        Candidate("upsert", "preference", "drink-tea", "只喝绿茶"),
        Candidate("delete", "preference", "drink-tea", ""),
    ]
    for candidate in steps:
        with session_scope() as session:
            lock_user(session, 1102)
            ctx = WriteContext(1102, HistorySource.EXTRACTION, db_now(session), 180, message_id=message_id)
            apply_candidate(session, ctx, candidate)
    assert _history(1102) == [
        ("drink-tea", "create", "extraction", None, "喜欢喝乌龙茶", message_id),
        ("drink-tea", "append", "extraction", "喜欢喝乌龙茶", "喜欢喝乌龙茶；也喜欢普洱", message_id),
        ("drink-tea", "upsert", "extraction", "喜欢喝乌龙茶；也喜欢普洱", "只喝绿茶", message_id),
        ("drink-tea", "delete", "extraction", "只喝绿茶", None, message_id),
    ]
    [(_memory_id, key, _content, active, revision, status)] = _rows(1102)
    assert (key, active, revision, status) == ("drink-tea", False, 4, "DIRTY")


def test_an_edit_during_sync_leaves_the_row_dirty(db, milvus_env) -> None:
    """Issue 4: marking SYNCED is compare-and-set on the revision that was embedded."""
    with session_scope() as session:
        lock_user(session, 1103)
        record_turn(1103, "seed")
        ctx = WriteContext(1103, HistorySource.TOOL, db_now(session), 180)
        memory_id = apply_candidate(
            session, ctx, Candidate("upsert", "fact", "occupation", "Works as a nurse")
        ).memory_id

    class EditingStore:
        """Milvus, plus a user edit landing while the vectors are being written."""

        def __init__(self, store) -> None:
            self._store = store

        def replace(self, rows, *, flush: bool = True) -> None:
            self._store.replace(rows, flush=flush)
            with session_scope() as session:
                lock_user(session, 1103)
                ctx = WriteContext(1103, HistorySource.TOOL, db_now(session), 180)
                apply_candidate(session, ctx, Candidate("upsert", "fact", "occupation", "Works as a surgeon"))

        def delete(self, ids, *, flush: bool = True) -> None:
            self._store.delete(ids, flush=flush)

    result = index.sync_vectors([memory_id], store=EditingStore(get_store()))
    assert (result.synced, result.skipped) == (0, 1)
    assert [m["vector_status"] for m in list_memories(1103)] == ["DIRTY"]
    assert index.sync_vectors([memory_id]).synced == 1
    stored_hash = get_store().stored([memory_id])[memory_id]["text_hash"]
    assert stored_hash == index.text_hash(index.index_text("fact", "occupation", "Works as a surgeon"))


def test_paraphrase_reuses_the_existing_memory(db) -> None:
    """R-PIPE-4: a restatement under another key confirms the existing memory instead of adding one."""
    record_turn(1104, "seed")
    for key, content in [("food-sichuan", "喜欢吃川菜"), ("sichuan-food-love", "喜欢吃川菜。")]:
        with session_scope() as session:
            lock_user(session, 1104)
            ctx = WriteContext(1104, HistorySource.EXTRACTION, db_now(session), 180)
            write_candidates(session, ctx, [Candidate("upsert", "preference", key, content)])
    assert [(m["memory_key"], m["content"]) for m in list_memories(1104)] == [("food-sichuan", "喜欢吃川菜")]


def test_near_duplicates_under_different_keys_are_merged_with_history(db) -> None:
    """R-PIPE-4: two active memories at >= the merge threshold become one; the loser points to the survivor."""
    record_turn(1105, "seed")
    with session_scope() as session:
        lock_user(session, 1105)
        ctx = WriteContext(1105, HistorySource.TOOL, db_now(session), 180)
        apply_candidate(session, ctx, Candidate("upsert", "fact", "allergy-peanut", "对花生过敏", importance=5))
        apply_candidate(session, ctx, Candidate("upsert", "fact", "peanut-allergy", "对花生过敏。", importance=3))
        merged = merge_near_duplicates(session, scorer_for(session), ctx)
    assert len(merged) == 1
    assert [m["memory_key"] for m in list_memories(1105)] == ["allergy-peanut"]
    with session_scope() as session:
        loser = session.scalar(select(LongTermMemory).where(LongTermMemory.memory_key == "peanut-allergy"))
        assert loser.merged_into_id is not None and not loser.is_active
    ops = [op for _, op, *_ in _history(1105)]
    assert ops.count("merge") == 1 and ops.count("absorb") == 1


def test_pii_redaction_applies_to_every_write(db, monkeypatch: pytest.MonkeyPatch) -> None:
    """R-SAFE-5: with LONG_TERM_MEMORY_REDACT_PII=true the stored content holds placeholders."""
    from config.settings import get_settings

    monkeypatch.setenv("LONG_TERM_MEMORY_REDACT_PII", "true")
    get_settings.cache_clear()
    try:
        record_turn(1106, "seed")
        with session_scope() as session:
            lock_user(session, 1106)
            ctx = WriteContext(1106, HistorySource.TOOL, db_now(session), 180)
            write_candidates(session, ctx, [Candidate("upsert", "fact", "contact-email", "邮箱是 li@example.com")])
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()
    assert [m["content"] for m in list_memories(1106)] == ["邮箱是 [email]"]
