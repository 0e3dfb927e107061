"""The write model against real PostgreSQL and Milvus, stage by stage (R-PIPE-4/5/6, R-DATA-6, R-VEC).

The stages are called as plain functions here (what each Celery task runs), so a
redelivery is simply a second call.
"""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.dialects.postgresql import insert as pg_insert

from memory_tasks import pipeline
from memory_tasks.api import list_memories, message_state, record_turn
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import EmbeddingCache, HistorySource, LongTermMemory, MemoryHistory, User
from memory_tasks.db.session import session_scope
from memory_tasks.extraction.candidates import Candidate
from memory_tasks.extraction.review import RulesReviewer
from memory_tasks.memories import consolidation
from memory_tasks.memories.dedup import merge_near_duplicates, scorer_for
from memory_tasks.memories.lifecycle import expire_batch
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


def _write_occupation(user_id: int, content: str) -> int:
    """The id of the user's `occupation` memory, now saying `content` (a tool write)."""
    with session_scope() as session:
        lock_user(session, user_id)
        record_turn(user_id, "seed")
        ctx = WriteContext(user_id, HistorySource.TOOL, db_now(session), 180)
        return apply_candidate(session, ctx, Candidate("upsert", "fact", "occupation", content)).memory_id


def _assert_milvus_holds_occupation(memory_id: int, content: str) -> None:
    assert (
        get_store()
        .stored([memory_id])[memory_id]
        .holds(index.text_hash(index.index_text("fact", "occupation", content)))
    )


def test_an_edit_during_sync_leaves_the_row_dirty(db, milvus_env) -> None:
    """Issue 4: marking SYNCED is compare-and-set on the revision that was embedded."""
    memory_id = _write_occupation(1103, "Works as a nurse")

    class EditingStore:
        """Milvus, plus a user edit landing while the vectors are being written."""

        def __init__(self, store) -> None:
            self._store = store

        def replace(self, rows, *, flush: bool = True) -> None:
            self._store.replace(rows, flush=flush)
            _write_occupation(1103, "Works as a surgeon")

        def delete(self, ids, *, flush: bool = True) -> None:
            self._store.delete(ids, flush=flush)

    result = index.sync_vectors([memory_id], store=EditingStore(get_store()))
    assert (result.synced, result.skipped) == (0, 1)
    assert [m["vector_status"] for m in list_memories(1103)] == ["DIRTY"]
    assert index.sync_vectors([memory_id]).synced == 1
    _assert_milvus_holds_occupation(memory_id, "Works as a surgeon")


def _waits_for_an_advisory_lock() -> bool:
    with session_scope() as session:
        return bool(session.scalar(text("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")))


def test_a_sync_held_in_its_write_never_overwrites_a_newer_synced_vector(db, milvus_env) -> None:
    """R-VEC-3: a sync that read revision 1 and is held in its Milvus write (Milvus slow, or an
    orphaned worker child) while the row is edited and synced again: the second sync waits for
    the first, then writes revision 2 and marks it SYNCED, so the late write of revision 1 cannot
    leave a stale vector behind a SYNCED row (the race `make chaos` once caught), and the row ends
    SYNCED without a sweep (which is off by default)."""
    memory_id = _write_occupation(1107, "Works as a nurse")
    newer: list[index.SyncResult] = []
    threads: list[threading.Thread] = []

    class HeldStore:
        """Milvus, where this sync's write lands only after an edit and a second sync have started."""

        def __init__(self, store) -> None:
            self._store = store

        def replace(self, rows, *, flush: bool = True) -> None:
            _write_occupation(1107, "Works as a surgeon")
            second = threading.Thread(target=lambda: newer.append(index.sync_vectors([memory_id])), daemon=True)
            second.start()
            deadline = time.monotonic() + 10
            # The second sync either waits for this one (the lock) or has written already (no lock).
            while second.is_alive() and not _waits_for_an_advisory_lock() and time.monotonic() < deadline:
                time.sleep(0.05)
            threads.append(second)
            self._store.replace(rows, flush=flush)

        def delete(self, ids, *, flush: bool = True) -> None:
            self._store.delete(ids, flush=flush)

    held = index.sync_vectors([memory_id], store=HeldStore(get_store()))
    threads[0].join(timeout=30)
    with session_scope() as session:
        row = session.get(LongTermMemory, memory_id)
        status, synced_hash = row.vector_status, row.vector_text_hash
    in_milvus = get_store().stored([memory_id])[memory_id]
    assert status != "SYNCED" or in_milvus.holds(synced_hash), "a SYNCED row whose Milvus vector is stale"
    assert (held.synced, held.skipped) == (0, 1)
    assert [(r.synced, r.skipped) for r in newer] == [(1, 0)]
    assert status == "SYNCED"
    _assert_milvus_holds_occupation(memory_id, "Works as a surgeon")


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
        # Less sure (a safety fact is written at importance 5 whatever it was given, so surety decides).
        apply_candidate(
            session, ctx, Candidate("upsert", "fact", "peanut-allergy", "对花生过敏。", importance=3, confidence=0.6)
        )
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


# --- the invariant of every write path --------------------------------------------------------

SEED_AGE = timedelta(days=10)


def _seed(user_id: int, *memories: dict) -> None:
    """The user and these memories as stored, indexed rows: SYNCED, revision 1, written SEED_AGE ago."""
    with session_scope() as session:
        now = db_now(session)
        session.execute(pg_insert(User).values(id=user_id).on_conflict_do_nothing())
        for values in memories:
            defaults = {
                "memory_type": "fact",
                "vector_status": "SYNCED",
                "expires_at": now + timedelta(days=90),
                "updated_at": now - SEED_AGE,
            }
            session.add(LongTermMemory(user_id=user_id, **(defaults | values)))


def _snapshot(user_id: int) -> dict[int, tuple]:
    """memory id -> (key, revision, vector_status, updated_at, history ops in order)."""
    with session_scope() as session:
        ops: dict[int, list[str]] = {}
        for memory_id, op in session.execute(
            select(MemoryHistory.memory_id, MemoryHistory.op)
            .where(MemoryHistory.user_id == user_id)
            .order_by(MemoryHistory.id)
        ):
            ops.setdefault(memory_id, []).append(op)
        return {
            m.id: (m.memory_key, m.revision, m.vector_status, m.updated_at, ops.get(m.id, []))
            for m in session.scalars(select(LongTermMemory).where(LongTermMemory.user_id == user_id))
        }


def _apply(user_id: int, candidate: Candidate) -> None:
    with session_scope() as session:
        lock_user(session, user_id)
        apply_candidate(session, WriteContext(user_id, HistorySource.EXTRACTION, db_now(session), 180), candidate)


def _merge(user_id: int) -> None:
    with session_scope() as session:
        lock_user(session, user_id)
        merge_near_duplicates(
            session, scorer_for(session), WriteContext(user_id, HistorySource.TOOL, db_now(session), 180)
        )


def _consolidate(user_id: int) -> None:
    assert consolidation.apply_plan(consolidation.plan_consolidation(user_id, RulesReviewer())).status == "applied"


TEA = {"memory_key": "drink-tea", "memory_type": "preference", "content": "喜欢喝乌龙茶"}
PEANUT = [
    {"memory_key": "allergy-peanut", "content": "对花生过敏", "importance": 5},
    {"memory_key": "peanut-allergy", "content": "对花生过敏。", "importance": 3},
]
# Consolidation: a noise key (delete), an identical duplicate (merge, absorb), untidy content
# (normalize), an expired row, and a rename onto the key only an inactive row holds.
MESSY = [
    {"memory_key": "tool-list", "content": "当前可用工具：web_search"},
    {"memory_key": "editor-theme", "memory_type": "preference", "content": "Prefers dark mode", "importance": 4},
    {"memory_key": "dark-mode", "memory_type": "preference", "content": "Prefers dark mode.", "importance": 2},
    {"memory_key": "goal-japanese", "memory_type": "goal", "content": "  Learn   Japanese ,"},
    {"memory_key": "old-hobby", "content": "下象棋", "expires_at": datetime(2001, 1, 1, tzinfo=UTC)},
    {"memory_key": "home-city", "content": "常住武汉", "is_active": False},
    {"memory_key": "Home City", "content": "常住上海"},
]

# Each write path: the rows it starts from, the write, and the history ops it must leave per key.
WRITE_PATHS = {
    "create": (
        [],
        lambda u: _apply(u, Candidate("upsert", "fact", "home-city", "常住上海")),
        {"home-city": ["create"]},
    ),
    "overwrite": (
        [TEA],
        lambda u: _apply(u, Candidate("upsert", "preference", "drink-tea", "只喝绿茶")),
        {"drink-tea": ["upsert"]},
    ),
    "append": (
        [TEA],
        lambda u: _apply(u, Candidate("append", "preference", "drink-tea", "也喜欢普洱")),
        {"drink-tea": ["append"]},
    ),
    "delete": (
        [TEA],
        lambda u: _apply(u, Candidate("delete", "preference", "drink-tea", "")),
        {"drink-tea": ["delete"]},
    ),
    "retraction tombstone": (
        [],
        lambda u: _apply(u, Candidate("delete", "fact", "pet-cat", "")),
        {"pet-cat": ["delete"]},
    ),
    "near-duplicate merge": (PEANUT, _merge, {"peanut-allergy": ["merge"], "allergy-peanut": ["absorb"]}),
    "expiry": (
        [TEA | {"expires_at": datetime(2001, 1, 1, tzinfo=UTC)}],
        lambda u: expire_batch(100),
        {"drink-tea": ["expire"]},
    ),
    "consolidation": (
        MESSY,
        _consolidate,
        {
            "tool-list": ["delete"],
            "dark-mode": ["merge"],
            "editor-theme": ["absorb"],
            "goal-japanese": ["normalize"],
            "old-hobby": ["expire"],
            "Home City": ["merge"],
            "home-city": ["normalize", "absorb"],
        },
    ),
}


@pytest.mark.parametrize("path", list(WRITE_PATHS))
def test_every_write_path_keeps_the_invariant(db, path: str) -> None:
    """R-DATA-6, issue 4: a changed row has the next revision, is DIRTY, was updated now and has history
    for exactly that change; a row that only absorbed another keeps its revision and index state."""
    # given
    user_id = 1150 + list(WRITE_PATHS).index(path)
    seeded, write, expected_ops = WRITE_PATHS[path]
    _seed(user_id, *seeded)
    before = _snapshot(user_id)
    # when
    write(user_id)
    # then
    after = _snapshot(user_id)
    changed = {}
    for memory_id, (key, revision, status, updated_at, ops) in after.items():
        seeded_key, old_revision, old_status, old_updated_at, old_ops = before.get(memory_id, (key, 0, None, None, []))
        new_ops = ops[len(old_ops) :]
        if not new_ops:
            assert (revision, status, updated_at) == (old_revision, old_status, old_updated_at), key
            continue
        changed[seeded_key] = new_ops
        if new_ops == ["absorb"]:
            # It should leave the survivor's row as it was: only its history says what it absorbed.
            assert (revision, status) == (old_revision, old_status), key
            continue
        # It should give the changed row the next revision and mark it DIRTY for index sync.
        assert (revision, status) == (old_revision + 1, "DIRTY"), key
        if "normalize" in new_ops:
            # Consolidation's rewrite keeps the time the user last stated the memory.
            assert updated_at == old_updated_at, key
        else:
            assert old_updated_at is None or updated_at > old_updated_at, key
    # It should record exactly the expected history: one row per change, nothing on untouched rows.
    assert changed == expected_ops


def _through_the_write_path(user_id: int, text: str) -> None:
    message_id = record_turn(user_id, text)
    pipeline.upsert_stage(pipeline.refine_stage(pipeline.extract_stage(message_id)))


def test_giving_up_meat_retires_the_taste_and_keeps_a_core_diet(db) -> None:
    """R-READ-6, issue 13.3: 「我已经不吃肉了」 after 「我喜欢吃肉」 retires the liking and stores the
    restriction as a core diet fact (it stored nothing of the restriction before)."""
    _through_the_write_path(1108, "我喜欢吃肉。")
    _through_the_write_path(1108, "我已经不吃肉了。")
    memories = {m["memory_key"]: m for m in list_memories(1108)}
    assert "food-meat" not in memories  # retired (list_memories shows the active ones)
    assert memories["diet"]["content"] == "不吃肉了" and memories["diet"]["is_core"] is True


def test_a_pet_owned_and_a_liking_of_its_animal_are_two_memories(db) -> None:
    """R-WRITE-2 (thirteenth probe): a pet owned (fact) and a liking of the animal (preference) were
    both keyed `pet-cat`, and keys are unique per user, so "I love cats" overwrote "Has a cat named
    Luna". The liking is keyed by the animal (`animal-cat`); the pet stays `pet-cat`."""
    _through_the_write_path(1109, "I have a cat named Luna.")
    _through_the_write_path(1109, "I love cats.")
    _through_the_write_path(1109, "我很喜欢狗，家里也养了一只狗。")
    memories = {m["memory_key"]: (m["memory_type"], m["content"]) for m in list_memories(1109)}
    assert memories["pet-cat"] == ("fact", "Has a cat named Luna")
    assert memories["animal-cat"] == ("preference", "Loves cats")
    assert memories["pet-dog"][0] == "fact" and memories["animal-dog"][0] == "preference"


def test_a_new_favourite_of_a_kind_replaces_the_old_one(db) -> None:
    """R-WRITE-2 (thirteenth probe): favourites were keyed by their item, so both colours stayed."""
    _through_the_write_path(1110, "My favorite color is blue.")
    _through_the_write_path(1110, "My favorite color is green now.")
    memories = [(m["memory_key"], m["content"]) for m in list_memories(1110)]
    assert memories == [("favorite-color", "Favorite color is green now")]


def test_a_divorce_retires_the_partner_and_a_remarriage_retires_the_status(db) -> None:
    """R-WRITE-2 (fourteenth probe): 「我离婚了」 and "I'm divorced" stored nothing, so the wife of an
    earlier turn stayed. The status is stated and the partner retired; marrying again ends the status.
    A marriage with no status stored retires nothing (no inactive row is recorded)."""
    _through_the_write_path(1111, "我老婆是医生。")
    _through_the_write_path(1111, "我已经离婚三年了。")
    memories = {m["memory_key"]: m["content"] for m in list_memories(1111)}
    assert memories == {"relationship-status": "已经离婚三年了"}
    _through_the_write_path(1111, "I just got remarried.")
    memories = {m["memory_key"]: m["content"] for m in list_memories(1111)}
    assert memories == {"family-partner": "Just got remarried"}

    _through_the_write_path(1112, "I'm married.")
    with session_scope() as session:
        keys = session.scalars(select(LongTermMemory.memory_key).where(LongTermMemory.user_id == 1112)).all()
    assert keys == ["family-partner"]


def test_an_allergy_said_after_an_avoidance_of_the_food_replaces_it(db) -> None:
    """R-WRITE-2, R-READ-6 (fourteenth probe): 「我不能吃海鲜」 then 「我对海鲜过敏」 left the avoidance beside the
    allergy (said in one turn, 「…，会过敏」 already gave the allergy alone); said in the other order, the
    avoidance was stored beside it too. A liking stays beside it."""
    _through_the_write_path(1113, "我不能吃海鲜。")
    _through_the_write_path(1113, "我对海鲜过敏。")
    assert [(m["memory_key"], m["content"]) for m in list_memories(1113)] == [("allergy-seafood", "对海鲜过敏")]
    _through_the_write_path(1115, "我对海鲜过敏。")
    _through_the_write_path(1115, "我不能吃海鲜。")
    assert [(m["memory_key"], m["content"]) for m in list_memories(1115)] == [("allergy-seafood", "对海鲜过敏")]
    _through_the_write_path(1114, "I love shrimp.")
    _through_the_write_path(1114, "I'm allergic to shrimp.")
    assert {m["memory_key"] for m in list_memories(1114)} == {"allergy-shrimp", "food-shrimp"}


def test_a_corrected_age_replaces_the_old_one_in_the_family_fact(db) -> None:
    """R-WRITE-2 (fourteenth probe): "Correction: my daughter is 7, not 6" left "Daughter is 6; Daughter is
    7; Not 6" under family-children."""
    _through_the_write_path(1116, "I have two kids. My daughter is 6.")
    _through_the_write_path(1116, "Correction: my daughter is 7, not 6.")
    assert [m["content"] for m in list_memories(1116)] == ["Has two kids; Daughter is 7"]


def test_a_taste_aimed_at_a_safety_facts_key_is_kept_beside_it(db) -> None:
    """R-READ-6, R-WRITE-2: a model's refinement may point "Loves peanut butter" at `allergy-peanut` (the
    same subject); the upsert of another type overwrote the allergy, the worst memory to lose. A taste,
    goal or project is written beside the safety fact; a fact of its slot and a delete still apply."""
    _through_the_write_path(1117, "我对花生过敏。")
    liking = Candidate("upsert", "preference", "food-peanut-butter", "Loves peanut butter", reuse_key="allergy-peanut")
    with session_scope() as session:
        lock_user(session, 1117)
        apply_candidate(session, WriteContext(1117, HistorySource.EXTRACTION, db_now(session), 180), liking)
    memories = {m["memory_key"]: (m["memory_type"], m["content"], m["is_core"]) for m in list_memories(1117)}
    assert memories == {
        "allergy-peanut": ("fact", "对花生过敏", True),
        "food-peanut-butter": ("preference", "Loves peanut butter", False),
    }
    with session_scope() as session:
        lock_user(session, 1117)
        ctx = WriteContext(1117, HistorySource.EXTRACTION, db_now(session), 180)
        apply_candidate(session, ctx, Candidate("upsert", "fact", "allergy-peanut", "对花生严重过敏"))
        # The extractor's own key is the allergy's: the taste goes under its type's key.
        apply_candidate(session, ctx, Candidate("upsert", "goal", "allergy-peanut", "Wants to outgrow it"))
        apply_candidate(session, ctx, Candidate("delete", "preference", "allergy-peanut", ""))
    assert {m["memory_key"] for m in list_memories(1117)} == {"food-peanut-butter", "goal-peanut"}


def test_a_drink_taken_up_again_takes_its_part_out_of_the_diet(db) -> None:
    """R-READ-6, R-WRITE-2 (session 22 scenarios): after 「我戒酒了」 and 「最近又开始喝酒了」 the core diet fact
    still said 戒酒 on every reply. The part leaves the diet; another part stays; the drink is a habit again."""
    for turn in ("我戒酒了", "我不吃猪肉了", "最近又开始喝酒了"):
        _through_the_write_path(1118, turn)
    assert {(m["memory_key"], m["content"]) for m in list_memories(1118)} == {
        ("diet", "不吃猪肉了"),
        ("drink-alcohol", "最近又开始喝酒了"),
    }
    for turn in ("I quit drinking.", "I started drinking again."):
        _through_the_write_path(1119, turn)
    assert [(m["memory_key"], m["content"]) for m in list_memories(1119)] == [
        ("drink-alcohol", "Started drinking again")
    ]


def test_a_second_drug_allergy_is_kept_beside_the_first(db) -> None:
    """R-READ-6, R-PIPE-4 (session 22 scenarios): 「医生说我对阿莫西林也过敏」 after 「我对青霉素过敏」 was a
    `confirm` of the penicillin allergy: similarity took the two drug allergies for one, the wording-hash key
    of an allergen outside the lexicon left it to similarity, and the amoxicillin allergy was lost."""
    for turn in ("我对青霉素过敏", "医生说我对阿莫西林也过敏", "医生说我对碘伏也过敏"):
        _through_the_write_path(1120, turn)
    contents = sorted(m["content"] for m in list_memories(1120))
    assert contents == ["对碘伏也过敏", "对阿莫西林也过敏", "对青霉素过敏"], contents


def test_a_value_taken_back_leaves_another_value_of_the_slot(db) -> None:
    """R-WRITE-2 (sixteenth probe): "I don't live in Paris anymore" deleted "Lives in Berlin" (the retraction
    named only the slot), through the whole write path."""
    _through_the_write_path(1130, "I live in Berlin.")
    _through_the_write_path(1130, "I don't live in Paris anymore.")
    assert [(m["memory_key"], m["content"]) for m in list_memories(1130)] == [("residence-city", "Lives in Berlin")]
    _through_the_write_path(1130, "I don't live in Berlin anymore.")
    assert list_memories(1130) == []


def test_a_pronoun_in_the_next_turns_is_the_family_member_named_before(db) -> None:
    """R-WRITE-2 (sixteenth probe): 「他最近迷上了篮球」 after 「我有个儿子…」 was lost, turn by turn through the
    pipeline (the recent turns of the conversation say whom 他 means)."""
    for turn in ("我有个儿子，今年上初一", "他最近迷上了篮球", "他不爱吃青菜"):
        _through_the_write_path(1131, turn)
    assert [(m["memory_key"], m["content"]) for m in list_memories(1131)] == [
        ("family-children", "有个儿子；今年上初一；儿子最近迷上了篮球；儿子不爱吃青菜")
    ]


def test_what_a_diet_allows_and_a_units_rule_said_later_land_on_the_memory_held(db) -> None:
    """R-WRITE-2, R-READ-6 (seventeenth probe): 「不过我吃鸡蛋和牛奶」 the turn after 「我是素食主义者」 was lost, and
    "Actually, use imperial" after "I prefer metric units" left both units memories. Turn by turn through the
    pipeline, the diet takes in what it allows and the later units replace the earlier ones."""
    for turn in ("我是素食主义者。", "不过我吃鸡蛋和牛奶。"):
        _through_the_write_path(1132, turn)
    assert [(m["memory_key"], m["content"], m["is_core"]) for m in list_memories(1132)] == [
        ("diet", "是素食主义者，但吃鸡蛋和牛奶", True)
    ]
    for turn in ("I prefer metric units.", "Actually, use imperial, I'm in the US."):
        _through_the_write_path(1133, turn)
    assert [(m["memory_key"], m["memory_type"], m["content"]) for m in list_memories(1133)] == [
        ("reply-units", "constraint", "Uses imperial units")  # one wording per unit (twenty-seventh probe)
    ]


def test_a_corrected_value_rewrites_the_memory_that_held_the_wrong_one(db) -> None:
    """R-WRITE-2 (seventeenth probe): 「更正一下，是蚂蚁金服，不是阿里」 after 「我在阿里上班」 left 「在阿里工作」; through the
    pipeline the employer memory now says the right company, one memory, its history one update."""
    for turn in ("我在阿里上班。", "更正一下，是蚂蚁金服，不是阿里。"):
        _through_the_write_path(1134, turn)
    assert [(m["memory_key"], m["content"]) for m in list_memories(1134)] == [("employer", "在蚂蚁金服工作")]
    assert [(key, old, new) for key, _, _, old, new, _ in _history(1134)] == [
        ("employer", None, "在阿里工作"),
        ("employer", "在阿里工作", "在蚂蚁金服工作"),
    ]


def test_one_pet_lost_keeps_the_others(db) -> None:
    """R-DATA-6 (seventeenth probe): "Max died last month" after "I have two dogs, Max and Bella" ended the memory of
    both dogs; through the pipeline the loss is added and Bella stays."""
    for turn in ("I have two dogs, Max and Bella.", "Max died last month."):
        _through_the_write_path(1135, turn)
    assert [(m["memory_key"], m["content"]) for m in list_memories(1135)] == [
        ("pet-dog", "Has two dogs, Max and Bella; Max died last month")
    ]


def test_a_safety_fact_is_written_as_important_as_a_memory_gets(db) -> None:
    """R-READ-6 (twenty-first probe): "I can't have shellfish or peanuts" was kept at a taste's importance 3, so a
    user with more safety facts than the core block holds got "Carries an EpiPen" and 「有轻度自闭症」 (5) injected
    and the shellfish left out. Every safety fact is written at the top of the scale; a reply rule, also core,
    and a taste keep what they were given."""
    record_turn(1131, "seed")
    with session_scope() as session:
        lock_user(session, 1131)
        ctx = WriteContext(1131, HistorySource.EXTRACTION, db_now(session), 180)
        for candidate in (
            Candidate("upsert", "preference", "food-shellfish", "Can't have shellfish", importance=3),
            Candidate("upsert", "constraint", "reply-language", "以后回答用中文", importance=3),
            Candidate("upsert", "preference", "food-hotpot", "喜欢吃火锅", importance=3),
        ):
            apply_candidate(session, ctx, candidate)
    by_key = {m["memory_key"]: (m["importance"], m["is_core"]) for m in list_memories(1131)}
    assert by_key == {"food-shellfish": (5, True), "reply-language": (3, True), "food-hotpot": (3, False)}
