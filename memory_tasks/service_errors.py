"""One line for a backing service that is down or not set up: which service, its address, what to do.

The CLI prints `service_failure(exc, settings)` instead of a traceback (issue 17 item 5): PostgreSQL
unreachable, a database without the schema (or an older one), the broker unreachable, Milvus
unreachable. Addresses are shown without passwords (`redaction.redact`); a driver's message is cut to
its first line and scrubbed of the password too.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

from kombu.exceptions import OperationalError as BrokerError
from pymilvus.exceptions import MilvusException
from redis.exceptions import ConnectionError as RedisConnectionError
from sqlalchemy.exc import DBAPIError, OperationalError

from config.settings import Settings
from memory_tasks.redaction import redact
from memory_tasks.vectors.milvus_store import VectorStoreError

# PostgreSQL error codes of a database that lacks (part of) the schema.
UNDEFINED_TABLE = "42P01"
UNDEFINED_COLUMN = "42703"
START_HINT = "start the stack with `make up`"
INIT_HINT = "run `python -m memory_tasks init-db`"


def using_line(settings: Settings, env_file: Path | None) -> str:
    """Which database, broker (and Milvus) this process uses, and where the settings came from."""
    source = f"settings from {env_file}" if env_file else "no .env found: environment and defaults only"
    vectors = f", Milvus {redact(settings.MEMORY_MILVUS_URI)}" if settings.MEMORY_MILVUS_ENABLED else ""
    database = redact(settings.DATABASE_URL.replace("postgresql+psycopg2://", "postgresql://", 1))
    return f"using database {database}, broker {redact(settings.CELERY_BROKER_URL)}{vectors} ({source})"


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """`exc` and the exceptions it was raised from or during, innermost last."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _first_line(exc: BaseException, secrets: tuple[str, ...]) -> str:
    line = (str(getattr(exc, "orig", None) or exc).strip().splitlines() or [type(exc).__name__])[0]
    for secret in secrets:
        if secret:
            line = line.replace(secret, "***")
    return line[:200]


def service_failure(exc: BaseException, settings: Settings) -> str | None:
    """The one line to print for `exc` when a backing service caused it, or None when none did."""
    database = redact(settings.DATABASE_URL.replace("postgresql+psycopg2://", "postgresql://", 1))
    broker = redact(settings.CELERY_BROKER_URL)
    secrets = tuple(
        password
        for password in (urlsplit(settings.DATABASE_URL).password, urlsplit(settings.CELERY_BROKER_URL).password)
        if password
    )
    for error in _chain(exc):
        if isinstance(error, DBAPIError):
            code = getattr(error.orig, "pgcode", None)
            if code == UNDEFINED_TABLE:
                return f"the database {database} has no memory_tasks schema: {INIT_HINT}"
            if code == UNDEFINED_COLUMN:
                return f"the database {database} has an older memory_tasks schema: {INIT_HINT}"
            if isinstance(error, OperationalError):
                detail = _first_line(error, secrets)
                if code is None:  # no answer of the server: the connection itself failed
                    return (
                        f"PostgreSQL at {database}: cannot connect ({detail}): {START_HINT}, "
                        "or point DATABASE_URL at your server"
                    )
                return f"PostgreSQL at {database}: {detail}"
        if isinstance(error, BrokerError | RedisConnectionError):
            detail = _first_line(error, secrets)
            return (
                f"the broker (Redis) at {broker}: cannot connect ({detail}): {START_HINT}, "
                "or point CELERY_BROKER_URL at your broker"
            )
        if isinstance(error, MilvusException | VectorStoreError):
            uri = redact(settings.MEMORY_MILVUS_URI)
            detail = _first_line(error, secrets)
            return (
                f"{detail if uri in detail else f'Milvus at {uri}: {detail}'}: {START_HINT}, "
                "or point MEMORY_MILVUS_URI at your server (MEMORY_MILVUS_ENABLED=false runs without vectors)"
            )
    return None
