"""BM25 over CJK-aware tokens: the lexical signal of the rerank and the scorer of the fallback.

Tokens come from `memory_tasks.memories.similarity.lexical_tokens` (Latin words, Han
character bigrams), so Chinese text without spaces matches on shared bigrams; for search,
English words are also stemmed lightly and question words dropped (on LoCoMo that lifts
BM25 recall@6 from 0.54 to 0.60 and the hybrid rerank by ~1 point, docs/benchmarks.md).
Pure functions only: no database, no model.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from memory_tasks.memories.similarity import lexical_tokens

# The usual Okapi BM25 constants: term-frequency saturation and length normalisation.
K1 = 1.2
B = 0.75
# Words that shape a question or a request but never identify a memory ("when did ...",
# "我住在哪里", "推荐一下..."): a memory sharing only these with the query is no match.
QUESTION_WORDS = frozenset(
    """what when where who whom whose which why how did does do has have had would could should will can may
    might about please tell recommend suggest 什么 哪里 哪儿 哪个 怎么 怎样 多少 推荐 建议 帮我 告诉 一下 一些
    可以 应该 知道 记得""".split()
)
# Suffixes stripped from English words longer than 4 letters, longest first, keeping a stem
# of 3+ letters: "painted"/"painting"/"paints" -> "paint". A light stemmer: it only has to
# map a word's forms onto one token, not produce dictionary words.
_SUFFIXES = ("ingly", "edly", "ing", "ed", "es", "s", "ly")


# Tokens are a small vocabulary and every retrieval stems ~1,000 of them (80 candidates):
# cached, that costs a dictionary lookup each instead of a walk through the suffixes.
@lru_cache(maxsize=65_536)
def stem(token: str) -> str:
    """`token` with one common English inflection removed; non-ASCII and short tokens unchanged."""
    if len(token) <= 4 or not token.isascii():
        return token
    for suffix in _SUFFIXES:
        if token.endswith(suffix) and len(token) - len(suffix) >= 3:
            return token[: -len(suffix)]
    return token


def search_tokens(text: str) -> list[str]:
    """The tokens lexical search compares: `lexical_tokens`, stemmed, without question words."""
    return [stem(token) for token in lexical_tokens(text) if token not in QUESTION_WORDS]


def bm25_scores(query_tokens: Sequence[str], documents: Sequence[Sequence[str]]) -> list[float]:
    """The BM25 score of each tokenised document for the query, in document order.

    0.0 means the document shares no token with the query; higher means a better match,
    with no fixed upper bound. Corpus statistics (document frequency, average length) come
    from `documents` themselves, so scores are only comparable within one call. Each
    distinct query token counts once.
    """
    count = len(documents)
    terms = set(query_tokens)
    if not count or not terms:
        return [0.0] * count
    bags = [Counter(doc) for doc in documents]
    frequency = {term: sum(1 for bag in bags if term in bag) for term in terms}
    idf = {term: math.log(1 + (count - df + 0.5) / (df + 0.5)) for term, df in frequency.items() if df}
    average_length = sum(len(doc) for doc in documents) / count or 1.0
    scores = []
    for doc, bag in zip(documents, bags, strict=True):
        norm = K1 * (1 - B + B * len(doc) / average_length)
        scores.append(sum(weight * bag[t] * (K1 + 1) / (bag[t] + norm) for t, weight in idf.items() if bag[t]))
    return scores
