"""Claiming work for the beat rescans with FOR UPDATE SKIP LOCKED plus a lease (R-BEAT-4).

A claim locks candidate rows without waiting for rows another claimer holds, stamps them
with the claim time and commits. Until the lease runs out, later claims pass them over,
so two beats or overlapping runs never hand the same row out twice.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import timedelta

from sqlalchemy import and_, func, or_, select, true, update

from memory_tasks.db.clock import db_now
from memory_tasks.db.models import LongTermMemory, Message, MessageStatus, VectorStatus
from memory_tasks.db.session import session_scope


def claim_messages_to_rescan(
    *,
    limit: int,
    debounce_sec: float,
    lease_sec: float,
    max_attempts: int,
    backoff_sec: float,
    exclude_ids: Collection[int] = (),
) -> list[int]:
    """Ids of user messages whose processing should be (re)started, now claimed.

    PENDING messages older than the debounce whose last claim (if any) has lapsed, and
    FAILED ones with attempts left whose backoff (backoff_sec * 2^(attempts-1)) is over;
    never one of `exclude_ids` (messages whose chain is still queued). A PENDING message
    is claimed whatever its attempts: the stage that picks it up marks it DEAD when they
    are used up (`pipeline.begin_attempt`).
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
                Message.id.notin_(list(exclude_ids)) if exclude_ids else true(),
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
            # A claimed message's lease was over: whichever debounce run held it is gone.
            session.execute(
                update(Message).where(Message.id.in_(ids)).values(memory_claimed_at=now, memory_window_run=None)
            )
        return ids


def revive_messages(message_ids: Collection[int] | None) -> list[int]:
    """Give DEAD messages (and FAILED ones) another life: PENDING, attempts 0, claimed now.

    `message_ids` None means every DEAD message. Returns the ids revived (others are left
    as they are); the caller enqueues them.
    """
    states = (
        [MessageStatus.DEAD.value] if message_ids is None else [MessageStatus.DEAD.value, MessageStatus.FAILED.value]
    )
    with session_scope() as session:
        stmt = (
            update(Message)
            .where(Message.role == "user", Message.memory_status.in_(states))
            .values(
                memory_status=MessageStatus.PENDING.value,
                memory_attempts=0,
                memory_claimed_at=db_now(session),
                memory_window_run=None,
                updated_at=db_now(session),
            )
            .returning(Message.id)
        )
        if message_ids is not None:
            stmt = stmt.where(Message.id.in_(list(message_ids)))
        return sorted(session.scalars(stmt))


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
