"""Recording chat turns: what a chat server (or the CLI) writes before enqueueing a message."""

from __future__ import annotations

from sqlalchemy import func, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from memory_tasks.db.models import Conversation, Message, MessageStatus, User
from memory_tasks.db.session import session_scope
from memory_tasks.text import InvalidUserId, checked_user_id

ROLES = ("user", "assistant", "system", "tool")
MAX_MESSAGE_CHARS = 32_000


class TurnError(ValueError):
    """The turn cannot be recorded (bad role, empty or oversized text, foreign conversation)."""


def validate_turn(user_id: int, role: str, content: str) -> str:
    """The content to store, or TurnError saying what is wrong. Nothing is written here."""
    try:
        checked_user_id(user_id)
    except InvalidUserId as exc:
        raise TurnError(str(exc)) from None
    if role not in ROLES:
        raise TurnError(f"role must be one of {', '.join(ROLES)}, got {role!r}")
    if not isinstance(content, str):
        raise TurnError("text must be a string")
    try:
        content.encode("utf-8")
    except UnicodeEncodeError:
        raise TurnError("text is not valid UTF-8") from None
    if "\x00" in content:
        raise TurnError("text contains a NUL character")
    content = content.strip()
    if not content:
        raise TurnError("text is empty")
    if len(content) > MAX_MESSAGE_CHARS:
        raise TurnError(f"text longer than {MAX_MESSAGE_CHARS} characters")
    return content


def record_turn(user_id: int, content: str, *, role: str = "user", conversation_id: int | None = None) -> int:
    """Store one chat turn and return its message id (user and conversation created on demand).

    Without `conversation_id` the user's latest conversation is used (or a new one). A
    given conversation id that does not exist yet is created for this user; one that
    belongs to another user is refused.
    """
    content = validate_turn(user_id, role, content)
    if conversation_id is not None and (not isinstance(conversation_id, int) or not 0 < conversation_id < 2**31):
        raise TurnError(f"conversation id must be a positive 32-bit integer, got {conversation_id!r}")
    # Three statements for a turn of a known conversation (the user, the conversation touched
    # and its owner read back, the message), as a chat server records every turn (issue 12).
    with session_scope() as session:
        session.execute(pg_insert(User).values(id=user_id).on_conflict_do_nothing())
        if conversation_id is None:
            conversation_id = session.scalar(
                select(Conversation.id).where(Conversation.user_id == user_id).order_by(Conversation.id.desc()).limit(1)
            )
            if conversation_id is not None:
                _touch(session, conversation_id)
        if conversation_id is None:
            conversation_id = _new_conversation(session, user_id)
        else:
            touched = pg_insert(Conversation).values(id=conversation_id, user_id=user_id)
            owner = session.scalar(
                touched.on_conflict_do_update(
                    index_elements=[Conversation.id], set_={"updated_at": func.now()}
                ).returning(Conversation.user_id)
            )
            if owner != user_id:  # the transaction is rolled back: the other user's row is untouched
                raise TurnError(f"conversation {conversation_id} belongs to another user")
        # created_at and updated_at: the server's now() (the column default), the transaction's time.
        message = Message(user_id=user_id, conversation_id=conversation_id, role=role, content=content)
        if role != "user":
            # Only user turns are a fact source (R-DATA-2); others never wait for processing.
            message.memory_status = MessageStatus.SKIPPED.value
            message.memory_error = f"role {role!r} is never a fact source"
            message.memory_processed_at = func.now()
        session.add(message)
        session.flush()
        return message.id


# After the sequence's id was taken (by a chat server's own id): move the sequence to the end of that run of taken
# ids, found through the primary key, so the next id it gives is free.
_SKIP_TAKEN_CONVERSATION_IDS = text(
    "SELECT setval(pg_get_serial_sequence('conversations', 'id'), min(taken.id)) FROM conversations AS taken "
    "WHERE taken.id >= currval(pg_get_serial_sequence('conversations', 'id')) "
    "AND NOT EXISTS (SELECT 1 FROM conversations AS next WHERE next.id = taken.id::bigint + 1)"
)


def _new_conversation(session: Session, user_id: int) -> int:
    """The id of a new conversation of `user_id`, numbered by the sequence.

    Ids a chat server gave explicitly are not taken from the sequence. The sequence skips them when it
    runs into one, instead of jumping past the largest id in use when one is given: a single given id
    of 2**31 - 1 would otherwise have exhausted it, and no conversation could be started again.
    """
    new_conversation = (
        pg_insert(Conversation)
        .values(user_id=user_id)
        .on_conflict_do_nothing(index_elements=[Conversation.id])
        .returning(Conversation.id)
    )
    while (conversation_id := session.scalar(new_conversation)) is None:
        session.execute(_SKIP_TAKEN_CONVERSATION_IDS)
    return conversation_id


def _touch(session: Session, conversation_id: int) -> None:
    """The conversation had a turn now."""
    session.execute(update(Conversation).where(Conversation.id == conversation_id).values(updated_at=func.now()))
