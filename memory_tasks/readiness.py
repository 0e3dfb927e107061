"""Is every backing service reachable? PostgreSQL, the broker and Milvus, each with its latency.

Used by the HTTP service's `/readyz`. Each check runs in its own thread and has
CHECK_TIMEOUT_SEC, so a black-holed host makes the probe slow by that much, never hang.
Errors are reported by exception type only: their text can carry hostnames or passwords.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import asdict, dataclass
from urllib.parse import urlsplit

from kombu import Connection
from sqlalchemy import text

from config.settings import Settings
from memory_tasks.db.session import get_engine
from memory_tasks.vectors.milvus_store import get_store

CHECK_TIMEOUT_SEC = 3.0
# One pool for the process: a check that outlives its timeout keeps its thread, not a new one per probe.
_checks = ThreadPoolExecutor(max_workers=6, thread_name_prefix="readiness")


@dataclass(frozen=True)
class Check:
    """One service: reachable or not, how long the round trip took, and the exception type if not."""

    ok: bool
    latency_ms: float | None = None
    error: str | None = None
    enabled: bool = True


def _postgres(settings: Settings) -> None:
    with get_engine().connect() as connection:
        connection.execute(text("SELECT 1"))


def _broker(settings: Settings) -> None:
    with Connection(settings.CELERY_BROKER_URL, connect_timeout=CHECK_TIMEOUT_SEC) as connection:
        connection.ensure_connection(max_retries=1, timeout=CHECK_TIMEOUT_SEC)


class CollectionNotLoaded(Exception):
    """The collection exists but is not loaded (after a Milvus restart, before `load_collection`): searches fail."""


def _milvus(settings: Settings) -> None:
    store = get_store()
    # Absent is ready (the first write creates the collection); present but not loaded is not.
    if store is not None and store.loaded(timeout=CHECK_TIMEOUT_SEC) is False:
        raise CollectionNotLoaded


def _timed(probe: Callable[[Settings], None], settings: Settings) -> Check:
    started = time.perf_counter()
    try:
        probe(settings)
    except Exception as exc:  # noqa: BLE001 - any failure means "not ready"; the type says which
        return Check(ok=False, latency_ms=_ms(started), error=type(exc).__name__)
    return Check(ok=True, latency_ms=_ms(started))


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)


def broker_name(url: str) -> str:
    """The broker's kind for the report: "redis" or "rabbitmq" (else the URL scheme)."""
    scheme = urlsplit(url).scheme
    return {"rediss": "redis", "amqp": "rabbitmq", "amqps": "rabbitmq", "pyamqp": "rabbitmq"}.get(scheme, scheme)


def check_services(settings: Settings) -> dict[str, Check]:
    """{"postgres": Check, <broker kind>: Check, "milvus": Check}; Milvus is `enabled=False` (and ok) when off."""
    probes: dict[str, Callable[[Settings], None]] = {
        "postgres": _postgres,
        broker_name(settings.CELERY_BROKER_URL): _broker,
    }
    if settings.MEMORY_MILVUS_ENABLED:
        probes["milvus"] = _milvus
    futures = {name: _checks.submit(_timed, probe, settings) for name, probe in probes.items()}
    deadline = time.monotonic() + CHECK_TIMEOUT_SEC
    results: dict[str, Check] = {}
    for name, future in futures.items():
        try:
            results[name] = future.result(timeout=max(0.0, deadline - time.monotonic()))
        except FutureTimeout:
            results[name] = Check(ok=False, latency_ms=CHECK_TIMEOUT_SEC * 1000, error="timeout")
    if not settings.MEMORY_MILVUS_ENABLED:
        results["milvus"] = Check(ok=True, enabled=False)
    return results


def readiness_json(checks: dict[str, Check]) -> dict[str, object]:
    """{"ready": all ok, "checks": {name: {ok, latency_ms, error, enabled}}}."""
    return {"ready": all(c.ok for c in checks.values()), "checks": {name: asdict(c) for name, c in checks.items()}}
