"""Small helpers shared by the integration tests."""

from __future__ import annotations

import socket
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime

from sqlalchemy import event
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import Engine

from config.settings import get_settings
from memory_tasks.api import enqueue_turn, record_turn, wait_for_message
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import HistorySource, User
from memory_tasks.db.session import session_scope
from memory_tasks.extraction.candidates import Candidate
from memory_tasks.memories.store import WriteContext, apply_candidate, lock_user
from memory_tasks.vectors.index import sync_vectors
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


def write_indexed(user_id: int, candidates: Iterable[Candidate | tuple[Candidate, datetime]]) -> list[int]:
    """Write `candidates` for `user_id` through the write model as a tool would, each stated now or at the
    time paired with it, then embed and index them in Milvus; returns the memory ids in order."""
    ids = []
    with session_scope() as session:
        session.execute(pg_insert(User).values(id=user_id).on_conflict_do_nothing())
        lock_user(session, user_id)
        ctx = WriteContext(
            user_id, HistorySource.TOOL, db_now(session), get_settings().LONG_TERM_MEMORY_DEFAULT_TTL_DAYS
        )
        for item in candidates:
            candidate, said = item if isinstance(item, tuple) else (item, None)
            ids.append(apply_candidate(session, replace(ctx, stated_at=said), candidate).memory_id)
    sync_vectors(ids)
    return ids


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
