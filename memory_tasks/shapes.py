"""The public JSON shape of a memory: one definition for the CLI, the tools, retrieval and the HTTP API."""

from __future__ import annotations

from typing import Any

from memory_tasks.db.models import LongTermMemory


def memory_json(memory: LongTermMemory) -> dict[str, Any]:
    """The public JSON shape of a memory (CLI `list --json`, tools, retrieval hits)."""
    return {
        "id": memory.id,
        "user_id": memory.user_id,
        "memory_key": memory.memory_key,
        "memory_type": memory.memory_type,
        "content": memory.content,
        "importance": memory.importance,
        "confidence": round(memory.confidence, 4),
        "is_active": memory.is_active,
        # Injected before every reply whatever the question (R-READ-6, memories/core.py).
        "is_core": memory.is_core,
        "expires_at": memory.expires_at.isoformat() if memory.expires_at else None,
        "vector_status": memory.vector_status,
        "source": memory.source,
        "created_at": memory.created_at.isoformat() if memory.created_at else None,
        "updated_at": memory.updated_at.isoformat() if memory.updated_at else None,
        "last_confirmed_at": memory.last_confirmed_at.isoformat() if memory.last_confirmed_at else None,
    }
