"""Secrets are never printed or stored (issue 15 item 6).

Each test forces one error path with a known secret and looks for it everywhere that path
writes: stderr/stdout of the CLI, the worker's log, database columns, HTTP answers, the
service log. `memory_tasks/redaction.py` is the one helper they all go through.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, text

from memory_tasks.api import enqueue_turn, record_turn, wait_for_message
from memory_tasks.db.models import ForgottenUser, LongTermMemory, Message
from memory_tasks.db.session import session_scope
from memory_tasks.tools import execute
from tests.conftest import PROJECT_ROOT, TEST_ENV
from tests.fake_openai import as_json
from tests.fake_openai import error as error_reply
from tests.fake_openai import text as reply_text

pytestmark = [pytest.mark.slow]

DB_PASSWORD = "s3cr3t-XYZ"
# Not shaped like an sk- key: only knowing the configured value can mask it.
API_KEY = "plain-s3cr3t-XYZ-key-4711"
CANDIDATES = {
    "candidates": [
        {
            "op": "upsert",
            "memory_type": "preference",
            "key": "drink-preference",
            "content": "likes oolong tea",
            "importance": 3,
            "confidence": 0.9,
        }
    ]
}


def _cli(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memory_tasks", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT), **env},
        timeout=120,
    )


def _database_text() -> str:
    """Every error column the pipeline writes, as one text."""
    with session_scope() as session:
        rows = [
            *session.scalars(select(Message.memory_error)),
            *session.scalars(select(LongTermMemory.vector_error)),
            *session.scalars(select(ForgottenUser.purge_error)),
        ]
    return "\n".join(row or "" for row in rows)


class _EchoingEmbeddingServer:
    """An OpenAI-compatible /v1/embeddings that refuses every call with 401, echoing the caller's
    Authorization header in its error body (as some servers do)."""

    def __init__(self) -> None:
        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                message = f"Incorrect API key provided: {self.headers.get('Authorization')}"
                body = json.dumps({"error": {"message": message, "type": "invalid_request_error"}}).encode()
                self.send_response(401)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"


@pytest.fixture
def echoing_embedder() -> Iterator[_EchoingEmbeddingServer]:
    server = _EchoingEmbeddingServer()
    yield server
    server.server.shutdown()


def test_configuration_errors_never_print_the_database_password(database) -> None:
    """Issue 15 item 6: a bad DATABASE_URL is named, its password is not (stderr and stdout)."""
    result = _cli("status", DATABASE_URL=f"mysql://app:{DB_PASSWORD}@db.example/app")

    assert result.returncode != 0
    assert "DATABASE_URL" in result.stderr
    assert DB_PASSWORD not in result.stderr + result.stdout


def test_an_unreachable_database_never_prints_its_password(database, refused_port: int) -> None:
    """Issue 15 item 6: the connection error of `status` leaves the URL's password out."""
    url = f"postgresql+psycopg2://app:{DB_PASSWORD}@127.0.0.1:{refused_port}/app"
    result = _cli("status", DATABASE_URL=url)

    assert result.returncode != 0
    assert DB_PASSWORD not in result.stderr + result.stdout


def test_llm_and_embedding_errors_echoing_the_key_are_stored_and_logged_without_it(
    start_worker, db, fake_openai, echoing_embedder
) -> None:
    """Issue 15 item 6: an unusable LLM answer, an LLM 401 and an embedding 401, each echoing the
    API key, end in memory_error / vector_error, the worker log and `status` with the key masked."""
    fake_openai.script(
        reply_text(f"I cannot answer in JSON; my key is {API_KEY}"),  # stored as the failure's raw output
        error_reply(401, f"Incorrect API key provided: {API_KEY}", code="invalid_api_key"),
    )
    fake_openai.default = lambda body: (
        as_json({"decisions": [{"index": 0, "action": "keep"}]})
        if "decisions" in body["messages"][0]["content"]
        else as_json(CANDIDATES)
    )
    database_url = TEST_ENV["DATABASE_URL"].replace("postgres@", f"postgres:{DB_PASSWORD}@")
    worker = start_worker(
        {
            "OPENAI_BASE_URL": fake_openai.base_url,
            "OPENAI_API_KEY": API_KEY,
            "MEMORY_EMBEDDING_PROVIDER": "openai",
            "MEMORY_EMBEDDING_BASE_URL": echoing_embedder.base_url,
            "MEMORY_EMBEDDING_DIM": "8",
            # The machine's PostgreSQL trusts local connections: the password is only carried.
            "DATABASE_URL": database_url,
        },
        concurrency=1,
    )
    for user_id in (700, 701):  # the unusable answer, then the 401
        refused = record_turn(user_id, "I like oolong tea")
        enqueue_turn(refused, countdown=0)
        assert wait_for_message(refused, 60)["status"] in ("FAILED", "DEAD")
    # The write path embeds what it compares, so with the worker's embedder refusing every call the
    # memory is saved here (this process embeds locally); the worker's index sync then meets the 401.
    saved = execute(
        702, "memory_save", {"key": "drink-oolong", "content": "Likes oolong tea", "memory_type": "preference"}
    )
    assert saved.get("ok"), saved
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not _vector_errors():
        time.sleep(0.5)

    stored = _database_text()
    assert "401" in stored and "raw output" in stored and _vector_errors(), stored  # every path was taken
    assert API_KEY not in stored
    logged = worker.log_path.read_text(errors="replace").splitlines()
    assert [line for line in logged if API_KEY in line or DB_PASSWORD in line] == []
    shown = _cli("status").stdout + _cli("status", "--json").stdout
    assert "401" in shown and API_KEY not in shown


def _vector_errors() -> list[str]:
    with session_scope() as session:
        return [e for e in session.scalars(select(LongTermMemory.vector_error)) if e]


def test_a_milvus_password_in_a_failed_purge_is_neither_stored_nor_shown(
    db, monkeypatch: pytest.MonkeyPatch, refused_port: int
) -> None:
    """Issue 15 item 6: forgetting a user while Milvus (its URI holding a password) is down
    records the failure without the password, and `status` shows it without it too."""
    from config.settings import get_settings
    from memory_tasks.forget import forget_user
    from memory_tasks.vectors.milvus_store import get_store

    record_turn(703, "I like oolong tea")
    monkeypatch.setenv("MEMORY_MILVUS_URI", f"http://root:{DB_PASSWORD}@127.0.0.1:{refused_port}")
    # The process keeps one store: one made by an earlier test would still reach the real Milvus.
    get_settings.cache_clear()
    get_store.cache_clear()
    try:
        assert forget_user(703)["milvus"] == "pending"
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()
        get_store.cache_clear()

    stored = _database_text()
    assert "Milvus" in stored and DB_PASSWORD not in stored
    legacy = f"an error stored before redaction: postgresql://app:{DB_PASSWORD}@db/app"
    with session_scope() as session:
        session.execute(text("UPDATE forgotten_users SET purge_error = :e"), {"e": legacy})
    shown = _cli("status").stdout + _cli("status", "--json").stdout
    assert "redaction" in shown and DB_PASSWORD not in shown


def test_http_errors_and_the_service_log_never_carry_a_secret(db, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 15 item 6: an error answer whose detail holds a secret, and an unexpected exception
    whose text holds one, answer and log with the secret masked."""
    from memory_tasks.http.errors import ApiError
    from memory_tasks.logs import configure_logging
    from tests.http.conftest import make_app

    app = make_app()

    @app.get("/boom/api")
    def _api() -> None:
        raise ApiError(503, "unavailable", f"cannot reach postgresql://app:{DB_PASSWORD}@db/app")

    @app.get("/boom/unexpected")
    def _unexpected() -> None:
        raise RuntimeError(f"upstream said api_key={API_KEY} is wrong; Bearer {API_KEY}")

    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    configure_logging()
    try:
        with TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False) as client:
            answers = [client.get("/boom/api"), client.get("/boom/unexpected")]
    finally:
        root.handlers[:], root.level = handlers, level

    assert [answer.status_code for answer in answers] == [503, 500]
    bodies = "".join(answer.text for answer in answers)
    logged = capsys.readouterr().err
    assert "cannot reach postgresql://app:***@db/app" in bodies
    assert "RuntimeError" in logged  # the exception was logged, masked
    assert DB_PASSWORD not in bodies + logged
    assert API_KEY not in bodies + logged
