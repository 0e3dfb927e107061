"""The database clock: every writer agrees on it, whatever a worker's clock says."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

# session.info key of (transaction, its now()).
_NOW = "memory_tasks.db_now"
# Built once (issue 12); sent through the session, which flushes pending changes first as before.
_SELECT_NOW = select(func.now())


def db_now(session: Session) -> datetime:
    """The current time of the database server (timezone-aware), in this session's transaction.

    PostgreSQL's now() is the start time of the transaction, so it is asked once per
    transaction: a stage that stamps several rows sends one SELECT, not one per row (issue 12).
    """
    cached = session.info.get(_NOW)
    transaction = session.get_transaction()
    if cached is not None and transaction is not None and cached[0] is transaction:
        return cached[1]
    now = session.execute(_SELECT_NOW).scalar_one()
    session.info[_NOW] = (session.get_transaction(), now)
    return now
