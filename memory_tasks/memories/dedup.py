"""Semantic dedup of one user's memories (R-PIPE-4).

Two rules on the scorer's own scale (embedding cosine, or the CJK-aware lexical score
when no embedder is available):
- reuse: a new candidate at >= dedup threshold to an existing active memory of the same
  type is that memory, so it is written under the existing key;
- merge: after a write, any two active memories of the user at >= merge threshold are
  one memory: the better-supported one survives, the other is deactivated with a
  pointer to the survivor and history rows on both. Which pairs merge
  (`near_duplicate_merges`) is decided the same way for consolidation's plan.
Single-valued slots are keyed, not left to similarity: a candidate whose own key exists
is never redirected. Scores compare contents embedded query-side (E5's symmetric mode),
which separates same from different memories best (docs/quality.md).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np
from sqlalchemy import Row, select
from sqlalchemy.orm import Session

from config.settings import get_settings
from memory_tasks import metrics
from memory_tasks.db.models import LongTermMemory
from memory_tasks.extraction.candidates import MEMORY_TYPES, WORDING_FACT_PREFIX, Candidate
from memory_tasks.extraction.core import CORE_KEY_CATEGORIES
from memory_tasks.memories.corpus import CorpusRow, UserMemories, user_memories
from memory_tasks.memories.similarity import SimilarityScorer, get_scorer
from memory_tasks.memories.store import WriteContext, comparable, merge_into
from memory_tasks.memories.values import (
    QUALIFIERS,
    SOFT_VERBS,
    canonical_words,
    frame,
    key_items,
    numbers_changed,
    reply_lengths,
    says_a_change,
    split_common_ends,
    state_different_values,
    without_subject,
)
from memory_tasks.text import has_han
from memory_tasks.vectors.embedders import Embedder, EmbeddingError, get_embedder
from memory_tasks.vectors.index import EmbeddingKind, embed_texts, text_hash

logger = logging.getLogger(__name__)


class CachedEmbedder:
    """An embedder that reads and fills the PostgreSQL embedding cache in `session`.

    Dedup compares against memories written moments ago (not yet in Milvus) without
    embedding any text twice.
    """

    def __init__(self, session: Session, embedder: Embedder) -> None:
        self._session = session
        self._embedder = embedder
        self.model_name = embedder.model_name
        self.dim = embedder.dim

    def _cached(self, texts: list[str], kind: EmbeddingKind) -> np.ndarray:
        vectors = embed_texts(self._session, self._embedder, list(texts), kind)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([vectors[text_hash(t)] for t in texts])

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return self._cached(texts, "passage")

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return self._cached(texts, "query")

    def embed_query(self, text: str) -> np.ndarray:
        return self._cached([text], "query")[0]


_KEY_SPLIT = re.compile(r"[-_]")
# Rules-engine keys for items outside its lexicon end in a hash of the wording, so two such
# keys say nothing about whether their items differ.
_WORDING_HASH = re.compile(r"^h[0-9a-f]{7}$")
# Core slots keep two memories when unsure: 对阿莫西林过敏 (a hashed item) merged into 对青霉素过敏 by
# similarity lost an allergy, where two memories of one allergen only repeat it (R-READ-6).
_CORE_CATEGORIES = frozenset(CORE_KEY_CATEGORIES)


def keys_name_different_items(key_a: str, key_b: str) -> bool:
    """True when two keys of one category name different items (pet-cat vs pet-dog).

    Similarity cannot tell 养了一只猫 from 养了一只狗 (cosine 0.95); the keys can. Keys of
    different categories, wording hashes (except in a core category: `extraction.core.CORE_KEY_CATEGORIES`),
    one item contained in the other (food-thai vs food-thai-cuisine) or a group's key (family-children vs
    family-son) leave the decision to similarity.
    """
    if _is_wording_fact(key_a) or _is_wording_fact(key_b):
        return False  # its key is its wording: two wordings of one fact have two keys
    category_a, *items_a = _KEY_SPLIT.split(key_a)
    category_b, *items_b = _KEY_SPLIT.split(key_b)
    if category_a != category_b or not items_a or not items_b:
        return False
    if category_a not in _CORE_CATEGORIES and any(_WORDING_HASH.match(token) for token in (*items_a, *items_b)):
        return False
    # Synonyms and plurals as one word: food-italian-cuisine and food-italian-food name one item.
    set_a, set_b = key_items(items_a), key_items(items_b)
    if set_a <= _GROUP_ITEMS or set_b <= _GROUP_ITEMS:
        return False  # family-children holds the son of family-son: the contents decide
    return not (set_a <= set_b or set_b <= set_a)


# Last words of a key that name one aspect of its item, a fact of its own beside the item's (rules' `builders._hours_key`,
# `builders.taken_with`). Not "style": a model keys one topic "travel" and "travel-style" (dedup_pairs en-021).
_ASPECTS = frozenset({"cutoff", "taken"})


# Items that name a group the other items of their category belong to (family-children / family-son).
_GROUP_ITEMS = frozenset({"children", "child", "kid"})


# What a key says the user does at a place, by the words keys use for it: "Lives in Chicago" (residence-city)
# and "Was born in Chicago" (birthplace) score 0.94, "Lives in Toronto" / "Works in Toronto" (work-city) 0.93.
_PLACE_RELATIONS = {
    **dict.fromkeys(("residence", "live", "lives", "living"), "lives"),
    **dict.fromkeys(("work", "works", "office", "workplace", "commute"), "works"),
    **dict.fromkeys(("birthplace", "born", "birth", "hometown", "origin", "grew"), "comes from"),
    **dict.fromkeys(("school", "university", "college", "campus"), "studies"),
    **dict.fromkeys(("trip", "travel", "travels", "visit", "visited", "vacation", "holiday"), "visited"),
}


def _place_relation(key: str) -> str | None:
    """The place relation the first of `key`'s words that names one says (`_PLACE_RELATIONS`), or None."""
    return next((_PLACE_RELATIONS[w] for w in _KEY_SPLIT.split(key.casefold()) if w in _PLACE_RELATIONS), None)


def keys_name_other_place_relations(key_a: str, key_b: str) -> bool:
    """True when both keys say how the user is tied to a place, and not the same way (residence-city / work-city)."""
    relation_a, relation_b = _place_relation(key_a), _place_relation(key_b)
    return relation_a is not None and relation_b is not None and relation_a != relation_b


def _an_aspect_beside_its_item(key_a: str, content_a: str, key_b: str, content_b: str) -> bool:
    """True when one key names an aspect of the other's item (drink-coffee-cutoff / drink-coffee: `_ASPECTS`) and the
    texts differ: "Drinks coffee every morning" and 「下午不喝咖啡」 are two facts. One text under both is one memory (a
    cutoff held under the item's key, as the rules keyed it before session 33, is restated, not stored twice)."""
    item_key, _, aspect = max(key_a, key_b, key=len).rpartition("-")
    return (
        aspect in _ASPECTS and item_key == min(key_a, key_b, key=len) and comparable(content_a) != comparable(content_b)
    )


def _is_wording_fact(key: str) -> bool:
    """True when `key` is a fact's wording (`candidates.WORDING_FACT_PREFIX`), not an item or a slot."""
    return key.startswith(WORDING_FACT_PREFIX)


def different_facts(key_a: str, content_a: str, key_b: str, content_b: str, *, new_value: bool = False) -> bool:
    """True when keys (other items of one category, other ties to a place, an aspect beside its item), numbers, stated
    values (`values.state_different_values`) or another object of one verb (`_object_swapped`) show two
    similar-looking memories state different facts.

    `new_value`: `content_b` is said now, to a held `content_a`. Between two facts keyed by their wording, other
    numbers then say the held fact's new value ("Keeps six hens in the backyard", then "Only has four hens now"): no
    key holds it apart, so similarity alone finds the fact it changes (`redirect_duplicates`). Nor is one of them
    saying more words another fact: both are the user's own ("Is on call every other weekend", "On-call rotation is
    every other weekend"), where "Wife works as a nurse" qualifies "Works as a nurse". Said as a change
    (`values.says_a_change`: "Dropped Lemonade and moved their renters insurance to State Farm, it's $19 a month now",
    「今年起年终奖改成两个月工资了」), the other values it names are the held fact's new ones too."""
    both_worded = new_value and _is_wording_fact(key_a) and _is_wording_fact(key_b)
    changed = both_worded and says_a_change(content_a, content_b)
    return (
        keys_name_different_items(key_a, key_b)
        or _an_aspect_beside_its_item(key_a, content_a, key_b, content_b)
        or keys_name_other_place_relations(key_a, key_b)
        or (_numbers_differ(content_a, content_b) and not both_worded)
        or (not changed and state_different_values(content_a, content_b, qualified=not both_worded))
        or _object_swapped(content_a, content_b)
    )


def _object_swapped(a: str, b: str) -> bool:
    """True when two English texts say one verb of two different objects of a word or two: "Loves sushi" /
    "Still loves sashimi" (cosine 0.91, over the English dedup threshold). Synonyms are one word
    (`values.canonical_words`: "Italian food" / "Italian cuisine" are one object), qualifiers are left out."""
    if has_han(a + b):
        return False
    words_a, words_b = (
        [w for w in _WORD.findall(canonical_words(without_subject(t)).lower()) if w not in QUALIFIERS] for t in (a, b)
    )
    prefix, rest_a, rest_b = split_common_ends(words_a, words_b)
    if SOFT_VERBS.issuperset(rest_a) and SOFT_VERBS.issuperset(rest_b):
        return False  # "Is learning Spanish" / "Is studying Spanish": the verb varies, the object is one
    return bool(prefix) and 0 < len(rest_a) <= 2 and 0 < len(rest_b) <= 2 and not set(rest_a) & set(rest_b)


_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")


def _numbers_differ(a: str, b: str) -> bool:
    """True when both texts state Arabic numerals and not the same ones (10 vs 11).

    Embeddings score "wakes up at 6" and "wakes up at 7" as near-identical; a differing
    number is a different fact, never a duplicate.
    """
    numbers_a, numbers_b = set(_NUMBER.findall(a)), set(_NUMBER.findall(b))
    return bool(numbers_a and numbers_b) and numbers_a != numbers_b


# Separators of an enumeration: "川菜、湘菜和粤菜", "tea, coffee and juice".
_LIST_SEPARATOR = re.compile(r"[、,，/；;]|\band\b|\bor\b|和|及|以及|还有|或者")


# A restatement this much longer than the memory (in comparable characters) says more.
MAX_RESTATEMENT_GROWTH = 1.5


def _item_count(text: str) -> int:
    return len(_LIST_SEPARATOR.findall(text)) + 1


# Words that turn a statement around: 喜欢吃香菜 / 不吃香菜 score 0.96+, yet one is the opposite.
_NEGATION = re.compile(
    # 别 as "don't" (别加表情), not inside 特别 / 区别 / 别人 / 别的.
    r"不|没|讨厌|戒|避免|毕业|(?<![特区分告识级性类差离辨鉴])别(?![人的墅名处称扭致])"
    r"|\b(?:not|no|never|none|nothing|hates?|dislikes?|stop|stopped|quit|longer|avoids?|stays? away|graduated"
    r"|sick of|tired of|fed up)\b|n't",
    re.IGNORECASE,
)


# The kind of turn each negation word makes, in either language: "Doesn't eat pork" and 「不吃猪肉」 both say
# "not", so a statement told in one language and held in the other states no other value. Disliking is not liking:
# "Doesn't like horror movies" / "Can't stand horror movies", 「不喜欢香菜」 / 「讨厌香菜」 say one thing (they
# flip-flopped on every re-send as "not" / "dislike"); quitting is a turn of its own.
_NEGATION_KIND = {
    "不": "not",
    "没": "not",
    "别": "not",
    "not": "not",
    "no": "not",
    "never": "not",
    "none": "not",
    "nothing": "not",
    "n't": "not",
    "讨厌": "not",
    "hate": "not",
    "hates": "not",
    "dislike": "not",
    "dislikes": "not",
    "avoid": "not",
    "avoids": "not",
    "stay away": "not",
    "stays away": "not",
    "避免": "not",
    "sick of": "not",
    "tired of": "not",
    "fed up": "not",
    "stop": "not",  # "Stop using emojis" is "Don't use emojis"; a quitting is said in the past ("stopped")
    "戒": "quit",
    "stopped": "quit",
    "quit": "quit",
    # A school finished is a stage ended: 「儿子大学毕业了」 after 「儿子在读大学」 is no repeat.
    "毕业": "graduated",
    "graduated": "graduated",
}


# An allergy or intolerance said with what it rules out: 「不能吃花生，会过敏」 states 「对花生过敏」, "Can't
# eat shellfish, is allergic" "Is allergic to shellfish"; the "can't" is the allergy's, not a value turned around.
_STATES_AN_ALLERGY = re.compile(r"过敏|不耐受|allerg|intoleran", re.IGNORECASE)
_RULED_OUT = re.compile(r"不能|不可以|不敢|\b(?:can't|can’t|cannot|can not)\b", re.IGNORECASE)


# What follows "without it, …" is no negation of it: 「早上不喝咖啡我就没精神」 says 「早上要喝咖啡」.
_UNLESS_THEN = re.compile(r"不[^，。,]{1,8}?(?:的话)?(?:我)?就[^，。,]*")
# Not too long is short: 「回答别太长」 restates 「回复短一点」; not so polite is casual: 「不用对我那么客气」 restates 「说话随意点」.
_NOT_TOO_LONG = re.compile(r"(?:别|不要|不用|不必)(?:写|说|回)?得?(?:太|那么|这么)长")
_NOT_SO_POLITE = re.compile(r"(?:别|不要|不用|不必)(?:对我|跟我)?(?:太|那么|这么)?(?:客气|拘谨)")
# Not bearing something is disliking it: "Can't stand cilantro" restates "Hates cilantro".
_CANT_STAND = re.compile(r"\b(?:can't|can’t|cannot|can not) (?:stand|bear)\b", re.IGNORECASE)
# No meal without it is loving it: 「无辣不欢」 restates 「很爱吃辣」.
_NEVER_WITHOUT = re.compile(r"无.不欢")
# A degree said with 不 negates nothing: 「精力旺盛得不行」, 「好吃得不得了」 ("extremely").
_TO_NO_END = re.compile(r"得不(?:行|得了)|不得了")
# Not over a limit is at most: 「字数别超过200字」 restates 「回复控制在两百字以内」, "no more than three sentences" "three
# sentences max".
_AT_MOST = re.compile(
    r"(?:别|不要|不能|不得|不可以|不许|不)(?:超过|超出|多于|高于|大于)"
    r"|\b(?:no|not) more than\b|\b(?:don't|do not|doesn't|does not|never|not) (?:go over|exceed)\b",
    re.IGNORECASE,
)
# Only when asked is not unless asked: "Only give me code when I ask" restates "Don't show me code unless I ask".
_ONLY_WHEN_ASKED = re.compile(r"\bonly\b.*\b(?:when|if) I ask|只有?在?我(?:要|问|需要)的?时候", re.IGNORECASE)


def _negations(text: str) -> set[str]:
    """The kinds of negation `text` says (`_NEGATION_KIND`; "longer" of "no longer" is its own); what an
    allergy it states rules out is none (`_STATES_AN_ALLERGY`), "can't stand" is "hates" (`_CANT_STAND`),
    "only when I ask" a "not" (`_ONLY_WHEN_ASKED`), and neither a condition's "without it" (`_UNLESS_THEN`),
    「无辣不欢」 (`_NEVER_WITHOUT`), "not too long" (`_NOT_TOO_LONG`), "not so polite" (`_NOT_SO_POLITE`) nor
    「…得不行」 (`_TO_NO_END`) nor a limit's "not over" (`_AT_MOST`) is one."""
    if _STATES_AN_ALLERGY.search(text):
        text = _RULED_OUT.sub("", text)
    text = _CANT_STAND.sub("hates", _NOT_TOO_LONG.sub("短", _UNLESS_THEN.sub("", _NEVER_WITHOUT.sub("爱", text))))
    text = _AT_MOST.sub("至多", _TO_NO_END.sub("很", _NOT_SO_POLITE.sub("随意", text)))
    kinds = {_NEGATION_KIND.get(match.lower(), match.lower()) for match in _NEGATION.findall(text)}
    return kinds | {"not"} if _ONLY_WHEN_ASKED.search(text) else kinds


def _adds_detail(stored: str, stated: str) -> bool:
    """True when `stated` visibly says more than `stored`, or the opposite, whatever the scorer thinks.

    Negation words that differ (喜欢吃香菜 / 不吃香菜, likes / dislikes), a number `stored` lacks (wakes at 6 vs 7, "3 cats"), more listed items ("川菜" vs
    "川菜和湘菜"), `stored` continued ("住在北京" vs "住在北京朝阳区"; an adverb before it, as in
    "Really loves Italian food", adds nothing), or half as long again.
    """
    # As frames are compared (`values.frame`): 「妈妈是糖尿病患者」 says no more of 「妈有糖尿病」 for its
    # 妈妈, "Daughter is four years old" no more of "Daughter is 4".
    stored_flat, stated_flat = (comparable(frame(text)) for text in (stored, stated))
    return bool(
        _negations(stored) != _negations(stated)
        or set(_NUMBER.findall(_numbers_said_in(stated))) - set(_NUMBER.findall(_numbers_said_in(stored)))
        or _item_count(stated) > _item_count(stored)
        or (stated_flat.startswith(stored_flat) and stored_flat != stated_flat)
        or len(stated_flat) > MAX_RESTATEMENT_GROWTH * len(stored_flat)
    )


def _numbers_said_in(text: str) -> str:
    """`text` as its numbers are compared: an English one as its frame says it ("a third grader" is in 3 grade, as "in
    3rd grade" is); a Chinese one as said (its frame writes small numbers in Chinese numerals, which `_NUMBER` skips)."""
    return text if has_han(text) else frame(text)


# The user's job as the occupation slot words it (`rules.table.OCCUPATION`), or as a teacher's is told: "Teaches high
# school" is a high school teacher's job ("Teaches school", a teacher's).
_JOB_TITLE = re.compile(r"^(?:Occupation: |职业：)(?P<title>.+?)[。.]?$")
_TEACHES = re.compile(
    r"^Teaches (?:at an? )?(?P<level>(?:high|middle|elementary|primary) school|kindergarten|school)\.?$", re.IGNORECASE
)


# "Physiotherapist" is a physical therapist, "physiotherapy" physical therapy.
_PHYSIO = re.compile(r"\bphysio(?=therap)")


def _job_title(text: str) -> str | None:
    """The title of the job `text` names, casefolded ("Occupation: High school teacher" -> "high school teacher"), or
    None when it names none."""
    if found := _JOB_TITLE.match(text):
        return _PHYSIO.sub("physical ", found["title"].casefold())
    if found := _TEACHES.match(text):
        level = found["level"].casefold()
        return "teacher" if level == "school" else f"{level} teacher"
    return None


def _the_job_held_said_again(stored: str, stated: str) -> bool:
    """True when both name the user's job and `stated`'s title is `stored`'s, or `stored`'s with words left out:
    "Occupation: teacher" or "Teaches high school" told to "Occupation: high school teacher", 「职业：老师」 to
    「职业：高中老师」. A title said shorter is the job held, not another (the scorer rates the pair below the merge
    threshold, and the detail was lost); one said longer is a detail (`_adds_detail`)."""
    held, said = _job_title(stored), _job_title(stated)
    if held is None or said is None:
        return False
    if has_han(said):
        return held.endswith(said)  # a Chinese title ends with its head noun
    held_words = iter(held.split())
    # In order: a subsequence, a word of the field for one of the doer ("court reporting" is "court reporter").
    return all(any(_one_job_word(word, held_word) for held_word in held_words) for word in said.split())


# The endings of a doer and of the field it works in: "reporter" / "reporting", "designer" / "design", "therapist" /
# "therapy", "photographer" / "photography".
_DOER_OR_FIELD = re.compile(r"(?:er|or|ing|ist|y)$")


def _one_job_word(a: str, b: str) -> bool:
    """True when two words of a job title are one: the same, or the doer and the field of one stem."""
    return a == b or (len(a) > 5 and len(b) > 5 and _DOER_OR_FIELD.sub("", a) == _DOER_OR_FIELD.sub("", b))


# A device the user uses, as the rules word it (`rules.builders.device_used`): "Uses a MacBook".
_DEVICE_USED = re.compile(r"^Uses an? (?P<device>.+?)\.?$")


def _the_device_held_said_again(stored: str, stated: str) -> bool:
    """True when both name the device the user uses and `stated`'s name starts `stored`'s: "Uses a Mac" told to "Uses
    a MacBook" says less of the one device, not another ("Uses a MacBook" told to "Uses a Mac" is a detail)."""
    held, said = _DEVICE_USED.match(stored), _DEVICE_USED.match(stated)
    return bool(held and said) and held["device"].casefold().startswith(said["device"].casefold())


_WORD = re.compile(r"\w+")
# One frame of a job said two ways: "Husband works as a chef" / "Husband is a chef" (what is left of the frame, not
# the words compared: "Works as a nurse" stays two words against "Wife works as a nurse").
_WORKS_AS = re.compile(r"\b(?:works|working|is working) as\b", re.IGNORECASE)


def _swaps_value(stored: str, stated: str) -> bool:
    """True when `stated` keeps the frame of `stored` and puts another value in it.

    Both start alike ("周末打…", "Lives in …"), and what is left once the common start and
    end are cut shares nothing (characters for Chinese, words otherwise): 周末打乒乓球 /
    周末打网球, "Lives in Berlin" / "Lives in Lisbon". Embeddings rate such pairs 0.97, above
    the merge threshold, yet the second is a new value (found by `make chaos`: an overwrite
    taken for a confirmation). A paraphrase of the predicate ("很喜欢川菜" / "特别爱吃川菜")
    does not start alike, so the scorer decides it as before; nor is a verb of liking or
    learning swapped for another a new value ("Is learning Korean" / "Is studying Korean").
    """
    if has_han(stored + stated):
        a, b = list(comparable(frame(stored))), list(comparable(frame(stated)))
    else:
        a, b = (_WORD.findall(frame(without_subject(text)).lower()) for text in (stored, stated))
    prefix, rest_a, rest_b = split_common_ends(a, b)
    if SOFT_VERBS.issuperset(rest_a) and SOFT_VERBS.issuperset(rest_b):
        return False
    if len(rest_a) == len(rest_b) == 1 and _one_word_derived(rest_a[0], rest_b[0]):
        return False
    if has_han(stored + stated):
        # 「妈有糖尿病」 / 「妈得了糖尿病」: having, getting or being a condition puts no value in the frame.
        rest_a, rest_b = ([char for char in rest if char not in _HAN_LIGHT_VERBS] for rest in (rest_a, rest_b))
    else:
        if _english_stems(rest_a) & _english_stems(rest_b):
            return False  # "Goes for a run every morning" / "Goes running every morning": one activity
        # "Wife is vegetarian" / "Wife's a vegetarian": a copula and an article put no value in the frame; "Doesn't have
        # a car" / "Doesn't own a car": the verbs of having are one verb.
        rest_a, rest_b = (
            ["has" if word in _HAVING else word for word in rest if word not in _GLUE_WORDS | _COPULAS]
            for rest in (rest_a, rest_b)
        )
    return bool(prefix and rest_a and rest_b and not set(rest_a) & set(rest_b))


# Words that carry no value of their own in what is left of a frame ("for a run", "'s a").
_GLUE_WORDS = frozenset("a an the for to of on in at".split())
_COPULAS = frozenset("is s are am".split())
_HAVING = frozenset("has have own owns".split())
_HAN_LIGHT_VERBS = frozenset("有得了是患的")


def _english_stems(words: Sequence[str]) -> set[str]:
    """The stems of `words` but the glue words: "running" and "run" are "run", "hikes" "hike"."""
    stems = set()
    for word in words:
        if word in _GLUE_WORDS:
            continue
        stem = re.sub(r"(?:ing|ed|s)$", "", word) if len(word) > 4 else word
        stems.add(stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else stem)
    return stems


# Endings that make one word of another without another value: "software engineer" / "software engineering".
_DERIVING_SUFFIXES = ("ing", "er", "ers", "ed", "ist", "ists", "y")


def _one_word_derived(a: str, b: str) -> bool:
    """True when one English word is the other with a deriving ending ("engineer" / "engineering")."""
    shorter, longer = sorted((a, b), key=len)
    return len(shorter) >= 4 and longer.startswith(shorter) and longer[len(shorter) :] in _DERIVING_SUFFIXES


# Keys that name what the memory is about (its item: sport-hiking, allergy-peanut, goal-marathon), not a slot
# a value fills (residence-city, occupation, reply-language, favorite-color, pet-cat with its count).
_ITEM_KEY_PREFIXES = (
    "food-",
    "drink-",
    "sport-",
    "habit-",
    "music-",
    "book-",
    "movie-",
    "tv-",
    "media-",
    "style-",
    "animal-",
    "device-",
    "allergy-",
    "health-",
    "sensitivity-",
    "medication-",
    "trait-",
    "goal-",
    "project-",
    "preference-",
)


def says_nothing_new(
    scorer: SimilarityScorer, stored: str, stated: str, said_before: bool = False, key: str = ""
) -> bool:
    """True when `stated` is `stored` in other words: a confirmation, not a new value or detail.

    Their frames must be one (`values.frame`) or the scorer must rate them at or above its merge threshold (as sure
    as merging two memories), and `stated` must add no visible detail and not negate it (`_adds_detail`),
    nor put another value in the same frame (`_swaps_value`), which embeddings rate as alike.
    Words the memory was already told in (`said_before`) bring no new detail, whatever the
    scorer thinks of them: they confirm unless they state another value (`_states_another_value`).
    Under a `key` that names the memory's item ("habit-early-rising") two wordings cannot put
    another item in one frame: "Is a morning person" told again restates "Is an early riser". Under a wording's
    key (`_is_wording_fact`) only numbers or a change said tell a new value.
    """
    if _is_wording_fact(key):
        # Its key is a wording: `stated` reached it by similarity (`redirect_duplicates`) or in the same words. With no
        # slot to hold a value, other numbers ("six hens", then "only four now") or, said for the first time, a change
        # ("moved all their notes into Obsidian", "don't keep hens anymore") are its new value; anything else restates
        # it, a limit said with a negation too (「控制在5克以内」 / 「不超过五克」).
        return not (numbers_changed(stored, stated) or (not said_before and says_a_change(stored, stated)))
    if said_before:
        return not _states_another_value(stored, stated, frames_a_value=not key.startswith(_ITEM_KEY_PREFIXES))
    lengths = _reply_lengths_of(stored, stated)
    if lengths is not None and lengths[0] != lengths[1]:
        return False
    if _the_job_held_said_again(stored, stated) or _the_device_held_said_again(stored, stated):
        return True
    if _adds_detail(stored, stated) or _swaps_value(stored, stated) or state_different_values(stored, stated):
        return False
    if comparable(frame(stored)) == comparable(frame(stated)):
        return True  # one frame once paraphrases are folded (`values.frame`): 「养了一只金毛」 / 「狗狗是一只金毛犬」
    return float(scorer.matrix([stated], [stored])[0][0]) >= scorer.merge_threshold


# The joiner of an appended memory's statements (`store.append_content`).
_APPENDED = re.compile(r"[；;]")


def _states_another_value(stored: str, stated: str, *, frames_a_value: bool = True) -> bool:
    """True when the two texts differ in a value, whichever came first: a negation one lacks
    (likes / hates), other numbers on both sides (6 / 7; a number on one side only is a detail),
    another value in the same frame, other named values or languages; one side saying more words
    than the other is no other value (`state_different_values` without `qualified`), unless `stated` is
    one of the statements appended into `stored` (`_is_a_part_of`)."""
    numbers = [set(_NUMBER.findall(text)) for text in (stored, stated)]
    lengths = _reply_lengths_of(stored, stated)
    if lengths is not None:
        # A reply's length is the value of its frame: 「回复短一点就行」 / 「回答别太长」 say one, 「回答详细一点」 another.
        if lengths[0] != lengths[1]:
            return True
        frames_a_value = False
    return (
        _negations(stored) != _negations(stated)
        or (all(numbers) and numbers[0] != numbers[1])
        or (frames_a_value and _swaps_value(stored, stated))
        # One part of an appended memory said alone ("Plays rugby on weekends" to "…; Plays in a club league") stays
        # a value of its own, as before the twenty-first probe: a turn processed out of order after a value
        # between them (R-PIPE-7) must end as in order, where it overwrites (`make chaos`).
        or state_different_values(stored, stated, qualified=_is_a_part_of(stated, stored))
    )


def _reply_lengths_of(stored: str, stated: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """The reply lengths both texts ask for (`values.reply_lengths`), or None when one of them asks for none."""
    lengths = (reply_lengths(stored), reply_lengths(stated))
    return lengths if all(lengths) else None


def _is_a_part_of(stated: str, stored: str) -> bool:
    """True when `stored` was appended to and `stated` is one of its statements, word for word."""
    parts = [comparable(part) for part in _APPENDED.split(stored)]
    return len(parts) > 1 and comparable(stated) in parts


def _active_rows(session: Session, user_id: int, now: datetime, of_ids: Collection[int] | None = None) -> list[Row]:
    """The user's active, unexpired memories (or those of `of_ids`) as narrow rows: what a merge reads."""
    query = select(
        LongTermMemory.id,
        LongTermMemory.memory_key,
        LongTermMemory.memory_type,
        LongTermMemory.content,
        LongTermMemory.importance,
        LongTermMemory.confidence,
        LongTermMemory.access_count,
        LongTermMemory.is_core,
    ).where(
        LongTermMemory.user_id == user_id,
        LongTermMemory.is_active.is_(True),
        (LongTermMemory.expires_at.is_(None)) | (LongTermMemory.expires_at > now),
    )
    if of_ids is not None:
        query = query.where(LongTermMemory.id.in_(set(of_ids)))
    return list(session.execute(query.order_by(LongTermMemory.id)))


def _active_keys(session: Session, user_id: int, now: datetime, keys: Collection[str]) -> set[str]:
    """Those of `keys` under which the user holds an active, unexpired memory."""
    if not keys:
        return set()
    return set(
        session.scalars(
            select(LongTermMemory.memory_key).where(
                LongTermMemory.user_id == user_id,
                LongTermMemory.memory_key.in_(set(keys)),
                LongTermMemory.is_active.is_(True),
                (LongTermMemory.expires_at.is_(None)) | (LongTermMemory.expires_at > now),
            )
        )
    )


def _best_duplicate(
    scorer: SimilarityScorer, candidate: Candidate, rows: Sequence[CorpusRow], scores: np.ndarray
) -> tuple[CorpusRow, float] | None:
    """The row of `rows` (scored `scores` against `candidate`) that it restates, with its score, or None.

    Rows of the candidate's type under another key at >= the dedup threshold of the pair
    (`dedup_threshold_for`), best first, unless keys or numbers show a different fact. Where either is a fact kept in
    the user's words (`_is_wording_fact`), of any type but a standing rule's: its type is a guess, and 「每天的喝水量是2升」
    (drink-water, a preference) restates 「每天要喝两升水」 kept in words (a fact), whichever is read first.
    """
    # English pairs have a threshold of their own (`dedup_threshold_for`); the lower one sifts.
    hits = np.flatnonzero(scores >= min(scorer.dedup_threshold, scorer.latin_dedup_threshold))
    for best in hits[np.argsort(-scores[hits], kind="stable")]:
        match = rows[best]
        if match.memory_key == candidate.key or (
            match.memory_type != candidate.memory_type
            and not (
                (_is_wording_fact(candidate.key) or _is_wording_fact(match.memory_key))
                and "constraint" not in (match.memory_type, candidate.memory_type)  # a standing rule stays one
            )
        ):
            continue
        if scores[best] < scorer.dedup_threshold_for(candidate.content, match.content):
            continue
        if not different_facts(match.memory_key, match.content, candidate.key, candidate.content, new_value=True):
            return match, float(scores[best])
    return None


def redirect_duplicates(
    session: Session, corpus: UserMemories, candidates: list[Candidate], ctx: WriteContext
) -> list[Candidate]:
    """Candidates with `reuse_key` set where they restate an existing memory of their type under another key.

    A candidate whose own key holds an active memory is never redirected. The others are
    scored in one batch against the kept memories of their types (`corpus`): one embedding
    call for the message's texts no cache holds.
    """
    existing_keys = _active_keys(session, ctx.user_id, ctx.now, [c.key for c in candidates])
    pending = [c for c in candidates if not c.reuse_key and c.key not in existing_keys and c.op != "delete"]
    if not pending:
        return candidates
    # Every type when a candidate or a held memory is a fact in the user's words (`_best_duplicate`).
    types = {c.memory_type for c in pending}
    if any(_is_wording_fact(c.key) for c in pending) or any(_is_wording_fact(row.memory_key) for row in corpus.rows):
        types = set(MEMORY_TYPES)
    indices = corpus.of_types(types)
    if not len(indices):
        return candidates
    # Content alone: the "[type] key:" prefix makes different values of one slot look alike.
    scores = corpus.scores([c.content for c in pending], indices)
    rows = _Picked(corpus.rows, indices)
    for row, candidate in enumerate(pending):
        match = _best_duplicate(corpus.scorer, candidate, rows, scores[row])
        if match is not None:
            memory, score = match
            logger.info(
                "candidate reuses existing memory",
                extra={"user_id": ctx.user_id, "memory_id": memory.id, "key": candidate.key, "score": round(score, 3)},
            )
            metrics.count_write("dedup")
            candidate.reuse_key = memory.memory_key
            candidate.op = "upsert"
            candidate.memory_type = memory.memory_type  # a restatement keeps what the memory is
            if not _is_wording_fact(memory.memory_key):
                # A restatement confirms the memory (its TTL is refreshed) without rewording it. Said to a fact held in
                # the user's words, a statement keeps its own: the write model tells a restatement from a new value
                # under a wording's key (`says_nothing_new`), 「我现在每天喝三升水」 (drink-water) to 「每天要喝两升水」.
                candidate.content = memory.content
    return candidates


class _Picked(Sequence[CorpusRow]):
    """The rows at `indices` of `rows`, without copying them out."""

    def __init__(self, rows: Sequence[CorpusRow], indices: np.ndarray) -> None:
        self._rows, self._indices = rows, indices

    def __len__(self) -> int:
        return len(self._indices)

    def __getitem__(self, position):  # type: ignore[override]
        return self._rows[int(self._indices[position])]


def refine_shortlist(
    session: Session, scorer: SimilarityScorer, user_id: int, now: datetime, candidates: Sequence[Candidate], limit: int
) -> list[LongTermMemory]:
    """The user's active memories refinement shows for `candidates`: at most `limit`, best first.

    All of them (most important, then latest first) when they are no more than `limit`.
    Otherwise a memory under a candidate's own key comes first and the rest rank by their
    best content score against any candidate: the kept content vectors dedup compares
    (`corpus.user_memories`), so nothing is embedded for refinement alone, and only the
    chosen rows are loaded.
    """
    corpus = user_memories(session, scorer, user_id, now)
    query = select(LongTermMemory)
    if len(corpus.rows) <= limit:
        ordered = query.order_by(LongTermMemory.importance.desc(), LongTermMemory.updated_at.desc())
        return list(session.scalars(ordered.where(LongTermMemory.id.in_(corpus.ids.tolist()))))
    scores = corpus.scores([c.content for c in candidates]).max(axis=0)
    own_key = np.isin(corpus.keys, [c.key for c in candidates])
    ids = corpus.ids[np.lexsort((-scores, ~own_key))[:limit]].tolist()
    rows = {m.id: m for m in session.scalars(query.where(LongTermMemory.id.in_(ids)))}
    return [rows[i] for i in ids if i in rows]


def support(importance: int, confidence: float, access_count: int, content: str, memory_id: int) -> tuple:
    """How well-supported a memory is, for ordering: of two duplicates the greater survives.

    Stated as more important and surer first, then read more often, then saying more, then older.
    """
    return (importance * confidence, access_count, len(content), -memory_id)


@dataclass(frozen=True)
class Mergeable:
    """A memory as the near-duplicate merge compares it; `support` as `support()` gives it."""

    key: str
    memory_type: str
    content: str
    support: tuple


def near_duplicate_merges(memories: Sequence[Mergeable], scorer: SimilarityScorer) -> list[tuple[int, int, float]]:
    """Which of `memories` merge into which: (loser index, survivor index, score) triples.

    Two memories of one type whose contents score >= the scorer's merge threshold are one
    memory, unless their keys or numbers show different facts; the better-supported one
    survives. Greedy, best-supported first: a memory merged away neither absorbs nor is
    absorbed again. Content, not the index text: the "[type] key:" prefix makes related
    memories look alike (docs/quality.md, "Dedup").
    """
    by_type: dict[str, list[int]] = {}
    for index in sorted(range(len(memories)), key=lambda i: memories[i].support, reverse=True):
        by_type.setdefault(memories[index].memory_type, []).append(index)
    merges: list[tuple[int, int, float]] = []
    for group in by_type.values():
        if len(group) < 2:
            continue
        texts = [memories[i].content for i in group]
        scores = np.asarray(scorer.matrix(texts, texts))
        merged: set[int] = set()
        for rank, survivor in enumerate(group):
            if survivor in merged:
                continue
            for other, loser in enumerate(group[rank + 1 :], start=rank + 1):
                score = float(scores[rank, other])
                if loser in merged or score < scorer.merge_threshold:
                    continue
                a, b = memories[loser], memories[survivor]
                if different_facts(a.key, a.content, b.key, b.content):
                    continue
                merges.append((loser, survivor, score))
                merged.add(loser)
    return merges


def _merge(
    session: Session, scorer: SimilarityScorer, ctx: WriteContext, memories: Sequence[Row]
) -> list[tuple[int, int]]:
    """Apply `near_duplicate_merges` among `memories` (rows of `_active_rows`).

    Returns (deactivated id, survivor id) pairs, by deactivated id.
    """
    if len(memories) < 2:
        return []
    views = [
        Mergeable(
            m.memory_key,
            m.memory_type,
            m.content,
            support(m.importance, m.confidence, m.access_count, m.content, m.id),
        )
        for m in memories
    ]
    merged = []
    for loser_index, survivor_index, score in near_duplicate_merges(views, scorer):
        loser, survivor = memories[loser_index], memories[survivor_index]
        merge_into(
            session,
            ctx,
            loser,
            survivor,
            f"merged into {survivor.id} ({survivor.memory_key}) at similarity {score:.3f}",
            f"absorbed {loser.id} ({loser.memory_key}) at similarity {score:.3f}",
        )
        logger.info("memories merged", extra={"user_id": ctx.user_id, "memory_id": survivor.id, "merged_id": loser.id})
        merged.append((loser.id, survivor.id))
    return sorted(merged)


def merge_near_duplicates(session: Session, scorer: SimilarityScorer, ctx: WriteContext) -> list[tuple[int, int]]:
    """Deactivate every active memory at >= merge threshold to a better-supported one (every pair of the user).

    Returns (deactivated id, survivor id) pairs, by deactivated id.
    """
    return _merge(session, scorer, ctx, _active_rows(session, ctx.user_id, ctx.now))


def merge_written(
    session: Session, corpus: UserMemories, ctx: WriteContext, written: Collection[int]
) -> list[tuple[int, int]]:
    """`merge_near_duplicates` for the pairs a write of `written` can have made; returns (deactivated id,
    survivor id) pairs.

    Every earlier write merged its own pairs, so only the memories written and those of their
    type at >= merge threshold to one of them are compared (`near_duplicate_merges` among
    them): linear in the user's memories, not a pass over every pair. `corpus` must hold the
    rows written (`UserMemories.note_written`).
    """
    seeds = corpus.of_ids(written)
    near = set(seeds.tolist())
    for seed in seeds:
        same_type = corpus.of_types([corpus.rows[seed].memory_type])
        scores = corpus.scores([corpus.rows[seed].content], same_type)[0]
        near.update(same_type[scores >= corpus.scorer.merge_threshold].tolist())
    if len(near) < 2:
        return []
    return _merge(
        session, corpus.scorer, ctx, _active_rows(session, ctx.user_id, ctx.now, corpus.ids[sorted(near)].tolist())
    )


def scorer_for(session: Session) -> SimilarityScorer:
    """Embedding similarity through the PostgreSQL cache, or lexical when no embedder loads."""
    settings = get_settings()
    try:
        return get_scorer(settings, CachedEmbedder(session, get_embedder()))
    except (EmbeddingError, ImportError) as exc:
        logger.warning("embedder unavailable, lexical similarity used", extra={"error": str(exc)})
        return get_scorer(settings, None)
