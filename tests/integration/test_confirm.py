"""Confirm, don't rewrite (R-WRITE-3): real PostgreSQL, Milvus and (for the bursts) a real worker.

A statement that says what an active memory already says refreshes it — expiry, confidence,
`last_confirmed_at`, history op "confirm" — and keeps its text, revision and vector. A changed
value or a new detail still overwrites.
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from sqlalchemy import select

from bench.eval_bursts import STATE_COLUMNS, active_memories, tell
from memory_tasks.api import record_turn
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import HistorySource, LongTermMemory, MemoryHistory
from memory_tasks.db.session import session_scope
from memory_tasks.extraction.candidates import Candidate
from memory_tasks.memories.store import WriteContext, lock_user
from memory_tasks.memories.write_path import write_candidates
from memory_tasks.vectors import index
from memory_tasks.vectors.milvus_store import get_store
from tests.helpers import ingest

pytestmark = [pytest.mark.slow]


def _active(user_id: int) -> list[tuple]:
    """Every column of the user's active memories a confirmation must leave alone, by id."""
    return active_memories(
        user_id,
        (*STATE_COLUMNS, LongTermMemory.vector_status, LongTermMemory.vector_text_hash, LongTermMemory.is_core),
    )


def _ops(user_id: int) -> list[tuple]:
    with session_scope() as session:
        rows = session.execute(
            select(MemoryHistory.memory_key, MemoryHistory.op, MemoryHistory.old_content, MemoryHistory.new_content)
            .where(MemoryHistory.user_id == user_id)
            .order_by(MemoryHistory.id)
        )
        return [tuple(row) for row in rows]


def _write(user_id: int, message_id: int, *candidates: Candidate, days_later: int = 0) -> list[int]:
    with session_scope() as session:
        lock_user(session, user_id)
        now = db_now(session) + timedelta(days=days_later)
        ctx = WriteContext(user_id, HistorySource.EXTRACTION, now, 180, message_id=message_id, stated_at=now)
        return write_candidates(session, ctx, list(candidates)).touched


def test_a_paraphrase_confirms_and_keeps_text_revision_and_vector(db, milvus_env) -> None:
    user = 1401
    first = record_turn(user, "我很喜欢川菜")
    [memory_id] = _write(user, first, Candidate("upsert", "preference", "food-sichuan-cuisine", "很喜欢川菜"))
    index.sync_vectors([memory_id])
    before = _active(user)
    with session_scope() as session:
        expires_before = session.get(LongTermMemory, memory_id).expires_at

    again = record_turn(user, "我特别爱吃川菜")
    touched = _write(
        user,
        again,
        Candidate("upsert", "preference", "food-sichuan-cuisine", "特别爱吃川菜", confidence=0.95),
        days_later=3,
    )
    assert touched == []  # nothing for index sync: no re-embedding, no Milvus write
    assert _active(user) == before
    assert before[0][5] == "SYNCED"
    with session_scope() as session:
        row = session.get(LongTermMemory, memory_id)
        assert row.last_confirmed_at is not None
        assert row.expires_at >= expires_before + timedelta(days=3)
        assert row.confidence == pytest.approx(0.95)
    assert _ops(user)[-1] == ("food-sichuan-cuisine", "confirm", "很喜欢川菜", "很喜欢川菜")

    # The same turn delivered again confirms nothing twice.
    _write(user, again, Candidate("upsert", "preference", "food-sichuan-cuisine", "特别爱吃川菜"), days_later=3)
    assert [op for _, op, *_ in _ops(user)].count("confirm") == 1


@pytest.mark.parametrize(
    ("stored", "stated"),
    [
        ("住在北京", "住在上海"),  # a changed value
        ("住在北京", "住在北京朝阳区"),  # a new detail
        ("Wakes up at 6", "Wakes up at 6:30"),  # a new number
        ("喜欢川菜", "喜欢川菜和湘菜"),  # a new item
    ],
)
def test_a_changed_value_or_new_detail_still_overwrites(db, milvus_env, stored: str, stated: str) -> None:
    user = 1402
    first = record_turn(user, stored)
    _write(user, first, Candidate("upsert", "fact", "slot", stored))
    later = record_turn(user, stated)
    assert _write(user, later, Candidate("upsert", "fact", "slot", stated), days_later=1) != []
    [(_id, _key, _type, content, revision, *_)] = _active(user)
    assert (content, revision) == (stated, 2)
    assert _ops(user)[-1][1] == "upsert"


FIRST_BURST = ["我很喜欢川菜", "我住在北京", "以后回复尽量用中文", "I am allergic to peanuts", "I love Italian food."]
# The same facts again, mostly in other words.
REPEAT_BURST = [
    "我特别爱吃川菜",
    "我现在住在北京",
    "以后回复尽量用中文",
    "I am allergic to peanuts",
    "I really love Italian food.",
]


def test_sending_a_burst_again_in_any_order_leaves_identical_memories(worker, db) -> None:
    user = 1403
    for text in FIRST_BURST:
        assert ingest(user, text)["status"] == "PROCESSED"
    before = _active(user)
    assert len(before) == len(FIRST_BURST)
    assert {status for *_, status, _hash, _core in before} == {"SYNCED"}
    stored_vectors = get_store().stored([row[0] for row in before])
    history_before = len(_ops(user))

    for burst in (REPEAT_BURST, list(reversed(REPEAT_BURST))):
        for text in burst:
            assert ingest(user, text)["status"] == "PROCESSED"
        assert _active(user) == before
    assert get_store().stored([row[0] for row in before]) == stored_vectors
    new_ops = _ops(user)[history_before:]
    assert [op for _, op, *_ in new_ops] == ["confirm"] * (2 * len(REPEAT_BURST))
    assert all(old == new for _, _, old, new in new_ops)


# Each fact said two or three ways, as a chat user repeats themselves (none seen by the rules' tests).
PARAPHRASE_BURST = [
    "I'm a huge fan of Thai food.",
    "I really enjoy Thai cuisine.",
    "Thai dishes are my favorite.",
    "I'm learning Korean.",
    "I'm studying Korean.",
    "Please keep your answers brief.",
    "Keep replies short please.",
    "我很喜欢吃日料",
    "我特别爱吃日本料理",
    "以后回答用中文",
    "请用中文回复我",
]


def _assert_sent_again_in_any_order_changes_nothing(user_id: int, burst: list[str], before: list[tuple]) -> None:
    """Send `burst` again three times, shuffled each time; the user's active memories must stay `before`."""
    for seed in (1, 2, 3):
        shuffled = list(burst)
        random.Random(seed).shuffle(shuffled)
        tell(user_id, shuffled)
        assert _active(user_id) == before, seed


def test_a_burst_of_paraphrases_sent_again_in_any_order_leaves_its_text(db) -> None:
    """R-WRITE-3, issue 13.1 (sixteenth probe): each wording of a fact that scored below the merge threshold
    rewrote the memory, so sending the burst again in another order left other texts (and new revisions,
    re-embeddings). Words a memory was already told in now confirm it."""
    user = 1404
    tell(user, PARAPHRASE_BURST)
    before = _active(user)
    assert len(before) == 5  # one memory per fact
    history_before = len(_ops(user))
    _assert_sent_again_in_any_order_changes_nothing(user, PARAPHRASE_BURST, before)
    assert {op for _, op, *_ in _ops(user)[history_before:]} == {"confirm"}


def test_an_earlier_value_said_again_in_its_earlier_words_is_a_new_value(db) -> None:
    """R-WRITE-3: words already told are a repeat only when they state no other value than the memory's now."""
    user = 1405
    tell(user, ["I'm vegetarian.", "I'm vegan now.", "I'm vegetarian."])
    tell(user, ["I live in Boston.", "I live in Denver.", "I live in Boston."])
    tell(user, ["I love coffee.", "I hate coffee.", "I love coffee."])
    assert sorted(content for _, _, _, content, *_ in _active(user)) == [
        "Is vegetarian",
        "Lives in Boston",
        "Loves coffee",
    ]
    # A model's free wording: one frame reordered, the languages are the value (the rules' is templated).
    for text in ("以后回答用中文", "以后用英文回答", "以后回答用中文"):
        _write(user, record_turn(user, text), Candidate("upsert", "constraint", "reply-language", text))
        assert ("reply-language", text) in [(key, content) for _, key, _, content, *_ in _active(user)], text


def test_a_preference_said_again_of_a_standing_rules_slot_confirms_the_rule(db) -> None:
    """R-WRITE-3 (seventeenth probe): "I prefer metric units" is a preference on `reply-units`, the slot "Always use
    metric" fills as a rule; sent again after the rule, the preference rewrote it (another type), so every re-send
    changed the text. A preference saying what a rule of its slot says confirms the rule; a rule said of a held
    preference still rewrites it as the rule, and another value still changes it (the rule stays a rule)."""
    user = 1406
    burst = ["I prefer metric units.", "Please use metric units.", "Always use metric."]
    tell(user, burst)
    before = _active(user)
    assert [(key, memory_type) for _, key, memory_type, *_ in before] == [("reply-units", "constraint")]
    _assert_sent_again_in_any_order_changes_nothing(user, burst, before)
    tell(user, ["I prefer imperial units."])
    assert [(memory_type, content) for _, _, memory_type, content, *_ in _active(user)] == [
        ("constraint", "Prefers imperial units")
    ]
    tell(user, ["Use imperial units."])
    assert [(memory_type, content) for _, _, memory_type, content, *_ in _active(user)] == [
        ("constraint", "Uses imperial units")  # one wording per unit since the twenty-seventh probe
    ]


def test_a_preference_in_other_words_than_the_rule_of_its_slot_keeps_the_rule_a_rule(db) -> None:
    """R-WRITE-3 (twenty-third probe): "I prefer the metric system" after "Use metric units please" is no repeat in
    the scorer's eyes, so it rewrote the rule as a preference; sent again, the rule rewrote it back, and the memory
    changed type on every re-send. A preference written on a standing rule's slot keeps the memory a rule."""
    user = 1420
    burst = ["Use metric units please.", "Give me measurements in metric.", "I prefer the metric system."]
    tell(user, burst)
    before = _active(user)
    assert [(key, memory_type) for _, key, memory_type, *_ in before] == [("reply-units", "constraint")]
    _assert_sent_again_in_any_order_changes_nothing(user, burst, before)


def test_a_burst_said_in_both_languages_sent_again_leaves_its_text(db) -> None:
    """R-WRITE-3 (seventeenth probe): "We don't eat pork." / 「我们家不吃猪肉。」 / "I don't eat pork." sent again in
    another order rewrote the memory each time the language changed ("n't" and 不 were different negations)."""
    user = 1407
    burst = ["We don't eat pork.", "我们家不吃猪肉。", "I don't eat pork."]
    tell(user, burst)
    before = _active(user)
    assert len(before) == 1
    _assert_sent_again_in_any_order_changes_nothing(user, burst, before)


def test_a_candidate_narrowing_a_memory_on_purpose_is_written_not_confirmed(db) -> None:
    """R-WRITE-3 (eighteenth probe): a refinement taking the pregnancy out of "老婆叫小红；是个老师；老婆怀孕了" was
    taken for a repeat (every part it keeps is in the memory) and confirmed, so the pregnancy stayed. A candidate
    marked `narrows` is written; the same text unmarked still confirms."""
    user = 1409
    said, kept = "老婆叫小红；是个老师；老婆怀孕了", "老婆叫小红；是个老师"
    _write(
        user,
        record_turn(user, "我老婆叫小红，是个老师。她怀孕了。"),
        Candidate("upsert", "fact", "family-partner", said),
    )
    _write(user, record_turn(user, "宝宝出生了"), Candidate("upsert", "fact", "family-partner", kept))
    assert [content for _, _, _, content, *_ in _active(user)] == [said]
    _write(user, record_turn(user, "宝宝出生了！"), Candidate("upsert", "fact", "family-partner", kept, narrows=True))
    assert [content for _, _, _, content, *_ in _active(user)] == [kept]


def test_a_liking_of_another_object_is_not_taken_for_a_repeat(db) -> None:
    """R-PIPE-4, R-WRITE-3 (eighteenth probe): "But I still love sashimi" after "I love sushi" was redirected onto the
    sushi memory by similarity (0.91) and confirmed it: the sashimi was never stored."""
    user = 1410
    tell(user, ["I love sushi.", "But I still love sashimi."])
    assert sorted(content for _, _, _, content, *_ in _active(user)) == ["Loves sushi", "Still loves sashimi"]


def test_a_paraphrase_of_one_statement_of_an_appended_memory_adds_nothing(db) -> None:
    """R-WRITE-3, issue 13.1 (twenty-second probe): "My sister's based in London" after "My sister is a nurse" and
    "My sister lives in London" was appended as a third statement: the whole memory says more than either of its
    statements, so no comparison saw the repeat. Another fact of hers is still appended."""
    user = 1412
    tell(user, ["My sister is a nurse.", "My sister lives in London.", "My sister's based in London."])
    assert [content for _, _, _, content, *_ in _active(user)] == ["Sister is a nurse; Sister lives in London"]
    tell(user, ["My sister works in London."])
    assert [content for _, _, _, content, *_ in _active(user)] == [
        "Sister is a nurse; Sister lives in London; Sister works in London"
    ]


@pytest.mark.parametrize(
    ("user", "said", "left"),
    [
        (
            1431,
            ["My sister is a nurse.", "My sister's a nurse at a hospital.", "My sister works as a nurse."],
            ["Sister's a nurse at a hospital"],
        ),
        (1432, ["我儿子有自闭症。", "我儿子是孤独症谱系障碍。"], ["儿子有自闭症"]),
        (1433, ["My daughter is in 3rd grade.", "My daughter's a third grader."], ["Daughter is in 3rd grade"]),
        (1434, ["我女儿今年5岁。", "我家闺女五岁。"], ["女儿今年5岁"]),
        (1435, ["我老婆是老师。", "我老婆是个教书的。"], ["老婆是老师"]),
    ],
    ids=["more-detail", "zh-condition-names", "en-grader", "zh-age-year", "zh-teacher"],
)
def test_a_family_fact_said_again_in_other_words_stays_one_statement(db, user, said, left) -> None:
    """R-WRITE-3, issue 13.1 (session 41): each paraphrase was appended as another statement of the family member
    ("Sister is a nurse; Sister's a nurse at a hospital"); one that says more replaces the statement it details.
    Sent again in reverse, the memory stays as it is."""
    tell(user, said)
    first = _active(user)
    assert [content for _, _, _, content, *_ in first] == left
    tell(user, list(reversed(said)))
    assert _active(user) == first


def test_a_reply_length_asked_again_after_another_is_the_rule_now(db) -> None:
    """R-WRITE-2, R-WRITE-3 (twenty-second probe): 「回复短一点就行」 said again after 「以后回答详细一点」 was taken for a
    repeat (its words were told before, and 短 / 详细 shared every other word), so the detailed rule stayed."""
    user = 1413
    for said in ["回复短一点就行。", "以后回答详细一点。", "回复短一点就行。"]:
        tell(user, [said])
    assert [content for _, _, _, content, *_ in _active(user)] == ["回复短一点就行"]
    tell(user, ["以后回答详细一点。", "回复短一点就行。"])  # told before, each of them: still the latest one wins
    assert [content for _, _, _, content, *_ in _active(user)] == ["回复短一点就行"]


@pytest.mark.parametrize(
    ("habit", "hours", "other_hours", "left"),
    [
        ("我每天早上喝咖啡。", "我下午不喝咖啡。", "我晚上不喝咖啡了。", ["晚上不喝咖啡了", "每天早上喝咖啡"]),
        (
            "I drink coffee every morning.",
            "I never drink coffee after 2pm.",
            "I don't drink coffee after 4pm.",
            ["Doesn't drink coffee after 4pm", "Drinks coffee every morning"],
        ),
    ],
    ids=["zh", "en"],
)
def test_an_item_kept_from_at_some_hours_leaves_its_habit_at_others(db, habit, hours, other_hours, left) -> None:
    """R-WRITE-2, R-WRITE-3, issue 13.1 (session 33): 「我下午不喝咖啡」 after 「我每天早上喝咖啡」 overwrote the habit,
    and 「我晚上不喝咖啡了」 retired it: both facts are true at once. Said again in any order, nothing changes; other
    hours are the cutoff's new value, the habit stays."""
    user = 1414
    tell(user, [habit, hours])
    before = _active(user)
    assert len(before) == 2
    _assert_sent_again_in_any_order_changes_nothing(user, [habit, hours], before)
    tell(user, [other_hours])
    assert sorted(content for _, _, _, content, *_ in _active(user)) == left


# Nineteenth probe: one fact per burst, each wording new to the suite when the probe was run.
QUALIFIED_BURSTS = [
    ["I'm a software engineer.", "I work as a software engineer.", "My job is software engineering."],
    ["I'm learning Spanish.", "I've been studying Spanish.", "I am currently learning Spanish."],
    ["我每天早上跑步", "我每天早晨都会去跑步", "我有晨跑的习惯"],
    ["我女儿今年上三年级", "我女儿现在读三年级", "我家女儿三年级了"],
    ["I'm a high school teacher.", "I teach high school.", "I work as a teacher at a high school."],
    ["我周末喜欢去游泳", "周末我一般去游泳", "我周末经常游泳"],
    ["I'm lactose intolerant.", "I can't have dairy, I'm lactose intolerant.", "Dairy doesn't agree with me."],
]


@pytest.mark.parametrize(
    "burst",
    QUALIFIED_BURSTS,
    ids=["engineer", "currently", "morning", "grade", "workplace", "how-often", "explained"],
)
def test_a_qualifier_a_synonym_or_a_derived_word_sent_again_leaves_one_text(db, burst: list[str]) -> None:
    """R-WRITE-3, issue 13.1 (nineteenth probe): each of these bursts left one memory, but its text flip-flopped
    on every re-send ("Is learning Spanish" / "Is currently learning Spanish"; 每天早上 / 每天早晨; "software
    engineer" / "software engineering" were read as another value), or kept each paraphrase of a child's school
    stage as a part of its own (「女儿今年上三年级；女儿现在读三年级」)."""
    user = 1410
    tell(user, burst)
    before = _active(user)
    assert len(before) == 1
    assert "；" not in before[0][3]
    _assert_sent_again_in_any_order_changes_nothing(user, burst, before)


def test_a_new_value_behind_a_qualifier_is_kept(db) -> None:
    """R-WRITE-3, issue 13.1 (nineteenth probe): 「我现在更喜欢喝红茶」 after 「我喜欢喝绿茶」 was redirected onto the
    green tea (the black tea has no key of its own) and confirmed it: the new value was lost. 现在更 hid the
    swapped filler 绿 / 红."""
    user = 1411
    tell(user, ["我喜欢喝绿茶", "我现在更喜欢喝红茶"])
    assert sorted(content for _, _, _, content, *_ in _active(user)) == ["喜欢喝绿茶", "现在更喜欢喝红茶"]


# Nineteenth probe: what a model's extractor may propose for one fact, each statement under a key of its own.
MODEL_WORDED_BURSTS = [
    (
        "fact",
        [
            ("location", "User lives in Berlin"),
            ("residence", "User is based in Berlin"),
            ("home-city", "User's home is in Berlin"),
        ],
    ),
    (
        "constraint",
        [
            ("reply-language", "Reply in Chinese"),
            ("language", "User wants replies in Chinese"),
            ("response-language", "Always respond in Mandarin Chinese"),
        ],
    ),
    (
        "fact",
        [
            ("pet", "User has a cat named Mochi"),
            ("pet-cat", "User owns a cat called Mochi"),
            ("cat-name", "User's cat is named Mochi"),
        ],
    ),
    (
        "preference",
        [
            ("hobby-yoga", "User enjoys yoga"),
            ("exercise", "User likes doing yoga"),
            ("fitness-activity", "User practices yoga regularly"),
        ],
    ),
    ("fact", [("居住地", "住在上海"), ("residence-city", "目前居住在上海"), ("location", "家在上海")]),
    ("fact", [("family-son", "儿子今年8岁"), ("child", "有个8岁的儿子"), ("family-children", "儿子8岁了")]),
]


@pytest.mark.parametrize(
    ("memory_type", "burst"), MODEL_WORDED_BURSTS, ids=["berlin", "language", "cat", "yoga", "上海", "儿子"]
)
def test_a_models_wordings_of_one_fact_under_keys_of_their_own_leave_one_memory(db, memory_type, burst) -> None:
    """R-WRITE-3, issue 13.1-2 (nineteenth probe): a model's statements of one fact, each under a key of its own,
    left two or three memories: "User …" read as the verb whose object was swapped ("User lives in Berlin" / "User
    is based in Berlin"), "Mandarin Chinese" as another named value than "Chinese", the "has" of "User has a cat
    named Mochi" as a qualification, 住在 / 家在 as a swapped value, family-son / family-children as two items."""
    user = 1412

    def send(order: list[tuple[str, str]]) -> None:
        for key, content in order:
            _write(user, record_turn(user, content), Candidate("upsert", memory_type, key, content))

    send(burst)
    before = _active(user)
    assert len(before) == 1, before
    for seed in (1, 2, 3):
        shuffled = list(burst)
        random.Random(seed).shuffle(shuffled)
        send(shuffled)
        assert _active(user) == before, seed
