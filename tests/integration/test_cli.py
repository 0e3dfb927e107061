"""The operator CLI as an operator runs it: a subprocess against the test database (R-OPS-3, R-SAFE-4)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select

from memory_tasks.db.admin import execute_autocommit
from memory_tasks.db.models import Message, User
from memory_tasks.db.session import CONNECT_TIMEOUT_SEC, session_scope
from tests.conftest import ADMIN_URL, PROJECT_ROOT, TEST_DB


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "memory_tasks", *args], capture_output=True, text=True, env=env, timeout=timeout
    )


def _counts() -> tuple[int, int]:
    with session_scope() as session:
        return session.scalar(select(func.count()).select_from(Message)), session.scalar(
            select(func.count()).select_from(User)
        )


@pytest.mark.parametrize(
    "args",
    [
        ["ingest", "--user", "abc", "--text", "我喜欢喝乌龙茶"],
        ["ingest", "--user", "0", "--text", "hi there friend"],
        ["ingest", "--user", "42", "--text", "   "],
        ["ingest", "--user", "42", "--role", "robot", "--text", "hello"],
        ["ingest", "--user", "42", "--text", "x" * 40_000],
        ["list"],
        ["list", "--user", "-5"],
        ["enqueue", "--message", "999999999"],
        ["no-such-command"],
    ],
)
def test_bad_input_is_refused_with_a_message_and_nothing_written(db, args: list[str]) -> None:
    """R-SAFE-4: a clear error, a non-zero exit, and no row written."""
    before = _counts()
    result = cli(*args)
    assert result.returncode != 0
    assert "error" in result.stderr, "an error message is printed"
    assert "Traceback" not in result.stderr
    assert _counts() == before


def test_invalid_utf8_text_is_refused(db) -> None:
    """R-SAFE-4: undecodable bytes in --text are refused, not stored."""
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    result = subprocess.run(
        [sys.executable.encode(), b"-m", b"memory_tasks", b"ingest", b"--user", b"42", b"--text", b"bad \xff\xfe text"],
        capture_output=True,
        env=env,
        timeout=60,
    )
    assert result.returncode != 0
    assert b"UTF-8" in result.stderr
    assert _counts() == (0, 0)


def test_bad_configuration_stops_the_cli_naming_the_variable(db) -> None:
    """R-CONF: a bad value stops start-up with the variable's name."""
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "LONG_TERM_MEMORY_RETRIEVE_MODE": "nonsense"}
    result = subprocess.run([sys.executable, "-m", "memory_tasks", "status"], capture_output=True, text=True, env=env)
    assert result.returncode != 0
    assert "LONG_TERM_MEMORY_RETRIEVE_MODE" in result.stderr


@pytest.mark.slow
def test_ingest_wait_then_list_json(worker, db) -> None:
    """R-OPS-3: ingest --wait prints the outcome; list --json shows the SYNCED memory."""
    result = cli("ingest", "--user", "42", "--text", "我喜欢喝乌龙茶", "--wait", "--json")
    assert result.returncode == 0, result.stderr
    outcome = json.loads(result.stdout)
    assert outcome["status"] == "PROCESSED" and outcome["memory_ids"]
    listed = json.loads(cli("list", "--user", "42", "--json").stdout)
    assert any("乌龙茶" in m["content"] and m["vector_status"] == "SYNCED" for m in listed)
    for field in (
        "id",
        "memory_key",
        "memory_type",
        "content",
        "importance",
        "confidence",
        "expires_at",
        "vector_status",
    ):
        assert field in listed[0]
    status = json.loads(cli("status", "--json").stdout)
    assert status["messages"]["PROCESSED"] >= 1


def test_tool_command_runs_the_dispatcher(db) -> None:
    """R-WRITE-1: the CLI runs a tool call like the chat server's dispatcher, errors included."""
    saved = cli(
        "tool",
        "--user",
        "43",
        "--name",
        "memory_save",
        "--arguments",
        '{"key": "drink-oolong-tea", "content": "喜欢喝乌龙茶", "memory_type": "preference"}',
    )
    assert saved.returncode == 0, saved.stdout + saved.stderr
    assert json.loads(saved.stdout)["memory"]["content"] == "喜欢喝乌龙茶"
    hostile = cli(
        "tool",
        "--user",
        "43",
        "--name",
        "memory_save",
        "--arguments",
        '{"key": "tool-list", "content": "当前可用工具: search", "memory_type": "fact"}',
    )
    assert hostile.returncode != 0 and "error" in json.loads(hostile.stdout)
    listed = json.loads(cli("tool", "--user", "43", "--name", "memory_list").stdout)
    assert [m["memory_key"] for m in listed["memories"]] == ["drink-oolong-tea"]


# --- issue 17: what a newcomer runs into -----------------------------------------------------

# The variables that name the services; a subprocess without them reads them from a .env.
SERVICE_VARS = (
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "CELERY_RESULT_BACKEND",
    "MEMORY_MILVUS_ENABLED",
    "MEMORY_MILVUS_URI",
)
PASSWORD = "s3cret-pw"


def cli_in(folder: Path, *args: str, env: dict[str, str] | None = None, stdin: str | None = None):
    """The CLI run from `folder`, the service settings coming from a .env there or above (or `env`)."""
    base = {k: v for k, v in os.environ.items() if k not in SERVICE_VARS}
    return subprocess.run(
        [sys.executable, "-m", "memory_tasks", *args],
        capture_output=True,
        text=True,
        cwd=folder,
        env={**base, "PYTHONPATH": str(PROJECT_ROOT), **(env or {})},
        input=stdin,
        timeout=120,
    )


def _checkout(root: Path, settings: dict[str, str]) -> Path:
    """A folder that looks like a checkout (it holds .git) with a .env of `settings`; returns a subfolder."""
    (root / ".git").mkdir(parents=True)
    (root / ".env").write_text("".join(f"{k}={v}\n" for k, v in settings.items()))
    inner = root / "docs" / "deeper"
    inner.mkdir(parents=True)
    return inner


def _test_services() -> dict[str, str]:
    return {name: os.environ[name] for name in SERVICE_VARS if name in os.environ} | {"MEMORY_MILVUS_ENABLED": "false"}


@pytest.mark.parametrize(
    "args",
    [
        ["init-db"],
        ["ingest", "--user", "42", "--text", "我喜欢喝乌龙茶"],
        ["list", "--user", "42"],
        ["status"],
        ["enqueue", "--message", "7"],
        ["rescan"],
        ["requeue", "--all-dead"],
        ["forget-user", "--user", "42", "--yes"],
        ["consolidate", "--user", "42", "--dry-run"],
        ["expire"],
        ["retrieve", "--user", "42", "--query", "喝什么茶"],
        ["tool", "--user", "42", "--name", "memory_list"],
        ["demo"],
    ],
)
def test_a_database_that_is_down_is_one_line_naming_it(tmp_path: Path, args: list[str], refused_port: int) -> None:
    """Issue 17 item 5: PostgreSQL down -> one line naming it, its address (no password) and `make up`; exit 1."""
    port = refused_port
    folder = _checkout(
        tmp_path,
        {"DATABASE_URL": f"postgresql://mt:{PASSWORD}@127.0.0.1:{port}/memory", "MEMORY_MILVUS_ENABLED": "false"},
    )
    result = cli_in(folder, *args)
    assert result.returncode == 1, result.stdout + result.stderr
    [line] = result.stderr.splitlines()
    assert line.startswith(f"error: PostgreSQL at postgresql://mt:***@127.0.0.1:{port}/memory: cannot connect "), line
    assert "make up" in line
    assert PASSWORD not in result.stdout + result.stderr


def test_a_database_address_that_never_answers_fails_within_the_connect_timeout(tmp_path: Path) -> None:
    """Issue 11 item 6 (timeouts wherever a dependency can hang): at DATABASE_URL something accepts the
    connection and never answers; the CLI gives up after libpq's connect timeout with the one line,
    instead of hanging until the OS's TCP timeout."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # the handshake completes in the backlog; nothing ever reads or answers
        port = silent.getsockname()[1]
        folder = _checkout(
            tmp_path,
            {"DATABASE_URL": f"postgresql://mt:{PASSWORD}@127.0.0.1:{port}/memory", "MEMORY_MILVUS_ENABLED": "false"},
        )
        started = time.monotonic()
        result = cli_in(folder, "list", "--user", "42")
        waited = time.monotonic() - started
    assert result.returncode == 1, result.stdout + result.stderr
    [line] = result.stderr.splitlines()
    assert line.startswith(f"error: PostgreSQL at postgresql://mt:***@127.0.0.1:{port}/memory: cannot connect "), line
    assert waited < 6 * CONNECT_TIMEOUT_SEC  # loose: a hang would run into cli_in's 120 s


def test_debug_shows_the_traceback_before_the_line(tmp_path: Path, refused_port: int) -> None:
    """Issue 17 item 5: --debug shows the traceback; the one line still ends the output."""
    folder = _checkout(tmp_path, {"DATABASE_URL": f"postgresql://mt:{PASSWORD}@127.0.0.1:{refused_port}/memory"})
    result = cli_in(folder, "--debug", "status")
    assert result.returncode == 1
    assert "Traceback" in result.stderr
    assert result.stderr.splitlines()[-1].startswith("error: PostgreSQL at ")


def test_a_broker_that_is_down_is_one_line_naming_it(db, tmp_path: Path, refused_port: int) -> None:
    """Issue 17 item 5: the broker down -> one line naming Redis and its address, exit 1."""
    port = refused_port
    broker = f"redis://:{PASSWORD}@127.0.0.1:{port}/0"
    folder = _checkout(tmp_path, {**_test_services(), "CELERY_BROKER_URL": broker, "CELERY_RESULT_BACKEND": broker})
    result = cli_in(folder, "ingest", "--user", "42", "--text", "我喜欢喝乌龙茶")
    assert result.returncode == 1
    [line] = result.stderr.splitlines()
    assert line.startswith(f"error: the broker (Redis) at redis://:***@127.0.0.1:{port}/0: cannot connect "), line
    assert "make up" in line and PASSWORD not in result.stderr


def test_a_database_without_the_schema_says_run_init_db(database: str, tmp_path: Path) -> None:
    """Issue 17 item 4: a database without the schema answers "run init-db", never a SQL error."""
    empty = f"{TEST_DB}_empty"
    execute_autocommit(ADMIN_URL, f'CREATE DATABASE "{empty}"')
    try:
        folder = _checkout(tmp_path, {**_test_services(), "DATABASE_URL": ADMIN_URL.rsplit("/", 1)[0] + f"/{empty}"})
        for args in (["status"], ["list", "--user", "42"], ["ingest", "--user", "42", "--text", "我喜欢喝乌龙茶"]):
            result = cli_in(folder, *args)
            assert result.returncode == 1
            [line] = result.stderr.splitlines()
            assert line.startswith("error: the database ") and "run `python -m memory_tasks init-db`" in line, line
            assert "relation" not in line and "SELECT" not in result.stderr
    finally:
        execute_autocommit(ADMIN_URL, f'DROP DATABASE IF EXISTS "{empty}" WITH (FORCE)')


def test_the_cli_finds_the_checkouts_env_from_any_folder_of_it(db, tmp_path: Path) -> None:
    """Issue 17 item 4: run from a subfolder, the CLI reads the checkout's .env and says so with --verbose."""
    folder = _checkout(tmp_path / "checkout", _test_services())
    result = cli_in(folder, "--verbose", "status")
    assert result.returncode == 0, result.stderr
    [line] = result.stderr.splitlines()
    assert line.startswith(f"using database {_test_services()['DATABASE_URL']}, broker ")
    assert line.endswith(f"(settings from {tmp_path / 'checkout' / '.env'})")
    assert "active" in result.stdout


def test_without_an_env_the_cli_says_which_services_it_uses(db, tmp_path: Path) -> None:
    """Issue 17 item 4: no .env found (a folder outside any checkout) -> one line naming database and broker."""
    result = cli_in(tmp_path, "status", env=_test_services())
    assert result.returncode == 0, result.stderr
    [line] = result.stderr.splitlines()
    assert line.startswith("using database postgresql://") and ", broker redis://" in line
    assert line.endswith("(no .env found: environment and defaults only)")
    named = cli_in(
        tmp_path,
        "--verbose",
        "status",
        env={"MEMORY_ENV_FILE": str(_checkout(tmp_path / "c", _test_services()).parent.parent / ".env")},
    )
    assert named.returncode == 0, named.stderr
    assert named.stderr.strip().endswith(f"(settings from {tmp_path / 'c' / '.env'})")


@pytest.mark.parametrize("timeout", ["0", "-3", "nan", "inf", "soon"])
def test_the_timeout_must_be_positive(db, timeout: str) -> None:
    """Issue 17 item 7: --timeout 0 is refused up front, not accepted and then blamed on the worker."""
    before = _counts()
    result = cli("ingest", "--user", "42", "--text", "我喜欢喝乌龙茶", "--wait", "--timeout", timeout)
    assert result.returncode == 2
    assert "--timeout: must be a positive number of seconds" in result.stderr
    assert _counts() == before


def test_text_dash_reads_standard_input(db, tmp_path: Path) -> None:
    """Issue 17 item 7: `--text -` records what standard input holds."""
    result = cli_in(tmp_path, "ingest", "--user", "42", "--text", "-", env=_test_services(), stdin="我喜欢喝普洱茶\n")
    assert result.returncode == 0, result.stderr
    message_id = json.loads(result.stdout)["message_id"]
    with session_scope() as session:
        assert session.get(Message, message_id).content == "我喜欢喝普洱茶"


def test_status_labels_vector_counts_as_such(db) -> None:
    """Issue 17 item 7: the per-state counts of `status` are labelled as vector (index) states."""
    lines = cli("status").stdout.splitlines()
    assert "memories: 0 active" in lines
    assert any(line.startswith("memory vectors (index state of every memory row): DIRTY=0") for line in lines)


def test_list_keeps_its_columns_with_long_keys(db) -> None:
    """Issue 17 item 7: a long key does not push its content out of the content column."""
    keys = ["tea", "project-" + "very-long-name-" * 6 + "end"]
    for key in keys:
        arguments = json.dumps({"key": key, "content": f"记住{key[:5]}", "memory_type": "project"})
        assert cli("tool", "--user", "44", "--name", "memory_save", "--arguments", arguments).returncode == 0
    lines = cli("list", "--user", "44").stdout.splitlines()
    assert len(lines) == 2
    assert len({line.index("记住") for line in lines}) == 1, lines
    assert any("…" in line for line in lines)


@pytest.mark.slow
def test_ingest_wait_says_what_became_of_each_statement(worker, db) -> None:
    """Issue 17 item 2: a short-term clause is dropped naming the window, a duplicate names the memory it
    repeats, a turn with nothing to remember says so, and a stored memory is listed with its id and op."""
    dropped = cli("ingest", "--user", "45", "--text", "今天开会讨论了很多事情，我喜欢喝普洱茶。", "--wait")
    assert dropped.returncode == 0, dropped.stderr
    head, *outcomes = dropped.stdout.splitlines()
    assert head.startswith("message ") and " PROCESSED: active memories #" in head
    assert '  dropped "今天开会讨论了很多事情": short-term window: 今天' in outcomes
    assert any(line.startswith("  stored #") and " create " in line and "普洱茶" in line for line in outcomes)

    saved = cli(
        "tool",
        "--user",
        "46",
        "--name",
        "memory_save",
        "--arguments",
        json.dumps({"key": "oolong", "content": "喜欢喝乌龙茶", "memory_type": "preference"}),
    )
    memory_id = json.loads(saved.stdout)["memory"]["id"]
    again = json.loads(cli("ingest", "--user", "46", "--text", "我喜欢喝乌龙茶", "--wait", "--json").stdout)
    assert [(o["status"], o["memory_id"], o["reason"]) for o in again["outcomes"]] == [
        ("dropped", memory_id, f"duplicate of memory #{memory_id}")
    ]
    assert again["memory_ids"] == [memory_id] and again["deactivated_ids"] == []

    nothing = cli("ingest", "--user", "47", "--text", "我觉得这个主意不错", "--wait")
    assert nothing.returncode == 0, nothing.stderr
    assert nothing.stdout.splitlines()[1:] == ["  dropped: no memory-worthy statement found"]


def test_milvus_that_is_down_is_one_line_naming_it(db, tmp_path: Path, refused_port: int) -> None:
    """Issue 17 item 5: Milvus down -> `reindex --reconcile` says so in one line with its address, exit 1."""
    uri = f"http://127.0.0.1:{refused_port}"
    folder = _checkout(tmp_path, {**_test_services(), "MEMORY_MILVUS_ENABLED": "true", "MEMORY_MILVUS_URI": uri})
    result = cli_in(folder, "reindex", "--reconcile")
    assert result.returncode == 1
    [line] = result.stderr.splitlines()
    assert line.startswith("error: the rebuild failed, the live collection is untouched: ") and uri in line, line
    assert "make up" in line and "Traceback" not in result.stderr
