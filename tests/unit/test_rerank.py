"""The rerank, the lexical scorer and the prompt block (R-READ-2/3/4): pure functions, no services."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from memory_tasks.memories.similarity import lexical_tokens
from memory_tasks.retrieval.lexical import bm25_scores, search_tokens, stem
from memory_tasks.retrieval.period import Period, named_period
from memory_tasks.retrieval.prompt import HEADER, format_memory_block
from memory_tasks.retrieval.rerank import (
    RelevanceFloor,
    RerankWeights,
    is_relevant,
    key_signal,
    make_candidate,
    recency_signal,
    rerank,
)
from memory_tasks.retrieval.search import Hit, query_text

NOW = datetime(2026, 6, 1, tzinfo=UTC)


@dataclass
class Memory:
    memory_key: str
    content: str
    memory_type: str = "fact"
    importance: int = 3
    confidence: float = 0.8
    updated_at: datetime | None = NOW
    last_confirmed_at: datetime | None = None
    stated_at: datetime | None = None
    created_at: datetime | None = None
    is_core: bool = False


def keys(ranked) -> list[str]:
    return [r.memory.memory_key for r in ranked]


def test_it_ranks_higher_similarity_first() -> None:
    """The direction the seed's reference got wrong: a closer vector must rank higher."""
    near, far = Memory("near", "a"), Memory("far", "b")
    # given the same metadata and no shared words, only the similarity differs
    ranked = rerank([make_candidate(far, 0.80), make_candidate(near, 0.93)], "zzz", RerankWeights(), NOW)
    # It should put the more similar memory first, whatever order the candidates came in.
    assert keys(ranked) == ["near", "far"]
    assert ranked[0].score > ranked[1].score
    assert ranked[0].why["similarity"] == pytest.approx(1.0)


def test_it_lets_similarity_outweigh_the_tie_breakers() -> None:
    """Importance, confidence and recency only break ties between equally relevant memories."""
    relevant = Memory("relevant", "a", importance=1, confidence=0.5, updated_at=NOW - timedelta(days=400))
    important = Memory("important", "b", importance=5, confidence=1.0, updated_at=NOW)
    ranked = rerank([make_candidate(important, 0.80), make_candidate(relevant, 0.90)], "zzz", RerankWeights(), NOW)
    assert keys(ranked) == ["relevant", "important"]


def test_it_breaks_ties_by_importance() -> None:
    low, high = Memory("low", "a", importance=2), Memory("high", "b", importance=5)
    ranked = rerank([make_candidate(low, 0.9), make_candidate(high, 0.9)], "zzz", RerankWeights(), NOW)
    assert keys(ranked) == ["high", "low"]


def test_its_score_is_the_sum_of_the_weighted_signals() -> None:
    weights = RerankWeights(similarity=2.0, lexical=0.0, importance=1.0, confidence=0.0, recency=0.0, key=0.0)
    memory = Memory("home-city", "lives in Hangzhou", importance=5)
    other = Memory("other", "x", importance=1)
    ranked = rerank([make_candidate(memory, 0.9), make_candidate(other, 0.5)], "zzz", weights, NOW)
    # It should weigh each signal by its setting: similarity 2 x 1.0, importance 1 x 1.0.
    assert ranked[0].why == {"similarity": 2.0, "importance": 1.0}
    assert ranked[0].score == pytest.approx(3.0)
    assert ranked[1].score == pytest.approx(0.0)


def test_a_zero_weight_switches_a_signal_off() -> None:
    weights = RerankWeights(similarity=0.0, lexical=0.0, importance=0.0, confidence=0.0, recency=0.0, key=0.0)
    ranked = rerank([make_candidate(Memory("a", "a"), 0.9)], "a", weights, NOW)
    assert ranked[0].score == 0.0 and ranked[0].why == {}


def test_it_gives_a_bonus_when_the_query_names_the_key() -> None:
    """Exact-key bonus: a question about 'home city' lifts the memory keyed home-city."""
    home = Memory("home-city", "Hangzhou")
    job = Memory("job-title", "engineer")
    weights = RerankWeights(lexical=0.0)
    ranked = rerank([make_candidate(job, 0.9), make_candidate(home, 0.9)], "what is my home city?", weights, NOW)
    assert keys(ranked) == ["home-city", "job-title"]
    assert ranked[0].why["key"] == pytest.approx(weights.key)
    assert "key" not in ranked[1].why


def test_key_signal_is_the_share_of_key_words_mentioned() -> None:
    assert key_signal("home-city", {"home", "city"}) == 1.0
    assert key_signal("home_city", {"city"}) == 0.5
    assert key_signal("home-city", {"job"}) == 0.0


def test_recency_halves_every_half_life() -> None:
    assert recency_signal(NOW, NOW, 90) == 1.0
    assert recency_signal(NOW - timedelta(days=90), NOW, 90) == pytest.approx(0.5)
    assert recency_signal(None, NOW, 90) == 0.0


def test_a_confirmed_memory_counts_as_recent_from_its_last_confirmation() -> None:
    """Issue 13 item 1 / R-READ-2: recency runs from the later of the last change and the last confirmation."""
    old = NOW - timedelta(days=400)
    confirmed = Memory("confirmed", "x", updated_at=old, last_confirmed_at=NOW - timedelta(days=1))
    unconfirmed = Memory("unconfirmed", "x", updated_at=old)
    ranked = rerank([make_candidate(unconfirmed, 0.8), make_candidate(confirmed, 0.8)], "q", RerankWeights(), NOW)
    assert keys(ranked) == ["confirmed", "unconfirmed"]
    weights = RerankWeights()
    assert ranked[0].why["recency"] == pytest.approx(
        weights.recency * recency_signal(NOW - timedelta(days=1), NOW, 90), abs=1e-4
    )
    # A confirmation older than the last change does not make the memory older.
    stale = Memory("stale", "x", updated_at=NOW, last_confirmed_at=old)
    assert rerank([make_candidate(stale, 0.8)], "q", weights, NOW)[0].why["recency"] == pytest.approx(weights.recency)


def test_a_question_naming_a_period_ranks_what_was_stated_then_first() -> None:
    """Issue 13.5 / R-READ-2: "on May 3, 2023", "in June", 「2023年5月」 rank a memory stated in that period
    (or within a week after, when it was reported) above an equally relevant one stated at another time."""
    may = datetime(2023, 5, 4, 18, tzinfo=UTC)
    camping = Memory("camping-june", "Went camping with the kids", stated_at=datetime(2023, 6, 20, tzinfo=UTC))
    hiking = Memory("hiking-may", "Went hiking with the kids", stated_at=may)
    first_written = Memory("museum", "Went to the museum with the kids", stated_at=NOW, created_at=may)
    weights = RerankWeights()

    def order(question: str) -> list[str]:
        candidates = [
            make_candidate(m, cosine) for m, cosine in ((camping, 0.90), (hiking, 0.88), (first_written, 0.89))
        ]
        return keys(
            rerank(
                [*candidates, make_candidate(Memory("tea", "Drinks green tea"), 0.80)],
                question,
                weights,
                NOW,
                named_period(question),
            )
        )

    assert order("What did I do with the kids?")[:3] == ["camping-june", "museum", "hiking-may"]
    # Both stated in the period (the museum first written then) pass the more similar camping trip.
    assert order("What did I do with the kids on May 3, 2023?")[:3] == ["museum", "hiking-may", "camping-june"]
    assert order("我2023年5月和孩子们做了什么？")[:3] == ["museum", "hiking-may", "camping-june"]
    assert order("What did I do with the kids in June?")[0] == "camping-june"
    ranked = rerank([make_candidate(hiking, 0.88)], "Where was I?", weights, NOW, named_period("in May 2023"))
    assert ranked[0].why["period"] == pytest.approx(weights.period)
    in_2024 = Period(2024, None, None)
    assert "period" not in rerank([make_candidate(hiking, 0.88)], "Where was I?", weights, NOW, in_2024)[0].why
    # A core memory (an allergy, a reply rule) holds whenever it was said: no period signal.
    allergy = Memory("allergy-peanut", "Allergic to peanuts", stated_at=may, is_core=True)
    assert "period" not in rerank([make_candidate(allergy, 0.8)], "q", weights, NOW, Period(2023, 5, None))[0].why
    off = RerankWeights(period=0.0)
    candidates = [make_candidate(camping, 0.90), make_candidate(hiking, 0.88)]
    assert keys(rerank(candidates, "What did I do?", off, NOW, Period(2023, 5, 3)))[0] == "camping-june"


def test_without_vectors_the_lexical_signal_carries_the_relevance_weight() -> None:
    """The fallback: no similarity at all, so BM25 decides with similarity's weight too."""
    weights = RerankWeights()
    tea = Memory("drink", "用户喜欢喝乌龙茶", importance=1)
    car = Memory("car", "用户开一辆红色的车", importance=5)
    ranked = rerank([make_candidate(car), make_candidate(tea)], "我喜欢喝什么茶", weights, NOW)
    assert keys(ranked) == ["drink", "car"]
    assert ranked[0].why["lexical"] == pytest.approx(weights.lexical + weights.similarity)


def test_bm25_matches_chinese_without_spaces() -> None:
    """CJK-aware: bigrams let 住在哪 find 住在杭州 although neither has a space."""
    documents = [lexical_tokens(t) for t in ("用户住在杭州西湖边", "用户喜欢吃川菜", "")]
    scores = bm25_scores(lexical_tokens("我住在哪个城市"), documents)
    assert scores[0] > 0 and scores[1] == 0 and scores[2] == 0


def test_bm25_prefers_rare_terms_and_handles_empty_input() -> None:
    documents = [["tea", "green"], ["tea", "black"], ["coffee"]]
    scores = bm25_scores(["green", "tea"], documents)
    assert scores[0] > scores[1] > scores[2] == 0.0
    assert bm25_scores([], documents) == [0.0, 0.0, 0.0]
    assert bm25_scores(["tea"], []) == []


def test_the_lexical_signal_finds_the_chinese_memory() -> None:
    memories = [Memory("food", "用户喜欢吃四川火锅"), Memory("city", "用户住在杭州"), Memory("pet", "用户养了一只猫")]
    ranked = rerank([make_candidate(m) for m in memories], "周末吃火锅怎么样", RerankWeights(), NOW)
    assert keys(ranked)[0] == "food"


def hit(memory_type: str, content: str) -> Hit:
    return Hit({"id": 1, "memory_key": "k", "memory_type": memory_type, "content": content}, 1.0, {})


def test_the_prompt_block_has_a_header_and_one_line_per_memory() -> None:
    block = format_memory_block([hit("preference", "喜欢川菜"), hit("fact", "lives in\nHangzhou")])
    assert block.splitlines() == [HEADER, "- [preference] 喜欢川菜", "- [fact] lives in Hangzhou"]


def test_the_prompt_block_is_empty_without_hits() -> None:
    assert format_memory_block([]) == ""


def test_query_text_joins_question_and_summary_and_repairs_bad_utf8() -> None:
    assert query_text("where do I live?", "talked about moving") == "where do I live?\ntalked about moving"
    assert query_text("  ", None) == ""
    assert query_text("bad \udcff byte", None) == "bad ? byte"


def test_hit_json_has_the_memory_fields_score_and_why() -> None:
    memory = {"id": 7, "memory_key": "k", "memory_type": "fact", "content": "c"}
    data = Hit(memory, 0.123456, {"lexical": 0.1}, {"bm25": 0.3, "overlap": 0.5}).to_json()
    assert data == {
        "id": 7,
        "memory_key": "k",
        "memory_type": "fact",
        "content": "c",
        "score": 0.1235,
        "why": {"lexical": 0.1},
        "raw": {"bm25": 0.3, "overlap": 0.5},
    }


def test_search_tokens_stem_english_and_drop_question_words() -> None:
    assert [stem(w) for w in ("painted", "painting", "paints", "paint")] == ["paint"] * 4
    assert stem("does") == "does" and stem("杭州") == "杭州"  # short and non-ASCII words stay
    assert search_tokens("When did Melanie paint a sunrise?") == ["melanie", "paint", "sunrise"]
    assert "什么" not in search_tokens("我喜欢喝什么茶")


def test_the_lexical_signal_matches_other_forms_of_a_word() -> None:
    memories = [Memory("hobby", "Melanie painted a lake sunrise last year"), Memory("pet", "Melanie has a dog")]
    ranked = rerank([make_candidate(m) for m in memories], "What does Melanie paint?", RerankWeights(), NOW)
    assert keys(ranked)[0] == "hobby"


def test_ranked_memories_keep_their_raw_cosine_and_token_overlap() -> None:
    """Issue 17 item 3: beside the rescaled signals, the raw cosine and the share of query tokens found."""
    near, far = Memory("near", "likes green tea"), Memory("far", "lives in Shenzhen")
    ranked = rerank(
        [make_candidate(far, 0.78), make_candidate(near, 0.86)], "green tea or coffee", RerankWeights(), NOW
    )
    by_key = {r.memory.memory_key: r for r in ranked}
    assert by_key["far"].why.get("similarity", 0.0) == 0.0  # rescaled: the worst candidate scores 0 ...
    assert by_key["far"].raw["cosine"] == pytest.approx(0.78)  # ... its raw cosine is still there
    assert by_key["near"].raw["overlap"] == pytest.approx(2 / 3, abs=1e-4)  # green, tea of green, tea, coffee
    assert by_key["far"].raw["overlap"] == 0.0 and by_key["far"].raw["bm25"] == 0.0
    assert "cosine" not in rerank([make_candidate(near)], "tea", RerankWeights(), NOW)[0].raw


def test_the_relevance_floor_needs_the_raw_cosine_or_the_token_overlap() -> None:
    """Issue 17 item 3: a memory clears the floor on either raw score; 0 / 0 switches the floor off."""
    near, far = Memory("near", "likes green tea"), Memory("far", "lives in Shenzhen")
    ranked = rerank([make_candidate(far, 0.78), make_candidate(near, 0.80)], "green tea", RerankWeights(), NOW)
    by_key = {r.memory.memory_key: r for r in ranked}
    floor = RelevanceFloor(min_cosine=0.85, min_overlap=0.5)
    assert is_relevant(by_key["near"], floor)  # below the cosine floor, but holds the query's words
    assert not is_relevant(by_key["far"], floor)  # rescaled it would be 0.0 to 1.0; raw it is unrelated
    assert is_relevant(by_key["far"], RelevanceFloor(0.75, 0.5))
    assert is_relevant(by_key["far"], RelevanceFloor(0.0, 0.0))
