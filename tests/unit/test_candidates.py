"""Memory keys (memory_tasks.extraction.candidates): the one slugifier and the strict key check."""

from __future__ import annotations

import pytest

from memory_tasks.extraction.candidates import InvalidCandidate, coerce_candidate, is_key, normalize_key, slug_key


@pytest.mark.parametrize(
    ("raw", "slug"),
    [
        ("food-preference", "food-preference"),
        ("Food Preference", "food-preference"),
        ("  Home   City ", "home-city"),
        ("food__pref!!", "food_pref"),
        ("Reply / Language", "reply-language"),
        ("  Ｃity / 城市 ", "city"),
        ("a" * 200, "a" * 160),
        ("home-city\n", "home-city"),
    ],
)
def test_slug_key_turns_any_key_into_the_nearest_slug(raw: str, slug: str) -> None:
    """R-PIPE-2: keys are lowercase ASCII slugs of at most 160 characters."""
    assert slug_key(raw, "fact") == slug


def test_slug_key_names_a_key_without_ascii_by_its_type_and_a_stable_hash() -> None:
    """R-PIPE-2: 饮食偏好 maps to "<type>-<8 hex>", the same every run, different for other words."""
    key = slug_key("饮食偏好", "preference")
    assert key == slug_key("饮食偏好", "preference")
    assert key.startswith("preference-") and len(key) == len("preference-") + 8
    assert slug_key("居住城市", "preference") != key
    assert slug_key("饮食偏好", "fact").startswith("fact-")


@pytest.mark.parametrize("raw", ["", "饮食偏好", "x' OR '1'='1", "--", "a\n", "Ｆｏｏｄ", "🍜 noodles", "a" * 500])
def test_slug_key_always_returns_a_valid_key(raw: str) -> None:
    """R-PIPE-2: whatever a stored or reviewed key looks like, consolidation gets a writable slug."""
    assert is_key(slug_key(raw, "goal"))


def test_normalize_key_forgives_only_case_and_spacing() -> None:
    """R-PIPE-2, R-SAFE-4: untrusted keys (LLM output, tool calls) are never invented into another slug."""
    assert normalize_key("Food  Preference") == "food-preference"
    for raw in ("饮食偏好", "food__pref!!", "a" * 161):
        with pytest.raises(InvalidCandidate):
            coerce_candidate({"memory_type": "fact", "key": raw, "content": "x"})


def test_slug_key_agrees_with_normalize_key_wherever_that_is_valid() -> None:
    """One slug scheme: a key the pipeline accepts is the key consolidation would give it."""
    for raw in ("Food Preference", "home-city", " Reply  Language ", "A_B-c"):
        assert is_key(normalize_key(raw))
        assert slug_key(raw, "fact") == normalize_key(raw)


@pytest.mark.parametrize(
    ("text", "valid"), [("home-city", True), ("a_b", True), ("a\n", False), ("a--b", False), ("A", False)]
)
def test_is_key_accepts_exactly_the_slugs(text: str, valid: bool) -> None:
    """R-PIPE-2: a key is a whole slug; a trailing newline is no part of one."""
    assert is_key(text) is valid
    assert not is_key("a" * 161)
