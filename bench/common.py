"""What the benchmarks share: switching settings at run time, percentiles, LoCoMo dialog ids, the machine,
and replacing one bench's section of a shared Markdown report."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import make_url

from config.settings import get_settings
from memory_tasks.db.admin import execute_autocommit
from memory_tasks.db.migrate import upgrade_to_head
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


@contextmanager
def throwaway_database() -> Iterator[str]:
    """A new, migrated database on DATABASE_URL's server (else 127.0.0.1:5432), the settings pointed at it;
    dropped on exit. Yields its URL."""
    base = make_url(os.environ.get("DATABASE_URL") or "postgresql+psycopg2://postgres@127.0.0.1:5432/postgres")
    name = f"mt_bench_{secrets.token_hex(4)}"
    admin_dsn = base.set(drivername="postgresql", database="postgres").render_as_string(hide_password=False)
    execute_autocommit(admin_dsn, f'CREATE DATABASE "{name}"')
    url = base.set(database=name).render_as_string(hide_password=False)
    try:
        configure(DATABASE_URL=url)
        upgrade_to_head()
        yield url
    finally:
        reset_engine()
        execute_autocommit(admin_dsn, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


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


def memory_gib() -> float:
    """The machine's RAM in GiB."""
    with open("/proc/meminfo") as meminfo:
        return int(meminfo.readline().split()[1]) / 1024**2


def postgres_version() -> str:
    """The version of the PostgreSQL server of DATABASE_URL ("16.2")."""
    with session_scope() as session:
        return session.execute(text("SHOW server_version")).scalar_one().split()[0]


def replace_section(document: str, section: str, title: str) -> str:
    """`document` with the section headed `title` replaced by `section`, or `section` appended.

    The section runs from the first heading line that is `title` to the next "# " or "## "
    heading; everything else of the document stays as it was. A `title` ending in a space is
    the start of a heading whose end varies ("## Speed at "): any heading line starting with it
    matches. Otherwise only the whole line does, so that a hand-written section whose heading
    starts with a generated one's ("## The encoder kernel in the pipeline") is never replaced.
    """
    lines = document.splitlines(keepends=True)

    def heads_the_section(line: str) -> bool:
        return line.startswith(title) if title.endswith(" ") else line.rstrip("\n") == title

    start = next((i for i, line in enumerate(lines) if heads_the_section(line)), None)
    if start is None:
        return document.rstrip("\n") + "\n\n" + section if document.strip() else section
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith(("# ", "## "))), len(lines))
    return "".join(lines[:start]) + section + ("\n" if end < len(lines) else "") + "".join(lines[end:])


def write_section(output: Path, section: str, title: str) -> None:
    """Replace (or append) one section of the Markdown file `output` (`replace_section`), keeping the rest."""
    document = output.read_text(encoding="utf-8") if output.exists() else ""
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(replace_section(document, section, title), encoding="utf-8")
