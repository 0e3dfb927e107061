"""A whole turn over HTTP with a real worker and Milvus: the chat server's view from POST to forget."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.http.conftest import ADMIN, CHAT

USER = 4601

pytestmark = pytest.mark.slow


def _poll(client: TestClient, url: str, done, timeout: float = 120, **params: Any) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        body = client.get(url, params=params, headers=CHAT).json()
        if done(body) or time.monotonic() > deadline:
            return body
        time.sleep(0.3)


def test_a_turn_goes_from_post_to_retrievable_memory_to_forgotten(client: TestClient, worker) -> None:
    # before the reply: nothing known yet
    empty = client.post("/v1/retrieve", json={"user_id": USER, "query": "我喜欢喝什么"}, headers=CHAT).json()
    assert empty["hits"] == [] and empty["block"] == ""

    # after the reply: both turns, the user's one with an idempotency key, sent twice
    turn = {"user_id": USER, "role": "user", "content": "我喜欢喝乌龙茶", "conversation_id": 9001}
    first = client.post("/v1/turns", json=turn, headers={**CHAT, "Idempotency-Key": "turn-9001-1"}).json()
    retry = client.post("/v1/turns", json=turn, headers={**CHAT, "Idempotency-Key": "turn-9001-1"}).json()
    client.post(
        "/v1/turns",
        json={"user_id": USER, "role": "assistant", "content": "好的，乌龙茶。", "conversation_id": 9001},
        headers=CHAT,
    )
    assert retry["message_id"] == first["message_id"] and retry["replayed"]
    summary = client.put(
        "/v1/conversations/9001/summary", params={"user_id": USER}, json={"summary": "聊饮品"}, headers=CHAT
    )
    assert summary.status_code == 200

    state = _poll(
        client,
        f"/v1/messages/{first['message_id']}",
        lambda s: s["status"] in ("PROCESSED", "FAILED", "SKIPPED"),
        user_id=USER,
    )
    assert state["status"] == "PROCESSED", state
    assert state["memory_ids"], state
    memory_id = state["memory_ids"][0]
    # Issue 17 item 2: the turn says what became of its statement.
    assert [(o["status"], o["op"], o["memory_id"]) for o in state["outcomes"]] == [("stored", "create", memory_id)]

    detail = client.get(f"/v1/memories/{memory_id}", params={"user_id": USER}, headers=CHAT).json()
    assert "乌龙茶" in detail["memory"]["content"]
    assert detail["history"][0]["source"] == "extraction"
    assert detail["history"][0]["source_message_id"] == first["message_id"]

    # the index sync lands the vector; dense retrieval finds it before the next reply
    synced = _poll(
        client, f"/v1/memories/{memory_id}", lambda d: d["memory"]["vector_status"] == "SYNCED", user_id=USER
    )
    assert synced["memory"]["vector_status"] == "SYNCED"
    hits = client.post(
        "/v1/retrieve", json={"user_id": USER, "query": "推荐一款茶", "mode": "dense"}, headers=CHAT
    ).json()
    assert hits["hits"][0]["id"] == memory_id
    assert "similarity" in hits["hits"][0]["why"]
    assert "乌龙茶" in hits["block"]

    # the operator corrects it; the index follows
    edited = client.patch(
        f"/v1/memories/{memory_id}", params={"user_id": USER}, json={"content": "用户喜欢喝茉莉花茶"}, headers=ADMIN
    ).json()
    assert edited["changed"] and edited["index"] == "queued"
    resynced = _poll(
        client, f"/v1/memories/{memory_id}", lambda d: d["memory"]["vector_status"] == "SYNCED", user_id=USER
    )
    assert resynced["history"][-1]["source"] == "api"

    # the user asks to be forgotten
    forgotten = client.delete(f"/v1/users/{USER}", headers=ADMIN).json()
    assert forgotten["memories"] >= 1 and forgotten["messages"] == 2 and forgotten["milvus"] == "deleted"
    assert client.get(f"/v1/users/{USER}/memories", headers=CHAT).json()["count"] == 0
    assert client.post("/v1/retrieve", json={"user_id": USER, "query": "茶"}, headers=CHAT).json()["hits"] == []
