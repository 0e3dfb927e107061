"""A circuit breaker for the chat model, shared by every worker through the broker's Redis.

Closed: calls go through; each transient failure (429, 5xx, time-out, no connection) adds
to a counter that any success resets. After `LONG_TERM_MEMORY_LLM_BREAKER_THRESHOLD`
consecutive failures it opens for `LONG_TERM_MEMORY_LLM_BREAKER_OPEN_SEC`: nobody calls the
model, callers get `BreakerOpen` with the time left and retry later. Then it is half-open:
one caller at a time (a SET NX lock) sends a probe request; a success closes the breaker,
a failure opens it again. An outage so costs about one request per open period instead of
requests × messages × retries.

If Redis cannot be reached the breaker lets every call through (the broker being down
stops the pipeline anyway); it never becomes a reason of its own for a call to fail.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import redis.exceptions

from config.settings import Settings
from memory_tasks import metrics
from memory_tasks.broker_redis import shared_key, shared_redis
from memory_tasks.errors import TransientError

logger = logging.getLogger(__name__)

NAME = "llm_breaker"
# A probe lock outlives a probe that crashed for at most this long.
PROBE_LOCK_MIN_SEC = 5.0


class BreakerOpen(TransientError):
    """The chat model is failing for everyone; `retry_after` says when to try again (seconds)."""

    def __init__(self, message: str, *, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after

    def __reduce__(self):  # Celery pickles task exceptions; keep the hint
        return _rebuild, (str(self), self.retry_after)


def _rebuild(message: str, retry_after: float) -> BreakerOpen:
    return BreakerOpen(message, retry_after=retry_after)


@dataclass(frozen=True)
class Permit:
    """Leave to send one request; `probe` is True when it is the half-open breaker's one probe."""

    probe: bool


class Breaker:
    """The shared breaker of one dependency (keys `<prefix>memory_tasks:<name>:…`)."""

    def __init__(self, settings: Settings, name: str = NAME, probe_timeout_sec: float = 60.0) -> None:
        self.threshold = settings.LONG_TERM_MEMORY_LLM_BREAKER_THRESHOLD
        self.open_sec = settings.LONG_TERM_MEMORY_LLM_BREAKER_OPEN_SEC
        self.probe_lock_sec = max(PROBE_LOCK_MIN_SEC, probe_timeout_sec)
        self._redis = shared_redis(settings)
        base = shared_key(settings, name)
        self._failures = f"{base}:failures"
        self._open = f"{base}:open"
        self._probe = f"{base}:probe"

    def acquire(self) -> Permit:
        """A permit to call the dependency; raises BreakerOpen while it is open or another probe runs."""
        if self._redis is None:
            return Permit(probe=False)
        try:
            failures = int(self._redis.get(self._failures) or 0)
            if failures < self.threshold:
                return Permit(probe=False)
            open_ms = self._redis.pttl(self._open)
            if open_ms > 0:
                raise BreakerOpen("chat model breaker is open", retry_after=open_ms / 1000)
            if self._redis.set(self._probe, "1", nx=True, px=int(self.probe_lock_sec * 1000)):
                return Permit(probe=True)
        except redis.exceptions.RedisError:
            logger.warning("breaker state unreadable; letting the call through", exc_info=True)
            return Permit(probe=False)
        raise BreakerOpen("chat model breaker is half-open and probing", retry_after=self.open_sec)

    def record_failure(self, permit: Permit) -> None:
        """A transient failure: count it; at the threshold (or a failed probe) the breaker opens."""
        if self._redis is None:
            return
        try:
            pipe = self._redis.pipeline()
            pipe.incr(self._failures)
            # Failures far apart are not an outage: the count is forgotten after a quiet while.
            pipe.expire(self._failures, int(max(60.0, 10 * self.open_sec)))
            failures = pipe.execute()[0]
            # Already open: its time is not extended by failures of calls sent before it opened.
            if failures >= self.threshold and self._redis.set(self._open, "1", nx=True, px=int(self.open_sec * 1000)):
                logger.warning("chat model breaker opened", extra={"failures": failures, "open_sec": self.open_sec})
                metrics.BREAKER_OPENED.inc()
            if permit.probe:
                self._redis.delete(self._probe)
        except redis.exceptions.RedisError:
            logger.warning("breaker state not updated", exc_info=True)

    def record_success(self, permit: Permit) -> None:
        """The dependency answered: the breaker closes and the failure count starts again."""
        if permit.probe:
            logger.info("chat model breaker closed after a successful probe")
        self.reset()

    def state(self) -> tuple[int, int]:
        """(metrics.BREAKER_CLOSED, _HALF_OPEN or _OPEN; consecutive failures counted); closed without Redis.

        Raises what Redis raises (the metrics scrape reports the breaker unreadable).
        """
        if self._redis is None:
            return metrics.BREAKER_CLOSED, 0
        failures = int(self._redis.get(self._failures) or 0)
        if failures < self.threshold:
            return metrics.BREAKER_CLOSED, failures
        return (metrics.BREAKER_OPEN if self._redis.pttl(self._open) > 0 else metrics.BREAKER_HALF_OPEN), failures

    def reset(self) -> None:
        """Closed, with no failure counted (also what an operator or a test may do by hand)."""
        if self._redis is None:
            return
        try:
            self._redis.delete(self._failures, self._open, self._probe)
        except redis.exceptions.RedisError:
            logger.warning("breaker state not updated", exc_info=True)
