"""A conversation's running summary: written by the chat server, read by extraction as context.

The chat server owns the summary (it decides when and how to summarise); the pipeline
reads `conversations.summary` as context for extraction and never writes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from memory_tasks.db.clock import db_now
from memory_tasks.db.models import Conversation
from memory_tasks.db.session import session_scope

MAX_SUMMARY_CHARS = 20_000


class SummaryError(ValueError):
    """The summary cannot be stored (too long, NUL, invalid UTF-8); nothing was written."""


@dataclass(frozen=True)
class ConversationSummary:
    conversation_id: int
    user_id: int
    summary: str
    updated_at: datetime


def set_summary(user_id: int, conversation_id: int, summary: str) -> ConversationSummary | None:
    """Replace the summary of the user's conversation; None when the user has no such conversation.

    An empty summary clears it. Raises SummaryError for text PostgreSQL cannot store or
    longer than MAX_SUMMARY_CHARS.
    """
    if len(summary) > MAX_SUMMARY_CHARS:
        raise SummaryError(f"summary longer than {MAX_SUMMARY_CHARS} characters")
    if "\x00" in summary or summary != summary.encode("utf-8", "replace").decode("utf-8"):
        raise SummaryError("summary is not valid UTF-8 text")
    with session_scope() as session:
        now = db_now(session)
        updated = session.execute(
            update(Conversation)
            .where(Conversation.id == conversation_id, Conversation.user_id == user_id)
            .values(summary=summary, updated_at=now)
        ).rowcount
    if not updated:
        return None
    return ConversationSummary(conversation_id, user_id, summary, now)


def conversation_owner(session: Session, conversation_id: int) -> int | None:
    """The id of the user whose conversation `conversation_id` is, or None when there is none."""
    return session.scalar(select(Conversation.user_id).where(Conversation.id == conversation_id))
