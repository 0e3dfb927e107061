"""A user's memories: list with filters, one with its history, edit, delete (history source `api`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from memory_tasks.db.clock import db_now
from memory_tasks.db.models import MemoryHistory
from memory_tasks.dispatch import enqueue_index_sync
from memory_tasks.http.deps import (
    AdminCaller,
    ChatCaller,
    ReadSession,
    RowIdPath,
    ScopeUserId,
    UserIdPath,
    whole_number,
)
from memory_tasks.http.errors import ADMIN_RESPONSES, COMMON_RESPONSES, NOT_FOUND_RESPONSE, ApiError
from memory_tasks.http.schemas import (
    ErrorBody,
    HistoryEntry,
    MemoriesPage,
    MemoryChange,
    MemoryDetail,
    MemoryPatch,
    MemoryPublic,
    MemoryType,
    text,
)
from memory_tasks.memories import reads
from memory_tasks.memories.edits import EditError, EditResult, MemoryDeleted, MemoryEdit, delete_memory, edit_memory
from memory_tasks.shapes import memory_json

router = APIRouter(tags=["memories"], responses=COMMON_RESPONSES)

MAX_PAGE = 200
MAX_OFFSET = 1_000_000


def history_json(entry: MemoryHistory) -> HistoryEntry:
    return HistoryEntry(
        id=entry.id,
        op=entry.op,
        source=entry.source,
        source_message_id=entry.source_message_id,
        memory_key=entry.memory_key,
        old_content=entry.old_content,
        new_content=entry.new_content,
        detail=entry.detail,
        created_at=entry.created_at.isoformat(),
    )


@router.get("/v1/users/{user_id}/memories")
def list_user_memories(
    user_id: UserIdPath,
    caller: ChatCaller,
    session: ReadSession,
    memory_type: Annotated[MemoryType | None, Query(alias="type")] = None,
    active: Annotated[bool | None, Query(description="true: active and unexpired; false: deleted or expired")] = None,
    text: Annotated[text(200) | None, Query(description="Substring of the key or content.")] = None,
    limit: whole_number(Query(ge=1, le=MAX_PAGE)) = 50,
    offset: whole_number(Query(ge=0, le=MAX_OFFSET)) = 0,
) -> MemoriesPage:
    """The user's memories, active or not unless `active` says, newest change first; `count` of all that match."""
    filters = reads.MemoryFilter(memory_type=memory_type, active=active, text=text or None)
    rows, total = reads.memory_page(session, user_id, filters, db_now(session), limit, offset)
    return MemoriesPage(data=[MemoryPublic(**memory_json(m)) for m in rows], count=total, limit=limit, offset=offset)


@router.get("/v1/memories/{memory_id}", responses=NOT_FOUND_RESPONSE)
def get_memory(memory_id: RowIdPath, user_id: ScopeUserId, caller: ChatCaller, session: ReadSession) -> MemoryDetail:
    """One memory of the user with every change it went through, oldest first."""
    memory = reads.user_memory(session, user_id, memory_id)
    if memory is None:
        raise _not_found(user_id, memory_id)
    history = reads.memory_history(session, user_id, memory_id)
    return MemoryDetail(memory=MemoryPublic(**memory_json(memory)), history=[history_json(h) for h in history])


@router.patch(
    "/v1/memories/{memory_id}",
    responses={
        **ADMIN_RESPONSES,
        **NOT_FOUND_RESPONSE,
        409: {"model": ErrorBody, "description": "The memory is deleted."},
    },
)
def patch_memory(memory_id: RowIdPath, user_id: ScopeUserId, patch: MemoryPatch, caller: AdminCaller) -> MemoryChange:
    """Change content, importance or lifetime (`ttl_days` from now); recorded in the history as source `api`."""
    try:
        result = edit_memory(user_id, memory_id, MemoryEdit(**patch.model_dump(exclude_unset=True)))
    except MemoryDeleted as exc:
        raise ApiError(409, "conflict", str(exc)) from None
    except EditError as exc:
        raise ApiError(422, "invalid_request", str(exc)) from None
    return _change(user_id, memory_id, result)


@router.delete("/v1/memories/{memory_id}", responses={**ADMIN_RESPONSES, **NOT_FOUND_RESPONSE})
def delete_user_memory(memory_id: RowIdPath, user_id: ScopeUserId, caller: AdminCaller) -> MemoryChange:
    """Deactivate the memory (it stays in the history; its vector is removed by the index sync)."""
    return _change(user_id, memory_id, delete_memory(user_id, memory_id))


def _change(user_id: int, memory_id: int, result: EditResult | None) -> MemoryChange:
    if result is None:
        raise _not_found(user_id, memory_id)
    index = enqueue_index_sync([result.memory.id]) if result.changed else "not needed"
    return MemoryChange(memory=MemoryPublic(**memory_json(result.memory)), changed=result.changed, index=index)


def _not_found(user_id: int, memory_id: int) -> ApiError:
    return ApiError(404, "not_found", f"user {user_id} has no memory {memory_id}")
