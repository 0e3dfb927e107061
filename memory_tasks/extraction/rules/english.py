"""English first-person statements turned into memory content in the third person.

"I really enjoy hiking" is stored as "Really enjoys hiking": a memory describes the user, and
the same text reads right when it is injected into the assistant's prompt.
"""

from __future__ import annotations

import re

_EN_PRONOUN_SUBJECT = re.compile(r"^(?:I'm|I am|I've|I have|I'd|I would|I'll|I will|I was|I)\b\s*", re.IGNORECASE)
_EN_FIXED = {
    "i'm": "is",
    "i am": "is",
    "i've": "has",
    "i have": "has",
    "i'd": "would",
    "i would": "would",
    "i'll": "will",
    "i will": "will",
    "i was": "was",
}
_EN_ADVERBS = frozenset(
    "really just absolutely also totally genuinely honestly still usually always often mostly generally normally "
    "typically regularly actually definitely never sometimes currently now no longer not hardly rarely barely even "
    "only mainly".split()
)
# Modals and past tenses read the same in the third person ("I gave up coffee" -> "Gave up
# coffee"); a regular past ends in -ed, except the base verbs below ("I need" -> "Needs").
_EN_UNCHANGED = frozenset(
    "can cannot could would should will must might may shall ought quit was were had did went got gotten took made "
    "said saw came knew thought told became left felt brought began kept held wrote stood heard meant met ran paid "
    "sat spoke led grew lost fell sent built understood drew broke spent rose drove bought wore chose sought threw "
    "caught dealt won forgot forgave fought taught ate drank sang swam flew hid rode slept sold stole struck swore "
    "woke froze gave shook bit blew bent dug hung knelt lent lit slid spun stuck swept swung tore wept withdrew "
    "overcame arose burnt learnt spelt spilt smelt dreamt".split()
)
_EN_BASE_ED = frozenset(
    "need feed bleed breed speed proceed succeed exceed embed shed shred wed weed heed seed".split()
)
_EN_IRREGULAR = {
    "have": "has",
    "do": "does",
    "don't": "doesn't",
    "haven't": "hasn't",
    "go": "goes",
    "be": "is",
    "am": "is",
}


def _third_person_verb(verb: str) -> str:
    """`verb` after "he"/"she": "enjoy" -> "enjoys", "don't" -> "doesn't"; a modal, a past tense
    or another negation ("didn't", "can't") unchanged: a word is never mangled."""
    lowered = verb.lower().replace("\u2019", "'")
    if lowered in _EN_IRREGULAR:
        return _EN_IRREGULAR[lowered]
    if (
        lowered in _EN_UNCHANGED
        or lowered.endswith("n't")
        or (lowered.endswith("ed") and lowered not in _EN_BASE_ED)
        or not lowered.isalpha()
    ):
        return verb
    if re.search(r"(?:s|sh|ch|x|z|o)$", lowered):
        return verb + "es"
    if re.search(r"[^aeiou]y$", lowered):
        return verb[:-1] + "ies"
    return verb + "s"


def _capitalize(text: str) -> str:
    return text[:1].upper() + text[1:]


# The user's own "my" later in the statement: "Wants to get my license" is read by the assistant,
# whose "my" it is not. (A statement led by "My wife…" keeps its later "my": "their" would name her.)
_EN_MY = re.compile(r"\b(my|myself)\b", re.IGNORECASE)


def _their(match: re.Match[str]) -> str:
    return "their" if match.group(1).lower() == "my" else "themselves"


def third_person(text: str) -> str:
    """An English first-person statement as a memory: "I really enjoy hiking" -> "Really enjoys
    hiking", "I'm vegetarian" -> "Is vegetarian", "My wife is…" -> "Wife is…"."""
    text = text.strip()
    if re.match(r"^my\s", text, re.IGNORECASE):
        return _capitalize(text[3:].lstrip())
    match = _EN_PRONOUN_SUBJECT.match(text)
    if not match:
        return _capitalize(text)
    head = match.group(0).strip().lower()
    rest = text[match.end() :]
    if head in _EN_FIXED:
        return _capitalize(_EN_MY.sub(_their, f"{_EN_FIXED[head]} {rest}".strip()))
    words = rest.split(" ")
    index = 0
    while index < len(words) - 1 and words[index].lower() in _EN_ADVERBS:
        index += 1
    if index < len(words):
        words[index] = _third_person_verb(words[index])
    return _capitalize(_EN_MY.sub(_their, " ".join(words)))
