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
_EN_UNCHANGED = frozenset(
    "can can't cannot could couldn't would wouldn't should will won't must might may grew was went had got took "
    "quit ran began made spent left stopped".split()
)
_EN_IRREGULAR = {"have": "has", "do": "does", "don't": "doesn't", "go": "goes", "be": "is", "am": "is"}


def _third_person_verb(verb: str) -> str:
    lowered = verb.lower()
    if lowered in _EN_IRREGULAR:
        return _EN_IRREGULAR[lowered]
    if lowered in _EN_UNCHANGED or lowered.endswith("ed"):
        return verb
    if re.search(r"(?:s|sh|ch|x|z|o)$", lowered):
        return verb + "es"
    if re.search(r"[^aeiou]y$", lowered):
        return verb[:-1] + "ies"
    return verb + "s"


def _capitalize(text: str) -> str:
    return text[:1].upper() + text[1:]


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
        return _capitalize(f"{_EN_FIXED[head]} {rest}".strip())
    words = rest.split(" ")
    index = 0
    while index < len(words) - 1 and words[index].lower() in _EN_ADVERBS:
        index += 1
    if index < len(words):
        words[index] = _third_person_verb(words[index])
    return _capitalize(" ".join(words))
