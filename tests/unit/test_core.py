"""Core memories (R-READ-6): what is core, the core block of a retrieval, and its place in the prompt."""

from __future__ import annotations

import pytest

from memory_tasks.extraction.core import is_core_memory, is_safety_memory
from memory_tasks.retrieval.prompt import CORE_HEADER, HEADER, RELEVANT_HEADER, format_memory_block
from memory_tasks.retrieval.search import Hit, with_core_block


@pytest.mark.parametrize(
    ("memory_type", "key", "content"),
    [
        ("fact", "allergy-peanut", "Is allergic to peanuts"),
        ("fact", "food-shellfish", "对海鲜过敏"),
        ("fact", "diet", "Is vegetarian"),
        ("fact", "health-diabetes", "有糖尿病"),
        ("preference", "food-gluten", "Eats gluten-free only (celiac)"),
        ("constraint", "reply-language", "以后回复尽量用中文"),
        ("constraint", "rule-rain-umbrella", "下雨时提醒带伞"),
        ("preference", "reply-style", "回复简洁一点"),
        ("fact", "topic-ex", "Never mention my ex-husband"),
        ("fact", "medication", "正在服用降压药"),
        # Eleventh probe: what the user cannot eat was core in Chinese (不能吃) but not in English.
        ("preference", "preference-gluten", "Can't eat gluten"),
        ("preference", "drink-milk", "Can’t drink milk"),
        ("fact", "health-pregnancy", "Is 20 weeks pregnant"),
        # Whatever key a model gives them (fourth round).
        ("fact", "caffeine", "对咖啡因很敏感"),
        ("fact", "caffeine", "Is sensitive to caffeine"),
        ("fact", "family-planning", "最近在备孕"),
        # Thirteenth probe: what the user's faith forbids binds as an allergy does.
        ("preference", "food-beef", "Doesn't eat beef for religious reasons"),
        ("preference", "food-pork", "因为宗教原因不吃猪肉"),
        # Twentieth probe: a food or drink kept from is a diet, as "Quit drinking" (the diet fact) was.
        ("preference", "food-pork", "不吃猪肉"),
        ("preference", "food-meat", "Doesn't eat meat"),
        ("preference", "drink-alcohol", "Doesn't drink"),
        ("preference", "drink-alcohol", "滴酒不沾"),
    ],
)
def test_standing_rules_and_safety_facts_are_core(memory_type: str, key: str, content: str) -> None:
    assert is_core_memory(memory_type, key, content)


@pytest.mark.parametrize(
    ("memory_type", "key", "content"),
    [
        ("preference", "food-coriander", "不吃香菜"),
        ("preference", "food-sichuan-cuisine", "喜欢吃川菜"),
        ("fact", "residence-city", "住在北京"),
        ("fact", "occupation", "Works as a nurse"),
        ("goal", "marathon", "Wants to run a marathon under four hours"),
        ("preference", "movie-horror", "Can't stand horror movies"),
        ("preference", "music-religious", "Loves religious music"),
        # A taste of a dietary food is a taste; a food outside the diets (coffee) a habit.
        ("preference", "food-pork", "Doesn't like pork"),
        ("preference", "drink-alcohol", "不爱喝酒"),
        ("preference", "drink-alcohol", "喜欢喝红酒"),
        ("preference", "drink-coffee", "Doesn't drink coffee"),
    ],
)
def test_tastes_and_ordinary_facts_are_not_core(memory_type: str, key: str, content: str) -> None:
    assert not is_core_memory(memory_type, key, content)


def test_the_core_block_takes_its_places_and_relevance_fills_the_rest() -> None:
    ranked = ["a", "b", "C1", "c", "d", "C2", "e", "C3"]  # best first; upper case is core
    core = str.isupper
    assert with_core_block(ranked, 4, 2, lambda item: core(item[0])) == ["a", "b", "C1", "C2"]
    assert with_core_block(ranked, 6, 2, lambda item: core(item[0])) == ["a", "b", "C1", "c", "d", "C2"]
    assert with_core_block(ranked, 2, 3, lambda item: core(item[0])) == ["C1", "C2"]
    assert with_core_block(ranked, 3, 0, lambda item: core(item[0])) == ["a", "b", "C1"]


def test_safety_facts_take_the_core_blocks_places_before_reply_rules() -> None:
    """Issue 13.3 / R-READ-6: with more core memories than places, an allergy is not pushed out by a
    reply-style rule that ranks higher ("Suggest a protein bar" lost the peanut allergy that way)."""
    ranked = ["a", "Rstyle", "Rlanguage", "b", "Sdiet", "c", "Sallergy"]  # best first; R: reply rule, S: safety
    core, safety = (lambda item: item[0] in "RS"), (lambda item: item[0] == "S")
    assert with_core_block(ranked, 6, 3, core, safety) == ["a", "Rstyle", "Rlanguage", "b", "Sdiet", "Sallergy"]
    assert with_core_block(ranked, 6, 3, core) == ["a", "Rstyle", "Rlanguage", "b", "Sdiet", "c"]
    assert with_core_block(ranked, 2, 3, core, safety) == ["Sdiet", "Sallergy"]


@pytest.mark.parametrize(
    ("memory_type", "key", "content", "safety"),
    [
        ("fact", "allergy-peanut", "对花生过敏", True),
        ("constraint", "diet", "吃素，不吃肉", True),
        ("fact", "health-diabetes", "Has type 2 diabetes", True),
        ("constraint", "never-suggest-seafood", "千万不要给我推荐海鲜", True),
        ("constraint", "reply-language", "以后回复尽量用中文", False),
        ("preference", "reply-style", "回复简洁", False),
        ("constraint", "format-bullets", "Always answer in bullet points", False),
        # Twenty-first probe: what a recommendation must leave out by what it holds was a reply rule, so a full
        # core block could drop it before a reply style.
        ("constraint", "rule-alcohol", "Please don't recommend anything with alcohol", True),
        ("constraint", "rule-alcohol-soft-drinks", "别给我推荐带酒精的饮料", True),
        ("constraint", "rule-step-by-step", "Please explain things step by step", False),
    ],
)
def test_a_core_memory_is_a_safety_fact_or_a_rule_of_replying(
    memory_type: str, key: str, content: str, safety: bool
) -> None:
    assert is_core_memory(memory_type, key, content)
    assert is_safety_memory(key, content) is safety


def hit(memory_type: str, content: str, is_core: bool) -> Hit:
    memory = {"id": 1, "memory_key": "k", "memory_type": memory_type, "content": content, "is_core": is_core}
    return Hit(memory, 1.0, {})


def test_the_core_block_shows_the_safety_facts_first() -> None:
    """Issue 13.3 / R-READ-6 (nineteenth probe): a reply rule that ranked higher for the question led the core
    block (「回答简短一点」 above 「对虾过敏」 for "What should I cook for dinner tonight?"); the safety facts lead it."""
    hits = [
        hit("preference", "回答简短一点", True),
        hit("fact", "喜欢吃薯片", False),
        hit("constraint", "Please always answer in English", True),
        hit("fact", "对虾过敏", True),
        hit("fact", "Has celiac disease", True),
    ]
    assert format_memory_block(hits).splitlines()[1:6] == [
        CORE_HEADER,
        "- [fact] 对虾过敏",
        "- [fact] Has celiac disease",
        "- [preference] 回答简短一点",
        "- [constraint] Please always answer in English",
    ]


def test_the_prompt_shows_the_core_block_first() -> None:
    hits = [
        hit("preference", "喜欢吃薯片", False),
        hit("fact", "对花生过敏", True),
        hit("fact", "lives in Hangzhou", False),
    ]
    assert format_memory_block(hits).splitlines() == [
        HEADER,
        CORE_HEADER,
        "- [fact] 对花生过敏",
        RELEVANT_HEADER,
        "- [preference] 喜欢吃薯片",
        "- [fact] lives in Hangzhou",
    ]
    assert format_memory_block([hit("fact", "对花生过敏", True)]).splitlines() == [
        HEADER,
        CORE_HEADER,
        "- [fact] 对花生过敏",
    ]
