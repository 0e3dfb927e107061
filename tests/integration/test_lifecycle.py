"""Lifecycle on real PostgreSQL: TTL expiry with a controllable clock, consolidation in both engines,
the beat fan-out, and one consolidation through a real worker (R-LIFE-1/2, R-BEAT-3, R-TYPE-4)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert

from memory_tasks.__main__ import main
from memory_tasks.api import list_memories
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import HistorySource, LongTermMemory, MemoryHistory, User
from memory_tasks.db.session import get_engine, session_scope
from memory_tasks.extraction.candidates import Candidate
from memory_tasks.extraction.review import get_reviewer
from memory_tasks.llm import LLMOutputError
from memory_tasks.memories import consolidation
from memory_tasks.memories.lifecycle import expire_batch
from memory_tasks.memories.store import WriteContext, apply_candidate, lock_user
from memory_tasks.retrieval import find_memories
from memory_tasks.tasks import lifecycle as lifecycle_tasks
from memory_tasks.vectors import index
from memory_tasks.vectors.milvus_store import get_store
from tests.fake_openai import FakeOpenAI, as_json
from tests.integration.test_cli import cli

USER, OTHER = 701, 702


def clock() -> datetime:
    with session_scope() as session:
        return db_now(session)


def seed(user_id: int, *memories: dict[str, Any]) -> dict[str, int]:
    """Insert the user and these memories as stored rows (SYNCED, revision 1); returns key -> id."""
    now = clock()
    with session_scope() as session:
        session.execute(pg_insert(User).values(id=user_id).on_conflict_do_nothing())
        rows = []
        for values in memories:
            defaults = {
                "memory_type": "fact",
                "expires_at": now + timedelta(days=90),
                "vector_status": "SYNCED",
                "updated_at": now - timedelta(days=30),
            }
            rows.append(LongTermMemory(user_id=user_id, **(defaults | values)))
        session.add_all(rows)
        session.flush()
        return {row.memory_key: row.id for row in rows}


def state(*user_ids: int) -> list[tuple]:
    """Every row, history row and consolidation stamp of these users, for "nothing changed" checks."""
    with session_scope() as session:
        memories = session.execute(
            select(
                LongTermMemory.id,
                LongTermMemory.memory_key,
                LongTermMemory.memory_type,
                LongTermMemory.content,
                LongTermMemory.is_active,
                LongTermMemory.revision,
                LongTermMemory.vector_status,
                LongTermMemory.expires_at,
                LongTermMemory.merged_into_id,
            )
            .where(LongTermMemory.user_id.in_(user_ids))
            .order_by(LongTermMemory.id)
        ).all()
        history = session.scalar(select(func.count()).where(MemoryHistory.user_id.in_(user_ids)))
        stamps = session.execute(select(User.id, User.last_consolidated_at).where(User.id.in_(user_ids))).all()
    return [*map(tuple, memories), history, *map(tuple, stamps)]


def row(memory_id: int) -> LongTermMemory:
    with session_scope() as session:
        return session.get(LongTermMemory, memory_id)


def history(memory_id: int) -> list[tuple[str, str]]:
    with session_scope() as session:
        return [
            tuple(r)
            for r in session.execute(
                select(MemoryHistory.op, MemoryHistory.source)
                .where(MemoryHistory.memory_id == memory_id)
                .order_by(MemoryHistory.id)
            )
        ]


def listed(user_id: int) -> dict[str, tuple[str, str]]:
    return {m["memory_key"]: (m["memory_type"], m["content"]) for m in list_memories(user_id)}


# --- TTL expiry -----------------------------------------------------------------------------


def test_core_memories_never_expire(db) -> None:
    """Issue 13 item 3 / R-READ-6: a core memory past its expires_at stays listed, retrieved and
    active through the sweep; a non-core one beside it expires."""
    now = clock()
    ids = seed(
        USER,
        {
            "memory_key": "allergy-peanut",
            "content": "Is allergic to peanuts",
            "is_core": True,
            "expires_at": now - timedelta(days=1),
        },
        {"memory_key": "exam-plan", "content": "在准备雅思考试", "expires_at": now - timedelta(days=1)},
    )
    assert list(listed(USER)) == ["allergy-peanut"]
    assert [hit.id for hit in find_memories(USER, "", mode="full_inject")] == [ids["allergy-peanut"]]
    assert expire_batch(100) == [ids["exam-plan"]]
    assert row(ids["allergy-peanut"]).is_active and history(ids["allergy-peanut"]) == []


@pytest.mark.slow
def test_expired_memories_are_hidden_before_the_sweep_and_leave_milvus_after_it(db, milvus_env) -> None:
    """R-LIFE-1, R-VEC-3: never listed or retrieved once expired (vector still in Milvus); the sweep
    deactivates the row (DIRTY, history source=expiry) and its index sync removes the vector."""
    now = clock()
    ids = seed(
        USER,
        {"memory_key": "home-city", "content": "常住杭州"},
        {"memory_key": "exam-plan", "content": "在准备雅思考试", "expires_at": now - timedelta(minutes=1)},
    )
    index.embed_memories(list(ids.values()))
    index.sync_vectors(list(ids.values()))
    assert set(get_store().stored(list(ids.values()))) == set(ids.values())
    # It should be invisible at once, whatever the sweep has done.
    assert list(listed(USER)) == ["home-city"]
    assert [hit.id for hit in find_memories(USER, "", mode="full_inject")] == [ids["home-city"]]
    assert ids["exam-plan"] not in [hit.id for hit in find_memories(USER, "雅思考试", mode="dense")]
    # The sweep makes it durable: inactive, re-indexed (its vector goes), with its history.
    assert expire_batch(100) == [ids["exam-plan"]]
    expired = row(ids["exam-plan"])
    assert (expired.is_active, expired.vector_status, expired.revision) == (False, "DIRTY", 2)
    assert history(ids["exam-plan"]) == [("expire", HistorySource.EXPIRY.value)]
    assert row(ids["home-city"]).is_active
    assert expire_batch(100) == []
    index.sync_vectors([ids["exam-plan"]])
    assert set(get_store().stored(list(ids.values()))) == {ids["home-city"]}


def test_the_sweep_expires_by_the_clock_it_is_given(db) -> None:
    """R-LIFE-1: a controllable clock; nothing is expired a day early."""
    now = clock()
    ids = seed(USER, {"memory_key": "tea", "content": "喜欢乌龙茶", "expires_at": now + timedelta(days=10)})
    assert expire_batch(10, now=now + timedelta(days=9)) == []
    assert expire_batch(10, now=now + timedelta(days=11)) == [ids["tea"]]


def test_confirming_a_memory_refreshes_its_ttl(db) -> None:
    """R-LIFE-1: ttl_days counts from the last time the memory was stated; the default is 180 days."""
    start = clock()
    seed(USER)

    def state_it(at: datetime, ttl_days: int | None) -> LongTermMemory:
        with session_scope() as session:
            lock_user(session, USER)
            ctx = WriteContext(USER, HistorySource.EXTRACTION, at, default_ttl_days=180)
            candidate = Candidate(
                op="upsert", memory_type="preference", key="tea", content="喜欢乌龙茶", ttl_days=ttl_days
            )
            apply_candidate(session, ctx, candidate)
        with session_scope() as session:
            return session.scalars(select(LongTermMemory).where(LongTermMemory.memory_key == "tea")).one()

    assert state_it(start, 10).expires_at == start + timedelta(days=10)
    assert state_it(start + timedelta(days=5), 10).expires_at == start + timedelta(days=15)
    assert expire_batch(10, now=start + timedelta(days=12)) == []
    assert state_it(start + timedelta(days=6), None).expires_at == start + timedelta(days=186)


def test_sweep_batches_are_bounded_and_skip_rows_another_transaction_holds(db) -> None:
    """R-BEAT-3, R-BEAT-4: bounded batches claimed with SKIP LOCKED; a held row waits for a later sweep."""
    past = clock() - timedelta(days=1)
    ids = seed(USER, *({"memory_key": f"old-{i}", "content": f"旧记忆{i}", "expires_at": past} for i in range(5)))
    held = ids["old-0"]
    with get_engine().connect() as connection, connection.begin():
        connection.execute(select(LongTermMemory.id).where(LongTermMemory.id == held).with_for_update())
        first = expire_batch(2)
        rest = expire_batch(10)
    assert len(first) == 2 and held not in first + rest
    assert sorted(first + rest) == sorted(set(ids.values()) - {held})
    assert expire_batch(10) == [held]


def test_expire_cli_takes_a_clock(db, capsys: pytest.CaptureFixture[str]) -> None:
    """R-OPS-3, R-LIFE-1: `expire --now` sweeps as of the given time."""
    later = clock() + timedelta(days=100)
    seed(USER, {"memory_key": "tea", "content": "喜欢乌龙茶"})
    assert main(["expire", "--now", later.isoformat()]) == 0
    assert json.loads(capsys.readouterr().out) == {"expired": 1}
    assert listed(USER) == {}


# --- consolidation ------------------------------------------------------------------------------

MESSY = (
    {"memory_key": "food-preference", "memory_type": "preference", "content": "喜欢川菜"},
    {"memory_key": "Food Preference", "memory_type": "preference", "content": "喜欢  吃湘菜 。。", "days_ago": 1},
    {"memory_key": "tool-list", "content": "当前可用工具：web_search, memory_save"},
    {"memory_key": "nickname", "memory_type": "profile", "content": "叫我小明"},
    {"memory_key": "residence-city", "memory_type": "location", "content": "常住上海"},
    {"memory_key": "morning-drink", "memory_type": "habits", "content": "每天早上喝美式咖啡"},
    {"memory_key": "old-hobby", "memory_type": "preference", "content": "likes chess", "expired": True},
    {
        "memory_key": "editor-theme",
        "memory_type": "preference",
        "content": "Prefers dark mode in code editors",
        "importance": 4,
    },
    {"memory_key": "dark-mode", "memory_type": "preference", "content": "Prefers dark mode in code editors."},
    {"memory_key": "goal-learn-japanese", "memory_type": "goal", "content": "  Learn   Japanese ,"},
    {"memory_key": "weather-date_2025_02_01", "content": "晴，最高温 12℃"},
    {"memory_key": "reply-language", "memory_type": "constraint", "content": "回复用中文"},
)
EXPECTED = {
    "food-preference": ("preference", "喜欢吃湘菜。"),
    "residence-city": ("fact", "常住上海"),
    "morning-drink": ("preference", "每天早上喝美式咖啡"),
    "editor-theme": ("preference", "Prefers dark mode in code editors"),
    "goal-learn-japanese": ("goal", "Learn Japanese"),
    "reply-language": ("constraint", "回复用中文"),
}


def seed_messy(user_id: int) -> dict[str, int]:
    now = clock()
    memories = []
    for spec in MESSY:
        values = {k: v for k, v in spec.items() if k not in ("days_ago", "expired")}
        values["updated_at"] = now - timedelta(days=spec.get("days_ago", 30))
        if spec.get("expired"):
            values["expires_at"] = now - timedelta(hours=1)
        memories.append(values)
    return seed(user_id, *memories)


def test_offline_consolidation_of_a_messy_user(db) -> None:
    """R-LIFE-2, R-TYPE-4, R-DATA-6: expired, duplicated, mis-typed and noise memories; dry run first."""
    ids = seed_messy(USER)
    other = seed(OTHER, {"memory_key": "tool-list", "content": "当前可用工具：web_search"})
    before = state(USER, OTHER)
    plan = consolidation.plan_consolidation(USER, get_reviewer("rules"))
    # A plan changes nothing.
    assert state(USER, OTHER) == before
    # editor-theme absorbs an identical duplicate with nothing to change, so it is kept as it is.
    assert plan.counts() == {"expire": 1, "delete": 3, "merge": 2, "normalize": 4, "keep": 2}

    result = consolidation.apply_plan(plan)
    assert result.status == "applied"
    assert listed(USER) == EXPECTED
    # Every change went through the write model: history with its source, DIRTY, a new revision.
    assert history(ids["old-hobby"]) == [("expire", "expiry")]
    assert history(ids["tool-list"]) == [("delete", "consolidate")]
    assert history(ids["Food Preference"]) == [("merge", "consolidate")]
    assert row(ids["Food Preference"]).merged_into_id == ids["food-preference"]
    assert row(ids["dark-mode"]).merged_into_id == ids["editor-theme"]
    changed = row(ids["morning-drink"])
    assert (changed.vector_status, changed.revision) == ("DIRTY", 2)
    untouched = row(ids["reply-language"])
    assert (untouched.vector_status, untouched.revision) == ("SYNCED", 1)
    assert set(result.changed_ids) == set(ids.values()) - {ids["reply-language"], ids["editor-theme"]}
    # Another user's memories are none of this consolidation's business.
    assert row(other["tool-list"]).is_active
    # Done: the user is no longer due, and a second pass finds nothing to do.
    assert not consolidation.is_due(USER)
    assert consolidation.plan_consolidation(USER, get_reviewer("rules")).changes == []


def test_a_memory_moves_onto_a_key_only_an_inactive_row_holds(db) -> None:
    """R-DATA-1 UNIQUE(user_id, memory_key): renaming onto a deleted memory's key revives that row."""
    ids = seed(
        USER,
        {"memory_key": "home-city", "content": "常住武汉", "is_active": False},
        {"memory_key": "Home City", "content": "常住上海"},
    )
    assert consolidation.apply_plan(consolidation.plan_consolidation(USER, get_reviewer("rules"))).status == "applied"
    assert listed(USER) == {"home-city": ("fact", "常住上海")}
    assert row(ids["Home City"]).merged_into_id == ids["home-city"]
    assert history(ids["home-city"]) == [("normalize", "consolidate"), ("absorb", "consolidate")]
    assert history(ids["Home City"]) == [("merge", "consolidate")]


def test_a_stale_plan_is_refused_and_writes_nothing(db) -> None:
    """R-PIPE-7: a write between plan and apply makes the plan stale; nothing is applied."""
    seed_messy(USER)
    plan = consolidation.plan_consolidation(USER, get_reviewer("rules"))
    with session_scope() as session:
        lock_user(session, USER)
        ctx = WriteContext(USER, HistorySource.EXTRACTION, db_now(session), default_ttl_days=180)
        apply_candidate(session, ctx, Candidate(op="upsert", memory_type="fact", key="employer", content="在银行工作"))
    before = state(USER)
    assert consolidation.apply_plan(plan).status == "stale"
    assert state(USER) == before


@contextmanager
def llm_configured(fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    from config.settings import get_settings

    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC", "10")
    get_settings.cache_clear()
    try:
        yield
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()


def reviewed_ids(fake_openai: FakeOpenAI) -> set[int]:
    body = fake_openai.requests[-1]["messages"][1]["content"].split("\n\nAnswer")[0]
    return {memory["id"] for memory in json.loads(body)["memories"]}


def test_llm_consolidation_survives_hostile_answers(db, fake_openai: FakeOpenAI, monkeypatch) -> None:
    """R-LIFE-2, R-SAFE-3, R-TYPE-4: the model sees only this user's reviewable rows and cannot act beyond them."""
    ids = seed(
        USER,
        {"memory_key": "coffee", "memory_type": "preference", "content": "每天早上喝美式咖啡"},
        {"memory_key": "coffee-habit", "memory_type": "preference", "content": "早上一定要来一杯美式"},
        {"memory_key": "jazz", "content": "喜欢听爵士乐"},
        {"memory_key": "moving", "content": "正在准备搬家"},
        {"memory_key": "diet", "memory_type": "constraint", "content": "不吃香菜"},
        {"memory_key": "system-format", "content": "系统格式：markdown"},
    )
    other = seed(OTHER, {"memory_key": "secret", "content": "另一个用户的记忆"})
    fake_openai.script(
        as_json(
            {
                "actions": [
                    {"id": other["secret"], "action": "delete", "reason": "not yours"},
                    {"id": ids["system-format"], "action": "keep"},
                    {
                        "id": ids["diet"],
                        "action": "normalize",
                        "key": "tool-diet",
                        "reason": "hostile rename to a noise key",
                    },
                    {
                        "id": ids["coffee-habit"],
                        "action": "merge",
                        "into_id": ids["coffee"],
                        "content": "每天早上喝一杯美式咖啡",
                    },
                    {"id": ids["jazz"], "action": "normalize", "memory_type": "preference", "key": "music-preference"},
                    {"id": ids["moving"], "action": "delete", "reason": "short-term"},
                    {"id": ids["coffee"], "action": "merge", "into_id": other["secret"]},
                ]
            }
        )
    )
    with llm_configured(fake_openai, monkeypatch):
        plan = consolidation.plan_consolidation(USER, get_reviewer())
    assert plan.engine == "llm"
    # It should show the model only this user's rows that passed the hard filters.
    assert reviewed_ids(fake_openai) == {ids[k] for k in ("coffee", "coffee-habit", "jazz", "moving", "diet")}
    assert consolidation.apply_plan(plan).status == "applied"
    assert listed(USER) == {
        "coffee": ("preference", "每天早上喝一杯美式咖啡"),
        "music-preference": ("preference", "喜欢听爵士乐"),
        "diet": ("constraint", "不吃香菜"),
    }
    assert not row(ids["system-format"]).is_active
    assert row(other["secret"]).is_active and history(other["secret"]) == []


def test_an_llm_answer_with_nothing_usable_fails_and_changes_nothing(db, fake_openai, monkeypatch) -> None:
    """R-PIPE-9, R-SAFE-3: an answer that only names another user's rows is unusable output."""
    seed(USER, {"memory_key": "jazz", "content": "喜欢听爵士乐"})
    other = seed(OTHER, {"memory_key": "secret", "content": "另一个用户的记忆"})
    before = state(USER, OTHER)
    fake_openai.script(as_json({"actions": [{"id": other["secret"], "action": "delete"}]}))
    with llm_configured(fake_openai, monkeypatch), pytest.raises(LLMOutputError):
        consolidation.plan_consolidation(USER, get_reviewer())
    assert state(USER, OTHER) == before


def test_cli_dry_run_shows_the_plan_and_changes_nothing_then_applies(db, capsys) -> None:
    """R-LIFE-2, R-OPS-3: `consolidate --user ID --dry-run` only shows; without it the plan is applied."""
    seed_messy(USER)
    before = state(USER)
    assert main(["consolidate", "--user", str(USER), "--dry-run", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["dry_run"] is True and shown["counts"]["delete"] == 3 and "status" not in shown
    assert state(USER) == before
    applied = cli("consolidate", "--user", str(USER), "--engine", "rules", "--json")
    assert applied.returncode == 0, applied.stderr
    assert json.loads(applied.stdout)["status"] == "applied"
    assert listed(USER) == EXPECTED
    text = cli("consolidate", "--user", str(USER), "--dry-run")
    assert text.returncode == 0 and "dry run: nothing changed" in text.stdout


# --- fan-out ------------------------------------------------------------------------------------


def test_lifecycle_tasks_keep_their_names_and_beat_entries() -> None:
    """R-PIPE-1, R-BEAT-3: stable names; each schedule on the maintenance queue with expires = interval."""
    from config.settings import Settings
    from memory_tasks import app
    from schedules.beat import beat_schedule

    for name in ("memory.expire_memories", "memory.schedule_consolidation", "memory.consolidate_user"):
        assert name in app.tasks, name
    settings = Settings(
        _env_file=None, LONG_TERM_MEMORY_EXPIRY_INTERVAL_SEC=600, LONG_TERM_MEMORY_CONSOLIDATE_INTERVAL_SEC=7200
    )
    schedule = beat_schedule(settings)
    assert schedule["expire-memories"] == {
        "task": "memory.expire_memories",
        "schedule": 600,
        "options": {"queue": "maintenance", "expires": 600},
    }
    assert schedule["schedule-consolidation"] == {
        "task": "memory.schedule_consolidation",
        "schedule": 7200,
        "options": {"queue": "maintenance", "expires": 7200},
    }
    assert "schedule-consolidation" not in beat_schedule(Settings(_env_file=None, LONG_TERM_MEMORY_ENABLED=False))


def seed_fan_out_users() -> None:
    """801 never consolidated; 802 consolidated after its last change; 803 changed since; 804 nothing;
    805 only a deleted memory changed since (deletions leave nothing to tidy)."""
    now = clock()
    seed(801, {"memory_key": "a", "content": "喜欢猫"})
    seed(802, {"memory_key": "a", "content": "喜欢狗", "updated_at": now - timedelta(days=2)})
    seed(803, {"memory_key": "a", "content": "喜欢鸟", "updated_at": now - timedelta(days=1)})
    seed(804)
    seed(805, {"memory_key": "a", "content": "喜欢鱼", "is_active": False, "updated_at": now - timedelta(hours=1)})
    with session_scope() as session:
        session.execute(
            update(User).where(User.id.in_([802, 805])).values(last_consolidated_at=now - timedelta(days=1))
        )
        session.execute(update(User).where(User.id == 803).values(last_consolidated_at=now - timedelta(days=2)))


def test_fan_out_enqueues_one_task_per_changed_user_only(db, monkeypatch) -> None:
    """R-BEAT-3, R-LIFE-2: one memory.consolidate_user per changed user, with expires, on the llm queue."""
    seed_fan_out_users()
    sent: list[tuple[list[int], dict]] = []
    from memory_tasks import app

    monkeypatch.setattr(
        app,
        "send_task",
        lambda name, args, **options: sent.append((args, options)) if name == "memory.consolidate_user" else None,
    )
    assert lifecycle_tasks.schedule_consolidation.run() == 2
    from config.settings import get_settings

    interval = get_settings().LONG_TERM_MEMORY_CONSOLIDATE_INTERVAL_SEC
    assert sent == [([801], {"expires": interval, "queue": "llm"}), ([803], {"expires": interval, "queue": "llm"})]


def test_overlapping_fan_outs_never_claim_the_same_user(db) -> None:
    """R-BEAT-4: a second fan-out while the first is still enqueuing skips the users it holds."""
    seed_fan_out_users()
    holding, release = threading.Event(), threading.Event()
    first: list[int] = []

    def slow_enqueue(user_id: int) -> None:
        first.append(user_id)
        holding.set()
        release.wait(10)

    thread = threading.Thread(target=consolidation.schedule_due_users, args=(10, slow_enqueue))
    thread.start()
    try:
        assert holding.wait(10)
        assert consolidation.schedule_due_users(10, lambda user_id: None) == []
    finally:
        release.set()
        thread.join(10)
    assert first == [801, 803]


# --- the Celery path ------------------------------------------------------------------------------


@pytest.mark.slow
def test_worker_consolidates_a_user_end_to_end(start_worker, db) -> None:
    """R-LIFE-2, R-PIPE-1: memory.consolidate_user by name on a real worker; a repeat finds nothing due."""
    from memory_tasks import app

    seed_messy(USER)
    start_worker()
    result = app.send_task("memory.consolidate_user", args=[USER]).get(timeout=180)
    assert (result["status"], result["engine"]) == ("applied", "rules")
    assert listed(USER) == EXPECTED
    again = app.send_task("memory.consolidate_user", args=[USER]).get(timeout=60)
    assert again["status"] == "not due"
