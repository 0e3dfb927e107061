"""The calendar period a question names, for the rerank's period signal (issue 13.5).

"What did I do on May 3, 2023?", "Where was I in August 2023?", "When did I go camping in June?",
「我2023年5月说的那家餐厅叫什么？」 ask about what the user said in a stretch of time; a memory
stated then is likelier the answer than an equally similar one stated at another time.

Only absolute dates are read: a day, a month or a year, in English or Chinese, the year possibly
left unsaid ("in June", 「5月3日」). Relative words ("yesterday", 「上个月」) are not: most of
them time the reply ("What should I cook today?"), not the memory asked about. A month without
a year needs "in", "during" or "around" before it and a day without a year "on", so "May I ask…",
"march on" and "April's birthday" name no period. Pure functions, no database.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

# News of a day is often told in the days after it ("I went camping last weekend"): a memory
# stated up to this long after the period still counts as stated in it.
REPORTED_WITHIN = timedelta(days=7)

_MONTH_NUMBERS = {
    name: number
    for number, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sept", "sep"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
_MONTH = r"(" + "|".join(sorted(_MONTH_NUMBERS, key=len, reverse=True)) + r")\.?"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"((?:19|20)\d\d)"
_ZH_MONTH_NUMBERS = {
    name: number for number, name in enumerate("一 二 三 四 五 六 七 八 九 十 十一 十二".split(), start=1)
}
_ZH_MONTH = r"(\d{1,2}|十[一二]|[一二三四五六七八九十])"
_ZH_YEAR = r"(?<!\d)((?:19|20)\d\d)"

# (pattern, which groups hold (year, month, day)), most specific first: the first match names the period.
_PATTERNS: list[tuple[re.Pattern[str], tuple[int | None, int | None, int | None]]] = [
    (re.compile(r"\b" + _YEAR + r"-(\d{1,2})-(\d{1,2})\b"), (1, 2, 3)),
    (re.compile(r"\b" + _DAY + r"\s+(?:of\s+)?" + _MONTH + r",?\s+" + _YEAR + r"\b", re.I), (3, 2, 1)),
    (re.compile(r"\b" + _MONTH + r"\s+" + _DAY + r",?\s+" + _YEAR + r"\b", re.I), (3, 1, 2)),
    (re.compile(r"\bon\s+(?:the\s+)?" + _DAY + r"\s+(?:of\s+)?" + _MONTH + r"\b", re.I), (None, 2, 1)),
    (re.compile(r"\bon\s+" + _MONTH + r"\s+" + _DAY + r"\b", re.I), (None, 1, 2)),
    (re.compile(r"\b" + _MONTH + r",?\s+" + _YEAR + r"\b", re.I), (2, 1, None)),
    (re.compile(r"\b(?:in|during|around)\s+(?:(?:early|mid|late)[\s-]*)?" + _MONTH + r"\b", re.I), (None, 1, None)),
    (re.compile(r"\b(?:in|during|of|throughout)\s+" + _YEAR + r"\b", re.I), (1, None, None)),
    (re.compile(_ZH_YEAR + r"年" + _ZH_MONTH + r"月(\d{1,2})[日号]"), (1, 2, 3)),
    (re.compile(_ZH_YEAR + r"年" + _ZH_MONTH + r"月"), (1, 2, None)),
    (re.compile(r"(?<![\d年])" + _ZH_MONTH + r"月(\d{1,2})[日号]"), (None, 1, 2)),
    (re.compile(r"(?<![\d年])" + _ZH_MONTH + r"月份?(?![\d一二三四五六七八九十])"), (None, 1, None)),
    (re.compile(_ZH_YEAR + r"年"), (1, None, None)),
]


@dataclass(frozen=True)
class Period:
    """A year, a month or a day; `year` None when the question leaves it unsaid (any year's)."""

    year: int | None
    month: int | None
    day: int | None

    def _bounds(self, year: int) -> tuple[date, date]:
        """The period's first day and the day after its last, in `year`."""
        if self.month is None:
            return date(year, 1, 1), date(year + 1, 1, 1)
        if self.day is None:
            return date(year, self.month, 1), date(year + self.month // 12, self.month % 12 + 1, 1)
        first = date(year, self.month, self.day)
        return first, first + timedelta(days=1)

    def holds(self, moment: datetime) -> bool:
        """True when `moment` falls in the period or up to REPORTED_WITHIN after it (any year's
        when the year is unsaid: that of `moment` or, for a period reported across New Year, the one before)."""
        day = moment.date()
        years = [self.year] if self.year is not None else [day.year, day.year - 1]
        for year in years:
            try:
                first, after = self._bounds(year)
            except ValueError:  # 29 February of a common year, for one
                continue
            if first <= day < after + REPORTED_WITHIN:
                return True
        return False


def _number(text: str) -> int:
    return _MONTH_NUMBERS.get(text.lower()) or _ZH_MONTH_NUMBERS.get(text) or int(text)


def _first_period(query: str) -> tuple[Period, re.Match[str]] | None:
    """The first absolute day, month or year `query` names and where; None for none (or an impossible date)."""
    for pattern, (year_group, month_group, day_group) in _PATTERNS:
        match = pattern.search(query)
        if match is None:
            continue
        year, month, day = (None if g is None else _number(match[g]) for g in (year_group, month_group, day_group))
        if month is not None and not 1 <= month <= 12:
            return None
        if day is not None and not 1 <= day <= 31:
            return None
        if year is not None and month is not None and day is not None:
            try:
                date(year, month, day)
            except ValueError:
                return None
        return Period(year, month, day), match
    return None


def named_period(query: str) -> Period | None:
    """The first absolute day, month or year `query` names; None when it names none (or an impossible date)."""
    found = _first_period(query)
    return found[0] if found else None


# The words that place a date ("in", "on the"), taken out with it.
_LEAD_IN = re.compile(r"(?:\b(?:in|on|during|around|of|throughout|by)\s+(?:the\s+)?)$", re.I)


def without_period(query: str) -> str:
    """`query` without the period it names ("Where did I travel in March 2024?" -> "Where did I travel?").

    What the question is about, for the query embedding: a date pulls its vector toward dates and away from
    the memory it asks for (the trip's cosine fell from 0.84 to 0.78, under the relevance floor). The query
    itself when it names no period, or is nothing but one.
    """
    found = _first_period(query)
    if found is None:
        return query
    start, end = found[1].span()
    head = _LEAD_IN.sub("", query[:start].rstrip() + " ").rstrip()
    tail = query[end:].lstrip()
    if not head:
        tail = tail.lstrip(" ,，、:：")
    # Words of a spaced language stay apart; Chinese joins without a space.
    space = " " if head[-1:].isascii() and tail[:1].isascii() and tail[:1].isalnum() else ""
    rest = re.sub(r"\s+([?？!！.。,，])", r"\1", head + space + tail).strip()
    return rest if re.search(r"\w", rest) else query


def stated_in(period: Period | None, *moments: datetime | None) -> bool:
    """True when a period is named and one of the known `moments` (when a memory was stated) falls in it."""
    return period is not None and any(m is not None and period.holds(m) for m in moments)
