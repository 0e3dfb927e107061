"""Direct edits of one memory by id: what an operator or a chat server changes through the HTTP API.

`edit_memory` rewrites content, importance or lifetime; `delete_memory` deactivates the
row (it stays, with its history, as every delete of the write model leaves it). Both
keep the write model's invariant (`store.py`): under the user's write lock, the row is
rewritten or deactivated, marked DIRTY, its `revision` bumped, `updated_at` set, and a
history row (source `api`) appended; an edit that changes nothing writes nothing. The
caller enqueues the index sync of a changed memory after the commit.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from config.settings import get_settings
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import HistorySource, LongTermMemory
from memory_tasks.db.session import session_scope
from memory_tasks.extraction.candidates import MAX_CONTENT_CHARS
from memory_tasks.memories import store
from memory_tasks.memories.store import WriteContext, lock_user
from memory_tasks.text import without_control_chars

EDIT_OP = "edit"
DELETE_OP = "delete"
MIN_IMPORTANCE, MAX_IMPORTANCE = 1, 5
MAX_TTL_DAYS = 36500


class EditError(ValueError):
    """The edit is refused (a bad value); nothing was written."""


class MemoryDeleted(EditError):
    """The memory is inactive: an edit would change what nobody can see; nothing was written."""


@dataclass(frozen=True)
class MemoryEdit:
    """The fields to change; None leaves a field as it is. `ttl_days` counts from now."""

    content: str | None = None
    importance: int | None = None
    ttl_days: int | None = None


@dataclass(frozen=True)
class EditResult:
    """The memory as it is after the call, and whether the call changed it."""

    memory: LongTermMemory
    changed: bool


def _checked(edit: MemoryEdit) -> MemoryEdit:
    """`edit` with its content stripped, or EditError naming the bad field."""
    content = edit.content
    if content is not None:
        # NUL and lone surrogates (a JSON "\ud800") cannot be stored in PostgreSQL text.
        if "\x00" in content:
            raise EditError("content contains a NUL character")
        if content != content.encode("utf-8", "replace").decode("utf-8"):
            raise EditError("content is not valid UTF-8 text")
        # Escape sequences and control characters never reach a stored memory (issue 17 item 7).
        content = without_control_chars(content).strip()
        if not content:
            raise EditError("content must not be empty (delete the memory instead)")
        if len(content) > MAX_CONTENT_CHARS:
            raise EditError(f"content longer than {MAX_CONTENT_CHARS} characters")
    if edit.importance is not None and not MIN_IMPORTANCE <= edit.importance <= MAX_IMPORTANCE:
        raise EditError(f"importance must be between {MIN_IMPORTANCE} and {MAX_IMPORTANCE}")
    if edit.ttl_days is not None and not 1 <= edit.ttl_days <= MAX_TTL_DAYS:
        raise EditError(f"ttl_days must be between 1 and {MAX_TTL_DAYS}")
    if content is None and edit.importance is None and edit.ttl_days is None:
        raise EditError("nothing to change: give content, importance or ttl_days")
    return MemoryEdit(content=content, importance=edit.importance, ttl_days=edit.ttl_days)


@contextmanager
def _locked_memory(user_id: int, memory_id: int) -> Iterator[tuple[Session, LongTermMemory | None]]:
    """A transaction holding the user's write lock, and their memory `memory_id` row-locked in it
    (None when the user has no such memory: another user's id is no memory of theirs)."""
    with session_scope() as session:
        lock_user(session, user_id)
        memory = session.scalars(
            select(LongTermMemory)
            .where(LongTermMemory.id == memory_id, LongTermMemory.user_id == user_id)
            .with_for_update()
        ).one_or_none()
        yield session, memory


def _context(session: Session, user_id: int) -> WriteContext:
    return WriteContext(
        user_id=user_id,
        source=HistorySource.API,
        now=db_now(session),
        default_ttl_days=get_settings().LONG_TERM_MEMORY_DEFAULT_TTL_DAYS,
    )


def _rewrite(
    session: Session, ctx: WriteContext, memory: LongTermMemory, values: dict[str, Any], detail: str
) -> LongTermMemory:
    """Apply the operator's `values` through the write model (DIRTY, next revision, history); returns the row fresh."""
    # The operator's word is the latest statement: an older turn processed later must not undo it.
    store.rewrite(
        session,
        ctx,
        memory,
        {**values, "source": ctx.source.value, "stated_at": ctx.now, "updated_at": ctx.now},
        EDIT_OP,
        detail,
    )
    session.flush()
    session.refresh(memory)
    return memory


def _describe(name: str, old: Any, new: Any) -> str:
    shown = [value.isoformat(timespec="seconds") if isinstance(value, datetime) else value for value in (old, new)]
    return f"{name} {shown[0]} -> {shown[1]}"


def edit_memory(user_id: int, memory_id: int, edit: MemoryEdit) -> EditResult | None:
    """Change the user's active memory `memory_id`; None when the user has no memory with that id.

    Raises EditError for a bad value, MemoryDeleted for an inactive memory. The history row records the
    old and new content and, in `detail`, every other field's old -> new value.
    """
    edit = _checked(edit)
    with _locked_memory(user_id, memory_id) as (session, memory):
        if memory is None:
            return None
        if not memory.is_active:
            raise MemoryDeleted(f"memory {memory_id} is deleted; it can no longer be edited")
        ctx = _context(session, user_id)
        values: dict[str, Any] = {}
        if edit.content is not None and edit.content != memory.content:
            values["content"] = edit.content
        if edit.importance is not None and edit.importance != memory.importance:
            values["importance"] = edit.importance
        if edit.ttl_days is not None:
            values["expires_at"] = ctx.now + timedelta(days=edit.ttl_days)
        if not values:
            return EditResult(memory, changed=False)
        detail = "; ".join(
            _describe(name, getattr(memory, name), value) for name, value in values.items() if name != "content"
        )
        memory = _rewrite(session, ctx, memory, values, detail or "content")
        return EditResult(memory, changed=True)


def delete_memory(user_id: int, memory_id: int) -> EditResult | None:
    """Deactivate the user's memory `memory_id`; None when the user has no memory with that id.

    Deleting a memory that is already inactive changes nothing (`changed` False).
    """
    with _locked_memory(user_id, memory_id) as (session, memory):
        if memory is None:
            return None
        if not memory.is_active:
            return EditResult(memory, changed=False)
        ctx = _context(session, user_id)
        store.deactivate(session, ctx, memory, DELETE_OP, "deleted through the API", retracted=True)
        session.flush()
        session.refresh(memory)
        return EditResult(memory, changed=True)
