"""Which memories are core (R-READ-6): injected before every reply, whatever the question.

Two kinds, decided when a memory is written (`store.write_row`) and stored in
`long_term_memories.is_core`, so retrieval reads a flag instead of re-classifying; the gate
asks it of candidates too, so a core one is never cut by the write cap (`gate.screen`).
It lives with the candidates it classifies, below the write model that stores its answer:
- standing constraints: every `constraint` memory (reply language, length, format, style,
  code language, "下雨时提醒我带伞" — rules the user asked the assistant to follow from now on)
  and every memory under a `reply-…` key, whatever its type;
- safety facts of any type: allergies, intolerances and sensitivities, diets the user keeps
  (vegetarian, halal, gluten-free, 不能吃, can't eat…, for religious reasons), medical conditions, pregnancy and
  medication, and "never do X" rules, found by their words in the key or the content, or by a
  `diet`/`allergy-…`/`health-…`/`medication-…`/`sensitivity-…` key.
A dislike ("不吃香菜", "doesn't like coriander") is a preference, not a restriction, and is
not core. Consolidation keeps the flag (a rewrite or a merge never clears it).
Pure functions only: no database.
"""

from __future__ import annotations

import re

# Safety vocabulary, matched in the key and the content. English words are matched at a word
# start so "allerg" finds allergy/allergic/allergies; Chinese terms are matched as written.
_SAFETY_EN = (
    r"allerg\w*|anaphyla\w*|epipen|intoleran\w*|celiac|coeliac|lactose|"
    # A diet the person keeps, not a dish that happens to be vegan ("vegan ice cream recipe").
    r"(?:is|am|are|'m|be|became|become|being|went|gone|stays?|eats?|eating)\s+"
    r"(?:a\s+|strictly\s+|fully\s+|now\s+|only\s+)?(?:vegetarian|vegan|pescatarian|halal|kosher|gluten[- ]free)\b|"
    r"(?:vegetarian|vegan|pescatarian|halal|kosher|gluten[- ]free)\s+diet|"
    r"diabet\w*|asthma\w*|epilep\w*|hypertension|high blood pressure|heart condition|pregnan\w*|"
    r"medical condition|medication|insulin|trying to conceive|"
    r"sensitive to (?:caffeine|alcohol|lactose|gluten|msg)\b|"
    # What the user cannot eat or drink, as 不能吃 / 不能喝 below ("Can't eat gluten").
    r"(?:can[’']t|cannot|can not|must not|mustn[’']t) (?:eat|drink|have)\b|"
    r"never (?:suggest|recommend|mention|bring up|send|offer|call|contact|share)\b|"
    # Something kept out of every recommendation by what it holds ("Don't recommend anything with alcohol").
    r"(?:recommend|suggest|offer)\w* (?:me )?(?:anything|any \w+|\w+) (?:with|containing) (?:any )?"
    r"(?:alcohol|pork|beef|meat|nuts|peanuts|shellfish|seafood|gluten|dairy|eggs)\b|"
    # What the user's faith forbids is as binding as an allergy ("doesn't eat beef for religious reasons").
    r"(?:for )?religious reasons\b|(?:my|their) (?:religion|faith) (?:forbids|doesn't allow|does not allow)\b"
)
_SAFETY_ZH = (
    "过敏|不耐受|麸质|乳糖|素食|吃素|清真|忌口|不能吃|不可以吃|不能喝|不能碰|"
    "糖尿病|高血压|心脏病|哮喘|癫痫|怀孕|孕期|备孕|病史|正在服用|胰岛素|"
    "对(?:咖啡因|酒精|乳糖|麸质|味精)[^，。]{0,4}敏感|"
    "千万不要|绝对不要|永远不要|宗教原因|信仰原因|"
    "推荐(?:任何)?(?:带|含|有)(?:酒精?|猪肉|牛肉|花生|坚果|海鲜|麸质|乳制品)"
)
_SAFETY = re.compile(rf"\b(?:{_SAFETY_EN})|{_SAFETY_ZH}", re.IGNORECASE)
_KEY_WORDS = re.compile(r"[-_]")
# Keys that name a standing rule or a safety slot whatever type the extractor chose
# ("reply-style" often arrives as a preference; "diet", "health-diabetes" as facts).
CORE_KEY_CATEGORIES = ("reply", "diet", "allergy", "health", "medical", "medication", "sensitivity")
_CORE_KEY = re.compile(rf"^(?:{'|'.join(CORE_KEY_CATEGORIES)})(?:[-_]|$)")


# Types that never state a safety fact: a taste, a goal, a project.
NOT_SAFETY_TYPES = frozenset({"preference", "goal", "project"})

# Foods and drinks whose avoidance is a diet the user keeps, not a taste: "Doesn't eat meat", 「不吃猪肉」,
# "Doesn't drink", 「滴酒不沾」 (a meal, a recipe or a bar suggested must respect it, as "Quit drinking" is).
DIETARY_KEYS = frozenset(
    {
        "food-meat",
        "food-red-meat",
        "food-pork",
        "food-beef",
        "food-lamb",
        "food-seafood",
        "food-shellfish",
        "food-egg",
        "food-dairy",
        "food-gluten",
        "drink-alcohol",
    }
)
# A change of taste ("Doesn't like pork", 「不爱喝酒了」) is no restriction.
TASTE = re.compile(r"\b(?:like|love|enjoy|fan)\b|喜欢|爱|迷", re.IGNORECASE)
_KEEPS_FROM = re.compile(
    r"不吃|不喝|不碰|不沾|戒|\b(?:doesn't|does not|don't|do not|never|no longer|avoids?|quit|stopped|gave up|given up)\b",
    re.IGNORECASE,
)


def is_dietary_avoidance(key: str, content: str) -> bool:
    """True when the memory says the user keeps from a food or drink of `DIETARY_KEYS` ("Doesn't eat
    pork", 「不喝酒」), False for a taste of it ("Doesn't like pork") or a liking ("Loves pork")."""
    return key in DIETARY_KEYS and _KEEPS_FROM.search(content) is not None and TASTE.search(content) is None


def is_core_key(key: str) -> bool:
    """True when the key alone names a standing rule or a safety slot (`reply-language`, `allergy-peanut`)."""
    return _CORE_KEY.match(key) is not None or _SAFETY.search(_KEY_WORDS.sub(" ", key)) is not None


def has_safety_words(content: str) -> bool:
    """True when the text says a safety matter in words ("Is allergic to peanuts", 「有糖尿病」)."""
    return _SAFETY.search(content) is not None


def is_core_memory(memory_type: str, key: str, content: str) -> bool:
    """True when the memory must reach every reply: a standing constraint or a safety fact."""
    return (
        memory_type == "constraint"
        or is_core_key(key)
        or has_safety_words(content)
        or is_dietary_avoidance(key, content)
    )


def is_safety_memory(key: str, content: str) -> bool:
    """True when a core memory guards the user's safety (an allergy, a diet kept, a condition, a
    medication, "never do X") rather than saying how to reply (`reply-…` keys, reply rules): when
    a user holds more core memories than the core block has places, these go in first."""
    if key.startswith("reply"):
        return False
    return is_core_key(key) or has_safety_words(content) or is_dietary_avoidance(key, content)
