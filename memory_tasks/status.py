"""Operator view of the pipeline: counts per state and the most recent failures."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from memory_tasks.db.models import ForgottenUser, LongTermMemory, Message, MessageStatus, VectorStatus
from memory_tasks.db.session import session_scope
from memory_tasks.redaction import redact


def collect_status(errors: int = 10) -> dict[str, Any]:
    """{messages: {state: n}, vectors: {state: n}, active_memories: n, recent_failures: [...],
    dead_letters: {count: n, newest: [{id, at, attempts, error}, ...]}}.

    Dead letters are the DEAD messages (attempts used up; `requeue` revives them), the
    newest `errors` of them with their last error.
    `vector_purges_pending` lists forgotten users whose vectors are not purged yet; `vectors` counts DEAD rows.
    `vector_audit`: {unchecked: SYNCED rows the audit has not checked since their last write,
    oldest_check_at: the longest-ago check of a checked row, or None}; a growing `unchecked` or an
    old `oldest_check_at` means the audit (vectors/audit.py) does not keep up with the writes.
    """
    with session_scope() as session:
        messages = dict(
            session.execute(select(Message.memory_status, func.count()).group_by(Message.memory_status)).all()
        )
        vectors = dict(
            session.execute(
                select(LongTermMemory.vector_status, func.count()).group_by(LongTermMemory.vector_status)
            ).all()
        )
        active = session.scalar(select(func.count()).where(LongTermMemory.is_active.is_(True)))
        failed_messages = session.execute(
            select(Message.id, Message.updated_at, Message.memory_error)
            .where(Message.memory_status == MessageStatus.FAILED.value)
            .order_by(Message.updated_at.desc())
            .limit(errors)
        ).all()
        dead_messages = session.execute(
            select(Message.id, Message.updated_at, Message.memory_attempts, Message.memory_error)
            .where(Message.memory_status == MessageStatus.DEAD.value)
            .order_by(Message.updated_at.desc(), Message.id.desc())
            .limit(errors)
        ).all()
        failed_vectors = session.execute(
            select(LongTermMemory.id, LongTermMemory.updated_at, LongTermMemory.vector_error)
            .where(LongTermMemory.vector_status.in_([VectorStatus.FAILED.value, VectorStatus.DEAD.value]))
            .order_by(LongTermMemory.updated_at.desc())
            .limit(errors)
        ).all()
        purges = pending_vector_purges(session)
        synced = LongTermMemory.vector_status == VectorStatus.SYNCED.value
        unchecked = session.scalar(select(func.count()).where(synced, LongTermMemory.vector_checked_at.is_(None)))
        oldest_check = session.scalar(select(func.min(LongTermMemory.vector_checked_at)).where(synced))
    failures = [
        {"kind": kind, "id": row_id, "at": at.isoformat(), "error": redact(error or "")[:500]}
        for kind, rows in (("message", failed_messages), ("memory", failed_vectors))
        for row_id, at, error in rows
    ]
    failures += [
        {"kind": "vector purge of user", "id": p["user_id"], "at": p["attempted_at"], "error": p["error"]}
        for p in purges
        if p["error"]
    ]
    failures.sort(key=lambda f: f["at"], reverse=True)
    return {
        "messages": {s.value: messages.get(s.value, 0) for s in MessageStatus},
        "vectors": {s.value: vectors.get(s.value, 0) for s in VectorStatus},
        "active_memories": active or 0,
        "recent_failures": failures[:errors],
        "dead_letters": {
            "count": messages.get(MessageStatus.DEAD.value, 0),
            "newest": [
                {"id": row_id, "at": at.isoformat(), "attempts": attempts, "error": redact(error or "")[:500]}
                for row_id, at, attempts, error in dead_messages
            ],
        },
        "vector_purges_pending": purges,
        "vector_audit": {
            "unchecked": unchecked or 0,
            "oldest_check_at": oldest_check.isoformat() if oldest_check else None,
        },
    }


def pending_vector_purges(session: Session, limit: int = 100) -> list[dict[str, Any]]:
    """Forgotten users whose vector purge is not verified yet (oldest first): {user_id, forgotten_at, attempts, error}."""
    rows = session.execute(
        select(
            ForgottenUser.user_id,
            ForgottenUser.forgotten_at,
            ForgottenUser.purge_attempts,
            ForgottenUser.purge_attempted_at,
            ForgottenUser.purge_error,
        )
        .where(ForgottenUser.vectors_purged_at.is_(None))
        .order_by(ForgottenUser.forgotten_at)
        .limit(limit)
    ).all()
    return [
        {
            "user_id": user_id,
            "forgotten_at": forgotten_at.isoformat(),
            "attempts": attempts,
            "attempted_at": attempted_at.isoformat() if attempted_at else forgotten_at.isoformat(),
            "error": redact(error or "")[:500],
        }
        for user_id, forgotten_at, attempts, attempted_at, error in rows
    ]
