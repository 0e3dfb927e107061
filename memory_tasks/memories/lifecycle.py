"""TTL expiry of long-term memories (SPEC R-LIFE-1, R-BEAT-3).

A memory lives until `expires_at` (time of its last write or confirmation + its ttl_days,
or LONG_TERM_MEMORY_DEFAULT_TTL_DAYS). Reads never wait for this module: `active_memories`
already hides rows whose `expires_at` has passed. The sweep here only finds and claims
the due rows; `store.expire` makes expiry durable: the row is deactivated, marked DIRTY so
index sync removes its vector, its revision bumped, and a history row with source=expiry
records what was lost.

Core memories (R-READ-6: standing constraints and safety facts, `extraction/core.py`) never
expire: an allergy said once a year ago must still reach every reply. The sweep skips them
and every read of live memories counts them live whatever their `expires_at`.

Plain functions, no Celery. Every function takes `now` so tests can drive the clock;
by default the database clock decides.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from memory_tasks.db.clock import db_now
from memory_tasks.db.models import LongTermMemory
from memory_tasks.db.session import session_scope
from memory_tasks.memories.store import expire


def _expired_rows(now: datetime) -> Select:
    """Active rows, not core, whose lifetime ended at or before `now`, oldest expiry first (the ix_ltm_expires index)."""
    return (
        select(
            LongTermMemory.id,
            LongTermMemory.user_id,
            LongTermMemory.memory_key,
            LongTermMemory.content,
            LongTermMemory.expires_at,
        )
        .where(
            LongTermMemory.is_active.is_(True),
            LongTermMemory.expires_at.is_not(None),
            LongTermMemory.expires_at <= now,
            LongTermMemory.is_core.is_(False),
        )
        .order_by(LongTermMemory.expires_at, LongTermMemory.id)
    )


def expire_batch(limit: int, now: datetime | None = None) -> list[int]:
    """Expire at most `limit` due memories of any users in one transaction.

    Rows are claimed with FOR UPDATE SKIP LOCKED, so overlapping sweeps split the work
    and a row a writer holds (say, being confirmed, which pushes its expiry forward) is
    left for a later sweep. Returns the ids expired (their vectors must be removed); an
    empty list means nothing was due. `now` defaults to the database clock.
    """
    with session_scope() as session:
        now = now or db_now(session)
        rows = session.execute(_expired_rows(now).limit(limit).with_for_update(skip_locked=True)).all()
        return expire(session, rows)


def expire_user_memories(session: Session, user_id: int, memory_ids: Sequence[int], now: datetime) -> list[int]:
    """Expire those of `memory_ids` that belong to `user_id` and are still active and due at `now`.

    For consolidation, which holds the user's write lock in `session`. Returns the ids
    expired here (rows a concurrent sweep holds or already expired are not among them).
    """
    if not memory_ids:
        return []
    stmt = _expired_rows(now).where(LongTermMemory.user_id == user_id, LongTermMemory.id.in_(list(memory_ids)))
    rows = session.execute(stmt.with_for_update(skip_locked=True)).all()
    return expire(session, rows)
