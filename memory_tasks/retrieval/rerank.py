"""The rerank of retrieval candidates (R-READ-2): one weighted sum of signals in [0, 1].

    score = w_similarity * similarity + w_lexical * lexical + w_importance * importance
          + w_confidence * confidence + w_recency * recency + w_key * key + w_period * period

* similarity - the vector path's cosine, rescaled over the candidates of this query
  (best = 1, worst = 0): cosines of one embedding model sit in a narrow band (e5: ~0.75-0.95),
  so raw values would let the small tie-breakers below outvote a clearly better match.
* lexical - BM25 of the query against the memory's index text, divided by the best BM25
  among the candidates (CJK-aware, lightly stemmed tokens; see `lexical.py`).
* importance - (importance - 1) / 4; confidence as stored; recency - 0.5 ** (days since the
  memory was last said / half-life): its last change or its last confirmation, whichever is
  later (a repeat confirms a memory without changing it, so a memory said again yesterday is
  as fresh as one written yesterday).
* key - share of the memory key's words the query mentions ("home-city" and "which city
  is my home" -> 1.0).
* period - 1.0 when the question names a day, month or year ("on May 3, 2023", "in June",
  「2023年5月」: `period`, read by the caller from the question alone, not the conversation
  summary; `period.py`) and the memory was stated in it or within a week after (its
  `stated_at` or, first written then, its `created_at`); 0.0 otherwise, for every memory
  when no period is named, and for core memories (they hold whenever they were said).

Beside the weighted, rescaled signals (`why`), each ranked memory keeps its raw scores
(`raw`): `cosine`, the vector path's cosine with the query (absent when unknown), `bm25`, and
`overlap`, the share of the query's distinct search tokens found in the memory's index text
(in [0, 1], independent of the other candidates). The rescaled signals say which candidate is
best; only the raw ones say whether any is relevant at all (`is_relevant`, the relevance floor).

When no candidate has a similarity (the vector path is off or failed), the lexical signal
carries both relevance weights, so the fallback ranks by relevance as firmly as dense does.
Higher similarity always ranks higher, all else equal (the seed's reference inverted this).
Pure functions only: no database, no model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Protocol

from config.settings import Settings
from memory_tasks.retrieval.lexical import bm25_scores, search_tokens
from memory_tasks.retrieval.period import Period, stated_in
from memory_tasks.vectors.index import index_text

SECONDS_PER_DAY = 86_400.0


class MemoryLike(Protocol):
    """What the rerank reads of a memory (a `LongTermMemory` row fits)."""

    memory_key: str
    memory_type: str
    content: str
    importance: int
    confidence: float
    updated_at: datetime | None
    last_confirmed_at: datetime | None
    stated_at: datetime | None
    created_at: datetime | None
    is_core: bool


@dataclass(frozen=True)
class RerankWeights:
    """The weight of each signal; 0 switches a signal off."""

    similarity: float = 1.0
    lexical: float = 0.6
    importance: float = 0.05
    confidence: float = 0.03
    recency: float = 0.03
    key: float = 0.1
    period: float = 1.0
    recency_half_life_days: float = 90.0

    @classmethod
    def from_settings(cls, settings: Settings) -> RerankWeights:
        return cls(
            similarity=settings.LONG_TERM_MEMORY_RERANK_W_SIMILARITY,
            lexical=settings.LONG_TERM_MEMORY_RERANK_W_LEXICAL,
            importance=settings.LONG_TERM_MEMORY_RERANK_W_IMPORTANCE,
            confidence=settings.LONG_TERM_MEMORY_RERANK_W_CONFIDENCE,
            recency=settings.LONG_TERM_MEMORY_RERANK_W_RECENCY,
            key=settings.LONG_TERM_MEMORY_RERANK_W_KEY,
            period=settings.LONG_TERM_MEMORY_RERANK_W_PERIOD,
            recency_half_life_days=settings.LONG_TERM_MEMORY_RECENCY_HALF_LIFE_DAYS,
        )


@dataclass(frozen=True)
class Candidate:
    """A memory up for ranking: its index-text tokens and its vector similarity, if known."""

    memory: MemoryLike
    tokens: tuple[str, ...]
    similarity: float | None = None


@dataclass(frozen=True)
class Ranked:
    """A ranked memory: `score` is the sum of `why`, the weighted signals that contributed;
    `raw` its unscaled cosine (when known), BM25 and query-token overlap (module docstring)."""

    memory: MemoryLike
    score: float
    why: dict[str, float]
    raw: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class RelevanceFloor:
    """The absolute relevance a memory needs to be injected (core memories need none).

    `min_cosine` applies to the raw cosine with the query, `min_overlap` to the share of the
    query's tokens the memory contains; either one suffices. 0 / 0 switches the floor off.
    """

    min_cosine: float
    min_overlap: float

    @property
    def off(self) -> bool:
        return self.min_cosine <= 0 and self.min_overlap <= 0


def is_relevant(ranked: Ranked, floor: RelevanceFloor) -> bool:
    """True when `ranked` clears the floor on its raw cosine or its query-token overlap."""
    if floor.off:
        return True
    cosine = ranked.raw.get("cosine")
    if cosine is not None and cosine >= floor.min_cosine:
        return True
    return floor.min_overlap > 0 and ranked.raw.get("overlap", 0.0) >= floor.min_overlap


def make_candidate(memory: MemoryLike, similarity: float | None = None) -> Candidate:
    """A candidate tokenised from the memory's index text (type, key and content)."""
    text = index_text(memory.memory_type, memory.memory_key, memory.content)
    return Candidate(memory, tuple(search_tokens(text)), similarity)


def importance_signal(importance: int) -> float:
    """Importance 1..5 mapped onto 0..1 (out-of-range values are clamped)."""
    return min(1.0, max(0.0, (importance - 1) / 4))


def recency_signal(updated_at: datetime | None, now: datetime, half_life_days: float) -> float:
    """1.0 for a memory changed just now, 0.5 after one half-life; 0.0 when the time is unknown."""
    if updated_at is None:
        return 0.0
    age_days = max(0.0, (now - updated_at).total_seconds() / SECONDS_PER_DAY)
    return 0.5 ** (age_days / half_life_days)


def last_said_at(memory: MemoryLike) -> datetime | None:
    """When the memory was last stated: its last change or confirmation, the later; None when neither is known."""
    times = [t for t in (memory.updated_at, memory.last_confirmed_at) if t is not None]
    return max(times, default=None)


# Keys repeat across a user's questions and across users ("home-city"): each is tokenised once.
@lru_cache(maxsize=16_384)
def key_words(memory_key: str) -> frozenset[str]:
    """The distinct search tokens of a memory key ("home-city" -> {"home", "city"})."""
    return frozenset(search_tokens(memory_key))


def key_signal(memory_key: str, query_tokens: set[str]) -> float:
    """Share of the key's words (e.g. "home", "city" of "home-city") found among the query's tokens."""
    words = key_words(memory_key)
    return len(words & query_tokens) / len(words) if words else 0.0


def overlap(query_tokens: set[str], tokens: Sequence[str]) -> float:
    """Share of the distinct query tokens found among `tokens`, in [0, 1]; 0.0 for an empty query."""
    return len(query_tokens.intersection(tokens)) / len(query_tokens) if query_tokens else 0.0


def _relative(values: Sequence[float | None]) -> list[float]:
    """Known values rescaled to [0, 1] over their own range (all equal -> 1.0); unknown -> 0.0."""
    known = [v for v in values if v is not None]
    if not known:
        return [0.0] * len(values)
    low, high = min(known), max(known)
    span = high - low
    return [0.0 if v is None else (1.0 if span <= 0 else (v - low) / span) for v in values]


def rerank(
    candidates: Sequence[Candidate], query: str, weights: RerankWeights, now: datetime, period: Period | None = None
) -> list[Ranked]:
    """The candidates ranked best first by the weighted signals (ties keep the input order); `period`: the
    one the question names, if any."""
    if not candidates:
        return []
    query_tokens = search_tokens(query)
    query_set = set(query_tokens)
    bm25 = bm25_scores(query_tokens, [c.tokens for c in candidates])
    best_bm25 = max(bm25)
    similarity = _relative([c.similarity for c in candidates])
    has_vectors = any(c.similarity is not None for c in candidates)
    lexical_weight = weights.lexical if has_vectors else weights.lexical + weights.similarity

    ranked = []
    for candidate, sim, lex in zip(candidates, similarity, bm25, strict=True):
        memory = candidate.memory
        signals = {
            "similarity": weights.similarity * sim,
            "lexical": lexical_weight * (lex / best_bm25 if best_bm25 > 0 else 0.0),
            "importance": weights.importance * importance_signal(memory.importance),
            "confidence": weights.confidence * min(1.0, max(0.0, memory.confidence)),
            "recency": weights.recency * recency_signal(last_said_at(memory), now, weights.recency_half_life_days),
            "key": weights.key * key_signal(memory.memory_key, query_set),
            # A standing constraint or safety fact holds whenever it was said: its place in the core
            # block is decided by relevance alone, not by the period a question names.
            "period": weights.period * (not memory.is_core and stated_in(period, memory.stated_at, memory.created_at)),
        }
        why = {name: round(value, 4) for name, value in signals.items() if value > 0}
        raw = {"bm25": round(lex, 4), "overlap": round(overlap(query_set, candidate.tokens), 4)}
        if candidate.similarity is not None:
            raw = {"cosine": round(candidate.similarity, 4), **raw}
        ranked.append(Ranked(memory, sum(signals.values()), why, raw))
    ranked.sort(key=lambda r: r.score, reverse=True)
    return ranked
