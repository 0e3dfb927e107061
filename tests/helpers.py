"""Small helpers shared by the integration tests."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import event
from sqlalchemy.engine import Engine

from memory_tasks.api import enqueue_turn, record_turn, wait_for_message
from tests.fake_openai import FakeOpenAI, as_json

OOLONG_CANDIDATES = {
    "candidates": [
        {
            "op": "upsert",
            "memory_type": "preference",
            "key": "drink-preference",
            "content": "喜欢喝乌龙茶",
            "importance": 3,
            "confidence": 0.9,
        }
    ]
}


@contextmanager
def statements_sent() -> Iterator[list[tuple[str, object]]]:
    """Every statement (with its parameters) this process sends to PostgreSQL inside the block."""
    sent: list[tuple[str, object]] = []

    def grab(conn, cursor, statement, parameters, context, executemany) -> None:
        sent.append((statement, parameters))

    event.listen(Engine, "before_cursor_execute", grab)
    try:
        yield sent
    finally:
        event.remove(Engine, "before_cursor_execute", grab)


def free_port() -> int:
    """A 127.0.0.1 port nobody listened on a moment ago, for a server a test starts itself (the kernel
    picks it, so two test processes never pick the same one at once)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def ingest(user_id: int, text: str, role: str = "user", timeout: float = 60) -> dict:
    """Record a turn, enqueue it like a chat server does, and wait for its final state."""
    message_id = record_turn(user_id, text, role=role)
    if role == "user":
        enqueue_turn(message_id, countdown=0)
    return wait_for_message(message_id, timeout)


def hang_then_answer(fake_openai: FakeOpenAI, candidates: dict, hang_sec: float) -> None:
    """The model's first answer takes `hang_sec` (long enough for the test to kill its worker);
    every later extract call gets `candidates` at once and every refine call keeps them."""
    fake_openai.script(as_json(candidates, delay=hang_sec))
    fake_openai.default = lambda body: (
        as_json({"decisions": [{"index": 0, "action": "keep"}]})
        if "decisions" in body["messages"][0]["content"]
        else as_json(candidates)
    )
