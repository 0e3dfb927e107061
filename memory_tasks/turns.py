"""Recording chat turns: what a chat server (or the CLI) writes before enqueueing a message."""

from __future__ import annotations

from sqlalchemy import func, literal_column, select, text, update
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
            conversation = Conversation(user_id=user_id)
            session.add(conversation)
            session.flush()
            conversation_id = conversation.id
        else:
            touched = pg_insert(Conversation).values(id=conversation_id, user_id=user_id)
            owner, inserted = session.execute(
                touched.on_conflict_do_update(
                    index_elements=[Conversation.id], set_={"updated_at": func.now()}
                ).returning(Conversation.user_id, literal_column("xmax = 0"))
            ).one()
            if inserted:
                # An explicit id bypassed the sequence; move it past the ids in use.
                session.execute(
                    text(
                        "SELECT setval(pg_get_serial_sequence('conversations', 'id'), "
                        "GREATEST((SELECT max(id) FROM conversations), 1))"
                    )
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


def _touch(session: Session, conversation_id: int) -> None:
    """The conversation had a turn now."""
    session.execute(update(Conversation).where(Conversation.id == conversation_id).values(updated_at=func.now()))
