"""POST /v1/turns: record a chat turn and start its memory chain (after the debounce)."""

from __future__ import annotations

import logging

from fastapi import APIRouter, Response, status

from memory_tasks.api import TurnError, enqueue_turn, message_state, record_turn
from memory_tasks.conversations import conversation_owner
from memory_tasks.http.deps import ChatCaller, IdempotencyKeyHeader, ReadSession
from memory_tasks.http.errors import COMMON_RESPONSES, NOT_FOUND_RESPONSE, ApiError
from memory_tasks.http.schemas import ErrorBody, IndexSync, TurnAccepted, TurnIn
from memory_tasks.idempotency import IdempotencyConflict, Outcome, record_once, request_fingerprint

logger = logging.getLogger(__name__)

router = APIRouter(prefix="/v1/turns", tags=["turns"], responses=COMMON_RESPONSES)


def _enqueue(message_id: int) -> IndexSync:
    """Start the chain; a broker outage leaves the turn PENDING for the beat rescan, not an error."""
    try:
        enqueue_turn(message_id)
    except Exception:  # any broker failure: the turn is recorded, the rescan is the safety net
        logger.warning("turn not enqueued; the rescan will pick it up", exc_info=True, extra={"message_id": message_id})
        return "deferred"
    return "queued"


@router.post(
    "",
    status_code=status.HTTP_202_ACCEPTED,
    responses={
        **NOT_FOUND_RESPONSE,
        409: {"model": ErrorBody, "description": "The Idempotency-Key was used, within 24 h, for another turn."},
    },
)
def post_turn(
    turn: TurnIn, caller: ChatCaller, session: ReadSession, response: Response, key: IdempotencyKeyHeader = None
) -> TurnAccepted:
    """Record one turn; for a user turn, enqueue memory extraction.

    A `conversation_id` that does not exist yet is created for the user; one of another
    user is a 404. With an `Idempotency-Key`, a retry of the same request (same key, same
    body, within 24 h) records nothing and answers with the first turn (`replayed`: true).
    """
    if turn.conversation_id is not None and conversation_owner(session, turn.conversation_id) not in (
        None,
        turn.user_id,
    ):
        raise ApiError(404, "not_found", f"user {turn.user_id} has no conversation {turn.conversation_id}")

    def record() -> int:
        return record_turn(turn.user_id, turn.content, role=turn.role, conversation_id=turn.conversation_id)

    try:
        if key is None:
            outcome = Outcome(record(), replayed=False)
        else:
            outcome = record_once(turn.user_id, key, request_fingerprint(turn.model_dump()), record)
    except TurnError as exc:
        raise ApiError(422, "invalid_turn", str(exc)) from None
    except IdempotencyConflict as exc:
        raise ApiError(409, "idempotency_key_reused", str(exc)) from None
    if outcome.replayed:
        response.headers["Idempotent-Replayed"] = "true"
        state = message_state(outcome.message_id)
        return TurnAccepted(
            message_id=outcome.message_id,
            status=state["status"] if state else "PENDING",
            enqueued="not needed",
            replayed=True,
        )
    if turn.role != "user":
        return TurnAccepted(message_id=outcome.message_id, status="SKIPPED", enqueued="not needed", replayed=False)
    return TurnAccepted(
        message_id=outcome.message_id, status="PENDING", enqueued=_enqueue(outcome.message_id), replayed=False
    )
