"""The offline extraction engine: Chinese and English patterns, no model (SPEC R-LLM-2).

Reading a message
-----------------
The message is cut into sentences (。！？!?；; newline) and clauses (，, and English ", "
before a new subject); quoted text is removed first (a sentence to translate is not a
statement of the user). A clause is skipped when it is a question, is about the current
exchange only ("用英文回答这个问题"), is said about someone else ("我朋友…", "my colleague…"), or
`filters.text_drop_reason` rejects it; a one-off task ("帮我…", "write me…") is read for standing
rules only, and an item pointing at the conversation ("I like that idea", "第二个方案") is a
reaction, not a preference. A short time window (今晚, tomorrow, 这周…) taints its clause and
every later clause of the sentence, so "这周我在减肥，别给我推荐甜点" yields nothing. The rules
below are then tried on each clause.

Key scheme (stable keys are what make overwrite and retirement work)
--------------------------------------------------------------------
Single-valued slots — the same key for every new value, op=upsert overwrites the old one:
    fact:        residence-city, work-city, hometown, nationality, occupation, employer, diet,
                 birthday, timezone, native-language, spoken-languages, education-major,
                 commute, vehicle
    constraint:  reply-language, reply-length, reply-format, reply-emoji, code-language,
                 code-comment-language
    preference:  reply-style (the seed files "偏好简洁回复风格" under preference)
One key per item for the multi-valued kinds, so distinct likes never overwrite each other:
    preference   <category>-<item>      drink-milk-tea, food-sichuan-cuisine, sport-hiking;
                 preference-<item>      when the item is not in LEXICON
    fact         allergy-<item>, health-<item>, trait-<item>, pet-<species>, business-<item>
    goal         goal-<item>            goal-jlpt-n1, goal-marathon
    project      project-<item>         project-pai, project-rust-compiler
    constraint   rule-<item words>      rule-rain-umbrella (a standing conditional rule)
Family facts accumulate with op=append under family-partner, family-children,
family-parents, family-siblings.

<item> is the item's slug: the LEXICON entry the item names (both languages map to one
slug, so "I love milk tea" and 我不喝奶茶了 meet on drink-milk-tea), else the item's ASCII
words, else a short hash of its normalized Chinese text (the same words, the same key).
A like and a dislike of one item share the key: the later statement overwrites the earlier.
A retirement ("我不喝奶茶了", "I don't drink milk tea anymore", "我放弃考N1了") is op=delete
on exactly the key the positive statement would have used.

Content is the user's statement in the user's language: the clause without its leading
"我" in Chinese ("喜欢吃川菜"), in the third person in English ("Loves Thai food"); slot facts
use a short template around the value ("住在上海", "Lives in Berlin").
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from config.settings import get_settings
from memory_tasks.extraction.candidates import Candidate, Op
from memory_tasks.extraction.filters import drop_reason, is_trivial, short_window, text_drop_reason
from memory_tasks.extraction.types import ExistingMemory, TurnContext

Lang = Literal["zh", "en"]

# Days to keep lifelong facts; None leaves the configured default TTL.
LIFELONG_TTL_DAYS = 3650
# Confidence of an explicit first-person statement, and of a hedged one ("可能", "I think"):
# the hedged one falls under LONG_TERM_MEMORY_MIN_CONFIDENCE (0.75) on purpose.
CONFIDENT = 0.9
HEDGED = 0.6

# --- the item lexicon -------------------------------------------------------------------
# (slug, category, surface forms in both languages). Categories prefix preference keys.
LEXICON: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("sichuan-cuisine", "food", ("川菜", "sichuan food", "sichuan cuisine", "szechuan food")),
    ("cantonese-cuisine", "food", ("粤菜", "cantonese food")),
    ("thai-food", "food", ("泰国菜", "thai food")),
    ("hotpot", "food", ("火锅", "hotpot", "hot pot")),
    ("spicy-food", "food", ("辣", "辣的", "吃辣", "spicy food", "spicy")),
    ("salty-food", "food", ("咸", "太咸", "salty food")),
    ("sweets", "food", ("甜食", "甜点", "sweets", "desserts")),
    ("cilantro", "food", ("香菜", "cilantro", "coriander")),
    ("seafood", "food", ("海鲜", "seafood")),
    ("pork", "food", ("猪肉", "pork")),
    ("red-meat", "food", ("红肉", "red meat")),
    ("pizza", "food", ("披萨", "pizza")),
    ("sushi", "food", ("寿司", "sushi")),
    ("fast-food", "food", ("快餐", "垃圾食品", "fast food", "junk food")),
    ("milk-tea", "drink", ("奶茶", "milk tea", "bubble tea", "boba")),
    ("oolong-tea", "drink", ("乌龙茶", "乌龙", "oolong", "oolong tea")),
    ("green-tea", "drink", ("绿茶", "green tea")),
    ("tea", "drink", ("茶", "喝茶", "tea")),
    ("coffee", "drink", ("咖啡", "coffee")),
    ("alcohol", "drink", ("酒", "喝酒", "alcohol", "drinking", "booze")),
    ("smoking", "habit", ("烟", "抽烟", "吸烟", "smoking", "cigarettes", "smoke")),
    ("staying-up-late", "habit", ("熬夜", "晚睡", "staying up late")),
    ("jazz", "music", ("爵士", "爵士乐", "jazz")),
    ("classical-music", "music", ("古典音乐", "古典乐", "classical music", "classical")),
    ("soul-music", "music", ("灵魂乐", "soul", "soul music")),
    ("rock-music", "music", ("摇滚", "rock music")),
    ("piano", "music", ("钢琴", "piano")),
    ("guitar", "music", ("吉他", "guitar")),
    ("running", "sport", ("跑步", "running", "jogging", "run")),
    ("hiking", "sport", ("爬山", "徒步", "hiking")),
    ("rock-climbing", "sport", ("攀岩", "rock climbing", "climbing", "bouldering")),
    ("gym", "sport", ("健身房", "健身", "撸铁", "gym", "working out", "weightlifting")),
    ("swimming", "sport", ("游泳", "swimming")),
    ("yoga", "sport", ("瑜伽", "yoga")),
    ("cycling", "sport", ("骑行", "骑车", "cycling", "biking")),
    ("half-marathon", "sport", ("半马", "半程马拉松", "half marathon")),
    ("marathon", "sport", ("马拉松", "全马", "marathon")),
    ("sci-fi-movies", "movie", ("科幻电影", "科幻片", "sci-fi movies", "science fiction movies")),
    ("horror-movies", "movie", ("恐怖片", "恐怖电影", "horror movies", "horror films", "horror")),
    ("korean-dramas", "tv", ("韩剧", "korean dramas", "k-dramas")),
    ("cafes", "place", ("咖啡馆", "咖啡厅", "cafes", "coffee shops")),
    ("crowds", "place", ("人多", "人多的地方", "crowded places", "crowds")),
    ("flying", "travel", ("坐飞机", "飞机", "flying")),
    ("high-speed-rail", "travel", ("高铁", "high-speed rail", "bullet train")),
    ("wechat", "app", ("微信", "wechat")),
    ("email", "app", ("邮件", "email")),
    ("android", "device", ("安卓", "android")),
    ("iphone", "device", ("iphone", "苹果手机")),
    ("mac", "device", ("mac", "macbook", "苹果电脑")),
    ("windows", "device", ("windows",)),
    ("linux", "device", ("linux",)),
    ("cat", "pet", ("猫", "猫咪", "橘猫", "cat", "cats", "kitten")),
    ("dog", "pet", ("狗", "狗狗", "柯基", "dog", "dogs", "puppy")),
    ("peanut", "food", ("花生", "peanut", "peanuts")),
    ("shellfish", "food", ("贝类", "shellfish")),
    ("penicillin", "medicine", ("青霉素", "penicillin")),
    ("cat-hair", "allergen", ("猫毛", "cat hair", "cat dander")),
    ("pollen", "allergen", ("花粉", "pollen")),
    ("lactose-intolerance", "health", ("乳糖不耐受", "乳糖不耐", "lactose intolerant", "lactose intolerance")),
    ("hypertension", "health", ("高血压", "hypertension", "high blood pressure")),
    ("diabetes", "health", ("糖尿病", "diabetes", "diabetic")),
    ("asthma", "health", ("哮喘", "asthma")),
    ("left-handed", "trait", ("左撇子", "left-handed")),
    ("jlpt-n1", "exam", ("n1", "jlpt n1", "日语一级")),
    ("ielts", "exam", ("雅思", "ielts")),
    ("toefl", "exam", ("托福", "toefl")),
    ("grad-school-exam", "exam", ("考研",)),
    ("japanese", "language", ("日语", "日文", "japanese")),
    ("spanish", "language", ("西班牙语", "spanish")),
    ("english", "language", ("英语", "英文", "english")),
    ("japan", "place", ("日本", "japan")),
    ("antarctica", "place", ("南极", "antarctica")),
    ("house", "purchase", ("买房", "首付", "buy a house", "house")),
    ("weight-loss", "health", ("减肥", "lose weight", "weight loss")),
    ("sugar", "food", ("控糖", "戒糖", "糖", "sugar")),
    ("caffeine", "drink", ("caffeine", "咖啡因")),
    ("rain", "weather", ("下雨", "雨天", "rain", "rains", "raining")),
    ("umbrella", "item", ("带伞", "雨伞", "umbrella")),
    ("restaurants", "place", ("餐厅", "饭店", "restaurant", "restaurants")),
    ("recipes", "item", ("菜谱", "食谱", "recipe", "recipes")),
    ("calories", "item", ("卡路里", "热量", "calories")),
    ("technical-questions", "item", ("技术问题", "technical questions")),
    ("conclusion-first", "item", ("先给结论", "conclusion first")),
)


def _build_lexicon_index() -> list[tuple[str, str, str]]:
    """(surface form, slug, category), longest surface first so "乌龙茶" beats "茶"."""
    rows = [(term.casefold(), slug, category) for slug, category, terms in LEXICON for term in terms]
    return sorted(rows, key=lambda row: len(row[0]), reverse=True)


_LEXICON_INDEX = _build_lexicon_index()
_CJK = re.compile(r"[\u3400-\u9fff]")


def lexicon_entries(text: str) -> list[tuple[str, str]]:
    """(slug, category) of every LEXICON item named in `text`, in order of first mention.

    A one-character Chinese form ("茶", "辣") counts only when it is the whole text, so
    "绿茶" is not "茶"; English forms match whole words.
    """
    folded = text.casefold().strip()
    found: list[tuple[int, str, str]] = []
    taken: list[tuple[int, int]] = []
    for term, slug, category in _LEXICON_INDEX:
        if _CJK.match(term):
            if len(term) == 1 and folded != term:
                continue
            positions = [m.start() for m in re.finditer(re.escape(term), folded)]
        else:
            positions = [m.start() for m in re.finditer(rf"(?<![a-z0-9]){re.escape(term)}(?![a-z0-9])", folded)]
        for start in positions:
            end = start + len(term)
            if any(start < t_end and t_start < end for t_start, t_end in taken):
                continue
            taken.append((start, end))
            if slug not in (s for _, s, _ in found):
                found.append((start, slug, category))
    return [(slug, category) for _, slug, category in sorted(found)]


# --- slugs --------------------------------------------------------------------------------

_EN_STOPWORDS = frozenset(
    "a an the my our your some any of to for and or with on in at by from that which who this these those "
    "really very so too also just about it its".split()
)
# Generic Chinese words that do not tell one item from another ("PAI项目" is "PAI").
_ZH_GENERIC = re.compile(r"项目|系统|一个|一款|一本|一只|一条|这个|那个|的|了|个")


def _hash_slug(text: str) -> str:
    return "h" + hashlib.sha1(text.encode("utf-8")).hexdigest()[:7]


def item_slug(item: str) -> str:
    """A stable ASCII slug naming `item`: its LEXICON slug, else its ASCII words plus a hash
    of any Chinese left over, else a hash of the Chinese (same item text, same slug)."""
    entries = lexicon_entries(item)
    if entries:
        return entries[0][0]
    words = [w for w in re.findall(r"[a-z0-9]+", item.casefold()) if w not in _EN_STOPWORDS][:5]
    chinese = "".join(_CJK.findall(_ZH_GENERIC.sub("", item)))
    parts = words + ([_hash_slug(chinese)] if chinese else [])
    return "-".join(parts) or _hash_slug(item.strip().casefold())


def preference_key(item: str) -> str:
    """`<category>-<slug>` for a LEXICON item, else `preference-<slug>`; depends on the item only,
    so "I love X", "我不喜欢X" and "I don't eat X anymore" meet on one key."""
    entries = lexicon_entries(item)
    if entries:
        slug, category = entries[0]
        return f"{category}-{slug}"
    return f"preference-{item_slug(item)}"


def rule_key(text: str) -> str:
    """`rule-<slugs>` for a standing rule: the LEXICON items it names, sorted (so the Chinese and
    English wording of one rule meet), else its ASCII words, else a hash."""
    slugs = sorted({slug for slug, _ in lexicon_entries(text)})
    return "rule-" + ("-".join(slugs) if slugs else item_slug(text))


# --- clauses ------------------------------------------------------------------------------


@dataclass
class Clause:
    """One clause of the message, with what the rules need to know about it."""

    text: str  # discourse words ("其实", "By the way") stripped
    lang: Lang
    question: bool = False
    request: bool = False  # a one-off task: only standing rules are read from it
    subject: str = "self"  # "self", "other", or "family:<group>" (partner, children, parents, siblings)
    skip: str | None = None  # why no rule may read it
    hedged: bool = False

    @property
    def confidence(self) -> float:
        return HEDGED if self.hedged else CONFIDENT


_QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"|「[^」]*」|『[^』]*』")
_SENTENCE = re.compile(r"[^。！？!?；;\n]+(?:[。！？!?；;\n]+|$)")
# An English full stop ends a sentence unless it follows a single capital ("Ursula K. Le Guin").
_EN_FULL_STOP = re.compile(r"(?<=[^A-Z\s]\.)\s+|(?<=\b[a-z]\.)\s+|(?<=[a-z]{2}\.)\s+")
_ZH_CLAUSE = re.compile(r"[，,]|(?:^|(?<=[\u4e00-\u9fff]))(?=但是|不过|可是|所以|而且)")
_EN_CLAUSE = re.compile(
    r",\s*(?=(?:I|I'm|I've|I'd|I'll|we|we're|my|but|and|so|which|especially|mostly|aiming|have|not|no|because|since"
    r"|although|though|even|plus|also|what|how|any|good)\b)|\s+(?=but I\b)",
    re.IGNORECASE,
)
_ZH_DISCOURSE = re.compile(
    r"^(?:其实|对了|另外|顺便说一下|顺便|哦|噢|嗯|啊|还有|而且|但是|不过|可是|所以|因为|请记住|记住|记得|你要记住|告诉你|跟你说"
    r"|补充一下|话说|总之|反正|然后|哈哈)[，,、\s]*"
)
_EN_DISCOURSE = re.compile(
    r"^(?:also|actually|oh|btw|by the way|fyi|just so you know|remember(?: that)?|please note(?: that)?|note(?: that)?"
    r"|for the record|and|but|so|well|honestly|anyway|plus|ps|I think|I guess|maybe|probably|perhaps)\b[,\s]+",
    re.IGNORECASE,
)
_ZH_QUESTION = re.compile(
    r"[吗么呢][？?]?$|什么|怎么|为什么|为啥|哪[个里些儿种]|多少|是不是|能不能|可不可以|有没有|要不要|会不会|好不好"
)
_EN_QUESTION = re.compile(
    r"^(?:(?:do|does|did|can|could|would|will|is|are|should|shall|may|have)\s+(?:you|i|we|it|they)\b"
    r"|(?:what|how|why|where|who|which)(?:'s|\s+(?:is|are|do|does|did|can|should|would|was))\b)",
    re.IGNORECASE,
)
_ZH_REQUEST = re.compile(
    r"^(?:请|麻烦你?)?(?:帮我|帮忙|给我(?:写|讲|推荐|找|查|翻译|列)|翻译|写一|解释一下|总结一下|查一下|搜一下|告诉我)"
)
_EN_REQUEST = re.compile(
    r"^(?:please\s+)?(?:translate|write|summarize|explain|tell me|give me|show me|help me|find|search|look up|set|create"
    r"|make|generate|draft|fix|check|can you|could you|would you)\b",
    re.IGNORECASE,
)
# "用英文回答这个问题", "answer this one in French": about the current exchange only.
_ONE_OFF = re.compile(
    r"这个问题|这道题|这次|这一次|这段|这句|这篇|下面这|this (?:one|time|question|answer|message|text)|just this|for now",
    re.IGNORECASE,
)
_ZH_HEDGE = re.compile(r"可能|也许|大概|好像|应该是|说不定|或许")
_EN_HEDGE = re.compile(r"\b(?:maybe|probably|perhaps|i think|i guess|kind of|sort of|might)\b", re.IGNORECASE)

_FAMILY = {
    "partner": r"老婆|老公|妻子|丈夫|太太|爱人|对象|男朋友|女朋友|wife|husband|partner|spouse|girlfriend|boyfriend",
    "children": r"女儿|儿子|孩子|daughters?|sons?|kids|children|child",
    "parents": r"爸爸|妈妈|父亲|母亲|爸妈|父母|mom|mother|dad|father|parents",
    "siblings": r"哥哥|姐姐|弟弟|妹妹|brothers?|sisters?|siblings?",
}
_ZH_SUBJECT = re.compile(
    r"^(?:我的?|我家)?(?P<family>" + "|".join(f"(?P<{g}>{p})" for g, p in _FAMILY.items()) + r")"
    r"|^(?:我的?|我们的?)?(?P<other>朋友|同事|同学|室友|老板|领导|邻居|他们|她们|他|她)"
)
_EN_SUBJECT = re.compile(
    r"^(?:my|our) (?P<family>" + "|".join(f"(?P<{g}>{p})" for g, p in _FAMILY.items()) + r")\b"
    r"|^(?:(?:my|our) (?P<other>friend|colleague|coworker|roommate|boss|neighbou?r|manager)s?|he|she|they)\b",
    re.IGNORECASE,
)


def _subject(text: str, lang: Lang) -> str:
    """Whom the clause is about: "self", "family:<group>" or "other"."""
    match = (_ZH_SUBJECT if lang == "zh" else _EN_SUBJECT).match(text)
    if not match:
        return "self"
    if match.group("family"):
        group = next(g for g in _FAMILY if match.group(g))
        return f"family:{group}"
    return "other"


def _strip_discourse(text: str, lang: Lang) -> str:
    pattern = _ZH_DISCOURSE if lang == "zh" else _EN_DISCOURSE
    previous = None
    while previous != text:
        previous, text = text, pattern.sub("", text, count=1).strip()
    return text


def _sentences(message: str) -> Iterator[tuple[str, bool]]:
    """(sentence, ends with a question mark) for each sentence of `message`."""
    for match in _SENTENCE.finditer(_QUOTED.sub(" ", message)):
        chunk = match.group(0)
        for sentence in _EN_FULL_STOP.split(chunk):
            body = sentence.strip().rstrip("。！？!?；;.… \n")
            if body:
                yield body, sentence.rstrip().endswith(("?", "？"))


def split_clauses(message: str) -> list[Clause]:
    """The clauses of `message`, each marked with whether and why it may not be read."""
    clauses: list[Clause] = []
    for sentence, asked in _sentences(message):
        lang: Lang = "zh" if _CJK.search(sentence) else "en"
        parts = [p.strip() for p in (_ZH_CLAUSE if lang == "zh" else _EN_CLAUSE).split(sentence)]
        parts = [p for p in parts if p]
        tainted: str | None = None
        for index, raw in enumerate(parts):
            lang = "zh" if _CJK.search(raw) else "en"
            raw = raw.strip(" ，,、：:")
            text = _strip_discourse(raw, lang)
            clause = Clause(text=text, lang=lang)
            clause.question = (asked and index == len(parts) - 1) or bool(
                (_ZH_QUESTION if lang == "zh" else _EN_QUESTION).search(text)
            )
            clause.request = bool((_ZH_REQUEST if lang == "zh" else _EN_REQUEST).match(text))
            clause.subject = _subject(text, lang)
            # Hedges are often the discourse words just stripped ("I think I like jazz").
            clause.hedged = bool((_ZH_HEDGE if lang == "zh" else _EN_HEDGE).search(raw))
            # A short window binds the rest of the sentence: "这周我在减肥，别给我推荐甜点".
            window = short_window(text)
            tainted = tainted or (f"short-term window: {window}" if window else None)
            clause.skip = (
                tainted
                or text_drop_reason(text)
                or ("question" if clause.question else None)
                or ("one-off request" if _ONE_OFF.search(text) else None)
            )
            if text:
                clauses.append(clause)
    return clauses


# --- content ------------------------------------------------------------------------------

_ZH_TRAILING = re.compile(r"[啊呀哦喔哈啦呢吧嘛～~]+$")
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
    "typically regularly actually definitely never sometimes currently now".split()
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


def statement(text: str, lang: Lang) -> str:
    """`text` as memory content: without the leading "我" (Chinese), in the third person (English)."""
    text = text.strip(" ，,。.!！")
    if lang == "zh":
        return _ZH_TRAILING.sub("", re.sub(r"^我(?:的(?=[^，,]))?(?![们家])", "", text)).strip()
    return third_person(text)


# --- items --------------------------------------------------------------------------------

_ZH_ITEM_END = re.compile(r"(?:就|的话|因为|所以|但是|不过|而且|，|,).*$")
_ZH_ITEM_TRIM = re.compile(
    r"^(?:一点|太|很|特别|比较|一些|那种|这种|各种|所有)|(?:之类的|什么的|这种东西|这些|了|啊|呀|的)$"
)
_EN_ITEM_END = re.compile(
    r"\s+(?:anymore|any more|these days|lately|a lot|so much|very much|too|as well|now|at all|over .+|more than .+"
    r"|rather than .+|instead of .+|because .+|since .+|especially .+)$",
    re.IGNORECASE,
)
_EN_ITEM_ARTICLE = re.compile(r"^(?:a|an|the|some|my|any)\s+", re.IGNORECASE)
_PRONOUN_ITEM = re.compile(
    r"^(?:你|您|他|她|它|这|那|it|you|him|her|them|that|this|those|these|one|to)$", re.IGNORECASE
)
# An item that points at the conversation ("这个回答", "第二个方案", "that idea", "how you
# explained it") is a reaction to the current answer, not a lasting preference.
_DEICTIC_ITEM = re.compile(
    r"^(?:这|那|你|您|第[一二三四五六七八九十\d]+|上一|下一)|方案|回答|回复|答案|建议|选项|解释"
    r"|^(?:that|this|these|those|it|your|how|what|when|where|why|the (?:first|second|third|last|other|previous|next))\b"
    r"|\b(?:option|idea|answer|reply|response|explanation|suggestion|version|one)s?$",
    re.IGNORECASE,
)
_ZH_LIST = re.compile(r"和|、|跟|以及|还有|与")
_EN_LIST = re.compile(r",\s*|\s+and\s+|\s+or\s+|\s*&\s*")


def clean_item(item: str, lang: Lang) -> str:
    """The named thing alone: trailing clauses, degree words and particles removed."""
    if lang == "zh":
        item = _ZH_ITEM_END.sub("", item)
        previous = None
        while previous != item:
            previous, item = item, _ZH_ITEM_TRIM.sub("", item)
        return item.strip()
    previous = None
    while previous != item:
        previous, item = item, _EN_ITEM_END.sub("", item.strip())
    return _EN_ITEM_ARTICLE.sub("", item).strip(" ,.")


def split_items(item: str, lang: Lang) -> list[str]:
    """The items of a list ("爵士乐和古典音乐", "hiking and rock climbing"), each cleaned; empty,
    pronoun ("I love you") and conversation-pointing ("I like that idea") items dropped."""
    parts = (_ZH_LIST if lang == "zh" else _EN_LIST).split(clean_item(item, lang))
    cleaned = [clean_item(p, lang) for p in parts]
    return [p for p in cleaned if p and len(p) <= 40 and not _PRONOUN_ITEM.match(p) and not _DEICTIC_ITEM.search(p)]


# --- rules --------------------------------------------------------------------------------

Build = Callable[[re.Match[str], Clause], list[Candidate]]


@dataclass(frozen=True)
class Rule:
    """A pattern on a clause and what to make of a match.

    Rules of one `group` exclude each other on overlapping text, tried in table order, so
    "我不喜欢香菜" is read by the dislike rule and not again by the like rule.
    """

    group: str
    lang: Lang
    pattern: re.Pattern[str]
    build: Build
    standing: bool = False  # may be read from a one-off request ("请用中文回复我")
    family: bool = False  # may be read from a clause about a family member


def _candidate(
    op: Op, memory_type: str, key: str, content: str, clause: Clause, importance: int, ttl_days: int | None = None
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
        return [_candidate("upsert", self.memory_type, self.key, content, clause, self.importance, self.ttl_days)]


def _items(memory_type: str, key_of: Callable[[str], str], importance: int) -> Build:
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
            joiner = "" if clause.lang == "zh" else " "
            contents = [statement(f"{head}{joiner}{item}", clause.lang) for item in items]
        return [
            _candidate("upsert", memory_type, key_of(item), content, clause, importance)
            for item, content in zip(items, contents, strict=True)
        ]

    return build


def _retire(key_of_verb: Callable[[str, str], str | None]) -> Build:
    """op=delete on the key the positive statement used; `key_of_verb(verb, item)` picks it."""

    def build(match: re.Match[str], clause: Clause) -> list[Candidate]:
        verb = (match.groupdict().get("verb") or "").strip().lower()
        candidates = []
        for item in split_items(match.group("item"), clause.lang):
            key = key_of_verb(verb, item)
            if key:
                content = statement(match.group(0), clause.lang)
                memory_type = key.split("-", 1)[0] if key.startswith(("goal-", "project-")) else "preference"
                candidates.append(_candidate("delete", memory_type, key, content, clause, 3))
        return candidates

    return build


_GOAL_VERBS = ("打算", "准备", "考虑", "想", "plan", "planning", "going", "trying", "aiming")
_PROJECT_VERBS = ("做", "开发", "写", "building", "developing", "working on")


def _retired_key(verb: str, item: str) -> str | None:
    """Which key a retirement names: goal-/project- after plan/build verbs, a preference otherwise."""
    if verb in _GOAL_VERBS:
        return goal_key(item)
    if verb in _PROJECT_VERBS:
        return project_key(item)
    return preference_key(item)


_ZH_GOAL_LEAD = re.compile(r"^(?:在|要|能|去|考过|考|通过|拿到|学会|学习|学|攒够|存够|跑一次|跑|完成)+")
_EN_GOAL_LEAD = re.compile(r"^(?:to |get |pass |run |learn |become |buy |finish |complete |my )+", re.IGNORECASE)


def goal_key(item: str) -> str:
    """`goal-<slug>` of the goal's object ("考N1" and "通过N1" are both goal-jlpt-n1)."""
    lead = _ZH_GOAL_LEAD if _CJK.search(item) else _EN_GOAL_LEAD
    core = re.split(r"\s+(?:before|by|within|in the next|this year|next year|so that|so|because)\b", item)[0]
    return "goal-" + item_slug(lead.sub("", core) or item)


def project_key(item: str) -> str:
    """`project-<slug>` of the project's name ("PAI项目" -> project-pai)."""
    core = re.split(r"\s+(?:for|that|which|on|about|to|from|with)\b|，", item)[0]
    core = re.sub(r"^(?:一个|一款|一本|个|款|本)", "", core)
    return "project-" + item_slug(core)


def _goal(match: re.Match[str], clause: Clause) -> list[Candidate]:
    item = match.group("item").strip()
    if re.match(r"^(?:你|您)", item):
        return []
    item = clean_item(item, clause.lang)
    if not item or _PRONOUN_ITEM.match(item):
        return []
    return [_candidate("upsert", "goal", goal_key(item), statement(clause.text, clause.lang), clause, 4)]


_PROJECT_HEAD = re.compile(
    r"项目|系统|应用|app|网站|小程序|平台|工具|插件|库|框架|游戏|小说|书|论文|博客|产品|引擎|数据库|编译器|服务|机器人|助手|模型|课程|播客"
    r"|\b(?:apps?|application|website|site|compiler|library|framework|tool|game|novel|book|thesis|dissertation|paper"
    r"|startup|extension|plugin|bot|engine|database|service|platform|api|backend|frontend|system|course|podcast"
    r"|album|project|model|package|sdk|cli)\b",
    re.IGNORECASE,
)


def _project(match: re.Match[str], clause: Clause) -> list[Candidate]:
    item = clean_item(match.group("item"), clause.lang)
    if not _PROJECT_HEAD.search(item):
        return []
    return [_candidate("upsert", "project", project_key(item), statement(clause.text, clause.lang), clause, 4)]


def _keyed_fact(prefix: str, importance: int, ttl_days: int | None = None) -> Build:
    """A fact under `<prefix>-<item slug>` (allergy-peanut, health-diabetes, pet-cat)."""

    def build(match: re.Match[str], clause: Clause) -> list[Candidate]:
        item = clean_item(match.group("item"), clause.lang)
        if not item:
            return []
        content = statement(clause.text, clause.lang)
        return [_candidate("upsert", "fact", f"{prefix}-{item_slug(item)}", content, clause, importance, ttl_days)]

    return build


def _family(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """A fact about a family member, appended under family-<group>."""
    group = next((g for g in _FAMILY if match.groupdict().get(g)), None) or clause.subject.partition(":")[2]
    if not group:
        return []
    content = statement(clause.text, clause.lang)
    return [_candidate("append", "fact", f"family-{group}", content, clause, 4, LIFELONG_TTL_DAYS)]


def _standing_rule(match: re.Match[str], clause: Clause) -> list[Candidate]:
    return [_candidate("upsert", "constraint", rule_key(clause.text), statement(clause.text, clause.lang), clause, 4)]


# Value checks of the slots.
_ZH_NOT_A_PLACE = re.compile(r"^(?:一|个|这|那|家|公司|学校|宿舍|酒店|附近|隔壁|楼)|[楼室栋]|单元|小区")
_CITIES = re.compile(
    r"^(?:北京|上海|广州|深圳|杭州|南京|苏州|成都|重庆|武汉|西安|天津|长沙|厦门|青岛|大连|沈阳|郑州|济南|合肥|福州|昆明"
    r"|香港|澳门|台北|东京|大阪|首尔|新加坡|纽约|伦敦|巴黎|柏林|硅谷)|[市省县]$"
)


def _zh_place(value: str) -> str | None:
    value = re.sub(r"(?:这边|那边|市区|附近|住|了|啦|来|去)+$", "", value)
    return None if _ZH_NOT_A_PLACE.search(value) else value


def _zh_employer(value: str) -> str | None:
    return None if _CITIES.search(value) or _ZH_NOT_A_PLACE.search(value) else value


def _zh_work_city(value: str) -> str | None:
    return value if _CITIES.search(value) else None


_ZH_OCCUPATION = (
    r"工程师|程序员|程序猿|码农|设计师|产品经理|经理|医生|医师|护士|律师|会计|老师|教师|教授|记者|作家|编辑|翻译|厨师|司机|警察"
    r"|销售|运营|分析师|研究员|架构师|科学家|学生|研究生|博士生|本科生|大学生|高中生|主播|博主|自由职业者|创业者|公务员|店主"
    r"|画家|摄影师|演员|歌手|工人|农民|快递员|外卖员|药剂师|咨询师|顾问|律师助理|产品|前端|后端|全栈|测试|运维|HR|hr"
    r"|财务|行政|人事|客服|法务|出纳|文员"
)
_EN_OCCUPATION = (
    r"engineer|developer|programmer|coder|designer|teacher|nurse|doctor|physician|surgeon|lawyer|attorney|accountant"
    r"|student|researcher|scientist|manager|writer|journalist|chef|cook|pharmacist|dentist|architect|analyst|consultant"
    r"|freelancer|photographer|artist|musician|electrician|plumber|firefighter|police officer|pilot|driver|translator"
    r"|editor|professor|lecturer|therapist|psychologist|veterinarian|vet|mechanic|farmer|librarian|recruiter"
    r"|salesperson|marketer|entrepreneur|founder|barista|cashier|paramedic|intern|postdoc|data scientist"
)
_LANGUAGES_ZH = r"(?:简体|繁体)?中文|普通话|粤语|英文|英语|日语|日文|韩语|韩文|法语|德语|西班牙语|俄语"
_LANGUAGES_EN = (
    r"English|Chinese|Mandarin|Cantonese|Japanese|Korean|French|German|Spanish|Portuguese|Italian|Russian|Arabic"
    r"|Hindi|Dutch|Swedish|Polish|Turkish|Vietnamese|Thai|Indonesian"
)
_PROGRAMMING = r"Python|Java(?:Script)?|TypeScript|Go(?:lang)?|Rust|C\+\+|C#|Ruby|PHP|Kotlin|Swift|Scala|Haskell|Lua|SQL|Bash|Shell"
_DEMONYMS = (
    r"Canadian|American|British|English|Australian|Chinese|Japanese|Korean|German|French|Italian|Spanish|Mexican"
    r"|Brazilian|Indian|Filipino|Vietnamese|Thai|Russian|Dutch|Swedish|Irish|Scottish|Polish|Turkish|Nigerian"
)
# Words that make a Chinese or English clause a standing rule rather than a one-off request.
_ZH_STANDING = r"(?:以后|今后|之后|从现在(?:开始|起)|每次|每当|只要|凡是|默认|一律|总是|都|[^，。]{1,8}(?:时|的时候))"
_EN_STANDING = (
    r"(?:whenever|every time|each time|from now on|going forward|in (?:the )?future|always|by default|unless)"
)

_ZH_ADV = r"(?:平时|平常|一般|通常|晚上|早上|中午|周末|从来|基本上?|一直|现在|也|都|还|真的|实在|特别|最|超|很|非常|比较|挺|蛮|更|向来|从小|一向|就|其实|本身|已经|早就|再也|最近|目前|一般都|总是|可能|也许|大概|好像|应该)*"
_ZH_ME = r"^(?:我|本人)?" + _ZH_ADV
_EN_ADV = r"(?:(?:really|just|absolutely|also|totally|genuinely|honestly|do|still|kind of|sort of|mostly|usually|always|generally|definitely|truly|now|actually) )*"
_FREQUENCY_ZH = re.compile(r"每天|每晚|每周|每个?月|每年|平时|平常|一般|通常|经常|常常|周末|工作日")
_FREQUENCY_EN = re.compile(
    r"\b(?:every (?:day|morning|evening|night|week|weekend)|daily|weekly|\w+ times a (?:day|week|month)|on weekends"
    r"|usually|often|regularly)\b",
    re.IGNORECASE,
)


def _habit(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """A habit: a frequency word plus an activity the LEXICON knows ("周末我一般去爬山")."""
    if not (_FREQUENCY_ZH if clause.lang == "zh" else _FREQUENCY_EN).search(clause.text):
        return []
    entries = [(s, c) for s, c in lexicon_entries(clause.text) if c in ("sport", "music", "habit", "drink", "food")]
    if not entries:
        return []
    slug, category = entries[0]
    content = statement(clause.text, clause.lang)
    return [_candidate("upsert", "preference", f"{category}-{slug}", content, clause, 3)]


def _en_habit_time(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """A daily routine at a time ("I usually wake up at 5:30") under preference-<activity>."""
    activity = match.group("item").lower()
    content = statement(clause.text, clause.lang)
    return [_candidate("upsert", "preference", f"preference-{item_slug(activity)}", content, clause, 3)]


def _r(group: str, lang: Lang, pattern: str, build: Build, *, standing: bool = False, family: bool = False) -> Rule:
    # Case-insensitive throughout; a proper name's capital is required locally with CAP.
    return Rule(group, lang, re.compile(pattern, re.IGNORECASE), build, standing=standing, family=family)


CAP = r"(?-i:[A-Z])"
# 在 as "at", not the end of 现在/正在/实在/存在/自在.
AT = r"(?<![现正实存自])在"
_EN_PLACE = r"(?P<value>(?-i:[A-Z0-9])[\w.'’-]*(?:,? " + CAP + r"[\w.'’-]*){0,3})"
_EN_NAME = r"(?P<value>" + CAP + r"[\w&.'-]*(?: " + CAP + r"[\w&.'-]*)*)"

_pref = _items("preference", preference_key, 3)
_retire_any = _retire(_retired_key)
_retire_goal = _retire(lambda verb, item: goal_key(item))
_retire_preference = _retire(lambda verb, item: preference_key(item))

RESIDENCE_ZH = Slot("fact", "residence-city", {"zh": "住在{value}", "en": "Lives in {value}"}, clean=_zh_place)
RESIDENCE_EN = Slot("fact", "residence-city", {"zh": "住在{value}", "en": "Lives in {value}"})
HOMETOWN = Slot("fact", "hometown", {"zh": "老家是{value}", "en": "Is from {value}"}, ttl_days=LIFELONG_TTL_DAYS)
GREW_UP = Slot("fact", "hometown", {"zh": "在{value}长大", "en": "Grew up in {value}"}, ttl_days=LIFELONG_TTL_DAYS)
OCCUPATION = Slot("fact", "occupation", {"zh": "职业：{value}", "en": "Occupation: {value}"})
EMPLOYER_ZH = Slot("fact", "employer", {"zh": "在{value}工作", "en": "Works at {value}"}, clean=_zh_employer)
EMPLOYER_EN = Slot("fact", "employer", {"zh": "在{value}工作", "en": "Works at {value}"})
TIMEZONE = Slot("fact", "timezone", {"zh": "时区：{value}", "en": "Time zone: {value}"})
BIRTHDAY = Slot("fact", "birthday", {"zh": "生日是{value}", "en": "Birthday: {value}"}, ttl_days=LIFELONG_TTL_DAYS)
NATIVE_LANGUAGE = Slot(
    "fact", "native-language", {"zh": "母语是{value}", "en": "Native language: {value}"}, ttl_days=LIFELONG_TTL_DAYS
)
REPLY_LANGUAGE = Slot("constraint", "reply-language")
REPLY_LENGTH = Slot("constraint", "reply-length")
REPLY_STYLE = Slot("preference", "reply-style", importance=3)
REPLY_FORMAT = Slot("constraint", "reply-format")
REPLY_EMOJI = Slot("constraint", "reply-emoji")
CODE_LANGUAGE = Slot("constraint", "code-language")
ALLERGY = _keyed_fact("allergy", 5, LIFELONG_TTL_DAYS)
HEALTH = _keyed_fact("health", 5, LIFELONG_TTL_DAYS)
TRAIT = _keyed_fact("trait", 3, LIFELONG_TTL_DAYS)
PET = _keyed_fact("pet", 3)
EDUCATION = Slot("fact", "education-major", ttl_days=LIFELONG_TTL_DAYS)
COMMUTE = Slot("fact", "commute")
BUSINESS = _keyed_fact("business", 4)

_FAMILY_WORDS = "|".join(_FAMILY.values())
_RETIRE_VERBS_ZH = r"喜欢|爱|吃|喝|用|玩|听|看|抽|碰|养|打算|准备|考虑|想|做|开发|写"
_RETIRE_VERBS_EN = r"like|love|enjoy|eat|drink|use|play|watch|listen to|smoke|read|do"

# One rule per line: the table reads better than its formatted form.
# fmt: off
RULES: tuple[Rule, ...] = (
    # ---- preferences: retirements, then dislikes, then likes and habits -------------------
    _r("pref", "zh", r"(?:不再|再也不|再也没)(?P<verb>" + _RETIRE_VERBS_ZH + r")?(?P<item>[^，。]+?)了?$", _retire_any),
    _r("pref", "zh", r"不(?:打算|准备|考虑|想)再?(?P<item>[^，。]+?)了$", _retire_goal),
    _r("pref", "zh", r"不(?P<verb>喜欢|爱|吃|喝|用|玩|听|看|抽|碰)(?P<item>[^，。]+?)了$", _retire_any),
    _r("pref", "zh", r"放弃了?(?P<item>[^，。]+?)了?$", _retire_goal),
    _r("pref", "zh", r"戒(?:掉了?)?(?P<item>[\u4e00-\u9fffA-Za-z]{1,6}?)(?=[\d一二三四五六七八九十两几好多]|了|$)", _retire_preference),
    _r("pref", "en", r"^I (?:(?:really|just|honestly) )?(?:don't|do not|won't) (?P<verb>" + _RETIRE_VERBS_EN + r") (?P<item>.+?) (?:anymore|any more)$", _retire_any),
    _r("pref", "en", r"^I no longer (?P<verb>" + _RETIRE_VERBS_EN + r") (?P<item>.+)$", _retire_any),
    _r("pref", "en", r"^I(?:'ve| have)? (?:stopped|quit|given up|gave up) (?:eating|drinking|using|playing|watching|smoking|reading|taking|doing) (?P<item>.+)$", _retire_preference),
    _r("pref", "en", r"^I(?:'ve| have)? (?:stopped|quit|given up|gave up) (?P<item>smoking|drinking|caffeine|coffee|sugar|alcohol|meat)$", _retire_preference),
    _r("pref", "en", r"^I(?:'m| am) (?:no longer|not) (?:planning|going|trying|aiming) to (?P<item>.+?)(?: anymore| any more)?$", _retire_goal),
    _r("pref", "en", r"^I(?:'ve| have)? (?:gave|given) up on (?P<item>.+)$", _retire_goal),
    _r("pref", "zh", _ZH_ME + r"(?:真的|实在|一点都|从来)?(?:不(?:太|怎么|是很|大)?喜欢|不爱|讨厌|受不了|反感|厌恶|用不惯|吃不惯|喝不惯|不(?:太|怎么)?能|不(?:吃|喝|看|碰|用|玩|听|抽|坐))(?:吃|喝|看|听|用|玩|坐|去|碰|抽)?(?P<item>[^，。]+)$", _pref),
    _r("pref", "en", r"^I " + _EN_ADV + r"(?:(?:don't|do not|can't|cannot|never) " + _EN_ADV + r"(?:like|enjoy|eat|drink|stand|watch|listen to|use|play)|hate|dislike|detest|loathe|avoid) (?P<item>.+)$", _pref),
    _r("pref", "en", r"^I(?:'m| am) not (?:a (?:big |huge )?fan of|into|keen on) (?P<item>.+)$", _pref),
    _r("pref", "zh", r"最(?:喜欢|爱)的[^，。是]{1,6}是(?P<item>[^，。]+)$", _pref),
    _r("pref", "zh", _ZH_ME + r"(?:喜欢|爱|热爱|偏爱|钟爱|迷上了?|爱上了?|偏好|习惯|离不开|能)(?:吃|喝|听|看|玩|用|去|逛|读|打|穿|做|坐|养|追)?(?P<item>[^，。]+)$", _pref),
    _r("pref", "zh", _ZH_ME + r"是(?:个|一个|一名)?(?:重度|资深|忠实|铁杆|狂热)?(?P<item>[^，。]+?)(?:爱好者|迷|控|粉丝|粉)$", _pref),
    _r("pref", "zh", r"有(?P<item>[^，。]+?)的习惯", _pref),
    _r("pref", "zh", r"(?:一直|平时|平常|一般|通常|主要|习惯|都|常)[^，。]{0,8}?用(?P<item>[A-Za-z][\w+#.\-]*(?: [A-Za-z][\w+#.\-]*)?|[\u4e00-\u9fff]{2,8}$)", _pref),
    _r("pref", "en", r"^I " + _EN_ADV + r"(?:love|like|enjoy|adore|prefer|dig) (?P<item>.+)$", _pref),
    _r("pref", "en", r"^(?:I(?:'m| am) )?" + _EN_ADV + r"(?:a )?(?:(?:big |huge |massive )?fan of|into|obsessed with) (?P<item>.+)$", _pref),
    _r("pref", "en", r"^I(?:'m| am) (?:a )?(?:big |huge |massive |die-hard )(?P<item>" + CAP + r"[\w .'-]+?) fan$", _pref),
    _r("pref", "en", r"^my (?:all-time )?favou?rite [\w ]+? (?:is|are) (?P<item>.+)$", _pref),
    _r("pref", "en", r"^I(?:'m| am) an? (?P<item>morning person|night owl|early bird|early riser|cat person|dog person|introvert|extrovert|homebody)$", _pref),
    _r("pref", "en", r"^I " + _EN_ADV + r"(?:code|program|develop|write code) (?:mostly |mainly )?in (?P<item>" + CAP + r"[\w+#.-]*)", _pref),
    _r("pref", "en", r"^I " + _EN_ADV + r"use (?P<item>" + CAP + r"[\w+#.-]*(?: " + CAP + r"[\w+#.-]*)?)\b", _pref),
    _r("pref", "en", r"^I " + _EN_ADV + r"play (?:the )?(?P<item>[a-z][\w -]+)$", _pref),
    _r("pref", "en", r"^I (?:usually|always|normally|typically|often|generally) (?P<item>wake up|get up|go to bed|go to sleep|work out|meditate)\b.*$", _en_habit_time),
    _r("pref", "zh", r".+", _habit),
    _r("pref", "zh", r"(?:换成|改用|改喝|改吃|转用|换用)了?(?P<item>[^，。]+)$", _pref),
    _r("pref", "en", r"^I(?:'ve| have)? (?:switched|moved over|changed) (?:from .+? )?to (?P<item>.+)$", _pref),
    _r("pref", "en", r".+", _habit),
    # ---- goals (a final 了 after 准备/打算 is an action about to happen: "我准备去睡觉了") ----
    _r("goal", "zh", r"(?:我的)?(?:长期)?(?:目标|梦想|心愿|愿望|计划)(?:是|就是)(?P<item>[^，。]+)$", _goal),
    _r("goal", "zh", r"(?<![不没])(?:在|正在)?(?:准备|备考|冲刺)(?:考)?(?P<item>[^，。]+)(?<!了)$", _goal),
    _r("goal", "zh", r"(?<![不没])(?:打算|计划|决定|立志)(?:在)?(?P<item>[^，。]+)(?<!了)$", _goal),
    _r("goal", "zh", r"(?<![不没])(?:希望|想要|想)(?=在|以后|将来|未来|今年|明年|年底|[^，。]{1,8}之前)(?P<item>[^，。]+)$", _goal),
    _r("goal", "zh", r"(?:在|正在|开始)(?P<item>学(?:习)?[^，。]+|减肥|控糖|戒糖|攒钱[^，。]*|存钱[^，。]*|考研|考公)$", _goal),
    _r("goal", "en", r"^my (?:main |big |long-term |ultimate |\w+ )?(?:goal|dream|plan|aim|ambition|resolution) (?:is|for [\w ]+ is) to (?P<item>.+)$", _goal),
    _r("goal", "en", r"^I(?:'m| am) (?:currently )?(?:preparing|studying|training|prepping|cramming) for (?:the |a |an |my )?(?P<item>.+)$", _goal),
    _r("goal", "en", r"^I(?:'m| am) (?:saving up|saving) (?:to|for) (?P<item>.+)$", _goal),
    _r("goal", "en", r"^I(?:'m| am) (?:learning|studying) (?P<item>" + CAP + r"[\w+#]*(?: " + CAP + r"\w*)?|how to .+)", _goal),
    _r("goal", "en", r"^I(?:'m| am) trying to (?P<item>.+)$", _goal),
    _r("goal", "en", r"^I(?: want| plan| hope| intend| aim|'m planning| am planning|'d like| would like) to (?!know|ask|see|check|talk|say|understand|make sure|be sure|watch|eat|go to bed|sleep|try|find out|learn how|read|hear|share|tell)(?P<item>.+)$", _goal),
    # ---- projects ------------------------------------------------------------------------
    _r("project", "zh", r"(?:最近|目前|现在|一直)?(?:正在|在)(?:开发|做|写|搭建|搞|维护|研发|设计|打造)(?P<item>[^，。]+)$", _project),
    _r("project", "en", r"^(?:I(?:'m| am)|we(?:'re| are)|our team is|my team is|I've been|we've been) (?:currently |also |still |now )?(?:building|developing|writing|working on|making|creating|maintaining|designing|migrating|rewriting|launching) (?P<item>.+)$", _project),
    # ---- facts ---------------------------------------------------------------------------
    _r("residence-city", "zh", r"(?:^|我|我们|我家)(?:现在|目前|一直|常年|长期)?(?<!不)(?:住在|住|居住在|生活在|定居在?|常住在?)(?P<value>(?![了过着])[\u4e00-\u9fff]{2,10}|[A-Z][\w .'-]{1,30}|\d+)(?:这边|那边)?$", RESIDENCE_ZH),
    _r("residence-city", "zh", r"搬(?:到|去|来)了?(?P<value>[\u4e00-\u9fff]{2,10}?|[A-Z][\w .'-]{1,30})(?:了|啦|住)?$", RESIDENCE_ZH),
    _r("residence-city", "en", r"^(?:I|we) (?:currently |now |still |also )?(?:live|reside) (?:in|near|outside)(?: (?:a|the) (?:suburb|outskirts|small town|village) (?:of|near|outside))? " + _EN_PLACE, RESIDENCE_EN),
    _r("residence-city", "en", r"^(?:I|we)(?:'ve| have)? (?:just |recently |finally )?(?:moved|relocated) (?:back )?to " + _EN_PLACE, RESIDENCE_EN),
    _r("residence-city", "en", r"^(?:I'm|I am|we're|we are) (?:currently |now )?(?:based|living|located) in " + _EN_PLACE, RESIDENCE_EN),
    _r("residence-city", "en", r"^(?:I'm|I am) in " + _EN_PLACE + r" now$", RESIDENCE_EN),
    _r("residence-city", "en", r"^I (?:work|am working|'m working) remotely from " + _EN_PLACE, RESIDENCE_EN),
    _r("hometown", "zh", r"(?:老家|家乡|祖籍)(?:在|是)(?P<value>[^，。]{2,12}?)(?:的|人)?$", HOMETOWN),
    _r("hometown", "zh", r"^(?:我)?是(?P<value>(?!个|一个|好|坏|普通|外地|本地|年轻|老实|打工|上班|文化|有钱|穷)[\u4e00-\u9fff]{2,6}?)人$", HOMETOWN),
    _r("hometown", "zh", r"(?:从小)?在(?P<value>[\u4e00-\u9fff]{2,8}?)长大", GREW_UP),
    _r("hometown", "zh", r"(?:出生在|出生于|生在|来自)(?P<value>[\u4e00-\u9fff]{2,8})", HOMETOWN),
    _r("hometown", "en", r"^I(?:'m| am) (?:originally )?from " + _EN_PLACE, HOMETOWN),
    _r("hometown", "en", r"^I (?:grew up|was born(?: and raised)?) in (?:a (?:small |little )?(?:town|village|city) (?:in|near|outside(?: of)?) )?" + _EN_PLACE, GREW_UP),
    _r("hometown", "en", r"^my home ?town is " + _EN_PLACE, HOMETOWN),
    _r("nationality", "en", r"^I(?:'m| am) (?P<value>" + _DEMONYMS + r")$", Slot("fact", "nationality", {"zh": "国籍：{value}", "en": "Is {value}"}, ttl_days=LIFELONG_TTL_DAYS)),
    _r("occupation", "zh", r"^(?:我)?(?:现在|目前|也|还)?(?:是|当)(?:一名|一个|一位|个|名)?(?P<value>[\u4e00-\u9fffA-Za-z]{0,8}?(?:" + _ZH_OCCUPATION + r"))$", OCCUPATION),
    _r("occupation", "zh", r"职业是(?P<value>[^，。]+)$", OCCUPATION),
    _r("occupation", "zh", r"^(?:我)?(?:现在|目前)?是做(?P<value>[^，。]+?)的$", OCCUPATION),
    _r("occupation", "zh", AT + r"[^，。\s]{2,10}?(?:做|当)(?P<value>[\u4e00-\u9fffA-Za-z]{0,6}?(?:" + _ZH_OCCUPATION + r"))$", OCCUPATION),
    _r("occupation", "en", r"^I(?:'m| am) (?:currently |now |also )?an? (?P<value>(?:[\w-]+ ){0,3}?(?:" + _EN_OCCUPATION + r"))\b", OCCUPATION),
    _r("occupation", "en", r"\b(?:work|working|freelance|freelancing) as an? (?P<value>(?:[\w-]+ ){0,3}?(?:" + _EN_OCCUPATION + r"))\b", OCCUPATION),
    _r("occupation", "en", r"^my (?:job|occupation|profession) is (?P<value>.+)$", OCCUPATION),
    _r("employer", "zh", AT + r"(?P<value>[^，。\s]{2,10}?)(?:上班|工作|任职|实习|打工)", EMPLOYER_ZH),
    _r("employer", "zh", AT + r"(?P<value>[^，。\s]{2,10}?)(?:做|当)(?:" + _ZH_OCCUPATION + r")", EMPLOYER_ZH),
    _r("work-city", "zh", AT + r"(?P<value>[^，。\s]{2,10}?)(?:上班|工作|任职|实习|打工)", Slot("fact", "work-city", {"zh": "在{value}工作", "en": "Works in {value}"}, clean=_zh_work_city)),
    _r("employer", "en", r"^I (?:currently |now )?(?:work|am working|'m working) (?:at|for) " + _EN_NAME, EMPLOYER_EN),
    _r("employer", "en", r"^I(?:'m| am) an? (?:[\w-]+ ){0,3}?(?:" + _EN_OCCUPATION + r") (?:at|for) " + _EN_NAME, EMPLOYER_EN),
    _r("employer", "en", r"^I (?:just |recently )?joined " + _EN_NAME, EMPLOYER_EN),
    _r("diet", "zh", r"(?P<value>吃素|素食(?:主义者|者)?|纯素|吃斋|清真|生酮饮食)", Slot("fact", "diet")),
    _r("diet", "en", r"^I(?:'m| am|'ve been| have been|'ve gone| have gone| went| eat| keep)? (?:a |fully |strictly |mostly )?(?P<value>vegetarian|vegan|pescatarian|pescetarian|halal|kosher|keto|gluten-free)\b", Slot("fact", "diet")),
    _r("allergy", "zh", r"对(?P<item>[^，。]{1,10}?)过敏", ALLERGY),
    _r("allergy", "zh", r"有(?P<item>[\u4e00-\u9fff]{1,6}?)过敏", ALLERGY),
    _r("allergy", "en", r"allergic to (?P<item>[\w -]+)", ALLERGY),
    _r("allergy", "en", r"^I have an? (?P<item>[\w-]+(?: [\w-]+)?) allergy", ALLERGY),
    _r("health", "zh", r"(?:有|患有|得了|确诊了?)(?P<item>高血压|糖尿病|哮喘|乳糖不耐受?|痛风|偏头痛|抑郁症|焦虑症|过敏性鼻炎)", HEALTH),
    _r("health", "en", r"^I (?:have|'ve got|suffer from|was diagnosed with|live with) (?:type \d )?(?P<item>diabetes|asthma|hypertension|high blood pressure|celiac disease|migraines|ADHD|epilepsy|gout)", HEALTH),
    _r("health", "en", r"^I(?:'m| am) (?P<item>lactose intolerant|diabetic|asthmatic|colou?r-?blind|deaf|hard of hearing)\b", HEALTH),
    _r("trait", "zh", r"^(?:我)?是(?:个)?(?P<item>左撇子)", TRAIT),
    _r("trait", "en", r"^I(?:'m| am) (?P<item>left-handed|right-handed|ambidextrous)\b", TRAIT),
    _r("pet", "zh", r"(?<![没不])(?:养了|养着|养|有)(?:[一二两三四五几\d]+[只条头])?[\u4e00-\u9fff]{0,2}?(?P<item>猫咪|橘猫|猫|狗狗|狗|柯基|兔子|仓鼠|鹦鹉|金鱼|乌龟)", PET),
    _r("pet", "en", r"^I (?:have|own|'ve got) (?:a|an|one|two|three|four|\d+) (?:[\w-]+ )?(?P<item>cats?|dogs?|rabbits?|hamsters?|parrots?|turtles?|goldfish|puppy|kitten)\b", PET),
    _r("family", "zh", r"^(?:我的?|我家)?(?:" + _FAMILY_WORDS + r")", _family, family=True),
    _r("family", "zh", r"有[一二两三四五\d]+个(?P<children>孩子|女儿|儿子)|(?P<partner>结婚了|已婚)", _family),
    _r("family", "en", r"^my (?:" + _FAMILY_WORDS + r")\b", _family, family=True),
    _r("family", "en", r"^I have (?:a|an|one|two|three|four|\d+) (?:[\w-]+ )?(?P<children>sons?|daughters?|kids|children)\b|^I(?:'m| am) (?P<partner>married)\b", _family),
    _r("commute", "zh", r"(?P<value>开车|坐地铁|坐公交|骑车|骑电动车|走路|步行|打车)(?:上下班|上班|通勤)", COMMUTE),
    _r("commute", "en", r"^I (?:usually |always |normally )?(?P<value>drive|bike|cycle|walk|take the (?:train|bus|subway|metro|tube)) to work\b", COMMUTE),
    _r("vehicle", "zh", r"^(?:我)?(?:开的是|开一辆|的车是)(?P<value>[^，。]+)$", Slot("fact", "vehicle")),
    _r("vehicle", "en", r"^I (?:drive|own|have) an? (?P<value>" + CAP + r"[\w-]*(?: [\w-]+){0,3})$", Slot("fact", "vehicle")),
    _r("business", "zh", r"(?:开了|经营|开着)(?:一家|一间|家|个)(?P<item>[^，。]+?(?:店|馆|公司|工作室|餐厅|诊所))", BUSINESS),
    _r("business", "en", r"^I (?:run|own) an? (?:small |little |local )?(?P<item>[\w -]+?(?:shop|store|bakery|cafe|restaurant|company|business|studio|clinic|agency|bar|salon))\b", BUSINESS),
    _r("native-language", "zh", r"母语是(?P<value>[^，。]+)$", NATIVE_LANGUAGE),
    _r("native-language", "en", r"^my (?:native|first|mother) (?:language|tongue) is (?P<value>" + CAP + r"\w+)", NATIVE_LANGUAGE),
    _r("spoken-languages", "zh", r"(?:会说|能说|会讲|能讲)(?P<value>[^，。]*(?:" + _LANGUAGES_ZH + r")[^，。]*)$", Slot("fact", "spoken-languages")),
    _r("spoken-languages", "en", r"^I speak (?P<value>.*\b(?:" + _LANGUAGES_EN + r")\b.*)$", Slot("fact", "spoken-languages")),
    _r("timezone", "zh", r"(?:^|在|是|用|时区是?)(?P<value>东[一二三四五六七八九十]{1,2}区|西[一二三四五六七八九十]{1,2}区|UTC\s?[+-]\s?\d{1,2}|GMT\s?[+-]?\s?\d{0,2})", TIMEZONE),
    _r("timezone", "en", r"^(?:I'm|I am|we're|we are) (?:in|on) (?:the )?(?P<value>" + CAP + r"[a-z]+(?: " + CAP + r"[a-z]+)?) time ?zone", TIMEZONE),
    _r("timezone", "en", r"^my time ?zone is (?P<value>[\w+:/ -]+?)(?: now)?$", TIMEZONE),
    _r("timezone", "en", r"^(?:I'm|I am) on (?P<value>(?:UTC|GMT)(?:[+-]\d{1,2})?|(?-i:[A-Z]{2,4}T)|" + CAP + r"[a-z]+ time)\b", TIMEZONE),
    _r("birthday", "zh", r"生日是(?P<value>[^，。]+)$", BIRTHDAY),
    _r("birthday", "en", r"^my birthday is (?:on )?(?P<value>.+)$", BIRTHDAY),
    _r("birthday", "en", r"^I was born on (?P<value>.+)$", BIRTHDAY),
    _r("education-major", "zh", r"(?:学的是|读的是|专业是)(?P<value>[^，。]+?)(?:专业)?$", EDUCATION),
    _r("education-major", "en", r"^I (?:studied|majored in|have a degree in|did my degree in) (?P<value>[\w ]+)", EDUCATION),
    # ---- constraints: the slots, then any other standing rule ----------------------------
    _r("constraint", "zh", r"(?:注释|commit)[^，。]{0,8}?(?:用|使用)(?P<value>" + _LANGUAGES_ZH + r")", Slot("constraint", "code-comment-language"), standing=True),
    _r("constraint", "zh", r"(?:用|使用|以)(?P<value>" + _LANGUAGES_ZH + r")(?:来)?(?:回复|回答|回我|交流|沟通|跟我说|和我说|说话|聊)", REPLY_LANGUAGE, standing=True),
    _r("constraint", "zh", r"(?:回复|回答|说话|聊天|交流)[^，。]{0,5}?(?:用|使用)(?P<value>" + _LANGUAGES_ZH + r")", REPLY_LANGUAGE, standing=True),
    _r("constraint", "en", r"\b(?:reply|respond|answer|write back|talk to me|speak to me|communicate)(?: to me)? (?:only |always )?in (?P<value>" + _LANGUAGES_EN + r")\b", REPLY_LANGUAGE, standing=True),
    _r("constraint", "zh", r"(?:不超过|不要超过|别超过|控制在|少于|不多于|限制在|最多)(?P<value>\d+|[一二三四五六七八九十百千两]+)(?:个)?(?:字|词|行|句话?|段)", REPLY_LENGTH, standing=True),
    _r("constraint", "en", r"\b(?:answers?|repl(?:y|ies)|responses?|keep it|keep them)\b.*?\b(?:under|below|less than|fewer than|no more than|at most|max(?:imum)?(?: of)?|within|to) (?P<value>\d+) (?:words|characters|chars|sentences|lines|paragraphs)\b", REPLY_LENGTH, standing=True),
    _r("constraint", "zh", r"(?:回复|回答|说话|解释|讲)[^，。]{0,6}?(?P<value>简洁|简短|简单|详细|正式|口语化|直接|幽默|通俗|专业|委婉)", REPLY_STYLE, standing=True),
    _r("constraint", "en", r"\b(?:be|keep (?:it|(?:your )?(?:answers|replies|responses))|(?:answers?|responses?) (?:should be|that are))\b (?:more |a bit more |very |extra |really )?(?P<value>concise|brief|short|succinct|direct|formal|casual|detailed|thorough|friendly|blunt|straightforward)\b", REPLY_STYLE, standing=True),
    _r("constraint", "zh", r"(?:不要|别|不用|少|禁止|不许|不准)(?:在回复里|在回答里|在回复中)?(?:用|加|带|放|使用|发)?(?:任何)?(?P<value>表情符号|表情包|表情|emoji|颜文字)", REPLY_EMOJI, standing=True),
    _r("constraint", "en", r"\b(?:don't|do not|never|no|stop|avoid)(?: use| using| add| adding| include| including| put)? (?:any )?(?P<value>emojis?)\b", REPLY_EMOJI, standing=True),
    _r("constraint", "zh", r"(?:用|使用|以)(?P<value>markdown|列表|表格|编号列表|代码块)", REPLY_FORMAT, standing=True),
    _r("constraint", "zh", r"(?P<value>分点|列点|分条)(?:回答|列出|说明)", REPLY_FORMAT, standing=True),
    _r("constraint", "en", r"\buse (?P<value>bullet points|bullets|numbered lists|tables|markdown|headings|code blocks)\b", REPLY_FORMAT, standing=True),
    _r("constraint", "en", r"\bformat (?:your )?(?:answers|replies|responses) (?:in|as|with) (?P<value>\w+(?: \w+)?)", REPLY_FORMAT, standing=True),
    _r("constraint", "zh", _ZH_STANDING + r"[^，。]*?(?:代码|示例|例子|样例)[^，。]{0,10}?(?:用|使用)(?P<value>" + _PROGRAMMING + r")", CODE_LANGUAGE, standing=True),
    _r("constraint", "en", r"(?=.*\b" + _EN_STANDING + r"|.*\bwhen you (?:show|write|give)).*\b(?:code|examples?|snippets?)\b.*?\b(?:in|use|using) (?P<value>" + _PROGRAMMING + r")\b", CODE_LANGUAGE, standing=True),
    _r("constraint", "zh", r"^.*" + _ZH_STANDING + r".*(?:提醒我|帮我|别|不要|避开|记得|给我|都要|请|要先|先给|先说).*$", _standing_rule, standing=True),
    _r("constraint", "en", r"^.*\b" + _EN_STANDING + r"\b.*\b(?:remind me|include|don't|do not|avoid|use|give me|tell me|ask me|warn me|add|start with|mention|suggest|recommend)\b.*$", _standing_rule, standing=True),
    _r("constraint", "en", r"^.*\b(?:remind me|include|don't|avoid|give me|warn me)\b.*\b" + _EN_STANDING + r"\b.*$", _standing_rule, standing=True),
    _r("constraint", "en", r"^I'd rather you (?:didn't|not|never) .+$", _standing_rule, standing=True),
)
# fmt: on


class RulesEngine:
    """Extraction by Chinese and English patterns (see the module docstring for the key scheme).

    `noise_key_patterns` are the configured hard-filter patterns; None reads them from settings.
    """

    name = "rules"

    def __init__(self, noise_key_patterns: Sequence[str] | None = None) -> None:
        if noise_key_patterns is None:
            noise_key_patterns = get_settings().noise_key_patterns
        self.noise_key_patterns = tuple(noise_key_patterns)

    def extract(self, turn: TurnContext) -> list[Candidate]:
        """Candidates stated in the user's message; the summary and recent turns are never read
        (the message is the only fact source, and rules cannot weigh context)."""
        if is_trivial(turn.message):
            return []
        by_key: dict[str, Candidate] = {}
        for clause in split_clauses(turn.message):
            if clause.skip:
                continue
            for candidate in self._read(clause):
                first = by_key.setdefault(candidate.key, candidate)
                if first is not candidate and first.op == candidate.op == "append":
                    # Several facts about one family member: one append of both sentences.
                    first.content = f"{first.content}；{candidate.content}"[:1000]
                # Otherwise the first statement of a key wins: "我不打算考N1了" is read as a
                # retirement before the goal rules see "打算考N1".
        return [c for c in by_key.values() if drop_reason(c, self.noise_key_patterns) is None]

    def _read(self, clause: Clause) -> list[Candidate]:
        """The candidates of one readable clause: each rule in order, rules of a group never
        reading text another rule of the group already read."""
        found: list[Candidate] = []
        taken: dict[str, list[tuple[int, int]]] = {}
        for rule in RULES:
            if rule.lang != clause.lang or (clause.request and not rule.standing):
                continue
            if clause.subject != "self" and not (rule.family and clause.subject.startswith("family:")):
                continue
            spans = taken.setdefault(rule.group, [])
            for match in rule.pattern.finditer(clause.text):
                if any(match.start() < end and start < match.end() for start, end in spans):
                    continue
                built = rule.build(match, clause)
                if built:
                    spans.append(match.span())
                    found.extend(built)
        return found

    def refine(self, candidates: list[Candidate], existing: list[ExistingMemory]) -> list[Candidate]:
        """The candidates to write. Key match and similarity dedup are the write model's
        (memories/dedup.py); here a retirement whose key does not exist is pointed at the one
        existing memory of its type that names the retired item, so "我不喝奶茶了" also retires
        a tool-written "drink-bubble-tea: 爱喝奶茶"."""
        existing_keys = {memory.key for memory in existing}
        return [
            replace(c, reuse_key=_retired_memory_key(c, existing))
            if c.op == "delete" and c.key not in existing_keys
            else c
            for c in candidates
        ]


def _retired_memory_key(candidate: Candidate, existing: list[ExistingMemory]) -> str | None:
    """The key of the single existing memory of the candidate's type sharing a LEXICON item
    with it, or None when there is none or more than one."""
    items = {slug for slug, _ in lexicon_entries(candidate.content)}
    if not items:
        return None
    hits = [
        m.key
        for m in existing
        if m.memory_type == candidate.memory_type and items & {slug for slug, _ in lexicon_entries(m.content)}
    ]
    return hits[0] if len(hits) == 1 else None
