"""Evaluate the dedup similarity scorers on labeled memory pairs (SPEC R-PIPE-4).

    python -m bench.eval_dedup [--data tests/data/dedup_pairs.jsonl]

A pair is "the same memory" when `same` is true (kind "paraphrase"). A scorer predicts "same"
when its score >= a threshold. For each scorer, and for the two texts a memory can be compared
by (its content alone, or its index text "[{memory_type}] {memory_key}: {content}"), this
prints precision/recall/F1 at the seed's thresholds (0.82, 0.90) and at the configured ones,
the best-F1 threshold of a sweep, ROC AUC, and the median score per kind of pair.
`evaluate()` returns the same figures for tests.

Then what the pipeline decides for each pair with the embedding scorer (`decide`): a pair
under one key is one memory when the second statement confirms the first
(`dedup.says_nothing_new`), else the new value overwrites; a pair under two keys is one
memory when dedup would redirect one onto the other (`dedup.find_duplicate`: same type,
score at the pair's dedup threshold, no guard showing different facts). Per language: the
recall of paraphrases and how many different pairs of each kind were taken for one memory.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np

from config.settings import Settings, get_settings
from memory_tasks.memories.dedup import different_facts, says_nothing_new
from memory_tasks.memories.similarity import EmbeddingScorer, LexicalScorer, SimilarityScorer
from memory_tasks.vectors.embedders import Embedder, get_embedder

DEFAULT_DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "dedup_pairs.jsonl"
# The English pairs of issue 13 item 2, written before any score was looked at.
EN_PAIRS = DEFAULT_DATA.with_name("dedup_pairs_en.jsonl")
# A second English set, written in session 28 before any score was looked at (docs/quality.md "English pairs").
EN_HELDOUT_PAIRS = DEFAULT_DATA.with_name("dedup_pairs_en_heldout.jsonl")
SEED_THRESHOLDS = (0.82, 0.90)
KINDS = ("paraphrase", "same-slot-new-value", "related-different", "unrelated")
TextField = Literal["content", "index"]
# "different-keys": only pairs whose keys differ. Same-key pairs never reach similarity in the
# pipeline (a new value for a key overwrites it, R-PIPE-5), so this is what dedup decides there.
Subset = Literal["all", "different-keys"]


@dataclass(frozen=True)
class MemorySide:
    memory_type: str
    key: str
    content: str

    def text(self, field: TextField) -> str:
        """The text dedup compares: the content alone, or the index text the vector store embeds."""
        if field == "content":
            return self.content
        return f"[{self.memory_type}] {self.key}: {self.content}"


@dataclass(frozen=True)
class Pair:
    id: str
    kind: str
    same: bool
    lang: str
    a: MemorySide
    b: MemorySide


@dataclass(frozen=True)
class Metrics:
    """Quality of "score >= threshold means the same memory" over the labeled pairs."""

    threshold: float
    precision: float  # of pairs predicted same, the share labeled same (1.0 when none is predicted)
    recall: float  # of pairs labeled same, the share predicted same
    f1: float
    predicted: int  # pairs at or above the threshold


@dataclass(frozen=True)
class ScorerEvaluation:
    scorer: str  # "embedding/query", "embedding/passage" or "lexical"
    text: TextField
    subset: Subset
    pairs: int
    dedup_threshold: float  # the scorer's configured thresholds
    merge_threshold: float
    at: dict[float, Metrics]  # seed and configured thresholds
    best: Metrics  # highest F1 over every observed score as threshold
    auc: float  # P(a random same pair outscores a random different pair); 0.5 = chance
    median_by_kind: dict[str, float]
    share_at_dedup_by_kind: dict[str, float]  # share of each kind scored >= dedup_threshold


def load_pairs(path: Path = DEFAULT_DATA) -> list[Pair]:
    """The labeled pairs of a JSON-lines file (format: tests/data/dedup_pairs.jsonl)."""
    pairs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            a, b = row["a"], row["b"]
            pairs.append(
                Pair(
                    id=row["id"],
                    kind=row["kind"],
                    same=bool(row["same"]),
                    lang=row.get("lang", "?"),
                    a=MemorySide(a["memory_type"], a["key"], a["content"]),
                    b=MemorySide(b["memory_type"], b["key"], b["content"]),
                )
            )
    return pairs


def metrics_at(scores: np.ndarray, labels: np.ndarray, threshold: float) -> Metrics:
    """Precision, recall and F1 of predicting same for scores >= threshold."""
    predicted = scores >= threshold
    true_pos = int(np.sum(predicted & labels))
    precision = true_pos / int(predicted.sum()) if predicted.any() else 1.0
    recall = true_pos / int(labels.sum()) if labels.any() else 0.0
    f1 = 2 * precision * recall / (precision + recall) if true_pos else 0.0
    return Metrics(float(threshold), precision, recall, f1, int(predicted.sum()))


def best_threshold(scores: np.ndarray, labels: np.ndarray) -> Metrics:
    """The threshold with the highest F1, trying every observed score; ties go to the higher threshold."""
    candidates = [metrics_at(scores, labels, float(t)) for t in np.unique(scores)]
    return max(candidates, key=lambda m: (m.f1, m.threshold))


def roc_auc(scores: np.ndarray, labels: np.ndarray) -> float:
    """Over every (same pair, different pair) combination, the share where the same pair scores higher.

    Ties count half; 0.5 = chance, 1.0 = some threshold separates same from different perfectly.
    """
    pos, neg = scores[labels][:, None], scores[~labels][None, :]
    return float(np.mean((pos > neg) + 0.5 * (pos == neg)))


def _subset(pairs: Sequence[Pair], subset: Subset) -> np.ndarray:
    """Boolean mask of the pairs in `subset`."""
    if subset == "all":
        return np.ones(len(pairs), dtype=bool)
    return np.array([p.a.key != p.b.key for p in pairs], dtype=bool)


def evaluate_scorer(
    scorer: SimilarityScorer,
    pairs: Sequence[Pair],
    text: TextField = "content",
    subsets: Sequence[Subset] = ("all",),
    label: str | None = None,
) -> list[ScorerEvaluation]:
    """Score every pair with `scorer` on `text` once and measure it against the labels of each subset."""
    all_scores = scorer.score_pairs([p.a.text(text) for p in pairs], [p.b.text(text) for p in pairs])
    thresholds = sorted({*SEED_THRESHOLDS, scorer.dedup_threshold, scorer.merge_threshold})
    results = []
    for subset in subsets:
        mask = _subset(pairs, subset)
        scores = all_scores[mask]
        labels = np.array([p.same for p in pairs], dtype=bool)[mask]
        kinds = np.array([p.kind for p in pairs])[mask]
        present = [k for k in KINDS if np.any(kinds == k)]
        results.append(
            ScorerEvaluation(
                scorer=label or scorer.name,
                text=text,
                subset=subset,
                pairs=int(mask.sum()),
                dedup_threshold=scorer.dedup_threshold,
                merge_threshold=scorer.merge_threshold,
                at={t: metrics_at(scores, labels, t) for t in thresholds},
                best=best_threshold(scores, labels),
                auc=roc_auc(scores, labels),
                median_by_kind={k: float(np.median(scores[kinds == k])) for k in present},
                share_at_dedup_by_kind={
                    k: float(np.mean(scores[kinds == k] >= scorer.dedup_threshold)) for k in present
                },
            )
        )
    return results


def evaluate(
    path: Path = DEFAULT_DATA,
    settings: Settings | None = None,
    embedder: Embedder | None = None,
    texts: Sequence[TextField] = ("content", "index"),
    subsets: Sequence[Subset] = ("all", "different-keys"),
) -> list[ScorerEvaluation]:
    """Evaluate the embedding scorer (query and passage prefixes) and the lexical scorer on every text."""
    settings = settings or get_settings()
    embedder = embedder or get_embedder()
    pairs = load_pairs(path)
    scorers: list[tuple[str, SimilarityScorer]] = [
        ("embedding/query", EmbeddingScorer(embedder, settings, prefix="query")),
        ("embedding/passage", EmbeddingScorer(embedder, settings, prefix="passage")),
        ("lexical", LexicalScorer(settings)),
    ]
    return [
        result
        for label, scorer in scorers
        for text in texts
        for result in evaluate_scorer(scorer, pairs, text, subsets, label)
    ]


def decide(scorer: SimilarityScorer, pair: Pair) -> bool:
    """True when the pipeline would keep `pair` as one memory (see the module docstring)."""
    a, b = pair.a, pair.b
    if a.key == b.key:
        return says_nothing_new(scorer, a.content, b.content)
    if a.memory_type != b.memory_type:
        return False
    score = float(scorer.score_pairs([b.content], [a.content])[0])
    return score >= scorer.dedup_threshold_for(b.content, a.content) and not different_facts(
        b.key, b.content, a.key, a.content
    )


@dataclass(frozen=True)
class DecisionSummary:
    """What the pipeline decides for the pairs of one language."""

    lang: str
    paraphrases: int
    paraphrases_joined: int  # paraphrases kept as one memory (recall = joined / paraphrases)
    joined_by_kind: dict[str, tuple[int, int]]  # different kinds: (pairs taken for one memory, pairs)

    @property
    def recall(self) -> float:
        return self.paraphrases_joined / self.paraphrases if self.paraphrases else 0.0


def decision_summaries(scorer: SimilarityScorer, pairs: Sequence[Pair]) -> list[DecisionSummary]:
    """`decide` over `pairs`, summarised per language (and over all of them as "all")."""
    decided = [(pair, decide(scorer, pair)) for pair in pairs]
    summaries = []
    for lang in ["all", *sorted({p.lang for p in pairs})]:
        rows = [(p, d) for p, d in decided if lang in ("all", p.lang)]
        same = [d for p, d in rows if p.same]
        by_kind = {
            kind: (sum(d for p, d in rows if p.kind == kind), sum(p.kind == kind for p, _ in rows))
            for kind in KINDS
            if kind != "paraphrase" and any(p.kind == kind for p, _ in rows)
        }
        summaries.append(DecisionSummary(lang, len(same), sum(same), by_kind))
    return summaries


def format_decisions(scorer: SimilarityScorer, summaries: Sequence[DecisionSummary]) -> str:
    """The pipeline's decisions as text, one line per language."""
    lines = [
        "",
        f"== pipeline decision with {scorer.name} (dedup {scorer.dedup_threshold:.3f}, pairs without Chinese "
        f"{scorer.latin_dedup_threshold:.3f}, merge/confirm {scorer.merge_threshold:.3f})",
        "lang  paraphrases kept as one (recall)   different pairs taken for one memory, per kind",
    ]
    for s in summaries:
        kinds = ", ".join(f"{kind} {joined}/{total}" for kind, (joined, total) in s.joined_by_kind.items())
        lines.append(f"{s.lang:5} {s.paraphrases_joined:3}/{s.paraphrases:<3} ({s.recall:.3f})              {kinds}")
    return "\n".join(lines)


def _prf(m: Metrics) -> str:
    return f"{m.precision:.2f}/{m.recall:.2f}/{m.f1:.2f}"


def format_report(path: Path, pairs: Sequence[Pair], results: Sequence[ScorerEvaluation]) -> str:
    """A plain-text report of `results`, one block per subset."""
    langs = Counter(p.lang for p in pairs)
    lines = [
        f"dedup eval: {path} - {len(pairs)} pairs, {sum(p.same for p in pairs)} same; "
        + ", ".join(f"{lang} {n}" for lang, n in sorted(langs.items())),
        "P/R/F1 of 'score >= t means the same memory'; AUC 0.5 = chance",
    ]
    for subset in dict.fromkeys(r.subset for r in results):
        rows = [r for r in results if r.subset == subset]
        labels = np.array([p.same for p in pairs], dtype=bool)[_subset(pairs, subset)]
        always = metrics_at(np.ones(len(labels)), labels, 0.0)
        lines += [
            "",
            f"== {subset}: {rows[0].pairs} pairs; baseline 'every pair is the same' P/R/F1 = {_prf(always)}",
            (
                f"{'scorer':18} {'text':8} {'AUC':>5}  {'@0.82':>14} {'@0.90':>14}  {'dedup t: P/R/F1':>22} "
                f"{'merge t: P/R/F1':>22}  {'best F1 t: P/R/F1':>22}"
            ),
        ]
        for r in rows:
            dedup, merge = r.at[r.dedup_threshold], r.at[r.merge_threshold]
            lines.append(
                f"{r.scorer:18} {r.text:8} {r.auc:5.3f}  {_prf(r.at[0.82]):>14} {_prf(r.at[0.90]):>14}  "
                f"{r.dedup_threshold:>6.3f}: {_prf(dedup):>14} {r.merge_threshold:>6.3f}: {_prf(merge):>14}  "
                f"{r.best.threshold:>6.3f}: {_prf(r.best):>14}"
            )
        lines += ["", "median score per kind (share of the kind >= the scorer's dedup threshold)"]
        lines.append(f"{'scorer':18} {'text':8} " + " ".join(f"{k:>22}" for k in KINDS))
        for r in rows:
            cells = [
                f"{r.median_by_kind[k]:.3f} ({r.share_at_dedup_by_kind[k]:4.0%})" if k in r.median_by_kind else "-"
                for k in KINDS
            ]
            lines.append(f"{r.scorer:18} {r.text:8} " + " ".join(f"{c:>22}" for c in cells))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.eval_dedup", description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="labeled pairs, JSON lines")
    args = parser.parse_args(argv)
    embedder = get_embedder()
    print(f"embedder: {embedder.model_name} (dim {embedder.dim})")
    pairs = load_pairs(args.data)
    print(format_report(args.data, pairs, evaluate(args.data, embedder=embedder)))
    scorer = EmbeddingScorer(embedder, get_settings())
    print(format_decisions(scorer, decision_summaries(scorer, pairs)))


if __name__ == "__main__":
    main()
