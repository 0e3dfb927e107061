"""The key scheme of the rules engine: which key each kind of statement lands on.

Stable keys are what make overwrite and retirement work.

Single-valued slots — the same key for every new value, op=upsert overwrites the old one:
    fact:        residence-city, work-city, hometown, nationality, occupation, employer, diet,
                 birthday, timezone, native-language, spoken-languages, education-major,
                 commute, vehicle, relationship-status, alma-mater, household,
                 work-schedule
    constraint:  reply-language, reply-length, reply-format, reply-emoji, code-language,
                 code-comment-language
    preference:  reply-style (the seed files "偏好简洁回复风格" under preference)
One key per item for the multi-valued kinds, so distinct likes never overwrite each other:
    preference   favorite-<kind>        favorite-color, favorite-food: one favourite per kind;
                 <category>-<item>      drink-milk-tea, food-sichuan-cuisine, sport-hiking;
                 preference-<item>      when the item is not in LEXICON, or is in a fact's
                                        category (health, medication, trait: `liking_key`)
    fact         allergy-<item>, health-<item>, trait-<item>, pet-<species>, business-<item>
    goal         goal-<item>            goal-jlpt-n1, goal-marathon
    project      project-<item>         project-pai, project-rust-compiler
    constraint   rule-<item words>      rule-rain-umbrella (a standing conditional rule)
Family facts accumulate with op=append under family-partner, family-children,
family-parents, family-siblings, family-grandparents, family-grandchildren, family-in-laws,
family-relatives.

<item> is the item's slug: the LEXICON entry the item names (both languages map to one
slug, so "I love milk tea" and 我不喝奶茶了 meet on drink-milk-tea), else the item's ASCII
words, else a short hash of its normalized Chinese text (the same words, the same key).
A like and a dislike of one item share the key: the later statement overwrites the earlier.
A retirement ("我不喝奶茶了", "I don't drink milk tea anymore", "我放弃考N1了") is op=delete
on exactly the key the positive statement would have used.
"""

from __future__ import annotations

import hashlib
import re

from memory_tasks.extraction.rules.lexicon import lexicon_entries, lexicon_mentions
from memory_tasks.text import HAN_CHAR, canonical_english, has_han

_EN_STOPWORDS = frozenset(
    "a an the my our your some any of to for and or with on in at by from that which who this these those "
    "really very so too also just about it its".split()
)
# Generic Chinese words that do not tell one item from another ("PAI项目" is "PAI").
_ZH_GENERIC = re.compile(r"项目|系统|一个|一款|一本|一只|一条|这个|那个|的|了|个")


def _hash_slug(text: str) -> str:
    return "h" + hashlib.sha1(text.encode("utf-8")).hexdigest()[:7]


def is_wording_hash(slug: str) -> bool:
    """True when `slug` is a hash of the wording (`_hash_slug`) alone: its words name no item the lexicon knows."""
    return _WORDING_HASH.match(slug) is not None


_WORDING_HASH = re.compile(r"^h[0-9a-f]{7}$")


def item_slug(item: str) -> str:
    """A stable ASCII slug naming `item`: its LEXICON slug, else its ASCII words plus a hash
    of any Chinese left over, else a hash of the Chinese (same item text, same slug); English
    synonyms are one word first (`text.canonical_english`)."""
    item = canonical_english(item)
    entries = lexicon_entries(item)
    if entries:
        return entries[0][0]
    return _wording_slug(item)


def _wording_slug(item: str) -> str:
    """The slug of `item`'s own words, whatever LEXICON knows: its ASCII words plus a hash of any
    Chinese left over, else a hash of the whole."""
    words = [
        w for w in re.findall(r"[a-z0-9]+", _SPELLED_SIGNS.sub(_spell_sign, item.casefold())) if w not in _EN_STOPWORDS
    ][:5]
    chinese = "".join(HAN_CHAR.findall(_ZH_GENERIC.sub("", item)))
    parts = words + ([_hash_slug(chinese)] if chinese else [])
    return "-".join(parts) or _hash_slug(item.strip().casefold())


# Names whose signs tell them apart ("C++" is not "C"): the signs spelled out before the slug drops them.
_SPELLED_SIGNS = re.compile(r"\b([cf])(\+\+|#)")


def _spell_sign(name: re.Match[str]) -> str:
    return name[1] + ("pp" if name[2] == "++" else "sharp")


# When and how often an item is done, said after it: "water polo every Tuesday night", "bridge on weekends", "… twice a
# week now". No part of what the item is, so no part of its key.
_EN_DAY_PARTS = r"(?: (?:morning|afternoon|evening|night)s?)?"
_EN_WHEN_DONE = re.compile(
    r"(?:\s+(?:(?:every|each)(?: other)? (?:day|night|morning|evening|week|weekend|month|year|[a-z]+day)"
    + _EN_DAY_PARTS
    + r"|on (?:the )?(?:weekends?|weekdays|[a-z]+days?)"
    + _EN_DAY_PARTS
    + r"|(?:once|twice|three times|four times|\d+ times|a few times|a couple (?:of )?times) (?:a|per|every) [a-z]+"
    + r"|daily|weekly|monthly|nightly|now|these days|at night|in the (?:morning|afternoon|evening)s?))+$",
    re.IGNORECASE,
)
# The verb said before an activity is no part of it: "playing bridge" is "bridge" ("playing for fun" names none).
_EN_DOING = re.compile(
    r"^(?:playing|doing|practicing|practising) (?!(?:for|with|in|at|on|around|out|outside|about)\b)(?=\w)",
    re.IGNORECASE,
)
# The start of what `_EN_WHEN_DONE` leaves in a slug, for keys stored before it was cut ("…-every-tuesday-night").
WHEN_DONE_SLUG = re.compile(
    r"^(?:every|each|once|twice|three-times|four-times|\d+-times|few-times|couple-times|daily|weekly|monthly|nightly"
    r"|weekends?|weekdays|[a-z]+days)(?:-|$)"
)


def preference_key(item: str) -> str:
    """`<category>-<slug>` for a LEXICON item, else `preference-<slug>`; depends on the item only,
    so "I love X", "我不喜欢X" and "I don't eat X anymore" meet on one key, and so do English
    synonyms ("Italian cuisine", "Italian food"), and the item said with when it is done or the verb it is done with
    ("water polo every Tuesday night", "playing water polo": `_EN_WHEN_DONE`, `_EN_DOING`, cut where the lexicon names
    nothing, as its words may say when: "sleep in on weekends")."""
    item = canonical_english(item)
    mentions = lexicon_mentions(item)
    if mentions:
        slug, category, said = mentions[0]
        if len(mentions) > 1 and _compound(item, said, mentions[1][2]):
            # "jazz piano", "a jazz pianist", 「爵士钢琴」: the second names the thing, the first its kind.
            slug, category, _ = mentions[1]
        return f"{category}-{slug}"
    return f"preference-{item_slug(_EN_DOING.sub('', _EN_WHEN_DONE.sub('', item)) or item)}"


def _compound(item: str, first: str, second: str) -> bool:
    """True when `item` says the lexicon words `first` and `second` as one compound (`first` right before `second`)."""
    return f"{first} {second}" in item.casefold() or (has_han(first + second) and f"{first}{second}" in item)


# Lexicon categories that are also the key prefixes of facts about the user (`keyed_fact`:
# health-asthma, medication-metformin, trait-left-handed). Keys are unique per user.
_FACT_CATEGORIES = frozenset({"health", "medication", "trait"})


def liking_key(item: str) -> str:
    """The key of a liking or a dislike of `item`: `preference_key`, except that an item of a fact's
    category gets `preference-<slug>`, so "I hate my asthma" never overwrites the fact "Has asthma".
    A retirement keeps `preference_key` ("I don't take metformin anymore" retires the medication)."""
    key = preference_key(item)
    category, _, slug = key.partition("-")
    return f"preference-{slug}" if category in _FACT_CATEGORIES else key


# What a favourite is a favourite of, named in Chinese: the English word its key uses, so
# 「我最喜欢的颜色是蓝色」 and "My favorite color is green" meet on favorite-color.
_ZH_FAVORITE_KINDS = {
    "颜色": "color",
    "食物": "food",
    "菜": "food",
    "美食": "food",
    "电影": "movies",
    "片子": "movies",
    "歌手": "singer",
    "乐队": "band",
    "歌": "music",
    "歌曲": "music",
    "音乐": "music",
    "书": "book",
    "作家": "author",
    "运动": "sport",
    "水果": "fruit",
    "饮料": "drink",
    "球队": "team",
    "城市": "city",
    "游戏": "game",
    "动物": "animal",
    "季节": "season",
    "演员": "actor",
    "零食": "snack",
    "点心": "snack",
    "甜点": "dessert",
    "电视剧": "shows",
    "剧": "shows",
    "国家": "country",
    "编程语言": "programming-language",
}


# A kind spelt the British way is the same kind: "My favourite colour" is favorite-color.
_BRITISH_SPELLING = re.compile(r"\b(colo|flavo|harbo|neighbo)ur\b", re.IGNORECASE)


def favorite_key(kind: str) -> str:
    """`favorite-<kind>`: a favourite is one per kind ("My favorite color is green" after "… blue"
    replaces it), whatever item it names."""
    kind = _BRITISH_SPELLING.sub(r"\1r", kind.strip())
    slug = _ZH_FAVORITE_KINDS.get(kind) if has_han(kind) else None
    return "favorite-" + (slug or _wording_slug(canonical_english(kind)))


def rule_key(text: str) -> str:
    """`rule-<slugs>` for a standing rule: the LEXICON items it names, sorted (so the Chinese and
    English wording of one rule meet), else its ASCII words, else a hash. A time of the day
    (a "routine" item: 睡觉前, when I get up) says when a rule applies, not what it is about:
    「睡觉前提醒我吃药」 and 「睡觉前提醒我刷牙」 are two rules, not one key."""
    slugs = sorted({slug for slug, category in lexicon_entries(text) if category != "routine"})
    return "rule-" + ("-".join(slugs) if slugs else _rule_wording_slug(canonical_english(text)))


def fact_key(text: str) -> str:
    """The slug of a lasting fact no rule reads, by its wording (`rules.lasting`): an English one's first topic words
    (`_rule_wording_slug`); a Chinese one's LEXICON items, then a hash of the wording. Two wordings are two keys:
    their paraphrases meet in the write model's dedup, which weighs what they say, never in a key."""
    text = canonical_english(text)
    if not has_han(text):
        return _rule_wording_slug(_CONTRACTED.sub(" ", text))
    slugs = sorted({slug for slug, category in lexicon_entries(text) if category != "routine"})
    return "-".join([*slugs, _hash_slug(text)])


# What a contraction adds to "I" or "it" ("I've got", "I'm out", "it's"): no topic word.
_CONTRACTED = re.compile(r"['’](?:ve|m|s|re|ll|d)\b", re.IGNORECASE)


# A rule's politeness, polarity and frame, not its topic: "Please don't give me medical advice" is about
# medical advice (and "… legal advice" another rule), "Always use X" and "Never use X" are one rule said
# twice (the later wins).
_RULE_FILLER = frozenset(
    "please don t do not never always ever give me i you your when whenever if ask asks asked stop no need be "
    "use using all time times every thing things any anything so much now show include write unless only".split()
)
_RULE_WORDS = 5


def _rule_wording_slug(text: str) -> str:
    """The slug of a rule's topic words, the first `_RULE_WORDS` of them plus a hash of all when there
    are more (two long rules that open alike are two keys); a Chinese rule's is `_wording_slug`'s."""
    words = [w for w in re.findall(r"[a-z0-9]+", text.casefold()) if w not in _EN_STOPWORDS and w not in _RULE_FILLER]
    if not words or has_han(text):
        return _wording_slug(text)
    slug = "-".join(words[:_RULE_WORDS])
    return f"{slug}-{_hash_slug(' '.join(words))}" if len(words) > _RULE_WORDS else slug


_GOAL_VERBS = ("打算", "准备", "考虑", "想", "plan", "planning", "going", "trying", "aiming")
_PROJECT_VERBS = ("做", "开发", "写", "building", "developing", "working on")


def retired_key(verb: str, item: str) -> str | None:
    """Which key a retirement names: goal-/project- after plan/build verbs, the pet after 养 (「我不再养狗」
    retires `pet-dog`, not a liking of dogs), a preference otherwise."""
    if verb == "养":
        return f"pet-{item_slug(item)}"
    if verb in _GOAL_VERBS:
        return goal_key(item)
    if verb in _PROJECT_VERBS:
        return project_key(item)
    return preference_key(item)


_ZH_GOAL_LEAD = re.compile(
    r"^(?:今年|明年|年底前?|以后|将来|在|要|能|去|考过|考|通过|拿到|学会|学习|学|攒够|存够|跑一次|跑|完成)+"
)
_EN_GOAL_LEAD = re.compile(
    r"^(?:to |get |pass |run |learn |learning |become |buy |buying |finish |complete |my |be fluent in |fluent in "
    r"|be conversational in |speak )+",
    re.IGNORECASE,
)


# A goal said as a verb whose reaching is said as a thing: "I'm learning to drive" is reached by "I got
# my driver's license" (the lexicon's drivers-license; "drive" alone is no item: "I drive to work").
_GOAL_OF_VERB = {"drive": "drivers-license"}
# A count names no lexicon word: 「减十斤」, 「瘦二十斤」, "lose 10 pounds", "lose ten lbs" are the weight-loss goal, 「读完二十本书」
# and "read 30 books this year" the reading one.
_BOOKS_TO_READ = re.compile(r"^(?:读|看)完?[\d一二两三四五六七八九十百]+本书|^read \d+ books\b", re.IGNORECASE)
_WEIGHT_TO_LOSE = re.compile(
    r"^(?:减掉?|瘦)(?:个)?[\d一二两三四五六七八九十百]+(?:斤|公斤|kg|千克)"
    r"|^lose (?:\d+|five|ten|fifteen|twenty|thirty|forty|fifty) ?(?:pounds|lbs|kg|kgs|kilos|kilograms)\b",
    re.IGNORECASE,
)


def language_key(language: str) -> str:
    """`language-<slug>` of a language named in English or Chinese ("English", 「英语」, 「英文」: language-english), the key
    of how well the user speaks it."""
    named = [slug for slug, category, _ in lexicon_mentions(language) if category == "language"]
    return f"language-{named[0] if named else item_slug(language)}"


def goal_key(item: str) -> str:
    """`goal-<slug>` of the goal's object ("考N1" and "通过N1" are both goal-jlpt-n1). A LEXICON item
    whose name starts with a leading verb is found with the verb (考研 is not 研; "run a marathon"
    is still the marathon)."""
    lead = _ZH_GOAL_LEAD if has_han(item) else _EN_GOAL_LEAD
    # The goal's own words: what a comma adds ("…triathlon in September, swimming is my weakest part") is not it.
    core = re.split(r"\s+(?:before|by|within|in the next|this year|next year|so that|so|because)\b|[,，]", item)[0]
    target = lead.sub("", core) or item
    if target.lower() in _GOAL_OF_VERB:
        return "goal-" + _GOAL_OF_VERB[target.lower()]
    if _WEIGHT_TO_LOSE.match(target):
        return "goal-weight-loss"
    if _BOOKS_TO_READ.match(target):
        return "goal-reading"
    # "run for city council" is an office sought, not running: the lead's verb names no item then.
    running_for = re.match(r"run for\b", core, re.IGNORECASE)
    entries = lexicon_entries(canonical_english(target)) or (
        [] if running_for else lexicon_entries(canonical_english(core))
    )
    # Saving up for something is the goal of having it: 「存钱买房」 is goal-house, as "saving up to buy a house".
    entries.sort(key=lambda entry: entry[1] == "money")
    return "goal-" + (entries[0][0] if entries else item_slug(target))


def project_key(item: str) -> str:
    """`project-<slug>` of the project's name ("PAI项目" -> project-pai)."""
    core = re.split(r"\s+(?:for|that|which|on|about|to|from|with|as|in|using)\b|，", item)[0]
    core = re.sub(r"^(?:一个|一款|一本|个|款|本)", "", core)
    return "project-" + item_slug(core)
