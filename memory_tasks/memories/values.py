"""Signals for dedup that embeddings miss (issue 13 item 2): when two memories state different values.

multilingual-e5-small rates English memories of one frame as near-identical whatever value
fills it ("Grew up in Dublin" / "Grew up in Cork" 0.947, "Works at Amazon" / "Works at
Netflix" 0.914), and scores English paraphrases lower than Chinese ones (docs/quality.md,
"Dedup"). So English pairs get a lower dedup threshold (`Settings.latin_dedup_threshold`)
and these checks say when a pair that looks alike states different facts:

- named values: each side names a capitalised word the other lacks (Dublin / Cork, VS Code /
  Emacs, Italian / Greek) — a proper noun, language, brand or nationality is a slot's value;
- a qualified statement: the words of one side are all in the other, which adds more
  ("Works as a nurse" / "Wife works as a nurse", "a marathon" / "a half marathon"): the
  longer one is another fact or a new detail, never a restatement;
- languages, in either script (以后回答用中文 / 以后用英文回答): a reply rule's value.

Words are compared through the synonyms of `text.canonical_english` and a light plural fold
("documentaries" / "documentary"), qualifiers left out ("Is currently learning Spanish" restates
"Is learning Spanish"). In texts with Chinese only two narrower checks apply: the
Latin words they name differ (用VS Code写代码 / 用Vim写代码), or the two texts are one frame with
a short filler swapped (回答使用中文 / 回答使用英文, 一年级 / 三年级, 湖人队 / 勇士队) — where the
filler holds no adverb, verb or particle (很喜欢川菜 / 喜欢吃川菜 is a restatement). Chinese is
compared as `han_frame` gives it: time and degree qualifiers out (喜欢喝绿茶 / 现在更喜欢喝红茶 is a
filler swapped), common synonyms as one word (早上 / 早晨).
Pure functions: no database, no model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypeVar

from memory_tasks.memories.similarity import lexical_tokens
from memory_tasks.text import EN_ORDINALS, SAYS_A_CHANGE, ZH_WORKPLACE_KINDS, canonical_english, has_han

T = TypeVar("T")

_CAPITALISED = re.compile(r"(?<![A-Za-z'])[A-Z][A-Za-z]*")
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9+#.]*")
# A swapped Chinese filler is at most this long, and holds none of these characters (degree
# adverbs, verbs of liking and eating, particles): those vary between restatements.
MAX_FILLER_CHARS = 3
_SOFT_HAN = frozenset("很特别非常真太最挺超吃喝爱喜欢请尽量都也还就再要会想用了的是在做练")
# How often and at what time of day are two measures of one habit, not two values of one: 「每天六点起床」 / 「早上6点起床」
# may both be true (早上 / 晚上, 每天 / 周末 are swapped values).
_HAN_HOW_OFTEN = frozenset(("每天", "天天", "每周", "周末", "工作日", "平日"))
_HAN_TIME_OF_DAY = frozenset(("早上", "上午", "中午", "下午", "傍晚", "晚上", "凌晨"))
# Chinese words that qualify a statement without changing its value: 现在更喜欢喝红茶 states what 喜欢喝红茶
# does. 更 only before a verb of liking or wanting (更换, 更新 are verbs of their own). How often says no
# other value of a habit (周末喜欢去游泳 / 周末经常游泳 / 周末我一般去游泳, 每天六点起床 / 一般六点起床); 一般 only
# before a verb or an hour (川菜一般 is a verdict).
_HAN_QUALIFIER = re.compile(
    r"现在|目前|最近|如今|平时|平常|一直|依然|仍然|还是|其实|确实|真的|已经|更加|更(?=[喜爱想愿偏])"
    r"|经常|常常|通常|总是|一般(?=[去会都在要]|[零一二两三四五六七八九十\d]+点)"
    # One of a kind and the home it lives in say no value: 我家有只猫 / 有一只猫咪 / 养了一只猫.
    r"|我家|家里|一(?=[只条位头匹]|个(?!星期|礼拜|月))"
    # The year an age is said in says no other age: 女儿今年5岁 / 闺女五岁.
    r"|今年(?=[零一二两三四五六七八九十\d]+(?:周)?岁)"
    # A frequency's "has to" or "all" says no more than the frequency: 每周要做三次透析 / 每周做三次透析, 每周日都去.
    r"|(?<=[天周月晚日一二三四五六末])(?:都要|都|要)"
)
# Chinese words of one meaning, folded to the first: 每天早上跑步 / 每天早晨都会去跑步 say one habit.
_HAN_SYNONYMS = {
    "早晨": "早上",
    "清晨": "早上",
    "晚间": "晚上",
    "夜里": "晚上",
    "上班": "工作",
    "小孩": "孩子",
    "猫咪": "猫",
    "狗狗": "狗",
    "妈妈": "妈",
    "母亲": "妈",
    "爸爸": "爸",
    "父亲": "爸",
    "居住在": "住在",
    "家在": "住在",
    "一周": "每周",
    "每星期": "每周",
    "每个星期": "每周",
    "一个星期": "每周",
    "每个礼拜天": "每周日",
    "每星期天": "每周日",
    "每礼拜天": "每周日",
    "每个星期天": "每周日",
    "每个星期日": "每周日",
    "每个礼拜": "每周",
    "一个礼拜": "每周",
    "每礼拜": "每周",
    "礼拜天": "周日",
    "礼拜日": "周日",
    "星期天": "周日",
    "星期日": "周日",
    # One person by each of their names: 老婆怀孕了 / 妻子怀孕了 / 太太现在怀孕了, 哥在美国 / 哥哥在美国.
    "妻子": "老婆",
    "太太": "老婆",
    "丈夫": "老公",
    "哥哥": "哥",
    "姐姐": "姐",
    "弟弟": "弟",
    "澳洲": "澳大利亚",
    "妹妹": "妹",
    "闺女": "女儿",
    # Living together said three ways: 妈跟我们一起住 / 妈妈和我们住在一起 / 母亲跟我们同住.
    "和我们": "跟我们",
    "和我": "跟我",
    "住在一起": "一起住",
    "同住": "一起住",
    # A diet said as what one is: 老婆吃素 / 老婆是素食者 / 老婆是素食主义者.
    "是素食主义者": "吃素",
    "是素食者": "吃素",
    # Before bed: 睡前不喝茶 / 睡觉前不喝茶.
    "睡觉之前": "睡前",
    "睡觉前": "睡前",
    "临睡前": "睡前",
    # Cold drinks by any of their names: 不喝冰的 / 不喝冷饮 / 不喝冰饮料.
    "冰饮料": "冷饮",
    "冰饮": "冷饮",
    "冰的": "冷饮",
}
_HAN_SYNONYM = re.compile("|".join(sorted(_HAN_SYNONYMS, key=len, reverse=True)))  # the longest word first
# A qualified statement needs a real statement to qualify: "Is vegan" / "Follows a vegan diet"
# (one content word against three) is a paraphrase, not a qualification.
MIN_QUALIFIED_WORDS = 2
# Verbs that vary between restatements of one liking or one goal: no value of their own.
SOFT_VERBS = frozenset(
    "like likes love loves enjoy enjoys adore adores prefer prefers learning studying learn learns study studies"
    " practicing practising".split()
)
# Words that qualify nothing when they are all a statement adds: a present "has" / "owns" ("User has a cat named
# Mochi" / "User's cat is named Mochi"), "wants", "works" ("Husband works as a chef" / "Husband is a chef"). They
# still count as words of a statement: "Has asthma" is qualified by "Son has asthma", "Has type 2 diabetes" is no
# part of "Was diagnosed with type 2 diabetes".
_LIGHT_WORDS = frozenset("has have is are am be owns own got gets want wants work".split())
# The subject a model's memory text may open with: "User lives in Berlin", "The user's cat is named Mochi".
_SUBJECT = re.compile(r"^\s*(?:the\s+)?user(?:['\u2019]s)?\b\s*", re.IGNORECASE)
# Intensifiers and time qualifiers qualify nothing: "Really loves Italian food" restates "Loves Italian
# food", "Is currently learning Spanish" "Is learning Spanish".
QUALIFIERS = frozenset(
    "really very so too also just truly absolutely quite definitely totally genuinely"
    " still now actually currently even any ever".split()
)
# One negation however it is said: "Never eats meat" and "Does not eat meat" restate "Doesn't eat meat".
_NEGATIONS = frozenset("never doesn't don't not dont doesnt".split())
_AUXILIARIES = frozenset("do does did".split())


def singular(word: str) -> str:
    """`word` with a plural ending folded ("documentaries" -> "documentary", "hikes" -> "hike")."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


# One trade called several ways: "Software engineer" / "Software developer" / "Programmer" is one occupation
# (a memory's words only; keys keep the user's word).
_ONE_TRADE = re.compile(
    r"\b(?:software (?:engineer|developer|dev)s?|software engineering|programmers?|coders?|developers?)\b",
    re.IGNORECASE,
)


# One place called several ways: "NYC" / "New York City" / "New York" (a short form in capitals only).
_PLACE_NAMES = {
    "New York City": "New York",
    "NYC": "New York",
    "NY": "New York",
    "LA": "Los Angeles",
    "SF": "San Francisco",
    "Washington DC": "Washington",
    "Washington, D.C.": "Washington",
    "DC": "Washington",
    "HK": "Hong Kong",
    "United Kingdom": "UK",
    "Britain": "UK",
    "Great Britain": "UK",
    "United States": "US",
    "USA": "US",
    "America": "US",
    # Not a place, but a name said short the same way: "Is studying ASL" / "Is learning American Sign Language".
    "ASL": "American Sign Language",
}
_PLACE_NAME = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, _PLACE_NAMES), key=len, reverse=True)) + r")\b")


def canonical_places(text: str) -> str:
    """`text` with each place's other names as its one name (`_PLACE_NAMES`: "Lives in NYC" -> "Lives in New York"; and
    "ASL", a language's)."""
    return _PLACE_NAME.sub(lambda name: _PLACE_NAMES[name.group(0)], text)


# One home said several ways: "Sister's based in London" / "Sister lives over in London" / "Sister lives in London",
# "Mother-in-law moved in with us" / "Mother-in-law lives with us".
_LIVES_IN = re.compile(
    r"(?:(?:['\u2019]s|\bis|\bare)\s+)?\b(?:based|living|residing|resides|lives over) in\b"
    # "Mom and dad live down in Florida", "Daughter has her place up in Minneapolis".
    r"|\b(?:lives|live) (?:down|up|over|out|back) in\b|\bhas (?:her|his|their) (?:own )?place (?:(?:down|up|over|out) )?in\b",
    re.IGNORECASE,
)
_MOVED_IN_WITH = re.compile(r"\b(?:(?:moved|has moved|just moved) in|stays|is staying) with\b", re.IGNORECASE)
# Other trades of two names: "vet" / "veterinarian", "attorney" / "lawyer", "physician" / "doctor".
_TRADE_NAMES = {"vet": "veterinarian", "vets": "veterinarians", "attorney": "lawyer", "physician": "doctor"}
_TRADE_NAME = re.compile(r"\b(?:" + "|".join(_TRADE_NAMES) + r")\b", re.IGNORECASE)
# A count said in words is the count: "Daughter is four years old" says "Daughter is 4".
_NUMBER_WORDS = dict(
    zip("one two three four five six seven eight nine ten eleven twelve".split(), map(str, range(1, 13)), strict=True)
)
_NUMBER_WORD = re.compile(r"\b(?:" + "|".join(_NUMBER_WORDS) + r")\b", re.IGNORECASE)
_YEARS_OLD = re.compile(r"(?<=\d)[- ]years?[- ]old\b", re.IGNORECASE)
# A weight in one unit's other names: "10 lbs" is "10 pounds", "5 kilos" is "5 kg".
_WEIGHT_UNITS = {"lbs": "pounds", "lb": "pounds", "kilos": "kg", "kilograms": "kg", "kgs": "kg"}
_WEIGHT_UNIT = re.compile(r"(?<=\d) ?(?:" + "|".join(_WEIGHT_UNITS) + r")\b", re.IGNORECASE)
# "March 3rd" is "March 3".
_ORDINAL_ENDING = re.compile(r"(?<=\d)(?:st|nd|rd|th)\b", re.IGNORECASE)
# Being of a condition is having it, and having got something is having it: "Husband is diabetic", "Husband's got
# diabetes" and "Husband has diabetes" say one thing.
_CONDITIONS_OF_ADJECTIVES = {
    "diabetic": "diabetes",
    "asthmatic": "asthma",
    "epileptic": "epilepsy",
    "anemic": "anemia",
    "anaemic": "anaemia",
    "arthritic": "arthritis",
    "hypertensive": "hypertension",
    "insomniac": "insomnia",
    "autistic": "autism",
    "dyslexic": "dyslexia",
    "celiac": "celiac disease",
    "coeliac": "coeliac disease",
}
# An allergy had is being allergic, to the allergen in the singular: "Has a nut allergy" / "Is allergic to nuts".
_HAS_AN_ALLERGY = re.compile(r"\b(?:has|have) an? (?P<allergen>[a-z]+(?: [a-z]+)?) allergy\b", re.IGNORECASE)
_ALLERGIC_TO = re.compile(r"\ballergic to (?P<allergen>[a-z]+(?: [a-z]+)?)\b", re.IGNORECASE)
# "Has celiac" is "Has celiac disease".
_CELIAC_ALONE = re.compile(r"\b(c(?:o)?eliac)\b(?!\s+disease)", re.IGNORECASE)
_OF_A_CONDITION = re.compile(
    r"(?:\b(?:is|am|are)\s+|['\u2019]s\s+)(?:an?\s+)?(?P<adjective>" + "|".join(_CONDITIONS_OF_ADJECTIVES) + r")\b",
    re.IGNORECASE,
)
# "A dog called Biscuit" is "a dog named Biscuit".
_CALLED = re.compile(r"(?<=[a-z] )called\b")
_HAS_GOT = re.compile(r"(?:['\u2019]s|\bhas|['\u2019]ve|\bhave)\s+got\b", re.IGNORECASE)


def _lives_in(said: re.Match[str]) -> str:
    """ "lives in", or "live in" where said of many ("Parents are based in Florida" / "Parents live in Florida")."""
    return " live in" if said.group(0).lower().startswith(("are", "live ")) else " lives in"


def _space_before(match: re.Match[str]) -> str:
    """The space a contraction's replacement needs ("Husband's got" -> "Husband has"), none after a word's own."""
    return " " if match.group(0)[0] in "'\u2019" else ""


def canonical_words(text: str) -> str:
    """`text` as dedup compares its English words: one place's, one trade's and one home's names as one
    (`_PLACE_NAMES`, `_ONE_TRADE`, `_TRADE_NAMES`, `_LIVES_IN`, `_MOVED_IN_WITH`), a condition had however said
    (`_OF_A_CONDITION`, `_CELIAC_ALONE`, `_HAS_GOT`), a name given (`_CALLED`), a day's number without its ordinal
    ending, a count in digits without "years old", a weight in one unit's one name (`_WEIGHT_UNITS`), then
    `text.canonical_english`'s synonyms."""
    text = _ORDINAL_ENDING.sub("", canonical_places(text))
    text = _NUMBER_WORD.sub(lambda word: _NUMBER_WORDS[word.group(0).lower()], text)
    text = _WEIGHT_UNIT.sub(lambda unit: " " + _WEIGHT_UNITS[unit.group(0).strip().lower()], text)
    text = _TRADE_NAME.sub(lambda name: _TRADE_NAMES[name.group(0).lower()], _YEARS_OLD.sub("", text))
    text = _MOVED_IN_WITH.sub("lives with", _LIVES_IN.sub(_lives_in, text))
    text = _OF_A_CONDITION.sub(
        lambda m: f"{_space_before(m)}has {_CONDITIONS_OF_ADJECTIVES[m['adjective'].lower()]}", text
    )
    text = _CELIAC_ALONE.sub(r"\1 disease", text)
    text = _HAS_GOT.sub(lambda m: _space_before(m) + ("have" if "v" in m.group(0).lower() else "has"), text)
    text = _CALLED.sub("named", text)
    return canonical_english(_ONE_TRADE.sub("programmer", text))


def words(text: str) -> frozenset[str]:
    """The content words of an English text: synonyms as one word, plurals folded, every negation as "not"
    ("Never eats" / "Doesn't eat"); its subject ("User …"), stopwords, auxiliaries and qualifiers dropped."""
    tokens = lexical_tokens(canonical_words(without_subject(text)))
    return frozenset(
        "not" if token in _NEGATIONS else singular(token)
        for token in tokens
        if token not in QUALIFIERS and token not in _AUXILIARIES
    )


def without_subject(text: str) -> str:
    """`text` without the "User" / "The user's" a model's memory may open with ("User lives in Berlin" -> "lives in Berlin")."""
    return _SUBJECT.sub("", text, count=1)


def named_values(text: str) -> frozenset[str]:
    """The capitalised words of `text` after its first word (which is capitalised as a sentence start), lowercased
    and their plurals folded ("Saturdays" is "Saturday")."""
    found = _CAPITALISED.findall(text.strip())
    if found and text.strip().startswith(found[0]):
        found = found[1:]
    return frozenset(singular(word.casefold()) for word in found if word != "I")


# Languages by what they are called in either script: a reply rule's value (以后回答用中文 /
# 以后用英文回答 score 0.97, one frame reordered).
_LANGUAGES = (
    ("zh", r"中文|汉语|普通话|国语|\bChinese\b|\bMandarin\b"),
    ("en", r"英文|英语|\bEnglish\b"),
    ("ja", r"日文|日语|\bJapanese\b"),
    ("ko", r"韩文|韩语|\bKorean\b"),
    ("fr", r"法文|法语|\bFrench\b"),
    ("de", r"德文|德语|\bGerman\b"),
    ("es", r"西班牙语|西语|\bSpanish\b"),
    ("yue", r"粤语|广东话|\bCantonese\b"),
)
_LANGUAGE_NAMES = [(code, re.compile(pattern, re.IGNORECASE)) for code, pattern in _LANGUAGES]
_LANGUAGE_NAME = re.compile("|".join(pattern for _, pattern in _LANGUAGES), re.IGNORECASE)


# How long a reply should be, in either language: a reply rule's value (「回复短一点」 / 「回答详细一点」 share every other
# word). "Not too long" is short.
_REPLY_LENGTHS = (
    (
        "short",
        r"(?:别|不要|不用|不必)(?:写|说|回)?得?(?:太|那么|这么)长|短|简短|简洁|简单点|精简|\b(?:short|shorter|brief|concise|succinct)\b",
    ),
    ("long", r"详细|具体|长一点|长一些|展开|\b(?:detailed|longer|in-depth|thorough|elaborate)\b"),
)
_REPLY_LENGTH_NAMES = [(length, re.compile(pattern, re.IGNORECASE)) for length, pattern in _REPLY_LENGTHS]


def reply_lengths(text: str) -> frozenset[str]:
    """The reply lengths `text` asks for ("short", "long"): 「回答别太长」 -> {"short"}, "More detailed answers" -> {"long"}."""
    found = set()
    for length, pattern in _REPLY_LENGTH_NAMES:
        if pattern.search(text):
            found.add(length)
            text = pattern.sub(" ", text)  # 「别太长」 is short, not long as well
    return frozenset(found)


def languages(text: str) -> frozenset[str]:
    """The languages `text` names, as codes ("以后用英文回答" -> {"en"})."""
    return frozenset(code for code, pattern in _LANGUAGE_NAMES if pattern.search(text))


def state_different_values(a: str, b: str, *, qualified: bool = True) -> bool:
    """True when two English memory texts name different values or (with `qualified`) one qualifies
    the other, or two texts in any script name different languages.

    For texts with Chinese only the narrower checks of the module docstring apply. False for
    texts that share their named values and neither of which only adds words to the other.
    Without `qualified`, a side that only adds words or values is no other value: what a memory was already
    told again in fewer words ("Occupation: nurse" to "Occupation: nurse at the hospital", "Lives in Tucson" to
    "Lives in Tucson, Arizona") repeats it.
    """
    languages_a, languages_b = languages(a), languages(b)
    if languages_a and languages_b and languages_a != languages_b:
        return True
    if languages_a and languages_a == languages_b:
        # One language, named alike or not ("Reply in Chinese" / "Always respond in Mandarin Chinese"): no other value.
        a, b = _LANGUAGE_NAME.sub("", a), _LANGUAGE_NAME.sub("", b)
    if has_han(a) or has_han(b):
        return _latin_words_differ(a, b, qualified=qualified) or _filler_swapped(a, b) or _han_counts_differ(a, b)
    names_a, names_b = (named_values(without_subject(canonical_places(text))) for text in (a, b))
    if names_a and names_b and names_a != names_b and (qualified or not _one_holds_the_other(names_a, names_b)):
        return True
    if not qualified:
        return False
    words_a, words_b = words(a), words(b)
    smaller, larger = sorted((words_a, words_b), key=len)
    return len(smaller) >= MIN_QUALIFIED_WORDS and smaller < larger and not (larger - smaller) <= _LIGHT_WORDS


def _one_holds_the_other(a: frozenset[str], b: frozenset[str]) -> bool:
    """True when one set of values is part of the other: "Tucson" of "Tucson, Arizona"."""
    return a <= b or b <= a


def _latin_words_differ(a: str, b: str, *, qualified: bool = True) -> bool:
    """True when both texts name Latin words (tools, brands in Chinese text) and not the same ones; without
    `qualified`, not when those of one are part of the other's (「宏光MINI」 / 「五菱宏光MINI EV」)."""
    words_a = frozenset(w.casefold() for w in _LATIN_WORD.findall(a))
    words_b = frozenset(w.casefold() for w in _LATIN_WORD.findall(b))
    return (
        bool(words_a and words_b) and words_a != words_b and (qualified or not _one_holds_the_other(words_a, words_b))
    )


_HAN_DIGITS = "零一二三四五六七八九"
# A particle that ends a sentence says no value: 「每周打三次羽毛球了」 is 「每周打三次羽毛球」 now, 「女儿不吃香菜的」 「女儿不吃香菜」.
_FINAL_PARTICLE = re.compile(r"[了啦呢吧的]+([。.！!]*)$")
_SMALL_NUMBER = re.compile(r"(?<![\d.])\d{1,2}(?![\d.])")


def _han_number(number: re.Match[str]) -> str:
    """A number under 100 in Chinese numerals: "8" -> 八, "12" -> 十二, "30" -> 三十."""
    tens, units = divmod(int(number.group(0)), 10)
    said_tens = "" if tens == 0 else ("十" if tens == 1 else _HAN_DIGITS[tens] + "十")
    return said_tens + (_HAN_DIGITS[units] if units or not tens else "")


# Living somewhere said after the place: 「哥在美国生活」 is 「哥住在美国」.
_LIVING_AT = re.compile(r"(?<!住)在(?P<place>[^，。；;在]{1,8}?)(?:生活|居住)")


def han_frame(text: str) -> str:
    """`text` as Chinese frames are compared: qualifiers (现在, 更, 一直 …) and a sentence's final particle out,
    synonyms as one word, a home said after its place as before it, times counted as 次 (两回 / 两次), a small number in
    Chinese numerals (儿子今年8岁 / 儿子今年八岁)."""
    text = _HAN_SYNONYM.sub(lambda word: _HAN_SYNONYMS[word.group(0)], _HAN_QUALIFIER.sub("", text))
    text = _TIMES.sub("次", _LIVING_AT.sub(r"住在\g<place>", text))
    return _SMALL_NUMBER.sub(_han_number, _FINAL_PARTICLE.sub(r"\1", text))


# Times counted by any of their words: 一个星期打两回 / 每周打两次.
_TIMES = re.compile(r"(?<=[零一二两三四五六七八九十百\d])[回遍](?![家来去头])")


def frame(text: str) -> str:
    """`text` as its frame is compared: for a text with Chinese, `han_frame` with a job said at a kind of place as the
    job (`_ZH_WORKS_AT_A_KIND_AS`) and the paraphrases of a family fact or a pet (`_ZH_FAMILY_PARAPHRASES`); else
    `canonical_words` with an allergy said one way (`_HAS_AN_ALLERGY`, `_ALLERGIC_TO`: not in `canonical_words`, whose
    words say whether one text qualifies another, and "Has a peanut allergy and must avoid peanuts" would then qualify
    "Allergic to peanuts"), and the paraphrases of a family member's diet, allergy, children, job and school below
    (`_NO_MEAT` …, `children_aged`, `_KIDS`, `_PARENT_OF`, `_WORKS_AS`, `_EN_SCHOOL_PARAPHRASES`, `_MOM_AND_DAD`,
    `_DIAGNOSED_WITH`, `_SERVES_IN`, `_ASSISTED_LIVING`, `_EN_FAMILY_PARAPHRASES`)."""
    if has_han(text):
        # 「哥在美国」 is where he lives: 「哥哥住在美国」; 「女儿上初二」 is 「女儿初二了」.
        text = _ZH_KEPT_FROM_FOR_AN_ALLERGY.sub(r"对\g<allergen>过敏", text)
        text = _ZH_WORKS_AT_A_KIND_AS.sub("是", text)
        text = _ZH_STAGE_VERB.sub("", han_frame(text)).replace("住在", "在")
        for paraphrase, said in _ZH_FAMILY_PARAPHRASES:
            text = paraphrase.sub(said, text)
        return text
    text = _HAS_AN_ALLERGY.sub(r"is allergic to \g<allergen>", canonical_words(_MOM_AND_DAD.sub("parents", text)))
    text = _ASSISTED_LIVING.sub("assisted living", _SERVES_IN.sub("is in the ", _DIAGNOSED_WITH.sub("has", text)))
    text = _ON_A_DIET.sub(lambda m: f"is on a {m['diet'].lower()} diet", _WORKS_AS.sub("is", text))
    for paraphrase, said in _EN_SCHOOL_PARAPHRASES + _EN_FAMILY_PARAPHRASES:
        text = paraphrase.sub(said, text)
    text = _KEPT_FROM_FOR_AN_ALLERGY.sub(r"is allergic to \g<allergen>", _NO_MEAT.sub("is vegetarian", text))
    text = _ARE_TWINS.sub(r"Has twin \g<children>", text)
    text = _GRADER.sub(r"is in \g<grade> grade", _IS_SAID_SHORT.sub(" is ", text))
    text = _GRADE.sub(lambda m: f"{_grade_number(m['grade'])} grade", text)
    text = _IS_IN_A_PLACE.sub(lambda m: "lives" if m["verb"].casefold() == "is" else "live", text)
    text = children_aged(_TEACHES_SCHOOL.sub("is a teacher", _BAD_HEART.sub("a heart condition", text)))
    text = _KIDS.sub(lambda kids: "children" if kids.group(0).lower() == "kids" else "child", text)
    text = _PARENT_OF.sub(r"has \g<count> children", text)
    for kept_from in _KEPT_FROM:
        text = kept_from.sub(r"avoids \g<item>", text)
    return _ALLERGIC_TO.sub(lambda m: "allergic to " + " ".join(map(singular, m["allergen"].lower().split())), text)


# Paraphrases of one diet or allergy of a family member's, as `frame` folds them: "Husband is vegetarian" / "Husband
# doesn't eat meat", "Son is allergic to peanuts" / "Son can't have peanuts, he's allergic", "Wife is gluten-free" /
# "Wife can't eat gluten" / "Wife avoids gluten", 「儿子对海鲜过敏」 / 「儿子不能吃海鲜，会过敏」, and twins.
_NO_MEAT = re.compile(
    r"\b(?:doesn't|does not|don't|do not|never|won't|can't|cannot) eats? (?:any )?meat\b|\bis an? vegetarian\b",
    re.IGNORECASE,
)
_KEPT_FROM_FOR_AN_ALLERGY = re.compile(
    r"\b(?:can't|cannot|can not|mustn't|must not) (?:have|eat|drink|touch) (?P<allergen>[a-z]+(?: [a-z]+)?)[,;]? "
    r"(?:(?:because|as|since) )?(?:he|she|they)(?:'s|'re| is| are) allergic(?: to (?:it|them))?",
    re.IGNORECASE,
)
# "Kids" are "children": "Sister has two kids" / "Sister has 2 children".
_KIDS = re.compile(r"\bkids?\b", re.IGNORECASE)
# A parent of two has two children: "Sister is a mother of two" (the count in digits: `canonical_words`).
_PARENT_OF = re.compile(
    r"\b(?:is|['\u2019]s) an? (?:mother|mom|mum|father|dad|parent|mama|papa) of (?P<count>\d+)\b", re.IGNORECASE
)
# "Daughters are twins" is "Has twin daughters".
_ARE_TWINS = re.compile(r"\b(?P<children>daughters|sons|kids|children|boys|girls) are twins\b", re.IGNORECASE)
# Children's ages said with or without their count: "Has two kids, 5 and 8" / "Kids are 5 and 8".
_KIDS_AGED = re.compile(
    r"\b(?:has (?:\d+|two|three|four|five) (?:kids|children)(?:,| aged| ages| who are)?|(?:kids|children) are(?: aged)?) "
    r"(?P<ages>\d+(?:(?:,| and|, and) \d+)+)",
    re.IGNORECASE,
)


def _grade_number(grade: str) -> str:
    """A school grade in digits: "third" -> "3", "3" -> "3", "twelfth" -> "12"."""
    grade = grade.casefold()
    return str(EN_ORDINALS.get(grade, grade))


def children_aged(text: str) -> str:
    """`text` with its children's ages said one way: "Has two kids, 5 and 8" -> "kids are 5 and 8"."""
    return _KIDS_AGED.sub(r"kids are \g<ages>", text)


# A school grade said as a word or in digits, with "the" or without, and "is" said short before it: "Son's in the
# third grade" / "Son is in 3rd grade" (`canonical_words` has cut the ordinal ending of a number).
_GRADE = re.compile(r"\b(?:the )?(?P<grade>" + "|".join(EN_ORDINALS) + r"|\d{1,2}) grade\b", re.IGNORECASE)
# "Daughter is a third grader" / "Daughter is in 3rd grade".
_GRADER = re.compile(r"\bis an? (?P<grade>" + "|".join(EN_ORDINALS) + r"|\d{1,2})[- ]grader\b", re.IGNORECASE)
_IS_SAID_SHORT = re.compile(r"(?<=\w)['\u2019]s (?=in (?:the )?\w+ grade\b)", re.IGNORECASE)
# Where someone is, said of a named place, is where they live: "Sister is in Toronto" / "Sister lives in Toronto".
_IS_IN_A_PLACE = re.compile(r"\b(?P<verb>is|are)(?= in (?-i:[A-Z])[a-z]+\b)", re.IGNORECASE)
# "Dad's got a bad heart" / "Dad has a heart condition".
_BAD_HEART = re.compile(r"\b(?:a bad heart|a weak heart|heart problems|heart trouble|heart issues)\b", re.IGNORECASE)
# "Teaches school" is being a teacher.
_TEACHES_SCHOOL = re.compile(
    r"\bteaches(?: at an?)? (?:school|high school|middle school|elementary school|primary school|kindergarten)\b",
    re.IGNORECASE,
)
_KEPT_FROM = (
    re.compile(r"\b(?:is|['\u2019]s) (?P<item>[a-z]+)-free\b", re.IGNORECASE),
    re.compile(
        r"\b(?:can't|cannot|can not|doesn't|does not|won't) (?:eat|drink|have(?! (?:a|an|the|any|to)\b)) (?P<item>[a-z]+)\b",
        re.IGNORECASE,
    ),
)
# The verb before a school stage says nothing of which stage: 上初二, 读初二, 在读初二.
_ZH_STAGE_VERB = re.compile(
    r"(?:在读|在上|读|上|念|升到|升上|升入|升)(?=[初高][一二三]|大[一二三四]|[一二三四五六]年级|幼儿园|小学|初中|高中|大学)"
)
# What a family fact (or a pet) says in other words, as `frame` folds them (after `han_frame`): a liking said as a
# hobby or a fan's (「爸喜欢钓鱼」 / 「爸最大的爱好就是钓鱼」 / 「老爸是个钓鱼迷」), a job said as work (「妹是律师」 / 「妹是做律师的」 /
# 「妹的工作是律师」, 「老婆在银行上班」 / 「媳妇是银行职员」), a home said with 人 or after its place (「爸妈人在河南老家」,
# 「父母在河南老家住」), and a parent's or the partner's other names (the partner is one person whatever the word;
# the names first: 「爱人在银行工作」 holds 人在).
_ZH_FAMILY_PARAPHRASES = (
    # The partner's parents by their own names (after `han_frame`: 爸爸 is 爸): 「老公的爸爸」 is 「公公」.
    (re.compile(r"老公(?:的|他)?爸(?!妈)"), "公公"),
    (re.compile(r"老公(?:的|他)?妈"), "婆婆"),
    (re.compile(r"老婆(?:的|她)?爸(?!妈)|老丈人"), "岳父"),
    (re.compile(r"老婆(?:的|她)?妈|丈母娘"), "岳母"),
    # A sibling's or a child's partner by their own names: 「哥的老婆」 is 「嫂子」, 「闺女她老公」 is 「女婿」.
    (re.compile(r"哥(?:的|他)?(?:老婆|媳妇)"), "嫂子"),
    (re.compile(r"(?:女儿|闺女)(?:的|她)?老公"), "女婿"),
    (re.compile(r"儿子(?:的|他)?(?:老婆|媳妇)|儿媳妇"), "儿媳"),
    # A condition by its other names: 「老年痴呆」 is 「阿尔茨海默症」.
    (re.compile(r"老年痴呆(?:症)?|阿尔茨海默(?:症|病)?|失智症"), "阿尔茨海默症"),
    # 「儿子有自闭症」 / 「儿子是孤独症谱系障碍」.
    (re.compile(r"(?:是|有)(?:自闭症|孤独症)(?:谱系障碍)?|是自闭儿"), "有自闭症"),
    # A condition had however said: 「得了帕金森病」 / 「是帕金森患者」 / 「有帕金森」.
    (re.compile(r"得了|患有|确诊了?"), "有"),
    (re.compile(r"是(?P<condition>[^，。；]{2,6}?)(?:病)?患者"), r"有\g<condition>"),
    (re.compile(r"(?<=有)(?P<condition>[^，。；]{2,5}?)病(?=$|[，。；])"), r"\g<condition>"),
    # Where one is from: 「婆婆是广东人」 / 「婆婆老家是广东的」; a job with its article: 「是个中医大夫」 / 「是中医」.
    (re.compile(r"老家是"), "是"),
    (re.compile(r"是(?P<place>[^，。；]{2,4}?)人(?=$|[，。；])"), r"是\g<place>"),
    (re.compile(r"是(?:个|名|位)"), "是"),
    (re.compile(r"(?P<doctor>中医|西医|牙医|兽医)大夫|给人看病的(?P<healer>中医|医生)"), r"\g<doctor>\g<healer>"),
    # A teacher by what the job is: 「老婆是个教书的」 / 「老婆在学校当老师」 / 「老婆是老师」.
    (re.compile(r"是教书(?:的|匠)?(?=$|[，。；])|(?:在学校)?(?:当|做)老师|在学校教书|是教师"), "是老师"),
    (re.compile(r"爸爸妈妈|父母|老爸老妈"), "爸妈"),
    (re.compile(r"老爸"), "爸"),
    (re.compile(r"姥爷"), "外公"),
    (re.compile(r"姥姥"), "外婆"),
    (re.compile(r"老妈"), "妈"),
    (re.compile(r"老婆|老公|爱人|媳妇"), "伴侣"),
    (re.compile(r"(?:特别|非常|很|超级|超)(?=喜欢|爱)"), ""),
    # A pet said by its breed: 「养了只金毛」 / 「养的狗是金毛」 / 「狗是只金毛犬」.
    (re.compile(r"(?:养的)?(?:狗|猫)是只?"), "养了只"),
    (re.compile(r"(?P<breed>金毛|柯基|泰迪|柴|边牧|萨摩耶|哈士奇|比熊|拉布拉多)犬"), r"\g<breed>"),
    (re.compile(r"最大的爱好(?:就)?是|(?<=[^是个])迷(?=[^，。；]{2})"), "喜欢"),
    (re.compile(r"是(?:个|一个)?(?P<what>[^，。；]{1,4}?)迷(?=$|[，。；])"), r"喜欢\g<what>"),
    (re.compile(r"的(?:工作|职业)是"), "是"),
    (re.compile(r"是(?:做|当)(?P<job>[^，。；]{1,6}?)(?=$|[，。；])"), r"是\g<job>"),
    (re.compile(r"是(?P<org>[^，。；是]{1,6}?)(?:职员|员工)(?=$|[，。；])"), r"在\g<org>工作"),
    (re.compile(r"人在"), "在"),
    # A daily amount said per day (its 都要 is gone with the qualifiers): 「一天抽一包烟」 / 「每天都要抽掉一包烟」.
    (re.compile(r"(?<![有那这哪某第])一天(?=[抽喝吃跑走睡打做练])"), "每天"),
    (re.compile(r"(?<=[抽喝吃])掉(?=[一两二三四五六七八九十半\d])"), ""),
    # Studying somewhere however said (「在澳大利亚留学」 / 「在澳洲读书」 / 「念书」), boarding at school.
    (re.compile(r"留学|念书"), "读书"),
    (re.compile(r"是住校生|在学校住校|(?:住)?在学校宿舍|住在学校|住学校(?:宿舍)?"), "住校"),
    (re.compile(r"在(?P<place>[^，。；在]{1,8}?)住(?=$|[，。；])"), r"在\g<place>"),
)
# A job worked at is the job had: "Brother-in-law works as a firefighter" / "Brother-in-law is a firefighter".
_WORKS_AS = re.compile(r"\b(?:works|working|is working) as\b", re.IGNORECASE)
# Being at a school, however said: "Niece is in medical school" / "…is studying at med school" / "…is a medical student".
_EN_SCHOOL_PARAPHRASES = (
    (re.compile(r"\bmed school\b", re.IGNORECASE), "medical school"),
    (re.compile(r"\bis (?:studying|a student) (?:at|in)\b", re.IGNORECASE), "is in"),
    (
        re.compile(r"\bis an? (?P<field>medical|law|nursing|dental|graduate|grad) student\b", re.IGNORECASE),
        r"is in \g<field> school",
    ),
)
# A family member by their other names, a job with its trade: "Big sister is deaf" / "Older sister is deaf", "Stepfather
# works as a plumber" / "Stepdad's a plumber by trade".
_EN_FAMILY_PARAPHRASES = (
    (re.compile(r"\bbig (?=sister|brother)", re.IGNORECASE), "older "),
    (re.compile(r"\blittle (?=sister|brother)", re.IGNORECASE), "younger "),
    (re.compile(r"\bstep-?father\b", re.IGNORECASE), "stepdad"),
    (re.compile(r"\bstep-?mother\b", re.IGNORECASE), "stepmom"),
    (re.compile(r" by trade\b", re.IGNORECASE), ""),
    # "Lives by themselves" / "Lives on her own" / "Lives alone".
    (
        re.compile(
            r"\b(?<=lives )(?:by (?:myself|themselves|himself|herself)|on (?:my|their|his|her) own)\b", re.IGNORECASE
        ),
        "alone",
    ),
    # "Stepdad's a plumber": 's before an article is "is" (a possessive is followed by its noun).
    (re.compile(r"(?<=\w)['\u2019]s (?=an? )", re.IGNORECASE), " is "),
)
# A diet kept however said: "Husband is on a keto diet" / "…eats keto" / "…follows a keto diet".
_ON_A_DIET = re.compile(
    r"\b(?:is on|follows|eats|does|is doing) (?:a |the )?(?P<diet>keto|paleo|low-carb|mediterranean|carnivore)(?: diet)?\b",
    re.IGNORECASE,
)
# A condition diagnosed or suffered from is had: "Son was diagnosed with ADHD" / "Son has ADHD".
_DIAGNOSED_WITH = re.compile(
    r"\b(?:(?:was|were|has been|have been|got|just got|was just|was recently) diagnosed with|suffers from|is living with)\b",
    re.IGNORECASE,
)
# Serving in a branch of the forces is being in it: "Brother serves in the Navy" / "Brother is in the Navy".
_SERVES_IN = re.compile(
    r"\b(?:serves|is serving|serving) in the (?=(?:Navy|Army|Air Force|Marines|Marine Corps|Coast Guard|National Guard"
    r"|military)\b)",
    re.IGNORECASE,
)
# "Mom lives in an assisted living facility" / "Mom's living in an assisted living home" / "Mom is in assisted living".
_ASSISTED_LIVING = re.compile(
    r"\b(?:an? )?assisted[- ]living(?: facility| home| community| center| residence)?\b", re.IGNORECASE
)
# "Mom and dad" are the parents.
_MOM_AND_DAD = re.compile(r"\b(?:mom and dad|mum and dad|mother and father|dad and mom|my folks)\b", re.IGNORECASE)
# A job said with the kind of place it is done at says the job: 「老公在医院当医生」 is 「老公是医生」 (a named employer,
# 「在腾讯当程序员」, is a detail and stays).
_ZH_WORKS_AT_A_KIND_AS = re.compile(rf"在(?:{ZH_WORKPLACE_KINDS})里?(?:当|做|作)")
_ZH_KEPT_FROM_FOR_AN_ALLERGY = re.compile(
    r"(?:不能|不可以|不敢)(?:吃|喝|碰)(?P<allergen>[^，。；;,]{1,6}?)[，,；;]?(?:吃了|一吃就?)?(?:会|就会)过敏"
)


# A count of something in Chinese numerals: 「跑过三次全马」, 「养了两只猫」 (digits are read as 「三」 by `han_frame`).
_HAN_COUNT = re.compile(
    r"(?P<count>[零一二两三四五六七八九十百]+)(?P<unit>次|个|岁|场|只|条|本|斤|公斤|公里|天|小时|分钟|辆|套|口)"
)


def _han_counts(text: str) -> dict[str, str]:
    """The counts `text` says, by unit: 「全马我跑过三次」 -> {"次": "三"} (两 said as 二)."""
    return {found["unit"]: found["count"].replace("两", "二") for found in _HAN_COUNT.finditer(han_frame(text))}


def _han_counts_differ(a: str, b: str) -> bool:
    """True when both texts count one unit and not alike: 「全马我跑过三次」 / 「我跑过四次全马了」, whose frames share
    no start for `_filler_swapped` to see the swap in."""
    counts_a, counts_b = _han_counts(a), _han_counts(b)
    return any(counts_b.get(unit, count) != count for unit, count in counts_a.items())


def _filler_swapped(a: str, b: str) -> bool:
    """True when `a` and `b` are one text (`han_frame`) with a short, content-bearing Chinese filler swapped; never when
    their frames are one (`frame`: 「老婆是老师」 / 「老婆是个教书的」)."""
    if frame(a) == frame(b):
        return False
    frame_a, frame_b = (han_frame(text).strip().rstrip("。.！!") for text in (a, b))
    _, filler_a, filler_b = split_common_ends(frame_a, frame_b)
    fillers = {str(filler_a), str(filler_b)}
    if len(fillers & _HAN_HOW_OFTEN) == 1 and len(fillers & _HAN_TIME_OF_DAY) == 1:
        return False
    return all(
        0 < len(filler) <= MAX_FILLER_CHARS and has_han(filler) and not _SOFT_HAN.intersection(filler)
        for filler in (filler_a, filler_b)
    )


def split_common_ends(a: Sequence[T], b: Sequence[T]) -> tuple[int, Sequence[T], Sequence[T]]:
    """(length of the start `a` and `b` share, what is left of `a`, what is left of `b`) once
    their common start and common end are cut; the end is never taken from the common start."""
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[-1 - end] == b[-1 - end]:
        end += 1
    return start, a[start : len(a) - end], b[start : len(b) - end]


def key_items(items: list[str]) -> set[str]:
    """The words of a key's items as dedup compares them: synonyms as one word, plurals folded."""
    return {singular(canonical_english(item).casefold()) for item in items}


# The numbers a text says, however written (`said_numbers`): digits, English words, Chinese numerals.
_EN_NUMBER_VALUES = {**{word: float(value) for word, value in _NUMBER_WORDS.items()}, "once": 1.0, "twice": 2.0}
_EN_TENS = dict(zip("twenty thirty forty fifty sixty seventy eighty ninety".split(), range(20, 100, 10), strict=True))
_EN_SAID_NUMBER = re.compile(
    r"\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?(?:k\b)?|\b(?:"
    + "|".join([*_EN_NUMBER_VALUES, *_EN_TENS, "a dozen", "dozen"])
    + r")\b",
    re.IGNORECASE,
)
_HAN_NUMERALS = {**{char: value for value, char in enumerate(_HAN_DIGITS)}, "两": 2}
_HAN_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10_000}
# A Chinese numeral run, unless it is the 一 of "a" day, week or month (「一天」, 「一个月」 say how often, not how many).
_HAN_SAID_NUMBER = re.compile(
    r"[零一二两三四五六七八九十百千万]+(?!个?(?:天|周|星期|礼拜|月|年))|[零一二两三四五六七八九十百千万]*[二两三四五六七八九十百千万]"
)


def _han_value(numeral: str) -> float:
    """The value of a Chinese numeral: 「一千」 1000, 「两千」 2000, 「十五」 15, 「三百」 300; a last digit right after
    a unit of a hundred or more counts in the unit below it, as said: 「两千八」 2800, 「一百二」 120, 「三万五」 35000."""
    total, digit, unit = 0, 0, 1
    for char in numeral:
        if char in _HAN_UNITS:
            unit = _HAN_UNITS[char]
            total += (digit or 1) * unit
            digit = 0
        else:
            digit = _HAN_NUMERALS[char]
    last_after_a_unit = len(numeral) > 1 and numeral[-2] in _HAN_UNITS and unit >= 100
    return float(total + (digit * unit // 10 if last_after_a_unit else digit))


def said_numbers(text: str) -> frozenset[float]:
    """The numbers `text` says, whatever their script: "six hens" and 「6只」 say 6, "$12" 12, "1,800" 1800, 「一千块」
    1000, "30k" 30000; the "a" of a period (「一天」, 「一个月」) is no number."""
    numbers = set()
    for said in _EN_SAID_NUMBER.findall(text):
        said = said.casefold().replace(",", "")
        if said[0].isdigit():
            numbers.add(float(said[:-1]) * 1000 if said.endswith("k") else float(said))
        else:
            numbers.add(12.0 if "dozen" in said else float(_EN_NUMBER_VALUES.get(said) or _EN_TENS[said]))
    numbers.update(_han_value(said) for said in _HAN_SAID_NUMBER.findall(text))
    return frozenset(numbers)


def numbers_changed(stored: str, stated: str) -> bool:
    """True when both texts say numbers and `stated` puts others in: neither's are all among the other's ("Keeps six
    hens" / "Only has four hens now", 「每月定投一千」 / 「提到每个月两千了」), or `stated` says a change ("Injects Humira
    every two weeks" / "Doctor moved their Humira to once a week"). "Gets a shot every two weeks" / "one shot every
    two weeks" only says more."""
    a, b = said_numbers(stored), said_numbers(stated)
    return bool(a and b) and a != b and (not (a <= b or b <= a) or SAYS_A_CHANGE.search(stated) is not None)


def says_a_change(stored: str, stated: str) -> bool:
    """True when `stated` says a value changed (`SAYS_A_CHANGE`: "now", "moved to", 「换成」, 「加到」) and `stored` does not."""
    return SAYS_A_CHANGE.search(stated) is not None and SAYS_A_CHANGE.search(stored) is None
