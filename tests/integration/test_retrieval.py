"""Retrieval against real PostgreSQL, a real Milvus server and a real worker (SPEC §8, R-SAFE-3).

Memories are written through the write model (`apply_candidate` under `lock_user`) and
indexed through `sync_vectors`, as the pipeline and the tools do.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert

from config.settings import get_settings
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import HistorySource, LongTermMemory, User
from memory_tasks.db.session import session_scope
from memory_tasks.extraction.candidates import Candidate
from memory_tasks.memories.store import WriteContext, apply_candidate, lock_user
from memory_tasks.retrieval import access, search
from memory_tasks.retrieval.outage import Outage
from memory_tasks.retrieval.search import find_memories, retrieve
from memory_tasks.vectors.index import embed_memories, sync_vectors
from memory_tasks.vectors.milvus_store import get_store

ALICE, BOB = 901, 902

ALICE_MEMORIES = [
    ("fact", "home-city", "用户住在杭州西湖区", 4),
    ("preference", "food-preference", "用户喜欢吃四川火锅，不吃香菜", 3),
    ("preference", "programming-language", "Prefers Python for data analysis and Rust for systems work", 3),
    ("project", "side-project", "Building a hiking trail app called TrailMate with a friend", 3),
    ("goal", "marathon-goal", "Wants to run a full marathon under four hours next year", 4),
    ("constraint", "allergy", "对花生过敏，推荐食物时要避开花生", 5),
    ("fact", "pet", "Has a ginger cat named Mochi", 2),
    ("preference", "music", "喜欢听爵士乐，尤其是比尔·埃文斯", 2),
]

QUERIES = [
    ("我住在哪个城市？", "home-city"),
    ("晚饭吃火锅怎么样？", "food-preference"),
    ("Which language should I use for my data analysis script?", "programming-language"),
    ("How is my app for hikers going?", "side-project"),
    ("我对什么东西过敏？", "allergy"),
    ("What's my cat called?", "pet"),
    ("推荐点音乐给我听", "music"),
    ("How should I train for my race?", "marathon-goal"),
]


def remember(
    user_id: int, key: str, content: str, memory_type: str = "fact", importance: int = 3, op: str = "upsert"
) -> int:
    """Write one memory through the write model, as the pipeline and the tools do; returns its id."""
    with session_scope() as session:
        session.execute(pg_insert(User).values(id=user_id).on_conflict_do_nothing())
        lock_user(session, user_id)
        ttl_days = get_settings().LONG_TERM_MEMORY_DEFAULT_TTL_DAYS
        ctx = WriteContext(user_id, HistorySource.TOOL, db_now(session), ttl_days)
        candidate = Candidate(
            op=op, memory_type=memory_type, key=key, content=content, importance=importance, confidence=0.9
        )
        change = apply_candidate(session, ctx, candidate)
    assert change is not None
    return change.memory_id


def remember_all(user_id: int, memories: list[tuple[str, str, str, int]]) -> dict[str, int]:
    """Write and index the memories; returns {key: memory id}."""
    ids = {key: remember(user_id, key, content, kind, importance) for kind, key, content, importance in memories}
    sync_vectors(list(ids.values()))
    return ids


def use_settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    get_store.cache_clear()


@pytest.fixture(autouse=True)
def fresh_state(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test starts with healthy dependencies and this process' settings as conftest set them."""
    monkeypatch.setattr(search, "_vector_path", Outage("vector retrieval (embedder or Milvus)", search.logger))
    monkeypatch.setattr(search, "_retrieval", Outage("memory retrieval (database)", search.logger))
    monkeypatch.setattr(access, "_broker", Outage("access-stats broker", access.logger))
    yield
    monkeypatch.undo()
    get_settings.cache_clear()
    get_store.cache_clear()


@pytest.fixture
def no_touch(monkeypatch: pytest.MonkeyPatch) -> list[tuple]:
    """Record touch publications instead of sending them (no worker in most tests)."""
    from memory_tasks.celery_app import app

    sent: list[tuple] = []
    monkeypatch.setattr(app, "send_task", lambda name, args, **_: sent.append((name, args)))
    return sent


def ids_of(hits) -> list[int]:
    return [hit.id for hit in hits]


@pytest.mark.slow
def test_dense_puts_the_right_memory_first_in_chinese_and_english(db, milvus_env, no_touch) -> None:
    remember_all(ALICE, ALICE_MEMORIES)
    for query, expected_key in QUERIES:
        hits = find_memories(ALICE, query, mode="dense")
        # It should rank the memory the question is about first, with the vector signal in its score.
        assert hits[0].memory_key == expected_key, (query, [h.memory_key for h in hits])
        assert "similarity" in hits[0].why
    assert len(find_memories(ALICE, "我住在哪个城市？", mode="dense", limit=3)) == 3


@pytest.mark.slow
def test_summary_is_searched_with_the_question(db, milvus_env, no_touch) -> None:
    remember_all(ALICE, ALICE_MEMORIES)
    hits = find_memories(ALICE, "那个呢？", summary="We were talking about the user's cat and its name", mode="dense")
    assert hits[0].memory_key == "pet"


@pytest.mark.slow
def test_two_users_with_similar_memories_never_see_each_others(db, milvus_env, no_touch, monkeypatch) -> None:
    """R-SAFE-3: the same words for two users; every mode returns only the asking user's rows."""
    alice = remember_all(ALICE, [("fact", "home-city", "用户住在杭州", 3), ("preference", "tea", "喜欢喝龙井茶", 3)])
    bob = remember_all(
        BOB, [("fact", "home-city", "用户住在苏州", 3), ("preference", "tea", "喜欢喝龙井茶和碧螺春", 3)]
    )
    for mode in ("dense", "full_inject"):
        for user, own in ((ALICE, alice), (BOB, bob)):
            hits = find_memories(user, "我住在哪里，喜欢喝什么茶？", mode=mode, limit=50)
            assert set(ids_of(hits)) == set(own.values()), (mode, user)
    # And the lexical fallback, with the vector path off.
    use_settings(monkeypatch, MEMORY_MILVUS_ENABLED="false")
    hits = find_memories(ALICE, "我住在哪里，喜欢喝什么茶？", mode="dense", limit=50)
    assert set(ids_of(hits)) == set(alice.values())


@pytest.mark.slow
def test_expired_inactive_and_noise_memories_are_never_returned(db, milvus_env, no_touch, monkeypatch) -> None:
    ids = remember_all(
        ALICE,
        [
            ("fact", "home-city", "用户住在杭州", 3),
            ("fact", "old-city", "用户以前住在杭州附近的小城", 3),
            ("fact", "work-city", "用户在杭州上班", 3),
            ("preference", "tool-list", "用户住在杭州，常用工具有计算器、天气查询", 3),
        ],
    )
    # given: one memory expired, one deleted by the user (its stale vector is still in Milvus)
    with session_scope() as session:
        session.execute(
            update(LongTermMemory)
            .where(LongTermMemory.id == ids["old-city"])
            .values(expires_at=db_now(session).replace(year=2000))
        )
    remember(ALICE, "work-city", "", op="delete")
    expected = {ids["home-city"]}
    for mode in ("dense", "full_inject"):
        assert set(ids_of(find_memories(ALICE, "我住在杭州吗？", mode=mode))) == expected, mode
    use_settings(monkeypatch, MEMORY_MILVUS_ENABLED="false")
    assert set(ids_of(find_memories(ALICE, "我住在杭州吗？", mode="dense"))) == expected


@pytest.mark.slow
def test_a_memory_is_found_before_its_vector_reaches_milvus(db, milvus_env, no_touch) -> None:
    """Rows not yet SYNCED are candidates too, scored by their cached vector."""
    remember_all(ALICE, ALICE_MEMORIES)
    new_id = remember(ALICE, "favourite-season", "最喜欢秋天，觉得秋天的杭州最美")
    embed_memories([new_id])  # the embed stage ran, upsert_vectors has not yet
    hits = find_memories(ALICE, "我最喜欢哪个季节？", mode="dense")
    assert hits[0].id == new_id and "similarity" in hits[0].why


def test_an_unreachable_milvus_falls_back_to_lexical_and_logs_once(db, no_touch, monkeypatch, caplog) -> None:
    """R-READ-3: Milvus on a closed port; retrieval still answers (Chinese without spaces), warns once."""
    for memory_type, key, content, importance in ALICE_MEMORIES:
        remember(ALICE, key, content, memory_type, importance)
    use_settings(monkeypatch, MEMORY_MILVUS_URI="http://127.0.0.1:9", LONG_TERM_MEMORY_VECTOR_RETRY_SEC="0")
    with caplog.at_level(logging.INFO, logger="memory_tasks.retrieval"):
        for _ in range(3):
            hits = retrieve(ALICE, "晚饭吃火锅怎么样？", mode="dense")
            assert hits[0].memory_key == "food-preference"
            assert "similarity" not in hits[0].why and "lexical" in hits[0].why
    warnings = [r for r in caplog.records if r.name == search.logger.name and r.levelno == logging.WARNING]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]


@pytest.mark.slow
def test_a_stopped_milvus_falls_back_and_recovers(db, no_touch, monkeypatch, tmp_path: Path, caplog) -> None:
    """R-SAFE-2: the server dies after retrieval has used it; answers continue, then vectors return."""
    from memory_tasks.stack import MILVUS_PORT_SPAN, start_milvus
    from tests.conftest import MILVUS_PROXY_PORT, _free_milvus_base

    port = _free_milvus_base(MILVUS_PROXY_PORT + MILVUS_PORT_SPAN)  # a server of its own, to stop
    server = start_milvus(tmp_path / "milvus", port, tmp_path / "milvus.log")
    try:
        use_settings(monkeypatch, MEMORY_MILVUS_URI=server.uri, LONG_TERM_MEMORY_VECTOR_RETRY_SEC="0")
        remember_all(ALICE, ALICE_MEMORIES)
        assert "similarity" in retrieve(ALICE, "What's my cat called?", mode="dense")[0].why
        server.stop(timeout=0)  # dies: killed, no graceful stop
        with caplog.at_level(logging.INFO, logger="memory_tasks.retrieval"):
            for _ in range(2):
                started = time.perf_counter()
                hits = retrieve(ALICE, "What's my cat called?", mode="dense")
                assert time.perf_counter() - started < 5
                assert hits[0].memory_key == "pet" and "similarity" not in hits[0].why
        warnings = [r for r in caplog.records if r.name == search.logger.name and r.levelno == logging.WARNING]
        assert len(warnings) == 1
    finally:
        server.stop(timeout=0)


@pytest.mark.slow
def test_the_read_never_writes_and_a_worker_records_the_access_later(db, start_worker) -> None:
    """R-READ-5: retrieval enqueues memory.touch_memories; the row changes only when a worker runs it."""
    memory_id = remember(ALICE, "pet", "Has a ginger cat named Mochi")
    hits = find_memories(ALICE, "cat", mode="full_inject")
    assert ids_of(hits) == [memory_id]
    with session_scope() as session:
        row = session.get(LongTermMemory, memory_id)
        assert (row.access_count, row.last_accessed_at) == (0, None)
    start_worker()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with session_scope() as session:
            row = session.get(LongTermMemory, memory_id)
            if row.access_count:
                break
        time.sleep(0.2)
    assert row.access_count == 1 and row.last_accessed_at is not None


def test_record_access_ignores_other_users_ids(db) -> None:
    mine, theirs = remember(ALICE, "pet", "cat"), remember(BOB, "pet", "dog")
    with session_scope() as session:
        now = db_now(session)
    assert access.record_access(ALICE, [mine, theirs], now) == 1
    with session_scope() as session:
        counts = dict(session.execute(select(LongTermMemory.id, LongTermMemory.access_count)).all())
    assert counts == {mine: 1, theirs: 0}


def test_a_broker_outage_never_breaks_the_read(db, monkeypatch, caplog) -> None:
    from kombu.exceptions import OperationalError

    from memory_tasks.celery_app import app

    calls = 0

    def refuse(*args, **kwargs):
        nonlocal calls
        calls += 1
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    remember(ALICE, "pet", "Has a ginger cat named Mochi")
    monkeypatch.setattr(app, "send_task", refuse)
    with caplog.at_level(logging.WARNING, logger="memory_tasks.retrieval"):
        for _ in range(3):
            assert [h.memory_key for h in retrieve(ALICE, "cat", mode="full_inject")] == ["pet"]
    assert len([r for r in caplog.records if "broker" in r.getMessage()]) == 1
    assert calls == 1  # then reads skip publishing for TOUCH_RETRY_SEC


def test_a_database_failure_returns_nothing_and_logs_once(db, no_touch, monkeypatch, caplog) -> None:
    from sqlalchemy.exc import OperationalError

    def broken():
        raise OperationalError("SELECT 1", {}, Exception("server closed the connection unexpectedly"))

    use_settings(monkeypatch, MEMORY_MILVUS_ENABLED="false")
    monkeypatch.setattr(search, "session_scope", broken)
    with caplog.at_level(logging.WARNING, logger="memory_tasks.retrieval"):
        assert retrieve(ALICE, "cat") == [] and retrieve(ALICE, "cat", mode="dense") == []
    assert [r.getMessage().split(":")[0] for r in caplog.records if r.levelno == logging.WARNING] == [
        "memory retrieval (database) unavailable"
    ]


def test_bad_arguments_return_nothing_from_retrieve_and_raise_from_find(db, no_touch) -> None:
    for kwargs in ({"mode": "sparse"}, {"limit": 0}):
        assert retrieve(ALICE, "cat", **kwargs) == []
        with pytest.raises(ValueError):
            find_memories(ALICE, "cat", **kwargs)
    assert retrieve(-1, "cat") == []


def test_full_inject_orders_by_importance_then_recency_within_its_budget(db, no_touch, monkeypatch) -> None:
    first = remember(ALICE, "a-minor", "minor thing", importance=2)
    older = remember(ALICE, "b-older", "older important thing", importance=5)
    newer = remember(ALICE, "c-newer", "newer important thing", importance=5)
    with session_scope() as session:
        session.execute(
            update(LongTermMemory)
            .where(LongTermMemory.id == older)
            .values(updated_at=db_now(session).replace(year=2020))
        )
    assert ids_of(find_memories(ALICE, "", mode="full_inject")) == [newer, older, first]
    use_settings(monkeypatch, LONG_TERM_MEMORY_FULL_INJECT_LIMIT="2")
    hits = find_memories(ALICE, "", mode="full_inject")
    assert ids_of(hits) == [newer, older]
    assert hits[0].score > hits[1].score


def test_the_cli_prints_hits_as_json_best_first(db, no_touch, capsys, monkeypatch) -> None:
    import json

    from memory_tasks.__main__ import main

    for memory_type, key, content, importance in ALICE_MEMORIES:
        remember(ALICE, key, content, memory_type, importance)
    use_settings(monkeypatch, MEMORY_MILVUS_ENABLED="false")
    assert main(["retrieve", "--user", str(ALICE), "--query", "晚饭吃火锅怎么样", "--mode", "dense", "--json"]) == 0
    hits = json.loads(capsys.readouterr().out)
    assert hits[0]["memory_key"] == "food-preference"
    assert {"id", "memory_key", "memory_type", "content", "importance", "confidence", "score", "why"} <= set(hits[0])
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)


@pytest.mark.parametrize(
    "argv",
    [
        ["retrieve", "--user", "0", "--query", "x"],
        ["retrieve", "--user", "abc", "--query", "x"],
        ["retrieve", "--user", "1", "--query", "x", "--mode", "sparse"],
        ["retrieve", "--user", "1", "--query", "x", "--limit", "-3"],
        ["retrieve", "--user", "1", "--query", "bad \udcff"],
        ["retrieve", "--user", "1"],
    ],
)
def test_the_cli_rejects_bad_input(argv, capsys) -> None:
    from memory_tasks.__main__ import main

    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert "error" in capsys.readouterr().err


def test_the_cli_rejects_an_empty_query(db, capsys) -> None:
    from memory_tasks.__main__ import main

    assert main(["retrieve", "--user", "1", "--query", "  ", "--mode", "dense"]) == 2
    assert "--query" in capsys.readouterr().err


@pytest.mark.slow
def test_reindex_builds_a_new_collection_and_catches_up_with_changes(db, milvus_env, no_touch, monkeypatch) -> None:
    """R-VEC-4: rebuild from PostgreSQL into a new collection; the live one is left as it was."""
    from memory_tasks.__main__ import main
    from memory_tasks.vectors.milvus_store import MilvusStore
    from memory_tasks.vectors.reindex import plan_reindex, reindex

    ids = remember_all(ALICE, ALICE_MEMORIES)
    live_store = get_store()
    live_before = live_store.stored(list(ids.values()))
    plan = plan_reindex()
    assert plan.target != plan.live and plan.memories == len(ALICE_MEMORIES) and not plan.target_exists

    def change_during_build(done: int, total: int) -> None:
        # a user edits one memory and deletes another while the rebuild runs
        remember(ALICE, "pet", "Has two cats, Mochi and Tofu")
        remember(ALICE, "music", "", op="delete")

    result = reindex(plan, progress=change_during_build)
    target = MilvusStore(get_settings().MEMORY_MILVUS_URI, plan.target)
    try:
        assert result.written == len(ALICE_MEMORIES)
        assert (result.reconciled.written, result.reconciled.removed) == (1, 1)
        stored = target.stored(list(ids.values()))
        assert set(stored) == set(ids.values()) - {ids["music"]}
        assert live_store.stored(list(ids.values())) == live_before  # the live collection was not touched
        # after the switch, dense retrieval reads the new collection
        use_settings(monkeypatch, MEMORY_MILVUS_COLLECTION=plan.target)
        hits = find_memories(ALICE, "What are my cats called?", mode="dense")
        assert hits[0].memory_key == "pet" and "Tofu" in hits[0].content and "similarity" in hits[0].why
        assert main(["reindex", "--reconcile"]) == 0
        assert main(["reindex", "--collection", plan.target, "--yes"]) == 2  # the live one now
    finally:
        target.drop()
