"""The database clock: every writer agrees on it, whatever a worker's clock says."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session


def db_now(session: Session) -> datetime:
    """The current time of the database server (timezone-aware), in this session's transaction."""
    return session.execute(select(func.now())).scalar_one()
