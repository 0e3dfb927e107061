"""GET /v1/messages/{id}: a turn's memory state, attempts, error and the memories it changed."""

from __future__ import annotations

from fastapi import APIRouter

from memory_tasks.api import message_state
from memory_tasks.http.deps import ChatCaller, RowIdPath, ScopeUserId
from memory_tasks.http.errors import COMMON_RESPONSES, NOT_FOUND_RESPONSE, ApiError
from memory_tasks.http.schemas import MessageState

router = APIRouter(prefix="/v1/messages", tags=["messages"], responses={**COMMON_RESPONSES, **NOT_FOUND_RESPONSE})


@router.get("/{message_id}")
def get_message(message_id: RowIdPath, user_id: ScopeUserId, caller: ChatCaller) -> MessageState:
    """The message's memory processing; poll it after POST /v1/turns to see what the turn produced."""
    state = message_state(message_id)
    if state is None or state["user_id"] != user_id:
        raise ApiError(404, "not_found", f"user {user_id} has no message {message_id}")
    return MessageState(**state)
