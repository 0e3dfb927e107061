"""What the user gave up for something else: the held memory a switch ends (issue 13.1).

"I quit aerial silks and started taking salsa classes instead", "I dropped the GRE, I'm taking the GMAT instead",
"I'm not a paralegal anymore, I just started as a compliance analyst", 「瑜伽不练了，现在改练普拉提」: no table of
patterns names every hobby, exam or job a person leaves, but the sentence names what it was, and a held memory names it
too. That memory is what the switch ends. When a rule of the turn read what replaced it, that statement is written and
the held memory goes; when none did, the held memory is rewritten as the sentence (its slot's new value, in the user's
words). Before, the held memory stayed beside the new one, or the news was dropped.

Safety facts, family members and pets are never ended this way: "I quit sugar and eat honey instead" is no word on an
allergy or a low-sugar diet, nor "I left Google" on a sister who works there. A diet named as one is the exception: "I
dropped the Mediterranean diet" ends it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from memory_tasks.extraction.candidates import Candidate
from memory_tasks.extraction.core import is_core_key
from memory_tasks.extraction.rules.clauses import Clause
from memory_tasks.extraction.rules.content import item_pattern, statement
from memory_tasks.extraction.rules.english import pronouns_in_the_third_person
from memory_tasks.extraction.rules.keys import item_slug
from memory_tasks.extraction.types import ExistingMemory
from memory_tasks.text import has_han

# Candidate.extra field of a switch's candidate: what the user gave up, as the sentence names it.
GIVEN_UP = "given_up"

# Words before the news, which say nothing of it: "Big news: I quit…", "So, I dropped…".
_OPENING_EN = re.compile(r"^(?:(?:so|well|ok|okay|big news|news|update|heads up|fyi)[,:!]? )+", re.IGNORECASE)


def _item_en(group: str) -> str:
    """What was given up, in English, as the named group `group`."""
    return rf"(?:the |my |doing |being |an? )?(?P<{group}>[\w' .+#-]{{2,30}}?)"


# What was left, then what replaced it, in one sentence: "I quit aerial silks and started salsa instead", "I dropped
# the GRE, I'm taking the GMAT instead", "I'm not a paralegal anymore, I just started as…", "I'm no longer a nurse, I
# became a teacher", "I switched from Dvorak to Colemak".
_GIVEN_UP_EN = re.compile(
    rf"^I(?:'ve| have)? (?:just |recently |finally |already |actually )?"
    rf"(?:(?:quit|dropped|gave up(?: on)?|stopped(?: doing)?|ditched|abandoned) {_item_en('quit')}(?=,|;| and |$)"
    rf"|(?:switched|moved over|moved|changed) from {_item_en('switched')}(?= to \S))"
    rf"|^I(?:'m| am) (?:not {_item_en('was')} anymore|no longer {_item_en('former')}(?=,|;| and |$))",
    re.IGNORECASE,
)
# What replaced it, said after it: "…instead", "…and started…", "…, took up…" (a switch from one to another says it
# itself). Not "now" alone: "I dropped my phone and now the screen is cracked" gave up nothing.
_REPLACED_EN = re.compile(
    r"\binstead\b|\b(?:started|start|took up|picked up|switched to|moved on to|joined|became)\b",
    re.IGNORECASE,
)
# 「瑜伽不练了，现在改练普拉提」, 「我不考雅思了，改考托福」, 「我不再吃生酮了，现在改吃地中海饮食」, 「我把游泳换成了骑车」.
_GIVEN_UP_ZH = re.compile(
    r"^(?:我)?(?:已经|现在|最近)?(?P<item>[^，。我]{2,8}?)(?:我)?(?:已经)?(?:不(?:再)?(?:练|玩|学|考|做|用|跳|打|弹|跑|吃|喝|上|开|干|当)了|不搞了|放弃了)"
    r"|^(?:我)?(?:已经|现在|最近)?不(?:再)?(?:练|玩|学|考|做|用|跳|打|弹|跑|吃|喝|上|开|干|当)(?P<was>[^，。了]{2,8})了"
    r"|^(?:我)?(?:已经|现在|最近)?(?:放弃了?|退出了?)(?P<former>[^，。了]{2,8})"
    r"|^(?:我)?(?:已经|现在|最近)?把(?P<switched>[^，。把]{2,8}?)(?:换成|改成)"
)
_REPLACED_ZH = re.compile(r"改|换成|换了|转|开始|现在|如今|以后")
# Words that name nothing a memory could be found by: 「现在不练了」 gives up what was said before, "I quit it" too.
_TOO_VAGUE = frozenset(
    "现在 已经 最近 目前 早就 其实 后来 平时 以后 今年 去年 这个 那个 这些 那些 it that this them these those there "
    "everything something all one".split()
)


def given_up_for_another(sentence: Sequence[Clause]) -> Candidate | None:
    """The switch one sentence of the user's says, from the clause that gives something up to the sentence's end
    (「跟你说个好消息，我不开地铁了，现在在控制中心当调度」: 「不开地铁了，现在在控制中心当调度」), or None when no clause
    gives up something and what follows says nothing replaced it. Its key is a placeholder: refinement finds the held
    memory that names what was given up (`what_was_given_up`)."""
    if not sentence:
        return None
    lang = sentence[0].lang
    given_up, replaced = (_GIVEN_UP_ZH, _REPLACED_ZH) if lang == "zh" else (_GIVEN_UP_EN, _REPLACED_EN)
    for start, clause in enumerate(sentence):
        said = sentence[start:]
        if any(c.subject != "self" or c.question or c.hedged or c.reported or c.forget or c.lang != lang for c in said):
            continue
        text = ("，" if lang == "zh" else ", ").join(c.text for c in said)
        text = _OPENING_EN.sub("", text) if lang == "en" else text
        found = given_up.match(text)
        if found is None or (not found["switched"] and replaced.search(text, found.end()) is None):
            continue
        item = next((value for value in found.groupdict().values() if value), "").strip()
        if not item or item.casefold() in _TOO_VAGUE or (not has_han(item) and not item_slug(item)):
            continue
        content = statement(text, lang) if lang == "zh" else pronouns_in_the_third_person(statement(text, lang))
        return Candidate(
            op="delete",
            memory_type="fact",
            key=f"given-up-{item_slug(item)}",
            content=content[:1000],
            importance=4,
            confidence=clause.confidence,
            reason="rules: what the user gave up for something else",
            extra={GIVEN_UP: item},
        )
    return None


# Whose memories a switch of the user's never ends: other people's and animals' facts (what the user gave up may be
# named there).
_NOT_THE_USERS = ("family-", "pet-")


# A diet named as one: "the Mediterranean diet", 「生酮饮食」.
_DIET_NAMED = re.compile(r"\bdiet\b|饮食", re.IGNORECASE)


def _a_diet_given_up(item: str, key: str) -> bool:
    """True when `item` names a diet and `key` holds one: the one safety fact a switch may end ("I dropped the
    Mediterranean diet"; not "I quit sugar", which keeps from it)."""
    return key.partition("-")[0] == "diet" and _DIET_NAMED.search(item) is not None


def what_was_given_up(candidates: Sequence[Candidate], existing: Sequence[ExistingMemory]) -> list[Candidate]:
    """For each switch of the turn (`GIVEN_UP`) whose item exactly one held memory of the user's own names, when that
    memory is no safety fact (`is_core_key`, but a diet given up by name): a delete of it when the turn writes
    something else in its place, else an upsert of the switch's sentence on it (`RulesEngine.refine` keeps neither
    where the turn writes or ends that memory itself). A switch that names no held memory, or several ("I moved from
    Leeds to Manchester" and both "Lives in Leeds" and "Works at Leeds General"), ends nothing."""
    replacing = any(c.op != "delete" and not c.extra.get(GIVEN_UP) for c in candidates)
    refined = []
    for candidate in candidates:
        item = str(candidate.extra.get(GIVEN_UP) or "")
        if not item:
            continue
        names = item_pattern(item, min_latin=2, min_han=1)
        held = [m for m in existing if not m.key.startswith(_NOT_THE_USERS) and names and names.search(m.content)]
        if len(held) != 1:
            continue
        memory = held[0]
        if is_core_key(memory.key) and not _a_diet_given_up(item, memory.key):
            continue
        ended = replace(candidate, reuse_key=memory.key, memory_type=memory.memory_type, extra={})
        refined.append(ended if replacing else replace(ended, op="upsert", importance=max(memory.importance, 4)))
    return refined
