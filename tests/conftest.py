"""Test environment: a throwaway PostgreSQL database, a private Redis db, a Milvus server.

The environment is set here, at import, before anything imports `memory_tasks`, so the
Celery app of the test process and the worker subprocesses it starts agree on the
broker and the database. PostgreSQL and Redis are the machine's (127.0.0.1:5432 / 6379)
unless TEST_PG_ADMIN_URL / TEST_REDIS_URL point elsewhere (make test does that when it
had to start the embedded ones).
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

# The first import of the package takes back what pymilvus' import copies into os.environ from the
# project's .env (from `make up`): a developer's stack settings never reach the tests (memory_tasks/__init__.py).
from config.settings import get_settings
from memory_tasks.db.admin import execute_autocommit
from memory_tasks.stack import (
    MILVUS_PORT_SPAN,
    alive,
    milvus_ports,
    milvus_ready,
    port_free,
    port_open,
    start_milvus,
    stop_processes,
)
from memory_tasks.vectors.milvus_store import get_store

PROJECT_ROOT = Path(__file__).resolve().parent.parent
RUN_ID = f"{os.getpid()}_{secrets.token_hex(3)}"
ADMIN_URL = os.environ.get("TEST_PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379")
TEST_DB = f"mt_test_{RUN_ID}"
REDIS_DB = 11


def _free_milvus_base(start: int) -> int:
    """The first proxy port from `start` whose whole Milvus port block is free (parallel runs)."""
    base = start
    while not all(port_free(port) for port in milvus_ports(base).values()):
        base += MILVUS_PORT_SPAN
    return base


# One Milvus server for all of a run's pytest-xdist processes: one boot instead of one per process beside the
# small chaos run's whole stack, and one idle server's CPU instead of three on a 2-core machine. Each process
# keeps a collection of its own (MEMORY_MILVUS_COLLECTION); a test that stops Milvus starts a server of its own.
SHARED_RUN = os.environ.get("PYTEST_XDIST_TESTRUNUID", RUN_ID)
MILVUS_HOME = Path(tempfile.gettempdir()) / f"mt_test_milvus_{SHARED_RUN}"


@contextmanager
def _milvus_record() -> Iterator[dict]:
    """The run's Milvus record ({"port", "pid", "users"}), read and written back under the run's file lock."""
    while True:
        MILVUS_HOME.mkdir(exist_ok=True)
        with open(MILVUS_HOME / "lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if os.fstat(lock.fileno()).st_nlink == 0:
                continue  # the last process out removed the folder while this one waited: lock the new one
            path = MILVUS_HOME / "record.json"
            record = json.loads(path.read_text()) if path.exists() else {}
            yield record
            if MILVUS_HOME.exists():
                path.write_text(json.dumps(record))
            return


def _run_milvus_port() -> int:
    """The proxy port of the run's Milvus server. The first process in picks the ports, all twelve at once
    (the kernel does not pick a block), from a start of the run's own so that concurrent runs rarely probe the
    same ones. The blocks (20640-21600) stay clear of the bench and chaos stacks' (from 19900,
    bench/pipeline_stack.py): the small chaos run starts first, while this server may still be booting."""
    with _milvus_record() as record:
        start = (
            int(os.environ.get("TEST_MILVUS_PORT", "20640")) + zlib.crc32(SHARED_RUN.encode()) % 80 * MILVUS_PORT_SPAN
        )
        return record.setdefault("port", _free_milvus_base(start))


def _leave_milvus(record: dict) -> None:
    """This process no longer uses the run's Milvus: the last one out kills it and removes its folder."""
    record["users"] = [pid for pid in record.get("users", []) if pid != os.getpid() and alive(pid)]
    if not record["users"]:
        _stop_run_milvus(record)
        shutil.rmtree(MILVUS_HOME, ignore_errors=True)


def _stop_run_milvus(record: dict) -> None:
    """Kill the server the record names, if that pid is still the server (not a process that reused it)."""
    if record.get("pid") and alive(record["pid"], started_by=record["started"]):
        stop_processes([record["pid"]], 0)


MILVUS_PROXY_PORT = _run_milvus_port()

TEST_ENV = {
    "DATABASE_URL": ADMIN_URL.rsplit("/", 1)[0] + f"/{TEST_DB}",
    "CELERY_BROKER_URL": f"{REDIS_URL}/{REDIS_DB}",
    "CELERY_RESULT_BACKEND": f"{REDIS_URL}/{REDIS_DB + 1}",
    # Concurrent test runs share the Redis server; the prefix keeps their tasks apart.
    "CELERY_REDIS_KEY_PREFIX": f"mt_test_{RUN_ID}:",
    "OPENAI_API_KEY": "",
    "OPENAI_BASE_URL": "",
    "MEMORY_EMBEDDING_PROVIDER": "local",
    # Tests that touch Milvus request the `milvus_server` fixture, which starts it on this port.
    "MEMORY_MILVUS_ENABLED": "true",
    "MEMORY_MILVUS_URI": f"http://127.0.0.1:{MILVUS_PROXY_PORT}",
    "MEMORY_INDEX_WORKER_ENABLED": "true",
    "MEMORY_MILVUS_COLLECTION": f"test_memories_{RUN_ID}",
    "LONG_TERM_MEMORY_DEBOUNCE_SEC": "0",
    "LOG_LEVEL": "INFO",
}
os.environ.update(TEST_ENV)
# A developer's .env (e.g. from `make up`) must not leak into the tests.
os.chdir(tempfile.mkdtemp(prefix="mt_tests_cwd_"))

pytest_plugins = ("celery.contrib.pytest", "tests.fake_openai")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """schemathesis names each operation's test `test_x[POST /v1/turns]` but gives them all the
    function's node id; pytest-xdist schedules by node id and would run one operation of 14 (make
    test runs under xdist), so each takes its name as its id. Any other shared id is refused.

    Tests marked `first` go first: make test hands pytest-xdist the modules in this order, and the
    small chaos run (2.5-4 min on a stack of its own) started last kept one process busy for minutes
    after the other had run out of work (measured: 100 s of a 560 s run)."""
    items.sort(key=lambda item: item.get_closest_marker("first") is None)  # stable: the rest keep their order
    for item in items:
        if getattr(item, "operation_label", None) and not item.nodeid.endswith("]"):
            item._id = item.parent.id.child(item.name)  # pytest 9 keeps the node id here
    twice = sorted(nodeid for nodeid, count in Counter(item.nodeid for item in items).items() if count > 1)
    if twice:
        raise pytest.UsageError(f"tests sharing a node id (pytest-xdist would run only one of each): {twice}")


@pytest.fixture
def refused_port() -> Iterator[int]:
    """A 127.0.0.1 port that refuses connections for the whole test: bound, never listening. A port
    merely released could be taken by another test process's server meanwhile (pytest-xdist), and a
    client expecting a refusal would then talk to it."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        yield held.getsockname()[1]


@pytest.fixture(autouse=True)
def run_environment() -> None:
    """Every test starts in this run's environment, whatever a test before it switched: a worker
    subprocess started with another broker would never see a task. A module- or session-scoped
    fixture (the `worker`) is set up before this one, so nothing may change os.environ when a test
    module is imported (the bench scripts set their in-memory broker only when run as scripts)."""
    from config.settings import get_settings

    changed = {name: value for name, value in TEST_ENV.items() if os.environ.get(name) != value}
    if changed:
        os.environ.update(changed)
        get_settings.cache_clear()


@pytest.fixture(scope="session")
def database() -> Iterator[str]:
    """A fresh database migrated to head; dropped at the end of the run."""
    execute_autocommit(ADMIN_URL, f'CREATE DATABASE "{TEST_DB}"')
    from config.settings import get_settings
    from memory_tasks.db.migrate import upgrade_to_head

    get_settings.cache_clear()
    upgrade_to_head()
    yield TEST_ENV["DATABASE_URL"]
    from memory_tasks.db.session import reset_engine

    reset_engine()
    execute_autocommit(ADMIN_URL, f'DROP DATABASE IF EXISTS "{TEST_DB}" WITH (FORCE)')


@pytest.fixture
def db(database: str) -> Iterator[str]:
    """The test database, emptied before the test (ids keep growing across tests)."""
    from sqlalchemy import text

    from memory_tasks.db.session import session_scope
    from memory_tasks.vectors.index import PROCESS_VECTORS

    # The embedding cache is emptied, so this process' copy of it is too: a test may count or fail embedder calls.
    PROCESS_VECTORS.clear()
    with session_scope() as session:
        session.execute(
            text(
                "TRUNCATE memory_history, long_term_memories, idempotency_keys, messages, conversations, users, "
                "embedding_cache, forgotten_users"
            )
        )
    yield database


# Milvus notices a finished compaction at its next check, 10 s by default: a compaction of a test's few rows
# (done in milliseconds) then held `store.compact` (reindex, the index sweep) 10-90 s. Milvus compacts
# only when asked (no merge of its own after each flush), so a test of the sweep sees its own work.
TEST_MILVUS_SETTINGS = {
    "dataCoord.compaction.check.interval": "1",
    "dataCoord.compaction.enableAutoCompaction": "false",
}


@pytest.fixture(scope="session")
def milvus_server() -> Iterator[str]:
    """A real Milvus standalone server (from the `milvus` package), shared by the run's test processes: the
    first to need it starts it, the last one out kills it (its data is thrown away). A process that died
    is no longer counted, and a server that stopped answering is started again."""
    uri = TEST_ENV["MEMORY_MILVUS_URI"]
    with _milvus_record() as record:
        if not (port_open(MILVUS_PROXY_PORT) and milvus_ready(uri)):
            _stop_run_milvus(record)  # one that stopped answering
            server = start_milvus(
                MILVUS_HOME / "data",
                MILVUS_PROXY_PORT,
                MILVUS_HOME / "milvus.log",
                milvus_settings=TEST_MILVUS_SETTINGS,
            )
            record["pid"], record["started"] = server.pid, time.time()  # it started before this moment
        record["users"] = [pid for pid in record.get("users", []) if alive(pid)] + [os.getpid()]
    yield uri  # the process leaves in pytest_sessionfinish


def pytest_sessionfinish() -> None:
    """This process leaves the run's Milvus (the last one out stops it); a process that never needed it
    (the xdist controller, a unit-test run) leaves no folder behind either."""
    with _milvus_record() as record:
        _leave_milvus(record)


@pytest.fixture
def milvus_env(milvus_server: str) -> dict[str, str]:
    """The Milvus settings every test process already has (the server is up once this returns)."""
    return {
        name: TEST_ENV[name] for name in ("MEMORY_MILVUS_ENABLED", "MEMORY_MILVUS_URI", "MEMORY_INDEX_WORKER_ENABLED")
    }


@pytest.fixture
def milvus_collection(milvus_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A Milvus collection of this test's own (MEMORY_MILVUS_COLLECTION), dropped after it. Settings and
    the store are read afresh: a fixture setting more variables on `monkeypatch` clears both caches again."""
    name = f"test_{secrets.token_hex(4)}"
    monkeypatch.setenv("MEMORY_MILVUS_COLLECTION", name)
    get_settings.cache_clear()
    get_store.cache_clear()
    yield name
    get_store().drop()
    monkeypatch.undo()
    get_settings.cache_clear()
    get_store.cache_clear()


class WorkerProcess:
    """A real `celery -A memory_tasks worker` subprocess consuming every queue."""

    def __init__(self, extra_env: dict[str, str], log_path: Path, concurrency: int = 2, pool: str = "prefork") -> None:
        env = {**os.environ, **extra_env, "PYTHONPATH": str(PROJECT_ROOT)}
        self.log_path = log_path
        self.name = f"test-{secrets.token_hex(3)}@%h"
        self._log = open(log_path, "wb")  # noqa: SIM115 - closed in stop(), outlives this frame
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "memory_tasks",
                "worker",
                "-Q",
                "llm,index,maintenance",
                "-c",
                str(concurrency),
                "-P",
                pool,
                "-n",
                self.name,
                "--without-gossip",
                "--without-mingle",
                "-E",
            ],
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_ready(self, timeout: float = 60) -> None:
        from memory_tasks import app

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"worker exited: {self.log_path.read_text()[-3000:]}")
            replies = app.control.ping(timeout=1)
            if any(self.name.split("@")[0] in name for reply in replies for name in reply):
                return
        raise RuntimeError(f"worker not ready: {self.log_path.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self._log.close()

    def kill(self) -> None:
        """SIGKILL the whole worker (main process and children), as a crash would."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self._log.close()


@pytest.fixture(scope="session")
def broker_flushed() -> Iterator[None]:
    """This run's Redis keys, removed at the end (other runs' keys are left alone)."""
    yield
    import redis

    for db_index in (REDIS_DB, REDIS_DB + 1):
        client = redis.Redis.from_url(f"{REDIS_URL}/{db_index}")
        keys = list(client.scan_iter(f"{TEST_ENV['CELERY_REDIS_KEY_PREFIX']}*"))
        if keys:
            client.delete(*keys)


@pytest.fixture(scope="module")
def worker(
    database: str, broker_flushed: None, milvus_server: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[WorkerProcess]:
    """A real worker (offline engine, Milvus on) consuming every queue, for one test module.

    Module scope: a module that needs a worker with other settings uses `start_worker`
    instead, and no default worker competes with it for tasks.
    """
    process = WorkerProcess({}, tmp_path_factory.mktemp("worker") / "worker.log")
    process.wait_ready()
    yield process
    process.stop()


def worker_factory(
    folder: Path, kind: type[WorkerProcess] = WorkerProcess, base_env: dict[str, str] | None = None
) -> Iterator[Callable[..., WorkerProcess]]:
    """For a fixture to `yield from`: start(extra_env, concurrency, pool) gives a ready worker of
    `kind` (its environment `base_env` plus `extra_env`, its log in `folder`); afterwards every
    worker still running is stopped."""
    workers: list[WorkerProcess] = []

    def start(extra_env: dict[str, str] | None = None, concurrency: int = 2, pool: str = "prefork") -> WorkerProcess:
        env = {**(base_env or {}), **(extra_env or {})}
        worker = kind(env, folder / f"worker{len(workers)}.log", concurrency, pool)
        workers.append(worker)
        worker.wait_ready()
        return worker

    yield start
    for worker in workers:
        if worker.process.poll() is None:
            worker.stop()


@pytest.fixture
def start_worker(
    database: str, broker_flushed: None, milvus_server: str, tmp_path: Path
) -> Iterator[Callable[..., WorkerProcess]]:
    """Factory: start a worker subprocess with extra environment; all are stopped after the test."""
    yield from worker_factory(tmp_path)
