"""A PostgreSQL session-level advisory lock held on a connection of its own (the one beat, issue 15 item 5).

The lock lives as long as the connection: a process that dies, or whose connection drops,
loses it at once and another holder may take it. Transaction-level locks (the per-user write
lock) would not do: the holder keeps it between transactions, for hours.
"""

from __future__ import annotations

import logging
from contextlib import suppress

from sqlalchemy import Connection, create_engine, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import NullPool

logger = logging.getLogger(__name__)

# First int of PostgreSQL's two-int advisory lock: the namespace of process-wide singletons
# (the per-user write lock is 7_240_001, idempotency keys 7_240_002).
SINGLETON_LOCK_NAMESPACE = 7_240_003
# A dead peer or a cut network is noticed within idle + interval * count seconds.
KEEPALIVES = {"keepalives": 1, "keepalives_idle": 10, "keepalives_interval": 5, "keepalives_count": 3}


class SingletonLock:
    """Holds (or tries to hold) advisory lock (SINGLETON_LOCK_NAMESPACE, `key`) in the database of `url`."""

    def __init__(self, url: str, key: int) -> None:
        self._engine = create_engine(url, poolclass=NullPool, connect_args={**KEEPALIVES, "connect_timeout": 5})
        self._key = key
        self._connection: Connection | None = None

    def held(self) -> bool:
        """Return True if this process holds the lock now: it is taken if free, and a connection
        that dropped since (the lock went with it) is replaced by a new attempt. Never raises on
        a database outage: it returns False, so the caller does nothing until the lock is back."""
        if self._connection is not None:
            try:
                self._connection.execute(text("SELECT 1"))
                return True
            except DBAPIError:
                logger.warning("singleton lock lost with its connection", extra={"lock_key": self._key})
                self.release()
        try:
            connection = self._engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        except DBAPIError:
            return False
        try:
            got = connection.scalar(
                text("SELECT pg_try_advisory_lock(:namespace, :key)"),
                {"namespace": SINGLETON_LOCK_NAMESPACE, "key": self._key},
            )
        except DBAPIError:
            connection.close()
            return False
        if not got:
            connection.close()
            return False
        self._connection = connection
        return True

    def release(self) -> None:
        """Give the lock up (closing its connection ends the session, and the lock with it)."""
        if self._connection is not None:
            with suppress(DBAPIError):  # already gone: so is the lock
                self._connection.close()
            self._connection = None
