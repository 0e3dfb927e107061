"""The /v1 API against the real database: turns, messages, retrieval, tools, memories, summary, forget, service.

What each route does is the plain function's job (tested elsewhere); these tests check
what the HTTP layer adds: scoping by user, status codes, shapes, the write invariant of
edits, idempotency keys, and what a broker or database outage turns into.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient
from kombu.exceptions import OperationalError as BrokerError
from pymilvus import MilvusClient
from sqlalchemy import func, select
from sqlalchemy.exc import OperationalError

from config.settings import get_settings
from memory_tasks.db.models import Conversation, IdempotencyKey, LongTermMemory, MemoryHistory, Message
from memory_tasks.db.session import session_scope
from memory_tasks.vectors.milvus_store import get_store
from tests.http.conftest import ADMIN, CHAT, make_app

ALICE, BOB = 4101, 4102

pytestmark = pytest.mark.usefixtures("milvus_server")


def _turn(client: TestClient, user_id: int = ALICE, content: str = "我喜欢喝乌龙茶", **extra: Any):
    return client.post(
        "/v1/turns", json={"user_id": user_id, "role": "user", "content": content, **extra}, headers=CHAT
    )


def _save(client: TestClient, user_id: int, key: str, content: str, memory_type: str = "preference") -> dict:
    arguments = {"key": key, "content": content, "memory_type": memory_type}
    response = client.post("/v1/tools/memory_save", json={"user_id": user_id, "arguments": arguments}, headers=CHAT)
    assert response.status_code == 200, response.text
    assert response.json()["ok"], response.json()
    return response.json()["memory"]


def _count(model: type, *where: Any) -> int:
    with session_scope() as session:
        return session.scalar(select(func.count()).select_from(model).where(*where))


def _row(memory_id: int) -> LongTermMemory:
    with session_scope() as session:
        return session.get(LongTermMemory, memory_id)


# --- turns -------------------------------------------------------------------------------


def test_a_user_turn_is_recorded_and_its_chain_enqueued(client: TestClient) -> None:
    response = _turn(client)

    assert response.status_code == 202
    body = response.json()
    assert body == {"message_id": body["message_id"], "status": "PENDING", "enqueued": "queued", "replayed": False}
    with session_scope() as session:
        message = session.get(Message, body["message_id"])
        # It should be claimed by the chain it started, so the rescan leaves it alone.
        assert (message.user_id, message.role, message.content) == (ALICE, "user", "我喜欢喝乌龙茶")
        assert message.memory_claimed_at is not None


def test_an_assistant_turn_is_recorded_but_never_processed(client: TestClient) -> None:
    response = client.post(
        "/v1/turns", json={"user_id": ALICE, "role": "assistant", "content": "好的，记住了。"}, headers=CHAT
    )

    assert response.status_code == 202
    assert response.json()["status"] == "SKIPPED"
    assert response.json()["enqueued"] == "not needed"


def test_a_retry_with_the_same_idempotency_key_returns_the_first_turn(client: TestClient) -> None:
    key = {"Idempotency-Key": "turn-7f3c2a"}
    first = client.post(
        "/v1/turns", json={"user_id": ALICE, "role": "user", "content": "我住在杭州"}, headers={**CHAT, **key}
    )
    second = client.post(
        "/v1/turns", json={"user_id": ALICE, "role": "user", "content": "我住在杭州"}, headers={**CHAT, **key}
    )

    assert first.status_code == second.status_code == 202
    assert second.json()["message_id"] == first.json()["message_id"]
    assert second.json()["replayed"] is True
    assert second.headers["Idempotent-Replayed"] == "true"
    assert _count(Message, Message.user_id == ALICE) == 1


def test_an_idempotency_key_reused_for_another_turn_is_refused_and_writes_nothing(client: TestClient) -> None:
    key = {"Idempotency-Key": "turn-reused"}
    client.post("/v1/turns", json={"user_id": ALICE, "role": "user", "content": "我住在杭州"}, headers={**CHAT, **key})

    other = client.post(
        "/v1/turns", json={"user_id": ALICE, "role": "user", "content": "我住在上海"}, headers={**CHAT, **key}
    )

    assert other.status_code == 409
    assert other.json()["error"] == "idempotency_key_reused"
    assert _count(Message, Message.user_id == ALICE) == 1


def test_idempotency_keys_are_per_user(client: TestClient) -> None:
    key = {"Idempotency-Key": "same-key"}
    for user_id in (ALICE, BOB):
        response = client.post(
            "/v1/turns", json={"user_id": user_id, "role": "user", "content": "我住在杭州"}, headers={**CHAT, **key}
        )
        assert response.json()["replayed"] is False

    assert _count(Message) == 2


def test_concurrent_retries_with_one_key_record_one_turn(app, client: TestClient) -> None:
    results: list[int] = []

    def post() -> None:
        with TestClient(app, base_url="http://127.0.0.1") as own:
            response = own.post(
                "/v1/turns",
                json={"user_id": ALICE, "role": "user", "content": "我养了一只猫"},
                headers={**CHAT, "Idempotency-Key": "raced"},
            )
            results.append(response.json()["message_id"])

    threads = [threading.Thread(target=post) for _ in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert len(results) == 5
    assert len(set(results)) == 1
    assert _count(Message) == 1
    assert _count(IdempotencyKey) == 1


def test_a_conversation_of_another_user_is_not_found(client: TestClient) -> None:
    conversation_id = client.post(
        "/v1/turns", json={"user_id": BOB, "role": "user", "content": "你好", "conversation_id": 77}, headers=CHAT
    ).json()
    assert conversation_id["message_id"]

    response = _turn(client, ALICE, "我住在杭州", conversation_id=77)

    assert response.status_code == 404
    assert _count(Message, Message.user_id == ALICE) == 0


def test_a_broker_outage_leaves_the_turn_recorded_for_the_rescan(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreachable(message_id: int) -> str:
        raise BrokerError("connection refused")

    monkeypatch.setattr("memory_tasks.http.routes.turns.enqueue_turn", unreachable)

    response = _turn(client)

    assert response.status_code == 202
    assert response.json()["enqueued"] == "deferred"
    assert _count(Message, Message.memory_status == "PENDING") == 1


# --- messages ----------------------------------------------------------------------------


def test_a_message_shows_its_state_to_its_user_only(client: TestClient) -> None:
    message_id = _turn(client).json()["message_id"]

    mine = client.get(f"/v1/messages/{message_id}", params={"user_id": ALICE}, headers=CHAT)
    theirs = client.get(f"/v1/messages/{message_id}", params={"user_id": BOB}, headers=CHAT)
    unknown = client.get("/v1/messages/999999", params={"user_id": ALICE}, headers=CHAT)

    assert mine.status_code == 200
    assert mine.json() == {
        "message_id": message_id,
        "user_id": ALICE,
        "role": "user",
        "status": "PENDING",
        "attempts": 0,
        "error": None,
        "memory_ids": [],
        "deactivated_ids": [],
        "outcomes": [],
    }
    # It should answer another user's id exactly like an unknown one: no row, no hint.
    assert theirs.status_code == unknown.status_code == 404
    assert theirs.json()["error"] == unknown.json()["error"] == "not_found"
    assert "我喜欢" not in theirs.text


# --- retrieval and tools -----------------------------------------------------------------


def test_retrieve_ranks_the_users_memories_with_a_score_breakdown_and_the_prompt_block(client: TestClient) -> None:
    _save(client, ALICE, "drink-preference", "用户喜欢喝乌龙茶")
    _save(client, ALICE, "home-city", "用户住在杭州", "fact")
    _save(client, BOB, "drink-preference", "用户喜欢喝咖啡")

    response = client.post(
        "/v1/retrieve", json={"user_id": ALICE, "query": "乌龙茶", "mode": "dense", "limit": 2}, headers=CHAT
    )

    assert response.status_code == 200
    body = response.json()
    assert body["mode"] == "dense"
    assert body["hits"][0]["memory_key"] == "drink-preference"
    assert all(hit["user_id"] == ALICE for hit in body["hits"])
    top = body["hits"][0]
    assert top["score"] > 0
    assert "importance" in top["why"]
    assert "- [preference] 用户喜欢喝乌龙茶" in body["block"]
    assert "咖啡" not in body["block"]


def test_retrieve_answers_no_hits_when_memory_is_disabled(client: TestClient) -> None:
    _save(client, ALICE, "drink-preference", "用户喜欢喝乌龙茶")
    app = make_app(LONG_TERM_MEMORY_ENABLED=False)

    with TestClient(app, base_url="http://127.0.0.1") as disabled:
        response = disabled.post("/v1/retrieve", json={"user_id": ALICE, "query": "茶"}, headers=CHAT)

    assert response.json()["hits"] == []
    assert response.json()["block"] == ""


def test_tools_are_listed_as_openai_schemas_and_run_for_the_given_user(client: TestClient) -> None:
    tools = client.get("/v1/tools", headers=CHAT).json()["tools"]
    assert {tool["function"]["name"] for tool in tools} == {
        "memory_save",
        "memory_append",
        "memory_delete",
        "memory_list",
    }

    saved = _save(client, ALICE, "reply-style", "回答尽量简洁", "constraint")
    listed = client.post("/v1/tools/memory_list", json={"user_id": ALICE, "arguments": "{}"}, headers=CHAT).json()

    assert saved["user_id"] == ALICE
    assert [m["memory_key"] for m in listed["memories"]] == ["reply-style"]


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("memory_save", '{"key": "home-city"'),  # not JSON
        ("memory_save", {"key": "home-city"}),  # missing content
        ("memory_save", {"key": "x", "content": "y", "memory_type": "fact", "user_id": BOB}),  # no user override
        ("memory_fly", {}),
        ("memory_list", {"limit": "many"}),
    ],
)
def test_a_bad_tool_call_gets_the_tools_error_object_and_changes_nothing(
    client: TestClient, name: str, arguments: Any
) -> None:
    response = client.post(f"/v1/tools/{name}", json={"user_id": ALICE, "arguments": arguments}, headers=CHAT)

    assert response.status_code == 200
    assert set(response.json()) == {"error"}
    assert _count(LongTermMemory) == 0


# --- memories ----------------------------------------------------------------------------


def test_a_users_memories_are_listed_with_filters_and_pagination(client: TestClient) -> None:
    for index in range(5):
        _save(client, ALICE, f"project-{index}", f"在做第 {index} 个项目 100%", "project")
    tea = _save(client, ALICE, "drink-preference", "用户喜欢喝乌龙茶")
    _save(client, BOB, "drink-preference", "用户喜欢喝咖啡")
    client.delete(f"/v1/memories/{tea['id']}", params={"user_id": ALICE}, headers=ADMIN)

    every = client.get(f"/v1/users/{ALICE}/memories", headers=CHAT).json()
    projects = client.get(f"/v1/users/{ALICE}/memories", params={"type": "project", "limit": 2}, headers=CHAT).json()
    second_page = client.get(
        f"/v1/users/{ALICE}/memories", params={"type": "project", "limit": 2, "offset": 2}, headers=CHAT
    ).json()
    active = client.get(f"/v1/users/{ALICE}/memories", params={"active": "true"}, headers=CHAT).json()
    deleted = client.get(f"/v1/users/{ALICE}/memories", params={"active": "false"}, headers=CHAT).json()
    percent = client.get(f"/v1/users/{ALICE}/memories", params={"text": "0%"}, headers=CHAT).json()
    underscore = client.get(f"/v1/users/{ALICE}/memories", params={"text": "_"}, headers=CHAT).json()

    assert every["count"] == 6
    assert {m["user_id"] for m in every["data"]} == {ALICE}
    assert (projects["count"], len(projects["data"]), projects["limit"]) == (5, 2, 2)
    assert not {m["id"] for m in projects["data"]} & {m["id"] for m in second_page["data"]}
    assert active["count"] == 5
    assert [m["memory_key"] for m in deleted["data"]] == ["drink-preference"]
    # It should match the text literally: % and _ are no wildcards.
    assert percent["count"] == 5
    assert underscore["count"] == 0


def test_a_memory_shows_its_history_to_its_user_only(client: TestClient) -> None:
    memory = _save(client, ALICE, "home-city", "用户住在杭州", "fact")

    mine = client.get(f"/v1/memories/{memory['id']}", params={"user_id": ALICE}, headers=CHAT)
    theirs = client.get(f"/v1/memories/{memory['id']}", params={"user_id": BOB}, headers=CHAT)

    assert mine.status_code == 200
    assert mine.json()["memory"]["content"] == "用户住在杭州"
    assert [(h["op"], h["source"], h["new_content"]) for h in mine.json()["history"]] == [
        ("create", "tool", "用户住在杭州")
    ]
    assert theirs.status_code == 404
    assert "杭州" not in theirs.text


def test_an_edit_rewrites_the_memory_under_the_write_invariant_with_history_source_api(client: TestClient) -> None:
    memory = _save(client, ALICE, "home-city", "用户住在杭州", "fact")
    before = _row(memory["id"])

    response = client.patch(
        f"/v1/memories/{memory['id']}",
        params={"user_id": ALICE},
        json={"content": "用户住在上海", "importance": 5, "ttl_days": 30},
        headers=ADMIN,
    )

    assert response.status_code == 200
    assert response.json()["changed"] is True
    assert response.json()["index"] == "queued"
    after = _row(memory["id"])
    assert (after.content, after.importance, after.source) == ("用户住在上海", 5, "api")
    assert after.revision == before.revision + 1
    assert after.vector_status == "DIRTY"
    assert after.updated_at > before.updated_at
    assert after.expires_at < before.expires_at
    history = client.get(f"/v1/memories/{memory['id']}", params={"user_id": ALICE}, headers=CHAT).json()["history"]
    assert (history[-1]["op"], history[-1]["source"]) == ("edit", "api")
    assert (history[-1]["old_content"], history[-1]["new_content"]) == ("用户住在杭州", "用户住在上海")
    assert "importance 3 -> 5" in history[-1]["detail"]


def test_an_edit_that_changes_nothing_writes_nothing(client: TestClient) -> None:
    memory = _save(client, ALICE, "home-city", "用户住在杭州", "fact")

    response = client.patch(
        f"/v1/memories/{memory['id']}", params={"user_id": ALICE}, json={"content": "用户住在杭州"}, headers=ADMIN
    )

    assert response.json()["changed"] is False
    assert response.json()["index"] == "not needed"
    assert _row(memory["id"]).revision == 1
    assert _count(MemoryHistory) == 1


def test_a_deleted_memory_is_kept_inactive_and_cannot_be_edited(client: TestClient) -> None:
    memory = _save(client, ALICE, "home-city", "用户住在杭州", "fact")

    deleted = client.delete(f"/v1/memories/{memory['id']}", params={"user_id": ALICE}, headers=ADMIN)
    again = client.delete(f"/v1/memories/{memory['id']}", params={"user_id": ALICE}, headers=ADMIN)
    edit = client.patch(
        f"/v1/memories/{memory['id']}", params={"user_id": ALICE}, json={"importance": 4}, headers=ADMIN
    )

    assert deleted.status_code == 200
    assert deleted.json()["memory"]["is_active"] is False
    assert deleted.json()["changed"] is True
    assert again.json()["changed"] is False
    assert edit.status_code == 409
    row = _row(memory["id"])
    assert (row.is_active, row.revision, row.vector_status, row.importance) == (False, 2, "DIRTY", 3)
    assert _count(MemoryHistory, MemoryHistory.op == "delete", MemoryHistory.source == "api") == 1


@pytest.mark.parametrize("method", ["get", "patch", "delete"])
def test_another_users_memory_id_is_not_found_and_untouched(client: TestClient, method: str) -> None:
    memory = _save(client, BOB, "home-city", "用户住在北京", "fact")
    kwargs: dict[str, Any] = {"json": {"importance": 5}} if method == "patch" else {}

    response = getattr(client, method)(
        f"/v1/memories/{memory['id']}", params={"user_id": ALICE}, headers=ADMIN, **kwargs
    )

    assert response.status_code == 404
    assert response.json()["error"] == "not_found"
    assert "北京" not in response.text
    row = _row(memory["id"])
    assert (row.is_active, row.importance, row.revision) == (True, 3, 1)


# --- conversations, users ----------------------------------------------------------------


def test_the_summary_of_the_users_conversation_is_replaced(client: TestClient) -> None:
    _turn(client, ALICE, "我住在杭州", conversation_id=31)
    _turn(client, BOB, "我住在北京", conversation_id=32)

    mine = client.put(
        "/v1/conversations/31/summary", params={"user_id": ALICE}, json={"summary": "聊了住处"}, headers=CHAT
    )
    theirs = client.put("/v1/conversations/32/summary", params={"user_id": ALICE}, json={"summary": "x"}, headers=CHAT)
    unknown = client.put("/v1/conversations/99/summary", params={"user_id": ALICE}, json={"summary": "x"}, headers=CHAT)

    assert mine.status_code == 200
    assert mine.json()["summary"] == "聊了住处"
    assert theirs.status_code == unknown.status_code == 404
    with session_scope() as session:
        assert session.get(Conversation, 31).summary == "聊了住处"
        assert session.get(Conversation, 32).summary == ""


def test_forgetting_a_user_removes_everything_and_says_what(client: TestClient) -> None:
    client.post(
        "/v1/turns",
        json={"user_id": ALICE, "role": "user", "content": "我住在杭州"},
        headers={**CHAT, "Idempotency-Key": "k1"},
    )
    _save(client, ALICE, "home-city", "用户住在杭州", "fact")
    _save(client, BOB, "home-city", "用户住在北京", "fact")

    response = client.delete(f"/v1/users/{ALICE}", headers=ADMIN)
    again = client.delete(f"/v1/users/{ALICE}", headers=ADMIN)

    assert response.status_code == 200
    body = response.json()
    assert (body["user_id"], body["memories"], body["messages"], body["users"], body["milvus"]) == (
        ALICE,
        1,
        1,
        1,
        "deleted",
    )
    assert again.json()["memories"] == again.json()["users"] == 0
    assert client.get(f"/v1/users/{ALICE}/memories", headers=CHAT).json()["count"] == 0
    assert _count(IdempotencyKey) == 0
    assert _count(LongTermMemory, LongTermMemory.user_id == BOB) == 1


# --- the service -------------------------------------------------------------------------


def test_status_is_what_the_cli_shows(client: TestClient) -> None:
    _turn(client)

    body = client.get("/v1/status", headers=ADMIN).json()

    assert body["messages"]["PENDING"] == 1
    assert set(body) == {"messages", "vectors", "active_memories", "recent_failures", "vector_audit"}
    assert body["vector_audit"] == {"unchecked": 0, "oldest_check_at": None}  # no memory synced yet


def test_health_and_readiness(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz")

    assert ready.status_code == 200
    checks = ready.json()["checks"]
    assert set(checks) == {"postgres", "redis", "milvus"}
    assert all(check["ok"] and check["latency_ms"] >= 0 for check in checks.values())


def test_readiness_fails_while_the_milvus_collection_is_not_loaded(client: TestClient) -> None:
    """R-OPS (issue 11 note): a reachable Milvus whose collection is released cannot search, so /readyz is 503."""
    settings = get_settings()
    get_store().ensure_collection(384)
    milvus = MilvusClient(uri=settings.MEMORY_MILVUS_URI)
    try:
        milvus.release_collection(settings.MEMORY_MILVUS_COLLECTION)
        released = client.get("/readyz")
    finally:
        milvus.load_collection(settings.MEMORY_MILVUS_COLLECTION)
        milvus.close()

    assert released.status_code == 503
    assert released.json()["checks"]["milvus"]["ok"] is False
    assert released.json()["checks"]["milvus"]["error"] == "CollectionNotLoaded"
    assert client.get("/readyz").status_code == 200


def test_readiness_fails_naming_the_unreachable_service_without_its_address(db: str) -> None:
    app = make_app(CELERY_BROKER_URL="redis://:secret-password@127.0.0.1:1/0", MEMORY_MILVUS_ENABLED=False)

    with TestClient(app, base_url="http://127.0.0.1") as client:
        response = client.get("/readyz")

    assert response.status_code == 503
    body = response.json()
    assert body["ready"] is False
    assert body["checks"]["redis"]["ok"] is False
    assert body["checks"]["postgres"]["ok"] is True
    assert body["checks"]["milvus"] == {"ok": True, "latency_ms": None, "error": None, "enabled": False}
    assert "secret-password" not in response.text
    assert "127.0.0.1" not in response.text


def test_a_database_outage_is_a_503_without_details(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def down(message_id: int) -> None:
        raise OperationalError("SELECT secret FROM messages", {}, ConnectionError("db.internal:5432 refused"))

    monkeypatch.setattr("memory_tasks.http.routes.messages.message_state", down)

    response = client.get("/v1/messages/1", params={"user_id": ALICE}, headers=CHAT)

    assert response.status_code == 503
    assert response.json()["error"] == "unavailable"
    assert "secret" not in response.text
    assert "db.internal" not in response.text
