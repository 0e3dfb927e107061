"""Conforming one memory: tidy content, a valid type, a slug key, and the write path's hard filters."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from memory_tasks.extraction.candidates import MAX_CONTENT_CHARS, MEMORY_TYPES, Candidate, slug_key
from memory_tasks.extraction.filters import drop_reason
from memory_tasks.text import CJK_PUNCTUATION, HAN

_FULLWIDTH_ALNUM = {
    **{0xFF10 + i: ord("0") + i for i in range(10)},
    **{0xFF21 + i: ord("A") + i for i in range(26)},
    **{0xFF41 + i: ord("a") + i for i in range(26)},
    0x3000: ord(" "),
}
_INVISIBLE = re.compile("[\u200b-\u200d\u2060\ufeff]")
# Han characters plus CJK and full-width punctuation: no spaces belong between two of them.
_SPACE_IN_CJK = re.compile(rf"(?<=[{HAN}{CJK_PUNCTUATION}])\s+(?=[{HAN}{CJK_PUNCTUATION}])")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+(?=[,;:!?，。；：！？、）)])")
# Not ":" ("std::vector") nor "." ("...", ".NET").
_REPEATED_PUNCT = re.compile(r"([。，！？；、,!?;])\1+")
_LEADING_JUNK = re.compile(r"^[\s,，;；:：、。!！?？]+")
_TRAILING_SEPARATORS = re.compile(r"[\s,，;；:：、]+$")


def tidy_content(text: str) -> str:
    """`text` with whitespace and punctuation normalised, meaning untouched.

    Full-width letters/digits become ASCII (Chinese punctuation stays), invisible
    characters go, whitespace runs become one space, spaces between Chinese characters
    and before punctuation go, a repeated punctuation mark counts once, leading
    punctuation and trailing separators are cut. Returns "" when nothing is left.
    """
    text = _INVISIBLE.sub("", (text or "").translate(_FULLWIDTH_ALNUM))
    text = re.sub(r"\s+", " ", text).strip()
    text = _SPACE_IN_CJK.sub("", text)
    text = _SPACE_BEFORE_PUNCT.sub("", text)
    text = _REPEATED_PUNCT.sub(r"\1", text)
    text = _LEADING_JUNK.sub("", text)
    return _TRAILING_SEPARATORS.sub("", text)


_PROFILE_TYPES = frozenset({"profile", "identity", "persona", "nickname", "个人资料", "资料", "昵称", "身份"})
_TYPE_ALIASES = {
    "preferences": "preference",
    "pref": "preference",
    "like": "preference",
    "likes": "preference",
    "habit": "preference",
    "habits": "preference",
    "hobby": "preference",
    "hobbies": "preference",
    "taste": "preference",
    "偏好": "preference",
    "喜好": "preference",
    "习惯": "preference",
    "爱好": "preference",
    "facts": "fact",
    "info": "fact",
    "information": "fact",
    "personal": "fact",
    "background": "fact",
    "事实": "fact",
    "信息": "fact",
    "背景": "fact",
    "goals": "goal",
    "plan": "goal",
    "plans": "goal",
    "target": "goal",
    "aim": "goal",
    "目标": "goal",
    "计划": "goal",
    "projects": "project",
    "work": "project",
    "项目": "project",
    "constraints": "constraint",
    "rule": "constraint",
    "rules": "constraint",
    "restriction": "constraint",
    "requirement": "constraint",
    "约束": "constraint",
    "规则": "constraint",
    "限制": "constraint",
    "要求": "constraint",
}
# Words in an unknown type or in the key that tell the type, tried in this order; default fact.
_TYPE_HINTS: tuple[tuple[str, frozenset[str]], ...] = (
    (
        "constraint",
        frozenset(
            "rule rules constraint constraints avoid never must allergy allergies allergic "
            "restriction restrictions forbidden".split()
        ),
    ),
    ("goal", frozenset("goal goals plan plans target targets aim aims aspiration dream".split())),
    ("project", frozenset("project projects repo repository".split())),
    (
        "preference",
        frozenset(
            "preference preferences prefer prefers like likes favorite favourite fav habit "
            "habits hobby hobbies style taste love loves dislike dislikes hate".split()
        ),
    ),
)


def fix_type(memory_type: str, key: str) -> str | None:
    """A valid memory type for this row, or None when it is a profile field (never kept).

    A known type stays; an alias ("habits", "偏好") maps to its type; otherwise the words
    of the type and the key hint at one (rule -> constraint, goal -> goal, …), else fact.
    """
    lowered = (memory_type or "").strip().lower()
    if lowered in MEMORY_TYPES:
        return lowered
    if lowered in _PROFILE_TYPES:
        return None
    if lowered in _TYPE_ALIASES:
        return _TYPE_ALIASES[lowered]
    words = set(re.split(r"[^a-z0-9]+", f"{lowered} {key.lower()}"))
    if words & {"profile", "persona", "nickname"}:
        return None
    return next((name for name, hints in _TYPE_HINTS if words & hints), "fact")


@dataclass(frozen=True)
class Fields:
    """The three things that say what a memory is."""

    key: str
    memory_type: str
    content: str


def admissible(fields: Fields, noise_key_patterns: Iterable[str]) -> Fields | str:
    """`fields` conformed (slug key, valid type, tidy content), or why such a memory cannot be kept.

    The reason comes from the write path's hard filters (`drop_reason`: noise keys, profile
    fields, internal matters, weather snapshots, short-term windows, summaries, impossible
    slot values), so nothing the gate would refuse today survives consolidation.
    """
    memory_type = fix_type(fields.memory_type, fields.key)
    if memory_type is None:
        return "profile field: type"
    content = tidy_content(fields.content)[:MAX_CONTENT_CHARS]
    if not content:
        return "empty content"
    conformed = Fields(slug_key(fields.key, memory_type), memory_type, content)
    candidate = Candidate(op="upsert", memory_type=memory_type, key=conformed.key, content=content)
    return drop_reason(candidate, noise_key_patterns) or conformed
