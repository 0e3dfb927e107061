"""DELETE /v1/users/{id}: forget the user (right to be forgotten) and say what was removed."""

from __future__ import annotations

from fastapi import APIRouter

from memory_tasks.forget import ForgetError, forget_user
from memory_tasks.http.deps import AdminCaller, UserIdPath
from memory_tasks.http.errors import ADMIN_RESPONSES, COMMON_RESPONSES, UNAVAILABLE_RESPONSE, ApiError
from memory_tasks.http.schemas import Forgotten

router = APIRouter(prefix="/v1/users", tags=["users"], responses={**COMMON_RESPONSES, **ADMIN_RESPONSES})


@router.delete("/{user_id}", responses=UNAVAILABLE_RESPONSE)
def delete_user(user_id: UserIdPath, caller: AdminCaller) -> Forgotten:
    """Remove every memory, history row, message, conversation, vector and cache entry of the user.

    Safe to repeat (a second call removes nothing and counts zeros). When Milvus is enabled
    but unreachable nothing is deleted and the answer is 503: run it again later.
    """
    try:
        return Forgotten(**forget_user(user_id))
    except ForgetError as exc:
        raise ApiError(503, "unavailable", str(exc)) from None
