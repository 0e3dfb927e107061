"""Text facts every layer shares: which characters are Chinese, which may be stored, English synonyms, what a user id is.

This module imports nothing from the project, so any layer may use it.
"""

from __future__ import annotations

import re
from typing import Any

# CJK Unified Ideographs with Extension A and the compatibility block: what "Chinese text" means
# for splitting, tokenizing and choosing a joiner. One class, used inside other regexes as [{HAN}].
HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# CJK symbols and punctuation plus the full-width ASCII forms (，。！？：；（）…).
CJK_PUNCTUATION = "\u3001-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65"
HAN_CHAR = re.compile(f"[{HAN}]")
# Code points no stored text may hold: NUL (PostgreSQL text rejects it) and lone surrogates
# (not encodable as UTF-8, e.g. from a JSON "\ud800").
UNSTORABLE_CHAR = re.compile("[\x00\ud800-\udfff]")

# Terminal escape sequences (CSI "\x1b[31m", OSC "\x1b]0;title\x07", two-character "\x1bc", the
# 8-bit CSI "\x9b…"), then the control characters left: C0 but tab and newline, DEL, C1, and the
# bidirectional overrides that reorder what a reader sees.
_ESCAPE_SEQUENCE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[ -/]*[0-~]|\x9b[0-?]*[ -/]*[@-~]"
)
_CONTROL_CHAR = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

MAX_USER_ID = 2**31 - 1  # users.id is a PostgreSQL integer


def has_han(text: str) -> bool:
    """True when `text` contains at least one Chinese character."""
    return HAN_CHAR.search(text) is not None


# Words saying a value changed ("now", "moved to", 「换成」, 「加到」): the write model reads a statement with one as a new
# value of what it matches (memories/values.py), and the rules engine keeps a change said as an event only when it has
# one (extraction/rules/lasting.py), or the write model would take it for a repeat of the fact it changes.
# The verbs of a value changed, as alternatives for a regex: "moved my notes into Notion", "raised my goal to 160 g";
# 「改成」, 「减到」, 「搬到」.
EN_CHANGED = "moved|switched|changed|upped|raised|bumped|increased|decreased|reduced|lowered|cut|dropped"
ZH_CHANGED_TO = "改成|改到|改为|改用|改[骑坐收买喝吃穿戴开]|换成|换到|调到|转到|搬到|降到|减到|涨到|升到|变成|加到"
SAYS_A_CHANGE = re.compile(
    rf"\b(?:now|change|{EN_CHANGED}|up to|down to|anymore|no longer|instead)\b|现在|{ZH_CHANGED_TO}|涨了|提到|不再",
    re.IGNORECASE,
)

# English ordinals and the numbers they say: a home's floor ("the sixth floor"), a school grade ("third grade").
EN_ORDINALS = {
    word: n
    for n, word in enumerate(
        "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth"
        " fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split(),
        start=1,
    )
}

# Kinds of workplace, as alternatives for a regex: said without a name (「在医院当护士」) they name no employer.
ZH_WORKPLACE_KINDS = (
    "公司|医院|学校|银行|工厂|单位|诊所|餐厅|饭店|酒店|超市|商场|店|厂|大学|中学|小学|幼儿园|政府|机关|工地|实验室"
)


# Common English synonyms, one word each, so paraphrases meet: the rules engine keys "Italian
# cuisine" and "Italian food" alike (extraction/rules/keys.py), and dedup compares keys and
# contents through them (memories/values.py).
EN_SYNONYMS = {
    "cuisine": "food",
    "cuisines": "food",
    "dishes": "food",
    "dish": "food",
    "meals": "food",
    "foods": "food",
    "film": "movies",
    "films": "movies",
    "movie": "movies",
    "flicks": "movies",
    "cinema": "movies",
    "job": "work",
    "occupation": "work",
    "profession": "work",
    "career": "work",
    "songs": "music",
    "tunes": "music",
    "series": "shows",
    "programmes": "shows",
    "programs": "shows",
    "writer": "author",
    "writers": "authors",
    "brevity": "length",
    "verbosity": "length",
}
_EN_WORD = re.compile(r"(?<![A-Za-z])[A-Za-z]+(?![A-Za-z])")


def canonical_english(text: str) -> str:
    """`text` with each English word of EN_SYNONYMS replaced by its one word ("Italian cuisine" ->
    "Italian food"); other words, and Chinese, unchanged."""
    return _EN_WORD.sub(lambda word: EN_SYNONYMS.get(word.group(0).casefold(), word.group(0)), text)


class InvalidUserId(ValueError):
    """A user id that is not a positive 32-bit integer."""


def checked_user_id(value: Any) -> int:
    """`value` when it is a valid user id (an int, not a bool, 1 … 2**31-1); else InvalidUserId."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_USER_ID:
        raise InvalidUserId(f"user id must be a positive 32-bit integer, got {value!r}")
    return value


def without_control_chars(text: str) -> str:
    """`text` without terminal escape sequences and control characters (tab and newline kept):
    what may be stored as a memory or put into a prompt ("\x1b[31mred\x1b[0m" -> "red")."""
    return _CONTROL_CHAR.sub("", _ESCAPE_SEQUENCE.sub("", text))
