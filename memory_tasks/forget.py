"""Forget a user (R-LIFE-3): every memory, history row, message, vector and derived datum, one call.

Decisions:
- The `users` row goes too. It holds nothing the project needs once the user's data is
  gone (a name at most), and `record_turn` / the tools create it again if the user comes back.
- Messages and conversations are deleted, not just their memory state: the messages are
  what memories are extracted from, and a rescan would otherwise rebuild them.
- Milvus enabled but unreachable: the call fails with ForgetError and PostgreSQL is left
  as it was (one transaction, rolled back). Deleting the truth and reporting vectors as
  "pending" would leave vectors no sweep can find any more (their rows are gone), so the
  right to be forgotten would be silently incomplete. Run it again when Milvus is back.
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
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from memory_tasks.db.models import Conversation, EmbeddingCache, LongTermMemory, MemoryHistory, Message, User
from memory_tasks.db.session import session_scope
from memory_tasks.extraction.candidates import MEMORY_TYPES
from memory_tasks.memories.store import lock_user
from memory_tasks.text import InvalidUserId, checked_user_id
from memory_tasks.vectors.index import index_text, text_hash
from memory_tasks.vectors.milvus_store import MilvusStore, get_store

logger = logging.getLogger(__name__)


class ForgetError(RuntimeError):
    """The user could not be forgotten; nothing was deleted."""


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


def _vector_store() -> MilvusStore | None:
    """The Milvus store, None when disabled; ForgetError when it is enabled but unreachable."""
    try:
        return get_store()
    except Exception as exc:  # the client raises several unrelated types on connect
        raise ForgetError(
            f"Milvus is enabled but unreachable ({exc}); nothing was deleted, run again when it is back"
        ) from exc


def _forget_vectors(store: MilvusStore, user_id: int, memory_ids: list[int]) -> int:
    """Delete every vector of the user (by user filter); returns how many of their memories had one."""
    try:
        found = len(store.stored(memory_ids))
        store.delete_user(user_id)
    except Exception as exc:
        raise ForgetError(
            f"deleting the vectors of user {user_id} in Milvus failed ({exc}); "
            "nothing was deleted, run again when Milvus is back"
        ) from exc
    return found


def forget_user(user_id: int) -> dict[str, Any]:
    """Remove everything of `user_id` from PostgreSQL and Milvus; returns what was removed.

    The result counts memories, history rows, messages, conversations, embedding-cache
    entries, vectors and the users row (0 or 1), and says `milvus`: "deleted" or
    "disabled". Raises ForgetError (and deletes nothing) for an invalid id or an
    unreachable Milvus.
    """
    try:
        user_id = checked_user_id(user_id)
    except InvalidUserId as exc:
        raise ForgetError(str(exc)) from None
    store = _vector_store()
    with session_scope() as session:
        lock_user(session, user_id)
        memory_ids = list(session.scalars(select(LongTermMemory.id).where(LongTermMemory.user_id == user_id)))
        counts: dict[str, Any] = {"user_id": user_id, "embedding_cache": _forget_cache_entries(session, user_id)}
        counts["history"] = _delete_rows(session, MemoryHistory, MemoryHistory.user_id, user_id)
        counts["memories"] = _delete_rows(session, LongTermMemory, LongTermMemory.user_id, user_id)
        counts["messages"] = _delete_rows(session, Message, Message.user_id, user_id)
        counts["conversations"] = _delete_rows(session, Conversation, Conversation.user_id, user_id)
        counts["users"] = _delete_rows(session, User, User.id, user_id)
        # Milvus last, still inside the transaction: if it fails, PostgreSQL rolls back.
        counts["vectors"] = _forget_vectors(store, user_id, memory_ids) if store is not None else 0
        counts["milvus"] = "deleted" if store is not None else "disabled"
    if store is not None:
        # An index sync that read the rows before this transaction may have written a vector
        # since the delete above; a second pass after the commit removes it.
        try:
            store.delete_user(user_id)
        except Exception:
            logger.warning("second Milvus pass failed", exc_info=True, extra={"user_id": user_id})
    logger.info("user forgotten", extra=counts)
    return counts
