"""The rules engine: the offline extraction engine of SPEC R-LLM-2 (no model, no network)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from config.settings import get_settings
from memory_tasks.extraction.candidates import Candidate
from memory_tasks.extraction.core import DIETARY_KEYS, is_core_key
from memory_tasks.extraction.filters import drop_reason, is_trivial
from memory_tasks.extraction.rules.builders import (
    ENDS_ONLY_A_SINGLE_HELD,
    IF_HELD,
    IF_NAMED,
    ITEM,
    LIFELONG_TTL_DAYS,
    SLOT_VALUE,
    SWITCHED,
    SWITCHED_AWAY,
    TAKEN_UP,
    UNLESS_NAMED,
    zh_alma_mater,
)
from memory_tasks.extraction.rules.clauses import (
    CONFIDENT,
    FAMILY,
    Clause,
    Lang,
    family_member_after,
    split_clauses,
    subject_of,
)
from memory_tasks.extraction.rules.content import item_pattern, statement
from memory_tasks.extraction.rules.given_up import GIVEN_UP, given_up_for_another, what_was_given_up
from memory_tasks.extraction.rules.keys import WHEN_DONE_SLUG, is_wording_hash, item_slug, liking_key
from memory_tasks.extraction.rules.lasting import lasting_fact
from memory_tasks.extraction.rules.lexicon import LEXICON, lexicon_entries, lexicon_mentions
from memory_tasks.extraction.rules.retract import denies, positive_form, topic_key
from memory_tasks.extraction.rules.table import EN_PET_MENTION, HOME_FLOOR, PASSED_INTO, RULES
from memory_tasks.extraction.types import ExistingMemory, TurnContext
from memory_tasks.text import has_han, without_control_chars

RULES_BY_LANG = {lang: tuple(rule for rule in RULES if rule.lang == lang) for lang in ("zh", "en")}
# What a diet, an intolerance or an allergy allows after all: 「但是吃鸡蛋」, "but I still eat fish",
# "but I can have yogurt".
_DIET_ALLOWS = {
    "zh": re.compile(r"^我?(?:也|还是?|偶尔|会|可以|能|最近|现在|又)*(?:开始)?(?:吃|喝)"),
    "en": re.compile(
        r"^I (?:(?:do|still|also|sometimes|occasionally|can) )*(?:eat|drink|have)\b"
        # "…, but I've started eating chicken again": the diet no longer keeps from it.
        r"|^I(?:'ve| have)? (?:recently |just )?(?:started|begun|began) (?:eating|drinking|having)\b"
        # "…, but oats are fine".
        r"|^[\w' -]{2,30} (?:is|are) (?:fine|ok|okay|safe)(?: for me)?$",
        re.IGNORECASE,
    ),
}
# An exception to the liking just said: 「（我不喜欢吃甜的，）不过巧克力例外」, "except chocolate", "chocolate is the exception".
_EXCEPTED = {
    "zh": re.compile(r"^(?P<item>(?!这|那|它|都|什么|我)[^，。]{1,8}?)(?:除外|例外)(?:吧|啦|哈)?$"),
    "en": re.compile(
        r"^(?:except (?:for )?(?P<item>[\w' -]{2,30})|(?P<item_is>[\w' -]{2,30}?) (?:is|are) (?:an? |the )?exceptions?)$",
        re.IGNORECASE,
    ),
}
# The facts whose "but" clause can say what is still allowed ("…but I can have yogurt").
_ALLOWANCE_OF = ("health-lactose", "health-gluten", "allergy-", "sensitivity-")
# What keeps a liking from being had any more: "but my stomach can't handle it anymore",
# 「但是现在胃受不了了」. Kept in the liking's content, which alone would say the opposite of now.
_LIKING_LIMITED = {
    "zh": re.compile(r"(?:受不了|吃不了|喝不了|不能(?:再)?(?:吃|喝)|不敢(?:再)?(?:吃|喝)|不让我?(?:吃|喝))"),
    "en": re.compile(
        r"\b(?:can't|cannot|can no longer|isn't|is not|aren't|won't|doesn't|don't)\b.*\b(?:it|them|that|those)\b"
        r".*\b(?:anymore|any more|these days|now)\b|\bno longer\b.*\b(?:it|them)\b",
        re.IGNORECASE,
    ),
}
# Why the food just named cannot be had: 「我不能吃海鲜，会过敏」, "I can't eat shellfish, I'm allergic".
# The avoidance is then an allergy (a core fact), not a taste.
_ALLERGY_REASON = {
    "zh": re.compile(
        r"^(?:因为)?(?:我)?(?:会|吃了会|吃了就|一吃就|喝了会|一喝就|碰了会|对它|对这个)?(?:会)?过敏(?:的|了)?$"
    ),
    "en": re.compile(r"^(?:because |since |as )?I(?:'m| am) allergic(?: to (?:it|them))?$", re.IGNORECASE),
}
# What a food or drink the user avoids does to them, said after it: 「（不喝咖啡，）喝了会心慌」, "(I don't drink coffee,)
# it makes me jittery".
_SENSITIVITY_REASON = {
    "zh": re.compile(
        r"^(?:因为)?(?:我)?(?:一)?(?:喝|吃)了?(?:以后)?(?:我)?(?:就|会|都会|总会|容易)*"
        r"(?:心慌|心悸|失眠|睡不着|胃疼|胃痛|拉肚子|腹泻|头疼|头痛|偏头痛|不舒服|难受|胀气|反酸|起疹子)(?:的|了)?$"
    ),
    "en": re.compile(
        r"^(?:because |since )?(?:it|they) (?:always |usually )?(?:makes?|gives?) me (?:really |so |very )?"
        r"(?:jittery|anxious|sick|nauseous|bloated|heartburn|migraines?|headaches?|insomnia|palpitations|a rash)$",
        re.IGNORECASE,
    ),
}
# A clause naming only the faith behind a food the user does not eat, before or after it:
# 「我是回族，不吃猪肉」, 「我不吃牛肉，因为信仰」, "I don't eat pork, I'm Muslim". The faith itself is
# not stored (R-TYPE-3); the avoidance becomes a religious restriction (`_becomes_religious`).
_FAITH = {
    "zh": re.compile(
        r"^(?:我|我们家)?(?:是|信仰|信)?(?:回族|回民|穆斯林|伊斯兰教?(?:徒)?|犹太(?:人|教徒?)|印度教(?:徒)?|"
        r"宗教|信仰)(?:的)?(?:原因|关系)?$"
    ),
    "en": re.compile(
        r"^(?:because |since |as )?(?:I(?:'m| am) (?:a |an )?(?:Muslim|Jewish|Hindu|Jain|Sikh)|"
        r"(?:of |for )?(?:my )?(?:religion|faith|religious reasons))$",
        re.IGNORECASE,
    ),
}
# The words that say an avoidance is religious.
_RELIGIOUS = re.compile(r"宗教|信仰|\breligio\w*|\bfaith\b", re.IGNORECASE)
_FOR_RELIGION = {"zh": "（宗教原因）", "en": " for religious reasons"}
# A value said to be wrong after the right one: ", not 6", 「，不是广州」.
_CORRECTED_VALUE = {
    "zh": re.compile(r"^(?:而)?不是[^，。]{1,12}$"),
    "en": re.compile(r"^(?:and )?not [\w' -]{1,30}$", re.IGNORECASE),
}
# A building without a lift, said right after the floor of the user's home: 「（我住六楼，）没有电梯」, "(I live on the
# sixth floor) and there's no elevator", "with no lift". Said one way in the floor's memory (`_NO_ELEVATOR_SAID`), so
# that its paraphrases are one text; a move to another floor says it no longer.
_NO_ELEVATOR = {
    "zh": re.compile(r"^(?:楼里|楼上|我家|家里|我住的楼|我们楼|我们那栋楼|那栋楼)?(?:也|都)?(?:没有|没)电梯(?:的)?$"),
    "en": re.compile(
        r"^(?:and |but |with )?(?:there(?:'s| is) )?no (?:elevator|lift)(?: in (?:the|my|our) building)?$",
        re.IGNORECASE,
    ),
}
_NO_ELEVATOR_SAID = {"zh": "，没有电梯", "en": ", no elevator"}
# The facts a clause naming no subject of its own goes on about.
_GOES_ON_ABOUT = ("pet-", "family-", "health-pregnancy")
# A medication's dose said in a clause after it: 「我在吃抗凝药，华法林，每天一片」, "I take metformin, 500mg twice a day".
_DOSE = {
    "zh": re.compile(
        r"^(?:每天|每日|一天|早晚|每晚|每早|早上|晚上|饭前|饭后|睡前|每周|一周)[^，。]{0,8}?(?:片|粒|颗|次|针|毫克|mg|单位)$"
    ),
    "en": re.compile(
        r"^(?:\d+ ?(?:mg|mcg|units?)\b[\w ]*|(?:once|twice|three times) (?:a|per) (?:day|week)|(?:every|each) (?:day|morning|night|evening)|daily|nightly)$",
        re.IGNORECASE,
    ),
}
# A value said bare as the right one, before the wrong one (「更正一下，是蚂蚁金服，不是阿里」, "Actually it's AWS, not
# Amazon"): in a message that says it corrects, the held memory naming the wrong value is rewritten.
_RIGHT_VALUE = {
    "zh": re.compile(r"^(?:应该)?是(?P<value>[^，。]{1,12})$"),
    "en": re.compile(r"^(?:it|that)(?:'s| is| was| should be) (?P<value>[\w' -]{1,30})$", re.IGNORECASE),
}
_CORRECTS = {
    "zh": re.compile(r"更正|纠正|不对|说错|搞错|写错|口误|我是说|应该是"),
    "en": re.compile(r"\b(?:sorry|oops|correction|actually|I meant|my bad|my mistake|wait)\b", re.IGNORECASE),
}
# In Candidate.extra: the value a correction says is wrong, and the right one (`_corrected_memory`).
WRONG_VALUE = "wrong_value"
RIGHT_VALUE = "right_value"
# Facts that may say why a sensitivity or an avoidance said next to them holds, in either order (`_explains`):
# "I can't have dairy, I'm lactose intolerant".
_EXPLAINS_A_SENSITIVITY = ("health-", "allergy-", "sensitivity-")
# What a condition keeps the user from besides its own item, by the words of the food or drink.
_GLUTEN = re.compile(r"gluten|wheat|bread|pasta|noodles|麸质|小麦|面", re.IGNORECASE)
_CONDITION_FORBIDS = {
    "health-lactose-intolerance": re.compile(
        r"dairy|milk|lactose|cheese|ice cream|yogh?urt|cream|奶|乳", re.IGNORECASE
    ),
    "health-celiac-disease": _GLUTEN,
    "health-gluten-intolerance": _GLUTEN,
    "sensitivity-caffeine": re.compile(r"coffee|espresso|tea|cola|energy drinks?|咖啡|茶|可乐|功能饮料", re.IGNORECASE),
}
# A condition's vaguer name, which its own name says: 「胃不好，是慢性胃炎」 is gastritis (`_explains`), and 「胃不好」 told
# after 「有慢性胃炎」 adds nothing (`refine`).
_VAGUER_NAME = {
    "health-gastritis": "health-stomach-problems",
    "health-stomach-ulcer": "health-stomach-problems",
    "health-acid-reflux": "health-stomach-problems",
    "health-arrhythmia": "health-heart-condition",
    "health-heart-murmur": "health-heart-condition",
}
# Two things asked for or had with one verb: "Use metric units and 24-hour time", "I have two kids and a dog"
# (`RulesEngine._read`).
_SHARED_VERB = {
    "zh": re.compile(r"(?!)"),
    "en": re.compile(
        r"^(?P<verb>(?:please )?(?:always )?(?:use|give me|show me)|I (?:prefer|like|want)|(?:I|we) (?:have|own|'ve got)"
        r"|I(?:'m| am))"
        r" (?P<first>.+?),? and (?:also )?(?P<second>.+)$",
        re.IGNORECASE,
    ),
}
# The last pet of an English list, cut from it as a clause of its own: "…, and a parrot" (`_ANOTHER_PET`).
_ANOTHER_PET = {
    "zh": re.compile(r"(?!)"),
    "en": re.compile(r"^(?:and )?(?P<pet>" + EN_PET_MENTION.pattern + r")$", re.IGNORECASE),
}
# "my goal is to finish under four hours" right after "I'm training for a marathon": the second
# clause is the first goal's detail, not a goal of its own.
# Which of a liking's kind the user likes most, in a clause of its own: 「特别是刘慈欣的」, "especially Liu Cixin's".
_ESPECIALLY = {
    "zh": re.compile(r"^(?:特别是|尤其是|最喜欢的是)[^，。]{1,12}$"),
    "en": re.compile(r"^(?:especially|particularly|mostly|above all) [\w' .-]{1,40}$", re.IGNORECASE),
}
_GOAL_DETAIL = re.compile(
    r"^(?:my (?:\w+ )?(?:goal|aim|target) is|(?:and |so )?(?:I'm |I am )?aiming (?:for|to)|我?的?目标是"
    # How far a language or a skill should go: "(I'm learning Spanish) and I want to be fluent by next summer".
    r"|(?:and |so )?I(?: want|'d like| would like| hope|'m hoping| plan) to (?:be|become|get|sound) (?:fluent|conversational))",
    re.IGNORECASE,
)
# Another allergen said right after an allergy, with no verb of its own: 「我对花生过敏，芒果也不行」,
# 「…，还有芒果」, "I'm allergic to peanuts. Mangoes too." Read as the allergy said of it (`_ALLERGY_OF`).
_ALSO_ALLERGEN = {
    "zh": re.compile(
        r"^(?:还有|以及|连)?(?P<item>(?!其他|其它|别的|什么|这|那|它|我)[^，。吃喝碰用了的也都]{1,8}?)"
        r"(?:也|都)(?:不行|不能吃|不能碰|碰不了|吃不了|过敏|一样|是)(?:的)?$"
        # 「…，还有芒果」 reaches the rules as 「芒果」 (还有 is a discourse word): a food the lexicon knows.
        # 「我对坚果过敏，特别是花生」: the one named most, an allergy too.
        r"|^(?:特别是|尤其是)?(?P<listed>[^，。]{1,6})$"
    ),
    "en": re.compile(
        r"^(?!(?:it|that|this|them|me|you|I|we|my|everyone|everything)\b)(?P<item>[a-z][a-z -]{1,30}?),? (?:too|as well)$"
        # "(Also) pollen in spring." reaches the rules without its "also": an allergen the lexicon knows.
        r"|^(?:especially |particularly )?(?P<listed>[a-z][a-z -]{1,20}?)(?: (?:in|during) (?:the )?(?:spring|summer|autumn|fall|winter))?$",
        re.IGNORECASE,
    ),
}
_ALLERGY_OF = {"zh": "我对{item}过敏", "en": "I'm allergic to {item}"}
_NO_ALLERGY_TO = {"zh": "我对{item}不过敏", "en": "I'm not allergic to {item}"}
# The allergen said right after an allergy denied, with no verb of its own: 「不是青霉素过敏，是头孢」, "I'm not
# allergic to penicillin, it's cephalosporins". Read as the allergy said of it when the lexicon knows it.
_RIGHT_ALLERGEN = {
    "zh": re.compile(r"^(?:而|其实|应该)?是(?P<item>(?!这|那|它|我)[^，。的]{1,8}?)(?:过敏)?$"),
    "en": re.compile(r"^(?:it's|it is|it was|just) (?P<item>[a-z][a-z -]{1,30}?)$", re.IGNORECASE),
}
# Foods a faith keeps from, said bare after it: "(I'm Muslim,) so no pork or alcohol" (read as avoidances).
_AVOIDED = {
    "pork": "I don't eat pork",
    "beef": "I don't eat beef",
    "meat": "I don't eat meat",
    "shellfish": "I don't eat shellfish",
    "alcohol": "I don't drink alcohol",
}
# (「我是回族，不吃猪肉」 is read by the dislike rules.)
_NO_FOODS_EN = re.compile(
    r"^(?:so |and |which means )?no (?P<items>(?:pork|beef|meat|shellfish|alcohol)(?:(?:,|,? or|,? and) (?:pork|beef|meat|shellfish|alcohol))*)"
    r"(?: for me)?(?:,? please|,? thanks)?$",
    re.IGNORECASE,
)
# A statement taken back as a joke right after it was made: "I don't like sushi. Just kidding, I love it."
_JOKING = {
    "zh": re.compile(r"^(?:哈哈)?(?:开玩笑的?|开个玩笑|逗你的|骗你的|说着玩的)(?:啦|哈|呢|哈哈)?$"),
    "en": re.compile(
        r"^(?:lol,? |haha,? )?(?:just kidding|jk|j/k|kidding|(?:I'm |I was )?(?:just )?(?:kidding|joking))(?: lol| haha)?$",
        re.IGNORECASE,
    ),
}
# What the clause after the joke says of the item it named: "…, I love it" / 「…，其实我很喜欢」.
_OF_THE_JOKE = {
    "zh": re.compile(r"(?:喜欢|爱|爱吃|喜欢吃|爱喝|喜欢喝)$"),
    "en": re.compile(r"\b(?:it|them)$", re.IGNORECASE),
}
# Marks a delete that came from an explicit forget request (in Candidate.extra).
FORGET = "forget"


# Conditions that are the avoidance of one food said as a condition: "Is gluten intolerant" says "Can't eat gluten".
_INTOLERANCES = {"health-gluten-intolerance": "gluten", "health-lactose-intolerance": "lactose"}


def _conditions_avoiding(slug: str) -> set[str]:
    """The keys of the conditions that are an avoidance of the item `slug` itself: its allergy, the body's sensitivity
    to it ("I can't handle spicy food" says "I can't eat spicy food"), an intolerance of it."""
    return {f"allergy-{slug}", f"sensitivity-{slug}", *(key for key, item in _INTOLERANCES.items() if item == slug)}


def _explains(condition: Candidate, other: Candidate) -> bool:
    """True when `condition` (an allergy, a condition, a sensitivity) says what `other` says: a sensitivity it is
    the cause of ("I can't have dairy" beside "I'm lactose intolerant"), a vaguer name of it (`_VAGUER_NAME`: 「胃不好」
    beside 「是慢性胃炎」), or an avoidance of the allergen itself
    (「不能吃花生」 beside 「对花生过敏」, as `_avoids_a_held_allergen` drops it in a later turn). False for anything
    else: "I'm lactose intolerant, I can't have caffeine" keeps both, and so does "I can't eat gluten, I have
    celiac disease" (the food ruled out, said as the user's own avoidance)."""
    return condition is not other and condition.op == "upsert" and _condition_key_explains(condition.key, other)


def _condition_key_explains(key: str, other: Candidate) -> bool:
    """`_explains` of a condition, held or said, by its key."""
    if not key.startswith(_EXPLAINS_A_SENSITIVITY) or key == other.key:
        return False
    if _VAGUER_NAME.get(key) == other.key:
        return other.op == "upsert"
    item = str(other.extra.get(ITEM) or "")
    if _is_avoidance(other):
        return key in _conditions_avoiding(item_slug(item))
    if other.op != "upsert" or not other.key.startswith("sensitivity-"):
        return False
    forbids = _CONDITION_FORBIDS.get(key)
    return bool(forbids and forbids.search(item)) or key.partition("-")[2] == item_slug(item)


def _foods_named(text: str) -> list[str]:
    """The foods and drinks of the lexicon `text` names, in its words: "Nuts are a no-go for me" -> ["nuts"]."""
    return [said for _, category, said in lexicon_mentions(text) if category in ("food", "drink")]


def _goes_on_about(candidate: Candidate, clause: Clause) -> bool:
    """True when `clause`, which nothing was read from, says more of `candidate`: it names no subject and
    follows a pet, a family member or a pregnancy, or it names the medication's drug or its dose."""
    if candidate.key.startswith("medication-"):
        named = lexicon_entries(clause.text)
        return _DOSE[clause.lang].match(clause.text) is not None or (
            named == [(candidate.key.partition("-")[2], "medication")]
        )
    return clause.continues and candidate.key.startswith(_GOES_ON_ABOUT)


class RulesEngine:
    """Extraction by Chinese and English patterns: the rules of `rules.table`, keyed as `rules.keys` describes.

    `noise_key_patterns` are the configured hard-filter patterns; None reads them from settings.
    """

    name = "rules"

    def __init__(self, noise_key_patterns: Sequence[str] | None = None) -> None:
        if noise_key_patterns is None:
            noise_key_patterns = get_settings().noise_key_patterns
        self.noise_key_patterns = tuple(noise_key_patterns)

    def extract(self, turn: TurnContext) -> list[Candidate]:
        """Candidates stated in the user's turns, turn by turn in their order (a later turn's
        statement of a key follows the earlier one's, as if the turns came one by one). The
        summary and recent turns state nothing (rules cannot weigh context); the user's last few turns
        before only say whom a "she" opening the next one means (「我女儿今年5岁」, then 「她喜欢画画」)."""
        found: list[Candidate] = []
        member, turn_before = None, None
        for message in [t["content"] for t in turn.recent if t.get("role") == "user"][-_TURNS_A_PRONOUN_REACHES:]:
            turn_before = without_control_chars(message)
            member = family_member_after(split_clauses(turn_before, member), member)
        for message in turn.user_turns:
            message = without_control_chars(message)  # "\x1b[31m" is no part of a statement or a key
            clauses = split_clauses(message, member)
            found.extend(self._extract_one(message, clauses, turn_before))
            member, turn_before = family_member_after(clauses, member), message
        return found

    def _extract_one(self, message: str, clauses: list[Clause], turn_before: str | None = None) -> list[Candidate]:
        """Candidates stated in one user turn (control characters taken out), split into `clauses`.
        `turn_before`, the user's turn before it, is read only for a diet or an allergy a "but"
        opening this turn goes on about (「我是素食主义者」, then 「不过我吃鸡蛋和牛奶」)."""
        if is_trivial(message):
            return []
        by_key: dict[str, Candidate] = {}
        reported: set[str] = set()  # keys whose statement so far was reported from before
        first_said_in: dict[str, str] = {}  # the clause of each key's first statement
        previous: list[Candidate] = []  # what the previous clause of the same sentence yielded
        last: list[Candidate] = []  # what the last clause that yielded anything yielded, in any sentence
        joked: str | None = None  # the item of a statement just taken back as a joke
        right_value: str | None = None  # "是蚂蚁金服" / "it's AWS": a bare value, perhaps a correction's
        sentence, faith_said = -1, False
        said_now: str | None = None  # the text of this clause, and of the one before it in the sentence
        unread: list[Clause] = []  # the clauses no rule read and nothing else took up
        for clause in clauses:
            said_before, said_now = (said_now if clause.sentence == sentence else None), clause.text
            if clause.sentence != sentence:
                previous, sentence, faith_said = [], clause.sentence, False
            if _JOKING[clause.lang].match(clause.text):
                joked = _taken_back_as_a_joke(last, by_key)
                previous, last = [], []
                continue
            pointer = _OF_THE_JOKE[clause.lang].search(clause.text) if joked else None
            if joked and pointer:
                # "I love it" after the joke: it is the item the joke named.
                said = clause.text[: pointer.start()] + joked if clause.lang == "en" else clause.text + joked
                clause = replace(clause, text=said)
            joked = None
            if clause.name:
                _name_subject(previous, clause)
                continue
            if clause.skip:
                previous = []
                continue
            if clause.continues and is_trivial(clause.text):
                continue  # 「我老婆是空姐，经常出差，唉」: a sigh or a laugh says nothing of anyone
            if clause.continues and previous and _CORRECTED_VALUE[clause.lang].match(clause.text):
                # "my daughter is 7, not 6", 「我住在深圳，不是广州」: the old value, said to be wrong; an allergy
                # said to be another one is taken back if held ("allergic to cephalosporins, not penicillin").
                if previous[-1].key.startswith("allergy-") and previous[-1].op == "upsert":
                    for denied in self._allergy_denied(clause):
                        by_key.setdefault(denied.key, denied)
                continue
            if (
                right_value
                and _CORRECTED_VALUE[clause.lang].match(clause.text)
                and _CORRECTS[clause.lang].search(message)
            ):
                correction = _correction(right_value, clause)
                by_key.setdefault(correction.key, correction)
                right_value = None
                continue
            right = _RIGHT_VALUE[clause.lang].match(clause.text)
            right_value = right.group("value").strip() if right else None
            found = self._forget(clause) if clause.forget else self._statements(clause, previous)
            read_by_a_rule = bool(found)
            if _QUIT_IT[clause.lang].match(clause.text):
                # 「我每天喝三杯咖啡，最近想戒掉」: the goal to quit what was just said; with nothing before, no goal.
                found = _quitting_what_came_before(clause, last)
            if (
                not found
                and previous
                and previous[-1].memory_type == "preference"
                and _ESPECIALLY[clause.lang].match(clause.text)
            ):
                # 「我喜欢看科幻小说，特别是刘慈欣的」: which of them, part of the liking.
                joiner = "，" if clause.lang == "zh" else ", "
                previous[-1].content = f"{previous[-1].content}{joiner}{_lower_first(clause.text)}"[:1000]
                continue
            said = last
            if not said and clause is clauses[0] and _goes_on_from_before(found, clause):
                said = self._said_in(turn_before)
            if not found and said and not last and _READ_AFTER_ITS_SLOT[clause.lang].match(clause.text):
                # "I'm at Google now" in the turn after "I left Microsoft": read as right after it (the rules' `after`).
                found = self._statements(clause, said)
            new_favorite = _NEW_FAVORITE[clause.lang].match(clause.text) if not found else None
            if new_favorite and said and said[-1].key.startswith("favorite-"):
                # "Actually green now" right after "My favorite color is blue": the favourite's new value, which
                # replaces the one said before it in this message.
                by_key[said[-1].key] = _favorite_now(said[-1], new_favorite.group("value"))
                continue
            if not found and said and said[-1].key.startswith("allergy-") and clause.subject == "self":
                # 「芒果也不行」, "Also pollen in spring" after an allergy, in this message or the turn before.
                found = self._right_allergen(clause) if said[-1].op == "delete" else self._also_allergic(clause)
            if found and previous and _is_goal_detail(found, previous, clause):
                previous[-1].content = _joined(previous[-1].content, _lower_first(found[0].content), clause.lang)
                continue
            before = _goal_stated(said) if not previous else None
            if found and before is not None and _is_goal_detail(found, [before], clause):
                # "My goal is to finish under four hours" after "I'm training for a marathon", in another
                # sentence or the turn after: the detail goes with that goal, so reaching it ends both.
                detail = _lower_first(found[0].content) if clause.lang == "en" else found[0].content
                if any(before is candidate for candidate in last):
                    before.content = _joined(before.content, detail, clause.lang)
                    continue
                found = [replace(found[0], op="append", key=before.key, content=detail)]
            if not found and before is not None and _REACHED_IT[clause.lang].match(clause.text):
                # 「考上了！」 right after 「我在准备考研」: that goal is reached (where held).
                reached = statement(clause.text, clause.lang)
                found = [replace(before, op="delete", content=reached, extra={**before.extra, IF_HELD: True})]
                aimed = _SCHOOL_AIMED_AT.search(before.content) if clause.lang == "zh" else None
                if aimed and zh_alma_mater(aimed.group("school")):
                    # 「考上了！」 after 「我在准备考研，目标是浙大」: the school the goal named is the user's now.
                    school = PASSED_INTO.templates["zh"].format(value=aimed.group("school"))
                    found.append(
                        replace(before, memory_type="fact", key="school", content=school, importance=4, extra={})
                    )
            if found and clause.continues and previous and _is_goal_detail_without_object(found, previous):
                # 「我在准备PMP考试，打算明年上半年考」: when, not a second goal.
                previous[-1].content = _joined(previous[-1].content, found[0].content, clause.lang)
                continue
            # 「我打算12月再考一次」 in a turn of its own: no goal it could be the time of.
            found = [candidate for candidate in found if not _is_bare_goal(candidate)]
            if clause.contrast and _DIET_ALLOWS[clause.lang].match(clause.text):
                held = previous
                if not held and clause is clauses[0] and turn_before:
                    held = self._said_in(turn_before)
                if held and (held[-1].key == "diet" or held[-1].key.startswith(_ALLOWANCE_OF)):
                    # 「我是素食者，但是吃鸡蛋」: what the diet allows is part of it, not a preference of its own;
                    # said in the next turn, the diet is said again with it.
                    _add_contrast(held[-1], statement(clause.text, clause.lang), clause.lang)
                    by_key.setdefault(held[-1].key, held[-1])
                    continue
            if not found and _EXCEPTED[clause.lang].match(clause.text):
                held = previous or (self._said_in(turn_before) if clause is clauses[0] else [])
                if held and held[-1].memory_type == "preference" and held[-1].op == "upsert":
                    # 「我不喜欢吃甜的，不过巧克力例外」: the exception is part of the liking, said again with it.
                    excepted = statement(clause.text, clause.lang)
                    if clause.lang == "en" and excepted.lower().startswith("except"):
                        held[-1].content = f"{held[-1].content}, {_lower_first(excepted)}"[:1000]
                    else:
                        _add_contrast(held[-1], excepted, clause.lang)
                    by_key.setdefault(held[-1].key, held[-1])
                    continue
            if (
                not found
                and clause.contrast
                and previous
                and previous[-1].memory_type == "preference"
                and previous[-1].op == "upsert"
                and _LIKING_LIMITED[clause.lang].search(clause.text)
            ):
                # "I love spicy food but my stomach can't handle it anymore": the liking with what limits it now.
                limit = statement(re.sub(r"^(?:but )?my\b", "their", clause.text), clause.lang)
                _add_contrast(previous[-1], limit, clause.lang)
                continue
            if (
                not found
                and previous
                and previous[-1].memory_type == "preference"
                and previous[-1].extra.get(ITEM)
                and _ALLERGY_REASON[clause.lang].match(clause.text)
            ):
                _becomes_allergy(previous[-1], by_key, statement(clause.text, clause.lang), clause.lang)
                continue
            if (
                not found
                and previous
                and previous[-1].memory_type == "preference"
                and previous[-1].extra.get(ITEM)
                and (_is_avoidance(previous[-1]) or _DISLIKED.match(previous[-1].content))
                and _SENSITIVITY_REASON[clause.lang].match(clause.text)
            ):
                # 「我不喝咖啡，喝了会心慌」: what it does to the user makes the avoidance a sensitivity (core).
                joiner = "，" if clause.lang == "zh" else "; "
                said = statement(clause.text, clause.lang)
                content = f"{previous[-1].content}{joiner}{said if clause.lang == 'zh' else _lower_first(said)}"
                _becomes_lifelong_fact(previous[-1], by_key, "sensitivity", content)
                continue
            if not found and not previous and said_before and _ALLERGY_REASON[clause.lang].match(clause.text):
                # "Nuts are a no-go for me, I'm allergic": the food the clause before named is the allergen.
                for food in _foods_named(said_before):
                    found.extend(self._read(replace(clause, text=_ALLERGY_OF[clause.lang].format(item=food)), []))
            if not found and _FAITH[clause.lang].match(clause.text):
                faith_said = True  # 「我是回族，不吃猪肉」: the food that follows is avoided for it
                for candidate in previous:  # 「我不吃牛肉，因为信仰」: the food before is
                    if _is_avoidance(candidate):
                        _becomes_religious(candidate, by_key, clause.lang)
                continue
            no_foods = _NO_FOODS_EN.match(clause.text) if clause.lang == "en" and faith_said and not found else None
            if no_foods:
                # "I'm Muslim, so no pork or alcohol": each food named is avoided for the faith.
                foods = re.split(r",? (?:or|and) |, ", no_foods.group("items"))
                found = [c for food in foods for c in self._read(replace(clause, text=_AVOIDED[food.lower()]), [])]
            for candidate in found:
                if _is_avoidance(candidate) and (faith_said or _RELIGIOUS.search(candidate.content)):
                    _becomes_religious(candidate, by_key, clause.lang)
            if (
                not found
                and previous
                and previous[-1].key == HOME_FLOOR.key
                and _NO_ELEVATOR[clause.lang].match(clause.text)
            ):
                previous[-1].content += _NO_ELEVATOR_SAID[clause.lang]
                continue
            if not found and previous and _goes_on_about(previous[-1], clause):
                another_pet = previous[-1].key.startswith("pet-") and _ANOTHER_PET[clause.lang].match(clause.text)
                if another_pet:
                    # "I have a cat, a dog named Rex, and a parrot": the list's last pet, a pet of its own.
                    found = self._read(replace(clause, text=f"I have {another_pet.group('pet')}"), [])
                else:
                    # "我家狗狗叫豆豆，是只柯基", 「我们有一个女儿，今年四岁」, 「我怀孕了，预产期是明年三月」, 「我在吃抗凝药，
                    # 华法林」: the clause goes on about the pet, the person, the pregnancy or the medication.
                    said = statement(clause.text, clause.lang)
                    joiner, said = ("，", said) if clause.lang == "zh" else (", ", _lower_first(said))
                    previous[-1].content = f"{previous[-1].content}{joiner}{said}"[:1000]
                    continue
            # "I can't have dairy, I'm lactose intolerant", 「我对花生过敏，不能吃花生」: the condition says it, in either
            # order; a sensitivity it does not explain ("…, I can't have caffeine") is a fact of its own.
            found = [c for c in found if not any(_explains(condition, c) for condition in previous)]
            for explained in previous:
                if (
                    any(_explains(condition, explained) for condition in found)
                    and by_key.get(explained.key) is explained
                ):
                    del by_key[explained.key]
            for candidate in found:
                first = by_key.setdefault(candidate.key, candidate)
                if first is candidate:
                    first_said_in[candidate.key] = clause.text
                    if clause.reported:
                        reported.add(candidate.key)
                elif candidate.key in reported and not clause.reported:
                    # "我之前说我住在杭州，其实我已经搬到深圳了": what the user says now replaces the report.
                    by_key[candidate.key] = candidate
                    reported.discard(candidate.key)
                elif first.op == "delete" and candidate.op != "delete":
                    # "我现在不住北京了，搬去了杭州": the new value replaces the retraction.
                    by_key[candidate.key] = candidate
                elif (
                    first not in found
                    and candidate.op == first.op == "upsert"
                    and _corrects_after(message, first_said_in.get(candidate.key, ""), clause.lang)
                ):
                    # "I live in Austin. Wait, no — I live in Dallas", 「我住在广州，不对，我住在深圳」: the value said
                    # after the correction is the one meant.
                    by_key[candidate.key] = candidate
                elif (
                    first in previous
                    and candidate.key.startswith("habit-")
                    and candidate.op == first.op == "upsert"
                    and SLOT_VALUE not in first.extra
                    and SLOT_VALUE in candidate.extra
                ):
                    # 「我有午睡的习惯，一般睡半个小时」: how much, said right after the bare habit, is the habit's value.
                    by_key[candidate.key] = candidate
                elif first is not candidate and first.op == candidate.op == "append":
                    # Several facts about one family member: one append of both sentences.
                    first.content = _joined(first.content, candidate.content, clause.lang)
                elif (
                    candidate.key in _GOES_ON_IN_ITS_NEXT_CLAUSE
                    and first in previous
                    and clause.continues
                    and candidate.op == "upsert"
                ):
                    # 「我在美国留学，读计算机硕士」, 「在找工作，想去互联网公司做产品」: the clause that goes on says
                    # more of the same occupation or job hunt.
                    first.content = _joined(first.content, candidate.content, clause.lang)
                # Otherwise the first statement of a key wins: "我不打算考N1了" is read as a
                # retirement before the goal rules see "打算考N1".
            previous = found
            last = found or last
            if not read_by_a_rule and not found:
                unread.append(clause)
        for fact in _lasting_facts_unread(clauses, unread):
            by_key.setdefault(fact.key, fact)
        for switch in _switches(clauses):
            by_key.setdefault(switch.key, switch)
        return [c for c in by_key.values() if drop_reason(c, self.noise_key_patterns) is None]

    def _also_allergic(self, clause: Clause) -> list[Candidate]:
        """The allergy a clause naming only another allergen says (`_ALSO_ALLERGEN`), or nothing."""
        also = _ALSO_ALLERGEN[clause.lang].match(clause.text)
        if not also:
            return []
        item = (also.group("item") or "").strip()
        listed = also.groupdict().get("listed")
        if listed:
            # The clause names the allergen and nothing else: "Peanuts make me sick" is no "also peanuts".
            if listed.casefold().strip() not in (said for _, _, said in lexicon_mentions(listed)):
                return []
            item = listed
        if clause.lang == "en" and item[1:2].islower():
            item = _lower_first(item)  # "Mangoes too." opening its sentence
        return self._read(replace(clause, text=_ALLERGY_OF[clause.lang].format(item=item), continues=False), [])

    def _said_in(self, turn: str | None) -> list[Candidate]:
        """What the user's turn `turn` stated (none for None): what the first clause of the next turn may go on
        about (a goal's detail or its reaching, another allergen, an exception, a favourite's new value)."""
        return self._extract_one(turn, split_clauses(turn)) if turn else []

    def _right_allergen(self, clause: Clause) -> list[Candidate]:
        """The allergy a clause naming only an allergen the lexicon knows says right after an allergy denied
        (`_RIGHT_ALLERGEN`), or nothing: 「是误诊」, "it was a misdiagnosis" name no allergen."""
        right = _RIGHT_ALLERGEN[clause.lang].match(clause.text)
        if not right or not lexicon_entries(right.group("item")):
            return []
        return self._read(replace(clause, text=_ALLERGY_OF[clause.lang].format(item=right.group("item"))), [])

    def _allergy_denied(self, clause: Clause) -> list[Candidate]:
        """The delete, if held, of the allergy a "not <allergen>" clause (`_CORRECTED_VALUE`) says is no allergy."""
        wrong = re.sub(r"^(?:and )?(?:而)?(?:不是|not )", "", clause.text, flags=re.IGNORECASE).strip()
        return self._statements(replace(clause, text=_NO_ALLERGY_TO[clause.lang].format(item=wrong)), [])

    def _statements(self, clause: Clause, previous: list[Candidate]) -> list[Candidate]:
        """What a readable clause states: a retraction of a statement the rules can read (deletes
        on its keys), else what the rules read from the clause itself."""
        positive = positive_form(clause.text, clause.lang)
        if positive:
            taken_back = self._read(replace(clause, text=positive), previous)
            if taken_back:
                content = statement(clause.text, clause.lang)
                held_only = {IF_HELD: True} if denies(clause.text, clause.lang) else {}
                # What the statement itself retired is not taken back by its negation: "I'm not single
                # anymore" ends the status, it does not retire the partner "I'm single" would.
                return [
                    replace(c, op="delete", content=content, extra={**c.extra, **held_only})
                    for c in taken_back
                    if c.op != "delete"
                ]
        return self._read(clause, previous)

    def _forget(self, clause: Clause) -> list[Candidate]:
        """Deletes for an explicit forget request: of what its statement names ("忘掉我对花生过敏这件事"
        -> allergy-peanut), else of the slot its topic word names ("我的职业" -> occupation), else of
        whatever existing memory refine finds naming the same item (`FORGET` marks them all)."""
        named = self._statements(replace(clause, forget=False), [])
        content = statement(clause.text, clause.lang)
        if not named:
            key = topic_key(clause.text)
            named = [
                Candidate(
                    op="delete",
                    memory_type="fact",
                    key=key or f"forget-{item_slug(clause.text)}",
                    content=content,
                    confidence=CONFIDENT,
                    reason="rules: the user asked to forget it",
                )
            ]
        # The request is what the history records, not the statement it was read as ("住在在哪").
        return [
            replace(c, op="delete", content=content, extra={**_asked_value_dropped(c.extra), FORGET: True})
            for c in named
        ]

    def _read(self, clause: Clause, previous: list[Candidate]) -> list[Candidate]:
        """The candidates of one readable clause (`_read_rules`), or of its two halves when it asks for two
        rules of replying with one verb ("Use metric units and 24-hour time", "I prefer metric units and
        24-hour time": each half said with the verb is a rule of its own slot) or lists children and a pet
        ("I have two kids and a dog": each half about whom it names)."""
        whole = self._read_rules(clause, previous)
        halves = _SHARED_VERB[clause.lang].match(clause.text)
        # Not "Always use stone and pounds for body weight": one value, said in two words.
        if halves and not any(" and " in str(c.extra.get(SLOT_VALUE, "")) for c in whole):
            first, second = (
                self._read_rules(replace(clause, text=said, subject=subject_of(said, clause.lang)), previous)
                for said in (f"{halves.group('verb')} {halves.group(half)}" for half in ("first", "second"))
            )
            keys_first, keys_second = {c.key for c in first}, {c.key for c in second}
            kinds = {key.partition("-")[0] for key in keys_first | keys_second}
            if (
                first
                and second
                and keys_first.isdisjoint(keys_second)
                and (
                    any(key.startswith("reply-") for key in keys_first | keys_second)
                    or {"family", "pet"} <= kinds
                    # "I'm left-handed and colorblind": two traits or conditions, each its own (a condition core).
                    or kinds <= {"health", "trait", "allergy", "sensitivity"}
                )
            ):
                return first + second
        return whole

    def _read_rules(self, clause: Clause, previous: list[Candidate]) -> list[Candidate]:
        """The candidates of one readable clause: each rule in order, rules of a group never
        reading text another rule of the group already read; a rule that continues another
        (`Rule.after`) only when the previous clause yielded a key it continues."""
        found: list[Candidate] = []
        taken: dict[str, list[tuple[int, int]]] = {}
        for rule in RULES_BY_LANG[clause.lang]:
            if clause.request and not rule.standing:
                continue
            if clause.subject != "self" and not (rule.family and clause.subject.startswith("family:")):
                continue
            if rule.after and not any(c.key.startswith(rule.after) for c in previous):
                continue
            spans = taken.setdefault(rule.group, [])
            for match in rule.pattern.finditer(clause.text):
                if any(match.start() < end and start < match.end() for start, end in spans):
                    continue
                built = rule.build(match, clause)
                if built:
                    spans.append(match.span())
                    found.extend(built)
        diet = next((c.content for c in found if c.key == "diet" and c.op == "upsert"), None)
        if diet:
            # 「我平时只吃素」: the diet, not also a liking of 素 the liking rule read from the same words.
            found = [
                c for c in found if not (c.memory_type == "preference" and c.extra.get(ITEM) and c.extra[ITEM] in diet)
            ]
        return found

    def refine(self, candidates: list[Candidate], existing: list[ExistingMemory]) -> list[Candidate]:
        """The candidates to write. Key match and similarity dedup are the write model's
        (memories/dedup.py); here a retirement whose key does not exist is pointed at the one
        existing memory of its type that names the retired item, so "我不喝奶茶了" also retires
        a tool-written "drink-bubble-tea: 爱喝奶茶". A forget request may point at a memory of any
        type, and is dropped when no existing memory is the one it names (nothing is guessed); a
        retirement that only follows from another statement (`IF_HELD`) when its key is not held.
        An avoidance an allergy now explains is retired (`_avoidances_an_allergy_explains`), and one a
        held allergy already explains is dropped, so the two statements end the same in either order.
        A food or drink taken up again leaves the `diet` fact (`_diet_without_what_was_taken_up`), or
        qualifies the diet that keeps from it (`_diet_with_what_it_now_allows`); a birth takes the
        pregnancy out of the partner's fact (`_partner_without_a_pregnancy_ended`), a day shift the sleeping by
        day (`_daytime_sleep_a_day_shift_ends`), and a device, editor, hot drink or drug switched to ends the held
        one it replaces (`_what_a_switch_replaces`)."""
        existing_keys = {memory.key for memory in existing}
        # What a switch gives up (`given_up`), found among the held memories once the rules' own retirements have
        # found theirs: "I switched from VS Code to Neovim" ends the editor once.
        switched = what_was_given_up(candidates, existing)
        candidates = [c for c in candidates if not c.extra.get(GIVEN_UP)]
        refined = [
            *_avoidances_an_allergy_explains(candidates, existing),
            *_avoidances_a_diet_says(candidates, existing),
            *(
                _diet_without_what_was_taken_up(candidates, existing)
                or _diet_with_what_it_now_allows(candidates, existing)
            ),
            *_goals_a_quit_reaches(candidates, existing),
            *_partner_without_a_pregnancy_ended(candidates, existing),
            *_daytime_sleep_a_day_shift_ends(candidates, existing),
        ]
        # Keys the turn writes, or ends by name, itself.
        keyed = {c.key for c in candidates if c.op != "delete" or not c.extra.get(IF_NAMED)}
        for candidate in candidates:
            if WRONG_VALUE in candidate.extra:
                corrected = _corrected_memory(candidate, existing)
                if corrected is not None:
                    refined.append(corrected)
                continue
            outgrown = _family_fact_without_an_allergy_outgrown(candidate, existing)
            if outgrown:
                refined.extend(outgrown)  # 「他现在不过敏了」: the allergy leaves the son's fact, nothing is added
                continue
            if _avoids_a_held_allergen(candidate, existing_keys):
                continue  # 「我不能吃海鲜」 after 「我对海鲜过敏」: the allergy already says it
            if (candidate.key.startswith("sensitivity-") or candidate.key in _VAGUER_NAME.values()) and any(
                _condition_key_explains(key, candidate) for key in existing_keys
            ):
                # "I can't have dairy" after "I'm lactose intolerant", 「胃不好」 after 「有慢性胃炎」: the condition
                # already says it.
                continue
            if _avoids_what_a_held_diet_keeps_from(candidate, existing):
                continue  # "I don't eat meat" after "I'm vegetarian": the diet already says it
            if candidate.extra.get(TAKEN_UP) and any(
                c.key == "diet" and c.op == "append" and c.content == candidate.content for c in refined
            ):
                continue  # "I eat fish now" after "I'm vegetarian": the diet now says it, once
            if _ends_another_value(candidate, existing):
                continue  # "I don't live in Paris anymore" keeps the Berlin held
            if candidate.extra.get(IF_NAMED):
                # 「我已经不在字节了」 ends the employer 「在字节工作」, not a city held; "Rex died" the pet named Rex.
                # Not a memory the same turn writes or ends by its key: "I switched from iPhone to
                # Android" said again finds "Switched from iPhone to Android" naming the iPhone.
                named = _named_memory(candidate, existing)
                if named is not None and named.key not in keyed:
                    # "Max died" and "Has two dogs, Max and Bella": the loss is added, Bella is kept.
                    op = "append" if candidate.op == "delete" and _names_others(named, candidate) else candidate.op
                    refined.append(replace(candidate, op=op, reuse_key=named.key, memory_type=named.memory_type))
                continue
            older = _held_under_an_older_key(candidate, existing) if candidate.key not in existing_keys else None
            if older is not None:
                refined.append(replace(candidate, reuse_key=older.key))
                continue
            if candidate.op != "delete" or candidate.key in existing_keys:
                refined.append(candidate)
                continue
            reached = _held_goal_without_a_part_reached(candidate, existing)
            if reached:
                refined.extend(reached)  # 「N2考过了」: the N2 target leaves 「在学日语；目标是明年考N2」
                continue
            if candidate.extra.get(IF_HELD):
                continue  # "I just got married" with no single status stored retires nothing
            forget = bool(candidate.extra.get(FORGET))
            target = _retired_memory(candidate, existing, any_type=forget)
            if target is None:
                if not forget:
                    refined.append(replace(candidate, reuse_key=None))
                continue
            kept = _names_others(target, candidate) or _another_safety_fact(target, candidate)
            op = "append" if not forget and kept else candidate.op
            refined.append(replace(candidate, op=op, reuse_key=target.key, memory_type=target.memory_type))
        # After the retirements by name: 「我从苹果换成安卓了」 already ends the iPhone it names.
        deleted = {c.target_key for c in refined if c.op == "delete"}
        refined.extend(c for c in _what_a_switch_replaces(candidates, existing) if c.key not in deleted)
        ended = {c.target_key for c in refined}
        refined.extend(c for c in switched if c.target_key not in ended)
        return refined


# The key prefixes the lexicon gives the items it names ("food-", "drink-", "sport-"…).
_LEXICON_PREFIXES = tuple(sorted({f"{category}-" for _, category, _ in LEXICON}))


def _held_under_an_older_key(candidate: Candidate, existing: list[ExistingMemory]) -> ExistingMemory | None:
    """The held preference the item of `candidate` was stored under before its key was what it is now, so that a key
    scheme that grows does not split what a user said before from what they say after; None when there is none. Before
    the lexicon named it ("food-mushrooms" was "preference-mushrooms" or "preference-mushroom"); before when it is done
    was cut from the key ("preference-water-polo" was "preference-water-polo-every-tuesday-night",
    `keys.WHEN_DONE_SLUG`)."""
    category, _, slug = candidate.key.partition("-")
    if candidate.memory_type != "preference" or not (
        category == "preference" or candidate.key.startswith(_LEXICON_PREFIXES)
    ):
        return None
    lexicon_named = category != "preference"
    older = (
        {f"preference-{slug}", f"preference-{slug}s", f"preference-{slug.removesuffix('s')}"}
        if lexicon_named
        else set()
    )
    said_with_when = f"preference-{slug}-"
    return next(
        (
            m
            for m in existing
            if m.memory_type == "preference"
            and (
                m.key in older
                or (m.key.startswith(said_with_when) and WHEN_DONE_SLUG.match(m.key.removeprefix(said_with_when)))
            )
        ),
        None,
    )


# An avoidance of a food or drink, as the dislike rule stores it: 「不能吃海鲜」, "Can't eat shrimp".
_AVOIDANCE = re.compile(
    r"不能|不可以|不吃|不喝|不碰|吃不了|喝不了|不敢吃|\b(?:can't|cannot|can not|doesn't|does not|don't|never|avoids?)\b",
    re.IGNORECASE,
)


# Slots a clause with no subject of its own goes on about when it names the same one again (「我开车上下班，单程四十分钟」:
# the way to work and how long it takes).
_GOES_ON_IN_ITS_NEXT_CLAUSE = frozenset({"occupation", "goal-job-change", "goal-career-change", "commute"})
# A taste against a food or drink: 「不爱吃辣」, 「不太喜欢喝咖啡」 (a sensitivity when it makes the user unwell).
_DISLIKED = re.compile(r"不(?:太|怎么|大)?(?:爱|喜欢)")


# The parts of an appended fact: 「戒酒；不吃猪肉」, "Quit drinking; Doesn't eat red meat".
_PARTS = re.compile(r"\s*[；;]\s*")
# 戒 before a one-character item (「戒酒」, 「戒烟」), which the lexicon reads only said alone.
_GAVE_UP_ZH = re.compile(r"戒(?:掉了?)?")


def _sentences(clauses: list[Clause]) -> list[list[Clause]]:
    """The clauses of each sentence of the message, in order."""
    return [[c for c in clauses if c.sentence == index] for index in dict.fromkeys(c.sentence for c in clauses)]


def _lasting_facts_unread(clauses: list[Clause], unread: list[Clause]) -> list[Candidate]:
    """The lasting facts (`lasting.lasting_fact`) of the sentences whose every clause is `unread`."""
    facts = []
    for sentence in _sentences(clauses):
        if all(any(clause is taken for taken in unread) for clause in sentence):
            fact = lasting_fact(sentence)
            if fact is not None:
                facts.append(fact)
    return facts


def _switches(clauses: list[Clause]) -> list[Candidate]:
    """What each sentence says the user gave up for something else (`given_up.given_up_for_another`)."""
    return [switch for sentence in _sentences(clauses) if (switch := given_up_for_another(sentence)) is not None]


def _diet_without_what_was_taken_up(candidates: list[Candidate], existing: list[ExistingMemory]) -> list[Candidate]:
    """The held `diet` fact without the parts a food or drink taken up again ends: 「我戒酒了」 appended
    戒酒 to it, and 「最近又开始喝酒了」 takes that part out, so no core memory says the user keeps from what
    they have again. A delete when nothing else is left, else an upsert of the other parts; nothing
    when no part names the item (「是素食者」 is left to the user to take back)."""
    diet = _held_fact(existing, "diet")
    taken_up = [c for c in candidates if c.op == "upsert" and c.extra.get(TAKEN_UP) and c.key in DIETARY_KEYS]
    if diet is None or not taken_up:
        return []
    items = {candidate.key.partition("-")[2] for candidate in taken_up}
    return _held_fact_without(
        diet,
        lambda part: bool(items & {slug for slug, _ in lexicon_entries(_GAVE_UP_ZH.sub("", part))}),
        taken_up[0],
        "rules: a food or drink taken up again is no longer kept from",
    )


def _joined(first: str, second: str, lang: str) -> str:
    """Two statements of one memory as one content, with the separator of their language (at most 1,000 chars)."""
    return f"{first}{'；' if lang == 'zh' else '; '}{second}"[:1000]


def _held_fact(existing: list[ExistingMemory], key: str) -> ExistingMemory | None:
    """The held fact under `key`, or None."""
    return next((m for m in existing if m.key == key and m.memory_type == "fact"), None)


def _held_fact_without(
    memory: ExistingMemory, goes: Callable[[str], bool], cause: Candidate, reason: str
) -> list[Candidate]:
    """`memory` (an appended fact or goal) without the parts `goes` says are over, as `cause` says: a delete when nothing
    else is left, else an upsert of the other parts marked `narrows`; nothing when no part goes."""
    parts = [part for part in _PARTS.split(memory.content) if part]
    kept = [part for part in parts if not goes(part)]
    if len(kept) == len(parts):
        return []
    ended = replace(
        cause, op="upsert", memory_type=memory.memory_type, key=memory.key, importance=4, reason=reason, extra={}
    )
    if not kept:
        return [replace(ended, op="delete")]
    return [replace(ended, content=("；" if has_han("".join(kept)) else "; ").join(kept), narrows=True)]


# A family member's allergy said to be over: 「他现在不过敏了」, "He's not allergic anymore", "Emma outgrew her egg allergy".
_ALLERGY_OVER = re.compile(
    r"不(?:再)?过敏了|过敏(?:已经)?好了|\b(?:no longer|not|isn't|aren't) allergic\b(?:(?! to\b).)*?\bany ?more\b"
    r"|\bno longer allergic\b|\boutgr[eo]wn?\b.*\ballerg",
    re.IGNORECASE,
)
_ALLERGY_PART = re.compile(r"过敏|\ballerg", re.IGNORECASE)
# Who a family member's part speaks of, as the family rules write it: 「儿子…」, "Son …", "Child Emma …".
_MEMBER = re.compile(r"^(?:(?-i:Child [A-Z]\w*)|" + "|".join(FAMILY.values()) + r")", re.IGNORECASE)


# The words around the allergens of an allergy or of its end, as separators: what is left names the allergens.
_AROUND_ALLERGENS = re.compile(
    r"现在|已经|也|都|对|不再|不|过敏|好了|了|的|和|跟|、|以及|还有"
    r"|\b(?:is|are|was|not|no|longer|any ?more|allergic|allerg\w*|to|his|her|their|outgr[eo]wn?|and|or|an?)\b"
    r"|[\s,.;!?，。；！？]",
    re.IGNORECASE,
)


def _allergens_said(text: str) -> set[str]:
    """The allergens `text` (an allergy, or its end, without the member) names, as words: 「对牛奶和芒果过敏」 ->
    {牛奶, 芒果}, "outgrew his egg allergy" -> {egg} (an English plural as its singular)."""
    words = (word.casefold() for word in _AROUND_ALLERGENS.sub(" ", text).split())
    return {word[:-1] if word.endswith("s") and len(word) > 3 and word.isascii() else word for word in words}


def _family_fact_without_an_allergy_outgrown(candidate: Candidate, existing: list[ExistingMemory]) -> list[Candidate]:
    """The held family member's fact without that member's allergy `candidate` says is over (of the allergens it
    names, if it names any), in place of `candidate`: 「我儿子对芒果过敏」 then 「他现在不过敏了」 appended the second beside
    the first. A part naming another allergen as well stays whole (the safe side). Nothing when `candidate` says
    no allergy over or the held fact holds no such part."""
    held = _held_fact(existing, candidate.key) if candidate.key.startswith("family-") else None
    member = _MEMBER.match(candidate.content)
    if held is None or member is None or candidate.op == "delete" or not _ALLERGY_OVER.search(candidate.content):
        return []
    over = _allergens_said(candidate.content[member.end() :])

    def outgrown(part: str) -> bool:
        said = _MEMBER.match(part)
        if said is None or said.group(0).casefold() != member.group(0).casefold() or not _ALLERGY_PART.search(part):
            return False
        return not over or _allergens_said(part[said.end() :]) <= over

    return _held_fact_without(held, outgrown, candidate, "rules: the family member's allergy is over")


# A day schedule said now, and the daytime sleep a night shift had: 「我换成白班了」 after 「我上夜班，白天睡觉」.
_DAY_SHIFT = re.compile(r"白班|早班|正常班|\bday shifts?\b|\b9-?to-?5\b", re.IGNORECASE)
_DAYTIME_SLEEP = re.compile(r"白天睡|\bsleeps? (?:during|in) the day(?:time)?\b|\bdaytime\b", re.IGNORECASE)


def _daytime_sleep_a_day_shift_ends(candidates: list[Candidate], existing: list[ExistingMemory]) -> list[Candidate]:
    """A delete of the held bedtime that says the user sleeps by day, once the turn says they work days now:
    「我换成白班了」 after 「我上夜班，白天睡觉」 ("I switched to day shifts" after "…so I sleep during the day")."""
    day_shift = next(
        (c for c in candidates if c.key == "work-schedule" and c.op == "upsert" and _DAY_SHIFT.search(c.content)), None
    )
    if day_shift is None:
        return []
    return [
        replace(
            day_shift,
            op="delete",
            memory_type=memory.memory_type,
            key=memory.key,
            reason="rules: a day shift ends sleeping by day",
            extra={},
        )
        for memory in existing
        if memory.key == "preference-bedtime" and _DAYTIME_SLEEP.search(memory.content)
    ]


def _held_goal_without_a_part_reached(candidate: Candidate, existing: list[ExistingMemory]) -> list[Candidate]:
    """The held goal without its part naming the goal `candidate` says is reached, when that goal is not held under
    its own key: 「N2考过了」 takes 「目标是明年考N2」 out of 「最近在学日语；目标是明年考N2」, the rest of the goal stays.
    Nothing for a goal of one part (whether the whole is reached is not said) or when no held goal names it."""
    item = str(candidate.extra.get(ITEM) or "").casefold()
    if candidate.op != "delete" or candidate.memory_type != "goal" or len(item) < 2:
        return []
    for memory in existing:
        if memory.memory_type == "goal" and item in memory.content.casefold() and _PARTS.search(memory.content):
            return _held_fact_without(
                memory, lambda part: item in part.casefold(), candidate, "rules: a part of the goal is reached"
            )
    return []


def _what_a_switch_replaces(candidates: list[Candidate], existing: list[ExistingMemory]) -> list[Candidate]:
    """Deletes of the held devices, editors and drugs a switch replaces (`SWITCHED_AWAY`): "I switched to
    Android" ends a held iPhone, "I switched to Neovim" a held "Uses VS Code", "My doctor switched me to
    insulin" a held metformin (only when it is the one drug of that use held: `ENDS_ONLY_A_SINGLE_HELD`);
    nothing the turn itself names."""
    held = {memory.key for memory in existing}
    named = {candidate.key for candidate in candidates}
    ends: dict[str, Candidate] = {}
    for candidate in candidates:
        if candidate.op != "upsert" or not candidate.extra.get(SWITCHED):
            continue
        replaced = [key for key in SWITCHED_AWAY[candidate.key] if key in held and key not in named]
        if candidate.key in ENDS_ONLY_A_SINGLE_HELD and len(replaced) > 1:
            continue
        for key in replaced:
            reason = "rules: what was switched to replaces it"
            ends.setdefault(key, replace(candidate, op="delete", key=key, reason=reason, extra={}))
    return list(ends.values())


# A child born (or a pregnancy lost), as the turn says it: 「宝宝出生了」, "My wife gave birth to our son".
_BIRTH = re.compile(
    r"出生|生了|生完|流产|\b(?:gave birth|was born|were born|had (?:the|our|a) baby|baby (?:arrived|came)|miscarriage)\b",
    re.IGNORECASE,
)
# The part of a family member's fact that says a pregnancy: 「老婆怀孕了」, 「预产期是明年三月」, "Wife is pregnant".
_PREGNANCY_PART = re.compile(
    r"怀孕|怀了|预产期|孕[早中晚]期|\b(?:pregnant|expecting|due (?:in|date|on))\b", re.IGNORECASE
)


def _partner_without_a_pregnancy_ended(candidates: list[Candidate], existing: list[ExistingMemory]) -> list[Candidate]:
    """The held partner's fact without the parts saying a pregnancy, once the turn says the child is born:
    「老婆怀孕了，预产期是明年三月」 then 「宝宝出生了」 leave no pregnancy on every reply. A delete when nothing else
    is left, else an upsert of the other parts; nothing when the turn says no birth or no part is a pregnancy."""
    partner = _held_fact(existing, "family-partner")
    birth = next(
        (
            c
            for c in candidates
            if (c.key == "health-pregnancy" and c.op == "delete")
            or (c.key == "family-children" and _BIRTH.search(c.content))
        ),
        None,
    )
    if partner is None or birth is None:
        return []
    return _held_fact_without(
        partner, lambda part: bool(_PREGNANCY_PART.search(part)), birth, "rules: the pregnancy ended"
    )


# Named diets and the foods each keeps from (lexicon slugs), the strictest first.
_MEAT = frozenset({"meat", "red-meat", "pork", "beef", "chicken", "lamb", "offal"})
_DIET_KEEPS_FROM = (
    (
        re.compile(r"\bvegan\b|纯素|全素", re.IGNORECASE),
        _MEAT | {"fish", "seafood", "shellfish", "shrimp", "egg", "milk"},
    ),
    (re.compile(r"\bpesc[ae]tarian\b|鱼素|海鲜素", re.IGNORECASE), _MEAT),
    (re.compile(r"\bvegetarian\b|素食|吃素|吃斋", re.IGNORECASE), _MEAT | {"fish", "seafood", "shellfish", "shrimp"}),
)


def _kept_from(diet: str) -> frozenset[str]:
    """The food slugs the diet `diet` names keeps from (`_DIET_KEEPS_FROM`), none when it names no such diet."""
    return next((slugs for named, slugs in _DIET_KEEPS_FROM if named.search(diet)), frozenset())


def _is_food_avoided(key: str, content: str, slugs: frozenset[str]) -> bool:
    """True for an avoidance ("Doesn't eat meat", 「不吃肉」) of one of the foods `slugs` under its key (food-meat)."""
    category, _, slug = key.partition("-")
    return category == "food" and slug in slugs and bool(_AVOIDANCE.match(content))


def _avoids_what_a_held_diet_keeps_from(candidate: Candidate, existing: list[ExistingMemory]) -> bool:
    """True for an avoidance of a food the held `diet` keeps from: "I don't eat meat" after "I'm vegetarian"."""
    diet = _held_fact(existing, "diet")
    return (
        diet is not None
        and candidate.op == "upsert"
        and _is_food_avoided(candidate.key, candidate.content, _kept_from(diet.content))
    )


def _avoidances_a_diet_says(candidates: list[Candidate], existing: list[ExistingMemory]) -> list[Candidate]:
    """Deletes of the held avoidances of foods a diet stated now keeps from: "I don't eat meat" and later "I'm
    vegetarian" leave the diet, which says both (as "I'm vegetarian" then "I don't eat meat" does)."""
    diet = next((c for c in candidates if c.key == "diet" and c.op == "upsert"), None)
    kept_from = _kept_from(diet.content) if diet is not None else frozenset()
    reason = "rules: the diet now says the food is not eaten"
    return [
        replace(diet, op="delete", memory_type="preference", key=memory.key, content=memory.content, reason=reason)
        for memory in existing
        if diet is not None
        and memory.memory_type == "preference"
        and _is_food_avoided(memory.key, memory.content, kept_from)
    ]


def _diet_with_what_it_now_allows(candidates: list[Candidate], existing: list[ExistingMemory]) -> list[Candidate]:
    """An append to the held `diet` fact of a food it keeps from, taken up now: 「是素食者」 and then 「最近开始吃鱼了」
    leave 「是素食者；最近开始吃鱼了」, so no core memory says the user keeps from what they now eat. Nothing when
    the turn states a diet itself ("…, so pescatarian now" replaces it) or no named diet keeps from the food. Meat
    taken up ends the named diet instead: the fact without its parts naming one, or a delete."""
    diet = _held_fact(existing, "diet")
    if diet is None or any(c.key == "diet" for c in candidates):
        return []
    kept_from = next((slugs for named, slugs in _DIET_KEEPS_FROM if named.search(diet.content)), frozenset())
    taken_up = next(
        (
            c
            for c in candidates
            if c.op == "upsert"
            and c.extra.get(TAKEN_UP)
            and c.key.startswith("food-")
            and c.key.partition("-")[2] in kept_from
        ),
        None,
    )
    if taken_up is None:
        return []
    if taken_up.key.partition("-")[2] in _MEAT:
        # Meat again ends the named diet itself ("I'm vegetarian", then "I started eating meat again"): its parts
        # naming a diet go, what else the fact keeps ("不喝酒") stays.
        return _held_fact_without(
            diet,
            lambda part: any(named.search(part) for named, _ in _DIET_KEEPS_FROM),
            taken_up,
            "rules: meat taken up again ends the diet that kept from it",
        )
    reason = "rules: the diet now allows a food it kept from"
    return [replace(taken_up, op="append", memory_type="fact", key="diet", importance=4, reason=reason, extra={})]


def _goes_on_from_before(found: list[Candidate], clause: Clause) -> bool:
    """True when the clause may go on about what the turn before stated: a goal's detail, another allergen,
    a goal reached with no object, a favourite's new value, where the user works after leaving a job (what is
    read of the turn before only then)."""
    if found:
        return bool(_GOAL_DETAIL.match(clause.text))
    return any(
        pattern[clause.lang].match(clause.text)
        for pattern in (_ALSO_ALLERGEN, _RIGHT_ALLERGEN, _REACHED_IT, _NEW_FAVORITE, _READ_AFTER_ITS_SLOT)
    )


def _favorite_now(favorite: Candidate, value: str) -> Candidate:
    """`favorite` with its item replaced by `value`, in the user's words ("Favorite color is green")."""
    item = str(favorite.extra.get(ITEM) or "")
    content = favorite.content.replace(item, value, 1) if item and item in favorite.content else favorite.content
    return replace(favorite, content=content, extra={**favorite.extra, ITEM: value})


def _goal_stated(said: list[Candidate]) -> Candidate | None:
    """The goal the last statement of `said` stated (an upsert), or None."""
    stated = [c for c in said if c.op == "upsert"]
    return stated[-1] if stated and stated[-1].memory_type == "goal" else None


# What table's `after` rules read only right after a statement of their slot, in this message or the turn before:
# "I'm at Google now" after "I left Microsoft.", "English is fine" after "Please answer in Spanish".
_READ_AFTER_ITS_SLOT = {
    "en": re.compile(r"^I(?:'m| am) (?:now )?(?:at|with) \S|^\w+ is (?:fine|ok|okay|good|better)\b", re.IGNORECASE),
    "zh": re.compile(r"(?!)"),
}
# A favourite's new value said bare: "(Actually,) green now", "purple instead", 「现在改成绿色了」.
_NEW_FAVORITE = {
    "en": re.compile(
        r"^(?P<value>(?!(?:I|it|that|this|me|you|we|so|too|busy|tired|fine|ok|okay|good|here|home|back|done|ready|free)\b)"
        r"[a-z][a-z-]{1,15}(?: [a-z][a-z-]{1,15})?) (?:now|instead|these days)$",
        re.IGNORECASE,
    ),
    "zh": re.compile(r"^(?:现在|其实)?(?:改成|换成|变成)(?P<value>[^，。]{1,6}?)了?$"),
}
# A goal reached, said with no object of its own: 「考上了！」, 「上岸了」, "I passed!", "I got in!".
# The school a study goal aims at: 「在准备考研；目标是浙大」, 「准备高考，目标是考上清华」.
_SCHOOL_AIMED_AT = re.compile(
    r"(?:考研|考博|高考|中考|考大学|升学)[^；;]*[；;，]\s*目标(?:院校)?是(?:考上?)?(?P<school>[^；;，。\s]{2,10}?)(?:大学|的研究生|研究生)?$"
)
_REACHED_IT = {
    "zh": re.compile(r"^(?:我)?(?:终于|已经|也)?(?:考上了|考过了|通过了|上岸了|拿到了|做到了|成功了|搞定了)(?:啦)?$"),
    "en": re.compile(
        r"^(?:and )?I (?:finally |just )?(?:passed|got in|made it|did it|got accepted|nailed it)(?: it)?$",
        re.IGNORECASE,
    ),
}
# The likings whose retirement is a quitting done: a goal to quit them is then reached.
_QUITTABLE = ("habit-", "drink-", "food-")
# A wish to quit with no object of its own: 「最近想戒掉」, 「一直想戒」, "I'm trying to quit", "I want to quit it".
_QUIT_IT = {
    "zh": re.compile(
        r"^(?:我)?(?:最近|现在|一直|也|还|真的|很|早就)*(?:想|打算|准备|要|在努力|在尝试|试着|努力)(?:把它|把这个)?"
        r"(?:戒掉|戒了|戒)(?:它)?(?:吧|了)?$"
    ),
    "en": re.compile(
        r"^(?:I(?:'m| am)? )?(?:really )?(?:want|plan|planning|trying|try|hope|hoping|need|mean|meaning|going) to "
        r"(?:quit|give up|cut out|stop|kick)(?: it| them| that| the habit)?(?: (?:soon|eventually|someday))?$",
        re.IGNORECASE,
    ),
}


def _quitting_what_came_before(clause: Clause, last: list[Candidate]) -> list[Candidate]:
    """The goal to quit the food, drink or habit the clause before stated (`_QUIT_IT`), keyed as
    「我想戒咖啡」 / "I want to quit coffee" are (goal-<item>); nothing when it named none."""
    before = last[-1] if last else None
    if before is None or before.op == "delete" or not before.key.startswith(_QUITTABLE):
        return []
    slug = before.key.partition("-")[2]
    if clause.lang == "zh":
        said = [form for entry, _, forms in LEXICON if entry == slug for form in forms if form in before.content]
        if not said:
            return []
        text = f"{clause.text.rstrip('吧了')}{min(said, key=len)}"
    else:
        text = re.sub(
            r"(?: (?:it|them|that|the habit))?(?= (?:soon|eventually|someday)$|$)",
            f" {slug.replace('-', ' ')}",
            clause.text,
            count=1,
        )
    goal = Candidate(
        op="upsert",
        memory_type="goal",
        key=f"goal-{slug}",
        content=statement(text, clause.lang),
        importance=4,
        confidence=CONFIDENT,
        reason="rules: a wish to quit what the user just said",
        extra={ITEM: slug},
    )
    return [goal]


def _goals_a_quit_reaches(candidates: list[Candidate], existing: list[ExistingMemory]) -> list[Candidate]:
    """Deletes of the held goals to quit what the turn retires: 「我想戒烟」 (goal-smoking) is reached by 「我戒烟了」
    or "I quit smoking" (habit-smoking retired), "I want to quit coffee" by "I don't drink coffee anymore"."""
    held = {memory.key for memory in existing if memory.memory_type == "goal"}
    written = {c.key for c in candidates}
    reached = []
    for candidate in candidates:
        if candidate.op != "delete" or not candidate.key.startswith(_QUITTABLE):
            continue
        goal = f"goal-{candidate.key.partition('-')[2]}"
        if goal in held and goal not in written:
            reason = "rules: quitting done reaches the goal to quit"
            reached.append(replace(candidate, memory_type="goal", key=goal, reason=reason, reuse_key=None, extra={}))
            written.add(goal)
    return reached


# The user's recent turns a "she" may reach back through to the family member it means.
_TURNS_A_PRONOUN_REACHES = 3

# A slot named by a question word in a forget request (「请把我住在哪里的信息删掉」): the slot, whatever its value.
_ASKED_VALUE = re.compile(r"^(?:哪里|哪儿|哪|什么|啥|谁|where|what|which)$", re.IGNORECASE)


def _asked_value_dropped(extra: dict[str, object]) -> dict[str, object]:
    """`extra` without a `SLOT_VALUE` that is only a question word."""
    value = extra.get(SLOT_VALUE)
    if value is not None and _ASKED_VALUE.match(str(value)):
        return {name: field for name, field in extra.items() if name != SLOT_VALUE}
    return extra


def _ends_another_value(candidate: Candidate, existing: list[ExistingMemory]) -> bool:
    """True for a slot's statement taken back (`SLOT_VALUE`) whose key holds a memory that does not
    name its value: "I don't live in Paris anymore" and the user's "Lives in Berlin"."""
    value = candidate.extra.get(SLOT_VALUE)
    if candidate.op != "delete" or not value:
        return False
    names = item_pattern(str(value), min_latin=2, min_han=1)
    held = next((m for m in existing if m.key == candidate.key), None)
    return held is not None and (names is None or not names.search(held.content))


def _named_memory(candidate: Candidate, existing: list[ExistingMemory]) -> ExistingMemory | None:
    """The one memory held under the candidate's `IF_NAMED` key (or key prefix, "pet-", or any of a
    list) whose content names its item and does not say its `UNLESS_NAMED`, or, for a candidate
    naming no item (「我已经停药了」), the one memory held there; None when there is none or more than one."""
    where, item = candidate.extra[IF_NAMED], str(candidate.extra.get(ITEM) or "")
    keys = where if isinstance(where, list) else [where]
    # As a whole word ("Japan" is no part of "Japanese"); the key already narrows the search, so a
    # two-letter item will do ("ex" in "don't mention my ex"), and one Chinese character (「胃好了」
    # and the health fact 「胃不好」).
    names = item_pattern(item, min_latin=2, min_han=1)
    # Or its key names the item's lexicon word: "You can use technical terms now" ends rule-jargon "Avoid jargon".
    slugs = {f"-{slug}-" for slug, _ in lexicon_entries(item)} if item else set()
    unless = candidate.extra.get(UNLESS_NAMED)
    held = [
        m
        for m in existing
        if any(m.key == key or (key.endswith("-") and m.key.startswith(key)) for key in keys)
        and (
            not item
            or (names is not None and names.search(m.content))
            or any(slug in f"-{m.key.partition('-')[2]}-" for slug in slugs)
        )
        and not (unless and re.search(unless, m.content, re.IGNORECASE))
    ]
    return held[0] if len(held) == 1 else None


# A pet fact that names more than one animal: "Has two dogs, Max and Bella", 「两只猫，叫团团和圆圆」.
_MORE_THAN_ONE = re.compile(
    r"\b(?:two|three|four|both|several)\b|[两三四几]只|\d+ (?:dogs|cats|pets)|\band\b|[和、]", re.I
)


def _names_others(memory: ExistingMemory, candidate: Candidate) -> bool:
    """True when `memory`, which a retirement names, holds others beside what it ends (which must not end
    with it): a pet fact of more than one animal, or the item listed with another ("Wants to visit Japan and
    Korea" and "I finally went to Japan")."""
    if memory.key.startswith("pet-"):
        return bool(_MORE_THAN_ONE.search(memory.content))
    item = re.escape(str(candidate.extra.get(ITEM) or "").strip())
    listed = rf"{item}\s*(?:,|\band\b|[和、与及])|(?:,|\band\b|[和、与及])\s*(?:the\s+)?{item}"
    return bool(item) and re.search(listed, memory.content, re.IGNORECASE) is not None


def _another_safety_fact(memory: ExistingMemory, candidate: Candidate) -> bool:
    """True when `memory`, which a retirement names, is a safety fact of another kind than what ends: "My doctor
    took me off metformin" must not end "Has type 2 diabetes and takes metformin" (the ending is added to it)."""
    return is_core_key(memory.key) and memory.key.partition("-")[0] != candidate.key.partition("-")[0]


def _avoids_a_held_allergen(candidate: Candidate, existing_keys: set[str]) -> bool:
    """True for an avoidance of a food whose allergy, sensitivity or intolerance the user holds (`_conditions_avoiding`)."""
    item = candidate.extra.get(ITEM)
    return (
        candidate.op == "upsert"
        and candidate.memory_type == "preference"
        and bool(item)
        and not existing_keys.isdisjoint(_conditions_avoiding(item_slug(str(item))))
        and bool(_AVOIDANCE.search(candidate.content))
    )


def _avoidances_an_allergy_explains(candidates: list[Candidate], existing: list[ExistingMemory]) -> list[Candidate]:
    """Deletes of the user's avoidances that an allergy, a sensitivity or an intolerance of the food itself
    (`_INTOLERANCES`) in `candidates` now gives the reason for: 「我不能吃海鲜」 and later 「我对海鲜过敏」 leave the allergy
    alone, as 「我不能吃海鲜，会过敏」 said at once does (`_becomes_allergy`); "I can't eat gluten" and later "I'm gluten
    intolerant" the intolerance, "I can't eat spicy food" and later "I can't handle spicy food" the sensitivity. A
    liking ("Loves shrimp") stays beside the allergy: it is no avoidance."""
    by_key = {memory.key: memory for memory in existing if memory.memory_type == "preference"}
    deletes = []
    for candidate in candidates:
        explains = candidate.key.startswith(("allergy-", "sensitivity-")) or candidate.key in _INTOLERANCES
        item = _INTOLERANCES.get(candidate.key) or candidate.extra.get(ITEM)
        if candidate.op != "upsert" or not explains or not item:
            continue
        # Under the item's key, or the hash-free `preference-<item>` an avoidance had before the lexicon named it
        # ("Can't eat gluten" was `preference-gluten` before `food-gluten`; held rows keep their key).
        avoided = by_key.get(liking_key(str(item))) or by_key.get(f"preference-{item_slug(str(item))}")
        if avoided is not None and _AVOIDANCE.search(avoided.content):
            reason = "rules: an allergy now gives the reason the food is avoided"
            deletes.append(replace(candidate, op="delete", memory_type="preference", key=avoided.key, reason=reason))
    return deletes


def _retired_memory(candidate: Candidate, existing: list[ExistingMemory], *, any_type: bool) -> ExistingMemory | None:
    """The single existing memory (of the candidate's type unless `any_type`) sharing a LEXICON
    item with it, or, when it names no LEXICON item, naming its item (`builders.ITEM`: "I no
    longer use dark mode" retires "ui-theme: Prefers dark mode"); None when there is none or
    more than one."""
    candidates = [m for m in existing if any_type or m.memory_type == candidate.memory_type]
    items = {slug for slug, _ in lexicon_entries(candidate.content)}
    if items:
        hits = [m for m in candidates if items & {slug for slug, _ in lexicon_entries(m.content)}]
    else:
        names_item = item_pattern(str(candidate.extra.get(ITEM) or ""))
        hits = [m for m in candidates if names_item and names_item.search(m.content)]
    return hits[0] if len(hits) == 1 else None


def _corrects_after(message: str, first_said: str, lang: Lang) -> bool:
    """True when `message` says it corrects (`_CORRECTS`) after the clause `first_said`: "I live in Austin. Wait, no…".
    A correction word before it corrects nothing said here ("Actually, I work as a nurse, and on weekends I also work
    as a tutor"); where the clause is not found as said, anywhere in the message counts."""
    said_at = message.find(first_said) if first_said else -1
    return _CORRECTS[lang].search(message, said_at + len(first_said) if said_at >= 0 else 0) is not None


def _correction(right_value: str, wrong: Clause) -> Candidate:
    """The candidate of "是<right>，不是<wrong>": which memory it rewrites is refine's (`_corrected_memory`)."""
    wrong_value = re.sub(r"^(?:and )?(?:而)?(?:不是|not )", "", wrong.text, flags=re.IGNORECASE).strip()
    return Candidate(
        op="upsert",
        memory_type="fact",
        key=f"correction-{item_slug(wrong_value)}",
        content=statement(wrong.text, wrong.lang),
        confidence=CONFIDENT,
        reason="rules: the user corrected a value",
        extra={WRONG_VALUE: wrong_value, RIGHT_VALUE: right_value},
    )


def _corrected_memory(candidate: Candidate, existing: list[ExistingMemory]) -> Candidate | None:
    """The correction `candidate` as an upsert of the one memory naming its wrong value (the whole value,
    else its first word: "Amazon retail" in "Works at Amazon"), that value replaced by the right one; None
    when no single memory names it (nothing is guessed)."""
    wrong, right = str(candidate.extra[WRONG_VALUE]), str(candidate.extra[RIGHT_VALUE])
    for said in dict.fromkeys((wrong, wrong.split()[0] if " " in wrong else wrong)):
        names = item_pattern(said, min_latin=1 if said.isdigit() else 2, min_han=2)  # "it's 7, not 6"
        held = [m for m in existing if names is not None and names.search(m.content)]
        if len(held) == 1:
            content = names.sub(lambda _: right, held[0].content, count=1)  # the user's words, not a template
            reason = "rules: a value the user corrected"
            return replace(
                candidate,
                memory_type=held[0].memory_type,
                content=content,
                reuse_key=held[0].key,
                reason=reason,
                extra={},
            )
        if held:
            return None
    return None


def _taken_back_as_a_joke(said: list[Candidate], by_key: dict[str, Candidate]) -> str | None:
    """Take the candidates `said` (what the clause before the joke yielded) out of `by_key`; the
    item they named when they named one, for an "it" after the joke."""
    for candidate in said:
        if by_key.get(candidate.key) is candidate:
            del by_key[candidate.key]
    items = {str(c.extra[ITEM]) for c in said if c.extra.get(ITEM)}
    return items.pop() if len(items) == 1 else None


def _add_contrast(candidate: Candidate, contrast: str, lang: str) -> None:
    """Append what a "but" clause says to `candidate`'s content ("Is vegetarian but eats eggs")."""
    joiner = "，但" if lang == "zh" else " but "
    candidate.content = f"{candidate.content}{joiner}{_lower_first(contrast)}"[:1000]


def _becomes_lifelong_fact(candidate: Candidate, by_key: dict[str, Candidate], prefix: str, content: str) -> None:
    """Turn the avoidance `candidate` into the lifelong core fact `<prefix>-<item>` with `content`,
    under its new key in `by_key`."""
    if by_key.get(candidate.key) is candidate:
        del by_key[candidate.key]
    candidate.memory_type, candidate.importance, candidate.ttl_days = "fact", 5, LIFELONG_TTL_DAYS
    candidate.reason = "rules: fact stated by the user"
    candidate.key = f"{prefix}-{item_slug(candidate.extra[ITEM])}"
    candidate.content = content[:1000]
    by_key.setdefault(candidate.key, candidate)


def _becomes_allergy(candidate: Candidate, by_key: dict[str, Candidate], reason: str, lang: str) -> None:
    """Turn the avoidance `candidate` ("不能吃海鲜") into the allergy its next clause gives as the
    reason ("会过敏"): `allergy-<item>`, a lifelong core fact, its content both clauses."""
    joiner, reason = ("，", reason) if lang == "zh" else ("; ", _lower_first(reason))
    _becomes_lifelong_fact(candidate, by_key, "allergy", f"{candidate.content}{joiner}{reason}")


def _is_avoidance(candidate: Candidate) -> bool:
    """True for a food or drink the user does not have, read as a taste: content that opens with an
    avoidance (`_AVOIDANCE`: "不吃猪肉", "Doesn't eat pork")."""
    return (
        candidate.memory_type == "preference"
        and candidate.op == "upsert"
        and bool(candidate.extra.get(ITEM))
        and bool(_AVOIDANCE.match(candidate.content))
    )


def _becomes_religious(candidate: Candidate, by_key: dict[str, Candidate], lang: str) -> None:
    """Turn the avoidance `candidate` ("不吃猪肉") into the religious restriction its sentence says it
    is: `diet-<item>`, a lifelong core fact as a doctor's order is, its content saying why without
    naming the faith ("不吃猪肉（宗教原因）", "Doesn't eat pork for religious reasons")."""
    said_why = _RELIGIOUS.search(candidate.content)
    content = candidate.content if said_why else f"{candidate.content}{_FOR_RELIGION[lang]}"
    _becomes_lifelong_fact(candidate, by_key, "diet", content)


def _name_subject(previous: list[Candidate], clause: Clause) -> None:
    """Add the name of "…，她叫小雨" / "…, her name is Xiaoyu" to the family or pet fact it names."""
    for candidate in previous:
        if candidate.key.startswith(("family-", "pet-")):
            joined = f"，叫{clause.name}" if clause.lang == "zh" else f", named {clause.name}"
            candidate.content = f"{candidate.content}{joined}"[:1000]
            return


def _is_goal_detail(found: list[Candidate], previous: list[Candidate], clause: Clause) -> bool:
    """True when `clause` ("My goal is to finish under four hours") says more of the goal just stated; a goal of
    the same key ("My goal is to run a marathon" after "I want to run a marathon") states it again instead."""
    return (
        previous[-1].memory_type == "goal"
        and all(c.memory_type == "goal" and c.key != previous[-1].key for c in found)
        and bool(_GOAL_DETAIL.match(clause.text))
    )


# What a goal clause names besides its time words: 「打算明年上半年考」 leaves 考, a verb with no object.
_ZH_GOAL_TIME = re.compile(
    r"今年|明年|后年|年底|年初|上半年|下半年|[一二三四五六七八九十\d]+月份?|之前|以前|前|底|内|再|就|去|一次|一遍|下次"
)
# A wish said after a goal, of what the goal is for: 想, 希望, 争取, 打算 …
_ZH_WISH = re.compile(r"^(?:还)?(?:想|希望|争取|打算|计划|目标是|准备)")
_BARE_GOAL_VERB = re.compile(r"^(?:考|考试|做|完成|搞定|学|去|办|拿下|报名|申请)?$")


def _is_goal_detail_without_object(found: list[Candidate], previous: list[Candidate]) -> bool:
    """True when the clause's one goal names no object of its own and a goal came just before, or
    wishes what that goal is for in words naming nothing the lexicon knows (「我在学吉他，想年底前能弹唱一首歌」)."""
    if previous[-1].memory_type != "goal" or len(found) != 1:
        return False
    wish = found[0]
    return _is_bare_goal(wish) or (
        wish.memory_type == "goal"
        and is_wording_hash(wish.key.partition("-")[2])
        and _ZH_WISH.match(wish.content) is not None
    )


def _is_bare_goal(candidate: Candidate) -> bool:
    """True for a goal whose item is a time and a verb only (「打算12月再考一次」: take what again?)."""
    item = str(candidate.extra.get(ITEM) or "")
    return (
        candidate.memory_type == "goal" and has_han(item) and bool(_BARE_GOAL_VERB.match(_ZH_GOAL_TIME.sub("", item)))
    )


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]
