"""Retrieval before a reply (R-READ): `full_inject`, `dense` + rerank, and the lexical fallback.

`retrieve` is what the chat server calls on its hot path: it never raises and never
writes (access statistics are deferred to a task). `find_memories` is the same search
but lets errors through, for the CLI and tests.

dense: question (less the date words of a period it names) + summary -> `embed_query` -> Milvus
top RETRIEVE_SCAN_LIMIT of this user -> PostgreSQL truth for those ids (this user, active,
unexpired, not noise), joined by the user's rows Milvus may not show yet -> rerank (with the
question's period: `period.py`) -> top RETRIEVE_LIMIT. When the embedder or
Milvus is off or failing, the user's valid memories are ranked lexically instead, within
LONG_TERM_MEMORY_LEXICAL_BUDGET_MS.

Core memories (R-READ-6: standing constraints and safety facts, `extraction/core.py`) are in
every answer of every mode: up to LONG_TERM_MEMORY_CORE_LIMIT of them take their place
whatever the question, safety facts first and the most relevant first within each kind, and
relevance fills the rest of the limit (`with_core_block`). The hits stay ordered by score; `format_memory_block` shows the core
ones first, safety facts ahead of reply rules.

Relevance floor (issue 17 item 3): in dense mode (and its lexical fallback) a memory that is
not core is injected only when its raw cosine with the query reaches
LONG_TERM_MEMORY_RELEVANCE_MIN_COSINE or it holds LONG_TERM_MEMORY_RELEVANCE_MIN_OVERLAP of the
query's tokens (`rerank.is_relevant`): the rescaled similarity gives the best candidate 1.0
however unrelated, so only the raw scores can say "nothing here". A question unrelated to
everything the user said gets the core block alone.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import islice
from typing import Any, Literal, TypeVar

import numpy as np
from sqlalchemy import Row, bindparam, func, or_, select
from sqlalchemy.orm import Session

from config.settings import Settings, get_settings
from memory_tasks import metrics
from memory_tasks.db.models import LongTermMemory, VectorStatus
from memory_tasks.db.session import session_scope
from memory_tasks.extraction.core import is_safety_memory
from memory_tasks.extraction.filters import is_noise_memory
from memory_tasks.memories.store import valid_memories
from memory_tasks.retrieval.access import enqueue_touch
from memory_tasks.retrieval.outage import Outage
from memory_tasks.retrieval.period import Period, named_period, without_period
from memory_tasks.retrieval.rerank import (
    Candidate,
    Ranked,
    RelevanceFloor,
    RerankWeights,
    importance_signal,
    is_relevant,
    last_said_at,
    make_candidate,
    recency_signal,
    rerank,
)
from memory_tasks.shapes import MEMORY_JSON_COLUMNS, memory_json
from memory_tasks.text import checked_user_id
from memory_tasks.vectors.embedders import Embedder, get_embedder
from memory_tasks.vectors.index import cached_vectors, index_text, text_hash
from memory_tasks.vectors.milvus_store import VectorHit, get_store

logger = logging.getLogger(__name__)

Mode = Literal["full_inject", "dense"]
MODES: tuple[Mode, ...] = ("full_inject", "dense")
# e5 reads at most 512 tokens; a longer question + summary only costs embedding time.
MAX_QUERY_CHARS = 2000
# Milvus is searched at Bounded consistency (milvus_store.SEARCH_CONSISTENCY): writes of the
# last few seconds (its gracefulTime, 5 s by default) may not show yet, so rows synced
# within this window are read from PostgreSQL too.
MILVUS_STALENESS_SEC = 10
# In full_inject the recency signal only breaks ties between equally important memories
# (one importance step is 0.25, so recency may add at most less than that).
FULL_INJECT_RECENCY_WEIGHT = 0.1

_Item = TypeVar("_Item")

_vector_path = Outage("vector retrieval (embedder or Milvus)", logger)
_retrieval = Outage("memory retrieval (database)", logger)


@dataclass(frozen=True)
class Hit:
    """One retrieved memory: its public fields (`memory_json`), its score and why it scored.

    `score` is higher for a better match; it is only comparable within one call. `why`
    maps each contributing signal (similarity, lexical, importance, confidence, recency,
    key) to its weighted share of the score; similarity and lexical there are rescaled over
    the candidates. `raw` holds the absolute scores beside them (`rerank.Ranked.raw`: cosine
    with the query, BM25, query-token overlap); empty in full_inject.
    """

    memory: dict[str, Any]
    score: float
    why: dict[str, float]
    raw: dict[str, float] = field(default_factory=dict)

    @property
    def id(self) -> int:
        return self.memory["id"]

    @property
    def memory_key(self) -> str:
        return self.memory["memory_key"]

    @property
    def memory_type(self) -> str:
        return self.memory["memory_type"]

    @property
    def content(self) -> str:
        return self.memory["content"]

    @property
    def is_core(self) -> bool:
        """True for a core memory (a standing constraint or safety fact), injected whatever the question."""
        return bool(self.memory.get("is_core"))

    def to_json(self) -> dict[str, Any]:
        return {**self.memory, "score": round(self.score, 4), "why": self.why, "raw": self.raw}


@dataclass(frozen=True)
class VectorResult:
    """What the vector path found: the user's nearest memories in Milvus, best first."""

    embedder: Embedder
    query_vector: np.ndarray
    hits: list[VectorHit]


def _check_arguments(user_id: int, mode: str, limit: int) -> None:
    """ValueError naming the first bad argument (InvalidUserId for the user id); None when all are valid."""
    checked_user_id(user_id)
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValueError(f"limit must be a positive integer, got {limit!r}")


def query_text(query: str, summary: str | None) -> str:
    """The text searched for: the question, then the conversation summary, capped and valid UTF-8."""
    text = "\n".join(part.strip() for part in (query or "", summary or "") if part and part.strip())
    # Lone surrogates (bad input bytes) would make the embedder fail and trip the outage.
    return text[:MAX_QUERY_CHARS].encode("utf-8", "replace").decode("utf-8")


@contextmanager
def _read_session(settings: Settings) -> Iterator[tuple[Session, datetime]]:
    """A short read transaction whose statements are cut off after RETRIEVE_TIMEOUT_MS, and
    the database clock (`db_now`), fetched in the same round trip."""
    timeout = str(settings.LONG_TERM_MEMORY_RETRIEVE_TIMEOUT_MS)
    with session_scope() as session:
        now = session.execute(select(func.now(), func.set_config("statement_timeout", timeout, True))).one()[0]
        yield session, now


def _hits(ranked: list[Ranked]) -> list[Hit]:
    return [Hit(memory_json(r.memory), r.score, r.why, r.raw) for r in ranked]


def with_core_block(
    items: Sequence[_Item],
    limit: int,
    core_limit: int,
    is_core: Callable[[_Item], bool],
    is_safety: Callable[[_Item], bool] = lambda _: False,
) -> list[_Item]:
    """The `limit` items to inject from `items` (best first): the core block, then the best of the rest.

    The first min(`core_limit`, `limit`) core items are always in, those `is_safety` says guard the
    user's safety before the others (a peanut allergy before a reply-style rule when both cannot
    fit); the remaining places go to the best other items, core or not. Returned in the order of `items`.
    """
    core_indexes = [index for index, item in enumerate(items) if is_core(item)]
    # A stable sort: safety first, each group in the order of `items`.
    core = sorted(core_indexes, key=lambda index: not is_safety(items[index]))[: min(core_limit, limit)]
    chosen = set(core)
    chosen.update(islice((index for index in range(len(items)) if index not in chosen), limit - len(core)))
    return [item for index, item in enumerate(items) if index in chosen]


# Any overlap above zero: the memory holds at least one of the question's search tokens.
ANY_SHARED_TOKEN = 1e-9


def relevance_floor(settings: Settings, *, lexical: bool) -> RelevanceFloor:
    """The floor of the dense path (the settings), or of its lexical fallback (`lexical`): there no
    cosine is known, and a memory sharing any of the question's search tokens is relevant, since
    the overlap the dense path accepts on its own is too strict for Chinese bigrams to answer
    everyday questions while Milvus is down."""
    floor = RelevanceFloor(
        settings.LONG_TERM_MEMORY_RELEVANCE_MIN_COSINE, settings.LONG_TERM_MEMORY_RELEVANCE_MIN_OVERLAP
    )
    if lexical and not floor.off:
        return RelevanceFloor(floor.min_cosine, min(floor.min_overlap, ANY_SHARED_TOKEN))
    return floor


def _top(ranked: list[Ranked], limit: int, core_limit: int, settings: Settings, floor: RelevanceFloor) -> list[Ranked]:
    """The `limit` ranked memories to inject (`with_core_block`): core ones, and others above the
    relevance `floor` (issue 17 item 3); noise left out (R-TYPE-4 at read time)."""
    patterns = settings.noise_key_patterns
    clean = [
        r
        for r in ranked
        if (r.memory.is_core or is_relevant(r, floor))
        and not is_noise_memory(r.memory.memory_key, r.memory.content, patterns)
    ]
    return with_core_block(clean, limit, core_limit, lambda r: r.memory.is_core, guards_safety)


def guards_safety(item: Ranked | LongTermMemory | Hit) -> bool:
    """True for a memory that is a safety fact (`core.is_safety_memory`), not a reply rule."""
    memory = item.memory if isinstance(item, Ranked) else item
    return is_safety_memory(memory.memory_key, memory.content)


def _full_inject(
    session: Session, user_id: int, limit: int, core_limit: int, now: datetime, weights: RerankWeights
) -> list[Hit]:
    """The user's valid memories, most important first, then most recently changed; the core block always in."""
    hits = []
    memories = valid_memories(session, user_id, now)
    chosen = with_core_block(memories, limit, core_limit, lambda m: m.is_core, guards_safety)
    for memory in chosen:
        why = {
            "importance": round(importance_signal(memory.importance), 4),
            "recency": round(
                FULL_INJECT_RECENCY_WEIGHT * recency_signal(last_said_at(memory), now, weights.recency_half_life_days),
                4,
            ),
        }
        hits.append(Hit(memory_json(memory), sum(why.values()), why))
    return hits


def lexical_ranking(
    session: Session, user_id: int, query: str, now: datetime, settings: Settings, period: Period | None = None
) -> list[Ranked]:
    """The user's valid memories ranked without vectors, scanning within the time budget (`period`: the
    one the question names, if any).

    Memories are tokenised most important first, so when the budget runs out the ones
    left unscored are the least important.
    """
    memories = valid_memories(session, user_id, now)
    # The budget bounds the scoring only (the query has its statement_timeout): started before
    # the query, one pause there (a full garbage collection takes ~0.5 s in a big process)
    # used it up before the first memory was scored, and the fallback found nothing.
    deadline = time.perf_counter() + settings.LONG_TERM_MEMORY_LEXICAL_BUDGET_MS / 1000
    candidates: list[Candidate] = []
    for memory in memories:
        if time.perf_counter() > deadline:
            logger.debug(
                "lexical retrieval budget spent",
                extra={"user_id": user_id, "scanned": len(candidates), "memories": len(memories)},
            )
            break
        candidates.append(make_candidate(memory))
    return rerank(candidates, query, RerankWeights.from_settings(settings), now, period)


def vector_search(user_id: int, query: str, settings: Settings) -> VectorResult | None:
    """The user's nearest memories in Milvus, or None when the vector path is off or failing."""
    if not settings.MEMORY_MILVUS_ENABLED:
        _vector_path.failed("MEMORY_MILVUS_ENABLED=false, using lexical retrieval", level=logging.INFO)
        return None
    if _vector_path.skip():
        return None
    try:
        store = get_store()
        embedder = get_embedder()
        vector = embedder.embed_query(query)
        hits = store.search(
            user_id,
            vector.tolist(),
            settings.LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT,
            timeout=settings.MEMORY_MILVUS_SEARCH_TIMEOUT_SEC,
        )
    except Exception as exc:  # noqa: BLE001 - whatever breaks in the vector path, the reply must not
        _vector_path.failed(exc, retry_sec=settings.LONG_TERM_MEMORY_VECTOR_RETRY_SEC)
        return None
    _vector_path.recovered()
    return VectorResult(embedder, vector, hits)


# The user's valid rows (core ones never expire: R-READ-6, memories/lifecycle.py).
_VALID = (
    LongTermMemory.user_id == bindparam("user_id"),
    LongTermMemory.is_active.is_(True),
    or_(
        LongTermMemory.expires_at.is_(None),
        LongTermMemory.expires_at > bindparam("now"),
        LongTermMemory.is_core.is_(True),
    ),
)
# Rows Milvus may not show yet: not SYNCED, or synced within MILVUS_STALENESS_SEC.
_NOT_IN_MILVUS_YET = (
    select(LongTermMemory.id)
    .where(
        *_VALID,
        or_(
            LongTermMemory.vector_status != VectorStatus.SYNCED.value,
            LongTermMemory.vector_synced_at > bindparam("synced_before"),
        ),
    )
    .order_by(LongTermMemory.updated_at.desc())
    .limit(bindparam("scan_limit"))
)
# Built once: building it per question cost ~0.7 ms (docs/benchmarks.md).
_TRUTH = select(*MEMORY_JSON_COLUMNS).where(
    *_VALID,
    or_(
        LongTermMemory.id.in_(bindparam("ids", expanding=True)),
        LongTermMemory.id.in_(_NOT_IN_MILVUS_YET),
        LongTermMemory.is_core.is_(True),
    ),
)


def _truth(session: Session, user_id: int, ids: list[int], now: datetime, scan_limit: int) -> list[Row[Any]]:
    """The user's active, unexpired memories among `ids`, plus such rows Milvus may not show yet.

    Those are rows not SYNCED (written moments ago, or after a failed sync) and rows synced
    within MILVUS_STALENESS_SEC (Milvus searches at Bounded consistency); at most
    `scan_limit` of them, newest first. So a memory is retrievable before its vector lands.
    The user's core memories are always among them, however far from the question.
    Noise is dropped after ranking (`_top`), which checks a handful of rows instead of all.
    Plain rows of MEMORY_JSON_COLUMNS, not ORM objects: the chat path reads them only.
    """
    parameters = {
        "user_id": user_id,
        "now": now,
        "synced_before": now - timedelta(seconds=MILVUS_STALENESS_SEC),
        "scan_limit": scan_limit,
        "ids": ids,
    }
    return session.connection().execute(_TRUTH, parameters).all()


def _similarities(session: Session, found: VectorResult, memories: list[Row[Any]]) -> dict[int, float]:
    """{memory id: cosine with the query}: Milvus' score, or for rows Milvus may not show
    (yet) the cosine of their current text's cached vector."""
    similarity = {hit.memory_id: hit.score for hit in found.hits}
    missing = {
        m.id: text_hash(index_text(m.memory_type, m.memory_key, m.content))
        for m in memories
        if m.id not in similarity or m.vector_status != VectorStatus.SYNCED.value
    }
    if missing:
        vectors = cached_vectors(session, found.embedder, list(missing.values()))
        for memory_id, digest in missing.items():
            if digest in vectors:
                similarity[memory_id] = float(np.dot(found.query_vector, np.asarray(vectors[digest], dtype=np.float32)))
    return similarity


def dense_candidates(
    session: Session, user_id: int, found: VectorResult, now: datetime, settings: Settings
) -> list[Candidate]:
    """The rerank's candidates for a vector search: PostgreSQL's truth for Milvus' hits (and
    the user's rows not synced yet), each with its cosine to the query where known. Noise
    rows are still among them; `find_memories` drops them from the ranking."""
    memories = _truth(
        session, user_id, [h.memory_id for h in found.hits], now, settings.LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT
    )
    similarity = _similarities(session, found, memories)
    return [make_candidate(m, similarity.get(m.id)) for m in memories]


@metrics.RETRIEVAL_DURATION.time()
def find_memories(
    user_id: int, query: str, summary: str | None = None, mode: str | None = None, limit: int | None = None
) -> list[Hit]:
    """The memories to inject before a reply, best first; errors are raised.

    `mode` defaults to LONG_TERM_MEMORY_RETRIEVE_MODE; `limit` to RETRIEVE_LIMIT (dense) or
    FULL_INJECT_LIMIT (full_inject). Up to LONG_TERM_MEMORY_CORE_LIMIT of the hits are the
    user's core memories, whatever the question. A dense search with an empty query and summary
    returns what full_inject would, capped at `limit`. Raises ValueError for bad arguments
    and SQLAlchemy errors when PostgreSQL fails; a failing vector path is not an error
    (the lexical fallback answers).
    """
    settings = get_settings()
    mode = mode or settings.LONG_TERM_MEMORY_RETRIEVE_MODE
    if limit is None and mode == "full_inject":
        limit = settings.LONG_TERM_MEMORY_FULL_INJECT_LIMIT
    elif limit is None:
        limit = settings.LONG_TERM_MEMORY_RETRIEVE_LIMIT
    _check_arguments(user_id, mode, limit)
    text = query_text(query, summary)
    # The question's period ranks what was stated then; its date words stay out of the query vector,
    # which they pull away from what is asked about (period.without_period).
    question = query_text(query, None)
    period = named_period(question)
    found = (
        vector_search(user_id, query_text(without_period(question), summary), settings)
        if mode == "dense" and text
        else None
    )
    core_limit = settings.LONG_TERM_MEMORY_CORE_LIMIT
    with _read_session(settings) as (session, now):
        if mode == "full_inject" or not text:
            hits = _full_inject(session, user_id, limit, core_limit, now, RerankWeights.from_settings(settings))
        elif found is None:
            metrics.RETRIEVAL_FALLBACKS.inc()
            # valid_memories already left noise out; _top checks again, cheaply, on the ranking.
            ranked = lexical_ranking(session, user_id, text, now, settings, period)
            hits = _hits(_top(ranked, limit, core_limit, settings, relevance_floor(settings, lexical=True)))
        else:
            candidates = dense_candidates(session, user_id, found, now, settings)
            ranked = rerank(candidates, text, RerankWeights.from_settings(settings), now, period)
            hits = _hits(_top(ranked, limit, core_limit, settings, relevance_floor(settings, lexical=False)))
    enqueue_touch(user_id, [hit.id for hit in hits], now)
    return hits


def retrieve(
    user_id: int, query: str, summary: str | None = None, mode: str | None = None, limit: int | None = None
) -> list[Hit]:
    """`find_memories` for the chat path: never raises; on any error logs (once) and returns [].

    A broken memory must never break the chat (R-READ-3, R-SAFE-2). Returns [] as well when
    LONG_TERM_MEMORY_ENABLED is false.
    """
    if not get_settings().LONG_TERM_MEMORY_ENABLED:
        return []
    try:
        hits = find_memories(user_id, query, summary=summary, mode=mode, limit=limit)
    except ValueError:
        logger.exception("retrieve called with bad arguments", extra={"user_id": user_id})
        return []
    except Exception as exc:  # noqa: BLE001 - retrieval never raises into the reply path
        _retrieval.failed(exc)
        return []
    _retrieval.recovered()
    return hits
