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
    "only mainly finally recently seriously officially slowly already previously once".split()
)
# Modals and past tenses read the same in the third person ("I gave up coffee" -> "Gave up
# coffee"); a regular past ends in -ed, except the base verbs below ("I need" -> "Needs").
_EN_UNCHANGED = frozenset(
    "can cannot could would should will must might may shall ought quit was were had did went got gotten took made "
    "said saw came knew thought told became left felt brought began kept held wrote stood heard meant met ran paid found "
    "sat spoke led grew lost fell sent built understood drew broke spent rose drove bought wore chose sought threw "
    "caught dealt won forgot forgave fought taught ate drank sang swam flew hid rode slept sold stole struck swore "
    "woke froze gave shook bit blew bent dug hung knelt lent lit slid spun stuck swept swung tore wept withdrew "
    "overcame outgrew arose burnt learnt spelt spilt smelt dreamt".split()
)
_EN_NOUN_VERBS = frozenset(("meal prep", "batch cook", "speed walk", "power nap", "dog sit", "house sit"))
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
    if re.fullmatch(r"[a-z]+-[a-z]+", lowered):  # "binge-watch" -> "binge-watches"
        head, _, tail = verb.partition("-")
        return f"{head}-{_third_person_verb(tail)}"
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


# The user's own "my", "I" and "me" later in the statement: "Prefers aisle seats when I fly" is
# read by the assistant, whose "I" it is not. (A statement led by "My wife…" keeps them: "they"
# would name her.)
# Not inside a compound or an abbreviation: "I/O", "me-time".
_EN_LATER_SELF = re.compile(
    r"(?<![/-])\b(?:my|our|myself|me|I(?:['\u2019](?:m|ve|d|ll)| am| was)?)\b(?![/-])", re.IGNORECASE
)
# The user's word -> the assistant's word for the user ("i" covers "I" alone).
_EN_THEY = dict(
    pair.split("=")
    for pair in "my=their|our=their|myself=themselves|me=them|i=they|i'm=they're|i am=they are|i've=they've|i'd=they'd"
    "|i'll=they'll|i was=they were".split("|")
)


def _they(match: re.Match[str]) -> str:
    word = match.group(0)
    if word.lower() in ("me", "my", "our", "myself") and word[0].isupper():
        return word  # a capitalised "My" or "Me" inside a title ("Despicable Me")
    return _EN_THEY[word.lower().replace("\u2019", "'")]


# A second verb of the user's own, joined to the first: "I'm learning Spanish and want to be
# conversational" -> "… and wants to". Only verbs that are verbs there: a wish or need before
# "to", a liking before "to" or an -ing form, and "don't".
_EN_SECOND_VERB = re.compile(
    r"\b(?P<joint>and|but)\s+(?P<adverb>(?:(?:also|still|really|just|now|then)\s+)*)"
    r"(?P<verb>(?:want|hope|plan|need|try|wish|intend|aim|expect|have)(?=\s+to\b)"
    r"|(?:love|like|hate|enjoy|prefer)(?=\s+(?:to\b|\w+ing\b))|don['\u2019]t)",
    re.IGNORECASE,
)


def _later_verbs(rest: str) -> str:
    """`rest` with its coordinated first-person verbs in the third person, up to the first later
    "I" ("… when I travel and want to rest": "want" is that clause's)."""
    later_subject = re.search(r"\bI\b", rest)
    head, tail = (rest[: later_subject.start()], rest[later_subject.start() :]) if later_subject else (rest, "")
    head = _EN_SECOND_VERB.sub(
        lambda m: f"{m.group('joint')} {m.group('adverb')}{_third_person_verb(m.group('verb'))}", head
    )
    return head + tail


def _later_self(text: str) -> str:
    return _EN_LATER_SELF.sub(_they, text)


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
    if head in ("i've", "i have"):
        rest = re.sub(r"^got\s+", "", rest)  # "I've got asthma": possession, stored as "Has asthma"
    if head in _EN_FIXED:
        return _capitalize(_later_self(_later_verbs(f"{_EN_FIXED[head]} {rest}".strip())))
    words = rest.split(" ")
    index = 0
    while index < len(words) - 1 and words[index].lower() in _EN_ADVERBS:
        index += 1
    # A verb of two words, a noun before its verb ("I meal prep every Sunday"): the verb is the second.
    if index < len(words) - 1 and f"{words[index]} {words[index + 1]}".lower() in _EN_NOUN_VERBS:
        index += 1
    if index < len(words):
        words[index] = _third_person_verb(words[index])
    return _capitalize(_later_self(_later_verbs(" ".join(words))))


# The first person anywhere in a sentence, and its third: plural, so that the verb after "I" fits ("I go" -> "they go").
_FIRST_PERSON_WORD = re.compile(r"\bI(?:'m|'ve)?\b|\b(?:my|me|mine|myself)\b", re.IGNORECASE)
_THIRD_PERSON_PLURAL = {
    "i": "they",
    "i'm": "they're",
    "i've": "they've",
    "my": "their",
    "me": "them",
    "mine": "theirs",
    "myself": "themselves",
}


def pronouns_in_the_third_person(text: str) -> str:
    """`text` with every first-person pronoun in the third person plural: "Every other week I go in for my allergy
    shots" -> "Every other week they go in for their allergy shots" (`third_person` turns only a leading "I")."""
    return _FIRST_PERSON_WORD.sub(lambda word: _THIRD_PERSON_PLURAL[word[0].casefold()], text)
