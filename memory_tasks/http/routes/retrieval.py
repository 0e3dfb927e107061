"""POST /v1/retrieve: the memories to inject before a reply, with their scores and the prompt block."""

from __future__ import annotations

from fastapi import APIRouter

from memory_tasks.http.deps import ChatCaller, SettingsDep
from memory_tasks.http.errors import COMMON_RESPONSES, UNAVAILABLE_RESPONSE, ApiError
from memory_tasks.http.schemas import HitOut, RetrieveIn, RetrieveOut
from memory_tasks.retrieval import find_memories, format_memory_block

router = APIRouter(prefix="/v1/retrieve", tags=["retrieval"], responses={**COMMON_RESPONSES, **UNAVAILABLE_RESPONSE})


@router.post("")
def post_retrieve(request: RetrieveIn, caller: ChatCaller, settings: SettingsDep) -> RetrieveOut:
    """Ranked memories for the question (dense: vectors + rerank, lexical when Milvus is down;
    full_inject: the most important ones), and `block` to append to the system prompt.

    No hits (and an empty block) when LONG_TERM_MEMORY_ENABLED is false. A database outage is
    a 503: a chat server answers without memories then.
    """
    mode = request.mode or settings.LONG_TERM_MEMORY_RETRIEVE_MODE
    if not settings.LONG_TERM_MEMORY_ENABLED:
        return RetrieveOut(hits=[], block="", mode=mode)
    try:
        hits = find_memories(request.user_id, request.query, summary=request.summary, mode=mode, limit=request.limit)
    except ValueError as exc:
        raise ApiError(422, "invalid_request", str(exc)) from None
    return RetrieveOut(hits=[HitOut(**hit.to_json()) for hit in hits], block=format_memory_block(hits), mode=mode)
