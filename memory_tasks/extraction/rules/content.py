"""What a clause says: its statement as memory content, and the items it names.

Content is the user's statement in the user's language: the clause without its leading
"我" in Chinese ("喜欢吃川菜"), in the third person in English ("Loves Thai food"). An item
is the thing a statement is about ("川菜", "hiking and rock climbing" = two items); an item
pointing at the conversation ("I like that idea", "第二个方案") is a reaction, not a preference.
"""

from __future__ import annotations

import re

from memory_tasks.extraction.rules.clauses import Lang
from memory_tasks.extraction.rules.english import third_person
from memory_tasks.text import has_han

_ZH_TRAILING = re.compile(r"[啊呀哦喔哈啦呢吧嘛～~]+$")


def statement(text: str, lang: Lang) -> str:
    """`text` as memory content: without the leading "我" (Chinese), in the third person (English)."""
    text = text.strip(" ，,。.!！")
    if lang == "zh":
        # A clause cut from "…，也不能吃海鲜" keeps no leading 也: alone it means nothing.
        # 「现在我挺喜欢香菜的」: a time word said before 我 stays, 我 goes.
        text = re.sub(r"^((?:其实|现在|最近|目前|如今|平时)*)我(?:的(?=[^，,]))?(?![们家])", r"\1", text)
        text = re.sub(r"^也(?=\S)", "", text)
        # 「古筝课我是每周去上一次」: the topic said first keeps its place, the 我 (and a 是 of emphasis) after it goes.
        text = re.sub(r"^([^，,我]{2,6})我(?:是)?(?=每|一般|通常|平时|都)", r"\1", text)
        # 「我家儿子…」, 「我家猫…」: whose it is, as 我 is (「我家有只猫」 keeps its 我家: the home is what has one).
        text = re.sub(r"^我家(?=儿子|女儿|孩子|闺女|小孩|宝宝|老大|老二|老公|老婆|先生|太太|猫|狗)", "", text)
        # 「（我说错了，）是对芒果过敏」: the 是 of a correction says nothing of the allergy.
        text = re.sub(r"^是(?=对[^，,]+过敏)", "", text)
        return _ZH_TRAILING.sub("", text).strip()
    # "…, please" closing a statement of the user's ("I like tea, please") asks nothing more of it; a rule keeps its own.
    return third_person(re.sub(r",?\s+please$", "", text, flags=re.IGNORECASE) if re.match(r"I\b", text) else text)


_ZH_ITEM_END = re.compile(r"(?:就|的话|因为|所以|但是|不过|而且|，|,).*$")
_ZH_ITEM_TRIM = re.compile(
    r"^(?:一点|太|很|特别|比较|一些|那种|这种|各种|所有)|(?:之类的|什么的|这种东西|这些|了|啊|呀|的)$"
)
_EN_ITEM_END = re.compile(
    r"\s+(?:anymore|any more|these days|lately|a lot|so much|very much|too|as well|now|at all|over .+|more than .+"
    r"|obviously|of course|lol|haha+|honestly|for sure"
    r"|rather than .+|instead of .+|because .+|since .+|especially .+|after .+|when .+|last \w+|for good|for a while|completely|altogether|(?:a few |\w+ )?\w+ ago"
    r"|in (?:high school|college|school|university)|for (?:coding|programming|writing code)|\s*(?:-|–|—)\s.*)$",
    re.IGNORECASE,
)
_EN_ITEM_ARTICLE = re.compile(r"^(?:a|an|the|some|my|any)\s+", re.IGNORECASE)
# "一点都不能吃": the verb is no item (a clause that goes on about the previous one's item).
PRONOUN_ITEM = re.compile(
    r"^(?:你|您|他|她|它|这|那|吃|喝|用|玩|看|听|it|you|him|her|them|that|this|those|these|one|to"
    # "I don't play anymore": a time word left where the object would be.
    r"|anymore|any more|now|again|today|lately)$",
    re.IGNORECASE,
)
# An item that points at the conversation ("这个回答", "第二个方案", "that idea", "how you
# explained it") is a reaction to the current answer, not a lasting preference.
DEICTIC_ITEM = re.compile(
    r"^(?:这|那|你|您|第[一二三四五六七八九十\d]+|上一|下一)|方案|回答|回复|答案|建议|选项|解释"
    r"|[这那](?:首|个|种|部|本|家|件|次|位|款|样|些)|^(?:感觉|氛围|心情|状态)$"
    r"|^(?:that|this|these|those|it|your|how|what|when|where|why|the (?:first|second|third|last|other|previous|next))\b"
    r"|\b(?:option|idea|answer|reply|response|explanation|suggestion|version|one)s?$"
    # A place, a moment or a thing of the conversation ("escaping to that world", "the energy of this
    # city"), not a lasting liking.
    r"|\b(?:to|in|at|of|with|about|on|for|from|like) (?:that|this|these|those)\b"
    r"|^(?:the )?(?:energy|vibe|vibes|atmosphere|feeling|way|fact|thought|diversity|moment|view)\b",
    re.IGNORECASE,
)
# The verbs a Chinese liking puts before its item (喜欢**看**书); table.py's preference rule reads them.
ZH_ITEM_VERBS = "吃喝听看玩用去逛读打穿做坐养追"
# Foods and drinks whose names open with one of those verbs: 打卤面 is no 打 + 卤面.
ZH_NOUNS_OPENING_WITH_AN_ITEM_VERB = ("打卤面", "打糕", "养乐多", "做饭", "做菜")
_ZH_LIST = re.compile(r"和|、|跟|以及|还有|与|或者")
# ", or" and ", and" before a list's last item are one separator: "onions, garlic, or potatoes".
_EN_LIST = re.compile(r",\s*(?:and|or)\s+|,\s*|\s+and\s+|\s+or\s+|\s*&\s*")


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
    if _ZH_THIS_ONE.match(item.strip()):
        return []  # 「我很喜欢这种天气」: the weather of today, whatever 这种 is trimmed to
    # 「牛羊肉」 is 牛肉 and 羊肉; "both cats and dogs" is cats and dogs.
    item = _ZH_MEATS_JOINED.sub(lambda m: "和".join(f"{animal}肉" for animal in m.group("animals")), item)
    item = _ZH_AROMATICS_JOINED.sub(lambda m: "和".join(m.group(0)), item)  # 「葱姜蒜」 is 葱, 姜 and 蒜
    item = _EN_BOTH.sub("", item)
    item = _ZH_WITH_SOMEONE.sub("", item) if lang == "zh" else item
    parts = (_ZH_LIST if lang == "zh" else _EN_LIST).split(clean_item(item, lang))
    cleaned = [clean_item(p, lang) for p in parts]
    if cleaned and DEICTIC_ITEM.search(cleaned[0]):
        return []  # "how you use it to tell stories and teach people": the list goes on about the conversation
    return [
        p
        for p in cleaned
        if p
        and len(p) <= 40
        and not PRONOUN_ITEM.match(p)
        and not DEICTIC_ITEM.search(p)
        and not (lang == "en" and _EN_NOT_AN_ITEM.search(p))
    ]


# 跟/和 before someone and what is done with them is "with", no list: 「用闽南话跟人聊天」 names one item.
_ZH_WITH_SOMEONE = re.compile(
    r"(?<=.)(?:跟|和|与)(?:人|别人|大家|我|你|他|她|他们|朋友|家人|同事|同学|孩子|老婆|老公|爸妈|父母|家里人)"
    r"(?:一起)?(?:聊|说|讲|交流|沟通|玩|打|去|看|吃|喝|做|写|唱|跑|骑|学|练|下|逛|爬|钓|游|跳)[^、，。]*$"
)
_ZH_MEATS_JOINED = re.compile(r"(?P<animals>[猪牛羊鸡鸭鱼]{2,3})肉")
_ZH_AROMATICS_JOINED = re.compile(r"葱姜蒜|葱蒜|姜蒜|葱姜")
_EN_BOTH = re.compile(r"^(?:both|either) ", re.IGNORECASE)
# A Chinese item that points at what is here and now: 这种天气, 这首歌, 这家店.
_ZH_THIS_ONE = re.compile(r"^(?:很|太|真|特别)?这(?:种|个|首|部|本|家|件|样|些|次)")
# What a liked thing never holds in chit-chat: a clause ("the effects are so cool"), the conversation's
# people or things ("seeing them eat fruit", "making it a better place"), an exclamation ("having such
# a great time").
# A verb or pronoun says the part is no item; so does a "please" closing the list ("…, please").
_EN_NOT_AN_ITEM = re.compile(r"\b(?:is|are|was|were|it|them|they|their|our|us|such)\b|^please$", re.IGNORECASE)


def item_pattern(item: str, min_latin: int = 3, min_han: int = 2) -> re.Pattern[str] | None:
    """What finds `item` in a memory's content: a Chinese item of `min_han` characters or more
    anywhere, a Latin one of `min_latin` letters or more as whole words; None for a shorter item
    (too vague)."""
    item = item.strip()
    if has_han(item):
        return re.compile(re.escape(item)) if len(item) >= min_han else None
    if len(item) < min_latin:
        return None
    return re.compile(rf"(?<![\w-]){re.escape(item)}(?![\w-])", re.IGNORECASE)
