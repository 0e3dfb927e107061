"""What became of each statement of a turn, over HTTP and on the inspector's message page (issue 17 item 2)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from memory_tasks.db.models import Message
from memory_tasks.db.session import session_scope
from memory_tasks.extraction.outcomes import Outcome
from memory_tasks.tools import execute
from tests.http.conftest import ADMIN_TOKEN, CHAT

USER = 4701
HOSTILE = "<img src=x onerror=alert(1)>"

pytestmark = pytest.mark.usefixtures("milvus_server")


def _processed_turn(client: TestClient, outcomes: list[Outcome]) -> int:
    """A user turn recorded over HTTP, then marked PROCESSED with `outcomes` as the pipeline stores them."""
    turn = client.post("/v1/turns", json={"user_id": USER, "role": "user", "content": "我喜欢喝乌龙茶"}, headers=CHAT)
    message_id = turn.json()["message_id"]
    with session_scope() as session:
        message = session.get(Message, message_id)
        message.memory_status = "PROCESSED"
        message.memory_outcomes = [o.to_json() for o in outcomes]
    return message_id


def test_get_message_returns_its_outcomes_and_the_active_and_deactivated_memories(client: TestClient) -> None:
    """Issue 17 item 2: GET /v1/messages/{id} lists each statement's outcome; memory_ids are active ones."""
    memory_id = execute(
        USER, "memory_save", {"key": "drink-tea", "content": "喜欢喝乌龙茶", "memory_type": "preference"}
    )["memory"]["id"]
    outcomes = [
        Outcome(
            status="stored", stage="upsert", key="drink-tea", text="喜欢喝乌龙茶", op="confirm", memory_id=memory_id
        ),
        Outcome(status="dropped", stage="extract", text="今天开会", reason="short-term window: 今天"),
    ]
    message_id = _processed_turn(client, outcomes)

    body = client.get(f"/v1/messages/{message_id}", params={"user_id": USER}, headers=CHAT).json()

    assert body["status"] == "PROCESSED"
    assert body["outcomes"] == [o.to_json() for o in outcomes]
    assert body["memory_ids"] == [] and body["deactivated_ids"] == []  # the tool wrote it, not this message


def test_the_message_page_shows_the_outcomes_as_text(client: TestClient) -> None:
    """Issue 17 item 2: the inspector's message page lists the outcomes; their text is escaped."""
    outcomes = [Outcome(status="dropped", stage="extract", text=HOSTILE, reason="profile field")]
    message_id = _processed_turn(client, outcomes)
    client.post("/inspector/login", data={"token": ADMIN_TOKEN, "next": "/inspector"}, follow_redirects=False)

    page = client.get(f"/inspector/users/{USER}/messages/{message_id}").text

    assert "What became of each statement" in page
    assert re.search(r"dropped.*&lt;img src=x onerror=alert\(1\)&gt;.*profile field", page, flags=re.DOTALL)
    assert "<img src=x" not in page


def test_an_error_stored_with_a_secret_is_shown_masked(client: TestClient) -> None:
    """Issue 15 (secrets never shown): an error stored before redaction existed, holding a database
    password and an API key, is masked by GET /v1/messages/{id} and by the user and message pages."""
    message_id = _processed_turn(client, [])
    with session_scope() as session:
        message = session.get(Message, message_id)
        message.memory_status = "FAILED"
        message.memory_error = (
            "OperationalError: postgresql://memory:hunter2secret@db/app; key sk-proj-AbCdEf0123456789"
        )
    client.post("/inspector/login", data={"token": ADMIN_TOKEN, "next": "/inspector"}, follow_redirects=False)

    shown = [
        client.get(f"/v1/messages/{message_id}", params={"user_id": USER}, headers=CHAT).json()["error"],
        client.get(f"/inspector/users/{USER}/messages/{message_id}").text,
        client.get(f"/inspector/users/{USER}").text,
    ]

    for text in shown:
        assert "OperationalError" in text
        assert "hunter2secret" not in text and "sk-proj-AbCdEf0123456789" not in text
