"""PUT /v1/conversations/{id}/summary: the running summary extraction reads as context."""

from __future__ import annotations

from fastapi import APIRouter

from memory_tasks.conversations import SummaryError, set_summary
from memory_tasks.http.deps import ChatCaller, RowIdPath, ScopeUserId
from memory_tasks.http.errors import COMMON_RESPONSES, NOT_FOUND_RESPONSE, ApiError
from memory_tasks.http.schemas import SummaryIn, SummaryOut

router = APIRouter(prefix="/v1/conversations", tags=["conversations"], responses=COMMON_RESPONSES)


@router.put("/{conversation_id}/summary", responses=NOT_FOUND_RESPONSE)
def put_summary(conversation_id: RowIdPath, user_id: ScopeUserId, body: SummaryIn, caller: ChatCaller) -> SummaryOut:
    """Replace the conversation's summary (the chat server writes it; "" clears it). Extraction of the
    next turns reads it as context, never as a fact source."""
    try:
        stored = set_summary(user_id, conversation_id, body.summary)
    except SummaryError as exc:
        raise ApiError(422, "invalid_request", str(exc)) from None
    if stored is None:
        raise ApiError(404, "not_found", f"user {user_id} has no conversation {conversation_id}")
    return SummaryOut(
        conversation_id=stored.conversation_id,
        user_id=stored.user_id,
        summary=stored.summary,
        updated_at=stored.updated_at.isoformat(),
    )
