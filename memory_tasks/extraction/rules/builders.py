"""What a rule makes of a match: the candidates built from the matched clause.

A builder takes the regex match and its clause and returns candidates (none when the match
turns out not to be a statement worth keeping). Slots fill one fixed key; the others derive
the key from the matched item through the key scheme (rules/keys.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from memory_tasks.extraction.candidates import Candidate, Op
from memory_tasks.extraction.core import DIETARY_KEYS, TASTE
from memory_tasks.extraction.rules.clauses import FAMILY, Clause, Lang
from memory_tasks.extraction.rules.content import (
    DEICTIC_ITEM,
    PRONOUN_ITEM,
    ZH_ITEM_VERBS,
    ZH_NOUNS_OPENING_WITH_AN_ITEM_VERB,
    clean_item,
    split_items,
    statement,
)
from memory_tasks.extraction.rules.english import pronouns_in_the_third_person
from memory_tasks.extraction.rules.keys import (
    favorite_key,
    goal_key,
    item_slug,
    language_key,
    liking_key,
    project_key,
    rule_key,
)
from memory_tasks.extraction.rules.lexicon import lexicon_entries, lexicon_mentions
from memory_tasks.text import EN_ORDINALS, ZH_WORKPLACE_KINDS, has_han

Build = Callable[[re.Match[str], Clause], list[Candidate]]

# Days to keep lifelong facts; None leaves the configured default TTL.
LIFELONG_TTL_DAYS = 3650


# Candidate.extra field naming the item a statement is about ("dark mode"): what a retraction or a
# forget request of it looks for in the user's memories when their keys differ (RulesEngine.refine).
ITEM = "item"
# Candidate.extra field of a delete that only follows from another statement ("I just got married"
# ends a single status): refine drops it when the user holds nothing under its key.
IF_HELD = "if_held"
# Candidate.extra field of a delete that names what it ends only by a word that may be one slot's or
# another's (「我已经不在字节了」: a company or a city?): the key, or key prefix ("pet-"), of the memory
# it may end, or a list of them; refine keeps it only where one memory held there names `ITEM`.
IF_NAMED = "if_named"
# Candidate.extra field of an `IF_NAMED` candidate: a pattern (a string, so the payload stays JSON)
# of what the memory it may end must not say: a trip taken ends "Wants to visit Japan", not "Wants
# to move to Japan".
UNLESS_NAMED = "unless_named"
# Candidate.extra field of a single-valued slot's statement written from a template: the value it
# holds ("Paris" of "I live in Paris", "Lives in Paris"). Taken back or forgotten, the statement ends
# the slot only where the memory names that value: "I don't live in Paris anymore" is no word on the
# Berlin the user lives in now.
SLOT_VALUE = "slot_value"
# Marks a habit the user started or took up again (`habit_taken_up`): refine takes the diet part
# that gave it up out of the `diet` fact.
TAKEN_UP = "taken_up"


def _candidate(
    op: Op,
    memory_type: str,
    key: str,
    content: str,
    clause: Clause,
    importance: int,
    ttl_days: int | None = None,
    item: str | None = None,
) -> Candidate:
    return Candidate(
        op=op,
        memory_type=memory_type,
        key=key,
        content=content[:1000],
        importance=importance,
        confidence=clause.confidence,
        ttl_days=ttl_days,
        reason=f"rules: {memory_type} stated by the user",
        extra={ITEM: item} if item else {},
    )


@dataclass(frozen=True)
class Slot:
    """A single-valued slot filled from the named group `value`."""

    memory_type: str
    key: str
    templates: dict[str, str] | None = None  # {"zh": "住在{value}", "en": …}; None = the clause itself
    importance: int = 4
    ttl_days: int | None = None
    clean: Callable[[str], str | None] = lambda value: value

    def __call__(self, match: re.Match[str], clause: Clause) -> list[Candidate]:
        value = self.clean(match.group("value").strip(" ，,.的"))
        if not value:
            return []
        if self.templates:
            content = self.templates[clause.lang].format(value=value)
        else:
            content = statement(clause.text, clause.lang)
        filled = _candidate("upsert", self.memory_type, self.key, content, clause, self.importance, self.ttl_days)
        if self.templates:
            filled.extra[SLOT_VALUE] = value
        return [filled]


def per_item(memory_type: str, key_of: Callable[[str], str], importance: int) -> Build:
    """One upsert per item of the named group `item`, keyed by `key_of(item)`.

    Content: for one item the matched statement; for a list, the words before the list plus
    each item, so "我平时喜欢听爵士乐和古典音乐" gives "平时喜欢听爵士乐" and "平时喜欢听古典音乐".
    """

    def build(match: re.Match[str], clause: Clause) -> list[Candidate]:
        items = split_items(match.group("item"), clause.lang)
        if len(items) == 1:
            contents = [statement(match.group(0), clause.lang)]
        else:
            head = clause.text[match.start() : match.start("item")].strip()
            if clause.lang == "en" and items and items[0].endswith("ing") and not _EN_ITEM_VERB_END.search(head):
                # "I love hiking and take my dog along": after a gerund, an item with a verb of its own is another
                # statement (it replaces the head's verb only where the head has one: "I don't eat pork or drink…").
                items = items[:1] + [item for item in items[1:] if not _EN_ITEM_VERB.match(item)]
            # What the match says after the list is each item's: 「平时用Python和Go写后端」 -> 「平时用Go写后端」.
            tail = clause.text[match.end("item") : match.end()].rstrip()
            contents = [statement(_listed(head, item, clause.lang) + tail, clause.lang) for item in items]
        return [
            _candidate("upsert", memory_type, _hours_key(key_of(item), content), content, clause, importance, item=item)
            for item, content in zip(items, contents, strict=True)
        ]

    return build


# Diets kept side by side, each under a key of its own: halal and gluten-free, vegetarian and keto are two facts (one
# `diet` slot lost the first to the second). Vegetarian, vegan and pescatarian (吃素, 鱼素…) are one axis, `diet`, where a
# new one replaces the old, and where a food taken up or kept from is appended (`engine._diet_with_what_it_now_allows`).
_DIET_KINDS = (
    (re.compile(r"halal|清真", re.IGNORECASE), "diet-halal"),
    (re.compile(r"kosher", re.IGNORECASE), "diet-kosher"),
    (re.compile(r"keto|生酮", re.IGNORECASE), "diet-keto"),
    (re.compile(r"low[- ]carb", re.IGNORECASE), "diet-low-carb"),
    (re.compile(r"paleo", re.IGNORECASE), "diet-paleo"),
    (re.compile(r"gluten-free", re.IGNORECASE), "diet-gluten-free"),
    (re.compile(r"low[- ]fodmap", re.IGNORECASE), "diet-low-fodmap"),
    (re.compile(r"renal|diabetic diet", re.IGNORECASE), "diet-medical"),
)


def diet(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """The user's diet, named by the group `value`, in the user's words: under `diet`, or the key of its kind
    (`_DIET_KINDS`: diet-halal, diet-keto …)."""
    value = match.group("value")
    key = next((key for kind, key in _DIET_KINDS if kind.search(value)), "diet")
    return [_candidate("upsert", "fact", key, statement(clause.text, clause.lang), clause, 4)]


# The diets of the one axis of what animals one eats (`diet`), named as a kind of diet.
_VEGETARIAN_AXIS = re.compile(r"vegetarian|vegan|pesc[ae]tarian|plant-based", re.IGNORECASE)


def named_diet(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """A diet no table names, said as one ("I'm following a Mediterranean diet", "I'm on the DASH diet"), in the
    user's words: under the key of its kind when it is one (`_DIET_KINDS`, `diet` for the vegetarian axis), else
    `diet-<its name>`."""
    value = match.group("value")
    known = next((key for kind, key in _DIET_KINDS if kind.search(value)), None)
    key = known or ("diet" if _VEGETARIAN_AXIS.search(value) else f"diet-{item_slug(value)}")
    return [_candidate("upsert", "fact", key, statement(clause.text, clause.lang), clause, 4)]


def taken_with(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """How the user takes a hot drink (「我喝咖啡加燕麦奶」, "I take oat milk in my coffee", "I take my coffee black"):
    `<drink key>-taken`, beside the habit of drinking it; said one way (「喝咖啡加燕麦奶」, "Takes coffee with oat milk")."""
    drink, value = match.group("drink"), match.group("value").strip()
    if clause.lang == "zh":
        content = f"喝{drink}加{value}"
    else:
        drink, value = drink.lower(), value.lower()
        plain = value in ("black", "plain", "straight", "white")
        content = f"Takes {drink} {value if plain or value.startswith('with ') else f'with {value}'}"
    return [_candidate("upsert", "preference", f"{liking_key(drink)}-taken", content, clause, 3, item=drink)]


# Not at some hours of the day: 「下午不喝咖啡」, "Never drinks coffee after 2pm", 「睡前不喝茶」. Said with a positive habit
# of the same item ("Drinks coffee every morning") it is a second fact, not a new value of the first.
_NOT_AT_SOME_HOURS = re.compile(
    r"(?:下午|晚上|傍晚|夜里|半夜|深夜|睡前|睡觉前|饭后|晚饭后|午饭后|中午(?:以|之)?后|过了中午|[\d一二三四五六七八九十两]+点(?:以|之)?后)"
    r"[^，。]{0,4}?(?:不|别|从不|从来不|绝不)"
    r"|\b(?:don't|do not|doesn't|does not|never|won't|can't|cannot|avoids?|stopped|no longer)\b.*\b(?:after (?:noon|midday|lunch|dinner|\d)"
    r"|in the (?:afternoons?|evenings?)|at night|late in the day|before (?:bed|bedtime|sleep))",
    re.IGNORECASE,
)


def _hours_key(key: str, content: str) -> str:
    """`key`, or its `-cutoff` key when `content` keeps from the item at some hours of the day only."""
    return f"{key}-cutoff" if _NOT_AT_SOME_HOURS.search(content) else key


# Verbs an activity opens with that no liking's head carries: 「看书或者爬山」 is 看书 and 爬山, not 看爬山.
_ZH_ACTIVITY_VERBS = "爬跑游骑练跳滑钓画唱弹学"


# Verbs an English list item may bring of its own ("pork or drink alcohol"), and the head's verb they replace.
_EN_ITEM_VERB = re.compile(r"^(?:eat|drink|use|play|watch|have|smoke|take)\b", re.IGNORECASE)
_EN_ITEM_VERB_END = re.compile(r" (?:eat|drink|use|play|watch|have|smoke|take)$", re.IGNORECASE)


def _listed(head: str, item: str, lang: Lang) -> str:
    """One item of a list said with the list's head: "喜欢看" + "电影" -> "喜欢看电影". An item with
    a verb of its own keeps it instead of the head's ("喜欢看" + "听音乐" -> "喜欢听音乐", not 看听)."""
    if lang != "zh":
        # The head's "a" was the first item's: "I use a" + "iPad" -> "I use iPad", not "a iPad"; an item with
        # a verb of its own keeps it instead of the head's ("I don't eat" + "drink alcohol" -> "I don't drink alcohol").
        head = re.sub(r" an?$", "", head, flags=re.IGNORECASE)
        if _EN_ITEM_VERB.match(item):
            head = _EN_ITEM_VERB_END.sub("", head)
        return f"{head} {item}"
    opens_with_item_verb = item[:1] in ZH_ITEM_VERBS and not item.startswith(ZH_NOUNS_OPENING_WITH_AN_ITEM_VERB)
    own_verb = opens_with_item_verb or item[:1] in _ZH_ACTIVITY_VERBS
    if head[-1:] in ZH_ITEM_VERBS and own_verb:
        head = head[:-1]
    elif head.endswith("吃") and any(category == "drink" for _, category in lexicon_entries(item)):
        head = f"{head[:-1]}喝"  # 「不能吃海鲜和啤酒」: beer is drunk (「不能喝啤酒」)
    return f"{head}{item}"


def retirement(key_of_verb: Callable[[str, str], str | None]) -> Build:
    """op=delete on the key the positive statement used; `key_of_verb(verb, item)` picks it.

    Giving up a food or drink of `DIETARY_KEYS` also appends the statement to the `diet` fact:
    the old preference is retired, and the restriction is kept (and surfaces as core).
    """

    def build(match: re.Match[str], clause: Clause) -> list[Candidate]:
        verb = (match.groupdict().get("verb") or "").strip().lower()
        content = statement(match.group(0), clause.lang)
        candidates = []
        for item in split_items(match.group("item"), clause.lang):
            key = key_of_verb(verb, item)
            if key:
                prefix = key.split("-", 1)[0]
                memory_type = prefix if prefix in ("goal", "project") else "fact" if prefix == "pet" else "preference"
                said = clause.text[: match.end()]
                if memory_type == "preference" and _NOT_AT_SOME_HOURS.search(said):
                    # 「我晚上不喝咖啡了」: not at those hours any more; the coffee of the mornings is not given up.
                    hours = statement(said, clause.lang)
                    candidates.append(_candidate("upsert", memory_type, f"{key}-cutoff", hours, clause, 3, item=item))
                    continue
                candidates.append(_candidate("delete", memory_type, key, content, clause, 3, item=item))
        if any(c.key in DIETARY_KEYS and c.op == "delete" for c in candidates) and not TASTE.search(match.group(0)):
            candidates.append(_candidate("append", "fact", "diet", content, clause, 4))
        return candidates

    return build


# "I plan to launch it", "I want to show you this": the goal's object is in another clause, or the
# wish is about the conversation.
_POINTS_BACK = re.compile(
    r"\b(?:it|them|their|you)\b|\b(?:this|that)\b(?! (?:year|month|week|summer|winter|spring|fall|autumn|weekend|time)\b)",
    re.IGNORECASE,
)
# The first part of a goal, before a joined second one: its "it" has no antecedent in the clause,
# a later part's may ("learn piano and play it for my daughter").
_FIRST_PART = re.compile(r"^.*?(?=\s+(?:and|then)\s+|[,，]|$)", re.IGNORECASE)


def alcohol_kept_from(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """「我滴酒不沾」, "I don't drink": drink-alcohol, kept from (core, `core.DIETARY_KEYS`). English names what
    is not drunk ("Doesn't drink alcohol"), so "I don't drink alcohol" said after it restates it."""
    said = match.group(0) if clause.lang == "zh" else f"I {match.group('negation')} drink alcohol"
    content = statement(said, clause.lang)
    return [_candidate("upsert", "preference", liking_key("alcohol"), content, clause, 3, item="alcohol")]


def goal(match: re.Match[str], clause: Clause) -> list[Candidate]:
    item = match.group("item").strip()
    if re.match(r"^(?:你|您)", item):
        return []
    item = clean_item(item, clause.lang)
    if not item or PRONOUN_ITEM.match(item) or _POINTS_BACK.search(_FIRST_PART.match(item).group(0)):
        # "I plan to launch it next year": what "it" is belongs to another clause.
        return []
    return [_candidate("upsert", "goal", goal_key(item), statement(clause.text, clause.lang), clause, 4, item=item)]


def goal_changed(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """A goal changed for another ("I've changed my goal to the B2 Italian exam"): the new goal (the group `item`), and
    the end of the goal held that names the group `named` ("Italian"), whatever its key."""
    new = goal(match, clause)
    if not new:
        return []
    return new + _on_named_memory("delete", ("goal-",), match.group("named"), None, importance=3)(match, clause)


# 「戒烟」, 「戒酒」: a one-character item, keyed as the English "quit smoking" is.
_QUIT_ITEMS = {"烟": "smoking", "酒": "alcohol"}


def quitting_goal(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """A goal to quit something (「我想戒烟」, 「我打算戒咖啡」): goal-<item>, as "I want to quit coffee" is keyed."""
    item = match.group("item").strip()
    item = _QUIT_ITEMS.get(item) or clean_item(item, clause.lang)
    if not item:
        return []
    return [_candidate("upsert", "goal", goal_key(item), statement(clause.text, clause.lang), clause, 4, item=item)]


# The kinds of favourite that are things done ("Quilting is my favorite hobby").
_ACTIVITY_KIND = re.compile(r"(?:hobby|hobbies|pastime|sport|activity|thing to do|exercise|workout)", re.IGNORECASE)


def favorite(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """A favourite said item first ("Sushi is my favorite food", 「寿司是我最喜欢的食物」), stored the
    way "My favorite food is sushi" is (`favorite_of_kind`); with no kind ("Jazz is my favorite"),
    keyed by the item as a liking is."""
    item = clean_item(match.group("item"), clause.lang)
    kind = (match.group("kind") or "").strip()
    if not item or PRONOUN_ITEM.match(item) or DEICTIC_ITEM.search(item):
        return []
    if clause.lang == "zh":
        content = f"最喜欢的{kind}是{item}" if kind else f"最喜欢{item}"
    elif kind:
        # The kind is the subject now: "Mystery novels are my favorite genre" -> "Favorite genre is mystery novels"
        # (a word the lexicon knows, or a hobby in -ing, loses the capital of the sentence it opened; a name keeps it:
        # "Favorite hobby is quilting", "Favorite city is Beijing").
        known = item.casefold() in (said for _, _, said in lexicon_mentions(item)) or bool(
            _ACTIVITY_KIND.fullmatch(kind) and re.fullmatch(r"[A-Z][a-z]+ing", item)
        )
        content = f"Favorite {kind} {'are' if kind.endswith('s') else 'is'} {item.lower() if known else item}"
    else:
        verb = "are" if re.match(r"\s+are\b", clause.text[match.end("item") :], re.IGNORECASE) else "is"
        content = f"{item[:1].upper()}{item[1:]} {verb} a favorite"
    key = favorite_key(kind) if kind else liking_key(item)
    return [_candidate("upsert", "preference", key, content, clause, 3, item=item)]


def goal_reached(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """op=delete on the goal the user says is reached ("I passed the N1", 「我跑完了马拉松」), only when
    that goal is held (`IF_HELD`): "I finished my homework" names no goal and retires nothing."""
    return _goal_reached(clean_item(match.group("item"), clause.lang), clause)


def goal_reached_as(item: str) -> Build:
    """`goal_reached` of the goal `item` names, whatever words said it (「车买了」, 「提车了」: 买车)."""

    def build(match: re.Match[str], clause: Clause) -> list[Candidate]:
        return _goal_reached(item, clause)

    return build


def _goal_reached(item: str, clause: Clause) -> list[Candidate]:
    if not item or PRONOUN_ITEM.match(item) or DEICTIC_ITEM.search(item):
        return []
    delete = _candidate("delete", "goal", goal_key(item), statement(clause.text, clause.lang), clause, 3, item=item)
    delete.extra[IF_HELD] = True
    return [delete]


def favorite_of_kind(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """ "My favorite color is blue", 「我最喜欢的颜色是蓝色」: one favourite per kind (`favorite_key`), so a
    new one replaces the old; the statement is the content."""
    item = clean_item(match.group("item"), clause.lang)
    if not item or PRONOUN_ITEM.match(item) or DEICTIC_ITEM.search(item):
        return []
    key = favorite_key(match.group("kind"))
    return [_candidate("upsert", "preference", key, statement(clause.text, clause.lang), clause, 3, item=item)]


_PROJECT_HEAD = re.compile(
    r"项目|系统|应用|app|网站|小程序|平台|工具|插件|库|框架|游戏|小说|书|论文|博客|产品|引擎|数据库|编译器|服务|机器人|助手|模型|课程|播客"
    r"|房子|新房|公寓|厨房|卫生间"
    r"|\b(?:apps?|application|website|site|compiler|library|framework|tool|game|novel|book|thesis|dissertation|paper"
    r"|startup|extension|plugin|bot|engine|database|service|platform|api|backend|frontend|system|course|podcast"
    r"|album|project|model|package|sdk|cli|house|apartment|flat|kitchen|bathroom)\b",
    re.IGNORECASE,
)


def project(match: re.Match[str], clause: Clause) -> list[Candidate]:
    item = clean_item(match.group("item"), clause.lang)
    if not _PROJECT_HEAD.search(item):
        return []
    return [_candidate("upsert", "project", project_key(item), statement(clause.text, clause.lang), clause, 4)]


def _of_the_user(content: str, lang: Lang) -> str:
    """An English fact of the user's own item with the user's pronouns in the third person: "Avocados make my mouth
    itch" -> "Avocados make their mouth itch" (a memory is read by the assistant, to whom "my" is its own)."""
    if lang != "en":
        return content
    said = pronouns_in_the_third_person(content)
    return said[:1].upper() + said[1:]


def keyed_fact(prefix: str, importance: int, ttl_days: int | None = None, not_item: str | None = None) -> Build:
    """A fact under `<prefix>-<item slug>` (allergy-peanut, health-diabetes, pet-cat), one per item
    of a list: "对花生和虾过敏" is two allergies, each retracted or kept on its own. `not_item`: a
    word the list repeats after each item, removed from it ("a peanut allergy and a shellfish allergy")."""
    repeated = re.compile(rf"\s+(?:{not_item})$", re.IGNORECASE) if not_item else None

    def build(match: re.Match[str], clause: Clause) -> list[Candidate]:
        items = split_items(match.group("item"), clause.lang)
        if repeated:
            items = [repeated.sub("", item) for item in items]
        if len(items) <= 1:
            item = clean_item(match.group("item"), clause.lang)
            if not item or PRONOUN_ITEM.match(item):  # "I'm allergic to it": the item is elsewhere
                return []
            contents = {item: _of_the_user(statement(clause.text, clause.lang), clause.lang)}
        else:
            before, after = clause.text[: match.start("item")], clause.text[match.end("item") :]
            # 「我对芒果和菠萝都过敏」: each item alone is 「对芒果过敏」 (都 / 也 spoke of the list).
            after = re.sub(r"^(?:全都|都|也)", "", after) if clause.lang == "zh" else after
            contents = {item: statement(f"{before}{item}{after}", clause.lang) for item in items}
        by_key: dict[str, list[str]] = {}
        for item in contents:
            by_key.setdefault(f"{prefix}-{item_slug(item)}", []).append(item)
        return [
            _candidate(
                "upsert",
                "fact",
                key,
                # "I'm on blood thinners, warfarin every day": a drug named beside its kind is one fact, said whole.
                contents[same[0]] if len(same) == 1 else statement(clause.text, clause.lang),
                clause,
                importance,
                ttl_days,
                item=same[0],
            )
            for key, same in by_key.items()
        ]

    return build


def listed_fact(prefix: str, importance: int, mention: re.Pattern[str]) -> Build:
    """`keyed_fact` for every item of an English list whose items carry words of their own ("I have a
    dog named Max and a cat named Luna", "a cat, a dog named Rex"): each item's content is the words
    before the list and its own part ("Has a dog named Max", "Has a cat named Luna"), not the whole
    sentence under each key. `mention` finds where each item's part starts, its item in group `item`."""
    keyed = keyed_fact(prefix, importance)

    def build(match: re.Match[str], clause: Clause) -> list[Candidate]:
        mentions = list(mention.finditer(clause.text))
        listed = all(_LIST_JOINT_END.search(clause.text, 0, m.start()) for m in mentions[1:])
        if clause.lang != "en" or len(mentions) < 2 or not listed:  # "a dog named Max, he is a corgi": one dog
            return keyed(match, clause)
        lead = clause.text[: mentions[0].start()]
        found = []
        for this, following in zip(mentions, [*mentions[1:], None], strict=True):
            part = _LIST_JOINT.sub("", clause.text[this.start() : following.start() if following else None])
            own = replace(clause, text=lead + part)
            found.extend(keyed(mention.search(own.text, len(lead)), own))
        return found

    return build


# What ties one item's part to the next one's: ", and", " and", ",".
_LIST_JOINT = re.compile(r"(?:,?\s+and|,)?\s*$")
# A list goes on before each of its items: "…, a dog", "… and a cat".
_LIST_JOINT_END = re.compile(r"(?:,|\band)\s*$")


# What a clause says of a family member when it only points back at the sentence before:
# 「我是素食者，但是我老公不是」, "my wife does too". Its predicate is elsewhere; it says nothing alone.
_FAMILY_MEMBER = "|".join(FAMILY.values())
_NO_PREDICATE = {
    "zh": re.compile(
        r"^(?:我的?|我家)?(?:" + _FAMILY_MEMBER + r")?(?:也|都|倒|就|却|还)?(?:不是|是|不行|不|没有|没|一样|不一样)"
        r"(?:的|啊|呀|哦)?[。！!.]*$"
        # 「但是我老婆不喜欢」: a liking with its object in the sentence before.
        r"|^(?:我的?|我家)?(?:"
        + _FAMILY_MEMBER
        + r")(?:也|都|倒|就|却|还)?(?:不太|不怎么|不|很|特别|超)?(?:喜欢|爱|讨厌|能|敢)(?:吃|喝)?(?:的|啊|呀|哦)?[。！!.]*$"
    ),
    "en": re.compile(
        r"^(?:my (?:" + _FAMILY_MEMBER + r") )?(?:is|isn't|is not|does|doesn't|does not|did|didn't|has|hasn't|"
        r"too|neither|not|either|as well)(?: (?:too|either|as well|not))?[.!]*$"
        # "but my son hates it": the object is the sentence before.
        r"|^my (?:" + _FAMILY_MEMBER + r") (?:\w+ ){1,2}(?:it|that|them|this|those)(?: (?:too|either|as well))?[.!]*$"
        # "Here I am and my mom": a family member named alone, saying nothing of them.
        r"|^(?:and )?(?:my )?(?:" + _FAMILY_MEMBER + r")[.!]*$",
        re.IGNORECASE,
    ),
}


# A family member's one exchange with the user ("我妈刚给我打电话了", "my mom just called me") or where
# they are right now: news of the day, not a fact about them.
_ONE_OFF_EXCHANGE = re.compile(
    r"(?:刚|刚才|刚刚)(?:给我|跟我|和我)(?:打(?:了个?)?电话|发(?:了)?(?:消息|微信|信息)|说了)|(?:刚|刚才|刚刚)(?:问|骂|叫)我"
    r"|\bjust (?:called|texted|messaged|asked|told|yelled at) me\b"
    # … or where they are right now: "my wife is traveling", 「我老公出差了」.
    r"|\b(?:is|are|'s) (?:traveling|travelling|away|out of town|on a trip|asleep|sleeping|at work|busy)\b"
    r"|(?:出差|出门|睡觉|上班)了$|在(?:出差|睡觉|上班)$",
    re.IGNORECASE,
)


# The day an age was reached ("Son turned 6 yesterday"): the age lasts, the day does not, and without it the new
# age replaces the old one (`store._restated_part`).
_AGE_DAY = re.compile(
    r"(\b(?:is|turned|turns|just turned) \d+)(?: years? old)? (?:yesterday|today|last (?:week|month)|this (?:week|month))$",
    re.IGNORECASE,
)


def family_fact(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """A fact about a family member, appended under family-<group>; none when the clause only
    points back at what the sentence said before (`_NO_PREDICATE`)."""
    group = next((g for g in FAMILY if match.groupdict().get(g)), None) or clause.subject.partition(":")[2]
    if not group or _NO_PREDICATE[clause.lang].match(clause.text) or _ONE_OFF_EXCHANGE.search(clause.text):
        return []
    content = _AGE_DAY.sub(r"\1", statement(clause.text, clause.lang))
    key = f"family-{group.replace('_', '-')}"  # family-in-laws
    return [_candidate("append", "fact", key, content, clause, 4, LIFELONG_TTL_DAYS)]


# A rule that says nothing of its own: 「以后别这样」, 「以后帮我记住」 (this, that, to remember — what?).
_RULE_OF_NOTHING = re.compile(
    r"^(?:以后|今后|从现在(?:开始|起)|从今以后|请|都|你)*[，,]?(?:别|不要|帮我|记得|请|再)*"
    r"(?:这样|那样|这么做|那么做|这样做|那样做|记住|记着|记一下|这个|那个|这些|那些)(?:了|吧|哦|啊)?$"
)


# Only when a rule applies, with no rule after it: 「以后给我讲新概念的时候」 alone asks nothing.
_ONLY_A_CONDITION = re.compile(r"^[^，,。]*(?:的时候|的话|(?<![及准按临暂定随当那这平有小同])时)$")


def standing_rule(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """A standing rule in the user's words, keyed by what it is about; none for one that names nothing or only when
    it applies."""
    if _RULE_OF_NOTHING.match(clause.text) or _ONLY_A_CONDITION.match(clause.text):
        return []
    return [_candidate("upsert", "constraint", rule_key(clause.text), statement(clause.text, clause.lang), clause, 4)]


# Value checks of the slots.
_ZH_NOT_A_PLACE = re.compile(r"^(?:一|个|这|那|家|公司|学校|宿舍|酒店|附近|隔壁|楼)|[楼室栋]|单元|小区")
_CITIES = re.compile(
    r"^(?:北京|上海|广州|深圳|杭州|南京|苏州|成都|重庆|武汉|西安|天津|长沙|厦门|青岛|大连|沈阳|郑州|济南|合肥|福州|昆明"
    r"|香港|澳门|台北|东京|大阪|首尔|新加坡|纽约|伦敦|巴黎|柏林|硅谷)|[市省县]$"
)


_ZH_NOT_A_SCHOOL = re.compile(
    r"^(?:我|刚|刚刚|已经|才|去年|今年|前年|早就|大学|本科|研究生|硕士|博士|还没|没|快|马上|\d|[一二三四五六七八九十两几]+年)"
)


def zh_alma_mater(value: str) -> str | None:
    """The school of 「我是北大毕业的」; None for a time or a degree (「我刚毕业」, 「我去年本科毕业」)."""
    return None if _ZH_NOT_A_SCHOOL.search(value) else value


def zh_place(value: str) -> str | None:
    value = re.sub(r"(?:这边|那边|市区|附近|住|了|啦|来|去)+$", "", value)
    return None if _ZH_NOT_A_PLACE.search(value) else value


# "我在考虑换工作", "在努力工作": what sits between 在 and 工作 is an activity, not a workplace.
_ZH_NOT_AN_EMPLOYER = re.compile(
    r"考虑|打算|准备|想|找|换|忙|努力|认真|加班|学习|继续|开始|正在|专心|好好|拼命|远程|兼职"
)


# An employer of a kind, unnamed (「在一家创业公司上班」): 一 and 家 open no place otherwise (「在家上班」).
_ZH_EMPLOYER_OF_A_KIND = re.compile(
    r"^一家[^，。]{0,8}(?:公司|银行|医院|学校|工厂|企业|机构|律所|事务所|研究所|外企|国企|央企|初创|创业公司|媒体|出版社|酒店|餐厅|店|超市)$"
)


# A workplace by its kind alone (「在医院当护士」): no employer named; said alone (「我在医院上班」) it is all there is.
_ZH_WORKPLACE_KIND = re.compile(rf"^(?:{ZH_WORKPLACE_KINDS})里?$")


def zh_employer(value: str) -> str | None:
    """`value` when it names a workplace: not a city, an activity or a place no employer is (「家」, 「三楼」), nor a
    workplace's kind alone (「医院」)."""
    return (
        None
        if _CITIES.search(value)
        or _ZH_NOT_A_PLACE.search(value)
        or _ZH_NOT_AN_EMPLOYER.search(value)
        or _ZH_WORKPLACE_KIND.match(value)
        else value
    )


_ZH_SCHOOL_NAME = re.compile(r"(?:大学|学院|中学|小学|高中|初中|学校|附中|附小)$")


def zh_school(value: str) -> str | None:
    """`value` when it names a school: one named for its city (「北京大学」, 「厦门大学」) is one, a city alone
    (「厦门」, the city of a college) is not (`zh_employer`'s checks)."""
    return value if _ZH_SCHOOL_NAME.search(value) and not _ZH_NOT_A_PLACE.search(value) else zh_employer(value)


def zh_employer_or_kind(value: str) -> str | None:
    """`zh_employer`, or an employer of a kind (「一家创业公司」, 「医院」): said alone, where the place is
    all the user says of their work; beside an occupation (「在一家外企做财务」) the occupation says more."""
    of_a_kind = _ZH_EMPLOYER_OF_A_KIND.match(value) or _ZH_WORKPLACE_KIND.match(value)
    if of_a_kind and not _ZH_NOT_AN_EMPLOYER.search(value):
        return value
    return zh_employer(value)


def zh_known_city(value: str) -> str | None:
    """`value` when it names a city the rules know (a work city, a home): "三楼" is none."""
    return value if _CITIES.search(value) else None


_FREQUENCY_ZH = re.compile(
    r"每天|天天|每晚|每周|每个?月|每年|平时|平常|一般|通常|经常|常常|固定|周末|工作日|(?:(?:一|每)(?:个)?(?:星期|礼拜)|一周)(?![前后]|以[前后]|之[前后])"
)
_FREQUENCY_EN = re.compile(
    r"\b(?:every (?:day|morning|evening|night|week|weekend|(?:mon|tues|wednes|thurs|fri|satur|sun)day)|daily|weekly"
    r"|\w+ times a (?:day|week|month)|(?:on )?most weekends|on weekends|on (?:most )?(?:mon|tues|wednes|thurs|fri|satur|sun)days"
    r"|(?:on )?(?:mon|tues|wednes|thurs|fri|satur|sun)day (?:mornings|afternoons|evenings|nights)"
    r"|usually|often|regularly|(?:a|per|each) (?:day|week))\b",
    re.IGNORECASE,
)


# A time of the workday is a routine's when nothing names one day: 「我下班后去健身房」, "I go to the gym after work" (not
# 「我今天下班后去健身房」, "I'm going to the gym after work").
_WORKDAY_ROUTINE = re.compile(r"下班(?:以?后|之后)|\b(?:after|before) work\b", re.IGNORECASE)
_ONE_DAY = re.compile(r"今天|明天|今晚|\b(?:going to|gonna|will|today|tonight|tomorrow)\b|'ll\b", re.IGNORECASE)


# A reminder asked of the assistant: 「每周五提醒我健身」 is a standing rule, not a gym habit.
_REMINDER_ASKED = re.compile(r"提醒我|\bremind me\b", re.IGNORECASE)
# A plan or a wish for a day to come: 「周末想带朋友吃海鲜」, "this weekend I want to go hiking" (not 「想起」, 「想念」).
# Not "going to", which is as often where the user goes ("I'm going to yoga on Tuesdays").
_WISHED = re.compile(r"想(?![起念象法])|打算|\b(?:want|wanna|plan|planning|hope|hoping) to\b", re.IGNORECASE)


# Lexicon categories whose items are things one does or has regularly.
_HABIT_CATEGORIES = ("sport", "music", "habit", "drink", "food")
# What names a shop after what it sells (「我周末在咖啡店兼职」): the place, not a habit of coffee.
_SHOP = r"(?:店|馆|厅|铺| shop\b)"


def habit(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """A habit: a frequency word plus an activity the LEXICON knows ("周末我一般去爬山"); a
    reminder the user asks for at such times is not one, nor a shop named for it (「周末在咖啡店兼职」), nor what the user
    wants to do (「周末想带朋友吃海鲜」)."""
    if _REMINDER_ASKED.search(clause.text) or _WISHED.search(clause.text):
        return []
    often = (_FREQUENCY_ZH if clause.lang == "zh" else _FREQUENCY_EN).search(clause.text)
    if not often and not (_WORKDAY_ROUTINE.search(clause.text) and not _ONE_DAY.search(clause.text)):
        return []
    entries = [
        (slug, category)
        for slug, category, said in lexicon_mentions(clause.text)
        if category in _HABIT_CATEGORIES and not re.search(re.escape(said) + _SHOP, clause.text.casefold())
    ]
    if not entries:
        return []
    slug, category = entries[0]
    content = statement(clause.text, clause.lang)
    return [_candidate("upsert", "preference", f"{category}-{slug}", content, clause, 3)]


# A habit taken up as a switch from another: 「改喝茶」, 「换成喝茶」.
_SWITCH_WORD = re.compile(r"改|换成")
# Habits one cannot keep at once: 「最近开始早睡早起了」 ends 「是夜猫子」.
_OPPOSITE_HABITS = {"habit-early-rising": "habit-staying-up-late", "habit-staying-up-late": "habit-early-rising"}


def habit_taken_up(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """A habit the user has, started or took up again ("I started smoking again", 「我最近开始跑步了」,
    "I smoke"): an activity the LEXICON knows in `item`, under its key, so it lands where "I quit
    smoking" retired it. The object names it when a verb is an item too ("drinking coffee": coffee).
    Nothing for anything else started ("I started a new book")."""
    entries = [(s, c) for s, c in lexicon_entries(match.group("item")) if c in _HABIT_CATEGORIES]
    if not entries:
        return []
    slug, category = entries[-1]
    content = statement(clause.text, clause.lang)
    taken_up = _candidate("upsert", "preference", f"{category}-{slug}", content, clause, 3)
    taken_up.extra[TAKEN_UP] = True
    if taken_up.key in SWITCHED_AWAY and _SWITCH_WORD.search(match.group(0)):
        taken_up.extra[SWITCHED] = True  # 「我现在改喝茶了」: the tea replaces the held coffee
    opposite = _OPPOSITE_HABITS.get(taken_up.key)
    if opposite is None:
        return [taken_up]
    ends = _candidate("delete", "preference", opposite, content, clause, 3)
    ends.extra[IF_HELD] = True
    return [taken_up, ends]


# Devices, code editors, the daily hot drink and drugs of one use one uses one of: switching to one ends the other
# held ("I switched to a Mac" after "I use Windows", "I switched to Neovim" after "I use VS Code"), said only as a
# switch ("I also have a Mac" ends nothing). Refinement ends what is held (`engine._what_a_switch_replaces`).
SWITCHED_AWAY = {
    "device-mac": ("device-windows", "device-linux"),
    "device-windows": ("device-mac", "device-linux"),
    "device-linux": ("device-mac", "device-windows"),
    "device-iphone": ("device-android", "device-huawei-phone", "device-xiaomi-phone"),
    "device-android": ("device-iphone",),
    "device-huawei-phone": ("device-iphone", "device-xiaomi-phone"),
    "device-xiaomi-phone": ("device-iphone", "device-huawei-phone"),
}
# Laptops and watches: one of each is used at a time ("I ditched the Garmin, I track my runs on an Apple Watch now").
SWITCHED_AWAY.update(
    {
        "device-thinkpad": ("device-matebook", "device-mac"),
        "device-matebook": ("device-thinkpad", "device-mac"),
        "device-mac": (*SWITCHED_AWAY["device-mac"], "device-thinkpad", "device-matebook"),
        "device-garmin-watch": ("device-apple-watch", "device-fitbit"),
        "device-apple-watch": ("device-garmin-watch", "device-fitbit"),
        "device-fitbit": ("device-garmin-watch", "device-apple-watch"),
    }
)
# Code editors, under the keys their names get (`keys.liking_key`).
_EDITORS = tuple(
    f"preference-{name}"
    for name in "vs-code vscode neovim nvim vim emacs intellij pycharm sublime sublime-text zed".split()
)
SWITCHED_AWAY.update({editor: tuple(other for other in _EDITORS if other != editor) for editor in _EDITORS})
# Trying to conceive, once pregnant: 「我最近在备孕」 then 「我怀孕了！」.
SWITCHED_AWAY["health-pregnancy"] = ("health-trying-to-conceive",)
# The daily hot drink: 「我现在改喝茶了」 after 「我喜欢喝美式咖啡」 ends the coffee.
SWITCHED_AWAY.update({"drink-tea": ("drink-coffee",), "drink-coffee": ("drink-tea",)})
# Drugs of one use, under their `medication-<slug>` keys: "My doctor switched me to insulin" ends a held metformin.
_SAME_USE_MEDICATIONS = (
    ("metformin", "insulin", "diabetes-medication"),
    ("blood-pressure-medication", "lisinopril", "amlodipine", "losartan", "metoprolol"),
    ("statins", "atorvastatin", "simvastatin"),
    ("antidepressants", "sertraline", "fluoxetine", "escitalopram", "paroxetine"),
)
SWITCHED_AWAY.update(
    {
        f"medication-{drug}": tuple(f"medication-{other}" for other in use if other != drug)
        for use in _SAME_USE_MEDICATIONS
        for drug in use
    }
)
# A switch to one of these ends a held one of its use only when one is held: of two blood-pressure drugs the
# switch does not say which it replaces, and a drug wrongly ended is worse than one kept.
ENDS_ONLY_A_SINGLE_HELD = frozenset(key for key in SWITCHED_AWAY if key.startswith("medication-"))
# Marks a device or an editor said as switched to (`switched_to`), in Candidate.extra.
SWITCHED = "switched"


def switched_to(liking: Build) -> Build:
    """What `liking` reads from a switch ("I switched to Android", 「我换Mac了」), a device or an
    editor of `SWITCHED_AWAY` marked `SWITCHED` so refinement ends the held one it replaces."""

    def build(match: re.Match[str], clause: Clause) -> list[Candidate]:
        found = liking(match, clause)
        for candidate in found:
            if candidate.key in SWITCHED_AWAY:
                candidate.extra[SWITCHED] = True
        return found

    return build


_ROUTINE_BASE_FORM = {
    "going to bed": "go to bed",
    "going to sleep": "go to sleep",
    "waking up": "wake up",
    "getting up": "get up",
    "sleep": "go to sleep",  # "I sleep during the day now": a night worker's bedtime
}


# The hour of a routine: 「十一点」, 「凌晨两点」, "at 11", "at 10:30 pm".
_ZH_HOUR = re.compile(
    r"(?P<part>凌晨|半夜|夜里|早上|早晨|上午|中午|下午|晚上)?(?P<hour>\d{1,2}|[一二三四五六七八九十两]{1,3})(?:点|:)"
)
_EN_HOUR = re.compile(
    r"\bat (?:around |about )?(?P<hour>\d{1,2}|midnight)(?::\d\d)?\s*(?P<part>am|pm|a\.m\.|p\.m\.)?", re.IGNORECASE
)
_ZH_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}


def _number_said(said: str) -> int:
    """A number said in digits or in Chinese numerals (`_zh_amount`): 「十一」 is 10 + 1, 「二十」 2 × 10 (an hour, a head
    count); 0 for neither."""
    return int(said) if said.isdigit() else _zh_amount(said) or 0


_EN_COUNTS = {
    word: str(n) for n, word in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())
}


# How well the user speaks a language, one word per level, so that the ways of saying one level are one text and another
# level another value: 「英语不太好」 / 「英语一般」 / 「英文不太行」, "My English isn't very good" / "…is pretty basic". First
# match wins ("not very good" is basic before "good" is good).
# A level of the European framework, said as it is: 「法语水平：A2」, "Speaks A2-level French".
_CEFR_LEVEL = re.compile(r"\b[ABC][12]\b|(?<![A-Za-z])[ABC][12](?![0-9])", re.IGNORECASE)
_LANGUAGE_LEVELS = (
    (re.compile(r"流利|是母语|fluent|bilingual|proficient", re.IGNORECASE), "流利", "fluent"),
    (re.compile(r"conversational", re.IGNORECASE), "能日常交流", "conversational"),
    (re.compile(r"生疏|rusty", re.IGNORECASE), "生疏了", "rusty"),
    # "Not bad" is no poor level: it is read as basic below.
    (re.compile(r"很差|比较差|^不好|^不行|很烂|(?<!not )\b(?:bad|poor|terrible|weak)\b", re.IGNORECASE), "差", "poor"),
    (
        re.compile(r"不太|一般|马马虎虎|凑合|还行|还可以|basic|limited|\bnot\b|\bok\b|okay|decent", re.IGNORECASE),
        "一般",
        "basic",
    ),
    (re.compile(r"很好|挺好|不错|good|great", re.IGNORECASE), "好", "good"),
)
# A language named with 文 is the one named with 语: 「英文」 is 「英语」.
_ZH_LANGUAGE_IN_WRITING = re.compile(r"(?<=[英日韩法德俄])文$")


def language_level(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """How well the user speaks the language of the named group `item`, at the level the group `level` says (a word,
    or an A1-C2 level as said), under `language-<language>` (`keys.language_key`): 「英语水平：一般」, "Speaks basic
    English", 「法语水平：A2」; nothing for a level not known."""
    said = re.sub(r"\bisn't\b|'s not\b", "is not", match.group("level"))
    cefr = _CEFR_LEVEL.search(said)
    level = (cefr.group(0).upper(), f"{cefr.group(0).upper()}-level") if cefr else None
    level = level or next(((zh, en) for words, zh, en in _LANGUAGE_LEVELS if words.search(said)), None)
    if level is None:
        return []
    language = match.group("item")
    if clause.lang == "zh":
        language = _ZH_LANGUAGE_IN_WRITING.sub("语", language)
        content = f"{language}水平：{level[0]}"
    else:
        content = f"Speaks {level[1]} {language[:1].upper()}{language[1:]}"
    return [_candidate("upsert", "fact", language_key(language), content, clause, 3, item=language)]


def count_in_digits(value: str) -> str | None:
    """A count in digits, a team's head count or hours of sleep ("five" -> "5", 「十二」 -> "12"), so one count said two
    ways is one value and another count another; None for a count not said as a number ("a few")."""
    value = value.lower()
    if value.isdigit():
        return value
    if re.fullmatch(r"[一二两三四五六七八九十]{1,3}", value):
        return str(_number_said(value))
    return _EN_COUNTS.get(value)


_ZH_MAGNITUDES = {"十": 10, "百": 100, "千": 1000, "万": 10_000}


def _zh_amount(said: str) -> int | None:
    """A whole amount in Chinese numerals up to 万: 「五千」 -> 5000, 「一万二」 -> 12000, 「八百五十」 -> 850; None when
    not one."""
    total, section, digit, last_magnitude = 0, 0, None, 1
    for char in said:
        if char in _ZH_DIGITS and char != "十":
            digit = _ZH_DIGITS[char]
        elif char in _ZH_MAGNITUDES:
            magnitude = _ZH_MAGNITUDES[char]
            if magnitude == 10_000:
                total, section = (total + section + (digit or 0)) * magnitude, 0
            else:
                section += (digit if digit is not None else 1) * magnitude
            digit, last_magnitude = None, magnitude
        elif char == "零":
            digit, last_magnitude = None, 10
        else:
            return None
    if digit is not None:
        # 「一万二」 is 12000, 「三千五」 3500: a digit after a magnitude counts the next one down.
        section += digit * (last_magnitude // 10 if last_magnitude >= 100 and said[-1] != "零" else 1)
    return total + section


def amount_in_digits(value: str) -> str | None:
    """An amount in digits, its currency sign kept: 「五千」 -> "5000", 「一万」 -> "10000", "10,000" -> "10000",
    "10k" -> "10000", "$2,000" -> "$2000", "30 grand" -> "$30000"; None for an amount not said as a number ("a lot")."""
    value = value.strip().replace(",", "").replace("，", "")
    if grand := re.fullmatch(r"(\d+) grand", value):
        value = f"${grand[1]}k"  # "30 grand" is dollars (or pounds) in thousands; said with "$30k" it is one amount
    sign = value[0] if value[:1] in "$€£¥" else ""
    number = value[len(sign) :]
    if re.fullmatch(r"\d+(?:\.\d+)?[kK]", number):
        return f"{sign}{round(float(number[:-1]) * 1000)}"
    if re.fullmatch(r"\d+", number):
        return f"{sign}{number}"
    said = _zh_amount(number) if number else None
    return f"{sign}{said}" if said else None


def amount_slot(key: str, templates: dict[str, str]) -> Slot:
    """A fact slot of one amount of money (`amount_in_digits`), worded by `templates`: another amount is a new value."""
    return Slot("fact", key, templates, clean=amount_in_digits)


def floor_number(value: str) -> str | None:
    """The floor a home is on, in digits: 「六」 -> "6", "6th" -> "6", "sixth" -> "6"; None for a floor not said as a number."""
    value = re.sub(r"(?<=\d)(?:st|nd|rd|th)$", "", value.lower())
    return str(EN_ORDINALS[value]) if value in EN_ORDINALS else count_in_digits(value)


# A race by its names, as its best time is keyed (`running-best-<race>`) and said.
_RACES = (
    (re.compile(r"半马|半程马拉松|half[- ]marathon", re.IGNORECASE), "half-marathon", "半马", "half marathon"),
    (re.compile(r"全马|全程马拉松|马拉松|marathon", re.IGNORECASE), "marathon", "全马", "marathon"),
)
# A race time in hours and minutes (seconds kept where said): 「三小时五十分」, 「3小时50分钟」, 「三个半小时」, "3:50",
# "3:50:12", "3 hours 50 minutes", "four hours".
_RACE_TIME = re.compile(
    r"^(?P<hours>\d|[一二两三四五六]|one|two|three|four|five|six) ?(?:个)?(?P<half>半)?(?:小时|时|hours?|hrs?)"
    r"(?:,? ?(?:and )?(?P<minutes>\d{1,2}|[一二三四五六七八九十]{1,3}) ?(?:分钟?|minutes?|mins?)?)?"
    r"(?:,? ?(?:and )?(?P<seconds>\d{1,2}|[一二三四五六七八九十]{1,3}) ?(?:秒|seconds?|secs?))?$"
    r"|^(?P<clock_hours>\d):(?P<clock_minutes>[0-5]\d)(?::(?P<clock_seconds>[0-5]\d))?$",
    re.IGNORECASE,
)


def _said_in(time: re.Match[str], unit: str) -> str:
    """The `unit` (hours, minutes, seconds) of a `_RACE_TIME` match as said, on a clock or in words; "0" when not said."""
    return time.group(f"clock_{unit}") or time.group(unit) or "0"


def race_best(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """The user's best time in the race the named group `race` names, the time from the group `time`, said one way
    under `running-best-<race>`: 「全马最好成绩3小时50分」, "Best marathon time: 3:50"; nothing for a time not read."""
    race = next((known for known in _RACES if known[0].search(match.group("race"))), None)
    time = _RACE_TIME.match(match.group("time").strip())
    if race is None or time is None:
        return []
    h, m, sec = (int(count_in_digits(_said_in(time, unit)) or 0) for unit in ("hours", "minutes", "seconds"))
    m = 30 if time.group("half") else m
    if clause.lang == "zh":
        said = f"{h}小时" + (f"{m}分" if m else "") + (f"{sec}秒" if sec else "")
        content = f"{race[2]}最好成绩{said}"
    else:
        content = f"Best {race[3]} time: {h}:{m or 0:02d}" + (f":{sec:02d}" if sec else "")
    return [_candidate("upsert", "fact", f"running-best-{race[1]}", content, clause, 3)]


# A short duration in Chinese: 「半小时」, 「一个半小时」, 「二十分钟」 (`minutes_said`; the value of the rules of a nap's or a
# commute's length).
ZH_DURATION = (
    r"(?:(?P<hours>\d{1,2}|[一二两三四五六七八九十]{1,3})个?(?P<and_half>半)?(?:小时|钟头)|(?P<half>半)个?(?:小时|钟头)"
    r"|(?P<minutes>\d{1,3}|[一二两三四五六七八九十]{1,3})分钟)"
)
_ZH_DURATION = re.compile(rf"^{ZH_DURATION}$")
_EN_DURATION = re.compile(
    r"^(?:(?P<half>half an hour|half-hour|a half hour)|(?P<hours>an|one|1|two|2)[- ]hours?|(?P<minutes>\d{1,3}|"
    + "|".join(_EN_COUNTS)
    + r")[- ]min(?:ute)?s?)$",
    re.IGNORECASE,
)


def minutes_said(value: str) -> str | None:
    """A short duration in minutes, in digits: 「半小时」 / 「半个小时」 / "half an hour" -> "30", 「二十分钟」 / "20-minute" ->
    "20", 「一个半小时」 -> "90"; None for a duration not read."""
    said = _ZH_DURATION.match(value) or _EN_DURATION.match(value)
    if said is None:
        return None
    if said.group("half"):
        return "30"
    if said.group("minutes"):
        return count_in_digits(said.group("minutes"))
    hours = 1 if said.group("hours").lower() in ("an", "one") else int(count_in_digits(said.group("hours")) or 0)
    return str(hours * 60 + (30 if said.groupdict().get("and_half") else 0))


# A device's full name, however short it was said: "Pixel" is the "Google Pixel".
_DEVICE_FULL_NAMES = (
    (re.compile(r"^(?:Google )?Pixel\b"), "Google Pixel"),
    (re.compile(r"^(?:Samsung )?Galaxy\b"), "Samsung Galaxy"),
)


def device_used(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """The device of the group `item` the user uses, under its key (`liking_key`: device-pixel), said one way: "Uses a
    Google Pixel" ("I use a Google Pixel phone", "My phone is a Google Pixel", "I'm on a Pixel"), 「用ThinkPad」."""
    item = match.group("item").strip()
    item = item if item.startswith("Android") else re.sub(r" phone$", "", item)
    for short, full in _DEVICE_FULL_NAMES:
        item = short.sub(full, item)
    article = "an" if item[:1].lower() in "aeiou" else "a"
    content = f"用{item}" if clause.lang == "zh" else f"Uses {article} {item}"
    return [_candidate("upsert", "preference", liking_key(item), content, clause, 3, item=item)]


# What a drink is had instead of, by one name: soda, pop, coke and fizzy drinks are soft drinks.
_SOFT_DRINKS = re.compile(r"^(?:soda|sodas|pop|coke|fizzy drinks|soft drinks|sugary drinks)$", re.IGNORECASE)


def drunk_instead(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """A drink of the group `item` the LEXICON knows, had instead of the group `instead`, said one way under the
    drink's key: "Drinks sparkling water instead of soft drinks"; nothing for what is not a known drink."""
    drinks = [slug for slug, category, _ in lexicon_mentions(match.group("item")) if category == "drink"]
    if not drinks:
        return []
    item, instead = match.group("item").strip().lower(), match.group("instead").strip().lower()
    instead = "soft drinks" if _SOFT_DRINKS.match(instead) else instead
    content = f"Drinks {item} instead of {instead}"
    return [_candidate("upsert", "preference", f"drink-{drinks[0]}", content, clause, 3, item=item)]


_ZH_JOBS_BY_WHAT_IS_DONE = {"跑外卖": "外卖骑手", "送外卖": "外卖骑手", "外卖员": "外卖骑手", "送快递": "快递员"}
_ZH_JOBS_BY_WHAT_IS_DONE |= {"跑滴滴": "网约车司机", "开滴滴": "网约车司机"}


def zh_job_named(value: str) -> str:
    """A job said by what is done, named: 「跑外卖」 -> 「外卖骑手」; any other job as said."""
    return _ZH_JOBS_BY_WHAT_IS_DONE.get(value, value)


# A car model said without its make: "2016 Civic" is a Honda's.
_CAR_MODEL_MAKES = {
    "civic": "Honda", "accord": "Honda", "cr-v": "Honda", "camry": "Toyota", "corolla": "Toyota", "rav4": "Toyota",
    "prius": "Toyota", "f-150": "Ford", "mustang": "Ford", "outback": "Subaru", "forester": "Subaru",
    "model 3": "Tesla", "model y": "Tesla", "model s": "Tesla", "model x": "Tesla",
}  # fmt: skip
_CAR_MODEL = re.compile(
    r"(?P<year>(?:19|20)\d\d )?(?P<model>" + "|".join(map(re.escape, _CAR_MODEL_MAKES)) + r")\b", re.IGNORECASE
)


def car_named(value: str) -> str:
    """A car with its make, "now" left out: "2016 Civic" -> "2016 Honda Civic", "Tesla Model 3 now" -> "Tesla Model 3"."""
    value = re.sub(r"\s+now$", "", value.strip())
    found = _CAR_MODEL.fullmatch(value)
    if found is None:
        return value
    return f"{found['year'] or ''}{_CAR_MODEL_MAKES[found['model'].lower()]} {found['model']}"


_ZH_ROOMS = {
    "一": "一",
    "1": "一",
    "两": "两",
    "二": "两",
    "2": "两",
    "三": "三",
    "3": "三",
    "四": "四",
    "4": "四",
    "五": "五",
}
_EN_BEDROOMS = {"one": "one", "1": "one", "two": "two", "2": "two", "three": "three", "3": "three", "four": "four"}


def home_size(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """The size of the user's home, from the groups `area` (平 / square feet, in digits) and `rooms`, said one way under
    `home-size`: 「住89平的两居室」, "Lives in a 650 sq ft one-bedroom"; nothing for a count of rooms not read."""
    rooms = (_ZH_ROOMS if clause.lang == "zh" else _EN_BEDROOMS).get(match.group("rooms").lower())
    if rooms is None:
        return []
    area = match.group("area")
    content = f"住{area}平的{rooms}居室" if clause.lang == "zh" else f"Lives in a {area} sq ft {rooms}-bedroom"
    return [_candidate("upsert", "fact", "home-size", content, clause, 3)]


def instrument_years(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """How long the user has played the instrument of the group `item`, from the group `years`, said one way under its
    key (`liking_key`: music-erhu): 「拉二胡10年了」, "Has played the piano for 10 years"."""
    years = count_in_digits(match.group("years"))
    if years is None:
        return []
    item = match.group("item")
    verb = {"二胡": "拉", "小提琴": "拉", "大提琴": "拉", "笛子": "吹", "萨克斯": "吹", "架子鼓": "打"}.get(item, "弹")
    content = f"{verb}{item}{years}年了" if clause.lang == "zh" else f"Has played the {item.lower()} for {years} years"
    return [_candidate("upsert", "preference", liking_key(item), content, clause, 3, item=item)]


def drinking_limit(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """How much of the drink of the group `drink` the user can have, from the groups `value` and `unit`, said one way
    under `drink-alcohol-limit`: 「白酒最多喝2两」."""
    amount = count_in_digits(match.group("value"))
    if amount is None:
        return []
    content = f"{match.group('drink')}最多喝{amount}{match.group('unit')}"
    return [_candidate("upsert", "fact", "drink-alcohol-limit", content, clause, 3)]


def reading_device(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """The device the user reads books on, named by the group `item`, under its key (`liking_key`: device-kindle), said
    one way: "Reads books on a Kindle" ("I read all my books on a Kindle", "My Kindle is what I use for reading")."""
    item = match.group("item")
    article = "an" if item[:1].lower() in "aeiou" else "a"
    content = f"Reads books on {article} {item}"
    return [_candidate("upsert", "preference", liking_key(item), content, clause, 3, item=item)]


def frequency_changed(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """How often the user does the activity of the group `item` now, from the group `often`, under the activity's key
    (`liking_key`): "I've bumped pickleball up to four times a week" -> "Pickleball four times a week now"."""
    item = match.group("item").strip()
    content = f"{item[:1].upper()}{item[1:]} {match.group('often').strip()} now"
    return [_candidate("upsert", "preference", liking_key(item), content, clause, 3, item=item)]


def smoking_quit_years_ago(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """Smoking given up the group `value` years ago: the end of the habit held (as 「我戒烟了」), and the user a former
    smoker, said one way (`trait-former-smoker`: 「3年前戒了烟」, "Quit smoking 3 years ago")."""
    years = count_in_digits(match.group("value"))
    if years is None:
        return []
    content = f"{years}年前戒了烟" if clause.lang == "zh" else f"Quit smoking {years} years ago"
    ended = _candidate("delete", "preference", "habit-smoking", content, clause, 3)
    return [ended, _candidate("upsert", "fact", "trait-former-smoker", content, clause, 3, LIFELONG_TTL_DAYS)]


# An English dose: digits and a unit, spaced or not ("10 mg", "10mg"; stored as "10 mg"). A Chinese one is counted in
# tablets, 粒 and 颗 stored as 片 (`table`'s dose rules read all three).
_EN_DOSE = re.compile(r"^(?P<amount>\d+(?:\.\d+)?)\s*(?P<unit>mg|mcg|µg|ml|units?|iu)$", re.IGNORECASE)
# A dose taken more than once a day, said one way: "twice a day" / "2 times daily".
_EN_TIMES_A_DAY = {"twice": "twice ", "2 times": "twice ", "three times": "three times ", "3 times": "three times "}
# The Chinese units of a dose counted in tablets (「两片」 / 「两粒」 are one dose), and the counts said in words.
_ZH_TABLETS = ("片", "粒", "颗")
_ZH_TABLET_COUNTS = {"1": "一", "2": "两"}


_COMMUTE_VERBS = {
    **dict.fromkeys(("drive", "car"), "Drives"),
    **dict.fromkeys(("bike", "bicycle", "cycle"), "Bikes"),
    **dict.fromkeys(("walk", "foot"), "Walks"),
    **dict.fromkeys(("scooter", "motorcycle"), "Rides a {mode}"),
}


_DATE_ORDERS = {
    "day/month/year": "DD/MM/YYYY",
    "month/day/year": "MM/DD/YYYY",
    "年-月-日": "YYYY-MM-DD",
    "日/月/年": "DD/MM/YYYY",
}


def date_format(value: str) -> str:
    """A date format said one way: "day/month/year" and "dd/mm/yyyy" -> "DD/MM/YYYY"."""
    return _DATE_ORDERS.get(value.lower(), value.upper())


def commute_mode(value: str) -> str:
    """How the user gets to work, said one way: "car" and "drive" -> "Drives", "ferry" -> "Takes the ferry"."""
    mode = value.lower()
    return _COMMUTE_VERBS.get(mode, "Takes the {mode}").format(mode=mode)


def medication_dose(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """A drug taken daily at a dose, said one way (「每天吃一片氯雷他定」, 「每天打14个单位胰岛素」, "Takes lisinopril, 10 mg
    a day", "Takes metformin, 500 mg twice a day") under `medication-<item>`, so that the same dose said again is a
    repeat and another dose a new value; nothing for a dose not said in digits (English) or in tablets, units or
    milligrams (Chinese)."""
    item = clean_item(match.group("item"), clause.lang)
    if not item:
        return []
    said = match.group("dose")
    if clause.lang == "zh":
        count = "半" if said == "半" else count_in_digits(said)
        if count is None:
            return []
        unit = match.groupdict().get("unit") or "片"
        if unit in _ZH_TABLETS:
            content = f"每天吃{_ZH_TABLET_COUNTS.get(count, count)}片{item}"
        elif unit.endswith("单位"):
            content = f"每天打{count}个单位{item}"
        else:
            content = f"每天吃{count}{'毫克' if unit == 'mg' else unit}{item}"
    else:
        dose = _EN_DOSE.match(said)
        if not dose:
            return []
        times = _EN_TIMES_A_DAY.get((match.groupdict().get("times") or "").lower(), "")
        content = f"Takes {item.lower()}, {dose['amount']} {dose['unit'].lower()} {times}a day"
    return [_candidate("upsert", "fact", f"medication-{item_slug(item)}", content, clause, 5, item=item)]


def medication_switched(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """One drug put in place of another (「医生让我把氯雷他定换成西替利嗪了」, "My doctor switched me from X to Y"): the end
    of `from`'s memory and `item`'s taken, said one way."""
    old, new = (clean_item(match.group(group), clause.lang) for group in ("from", "item"))
    if not old or not new:
        return []
    content = f"{old}换成了{new}" if clause.lang == "zh" else f"Switched from {old} to {new}"
    ended = _candidate("delete", "fact", f"medication-{item_slug(old)}", content, clause, 5, item=old)
    taken = f"在吃{new}" if clause.lang == "zh" else f"Takes {new}"
    return [ended, _candidate("upsert", "fact", f"medication-{item_slug(new)}", taken, clause, 5, item=new)]


def _hour_said_one_way(value: str, *, part_of_day: bool = True) -> str:
    """An hour in digits: "8 pm" -> "8pm", 「晚上八点」 -> 「晚上8点」 (-> 「8点」 without `part_of_day`)."""
    if not has_han(value):
        return re.sub(r"(\d) (am|pm)\b", r"\1\2", value, flags=re.IGNORECASE)
    return _ZH_HOUR.sub(
        lambda found: f"{(found.group('part') or '') if part_of_day else ''}{_number_said(found.group('hour'))}点",
        value,
    )


def eating_cutoff(value: str) -> str:
    """When the user stops eating, said one way: 「晚上八点」 -> 「晚上8点以后」, 「晚饭」 -> 「晚饭以后」, 「睡觉前」 -> 「睡前」,
    "8 pm" -> "8pm" (a paraphrase of one hour reads as a repeat, another hour as another value)."""
    if value in ("睡前", "睡觉前"):
        return "睡前"
    value = _hour_said_one_way(value)
    return f"{value}以后" if has_han(value) else value


def work_start(value: str) -> str:
    """When the user starts work, said one way: "at 7 in the morning" / "at 7 am" -> "at 7am", "about 9am" -> "around
    9am", 「早上八点」 -> 「8点」 (a morning's hour read without its part of the day)."""
    value = re.sub(r"\s*in the morning\b", "am", value, flags=re.IGNORECASE)
    return _hour_said_one_way(re.sub(r"^about\b", "around", value, flags=re.IGNORECASE), part_of_day=False)


def work_end(value: str) -> str:
    """When the user gets off work, said one way: 「晚上十点以后」 / 「十点之后」 -> 「10点以后」 (an evening's hour read
    without its part of the day), "around 6 pm" -> "around 6pm", "about 6pm" -> "around 6pm"."""
    value = _hour_said_one_way(re.sub(r"^about\b", "around", value, flags=re.IGNORECASE), part_of_day=False)
    return re.sub(r"(?:之后|以后|后)$", "以后", value) if has_han(value) else value


def _bedtime_hour(text: str, lang: Lang) -> int | None:
    """The hour (0-23) a bedtime names, an hour without a part of the day read as a bedtime's
    (8-11 the evening, 12 midnight, 1-7 the small hours); None when no hour is named."""
    found = (_ZH_HOUR if lang == "zh" else _EN_HOUR).search(text)
    if not found:
        return None
    if found.group("hour").lower() == "midnight":
        return 0
    hour = _number_said(found.group("hour"))
    part = (found.group("part") or "").lower().replace(".", "")
    if part == "晚上" and hour <= 5:
        return hour  # 「晚上一点」: one in the night
    if part in ("pm", "晚上", "下午") and hour < 12:
        return hour + 12
    if part in ("am", "凌晨", "半夜", "夜里", "早上", "早晨", "上午"):
        return hour % 12
    if hour > 23:
        return None
    return hour + 12 if 8 <= hour <= 11 else 0 if hour == 12 else hour


# A bedtime ends the sleep habit it contradicts, where held: going to bed at 11 is no night owl's, at
# 2am no early riser's (「最近改作息了，每天十一点就睡」 after 「我是夜猫子」).
_EARLY_BEDTIME_ENDS, _LATE_BEDTIME_ENDS = "habit-staying-up-late", "habit-early-rising"


def timed_habit(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """A daily routine at a time ("I usually wake up at 5:30") under preference-<activity>; a bedtime
    also ends, where held, the sleep habit its hour contradicts."""
    activity = match.group("item").lower()
    activity = _ROUTINE_BASE_FORM.get(activity, activity)  # "started going to bed at 11": the bedtime
    content = statement(clause.text, clause.lang)
    # A habit the lexicon knows is keyed as said any other way (「每天冥想」: habit-meditation); a routine by its slug.
    habit_of = [slug for slug, category in lexicon_entries(activity) if category == "habit"]
    key = f"habit-{habit_of[0]}" if habit_of else f"preference-{item_slug(activity)}"
    routine = _candidate("upsert", "preference", key, content, clause, 3)
    hour = _bedtime_hour(clause.text, clause.lang) if routine.key == "preference-bedtime" else None
    ended = _EARLY_BEDTIME_ENDS if hour is not None and 20 <= hour <= 23 else None
    ended = _LATE_BEDTIME_ENDS if hour is not None and 1 <= hour <= 5 else ended
    if ended is None:
        return [routine]
    ends = _candidate("delete", "preference", ended, content, clause, 3)
    ends.extra[IF_HELD] = True
    return [routine, ends]


def slots(*fills: Build) -> Build:
    """Every slot filled, or retired, from one match: "在成都工作和生活" is both the work city and
    the residence; "I'm divorced" retires the partner and states the relationship."""

    def build(match: re.Match[str], clause: Clause) -> list[Candidate]:
        return [candidate for fill in fills for candidate in fill(match, clause)]

    return build


def keyed_retirement(prefix: str) -> Build:
    """op=delete on the `keyed_fact` of the named item ("My dog passed away" retires pet-dog)."""

    def build(match: re.Match[str], clause: Clause) -> list[Candidate]:
        item = clean_item(match.group("item"), clause.lang)
        content = statement(clause.text, clause.lang)
        return [_candidate("delete", "fact", f"{prefix}-{item_slug(item)}", content, clause, 3, item=item)]

    return build


def named_retirement(*keys: str, item: str | None = None, unless: str | None = None, one_of: bool = False) -> Build:
    """op=delete on each key of `keys`, kept by refine only where the one memory held there names the
    matched `item` (`IF_NAMED`; refine gives the delete that memory's key and type): 「我已经不在字节了」
    ends the employer 「在字节工作」, 「我已经不在北京了」 the city 「住在北京」. A key ending in "-" stands for any
    key of that prefix: "Rex died" ends whichever `pet-…` memory names Rex (the candidate's own key,
    `pet-rex`, is only a placeholder). A fixed `item` is what the memory must name whatever the match
    ("I graduated" ends an occupation naming "student"); an empty one ends the one memory held there
    (「我已经停药了」 and a single `medication-…`). A memory that says `unless` (a pattern) is not the one.
    `one_of`: one delete, of the one memory naming the item under any of `keys` (what the user
    switched from is one thing: 「从苹果换成安卓」 ends the phone, or the fruit liked, never both)."""
    return _on_named_memory("delete", keys, item, unless, importance=3, one_of=one_of)


def named_restatement(*keys: str, item: str | None = None, importance: int = 5) -> Build:
    """op=upsert of the statement on the one memory held under `keys` that names the matched `item`,
    as `named_retirement` finds it; nothing when there is none. The new state of what that memory
    said, kept where it was: 「我血压已经正常了」 rewrites 「有高血压」 (still a health fact: the reading may
    be the medication's), where a delete would lose the condition and a new key would keep both."""
    return _on_named_memory("upsert", keys, item, None, importance=importance)


def _on_named_memory(
    op: Op, keys: tuple[str, ...], item: str | None, unless: str | None, importance: int, one_of: bool = False
) -> Build:
    where: list[str | list[str]] = [list(keys)] if one_of else list(keys)

    def build(match: re.Match[str], clause: Clause) -> list[Candidate]:
        named = item if item is not None else match.group("item")
        content = statement(clause.text, clause.lang)
        found = []
        for keys_of_one in where:
            key = keys_of_one[0] if isinstance(keys_of_one, list) else keys_of_one
            own_key = f"{key}{item_slug(named)}" if key.endswith("-") else key
            candidate = _candidate(op, "fact", own_key, content, clause, importance, item=named)
            candidate.extra[IF_NAMED] = keys_of_one
            if unless:
                candidate.extra[UNLESS_NAMED] = unless
            found.append(candidate)
        return found

    return build


def slot_retirement(memory_type: str, key: str, *, if_held: bool = False) -> Build:
    """op=delete on a fixed slot ("I quit my job" retires the employer); `if_held` when the clause
    says something else and retires the slot as its consequence ("I'm divorced" retires the partner)."""

    def build(match: re.Match[str], clause: Clause) -> list[Candidate]:
        delete = _candidate("delete", memory_type, key, statement(clause.text, clause.lang), clause, 3)
        if if_held:
            delete.extra[IF_HELD] = True
        return [delete]

    return build
