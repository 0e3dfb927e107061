"""Forget a user (R-LIFE-3): every memory, history row, message, vector and derived datum, one call.

Decisions:
- The `users` row goes too. It holds nothing the project needs once the user's data is
  gone (a name at most), and `record_turn` / the tools create it again if the user comes back.
- Messages and conversations are deleted, not just their memory state: the messages are
  what memories are extracted from, and a rescan would otherwise rebuild them.
- Forgetting never waits for Milvus (issue 11, item 7). The user's truth in PostgreSQL
  (memories, history, messages, conversations, embedding-cache entries) is deleted at once
  in one transaction, which also leaves a tombstone (`forgotten_users`). The vectors are
  purged after the commit, outside the user's lock: tried once in the call, and when
  Milvus is down the purge is queued (memory.purge_user_vectors), retried until a strong
  read finds no vector of the user, and shown in `status` until then. While it is pending
  index sync writes no vector for the user (`index.users_awaiting_purge`), so the purge by
  user filter cannot remove the vectors of a user who came back meanwhile, and a sync that
  read the rows before the forget cannot leave a vector behind.
- Milvus disabled: PostgreSQL is cleared and the result says `"milvus": "disabled"`.
- Embedding-cache entries are keyed by text hash, not by user; the entries removed are
  those of every text derived from the user's memories and their history that no other
  user's memory uses. Vectors of candidate texts that were never stored (dropped, or
  redirected by dedup) cannot be traced to a user and stay: hashed vectors, not text.

The user's write lock is held for the whole transaction, so a pipeline or tool write of
the same user either finishes before (and is deleted) or starts after (and finds its
message gone). Running it again is safe: it finds nothing and reports zeros.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from config.settings import get_settings
from memory_tasks import dispatch
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import (
    Conversation,
    EmbeddingCache,
    ForgottenUser,
    LongTermMemory,
    MemoryHistory,
    Message,
    User,
    VectorStatus,
)
from memory_tasks.db.session import session_scope
from memory_tasks.extraction.candidates import MEMORY_TYPES
from memory_tasks.memories.store import lock_user
from memory_tasks.redaction import redact
from memory_tasks.text import InvalidUserId, checked_user_id
from memory_tasks.vectors.index import SYNC_FAILURES, index_text, text_hash, users_awaiting_purge
from memory_tasks.vectors.milvus_store import get_store

logger = logging.getLogger(__name__)


class ForgetError(RuntimeError):
    """The user could not be forgotten (an invalid id); nothing was deleted."""


def derived_text_hashes(memory_type: str | None, key: str, content: str) -> set[str]:
    """Hashes of every text the write and index paths may have embedded for (key, content).

    The index text `[type] key: content`, the refine text `key: content` and the dedup
    text (the content alone). A history row does not record the type its content had,
    so None means every type.
    """
    types = MEMORY_TYPES if memory_type is None else (memory_type,)
    texts = [index_text(t, key, content) for t in types] + [f"{key}: {content}", content]
    return {text_hash(t) for t in texts}


def _user_texts(session: Session, user_id: int) -> list[tuple[str | None, str, str]]:
    """(type or None, key, content) of the user's memories and of every content in their history."""
    texts: list[tuple[str | None, str, str]] = [
        tuple(row)
        for row in session.execute(
            select(LongTermMemory.memory_type, LongTermMemory.memory_key, LongTermMemory.content).where(
                LongTermMemory.user_id == user_id
            )
        )
    ]
    for key, old, new in session.execute(
        select(MemoryHistory.memory_key, MemoryHistory.old_content, MemoryHistory.new_content).where(
            MemoryHistory.user_id == user_id
        )
    ):
        texts.extend((None, key, content) for content in (old, new) if content)
    return texts


def _hashes_used_by_others(session: Session, user_id: int, keys: set[str], contents: set[str]) -> set[str]:
    """Hashes of the texts of other users' memories that can coincide with this user's.

    A derived text contains the key or is the content, so only memories sharing one of
    `keys` or `contents` can share a cache entry.
    """
    used: set[str] = set()
    for memory_type, key, content in session.execute(
        select(LongTermMemory.memory_type, LongTermMemory.memory_key, LongTermMemory.content).where(
            LongTermMemory.user_id != user_id,
            LongTermMemory.memory_key.in_(keys) | LongTermMemory.content.in_(contents),
        )
    ):
        used |= derived_text_hashes(memory_type, key, content)
    return used


def _forget_cache_entries(session: Session, user_id: int) -> int:
    """Delete the embedding-cache entries only this user's texts use; returns how many."""
    texts = _user_texts(session, user_id)
    if not texts:
        return 0
    hashes = set().union(*(derived_text_hashes(*text) for text in texts))
    hashes -= _hashes_used_by_others(session, user_id, {key for _, key, _ in texts}, {c for _, _, c in texts})
    if not hashes:
        return 0
    return session.execute(delete(EmbeddingCache).where(EmbeddingCache.text_hash.in_(hashes))).rowcount


def _delete_rows(session: Session, model: type, column: Any, user_id: int) -> int:
    return session.execute(delete(model).where(column == user_id)).rowcount


def _leave_tombstone(session: Session, user_id: int) -> None:
    """Record that the user was forgotten now and their vector purge is pending (again)."""
    now = db_now(session)
    pending = {"forgotten_at": now, "vectors_purged_at": None, "purge_attempts": 0, "purge_error": None}
    session.execute(
        pg_insert(ForgottenUser)
        .values(user_id=user_id, **pending)
        .on_conflict_do_update(index_elements=[ForgottenUser.user_id], set_=pending)
    )


def forget_user(user_id: int) -> dict[str, Any]:
    """Remove everything of `user_id` from PostgreSQL now and purge their Milvus vectors; returns what was removed.

    The result counts memories, history rows, messages, conversations, embedding-cache
    entries, vectors (of the memories removed, those that had one) and the users row
    (0 or 1), and says `milvus`: "deleted" (the purge is verified), "pending" (Milvus failed: the purge is
    queued and `status` lists it until done; `vectors` is then 0) or "disabled". Raises
    ForgetError (and deletes nothing) for an invalid id; never for Milvus.
    """
    try:
        user_id = checked_user_id(user_id)
    except InvalidUserId as exc:
        raise ForgetError(str(exc)) from None
    milvus = get_settings().MEMORY_MILVUS_ENABLED
    with session_scope() as session:
        lock_user(session, user_id)
        memory_ids = list(session.scalars(select(LongTermMemory.id).where(LongTermMemory.user_id == user_id)))
        counts: dict[str, Any] = {"user_id": user_id, "embedding_cache": _forget_cache_entries(session, user_id)}
        counts["history"] = _delete_rows(session, MemoryHistory, MemoryHistory.user_id, user_id)
        counts["memories"] = _delete_rows(session, LongTermMemory, LongTermMemory.user_id, user_id)
        counts["messages"] = _delete_rows(session, Message, Message.user_id, user_id)
        counts["conversations"] = _delete_rows(session, Conversation, Conversation.user_id, user_id)
        counts["users"] = _delete_rows(session, User, User.id, user_id)
        if milvus:
            _leave_tombstone(session, user_id)
    # The lock is released: Milvus is only waited on from here.
    counts["vectors"], counts["milvus"] = 0, "disabled"
    if milvus:
        try:
            counts["vectors"], counts["milvus"] = purge_user_vectors(user_id, memory_ids), "deleted"
        except SYNC_FAILURES:
            logger.warning("vector purge pending", exc_info=True, extra={"user_id": user_id})
            dispatch.enqueue_vector_purge(user_id)
            counts["milvus"] = "pending"
    logger.info("user forgotten", extra=counts)
    return counts


def purge_user_vectors(user_id: int, counted: list[int] | None = None) -> int:
    """Delete every vector of a forgotten user and verify by a strong read; returns how many there were
    (among the memory ids `counted` when given, else all of the user's).

    Marks the tombstone purged once no vector is left, then enqueues the index sync of
    the rows the user wrote since (held DIRTY meanwhile). Without a pending tombstone (a
    purge already verified, a duplicate task) it does nothing and returns 0: the user may
    have come back, and their new vectors must stay. Raises VectorStoreError (or what the
    connection raises) when Milvus fails or still shows a vector; the failure is recorded
    on the tombstone for `status`.
    """
    with session_scope() as session:
        if not users_awaiting_purge(session, {user_id}):
            return 0
    try:
        store = get_store()
        found = 0
        if store is not None:
            found = len(store.present(counted) if counted is not None else store.user_vector_ids(user_id))
            store.delete_user(user_id)  # verified by a strong read
    except SYNC_FAILURES as exc:
        _record_purge(user_id, f"{type(exc).__name__}: {exc}")
        raise
    _record_purge(user_id, None)
    with session_scope() as session:
        waiting = list(
            session.scalars(
                select(LongTermMemory.id).where(
                    LongTermMemory.user_id == user_id, LongTermMemory.vector_status != VectorStatus.SYNCED.value
                )
            )
        )
    dispatch.enqueue_index_sync(waiting)
    return found


def _record_purge(user_id: int, error: str | None) -> None:
    """One purge attempt on the tombstone: verified (error None) or failed with `error`."""
    with session_scope() as session:
        now = db_now(session)
        values: dict[str, Any] = {"purge_attempted_at": now, "purge_attempts": ForgottenUser.purge_attempts + 1}
        values |= (
            {"vectors_purged_at": now, "purge_error": None} if error is None else {"purge_error": redact(error)[:2000]}
        )
        session.execute(
            update(ForgottenUser)
            .where(ForgottenUser.user_id == user_id, ForgottenUser.vectors_purged_at.is_(None))
            .values(**values)
        )


def purges_due(idle_sec: float) -> list[int]:
    """Users whose vector purge is unverified and was not attempted in the last `idle_sec` seconds."""
    with session_scope() as session:
        now = db_now(session)
        return list(
            session.scalars(
                select(ForgottenUser.user_id).where(
                    ForgottenUser.vectors_purged_at.is_(None),
                    or_(
                        ForgottenUser.purge_attempted_at.is_(None),
                        ForgottenUser.purge_attempted_at < now - timedelta(seconds=idle_sec),
                    ),
                )
            )
        )
