"""The per-message pipeline as plain functions (R-PIPE): the Celery tasks only call these.

extract -> refine -> upsert -> embed -> sync. Each stage takes ids and small JSON, re-reads
the truth from PostgreSQL and is idempotent: a stage run again for a message that is
already PROCESSED or SKIPPED does nothing. Payloads between stages are
`{"message_id": int, "candidates": [candidate json, ...]}`; stages that have nothing to do
return None and the rest of the chain passes it along.
"""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy import case, select, update
from sqlalchemy.orm import Session

from config.settings import get_settings
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import Conversation, HistorySource, Message, MessageStatus
from memory_tasks.db.session import session_scope
from memory_tasks.extraction.candidates import Candidate, coerce_candidates
from memory_tasks.extraction.context import ContextWindow, context_window
from memory_tasks.extraction.engine import select_engine
from memory_tasks.extraction.filters import is_trivial
from memory_tasks.extraction.gate import admit
from memory_tasks.extraction.types import ExistingMemory, TurnContext
from memory_tasks.memories.dedup import refine_shortlist, scorer_for
from memory_tasks.memories.store import WriteContext, existing_memory, lock_user
from memory_tasks.memories.write_path import write_candidates

logger = logging.getLogger(__name__)

Payload = dict[str, Any]
# Refinement sees at most this many existing memories, the most similar ones first.
REFINE_EXISTING_LIMIT = 50
# States no stage changes any more (DEAD until an operator requeues the message).
FINISHED = (MessageStatus.PROCESSED.value, MessageStatus.SKIPPED.value, MessageStatus.DEAD.value)
# The stored error of a failed message is at most this long (the raw LLM output is cut).
MAX_STORED_ERROR_CHARS = 4000
LOST_RUN_NOTE = "a run did not finish (worker lost, or the hard time limit)"


def _finish(session: Session, message: Message, status: MessageStatus, note: str | None = None) -> None:
    now = db_now(session)
    message.memory_status = status.value
    message.memory_error = note
    message.memory_processed_at = now
    message.updated_at = now
    logger.info(
        "message finished",
        extra={"message_id": message.id, "user_id": message.user_id, "status": status.value, "note": note},
    )


def recent_context(session: Session, message: Message, summary: str, max_chars: int) -> ContextWindow:
    """The conversation's summary and the turns before `message`, within `max_chars` (`context_window`):
    the newest user/assistant turns that fit, assistant text without its <think> blocks (R-PIPE-11)."""
    if max_chars <= 0:
        return ContextWindow(summary="", turns=())
    earlier = session.scalars(
        select(Message)
        .where(Message.conversation_id == message.conversation_id, Message.id < message.id)
        .order_by(Message.id.desc())
        .limit(50)
    )
    turns = [{"role": turn.role, "content": turn.content} for turn in reversed(list(earlier))]
    return context_window(turns, max_chars, summary=summary)


def extract_stage(message_id: int) -> Payload | None:
    """Stage 1: decide whether the message is processed at all, then propose candidates.

    Returns the payload for refinement, or None when the message is finished here:
    unknown, already finished, not a user turn, memory disabled, trivial (SKIPPED), or
    nothing worth remembering (PROCESSED without a refine call, R-PIPE-8).
    """
    settings = get_settings()
    with session_scope() as session:
        message = session.get(Message, message_id, with_for_update=True)
        if message is None:
            logger.warning("message not found", extra={"message_id": message_id})
            return None
        if message.memory_status in FINISHED:
            return None
        if message.role != "user":
            _finish(session, message, MessageStatus.SKIPPED, f"role {message.role!r} is never a fact source")
            return None
        if not settings.LONG_TERM_MEMORY_ENABLED:
            _finish(session, message, MessageStatus.SKIPPED, "long-term memory disabled")
            return None
        if is_trivial(message.content):
            _finish(session, message, MessageStatus.SKIPPED, "trivial message")
            return None
        conversation = session.get(Conversation, message.conversation_id)
        summary = conversation.summary if conversation else ""
        context = recent_context(session, message, summary, settings.LONG_TERM_MEMORY_EXTRACT_CONTEXT_MAX_CHARS)
        turn = TurnContext(message=message.content, summary=context.summary, recent=context.turns)

    # The engine (maybe a slow LLM call) runs outside any transaction.
    candidates = select_engine(settings.use_llm).extract(turn)
    admitted = admit(candidates, settings, stage="extract", message_id=message_id, message=turn.message)
    if not admitted:
        with session_scope() as session:
            message = session.get(Message, message_id, with_for_update=True)
            if message is not None and message.memory_status not in FINISHED:
                _finish(session, message, MessageStatus.PROCESSED, None)
        return None
    return {"message_id": message_id, "candidates": [c.to_json() for c in admitted]}


def _existing_for_refine(session: Session, user_id: int, candidates: list[Candidate]) -> list[ExistingMemory]:
    """The user's active memories most similar to the candidates, at most REFINE_EXISTING_LIMIT."""
    memories = refine_shortlist(
        session, scorer_for(session), user_id, db_now(session), candidates, REFINE_EXISTING_LIMIT
    )
    return [existing_memory(m) for m in memories]


def refine_stage(payload: Payload | None) -> Payload | None:
    """Stage 2: keep / merge into an existing memory / reuse its key / drop, per candidate."""
    if not payload:
        return None
    settings = get_settings()
    candidates = [Candidate.from_json(c) for c in payload["candidates"]]
    with session_scope() as session:
        message = session.get(Message, payload["message_id"])
        if message is None or message.memory_status in FINISHED:
            return None
        existing = _existing_for_refine(session, message.user_id, candidates)
        text = message.content
    refined = select_engine(settings.use_llm).refine(candidates, existing)
    admitted = admit(refined, settings, stage="refine", message_id=payload["message_id"], message=text)
    return {"message_id": payload["message_id"], "candidates": [c.to_json() for c in admitted]}


def upsert_stage(payload: Payload | None) -> list[int]:
    """Stage 3: write the candidates in one transaction under the user's lock; message -> PROCESSED.

    Returns the ids of the memories changed (to index). The user is the message's user as
    stored in PostgreSQL, whatever the payload or an LLM said (R-SAFE-3). The payload is
    untrusted (anyone with the broker can send this task): every candidate is validated
    again (`coerce_candidates`) and passed through the gate, so hand-sent garbage writes nothing.
    """
    if not payload:
        return []
    message_id = payload.get("message_id") if isinstance(payload, dict) else None
    items = payload.get("candidates") if isinstance(payload, dict) else None
    if not isinstance(message_id, int) or isinstance(message_id, bool) or not isinstance(items, list):
        logger.warning("upsert payload refused", extra={"payload_type": type(payload).__name__})
        return []
    settings = get_settings()
    with session_scope() as session:
        owner = session.scalar(select(Message.user_id).where(Message.id == message_id))
        if owner is None:
            return []
        lock_user(session, owner)
        message = session.get(Message, message_id, with_for_update=True)
        if message is None or message.memory_status in FINISHED:
            return []
        candidates = admit(
            coerce_candidates(items, stage="upsert"),
            settings,
            stage="upsert",
            message_id=message_id,
            message=message.content,
        )
        ctx = WriteContext(
            user_id=message.user_id,
            source=HistorySource.EXTRACTION,
            now=db_now(session),
            default_ttl_days=settings.LONG_TERM_MEMORY_DEFAULT_TTL_DAYS,
            message_id=message.id,
            conversation_id=message.conversation_id,
            stated_at=message.created_at,
        )
        touched = write_candidates(session, ctx, candidates)
        _finish(session, message, MessageStatus.PROCESSED, None)
    logger.info("memories written", extra={"message_id": ctx.message_id, "user_id": ctx.user_id, "memory_ids": touched})
    return touched


def begin_attempt(message_id: int, max_attempts: int) -> bool:
    """A stage picked the message up: count one attempt and renew its lease (docs/reliability.md).

    The attempt is counted before the stage runs, so a run that never reports back (a
    killed worker, the hard time limit) still counts; `end_attempt` gives it back when the
    run ends without a fault of this message. Returns False when the stage must not run:
    the message is unknown or finished, or it has used its `max_attempts` and is now DEAD.
    """
    with session_scope() as session:
        message = session.get(Message, message_id, with_for_update=True)
        if message is None or message.memory_status in FINISHED:
            return False
        now = db_now(session)
        if message.memory_attempts >= max_attempts:
            cause = message.memory_error if message.memory_status == MessageStatus.FAILED.value else None
            message.memory_status = MessageStatus.DEAD.value
            message.memory_error = storable_error(
                f"dead after {message.memory_attempts} attempts; last: {cause or LOST_RUN_NOTE}"
            )
            message.memory_claimed_at = None
            message.updated_at = now
            logger.warning("message dead", extra={"message_id": message_id, "attempts": message.memory_attempts})
            return False
        message.memory_attempts += 1
        message.memory_claimed_at = now
        return True


def end_attempt(message_id: int) -> None:
    """Give back the attempt `begin_attempt` counted: the run succeeded, or a dependency failed."""
    with session_scope() as session:
        session.execute(
            update(Message)
            .where(Message.id == message_id, Message.memory_attempts > 0)
            .values(memory_attempts=Message.memory_attempts - 1)
        )


def storable_error(text: str) -> str:
    """`text` as PostgreSQL can store it: no NUL, no lone surrogate, at most MAX_STORED_ERROR_CHARS."""
    text = text.replace("\x00", "\\0")
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    if len(text) > MAX_STORED_ERROR_CHARS:
        text = text[: MAX_STORED_ERROR_CHARS - 20] + f" … [{len(text)} chars]"
    return text


def mark_message_failed(message_id: int, error: str) -> None:
    """Record a failed run with its (sanitised) error: FAILED, for the rescan to retry with backoff,
    or DEAD when the message has used all its attempts (LONG_TERM_MEMORY_MAX_ATTEMPTS).

    A failure of a dependency had its attempt given back before this (`end_attempt`), so
    only failures of this message can make it DEAD.
    """
    stored = storable_error(error)
    max_attempts = get_settings().LONG_TERM_MEMORY_MAX_ATTEMPTS
    with session_scope() as session:
        now = db_now(session)
        session.execute(
            update(Message)
            .where(Message.id == message_id, Message.memory_status.notin_(FINISHED))
            .values(
                memory_status=case(
                    (Message.memory_attempts >= max_attempts, MessageStatus.DEAD.value),
                    else_=MessageStatus.FAILED.value,
                ),
                memory_error=stored,
                updated_at=now,
                memory_claimed_at=None,
            )
        )
    logger.warning("message failed", extra={"message_id": message_id, "error": stored[:500]})
