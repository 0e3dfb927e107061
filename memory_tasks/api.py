"""What a chat server calls: record a turn and enqueue it; list a user's memories; read a message's state.

Retrieval before a reply is `memory_tasks.retrieval.retrieve` / `format_memory_block`.
A chat server that does not import this package can `send_task("memory.extract_candidates",
args=[message_id])` after writing the message row itself (the names: `memory_tasks.task_names`).
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import select, update

from config.settings import get_settings
from memory_tasks import dispatch
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import LongTermMemory, MemoryHistory, Message
from memory_tasks.db.session import session_scope
from memory_tasks.redaction import redact
from memory_tasks.shapes import list_memories, memory_json
from memory_tasks.turns import TurnError, record_turn

FINAL_STATES = ("PROCESSED", "SKIPPED", "FAILED", "DEAD")

__all__ = [
    "FINAL_STATES",
    "TurnError",
    "enqueue_turn",
    "list_memories",
    "memory_json",
    "message_state",
    "record_turn",
    "wait_for_message",
]


def enqueue_turn(message_id: int, countdown: float | None = None) -> str | None:
    """Start the pipeline for a recorded message after the debounce.

    Returns the Celery task id of the trigger sent, or None when the turn joined the trigger
    already pending for its conversation (`dispatch.enqueue_turn_trigger`: one trigger per
    debounce window, not one per turn). The message is stamped as claimed, so the beat
    rescan leaves it to this chain unless the chain is lost (then the rescan restarts it
    once the lease is over).
    """
    settings = get_settings()
    with session_scope() as session:
        claimed = session.execute(
            update(Message)
            .where(Message.id == message_id)
            .values(memory_claimed_at=db_now(session))
            .returning(Message.user_id, Message.conversation_id)
        ).one_or_none()
    if claimed is None:
        raise TurnError(f"message {message_id} does not exist")
    delay = settings.LONG_TERM_MEMORY_DEBOUNCE_SEC if countdown is None else countdown
    return dispatch.enqueue_turn_trigger(message_id, claimed.user_id, claimed.conversation_id, countdown=delay)


def message_state(message_id: int) -> dict[str, Any] | None:
    """{message_id, user_id, role, status, attempts, error, memory_ids, deactivated_ids, outcomes} or None if unknown.

    `memory_ids` are the memories this message wrote or confirmed (from the history) that are
    active now; `deactivated_ids` those it changed that are not (deleted, merged away, or written
    as the inactive record of a retraction). `outcomes` say what became of each statement of the
    turn (`extraction.outcomes.Outcome.to_json`), empty until it is PROCESSED.
    """
    with session_scope() as session:
        message = session.get(Message, message_id)
        if message is None:
            return None
        changed = session.execute(
            select(MemoryHistory.memory_id, LongTermMemory.is_active)
            .join(LongTermMemory, LongTermMemory.id == MemoryHistory.memory_id)
            .where(MemoryHistory.source_message_id == message_id)
            .distinct()
            .order_by(MemoryHistory.memory_id)
        ).all()
        return {
            "message_id": message.id,
            "user_id": message.user_id,
            "role": message.role,
            "status": message.memory_status,
            "attempts": message.memory_attempts,
            "error": redact(message.memory_error) if message.memory_error else None,
            "memory_ids": [memory_id for memory_id, active in changed if active],
            "deactivated_ids": [memory_id for memory_id, active in changed if not active],
            "outcomes": list(message.memory_outcomes or []),
        }


def wait_for_message(message_id: int, timeout: float) -> dict[str, Any]:
    """Poll the message until its memory state is final (or `timeout` passes); returns its state.

    Also waits for the memories it changed to leave DIRTY when Milvus is on, so what is
    printed next is what retrieval sees.
    """
    deadline = time.monotonic() + timeout
    state = message_state(message_id)
    while state and state["status"] not in FINAL_STATES and time.monotonic() < deadline:
        time.sleep(0.2)
        state = message_state(message_id)
    if state and state["status"] == "PROCESSED" and state["memory_ids"]:
        if get_settings().MEMORY_MILVUS_ENABLED:
            wanted = set(state["memory_ids"])
            while time.monotonic() < deadline:
                pending = [
                    m for m in list_memories(state["user_id"]) if m["id"] in wanted and m["vector_status"] == "DIRTY"
                ]
                if not pending:
                    break
                time.sleep(0.2)
    return state or {}
