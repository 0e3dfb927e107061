"""The public JSON shape of a memory: one definition for the CLI, the tools, retrieval and the HTTP API.

Also the shaped listing every face shows (`list_memories`), so the CLI, the API and the tools agree.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Row

from memory_tasks.db.clock import db_now
from memory_tasks.db.models import LongTermMemory
from memory_tasks.db.session import session_scope
from memory_tasks.memories.store import valid_memories

# The columns `memory_json` reads: a read path that selects just these (plain rows, no ORM
# objects) can shape its memories too.
MEMORY_JSON_COLUMNS = (
    LongTermMemory.id,
    LongTermMemory.user_id,
    LongTermMemory.memory_key,
    LongTermMemory.memory_type,
    LongTermMemory.content,
    LongTermMemory.importance,
    LongTermMemory.confidence,
    LongTermMemory.is_active,
    LongTermMemory.is_core,
    LongTermMemory.expires_at,
    LongTermMemory.vector_status,
    LongTermMemory.source,
    LongTermMemory.created_at,
    LongTermMemory.updated_at,
    LongTermMemory.last_confirmed_at,
    LongTermMemory.stated_at,
)


def memory_json(memory: LongTermMemory | Row[Any]) -> dict[str, Any]:
    """The public JSON shape of a memory (CLI `list --json`, tools, retrieval hits): a row
    object, or a row of at least MEMORY_JSON_COLUMNS."""
    return {
        "id": memory.id,
        "user_id": memory.user_id,
        "memory_key": memory.memory_key,
        "memory_type": memory.memory_type,
        "content": memory.content,
        "importance": memory.importance,
        "confidence": round(memory.confidence, 4),
        "is_active": memory.is_active,
        # Injected before every reply whatever the question (R-READ-6, extraction/core.py).
        "is_core": memory.is_core,
        "expires_at": memory.expires_at.isoformat() if memory.expires_at else None,
        "vector_status": memory.vector_status,
        "source": memory.source,
        "created_at": memory.created_at.isoformat() if memory.created_at else None,
        "updated_at": memory.updated_at.isoformat() if memory.updated_at else None,
        "last_confirmed_at": memory.last_confirmed_at.isoformat() if memory.last_confirmed_at else None,
        # When the user last said what the memory holds (the message's time); a question naming a
        # period ranks memories stated in it higher (retrieval/period.py).
        "stated_at": memory.stated_at.isoformat() if memory.stated_at else None,
    }


def list_memories(user_id: int, memory_type: str | None = None, limit: int | None = None) -> list[dict[str, Any]]:
    """The user's valid memories (active, unexpired, not noise), most important first."""
    with session_scope() as session:
        memories = valid_memories(session, user_id, db_now(session))
        if memory_type:
            memories = [m for m in memories if m.memory_type == memory_type]
        return [memory_json(m) for m in memories[:limit]]
