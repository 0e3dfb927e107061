"""Exactly one beat schedules: a second one stands by until the first dies (issue 15 item 5).

Two real `celery -A memory_tasks beat` processes, started as an operator would (no -S: the
app's config names the locking scheduler), against the test database and broker, with the
rescan every second. Who sent what is read from each beat's log ("Sending due task").
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import PROJECT_ROOT

pytestmark = [pytest.mark.slow]

SENT = "Sending due task rescan-messages"


class Beat:
    """A beat subprocess with its own schedule file and log."""

    def __init__(self, folder: Path, name: str, extra_env: dict[str, str] | None = None) -> None:
        self.log_path = folder / f"{name}.log"
        env = {
            **os.environ,
            "PYTHONPATH": str(PROJECT_ROOT),
            "LONG_TERM_MEMORY_SCAN_INTERVAL_SEC": "1",
            **(extra_env or {}),
        }
        cmd = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "memory_tasks",
            "beat",
            "-s",
            str(folder / f"{name}-schedule"),
            "--pidfile",
            str(folder / f"{name}.pid"),
        ]
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def sent(self) -> int:
        return self.log().count(SENT)

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def _wait(condition: Callable[[], bool], timeout: float, what: str, beat: Beat) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert beat.process.poll() is None, f"{what}: beat exited\n{beat.log()[-3000:]}"
        assert time.monotonic() < deadline, f"{what}: not within {timeout} s\n{beat.log()[-3000:]}"
        time.sleep(0.2)


@pytest.fixture
def start_beat(database: str, broker_flushed: None, tmp_path: Path) -> Iterator[Callable[..., Beat]]:
    beats: list[Beat] = []

    def start(name: str, extra_env: dict[str, str] | None = None) -> Beat:
        beats.append(Beat(tmp_path, name, extra_env))
        return beats[-1]

    yield start
    for beat in beats:
        beat.kill()


def test_a_second_beat_schedules_nothing_until_the_first_dies(start_beat) -> None:
    """Issue 15 item 5: only the lock holder sends; killed, its standby takes over within seconds."""
    first = start_beat("first")
    _wait(lambda: first.sent() >= 2, 60, "the first beat sends", first)
    second = start_beat("second")
    _wait(lambda: "standing by" in second.log(), 60, "the second beat stands by", second)
    sent_before = first.sent()
    time.sleep(6)  # longer than the standby's retry (BEAT_LOCK_RETRY_SEC)

    assert second.sent() == 0, second.log()[-3000:]
    assert first.sent() >= sent_before + 3  # the holder kept its 1 s rhythm meanwhile

    first.kill()
    _wait(lambda: second.sent() >= 2, 30, "the second beat takes over", second)
    assert "beat lock acquired" in second.log()


def test_a_beat_without_the_database_schedules_nothing(start_beat) -> None:
    """Issue 15 item 5: no lock (the database unreachable) means no sending, not sending unguarded."""
    unreachable = "postgresql+psycopg2://postgres@127.0.0.1:9/none"
    beat = start_beat("orphan", {"DATABASE_URL": unreachable})
    _wait(lambda: "standing by" in beat.log(), 60, "the beat stands by", beat)
    time.sleep(4)
    assert beat.sent() == 0, beat.log()[-3000:]
