"""Rebuild the vector index into a new Milvus collection from PostgreSQL truth (R-VEC-4).

Used after a change of embedding model or version (or to repair a damaged collection),
without downtime: the live collection (MEMORY_MILVUS_COLLECTION) is never touched, so
retrieval keeps using it while the new one is built with the current embedder.

    1. build      every active memory, in id order, embedded (through the cache) and written
                  to the new collection;
    2. reconcile  compare PostgreSQL with the collection by text hash and mend what changed
                  meanwhile (edited rows rewritten, deactivated ones removed), until a pass
                  finds nothing left;
    3. switch     the operator sets MEMORY_MILVUS_COLLECTION to the new name for workers and
                  chat servers (with the matching embedding settings) and restarts them, then
                  runs `reindex --reconcile` once to mend changes made between 2 and 3.

Why no automatic alias swap: after a model change, the chat servers must embed queries
with the new model at the same moment they search the new collection, which only their
restart with the new settings does; Milvus 2.3 also cannot give an alias the name of the
existing collection, so the first swap would need a moment with no collection at all.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from sqlalchemy import func, select

from config.settings import get_settings
from memory_tasks.db.models import LongTermMemory
from memory_tasks.db.session import session_scope
from memory_tasks.vectors.embedders import get_embedder
from memory_tasks.vectors.index import embed_texts, index_text, text_hash
from memory_tasks.vectors.milvus_store import MilvusStore, VectorRow

logger = logging.getLogger(__name__)

# Rows per page of the build/reconcile scans (one SELECT, one embedding call per batch, one Milvus write).
PAGE_SIZE = 256
# Reconcile passes after the build; each pass only mends what changed during the previous one.
MAX_RECONCILE_PASSES = 5
_VERSION_SUFFIX = re.compile(r"^(?P<base>.*?)_v(?P<number>\d+)$")


class ReindexError(RuntimeError):
    """The reindex cannot run as asked (Milvus off, target is the live collection, …)."""


@dataclass(frozen=True)
class ReindexPlan:
    live: str  # the collection retrieval uses now
    target: str  # the collection to build
    target_exists: bool  # a leftover of an earlier run: it will be dropped first
    memories: int  # active memories to index
    model: str
    version: int


@dataclass(frozen=True)
class ReconcileResult:
    written: int  # vectors (re)written because they were missing or stale
    removed: int  # vectors removed because their memory is no longer active
    passes: int


@dataclass(frozen=True)
class ReindexResult:
    target: str
    written: int  # vectors written by the build
    reconciled: ReconcileResult
    seconds: float


def next_collection_name(live: str) -> str:
    """`<base>_v<N>`: the first version above the live collection's that does not exist yet.

    "memory_text_v1" gives "memory_text_v2" (or "_v3" when "_v2" exists); a live name
    without a version suffix ("memories") gives "memories_v2".
    """
    match = _VERSION_SUFFIX.match(live)
    base, number = (match["base"], int(match["number"])) if match else (live, 1)
    while True:
        number += 1
        name = f"{base}_v{number}"
        if _store(name).dimension() is None:
            return name


def _store(collection: str) -> MilvusStore:
    settings = get_settings()
    if not settings.MEMORY_MILVUS_ENABLED:
        raise ReindexError("Milvus is disabled (MEMORY_MILVUS_ENABLED=false): there is no index to rebuild")
    return MilvusStore(settings.MEMORY_MILVUS_URI, collection)


def plan_reindex(target: str | None = None) -> ReindexPlan:
    """What a reindex would do; raises ReindexError when it must not run."""
    settings = get_settings()
    live = settings.MEMORY_MILVUS_COLLECTION
    target = target or next_collection_name(live)
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,254}", target):
        raise ReindexError(f"invalid collection name {target!r}: letters, digits and _ only, not starting with a digit")
    if target == live:
        raise ReindexError(f"{target!r} is the live collection (MEMORY_MILVUS_COLLECTION); choose another name")
    with session_scope() as session:
        memories = session.scalar(
            select(func.count()).select_from(LongTermMemory).where(LongTermMemory.is_active.is_(True))
        )
    return ReindexPlan(
        live=live,
        target=target,
        target_exists=_store(target).dimension() is not None,
        memories=int(memories or 0),
        model=get_embedder().model_name,
        version=settings.MEMORY_EMBEDDING_VERSION,
    )


def _pages(active_only: bool) -> Iterator[list[LongTermMemory]]:
    """Memories in id order, PAGE_SIZE per page, each page read in its own short transaction
    (keyset pagination: no long snapshot, nothing skipped when rows are added meanwhile)."""
    last_id = 0
    while True:
        with session_scope() as session:
            query = select(LongTermMemory).where(LongTermMemory.id > last_id)
            if active_only:
                query = query.where(LongTermMemory.is_active.is_(True))
            page = list(session.scalars(query.order_by(LongTermMemory.id).limit(PAGE_SIZE)))
        if not page:
            return
        yield page
        last_id = page[-1].id


def _text(memory: LongTermMemory) -> str:
    return index_text(memory.memory_type, memory.memory_key, memory.content)


def _write(store: MilvusStore, memories: list[LongTermMemory]) -> int:
    """Embed (through the cache) and write these memories' vectors; returns how many."""
    if not memories:
        return 0
    with session_scope() as session:
        vectors = embed_texts(session, get_embedder(), [_text(m) for m in memories])
    store.replace(
        [VectorRow(m.id, m.user_id, text_hash(_text(m)), vectors[text_hash(_text(m))].tolist()) for m in memories],
        flush=False,  # once at the end: a flush per page leaves a segment per partition each time
    )
    return len(memories)


def reconcile(collection: str | None = None) -> ReconcileResult:
    """Make `collection` (default: the live one) match PostgreSQL, pass after pass.

    A vector is rewritten when it is missing, its text hash differs from the memory's current
    index text or Milvus holds more than one row for it, and removed when its memory is no
    longer active. Stops after a pass that changed nothing (or MAX_RECONCILE_PASSES).
    """
    store = _store(collection or get_settings().MEMORY_MILVUS_COLLECTION)
    written = removed = 0
    number = 0
    while number < MAX_RECONCILE_PASSES:
        number += 1
        changed = 0
        for page in _pages(active_only=False):
            stored = store.stored([m.id for m in page])
            # A second row under one id (a delete Milvus lost) is stale too: `replace` removes both.
            stale = [
                m for m in page if m.is_active and not (m.id in stored and stored[m.id].holds(text_hash(_text(m))))
            ]
            gone = [m.id for m in page if not m.is_active and m.id in stored]
            changed += _write(store, stale) + len(gone)
            written += len(stale)
            removed += len(gone)
            store.delete(gone, flush=False)
        if not changed:
            break
    store.flush()  # once: the segments of what was written and removed
    return ReconcileResult(written, removed, number)


def reindex(plan: ReindexPlan, progress: Callable[[int, int], None] | None = None) -> ReindexResult:
    """Build `plan.target` from PostgreSQL with the current embedder, then reconcile it.

    A leftover target collection is dropped first. With no active memory nothing is built
    (the collection is created on its first write). `progress(done, total)` is called
    after each page. Raises VectorStoreError / EmbeddingError when Milvus or the embedder fails
    (the live collection is untouched either way).
    """
    if plan.target == get_settings().MEMORY_MILVUS_COLLECTION:
        raise ReindexError("refusing to rebuild the live collection")
    started = time.perf_counter()
    store = _store(plan.target)
    store.drop()
    written = 0
    for page in _pages(active_only=True):
        written += _write(store, page)
        if progress:
            progress(written, plan.memories)
    reconciled = reconcile(plan.target)
    # What a restart of Milvus loads: the segments of the pages, merged (issue 11 item 7).
    compaction = store.compact()
    result = ReindexResult(plan.target, written, reconciled, time.perf_counter() - started)
    logger.info(
        "reindex built",
        extra={
            "collection": plan.target,
            "written": written,
            "seconds": result.seconds,
            "segments": compaction.segments if compaction else 0,
        },
    )
    return result
