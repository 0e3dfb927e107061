"""The failure model of the message pipeline, through real workers (docs/reliability.md).

An outage never uses up a message's life (R-FAIL-1), the shared breaker keeps an outage cheap,
a message failing on its own is a dead letter that can be requeued (R-FAIL-2), a run that
never reports back (hard time limit) still counts, the rescan never enqueues a queued chain
twice (R-BEAT-4), and recording a failure never fails (R-FAIL-4).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import psutil
import pytest
from sqlalchemy import text as sql
from sqlalchemy import update

from config.settings import get_settings
from memory_tasks import jobs, queued
from memory_tasks.api import enqueue_turn, list_memories, message_state, record_turn, wait_for_message
from memory_tasks.celery_app import app
from memory_tasks.db.models import Message
from memory_tasks.db.session import session_scope
from tests.conftest import PROJECT_ROOT
from tests.fake_openai import FakeOpenAI, Reply, as_json, error
from tests.fake_openai import text as reply_text

pytestmark = [pytest.mark.slow]

PETS = ["Bella", "Milo", "Luna", "Coco", "Rocky", "Daisy", "Oscar", "Ruby", "Teddy", "Nala", "Simba", "Pepper"]
_USER_MESSAGE = re.compile(r"<user_message>\s*(.*?)\s*</user_message>", re.DOTALL)


def _pet_model(body: dict) -> Reply:
    """Extract: one candidate naming the pet of each user message (a debounce window may hold
    several, issue 16); refine: keep everything."""
    if "decisions" in body["messages"][0]["content"]:
        return as_json({"decisions": []})
    names = [
        next(pet for pet in PETS if pet in message)
        for message in _USER_MESSAGE.findall(body["messages"][-1]["content"])
    ]
    candidates = [
        {
            "op": "upsert",
            "memory_type": "fact",
            "key": f"pet-{name.lower()}",
            "content": f"Has a pet called {name}",
            "importance": 3,
            "confidence": 0.9,
        }
        for name in names
    ]
    return as_json({"candidates": candidates})


@pytest.fixture
def failure_settings(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """Small limits for the worker and for this process (which runs the rescan), restored after."""
    env = {
        "LONG_TERM_MEMORY_MAX_ATTEMPTS": "2",
        "LONG_TERM_MEMORY_RETRY_BACKOFF_SEC": "1",
        # Longer than any run here: the lease must outlast the hard time limit (6 + 6 + 6 = 18 s);
        # the 6 s upsert budget leaves a loaded machine 12 s before the soft limit.
        "LONG_TERM_MEMORY_CLAIM_LEASE_SEC": "20",
        "LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC": "3",
        "LONG_TERM_MEMORY_UPSERT_TIMEOUT_SEC": "6",
        "LONG_TERM_MEMORY_LLM_BREAKER_THRESHOLD": "3",
        "LONG_TERM_MEMORY_LLM_BREAKER_OPEN_SEC": "2",
        "OPENAI_API_KEY": "sk-test-not-a-secret",
    }
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    yield env
    monkeypatch.undo()
    get_settings.cache_clear()


def _rescan_until(message_ids: list[int], wanted: tuple[str, ...], timeout: float) -> dict[int, dict]:
    """Run the rescan every second (what beat does) until every message is in a `wanted` state."""
    deadline = time.monotonic() + timeout
    while True:
        states = {message_id: message_state(message_id) for message_id in message_ids}
        if all(state["status"] in wanted for state in states.values()) or time.monotonic() > deadline:
            return states
        jobs.rescan_messages()
        time.sleep(1)


def test_an_llm_outage_during_a_burst_loses_nothing_and_costs_few_requests(
    start_worker, db, fake_openai: FakeOpenAI, failure_settings: dict[str, str]
) -> None:
    """R-FAIL-1, R-PIPE-10: 503s then 429s with Retry-After for ~12 s while 12 turns arrive.

    With 1 attempt per message, the old counting (every run and retry one attempt) left every
    turn that met the outage FAILED for good; now the outage costs no attempt, the breaker
    holds every worker back, and each turn is processed once the model is back.
    """
    fake_openai.default = _pet_model
    # One attempt each: a single outage retry counted against a message would kill it.
    start_worker({"OPENAI_BASE_URL": fake_openai.base_url, **failure_settings, "LONG_TERM_MEMORY_MAX_ATTEMPTS": "1"})
    fake_openai.outage(
        (9, error(503, "overloaded", type="server_error")),
        (3, error(429, "slow down", type="rate_limit_error", headers={"Retry-After": "1"})),
    )
    message_ids = []
    for index, pet in enumerate(PETS):
        message_ids.append(record_turn(700 + index % 3, f"I have a pet called {pet}"))
        enqueue_turn(message_ids[-1], countdown=0)
        time.sleep(0.2)
    states = _rescan_until(message_ids, ("PROCESSED",), timeout=150)
    assert fake_openai.outage_over and fake_openai.outage_requests >= 3  # the burst met the outage
    assert {s["status"] for s in states.values()} == {"PROCESSED"}, states
    for index, pet in enumerate(PETS):
        assert f"Has a pet called {pet}" in [m["content"] for m in list_memories(700 + index % 3)]
    # Without the breaker: 12 turns x 6 runs x 3 client attempts = 216 refused requests.
    assert fake_openai.outage_requests <= 40, fake_openai.outage_requests


def test_a_message_failing_on_its_own_ends_dead_and_is_requeued_from_the_cli(
    start_worker, db, fake_openai: FakeOpenAI, failure_settings: dict[str, str]
) -> None:
    """R-FAIL-2, R-OPS-3: unusable output every time -> DEAD after 2 attempts with its cause,
    listed by `status`; `requeue --message` and `--all-dead` give it another life."""
    fake_openai.default = lambda body: reply_text("no JSON \x00 at all \ud800")
    start_worker({"OPENAI_BASE_URL": fake_openai.base_url, **failure_settings})
    first, second = record_turn(710, "I have a pet called Bella"), record_turn(711, "I have a pet called Milo")
    for message_id in (first, second):
        enqueue_turn(message_id, countdown=0)
    states = _rescan_until([first, second], ("DEAD",), timeout=60)
    for state in states.values():
        assert state["status"] == "DEAD" and state["attempts"] == 2, state
        assert "LLMOutputError" in state["error"] and "\x00" not in state["error"]

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "memory_tasks", *args],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
            check=False,
        )

    status = json.loads(cli("status", "--json").stdout)
    assert status["messages"]["DEAD"] == 2
    assert status["dead_letters"]["count"] == 2
    assert {letter["id"] for letter in status["dead_letters"]["newest"]} == {first, second}
    assert all("LLMOutputError" in letter["error"] for letter in status["dead_letters"]["newest"])
    assert "dead letters: 2" in cli("status").stdout

    fake_openai.default = _pet_model  # the model is fixed
    done = cli("requeue", "--message", str(first))
    assert done.returncode == 0 and json.loads(done.stdout) == {"requeued": [first]}, done.stderr
    assert wait_for_message(first, 60)["status"] == "PROCESSED"
    assert message_state(second)["status"] == "DEAD"
    done = cli("requeue", "--all-dead")
    assert json.loads(done.stdout) == {"requeued": [second]}, done.stderr
    assert wait_for_message(second, 60)["status"] == "PROCESSED"
    assert [m["content"] for m in list_memories(711)] == ["Has a pet called Milo"]
    refused = cli("requeue", "--message", str(first))  # PROCESSED: nothing to revive
    assert refused.returncode == 1 and "not a dead" in refused.stderr


def test_a_message_that_kills_its_worker_every_time_is_dead_after_its_attempts(
    start_worker, db, fake_openai: FakeOpenAI, failure_settings: dict[str, str]
) -> None:
    """R-FAIL-2: a run whose process dies (a crash, or the hard time limit, which SIGKILLs the
    child as well) never reports back, yet the attempt counted at pick-up stays: after
    LONG_TERM_MEMORY_MAX_ATTEMPTS runs the message is DEAD instead of looping forever."""
    fake_openai.default = lambda body: reply_text('{"candidates": []}', delay=30)
    worker = start_worker(
        {"OPENAI_BASE_URL": fake_openai.base_url, **failure_settings, "LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC": "4"},
        concurrency=1,
    )
    message_id = record_turn(720, "I have a pet called Luna")
    enqueue_turn(message_id, countdown=0)
    attempts = int(failure_settings["LONG_TERM_MEMORY_MAX_ATTEMPTS"])
    for run in range(1, attempts + 1):
        deadline = time.monotonic() + 30
        while len(fake_openai.requests) < run and time.monotonic() < deadline:
            jobs.rescan_messages()
            time.sleep(0.2)
        assert len(fake_openai.requests) == run, "the message was not run again"
        for child in psutil.Process(worker.process.pid).children(recursive=True):
            os.kill(child.pid, signal.SIGKILL)  # the run dies mid-call, every time
    state = _rescan_until([message_id], ("DEAD",), timeout=60)[message_id]
    assert state["status"] == "DEAD", state
    assert state["attempts"] == attempts and "did not finish" in state["error"]
    assert len(fake_openai.requests) == attempts  # no run after the last allowed one


def test_the_rescan_does_not_enqueue_a_chain_still_waiting_in_the_queue(db, failure_settings) -> None:
    """R-BEAT-4: no worker consumes, the lease is long over, yet the queued chain is not sent again;
    once the queue entry is gone (Redis lost it, or it is older than the queue bound) it is."""
    settings = get_settings()
    message_id = record_turn(730, "I have a pet called Coco")
    try:
        enqueue_turn(message_id, countdown=0)  # sits in the llm queue: no worker runs
        with session_scope() as session:
            session.execute(
                update(Message)
                .where(Message.id == message_id)
                .values(memory_claimed_at=sql("now() - interval '1 hour'"))
            )
        assert message_id in queued.queued_message_ids(settings)
        assert jobs.rescan_messages() == 0
        queued.clear_queued(settings, message_id)  # as after a Redis that lost its data
        assert jobs.rescan_messages() == 1
        assert jobs.rescan_messages() == 0  # queued again by the rescan itself
    finally:
        app.control.purge()
        queued.clear_queued(settings, message_id)


def test_a_queued_chain_older_than_the_queue_bound_counts_as_lost(db, failure_settings, monkeypatch) -> None:
    monkeypatch.setenv("LONG_TERM_MEMORY_QUEUE_MAX_AGE_SEC", "0.5")
    get_settings.cache_clear()
    settings = get_settings()
    message_id = record_turn(731, "I have a pet called Rocky")
    try:
        enqueue_turn(message_id, countdown=0)
        with session_scope() as session:
            session.execute(update(Message).where(Message.id == message_id).values(memory_claimed_at=None))
        assert jobs.rescan_messages() == 0
        time.sleep(0.6)
        assert jobs.rescan_messages() == 1
    finally:
        app.control.purge()
        queued.clear_queued(settings, message_id)
