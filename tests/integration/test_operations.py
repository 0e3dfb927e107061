"""Metrics and logs of a real worker and of the HTTP service (issue 15 items 2 and 3, R-OPS-4).

One worker for the module, with the chat model at the fake server, its Prometheus exporter
on a free port (multiprocess mode, the pool's children summed) and its log in a file.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import update

from memory_tasks.api import record_turn
from memory_tasks.db.models import Message
from memory_tasks.db.session import session_scope
from memory_tasks.retrieval import find_memories
from tests.conftest import WorkerProcess
from tests.fake_openai import FakeOpenAI, Reply, as_json
from tests.helpers import free_port, ingest
from tests.http.conftest import ADMIN, CHAT, make_app

pytestmark = [pytest.mark.slow]

# Said by the test user; must never appear in a log line.
SECRET_FOOD = "Zanzibar-Pfefferkuchen"
METRICS_TOKEN = "metrics-token-for-tests-0123456789"


def _extract_food(body: dict) -> Reply:
    """Extraction proposes one preference holding SECRET_FOOD; refinement keeps it."""
    if "decisions" in body["messages"][0]["content"]:
        return as_json({"decisions": []})
    candidate = {
        "op": "upsert",
        "memory_type": "preference",
        "key": "food-favourite_cake",
        "content": f"最喜欢的点心是 {SECRET_FOOD}",
        "confidence": 0.95,
        "importance": 3,
    }
    return as_json({"candidates": [candidate]})


@pytest.fixture(scope="module")
def llm() -> Iterator[FakeOpenAI]:
    server = FakeOpenAI(default=_extract_food).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def observed_worker(
    llm: FakeOpenAI, database, broker_flushed, milvus_server, tmp_path_factory
) -> Iterator[tuple[WorkerProcess, int]]:
    """(the worker, its metrics port)."""
    folder = tmp_path_factory.mktemp("observed_worker")
    stale = folder / "prometheus" / "counter_999999.db"
    stale.parent.mkdir()
    stale.write_bytes(b"not a metrics file of this run")
    port = free_port()
    worker = WorkerProcess(
        {
            "OPENAI_BASE_URL": llm.base_url,
            "OPENAI_API_KEY": "sk-test-not-a-secret",
            "PROMETHEUS_MULTIPROC_DIR": str(stale.parent),
            "MEMORY_WORKER_METRICS_PORT": str(port),
        },
        folder / "worker.log",
    )
    worker.wait_ready()
    assert not stale.exists(), "the worker cleans its multiprocess folder at start"
    yield worker, port
    worker.stop()


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """{(sample name, sorted labels): value} of an exposition."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def _scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        return _samples(response.read().decode())


def _value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def _wait_for_log(path: Path, needle: str, timeout: float = 60) -> None:
    """Wait until the worker's log holds `needle` (the index stages run after the message is PROCESSED)."""
    deadline = time.monotonic() + timeout
    while needle not in path.read_text(encoding="utf-8"):
        assert time.monotonic() < deadline, f"{needle!r} not logged within {timeout} s"
        time.sleep(0.2)


def _log_lines(path: Path) -> list[dict]:
    """The JSON log records of a worker's output (Celery's start-up banner, printed to stdout, is not a log)."""
    records = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("{"):
            records.append(json.loads(line))
    return records


def test_worker_series_move_when_a_turn_flows(observed_worker, db) -> None:
    """issue 15 item 2: the worker's /metrics counts the stages, the LLM calls and tokens, the
    embedding calls and the writes of a turn processed by its pool's children."""
    _, port = observed_worker
    before = _scrape(port)
    state = ingest(801, f"我最喜欢的点心是 {SECRET_FOOD}")
    assert state["status"] == "PROCESSED", state
    again = ingest(801, f"我最喜欢的点心是 {SECRET_FOOD}")
    assert again["status"] == "PROCESSED", again
    after = _scrape(port)

    def moved(name: str, **labels: str) -> float:
        return _value(after, name, **labels) - _value(before, name, **labels)

    for task in ("memory.extract_candidates", "memory.refine_candidates", "memory.upsert_memories"):
        assert moved("memory_task_duration_seconds_count", task=task, state="SUCCESS") == 2, task
    assert moved("memory_task_duration_seconds_count", task="memory.upsert_vectors", state="SUCCESS") >= 1
    assert moved("memory_llm_calls_total", purpose="extract") == 2
    assert moved("memory_llm_calls_total", purpose="refine") == 2
    assert moved("memory_llm_tokens_total", purpose="extract", direction="prompt") == 2 * 11
    assert moved("memory_llm_tokens_total", purpose="extract", direction="completion") == 2 * 7
    assert moved("memory_embedding_calls_total", model="multilingual-e5-small-q4", side="passage") >= 1
    assert moved("memory_writes_total", op="create") == 1
    assert moved("memory_writes_total", op="confirm") == 1


def test_worker_logs_are_json_with_ids_and_without_memory_text(observed_worker, db) -> None:
    """issue 15 item 3: every log line is one JSON object; the lines of a turn carry its task,
    message, user and memory ids and the stage durations; what the user said is in none of them."""
    worker, _ = observed_worker
    state = ingest(802, f"我最喜欢的点心是 {SECRET_FOOD}")
    assert state["status"] == "PROCESSED", state
    message_id = state["message_id"]
    ids = json.dumps(state["memory_ids"])
    _wait_for_log(worker.log_path, f'"stage": "upsert_vectors", "memory_ids": {ids}, "msg": "task succeeded"')
    raw = worker.log_path.read_text(encoding="utf-8")
    assert SECRET_FOOD not in raw
    assert "food-favourite_cake" not in raw  # keys are made from what users say, too
    records = _log_lines(worker.log_path)
    ours = [r for r in records if r.get("message_id") == message_id]
    assert {r["task"] for r in ours} >= {
        "memory.extract_candidates",
        "memory.refine_candidates",
        "memory.upsert_memories",
    }
    assert all(r["task_id"] and r["stage"] for r in ours)
    succeeded = [r for r in ours if r["msg"] == "task succeeded"]
    assert len(succeeded) == 3
    assert all(isinstance(r["duration_ms"], float) for r in succeeded)
    written = next(r for r in ours if r["msg"] == "memories written")
    assert written["user_id"] == 802
    assert written["memory_ids"] == state["memory_ids"]
    index_lines = [r for r in records if r.get("memory_ids") == state["memory_ids"] and r["msg"] == "task succeeded"]
    assert {r["task"] for r in index_lines} == {"memory.embed_memories", "memory.upsert_vectors"}
    received = [r for r in records if r["msg"] == "task received" and r["task_id"] == succeeded[0]["task_id"]]
    assert received and received[0]["task"] == succeeded[0]["task"]


def test_http_metrics_need_a_token_and_carry_the_pipeline_state(observed_worker, db) -> None:
    """issue 15 item 2: the HTTP service's /metrics (metrics token or admin token only) shows the
    backlog read at scrape time and moves with it: PENDING turns and their age, dead letters,
    queue depths, the breaker, and this process's retrieval latency."""
    app = make_app(MEMORY_METRICS_TOKEN=METRICS_TOKEN)
    reader = {"Authorization": f"Bearer {METRICS_TOKEN}"}
    with TestClient(app, base_url="http://127.0.0.1") as client:
        assert client.get("/metrics").status_code == 401
        assert client.get("/metrics", headers=CHAT).status_code == 401
        assert client.get("/metrics", headers=ADMIN).status_code == 200
        before = _samples(client.get("/metrics", headers=reader).text)
        waiting = record_turn(803, "我住在柏林")  # recorded, never enqueued: PENDING
        dead = record_turn(803, "我在学德语")
        with session_scope() as session:
            session.execute(update(Message).where(Message.id == dead).values(memory_status="DEAD"))
        find_memories(803, "我住在哪里", mode="dense")
        response = client.get("/metrics", headers=reader)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    after = _samples(response.text)
    assert waiting
    assert _value(after, "memory_messages", state="PENDING") == _value(before, "memory_messages", state="PENDING") + 1
    assert _value(after, "memory_dead_letters") == _value(before, "memory_dead_letters") + 1
    assert _value(after, "memory_oldest_pending_age_seconds") > 0
    for source in ("broker", "postgres", "breaker"):
        assert _value(after, "memory_scrape_source_up", source=source) == 1, source
    assert ("memory_queue_depth", (("queue", "llm"),)) in after
    assert _value(after, "memory_llm_breaker_state") == 0
    assert _value(after, "memory_retrieval_duration_seconds_count") == (
        _value(before, "memory_retrieval_duration_seconds_count") + 1
    )
