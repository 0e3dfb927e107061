"""`python -m memory_tasks health` against real workers, a real beat, PostgreSQL, Redis and Milvus (issue 15 item 4)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from pymilvus import MilvusClient

from config.settings import get_settings
from memory_tasks.broker_redis import shared_key, shared_redis
from memory_tasks.health import check_backing_services, check_beat
from memory_tasks.heartbeat import BEAT_TICK, last_beat_tick
from memory_tasks.vectors.milvus_store import get_store
from tests.conftest import PROJECT_ROOT

pytestmark = [pytest.mark.slow]


def _health(*args: str) -> tuple[int, dict]:
    """Run the command as a probe would; (exit status, its JSON report)."""
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    result = subprocess.run(
        [sys.executable, "-m", "memory_tasks", "health", "--timeout", "2", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    return result.returncode, json.loads(result.stdout)


@pytest.fixture
def beat(database, broker_flushed, tmp_path: Path) -> Iterator[subprocess.Popen]:
    """A real `celery beat` whose shortest job (the index sweep) fires every second."""
    shared_redis(get_settings()).delete(shared_key(get_settings(), BEAT_TICK))
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "MEMORY_INDEX_WORKER_INTERVAL_SEC": "1"}
    with open(tmp_path / "beat.log", "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "memory_tasks", "beat", "-s", str(tmp_path / "schedule")],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    deadline = time.monotonic() + 60
    while last_beat_tick(get_settings()) is None:
        assert process.poll() is None, (tmp_path / "beat.log").read_text()[-3000:]
        assert time.monotonic() < deadline, "beat sent no job within 60 s"
        time.sleep(0.3)
    yield process
    process.terminate()
    process.wait(timeout=20)


def test_health_is_zero_with_everything_up_and_one_once_a_worker_stops(start_worker, beat, milvus_env) -> None:
    """issue 15 item 4: every check passes while a worker, beat and the services run; with the
    worker stopped the command exits 1 and says no worker answers, the rest still passing."""
    worker = start_worker()
    get_store().ensure_collection(384)  # loaded, as after the first write
    status, report = _health()
    assert status == 0, report
    assert set(report["checks"]) == {"workers", "beat", "postgres", "broker", "milvus"}
    assert all(check["ok"] for check in report["checks"].values()), report
    answering = report["checks"]["workers"]["detail"]["workers"]
    assert sorted(next(iter(answering.values()))) == ["index", "llm", "maintenance"]
    name = next(iter(answering))
    assert _health("--check", "workers", "--worker", name)[0] == 0
    status, report = _health("--check", "workers", "--worker", "nobody@nowhere")
    assert status == 1
    assert report["checks"]["workers"]["error"] == "nobody@nowhere did not answer"

    worker.stop()
    status, report = _health()
    assert status == 1
    workers = report["checks"]["workers"]
    assert not workers["ok"] and workers["error"].startswith("no worker answered")
    assert workers["detail"]["queues_without_worker"] == ["llm", "index", "maintenance"]
    assert all(report["checks"][name]["ok"] for name in ("beat", "postgres", "broker", "milvus")), report


def test_beat_check_fails_when_beat_never_ticked_or_went_silent(database, broker_flushed) -> None:
    """issue 15 item 4: no heartbeat, or one older than twice the shortest interval plus slack, is a dead beat."""
    settings = get_settings()
    key = shared_key(settings, BEAT_TICK)
    client = shared_redis(settings)
    client.delete(key)
    silent = check_beat(settings)
    assert not silent.ok and silent.error == "beat never sent a job"
    max_age = silent.detail["max_age_sec"]
    client.set(key, repr(time.time() - max_age - 5))
    late = check_beat(settings)
    assert not late.ok and late.error.startswith("beat silent for")
    client.set(key, repr(time.time() - max_age + 5))
    assert check_beat(settings).ok
    client.delete(key)


def test_milvus_check_fails_while_the_collection_is_not_loaded(database, milvus_env) -> None:
    """issue 15 item 4: a reachable Milvus whose collection is released (not searchable) is not healthy."""
    settings = get_settings()
    store = get_store()
    store.ensure_collection(384)
    client = MilvusClient(uri=settings.MEMORY_MILVUS_URI)
    try:
        client.release_collection(settings.MEMORY_MILVUS_COLLECTION)
        released = check_backing_services(settings, {"milvus"})["milvus"]
        assert not released.ok and released.error == "CollectionNotLoaded", released
    finally:
        client.load_collection(settings.MEMORY_MILVUS_COLLECTION)
        client.close()
    assert check_backing_services(settings, {"milvus"})["milvus"].ok
