"""A message cut into clauses, each marked with what the rules may read from it.

The message is cut into sentences (。！？!?；; newline) and clauses (，, and English ", "
before a new subject); quoted text is removed first (a sentence to translate is not a
statement of the user). A clause is skipped when it is a question, is about the current
exchange only ("用英文回答这个问题"), is said about someone else ("我朋友…", "my colleague…"), or
`filters.text_drop_reason` rejects it; a one-off task ("帮我…", "write me…") is read for standing
rules only. A short time window (今晚, tomorrow, 这周…) taints its clause and every later clause
of the sentence, so "这周我在减肥，别给我推荐甜点" yields nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from memory_tasks.extraction.filters import short_window, text_drop_reason
from memory_tasks.text import HAN, has_han

Lang = Literal["zh", "en"]

# Confidence of an explicit first-person statement, and of a hedged one ("可能", "I think"):
# the hedged one falls under LONG_TERM_MEMORY_MIN_CONFIDENCE (0.75) on purpose.
CONFIDENT = 0.9
HEDGED = 0.6
# A clause longer than this is not read: no statement the rules know runs that long without a
# comma, and the rules' patterns are only cheap on bounded text (the run time stays linear in
# the message: a bounded cost per clause).
MAX_CLAUSE_CHARS = 300
# Clauses read per message: past this a message is a pasted document, not a turn about the user,
# and the rest is not read (a bounded cost per message).
MAX_CLAUSES = 120


@dataclass
class Clause:
    """One clause of the message, with what the rules need to know about it."""

    text: str  # discourse words ("其实", "By the way") stripped
    lang: Lang
    question: bool = False
    request: bool = False  # a one-off task: only standing rules are read from it
    subject: str = "self"  # "self", "other", or "family:<group>" (partner, children, parents, siblings)
    skip: str | None = None  # why no rule may read it
    hedged: bool = False

    @property
    def confidence(self) -> float:
        return HEDGED if self.hedged else CONFIDENT


_QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"|「[^」]*」|『[^』]*』")
_SENTENCE = re.compile(r"[^。！？!?；;\n]+(?:[。！？!?；;\n]+|$)")
# An English full stop ends a sentence unless it follows a single capital ("Ursula K. Le Guin").
_EN_FULL_STOP = re.compile(r"(?<=[^A-Z\s]\.)\s+|(?<=\b[a-z]\.)\s+|(?<=[a-z]{2}\.)\s+")
_ZH_CLAUSE = re.compile(rf"[，,]|(?:^|(?<=[{HAN}]))(?=但是|不过|可是|所以|而且)")
_EN_CLAUSE = re.compile(
    r",\s*(?=(?:I|I'm|I've|I'd|I'll|we|we're|my|but|and|so|which|especially|mostly|aiming|have|not|no|because|since"
    r"|although|though|even|plus|also|what|how|any|good)\b)|\s+(?=but I\b)",
    re.IGNORECASE,
)
_ZH_DISCOURSE = re.compile(
    r"^(?:其实|对了|另外|顺便说一下|顺便|哦|噢|嗯|啊|还有|而且|但是|不过|可是|所以|因为|请记住|记住|记得|你要记住|告诉你|跟你说"
    r"|补充一下|话说|总之|反正|然后|哈哈)[，,、\s]*"
)
_EN_DISCOURSE = re.compile(
    r"^(?:also|actually|oh|btw|by the way|fyi|just so you know|remember(?: that)?|please note(?: that)?|note(?: that)?"
    r"|for the record|and|but|so|well|honestly|anyway|plus|ps|I think|I guess|maybe|probably|perhaps)\b[,\s]+",
    re.IGNORECASE,
)
_ZH_QUESTION = re.compile(
    r"[吗么呢][？?]?$|什么|怎么|为什么|为啥|哪[个里些儿种]|多少|是不是|能不能|可不可以|有没有|要不要|会不会|好不好"
)
_EN_QUESTION = re.compile(
    r"^(?:(?:do|does|did|can|could|would|will|is|are|should|shall|may|have)\s+(?:you|i|we|it|they)\b"
    r"|(?:what|how|why|where|who|which)(?:'s|\s+(?:is|are|do|does|did|can|should|would|was))\b)",
    re.IGNORECASE,
)
_ZH_REQUEST = re.compile(
    r"^(?:请|麻烦你?)?(?:帮我|帮忙|给我(?:写|讲|推荐|找|查|翻译|列)|翻译|写一|解释一下|总结一下|查一下|搜一下|告诉我)"
)
_EN_REQUEST = re.compile(
    r"^(?:please\s+)?(?:translate|write|summarize|explain|tell me|give me|show me|help me|find|search|look up|set|create"
    r"|make|generate|draft|fix|check|can you|could you|would you)\b",
    re.IGNORECASE,
)
# "用英文回答这个问题", "answer this one in French": about the current exchange only.
_ONE_OFF = re.compile(
    r"这个问题|这道题|这次|这一次|这段|这句|这篇|下面这|this (?:one|time|question|answer|message|text)|just this|for now",
    re.IGNORECASE,
)
_ZH_HEDGE = re.compile(r"可能|也许|大概|好像|应该是|说不定|或许")
_EN_HEDGE = re.compile(r"\b(?:maybe|probably|perhaps|i think|i guess|kind of|sort of|might)\b", re.IGNORECASE)

FAMILY = {
    "partner": r"老婆|老公|妻子|丈夫|太太|爱人|对象|男朋友|女朋友|wife|husband|partner|spouse|girlfriend|boyfriend",
    "children": r"女儿|儿子|孩子|daughters?|sons?|kids|children|child",
    "parents": r"爸爸|妈妈|父亲|母亲|爸妈|父母|mom|mother|dad|father|parents",
    "siblings": r"哥哥|姐姐|弟弟|妹妹|brothers?|sisters?|siblings?",
}
_ZH_SUBJECT = re.compile(
    r"^(?:我的?|我家)?(?P<family>" + "|".join(f"(?P<{g}>{p})" for g, p in FAMILY.items()) + r")"
    r"|^(?:我的?|我们的?)?(?P<other>朋友|同事|同学|室友|老板|领导|邻居|他们|她们|他|她)"
)
_EN_SUBJECT = re.compile(
    r"^(?:my|our) (?P<family>" + "|".join(f"(?P<{g}>{p})" for g, p in FAMILY.items()) + r")\b"
    r"|^(?:(?:my|our) (?P<other>friend|colleague|coworker|roommate|boss|neighbou?r|manager)s?|he|she|they)\b",
    re.IGNORECASE,
)


def _subject(text: str, lang: Lang) -> str:
    """Whom the clause is about: "self", "family:<group>" or "other"."""
    match = (_ZH_SUBJECT if lang == "zh" else _EN_SUBJECT).match(text)
    if not match:
        return "self"
    if match.group("family"):
        group = next(g for g in FAMILY if match.group(g))
        return f"family:{group}"
    return "other"


def _strip_discourse(text: str, lang: Lang) -> str:
    pattern = _ZH_DISCOURSE if lang == "zh" else _EN_DISCOURSE
    previous = None
    while previous != text:
        previous, text = text, pattern.sub("", text, count=1).strip()
    return text


def _sentences(message: str) -> Iterator[tuple[str, bool]]:
    """(sentence, ends with a question mark) for each sentence of `message`."""
    for match in _SENTENCE.finditer(_QUOTED.sub(" ", message)):
        chunk = match.group(0)
        for sentence in _EN_FULL_STOP.split(chunk):
            body = sentence.strip().rstrip("。！？!?；;.… \n")
            if body:
                yield body, sentence.rstrip().endswith(("?", "？"))


def split_clauses(message: str) -> list[Clause]:
    """The first MAX_CLAUSES clauses of `message`, each marked with whether and why it may not be read."""
    clauses: list[Clause] = []
    for sentence, asked in _sentences(message):
        lang: Lang = "zh" if has_han(sentence) else "en"
        parts = [p.strip() for p in (_ZH_CLAUSE if lang == "zh" else _EN_CLAUSE).split(sentence)]
        parts = [p for p in parts if p]
        tainted: str | None = None
        for index, raw in enumerate(parts):
            if len(clauses) >= MAX_CLAUSES:
                return clauses
            lang = "zh" if has_han(raw) else "en"
            if len(raw) > MAX_CLAUSE_CHARS:
                clauses.append(Clause(text=raw[:MAX_CLAUSE_CHARS], lang=lang, skip="too long to be one statement"))
                continue
            raw = raw.strip(" ，,、：:")
            text = _strip_discourse(raw, lang)
            clause = Clause(text=text, lang=lang)
            clause.question = (asked and index == len(parts) - 1) or bool(
                (_ZH_QUESTION if lang == "zh" else _EN_QUESTION).search(text)
            )
            clause.request = bool((_ZH_REQUEST if lang == "zh" else _EN_REQUEST).match(text))
            clause.subject = _subject(text, lang)
            # Hedges are often the discourse words just stripped ("I think I like jazz").
            clause.hedged = bool((_ZH_HEDGE if lang == "zh" else _EN_HEDGE).search(raw))
            # A short window binds the rest of the sentence: "这周我在减肥，别给我推荐甜点".
            window = short_window(text)
            tainted = tainted or (f"short-term window: {window}" if window else None)
            clause.skip = (
                tainted
                or text_drop_reason(text)
                or ("question" if clause.question else None)
                or ("one-off request" if _ONE_OFF.search(text) else None)
            )
            if text:
                clauses.append(clause)
    return clauses
