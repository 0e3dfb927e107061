"""Retractions and forget requests: which statement a negation or a forget request takes back.

A retraction is the negation of a statement the rules can read: "I'm not vegetarian anymore" takes
back "I'm vegetarian" (the diet slot), "我已经不在阿里上班了" takes back "我在阿里上班" (employer).
`positive_form` gives that statement; the engine reads it and turns what it finds into deletes
on the same keys. A forget request ("请忘掉我的职业信息", "forget that I like jazz") names what to
forget either as such a statement or by a topic word (`topic_keys`: 职业 -> occupation).
"""

from __future__ import annotations

import re

from memory_tasks.extraction.rules.clauses import Lang

_EN_RETRACTIONS = (
    (re.compile(r"^I(?:'m| am) no longer (?P<rest>.+)$", re.IGNORECASE), "I'm {rest}"),
    (re.compile(r"^I(?:'m| am) not (?P<rest>.+?) (?:anymore|any more)$", re.IGNORECASE), "I'm {rest}"),
    (re.compile(r"^I no longer (?P<rest>.+)$", re.IGNORECASE), "I {rest}"),
    (re.compile(r"^I (?:don't|do not) (?P<rest>.+?) (?:anymore|any more)$", re.IGNORECASE), "I {rest}"),
    (re.compile(r"^I(?:'ve| have)? (?:stopped|quit) being (?P<rest>.+)$", re.IGNORECASE), "I'm {rest}"),
    # "I was allergic to penicillin as a kid but outgrew it": an allergy over (a past one is no allergy now).
    (
        re.compile(
            r"^I was (?P<rest>allergic to [\w -]+?)(?: as a (?:kid|child|baby)| when I was (?:little|young|a kid|a child))?,?"
            r" but (?:I )?(?:outgrew|grew out of|got over|am not any ?more|'m not any ?more)(?: it| them)?$",
            re.IGNORECASE,
        ),
        "I'm {rest}",
    ),
    # "I outgrew my nut allergy": the allergy is over.
    (
        re.compile(
            r"^I(?:'ve| have)? (?:outgrown|outgrew|grew out of|got over|gotten over) my (?P<rest>.+? allerg(?:y|ies))$",
            re.IGNORECASE,
        ),
        "I have {rest}",
    ),
)
_ZH_RETRACTIONS = (
    (re.compile(r"^(?:我)?(?:现在|已经|早就|目前)?(?:不再|不)(?P<rest>.+?)了$"), "我{rest}"),
    # 「我对花生不过敏了」: the negation inside the allergy.
    (re.compile(r"^(?:我)?(?:现在|已经|早就|目前)?对(?P<rest>.+?)(?:已经|早就)?(?:不再|不)过敏了$"), "我对{rest}过敏"),
)

# An allergy, a diet or a pregnancy denied ("Actually I'm not allergic to penicillin", 「其实我对青霉素不过敏」,
# 「我不是素食者」, 「我不吃素」, 「我搞错了，没怀孕」): it takes back one the user holds (a misdiagnosis, a
# wrong guess, a false test), and is no memory otherwise (`denies`); it is never stored as a core fact
# whose content says the opposite.
_DENIALS = {
    "en": (
        (
            re.compile(
                r"^(?:actually,? |turns out,? |it turns out,? |in fact,? |so )?I(?:'m| am) (?:actually )?not "
                r"(?P<rest>allergic to .+?)(?: after all| either)?$",
                re.IGNORECASE,
            ),
            "I'm {rest}",
        ),
        (
            re.compile(
                r"^(?:actually,? )?I (?:don't|do not) (?:actually )?have (?P<rest>.+? allerg(?:y|ies))$", re.IGNORECASE
            ),
            "I have {rest}",
        ),
        (
            re.compile(
                r"^(?:actually,? )?I(?:'m| am) (?:actually )?not (?:a |an )?"
                r"(?P<rest>vegetarian|vegan|pescatarian|pescetarian)(?: after all| either)?$",
                re.IGNORECASE,
            ),
            "I'm {rest}",
        ),
        # "I'm not pregnant after all": a pregnancy said by mistake (a false positive test).
        (
            re.compile(
                r"^(?:actually,? )?I(?:'m| am) (?:actually )?not (?P<rest>pregnant)(?: after all)?$", re.IGNORECASE
            ),
            "I'm {rest}",
        ),
    ),
    "zh": (
        (re.compile(r"^(?:其实|实际上)?(?:我)?(?:其实)?对(?P<rest>.+?)(?:并|其实)?不过敏(?:的)?$"), "我对{rest}过敏"),
        # 「后来检查发现其实不是青霉素过敏」: the allergy a test found wrong.
        (
            re.compile(
                r"^(?:[^，。]{0,8}?(?:发现|才知道|原来))?(?:其实|实际上)?(?:我)?(?:其实|并)?不是(?:对)?"
                r"(?P<rest>[^，。]{1,10}?)过敏(?:的)?$"
            ),
            "我对{rest}过敏",
        ),
        (re.compile(r"^(?:其实|实际上)?(?:我)?(?:其实|并|从来)?不是(?P<rest>素食(?:主义)?者|吃素的)$"), "我是{rest}"),
        # 「医生说我没有高血压」: a condition a doctor ruled out.
        (
            re.compile(
                r"^(?:其实|实际上)?(?:我)?(?:其实|并|从来)?(?:没有|没)(?P<rest>高血压|糖尿病|哮喘|痛风|抑郁症|焦虑症|高血脂|心脏病|贫血)(?:的)?$"
            ),
            "我有{rest}",
        ),
        (re.compile(r"^(?:其实|实际上)?(?:我)?(?:其实|并|从来)?不吃(?P<rest>素)(?:的)?$"), "我吃{rest}"),
        (re.compile(r"^(?:其实|实际上)?(?:我)?(?:其实|并)?(?:没|没有)(?P<rest>怀孕)(?:了|啦)?$"), "我{rest}了"),
    ),
}


def positive_form(text: str, lang: Lang) -> str | None:
    """The statement a retraction or a denial takes back ("I'm not vegan anymore" -> "I'm vegan"), or None."""
    for pattern, template in (*(_ZH_RETRACTIONS if lang == "zh" else _EN_RETRACTIONS), *_DENIALS[lang]):
        match = pattern.match(text)
        if match:
            return template.format(rest=match.group("rest"))
    return None


def denies(text: str, lang: Lang) -> bool:
    """True when `text` denies an allergy, a diet or a pregnancy rather than retiring one: only a held one is taken back."""
    return any(pattern.match(text) for pattern, _ in _DENIALS[lang])


# Topic words of a forget request and the single-valued slot each names (employer before
# occupation: "工作单位" is the employer, "工作" the occupation).
_FORGET_TOPICS = (
    ("employer", re.compile(r"工作单位|单位|公司|\bwhere I work\b|\bemployer\b|\bcompany\b", re.IGNORECASE)),
    ("occupation", re.compile(r"职业|工作|\b(?:job|occupation|profession|what I do)\b", re.IGNORECASE)),
    ("residence-city", re.compile(r"住址|地址|住在哪|住哪|住的地方|\baddress\b|\bwhere I live\b", re.IGNORECASE)),
    ("birthday", re.compile(r"生日|\bbirthday\b", re.IGNORECASE)),
    ("hometown", re.compile(r"老家|家乡|\bhometown\b|\bwhere I'm from\b", re.IGNORECASE)),
    ("diet", re.compile(r"饮食|\bdiet\b", re.IGNORECASE)),
)


def topic_key(text: str) -> str | None:
    """The fact slot a forget request names by topic ("我的职业" -> occupation), or None."""
    return next((key for key, pattern in _FORGET_TOPICS if pattern.search(text)), None)
