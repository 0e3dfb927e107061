"""Engine and session factory: one engine per process, one session per unit of work."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

from sqlalchemy import Engine, create_engine
from sqlalchemy.orm import Session, sessionmaker

from config.settings import get_settings


def session_timeouts(lock_timeout_sec: float, statement_timeout_sec: float) -> str:
    """libpq `options` setting lock_timeout and statement_timeout (in ms; 0 = no limit) for every session.

    A worker blocked on a lock or a hung statement then fails with an OperationalError
    (transient: the task retries) instead of outliving LONG_TERM_MEMORY_UPSERT_TIMEOUT_SEC.
    """
    return (
        f"-c lock_timeout={round(lock_timeout_sec * 1000)} -c statement_timeout={round(statement_timeout_sec * 1000)}"
    )


# libpq gives up on a connection not made within this many seconds: an address where something
# else listens (another service, a firewall that drops packets) would otherwise hang the CLI or a
# task until the OS's TCP timeout, minutes later; a failed connect is an outage like any other.
CONNECT_TIMEOUT_SEC = 10


@lru_cache(maxsize=1)
def get_engine() -> Engine:
    """The process-wide engine for DATABASE_URL (pre-ping: survives a PostgreSQL restart)."""
    settings = get_settings()
    options = session_timeouts(settings.MEMORY_DB_LOCK_TIMEOUT_SEC, settings.MEMORY_DB_STATEMENT_TIMEOUT_SEC)
    return create_engine(
        settings.DATABASE_URL,
        pool_pre_ping=True,
        pool_size=settings.MEMORY_DB_POOL_SIZE,
        max_overflow=settings.MEMORY_DB_POOL_OVERFLOW,
        connect_args={"options": options, "connect_timeout": CONNECT_TIMEOUT_SEC},
    )


@lru_cache(maxsize=1)
def _session_factory() -> sessionmaker[Session]:
    return sessionmaker(get_engine(), expire_on_commit=False)


@contextmanager
def session_scope() -> Iterator[Session]:
    """A session in a transaction: committed when the block ends, rolled back on error."""
    with _session_factory().begin() as session:
        yield session


def reset_engine() -> None:
    """Forget the engine (after settings change, e.g. in tests); its connections are closed."""
    if get_engine.cache_info().currsize:
        get_engine().dispose()
    get_engine.cache_clear()
    _session_factory.cache_clear()
