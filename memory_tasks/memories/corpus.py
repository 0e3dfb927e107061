"""One user's active memories as dedup, merge and refinement compare them, kept in this process (issue 12 item 2).

Every write compares its candidates with the user's memories of their type. Reading those
rows and their vectors again for each write grows with the user's memory count (at 2,000
memories ~0.3 s a write); this keeps them between writes instead, per worker process:
`UserMemories` holds the rows (id, revision, key, type, content) and, for an embedding
scorer, their vectors stacked in one matrix.

PostgreSQL stays the truth. `refresh` asks it for a digest of the user's active, unexpired
(id, revision) pairs (one row back, computed in the database: their count and the sum of a
60-bit hash of each pair) and compares it with the
digest the copy was built from; on a difference it reads the pairs, and then the rows and
vectors of what changed only. Every change of a memory's text, type, key or visibility bumps
its revision (`memories.store`), so an equal digest means equal rows; support figures
(importance, confidence, reads) change without one, so they are never kept here. After a
write, `note_written` reads back the rows it wrote and updates the digest from them (as
PostgreSQL would compute it), so the next write of the user in this process starts
with one query that returns one row. A rolled-back
write leaves a digest PostgreSQL no longer matches: the next `refresh` mends the copy.

Process-local and per thread rather than shared (Redis): the point is not to decode vectors per write,
and one user's writes are serialized by the user lock, so a worker sees each user's writes
in order. At most CORPUS_USERS users are kept (least recently used first out).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from memory_tasks.db.models import LongTermMemory
from memory_tasks.memories.similarity import EmbeddingScorer, SimilarityScorer, cosine_matrix

# Users whose memories one process keeps (~3 MB each at 2,000 memories and 384 dimensions).
CORPUS_USERS = 32

# The digest: how many rows, and the sum of a 60-bit hash of each (id, revision) pair. A sum, so
# a write updates it from the rows it changed, and PostgreSQL computes the same one.
_DIGEST = text(
    "SELECT count(*), coalesce(sum(('x' || substr(md5(id::text || ':' || revision::text), 1, 15))"
    "::bit(60)::bigint::numeric), 0) "
    "FROM long_term_memories WHERE user_id = :user_id AND is_active "
    "AND (expires_at IS NULL OR expires_at > :now)"
)


def _pair_hash(memory_id: int, revision: int) -> int:
    """The 60-bit hash of one (id, revision) pair, as `_DIGEST` computes it."""
    return int(hashlib.md5(f"{memory_id}:{revision}".encode()).hexdigest()[:15], 16)


@dataclass(frozen=True)
class CorpusRow:
    """A memory as compared: what a new revision changes, and nothing else."""

    id: int
    revision: int
    memory_key: str
    memory_type: str
    content: str


def _live(user_id: int, now: datetime):
    return (
        LongTermMemory.user_id == user_id,
        LongTermMemory.is_active.is_(True),
        (LongTermMemory.expires_at.is_(None)) | (LongTermMemory.expires_at > now),
    )


class UserMemories:
    """One user's active memories with their vectors (an embedding scorer), in row order.

    `rows[i]`, `ids[i]`, `keys[i]`, `types[i]` and the i-th vector describe one memory; a
    changed memory is replaced in place and a removed one by the last row, so a write costs
    the rows it changed, not the user's memory count (the arrays grow by doubling).
    """

    def __init__(self, user_id: int, scorer: SimilarityScorer) -> None:
        self.user_id = user_id
        self.scorer = scorer
        self.digest: tuple[int, int] | None = None
        self._hash_sum = 0  # of the rows held, so `seal` costs nothing per row
        self.rows: list[CorpusRow] = []
        self._position: dict[int, int] = {}
        self._ids = np.zeros(16, dtype=np.int64)
        self._keys = np.zeros(16, dtype=object)
        self._types = np.zeros(16, dtype=object)
        self._matrix: np.ndarray | None = None

    @property
    def ids(self) -> np.ndarray:
        return self._ids[: len(self.rows)]

    @property
    def keys(self) -> np.ndarray:
        return self._keys[: len(self.rows)]

    @property
    def types(self) -> np.ndarray:
        return self._types[: len(self.rows)]

    def _digest(self, session: Session, now: datetime) -> tuple[int, int]:
        count, hash_sum = session.execute(_DIGEST, {"user_id": self.user_id, "now": now}).one()
        return int(count), int(hash_sum)

    def _vectors(self, texts: Sequence[str]) -> np.ndarray | None:
        return self.scorer.vectors(texts) if isinstance(self.scorer, EmbeddingScorer) else None

    def _grow(self, size: int, dim: int | None) -> None:
        if size <= len(self._ids) and (dim is None or self._matrix is not None):
            return
        capacity = max(16, size, 2 * len(self._ids))
        used = len(self.rows)
        for name in ("_ids", "_keys", "_types"):
            old = getattr(self, name)
            grown = np.zeros(capacity, dtype=old.dtype)
            grown[:used] = old[:used]
            setattr(self, name, grown)
        if dim is not None:
            grown = np.zeros((capacity, dim), dtype=np.float32)
            if self._matrix is not None:
                grown[:used] = self._matrix[:used]
            self._matrix = grown

    def _remove(self, memory_id: int) -> None:
        """Drop one row: the last row takes its place."""
        position = self._position.pop(memory_id)
        self._hash_sum -= _pair_hash(memory_id, self.rows[position].revision)
        last = len(self.rows) - 1
        if position != last:
            moved = self.rows[last]
            self.rows[position] = moved
            self._position[moved.id] = position
            self._ids[position], self._keys[position], self._types[position] = (
                moved.id,
                moved.memory_key,
                moved.memory_type,
            )
            if self._matrix is not None:
                self._matrix[position] = self._matrix[last]
        self.rows.pop()

    def _replace(self, session: Session, gone: Collection[int], load: Collection[int], now: datetime) -> None:
        """Drop the rows `gone`, and (re)read the active rows among `load` (the others are dropped too)."""
        fresh = (
            [
                CorpusRow(*row)
                for row in session.execute(
                    select(
                        LongTermMemory.id,
                        LongTermMemory.revision,
                        LongTermMemory.memory_key,
                        LongTermMemory.memory_type,
                        LongTermMemory.content,
                    ).where(*_live(self.user_id, now), LongTermMemory.id.in_(set(load)))
                )
            ]
            if load
            else []
        )
        found = {row.id for row in fresh}
        for memory_id in {*gone, *load} - found:
            if memory_id in self._position:
                self._remove(memory_id)
        vectors = self._vectors([row.content for row in fresh])
        self._grow(len(self.rows) + len(fresh), None if vectors is None else vectors.shape[1])
        for number, row in enumerate(fresh):
            position = self._position.get(row.id)
            if position is None:
                position = len(self.rows)
                self.rows.append(row)
                self._position[row.id] = position
            else:
                self._hash_sum -= _pair_hash(row.id, self.rows[position].revision)
                self.rows[position] = row
            self._hash_sum += _pair_hash(row.id, row.revision)
            self._ids[position], self._keys[position], self._types[position] = row.id, row.memory_key, row.memory_type
            if vectors is not None:
                self._matrix[position] = vectors[number]

    def refresh(self, session: Session, now: datetime) -> UserMemories:
        """Bring the copy in line with PostgreSQL (see the module docstring); returns self."""
        digest = self._digest(session, now)
        if digest == self.digest:
            return self
        pairs = dict(
            session.execute(select(LongTermMemory.id, LongTermMemory.revision).where(*_live(self.user_id, now))).all()
        )
        gone = self._position.keys() - pairs.keys()
        changed = [
            memory_id
            for memory_id, revision in pairs.items()
            if memory_id not in self._position or self.rows[self._position[memory_id]].revision != revision
        ]
        self._replace(session, gone, changed, now)
        self.digest = digest
        return self

    def note_written(self, session: Session, memory_ids: Collection[int], now: datetime) -> None:
        """Re-read these rows after this transaction changed them (dropped when no longer active)."""
        if memory_ids:
            self._replace(session, (), memory_ids, now)
            self.seal()

    def seal(self) -> None:
        """Take the digest of the rows held, as PostgreSQL computes it: this transaction's writes are all noted."""
        self.digest = (len(self.rows), self._hash_sum)

    def scores(self, texts: Sequence[str], of: np.ndarray | None = None) -> np.ndarray:
        """(len(texts), len(rows or `of`)) scores of `texts` against the rows (or the row indices `of`)."""
        count = len(self.rows) if of is None else len(of)
        if len(texts) == 0 or count == 0:
            return np.zeros((len(texts), count), dtype=np.float32)
        if self._matrix is not None:
            # All rows: a view of the matrix, no copy of the user's vectors.
            stored = self._matrix[: len(self.rows)] if of is None or count == len(self.rows) else self._matrix[of]
            return cosine_matrix(self._vectors(texts), stored)
        indices = range(len(self.rows)) if of is None else of
        return np.asarray(self.scorer.matrix(list(texts), [self.rows[i].content for i in indices]))

    def of_types(self, types: Collection[str]) -> np.ndarray:
        """Row indices of the memories of these types, in row order."""
        return np.flatnonzero(np.isin(self.types, list(types)))

    def of_ids(self, memory_ids: Collection[int]) -> np.ndarray:
        """Row indices of these memories (those held)."""
        return np.array([self._position[i] for i in memory_ids if i in self._position], dtype=np.int64)


# Per thread: a copy reads through its caller's session (its scorer's embedder), and the llm
# worker runs stages in threads. A copy shared by two threads let one thread embed through the
# other's session, after that one had closed it: a transaction was opened on it that nobody
# ended, holding its embedding_cache rows locked until the worker exited (issue 12: lock
# timeouts on embedding_cache in bench-pipeline).
_THREAD = threading.local()


def _kept() -> OrderedDict[tuple[int, str], UserMemories]:
    """This thread's kept copies, least recently used first."""
    if not hasattr(_THREAD, "kept"):
        _THREAD.kept = OrderedDict()
    return _THREAD.kept


def user_memories(session: Session, scorer: SimilarityScorer, user_id: int, now: datetime) -> UserMemories:
    """The user's memories as `scorer` compares them, in line with PostgreSQL (kept for this thread's next write)."""
    kept_copies = _kept()
    key = (user_id, scorer.space)
    kept = kept_copies.pop(key, None)
    if kept is None:
        kept = UserMemories(user_id, scorer)
    kept.scorer = scorer  # the same space; this one reads through the caller's session
    kept_copies[key] = kept
    while len(kept_copies) > CORPUS_USERS:
        kept_copies.popitem(last=False)
    return kept.refresh(session, now)


def forget_kept() -> None:
    """Drop this thread's kept copies (a test that empties the database; the digests would mend them anyway)."""
    _kept().clear()
