"""BM25 over CJK-aware tokens: the lexical signal of the rerank and the scorer of the fallback.

Tokens come from `memory_tasks.memories.similarity.lexical_tokens` (Latin words, Han
character bigrams), so Chinese text without spaces matches on shared bigrams. Pure
functions only: no database, no model.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

# The usual Okapi BM25 constants: term-frequency saturation and length normalisation.
K1 = 1.2
B = 0.75


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
    idf = {
        term: math.log(1 + (count - df + 0.5) / (df + 0.5)) for term, df in frequency.items() if df
    }
    average_length = sum(len(doc) for doc in documents) / count or 1.0
    scores = []
    for doc, bag in zip(documents, bags, strict=True):
        norm = K1 * (1 - B + B * len(doc) / average_length)
        scores.append(sum(weight * bag[t] * (K1 + 1) / (bag[t] + norm) for t, weight in idf.items() if bag[t]))
    return scores
