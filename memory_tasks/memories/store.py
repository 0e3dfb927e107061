"""The write model: every change to a memory goes through `apply_candidate` (R-PIPE-4..7, R-DATA-6).

Callers hold the user's write lock (`lock_user`) for the whole transaction, so two
writers of one user are serialized while different users proceed in parallel. Each
applied change bumps `revision`, marks the row DIRTY for index sync and appends a
history row; a change that changes nothing writes nothing, which is what makes re-runs
idempotent.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from sqlalchemy import select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from config.settings import get_settings
from memory_tasks.db.models import HistorySource, LongTermMemory, MemoryHistory, VectorStatus
from memory_tasks.extraction.candidates import MAX_CONTENT_CHARS, Candidate
from memory_tasks.extraction.filters import is_noise_memory

logger = logging.getLogger(__name__)

# First int of PostgreSQL's two-int advisory lock: the namespace of per-user memory writes.
USER_WRITE_LOCK_NAMESPACE = 7_240_001

_SENTENCE_SPLIT = re.compile(r"(?<=[。！？；!?;.])\s*|\n+")
_NORMALIZE = re.compile(r"[\s，,。.!！?？；;:：、\"'“”‘’()（）]+")


@dataclass(frozen=True)
class WriteContext:
    """Where a change comes from: recorded on the row and in its history."""

    user_id: int
    source: HistorySource
    now: datetime
    default_ttl_days: int
    message_id: int | None = None
    conversation_id: int | None = None
    # When the user made the statement (the message's time); None means now.
    stated_at: datetime | None = None

    @property
    def statement_time(self) -> datetime:
        return self.stated_at or self.now


@dataclass(frozen=True)
class AppliedChange:
    """What `apply_candidate` did: the memory touched and the history op, or nothing."""

    memory_id: int
    op: str


def lock_user(session: Session, user_id: int) -> None:
    """Take the user's write lock until the transaction ends (serializes R-PIPE-7)."""
    session.execute(
        text("SELECT pg_advisory_xact_lock(:namespace, :user_id)"),
        {"namespace": USER_WRITE_LOCK_NAMESPACE, "user_id": user_id},
    )


def _comparable(sentence: str) -> str:
    return _NORMALIZE.sub("", sentence).lower()


def append_content(existing: str, addition: str) -> str:
    """`existing` plus the sentences of `addition` it does not already contain.

    Returns `existing` unchanged when every sentence is already there, so a repeated
    append (a redelivered task, a user saying it twice) adds nothing.
    """
    known = _comparable(existing)
    new_parts = [
        part.strip()
        for part in _SENTENCE_SPLIT.split(addition)
        if part and part.strip() and _comparable(part) and _comparable(part) not in known
    ]
    if not new_parts:
        return existing
    joiner = "；" if re.search(r"[\u4e00-\u9fff]", existing + addition) else "; "
    combined = joiner.join([existing.rstrip("；;。. ")] + new_parts) if existing else joiner.join(new_parts)
    return combined[:MAX_CONTENT_CHARS]


def _expiry(candidate: Candidate, ctx: WriteContext) -> datetime:
    return ctx.now + timedelta(days=candidate.ttl_days or ctx.default_ttl_days)


def load_for_update(session: Session, user_id: int, key: str) -> LongTermMemory | None:
    """The user's memory under `key` (active or not), row-locked, or None."""
    return session.scalars(
        select(LongTermMemory)
        .where(LongTermMemory.user_id == user_id, LongTermMemory.memory_key == key)
        .with_for_update()
    ).one_or_none()


def record_history(
    session: Session,
    ctx: WriteContext,
    memory_id: int,
    key: str,
    op: str,
    old: str | None,
    new: str | None,
    detail: str | None = None,
) -> None:
    """Append one history row (R-DATA-6): what changed, from where, caused by which message."""
    session.add(
        MemoryHistory(
            memory_id=memory_id,
            user_id=ctx.user_id,
            op=op,
            source=ctx.source.value,
            source_message_id=ctx.message_id,
            memory_key=key,
            old_content=old,
            new_content=new,
            detail=detail,
        )
    )


def _write(
    session: Session,
    ctx: WriteContext,
    candidate: Candidate,
    key: str,
    content: str,
    *,
    active: bool = True,
    expires_at: datetime | None = None,
) -> int:
    """Insert or overwrite the (user, key) row with `content`; returns the memory id.

    ON CONFLICT keeps the row id stable and is safe even if a writer ever skipped the lock.
    """
    values = {
        "user_id": ctx.user_id,
        "conversation_id": ctx.conversation_id,
        "source_message_id": ctx.message_id,
        "memory_key": key,
        "memory_type": candidate.memory_type,
        "content": content,
        "importance": candidate.importance,
        "confidence": candidate.confidence,
        "is_active": active,
        "expires_at": expires_at or _expiry(candidate, ctx),
        "source": ctx.source.value,
        "vector_status": VectorStatus.DIRTY.value,
        "stated_at": ctx.statement_time,
        "created_at": ctx.now,
        "updated_at": ctx.now,
    }
    stmt = pg_insert(LongTermMemory).values(**values)
    stmt = stmt.on_conflict_do_update(
        index_elements=[LongTermMemory.user_id, LongTermMemory.memory_key],
        set_={
            **{name: stmt.excluded[name] for name in values if name not in ("user_id", "memory_key", "created_at")},
            "merged_into_id": None,
            "vector_error": None,
            "revision": LongTermMemory.revision + 1,
        },
    ).returning(LongTermMemory.id)
    return session.execute(stmt).scalar_one()


def _refresh_ttl(session: Session, memory: LongTermMemory, candidate: Candidate, ctx: WriteContext) -> None:
    """A memory stated again lives on: push its expiry forward (no history, no re-index)."""
    expires_at = _expiry(candidate, ctx)
    if memory.expires_at is None or memory.expires_at < expires_at:
        memory.expires_at = expires_at
    memory.confidence = max(memory.confidence, candidate.confidence)
    memory.importance = max(memory.importance, candidate.importance)
    memory.stated_at = max(memory.stated_at or ctx.statement_time, ctx.statement_time)


def _tombstone(session: Session, ctx: WriteContext, candidate: Candidate, key: str) -> AppliedChange:
    """Record a retraction of something not (yet) stored as an inactive row.

    A turn processed out of order may retract a memory before the older turn that states
    it is written; the inactive row's statement time then keeps that older turn out.
    """
    memory_id = _write(session, ctx, candidate, key, candidate.content or "", active=False)
    record_history(session, ctx, memory_id, key, "delete", None, None, "retraction recorded before any statement")
    return AppliedChange(memory_id, "delete")


def apply_candidate(session: Session, ctx: WriteContext, candidate: Candidate) -> AppliedChange | None:
    """Apply one validated candidate for `ctx.user_id`; the caller holds `lock_user`.

    Returns what changed, or None when the memory already says this (then only its TTL
    is refreshed), a delete names nothing active, or the memory holds a later statement
    of the user than this one (a turn processed out of order).
    """
    key = candidate.target_key
    existing = load_for_update(session, ctx.user_id, key)
    if existing is not None and existing.stated_at is not None and existing.stated_at > ctx.statement_time:
        logger.info(
            "stale statement skipped",
            extra={"user_id": ctx.user_id, "memory_id": existing.id, "message_id": ctx.message_id, "key": key},
        )
        return None
    live = existing if existing is not None and existing.is_active else None

    if candidate.op == "delete":
        if existing is None:
            return _tombstone(session, ctx, candidate, key)
        if live is None:
            existing.stated_at = ctx.statement_time  # the latest word on this key is still "no"
            return None
        session.execute(
            update(LongTermMemory)
            .where(LongTermMemory.id == live.id)
            .values(
                is_active=False,
                vector_status=VectorStatus.DIRTY.value,
                revision=LongTermMemory.revision + 1,
                updated_at=ctx.now,
                source_message_id=ctx.message_id,
                stated_at=ctx.statement_time,
            )
        )
        record_history(session, ctx, live.id, key, "delete", live.content, None, candidate.reason or None)
        return AppliedChange(live.id, "delete")

    expires_at = None
    if candidate.op == "append" and live is not None:
        content = append_content(live.content, candidate.content)
        # Appending adds to a memory; it does not demote it or shorten its life.
        candidate = replace(
            candidate,
            memory_type=live.memory_type,
            importance=max(live.importance, candidate.importance),
            confidence=max(live.confidence, candidate.confidence),
        )
        expires_at = max(live.expires_at, _expiry(candidate, ctx)) if live.expires_at else None
    else:
        content = candidate.content[:MAX_CONTENT_CHARS]

    if live is not None and live.content == content and live.memory_type == candidate.memory_type:
        _refresh_ttl(session, live, candidate, ctx)
        return None

    memory_id = _write(session, ctx, candidate, key, content, expires_at=expires_at)
    op = candidate.op if live is not None else "create"
    record_history(session, ctx, memory_id, key, op, live.content if live else None, content, candidate.reason or None)
    session.expire_all()
    return AppliedChange(memory_id, op)


def active_memories(session: Session, user_id: int, now: datetime) -> list[LongTermMemory]:
    """The user's active, unexpired memories (noise is filtered by the callers that read)."""
    return list(
        session.scalars(
            select(LongTermMemory)
            .where(
                LongTermMemory.user_id == user_id,
                LongTermMemory.is_active.is_(True),
                (LongTermMemory.expires_at.is_(None)) | (LongTermMemory.expires_at > now),
            )
            .order_by(LongTermMemory.importance.desc(), LongTermMemory.updated_at.desc())
        )
    )


def valid_memories(session: Session, user_id: int, now: datetime) -> list[LongTermMemory]:
    """What may be shown or injected: active, unexpired and not noise (R-TYPE-4 at read time)."""
    patterns = get_settings().noise_key_patterns
    return [m for m in active_memories(session, user_id, now) if not is_noise_memory(m.memory_key, m.content, patterns)]
