"""The pipeline on RabbitMQ: the chain end to end, redelivery after a worker is killed, and beat (issue 15 item 7).

`make test` runs these against the machine's RabbitMQ (TEST_AMQP_URL, printed by
`python -m memory_tasks.stack test-env` when 127.0.0.1:5672 answers). Each run gets a private
vhost, so concurrent runs never share a queue; every process of a test (workers, beat, the CLI
that records and enqueues) is a subprocess pointed at it. Results stay on the run's Redis
(CELERY_RESULT_BACKEND); the broker is what is under test.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

import pytest
import requests

from memory_tasks.api import list_memories, record_turn, wait_for_message
from tests.conftest import PROJECT_ROOT, RUN_ID, WorkerProcess, worker_factory
from tests.helpers import OOLONG_CANDIDATES, hang_then_answer

pytestmark = [pytest.mark.slow]

AMQP_URL = os.environ.get("TEST_AMQP_URL", "")
VHOST = f"mt_test_{RUN_ID}"
MANAGEMENT_API = "http://127.0.0.1:15672/api"


def _management_auth() -> tuple[str, str]:
    parts = urlsplit(AMQP_URL)
    return parts.username or "guest", parts.password or "guest"


def _create_vhost() -> str | None:
    """Create VHOST with full rights for the URL's user, through the management API or else
    `rabbitmqctl`; return how, or None when neither is available."""
    user = _management_auth()[0]
    try:
        created = requests.put(f"{MANAGEMENT_API}/vhosts/{VHOST}", auth=_management_auth(), timeout=5)
        if created.ok:
            requests.put(
                f"{MANAGEMENT_API}/permissions/{VHOST}/{quote(user)}",
                json={"configure": ".*", "write": ".*", "read": ".*"},
                auth=_management_auth(),
                timeout=5,
            ).raise_for_status()
            return "api"
    except requests.RequestException:
        pass
    ctl = shutil.which("rabbitmqctl")
    if ctl is None:
        return None
    for args in (["add_vhost", VHOST], ["set_permissions", "-p", VHOST, user, ".*", ".*", ".*"]):
        if subprocess.run([ctl, *args], capture_output=True, timeout=60).returncode != 0:
            return None
    return "rabbitmqctl"


def _delete_vhost(how: str) -> None:
    if how == "api":
        requests.delete(f"{MANAGEMENT_API}/vhosts/{VHOST}", auth=_management_auth(), timeout=10)
    else:
        subprocess.run(["rabbitmqctl", "delete_vhost", VHOST], capture_output=True, timeout=60)


@pytest.fixture(scope="module")
def amqp_env(database: str, broker_flushed: None, milvus_server: str) -> Iterator[dict[str, str]]:
    """CELERY_BROKER_URL of this run's private vhost on the machine's RabbitMQ."""
    if not AMQP_URL:
        pytest.skip("TEST_AMQP_URL is unset: no RabbitMQ answered on 127.0.0.1:5672 at `stack test-env`")
    how = _create_vhost()
    if how is None:
        pytest.skip("cannot create a private RabbitMQ vhost (no management API, no usable rabbitmqctl)")
    parts = urlsplit(AMQP_URL)
    yield {"CELERY_BROKER_URL": urlunsplit((parts.scheme, parts.netloc, f"/{VHOST}", "", ""))}
    _delete_vhost(how)


class AmqpWorker(WorkerProcess):
    """A worker on RabbitMQ; ready once it logs so (the test process's own app talks to Redis)."""

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while f"{self.name.split('@')[0]}@" not in self._ready_line():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"worker not ready: {self.log_path.read_text()[-3000:]}")
            time.sleep(0.3)

    def _ready_line(self) -> str:
        return next((line for line in self.log_path.read_text(errors="replace").splitlines() if " ready." in line), "")


@pytest.fixture
def amqp_worker(amqp_env: dict[str, str], tmp_path: Path) -> Iterator[Callable[..., WorkerProcess]]:
    yield from worker_factory(tmp_path, AmqpWorker, amqp_env)


def _cli(amqp_env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), **amqp_env}
    return subprocess.run(
        [sys.executable, "-m", "memory_tasks", *args], capture_output=True, text=True, env=env, timeout=240
    )


def _message_id(result: subprocess.CompletedProcess[str]) -> int:
    assert result.returncode == 0, result.stderr
    return int(json.loads(result.stdout.strip().splitlines()[-1])["message_id"])


def test_the_chain_runs_end_to_end_on_rabbitmq(amqp_env, amqp_worker, db) -> None:
    """Issue 15 item 7: a turn enqueued on RabbitMQ goes extract → refine → upsert → embed → Milvus."""
    amqp_worker()
    result = _cli(
        amqp_env, "ingest", "--user", "801", "--text", "我喜欢喝乌龙茶", "--wait", "--timeout", "120", "--json"
    )

    assert wait_for_message(_message_id(result), 60)["status"] == "PROCESSED"
    memories = list_memories(801)
    assert any("乌龙茶" in m["content"] for m in memories)
    assert {m["vector_status"] for m in memories} == {"SYNCED"}


def test_a_killed_worker_s_task_is_redelivered_at_once(amqp_env, amqp_worker, db, fake_openai) -> None:
    """Issue 15 item 7 (R-SAFE-1): the whole worker SIGKILLed mid-task; RabbitMQ sees its connection
    close and hands the unacknowledged task to the next worker, with no visibility timeout or rescan."""
    hang_then_answer(fake_openai, OOLONG_CANDIDATES, hang_sec=60)  # until the worker is killed
    llm = {"OPENAI_BASE_URL": fake_openai.base_url}
    first = amqp_worker(llm, concurrency=1)
    message_id = _message_id(_cli({**amqp_env, **llm}, "ingest", "--user", "802", "--text", "我喜欢喝乌龙茶"))
    deadline = time.monotonic() + 30
    while not fake_openai.requests and time.monotonic() < deadline:
        time.sleep(0.1)
    assert fake_openai.requests, "the extract stage never called the model"
    first.kill()
    amqp_worker(llm, concurrency=1)

    state = wait_for_message(message_id, 40)  # far below the 60 s the first reply hangs
    assert state["status"] == "PROCESSED", state
    assert [m["memory_key"] for m in list_memories(802)] == ["drink-preference"]


def test_beat_schedules_through_rabbitmq(amqp_env, amqp_worker, db, tmp_path: Path) -> None:
    """Issue 15 item 7 (R-BEAT-1): beat's rescan, sent through RabbitMQ, finishes a turn nobody enqueued."""
    amqp_worker()
    message_id = record_turn(803, "我喜欢喝乌龙茶")  # recorded, never enqueued: only the rescan finds it
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), **amqp_env, "LONG_TERM_MEMORY_SCAN_INTERVAL_SEC": "1"}
    cmd = [sys.executable, "-m", "celery", "-A", "memory_tasks", "beat", "-s", str(tmp_path / "schedule")]
    with open(tmp_path / "beat.log", "wb") as log:
        beat = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        state = wait_for_message(message_id, 90)
    finally:
        os.killpg(beat.pid, signal.SIGTERM)
        beat.wait(timeout=20)
    assert state["status"] == "PROCESSED", (tmp_path / "beat.log").read_text()[-3000:]
    assert any("乌龙茶" in m["content"] for m in list_memories(803))
