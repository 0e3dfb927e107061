"""Index sync: memory rows -> embeddings (cached by text hash) -> Milvus (R-VEC-2/3/4).

Two steps, each safe to re-run: `embed_memories` makes sure the cache holds a vector for
each row's current index text; `sync_vectors` writes those vectors to Milvus (or removes
rows that are no longer valid) and marks the rows SYNCED by compare-and-set on the
revision it read, so an edit made meanwhile leaves the row DIRTY for the next sweep.
"""

from __future__ import annotations

import hashlib
import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import Literal

import numpy as np
from sqlalchemy import case, func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from config.settings import get_settings
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import EmbeddingCache, ForgottenUser, LongTermMemory, VectorStatus
from memory_tasks.db.session import session_scope
from memory_tasks.errors import is_transient
from memory_tasks.redaction import redact
from memory_tasks.vectors.embedders import Embedder, EmbeddingError, get_embedder
from memory_tasks.vectors.milvus_store import MilvusStore, VectorRow, VectorStoreError, get_store

logger = logging.getLogger(__name__)

EmbeddingKind = Literal["passage", "query"]


def index_text(memory_type: str, memory_key: str, content: str) -> str:
    """The text that is embedded for a memory: `[{memory_type}] {memory_key}: {content}`."""
    return f"[{memory_type}] {memory_key}: {content}"


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _memory_text(memory: LongTermMemory) -> str:
    return index_text(memory.memory_type, memory.memory_key, memory.content)


def _cache_model(embedder: Embedder, kind: EmbeddingKind) -> str:
    # Query-side vectors (used for text-vs-text similarity) are cached apart from passages.
    return embedder.model_name if kind == "passage" else f"{embedder.model_name}|query"


# Vectors this process read or made lately, by (cache model, version, text hash): at most this
# many (~30 MB at 384 dimensions). A vector never changes for its key, so nothing is invalidated.
PROCESS_CACHE_SIZE = 20_000


class _VectorLRU:
    """Process-local LRU in front of the PostgreSQL cache (`EmbeddingCache`).

    Dedup and refine compare a candidate with every memory of its type on each write; reading
    and parsing those REAL[] rows from PostgreSQL again for every write would grow with the
    user's memory count. PostgreSQL stays the cache every process shares (nothing is embedded
    twice across workers); this layer only saves re-reading it. Process-local rather than
    Redis: a Redis read would still cost a round trip and a decode per vector.
    """

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._vectors: OrderedDict[tuple[str, int, str], np.ndarray] = OrderedDict()

    def get(self, key: tuple[str, int, str]) -> np.ndarray | None:
        vector = self._vectors.get(key)
        if vector is not None:
            self._vectors.move_to_end(key)
        return vector

    def put(self, key: tuple[str, int, str], vector: np.ndarray) -> None:
        self._vectors[key] = vector
        self._vectors.move_to_end(key)
        while len(self._vectors) > self.capacity:
            self._vectors.popitem(last=False)

    def clear(self) -> None:
        self._vectors.clear()


PROCESS_VECTORS = _VectorLRU(PROCESS_CACHE_SIZE)


def cached_vectors(
    session: Session, embedder: Embedder, hashes: list[str], kind: EmbeddingKind = "passage"
) -> dict[str, np.ndarray]:
    """{text hash: float32 vector} already cached (in this process or PostgreSQL) for this model + version + kind."""
    if not hashes:
        return {}
    model, version = _cache_model(embedder, kind), get_settings().MEMORY_EMBEDDING_VERSION
    found: dict[str, np.ndarray] = {}
    for digest in set(hashes):
        vector = PROCESS_VECTORS.get((model, version, digest))
        if vector is not None:
            found[digest] = vector
    missing = [digest for digest in set(hashes) if digest not in found]
    if missing:
        rows = session.execute(
            select(EmbeddingCache.text_hash, EmbeddingCache.vector).where(
                EmbeddingCache.model == model,
                EmbeddingCache.version == version,
                EmbeddingCache.text_hash.in_(missing),
            )
        )
        for digest, stored in rows:
            found[digest] = np.asarray(stored, dtype=np.float32)
            PROCESS_VECTORS.put((model, version, digest), found[digest])
    return found


def embed_texts(
    session: Session, embedder: Embedder, texts: list[str], kind: EmbeddingKind = "passage"
) -> dict[str, np.ndarray]:
    """{text hash: float32 vector} for every text, embedding only what no cache holds.

    What is missing goes to the model in as few calls as MEMORY_INDEX_WORKER_BATCH_SIZE allows
    (one for a message's memories), and into both caches.
    """
    by_hash = {text_hash(t): t for t in texts}
    found = cached_vectors(session, embedder, list(by_hash), kind)
    missing = [h for h in by_hash if h not in found]
    batch_size = get_settings().MEMORY_INDEX_WORKER_BATCH_SIZE
    version = get_settings().MEMORY_EMBEDDING_VERSION
    model = _cache_model(embedder, kind)
    embed = embedder.embed_passages if kind == "passage" else embedder.embed_queries
    for start in range(0, len(missing), batch_size):
        batch = missing[start : start + batch_size]
        vectors = np.asarray(embed([by_hash[h] for h in batch]), dtype=np.float32)
        rows = [
            {"model": model, "version": version, "text_hash": h, "vector": v.tolist()}
            for h, v in zip(batch, vectors, strict=True)
        ]
        session.execute(pg_insert(EmbeddingCache).values(rows).on_conflict_do_nothing())
        for digest, vector in zip(batch, vectors, strict=True):
            found[digest] = vector
            PROCESS_VECTORS.put((model, version, digest), vector)
    return found


def embed_memories(memory_ids: list[int]) -> list[int]:
    """Make sure each active row's current index text has a cached vector.

    Returns the ids given, for the next stage. Inactive rows need no vector (they are
    only removed from Milvus).
    """
    if not memory_ids:
        return []
    embedder = get_embedder()
    with session_scope() as session:
        memories = session.scalars(
            select(LongTermMemory).where(LongTermMemory.id.in_(memory_ids), LongTermMemory.is_active.is_(True))
        ).all()
        embed_texts(session, embedder, [_memory_text(m) for m in memories])
    return memory_ids


@dataclass(frozen=True)
class SyncResult:
    written: int
    removed: int
    synced: int
    skipped: int


@dataclass(frozen=True)
class IsolatedSyncResult(SyncResult):
    """A batch synced row by row: also how many rows failed (marked FAILED or DEAD)."""

    failed: int


# What makes the sync of some rows fail (they are marked FAILED), transient or not; a bug is none of these.
SYNC_FAILURES: tuple[type[BaseException], ...] = (EmbeddingError, VectorStoreError, OSError)


def users_awaiting_purge(session: Session, user_ids: set[int]) -> set[int]:
    """Those of `user_ids` forgotten whose vector purge is not verified yet: no vector is written for them."""
    if not user_ids:
        return set()
    return set(
        session.scalars(
            select(ForgottenUser.user_id).where(
                ForgottenUser.user_id.in_(user_ids), ForgottenUser.vectors_purged_at.is_(None)
            )
        )
    )


# First int of PostgreSQL's two-int advisory lock: the namespace of memories being synced to Milvus.
INDEX_SYNC_LOCK_NAMESPACE = 7_240_004


def lock_for_sync(session: Session, memory_ids: list[int]) -> list[int]:
    """Those of `memory_ids` that exist, now held by this transaction until it ends, waiting
    (up to the session's lock_timeout) for any other sync holding one of them.

    A sync holds its rows from the snapshot to the SYNCED mark: otherwise a sync that read
    revision 1 and is held in its Milvus write could land after a sync of revision 2 marked
    the row SYNCED, and a stale vector would sit behind a SYNCED row for good. Waiting (not
    skipping) keeps the newer sync live: it reads the newest revision once the older one is
    done, and nothing depends on the sweep (off by default). The locks are taken in id order,
    so two syncs of overlapping rows never wait for each other in a circle.
    """
    in_order = (
        select(LongTermMemory.id).where(LongTermMemory.id.in_(memory_ids)).order_by(LongTermMemory.id).offset(0)
    ).subquery()  # OFFSET 0: sorted before the locks are taken, not after
    rows = session.execute(select(in_order.c.id, func.pg_advisory_xact_lock(INDEX_SYNC_LOCK_NAMESPACE, in_order.c.id)))
    return [memory_id for memory_id, _ in rows]


def sync_vectors(memory_ids: list[int], store: MilvusStore | None = None, *, flush: bool = False) -> SyncResult:
    """Bring Milvus in line with PostgreSQL for these memories, then mark them SYNCED.

    `flush` after the writes: for a one-off bulk write only. Each flush leaves a segment per
    partition, which a restart must load: the chain's writes and the sweep's batches are not
    flushed here, the end of each sweep run flushes them once (`jobs.seal_segments`).

    A sync of rows another sync holds waits for it (`lock_for_sync`). A row counts as
    `skipped` (left DIRTY) when it changed after it was read here (the change's own sync
    follows), or when its user was forgotten and the purge of their vectors is not verified yet.
    Raises VectorStoreError / EmbeddingError when Milvus or the embedder fails; the
    caller marks the rows FAILED or retries.
    """
    store = store if store is not None else get_store()
    if store is None or not memory_ids:
        return SyncResult(0, 0, 0, 0)
    embedder = get_embedder()
    version = get_settings().MEMORY_EMBEDDING_VERSION
    synced = 0
    # One transaction from the snapshot to the mark: it holds the sync locks across the Milvus writes.
    with session_scope() as session:
        locked_ids = lock_for_sync(session, memory_ids)
        memories = session.scalars(select(LongTermMemory).where(LongTermMemory.id.in_(locked_ids))).all()
        # A purge by user filter is pending for these users: their rows wait (DIRTY) until it is verified.
        held = users_awaiting_purge(session, {m.user_id for m in memories})
        held_rows = sum(1 for m in memories if m.user_id in held)
        memories = [m for m in memories if m.user_id not in held]
        snapshot = {m.id: (m.revision, m.is_active, text_hash(_memory_text(m)), m.user_id) for m in memories}
        texts = [_memory_text(m) for m in memories if m.is_active]
        # The cache rows are committed at once: a sync of another memory with the same text
        # must not wait for this transaction's Milvus writes.
        with session_scope() as cache_session:
            vectors = embed_texts(cache_session, embedder, texts)

        live = [(mid, rev, h, uid) for mid, (rev, active, h, uid) in snapshot.items() if active]
        gone = [mid for mid, (_, active, _, _) in snapshot.items() if not active]
        store.replace([VectorRow(mid, uid, h, vectors[h].tolist()) for mid, _, h, uid in live], flush=flush)
        store.delete(gone, flush=flush)

        now = db_now(session)
        for memory_id, (revision, active, digest, _) in snapshot.items():
            result = session.execute(
                update(LongTermMemory)
                .where(LongTermMemory.id == memory_id, LongTermMemory.revision == revision)
                .values(
                    vector_status=VectorStatus.SYNCED.value,
                    vector_synced_at=now,
                    vector_error=None,
                    vector_model=embedder.model_name if active else None,
                    vector_version=version if active else None,
                    vector_text_hash=digest if active else None,
                    vector_claimed_at=None,
                    vector_attempts=0,
                    vector_next_attempt_at=None,
                    vector_checked_at=None,  # a fresh write is the first the audit checks
                )
            )
            synced += result.rowcount
        still_there = set(session.scalars(select(LongTermMemory.id).where(LongTermMemory.id.in_(list(snapshot)))))
    # A user forgotten while this sync ran: its rows are gone, so no sweep would ever
    # find the vectors written above.
    store.delete([memory_id for memory_id in snapshot if memory_id not in still_there])
    return SyncResult(len(live), len(gone), synced, len(snapshot) - synced + held_rows)


def sync_vectors_one_by_one(memory_ids: list[int], store: MilvusStore | None = None) -> IsolatedSyncResult:
    """Sync each row alone (after its batch failed), so one bad row holds back no other (issue 11, item 4).

    A row that fails alone is marked FAILED with backoff and counts one attempt (DEAD at
    MEMORY_INDEX_MAX_ATTEMPTS). A transient failure before any row succeeded is an outage,
    not the row's fault: that row and the rest are marked FAILED without counting an attempt.
    Nothing is flushed (the end of the sweep run does).
    """
    store = store if store is not None else get_store()
    if store is None or not memory_ids:
        return IsolatedSyncResult(0, 0, 0, 0, 0)
    totals = {"written": 0, "removed": 0, "synced": 0, "skipped": 0, "failed": 0}
    for position, memory_id in enumerate(memory_ids):
        try:
            result = sync_vectors([memory_id], store, flush=False)
        except SYNC_FAILURES as exc:
            error = f"{type(exc).__name__}: {exc}"
            if is_transient(exc) and totals["synced"] == 0:
                rest = memory_ids[position:]
                mark_vector_failed(rest, error, outage=True)
                totals["failed"] += len(rest)
                logger.warning("index outage", extra={"memory_ids": rest, "error": error[:500]})
                break
            mark_vector_failed([memory_id], error)
            totals["failed"] += 1
            logger.warning("index sync of one row failed", extra={"memory_id": memory_id, "error": error[:500]})
            continue
        for name in ("written", "removed", "synced", "skipped"):
            totals[name] += getattr(result, name)
    return IsolatedSyncResult(**totals)


def mark_vector_failed(memory_ids: list[int], error: str, *, outage: bool = False) -> None:
    """Record why these rows could not be synced; the sweep retries them after a backoff.

    `outage` (Milvus or the embedder down for everyone): the rows wait the base backoff and
    no attempt is counted, so an outage never kills a row. Otherwise the row's attempts go
    up by one, it waits MEMORY_INDEX_RETRY_BACKOFF_SEC * 2^(attempts-1) (at most
    MEMORY_INDEX_RETRY_BACKOFF_MAX_SEC) and is DEAD from MEMORY_INDEX_MAX_ATTEMPTS on.
    """
    settings = get_settings()
    base = settings.MEMORY_INDEX_RETRY_BACKOFF_SEC
    if outage:
        attempts = LongTermMemory.vector_attempts
        status = VectorStatus.FAILED.value
        delay = func.least(base, settings.MEMORY_INDEX_RETRY_BACKOFF_MAX_SEC)
    else:
        attempts = LongTermMemory.vector_attempts + 1
        status = case(
            (attempts >= settings.MEMORY_INDEX_MAX_ATTEMPTS, VectorStatus.DEAD.value), else_=VectorStatus.FAILED.value
        )
        delay = func.least(
            base * func.power(2, LongTermMemory.vector_attempts), settings.MEMORY_INDEX_RETRY_BACKOFF_MAX_SEC
        )
    with session_scope() as session:
        session.execute(
            update(LongTermMemory)
            .where(LongTermMemory.id.in_(memory_ids), LongTermMemory.vector_status != VectorStatus.SYNCED.value)
            .values(
                vector_status=status,
                vector_error=redact(error)[:2000],
                vector_claimed_at=None,
                vector_attempts=attempts,
                vector_next_attempt_at=func.now() + func.make_interval(0, 0, 0, 0, 0, 0, delay),
            )
        )


def revive_dead_vectors(memory_ids: list[int] | None = None) -> list[int]:
    """Give DEAD vectors another life: back to DIRTY with their attempts, backoff and error reset.

    `memory_ids` None means every DEAD row; otherwise only those of them that are DEAD.
    Returns the ids revived (ascending): the next sweep, or an index sync sent for them, syncs them.
    """
    query = update(LongTermMemory).where(LongTermMemory.vector_status == VectorStatus.DEAD.value)
    if memory_ids is not None:
        query = query.where(LongTermMemory.id.in_(memory_ids))
    with session_scope() as session:
        revived = session.scalars(
            query.values(
                vector_status=VectorStatus.DIRTY.value,
                vector_attempts=0,
                vector_next_attempt_at=None,
                vector_claimed_at=None,
                vector_error=None,
            ).returning(LongTermMemory.id)
        ).all()
    if revived:
        logger.info("dead vectors revived", extra={"memory_ids": sorted(revived)})
    return sorted(revived)
