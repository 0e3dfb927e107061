"""Similarity scorers for semantic dedup and merge (R-PIPE-4), and their quality floors.

The floors are measured on tests/data/dedup_pairs.jsonl with `python -m bench.eval_dedup`
(docs/quality.md, "Dedup"), at the thresholds recommended there, and set a little below.
"""

from __future__ import annotations

import numpy as np
import pytest

from bench.eval_dedup import (
    EN_HELDOUT_PAIRS,
    EN_PAIRS,
    ScorerEvaluation,
    decision_summaries,
    evaluate_scorer,
    load_pairs,
)
from config.settings import Settings
from memory_tasks.memories.similarity import (
    EmbeddingScorer,
    LexicalScorer,
    cosine_matrix,
    get_scorer,
    lexical_similarity,
    lexical_tokens,
)
from memory_tasks.vectors.embedders import LocalE5Embedder

# Recommended for multilingual-e5-small (query prefix on both sides, content only) and for the
# lexical fallback; see docs/quality.md.
RECOMMENDED = Settings(
    LONG_TERM_MEMORY_DEDUP_THRESHOLD=0.93,
    LONG_TERM_MEMORY_MERGE_THRESHOLD=0.96,
    LONG_TERM_MEMORY_LEXICAL_DEDUP_THRESHOLD=0.90,
    LONG_TERM_MEMORY_LEXICAL_MERGE_THRESHOLD=0.95,
)

# The same memory extracted twice with cosmetic differences: every scorer must call these the same.
NEAR_VERBATIM = [
    ("喜欢吃川菜", "用户喜欢吃川菜。"),
    ("住在杭州", "我住在杭州"),
    ("对花生过敏", "我对花生过敏"),
    ("Likes tea", "The user likes tea."),
    ("Allergic to peanuts", "The user is allergic to peanuts."),
    ("Prefers Python for scripting", "prefers python for scripting!"),
]


@pytest.fixture(scope="module")
def embedder() -> LocalE5Embedder:
    return LocalE5Embedder()


@pytest.fixture(scope="module")
def embedding_eval(embedder: LocalE5Embedder) -> dict[str, ScorerEvaluation]:
    """The embedding scorer on the labeled pairs, by text compared ("content" / "index")."""
    scorer = EmbeddingScorer(embedder, RECOMMENDED)
    pairs = load_pairs()
    return {text: evaluate_scorer(scorer, pairs, text, ("all",))[0] for text in ("content", "index")}


def test_tokens_of_chinese_without_spaces_are_bigrams() -> None:
    """R-PIPE-4: Chinese has no spaces, so Han runs become character bigrams; stopwords (我) split runs."""
    assert lexical_tokens("我喜欢吃川菜") == ["喜欢", "欢吃", "吃川", "川菜"]
    assert lexical_tokens("住在杭州") == ["住在", "在杭", "杭州"]


def test_single_han_character_is_a_unigram() -> None:
    """R-PIPE-4: a one-character run (here left between stopwords) is kept as a unigram."""
    assert lexical_tokens("我的猫") == ["猫"]


def test_tokens_of_mixed_text_drop_punctuation_and_fold_width() -> None:
    """R-PIPE-4: Latin words are lowercased inside Chinese text; full-width forms fold to ASCII."""
    assert lexical_tokens("用户写代码首选Python，VS Code也常用！") == [
        "写代",
        "代码",
        "码首",
        "首选",
        "python",
        "vs",
        "code",
        "常用",
    ]
    assert lexical_tokens("Ｐｙｔｈｏｎ３！") == ["python3"]
    assert lexical_tokens("The user likes tea.") == ["likes", "tea"]


def test_identical_text_scores_one_and_empty_text_zero() -> None:
    """R-PIPE-4: identical memories are the same (1.0); a text without tokens matches nothing."""
    for text in ("喜欢吃川菜", "Lives in Berlin", "写代码首选Python"):
        assert lexical_similarity(text, text) == pytest.approx(1.0)
    assert lexical_similarity("！？。", "喜欢吃川菜") == 0.0


def test_lexical_similarity_is_symmetric_and_in_range() -> None:
    """R-PIPE-4: lexical scores lie in [0, 1] and do not depend on the order of the pair."""
    for pair in load_pairs():
        ab = lexical_similarity(pair.a.content, pair.b.content)
        assert 0.0 <= ab <= 1.0
        assert ab == pytest.approx(lexical_similarity(pair.b.content, pair.a.content))


def test_cosine_matrix_of_normalised_vectors() -> None:
    """R-PIPE-4: cosine of unit vectors is their dot product, one row per left vector."""
    a = np.array([[1.0, 0.0], [0.6, 0.8]])
    b = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]])
    assert cosine_matrix(a, b) == pytest.approx(np.array([[1.0, 0.0, 0.6], [0.6, 0.8, 1.0]]))


def test_get_scorer_picks_thresholds_of_its_scale(embedder: LocalE5Embedder) -> None:
    """R-PIPE-4: each scorer carries the thresholds of its own scale from the settings."""
    lexical = get_scorer(RECOMMENDED, None)
    assert isinstance(lexical, LexicalScorer)
    assert (lexical.dedup_threshold, lexical.merge_threshold) == (0.90, 0.95)
    embedding = get_scorer(RECOMMENDED, embedder)
    assert isinstance(embedding, EmbeddingScorer)
    assert (embedding.dedup_threshold, embedding.merge_threshold) == (0.93, 0.96)


@pytest.mark.parametrize("prefix", ["query", "passage"])
def test_embedding_scorer_is_symmetric_with_identical_text_at_one(embedder: LocalE5Embedder, prefix: str) -> None:
    """R-PIPE-4: cosine of a text with itself is 1; pair scores equal the matrix diagonal, both ways."""
    scorer = EmbeddingScorer(embedder, RECOMMENDED, prefix=prefix)
    left = ["喜欢吃川菜", "Lives in Berlin", "写代码首选Python"]
    right = ["喜欢吃粤菜", "住在柏林", "写代码首选Python"]
    pairs = scorer.score_pairs(left, right)
    assert pairs == pytest.approx(scorer.score_pairs(right, left), abs=1e-6)
    assert pairs == pytest.approx(np.diag(scorer.matrix(left, right)), abs=1e-6)
    assert pairs[2] == pytest.approx(1.0, abs=1e-5)
    assert np.all((pairs >= -1.0) & (pairs <= 1.0))
    assert scorer.matrix(left, []).shape == (3, 0)


def test_score_pairs_needs_equal_lengths() -> None:
    """R-PIPE-4: pairing lists of different lengths is a caller bug, reported at once."""
    with pytest.raises(ValueError, match="one length"):
        LexicalScorer(RECOMMENDED).score_pairs(["a", "b"], ["a"])


def test_near_verbatim_duplicates_pass_both_dedup_thresholds(embedder: LocalE5Embedder) -> None:
    """R-PIPE-4: a memory re-extracted with cosmetic changes is deduplicated by either scorer."""
    left, right = [a for a, _ in NEAR_VERBATIM], [b for _, b in NEAR_VERBATIM]
    for scorer in (EmbeddingScorer(embedder, RECOMMENDED), LexicalScorer(RECOMMENDED)):
        assert np.all(scorer.score_pairs(left, right) >= scorer.dedup_threshold), scorer.name


def test_embedding_floor_at_recommended_thresholds(embedding_eval: dict[str, ScorerEvaluation]) -> None:
    """R-PIPE-4: measured P 0.60 / R 0.73 at 0.93, P 0.63 / R 0.26 at 0.96, AUC 0.77 (all pairs)."""
    result = embedding_eval["content"]
    dedup, merge = result.at[0.93], result.at[0.96]
    assert dedup.precision >= 0.55 and dedup.recall >= 0.65
    assert merge.precision >= 0.55 and merge.recall >= 0.2
    assert result.auc >= 0.72
    # No unrelated memory is ever taken for the same one (max unrelated score measured 0.853).
    assert result.share_at_dedup_by_kind["unrelated"] == 0.0


def test_content_separates_better_than_index_text(embedding_eval: dict[str, ScorerEvaluation]) -> None:
    """R-PIPE-4: dedup compares content; the "[type] key:" prefix lifts same-slot and related pairs."""
    assert embedding_eval["content"].auc > embedding_eval["index"].auc + 0.03
    assert embedding_eval["content"].at[0.93].precision > embedding_eval["index"].at[0.93].precision


def test_lexical_fallback_never_merges_different_memories() -> None:
    """R-PIPE-4: at its recommended thresholds the lexical scorer takes no labeled different pair for the same."""
    result = evaluate_scorer(LexicalScorer(RECOMMENDED), load_pairs(), "content", ("all",))[0]
    for kind in ("same-slot-new-value", "related-different", "unrelated"):
        assert result.share_at_dedup_by_kind[kind] == 0.0, kind


def test_english_pairs_merge_as_paraphrases_and_never_as_new_values(embedder: LocalE5Embedder) -> None:
    """Issue 13 item 2: on both English pair sets, the pipeline keeps >= 0.85 of paraphrases as one memory
    and takes no pair stating a new value of a slot, nor a related fact, for one memory (nor a new value on the
    older set's English pairs). Related: "Lives in Toronto" / "Works in Toronto", "Lives in Chicago" / "Was born
    in Chicago" are other ties to one place (`dedup.keys_name_other_place_relations`)."""
    scorer = EmbeddingScorer(embedder, Settings(_env_file=None))
    new_set = decision_summaries(scorer, load_pairs(EN_PAIRS))[0]
    assert new_set.recall >= 0.85
    assert new_set.joined_by_kind["same-slot-new-value"][0] == 0
    assert new_set.joined_by_kind["related-different"][0] == 0
    heldout = decision_summaries(scorer, load_pairs(EN_HELDOUT_PAIRS))[0]
    assert heldout.recall >= 0.85
    assert heldout.joined_by_kind["same-slot-new-value"][0] == 0
    assert heldout.joined_by_kind["related-different"][0] == 0
    old_english = {s.lang: s for s in decision_summaries(scorer, load_pairs())}["en"]
    assert old_english.recall >= 0.75
    assert old_english.joined_by_kind["same-slot-new-value"][0] == 0
