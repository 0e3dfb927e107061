"""Read queries over one user's memories, their history and the messages they came from.

Every function takes the caller's session and is scoped to one user: an id of another
user's row is treated as absent (the HTTP service answers 404, never the row). Nothing
here writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, and_, func, not_, or_, select, union_all
from sqlalchemy.orm import Session

from memory_tasks.db.models import Conversation, LongTermMemory, MemoryHistory, Message, MessageStatus

# The inspector's "recent users" looks at this many of the newest messages and memories, so
# the page costs the same on tables of a thousand rows as on tables of a billion.
RECENT_USERS_SCAN = 2000


@dataclass(frozen=True)
class MemoryFilter:
    """Which of a user's memories to list; None means "any".

    `active` True: active and unexpired (what retrieval may show); False: deactivated or
    expired. `text` is a case-insensitive substring of the key or the content.
    """

    memory_type: str | None = None
    active: bool | None = None
    text: str | None = None


@dataclass(frozen=True)
class UserOverview:
    """One user at a glance: row counts and the time of their latest message or memory change."""

    user_id: int
    memories: int
    active_memories: int
    messages: int
    pending_messages: int
    failed_messages: int
    conversations: int
    last_activity: datetime | None


def _live(now: datetime) -> ColumnElement[bool]:
    return and_(
        LongTermMemory.is_active.is_(True),
        # A core memory never expires (R-READ-6, memories/lifecycle.py).
        or_(LongTermMemory.expires_at.is_(None), LongTermMemory.expires_at > now, LongTermMemory.is_core.is_(True)),
    )


def memory_page(
    session: Session, user_id: int, filters: MemoryFilter, now: datetime, limit: int, offset: int = 0
) -> tuple[list[LongTermMemory], int]:
    """(up to `limit` of the user's memories matching `filters`, newest change first; how many match)."""
    conditions = [LongTermMemory.user_id == user_id]
    if filters.memory_type is not None:
        conditions.append(LongTermMemory.memory_type == filters.memory_type)
    if filters.active is not None:
        conditions.append(_live(now) if filters.active else not_(_live(now)))
    if filters.text:
        conditions.append(
            or_(
                LongTermMemory.content.icontains(filters.text, autoescape=True),
                LongTermMemory.memory_key.icontains(filters.text, autoescape=True),
            )
        )
    total = session.scalar(select(func.count()).select_from(LongTermMemory).where(*conditions)) or 0
    rows = session.scalars(
        select(LongTermMemory)
        .where(*conditions)
        .order_by(LongTermMemory.updated_at.desc(), LongTermMemory.id.desc())
        .limit(limit)
        .offset(offset)
    ).all()
    return list(rows), total


def user_memory(session: Session, user_id: int, memory_id: int) -> LongTermMemory | None:
    """The memory `memory_id` if it belongs to `user_id` (active or not), else None."""
    return session.scalars(
        select(LongTermMemory).where(LongTermMemory.id == memory_id, LongTermMemory.user_id == user_id)
    ).one_or_none()


def memory_history(session: Session, user_id: int, memory_id: int) -> list[MemoryHistory]:
    """Every change of the user's memory `memory_id`, oldest first ([] for another user's id)."""
    return list(
        session.scalars(
            select(MemoryHistory)
            .where(MemoryHistory.memory_id == memory_id, MemoryHistory.user_id == user_id)
            .order_by(MemoryHistory.id)
        )
    )


def user_message(session: Session, user_id: int, message_id: int) -> Message | None:
    """The message `message_id` if it is a turn of `user_id`'s conversations, else None."""
    return session.scalars(select(Message).where(Message.id == message_id, Message.user_id == user_id)).one_or_none()


def message_history(session: Session, user_id: int, message_id: int) -> list[MemoryHistory]:
    """The memory changes the user's message `message_id` caused, oldest first."""
    return list(
        session.scalars(
            select(MemoryHistory)
            .where(MemoryHistory.source_message_id == message_id, MemoryHistory.user_id == user_id)
            .order_by(MemoryHistory.id)
        )
    )


def recent_messages(session: Session, user_id: int, limit: int) -> list[Message]:
    """The user's newest `limit` messages, newest first."""
    return list(
        session.scalars(select(Message).where(Message.user_id == user_id).order_by(Message.id.desc()).limit(limit))
    )


def changed_memory_ids(session: Session, message_ids: list[int]) -> dict[int, list[int]]:
    """{message id: ids of the memories it changed, ascending} for each of `message_ids` that changed any."""
    if not message_ids:
        return {}
    changed: dict[int, list[int]] = {}
    rows = session.execute(
        select(MemoryHistory.source_message_id, MemoryHistory.memory_id)
        .where(MemoryHistory.source_message_id.in_(message_ids))
        .distinct()
        .order_by(MemoryHistory.source_message_id, MemoryHistory.memory_id)
    )
    for message_id, memory_id in rows:
        changed.setdefault(message_id, []).append(memory_id)
    return changed


def user_overview(session: Session, user_id: int, now: datetime) -> UserOverview | None:
    """Counts for one user, or None when nothing of theirs is stored (no memory, message or conversation)."""
    memories, active, last_memory = session.execute(
        select(func.count(), func.count().filter(_live(now)), func.max(LongTermMemory.updated_at)).where(
            LongTermMemory.user_id == user_id
        )
    ).one()
    messages, pending, failed, last_message = session.execute(
        select(
            func.count(),
            func.count().filter(and_(Message.memory_status == MessageStatus.PENDING.value, Message.role == "user")),
            func.count().filter(Message.memory_status == MessageStatus.FAILED.value),
            func.max(Message.created_at),
        ).where(Message.user_id == user_id)
    ).one()
    conversations = session.scalar(select(func.count()).where(Conversation.user_id == user_id)) or 0
    if not (memories or messages or conversations):
        return None
    times = [t for t in (last_memory, last_message) if t is not None]
    return UserOverview(
        user_id=user_id,
        memories=memories,
        active_memories=active,
        messages=messages,
        pending_messages=pending,
        failed_messages=failed,
        conversations=conversations,
        last_activity=max(times) if times else None,
    )


def recent_user_ids(session: Session, limit: int) -> list[int]:
    """Ids of the users with the newest messages or memories (within the last RECENT_USERS_SCAN of
    each, newest by id), most recent activity first."""
    messages = (
        select(Message.user_id.label("user_id"), Message.created_at.label("at"))
        .order_by(Message.id.desc())
        .limit(RECENT_USERS_SCAN)
        .subquery()
    )
    memories = (
        select(LongTermMemory.user_id.label("user_id"), LongTermMemory.updated_at.label("at"))
        .order_by(LongTermMemory.id.desc())
        .limit(RECENT_USERS_SCAN)
        .subquery()
    )
    recent = union_all(select(messages.c.user_id, messages.c.at), select(memories.c.user_id, memories.c.at)).subquery()
    return list(
        session.scalars(
            select(recent.c.user_id).group_by(recent.c.user_id).order_by(func.max(recent.c.at).desc()).limit(limit)
        )
    )
