"""What the benchmarks share: switching settings at run time, percentiles, LoCoMo dialog ids, the machine."""

from __future__ import annotations

import os
from collections.abc import Sequence

from sqlalchemy import text

from config.settings import get_settings
from memory_tasks.db.session import reset_engine, session_scope
from memory_tasks.vectors.milvus_store import get_store


def configure(**env: str | None) -> None:
    """Set (None: unset) environment variables and drop the cached objects built from the old settings."""
    if not env:
        return
    for name, value in env.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    get_settings.cache_clear()
    get_store.cache_clear()
    if "DATABASE_URL" in env:
        reset_engine()


def percentiles(samples_ms: Sequence[float]) -> dict[str, float]:
    """{"p50", "p95", "p99", "n"} of a list of latencies in milliseconds."""
    ordered = sorted(samples_ms)
    pick = lambda q: ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]  # noqa: E731
    return {"p50": pick(0.50), "p95": pick(0.95), "p99": pick(0.99), "n": len(ordered)}


def dialog_ids(raw: object) -> set[str]:
    """Dialog ids of a LoCoMo evidence entry ("D1:3", sometimes "D1:3; D1:4" in one string)."""
    return {
        part.strip()
        for item in (raw if isinstance(raw, list) else [raw])
        for part in str(item).replace(",", ";").split(";")
        if part.strip()
    }


def replace_section(document: str, title: str, section: str) -> str:
    """`document` with its section `title` (a '## ' heading line, up to the next one) replaced by `section`, or appended."""
    lines = document.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.rstrip() == title), None)
    if start is None:
        return document.rstrip("\n") + "\n\n" + section
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return "".join(lines[:start]) + section + ("\n" if end < len(lines) else "") + "".join(lines[end:])


def memory_gib() -> float:
    """The machine's RAM in GiB."""
    with open("/proc/meminfo") as meminfo:
        return int(meminfo.readline().split()[1]) / 1024**2


def postgres_version() -> str:
    """The version of the PostgreSQL server of DATABASE_URL ("16.2")."""
    with session_scope() as session:
        return session.execute(text("SHOW server_version")).scalar_one().split()[0]
