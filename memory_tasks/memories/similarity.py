"""Similarity of memory texts for semantic dedup and merge (SPEC R-PIPE-4).

Two scorers share one interface (`SimilarityScorer`):

* `EmbeddingScorer` — cosine similarity of L2-normalised embeddings. On paper the range is
  [-1, 1]; multilingual-e5-small compresses it into roughly [0.75, 1.0] (median on the labeled
  set: unrelated memories 0.83, related-but-different facts 0.90, paraphrases 0.95), so its
  thresholds are model-specific.
* `LexicalScorer` — cosine of CJK-aware token counts in [0, 1]: 0 shares no token, 1 has the
  same tokens. It needs no model and is the fallback when no embedder is available; it only
  recognises near-verbatim repeats, not paraphrases.

Callers compare memory *content*, not the index text "[{memory_type}] {memory_key}: {content}":
the type/key prefix makes same-slot and related memories look alike (docs/quality.md, "Dedup").

Each scorer carries its own dedup threshold ("score >= dedup_threshold with an existing memory
means the same memory: reuse and update it") and merge threshold ("two active memories at
>= merge_threshold are merged after writing"), read from the settings, because the two scales
are not comparable. Pure functions only: no Celery, no database.
"""

from __future__ import annotations

import math
import re
import unicodedata
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Sequence
from typing import Literal

import numpy as np

from config.settings import Settings
from memory_tasks.text import HAN, HAN_CHAR, has_han
from memory_tasks.vectors.embedders import Embedder

# Latin letters/digits form words; Han characters (plus the CJK extension A block and the
# compatibility ideographs) form runs that are cut into bigrams, because Chinese has no spaces.
_TOKEN_RUN = re.compile(rf"[a-z0-9]+(?:'[a-z]+)?|[{HAN}]+")

# Function words that carry no memory content. Chinese ones split a Han run (so no bigram
# spans them); "user" is here because extractors write "The user ..." / "用户..." at will.
_EN_STOPWORDS = frozenset(
    """a an the is are was were be been am to of in on at for with and or but by from as it its
    this that these those i me my we our you your he his she her they their user user's""".split()
)
# Longer words first: the alternation takes the first that matches (用户 before 用, 我们 before 我).
_ZH_STOPWORDS = ("用户", "我们", *"的了我你他她它是也都很就呢吧啊吗着请")
_ZH_STOP_SPLIT = re.compile("|".join(re.escape(word) for word in _ZH_STOPWORDS))


def _han_tokens(run: str) -> list[str]:
    """Bigrams of a Han run with its stopwords removed as separators; a 1-char piece stays a unigram."""
    tokens: list[str] = []
    for piece in _ZH_STOP_SPLIT.split(run):
        if len(piece) == 1:
            tokens.append(piece)
        else:
            tokens.extend(piece[i : i + 2] for i in range(len(piece) - 1))
    return tokens


def lexical_tokens(text: str) -> list[str]:
    """Content tokens of `text`, in order, duplicates kept.

    NFKC folds full-width letters/digits (Ｐｙｔｈｏｎ, １５) to ASCII; Latin/digit words are
    lowercased and stopwords dropped; Han runs become character bigrams (unigrams for single
    characters). Punctuation and other symbols separate tokens and are never tokens themselves.
    """
    # NFKC leaves the typographic apostrophe alone; fold it so "doesn’t" matches "doesn't".
    normalised = unicodedata.normalize("NFKC", text).replace("\u2019", "'").lower()
    tokens: list[str] = []
    for run in _TOKEN_RUN.findall(normalised):
        if HAN_CHAR.match(run):
            tokens.extend(_han_tokens(run))
        elif run not in _EN_STOPWORDS:
            tokens.append(run)
    return tokens


def lexical_similarity(a: str, b: str) -> float:
    """Cosine of the token-count vectors of `a` and `b`, in [0, 1].

    1.0 = the same tokens in the same proportions (identical texts), 0.0 = no shared token
    (or a side with no tokens at all). Symmetric. Cosine rather than Dice/Jaccard: it measured
    marginally better on the labeled pairs, and unlike the overlap coefficient it does not give
    1.0 to a text contained in a longer one (喜欢川菜 / 喜欢川菜和粤菜).
    """
    return _count_cosine(Counter(lexical_tokens(a)), Counter(lexical_tokens(b)))


def _count_cosine(counts_a: Counter[str], counts_b: Counter[str]) -> float:
    """Cosine of two token-count vectors in [0, 1]; 0.0 when either is empty."""
    if not counts_a or not counts_b:
        return 0.0
    dot = sum(count * counts_b[token] for token, count in counts_a.items())
    norm = math.sqrt(sum(c * c for c in counts_a.values()) * sum(c * c for c in counts_b.values()))
    return min(1.0, dot / norm)


def cosine_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(len(a), len(b)) cosine similarities of two stacks of L2-normalised row vectors, in [-1, 1]."""
    return np.clip(np.asarray(a, dtype=np.float32) @ np.asarray(b, dtype=np.float32).T, -1.0, 1.0)


class SimilarityScorer(ABC):
    """Scores how alike two memory texts are; higher = more alike, on the scorer's own scale."""

    name: str

    def __init__(
        self, dedup_threshold: float, merge_threshold: float, latin_dedup_threshold: float | None = None
    ) -> None:
        self.dedup_threshold = dedup_threshold
        self.merge_threshold = merge_threshold
        self.latin_dedup_threshold = dedup_threshold if latin_dedup_threshold is None else latin_dedup_threshold

    def dedup_threshold_for(self, text_a: str, text_b: str) -> float:
        """The dedup threshold for this pair: `latin_dedup_threshold` when neither text has Chinese.

        Scores of English pairs sit lower on e5-small (paraphrases ~0.94 against ~0.96 in
        Chinese, docs/quality.md); `memories/values.py` guards the lower threshold.
        """
        if has_han(text_a) or has_han(text_b):
            return self.dedup_threshold
        return self.latin_dedup_threshold

    @property
    @abstractmethod
    def space(self) -> str:
        """What the scores are computed from: two scorers of one space give the same scores."""

    @abstractmethod
    def matrix(self, texts_a: Sequence[str], texts_b: Sequence[str]) -> np.ndarray:
        """(len(texts_a), len(texts_b)) float array: score of every a against every b."""

    @abstractmethod
    def score_pairs(self, texts_a: Sequence[str], texts_b: Sequence[str]) -> np.ndarray:
        """(n,) float array: score of texts_a[i] against texts_b[i]; both sides have length n."""


def _check_same_length(texts_a: Sequence[str], texts_b: Sequence[str]) -> None:
    if len(texts_a) != len(texts_b):
        raise ValueError(f"score_pairs needs two lists of one length, got {len(texts_a)} and {len(texts_b)}")


class EmbeddingScorer(SimilarityScorer):
    """Cosine of the embeddings of two memory texts.

    Scores lie in [-1, 1]; on multilingual-e5-small they sit in ~[0.75, 1.0] (unrelated
    memories ~0.83, paraphrases ~0.95), so thresholds are model-specific. Thresholds come from
    LONG_TERM_MEMORY_DEDUP_THRESHOLD / _MERGE_THRESHOLD (the seed's 0.82 / 0.90, for OpenAI
    models) or, for the local e5 model, MEMORY_LOCAL_DEDUP_THRESHOLD / _MERGE_THRESHOLD
    (0.93 / 0.96, measured in docs/quality.md).

    `prefix="query"` (default) embeds both sides as queries: E5 models are trained to use the
    "query: " prefix on both sides for symmetric similarity, and on tests/data/dedup_pairs.jsonl
    it separates same from different memories better (ROC AUC 0.77 against 0.68 with
    "passage: "). `prefix="passage"` embeds in one batch call, cheaper for a remote API.
    """

    name = "embedding"

    def __init__(self, embedder: Embedder, settings: Settings, prefix: Literal["query", "passage"] = "query") -> None:
        super().__init__(
            *settings.embedding_thresholds(embedder.model_name), settings.latin_dedup_threshold(embedder.model_name)
        )
        self.embedder = embedder
        self.prefix = prefix

    @property
    def space(self) -> str:
        return f"embedding:{self.embedder.model_name}:{self.prefix}"

    def vectors(self, texts: Sequence[str]) -> np.ndarray:
        """(len(texts), dim) normalised float32 vectors on this scorer's side: score = cosine_matrix of two stacks."""
        if not texts:
            return np.zeros((0, self.embedder.dim), dtype=np.float32)
        embed = self.embedder.embed_passages if self.prefix == "passage" else self.embedder.embed_queries
        return np.asarray(embed(list(texts)), dtype=np.float32)

    def _embed(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """One normalised vector per distinct text: a text on both sides is embedded once."""
        unique = list(dict.fromkeys(texts))
        return dict(zip(unique, self.vectors(unique), strict=True))

    def matrix(self, texts_a: Sequence[str], texts_b: Sequence[str]) -> np.ndarray:
        if not texts_a or not texts_b:
            return np.zeros((len(texts_a), len(texts_b)), dtype=np.float32)
        vectors = self._embed([*texts_a, *texts_b])
        return cosine_matrix(np.stack([vectors[t] for t in texts_a]), np.stack([vectors[t] for t in texts_b]))

    def score_pairs(self, texts_a: Sequence[str], texts_b: Sequence[str]) -> np.ndarray:
        _check_same_length(texts_a, texts_b)
        if not texts_a:
            return np.zeros(0, dtype=np.float32)
        vectors = self._embed([*texts_a, *texts_b])
        rows = [float(vectors[a] @ vectors[b]) for a, b in zip(texts_a, texts_b, strict=True)]
        return np.clip(np.asarray(rows, dtype=np.float32), -1.0, 1.0)


class LexicalScorer(SimilarityScorer):
    """`lexical_similarity` in [0, 1] (cosine of CJK-aware token counts); needs no model.

    Thresholds come from LONG_TERM_MEMORY_LEXICAL_DEDUP_THRESHOLD / _LEXICAL_MERGE_THRESHOLD.
    """

    name = "lexical"

    def __init__(self, settings: Settings) -> None:
        super().__init__(
            settings.LONG_TERM_MEMORY_LEXICAL_DEDUP_THRESHOLD, settings.LONG_TERM_MEMORY_LEXICAL_MERGE_THRESHOLD
        )

    @property
    def space(self) -> str:
        return "lexical"

    def matrix(self, texts_a: Sequence[str], texts_b: Sequence[str]) -> np.ndarray:
        # Tokenise each text once, not once per cell.
        counts_b = [Counter(lexical_tokens(b)) for b in texts_b]
        rows = [[_count_cosine(Counter(lexical_tokens(a)), cb) for cb in counts_b] for a in texts_a]
        return np.array(rows, dtype=np.float32).reshape(len(texts_a), len(texts_b))

    def score_pairs(self, texts_a: Sequence[str], texts_b: Sequence[str]) -> np.ndarray:
        _check_same_length(texts_a, texts_b)
        return np.array([lexical_similarity(a, b) for a, b in zip(texts_a, texts_b, strict=True)], dtype=np.float32)


def get_scorer(settings: Settings, embedder: Embedder | None) -> SimilarityScorer:
    """The embedding scorer when an embedder is available, else the lexical one (no model needed)."""
    if embedder is None:
        return LexicalScorer(settings)
    return EmbeddingScorer(embedder, settings)
