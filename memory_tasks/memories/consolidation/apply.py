"""Applying a consolidation plan: one transaction under the user's write lock (step 5).

Refused as "stale" when the user's active rows changed since the snapshot. Every change
goes through the write model (`memories.store`): history with source=consolidate (expiry
for expired rows), DIRTY, a new revision; `users.last_consolidated_at` is set.
"""

from __future__ import annotations

import logging

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from config.settings import get_settings
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import HistorySource, LongTermMemory, User
from memory_tasks.db.session import session_scope
from memory_tasks.memories.consolidation.plan import REWRITABLE, Action, ConsolidationResult, Plan
from memory_tasks.memories.lifecycle import expire_user_memories
from memory_tasks.memories.store import (
    WriteContext,
    deactivate,
    load_for_update,
    lock_user,
    merge_into,
    repoint_merges,
    rewrite,
)

logger = logging.getLogger(__name__)

# Columns that travel with a memory when it moves onto a key an inactive row still holds.
MOVED_WITH_MEMORY = (
    *(c for c in REWRITABLE if c != "memory_key"),
    "conversation_id",
    "source_message_id",
    "source",
    "access_count",
    "last_accessed_at",
    "last_confirmed_at",
    "is_core",
)


class StalePlan(Exception):
    """The user's memories changed after the plan was made; nothing of it was applied."""


def apply_plan(plan: Plan) -> ConsolidationResult:
    """Apply `plan` in one transaction under the user's write lock, and stamp last_consolidated_at.

    Returns "stale" (and writes nothing) when the user's active rows are no longer those
    the plan was made from; a fresh plan is then needed.
    """
    try:
        with session_scope() as session:
            return _apply(session, plan)
    except StalePlan as exc:
        logger.info("consolidation plan is stale", extra={"user_id": plan.user_id, "error": str(exc)})
        return ConsolidationResult(plan.user_id, "stale")


def _apply(session: Session, plan: Plan) -> ConsolidationResult:
    lock_user(session, plan.user_id)
    current = session.execute(
        select(LongTermMemory.id, LongTermMemory.revision)
        .where(LongTermMemory.user_id == plan.user_id, LongTermMemory.is_active.is_(True))
        .order_by(LongTermMemory.id)
        .with_for_update()
    ).all()
    if tuple((row.id, row.revision) for row in current) != plan.fingerprint:
        raise StalePlan("active memories changed since the snapshot")
    ctx = WriteContext(
        user_id=plan.user_id,
        source=HistorySource.CONSOLIDATE,
        now=db_now(session),
        default_ttl_days=get_settings().LONG_TERM_MEMORY_DEFAULT_TTL_DAYS,
    )
    # Expiry is its own kind of change: the rows' history says source=expiry.
    changed = expire_user_memories(
        session, plan.user_id, [a.memory_id for a in plan.actions if a.kind == "expire"], plan.now
    )
    touched = [a for a in plan.actions if a.kind in ("delete", "merge", "normalize")]
    memories = {
        m.id: m
        for m in session.scalars(
            select(LongTermMemory).where(
                LongTermMemory.id.in_([a.memory_id for a in touched] + [a.into_id for a in touched if a.into_id])
            )
        )
    }
    for action in touched:  # ACTION_ORDER: rows leave before others are renamed onto their keys
        memory = memories[action.memory_id]
        if action.kind == "normalize":
            changed += _rewrite(session, ctx, memory, action)
        else:
            _retire(session, ctx, memory, action.kind, action.reason, memories.get(action.into_id or -1))
            changed.append(memory.id)
    session.execute(update(User).where(User.id == plan.user_id).values(last_consolidated_at=plan.now))
    logger.info(
        "user consolidated",
        extra={"user_id": plan.user_id, "engine": plan.engine, "memory_ids": changed, **plan.counts()},
    )
    return ConsolidationResult(plan.user_id, "applied", tuple(sorted(set(changed))))


def _retire(
    session: Session, ctx: WriteContext, memory: LongTermMemory, op: str, reason: str, survivor: LongTermMemory | None
) -> None:
    """Deactivate `memory` (op delete, or merge into `survivor` with history on both rows)."""
    if survivor is None:
        deactivate(session, ctx, memory, op, reason or None)
    else:
        merge_into(session, ctx, memory, survivor, reason or None, f"absorbed #{memory.id} ({memory.memory_key})")


def _rewrite(session: Session, ctx: WriteContext, memory: LongTermMemory, action: Action) -> list[int]:
    """Set the action's changes on `memory`; returns the ids changed.

    When the new key is still held by an inactive row (deleted, merged or expired, now or
    long ago), the unique (user, key) rule forbids a rename: the memory moves into that
    row instead, which comes back to life with it, and `memory` is retired into it.
    """
    new_key = action.changes.get("memory_key")
    holder = load_for_update(session, ctx.user_id, new_key) if new_key else None
    if holder is None:
        rewrite(session, ctx, memory, action.changes, "normalize", _describe(action))
        return [memory.id]
    if holder.is_active:
        # The fingerprint rules out new active rows, and planning never renames onto a survivor's key.
        raise RuntimeError(f"consolidation bug: key {new_key!r} is held by active memory #{holder.id}")
    moved = {name: getattr(memory, name) for name in MOVED_WITH_MEMORY}
    rewrite(
        session,
        ctx,
        holder,
        {**moved, "is_active": True, "merged_into_id": None, **action.changes},
        "normalize",
        f"moved here from #{memory.id}: {_describe(action)}",
        old_content=memory.content,
    )
    _retire(session, ctx, memory, "merge", f"moved to #{holder.id} under key {new_key!r}", holder)
    # Rows merged into `memory` (by this plan or earlier) now point at where it lives on.
    repoint_merges(session, memory.id, holder.id)
    logger.info(
        "memory moved onto a held key",
        extra={"user_id": ctx.user_id, "memory_id": memory.id, "into_id": holder.id, "key": new_key},
    )
    return [memory.id, holder.id]


def _describe(action: Action) -> str:
    changed = ", ".join(action.changes)
    return f"{action.reason} ({changed})" if action.reason else changed
