"""Engine and session factory: one engine per process, one session per unit of work."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

from sqlalchemy import Engine, create_engine
from sqlalchemy.orm import Session, sessionmaker

from config.settings import get_settings


@lru_cache(maxsize=1)
def get_engine() -> Engine:
    """The process-wide engine for DATABASE_URL (pre-ping: survives a PostgreSQL restart)."""
    return create_engine(get_settings().DATABASE_URL, pool_pre_ping=True, pool_size=5, max_overflow=5)


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
