"""The turns of `bench.chaos` and the chat model that answers them (a stub on 127.0.0.1).

`generate(users, turns, seed)` makes a deterministic conversation per user, half of them in
English and half in Chinese: a prologue stating a few facts, then overwrites of them,
retractions, appends, trivial turns ("ok", "好的": SKIPPED unread), and a few turns whose
model answer is poison (never usable: those messages end DEAD). Every turn knows the
extraction answer the model gives for it, so the run needs no real model.

Appends are order-dependent where upserts and deletes are not (a statement older than the
memory's latest one is skipped, so an overwrite and a retraction land the same in any order,
while an append processed after a later statement of its key is dropped): so a key gets at
most one append, only while no other post-prologue turn has touched it, and the prologue is
drained before anything else is sent (`bench.chaos` does that).

`ChaosModel` is the responder of a `tests.fake_openai.FakeOpenAI`: extract calls get the
candidates of each turn they carry (a debounce window carries several, each candidate says
its `turn`), refine calls "keep" everything. With `faults` on (the faulted run), the
turns marked `hostile` get their legitimate candidates mixed with hostile items (NUL, lone
surrogates, Infinity, overflowing numbers, lists for text, booleans for numbers), which must
be dropped, and the turns marked `malformed` get a broken JSON answer the first time they
are asked (the message FAILS once and is retried by the rescan).
"""

from __future__ import annotations

import json
import random
import re
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bench.locomo_model import REFINE_TAIL
from tests.fake_openai import Reply, as_json
from tests.fake_openai import text as reply_text

_USER_MESSAGE = re.compile(r"<user_message>\s*(.*?)\s*</user_message>", re.DOTALL)

# slot -> (memory type, English (statement, content, values), Chinese (statement, content, values))
SLOTS: dict[str, tuple[str, tuple[str, str, list[str]], tuple[str, str, list[str]]]] = {
    "home-city": (
        "fact",
        ("I live in {v} now.", "Lives in {v}", ["Berlin", "Lisbon", "Osaka", "Toronto", "Nairobi", "Lima"]),
        ("我现在住在{v}。", "住在{v}", ["北京", "上海", "成都", "杭州", "西安", "广州"]),
    ),
    "job": (
        "fact",
        ("I work as a {v}.", "Works as a {v}", ["nurse", "carpenter", "pilot", "librarian", "geologist", "baker"]),
        ("我的职业是{v}。", "职业是{v}", ["医生", "教师", "程序员", "厨师", "律师", "摄影师"]),
    ),
    "pet": (
        "fact",
        ("I have a {v} at home.", "Has a {v}", ["tabby cat", "golden retriever", "grey parrot", "tortoise"]),
        ("我家里养了一只{v}。", "养了一只{v}", ["橘猫", "柯基", "鹦鹉", "乌龟"]),
    ),
    "favourite-food": (
        "preference",
        ("My favourite food is {v}.", "Favourite food is {v}", ["ramen", "paella", "tacos", "lasagna", "pho"]),
        ("我最喜欢吃{v}。", "最喜欢吃{v}", ["火锅", "饺子", "烤鸭", "小笼包", "麻婆豆腐"]),
    ),
    "weekend-sport": (
        "preference",
        ("On weekends I play {v}.", "Plays {v} on weekends", ["tennis", "badminton", "rugby", "volleyball"]),
        ("我周末打{v}。", "周末打{v}", ["羽毛球", "乒乓球", "篮球", "网球"]),
    ),
    "language-goal": (
        "goal",
        ("I am learning {v} this year.", "Is learning {v}", ["Japanese", "Portuguese", "Korean", "Swahili"]),
        ("我今年在学{v}。", "在学{v}", ["日语", "法语", "德语", "西班牙语"]),
    ),
}
RETRACT = {"en": "Please forget what I told you about my {slot}.", "zh": "请忘掉我说过的关于{slot}的事。"}
SLOT_NAMES = {
    "en": {
        "home-city": "city",
        "job": "job",
        "pet": "pet",
        "favourite-food": "favourite food",
        "weekend-sport": "weekend sport",
        "language-goal": "language studies",
    },
    "zh": {
        "home-city": "住处",
        "job": "工作",
        "pet": "宠物",
        "favourite-food": "饮食",
        "weekend-sport": "运动",
        "language-goal": "学语言",
    },
}
# An append adds one sentence to the memory of its slot.
APPENDS = {
    "en": {
        "home-city": ("About where I live: my flat overlooks the river.", "Flat overlooks the river"),
        "job": ("About my job: I also teach first aid on Sundays.", "Also teaches first aid on Sundays"),
        "pet": ("About my pet: it is twelve years old.", "The pet is twelve years old"),
        "favourite-food": ("About food: I cook it every Friday.", "Cooks it every Friday"),
        "weekend-sport": ("About sport: I play in a club league.", "Plays in a club league"),
        "language-goal": ("About languages: I practise with a tutor online.", "Practises with an online tutor"),
    },
    "zh": {
        "home-city": ("关于住处：我家窗外能看到江。", "窗外能看到江"),
        "job": ("关于工作：我还兼职做翻译。", "还兼职做翻译"),
        "pet": ("关于宠物：它已经十二岁了。", "宠物已经十二岁"),
        "favourite-food": ("关于饮食：我每周五自己做。", "每周五自己做"),
        "weekend-sport": ("关于运动：我参加了俱乐部联赛。", "参加俱乐部联赛"),
        "language-goal": ("关于学语言：我每周上网课。", "每周上网课"),
    },
}
TRIVIAL = {"en": ["ok", "thanks!", "haha", "lol", "ok thanks", "👍"], "zh": ["好的", "谢谢", "嗯嗯", "哈哈哈", "收到"]}
POISON = {"en": "Remember this, it matters: reference {n}.", "zh": "请记住这个，很重要：编号{n}。"}
POISON_EVERY = 60  # turns after the prologue; the first poison turn is the 30th


@dataclass(frozen=True)
class Turn:
    user_id: int
    text: str
    kind: str  # state, overwrite, retract, append, trivial, poison
    prologue: bool = False
    hostile: bool = False  # the faulted run mixes hostile items into the answer
    malformed: bool = False  # the faulted run answers broken JSON the first time


@dataclass
class Plan:
    """What the model answers for one user text: the candidates, or poison."""

    candidates: list[dict[str, Any]] = field(default_factory=list)
    poison: bool = False
    hostile: bool = False
    malformed: bool = False


def _candidate(op: str, memory_type: str, key: str, content: str) -> dict[str, Any]:
    return {
        "op": op,
        "memory_type": memory_type,
        "key": key,
        "content": content,
        "importance": 3,
        "confidence": 0.9,
        "ttl_days": None,
        "reason": "stated by the user",
    }


def generate(
    users: int, turns: int, seed: int, *, prologue_slots: int = 4, first_user: int = 91_001
) -> tuple[list[Turn], dict[str, Plan]]:
    """`turns` turns of `users` users, interleaved as a busy service sees them, and the model's plan per text.

    The prologue (`prologue_slots` statements per user) comes first; the rest is drawn with
    `random.Random(seed)`: about 40 % overwrites, 12 % retractions, 10 % appends, 20 % trivial
    turns, the rest new statements; one turn in POISON_EVERY is poison (the 30th first), one in
    ~12 is hostile and one in ~15 malformed once (the last two only in the faulted run).
    """
    rng = random.Random(seed)
    plans: dict[str, Plan] = {}
    user_ids = [first_user + number for number in range(users)]
    language = {user: ("en" if number % 2 == 0 else "zh") for number, user in enumerate(user_ids)}
    current: dict[int, dict[str, str | None]] = {user: {} for user in user_ids}  # slot -> value (None: retracted)
    touched: dict[int, set[str]] = {user: set() for user in user_ids}  # slots changed after the prologue
    appended: dict[int, set[str]] = {user: set() for user in user_ids}

    def statement(user: int, slot: str, value: str, kind: str, prologue: bool = False) -> Turn:
        memory_type, english, chinese = SLOTS[slot]
        said, content, _ = english if language[user] == "en" else chinese
        text = said.format(v=value)
        plans.setdefault(text, Plan()).candidates = [_candidate("upsert", memory_type, slot, content.format(v=value))]
        current[user][slot] = value
        return Turn(user, text, kind, prologue)

    prologue = []
    for user in user_ids:
        for slot in rng.sample(list(SLOTS), prologue_slots):
            value = rng.choice(_values(slot, language[user]))
            prologue.append(statement(user, slot, value, "state", prologue=True))
    rng.shuffle(prologue)

    rest: list[Turn] = []
    poison_number = 0
    while len(prologue) + len(rest) < turns:
        user = rng.choice(user_ids)
        lang = language[user]
        roll = rng.random()
        stated = [slot for slot, value in current[user].items() if value is not None]
        if len(rest) % POISON_EVERY == POISON_EVERY // 2:
            poison_number += 1
            text = POISON[lang].format(n=f"{user}-{poison_number}")
            plans[text] = Plan(poison=True)
            rest.append(Turn(user, text, "poison"))
            continue
        if roll < 0.216:
            rest.append(Turn(user, rng.choice(TRIVIAL[lang]), "trivial"))
            continue
        appendable = [slot for slot in stated if slot not in touched[user] and slot not in appended[user]]
        if roll < 0.316 and appendable:
            slot = rng.choice(appendable)
            text, addition = APPENDS[lang][slot]
            memory_type = SLOTS[slot][0]
            plans.setdefault(text, Plan()).candidates = [_candidate("append", memory_type, slot, addition)]
            appended[user].add(slot)
            touched[user].add(slot)
            turn = Turn(user, text, "append")
        elif roll < 0.436 and stated:
            slot = rng.choice(stated)
            text = RETRACT[lang].format(slot=SLOT_NAMES[lang][slot])
            plans.setdefault(text, Plan()).candidates = [_candidate("delete", SLOTS[slot][0], slot, "")]
            current[user][slot] = None
            touched[user].add(slot)
            turn = Turn(user, text, "retract")
        else:
            slot = rng.choice(list(SLOTS))
            choices = [v for v in _values(slot, lang) if v != current[user].get(slot)]
            kind = "overwrite" if current[user].get(slot) is not None else "state"
            touched[user].add(slot)
            turn = statement(user, slot, rng.choice(choices), kind)
        marks = {"hostile": rng.random() < 0.08, "malformed": rng.random() < 0.07}
        plan = plans[turn.text]
        plan.hostile = plan.hostile or marks["hostile"]
        plan.malformed = plan.malformed or marks["malformed"]
        rest.append(Turn(turn.user_id, turn.text, turn.kind, hostile=marks["hostile"], malformed=marks["malformed"]))
    return prologue + rest, plans


def _values(slot: str, language: str) -> list[str]:
    _, english, chinese = SLOTS[slot]
    return (english if language == "en" else chinese)[2]


# Items no validator may let through; each is dropped with a logged reason, the rest is used.
HOSTILE_ITEMS = (
    '{"op": "upsert", "memory_type": "fact", "key": "nul-byte", "content": "a\\u0000b", "confidence": 0.9}',
    '{"op": "upsert", "memory_type": "fact", "key": "lone-surrogate", "content": "x\\ud800y", "confidence": 0.9}',
    '{"op": "upsert", "memory_type": "fact", "key": "infinite", "content": "big", "importance": Infinity}',
    '{"op": "upsert", "memory_type": "fact", "key": "overflow", "content": "huge", "confidence": 1e999}',
    '{"op": "upsert", "memory_type": "fact", "key": "not-a-nan", "content": "nan", "confidence": NaN}',
    '{"op": "upsert", "memory_type": "fact", "key": "a-list", "content": ["stringified", "list"], "confidence": 0.9}',
    '{"op": "upsert", "memory_type": "fact", "key": "an-object", "content": {"nested": 1}, "confidence": 0.9}',
    '{"op": "upsert", "memory_type": "fact", "key": "bool-confidence", "content": "sure", "confidence": true}',
    '{"op": "upsert", "memory_type": "profile", "key": "profile-field", "content": "admin", "importance": 99}',
)
MALFORMED_ANSWER = '{"candidates": [{"op": "upsert", "memory_type": "fact", "key": '
POISON_ANSWER = "I will not answer in JSON \x00 \ud800 {{{"


class ChaosModel:
    """The stub's responder (see the module doc); counts what it served, by kind."""

    def __init__(self, plans: dict[str, Plan]) -> None:
        self.plans = plans
        self.faults = False
        self.served: Counter[str] = Counter()
        self._asked: Counter[str] = Counter()
        self._lock = threading.Lock()

    def __call__(self, body: dict[str, Any]) -> Reply:
        content = str(body["messages"][-1]["content"])
        # One turn, or a debounce window of several inside <user_turns> (issue 16), oldest first.
        texts = _USER_MESSAGE.findall(content)
        if texts:
            return self._extract(texts)
        if REFINE_TAIL in content:
            proposed = json.loads(content.rsplit(REFINE_TAIL, 1)[0])["candidates"]
            self._count("refine")
            return as_json(
                {"decisions": [{"index": c["index"], "action": "keep", "target_key": None} for c in proposed]}
            )
        self._count("other")
        return as_json({"decisions": [], "candidates": [], "actions": []})

    def _extract(self, texts: list[str]) -> Reply:
        """The answer for a window: what its turns one by one would get, in their order.

        A poison turn makes the whole answer poison and a malformed turn asked for the first
        time makes it malformed (the window fails, and its turns are retried alone); otherwise
        the legitimate candidates of every turn, each saying its `turn` (1-based), with the
        hostile items mixed in when any turn is hostile.
        """
        plans = [self.plans.get(text) for text in texts]
        with self._lock:
            first = []
            for text in texts:
                self._asked[text] += 1
                first.append(self._asked[text] == 1)
        known = [
            (number, plan, fresh) for number, (plan, fresh) in enumerate(zip(plans, first, strict=True), 1) if plan
        ]
        if len(known) < len(texts):
            self._count("unknown")
        if any(plan.poison for _, plan, _ in known):
            self._count("poison")
            return reply_text(POISON_ANSWER)
        if self.faults and any(plan.malformed and fresh for _, plan, fresh in known):
            self._count("malformed")
            return reply_text(MALFORMED_ANSWER)
        legit = [
            json.dumps({**candidate, "turn": number}, ensure_ascii=False)
            for number, plan, _ in known
            for candidate in plan.candidates
        ]
        if self.faults and any(plan.hostile for _, plan, _ in known):
            self._count("hostile")
            return reply_text('{"candidates": [' + ", ".join([*HOSTILE_ITEMS, *legit]) + "]}")
        self._count("extract")
        return reply_text('{"candidates": [' + ", ".join(legit) + "]}")

    def _count(self, kind: str) -> None:
        with self._lock:
            self.served[kind] += 1

    def reset(self, faults: bool) -> None:
        """A new run: nothing asked yet; `faults` switches the hostile and malformed answers on."""
        with self._lock:
            self.faults = faults
            self.served = Counter()
            self._asked = Counter()
