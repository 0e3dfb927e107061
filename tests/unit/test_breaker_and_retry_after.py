"""The pieces of the failure model that need no worker: the shared LLM breaker (against the real
Redis), Retry-After, and the stored error text (R-FAIL-1, R-FAIL-4, R-PIPE-10)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest
from sqlalchemy.exc import OperationalError

from config.settings import Settings
from memory_tasks.breaker import Breaker, BreakerOpen, Permit
from memory_tasks.llm import LLMTransientError, chat_json, retry_after_seconds
from memory_tasks.pipeline import MAX_STORED_ERROR_CHARS, storable_error
from memory_tasks.tasks.base import MAX_RETRY_AFTER_SEC, MemoryTask
from memory_tasks.tasks.pipeline import refine_candidates
from tests.fake_openai import FakeOpenAI, error, text

THRESHOLD = 3
OPEN_SEC = 0.5
CLOSED = Permit(probe=False)


def breaker_settings(**overrides: object) -> Settings:
    values = {"LONG_TERM_MEMORY_LLM_BREAKER_THRESHOLD": THRESHOLD, "LONG_TERM_MEMORY_LLM_BREAKER_OPEN_SEC": OPEN_SEC}
    return Settings(_env_file=None, **{**values, **overrides})


@pytest.fixture
def breaker() -> Iterator[Breaker]:
    """A breaker of its own name under this run's key prefix, closed before and after the test."""
    shared = Breaker(breaker_settings(), name=f"test_breaker_{time.monotonic_ns()}", probe_timeout_sec=5)
    shared.reset()
    yield shared
    shared.reset()


def test_breaker_opens_after_the_threshold_of_consecutive_failures(breaker: Breaker) -> None:
    """R-FAIL-1: N consecutive transient failures open it; while open nobody gets a permit."""
    for _ in range(THRESHOLD - 1):
        breaker.record_failure(breaker.acquire())
    assert breaker.acquire() == CLOSED  # one short of the threshold: still closed
    breaker.record_failure(CLOSED)
    with pytest.raises(BreakerOpen) as caught:
        breaker.acquire()
    assert 0 < caught.value.retry_after <= OPEN_SEC


def test_a_success_resets_the_count_of_consecutive_failures(breaker: Breaker) -> None:
    for _ in range(THRESHOLD - 1):
        breaker.record_failure(CLOSED)
    breaker.record_success(CLOSED)
    for _ in range(THRESHOLD - 1):
        breaker.record_failure(CLOSED)
    assert breaker.acquire() == CLOSED


def test_half_open_breaker_lets_exactly_one_probe_through_and_its_success_closes_it(breaker: Breaker) -> None:
    """R-FAIL-1: after the open time one caller probes (SET NX); the others still wait."""
    for _ in range(THRESHOLD):
        breaker.record_failure(CLOSED)
    time.sleep(OPEN_SEC + 0.1)
    permits: list[Permit] = []
    refused: list[BreakerOpen] = []

    def contend() -> None:
        try:
            permits.append(breaker.acquire())
        except BreakerOpen as exc:
            refused.append(exc)

    threads = [threading.Thread(target=contend) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert permits == [Permit(probe=True)] and len(refused) == 7
    breaker.record_success(permits[0])
    assert breaker.acquire() == CLOSED


def test_a_failed_probe_opens_the_breaker_again(breaker: Breaker) -> None:
    for _ in range(THRESHOLD):
        breaker.record_failure(CLOSED)
    time.sleep(OPEN_SEC + 0.1)
    probe = breaker.acquire()
    assert probe.probe
    breaker.record_failure(probe)
    with pytest.raises(BreakerOpen):
        breaker.acquire()
    time.sleep(OPEN_SEC + 0.1)
    assert breaker.acquire().probe  # the failed probe released its lock


def test_breakers_of_other_deployments_are_apart(breaker: Breaker) -> None:
    """The key prefix (CELERY_REDIS_KEY_PREFIX) keeps test runs and deployments from sharing state."""
    for _ in range(THRESHOLD):
        breaker.record_failure(CLOSED)
    other = Breaker(breaker_settings(CELERY_REDIS_KEY_PREFIX="another_deployment:"), name="x")
    assert other._open != breaker._open and other.acquire() == CLOSED


def test_without_a_redis_broker_the_breaker_lets_every_call_through() -> None:
    unshared = Breaker(breaker_settings(CELERY_BROKER_URL="memory://"))
    for _ in range(THRESHOLD * 2):
        unshared.record_failure(CLOSED)
    assert unshared.acquire() == CLOSED


def test_an_open_breaker_stops_chat_calls_before_any_request(fake_openai: FakeOpenAI) -> None:
    """R-FAIL-1: the client's own retries stop too once the shared breaker opens: few requests."""
    settings = breaker_settings(OPENAI_BASE_URL=fake_openai.base_url, OPENAI_API_KEY="sk-test-not-a-secret")
    shared = Breaker(settings)
    shared.reset()
    fake_openai.default = lambda body: error(503, "overloaded", type="server_error")
    try:
        for _ in range(5):
            with pytest.raises(LLMTransientError):
                chat_json([{"role": "user", "content": "hi"}], timeout=2, purpose="test", settings=settings)
        assert len(fake_openai.requests) == THRESHOLD  # then nothing was sent
        with pytest.raises(LLMTransientError) as caught:
            chat_json([{"role": "user", "content": "hi"}], timeout=2, purpose="test", settings=settings)
        assert caught.value.retry_after is not None and caught.value.retry_after <= OPEN_SEC
        time.sleep(OPEN_SEC + 0.1)
        fake_openai.default = lambda body: text('{"candidates": []}')
        chat_json([{"role": "user", "content": "hi"}], timeout=2, purpose="test", settings=settings)  # the probe
        assert len(fake_openai.requests) == THRESHOLD + 1
        assert shared.acquire() == CLOSED
    finally:
        shared.reset()


@pytest.mark.parametrize(
    ("header", "expected"),
    [("7", 7.0), ("0.5", 0.5), ("-3", 0.0), ("soon", None), ("", None)],
)
def test_retry_after_in_seconds(header: str, expected: float | None) -> None:
    """R-PIPE-10: Retry-After as delay-seconds; unreadable values are ignored."""
    assert retry_after_seconds(header) == expected


def test_retry_after_as_an_http_date() -> None:
    """R-PIPE-10: Retry-After as an HTTP date means the seconds until then (never negative)."""
    later = format_datetime(datetime.now(UTC) + timedelta(seconds=120), usegmt=True)
    assert 100 < retry_after_seconds(later) <= 120
    earlier = format_datetime(datetime.now(UTC) - timedelta(seconds=120), usegmt=True)
    assert retry_after_seconds(earlier) == 0.0


def test_a_retry_waits_at_least_the_servers_retry_after(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-PIPE-10: the task's countdown is the hint when it exceeds the backoff, capped."""
    seen: list[float | None] = []
    monkeypatch.setattr("celery.app.task.Task.retry", lambda self, *a, **kw: seen.append(a[5]))
    task = MemoryTask()
    task.retry(exc=LLMTransientError("429", retry_after=40.0), countdown=2.0)
    task.retry(exc=LLMTransientError("429", retry_after=1.0), countdown=8.0)
    task.retry(exc=LLMTransientError("429", retry_after=1e9), countdown=2.0)
    task.retry(exc=ConnectionError("down"), countdown=3.0)
    assert seen == [40.0, 8.0, MAX_RETRY_AFTER_SEC, 3.0]


def test_a_database_blip_before_a_stage_is_retried_with_the_stages_backoff_not_celerys_180_s(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """R-PIPE-10: when counting the attempt fails on a transient error (a deadlock, a lost
    connection), the stage is retried after the same capped exponential backoff as an error of
    its run, not after Celery's default_retry_delay."""
    seen: list[float | None] = []
    monkeypatch.setattr("celery.app.task.Task.retry", lambda self, *a, **kw: seen.append(a[5]))
    monkeypatch.setattr("memory_tasks.queued.clear_queued", lambda settings, *message_ids: None)

    def deadlock(message_id: int, max_attempts: int, window: object) -> bool:
        raise OperationalError("UPDATE messages", {}, Exception("deadlock detected"))

    monkeypatch.setattr("memory_tasks.pipeline.begin_attempt", deadlock)
    for retries in (0, 3, 12):
        refine_candidates.push_request(retries=retries)
        try:
            with pytest.raises(TypeError):  # the patched retry returns None, which `raise` refuses
                refine_candidates({"message_id": 42})
        finally:
            refine_candidates.pop_request()
    assert len(seen) == 3
    assert all(countdown is not None and 0 <= countdown <= MemoryTask.retry_backoff_max for countdown in seen)


def test_stored_error_text_has_no_nul_no_lone_surrogate_and_is_bounded() -> None:
    """R-FAIL-4: whatever the model wrote, recording the failure can be stored by PostgreSQL."""
    stored = storable_error("bad output\x00 here \ud800 and \udfff" + "x" * 10_000)
    assert "\x00" not in stored and len(stored) <= MAX_STORED_ERROR_CHARS
    stored.encode("utf-8")  # no lone surrogate left: strict UTF-8 works
    assert stored.startswith("bad output\\0 here \\ud800 and \\udfff")
    assert storable_error("plain 中文") == "plain 中文"
