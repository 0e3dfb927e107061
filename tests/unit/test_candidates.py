"""Memory keys and untrusted candidates (memory_tasks.extraction.candidates): the one slugifier,
the strict key check, and the field-by-field check of what a model or a tool call sends."""

from __future__ import annotations

import contextlib
import json
import logging

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_tasks.extraction.candidates import (
    MAX_CONTENT_CHARS,
    MEMORY_TYPES,
    OPS,
    InvalidCandidate,
    coerce_candidate,
    coerce_candidates,
    is_key,
    normalize_key,
    slug_key,
)


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


# --- untrusted output, field by field (issue 11.9) ---------------------------------------------

_VALID = {"op": "upsert", "memory_type": "fact", "key": "residence-city", "content": "住在上海", "importance": 4}


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("content", "住在\x00上海"),
        ("content", "住在\ud800上海"),
        ("key", "home\x00-city"),
        ("content", ["住在上海"]),
        ("content", {"city": "上海"}),
        ("content", 42),
        ("key", ["residence-city"]),
        ("memory_type", ["fact"]),
        ("op", {"op": "upsert"}),
        ("reason", ["moved"]),
        ("reuse_key", ["residence-city"]),
        ("confidence", True),
        ("importance", False),
        ("ttl_days", True),
        ("confidence", float("nan")),
        ("confidence", float("inf")),
        ("importance", float("inf")),
        ("importance", float("-inf")),
        ("ttl_days", float("inf")),
        ("ttl_days", "1e999"),
        ("importance", [4]),
        ("confidence", {"value": 0.9}),
    ],
)
def test_a_hostile_field_drops_the_item_with_a_reason_that_names_the_field(field: str, value: object) -> None:
    """Issue 11.9: NUL, lone surrogates, non-finite numbers, lists and objects as text, booleans
    as numbers: the item is refused (InvalidCandidate, never OverflowError or a stringified list)."""
    with pytest.raises(InvalidCandidate) as refused:
        coerce_candidate(_VALID | {field: value})
    assert field in str(refused.value)
    assert "上海" not in str(refused.value)


@pytest.mark.parametrize(
    ("raw", "kept"),
    [(1, 1), (3, 3), (0, None), (-2, None), (True, None), (False, None), ("2", None), (2.0, None), ([1], None)],
)
def test_a_candidates_turn_is_kept_only_as_a_positive_integer_and_never_drops_the_item(
    raw: object, kept: int | None
) -> None:
    """Issue 11 item 11 (extract.v3 `turn`): the model's turn position is untrusted; a boolean, a
    string, a float or a position below 1 is ignored (the wording decides the turn instead) and
    the candidate stays; it travels between the stages (`to_json`, refine's re-coercion)."""
    candidate = coerce_candidate(_VALID | {"turn": raw})
    assert candidate.turn == kept
    assert candidate.content == _VALID["content"]
    assert coerce_candidate(candidate.to_json()).turn == kept


def test_overflowing_and_non_finite_json_numbers_drop_only_their_item(caplog: pytest.LogCaptureFixture) -> None:
    """Issue 11.9: json.loads gives inf for 1e999 and accepts NaN/Infinity; the rest of the answer is used."""
    items = json.loads(
        '[{"op": "upsert", "memory_type": "fact", "key": "a", "content": "secret one", "importance": 1e999},'
        ' {"op": "upsert", "memory_type": "fact", "key": "b", "content": "secret two", "confidence": NaN},'
        ' {"op": "upsert", "memory_type": "fact", "key": "c", "content": "secret three", "ttl_days": Infinity},'
        ' {"op": "upsert", "memory_type": "fact", "key": "d", "content": "kept", "confidence": true},'
        ' {"op": "upsert", "memory_type": "fact", "key": "e", "content": "\\u0000"},'
        ' {"op": "upsert", "memory_type": "fact", "key": "f", "content": "kept too", "confidence": "0.9"}]'
    )
    with caplog.at_level(logging.INFO, logger="memory_tasks.extraction.candidates"):
        kept = coerce_candidates(items, stage="extract")
    assert [c.key for c in kept] == ["f"]
    assert kept[0].confidence == 0.9
    assert len([r for r in caplog.records if r.getMessage() == "candidate dropped"]) == 5
    assert "secret" not in caplog.text


_JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=30)
    | st.sampled_from(["1e999", "-1e999", "NaN", "Infinity", "3", "0.5", "\x00", "\ud800", "fact", "upsert"])
)
_JSON_VALUES = st.recursive(
    _JSON_SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
)
_CANDIDATE_LIKE = st.fixed_dictionaries(
    {},
    optional={
        "op": st.sampled_from(OPS) | _JSON_VALUES,
        "memory_type": st.sampled_from(MEMORY_TYPES) | _JSON_VALUES,
        "key": st.sampled_from(["residence-city", "Food Preference", "a_b"]) | _JSON_VALUES,
        "content": st.text(max_size=1100) | _JSON_VALUES,
        "importance": _JSON_VALUES,
        "confidence": st.floats(min_value=0, max_value=1) | _JSON_VALUES,
        "ttl_days": st.integers(min_value=-5, max_value=40000) | _JSON_VALUES,
        "reason": _JSON_VALUES,
        "reuse_key": st.none() | _JSON_VALUES,
    },
)


def _storable(text: str) -> bool:
    """True when PostgreSQL text can hold `text`: no NUL, valid UTF-8 (no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return "\x00" not in text


@settings(max_examples=400, deadline=None)
@given(st.one_of(_CANDIDATE_LIKE, _JSON_VALUES))
def test_coerce_candidate_returns_a_storable_candidate_or_refuses(data: object) -> None:
    """Property (issue 11.9): whatever the model sends, the parser returns a candidate whose every
    field is valid and storable, or raises InvalidCandidate; no other exception escapes."""
    try:
        candidate = coerce_candidate(data)
    except InvalidCandidate:
        return
    assert candidate.op in OPS and candidate.memory_type in MEMORY_TYPES
    assert is_key(candidate.key) and (candidate.reuse_key is None or is_key(candidate.reuse_key))
    assert isinstance(candidate.content, str) and len(candidate.content) <= MAX_CONTENT_CHARS
    assert all(_storable(text) for text in (candidate.content, candidate.reason, candidate.key))
    assert type(candidate.importance) is int and 1 <= candidate.importance <= 5
    assert type(candidate.confidence) is float and 0.0 <= candidate.confidence <= 1.0
    assert candidate.ttl_days is None or (type(candidate.ttl_days) is int and 1 <= candidate.ttl_days <= 36500)
    json.dumps(candidate.to_json(), allow_nan=False)  # travels between tasks as JSON


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(_CANDIDATE_LIKE, _JSON_VALUES), max_size=6))
def test_coerce_candidates_keeps_exactly_the_valid_items(items: list[object]) -> None:
    """Property: a hostile item never costs the others; the kept list is the valid items, in order."""
    expected = []
    for item in items:
        with contextlib.suppress(InvalidCandidate):
            expected.append(coerce_candidate(item).key)
    kept = coerce_candidates([*items, _VALID], stage="extract")
    assert [c.key for c in kept] == [*expected, _VALID["key"]]


def test_narrows_survives_the_payload_only_as_a_true_boolean() -> None:
    """R-WRITE-3 (eighteenth probe): the upsert stage validates its payload again, which dropped `narrows`, so a
    refinement narrowing a memory on purpose reached the write model as a repeat. It is read back when it is
    exactly true; anything else is no narrowing."""
    base = {"op": "upsert", "memory_type": "fact", "key": "family-partner", "content": "老婆叫小红"}
    assert coerce_candidate({**base, "narrows": True}).narrows is True
    for value in ("true", 1, None, "yes"):
        assert coerce_candidate({**base, "narrows": value}).narrows is False
    assert coerce_candidate(base).narrows is False
