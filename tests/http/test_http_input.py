"""Hostile input: every bad request is a 4xx with a JSON {error, detail} body, and nothing is written."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from memory_tasks.db.models import Conversation, IdempotencyKey, LongTermMemory, MemoryHistory, Message, User
from memory_tasks.db.session import session_scope
from tests.http.conftest import ADMIN, CHAT

USER = 4301
JSON = {**CHAT, "Content-Type": "application/json"}


def _snapshot() -> tuple[int, ...]:
    with session_scope() as session:
        return tuple(
            session.scalar(select(func.count()).select_from(model))
            for model in (User, Conversation, Message, LongTermMemory, MemoryHistory, IdempotencyKey)
        )


@pytest.fixture
def empty(client: TestClient) -> tuple[int, ...]:
    return _snapshot()


def _assert_refused(response, empty: tuple[int, ...], status: int | None = None) -> None:
    assert 400 <= response.status_code < 500, response.text
    if status is not None:
        assert response.status_code == status, response.text
    body = response.json()
    assert set(body) >= {"error", "detail"}
    assert isinstance(body["error"], str) and isinstance(body["detail"], str)
    assert _snapshot() == empty


TURN = {"user_id": USER, "role": "user", "content": "我喜欢喝乌龙茶"}


@pytest.mark.parametrize(
    ("body", "status"),
    [
        (json.dumps({**TURN, "content": "喝\u0000茶"}).encode(), 422),  # NUL
        (b'{"user_id": 4301, "role": "user", "content": "\\ud800 tea"}', 422),  # a lone surrogate
        ('{"user_id": 4301, "role": "user", "content": "茶'.encode() + b'\xff\xfe"}', 400),  # invalid UTF-8
        (json.dumps({**TURN, "content": "x" * 70_000}).encode(), 413),  # over 64 KB
        (json.dumps({**TURN, "content": "x" * 32_001}).encode(), 422),  # over the message limit
        (json.dumps({**TURN, "content": "   \n\t"}).encode(), 422),  # blank
        (json.dumps({**TURN, "content": "\x1c\x1d"}).encode(), 422),  # what str.strip removes
        (json.dumps({**TURN, "user_id": "4301"}).encode(), 422),  # a string for an integer
        (json.dumps({**TURN, "user_id": True}).encode(), 422),
        (json.dumps({**TURN, "user_id": 4301.5}).encode(), 422),
        (json.dumps({**TURN, "user_id": None}).encode(), 422),
        (json.dumps({**TURN, "user_id": -1}).encode(), 422),
        (json.dumps({**TURN, "user_id": 0}).encode(), 422),
        (json.dumps({**TURN, "user_id": 2**31}).encode(), 422),
        (json.dumps({**TURN, "user_id": 10**30}).encode(), 422),
        (b'{"user_id": 1e400, "role": "user", "content": "x"}', 422),  # infinity
        (json.dumps({**TURN, "conversation_id": 2**40}).encode(), 422),
        (json.dumps({**TURN, "role": "admin"}).encode(), 422),
        (json.dumps({**TURN, "is_admin": True}).encode(), 422),  # unknown field
        (json.dumps({"user_id": USER, "role": "user"}).encode(), 422),  # missing content
        (json.dumps([TURN]).encode(), 422),
        (b"not json", 422),
        (b"", 422),
    ],
)
def test_a_bad_turn_is_refused_and_writes_nothing(client: TestClient, empty, body: bytes, status: int) -> None:
    response = client.post("/v1/turns", content=body, headers=JSON)

    _assert_refused(response, empty, status)


def test_a_body_over_64_kb_is_refused_while_it_streams(client: TestClient, empty) -> None:
    def chunks():
        yield b'{"user_id": 4301, "role": "user", "content": "'
        for _ in range(80):
            yield b"x" * 1024
        yield b'"}'

    response = client.post("/v1/turns", content=chunks(), headers=JSON)

    _assert_refused(response, empty, 413)
    assert response.json()["error"] == "payload_too_large"


def test_a_form_or_plain_text_body_is_refused(client: TestClient, empty) -> None:
    form = client.post("/v1/turns", data={"user_id": "4301", "role": "user", "content": "x"}, headers=CHAT)
    text = client.post("/v1/turns", content=json.dumps(TURN), headers={**CHAT, "Content-Type": "text/plain"})

    _assert_refused(form, empty, 422)
    _assert_refused(text, empty, 422)


@pytest.mark.parametrize(
    "query",
    [
        {"limit": -1},
        {"limit": 0},
        {"limit": 201},
        {"limit": 10**12},
        {"limit": "ten"},
        {"offset": -1},
        {"offset": 10**12},
        {"type": "profile"},
        {"active": "maybe"},
        {"text": "乌龙\x00茶"},
        {"text": "x" * 201},
        {"user": 4301},  # an unknown parameter is not silently ignored
        # Numbers only as the OpenAPI `integer` writes them; pydantic alone read these as 10, 5, 5, 5.
        {"limit": "1_0"},
        {"limit": "5.0"},
        {"limit": "+5"},
        {"offset": " 5"},
    ],
)
def test_bad_list_parameters_are_refused(client: TestClient, empty, query: dict[str, Any]) -> None:
    _assert_refused(client.get(f"/v1/users/{USER}/memories", params=query, headers=CHAT), empty, 422)


@pytest.mark.parametrize("path", ["/v1/messages/0", "/v1/messages/-5", "/v1/messages/99999999999", "/v1/messages/x"])
def test_bad_ids_are_refused(client: TestClient, empty, path: str) -> None:
    _assert_refused(client.get(path, params={"user_id": USER}, headers=CHAT), empty, 422)


@pytest.mark.parametrize("written", ["1\r", " 1", "1\n", "+1", "1.0", "1_0", "\uff11"])
def test_an_id_not_written_in_digits_is_refused_wherever_it_goes(client: TestClient, empty, written: str) -> None:
    """R-SAFE-4: a path or query integer is ASCII digits only, as the OpenAPI document's `integer` says; the
    fuzzer found `GET /v1/users/1%0D/memories` answered 200 for user 1 (pydantic strips and reads "1_0" as 10)."""
    escaped = quote(written, safe="")
    _assert_refused(client.get(f"/v1/users/{escaped}/memories", headers=CHAT), empty, 422)
    _assert_refused(client.get(f"/v1/messages/{escaped}", params={"user_id": USER}, headers=CHAT), empty, 422)
    _assert_refused(client.get("/v1/messages/1", params={"user_id": written}, headers=CHAT), empty, 422)
    _assert_refused(client.get("/v1/status", params={"errors": written}, headers=ADMIN), empty, 422)


def test_a_per_id_request_must_name_its_user(client: TestClient, empty) -> None:
    _assert_refused(client.get("/v1/messages/1", headers=CHAT), empty, 422)
    _assert_refused(client.delete("/v1/memories/1", headers=ADMIN), empty, 422)


@pytest.mark.parametrize(
    "body",
    [
        {"user_id": USER, "query": "茶", "limit": -1},
        {"user_id": USER, "query": "茶", "limit": 10**9},
        {"user_id": USER, "query": "茶", "mode": "psychic"},
        {"user_id": USER, "query": "茶\x00"},
        {"user_id": USER, "query": "x" * 10_001},
        {"user_id": USER, "query": 42},
        {"user_id": USER},
    ],
)
def test_bad_retrieval_requests_are_refused(client: TestClient, empty, body: dict[str, Any]) -> None:
    _assert_refused(client.post("/v1/retrieve", json=body, headers=CHAT), empty, 422)


@pytest.mark.parametrize(
    "patch",
    [
        {},
        {"content": None},
        {"content": "   "},
        {"content": "住在\x00上海"},
        {"content": "x" * 1001},
        {"importance": 6},
        {"importance": 0},
        {"importance": "5"},
        {"ttl_days": 0},
        {"ttl_days": 10**6},
        {"memory_key": "other"},
    ],
)
def test_bad_edits_are_refused_and_change_nothing(client: TestClient, patch: dict[str, Any]) -> None:
    arguments = {"key": "home-city", "content": "用户住在杭州", "memory_type": "fact"}
    client.post("/v1/tools/memory_save", json={"user_id": USER, "arguments": arguments}, headers=CHAT)
    before = _snapshot()
    with session_scope() as session:
        memory_id = session.scalar(select(LongTermMemory.id))

    response = client.patch(f"/v1/memories/{memory_id}", params={"user_id": USER}, json=patch, headers=ADMIN)

    _assert_refused(response, before, 422)
    with session_scope() as session:
        assert session.get(LongTermMemory, memory_id).revision == 1


def test_a_summary_that_cannot_be_stored_is_refused(client: TestClient) -> None:
    client.post("/v1/turns", json={**TURN, "conversation_id": 5}, headers=CHAT)
    before = _snapshot()

    for summary in ("a\x00b", "x" * 20_001):
        response = client.put(
            "/v1/conversations/5/summary", params={"user_id": USER}, json={"summary": summary}, headers=CHAT
        )
        _assert_refused(response, before, 422)


def test_an_unknown_path_and_a_wrong_method_answer_json(client: TestClient, empty) -> None:
    missing = client.get("/v1/nothing-here", headers=CHAT)
    wrong = client.put("/v1/memories/1", params={"user_id": USER}, headers=ADMIN)

    _assert_refused(missing, empty, 404)
    _assert_refused(wrong, empty, 405)
    # It should name every method of the resource, not only the first route's.
    assert set(wrong.headers["Allow"].split(", ")) >= {"GET", "PATCH", "DELETE"}


def test_hostile_idempotency_keys_are_refused(client: TestClient, empty) -> None:
    for key in (b"", b"x" * 201, b"has space", "naïve".encode("latin-1")):
        response = client.post("/v1/turns", json=TURN, headers={**CHAT, "Idempotency-Key": key})
        _assert_refused(response, empty, 422)
