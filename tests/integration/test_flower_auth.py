"""Flower as the embedded stack starts it: authentication on, credentials only in its environment (issue 15 item 1)."""

from __future__ import annotations

import base64
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
import requests

from memory_tasks import stack
from tests.conftest import PROJECT_ROOT
from tests.helpers import free_port

pytestmark = [pytest.mark.slow]

PASSWORD = "flower-test-pw-Zq81"
CREDENTIALS = f"flower:{PASSWORD}"


@pytest.fixture(scope="module")
def flower(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, psutil.Process]]:
    """A real Flower process, started with the stack's command and environment, against the test broker."""
    folder = tmp_path_factory.mktemp("flower")
    state = stack.Stack(dir=folder, log_dir=folder, flower_port=free_port())
    cmd, env = stack.flower_command(state, CREDENTIALS)
    env = {**env, "PYTHONPATH": str(PROJECT_ROOT), "FLOWER_UNAUTHENTICATED_API": "true"}
    log = folder / "flower.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{state.flower_port}"
    deadline = time.monotonic() + 60
    while not stack.port_open(state.flower_port):
        assert process.poll() is None, Path(log).read_text()[-3000:]
        assert time.monotonic() < deadline, Path(log).read_text()[-3000:]
        time.sleep(0.3)
    yield base, psutil.Process(process.pid)
    stack.stop_processes([process.pid], timeout=10)


def test_flower_refuses_the_api_without_credentials(flower) -> None:
    """Issue 15 item 1: no credentials, or wrong ones, get 401 from the API, even with
    FLOWER_UNAUTHENTICATED_API=true left in the environment (the stack drops it)."""
    base, _ = flower
    assert requests.get(f"{base}/api/workers", timeout=10).status_code == 401
    assert requests.get(f"{base}/api/workers", auth=("flower", "wrong-password"), timeout=10).status_code == 401
    assert requests.post(f"{base}/api/task/async-apply/memory.expire_memories", json={}, timeout=10).status_code == 401


def test_flower_accepts_the_generated_credentials(flower) -> None:
    """Issue 15 item 1: the stack's credentials open the API."""
    base, _ = flower
    response = requests.get(f"{base}/api/workers", auth=("flower", PASSWORD), timeout=30)
    assert response.status_code == 200
    assert isinstance(response.json(), dict)


def test_flower_metrics_stay_open_for_prometheus(flower) -> None:
    """Issue 15 item 1: Flower 2's /metrics needs no login, so Prometheus scrapes it as before."""
    base, _ = flower
    response = requests.get(f"{base}/metrics", timeout=10)
    assert response.status_code == 200
    assert "flower_" in response.text


def test_flower_listens_on_loopback_with_the_password_off_its_command_line(flower) -> None:
    """Issue 15 item 1: bound to 127.0.0.1; `ps` shows no credentials (they are in the environment)."""
    _, process = flower
    command_line = " ".join(process.cmdline())
    assert PASSWORD not in command_line
    assert base64.b64encode(CREDENTIALS.encode()).decode() not in command_line
    assert process.environ()["FLOWER_BASIC_AUTH"] == CREDENTIALS
    listening = {conn.laddr.ip for conn in process.net_connections(kind="tcp") if conn.status == psutil.CONN_LISTEN}
    assert listening == {"127.0.0.1"}
