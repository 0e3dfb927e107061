"""Claiming work for the beat rescans with FOR UPDATE SKIP LOCKED plus a lease (R-BEAT-4).

A claim locks candidate rows without waiting for rows another claimer holds, stamps them
with the claim time and commits. Until the lease runs out, later claims pass them over,
so two beats or overlapping runs never hand the same row out twice.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import and_, func, or_, select, update

from memory_tasks.db.clock import db_now
from memory_tasks.db.models import LongTermMemory, Message, MessageStatus, VectorStatus
from memory_tasks.db.session import session_scope


def claim_messages_to_rescan(
    *, limit: int, debounce_sec: float, lease_sec: float, max_attempts: int, backoff_sec: float
) -> list[int]:
    """Ids of user messages whose processing should be (re)started, now claimed.

    PENDING messages older than the debounce whose last claim (if any) has lapsed, and
    FAILED ones with attempts left whose backoff (backoff_sec * 2^(attempts-1)) is over.
    """
    with session_scope() as session:
        now = db_now(session)
        lease_over = or_(
            Message.memory_claimed_at.is_(None), Message.memory_claimed_at < now - timedelta(seconds=lease_sec)
        )
        backoff = func.make_interval(
            0, 0, 0, 0, 0, 0, backoff_sec * func.power(2, func.greatest(Message.memory_attempts - 1, 0))
        )
        stmt = (
            select(Message.id)
            .where(
                Message.role == "user",
                lease_over,
                or_(
                    and_(
                        Message.memory_status == MessageStatus.PENDING.value,
                        Message.created_at < now - timedelta(seconds=debounce_sec),
                    ),
                    and_(
                        Message.memory_status == MessageStatus.FAILED.value,
                        Message.memory_attempts < max_attempts,
                        Message.updated_at < now - backoff,
                    ),
                ),
            )
            .order_by(Message.id)
            .limit(limit)
            .with_for_update(skip_locked=True)
        )
        ids = list(session.scalars(stmt))
        if ids:
            session.execute(update(Message).where(Message.id.in_(ids)).values(memory_claimed_at=now))
        return ids


def claim_memories_to_sync(*, limit: int, lease_sec: float) -> list[int]:
    """Ids of DIRTY memories and FAILED ones whose backoff is over (oldest change first), now claimed.

    A FAILED row waits until its vector_next_attempt_at, so a row that keeps failing never
    holds the head of the queue; DEAD rows are never claimed.
    """
    with session_scope() as session:
        now = db_now(session)
        stmt = (
            select(LongTermMemory.id)
            .where(
                or_(
                    LongTermMemory.vector_status == VectorStatus.DIRTY.value,
                    and_(
                        LongTermMemory.vector_status == VectorStatus.FAILED.value,
                        or_(
                            LongTermMemory.vector_next_attempt_at.is_(None),
                            LongTermMemory.vector_next_attempt_at <= now,
                        ),
                    ),
                ),
                or_(
                    LongTermMemory.vector_claimed_at.is_(None),
                    LongTermMemory.vector_claimed_at < now - timedelta(seconds=lease_sec),
                ),
            )
            .order_by(LongTermMemory.updated_at)
            .limit(limit)
            .with_for_update(skip_locked=True)
        )
        ids = list(session.scalars(stmt))
        if ids:
            session.execute(update(LongTermMemory).where(LongTermMemory.id.in_(ids)).values(vector_claimed_at=now))
        return ids
