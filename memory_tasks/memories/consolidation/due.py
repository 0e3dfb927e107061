"""Who is due for consolidation, and the claim that keeps two fan-outs from enqueuing one user twice (R-BEAT-3/4)."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import ColumnElement, exists, or_, select

from memory_tasks.db.models import LongTermMemory, User
from memory_tasks.db.session import session_scope


def _changed_since_consolidation() -> ColumnElement[bool]:
    """True for a user with an active memory written after their last consolidation.

    Consolidation keeps `updated_at` of the rows it rewrites (the time the user last said
    it, which retrieval ranks by) and stamps last_consolidated_at with its snapshot time,
    so its own changes never make a user due again.
    """
    return exists().where(
        LongTermMemory.user_id == User.id,
        LongTermMemory.is_active.is_(True),
        or_(User.last_consolidated_at.is_(None), LongTermMemory.updated_at > User.last_consolidated_at),
    )


def is_due(user_id: int) -> bool:
    """True when `user_id` has memories that changed since their last consolidation."""
    with session_scope() as session:
        return bool(session.scalar(select(User.id).where(User.id == user_id, _changed_since_consolidation())))


def schedule_due_users(limit: int, enqueue: Callable[[int], object]) -> list[int]:
    """Call `enqueue(user_id)` for at most `limit` due users, longest-waiting first; returns their ids.

    The users are claimed FOR NO KEY UPDATE SKIP LOCKED while they are enqueued, so a
    second fan-out running at the same time skips them instead of enqueuing them twice
    (memory writes, which only KEY SHARE-lock the user, are not blocked). A task that
    arrives after its user was consolidated finds the user not due and does nothing.
    """
    with session_scope() as session:
        user_ids = list(
            session.scalars(
                select(User.id)
                .where(_changed_since_consolidation())
                .order_by(User.last_consolidated_at.asc().nulls_first(), User.id)
                .limit(limit)
                .with_for_update(skip_locked=True, key_share=True)
            )
        )
        for user_id in user_ids:
            enqueue(user_id)
    return user_ids
