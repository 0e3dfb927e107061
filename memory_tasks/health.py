"""`python -m memory_tasks health`: is the deployment working? Exit 0 or 1, JSON detail (issue 15 item 4).

Checks, each with a bounded time (a probe must never hang):

- workers: the workers answering a broadcast within the timeout, and for each queue the
  workers consuming it; failing when a queue has nobody (or, with `--worker`, when that
  worker does not answer);
- beat: the last time beat sent a scheduled job (`heartbeat.last_beat_tick`); failing when it
  is older than twice the shortest schedule interval plus BEAT_SLACK_SEC;
- postgres, the broker, milvus: reachable, and Milvus' collection loaded (absent is fine: the
  first write creates it), as `/readyz` checks them (`readiness.check_services`).

`--check` limits the run to some of them, so each Kubernetes probe asks only what its pod
answers for (README "Health checks").
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from config.celery import ALL_QUEUES
from config.settings import Settings
from memory_tasks.celery_app import app
from memory_tasks.heartbeat import last_beat_tick
from memory_tasks.readiness import broker_name, check_services
from schedules.beat import beat_schedule

CHECKS = ("workers", "beat", "postgres", "broker", "milvus")
DEFAULT_TIMEOUT_SEC = 3.0
# Beat may be late by a little more than one interval (a slow send, a busy machine).
BEAT_SLACK_SEC = 30.0


@dataclass(frozen=True)
class Result:
    """One check: passed or not, why not (`error`), and what was seen (`detail`)."""

    ok: bool
    error: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)


def check_workers(timeout: float, worker: str | None = None) -> Result:
    """The answering workers and the queues they consume; failing when a queue (or `worker`) has no answer."""
    destination = [worker] if worker else None
    replies = app.control.inspect(timeout=timeout, destination=destination).active_queues() or {}
    workers = {name: sorted(queue["name"] for queue in queues) for name, queues in replies.items()}
    detail: dict[str, Any] = {"workers": workers}
    if worker:
        return Result(
            ok=worker in workers, error=None if worker in workers else f"{worker} did not answer", detail=detail
        )
    orphaned = [queue for queue in ALL_QUEUES if not any(queue in queues for queues in workers.values())]
    detail["queues_without_worker"] = orphaned
    if not workers:
        return Result(ok=False, error=f"no worker answered within {timeout:g} s", detail=detail)
    return Result(
        ok=not orphaned, error=f"no worker consumes {', '.join(orphaned)}" if orphaned else None, detail=detail
    )


def beat_max_age(settings: Settings) -> float | None:
    """How old beat's last tick may be: twice its shortest interval plus the slack; None when nothing is scheduled."""
    intervals = [float(entry["schedule"]) for entry in beat_schedule(settings).values()]
    return 2 * min(intervals) + BEAT_SLACK_SEC if intervals else None


def check_beat(settings: Settings) -> Result:
    """Did beat send a job recently enough (`beat_max_age`)?"""
    max_age = beat_max_age(settings)
    if max_age is None:
        return Result(ok=True, detail={"schedule": "empty"})
    tick = last_beat_tick(settings)
    if tick is None:
        why = "the beat heartbeat needs a Redis broker" if broker_name(settings.CELERY_BROKER_URL) != "redis" else None
        return Result(ok=False, error=why or "beat never sent a job", detail={"max_age_sec": max_age})
    age = round(time.time() - tick, 1)
    detail = {"last_tick_age_sec": age, "max_age_sec": max_age}
    return Result(ok=age <= max_age, error=None if age <= max_age else f"beat silent for {age:g} s", detail=detail)


def check_backing_services(settings: Settings, wanted: set[str]) -> dict[str, Result]:
    """PostgreSQL, the broker and Milvus (reachable, collection loaded: `readiness`) among `wanted`."""
    results: dict[str, Result] = {}
    for name, check in check_services(settings).items():
        key = "broker" if name not in ("postgres", "milvus") else name
        if key in wanted:
            detail = {k: v for k, v in asdict(check).items() if k not in ("ok", "error")}
            results[key] = Result(ok=check.ok, error=check.error, detail={"kind": name, **detail})
    return results


def run_health(
    settings: Settings, checks: list[str] | None = None, timeout: float = DEFAULT_TIMEOUT_SEC, worker: str | None = None
) -> dict[str, Any]:
    """{"ok": every check passed, "checks": {name: {ok, error, detail}}} for `checks` (default all)."""
    wanted = set(checks or CHECKS)
    results: dict[str, Result] = {}
    if wanted & {"postgres", "broker", "milvus"}:
        results.update(check_backing_services(settings, wanted))
    if "workers" in wanted:
        results["workers"] = timed_result(lambda: check_workers(timeout, worker))
    if "beat" in wanted:
        results["beat"] = timed_result(lambda: check_beat(settings))
    ordered = {name: asdict(results[name]) for name in CHECKS if name in results}
    return {"ok": all(r.ok for r in results.values()), "checks": ordered}


def timed_result(check: Callable[[], Result]) -> Result:
    """`check()`, or a failed Result naming the exception type when it raised (its text may carry a URL)."""
    try:
        return check()
    except Exception as exc:  # noqa: BLE001 - any failure of a probe means "not healthy"; the type says which
        return Result(ok=False, error=type(exc).__name__)


def health_main(settings: Settings, checks: list[str] | None, timeout: float, worker: str | None) -> int:
    """Print the report as JSON; return 0 when healthy, 1 when not."""
    report = run_health(settings, checks, timeout, worker)
    print(json.dumps(report, ensure_ascii=False))
    return 0 if report["ok"] else 1
