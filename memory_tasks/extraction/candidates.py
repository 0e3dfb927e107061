"""The candidate schema shared by every engine, its validation, and memory keys (R-PIPE-2).

A candidate is what extraction proposes and refinement decides on. It travels between
Celery tasks as a plain dict (`Candidate.to_json`), so it must stay small and JSON-safe.
A key is a slug (`is_key`): untrusted input may differ from one only in case and spacing
(`normalize_key`); `slug_key` turns anything into the nearest slug (consolidation's repair).
"""

from __future__ import annotations

import hashlib
import logging
import math
import re
import unicodedata
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from memory_tasks.text import UNSTORABLE_CHAR, without_control_chars

logger = logging.getLogger(__name__)

MEMORY_TYPES = ("preference", "fact", "goal", "project", "constraint")
OPS = ("upsert", "append", "delete")
MAX_KEY_CHARS = 160
MAX_CONTENT_CHARS = 1000
# Lowercase ASCII slug words joined by "-" or "_"; a stable, language-neutral key.
KEY_PATTERN = re.compile(r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$")

Op = Literal["upsert", "append", "delete"]
# The keys of a fact kept in the user's words because nothing names what it is about (the rules engine's
# `rules.lasting`): such a key is its wording, not an item or a slot, so only similarity tells whether two of them
# say one fact (`dedup.keys_name_different_items`), and a number said anew in it is its new value.
WORDING_FACT_PREFIX = "said-"


@dataclass
class Candidate:
    """One proposed change to a user's long-term memory.

    `reuse_key` is set by refinement when the candidate should land on an existing
    memory under another key (merge into existing / reuse key). `turn` is the 1-based
    position, in the extraction's window, of the user turn that states it, as the model
    said (extract.v3); None when not said. Checked against the window where it is used
    (`pipeline._source_turn`). `narrows` marks an upsert that says less than the memory on
    purpose, parts of it taken out (a pregnancy ended, a food taken up again): it is written,
    never taken for a confirmation. The rules' refinement sets it; read back from a payload, it
    can cost no more than one write where a confirmation would have done.
    """

    op: Op
    memory_type: str
    key: str
    content: str
    importance: int = 3
    confidence: float = 0.8
    ttl_days: int | None = None
    reason: str = ""
    reuse_key: str | None = None
    turn: int | None = None
    narrows: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Candidate:
        return cls(**{name: data[name] for name in cls.__dataclass_fields__ if name in data})

    @property
    def target_key(self) -> str:
        """The key this candidate writes to once refinement has spoken."""
        return self.reuse_key or self.key


class InvalidCandidate(ValueError):
    """A candidate that must not be written; the message is the logged drop reason."""


def is_key(text: str) -> bool:
    """True when `text` is a valid memory key: a slug (KEY_PATTERN) of at most MAX_KEY_CHARS."""
    return len(text) <= MAX_KEY_CHARS and KEY_PATTERN.fullmatch(text) is not None


def normalize_key(raw: str) -> str:
    """`raw` lowercased and trimmed, with whitespace runs as '-': 'Food Preference' -> 'food-preference'.

    Only case and spacing are forgiven: the result is a valid key only when `raw` was one up
    to those (untrusted keys must not be invented into something else; see `slug_key`).
    """
    key = re.sub(r"\s+", "-", str(raw).strip().lower())
    return re.sub(r"-{2,}", "-", key)


def slug_key(raw: str, memory_type: str) -> str:
    """The nearest valid key to `raw`; always a valid key, the same for the same input.

    `normalize_key(raw)` when that is valid ("Food Preference" -> "food-preference"), else
    `raw` forced into a slug: NFKC, lowercase, every other character run as '-', a run of
    separators as one ('_' if all underscores), cut to MAX_KEY_CHARS ("food__pref!" ->
    "food_pref"). A key with no ASCII letter or digit at all ("饮食偏好") becomes
    "<memory_type>-<first 8 hex of its SHA-1>".
    """
    # When the gentle form is valid, the forced one below gives the same key; this is its fast path.
    gentle = normalize_key(raw)
    if is_key(gentle):
        return gentle
    text = re.sub(r"[^a-z0-9_-]+", "-", unicodedata.normalize("NFKC", raw).lower())
    text = re.sub(r"[-_]{2,}", lambda run: "_" if set(run.group()) == {"_"} else "-", text)
    text = text.strip("-_")[:MAX_KEY_CHARS].strip("-_")
    return text or f"{memory_type}-{hashlib.sha1(raw.encode('utf-8')).hexdigest()[:8]}"


def checked_text(value: Any, name: str) -> str:
    """`value` as text, stripped; None is "". Raises InvalidCandidate when it is not a string
    (a list, an object, a number, a boolean: never stringified) or holds NUL or a lone
    surrogate. The reason names the field, never its text."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InvalidCandidate(f"{name} is {type(value).__name__}, not text")
    if UNSTORABLE_CHAR.search(value):
        raise InvalidCandidate(f"{name} holds NUL or a lone surrogate")
    return value.strip()


def checked_number(value: Any, name: str) -> float:
    """`value` as a finite number: an int, a float or a numeric string. Raises InvalidCandidate
    for booleans (`true` is not 1.0), other types, NaN, infinities and overflowing literals."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise InvalidCandidate(f"{name} is {type(value).__name__}, not a number")
    try:
        number = float(value)
    except (ValueError, OverflowError):
        raise InvalidCandidate(f"{name} is not a number") from None
    if not math.isfinite(number):
        raise InvalidCandidate(f"{name} is not a finite number")
    return number


def checked_int(value: Any, name: str) -> int:
    """`value` as an integer (`checked_number`, then truncated: 3.7 -> 3)."""
    return int(checked_number(value, name))


def stated_turn(value: Any) -> int | None:
    """`value` as a turn position (an integer ≥ 1, never a boolean), or None: a position that
    is missing or unusable is ignored, the candidate is not dropped for it."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return value
    return None


def coerce_candidate(data: Any) -> Candidate:
    """Build a valid Candidate from untrusted data (LLM output, tool arguments).

    Every field is checked (`checked_text`, `checked_number`). Raises InvalidCandidate with
    the reason when the data cannot be a memory; the reason never holds the memory's text.
    """
    if not isinstance(data, dict):
        raise InvalidCandidate(f"not an object: {type(data).__name__}")
    op = checked_text(data.get("op"), "op").lower() or "upsert"
    if op not in OPS:
        raise InvalidCandidate("unknown op")
    memory_type = checked_text(data.get("memory_type") or data.get("type"), "memory_type").lower()
    if memory_type == "profile":
        raise InvalidCandidate("profile fields never enter long-term memory")
    if memory_type not in MEMORY_TYPES:
        raise InvalidCandidate("unknown memory_type")
    key = normalize_key(checked_text(data.get("key") or data.get("memory_key"), "key"))
    if not key:
        raise InvalidCandidate("empty key")
    if len(key) > MAX_KEY_CHARS:
        raise InvalidCandidate(f"key longer than {MAX_KEY_CHARS} chars")
    if not KEY_PATTERN.match(key):
        raise InvalidCandidate("key is not a slug (a-z, 0-9, '-' and '_')")
    # Escape sequences and control characters never reach a stored memory or a prompt (issue 17 item 7).
    content = without_control_chars(checked_text(data.get("content"), "content")).strip()
    if op != "delete" and not content:
        raise InvalidCandidate("empty content")
    if len(content) > MAX_CONTENT_CHARS:
        raise InvalidCandidate(f"content longer than {MAX_CONTENT_CHARS} chars")
    importance = checked_int(data.get("importance", 3), "importance")
    confidence = checked_number(data.get("confidence", 0.8), "confidence")
    ttl_raw = data.get("ttl_days")
    # null, "" and 0 mean "the default lifetime" (the prompt's wording); false is no number.
    lasting = ttl_raw is None or (ttl_raw in ("", 0) and not isinstance(ttl_raw, bool))
    ttl_days = None if lasting else checked_int(ttl_raw, "ttl_days")
    if not 0.0 <= confidence <= 1.0:
        raise InvalidCandidate(f"confidence {confidence} outside 0..1")
    if ttl_days is not None and not 1 <= ttl_days <= 36500:
        raise InvalidCandidate(f"ttl_days {ttl_days} outside 1..36500")
    reuse_key = checked_text(data.get("reuse_key"), "reuse_key")
    reuse_key = normalize_key(reuse_key) if reuse_key else None
    if reuse_key and not is_key(reuse_key):
        raise InvalidCandidate("reuse_key is not a slug")
    return Candidate(
        op=op,  # type: ignore[arg-type]
        memory_type=memory_type,
        key=key,
        content=content,
        importance=min(5, max(1, importance)),
        confidence=confidence,
        ttl_days=ttl_days,
        reason=without_control_chars(checked_text(data.get("reason"), "reason"))[:200],
        reuse_key=reuse_key,
        turn=stated_turn(data.get("turn")),
        narrows=data.get("narrows") is True,
    )


def coerce_candidates(items: list[Any], *, stage: str) -> list[Candidate]:
    """Validate every item, logging (and dropping) the invalid ones with their reason."""
    valid = []
    for item in items:
        try:
            valid.append(coerce_candidate(item))
        except InvalidCandidate as exc:
            logger.info("candidate dropped", extra={"stage": stage, "reason": str(exc)})
    return valid
