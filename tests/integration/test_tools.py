"""The agent's memory tools against real PostgreSQL (and a real worker + Milvus for index sync).

R-WRITE-1 (tools write PostgreSQL directly, DIRTY, index sync enqueued at once),
R-DATA-6 (history rows with source = tool), R-SAFE-3 (two users), R-SAFE-4 (hostile arguments).
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from sqlalchemy import func, select

from memory_tasks.db.models import LongTermMemory, MemoryHistory, User
from memory_tasks.db.session import session_scope
from memory_tasks.tools import execute

ALICE, BOB = 801, 802


def _save(user_id: int, key: str, content: str, memory_type: str = "preference", **extra: Any) -> dict[str, Any]:
    return execute(user_id, "memory_save", {"key": key, "content": content, "memory_type": memory_type, **extra})


def _rows(user_id: int) -> list[tuple]:
    with session_scope() as session:
        return [
            tuple(r)
            for r in session.execute(
                select(
                    LongTermMemory.memory_key,
                    LongTermMemory.memory_type,
                    LongTermMemory.content,
                    LongTermMemory.is_active,
                    LongTermMemory.importance,
                    LongTermMemory.source,
                )
                .where(LongTermMemory.user_id == user_id)
                .order_by(LongTermMemory.memory_key)
            )
        ]


def _history(user_id: int) -> list[tuple[str, str, str | None]]:
    with session_scope() as session:
        return [
            tuple(r)
            for r in session.execute(
                select(MemoryHistory.op, MemoryHistory.source, MemoryHistory.memory_key)
                .where(MemoryHistory.user_id == user_id)
                .order_by(MemoryHistory.id)
            )
        ]


def _snapshot() -> tuple:
    """Every row the tools could change, for "nothing changed" checks."""
    with session_scope() as session:
        memories = session.execute(
            select(
                LongTermMemory.id,
                LongTermMemory.user_id,
                LongTermMemory.memory_key,
                LongTermMemory.content,
                LongTermMemory.is_active,
                LongTermMemory.revision,
                LongTermMemory.expires_at,
            ).order_by(LongTermMemory.id)
        ).all()
        return (
            [tuple(m) for m in memories],
            session.scalar(select(func.count()).select_from(MemoryHistory)),
            session.scalar(select(func.count()).select_from(User)),
        )


@pytest.fixture
def no_broker(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """Record the index syncs the tools enqueue instead of sending them (no worker here)."""
    enqueued: list[list[int]] = []

    class Chain:
        def __init__(self, ids: list[int]) -> None:
            self.ids = ids

        def apply_async(self, **_: Any) -> None:
            enqueued.append(list(self.ids))

    from memory_tasks import dispatch

    monkeypatch.setattr(dispatch, "index_chain", Chain)
    return enqueued


def test_save_writes_postgres_directly_dirty_with_tool_history(db, no_broker) -> None:
    """R-WRITE-1, R-DATA-6: a save is a DIRTY row at once, a history row of source tool, an index sync enqueued."""
    result = _save(ALICE, "drink-preference", "喜欢喝乌龙茶，不加糖", importance=4)
    assert result["ok"] and result["op"] == "create"
    memory = result["memory"]
    assert memory["memory_key"] == "drink-preference" and memory["content"] == "喜欢喝乌龙茶，不加糖"
    assert memory["vector_status"] == "DIRTY" and memory["source"] == "tool" and memory["importance"] == 4
    assert result["index"] == "queued" and no_broker == [[memory["id"]]]
    assert _history(ALICE) == [("create", "tool", "drink-preference")]
    # It should be JSON for the tool message as it is.
    json.dumps(result, ensure_ascii=False)


def test_save_overwrites_the_same_key_and_english_works_too(db, no_broker) -> None:
    """R-WRITE-1, R-PIPE-5: saving a key again overwrites it (one row, two history rows)."""
    first = _save(ALICE, "home-city", "Lives in Berlin", "fact")
    second = execute(
        ALICE,
        "memory_save",
        json.dumps({"key": "Home City", "content": "Lives in Shanghai since 2024", "memory_type": "fact"}),
    )
    assert second["op"] == "upsert"
    assert second["memory"]["id"] == first["memory"]["id"]
    assert second["memory"]["memory_key"] == "home-city"  # normalised as the pipeline does
    assert _rows(ALICE) == [("home-city", "fact", "Lives in Shanghai since 2024", True, 3, "tool")]
    assert [op for op, _, _ in _history(ALICE)] == ["create", "upsert"]


def test_saving_the_same_memory_twice_changes_nothing(db, no_broker) -> None:
    """R-PIPE-6: a repeated call (the model retrying) adds no history and enqueues nothing."""
    _save(ALICE, "reply-style", "回复尽量简洁，用中文", "constraint")
    again = _save(ALICE, "reply-style", "回复尽量简洁，用中文", "constraint")
    assert again["op"] == "unchanged" and again["index"] == "not needed"
    assert len(_history(ALICE)) == 1 and len(no_broker) == 1


def test_append_adds_to_a_memory_and_keeps_its_type_and_importance(db, no_broker) -> None:
    """R-WRITE-1: memory_append extends the memory without resetting what it had."""
    _save(ALICE, "food-dislikes", "不吃香菜", "preference", importance=5, ttl_days=3000)
    result = execute(ALICE, "memory_append", {"key": "food-dislikes", "content": "也不吃芹菜", "memory_type": "goal"})
    assert result["op"] == "append"
    assert result["memory"]["content"] == "不吃香菜；也不吃芹菜"
    assert result["memory"]["memory_type"] == "preference" and result["memory"]["importance"] == 5
    with session_scope() as session:
        expires_at = session.scalar(select(LongTermMemory.expires_at).where(LongTermMemory.user_id == ALICE))
        days_left = (expires_at - session.scalar(select(func.now()))).days
    assert days_left > 2900  # not cut back to the default TTL
    # Appending the same sentence again adds nothing.
    assert execute(ALICE, "memory_append", {"key": "food-dislikes", "content": "也不吃芹菜"})["op"] == "unchanged"
    assert [op for op, _, _ in _history(ALICE)] == ["create", "append"]


def test_append_to_a_missing_key_creates_the_memory(db, no_broker) -> None:
    """R-WRITE-1 (documented choice): appending to a new key creates it, as a fact unless a type is given."""
    plain = execute(BOB, "memory_append", {"key": "side-project", "content": "Building a Rust compiler"})
    typed = execute(
        BOB,
        "memory_append",
        {"key": "marathon-goal", "content": "Finish a marathon under 4 hours", "memory_type": "goal"},
    )
    assert plain["op"] == typed["op"] == "create"
    assert plain["memory"]["memory_type"] == "fact" and typed["memory"]["memory_type"] == "goal"


def test_delete_deactivates_and_list_no_longer_shows_it(db, no_broker) -> None:
    """R-WRITE-1, R-DATA-6: memory_delete deactivates (history kept); deleting again is an error."""
    saved = _save(ALICE, "milk-tea", "每周喝三次奶茶")
    result = execute(ALICE, "memory_delete", '{"key": "milk-tea"}')
    assert result["op"] == "delete" and result["memory"]["is_active"] is False
    assert no_broker[-1] == [saved["memory"]["id"]]  # the vector is removed by the index sync
    assert execute(ALICE, "memory_list", {})["memories"] == []
    assert _history(ALICE)[-1] == ("delete", "tool", "milk-tea")
    assert "no memory" in execute(ALICE, "memory_delete", {"key": "milk-tea"})["error"]


def test_list_filters_by_type_limits_and_hides_noise(db, no_broker) -> None:
    """R-WRITE-1, R-TYPE-4: memory_list shows valid memories only, filtered and limited."""
    # Three types: same-type memories may be deduplicated by similarity, which is not under test here.
    _save(ALICE, "food-preference", "喜欢川菜", importance=5)
    _save(ALICE, "learning-goal", "Learn Japanese to N2 level", "goal")
    _save(ALICE, "pet", "Has a cat named Miso", "fact", importance=2)
    with session_scope() as session:  # an old dirty row from before the noise filter
        session.add(
            LongTermMemory(user_id=ALICE, memory_key="tool-list", memory_type="fact", content="当前可用工具：搜索")
        )
    everything = execute(ALICE, "memory_list", "")
    assert everything["total"] == 3 and {m["memory_key"] for m in everything["memories"]} == {
        "food-preference",
        "learning-goal",
        "pet",
    }
    assert [m["memory_key"] for m in execute(ALICE, "memory_list", {"memory_type": "goal"})["memories"]] == [
        "learning-goal"
    ]
    limited = execute(ALICE, "memory_list", {"limit": 1})
    assert limited["count"] == 1 and limited["total"] == 3
    assert limited["memories"][0]["memory_key"] == "food-preference"  # most important first


def test_two_users_never_see_or_change_each_others_memories(db, no_broker) -> None:
    """R-SAFE-3: the user is execute's argument; the same key is two memories; arguments can't name a user."""
    _save(ALICE, "home-city", "住在北京", "fact")
    _save(BOB, "home-city", "Lives in Lisbon", "fact")
    assert [m["content"] for m in execute(BOB, "memory_list", {})["memories"]] == ["Lives in Lisbon"]
    execute(BOB, "memory_delete", {"key": "home-city"})
    assert _rows(ALICE) == [("home-city", "fact", "住在北京", True, 3, "tool")]
    assert "error" in execute(
        BOB, "memory_save", {"key": "home-city", "content": "住在上海", "memory_type": "fact", "user_id": ALICE}
    )
    assert "error" in execute(BOB, "memory_delete", {"key": "home-city"})
    assert _rows(ALICE) == [("home-city", "fact", "住在北京", True, 3, "tool")]
    assert execute(ALICE, "memory_list", {})["memories"][0]["user_id"] == ALICE


HOSTILE: list[tuple[str, Any]] = [
    ("memory_save", {"key": "tool-search", "content": "可以调用搜索工具", "memory_type": "fact"}),
    ("memory_save", {"key": "system-status", "content": "System prompt uses markdown", "memory_type": "fact"}),
    ("memory_save", {"key": "weather-date_0601", "content": "明天阵雨，最高温28℃", "memory_type": "fact"}),
    ("memory_save", {"key": "reminder-last_call", "content": "提醒打电话", "memory_type": "goal"}),
    ("memory_save", {"key": "finance-monthly_spend", "content": "本月花了3000元", "memory_type": "fact"}),
    ("memory_save", {"key": "stream-output", "content": "默认不启用流式输出", "memory_type": "preference"}),
    ("memory_save", {"key": "evening-call", "content": "今晚提醒我给妈妈打电话", "memory_type": "goal"}),
    ("memory_save", {"key": "nickname", "content": "叫我小王", "memory_type": "fact"}),
    ("memory_save", {"key": "home-city", "content": "12345", "memory_type": "fact"}),
    ("memory_save", {"key": "food-preference", "content": "喜欢川菜", "memory_type": "profile"}),
    ("memory_save", {"key": "food-preference", "content": "喜欢川菜", "memory_type": "preference", "confidence": 0.2}),
    ("memory_save", {"key": "饮食偏好", "content": "喜欢川菜", "memory_type": "preference"}),
    ("memory_save", {"key": "f" * 161, "content": "喜欢川菜", "memory_type": "preference"}),
    ("memory_save", {"key": "food-preference", "content": "辣" * 1001, "memory_type": "preference"}),
    ("memory_save", "{'key': 'food-preference'}"),
    ("memory_save", {"key": "food-preference", "content": "喜欢川菜", "memory_type": "preference", "user_id": BOB}),
    ("memory_append", {"key": "tool-list", "content": "web_search, memory_save"}),
    ("memory_append", {"key": "food-preference"}),
    ("memory_delete", {"key": "x' OR '1'='1"}),
    ("memory_delete", {"key": "never-saved"}),
    ("memory_list", {"memory_type": "profile"}),
    ("memory_drop_all", {}),
]


@pytest.mark.parametrize(("name", "arguments"), HOSTILE)
def test_hostile_and_noise_calls_are_errors_and_change_nothing(db, no_broker, name: str, arguments: Any) -> None:
    """R-SAFE-4, R-TYPE-3/4: noise keys, short-term content, profile, bad slots, bad keys: error, nothing written."""
    _save(ALICE, "food-preference", "喜欢川菜")
    before = _snapshot()
    enqueued = len(no_broker)
    result = execute(ALICE, name, arguments)
    assert set(result) == {"error"}, result
    assert _snapshot() == before
    assert len(no_broker) == enqueued


def test_a_new_user_is_created_by_their_first_save_and_nothing_by_a_refused_one(db, no_broker) -> None:
    """R-SAFE-4: a refused call leaves not even the users row behind."""
    assert "error" in execute(990, "memory_save", {"key": "tool-x", "content": "x", "memory_type": "fact"})
    assert _snapshot()[2] == 0
    assert _save(991, "pet", "Has a cat named Miso", "fact")["ok"]
    assert _snapshot()[2] == 1


def test_a_broker_outage_does_not_fail_the_tool_call(db, monkeypatch: pytest.MonkeyPatch) -> None:
    """R-WRITE-1, R-SAFE-2: the memory is saved and stays DIRTY for the beat sweep."""
    from kombu.exceptions import OperationalError

    from memory_tasks import dispatch

    class DownChain:
        def __init__(self, ids: list[int]) -> None:
            pass

        def apply_async(self, **_: Any) -> None:
            raise OperationalError("Error 111 connecting to redis:6379. Connection refused.")

    monkeypatch.setattr(dispatch, "index_chain", DownChain)
    result = _save(ALICE, "tea-preference", "喜欢绿茶")
    assert result["ok"] and result["index"] == "deferred"
    assert _rows(ALICE)[0][2] == "喜欢绿茶"


def test_a_restatement_under_another_key_lands_on_the_existing_memory(db, no_broker) -> None:
    """R-PIPE-4: the tools share the pipeline's semantic dedup; the model is told where it landed."""
    _save(ALICE, "drink-preference", "喜欢喝乌龙茶")
    result = _save(ALICE, "favorite-drink", "喜欢喝乌龙茶")
    assert result["memory"]["memory_key"] == "drink-preference"
    assert "drink-preference" in result["note"]
    assert [key for key, *_ in _rows(ALICE)] == ["drink-preference"]


# --- index sync on a real worker ------------------------------------------------------------


def _wait_for_status(memory_id: int, status: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with session_scope() as session:
            if session.get(LongTermMemory, memory_id).vector_status == status:
                return
        time.sleep(0.2)
    raise AssertionError(f"memory {memory_id} not {status} after {timeout}s")


def _dense_hits(user_id: int, question: str) -> list[int]:
    from memory_tasks.vectors.embedders import get_embedder
    from memory_tasks.vectors.milvus_store import get_store

    vector = get_embedder().embed_query(question).tolist()
    return [hit.memory_id for hit in get_store().search(user_id, vector, limit=5, strong=True)]


@pytest.mark.slow
def test_a_saved_memory_is_synced_and_found_by_dense_search_within_seconds(db, milvus_env, start_worker) -> None:
    """R-WRITE-1, R-VEC-1/3, R-SAFE-3: DIRTY -> SYNCED via the enqueued index chain, not the sweep; per user."""
    # The sweep is off, so only the index chain the tool enqueued can sync the rows.
    start_worker({**milvus_env, "MEMORY_INDEX_WORKER_ENABLED": "false"})
    started = time.monotonic()
    alice = _save(ALICE, "morning-drink", "每天早上喝一杯美式咖啡")
    bob = _save(BOB, "morning-routine", "Runs 5 km every morning before work", "fact")
    assert alice["memory"]["vector_status"] == "DIRTY" and alice["index"] == "queued"
    _wait_for_status(alice["memory"]["id"], "SYNCED")
    _wait_for_status(bob["memory"]["id"], "SYNCED")
    assert time.monotonic() - started < 30

    assert _dense_hits(ALICE, "早上一般喝什么？")[0] == alice["memory"]["id"]
    assert alice["memory"]["id"] not in _dense_hits(BOB, "早上一般喝什么？")
    # First, not only: the session's Milvus keeps vectors of user 802 from earlier tests (the db
    # fixture empties PostgreSQL only), synced by whichever worker finished their index chains.
    assert _dense_hits(BOB, "What does he do in the morning?")[0] == bob["memory"]["id"]

    execute(ALICE, "memory_delete", {"key": "morning-drink"})
    _wait_for_status(alice["memory"]["id"], "SYNCED")
    # The sync deletes the vector and checks with a strong read that it is gone. (Milvus 2.3.5
    # was seen to keep returning a deleted vector from *search* in a long-lived collection
    # while a query by id no longer finds it; retrieval is safe either way because PostgreSQL,
    # the truth, drops inactive rows.)
    from memory_tasks.retrieval import retrieve
    from memory_tasks.vectors.milvus_store import get_store

    assert alice["memory"]["id"] not in get_store().stored([alice["memory"]["id"]])
    assert alice["memory"]["id"] not in [hit.id for hit in retrieve(ALICE, "早上一般喝什么？", mode="dense")]
