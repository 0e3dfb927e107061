"""The offline rules engine (memory_tasks.extraction.rules) and its labeled data."""

from __future__ import annotations

import json
import re
import time
from dataclasses import replace
from pathlib import Path

import pytest

from bench.eval_extraction import DEFAULT_DATA, evaluate, load_turns
from config.settings import DEFAULT_NOISE_KEY_PATTERNS, Settings
from memory_tasks.demo import SAMPLE_CONVERSATION
from memory_tasks.extraction.candidates import Candidate, coerce_candidate
from memory_tasks.extraction.core import is_core_memory
from memory_tasks.extraction.rules import RulesEngine
from memory_tasks.extraction.rules.clauses import split_clauses
from memory_tasks.extraction.rules.english import third_person
from memory_tasks.extraction.rules.given_up import GIVEN_UP
from memory_tasks.extraction.rules.keys import preference_key
from memory_tasks.extraction.types import ExistingMemory, TurnContext
from memory_tasks.memories.store import append_content

SCENARIOS = Path(__file__).resolve().parent.parent / "data" / "extraction_scenarios.jsonl"
ENGINE = RulesEngine(DEFAULT_NOISE_KEY_PATTERNS)


def extract(message: str) -> list[Candidate]:
    return ENGINE.extract(TurnContext(message=message))


def written(message: str) -> list[Candidate]:
    """What the engine writes for `message` to a user who holds nothing: what a switch gives up (`rules.given_up`)
    is only looked for among held memories."""
    return ENGINE.refine(extract(message), [])


def only(message: str) -> Candidate:
    candidates = extract(message)
    assert len(candidates) == 1, [(c.key, c.content) for c in candidates]
    return candidates[0]


# --- the five types and their keys -----------------------------------------------------------


def test_a_liked_cuisine_is_a_food_preference_in_the_users_language() -> None:
    """R-TYPE-2, R-LLM-2: 我喜欢吃川菜 -> preference food-sichuan-cuisine, content kept in Chinese."""
    candidate = only("我喜欢吃川菜")

    assert (candidate.op, candidate.memory_type, candidate.key) == ("upsert", "preference", "food-sichuan-cuisine")
    assert candidate.content == "喜欢吃川菜"


@pytest.mark.parametrize(
    ("message", "city"),
    [
        ("I live in Berlin", "Berlin"),
        ("我住在北京", "北京"),
        ("我搬到上海了", "上海"),
        ("We moved to Toronto", "Toronto"),
    ],
)
def test_every_new_home_city_lands_on_the_one_residence_slot(message: str, city: str) -> None:
    """R-PIPE-5: a single-valued slot is keyed, so a new value overwrites the old one."""
    candidate = only(message)

    assert (candidate.memory_type, candidate.key, candidate.op) == ("fact", "residence-city", "upsert")
    assert city in candidate.content


@pytest.mark.parametrize(
    ("message", "memory_type", "key", "fact"),
    [
        ("以后回复尽量用中文", "constraint", "reply-language", "中文"),
        ("回复不超过200字", "constraint", "reply-length", "200"),
        ("From now on, reply in Japanese", "constraint", "reply-language", "Japanese"),
        ("Keep your answers under 150 words", "constraint", "reply-length", "150"),
        ("我是程序员", "fact", "occupation", "程序员"),
        ("I work as a nurse", "fact", "occupation", "nurse"),
        ("我在准备考N1", "goal", "goal-jlpt-n1", "N1"),
        ("My goal is to run a marathon", "goal", "goal-marathon", "marathon"),
        ("我正在开发PAI项目", "project", "project-pai", "PAI"),
        ("I'm building a Rust compiler", "project", "project-rust-compiler", "Rust compiler"),
        ("我对花生过敏", "fact", "allergy-peanut", "花生"),
        ("I'm vegetarian", "fact", "diet", "vegetarian"),
        ("我养了一只猫", "fact", "pet-cat", "猫"),
        ("My wife is a teacher", "fact", "family-partner", "teacher"),
        ("我特别爱喝乌龙茶", "preference", "drink-oolong-tea", "乌龙茶"),
        ("I'm in the Pacific time zone", "fact", "timezone", "Pacific"),
        ("下雨时提醒我带伞", "constraint", "rule-rain-umbrella", "带伞"),
    ],
)
def test_the_seed_examples_get_their_type_and_stable_key(message: str, memory_type: str, key: str, fact: str) -> None:
    """R-TYPE-1/2, R-LLM-2: Chinese and English patterns for the five types, with stable keys."""
    candidate = only(message)

    assert (candidate.memory_type, candidate.key) == (memory_type, key)
    assert fact in candidate.content


def test_distinct_likes_do_not_overwrite_each_other() -> None:
    """R-PIPE-5: multi-valued preferences get one key per item."""
    keys = [c.key for c in extract("我平时喜欢听爵士乐和古典音乐")] + [only("I love milk tea").key]

    assert keys == ["music-jazz", "music-classical-music", "drink-milk-tea"]


def test_one_item_has_one_key_in_both_languages() -> None:
    """R-PIPE-5: the key depends on the item only, so English and Chinese statements about it meet."""
    assert only("我喜欢喝奶茶").key == only("I love milk tea").key == preference_key("bubble tea") == "drink-milk-tea"


# --- retirement and overwrite -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("positive", "negative"),
    [
        ("我喜欢喝奶茶", "我不喝奶茶了"),
        ("I love milk tea", "I don't drink milk tea anymore"),
        ("I love milk tea", "我不喝奶茶了"),
        ("我在准备考N1", "我不打算考N1了"),
        ("我有抽烟的习惯", "我已经戒烟了"),
        ("I smoke every day", "I quit smoking"),
        ("I'm training for a marathon", "I gave up on the marathon"),
        ("我一直用安卓手机", "我不再用安卓手机了"),
    ],
)
def test_a_negation_deletes_the_key_the_positive_statement_used(positive: str, negative: str) -> None:
    """R-PIPE-5: "I don't drink milk tea any more" deletes the old memory, by its key."""
    retired = only(negative)

    assert retired.op == "delete"
    assert retired.key == only(positive).key


def test_a_dislike_overwrites_the_like_of_the_same_item() -> None:
    """R-PIPE-5: like and dislike of one item share the key, so the later one replaces the earlier."""
    like, dislike = only("我喜欢吃香菜"), only("我不吃香菜")

    assert (like.key, dislike.key) == ("food-cilantro", "food-cilantro")
    assert (dislike.op, dislike.content) == ("upsert", "不吃香菜")


def test_a_plain_dislike_is_a_preference_not_a_retirement() -> None:
    """R-TYPE-2: "我不吃香菜" is a stable dislike; only "…了" / "anymore" retires a memory."""
    assert only("I can't stand cilantro").op == "upsert"
    assert only("I don't eat cilantro anymore").op == "delete"


# --- what must produce nothing -------------------------------------------------------------------


# fmt: off
NOTHING_TO_REMEMBER = {
    "short-term": [
        "今晚八点提醒我给妈妈打电话", "明天早上七点叫我起床", "明后天有雨时提醒我带伞", "这周五之前帮我把周报写完",
        "Remind me tomorrow at 9 to call the dentist", "Next week I'm in Tokyo for a conference",
    ],
    "weather": ["今天北京多云转晴，最高温26℃，南风三级", "It's 12°C and cloudy here"],
    "internal": ["当前可用工具：网页搜索、计算器", "把流式输出关掉吧", "Turn off streaming output please"],
    "profile": ["以后叫我小王就行", "你以后就叫小智吧", "Call me Sam", "Use 🦊 as your emoji", "我叫张伟"],
    "summary": ["本月的开销帮我统计一下", "Weekly summary: 3 meetings, 2 PRs merged"],
    "question": ["你觉得川菜和粤菜哪个更好吃？", "Do you like pizza?", "How do I make sourdough starter?"],
    "small talk": ["哈哈你真逗", "I think the second option is better", "I'm fine, thanks for asking"],
    "one-off task": ["帮我写一个Python的快速排序", "Write me a haiku about autumn", "用英文回答这个问题"],
    "reaction to the answer": ["I like that idea", "我更喜欢第二个方案", "I love how you explained that"],
    "action about to happen": ["我准备去睡觉了"],
}
# fmt: on


@pytest.mark.parametrize(
    ("kind", "message"), [(kind, message) for kind, messages in NOTHING_TO_REMEMBER.items() for message in messages]
)
def test_short_term_weather_tools_profile_questions_and_small_talk_produce_nothing(kind: str, message: str) -> None:
    """R-TYPE-3, R-TYPE-1: none of these is a long-term memory."""
    assert extract(message) == [], kind


def test_rain_reminder_is_long_term_but_rain_in_the_next_days_is_not() -> None:
    """R-TYPE-3: the seed's own example."""
    assert only("下雨时提醒我带伞").memory_type == "constraint"
    assert extract("明后天有雨时提醒我带伞") == []


def test_a_short_window_binds_the_rest_of_its_sentence_only() -> None:
    """R-TYPE-3: "这周…，别推荐甜点" is a one-week rule; what came before the window still counts."""
    assert extract("这周我在减肥，别给我推荐甜点") == []
    assert [c.key for c in extract("我是程序员，今晚要加班")] == ["occupation"]


@pytest.mark.parametrize("message", ["我下个月要搬到上海", "Next month I'm moving to Berlin", "下个月提醒我续费会员"])
def test_the_offline_engine_reads_nothing_from_a_clause_a_month_ahead(message: str) -> None:
    """R-TYPE-3: the rules engine cannot tell a plan from a present fact, so the month ahead still binds."""
    assert extract(message) == []


def test_a_sentence_to_translate_is_not_a_statement_of_the_user() -> None:
    """R-TYPE-3: quoted text and one-off tasks are not facts about the user."""
    assert extract('Translate "I love spicy food" into French') == []
    assert extract("帮我翻译一下这句话：I love you") == []


def test_someone_elses_facts_are_not_the_users() -> None:
    """R-DATA-2 spirit: a friend's job is not the user's job; a family member's is a family fact."""
    assert extract("我朋友是医生") == []
    assert only("我老公是医生").key == "family-partner"


def test_trivial_messages_give_nothing() -> None:
    """R-PIPE-8: acknowledgements and emoji are never extracted from."""
    assert extract("好的谢谢") == extract("👍🙏") == extract("ok thanks") == []


def test_a_bare_number_as_a_city_is_filtered_inside_the_engine() -> None:
    """R-TYPE-3: the engine applies the hard filters itself (digits as a city)."""
    assert extract("I live in 94107") == []
    assert extract("我住在302，快递放门口就行") == []


def test_the_engine_uses_the_configured_noise_key_patterns() -> None:
    """R-TYPE-4: keys matching the configured patterns are dropped at extraction too."""
    engine = RulesEngine(noise_key_patterns=("residence-*",))

    assert engine.extract(TurnContext(message="I live in Berlin")) == []
    assert engine.extract(TurnContext(message="I'm a nurse"))[0].key == "occupation"


def test_context_is_never_a_fact_source() -> None:
    """R-DATA-2, seed 事实来源: only the user's message yields memories; summary and assistant turns do not."""
    turn = TurnContext(
        message="我是程序员", summary="用户住在北京", recent=({"role": "assistant", "content": "你喜欢吃川菜"},)
    )

    assert [c.key for c in ENGINE.extract(turn)] == ["occupation"]
    assert ENGINE.extract(TurnContext(message="好的", recent=({"role": "assistant", "content": "你住在北京"},))) == []


# --- several statements, numbers, schema ---------------------------------------------------------


def test_several_statements_in_one_message_give_several_candidates() -> None:
    """R-LLM-2: one candidate per statement."""
    keys = [c.key for c in extract("我住在成都，是一名护士，平时喜欢吃火锅。以后回复尽量用中文")]

    assert keys == ["residence-city", "occupation", "food-hotpot", "reply-language"]


def test_clear_statements_pass_the_confidence_floor_and_hedged_ones_do_not() -> None:
    """R-PIPE-3: explicit first-person statements >= LONG_TERM_MEMORY_MIN_CONFIDENCE; hedges fall below."""
    floor = Settings().LONG_TERM_MEMORY_MIN_CONFIDENCE

    assert only("我喜欢吃川菜").confidence >= floor
    assert only("I live in Berlin").confidence >= floor
    assert only("我可能喜欢川菜").confidence < floor
    assert only("I think I like jazz").confidence < floor


def test_every_candidate_of_the_labeled_set_is_valid_under_the_shared_schema() -> None:
    """R-PIPE-2: slug keys <= 160 chars, content <= 1000 chars, importance 1-5, confidence 0-1
    (`extra` is the engine's note from extract to refine, never stored: validation drops it)."""
    for turn in load_turns():
        for candidate in extract(turn.text):
            assert coerce_candidate(candidate.to_json()) == replace(candidate, extra={})


def test_english_content_is_written_in_the_third_person() -> None:
    """R-LLM-2: content is the user's statement normalized in the user's language."""
    assert third_person("I really enjoy hiking") == "Really enjoys hiking"
    assert third_person("I'm vegetarian") == "Is vegetarian"
    assert third_person("I don't eat pork") == "Doesn't eat pork"
    assert third_person("My wife is a teacher") == "Wife is a teacher"
    assert third_person("I go to the gym") == "Goes to the gym"


# --- refine ------------------------------------------------------------------------------------------


def test_refine_points_a_retirement_at_the_existing_memory_that_names_the_item() -> None:
    """R-PIPE-5, R-LLM-2: "我不喝奶茶了" also retires a milk-tea memory written under another key."""
    retired = only("我不喝奶茶了")
    existing = [
        ExistingMemory(1, "bubble-tea-habit", "preference", "爱喝奶茶"),
        ExistingMemory(2, "drink-coffee", "preference", "喜欢喝咖啡"),
    ]

    (refined,) = ENGINE.refine([retired], existing)

    assert refined.target_key == "bubble-tea-habit"


def test_refine_leaves_keyed_and_ambiguous_retirements_alone() -> None:
    """R-PIPE-5: an existing key wins; two candidates to retire is a guess the rules do not make."""
    retired = only("我不喝奶茶了")
    same_key = [ExistingMemory(1, "drink-milk-tea", "preference", "喜欢喝奶茶")]
    two = [ExistingMemory(1, "a", "preference", "爱喝奶茶"), ExistingMemory(2, "b", "preference", "milk tea fan")]

    assert ENGINE.refine([retired], same_key)[0].target_key == "drink-milk-tea"
    assert ENGINE.refine([retired], two)[0].target_key == "drink-milk-tea"


# --- the labeled data and the quality floors ---------------------------------------------------------


def test_the_labeled_sets_have_the_agreed_shape() -> None:
    """R-LLM-2: >= 200 turns, half Chinese half English, about a third must produce nothing; >= 30 scenarios."""
    turns = load_turns()
    scenarios = [json.loads(line) for line in SCENARIOS.read_text(encoding="utf-8").splitlines() if line.strip()]

    assert len(turns) >= 200
    assert abs(sum(t.lang == "zh" for t in turns) - sum(t.lang == "en" for t in turns)) <= len(turns) // 10
    assert 0.28 <= sum(not t.expected for t in turns) / len(turns) <= 0.42
    assert len({t.id for t in turns}) == len(turns)
    assert len(scenarios) >= 30
    assert all({"id", "turns", "expected_active", "expected_absent"} <= s.keys() for s in scenarios)


@pytest.mark.parametrize("split", ["all", "holdout"])
def test_the_rules_engine_meets_the_quality_floors(split: str) -> None:
    """R-LLM-2, R-TYPE-3: precision >= 0.9, must-drop accuracy >= 0.95, recall >= 0.7 on the labeled
    turns, and on the held-out part written after the rules (figures in docs/quality.md)."""
    turns = [t for t in load_turns(DEFAULT_DATA) if split == "all" or t.split == split]

    result = evaluate(turns, ENGINE)

    assert result.overall.precision >= 0.9
    assert result.must_drop_accuracy >= 0.95
    assert result.overall.recall >= 0.7


# --- bounded cost (issue 11.10) ----------------------------------------------------------------

_FUZZ_LENGTH = 32000
_FUZZ_UNITS = [
    "1 ",  # the quadratic pattern of issue 11.10
    "1",
    "A ",
    "I'm ",
    "allergic to ",
    "whenever I use ",
    "时",  # cubic in the Chinese standing-rule patterns
    "我喜欢吃川菜",
    "在北京工作",
    "I like 川菜 and 1234 ",
    ", I",
    "ab. ",
]


def _fuzz_messages() -> list[str]:
    """32,000-character messages: repetitions as one clause, and cut into clauses of 60 and 299 characters."""
    messages = []
    for unit in _FUZZ_UNITS:
        messages.append((unit * _FUZZ_LENGTH)[:_FUZZ_LENGTH])
        for length in (60, 299):
            clause = (unit * length)[:length]
            messages.append(((clause + "，") * (_FUZZ_LENGTH // length + 1))[:_FUZZ_LENGTH])
    return messages


def test_the_rules_engine_reads_a_32000_character_message_in_bounded_time() -> None:
    """Issue 11.10: run time is linear in the message (measured worst case under 1 s, docs/quality.md);
    the bound here is loose so a busy machine does not fail it."""
    worst = 0.0
    for message in _fuzz_messages():
        started = time.perf_counter()
        extract(message)
        worst = max(worst, time.perf_counter() - started)
    assert worst < 5.0


# --- everyday turns (issue 17.1, 13.7) ---------------------------------------------------------

EVERYDAY = Path(__file__).resolve().parent.parent / "data" / "everyday_turns.jsonl"
EVERYDAY_HELDOUT = Path(__file__).resolve().parent.parent / "data" / "everyday_turns_heldout.jsonl"


def refined(message: str, existing: list[ExistingMemory]) -> list[tuple[str, str, str]]:
    """(op, memory_type, target key) of what the engine writes for `message` given `existing`."""
    candidates = ENGINE.refine(extract(message), existing)
    return [(c.op, c.memory_type, c.target_key) for c in candidates]


@pytest.mark.parametrize("path", [EVERYDAY, EVERYDAY_HELDOUT], ids=["everyday", "heldout"])
def test_the_everyday_set_meets_its_targets(path: Path) -> None:
    """Issue 17.1: on the everyday turns recall >= 0.85 and precision >= 0.95 (first run and now in
    docs/quality.md); the turns of both files were labeled before the engine ever read them."""
    turns = load_turns(path)
    result = evaluate(turns, ENGINE)
    assert len(turns) >= (150 if path == EVERYDAY else 40) and {t.lang for t in turns} == {"zh", "en"}
    assert result.overall.recall >= 0.85
    assert result.overall.precision >= 0.95
    assert result.must_drop_accuracy >= 0.95


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("我今天想说一下，我对青霉素过敏。", "allergy-penicillin"),
        ("今天开会讨论了很多事情，我喜欢喝普洱茶。", None),
        ("I'm exhausted today, but I love hiking.", "sport-hiking"),
    ],
)
def test_a_time_word_taints_only_the_clause_it_governs(message: str, key: str | None) -> None:
    """Issue 17.1: a clause naming its own subject after a time-bound clause is a statement of its own."""
    [candidate] = extract(message)
    assert key is None or candidate.key == key


def test_a_time_word_still_binds_the_clause_it_continues() -> None:
    assert extract("今天我要减肥，别给我推荐甜点。") == []
    assert extract("I'm on a diet this week, so no desserts please.") == []


def test_forget_requests_delete_the_memory_they_name() -> None:
    """Issue 17.1: 请忘掉/删掉/别记…, "forget that…", "delete what you know about my job"."""
    job = [ExistingMemory(1, "occupation", "fact", "职业：后端工程师"), ExistingMemory(2, "diet", "fact", "吃素")]
    assert refined("请忘掉我的职业信息。", job) == [("delete", "fact", "occupation")]
    assert refined("Delete what you know about my job.", job) == [("delete", "fact", "occupation")]
    jazz = [ExistingMemory(3, "music-jazz", "preference", "Likes jazz")]
    assert refined("Forget that I like jazz.", jazz) == [("delete", "preference", "music-jazz")]
    cat = [ExistingMemory(4, "pet-cat", "fact", "Has a cat")]
    assert refined("Delete the memory about my cat.", cat) == [("delete", "fact", "pet-cat")]
    marathon = [ExistingMemory(5, "goal-marathon", "goal", "Is training for a marathon")]
    assert refined("Forget about my marathon goal.", marathon) == [("delete", "goal", "goal-marathon")]


def test_a_forget_request_naming_nothing_stored_says_nothing() -> None:
    assert refined("请忘掉我的职业信息。", [ExistingMemory(1, "residence-city", "fact", "住在深圳")]) == []
    assert refined("Forget what I just said about the weather.", []) == []
    assert all(c.op == "delete" for c in extract("请忘记我对花生过敏这件事。"))


def test_english_retractions_deactivate_the_memory_and_never_mangle_a_word() -> None:
    """Issue 17.1: "not … anymore", "no longer", "stopped", "quit"."""
    vegetarian = [ExistingMemory(1, "diet", "fact", "Is vegetarian now")]
    assert refined("I'm not vegetarian anymore.", vegetarian) == [("delete", "fact", "diet")]
    dark = [ExistingMemory(2, "preference-dark-mode", "preference", "Uses dark mode")]
    [candidate] = ENGINE.refine(extract("I no longer use dark mode."), dark)
    assert (candidate.op, candidate.target_key) == ("delete", "preference-dark-mode")
    assert candidate.content == "No longer uses dark mode"
    assert refined("I quit smoking last year.", []) == [("delete", "preference", "habit-smoking")]
    assert refined("I no longer work at Google.", []) == [("delete", "fact", "employer")]
    assert third_person("I no longer live in Chicago") == "No longer lives in Chicago"


@pytest.mark.parametrize(
    ("message", "existing"),
    [
        ("I no longer use dark mode.", ExistingMemory(1, "ui-theme", "preference", "Prefers dark mode in every app")),
        ("I don't play tennis anymore.", ExistingMemory(1, "sport-tennis", "preference", "Plays tennis on Sundays")),
        ("我不再喝普洱茶了。", ExistingMemory(1, "drink-puer", "preference", "喜欢喝普洱茶")),
        ("Forget that I like board games.", ExistingMemory(1, "hobby-board-games", "preference", "Likes board games")),
    ],
)
def test_a_retraction_finds_the_memory_naming_its_item_under_another_key(
    message: str, existing: ExistingMemory
) -> None:
    """Issue 17.1: "I no longer use dark mode" once left the original active and wrote a new,
    already inactive row; the item it names finds the memory a tool or a model keyed otherwise."""
    other = ExistingMemory(2, "residence-city", "fact", "Lives in Leeds")
    assert refined(message, [existing, other]) == [("delete", "preference", existing.key)]


def test_a_retraction_whose_item_two_memories_name_guesses_neither() -> None:
    """Issue 17.1: when the rules cannot tell which memory is meant, they point at none."""
    both = [
        ExistingMemory(1, "a", "preference", "Plays tennis on Sundays"),
        ExistingMemory(2, "b", "preference", "Watches tennis"),
    ]
    # Its own key (tennis is a lexicon item), not either memory's.
    assert refined("I don't play tennis anymore.", both) == [("delete", "preference", "sport-tennis")]
    assert refined("I don't play tennis anymore.", [ExistingMemory(1, "a", "preference", "Plays table-tennis")]) == [
        ("delete", "preference", "sport-tennis")
    ]


def test_a_retraction_followed_by_the_new_value_keeps_the_new_value() -> None:
    [candidate] = extract("我现在不住北京了，搬去了杭州")
    assert (candidate.op, candidate.key, candidate.content) == ("upsert", "residence-city", "住在杭州")


def test_work_and_live_in_one_city_fills_both_slots() -> None:
    """Issue 17.1: 在成都工作和生活 never leaves residence-city in another city."""
    assert {(c.key, c.content) for c in extract("我现在在成都工作和生活。")} == {
        ("work-city", "在成都工作"),
        ("residence-city", "住在成都"),
    }
    assert {c.key for c in extract("I live and work in Berlin.")} == {"residence-city", "work-city"}


def test_every_clause_of_a_sentence_is_kept() -> None:
    """Issue 17.1: second clauses, names attached to a person or pet, "I use X" as a tool preference."""
    assert {c.key for c in extract("我更喜欢简短的回答，别用表情符号。")} == {"reply-style", "reply-emoji"}
    assert {(c.key, c.content) for c in extract("我叫李明，今年32岁，在杭州做产品经理")} == {
        ("occupation", "职业：产品经理"),
        ("work-city", "在杭州工作"),
    }
    [daughter] = extract("My daughter is learning piano, her name is Xiaoyu.")
    assert daughter.key == "family-children" and "Xiaoyu" in daughter.content and "piano" in daughter.content
    [daughter] = extract("我女儿在学钢琴，她叫小雨。")
    assert daughter.content == "女儿在学钢琴，叫小雨"
    assert [(c.key, c.content) for c in extract("I'm a software engineer and I use Vim.")] == [
        ("occupation", "Occupation: software engineer"),
        ("preference-vim", "Uses Vim"),
    ]
    assert {c.key for c in extract("我不抽烟也不喝酒。")} == {"habit-smoking", "drink-alcohol"}


def test_a_time_word_after_and_or_before_the_subject_taints_only_its_own_clause() -> None:
    """Issue 17.1: "and today…" is a clause of its own; "平时我…" / "normally I…" name their subject."""
    assert [(c.key, c.content) for c in extract("I live in Oslo and today it's snowing.")] == [
        ("residence-city", "Lives in Oslo")
    ]
    assert [c.content for c in extract("我这周在减肥，平时我爱喝可乐。")] == ["平时爱喝可乐"]
    assert [c.key for c in extract("Tonight I'm going out, but normally I don't drink alcohol.")] == ["drink-alcohol"]


def test_a_finding_outlasts_the_day_it_was_made() -> None:
    """Issue 17.1: "医生说我有高血压" after "我今天去医院检查了" is lasting; "刚知道" as "才知道"."""
    assert [c.key for c in extract("我今天去医院检查了，医生说我有高血压。")] == ["health-hypertension"]
    assert [c.key for c in extract("今天刚知道我对猫毛过敏。")] == ["allergy-cat-hair"]
    assert extract("我今天发现这家店的咖啡很好喝。") == []


@pytest.mark.parametrize(
    ("message", "existing", "key"),
    [
        ("删掉关于我女儿的所有记忆。", ExistingMemory(1, "family-children", "fact", "女儿在学钢琴"), "family-children"),
        ("Can you forget my job?", ExistingMemory(1, "occupation", "fact", "Occupation: nurse"), "occupation"),
        ("你能忘掉我的生日吗？", ExistingMemory(1, "birthday", "fact", "生日是5月3日"), "birthday"),
        (
            "请忘记我说过我喜欢韩剧。",
            ExistingMemory(1, "tv-korean-dramas", "preference", "喜欢看韩剧"),
            "tv-korean-dramas",
        ),
        ("Please delete the note that I'm a vegetarian.", ExistingMemory(1, "diet", "fact", "Is vegetarian"), "diet"),
        ("Forget what I said about my diet.", ExistingMemory(1, "diet", "fact", "Is vegan"), "diet"),
    ],
)
def test_a_forget_request_in_other_words_deletes_the_memory_it_names(
    message: str, existing: ExistingMemory, key: str
) -> None:
    """Issue 17.1: a polite question ("Can you forget…?") and "what I said about…" are forget requests."""
    assert refined(message, [existing, ExistingMemory(2, "residence-city", "fact", "住在深圳")]) == [
        ("delete", existing.memory_type, key)
    ]


def test_stopped_being_and_a_dated_retraction_name_the_key_the_statement_used() -> None:
    """Issue 17.1: "stopped being X" takes back "I'm X"; "after college" is no part of the item."""
    assert refined("I stopped being vegetarian.", [ExistingMemory(1, "diet", "fact", "Is vegetarian")]) == [
        ("delete", "fact", "diet")
    ]
    assert only("I stopped playing basketball after college.").key == only("I play basketball.").key
    assert refined("I've quit smoking for good.", []) == [("delete", "preference", "habit-smoking")]
    assert refined("I'm no longer working at Apple.", []) == [("delete", "fact", "employer")]
    assert [(c.key, c.content) for c in extract("I'm working at Apple.")] == [("employer", "Works at Apple")]


@pytest.mark.parametrize(
    ("sentence", "memory"),
    [
        ("I gave up coffee", "Gave up coffee"),
        ("I kept a diary for years", "Kept a diary for years"),
        ("I didn't like horror movies", "Didn't like horror movies"),
        ("I haven't eaten meat since 2019", "Hasn't eaten meat since 2019"),
        ("I need glasses to drive", "Needs glasses to drive"),
        ("I don\u2019t eat pork", "Doesn't eat pork"),
        ("I no longer use dark mode", "No longer uses dark mode"),
        ("I fix bikes on weekends", "Fixes bikes on weekends"),
    ],
)
def test_english_third_person_never_mangles_a_word(sentence: str, memory: str) -> None:
    """Issue 17.1: past tenses, negations and -eed verbs ("Noes longer…", "Gaves up…" were stored)."""
    assert third_person(sentence) == memory


def test_work_city_is_read_in_english_and_a_field_of_work_is_not_a_city() -> None:
    """Issue 17.1: "work as an architect in Dublin" names the work city beside the occupation."""
    assert {(c.key, c.content) for c in extract("I work as an architect in Dublin.")} == {
        ("occupation", "Occupation: architect"),
        ("work-city", "Works in Dublin"),
    }
    assert [c.key for c in extract("I'm a nurse in Boston.")] == ["occupation", "work-city"]
    assert [(c.key, c.content) for c in extract("I work in IT.")] == [("work-field", "Works in IT")]
    assert {(c.key, c.content) for c in extract("我在深圳生活，在香港上班。")} == {
        ("residence-city", "住在深圳"),
        ("work-city", "在香港工作"),
    }


def test_a_family_member_or_pet_introduced_by_the_user_keeps_its_name_and_its_facts() -> None:
    """Issue 17.1: "我有个妹妹，她叫小敏" is the sister's name; the brother's job is not the user's."""
    assert [(c.key, c.content) for c in extract("我有个妹妹，她叫小敏。")] == [("family-siblings", "有个妹妹，叫小敏")]
    assert [c.key for c in extract("我有一个哥哥，在北京当律师。")] == ["family-siblings"]
    assert [c.key for c in extract("I have a sister, her name is Amy.")] == ["family-siblings"]
    # Said one way since the twenty-seventh probe ("Spike is my bearded dragon" / "I have a bearded dragon named Spike").
    assert [(c.key, c.content) for c in extract("My dog's name is Rex.")] == [("pet-dog", "Has a dog named Rex")]


def test_what_is_not_the_users_own_fact_is_not_stored_as_one() -> None:
    """Issue 17.1 (say nothing rather than guess): an activity between 在 and 工作 is no employer;
    孩子他爸 is the user's partner, not a child."""
    assert extract("最近工作压力很大，我在考虑换工作。") == []
    assert extract("我在努力工作。") == []
    assert [c.content for c in extract("我在清华大学工作。")] == ["在清华大学工作"]
    assert [c.key for c in extract("孩子他爸是警察。")] == ["family-partner"]
    assert extract("我有个朋友，在北京当律师。") == []


def test_i_use_a_lowercase_tool_is_a_preference_its_retraction_meets() -> None:
    """Issue 17.1: "I use dark mode" lands on the key "I no longer use dark mode" retracts."""
    [candidate] = extract("I use dark mode everywhere.")
    assert (candidate.memory_type, candidate.key, candidate.content) == (
        "preference",
        "preference-dark-mode",
        "Uses dark mode everywhere",
    )
    assert [c.key for c in extract("I no longer use dark mode.")] == [candidate.key]
    assert extract("I use it every day.") == []
    assert extract("I use whatever is cheapest.") == []


def test_two_rules_in_one_sentence_are_two_memories_each_with_its_own_words() -> None:
    """Issue 17.1, 13.7: every rule of a sentence is kept, and only its own clause is its content."""
    assert [(c.key, c.content) for c in extract("Please always answer in English and keep it short.")] == [
        ("reply-language", "Please always answer in English"),
        ("reply-style", "Keep it short"),
    ]
    assert {c.key for c in extract("以后回答都用英文，格式用markdown。")} == {"reply-language", "reply-format"}


# What `make run`'s sample conversation leaves (issue 13.7), key -> (memory_type, content): the
# reminder for tonight and "好的" leave nothing, the move to Shanghai replaces Beijing.
DEMO_MEMORIES = {
    "residence-city": ("fact", "住在上海"),
    "occupation": ("fact", "职业：后端工程师"),
    "food-sichuan-cuisine": ("preference", "喜欢吃川菜"),
    "food-sweets": ("preference", "不太能吃甜的"),
    "reply-language": ("constraint", "以后回复尽量用中文"),
    "reply-style": ("preference", "回复简洁"),
    "goal-marathon": ("goal", "Is training for a marathon next spring; goal is to finish under four hours"),
    "project-rust-compiler": ("project", "Is building a Rust compiler as a side project"),
}


def test_the_demo_conversation_leaves_what_a_careful_person_would_write() -> None:
    """Issue 13.7: `make run`'s sample conversation, turn by turn, later statements of a key winning."""
    memories: dict[str, tuple[str, str]] = {}
    for role, text in SAMPLE_CONVERSATION:
        if role == "user":
            for candidate in ENGINE.refine(extract(text), []):
                assert candidate.op == "upsert"
                memories[candidate.key] = (candidate.memory_type, candidate.content)
    assert memories == DEMO_MEMORIES


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("I love Italian food.", "I really like Italian cuisine."),
        ("I love Korean dishes.", "I'm a big fan of Korean food."),
        ("I like sci-fi films.", "I love sci-fi movies."),
        ("I enjoy French films.", "I like French movies."),
        # Nineteenth probe: the noun of a pastime ("going on hikes") keyed preference-going-hikes.
        ("I love hiking.", "I really enjoy going on hikes."),
        ("I enjoy running.", "I like going for runs."),
        ("I love cycling.", "I enjoy going on bike rides."),
    ],
)
def test_english_paraphrases_meet_on_one_key(first: str, second: str) -> None:
    """Issue 13.2: the offline key scheme normalises common synonyms (food/cuisine/dishes, film/movie…)."""
    assert only(first).key == only(second).key


def test_synonyms_do_not_merge_different_items() -> None:
    assert only("I love Italian cuisine.").key != only("I love Thai cuisine.").key
    assert preference_key("Italian cuisine") == preference_key("italian food") == "preference-italian-food"


# --- a state the user had is not a state the user has ------------------------------------------


@pytest.mark.parametrize(
    ("message", "key", "now", "before"),
    [
        ("我之前说我住在杭州，其实我已经搬到深圳了。", "residence-city", "深圳", "杭州"),
        ("我原来在阿里工作，现在在腾讯上班。", "employer", "腾讯", "阿里"),
        ("我以前在北京工作，后来搬到了成都。", "residence-city", "成都", "北京"),
        ("I used to live in Hangzhou, but now I live in Shenzhen.", "residence-city", "Shenzhen", "Hangzhou"),
        ("I told you before that I live in Paris, but I moved to Lyon.", "residence-city", "Lyon", "Paris"),
        ("I used to work at Google, now I work at Stripe.", "employer", "Stripe", "Google"),
    ],
)
def test_a_former_state_never_outranks_the_one_the_user_has_now(message: str, key: str, now: str, before: str) -> None:
    """R-TYPE-2, R-LLM-2: a slot gets the value the user has now, never the one they had or said before."""
    candidates = extract(message)
    by_key = {c.key: c for c in candidates}
    assert now in by_key[key].content, [(c.key, c.content) for c in candidates]
    assert not any(before in c.content for c in candidates), [(c.key, c.content) for c in candidates]


@pytest.mark.parametrize(
    "message",
    [
        "我曾经在阿里工作。",
        "我原来是素食主义者。",
        "我过去住在杭州。",
        "I used to live in Oslo.",
        "I previously worked at IBM.",
    ],
)
def test_a_former_state_alone_is_not_stored_as_current(message: str) -> None:
    """R-TYPE-2: "我曾经在阿里工作" is no employer today; the rules cannot write it as history, so nothing."""
    assert extract(message) == []


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("我从小就对花生过敏。", "allergy-peanut"),
        ("我之前跟你说过我对花生过敏。", "allergy-peanut"),
        ("I'm not used to spicy food, I live in Chengdu though.", "residence-city"),
    ],
)
def test_what_still_holds_is_kept_whatever_time_word_it_carries(message: str, key: str) -> None:
    """R-TYPE-2: "since childhood", a restatement ("我之前跟你说过…") and "not used to" are no former states."""
    assert key in {c.key for c in extract(message)}


def test_each_clause_after_a_short_statement_is_read_on_its_own() -> None:
    """Issue 13.7: "I'm vegetarian and I live in Berlin" is two facts; what follows "Update:" is read; a job
    "at Stripe as a data engineer" fills the employer and the occupation, 做前端开发 the occupation."""
    assert {(c.key, c.content) for c in extract("I'm vegetarian and I live in Berlin with my two cats.")} >= {
        ("diet", "Is vegetarian"),
        ("residence-city", "Lives in Berlin"),
    }
    assert [(c.key, c.content) for c in extract("Update: I now work at Stripe.")] == [("employer", "Works at Stripe")]
    assert {(c.key, c.content) for c in extract("I switched jobs: I now work at Stripe as a data engineer.")} == {
        ("employer", "Works at Stripe"),
        ("occupation", "Occupation: data engineer"),
    }
    assert only("我是前端开发。").content == "职业：前端开发"


@pytest.mark.parametrize(
    "message",
    [
        "我不喜欢太长的回复。",
        "回复别太长。",
        "别太啰嗦。",
        "I don't like long answers.",
        "Don't make your answers too long.",
    ],
)
def test_a_length_rule_said_as_a_dislike_is_a_reply_rule(message: str) -> None:
    """R-TYPE-2, R-READ-6: "我不喜欢太长的回复" is a standing reply rule (`reply-style`, core by its key)."""
    assert only(message).key == "reply-style"


@pytest.mark.parametrize("message", ["I don't like long walks.", "这篇文章别太长。"])
def test_length_words_about_anything_but_replies_are_no_reply_rule(message: str) -> None:
    assert "reply-style" not in {c.key for c in extract(message)}


def test_home_breeds_and_common_meats_get_readable_keys() -> None:
    """Issue 13.7: 我家在成都 is the residence (我家在三楼 is no city); a breed is keyed as its kind."""
    assert {(c.key, c.content) for c in extract("我家在成都，但我在北京工作。")} == {
        ("residence-city", "住在成都"),
        ("work-city", "在北京工作"),
    }
    # The floor of the home, not a city (R-WRITE-2: the floor is read since the twenty-sixth probe).
    assert [(c.key, c.content) for c in extract("我家在三楼。")] == [("home-floor", "住在3楼")]
    assert only("我养了一只金毛，叫旺财。").key == only("I have a golden retriever named Max.").key == "pet-dog"
    assert only("我养了一只布偶猫。").key == "pet-cat"
    assert only("我不吃牛肉，因为信佛。").key == only("I don't eat beef.").key == "food-beef"
    assert only("我不吃羊肉。").key == "food-lamb"


def test_each_allergy_of_a_list_is_a_memory_of_its_own() -> None:
    """R-TYPE-2, R-READ-6: "对花生和虾过敏" is two allergies, so retracting one never removes the other."""
    assert {(c.key, c.content) for c in extract("我对花生和虾过敏。")} == {
        ("allergy-peanut", "对花生过敏"),
        ("allergy-shrimp", "对虾过敏"),
    }
    assert {c.key for c in extract("I'm allergic to peanuts, shellfish and penicillin.")} == {
        "allergy-peanut",
        "allergy-shellfish",
        "allergy-penicillin",
    }


@pytest.mark.parametrize(
    ("message", "allergies"),
    [
        (
            "I have a peanut allergy and a shellfish allergy.",
            {("allergy-peanut", "Has a peanut allergy"), ("allergy-shellfish", "Has a shellfish allergy")},
        ),
        (
            "I have peanut and shellfish allergies.",
            {("allergy-peanut", "Has peanut allergies"), ("allergy-shellfish", "Has shellfish allergies")},
        ),
        (
            "I have allergies to nuts and dairy.",
            {("allergy-tree-nut", "Has allergies to nuts"), ("allergy-dairy", "Has allergies to dairy")},
        ),
        ("I've got a peanut allergy.", {("allergy-peanut", "Has a peanut allergy")}),
        ("I have an allergy to latex.", {("allergy-latex", "Has an allergy to latex")}),
        ("I have a nut allergy.", {("allergy-tree-nut", "Has a nut allergy")}),
        ("我对坚果过敏。", {("allergy-tree-nut", "对坚果过敏")}),
        # The animal names what the user reacts to: no pet.
        ("I have a dog allergy.", {("allergy-dog", "Has a dog allergy")}),
        ("我有猫毛过敏。", {("allergy-cat-hair", "有猫毛过敏")}),
    ],
)
def test_every_english_way_of_naming_allergies_keeps_one_core_memory_per_allergen(
    message: str, allergies: set[tuple[str, str]]
) -> None:
    """R-TYPE-2, R-READ-6: "a peanut allergy and a shellfish allergy", "peanut and shellfish allergies",
    "allergies to nuts", "I've got …" are allergies, one per allergen (nuts / a nut / 坚果 one key), each core;
    "a dog allergy" is no dog."""
    found = extract(message)
    assert {(c.key, c.content) for c in found} == allergies
    assert all(is_core_memory(c.memory_type, c.key, c.content) for c in found)


@pytest.mark.parametrize(
    "message",
    [
        "Never call me after 9pm.",
        "Don't ever suggest pork dishes to me.",
        "永远不要在早上八点前给我打电话。",
        "从现在起，不要给我推荐任何含酒精的饮品。",
    ],
)
def test_a_never_do_rule_is_a_standing_constraint(message: str) -> None:
    """R-TYPE-2, R-READ-6: "never do X" rules are constraints (core); a lone 从现在起 governs the clause after it."""
    assert only(message).memory_type == "constraint"


@pytest.mark.parametrize("message", ["Call me Tom.", "You can call me Dr. Li.", "叫我小王就行。"])
def test_a_nickname_is_still_a_profile_field(message: str) -> None:
    """R-TYPE-3: "call me Tom" is a profile field; only "call me after/before/back…" is about phone calls."""
    assert extract(message) == []


def test_a_format_rule_after_another_rule_is_kept() -> None:
    """Issue 13.7: every rule in a sentence is kept: "…, and answer in bullet points" is the reply format."""
    assert {c.key for c in extract("Please don't use emojis, and answer in bullet points.")} == {
        "reply-emoji",
        "reply-format",
    }


def test_my_mothers_condition_is_hers_not_the_users() -> None:
    """R-TYPE-2: 「我妈有糖尿病」 is a family fact; the user's own `health-diabetes` slot stays theirs."""
    [candidate] = extract("我妈有糖尿病，给她推荐菜的时候注意一下。")
    assert (candidate.op, candidate.key) == ("append", "family-parents")
    assert only("我爸是医生。").key == "family-parents"
    assert only("妈呀，我对花生过敏。").key == "allergy-peanut"


def test_a_clause_that_only_repeats_the_verb_adds_no_memory() -> None:
    """Issue 13.7: 「我不吃辣，一点都不能吃」 is one memory, not a second one keyed by a hash of 「一点都不能吃」."""
    assert only("我不吃辣，一点都不能吃。").key == "food-spicy-food"
    assert only("我对酒精过敏，一喝就脸红。").key == "allergy-alcohol"
    assert only("我每天都要喝一杯美式。").key == "drink-coffee"


@pytest.mark.parametrize(
    ("message", "language"),
    [
        ("以后不用中文回复了，用英文。", "英文"),
        ("别用中文回复，用英语。", "英语"),
        ("Stop replying in Chinese, use English.", "English"),
    ],
)
def test_a_switch_of_reply_language_keeps_the_new_language(message: str, language: str) -> None:
    """R-READ-6: 「以后不用中文回复了，用英文」 stored 「以后不用中文回复了」 as the reply language; now the new one."""
    candidates = [c for c in extract(message) if c.op == "upsert"]
    assert [(c.key, language in c.content) for c in candidates] == [("reply-language", True)]


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("我辞职了，现在在家带孩子。", "employer"),
        ("My dog passed away last year.", "pet-dog"),
        ("我家狗丢了。", "pet-dog"),
        ("我的猫去世了。", "pet-cat"),
    ],
)
def test_a_job_left_or_a_pet_lost_retires_its_memory(message: str, key: str) -> None:
    """R-WRITE, issue 13.1: 辞职, a pet that died or was lost retire the slot (「我家狗丢了」 was stored as a pet)."""
    assert [(c.op, c.key) for c in extract(message)] == [("delete", key)]


def test_every_rule_of_a_three_rule_sentence_is_kept() -> None:
    """Issue 13.7: reply language (回答…的时候…用中文), style and code language (代码示例的时候用Go), one sentence."""
    assert {c.key for c in extract("回答问题的时候尽量用中文，别太啰嗦，给代码示例的时候用Go。")} == {
        "reply-language",
        "reply-style",
        "code-language",
    }


def test_a_clause_that_only_dates_a_goal_is_part_of_it() -> None:
    """Issue 13.7: 「打算明年上半年考」 after 「在准备PMP考试」 is when, not a second goal with a hash key;
    「打算明年去日本留学」 after 「在学日语」 names a goal of its own."""
    [goal] = extract("我在准备PMP考试，打算明年上半年考。")
    assert goal.content == "在准备PMP考试；打算明年上半年考"
    assert {c.key for c in extract("我最近在学日语，打算明年去日本留学。")} == {"goal-japanese", "goal-japan"}


def test_a_clause_going_on_about_a_family_member_stays_with_them() -> None:
    """Issue 13.7: 「我们有一个女儿，今年四岁」 keeps the age with the daughter; a cut clause loses its leading 也."""
    assert ("family-children", "我们有一个女儿，今年四岁") in {
        (c.key, c.content) for c in extract("我老婆是老师，我们有一个女儿，今年四岁。")
    }
    assert ("food-seafood", "不能吃海鲜") in {(c.key, c.content) for c in extract("我对青霉素过敏，也不能吃海鲜。")}


def test_an_introduction_keeps_the_occupation_and_each_pet() -> None:
    """Issue 13.7: "I'm Sarah, a nurse from Dublin" keeps the occupation (not the name, R-TYPE-3);
    "a cat named Luna and a dog named Max" are two pets, each retractable on its own."""
    assert {c.key for c in extract("Hi! I'm Sarah, a nurse from Dublin, and I have a 3-year-old son.")} == {
        "occupation",
        "family-children",
    }
    assert {c.key for c in extract("We have a cat named Luna and a dog named Max.")} == {"pet-cat", "pet-dog"}


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("我平时用 React 写前端。", "preference-react", "平时用 React 写前端"),
        ("平时用Python写后端", "preference-python", "平时用Python写后端"),
        ("我用 Python 写后端。", "preference-python", "用 Python 写后端"),
    ],
)
def test_the_tool_one_works_with_gets_the_tools_key(message: str, key: str, content: str) -> None:
    """R-TYPE-2, issue 13.2: a tool named in Latin letters with a space around it is read, and the
    Chinese after it is not part of its key (`preference-python-h3e8381e` before)."""
    assert (only(message).key, only(message).content) == (key, content)


def test_a_one_off_use_of_a_tool_is_no_preference() -> None:
    """R-TYPE-2: 「我用Python写了个脚本」 is something done once."""
    assert extract("我用Python写了个脚本。") == []


@pytest.mark.parametrize(
    "message",
    [
        "I used to smoke, but I quit two years ago.",
        "I used to smoke but quit.",
        "我以前抽烟，后来戒了。",
        "I don't smoke anymore.",
    ],
)
def test_a_habit_given_up_retires_it(message: str) -> None:
    """R-WRITE, issue 13.1: the quitting clause is read with the former habit it names (before, the
    former-state clause was skipped and "I quit" named nothing, so a stored smoking habit stayed)."""
    assert [(c.op, c.key) for c in extract(message)] == [("delete", "habit-smoking")]


@pytest.mark.parametrize(
    ("message", "content"),
    [
        ("我是素食主义者，但是吃鸡蛋和牛奶。", "是素食主义者，但吃鸡蛋和牛奶"),
        ("I'm vegetarian but I eat fish.", "Is vegetarian but eats fish"),
    ],
)
def test_what_a_diet_allows_stays_with_the_diet(message: str, content: str) -> None:
    """R-TYPE-2, R-READ-6: the exception is part of the dietary restriction (it was lost: only 是素食主义者)."""
    assert [(c.key, c.content) for c in extract(message)] == [("diet", content)]


def test_a_never_use_rule_is_a_standing_constraint_beside_the_fact_behind_it() -> None:
    """R-TYPE-2, R-READ-6: "never use red and green in charts" is a rule to keep (it was dropped)."""
    assert {(c.memory_type, c.key) for c in extract("I'm colorblind, so never use red and green in charts.")} == {
        ("fact", "health-colorblind"),
        ("constraint", "rule-red-green-charts"),
    }


@pytest.mark.parametrize(
    ("message", "retired"),
    [
        ("I don't eat meat anymore.", "food-meat"),
        ("I stopped eating pork.", "food-pork"),
        ("I don't drink anymore.", "drink-alcohol"),
        ("我已经不吃肉了。", "food-meat"),
        ("我不再喝酒了。", "drink-alcohol"),
        ("我戒酒了。", "drink-alcohol"),
    ],
)
def test_giving_up_a_food_or_alcohol_retires_the_taste_and_keeps_the_diet(message: str, retired: str) -> None:
    """R-READ-6, issue 13.3: the statement was only a retirement, so a user who stopped eating meat
    had nothing stored (no preference existed to retire) and no core restriction to surface."""
    found = extract(message)
    assert [(c.op, c.key) for c in found] == [("delete", retired), ("append", "diet")]
    diet = found[1]
    assert is_core_memory(diet.memory_type, diet.key, diet.content)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("I don't like pork anymore.", [("delete", "food-pork")]),
        ("我不喜欢喝酒了。", [("delete", "drink-alcohol")]),
        ("I like to drink tea.", [("upsert", "drink-tea")]),
        ("I don't smoke anymore.", [("delete", "habit-smoking")]),
    ],
)
def test_a_change_of_taste_or_habit_is_no_diet(message: str, expected: list[tuple[str, str]]) -> None:
    """R-TYPE-2: only giving up eating or drinking the item is a restriction."""
    assert [(c.op, c.key) for c in extract(message)] == expected


@pytest.mark.parametrize(
    "message", ["我是素食者，但是我老公不是。", "我是素食者，我老公也是。", "I'm vegan. My husband isn't."]
)
def test_a_clause_pointing_back_at_the_sentence_says_nothing_of_the_family_member(message: str) -> None:
    """R-TYPE-2, issue 13.7: 「但是我老公不是」 was stored as `family-partner: 老公不是`."""
    assert [c.key for c in extract(message)] == ["diet"]


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("周末一般在家打游戏。", "habit-video-games"),
        ("I usually play video games on weekends.", "habit-video-games"),
        ("我每天晚上都会看书。", "habit-reading"),
        ("周末经常在家做饭。", "habit-cooking"),
    ],
)
def test_a_pastime_with_a_frequency_is_a_habit(message: str, key: str) -> None:
    """R-TYPE-2, issue 13.7: 「周末一般在家打游戏」 stored nothing (no 喜欢, and the habit rule knew no pastime)."""
    assert [(c.op, c.key) for c in extract(message)] == [("upsert", key)]


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("我平时喜欢看书。", "habit-reading"),
        ("I love reading.", "habit-reading"),
        ("我喜欢看电影。", "habit-movies"),
        ("I like watching movies.", "habit-movies"),
        ("我喜欢听音乐。", "habit-music"),
        ("我喜欢打游戏。", "habit-video-games"),
        ("我喜欢读小说。", "habit-novels"),
        ("我喜欢养花。", "habit-flowers"),
        ("我喜欢打篮球。", "sport-basketball"),
        ("我喜欢吃烤肉。", "food-barbecue"),
        ("我喜欢看科幻电影。", "movie-sci-fi-movies"),
        ("我喜欢喝可乐。", "drink-cola"),
        ("我喜欢喝牛奶。", "drink-milk"),
        ("我喜欢吃面条。", "food-noodles"),
        ("I like chocolate.", "food-chocolate"),
        ("我喜欢吃巧克力。", "food-chocolate"),
        ("我喜欢旅游。", "habit-traveling"),
        ("I enjoy traveling.", "habit-traveling"),
        ("我喜欢逛街。", "habit-shopping"),
        ("我喜欢看动漫。", "tv-anime"),
        ("我喜欢滑雪。", "sport-skiing"),
    ],
)
def test_a_common_pastime_gets_a_readable_key_in_both_languages(message: str, key: str) -> None:
    """R-WRITE-2, issue 13.7: 「我平时喜欢看书」 was keyed `preference-hfe04274` (its item is 书 once 看
    is cut), so 「我喜欢看书」 and "I love reading" could only meet through similarity."""
    assert only(message).key == key


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("我喜欢看喜剧电影。", "我喜欢看爱情电影。"),
        ("I like pop music.", "I like country music."),
        ("I like comedy movies.", "I like romance movies."),
        ("我喜欢看武侠小说。", "我喜欢看科幻小说。"),
        ("我喜欢看电影。", "我喜欢看爱情电影。"),
        ("I enjoy traveling.", "I hate traveling by plane."),
        ("I like programming.", "I like functional programming."),
    ],
)
def test_a_qualified_pastime_is_a_slot_of_its_own(first: str, second: str) -> None:
    """R-WRITE-2, issue 13.2: a bare medium (电影, music) names the pastime only as the whole item, so
    two genres are two memories, not one slot the second overwrites."""
    assert only(first).key != only(second).key


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("I like apple juice.", "I like orange juice."),
        ("I like chocolate.", "I love chocolate milk."),
        ("I like milk.", "I like milk chocolate."),
        ("我喜欢喝牛奶。", "我喜欢喝巧克力牛奶。"),
        ("我喜欢吃巧克力。", "我喜欢吃巧克力蛋糕。"),
    ],
)
def test_a_qualified_food_or_drink_is_a_slot_of_its_own(first: str, second: str) -> None:
    """R-WRITE-2, issue 13.7: "I love chocolate milk" was `food-chocolate` and "I like apple juice" /
    "I like orange juice" both `drink-juice`: the second statement would overwrite the first."""
    assert only(first).key != only(second).key


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("我乳糖不耐受。", "health-lactose-intolerance"),
        ("我是糖尿病患者。", "health-diabetes"),
        ("我是一名高血压患者。", "health-hypertension"),
        ("我是高血压。", "health-hypertension"),
    ],
)
def test_a_condition_said_without_you_have_is_a_health_fact(message: str, key: str) -> None:
    """R-TYPE-2, R-READ-6, issue 13.7: 「我乳糖不耐受」 stored nothing (only 「我有乳糖不耐受」 was read),
    while "I'm lactose intolerant" was a core health fact."""
    assert [(c.memory_type, c.key) for c in extract(message)] == [("fact", key)]


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("I'm celiac.", "health-celiac-disease"),
        ("I have celiac disease.", "health-celiac-disease"),
        ("我有癫痫。", "health-epilepsy"),
        ("I have epilepsy.", "health-epilepsy"),
        ("I have high cholesterol.", "health-high-cholesterol"),
        ("我血脂高。", "health-high-cholesterol"),
        ("我有高血脂。", "health-high-cholesterol"),
        ("I have a heart condition.", "health-heart-condition"),
        ("我心脏不好。", "health-heart-condition"),
        ("我有心脏病。", "health-heart-condition"),
        ("我血压有点高。", "health-hypertension"),
        ("I have depression.", "health-depression"),
        ("I have anxiety.", "health-anxiety-disorder"),
        ("I have an anxiety disorder.", "health-anxiety-disorder"),
        ("我有焦虑症。", "health-anxiety-disorder"),
        ("我有多动症。", "health-adhd"),
        ("I have ADHD.", "health-adhd"),
        ("I have kidney disease.", "health-kidney-disease"),
        ("我肾不好。", "health-kidney-disease"),
        ("I have a bad back.", "health-bad-back"),
        ("我腰不好。", "health-bad-back"),
        ("I have bad knees.", "health-bad-knees"),
        ("我膝盖不好。", "health-bad-knees"),
        ("I'm blind.", "health-blind"),
        ("I'm prediabetic.", "health-prediabetic"),
        # A mobility or hearing aid is the user's condition, not a tool they like.
        ("I use a wheelchair.", "health-wheelchair"),
        ("I'm in a wheelchair.", "health-wheelchair"),
        ("我坐轮椅。", "health-wheelchair"),
        ("I use a hearing aid.", "health-hearing-aid"),
        ("我戴助听器。", "health-hearing-aid"),
        ("I use a cane.", "health-walking-aid"),
    ],
)
def test_a_condition_is_one_core_health_fact_in_either_language(message: str, key: str) -> None:
    """R-TYPE-2, R-READ-6: 「我有癫痫」, "I'm celiac", "I have high cholesterol", 「我血脂高」, "I have a heart
    condition" and 「我心脏不好」 stored nothing; each is a core health fact under one key in both languages."""
    [candidate] = extract(message)
    assert (candidate.memory_type, candidate.key) == ("fact", key)
    assert is_core_memory(candidate.memory_type, candidate.key, candidate.content)


@pytest.mark.parametrize(
    "message",
    [
        "熬夜对心脏不好。",
        "这个动作对腰不好。",
        "我爸有心脏病。",
        "I never share my food.",
        "I have anxiety about tomorrow's interview.",
        "I'm blind to my own faults.",
        "I use a cane umbrella.",
    ],
)
def test_what_is_bad_for_anyone_or_a_relatives_condition_is_no_health_fact_of_the_user(message: str) -> None:
    """R-TYPE-2, R-READ-6: a remark about health in general, a parent's illness, a worry of the moment and a
    figure of speech are not the user's condition."""
    assert not [c for c in extract(message) if c.key.startswith(("health-", "rule-"))]


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("I'm on a low-carb diet.", "diet-low-carb", "Is on a low-carb diet"),
        ("I'm on a keto diet.", "diet-keto", "Is on a keto diet"),
        ("我在吃生酮。", "diet-keto", "在吃生酮"),
    ],
)
def test_a_diet_said_as_being_on_it_is_the_diet_fact(message: str, key: str, content: str) -> None:
    """R-TYPE-2, R-READ-6: "I'm keto" was the diet, "I'm on a keto diet" and 「我在吃生酮」 nothing. Since session 33 a
    diet kept beside another has a key of its kind (`builders._DIET_KINDS`)."""
    assert [(c.key, c.content) for c in extract(message)] == [(key, content)]


def test_never_sharing_something_is_a_standing_rule() -> None:
    """R-READ-6: "Never share my location with anyone" stored nothing (share was no rule verb)."""
    assert only("Never share my location with anyone.").memory_type == "constraint"


@pytest.mark.parametrize(
    ("message", "keys"),
    [
        ("饮食要清淡。", ["diet-light"]),
        ("医生让我少吃盐。", ["diet-low-salt"]),
        ("I'm on a low-salt diet.", ["diet-low-salt"]),
        ("我是高血压，饮食要清淡。", ["health-hypertension", "diet-light"]),
        ("这家店口味很清淡。", []),
        ("这道菜少盐。", []),
        ("我平时要少油少盐。", ["diet-low-salt"]),
        ("医生让我少吃盐多运动。", ["diet-low-salt"]),
        ("低盐饮食。", ["diet-low-salt"]),
        ("少盐的菜更好吃。", []),
        ("低盐酱油卖完了。", []),
        ("我少盐的菜吃得多。", []),
    ],
)
def test_a_diet_the_user_must_keep_is_a_fact_of_its_own(message: str, keys: list[str]) -> None:
    """R-TYPE-2, R-READ-6, issue 13.7: 「饮食要清淡」 after 「我是一名高血压患者」 stored nothing; a diet
    the user keeps is a core `diet-…` fact (apart from `diet`, so it never overwrites "vegetarian"),
    and a dish or a restaurant described as light is no diet of the user's."""
    assert [c.key for c in extract(message)] == keys


@pytest.mark.parametrize("message", ["我是糖尿病医生。", "我是高血压科的护士。", "我是乳糖不耐受研究员。"])
def test_a_condition_in_a_job_title_is_no_health_fact(message: str) -> None:
    """R-TYPE-2, R-READ-6: a diabetes doctor is not diabetic; a false safety fact would reach every reply."""
    assert [c.key for c in extract(message)] == ["occupation"]


def test_a_condition_and_what_it_rules_out_are_both_kept() -> None:
    """R-TYPE-2, R-READ-6: the condition is the core fact; the drink it rules out is kept beside it."""
    assert [c.key for c in extract("我乳糖不耐受，不能喝牛奶。")] == ["health-lactose-intolerance", "drink-milk"]
    assert [c.key for c in extract("我不能喝牛奶，我乳糖不耐受。")] == ["drink-milk", "health-lactose-intolerance"]


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("我今年想考驾照。", "goal-drivers-license"),
        ("I want to get my driver's license this year.", "goal-drivers-license"),
        ("我明年想学游泳。", "goal-swimming"),
        ("我今年打算考研。", "goal-grad-school-exam"),
        ("My goal is to run a marathon.", "goal-marathon"),
    ],
)
def test_a_goal_with_its_year_before_the_wish_is_kept_under_its_items_key(message: str, key: str) -> None:
    """R-TYPE-2, issue 13.7: 「我今年想考驾照」 stored nothing (only 「我想今年…」 was read) and
    「我今年打算考研」 was `goal-hd2e4839` (考 was cut before the lexicon was asked, leaving 研)."""
    assert [(c.memory_type, c.key) for c in extract(message)] == [("goal", key)]


@pytest.mark.parametrize(
    ("message", "content"),
    [
        ("I want to get my driver's license this year.", "Wants to get their driver's license this year"),
        ("I take my dog hiking every weekend.", "Takes their dog hiking every weekend"),
        ("I'm learning Spanish for my job.", "Is learning Spanish for their job"),
        ("My wife loves my cooking.", "Wife loves my cooking"),
    ],
)
def test_the_users_later_my_is_theirs_in_the_memory(message: str, content: str) -> None:
    """Issue 13.7: "Wants to get my driver's license" read as the assistant's own license. A statement
    led by "My wife…" keeps its later "my": "their" would name the wife."""
    assert [c.content for c in extract(message)] == [content]


@pytest.mark.parametrize("message", ["我想吃火锅。", "明年要涨房租了。", "今年要下雪。"])
def test_a_wish_of_the_moment_or_a_piece_of_news_is_no_goal(message: str) -> None:
    """R-TYPE-3: a bare 想 without a time of its own is today's wish; 「明年要…」 without the user as
    its subject is news, not the user's goal."""
    assert extract(message) == []


@pytest.mark.parametrize("message", ["以后要用中文回复我。", "以后想让你用中文回复。"])
def test_an_instruction_that_starts_with_from_now_on_is_no_goal(message: str) -> None:
    """R-TYPE-2: 「以后要…」 / 「以后想让你…」 is a standing instruction to the assistant, not the user's goal."""
    assert [(c.memory_type, c.key) for c in extract(message)] == [("constraint", "reply-language")]


def test_each_item_of_a_liked_list_keeps_its_own_verb() -> None:
    """R-TYPE-2, issue 13.7: 「我喜欢看书和听音乐」 stored 「喜欢看听音乐」 (the head's 看 put before 听音乐)."""
    assert [(c.key, c.content) for c in extract("我喜欢看书和听音乐。")] == [
        ("habit-reading", "喜欢看书"),
        ("habit-music", "喜欢听音乐"),
    ]
    assert [c.content for c in extract("我平时喜欢听爵士乐和古典音乐。")] == ["平时喜欢听爵士乐", "平时喜欢听古典音乐"]


def test_a_dish_whose_name_opens_with_a_verb_keeps_its_name() -> None:
    """R-TYPE-2, R-WRITE-2: 打卤面 was read as 打 + 卤面: 「我喜欢吃炸鸡和打卤面」 stored 「喜欢打卤面」
    (the head's 吃 dropped for the item's "own" verb), and 「我喜欢打卤面」 got another key than 「我爱吃打卤面」."""
    assert [c.content for c in extract("我喜欢吃炸鸡和打卤面。")] == ["喜欢吃炸鸡", "喜欢吃打卤面"]
    assert only("我喜欢打卤面。").key == only("我爱吃打卤面。").key
    assert [c.key for c in extract("我喜欢吃饺子和打篮球。")] == ["food-dumplings", "sport-basketball"]


def test_a_rule_about_notifications_has_one_key_in_both_languages() -> None:
    """R-TYPE-2, R-WRITE-2: the rule was keyed by its wording's hash (`rule-h827bcc1`), so the English
    wording of the same rule became a second memory."""
    assert only("不要在晚上十点以后给我发通知。").key == only("Never send me notifications after 10pm.").key
    assert only("不要在晚上十点以后给我发通知。").key == "rule-notifications"


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("I'm vegetarian but my husband isn't.", [("diet", "Is vegetarian")]),
        ("I love sushi but my son hates it.", [("food-sushi", "Loves sushi")]),
        ("I'm vegetarian but my wife eats meat.", [("diet", "Is vegetarian"), ("family-partner", "Wife eats meat")]),
    ],
)
def test_what_a_family_member_does_after_but_is_not_part_of_the_users_memory(
    message: str, expected: list[tuple[str, str]]
) -> None:
    """R-TYPE-2, issue 13.7: "but my husband isn't" stayed inside the user's diet
    (`diet: Is vegetarian but my husband isn't`); the clause is cut at "but my", and one that
    only points back ("hates it") says nothing of its own."""
    assert [(c.key, c.content) for c in extract(message)] == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("我怕冷。", ("upsert", "fact", "trait-sensitive-to-cold", "怕冷")),
        ("我特别怕热。", ("upsert", "fact", "trait-sensitive-to-heat", "特别怕热")),
        ("我晕车。", ("upsert", "fact", "trait-motion-sickness", "晕车")),
        ("I get carsick.", ("upsert", "fact", "trait-motion-sickness", "Gets carsick")),
        ("我恐高。", ("upsert", "fact", "trait-fear-of-heights", "恐高")),
        ("I'm afraid of heights.", ("upsert", "fact", "trait-fear-of-heights", "Is afraid of heights")),
        ("我是个急性子。", ("upsert", "fact", "trait-impatient", "是个急性子")),
        ("我是路痴。", ("upsert", "fact", "trait-poor-sense-of-direction", "是路痴")),
        ("我是夜猫子。", ("upsert", "preference", "habit-staying-up-late", "是夜猫子")),
        ("我晚上睡得很晚。", ("upsert", "preference", "habit-staying-up-late", "晚上睡得很晚")),
        ("I'm a night owl.", ("upsert", "preference", "habit-staying-up-late", "Is a night owl")),
        ("我不熬夜了。", ("delete", "preference", "habit-staying-up-late", "不熬夜了")),
        ("我习惯早起。", ("upsert", "preference", "habit-early-rising", "习惯早起")),
        ("I'm a morning person.", ("upsert", "preference", "habit-early-rising", "Is a morning person")),
        ("我每天早上六点起床。", ("upsert", "preference", "preference-wake-up", "每天早上六点起床")),
        ("I usually wake up at 6.", ("upsert", "preference", "preference-wake-up", "Usually wakes up at 6")),
        ("我一般晚上一点才睡。", ("upsert", "preference", "preference-bedtime", "一般晚上一点才睡")),
        (
            "I usually go to bed after midnight.",
            ("upsert", "preference", "preference-bedtime", "Usually goes to bed after midnight"),
        ),
    ],
)
def test_how_the_user_sleeps_and_what_they_cannot_stand_get_readable_keys_in_both_languages(
    message: str, expected: tuple[str, str, str, str]
) -> None:
    """R-TYPE-2, R-WRITE-2, issue 13.7 (tenth probe): 「我怕冷」, 「我晚上睡得很晚」 and 「我每天早上六点起床」
    left nothing, 「我是个急性子」 was `trait-hce16615`, 「我习惯早起」 `preference-h7b70e8b`; the English
    wording of each lands on the same key. (A bedtime also ends, where held, the sleep habit its hour
    contradicts: those deletes are tested with the habit.)"""
    candidate = extract(message)[0]
    assert (candidate.op, candidate.memory_type, candidate.key, candidate.content) == expected
    assert all(c.extra.get("if_held") for c in extract(message)[1:])


@pytest.mark.parametrize("message", ["我明天早上六点起床。", "我今天睡得很晚。", "他睡得很晚。", "我昨天熬夜了。"])
def test_a_night_or_a_morning_that_is_not_a_routine_leaves_nothing(message: str) -> None:
    """R-TYPE-3: a day named (明天, 今天, 昨天) is a plan or a one-off, and another person's sleep is theirs."""
    assert extract(message) == []


def test_a_trait_word_inside_a_liking_is_about_other_people() -> None:
    """R-WRITE-2: 「不喜欢急性子的人」 is a dislike of impatient people, not the user's impatience."""
    assert not only("我不喜欢急性子的人。").key.startswith("trait-")


def test_a_daily_reminder_is_a_standing_rule_keyed_by_what_it_is_about_in_both_languages() -> None:
    """R-TYPE-2, R-WRITE-2 (tenth probe): 「每天晚上睡觉前提醒我吃药」 and "Remind me to take my medicine
    every night before bed" left nothing (every day / every night was no standing word); they are
    one rule, `rule-medicine`. The time of day says when a rule applies, not what it is about:
    two bedtime rules keep two keys."""
    keys = {
        only(message).key
        for message in (
            "每天晚上睡觉前提醒我吃药。",
            "Remind me to take my medicine every night before bed.",
            "Every night before bed, remind me to take my pills.",
        )
    }
    assert keys == {"rule-medicine"}
    assert only("每天晚上睡觉前提醒我刷牙。").key != only("每天晚上睡觉前提醒我洗脸。").key
    assert only("以后早上起床的时候提醒我喝水。").key == only("Always remind me to drink water when I get up.").key


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("每周五提醒我健身。", "rule-gym"),
        ("Remind me to go to the gym every Friday.", "rule-gym"),
        ("每天提醒我喝水。", "rule-water"),
    ],
)
def test_a_reminder_at_regular_times_is_a_rule_not_a_habit(message: str, key: str) -> None:
    """R-TYPE-2: 「每周五提醒我健身」 also stored a gym habit (`sport-gym`, its frequency word and 健身
    read by the habit rule): asking to be reminded is not doing it."""
    candidate = only(message)
    assert (candidate.memory_type, candidate.key) == ("constraint", key)
    assert only("Every Monday, remind me to water the plants.").key != "rule-water"


@pytest.mark.parametrize(
    "message",
    [
        "下雨天提醒我带伞。",
        "下雨的话提醒我带伞。",
        "要是下雨就提醒我带伞。",
        "If it rains, remind me to bring an umbrella.",
    ],
)
def test_a_conditional_reminder_is_the_same_standing_rule_however_the_condition_is_said(message: str) -> None:
    """R-TYPE-2, R-WRITE-2: only 「下雨时提醒我带伞」 was read; 「下雨天…」, 「…的话」, 「要是…就…」 and "If it rains, …"
    left nothing. All are the one rule `rule-rain-umbrella`."""
    candidate = only(message)
    assert (candidate.memory_type, candidate.key) == ("constraint", "rule-rain-umbrella")


@pytest.mark.parametrize(
    "message",
    [
        "明天下雨的话提醒我带伞。",
        "If it rains tomorrow, remind me to bring an umbrella.",
        "If I forget, remind me to call her.",
        "如果我忘了，提醒我给她打电话。",
        "When I was a kid my mom would remind me to eat.",
    ],
)
def test_a_reminder_for_one_day_or_one_moment_is_no_standing_rule(message: str) -> None:
    """R-TYPE-3: a condition bound to a day is short-term, one about the user's own moment is a request,
    and a memory of someone else reminding is no rule."""
    assert extract(message) == []


# --- the eleventh probe: later "I", second verbs, code examples, the language one writes, settings --


@pytest.mark.parametrize(
    ("message", "content"),
    [
        ("I prefer aisle seats when I fly.", "Prefers aisle seats when they fly"),
        ("I like to read when I can't sleep.", "Likes to read when they can't sleep"),
        (
            "I'm learning Spanish and want to be conversational by next summer.",
            "Is learning Spanish and wants to be conversational by next summer",
        ),
        (
            "I'm training for a marathon and hope to finish under four hours.",
            "Is training for a marathon and hopes to finish under four hours",
        ),
        ("I enjoy hiking and don't like crowds.", "Enjoys hiking and doesn't like crowds"),
        ("I like apples and pears.", "Likes apples and pears"),
        ("I don't drink or like to party.", "Doesn't drink or like to party"),
        ("I love the movie Despicable Me.", "Loves the movie Despicable Me"),
        ("I work on I/O drivers when I can.", "Works on I/O drivers when they can"),
        ("I need some me-time on weekends.", "Needs some me-time on weekends"),
    ],
)
def test_an_english_statement_names_the_user_in_the_third_person_all_the_way_through(
    message: str, content: str
) -> None:
    """Issue 13.7 (eleventh probe): "Prefers aisle seats when I fly" and "Is learning Spanish and want
    to be …" were stored: the assistant reads a memory's "I" as its own, and a second verb of the
    user's kept the first person. A title's "Me" and a list's second noun stay as they are."""
    assert third_person(message.rstrip(".")) == content


def test_a_stored_english_preference_says_they_where_the_user_said_i() -> None:
    """Issue 13.7 (eleventh probe): the engine stores the third-person text, not the user's "I"."""
    assert only("I prefer aisle seats when I fly.").content == "Prefers aisle seats when they fly"


def test_a_goal_whose_later_part_points_back_at_its_first_is_kept() -> None:
    """R-TYPE-2, issue 13.7: "I want to learn piano and play it for my daughter" stored nothing (its
    "it" was read as pointing out of the clause); "I plan to launch it next year" still names nothing."""
    candidate = only("I want to learn piano and play it for my daughter.")
    assert (candidate.memory_type, candidate.key) == ("goal", "goal-piano")
    assert extract("I plan to launch it next year.") == []


@pytest.mark.parametrize(
    "message",
    [
        "以后代码示例都用TypeScript",
        "代码示例请用TypeScript",
        "Keep code examples in TypeScript.",
        "Use TypeScript for code examples.",
    ],
)
def test_a_rule_for_code_examples_in_general_is_one_constraint_and_nothing_else(message: str) -> None:
    """R-TYPE-2, R-READ-6 (eleventh probe): 「代码示例请用TypeScript」, "Keep code examples in …" and
    "Use … for code examples" left nothing, and 「以后代码示例都用TypeScript」 also stored a preference
    「都用TypeScript」 beside the constraint."""
    candidate = only(message)
    assert (candidate.memory_type, candidate.key) == ("constraint", "code-language")
    assert "TypeScript" in candidate.content


@pytest.mark.parametrize(
    "message", ["用TypeScript写一个快排", "Write a quicksort in Rust.", "Use Python for this.", "我写了个Python脚本"]
)
def test_one_piece_of_code_in_a_language_is_no_rule_and_no_liking(message: str) -> None:
    """R-TYPE-3: a one-off task in a language is neither a standing rule nor the language one works in."""
    assert extract(message) == []


def test_the_language_one_writes_code_in_has_the_key_of_the_one_one_uses() -> None:
    """R-WRITE-2 (eleventh probe): 「我主要写Go，偶尔写点Python」, 「我是写Java的」 and "I write Go at work"
    left nothing, where 「我主要用Go」 and "I mostly code in Go" were `preference-go`."""
    assert [c.key for c in extract("我主要写Go，偶尔写点Python")] == ["preference-go", "preference-python"]
    assert only("我是写Java的").key == "preference-java"
    assert "preference-python" in [c.key for c in extract("我平时用Python写代码")]
    assert only("I write Go at work.").key == only("我主要用Go").key == only("I mostly code in Go.").key


def test_a_liking_in_a_setting_the_user_names_first_is_kept_under_the_key_of_its_item() -> None:
    """R-TYPE-2 (eleventh probe): 「我坐飞机喜欢靠窗的位置」 and 「我写代码喜欢听音乐」 left nothing, where
    "I prefer window seats when I travel" was stored. The seat is one key in both languages, window
    or aisle: the later one replaces the earlier."""
    window = only("我坐飞机喜欢靠窗的位置")
    assert (window.key, window.content) == ("travel-seat", "坐飞机喜欢靠窗的位置")
    assert only("I prefer window seats when I travel.").key == only("I prefer aisle seats.").key == "travel-seat"
    assert only("我写代码喜欢听音乐").key == only("我喜欢听音乐").key
    assert only("我女儿喜欢画画").key.startswith("family-")
    assert extract("我学习习惯不好") == []


@pytest.mark.parametrize(
    ("message", "content"),
    [
        ("I work at a bank.", "Works at a bank"),
        ("I work remotely for a fintech startup.", "Works at a fintech startup"),
        ("我在一家创业公司上班", "在一家创业公司工作"),
        ("我在一家咖啡店打工", "在一家咖啡店工作"),
    ],
)
def test_an_employer_of_a_kind_is_the_employer_fact(message: str, content: str) -> None:
    """R-TYPE-2 (eleventh probe): 「我在银行工作」 was the employer fact; "I work at a bank" and
    「我在一家创业公司上班」 were nothing. Working from home names no employer."""
    candidate = only(message)
    assert (candidate.key, candidate.content) == ("employer", content)
    assert extract("I work at a desk all day.") == []
    assert [c.key for c in extract("我在家上班")] == ["work-location"]  # where, not for whom


def test_a_japanese_exam_level_is_a_readable_goal_key_in_both_languages() -> None:
    """R-WRITE-2 (eleventh probe): 「准备明年考N2」 was `goal-n2-hd7b5bc4`; N1 already had its key."""
    assert only("我准备明年考N2").key == only("I'm preparing for the JLPT N2.").key == "goal-jlpt-n2"


@pytest.mark.parametrize(
    ("message", "content"),
    [
        ("我怀孕五个月了", "怀孕五个月了"),
        ("I'm pregnant.", "Is pregnant"),
        ("I am 20 weeks pregnant.", "Is 20 weeks pregnant"),
    ],
)
def test_a_pregnancy_is_a_core_health_fact_for_months_not_for_life(message: str, content: str) -> None:
    """R-TYPE-2, R-READ-6 (eleventh probe): 「我怀孕五个月了」 and "I'm pregnant" stored nothing, though a
    pregnancy bears on every food, drug and exercise suggestion. It is core; a partner's pregnancy
    stays the partner's, and saying it is over retires it."""
    candidate = only(message)
    assert (candidate.memory_type, candidate.key, candidate.content) == ("fact", "health-pregnancy", content)
    assert candidate.importance == 5 and is_core_memory(candidate.memory_type, candidate.key, candidate.content)
    retired = only("I'm no longer pregnant.")
    assert (retired.op, retired.key) == ("delete", "health-pregnancy")
    assert only("我老婆怀孕了").key.startswith("family-")
    assert extract("I was pregnant last year.") == []


def test_colour_blindness_has_one_key_in_both_languages() -> None:
    """R-WRITE-2 (eleventh probe): 「我是色弱」 stored nothing and 「我是色盲」 a hash key, where "I'm
    colorblind" was `health-colorblind`."""
    assert only("我是色弱").key == only("我是色盲").key == only("I'm colorblind.").key == "health-colorblind"


@pytest.mark.parametrize(
    ("message", "content"),
    [("我的猫叫咪咪，是只橘猫", "猫叫咪咪，是只橘猫"), ("My cat Miso is 3 years old.", "Cat Miso is 3 years old")],
)
def test_my_pet_named_or_described_is_the_pet_fact(message: str, content: str) -> None:
    """R-TYPE-2 (eleventh probe): 「我家猫叫咪咪」 was the pet fact, 「我的猫叫咪咪」 nothing; pet food is no pet."""
    candidate = only(message)
    assert (candidate.key, candidate.content) == ("pet-cat", content)
    assert extract("我的猫粮吃完了") == []


@pytest.mark.parametrize(
    "message",
    ["我喜欢简单直接的回答", "I prefer short answers.", "I like direct answers.", "I prefer concise, direct answers."],
)
def test_a_kind_of_answer_the_user_likes_is_the_reply_style(message: str) -> None:
    """R-READ-6 (eleventh probe): these stored nothing, or "Prefers concise, direct answers" under
    `preference-concise`, outside the core block; a reaction to one answer stays out."""
    assert only(message).key == "reply-style"
    assert extract("I like your answer.") == []


def test_a_standing_rule_needs_a_word_that_asks_for_something_not_a_word_containing_one() -> None:
    """R-TYPE-3 (eleventh probe): 「我怀孕的时候特别想吃酸的」 was a standing rule: the 别 of 特别 read
    as "don't". A recommendation rule (优先, "prefer") is one."""
    assert extract("我怀孕的时候特别想吃酸的") == []
    assert only("以后推荐餐厅的时候别推荐火锅").memory_type == "constraint"
    assert only("推荐书的时候优先推荐中文书").memory_type == "constraint"
    assert only("When you recommend books, prefer ones in Chinese.").memory_type == "constraint"


def test_an_employer_of_a_kind_beside_an_occupation_adds_nothing() -> None:
    """R-TYPE-2: 「在一家外企做财务」 is the occupation; 「一家外企」 says less than it (labeled set zh-h003)."""
    assert [c.key for c in extract("我目前在一家外企做财务")] == ["occupation"]


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("我在吃降压药", "medication-blood-pressure-medication"),
        ("I take blood pressure medication.", "medication-blood-pressure-medication"),
        ("我每天吃二甲双胍", "medication-metformin"),
        ("I take metformin every day.", "medication-metformin"),
        ("我每天都要打胰岛素", "medication-insulin"),
        ("I'm on blood thinners.", "medication-blood-thinners"),
    ],
)
def test_a_medication_taken_for_long_is_a_core_fact_keyed_by_the_drug_in_both_languages(message: str, key: str) -> None:
    """R-READ-6 (eleventh probe, third round): 「我在吃降压药」, "I take metformin every day" and "I'm on blood
    thinners" stored nothing, though every drug and food suggestion must know them. A cold's medicine
    and the bus one takes are not medication."""
    candidate = only(message)
    assert (candidate.memory_type, candidate.key, candidate.importance) == ("fact", key, 5)
    assert is_core_memory(candidate.memory_type, candidate.key, candidate.content)
    assert extract("我在吃感冒药") == []
    assert not [c for c in extract("I take the bus every day.") if c.key.startswith("medication-")]


def test_the_level_explanations_are_pitched_at_is_a_reply_rule_of_its_own() -> None:
    """R-READ-6 (third round): "Please explain things like I'm a beginner" and 「把我当初学者来解释」 stored
    nothing; they are `reply-level`, apart from `reply-style` so neither replaces the other."""
    assert only("Please explain things like I'm a beginner.").key == only("把我当初学者来解释").key == "reply-level"
    assert {c.key for c in extract("以后回复简洁一点，把我当小白")} == {"reply-style", "reply-level"}


def test_a_native_speaker_states_their_native_language() -> None:
    """R-TYPE-2 (third round): "I'm a native Spanish speaker" stored nothing; "My native language is
    Spanish" was `native-language`."""
    assert only("I'm a native Spanish speaker.").content == only("My native language is Spanish.").content


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("Sushi is my favorite food.", "favorite-food", "Favorite food is sushi"),
        ("寿司是我最喜欢的食物", "favorite-food", "最喜欢的食物是寿司"),
        ("Jazz is my favorite.", "music-jazz", "Jazz is a favorite"),
    ],
)
def test_a_favourite_said_item_first_is_stored_as_the_favourite(message: str, key: str, content: str) -> None:
    """R-TYPE-2 (third round): "Sushi is my favorite food" stored nothing where "My favorite food is
    sushi" was kept; the stored text names no "my" the assistant would read as its own. A reaction
    ("That is my favorite", 「这个是我最喜欢的」) stays out."""
    candidate = only(message)
    assert (candidate.key, candidate.content) == (key, content)
    assert extract("That is my favorite.") == [] and extract("这个是我最喜欢的") == []


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("我对咖啡因很敏感", "sensitivity-caffeine"),
        ("I'm sensitive to caffeine.", "sensitivity-caffeine"),
        ("我最近在备孕", "health-trying-to-conceive"),
        ("I'm trying to get pregnant.", "health-trying-to-conceive"),
        ("我怕狗", "trait-fear-of-dogs"),
        ("I'm scared of dogs.", "trait-fear-of-dogs"),
    ],
)
def test_what_the_user_cannot_take_or_is_afraid_of_gets_one_key_in_both_languages(message: str, key: str) -> None:
    """R-READ-6, R-WRITE-2 (eleventh probe, fourth round): each stored nothing. A sensitivity and
    trying to conceive are core, as a pregnancy is ("trying to get pregnant" was a goal); a fear is
    a trait. Being sensitive to criticism is no such thing."""
    candidate = only(message)
    assert (candidate.memory_type, candidate.key) == ("fact", key)
    assert is_core_memory(candidate.memory_type, candidate.key, candidate.content) == (not key.startswith("trait-"))
    assert extract("我对批评很敏感") == []


def test_a_rule_for_every_reply_or_recommendation_needs_no_from_now_on() -> None:
    """R-TYPE-2 (fourth round): 「回答里别用英文术语」 and 「给我推荐东西的时候考虑一下预算」 stored nothing."""
    assert only("回答里别用英文术语").memory_type == "constraint"
    assert only("给我推荐东西的时候考虑一下预算").memory_type == "constraint"


def test_the_computer_the_user_works_on_is_a_device() -> None:
    """R-WRITE-2 (fourth round): 「我的电脑是Mac」 stored nothing where "I use a Mac" was `device-mac`."""
    assert only("我的电脑是Mac").key == only("I use a Mac.").key == "device-mac"
    assert only("我的电脑是Windows").key == "device-windows"


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("I'm retired.", "occupation", "Is retired"),
        ("我退休了", "occupation", "退休了"),
        ("I'm a stay-at-home dad.", "occupation", "Is a stay-at-home dad"),
        ("I teach high school math.", "occupation", "Teaches high school math"),
        ("我教高中数学", "occupation", "教高中数学"),
        ("I study computer science.", "education-major", "Studies computer science"),
        ("我在清华读书", "school", "在清华上学"),
        ("Use metric units.", "reply-units", "Uses metric units"),
        ("用公制单位", "reply-units", "用公制单位"),
    ],
)
def test_what_the_user_does_studies_and_measures_in_is_kept(message: str, key: str, content: str) -> None:
    """R-TYPE-2 (eleventh probe, fifth round): each stored nothing. Teaching one's own child is no
    occupation, and a school is no employer ("I'm a student at MIT" was "Works at MIT")."""
    # Retired also ends an employer held (test_a_job_started_or_left_for_no_other_ends_or_sets_the_employer).
    [candidate] = [c for c in extract(message) if c.op != "delete"]
    assert (candidate.key, candidate.content) == (key, content)
    assert extract("I teach my son to swim.") == []
    assert "Studies at MIT" in [c.content for c in extract("I'm a student at MIT.")]
    assert "employer" not in [c.key for c in extract("I'm a student at MIT.")]


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("I prefer responses in Traditional Chinese.", "reply-language"),
        ("I prefer answers in English.", "reply-language"),
        ("I need you to reply in Japanese.", "reply-language"),
        ("温度用摄氏度。", "reply-units"),
        ("Use 24-hour time.", "reply-time-format"),
        ("用24小时制", "reply-time-format"),
        ("Please cite sources when you give facts.", "reply-sources"),
        ("回答时请附上出处。", "reply-sources"),
        ("Avoid spoilers for movies.", "reply-spoilers"),
        ("别给我剧透。", "reply-spoilers"),
    ],
)
def test_how_every_reply_is_written_is_one_core_constraint_per_aspect(message: str, key: str) -> None:
    """R-READ-6 (twelfth probe): "I prefer responses in Traditional Chinese" was a taste
    (`preference-responses-traditional-chinese`) and the others stored nothing or a hash key; each is a
    constraint of its own slot now, so a clock never overwrites the units."""
    assert [(c.memory_type, c.key) for c in extract(message)] == [("constraint", key)]
    assert is_core_memory("constraint", key, message)
    assert [c.key for c in extract("I like books in French.")] == ["preference-books-french"]


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("I have a newborn.", "family-children", "Has a newborn"),
        ("I have twins.", "family-children", "Has twins"),
        ("I'm a single dad.", "family-children", "Is a single dad"),
        ("我刚当妈妈。", "family-children", "刚当妈妈"),
        ("我家有双胞胎。", "family-children", "我家有双胞胎"),
        ("I work from home.", "work-location", "Works from home"),
        ("我在家办公。", "work-location", "在家办公"),
    ],
)
def test_a_child_said_without_a_count_and_working_from_home_are_kept(message: str, key: str, content: str) -> None:
    """R-TYPE-2 (twelfth probe): each stored nothing. A baby shower, a new member and today's home
    office are none."""
    candidate = only(message)
    assert (candidate.key, candidate.content) == (key, content)
    for passing in (
        "I have a baby shower to plan.",
        "I'm a new member here.",
        "I work from home today.",
        "我今天在家办公。",
    ):
        assert extract(passing) == [], passing


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("Coffee makes me jittery.", "sensitivity-coffee"),
        ("喝咖啡我会心慌。", "sensitivity-coffee"),
        ("I get migraines from red wine.", "sensitivity-red-wine"),
        ("红酒会让我偏头痛。", "sensitivity-red-wine"),
        ("Dairy upsets my stomach.", "sensitivity-dairy"),
        ("我一喝牛奶就拉肚子。", "sensitivity-milk"),
    ],
)
def test_what_a_food_or_drink_does_to_the_user_is_a_core_sensitivity(message: str, key: str) -> None:
    """R-TYPE-2, R-READ-6 (twelfth probe): each stored nothing, yet the assistant should not suggest a
    late espresso to the first. Only foods and drinks count: "This song makes me sick" is none; after
    「我有乳糖不耐受」 the milk it upsets is no second fact (the labeled zh-030)."""
    candidate = only(message)
    assert (candidate.memory_type, candidate.key) == ("fact", key)
    assert is_core_memory(candidate.memory_type, candidate.key, candidate.content)
    for passing in ("This song makes me sick.", "他让我头疼。", "Work makes me anxious."):
        assert extract(passing) == [], passing
    # The reaction that explains a condition said just before is that condition's.
    assert [c.key for c in extract("我有乳糖不耐受，喝牛奶会拉肚子。")] == ["health-lactose-intolerance"]


def test_a_goal_with_its_year_or_learning_to_do_it_keys_by_what_it_is_about() -> None:
    """R-WRITE-2 (fifth round): "My goal this year is to read 30 books" and "I'm learning to code"
    stored nothing; 「我想今年学会编程」 was a hash key (the year stayed in the item)."""
    assert only("My goal this year is to read 30 books.").memory_type == "goal"
    assert only("I'm learning to code.").key == only("我想今年学会编程").key == "goal-coding"
    assert extract("I follow a strict dress code.") == []


@pytest.mark.parametrize(
    "message",
    [
        "我已经生了",
        "宝宝出生了",
        "我生完孩子了",
        "I had the baby.",
        "I gave birth last week.",
        # Session 22 probe: said of the baby, these retired nothing.
        "The baby was born last week, it's a girl.",
        "Our son was just born.",
        "The baby arrived early.",
    ],
)
def test_a_birth_retires_the_pregnancy(message: str) -> None:
    """R-WRITE-2, R-READ-6: a pregnancy is core and core memories never expire, so without this a
    mother would be treated as pregnant on every reply for good. A child born years ago ends nothing."""
    assert ("delete", "health-pregnancy") in [(c.op, c.key) for c in extract(message)]
    for not_a_birth_now in ("我女儿生了", "My son was born in 2019.", "My daughter is here to visit."):
        assert "health-pregnancy" not in [c.key for c in extract(not_a_birth_now)], not_a_birth_now


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("I have a MacBook Pro.", "device-mac", "Has a MacBook Pro"),
        ("I use an Android phone.", "device-android", "Uses an Android phone"),
        ("我用的是安卓手机", "device-android", "用的是安卓手机"),
        ("My phone is a Pixel 8.", "device-pixel", "Uses a Google Pixel 8"),
        ("我用的是华为手机", "device-huawei-phone", "用的是华为手机"),
    ],
)
def test_the_device_a_user_owns_is_a_device_preference_not_a_vehicle(message: str, key: str, content: str) -> None:
    """R-TYPE-2 (thirteenth probe): "I have a MacBook Pro" was the `vehicle` fact, "I use an Android
    phone" lost its phone, and the other three stored nothing. A car owned stays the vehicle."""
    candidate = only(message)
    assert (candidate.memory_type, candidate.key, candidate.content) == ("preference", key, content)
    assert (only("I have a Tesla Model 3.").key, only("I own a red pickup truck.").key) == ("vehicle", "vehicle")
    assert only("I drive a Honda Civic.").key == "vehicle"


@pytest.mark.parametrize(
    ("message", "op", "key"),
    [
        ("I just started a new job at a bank.", "upsert", "employer"),
        ("I've started working at Google.", "upsert", "employer"),
        ("我上周辞职了", "delete", "employer"),
        ("我上个月离职了", "delete", "employer"),
        ("我在准备考研", "upsert", "goal-grad-school-exam"),
        ("我想今年减重五公斤", "upsert", "goal-weight-loss"),
        ("I support Arsenal.", "upsert", "preference-arsenal"),
        ("My favorite color is blue.", "upsert", "favorite-color"),
        ("我最喜欢的颜色是蓝色", "upsert", "favorite-color"),
        ("I love blue.", "upsert", "color-blue"),
    ],
)
def test_a_new_job_a_resignation_an_exam_and_a_favourite_colour_land_on_readable_keys(
    message: str, op: str, key: str
) -> None:
    """R-WRITE-2 (thirteenth probe): the first two and 「我上周辞职了」 stored nothing (the English "I quit my
    job last week" retired the employer), 考研, 减重 and 蓝色 were hash keys, and "I support Arsenal" was
    nothing. A colour is one only as the whole item: blue cheese is a cheese."""
    candidate = only(message)
    assert (candidate.op, candidate.key) == (op, key)
    assert only("I love blue cheese.").key == "preference-blue-cheese"
    assert [c.key for c in extract("我是湖人球迷")] == [preference_key("湖人")]


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("I outgrew my nut allergy.", "allergy-tree-nut"),
        ("I've outgrown my peanut allergy.", "allergy-peanut"),
        ("我对花生不过敏了", "allergy-peanut"),
        ("我对海鲜已经不过敏了", "allergy-seafood"),
    ],
)
def test_an_allergy_the_user_has_outgrown_is_retired(message: str, key: str) -> None:
    """R-WRITE-2, R-READ-6 (thirteenth probe): each stored nothing, so the core allergy stayed in every
    reply for good; 「不过敏」 was even cut at 不过 ("but"). Not being allergic at all is no memory (a
    denial takes back only an allergy held: `test_an_allergy_denied_is_taken_back_only_when_held`)."""
    candidate = only(message)
    assert (candidate.op, candidate.key) == ("delete", key)
    assert "Outgrews" not in candidate.content
    assert refined("我对花生不过敏", []) == []
    assert extract("我对什么都不过敏") == []


def test_a_substance_the_user_cannot_have_is_a_core_sensitivity() -> None:
    """R-READ-6 (thirteenth probe): "I can't have caffeine after 2pm" stored nothing, so an evening
    espresso could be suggested. Not being able to have something else is no sensitivity."""
    candidate = only("I can't have caffeine after 2pm.")
    assert (candidate.key, candidate.content) == ("sensitivity-caffeine", "Can't have caffeine after 2pm")
    assert is_core_memory(candidate.memory_type, candidate.key, candidate.content)
    assert only("I can't digest dairy.").key == "sensitivity-dairy"
    assert extract("I can't have kids.") == []


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("I live with my parents.", "family-parents", "Lives with their parents"),
        ("我和父母住在一起", "family-parents", "和父母住在一起"),
        ("I'm living with my girlfriend.", "family-partner", "Is living with their girlfriend"),
        ("我奶奶坐轮椅", "family-grandparents", "奶奶坐轮椅"),
        ("My grandfather passed away last year.", "family-grandparents", "Grandfather passed away last year"),
    ],
)
def test_who_the_user_lives_with_and_the_grandparents_are_family_facts(message: str, key: str, content: str) -> None:
    """R-TYPE-2 (thirteenth probe): each stored nothing. A grandmother's wheelchair is hers: no health
    fact of the user's. Roommates are no family: the household slot (fourteenth probe)."""
    candidate = only(message)
    assert (candidate.op, candidate.key, candidate.content) == ("append", key, content)
    assert only("I live with roommates.").key == "household"


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("我不太喜欢吃甜的，也不爱喝饮料", "drink-soft-drinks"),
        ("我比较喜欢早上运动", "sport-exercise"),
        ("我最近迷上了露营", "sport-camping"),
        ("我打算明年换工作", "goal-job-change"),
        ("I'm afraid of flying.", "trait-fear-of-flying"),
        ("I have a fear of needles.", "trait-fear-of-needles"),
        ("我怕打针", "trait-fear-of-needles"),
        ("I'm more of a dog person.", "animal-dog"),
        ("We just had a baby girl.", "family-children"),
        ("别再给我推荐健身房了", "rule-gym"),
    ],
)
def test_everyday_likes_fears_a_new_baby_and_a_recommendation_refused_land_on_readable_keys(
    message: str, key: str
) -> None:
    """R-WRITE-2, R-TYPE-2 (thirteenth probe, second round): the first four were hash keys or nothing,
    the fears, the dog person and the baby stored nothing, and 「别再给我推荐健身房了」 was no standing rule.
    Asking to stop a recommendation without naming one is about this conversation only."""
    assert key in [c.key for c in extract(message)]
    for passing in ("别再说了", "别再给我推荐了", "I'd recommend it again."):
        assert extract(passing) == [], passing


@pytest.mark.parametrize(
    ("fact", "liking"),
    [
        ("I have asthma.", "I hate my asthma."),
        ("I take metformin.", "I hate taking metformin."),
        ("我有哮喘", "我讨厌哮喘"),
        ("我是左撇子", "我喜欢当左撇子"),
        ("I have a cat named Luna.", "I love cats."),
    ],
)
def test_a_liking_never_takes_the_key_of_a_fact_about_the_user(fact: str, liking: str) -> None:
    """R-WRITE-2 (thirteenth probe): keys are unique per user, and the liking was keyed like the fact
    (health-asthma, medication-metformin, trait-left-handed, pet-cat), so saying it overwrote a core fact
    with a preference. A retirement still names the fact's key."""
    assert only(fact).memory_type == "fact"
    assert only(liking).memory_type == "preference"
    assert only(liking).key != only(fact).key
    assert only("I don't take metformin anymore.").key == only("I take metformin.").key


def test_a_title_held_and_units_asked_for_are_read() -> None:
    """R-TYPE-2 (thirteenth probe, third round): "I'm the CTO of a small startup" stored nothing and
    "Always give me the metric units" was a hashed rule beside the `reply-units` slot."""
    assert (only("I'm the CTO of a small startup.").key, only("I'm the CTO of a small startup.").content) == (
        "occupation",
        "Occupation: CTO",
    )
    assert only("Always give me the metric units.").key == "reply-units"
    assert extract("I'm the one who called.") == []


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        (
            "I love spicy food but my stomach can't handle it anymore.",
            "food-spicy-food",
            "Loves spicy food but their stomach can't handle it anymore",
        ),
        ("我很喜欢吃辣，但是现在胃受不了了", "food-spicy-food", "很喜欢吃辣，但现在胃受不了了"),
        ("我喜欢喝咖啡，不过医生不让我喝了", "drink-coffee", "喜欢喝咖啡，但医生不让我喝了"),
        ("I love Paris but it's raining now.", "preference-paris", "Loves Paris"),
    ],
)
def test_a_liking_keeps_what_limits_it_now(message: str, key: str, content: str) -> None:
    """R-WRITE-2 (thirteenth probe, third round): "…but my stomach can't handle it anymore" was dropped,
    so the memory said "Loves spicy food", the opposite of the user's now; "I love Paris but it's
    raining now" was one item keyed by the rain."""
    candidate = only(message)
    assert (candidate.key, candidate.content) == (key, content)


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("我不能吃海鲜，会过敏", "allergy-seafood", "不能吃海鲜，会过敏"),
        ("I can't eat shellfish, I'm allergic.", "allergy-shellfish", "Can't eat shellfish; is allergic"),
        (
            "I don't eat kiwi because I'm allergic to it.",
            "allergy-kiwi",
            "Doesn't eat kiwi because they're allergic to it",
        ),
        ("我在哺乳期", "health-breastfeeding", "在哺乳期"),
        ("I'm breastfeeding.", "health-breastfeeding", "Is breastfeeding"),
        ("我失眠很严重", "health-insomnia", "失眠很严重"),
        ("我颈椎不好", "health-neck-problems", "颈椎不好"),
    ],
)
def test_an_allergy_given_as_the_reason_and_breastfeeding_are_core_safety_facts(
    message: str, key: str, content: str
) -> None:
    """R-READ-6 (thirteenth probe, fourth round): the avoidance was stored as a taste and the allergy after
    it dropped; breastfeeding, insomnia and a bad neck stored nothing. Weaning retires breastfeeding, and
    an allergy "to it" names no allergen by itself."""
    candidate = only(message)
    assert (candidate.memory_type, candidate.key, candidate.content) == ("fact", key, content)
    assert is_core_memory(candidate.memory_type, candidate.key, candidate.content)
    assert [(c.op, c.key) for c in extract("宝宝断奶了")] == [("delete", "health-breastfeeding")]
    assert extract("I'm allergic to it.") == []


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("我胃不好，不能吃太辣", "health-stomach-problems"),
        ("我不喝冰的", "drink-cold-drinks"),
        ("我只喝美式", "drink-coffee"),
        ("我早上不吃早饭", "food-breakfast"),
        ("我喜欢看科幻小说", "book-sci-fi-novels"),
        ("我喜欢听播客", "media-podcasts"),
    ],
)
def test_everyday_chinese_habits_land_on_readable_keys(message: str, key: str) -> None:
    """R-WRITE-2 (thirteenth probe, fourth round): hash keys or nothing before; 「我只吃了一口」 is no habit."""
    assert key in [c.key for c in extract(message)]
    assert extract("我只吃了一口") == []


def test_jargon_and_comments_in_code_explanations_are_standing_rules() -> None:
    """R-TYPE-2 (thirteenth probe, fourth round): both stored nothing."""
    for message in ("不要用太多专业术语", "解释代码的时候多加注释"):
        assert only(message).memory_type == "constraint", message


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("My doctor told me to avoid salt.", "diet-low-salt"),
        ("医生让我少吃糖", "diet-sugar"),
        ("I have dyslexia.", "health-dyslexia"),
    ],
)
def test_a_doctors_order_about_food_and_a_learning_condition_are_core_facts(message: str, key: str) -> None:
    """R-READ-6 (thirteenth probe, fifth round): each stored nothing (「医生让我少吃盐」 already was the
    low-salt diet; the English order now lands on the same key)."""
    candidate = only(message)
    assert (candidate.memory_type, candidate.key) == ("fact", key)
    assert is_core_memory(candidate.memory_type, candidate.key, candidate.content)


def test_a_renovation_and_a_novel_are_projects_on_one_key_in_either_language() -> None:
    """R-WRITE-2 (thirteenth probe, fifth round): renovations stored nothing, and a novel was
    project-novels in Chinese but project-novel in English."""
    assert only("I'm writing a novel.").key == only("我在写一本小说").key == "project-novels"
    assert only("我在装修房子").key == "project-house"
    assert only("I'm renovating my apartment.").key == "project-apartment"


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("My favorite color is green now.", "favorite-color"),
        ("我最喜欢的颜色是蓝色", "favorite-color"),
        ("我最喜欢的电影是星际穿越", "favorite-movies"),
        ("My favorite movie is Inception.", "favorite-movies"),
        ("我喜欢的运动是游泳", "favorite-sport"),
        ("我喜欢的是川菜", "food-sichuan-cuisine"),
    ],
)
def test_a_favourite_is_one_per_kind_in_either_language(message: str, key: str) -> None:
    """R-WRITE-2 (thirteenth probe, sixth round): a favourite was keyed by its item, so "My favorite
    color is green now" after "… blue" left two favourite colours; 「我最喜欢的电影是…」 was a hash key.
    Pointing at the conversation or at a person is none."""
    assert only(message).key == key
    for passing in ("我最喜欢的是这个", "我喜欢的人是她"):
        assert extract(passing) == [], passing


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("Don't mention my ex.", "rule-ex"),
        ("不要提我前任", "rule-ex"),
        ("Please don't bring up my divorce.", "rule-divorce"),
        ("别问我体重", "rule-body-weight"),
        ("Don't ask me about my weight.", "rule-body-weight"),
    ],
)
def test_a_painful_topic_the_user_asks_never_to_hear_is_a_core_standing_rule(message: str, key: str) -> None:
    """R-READ-6 (thirteenth probe, seventh round): each stored nothing. "Don't mention it" (a thank-you's
    answer) and a topic kept out of one task are no rule."""
    candidate = only(message)
    assert (candidate.memory_type, candidate.key) == ("constraint", key)
    assert is_core_memory(candidate.memory_type, candidate.key, candidate.content)
    for passing in ("Don't mention it.", "Don't mention my name in the email.", "Don't mention my ex in the speech."):
        assert extract(passing) == [], passing


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("I wear glasses.", "trait-glasses", "Wears glasses"),
        ("我戴眼镜", "trait-glasses", "戴眼镜"),
        ("I'm nearsighted.", "trait-nearsighted", "Is nearsighted"),
        ("我有点近视", "trait-nearsighted", "有点近视"),
        ("I'm an introvert.", "trait-introvert", "Is an introvert"),
        ("我比较内向", "trait-introvert", "比较内向"),
    ],
)
def test_eyesight_and_temperament_are_traits_in_either_language(message: str, key: str, content: str) -> None:
    """R-TYPE-2 (fourteenth probe): glasses, 近视 and 内向 stored nothing; "I'm an introvert" was a
    preference while 「我比较内向」 was nothing. Both languages meet on one trait key."""
    candidate = only(message)
    assert (candidate.memory_type, candidate.key, candidate.content) == ("fact", key, content)


@pytest.mark.parametrize(
    ("message", "status"),
    [
        ("I'm divorced.", "Is divorced"),
        ("我离婚了", "离婚了"),
        ("I got divorced last year.", "Got divorced last year"),
        ("我单身", "单身"),
        ("I'm widowed.", "Is widowed"),
    ],
)
def test_a_relationship_status_retires_the_partner_only_when_one_is_held(message: str, status: str) -> None:
    """R-WRITE-2 (fourteenth probe): a divorce stored nothing, and the partner's facts stayed. The
    status is a slot; the partner is retired when held, and nothing is retired when not."""
    partner = ExistingMemory(1, "family-partner", "fact", "Wife is a doctor")
    assert refined(message, [partner]) == [
        ("upsert", "fact", "relationship-status"),
        ("delete", "fact", "family-partner"),
    ]
    assert extract(message)[0].content == status
    assert refined(message, []) == [("upsert", "fact", "relationship-status")]


def test_a_marriage_ends_a_single_or_divorced_status() -> None:
    """R-WRITE-2 (fourteenth probe): "I just got married" appends to the partner and retires a status
    said before; the labeled "结婚了" turn gains nothing when no status is held."""
    status = ExistingMemory(1, "relationship-status", "fact", "Is single")
    for message in ("I just got married.", "I'm engaged.", "我结婚了", "我订婚了"):
        assert refined(message, [status]) == [
            ("append", "fact", "family-partner"),
            ("delete", "fact", "relationship-status"),
        ], message
        assert refined(message, []) == [("append", "fact", "family-partner")], message


def test_a_wish_to_learn_or_pass_something_is_a_goal_without_a_year() -> None:
    """R-TYPE-2 (fourteenth probe): 「我想学钢琴」 stored nothing, where "I want to learn piano" was a
    goal; a question of the moment or a quiz is none. 做饭 is one key with "cooking"."""
    assert (only("我想学钢琴").key, only("I want to learn piano.").key) == ("goal-piano", "goal-piano")
    assert only("我一直想考驾照").key == "goal-drivers-license"
    assert only("我想学做菜").key == only("I want to learn to cook.").key == "goal-cooking"
    assert only("我喜欢做饭").key == only("I love cooking.").key == "habit-cooking"
    for passing in ("我想学一下这个函数怎么用", "我想考考你", "我想学这个吗"):
        assert extract(passing) == [], passing


def test_a_family_members_liking_without_its_object_is_not_stored() -> None:
    """R-WRITE-2 (fourteenth probe): 「我喜欢川菜，但是我老婆不喜欢」 appended 「老婆不喜欢」 (liking what?)
    to the partner, as "but my wife doesn't" is dropped in English."""
    assert [c.key for c in extract("我喜欢川菜，但是我老婆不喜欢")] == ["food-sichuan-cuisine"]
    assert [c.key for c in extract("我喜欢川菜，我老婆也喜欢吃")] == ["food-sichuan-cuisine"]
    assert only("我老公不吃辣").key == "family-partner"


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("I have a PhD in chemistry.", "education-major", "Has a PhD in chemistry"),
        (
            "I graduated from the University of Michigan in 2010.",
            "alma-mater",
            "Graduated from the University of Michigan",
        ),
        ("我是北大毕业的", "alma-mater", "毕业于北大"),
        ("我本科毕业于浙江大学", "alma-mater", "毕业于浙江大学"),
        ("I live alone.", "household", "Lives alone"),
        ("我和室友合租", "household", "和室友合租"),
        ("I can't swim.", "trait-cannot-swim", "Can't swim"),
        ("我不会游泳", "trait-cannot-swim", "不会游泳"),
        ("我不会开车", "trait-does-not-drive", "不会开车"),
    ],
)
def test_schooling_household_and_what_the_user_cannot_do_are_facts(message: str, key: str, content: str) -> None:
    """R-TYPE-2 (fourteenth probe): each stored nothing. A graduation said with a time alone names no school
    (with nothing held it writes nothing; session 22: it ends a school or a student's occupation held)."""
    candidate = only(message)
    assert (candidate.memory_type, candidate.key, candidate.content) == ("fact", key, content)
    for passing in ("我刚毕业", "我去年毕业的", "I graduated last year."):
        assert refined(passing, []) == [], passing


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("I'm a type 1 diabetic.", "health-diabetes", "Is a type 1 diabetic"),
        ("I have celiac.", "health-celiac-disease", "Has celiac"),
        ("I have a bad knee.", "health-bad-knees", "Has a bad knee"),
        (
            "I'm lactose intolerant but I can have yogurt.",
            "health-lactose-intolerance",
            "Is lactose intolerant but can have yogurt",
        ),
        ("我乳糖不耐受，但是可以喝酸奶", "health-lactose-intolerance", "乳糖不耐受，但可以喝酸奶"),
        (
            "I'm allergic to peanuts but I can eat almonds.",
            "allergy-peanut",
            "Is allergic to peanuts but can eat almonds",
        ),
    ],
)
def test_a_condition_is_read_with_its_article_and_what_it_allows(message: str, key: str, content: str) -> None:
    """R-READ-6 (fourteenth probe): "I'm a type 1 diabetic", "I have celiac" and "a bad knee" stored
    nothing; what an intolerance or allergy allows was dropped (a diet's was kept)."""
    candidate = only(message)
    assert (candidate.key, candidate.content) == (key, content)
    assert is_core_memory(candidate.memory_type, candidate.key, candidate.content)


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("I'm doing intermittent fasting.", "habit-intermittent-fasting", "Is doing intermittent fasting"),
        ("我在做16:8轻断食", "habit-intermittent-fasting", "在做16:8轻断食"),
        ("我每天通勤一个半小时", "commute", "每天通勤一个半小时"),
        ("My commute is an hour each way.", "commute", "Commute takes 60 minutes each way"),
        ("I work night shifts at a hospital.", "work-schedule", "Works night shifts at a hospital"),
        ("我是三班倒", "work-schedule", "是三班倒"),
        ("我想换个城市生活", "goal-relocation", "想换个城市生活"),
        ("我想换工作", "goal-job-change", "想换工作"),
        ("I'm thinking about learning Rust.", "goal-rust", "Is thinking about learning Rust"),
    ],
)
def test_fasting_a_commute_shifts_and_plans_considered_land_on_readable_keys(
    message: str, key: str, content: str
) -> None:
    """R-TYPE-2 (fourteenth probe, third round): each stored nothing. "Thinking about" a plan is a goal
    only with a plan's verb ("I'm thinking about dinner" is none)."""
    candidate = only(message)
    assert (candidate.key, candidate.content) == (key, content)
    assert extract("I'm thinking about dinner.") == []


def test_what_a_condition_asks_of_every_reply_right_after_it_is_a_standing_rule() -> None:
    """R-READ-6 (fourteenth probe, third round): "I'm colorblind, so don't rely on colors in charts" kept
    the condition and dropped the rule after "so"; said on its own, with no condition before, it is
    no standing rule."""
    for message, rule in (
        ("I'm colorblind, so don't rely on colors in charts.", "Don't rely on colors in charts"),
        ("I'm deaf, so don't send voice messages.", "Don't send voice messages"),
        ("我色弱，所以图表别只用颜色区分", "图表别只用颜色区分"),
        ("我有哮喘，别给我推荐跑步", "别给我推荐跑步"),
    ):
        condition, standing = extract(message)
        assert condition.key.startswith("health-"), message
        assert (standing.memory_type, standing.content) == ("constraint", rule), message
        assert is_core_memory(standing.memory_type, standing.key, standing.content)
    assert extract("Don't rely on colors in charts.") == []
    assert [c.key for c in extract("我喜欢跑步，别给我推荐游泳")] == ["sport-running"]


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("I'm not allergic to penicillin.", "allergy-penicillin"),
        ("Actually I'm not allergic to penicillin, it was a misdiagnosis.", "allergy-penicillin"),
        ("Turns out I'm not allergic to shellfish after all.", "allergy-shellfish"),
        ("I don't have a peanut allergy.", "allergy-peanut"),
        ("其实我对青霉素不过敏，是误诊", "allergy-penicillin"),
    ],
)
def test_an_allergy_denied_is_taken_back_only_when_held(message: str, key: str) -> None:
    """R-READ-6 (fourteenth probe): "I'm not allergic to penicillin" was stored as the core memory
    `allergy-penicillin` "Is not allergic to penicillin", overwriting the allergy it denies. It takes back
    a held allergy (a misdiagnosis) and is no memory when none is held."""
    held = ExistingMemory(1, key, "fact", "Is allergic")
    assert refined(message, [held]) == [("delete", "fact", key)]
    assert refined(message, []) == []


@pytest.mark.parametrize(
    "message",
    [
        "I'm not vegetarian.",
        "I'm not vegan, I eat meat.",
        "我不是素食者",
        "我不吃素",
        "我从来不吃素",
        "其实我不是素食者",
    ],
)
def test_a_diet_denied_is_taken_back_only_when_held(message: str) -> None:
    """R-READ-6 (session 22 probe): 「我不是素食者」 and 「我不吃素」 were stored as the core memory `diet`
    "不是素食者" / "不吃素" (with a taste `preference-h…` beside it), injected before every reply as if
    the user kept a diet. A denied diet takes back a held one and is no memory otherwise."""
    held = ExistingMemory(1, "diet", "fact", "Is vegetarian")
    assert refined(message, [held]) == [("delete", "fact", "diet")]
    assert refined(message, []) == []


def test_a_dish_the_user_does_not_eat_is_no_diet() -> None:
    """R-READ-6: 「我不吃素菜」 (no vegetable dishes) held 吃素 and was stored as the core `diet` fact."""
    assert [(c.memory_type, c.key) for c in extract("我不吃素菜")] == [("preference", "food-vegetables")]
    assert [(c.memory_type, c.key) for c in extract("我吃素")] == [("fact", "diet")]


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("我是回族，不吃猪肉", "diet-pork", "不吃猪肉（宗教原因）"),
        ("我不吃猪肉，我是回族", "diet-pork", "不吃猪肉（宗教原因）"),
        ("我是穆斯林，所以不吃猪肉", "diet-pork", "不吃猪肉（宗教原因）"),
        ("我不吃牛肉，因为信仰", "diet-beef", "不吃牛肉（宗教原因）"),
        ("I don't eat pork, I'm Muslim.", "diet-pork", "Doesn't eat pork for religious reasons"),
        ("Because I'm Hindu, I don't eat beef.", "diet-beef", "Doesn't eat beef for religious reasons"),
        ("I don't eat pork for religious reasons.", "diet-pork", "Doesn't eat pork for religious reasons"),
    ],
)
def test_a_food_avoided_for_a_faith_is_a_core_restriction_and_the_faith_is_not_stored(
    message: str, key: str, content: str
) -> None:
    """R-READ-6 / R-TYPE-3 (session 22 probe): 「我不吃猪肉，我是回族」 kept only the taste `food-pork`
    "不吃猪肉", a memory that is not core and can be outweighed; a food avoided for a faith is as binding
    as a doctor's order. The faith is not a memory of its own, nor named in the restriction."""
    candidate = only(message)
    assert (candidate.op, candidate.memory_type, candidate.key, candidate.content) == ("upsert", "fact", key, content)
    assert is_core_memory(candidate.memory_type, candidate.key, candidate.content)
    assert not re.search("回族|穆斯林|Muslim|Hindu", candidate.content)
    assert extract("我是回族") == [] and extract("I'm Muslim.") == []
    assert [(c.memory_type, c.key) for c in extract("我是回族，喜欢吃牛肉面")] == [("preference", "food-beef")]


@pytest.mark.parametrize(
    ("message", "op", "key"),
    [
        ("I quit smoking.", "delete", "habit-smoking"),
        ("I started smoking again.", "upsert", "habit-smoking"),
        ("我又开始抽烟了", "upsert", "habit-smoking"),
        ("我抽烟", "upsert", "habit-smoking"),
        ("I smoke.", "upsert", "habit-smoking"),
        ("我最近又开始喝酒了", "upsert", "drink-alcohol"),
        ("I've started drinking coffee again.", "upsert", "drink-coffee"),
        ("I recently started running.", "upsert", "sport-running"),
        ("我最近开始跑步了", "upsert", "sport-running"),
        ("I stopped running.", "delete", "sport-running"),
        ("I took up yoga.", "upsert", "sport-yoga"),
        ("I quit going to the gym.", "delete", "sport-gym"),
    ],
)
def test_a_habit_taken_up_again_lands_where_giving_it_up_retired_it(message: str, op: str, key: str) -> None:
    """R-WRITE-2 (session 22 probe): "I started smoking again", 「我又开始抽烟了」, "I smoke", 「我最近开始跑步了」
    stored nothing, so a smoker who once said "I quit smoking" stayed a non-smoker in memory; "I stopped
    running" retired nothing. A habit started or given up uses the key of the activity."""
    candidate = only(message)
    assert (candidate.op, candidate.memory_type, candidate.key) == (op, "preference", key)
    for started_something_else in ("I started a new book.", "I started a new job.", "我开始上班了"):
        assert [c.key for c in extract(started_something_else) if c.memory_type == "preference"] == []


@pytest.mark.parametrize(
    ("diet", "message", "written"),
    [
        ("戒酒", "最近又开始喝酒了", ("delete", "diet", None)),
        ("戒酒；不吃猪肉了", "我又开始喝酒了", ("upsert", "diet", "不吃猪肉了")),
        (
            "Quit drinking; Stopped eating red meat",
            "I started drinking again.",
            ("upsert", "diet", "Stopped eating red meat"),
        ),
        ("Is vegetarian", "I started drinking again.", None),
    ],
)
def test_a_drink_taken_up_again_leaves_the_diet_that_gave_it_up(
    diet: str, message: str, written: tuple[str, str, str | None] | None
) -> None:
    """R-READ-6 (session 22 scenarios): 「我戒酒了」 appends 戒酒 to the core `diet` fact; after 「最近又开始喝酒了」
    the diet still said the user keeps from alcohol, on every reply. The part that gave it up leaves the
    diet (the whole fact when nothing else is in it); a diet that never named the drink is left alone."""
    held = [ExistingMemory(1, "diet", "fact", diet)]
    refined_candidates = ENGINE.refine(extract(message), held)
    diet_changes = [
        (c.op, c.key, c.content if c.op == "upsert" else None) for c in refined_candidates if c.key == "diet"
    ]
    assert diet_changes == ([written] if written else [])
    assert ("upsert", "drink-alcohol") in [(c.op, c.key) for c in refined_candidates]


@pytest.mark.parametrize(
    "message",
    [
        "Actually, give me detailed answers from now on.",
        "Please give me detailed answers.",
        "I prefer longer, more detailed explanations.",
        "Please write shorter replies.",
    ],
)
def test_a_kind_of_answer_asked_for_lands_on_the_reply_style_slot(message: str) -> None:
    """R-READ-6 (session 22 scenarios): after "Keep your answers short please" (`reply-style`), "Actually, give
    me detailed answers from now on" became a second standing rule `rule-detailed-answers`, so both
    "short" and "detailed" reached every reply; "Please give me detailed answers" stored nothing. A kind
    of answer asked for is the reply style, whose newer value replaces the older."""
    candidate = only(message)
    assert (candidate.op, candidate.key) == ("upsert", "reply-style")
    assert only("Keep your answers short please.").key == "reply-style"
    assert [c.key for c in extract("I like short stories.")] == ["preference-short-stories"]


def test_a_return_home_after_a_move_is_the_residence_again() -> None:
    """R-WRITE-2 (session 22 scenarios): "I moved to Portland" then "Actually I'm back in Seattle now" kept
    Portland; 「我搬回北京了」 stored nothing. Being back in a named place, or moving back, is the residence."""
    assert (only("Actually I'm back in Seattle now.").key, only("Actually I'm back in Seattle now.").content) == (
        "residence-city",
        "Lives in Seattle",
    )
    assert only("我搬回北京了").content == "住在北京"
    for not_a_move in ("I'm back in the office.", "I'm back in town.", "I'm back in Paris for a conference."):
        assert "residence-city" not in [c.key for c in extract(not_a_move)], not_a_move


def test_a_partner_ends_a_single_status_and_a_break_up_ends_the_partner_only_when_held() -> None:
    """R-WRITE-2 (session 22 scenarios): "I'm single" then "I have a girlfriend now, her name is Mia" kept
    "Is single" beside the girlfriend; 「我有女朋友」 and 「我们分手了」, "We broke up" stored nothing, so a partner
    stayed for good. A partner now ends the single status held; a break-up ends the partner held."""
    single = ExistingMemory(1, "relationship-status", "fact", "Is single")
    partner = ExistingMemory(2, "family-partner", "fact", "Has a girlfriend")
    for message in ("I have a girlfriend now, her name is Mia.", "我有女朋友了", "我有男朋友"):
        assert ("delete", "fact", "relationship-status") in refined(message, [single]), message
        assert ("append", "fact", "family-partner") in refined(message, []), message
    for message in ("We broke up.", "我们分手了", "我和女朋友分手了", "I broke up with my boyfriend."):
        assert refined(message, [partner]) == [("delete", "fact", "family-partner")], message
        assert refined(message, []) == [], message
    assert extract("I broke up with the band.") == []
    assert [c.key for c in extract("My sister has a boyfriend.")] == ["family-siblings"]


def test_a_job_change_and_a_place_left_end_what_they_name() -> None:
    """R-WRITE-2 (session 22 scenarios): 「我跳槽到腾讯了」 kept 阿里 as the employer; 「我已经不在字节了」 stored
    nothing (a company or a city?). A job change is the employer; a place left ends the employer, city
    or work city held that names it, and nothing else."""
    assert only("我跳槽到腾讯了").content == "在腾讯工作"
    employer = ExistingMemory(1, "employer", "fact", "在字节工作")
    city = ExistingMemory(2, "residence-city", "fact", "住在北京")
    assert refined("我已经不在字节了", [employer, city]) == [("delete", "fact", "employer")]
    assert refined("我现在不在北京了", [employer, city]) == [("delete", "fact", "residence-city")]
    assert refined("我已经不在上海了", [employer, city]) == []
    assert extract("我不在家了") == []


def test_a_liking_said_after_a_time_word_before_i_is_read() -> None:
    """R-WRITE-2 (session 22 scenarios): 「我讨厌香菜」 then 「其实现在我挺喜欢香菜的」 kept the dislike: a time or
    discourse word before 我 hid the liking. It is read, and its content keeps the time word without 我."""
    candidate = only("其实现在我挺喜欢香菜的")
    assert (candidate.key, candidate.content) == ("food-cilantro", "现在挺喜欢香菜的")
    assert only("最近我在学吉他").content == "最近在学吉他"


def test_a_standing_rule_taken_back_or_switched_back_reaches_its_slot() -> None:
    """R-READ-6 (session 22 scenarios): 「以后回答都用英文」 then 「还是用中文吧」 kept English for every reply;
    "Please don't use emojis" then "Emojis are fine now, go ahead" kept the ban. A language said with
    以后 / 还是 alone is the reply language; emojis allowed end the ban held (nothing when none is)."""
    for message in ("还是用中文吧", "以后还是用中文"):
        candidate = only(message)
        assert (candidate.op, candidate.key, candidate.content) == ("upsert", "reply-language", "回复用中文"), message
    assert extract("用中文吧") == [] and extract("这份文档还是用中文吧") == []
    ban = ExistingMemory(1, "reply-emoji", "constraint", "Please don't use emojis")
    for message in ("Emojis are fine now, go ahead.", "You can use emojis again.", "可以用表情了"):
        assert refined(message, [ban]) == [("delete", "constraint", "reply-emoji")], message
        assert refined(message, []) == [], message


def test_a_diet_quit_a_new_wake_up_time_living_alone_and_a_time_lead_are_read() -> None:
    """R-WRITE-2, R-READ-6 (session 22 scenarios): "I quit keto" kept the core diet "Is on a keto diet" (and
    retired a `preference-keto` nobody held); 「最近改成七点起了」 kept six o'clock; "I live alone now" and
    "These days I mostly write Rust" stored nothing."""
    keto = ExistingMemory(1, "diet", "fact", "Is on a keto diet")
    vegetarian = ExistingMemory(1, "diet", "fact", "Is vegetarian")
    for message in ("I quit keto, it was too hard.", "I'm off keto now."):
        assert refined(message, [keto]) == [("delete", "fact", "diet")], message
        assert refined(message, [vegetarian]) == [], message
    assert (only("最近改成七点起了").key, only("最近改成七点起了").content) == (
        "preference-wake-up",
        "最近改成七点起了",
    )
    assert (only("I live alone now.").key, only("I live alone now.").content) == ("household", "Lives alone")
    assert (only("These days I mostly write Rust.").key) == "preference-rust"


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("我转行做产品经理了", "occupation", "职业：产品经理"),
        ("公司把我调到广州了", "work-city", "在广州工作"),
        ("我被调到广州了", "work-city", "在广州工作"),
        ("我搬家了，现在走路十分钟就到公司", "commute", "现在走路十分钟就到公司"),
        ("我一周健身三次", "sport-gym", "一周健身三次"),
    ],
)
def test_a_change_of_career_city_or_commute_and_a_weekly_habit_are_read(message: str, key: str, content: str) -> None:
    """R-WRITE-2 (session 22 scenarios): each stored nothing, so 程序员, 深圳 and a one-hour commute stayed
    after the user said they changed, and 「我一周健身三次」 (a week's count, not 每周) was no habit."""
    candidate = only(message)
    assert (candidate.op, candidate.key, candidate.content) == ("upsert", key, content)
    assert extract("我把他调到广州了") == [] and extract("一周前我去健身房了") == []


def test_an_exam_sat_reaches_the_goal_of_preparing_for_it() -> None:
    """R-WRITE-2 (session 22 scenarios): 「我在备考雅思」 then 「雅思考完了，7分」 kept the goal for good."""
    ielts = ExistingMemory(1, "goal-ielts", "goal", "在备考雅思")
    for message in ("雅思考完了，7分", "我考完雅思了", "我雅思考过了"):
        assert refined(message, [ielts]) == [("delete", "goal", "goal-ielts")], message
        assert refined(message, []) == [], message


def test_a_retirement_an_office_return_a_taste_come_round_and_a_goal_reached_are_read() -> None:
    """R-WRITE-2 (session 22 scenarios): each left the old memory for good: "I retired last year" (teacher),
    "I'm back in the office full-time now" (works from home), "I've actually started to enjoy running"
    (hates running), "I finished the marathon in 4:05!" and "I'm fluent in French now" (the goals)."""
    assert (only("I retired last year.").key, only("I retired last year.").content) == (
        "occupation",
        "Retired last year",
    )
    assert only("I'm back in the office full-time now.").key == "work-location"
    assert (
        only("I've actually started to enjoy running.").op,
        only("I've actually started to enjoy running.").key,
    ) == (
        "upsert",
        "sport-running",
    )
    marathon = ExistingMemory(1, "goal-marathon", "goal", "Is training for a marathon")
    french = ExistingMemory(2, "goal-french", "goal", "Is learning French")
    assert refined("I finished the marathon in 4:05!", [marathon]) == [("delete", "goal", "goal-marathon")]
    # The goal reached, and the level the user now speaks it at (twenty-fifth probe).
    assert refined("I'm fluent in French now.", [french]) == [
        ("delete", "goal", "goal-french"),
        ("upsert", "fact", "language-french"),
    ]
    assert extract("I finished the marathon series on Netflix.") == []


def test_a_pet_named_in_its_death_ends_the_pet_memory_that_names_it() -> None:
    """R-WRITE-2 (session 22 scenarios): "I have a dog named Rex" then "Rex died last week" (and 豆豆 in Chinese)
    kept the pet for good. A name said dying ends the one pet memory that names it, whatever its key;
    nothing when no pet memory does."""
    rex = ExistingMemory(1, "pet-dog", "fact", "Has a dog named Rex")
    doudou = ExistingMemory(2, "pet-dog", "fact", "养了一只狗，叫豆豆")
    grandpa = ExistingMemory(3, "family-grandparents", "fact", "Grandpa Rex lives with us")
    assert refined("Rex died last week.", [rex]) == [("delete", "fact", "pet-dog")]
    assert refined("豆豆去世了", [doudou]) == [("delete", "fact", "pet-dog")]
    assert refined("Rex died last week.", [grandpa]) == []
    assert extract("他走了") == []
    # LoCoMo: "I … passed" is no pet's death.
    assert not [c for c in extract("I passed the adoption agency interviews last Friday!") if c.key.startswith("pet-")]


def test_a_pregnancy_denied_and_a_medication_stopped_end_only_what_is_held() -> None:
    """R-READ-6 (session 22 scenarios): 「我怀孕了」 then 「不好意思，我搞错了，没怀孕」 kept the core pregnancy on every
    reply; 「我已经停药了」 and "I stopped my medication" kept the medication. A pregnancy denied ends one held
    (nothing otherwise); a medication stopped without its name ends the one medication held, and none of two."""
    pregnancy = ExistingMemory(1, "health-pregnancy", "fact", "怀孕了")
    for message in ("不好意思，我搞错了，没怀孕", "I'm not pregnant after all."):
        assert refined(message, [pregnancy]) == [("delete", "fact", "health-pregnancy")], message
        assert refined(message, []) == [], message
    pills = ExistingMemory(2, "medication-antidepressants", "fact", "在吃抗抑郁药")
    insulin = ExistingMemory(3, "medication-insulin", "fact", "Takes insulin")
    for message in ("我已经停药了", "I stopped my medication."):
        assert refined(message, [pills]) == [("delete", "fact", "medication-antidepressants")], message
        assert refined(message, [pills, insulin]) == [], message


def test_a_car_changed_a_taste_worn_out_a_goal_dropped_and_an_opposite_habit_end_the_old_memory() -> None:
    """R-WRITE-2 (session 22 scenarios): each kept the old memory: 「把特斯拉卖了，换了辆比亚迪」 (the car), 「奶茶喝腻了」
    (the liking), 「钢琴学了半年放弃了」 (the goal), 「最近开始早睡早起了」 (「是夜猫子」, kept beside early rising)."""
    assert (only("把特斯拉卖了，换了辆比亚迪").key, only("把特斯拉卖了，换了辆比亚迪").content) == (
        "vehicle",
        "换了辆比亚迪",
    )
    tesla = ExistingMemory(1, "vehicle", "fact", "开的是特斯拉")
    assert refined("我把特斯拉卖了", [tesla]) == [("delete", "fact", "vehicle")]
    assert refined("我把房子卖了", [tesla]) == []
    assert extract("我换了辆新车") == []
    milk_tea = ExistingMemory(2, "drink-milk-tea", "preference", "喜欢喝奶茶")
    assert ("delete", "preference", "drink-milk-tea") in refined("奶茶喝腻了，现在喜欢喝柠檬茶", [milk_tea])
    piano = ExistingMemory(3, "goal-piano", "goal", "在学钢琴")
    assert refined("钢琴学了半年放弃了", [piano]) == [("delete", "goal", "goal-piano")]
    night_owl = ExistingMemory(4, "habit-staying-up-late", "preference", "是夜猫子")
    assert refined("最近开始早睡早起了", [night_owl]) == [
        ("upsert", "preference", "habit-early-rising"),
        ("delete", "preference", "habit-staying-up-late"),
    ]
    assert refined("最近开始早睡早起了", []) == [("upsert", "preference", "habit-early-rising")]


def test_a_weight_lost_reaches_the_goal_naming_it_and_a_time_word_is_no_item() -> None:
    """R-WRITE-2 (session 22 scenarios): "I want to lose 10 kg this year" then "I've lost 10 kg, goal achieved!"
    kept the goal; "I sold my guitar, I don't play anymore" stored `preference-anymore` "Doesn't play anymore"."""
    goal = ExistingMemory(1, "goal-lose-10-kg", "goal", "Wants to lose 10 kg this year")
    other = ExistingMemory(2, "goal-marathon", "goal", "Wants to run 10 km under an hour")
    assert refined("I've lost 10 kg, goal achieved!", [goal, other]) == [("delete", "goal", "goal-lose-10-kg")]
    assert refined("I've lost 3 kg.", [goal]) == []
    zh_goal = ExistingMemory(3, "goal-weight-loss", "goal", "想今年减重5公斤")
    assert refined("我已经瘦了5公斤", [zh_goal]) == [("delete", "goal", "goal-weight-loss")]
    assert refined("I sold my guitar, I don't play anymore.", []) == []


def test_a_graduation_a_new_business_a_job_left_and_a_pet_rehomed_end_what_they_end() -> None:
    """R-WRITE-2 (session 22 probe): each stored nothing, so the old memory stayed: "I graduated last month" /
    「我研究生毕业了」 (the school, a student's occupation), "I started my own company" / 「我辞职创业了」 (the
    employer), "I don't work there anymore", "We had to rehome our cat"."""
    school = ExistingMemory(1, "school", "fact", "Studies at MIT")
    student = ExistingMemory(2, "occupation", "fact", "Is a student")
    nurse = ExistingMemory(3, "occupation", "fact", "Occupation: nurse")
    assert refined("I graduated last month.", [school, student]) == [
        ("delete", "fact", "school"),
        ("delete", "fact", "occupation"),
    ]
    assert refined("I graduated last month.", [nurse]) == []
    assert refined("我研究生毕业了", [ExistingMemory(4, "occupation", "fact", "是研究生，学生")]) == [
        ("delete", "fact", "occupation")
    ]
    employer = ExistingMemory(5, "employer", "fact", "Works at Stripe")
    for message in ("I started my own company.", "我辞职创业了"):
        assert refined(message, [employer]) == [("upsert", "fact", "occupation"), ("delete", "fact", "employer")]
    assert refined("I don't work there anymore.", [employer]) == [("delete", "fact", "employer")]
    assert extract("I started my own blog.") == []
    cat = ExistingMemory(6, "pet-cat", "fact", "Has a cat named Luna")
    for message in ("We had to rehome our cat.", "I gave my cat to my sister."):
        assert refined(message, [cat]) == [("delete", "fact", "pet-cat")], message


def test_chinese_life_changes_end_or_replace_the_old_memory() -> None:
    """R-WRITE-2 (session 22 probe): 「我把猫送人了」, 「我们家狗狗走丢了」 kept the pet; 「我被提拔为经理了」 kept the
    old title; 「我考上研究生了」 retired a hashed goal, not 「我在准备考研」's `goal-grad-school-exam`."""
    assert refined("我把猫送人了", [ExistingMemory(1, "pet-cat", "fact", "养了一只猫")]) == [
        ("delete", "fact", "pet-cat")
    ]
    assert refined("我们家狗狗走丢了", [ExistingMemory(2, "pet-dog", "fact", "养了一只狗")]) == [
        ("delete", "fact", "pet-dog")
    ]
    assert (only("我被提拔为经理了").key, only("我被提拔为经理了").content) == ("occupation", "职业：经理")
    exam = ExistingMemory(3, "goal-grad-school-exam", "goal", "在准备考研")
    assert refined("我考上研究生了", [exam]) == [("delete", "goal", "goal-grad-school-exam")]


def test_a_standing_rule_lifted_ends_the_one_rule_naming_what_is_allowed_again() -> None:
    """R-READ-6 (session 22 probe): "You can mention my ex again, I'm over it", "You can suggest alcohol again",
    "Spoilers are fine now", 「可以剧透了」 stored nothing, so the rule stayed in every reply. A rule lifted ends the
    one `rule-…` / `reply-…` memory that names what is allowed again; nothing when none does."""
    ex = ExistingMemory(1, "rule-ex", "constraint", "Please don't mention my ex")
    alcohol = ExistingMemory(2, "rule-alcohol", "constraint", "Please don't ever recommend alcohol to me")
    spoilers = ExistingMemory(3, "reply-spoilers", "constraint", "No spoilers please")
    zh_spoilers = ExistingMemory(4, "reply-spoilers", "constraint", "别给我剧透")
    rules = [ex, alcohol, spoilers]
    assert refined("You can mention my ex again, I'm over it.", rules) == [("delete", "constraint", "rule-ex")]
    assert refined("You can suggest alcohol again.", rules) == [("delete", "constraint", "rule-alcohol")]
    assert refined("Spoilers are fine now.", rules) == [("delete", "constraint", "reply-spoilers")]
    assert refined("可以剧透了", [zh_spoilers]) == [("delete", "constraint", "reply-spoilers")]
    assert refined("Everything is fine now.", rules) == []
    assert refined("You can suggest a restaurant again.", rules) == []


def test_a_drivers_license_reaches_learning_to_drive_and_a_new_shift_replaces_the_old() -> None:
    """R-WRITE-2 (session 22 scenarios): "I'm learning to drive" (goal-drive) was never reached by "I got my
    driver's license!" (no adverb: nothing; with one: goal-drivers-license); "I switched to day shifts" kept
    "Works night shifts" and added a `preference-day-shifts`."""
    for learning in ("I'm learning to drive.", "我在学车"):
        assert only(learning).key == "goal-drivers-license", learning
    goal = ExistingMemory(1, "goal-drivers-license", "goal", "Is learning to drive")
    for reached in ("I got my driver's license!", "我拿到驾照了"):
        assert refined(reached, [goal]) == [("delete", "goal", "goal-drivers-license")], reached
    assert (only("I switched to day shifts.").key, only("I switched to day shifts.").content) == (
        "work-schedule",
        "Switched to day shifts",
    )
    assert only("I'm on nights now.").key == "work-schedule"


def test_a_goal_reached_retires_the_goal_only_when_held() -> None:
    """R-WRITE-2 (fourteenth probe): "I finished my marathon last week!" left the marathon goal live for
    good. A goal reached retires it; something finished that is no goal held retires nothing, and
    "I've got a peanut allergy" or a new job is no goal reached."""
    marathon = ExistingMemory(1, "goal-marathon", "goal", "Is training for a marathon")
    n1 = ExistingMemory(2, "goal-jlpt-n1", "goal", "打算考N1")
    for message, goal in (
        ("I finished my marathon last week!", marathon),
        ("我跑完了马拉松", marathon),
        ("I passed the N1.", n1),
        ("我考过N1了", n1),
    ):
        assert refined(message, [goal]) == [("delete", "goal", goal.key)], message
        assert refined(message, []) == [], message
    assert refined("I finished my homework.", [marathon]) == []
    assert refined("I finished the marathon series on Netflix.", [marathon]) == []
    assert refined("I've got a peanut allergy.", []) == [("upsert", "fact", "allergy-peanut")]
    assert refined("I got a new job at Google.", []) == [("upsert", "fact", "employer")]
    assert only("I finally got my driver's license.").content == "Finally got their driver's license"


def test_a_request_about_food_is_no_diet_of_the_users() -> None:
    """R-READ-6 (fourteenth probe): 「以后推荐餐厅的时候优先考虑素食」 stored the core fact `diet` (the user
    never said they were vegetarian) beside the standing rule."""
    assert [(c.memory_type, c.key) for c in extract("以后推荐餐厅的时候优先考虑素食")] == [
        ("constraint", "rule-restaurants")
    ]
    assert extract("帮我找一家素食餐厅") == []
    assert only("我吃素").key == only("我是素食者").key == "diet"


def test_a_favourite_said_in_the_plural_keeps_its_verb() -> None:
    """R-WRITE-2 (fourteenth probe): "Italian dishes are my favorite" was stored as "Italian dishes is a favorite"."""
    assert only("Italian dishes are my favorite.").content == "Italian dishes are a favorite"
    assert only("Dogs are my favorite animals.").content == "Favorite animals are dogs"
    assert only("Sushi is my favorite.").content == "Sushi is a favorite"


def test_an_adopted_pet_and_a_status_said_with_now_are_read() -> None:
    """R-WRITE-2 (fourteenth probe): "We adopted a cat named Luna" and "I'm divorced now" stored nothing."""
    assert only("We adopted a cat named Luna.").key == "pet-cat"
    assert refined("I just got a puppy.", []) == [("upsert", "fact", "pet-dog")]
    wish = ExistingMemory(1, "goal-dog", "goal", "Wants to get a dog")
    assert refined("I just got a puppy.", [wish]) == [("delete", "goal", "goal-dog"), ("upsert", "fact", "pet-dog")]
    assert [c.key for c in extract("I'm divorced now.")] == ["relationship-status", "family-partner"]


def test_a_project_given_up_is_retired_under_the_key_it_was_stored_with() -> None:
    """R-WRITE-2 (fourteenth probe, scenarios): "I'm building a budgeting app in Flutter" was keyed
    `project-budgeting-app-flutter` and "I stopped working on the budgeting app" stored nothing, so the
    project stayed live for good; "I gave up on the budgeting app" retired a goal of that name instead."""
    assert only("I'm building a budgeting app in Flutter.").key == "project-budgeting-app"
    for message in ("I stopped working on the budgeting app.", "I gave up on the budgeting app."):
        assert only(message).op == "delete" and only(message).key == "project-budgeting-app", message
    assert (only("我放弃了PAI项目").op, only("我放弃了PAI项目").key) == ("delete", "project-pai")
    assert [c.key for c in extract("I quit my job.")] == ["employer"]
    assert only("I've given up on my dream of becoming a pilot.").memory_type == "goal"
    assert extract("I stopped working on weekends.") == []


def test_a_drug_the_doctor_switched_the_user_to_is_a_core_medication() -> None:
    """R-READ-6 (fourteenth probe, scenarios): "My doctor switched me to insulin" stored nothing, and
    "I switched to insulin" was a taste (`preference-insulin`)."""
    for message in ("My doctor switched me from metformin to insulin.", "医生让我改打胰岛素", "I switched to insulin."):
        # The drug switched from ends (test_a_drug_taken_off_or_switched_from_ends_its_medication).
        [candidate] = [c for c in extract(message) if c.op == "upsert"]
        assert (candidate.memory_type, candidate.key) == ("fact", "medication-insulin"), message
        assert is_core_memory(candidate.memory_type, candidate.key, candidate.content)
    assert only("I switched to oat milk.").memory_type == "preference"


def test_two_facts_of_one_family_member_join_in_the_sentences_language() -> None:
    """R-WRITE-2 (fourteenth probe, scenarios): "My son is 5 and my daughter is 3" was joined with a
    Chinese semicolon, and appended to the children's fact it read "Son is 5；; Daughter is 3"."""
    assert only("My son is 5 and my daughter is 3.").content == "Son is 5; Daughter is 3"
    assert only("我儿子5岁，女儿3岁").content == "儿子5岁；女儿3岁"


def test_allergens_said_with_dou_are_each_an_allergy_on_a_readable_key() -> None:
    """R-READ-6 (fourteenth probe, Chinese scenarios): 「我对芒果和菠萝都过敏」 stored the hash key
    `allergy-ha3fcdc6` "对菠萝都过敏" (都 read as part of the item) and no mango; common allergens
    are one key in both languages."""
    assert [c.key for c in extract("我对芒果和菠萝都过敏")] == ["allergy-mango", "allergy-pineapple"]
    assert only("I'm allergic to mango.").key == only("我对芒果过敏").key == "allergy-mango"
    assert only("我对花生也过敏").key == "allergy-peanut"
    assert only("我对尘螨过敏").key == "allergy-dust-mites"
    assert refined("我对芒果都不过敏", []) == []


def test_years_lived_in_a_city_make_it_the_residence() -> None:
    """R-TYPE-2 (fourteenth probe, Chinese scenarios): 「我在上海住了五年」 stored nothing."""
    assert (only("我在上海住了五年").key, only("我在上海住了五年").content) == ("residence-city", "住在上海")
    assert extract("我在这里住了很久") == []


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("I carry an EpiPen.", "medication-epipen"),
        ("我随身带着肾上腺素笔", "medication-epipen"),
        ("I carry an inhaler.", "medication-inhaler"),
        ("I'm color blind.", "health-colorblind"),
        ("I'm a recovering alcoholic, so please never suggest drinks.", "health-sobriety"),
        ("I've been sober for 3 years.", "health-sobriety"),
    ],
)
def test_an_epipen_an_inhaler_and_sobriety_are_core_facts(message: str, key: str) -> None:
    """R-READ-6 (fourteenth probe, English everyday): each stored nothing (an EpiPen says a severe
    allergy; sobriety rules out every drink suggested). "I'm sober tonight" is none."""
    facts = [c for c in extract(message) if c.memory_type == "fact"]
    assert [c.key for c in facts] == [key]
    assert is_core_memory(facts[0].memory_type, facts[0].key, facts[0].content)
    assert extract("I'm sober tonight.") == []


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("I usually work from 9 to 6.", "work-schedule", "Usually works from 9 to 6"),
        ("我每天朝九晚五", "work-schedule", "每天朝九晚五"),
        ("I practice yoga twice a week.", "sport-yoga", "Practices yoga twice a week"),
        ("I wake up at 5am every day.", "preference-wake-up", "Wakes up at 5am every day"),
        (
            "I volunteer at an animal shelter on weekends.",
            "preference-animal-shelter",
            "Volunteers at an animal shelter on weekends",
        ),
        ("I have two teenagers.", "family-children", "Has two teenagers"),
        ("We're expecting our second child in March.", "family-children", "We're expecting our second child in March"),
        (
            "Please always use TypeScript for code examples.",
            "code-language",
            "Please always use TypeScript for code examples",
        ),
    ],
)
def test_english_everyday_routines_family_and_code_rules_land_on_their_keys(
    message: str, key: str, content: str
) -> None:
    """R-TYPE-2 (fourteenth probe, English everyday): each stored nothing, or (TypeScript) a hashed rule
    beside the code-language slot. "I woke up at 5 today" is no routine."""
    candidate = only(message)
    assert (candidate.key, candidate.content) == (key, content)
    assert extract("I woke up at 5 today.") == []


def test_a_home_bought_is_stored_and_ends_the_house_goal() -> None:
    """R-WRITE-2 (fourteenth probe, English everyday): "We just bought a house in the suburbs" stored
    nothing, and 「我今年想买房」 stayed a live goal after 「我们买房了」."""
    goal = ExistingMemory(1, "goal-house", "goal", "今年想买房")
    for message in ("We just bought a house in the suburbs.", "我们买房了", "我买了房子"):
        assert refined(message, [goal]) == [("upsert", "fact", "home"), ("delete", "goal", "goal-house")], message
        assert refined(message, []) == [("upsert", "fact", "home")], message


@pytest.mark.parametrize(
    ("message", "keys"),
    [
        ("我酒精过敏", ["allergy-alcohol"]),
        ("我花生过敏", ["allergy-peanut"]),
        ("我痛风，不能吃海鲜", ["health-gout", "food-seafood"]),
        ("我肠胃不好，不能吃凉的", ["health-stomach-problems", "food-cold-food"]),
        ("我腰椎间盘突出，不能久坐", ["health-herniated-disc", "preference-h746954a"]),
        ("我是乙肝携带者", ["health-hepatitis-b"]),
        ("我怀二胎了", ["health-pregnancy"]),
    ],
)
def test_chinese_allergies_and_conditions_said_without_a_lead_word_are_core(message: str, keys: list[str]) -> None:
    """R-READ-6 (fourteenth probe, Chinese everyday): 「我酒精过敏」 (no 对), 「我痛风」 (no 有), 肠胃,
    a herniated disc, a hepatitis B carrier and 「怀二胎」 stored no safety fact."""
    candidates = extract(message)
    assert [c.key for c in candidates] == keys
    assert is_core_memory(candidates[0].memory_type, candidates[0].key, candidates[0].content)


def test_a_pets_allergy_and_a_vague_one_are_no_allergy_of_the_users() -> None:
    """R-READ-6 (fourteenth probe, Chinese everyday): 「我的猫对猫粮过敏」 stored the user's core allergy
    `allergy-h7ba9926`; 「我有点过敏」 stored `allergy-h34f201b` "有点过敏". The pet's is the pet's fact."""
    assert [(c.key, c.content) for c in extract("我的猫对猫粮过敏")] == [("pet-cat", "猫对猫粮过敏")]
    for passing in ("我有点过敏", "我有些过敏", "我不过敏"):
        assert extract(passing) == [], passing
    # Prone to allergies is a condition of its own (twenty-second probe), never an allergy of no allergen.
    assert [c.key for c in extract("我是过敏体质")] == ["health-allergy-prone"]
    assert only("我从小就对花生过敏").key == "allergy-peanut"


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("我是上班族，每天地铁通勤", "commute", "每天地铁通勤"),
        ("我是独生子", "family-siblings", "是独生子"),
        ("我是单亲妈妈", "family-children", "是单亲妈妈"),
        ("我比较喜欢看纪录片", "movie-documentaries", "比较喜欢看纪录片"),
        ("我在准备考公", "goal-civil-service-exam", "在准备考公"),
        ("我想存钱买车", "goal-car", "想存钱买车"),
        ("我吃不了辣", "food-spicy-food", "吃不了辣"),
    ],
)
def test_chinese_everyday_statements_land_on_readable_keys(message: str, key: str, content: str) -> None:
    """R-TYPE-2 (fourteenth probe, Chinese everyday): each stored nothing or a hash key."""
    candidate = only(message)
    assert (candidate.key, candidate.content) == (key, content)


def test_the_second_clause_of_a_chinese_sentence_keeps_its_fact() -> None:
    """R-TYPE-2 (fourteenth probe, Chinese everyday): 「公司在上海」 after 「我家在杭州」 and 「主要写Go」 after
    「我是程序员」 were lost."""
    assert [c.key for c in extract("我家在杭州，公司在上海")] == ["residence-city", "work-city"]
    assert [c.key for c in extract("我是程序员，主要写Go")] == ["occupation", "preference-go"]


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("I live in 北京.", "residence-city", "Lives in 北京"),
        ("I'm from 成都.", "hometown", "Is from 成都"),
        ("My wife 小美 is a teacher.", "family-partner", "Wife 小美 is a teacher"),
        ("I like 火锅 a lot.", "food-hotpot", "Likes 火锅 a lot"),
        ("reply me in English please", "reply-language", "Reply me in English please"),
        ("以后回复用English", "reply-language", "以后回复用English"),
        ("我对peanut过敏", "allergy-peanut", "对peanut过敏"),
    ],
)
def test_a_sentence_mixing_languages_is_read_in_the_language_it_is_written_in(
    message: str, key: str, content: str
) -> None:
    """R-LLM-2 (fourteenth probe, mixed languages): a clause with any Chinese character was read by the
    Chinese rules, so an English sentence naming a Chinese city, person or dish stored nothing; a language
    named in English inside a Chinese reply rule stored nothing either."""
    candidate = only(message)
    assert (candidate.key, candidate.content) == (key, content)


def test_a_chinese_list_joined_by_huozhe_is_split_and_each_activity_keeps_its_verb() -> None:
    """R-TYPE-2 (fourteenth probe, mixed languages): 「我喜欢喝茶或者咖啡」 was one liking keyed by coffee, and
    「我周末喜欢看书和爬山」 stored 「周末喜欢看爬山」 (the head's 看 put before 爬山)."""
    assert [(c.key, c.content) for c in extract("我喜欢喝茶或者咖啡")] == [
        ("drink-tea", "喜欢喝茶"),
        ("drink-coffee", "喜欢喝咖啡"),
    ]
    assert [c.content for c in extract("我周末喜欢看书或者爬山")] == ["周末喜欢看书", "周末喜欢爬山"]
    assert [c.content for c in extract("我平时喜欢听音乐和跑步")] == ["平时喜欢听音乐", "平时喜欢跑步"]


def test_a_correction_stores_the_right_value_and_not_the_wrong_one() -> None:
    """R-WRITE-2 (fourteenth probe, corrections): "Sorry, I meant I work at Amazon, not Google" stored
    nothing, and "Correction: my daughter is 7, not 6" appended "Not 6" to the daughter's facts."""
    assert [(c.key, c.content) for c in extract("Sorry, I meant I work at Amazon, not Google.")] == [
        ("employer", "Works at Amazon")
    ]
    assert [c.content for c in extract("Correction: my daughter is 7, not 6.")] == ["Daughter is 7"]
    assert [c.content for c in extract("我女儿7岁，不是6岁")] == ["女儿7岁"]
    assert [c.content for c in extract("I have a son, not a daughter.")] == ["Has a son"]


def test_a_pet_the_user_does_not_have_is_no_pet() -> None:
    """R-WRITE-2 (fourteenth probe, corrections): 「我没有养猫」 stored the pet fact `pet-cat` "没有养猫"."""
    assert extract("我没有养猫") == []
    assert [(c.op, c.memory_type, c.key) for c in extract("我不再养狗")] == [("delete", "fact", "pet-dog")]
    assert only("我养了一只猫").key == "pet-cat"


def test_a_forget_request_records_the_request_not_the_statement_it_was_read_as() -> None:
    """R-OPS-4 (fourteenth probe): 「请忘掉我住在哪」 was recorded as the retraction "住在在哪"."""
    [forget] = extract("请忘掉我住在哪")
    assert (forget.op, forget.key) == ("delete", "residence-city")
    assert "在在" not in forget.content


@pytest.mark.parametrize(
    ("message", "content"),
    [
        ('Never use the word "delve".', 'Never use the word "delve"'),
        ('回答不要用"您"', '回答不要用"您"'),
        ("Please don't give me medical advice.", "Please don't give me medical advice"),
        ("When I ask for code, give me the full file.", "When I ask for code, give me the full file"),
        ("If I ask about restaurants, remember I'm vegetarian.", "If I ask about restaurants, remember I'm vegetarian"),
        ("Don't sugarcoat things.", "Don't sugarcoat things"),
        ("Stop apologizing so much.", "Stop apologizing so much"),
        ("以后推荐书的时候只推荐中文书", "以后推荐书的时候只推荐中文书"),
        ("不要给我推荐任何需要付费的东西", "不要给我推荐任何需要付费的东西"),
        ("每次回答最后总结一下要点", "每次回答最后总结一下要点"),
    ],
)
def test_how_the_assistant_should_answer_is_a_core_standing_rule(message: str, content: str) -> None:
    """R-TYPE-2, R-READ-6 (fourteenth probe, standing rules): each stored nothing, or ('Never use the word
    "delve"') a rule without its word (quoted text was removed as a sentence to translate)."""
    candidate = only(message)
    assert (candidate.memory_type, candidate.content) == ("constraint", content)
    assert is_core_memory(candidate.memory_type, candidate.key, candidate.content)


def test_a_quoted_sentence_is_still_no_statement_of_the_users() -> None:
    """R-TYPE-3 (fourteenth probe): a quoted word is kept for the rule it belongs to; a quoted sentence
    (a text to translate) is still removed, and a one-off request or the user's own plan is no rule."""
    for passing in (
        "帮我翻译“我是素食者”",
        'Please translate "I am vegetarian" into French.',
        "Don't give me the answer yet.",
        "我以后只喝美式",
    ):
        assert all(c.memory_type != "constraint" and c.key != "diet" for c in extract(passing)), passing
    assert only("Answer in one sentence.").key == "reply-length"
    assert only("跟我说话随意一点").key == "reply-style"


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("I binge-watch anime on weekends.", "tv-anime", "Binge-watches anime on weekends"),
        ("I collect vinyl records.", "preference-vinyl-records", "Collects vinyl records"),
        ("I've been doing CrossFit for two years.", "preference-crossfit", "Has been doing CrossFit for two years"),
        ("I can't live without coffee.", "drink-coffee", "Can't live without coffee"),
        ("I'm a Manchester United fan.", "preference-manchester-united", "Is a Manchester United fan"),
        ("I play Genshin Impact every night.", "preference-genshin-impact", "Plays Genshin Impact every night"),
        ("我很喜欢追剧", "tv-dramas", "很喜欢追剧"),
    ],
)
def test_hobbies_and_fandoms_land_on_the_item_without_how_often(message: str, key: str, content: str) -> None:
    """R-TYPE-2 (fourteenth probe, hobbies): each stored nothing, or keyed the frequency into the item
    (`preference-genshin-impact-every-night`), or a hash (追剧)."""
    candidate = only(message)
    assert (candidate.key, candidate.content) == (key, content)


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("I work in marketing.", "work-field", "Works in marketing"),
        ("I'm a nurse practitioner.", "occupation", "Occupation: nurse practitioner"),
        ("I've been a teacher for 20 years.", "occupation", "Occupation: teacher"),
        ("I just got promoted to senior engineer.", "occupation", "Occupation: senior engineer"),
        ("我刚升职了，现在是技术总监", "occupation", "职业：技术总监"),
        ("我自己开了个工作室", "business-he818df1", "自己开了个工作室"),
    ],
)
def test_work_said_as_a_field_a_title_held_for_years_or_a_promotion_is_read(
    message: str, key: str, content: str
) -> None:
    """R-TYPE-2 (fourteenth probe, work): each stored nothing, or cut "nurse practitioner" to "nurse"."""
    candidate = only(message)
    assert (candidate.key, candidate.content) == (key, content)


def test_a_layoff_retires_the_employer() -> None:
    """R-WRITE-2 (fourteenth probe, work): "I got laid off last month" and 「我被裁员了」 left the employer live."""
    for message in ("I got laid off last month.", "我被裁员了", "I was fired."):
        assert [(c.op, c.key) for c in extract(message)] == [("delete", "employer")], message
    assert [(c.key, c.content) for c in extract("我在读研，方向是机器学习")] == [
        ("occupation", "在读研"),
        ("education-major", "方向是机器学习"),
    ]


def test_two_rules_that_open_alike_are_two_keys_and_one_rule_said_twice_is_one() -> None:
    """R-WRITE-2 (fourteenth probe, rule keys): a rule was keyed by its first five words, so "Please don't
    give me legal advice" overwrote "Please don't give me medical advice" (both `rule-please-don-t-give-me`),
    while "Stop apologizing so much" and "… all the time" were two rules. A rule is keyed by its topic
    words (politeness, polarity and frame left out) and a hash of them when there are more than five."""
    assert only("Please don't give me medical advice.").key == "rule-medical-advice"
    assert only("Please don't give me legal advice.").key == "rule-legal-advice"
    assert only("Stop apologizing so much.").key == only("Stop apologizing all the time.").key == "rule-apologies"
    long_a = only("From now on, always include a TL;DR at the top and a summary of the key risks at the bottom.")
    long_b = only("From now on, always include a TL;DR at the top and a summary of the key costs at the bottom.")
    assert long_a.key != long_b.key
    assert "TL;DR" in long_a.content  # a semicolon between letters ends no sentence


def test_a_negated_status_ends_the_status_and_keeps_the_partner() -> None:
    """R-WRITE-2 (fourteenth probe, negations): "I'm not single anymore" was read as the retraction of
    "I'm single" and of everything it retires, so it retired the partner too."""
    partner = ExistingMemory(1, "family-partner", "fact", "Has a girlfriend")
    status = ExistingMemory(2, "relationship-status", "fact", "Is single")
    for message in ("I'm not single anymore.", "我不单身了"):
        assert refined(message, [partner, status]) == [("delete", "fact", "relationship-status")], message


def test_learning_to_swim_or_drive_ends_what_the_user_could_not_do() -> None:
    """R-WRITE-2 (fourteenth probe, negations): "I can swim now" and 「我学会游泳了」 left "Can't swim" live."""
    cannot = ExistingMemory(1, "trait-cannot-swim", "fact", "Can't swim")
    for message in ("I can swim now.", "我学会游泳了"):
        assert refined(message, [cannot]) == [("delete", "fact", "trait-cannot-swim")], message
        assert refined(message, []) == [], message
    assert [c.key for c in extract("我会开车了")] == ["trait-does-not-drive", "goal-drivers-license"]  # both IF_HELD


def test_an_allergy_said_after_and_is_a_fact_of_its_own() -> None:
    """R-READ-6 (fourteenth probe, long turns): "I'm vegetarian and allergic to nuts" stored "Is vegetarian
    and allergic to nuts" under both `diet` and `allergy-tree-nut`; "I'm vegan and lactose intolerant"
    lost the intolerance."""
    assert [(c.key, c.content) for c in extract("I'm vegetarian and allergic to nuts.")] == [
        ("diet", "Is vegetarian"),
        ("allergy-tree-nut", "Is allergic to nuts"),
    ]
    assert [c.key for c in extract("I'm vegan and lactose intolerant.")] == ["diet", "health-lactose-intolerance"]


@pytest.mark.parametrize(
    "message",
    [
        "I love the energy, diversity, and awesome food of this city.",
        "I love escaping to that world.",
        "I love how you use it to tell your stories and teach people about trans folks.",
        "Thanks Sam! Absolutely. Talking of memories, I want to show you this.",
        "Wow, it was so special. Here I am and my mom.",
    ],
)
def test_chit_chat_about_the_conversation_is_no_memory(message: str) -> None:
    """R-TYPE-3 (fourteenth probe, LoCoMo chit-chat): 400 turns of LoCoMo read by the rules gave
    `preference-energy`, `preference-diversity`, "Loves escaping to that world", "Loves teach people
    about trans folks" (the list after a "how you…"), the goal "Wants to show you this" and the parent
    fact "Mom" (a photo's caption)."""
    assert extract(message) == []


def test_a_project_item_stops_at_a_dash() -> None:
    """R-WRITE-2 (fourteenth probe, LoCoMo chit-chat): "a big project lately - it's been tough…" was keyed
    `project-big-project-lately-s-been`."""
    assert only("I've been working on a big project lately - it's been tough but also really cool.").key == (
        "project-big-project"
    )
    assert only("I'm building a budgeting app - it's in Flutter.").key == "project-budgeting-app"


@pytest.mark.parametrize(
    "message",
    [
        "I love the effects are so cool.",
        "I love making it a better place.",
        "I love having such a great time.",
        "I love seeing them eat fruit.",
        "I'm trying to stay upbeat and learn as much as I can.",
        "I'm trying to channel my grief by spending more time with family.",
        "I want to help make their lives better.",
        "I studied hard and it showed me how resilient I can be.",
        "I want to brag a little.",
        "I'm also a big fan of scents like this.",
    ],
)
def test_chit_chat_likings_and_moods_are_no_memory(message: str) -> None:
    """R-TYPE-3 (fourteenth probe, 1,500 LoCoMo turns): each was stored ("Loves effects are so cool",
    `food-fruit` "Loves seeing them eat fruit", the goal "Is trying to stay upbeat…", `education-major`
    "Studied hard…"); a liking that is a clause or about the conversation's people, a mood and a study
    habit are none."""
    assert extract(message) == []


def test_a_liking_with_an_intensifier_or_a_comment_after_it_is_kept() -> None:
    """R-TYPE-2 (fourteenth probe): the chit-chat filter reads the liked item, not the sentence."""
    assert only("I love Italian food so much.").key == "preference-italian-food"
    assert only("I really like jazz, it's so relaxing.").key == "music-jazz"
    assert only("I'm trying to stay fit.").memory_type == "goal"
    assert only("I found out recently I'm allergic to cockroaches.").content.startswith("Found out")


@pytest.mark.parametrize(
    "message",
    [
        "我爱死这首歌了",
        "我很喜欢这种天气",
        "我喜欢那种感觉",
        "我爱喝这种茶",
        "我妈刚给我打电话了",
        "我们公司楼下新开了一家咖啡店",
        "我老公出差了",
        "I'm single this weekend, my wife is traveling.",
    ],
)
def test_chinese_chit_chat_about_here_and_now_is_no_memory(message: str) -> None:
    """R-TYPE-3 (fourteenth probe, Chinese chit-chat): each was stored (a hash-keyed liking of 这首歌 or
    这种天气, `drink-tea` for 「这种茶」, the parents' fact 「妈刚给我打电话了」, `business-coffee` for a café that
    opened downstairs)."""
    assert extract(message) == []


def test_a_kind_described_a_habit_of_a_parent_and_the_users_own_business_are_kept() -> None:
    """R-TYPE-2 (fourteenth probe): the here-and-now filters leave these."""
    assert only("我喜欢那种安静的咖啡馆").key == "place-cafes"
    assert only("我妈每周都给我打电话").key == "family-parents"
    assert only("我老公经常出差").key == only("My husband travels a lot for work.").key == "family-partner"
    assert only("我和朋友开了一家咖啡店").key == "business-coffee"


@pytest.mark.parametrize(
    "message",
    ["I'm gluten intolerant.", "I have a gluten intolerance.", "我麸质不耐受", "I'm vegan and gluten intolerant."],
)
def test_a_gluten_intolerance_is_a_core_health_fact(message: str) -> None:
    """R-READ-6 (fourteenth probe): "I'm gluten intolerant" and "I have a gluten intolerance" stored nothing."""
    [intolerance] = [c for c in extract(message) if c.key.startswith("health-")]
    assert intolerance.key == "health-gluten-intolerance"
    assert is_core_memory(intolerance.memory_type, intolerance.key, intolerance.content)


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("I can't take aspirin.", "sensitivity-aspirin"),
        ("我不能吃阿司匹林", "sensitivity-aspirin"),
        ("我对青霉素过敏，不能用头孢", "sensitivity-cephalosporins"),
        ("我对布洛芬过敏", "allergy-ibuprofen"),
    ],
)
def test_a_drug_the_user_must_not_take_is_a_core_fact(message: str, key: str) -> None:
    """R-READ-6 (fourteenth probe): "I can't take aspirin" stored nothing, 「不能用头孢」 was a taste
    (`preference-<hash>`, not core) and 「布洛芬」 a hash key."""
    [drug] = [c for c in extract(message) if c.key == key]
    assert drug.memory_type == "fact"
    assert is_core_memory(drug.memory_type, drug.key, drug.content)
    assert all(c.memory_type != "preference" for c in extract(message))
    assert extract("I can't take the day off.") == []


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("我忌口牛肉", "diet-beef"),
        ("我忌辛辣", "diet-spicy-food"),
        ("我血糖高", "health-high-blood-sugar"),
        ("我有点低血糖", "health-hypoglycemia"),
        ("我胆固醇高", "health-high-cholesterol"),
    ],
)
def test_a_food_kept_from_and_a_blood_reading_are_core_facts(message: str, key: str) -> None:
    """R-READ-6 (fourteenth probe): 「我忌口牛肉」, 「我血糖高」, 「我胆固醇高」 stored nothing; 「低血糖」 was a hash key."""
    candidate = only(message)
    assert candidate.key == key
    assert is_core_memory(candidate.memory_type, candidate.key, candidate.content)
    for passing in ("我最近忌口", "我很忌讳这个"):
        assert extract(passing) == [], passing


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("Please remember that I'm allergic to eggs.", "allergy-egg", "Is allergic to eggs"),
        ("Don't forget I'm vegan.", "diet", "Is vegan"),
        ("别忘了我是素食者", "diet", "是素食者"),
        ("提醒一下，我怀孕了", "health-pregnancy", "怀孕了"),
    ],
)
def test_a_fact_said_as_a_reminder_to_the_assistant_is_stored_without_the_reminder(
    message: str, key: str, content: str
) -> None:
    """R-READ-6 (fourteenth probe): "Don't forget I'm vegan" stored nothing; "Please remember that I'm
    allergic to eggs" and 「别忘了我是素食者」 kept the lead in the memory's text."""
    candidate = only(message)
    assert (candidate.key, candidate.content) == (key, content)


def test_what_every_suggestion_must_leave_out_after_a_condition_is_a_standing_rule() -> None:
    """R-READ-6 (fourteenth probe): "FYI I'm pregnant, so no alcohol or raw fish suggestions please" kept the
    pregnancy and dropped the rule."""
    pregnancy, rule = extract("FYI I'm pregnant, so no alcohol or raw fish suggestions please.")
    assert pregnancy.key == "health-pregnancy"
    assert (rule.memory_type, rule.content) == ("constraint", "No alcohol or raw fish suggestions please")


def test_an_allergy_in_a_clause_about_someone_else_is_theirs() -> None:
    """R-READ-6 (fourteenth probe): "I have a toddler who's allergic to milk" stored the user's core
    `allergy-milk`; it is the child's, a family fact (core by its words, so it still reaches every reply)."""
    [child] = extract("I have a toddler who's allergic to milk.")
    assert (child.key, child.content) == ("family-children", "Has a toddler who's allergic to milk")
    assert is_core_memory(child.memory_type, child.key, child.content)
    assert extract("My friend who is allergic to nuts is coming.") == []
    assert [c.key for c in extract("I'm allergic to cats and dogs.")] == ["allergy-cat", "allergy-dog"]


def test_a_company_or_city_left_ends_the_one_memory_that_names_it() -> None:
    """R-WRITE-2 (sixteenth probe): "I left Boston" and 「我从字节离职了」 kept the city and the employer. Leaving a
    named place ends the employer, home city or work city that names it, and nothing that does not."""
    boston = ExistingMemory(1, "residence-city", "fact", "Lives in Boston")
    google = ExistingMemory(2, "employer", "fact", "Works at Google")
    bytedance = ExistingMemory(3, "employer", "fact", "在字节工作")
    beijing = ExistingMemory(4, "residence-city", "fact", "住在北京")
    assert refined("I left Boston.", [boston, google]) == [("delete", "fact", "residence-city")]
    assert refined("I left Google last year.", [boston, google]) == [("delete", "fact", "employer")]
    assert refined("我从字节离职了", [bytedance, beijing]) == [("delete", "fact", "employer")]
    assert refined("我离开北京了", [bytedance, beijing]) == [("delete", "fact", "residence-city")]
    assert refined("I left Sarah.", [boston, google]) == []


def test_a_condition_got_over_ends_its_health_fact_and_a_reading_back_to_normal_rewrites_it() -> None:
    """R-READ-6 (sixteenth probe): 「胃好了，又能吃辣了」 kept the core 「胃不好」 and 「不能吃辣」; "I've recovered from
    asthma" kept the asthma; 「我血压已经正常了」 kept 「有高血压」 on every reply. A condition got over ends the one
    health fact naming it (a body part in one character will do); a reading back to normal rewrites it in
    place, still a health fact; a cold, 「病好了」 or 「饭好了」 end nothing."""
    stomach = ExistingMemory(1, "health-stomach-problems", "fact", "胃不好")
    spicy = ExistingMemory(2, "food-spicy-food", "preference", "不能吃辣")
    asthma = ExistingMemory(3, "health-asthma", "fact", "Has asthma")
    pressure = ExistingMemory(4, "health-hypertension", "fact", "有高血压")
    rice = ExistingMemory(5, "health-diabetes", "fact", "饭后血糖高")
    assert sorted(refined("胃好了，又能吃辣了", [stomach, spicy])) == [
        ("delete", "fact", "health-stomach-problems"),
        ("upsert", "preference", "food-spicy-food"),
    ]
    assert refined("I've recovered from asthma.", [asthma, stomach]) == [("delete", "fact", "health-asthma")]
    assert refined("My asthma is gone now.", [asthma]) == [("delete", "fact", "health-asthma")]
    [(op, memory_type, key)] = refined("我血压已经正常了", [pressure, stomach])
    assert (op, memory_type, key) == ("upsert", "fact", "health-hypertension")
    pressure_en = ExistingMemory(6, "health-hypertension", "fact", "Has high blood pressure")
    assert refined("My blood pressure is back to normal now.", [pressure_en]) == [
        ("upsert", "fact", "health-hypertension")
    ]
    assert refined("我血压已经正常了", [stomach]) == []
    for message in ("我的病好了", "我的感冒好了", "饭好了", "I got over the flu."):
        assert refined(message, [stomach, asthma, rice]) == [], message


def test_what_the_user_switched_from_ends_where_one_memory_names_it() -> None:
    """R-WRITE-2 (sixteenth probe): "I switched from VS Code to Neovim" kept "Uses VS Code" beside the new editor.
    The thing switched from ends where one memory names it; when two do (the phone and the fruit of 苹果),
    the name guesses neither; said again, the switch does not end its own memory."""
    vscode = ExistingMemory(1, "preference-vs-code", "preference", "Uses VS Code")
    assert sorted(refined("I switched from VS Code to Neovim.", [vscode])) == [
        ("delete", "preference", "preference-vs-code"),
        ("upsert", "preference", "preference-neovim"),
    ]
    iphone = ExistingMemory(2, "device-iphone", "preference", "用的是苹果手机")
    apple = ExistingMemory(3, "food-apple", "preference", "喜欢吃苹果")
    assert sorted(refined("我从苹果换成安卓了", [iphone])) == [
        ("delete", "preference", "device-iphone"),
        ("upsert", "preference", "device-android"),
    ]
    # Two memories name 苹果: the name guesses neither; the phone still ends, as a phone switched away from.
    assert sorted(refined("我从苹果换成安卓了", [iphone, apple])) == [
        ("delete", "preference", "device-iphone"),
        ("upsert", "preference", "device-android"),
    ]
    assert [op for op, _, _ in refined("我从苹果换成华为了", [iphone, apple])] == ["upsert"]
    switched = ExistingMemory(4, "preference-neovim", "preference", "Switched from VS Code to Neovim")
    assert refined("I switched from VS Code to Neovim.", [switched]) == [("upsert", "preference", "preference-neovim")]


def test_a_trip_taken_ends_the_wish_to_make_it_but_not_a_wish_to_move_there() -> None:
    """R-WRITE-2 (sixteenth probe): "I went to Japan last month" kept "Wants to visit Japan"; 「我一直想去冰岛看极光」
    stored nothing. A travel wish said in Chinese is a goal (an errand is not), and a trip taken ends the one
    goal naming the place unless that goal is to live, work or study there."""
    japan = ExistingMemory(1, "goal-japan", "goal", "Wants to visit Japan")
    canada = ExistingMemory(2, "goal-move-canada", "goal", "Wants to move to Canada")
    for message in ("I went to Japan last month.", "I finally went to Japan!", "I just got back from Japan."):
        assert refined(message, [japan, canada]) == [("delete", "goal", "goal-japan")], message
    assert refined("I just got back from Canada.", [japan, canada]) == []
    assert [c.memory_type for c in extract("我一直想去冰岛看极光")] == ["goal"]
    assert [c.memory_type for c in extract("我想去日本旅游")] == ["goal"]
    iceland = ExistingMemory(3, "goal-iceland", "goal", "一直想去冰岛看极光")
    assert refined("我终于去了冰岛", [iceland]) == [("delete", "goal", "goal-iceland")]
    assert refined("我刚从冰岛回来", [iceland]) == [("delete", "goal", "goal-iceland")]
    for errand in ("我想去超市", "我想去超市看看", "I went to the store."):
        assert extract(errand) == [], errand


def test_a_divorce_under_way_is_the_status_and_keeps_the_partner() -> None:
    """R-WRITE-2 (sixteenth probe): "We're getting divorced" and 「我们在闹离婚」 stored nothing, and 「我们离婚了」
    nothing either. A divorce under way or a separation is the relationship status (the partner stays until
    it is done); 「我们离婚了」 ends the partner as 「我离婚了」 does."""
    for message in ("We're getting divorced.", "I filed for divorce.", "我们在闹离婚", "我们分居了"):
        assert [(c.op, c.key) for c in extract(message)] == [("upsert", "relationship-status")], message
    assert [(c.op, c.key) for c in extract("我们离婚了")] == [
        ("upsert", "relationship-status"),
        ("delete", "family-partner"),
    ]


def test_a_titles_or_saints_full_stop_does_not_end_the_sentence() -> None:
    """R-WRITE-2 (sixteenth probe): "I'm a nurse at St. Mary's hospital" stored the employer "Works at St"."""
    assert [(c.key, c.content) for c in extract("I work at St. Mary's Hospital.")] == [
        ("employer", "Works at St. Mary's Hospital")
    ]
    assert [c.key for c in extract("I'm vegetarian. I live in Oslo.")] == ["diet", "residence-city"]


def test_quitting_nursing_ends_a_nurses_job_or_breastfeeding_whichever_is_held() -> None:
    """R-WRITE-2 (sixteenth probe): "I quit nursing last year and now I teach yoga" retired breastfeeding (which the
    user never held) and lost the yoga: "nursing" is a nurse's job as often, and "and now I …" is a statement
    of its own."""
    nurse = ExistingMemory(1, "occupation", "fact", "Occupation: nurse")
    breastfeeding = ExistingMemory(2, "health-breastfeeding", "fact", "Is breastfeeding")
    assert refined("I quit nursing last year.", [nurse]) == [("delete", "fact", "occupation")]
    assert refined("I quit nursing last year.", [breastfeeding]) == [("delete", "fact", "health-breastfeeding")]
    assert refined("I quit nursing last year.", []) == []
    assert [(c.op, c.key, c.content) for c in extract("I quit nursing last year and now I teach yoga.")] == [
        ("delete", "health-breastfeeding", "Quit nursing last year"),
        ("upsert", "occupation", "Teaches yoga"),
    ]


def test_a_lasting_time_lead_goes_after_the_statement() -> None:
    """R-TYPE-2 (sixteenth probe): "Next year I want to run a full marathon" and "Next I want to do a full
    marathon" stored nothing. A lasting time lead is read after the statement and kept in it; a near one
    (R-TYPE-3) still is no memory."""
    assert [(c.key, c.content) for c in extract("Next year I want to run a full marathon.")] == [
        ("goal-marathon", "Wants to run a full marathon next year")
    ]
    assert [c.key for c in extract("Next, I want to do a full marathon.")] == ["goal-marathon"]
    assert [c.content for c in extract("Someday I want to live in Japan.")] == ["Wants to live in Japan someday"]
    assert extract("Next week I'm flying to Paris.") == []


def test_a_pet_lost_ends_the_pet_memory_that_names_it() -> None:
    """R-WRITE-2 (sixteenth probe): 「咪咪上个月走丢了」 after 「我养了一只猫叫咪咪」 kept the cat."""
    mimi = ExistingMemory(1, "pet-cat", "fact", "养了一只猫叫咪咪")
    luna = ExistingMemory(2, "pet-cat", "fact", "Has a cat named Luna")
    assert refined("咪咪上个月走丢了", [mimi]) == [("delete", "fact", "pet-cat")]
    assert refined("Luna went missing.", [luna]) == [("delete", "fact", "pet-cat")]
    assert refined("钥匙不见了", [mimi]) == []


def test_an_exam_said_passed_reaches_the_goal_held_for_it() -> None:
    """R-WRITE-2 (sixteenth probe): 「N2过了！」 after 「准备考N2」 kept the goal (「我考过了N2」 already ended it)."""
    n2 = ExistingMemory(1, "goal-jlpt-n2", "goal", "准备考N2")
    assert refined("N2过了！", [n2]) == [("delete", "goal", "goal-jlpt-n2")]
    assert refined("我雅思通过了", [n2]) == []


def test_a_role_changed_to_is_the_occupation_and_a_home_moved_into_is_the_home() -> None:
    """R-WRITE-2 (sixteenth probe): 「我现在改做后端了」 and "We moved into a house with a garden" stored nothing."""
    assert [(c.key, c.content) for c in extract("我现在改做后端了")] == [("occupation", "职业：后端")]
    assert [(c.key, c.content) for c in extract("我转做后端了")] == [("occupation", "职业：后端")]
    assert [(c.op, c.key) for c in extract("We moved into a house with a garden.")] == [("upsert", "home")]
    assert [(c.op, c.key) for c in extract("我们搬进了新房子")] == [("upsert", "home")]


def test_an_amount_a_day_is_a_habit_and_a_habit_quit_entirely_is_retired() -> None:
    """R-TYPE-2 (sixteenth probe): "I drink about three cups of coffee a day" stored nothing and "I quit caffeine
    entirely" retired nothing."""
    assert [(c.key, c.content) for c in extract("I drink about three cups of coffee a day.")] == [
        ("drink-coffee", "Drinks about three cups of coffee a day")
    ]
    assert [(c.op, c.key) for c in extract("I quit caffeine entirely.")] == [("delete", "drink-caffeine")]
    assert extract("I need it done a day early.") == []


def test_a_language_picked_up_is_a_goal_and_a_reason_after_a_comma_is_no_item() -> None:
    """R-TYPE-2 (sixteenth probe): "I'm also picking up some Portuguese" stored nothing; "I gave up on Spanish, too
    hard" also retired `goal-hard`, which would end any memory naming "hard"."""
    assert [c.key for c in extract("I'm also picking up some Portuguese.")] == ["goal-portuguese"]
    assert [c.key for c in extract("I'm also learning Spanish.")] == ["goal-spanish"]
    assert [(c.op, c.key) for c in extract("I gave up on Spanish, too hard.")] == [("delete", "goal-spanish")]


def test_a_format_asked_against_replaces_the_format_rule() -> None:
    """R-READ-6 (sixteenth probe): after "Please always answer in bullet points", "No more bullet points" and
    "Bullet points are annoying now, just write normally" stored nothing, so every reply kept the bullets."""
    bullets = ExistingMemory(1, "reply-format", "constraint", "Please always answer in bullet points")
    for message in (
        "No more bullet points.",
        "Stop using bullet points.",
        "Bullet points are annoying now, just write normally.",
    ):
        assert refined(message, [bullets]) == [("upsert", "constraint", "reply-format")], message
    assert [c.content for c in extract("Bullet points are annoying now, just write normally.")] == [
        "Just write normally"
    ]


def test_a_city_settled_in_is_the_residence() -> None:
    """R-WRITE-2 (sixteenth probe): 「我已经在深圳安顿下来了」 after 「下个月要搬去深圳了」 kept 「住在杭州」."""
    for message, content in (
        ("我已经在深圳安顿下来了", "住在深圳"),
        ("我们在深圳定居了", "住在深圳"),
        ("I've settled in Denver.", "Lives in Denver"),
    ):
        assert [(c.key, c.content) for c in extract(message)] == [("residence-city", content)], message


def test_a_device_switched_to_ends_the_one_it_replaces_only_when_held() -> None:
    """R-WRITE-2 (sixteenth probe): 「我换Mac了」 after 「我习惯用Windows」 stored nothing, and "I switched to Android"
    kept the iPhone beside it. A device switched to ends the one it replaces where held; one only had (「我也有
    一台Mac」) ends nothing, and a job changed (「我换工作了」) is no device (it ends the employer held)."""
    windows = ExistingMemory(1, "device-windows", "preference", "习惯用Windows")
    iphone = ExistingMemory(2, "device-iphone", "preference", "Uses an iPhone")
    assert sorted(refined("我换Mac了", [windows])) == [
        ("delete", "preference", "device-windows"),
        ("upsert", "preference", "device-mac"),
    ]
    assert sorted(refined("I switched to Android.", [iphone])) == [
        ("delete", "preference", "device-iphone"),
        ("upsert", "preference", "device-android"),
    ]
    assert refined("I switched to Android.", []) == [("upsert", "preference", "device-android")]
    assert [(c.op, c.key, c.extra.get("if_held")) for c in extract("我换工作了")] == [("delete", "employer", True)]


def test_new_tastes_and_ends_said_in_chinese() -> None:
    """R-WRITE-2 (sixteenth probe): 「现在无辣不欢」 kept 「不喜欢吃辣」; 「我已经瘦到60公斤了」 kept the goal 「目标是瘦到60公斤」;
    「我把记账App停掉了」 kept the project; 「我现在改打网球了」 and 「最近换了夜班」 stored nothing; 「改用支付宝了」 was a hashed key."""
    spicy = ExistingMemory(1, "food-spicy-food", "preference", "不喜欢吃辣")
    assert refined("现在无辣不欢", [spicy]) == [("upsert", "preference", "food-spicy-food")]
    weight = ExistingMemory(2, "goal-weight-loss", "goal", "最近在减肥; 目标是瘦到60公斤")
    assert refined("我已经瘦到60公斤了", [weight]) == [("delete", "goal", "goal-weight-loss")]
    app = ExistingMemory(3, "project-app-h83f8175", "project", "在做一个记账App")
    assert refined("我把记账App停掉了", [app]) == [("delete", "project", "project-app-h83f8175")]
    assert [c.key for c in extract("我现在改打网球了")] == ["sport-tennis"]
    # The bedtime too, since the seventeenth probe (`test_sleeping_during_the_day_is_the_bedtime`).
    assert [c.key for c in extract("最近换了夜班，白天睡觉")] == ["work-schedule", "preference-bedtime"]
    assert [c.key for c in extract("现在改用支付宝了")] == ["app-alipay"]
    assert [c.key for c in extract("医生让我改打胰岛素")] == ["medication-insulin"]


def test_a_drug_taken_off_or_switched_from_ends_its_medication() -> None:
    """R-READ-6 (sixteenth probe): "My doctor took me off metformin, I'm on insulin now" kept the core metformin
    beside insulin on every reply, as did "switched me from metformin to insulin" and 「医生让我停了二甲双胍」."""
    metformin = ExistingMemory(1, "medication-metformin", "fact", "Is on metformin")
    for message in (
        "My doctor took me off metformin.",
        "I'm off metformin now.",
        "医生让我停了二甲双胍",
    ):
        assert refined(message, [metformin]) == [("delete", "fact", "medication-metformin")], message
    assert sorted(refined("My doctor switched me from metformin to insulin.", [metformin])) == [
        ("delete", "fact", "medication-metformin"),
        ("upsert", "fact", "medication-insulin"),
    ]


def test_remote_work_said_with_its_days_or_now_is_the_work_location() -> None:
    """R-TYPE-2 (sixteenth probe): "I work from home on Mondays and Fridays" and "I'm fully remote now" stored nothing."""
    assert [(c.key, c.content) for c in extract("I work from home on Mondays and Fridays.")] == [
        ("work-location", "Works from home on Mondays and Fridays")
    ]
    assert [(c.key, c.content) for c in extract("I'm fully remote now.")] == [("work-location", "Is fully remote now")]


def test_a_taste_come_around_to_and_an_instrument_learned_or_sold() -> None:
    """R-WRITE-2 (sixteenth probe): "I've come around on mushrooms" kept "Hates mushrooms"; "I sold my guitar, I'm
    learning piano now" kept "Plays guitar" and stored no piano. A thing sold ends the one memory naming it (a
    car the vehicle held); "I got rid of my old TV" names none."""
    mushrooms = ExistingMemory(1, "preference-mushrooms", "preference", "Hates mushrooms")
    assert refined("I've come around on mushrooms.", [mushrooms]) == [("upsert", "preference", "preference-mushrooms")]
    guitar = ExistingMemory(2, "music-guitar", "preference", "Plays guitar")
    assert sorted(refined("I sold my guitar, I'm learning piano now.", [guitar])) == [
        ("delete", "preference", "music-guitar"),
        ("upsert", "goal", "goal-piano"),
    ]
    car = ExistingMemory(3, "vehicle", "fact", "Drives a Toyota Camry")
    assert refined("I sold my car last month.", [car, guitar]) == [("delete", "fact", "vehicle")]
    assert refined("I got rid of my old TV.", [car, guitar]) == []


def test_a_language_studied_is_learned_not_a_major() -> None:
    """R-WRITE-2 (sixteenth probe): "I'm studying Korean" stored `education-major` beside `goal-korean`."""
    assert [c.key for c in extract("I'm studying Korean.")] == ["goal-korean"]
    assert [c.key for c in extract("I'm majoring in Korean.")] == ["education-major"]
    assert [c.key for c in extract("I'm studying biology.")] == ["education-major"]


def test_a_standing_rule_no_longer_needed_ends_the_rule_naming_it() -> None:
    """R-READ-6 (sixteenth probe): 「不用先给结论了」 and 「不用附英文翻译了」 kept the standing rules on every reply."""
    conclusion = ExistingMemory(1, "rule-conclusion-first", "constraint", "以后回答先给结论")
    translation = ExistingMemory(2, "rule-english", "constraint", "以后每次回答都附上英文翻译")

    def rules(message: str) -> list[tuple[str, str, str]]:
        # 不用 is also read as "no longer use": a retraction of a taste no memory holds (recorded inactive).
        return [r for r in refined(message, [conclusion, translation]) if r[1] == "constraint"]

    assert rules("不用先给结论了") == [("delete", "constraint", "rule-conclusion-first")]
    assert rules("不用附英文翻译了") == [("delete", "constraint", "rule-english")]
    english = ExistingMemory(3, "rule-english", "constraint", "Always add English translations to your answers")
    assert refined("You don't need to add English translations anymore.", [english]) == [
        ("delete", "constraint", "rule-english")
    ]
    assert rules("不用担心了") == []


def test_a_job_started_or_left_for_no_other_ends_or_sets_the_employer() -> None:
    """R-WRITE-2 (sixteenth probe): 「我刚入职字节」 stored nothing; 「我现在待业在家」, "I'm unemployed" and "I'm retired
    now" kept the employer held; "I'm a freshman at UCLA" stored no school."""
    employer = ExistingMemory(1, "employer", "fact", "Works at Stripe")
    assert [(c.key, c.content) for c in extract("我刚入职字节")] == [("employer", "在字节工作")]
    assert extract("我下周一入职腾讯") == []
    for message in ("我现在待业在家", "I'm unemployed.", "I'm retired now."):
        assert ("delete", "fact", "employer") in refined(message, [employer]), message
    assert [(c.key, c.content) for c in extract("I'm a freshman at UCLA.")] == [("school", "Studies at UCLA")]
    assert extract("I'm a senior at Google.") == []


def test_a_second_child_born_is_a_child_and_ends_a_pregnancy_held() -> None:
    """R-WRITE-2 (sixteenth probe; the fifteenth's "We just had our third baby!" left): no child, the pregnancy kept."""
    pregnancy = ExistingMemory(1, "health-pregnancy", "fact", "Is pregnant")
    assert sorted(refined("We just had our second child!", [pregnancy])) == [
        ("append", "fact", "family-children"),
        ("delete", "fact", "health-pregnancy"),
    ]
    assert refined("I had our first child in 2019.", [pregnancy]) == [("append", "fact", "family-children")]


def test_offal_and_sleeping_in_have_readable_keys_in_both_languages() -> None:
    """Issue 13.7 (sixteenth probe): 「我不吃内脏」 and 「我周末喜欢睡懒觉」 were hashed keys, apart from their English."""
    assert [c.key for c in extract("我不吃内脏")] == [c.key for c in extract("I don't eat offal.")] == ["food-offal"]
    assert [c.key for c in extract("我周末喜欢睡懒觉")] == ["habit-sleeping-in"]
    assert [c.key for c in extract("I like to sleep in on weekends.")] == ["habit-sleeping-in"]
    # A night-shift worker's sleep (the everyday set's en-e112).
    assert "habit-sleeping-in" not in [
        c.key for c in extract("I work night shifts, so I usually sleep in the morning.")
    ]


def test_a_liking_on_its_way_is_a_liking() -> None:
    """R-TYPE-2 (sixteenth probe): "I've been getting into pottery lately" stored nothing."""
    assert [c.key for c in extract("I've been getting into pottery lately.")] == ["habit-pottery"]
    assert extract("I've been getting into trouble lately.") == extract("I've been getting into a new hobby.") == []


def test_a_value_taken_back_or_forgotten_ends_the_slot_only_where_it_holds_that_value() -> None:
    """R-WRITE-2 (sixteenth probe): "I don't live in Paris anymore" deleted the user's "Lives in Berlin";
    「我已经不在腾讯上班了」 ended 「在阿里工作」, "I'm not a teacher anymore" the nurse's occupation, and "Forget that I
    live in Paris" the Berlin. A single-valued slot's statement taken back ends the slot only where the memory
    names its value; with nothing held the retraction is kept (recorded, for a statement arriving late)."""
    berlin = ExistingMemory(1, "residence-city", "fact", "Lives in Berlin")
    paris = ExistingMemory(1, "residence-city", "fact", "Lives in Paris")
    for message in ("I don't live in Paris anymore.", "Forget that I live in Paris."):
        assert refined(message, [berlin]) == [], message
        assert refined(message, [paris]) == [("delete", "fact", "residence-city")], message
    ali = ExistingMemory(2, "employer", "fact", "在阿里工作")
    assert refined("我已经不在腾讯上班了", [ali]) == []
    assert refined("我已经不在阿里上班了", [ali]) == [("delete", "fact", "employer")]
    nurse = ExistingMemory(3, "occupation", "fact", "Occupation: nurse")
    assert refined("I'm not a teacher anymore.", [nurse]) == []
    assert refined("I no longer work at Google.", []) == [("delete", "fact", "employer")]
    # A forget request naming the slot by a question word forgets whatever it holds (the held-out set's zh-eh005).
    suzhou = ExistingMemory(4, "residence-city", "fact", "住在苏州")
    assert refined("请把我住在哪里的信息删掉。", [suzhou]) == [("delete", "fact", "residence-city")]


def test_she_or_he_after_a_family_member_is_that_member() -> None:
    """R-WRITE-2 (sixteenth probe; left since the fourteenth): 「我女儿今年5岁，她喜欢画画」 and, one turn after the
    other, 「我女儿今年5岁」 / 「她喜欢画画」 lost the drawing; "She outgrew her egg allergy" after "My daughter Emma is
    7" was lost too. A singular pronoun opening a clause, or the user's next turn, stands for the one family member
    named just before, of its gender; not after a friend, nor across genders."""
    assert [c.content for c in extract("我女儿今年5岁，她喜欢画画")] == ["女儿今年5岁；女儿喜欢画画"]
    assert [c.content for c in extract("My daughter is 5. She loves drawing.")] == [
        "Daughter is 5; Daughter loves drawing"
    ]
    assert [c.content for c in extract("My son is 5. She loves drawing.")] == ["Son is 5"]
    assert [c.content for c in extract("My daughter is 5. My friend is a nurse. She loves drawing.")] == [
        "Daughter is 5"
    ]
    after = TurnContext(message="她喜欢画画", recent=({"role": "user", "content": "我女儿今年5岁"},))
    assert [(c.key, c.content) for c in ENGINE.extract(after)] == [("family-children", "女儿喜欢画画")]
    burst = TurnContext(message="He just got promoted to partner.", earlier=("My husband is a lawyer.",))
    assert [c.content for c in ENGINE.extract(burst)] == ["Husband is a lawyer", "Husband just got promoted to partner"]
    assert extract("她喜欢画画") == []
    # Her / his: the member's.
    assert [c.content for c in extract("My daughter is 5. Her favorite color is pink.")] == [
        "Daughter is 5; Daughter's favorite color is pink"
    ]
    # Through more than one turn: each pronoun reaches the son named two turns before.
    chain = TurnContext(
        message="他不爱吃青菜",
        recent=(
            {"role": "user", "content": "我有个儿子，今年上初一"},
            {"role": "assistant", "content": "初一是个关键的时期。"},
            {"role": "user", "content": "他最近迷上了篮球"},
        ),
    )
    assert [(c.key, c.content) for c in ENGINE.extract(chain)] == [("family-children", "儿子不爱吃青菜")]


def test_a_skill_learned_or_a_job_found_reaches_the_goal_held_for_it() -> None:
    """R-WRITE-2 (sixteenth probe): 「我学会游泳了」 after 「我想学游泳」 and 「我找到新工作了」 after 「我明年想换工作」 kept the goals."""
    swim_zh = ExistingMemory(1, "goal-swimming", "goal", "想学游泳")
    swim_en = ExistingMemory(2, "goal-swim", "goal", "Wants to learn to swim")
    assert refined("我学会游泳了", [swim_zh]) == [("delete", "goal", "goal-swimming")]
    assert refined("I learned to swim!", [swim_en]) == [("delete", "goal", "goal-swim")]
    license = ExistingMemory(3, "goal-drivers-license", "goal", "在学开车")
    assert refined("我学会开车了", [license]) == [("delete", "goal", "goal-drivers-license")]
    job = ExistingMemory(4, "goal-job-change", "goal", "明年想换工作")
    assert refined("我找到新工作了", [job]) == [("delete", "goal", "goal-job-change")]
    assert sorted(refined("I got a new job at Stripe.", [job])) == [
        ("delete", "goal", "goal-job-change"),
        ("upsert", "fact", "employer"),
    ]
    assert refined("我找到新工作了", []) == []


def test_a_family_members_name_after_they_were_named_is_that_member() -> None:
    """R-WRITE-2 (sixteenth probe): "Sarah just got a new job as a principal" after "My wife Sarah is a teacher"
    was lost (a name across turns), as was 「小雨喜欢画画」 after 「我女儿…，她叫小雨」. A clause opening with the name
    of the family member named before is said of that member; a friend's name is not."""
    after = TurnContext(
        message="Sarah just got a new job as a principal.",
        recent=({"role": "user", "content": "My wife Sarah is a teacher."},),
    )
    assert [(c.key, c.content) for c in ENGINE.extract(after)] == [
        ("family-partner", "Wife just got a new job as a principal")
    ]
    assert [c.content for c in extract("我女儿今年5岁，她叫小雨。小雨喜欢画画")] == [
        "女儿今年5岁，叫小雨；女儿喜欢画画"
    ]
    assert [c.content for c in extract("My daughter is 5, her name is Mia. Mia loves drawing.")] == [
        "Daughter is 5, named Mia; Daughter loves drawing"
    ]
    assert extract("My friend Sarah is a nurse. Sarah loves cats.") == []


def test_a_rash_after_a_food_and_a_food_the_medication_rules_out_are_core() -> None:
    """R-READ-6 (sixteenth probe): 「我吃海鲜会起疹子」 and "I can't have grapefruit because of my medication" stored
    nothing, so neither reached a reply suggesting food."""
    rash = only("我吃海鲜会起疹子")
    assert (rash.key, rash.content) == ("allergy-seafood", "吃海鲜会起疹子")
    grapefruit = only("I can't have grapefruit because of my medication.")
    assert grapefruit.key == "diet-grapefruit"
    for candidate in (rash, grapefruit):
        assert is_core_memory(candidate.memory_type, candidate.key, candidate.content)
    assert [c.key for c in extract("I can't eat cheese with my meds.")] == ["diet-cheese"]


def keyed(message: str, recent: tuple[str, ...] = ()) -> list[tuple[str, str, str, str]]:
    """(op, memory_type, key, content) of what the engine reads from `message` after the user's `recent` turns."""
    turn = TurnContext(message=message, recent=tuple({"role": "user", "content": text} for text in recent))
    return [(c.op, c.memory_type, c.key, c.content) for c in ENGINE.extract(turn)]


def test_a_standing_rule_asked_as_a_question_is_the_rule() -> None:
    """R-TYPE-2 (seventeenth probe): "Can you keep answers under 200 words?", "Could you always answer in bullet
    points?" and 「你能不能以后都用中文回答？」 stored nothing (questions are not statements). Asked for every answer
    (a standing word, or answers in the plural) they are the rule; asked about this answer, or granting
    something (「以后可以给我推荐辣的了」), or asking what the assistant will do, they are not."""
    assert keyed("Can you keep answers under 200 words?") == [
        ("upsert", "constraint", "reply-length", "Keep answers under 200 words")
    ]
    assert keyed("Could you always answer in bullet points?")[0][2] == "reply-format"
    assert keyed("Would you always use metric units?")[0][2] == "reply-units"
    for message in ("你能不能以后都用中文回答？", "以后能不能都用中文回答？", "可以以后都用中文回答吗？"):
        assert keyed(message) == [("upsert", "constraint", "reply-language", "以后都用中文回答")], message
    for message in ("Can you keep it short?", "以后你会记得吗？", "以后可以推荐什么？", "Will you always be here?"):
        assert keyed(message) == [], message
    assert [op for op, *_ in keyed("以后可以给我推荐辣的了")] == ["delete", "delete"]  # a rule lifted, as before


def test_a_rule_lifted_with_what_it_allows_named_first_ends_the_rule() -> None:
    """R-WRITE-2 (seventeenth probe): 「算了，辣的还是可以推荐的」 and 「其实辣的也可以推荐」 left the held rule
    「以后别给我推荐辣的菜」 in place ("You can recommend spicy food again" and 「可以给我推荐辣的了」 ended it)."""
    rule = ExistingMemory(1, "rule-spicy-food", "constraint", "以后别给我推荐辣的菜")
    for message in ("算了，辣的还是可以推荐的。", "其实辣的也可以推荐。"):
        assert refined(message, [rule]) == [("delete", "constraint", "rule-spicy-food")], message
    assert refined("这个也可以推荐", [rule]) == []
    assert refined("川菜也可以推荐", [rule]) == []  # no rule names it


def test_another_allergen_after_an_allergy_is_an_allergy_of_its_own() -> None:
    """R-READ-6 (seventeenth probe): 「我对花生过敏，芒果也不行」 and 「…，还有芒果」 lost the mango allergy, and
    "Mangoes too." after "I'm allergic to peanuts." as well; a family member's "too" is not the user's."""
    for message in ("我对花生过敏，芒果也不行。", "我对花生过敏，还有芒果。", "我对花生过敏，芒果也过敏。"):
        assert [key for _, _, key, _ in keyed(message)] == ["allergy-peanut", "allergy-mango"], message
    assert keyed("I'm allergic to peanuts. Mangoes too.")[1] == (
        "upsert",
        "fact",
        "allergy-mango",
        "Is allergic to mangoes",
    )
    for message in (
        "我对花生过敏，老婆也不行",
        "我对花生过敏，吃了也不行",
        "我对花生过敏，其他都还好",
        "I'm allergic to peanuts, my son as well.",
        "I love peanuts. Mangoes too.",
    ):
        assert [key for _, _, key, _ in keyed(message)] in (["allergy-peanut"], ["food-peanut"]), message
    assert [key for _, _, key, _ in keyed("我不抽烟也不喝酒")] == ["habit-smoking", "drink-alcohol"]


def test_a_statement_taken_back_as_a_joke_is_not_kept() -> None:
    """R-WRITE-2 (seventeenth probe): "I don't like sushi. Just kidding, I love it." stored "Doesn't like
    sushi". A joke ends what the clause before it said; an "it" right after is the item it named."""
    assert keyed("I don't like sushi. Just kidding, I love it.") == [
        ("upsert", "preference", "food-sushi", "Loves sushi")
    ]
    assert keyed("我不喜欢吃日料，开玩笑的，其实我很喜欢") == [
        ("upsert", "preference", "food-japanese-food", "很喜欢日料")
    ]
    for message in ("I hate coffee. Just kidding.", "I'm vegan, jk.", "我住在火星。开玩笑的"):
        assert keyed(message) == [], message
    assert keyed("My son is a kidding machine.")  # no joke of the user's


def test_what_a_diet_allows_said_in_the_next_turn_goes_with_the_diet() -> None:
    """R-READ-6 (seventeenth probe): 「我是素食主义者」 then 「不过我吃鸡蛋和牛奶」 kept the diet without what it allows
    (said in one turn the two were one fact). The "but" opening the next turn is read with the diet before it."""
    assert keyed("不过我吃鸡蛋和牛奶。", recent=("我是素食主义者。",)) == [
        ("upsert", "fact", "diet", "是素食主义者，但吃鸡蛋和牛奶")
    ]
    assert keyed("But I can have yogurt.", recent=("I'm lactose intolerant.",))[0][3] == (
        "Is lactose intolerant but can have yogurt"
    )
    assert keyed("But I eat it rarely.", recent=("I love pizza.",)) == []
    assert keyed("不过我吃鸡蛋。", recent=()) == []


def test_a_routine_changed_units_preferred_and_a_new_jobs_title_are_read() -> None:
    """R-WRITE-2 (seventeenth probe): "I've started going to bed at 11 since the baby arrived" kept the old 2am
    bedtime; "I prefer metric units" was keyed apart from "Use imperial" (both stayed); "I got a new job at
    Google as a product manager" lost the title; 「我们家住在朝阳区」 and 「我现在改游泳了」 stored nothing."""
    assert keyed("I've started going to bed at 11 since the baby arrived.")[0][:3] == (
        "upsert",
        "preference",
        "preference-bedtime",
    )
    assert keyed("I go to bed at 11 now.")[0][2] == "preference-bedtime"
    assert keyed("I prefer metric units.") == [("upsert", "preference", "reply-units", "Prefers metric units")]
    assert keyed("Use imperial units.")[0][2] == "reply-units"
    assert ("occupation", "Occupation: product manager") in [
        (key, content) for _, _, key, content in keyed("I just got a new job at Google as a product manager.")
    ]
    assert keyed("我们家住在朝阳区。") == [("upsert", "fact", "residence-city", "住在朝阳区")]
    assert keyed("我现在改游泳了。")[0][2] == "sport-swimming"
    assert keyed("我不吃洋葱")[0][2] == "food-onion"


def test_a_condition_a_doctor_found_and_what_it_rules_out_are_kept() -> None:
    """R-READ-6 (seventeenth probe): "My doctor says I have gestational diabetes" and "I have gestational diabetes,
    so please don't suggest sugary snacks" stored nothing; "I'm breastfeeding now, so no alcohol for me" lost the
    rule. What a doctor found is the user's condition; what it rules out right after it is a core rule."""
    assert keyed("My doctor says I have gestational diabetes.") == [
        ("upsert", "fact", "health-diabetes", "Has gestational diabetes")
    ]
    assert [key for _, _, key, _ in keyed("I have gestational diabetes, so please don't suggest sugary snacks.")] == [
        "health-diabetes",
        "rule-suggest-sugary-snacks",
    ]
    assert keyed("I'm breastfeeding now, so no alcohol for me.")[1] == (
        "upsert",
        "constraint",
        "rule-alcohol",
        "No alcohol for me",
    )
    assert keyed("No alcohol for me.") == []  # alone, a choice of the moment


def test_work_vehicles_learning_given_up_and_a_child_born_are_read() -> None:
    """R-WRITE-2 (seventeenth probe): "I've been promoted to senior engineer" kept the old title; "I bought a Tesla
    Model 3" stored nothing; 「驾照考下来了」, 「吉他学不下去了」, 「我不学吉他了」 kept their goals; 尤克里里 was a hashed
    key; 「一只叫团团一只叫圆圆」 named one pet 「团团一只叫圆圆」; "The baby was born last week, a girl named Ava",
    「我们家老三出生了」 and "My wife just had a baby girl" added no child."""
    assert keyed("I've been promoted to senior engineer.") == [
        ("upsert", "fact", "occupation", "Occupation: senior engineer")
    ]
    assert keyed("I bought a Tesla Model 3.") == [("upsert", "fact", "vehicle", "Bought a Tesla Model 3")]
    for message, key in (
        ("驾照考下来了！", "goal-drivers-license"),
        ("吉他学不下去了", "goal-guitar"),
        ("我不学吉他了", "goal-guitar"),
    ):
        assert [(op, key) for op, _, key, _ in keyed(message)] == [("delete", key)], message
    assert keyed("我现在在学尤克里里。")[0][2] == "goal-ukulele"
    assert keyed("我家有两只猫，一只叫团团一只叫圆圆。") == [
        ("upsert", "fact", "pet-cat", "我家有两只猫，叫团团和圆圆")
    ]
    assert ("append", "fact", "family-children", "The baby was born last week, a girl named Ava") in keyed(
        "The baby was born last week, a girl named Ava!"
    )
    assert keyed("我们家老三出生了") == [("append", "fact", "family-children", "我们家老三出生了")]
    assert keyed("My wife just had a baby girl.") == [
        ("append", "fact", "family-children", "Wife just had a baby girl")
    ]


def test_wanting_to_quit_is_a_goal_and_retires_nothing() -> None:
    """R-WRITE-2, R-READ-6 (seventeenth probe): 「我想戒咖啡」, 「我在戒烟」 and 「我打算戒酒」 retired the liking as if
    it were given up, and 「我打算戒酒」 also put 戒酒 on the core diet. Wanting or trying to quit is the goal
    (keyed as "I want to quit coffee" is); quitting done ends the liking, and refine that goal where held."""
    assert keyed("我想戒咖啡") == [("upsert", "goal", "goal-coffee", "想戒咖啡")]
    assert keyed("我在戒烟") == [("upsert", "goal", "goal-smoking", "在戒烟")]
    assert keyed("我打算戒酒") == [("upsert", "goal", "goal-alcohol", "打算戒酒")]
    assert keyed("I want to quit coffee.")[0][2] == "goal-coffee"
    assert ("delete", "preference", "drink-alcohol", "戒酒") in keyed("我戒酒了")
    held = ExistingMemory(1, "goal-smoking", "goal", "想戒烟")
    for message in ("我戒烟了", "I quit smoking."):
        assert ("delete", "goal", "goal-smoking") in refined(message, [held]), message
        assert ("delete", "goal", "goal-smoking") not in refined(message, []), message
    coffee = ExistingMemory(2, "goal-coffee", "goal", "Wants to quit coffee")
    assert ("delete", "goal", "goal-coffee") in refined("I don't drink coffee anymore.", [coffee])


def test_a_named_persons_allergy_is_not_the_users_and_family_words_reach_further() -> None:
    """R-READ-6 (seventeenth probe): "Lily is allergic to eggs" (a daughter named before) was stored as the user's
    own core allergy; "We have two kids, …", "My fiancée is a dentist" and 「我未婚妻是医生」 stored nothing; "I'm
    terrified of flying" stored nothing; 「我现在用的电脑是ThinkPad」, 普拉提 neither; "I'm a vegetarian, but I've
    started eating chicken again" kept a plain vegetarian diet; 「医生让我别爬山了」 nothing."""
    assert keyed("Lily is allergic to eggs.") == []
    assert keyed("I'm allergic to eggs.")[0][2] == "allergy-egg"
    assert keyed("We have two kids, Noah (8) and Lily (5).")[0][2] == "family-children"
    assert keyed("My fiancée is a dentist.") == [("append", "fact", "family-partner", "Fiancée is a dentist")]
    assert keyed("我未婚妻是医生")[0][2] == "family-partner"
    assert keyed("I'm terrified of flying.")[0][2] == "trait-fear-of-flying"
    assert keyed("我现在用的电脑是ThinkPad。")[0][2] == "device-thinkpad"
    assert keyed("我开始练普拉提了")[0][2] == "sport-pilates"
    assert keyed("I'm a vegetarian, but I've started eating chicken again.") == [
        ("upsert", "fact", "diet", "Is a vegetarian but has started eating chicken again")
    ]
    assert keyed("我最近膝盖不好，医生让我别爬山了。")[1] == ("upsert", "constraint", "rule-hiking", "医生让我别爬山了")
    assert keyed("My doctor told me to stop running.")[0][:3] == ("upsert", "constraint", "rule-running")
    assert [key for _, _, key, _ in keyed("医生让我少吃盐")] == ["diet-low-salt"]  # the diet's, no second rule


def test_depression_its_medication_and_rules_about_topics_and_recommendations_are_kept() -> None:
    """R-READ-6 (seventeenth probe): 「我有轻度抑郁，在吃舍曲林」 stored nothing (a degree before the condition; an SSRI
    by name), nor did "I'm on Zoloft"; 「别跟我聊减肥的话题」, "Don't bring up dieting with me", 「推荐菜的时候注意少油少盐」
    and "When you recommend restaurants, keep it cheap" are rules for every reply and stored nothing; 「我最近在考CPA」
    and 「我在考驾照」 were no goal. A passing mood (「今天有点抑郁」) is still none."""
    assert keyed("我有轻度抑郁，在吃舍曲林。") == [
        ("upsert", "fact", "health-depression", "有轻度抑郁"),
        ("upsert", "fact", "medication-sertraline", "在吃舍曲林"),
    ]
    assert keyed("I'm on Zoloft.") == [("upsert", "fact", "medication-sertraline", "Is on Zoloft")]
    assert keyed("今天有点抑郁") == []
    for message in (
        "别跟我聊减肥的话题。",
        "Don't bring up dieting with me.",
        "推荐菜的时候注意少油少盐。",
        "When you recommend restaurants, keep it cheap.",
    ):
        (candidate,) = extract(message)
        assert candidate.memory_type == "constraint" and is_core_memory("constraint", candidate.key, candidate.content)
    assert keyed("我最近在考CPA，已经过了三门。")[0][2] == "goal-cpa"
    assert keyed("我在考驾照")[0][2] == "goal-drivers-license"


def test_a_value_corrected_rewrites_the_one_memory_naming_the_wrong_one() -> None:
    """R-WRITE-2 (seventeenth probe): 「更正一下，是蚂蚁金服，不是阿里」 after 「我在阿里上班」, "Actually it's AWS, not Amazon
    retail" after "I work at Amazon" and "Wait, no — I live in Dallas" after Austin left the wrong value. In a message
    that says it corrects, "是<right>，不是<wrong>" / "it's <right>, not <wrong>" rewrites the one memory naming the
    wrong value in place; with no correction word, or no single memory naming it, nothing is written."""
    ali = ExistingMemory(1, "employer", "fact", "在阿里工作")
    corrected = ENGINE.refine(extract("更正一下，是蚂蚁金服，不是阿里。"), [ali])
    assert [(c.op, c.target_key, c.content) for c in corrected] == [("upsert", "employer", "在蚂蚁金服工作")]
    amazon = ExistingMemory(2, "employer", "fact", "Works at Amazon")
    corrected = ENGINE.refine(extract("Actually it's AWS, not Amazon retail."), [amazon])
    assert [(c.target_key, c.content) for c in corrected] == [("employer", "Works at AWS")]
    gym = ExistingMemory(3, "sport-gym", "preference", "每周四去健身")
    assert ENGINE.refine(extract("是周五，不是周四。"), [gym]) == []  # no correction word: an answer, perhaps
    assert ENGINE.refine(extract("更正一下，是蚂蚁金服，不是阿里。"), []) == []
    # The right value is the user's words, not a replacement template.
    corrected = ENGINE.refine(extract("更正一下，是蚂蚁\\1，不是阿里。"), [ali])
    assert [c.content for c in corrected] == ["在蚂蚁\\1工作"]
    children = ExistingMemory(4, "family-children", "fact", "Son is 4; Daughter is 6")
    corrected = ENGINE.refine(extract("Sorry, it's 7, not 6."), [children])
    assert [c.content for c in corrected] == ["Son is 4; Daughter is 7"]
    assert keyed("Wait, no — I live in Dallas.") == [("upsert", "fact", "residence-city", "Lives in Dallas")]
    assert keyed("No more bullet points.")[0][2] == "reply-format"  # "no" is a lead only before a comma or dash
    assert keyed("其实我还是喜欢咖啡的。") == [("upsert", "preference", "drink-coffee", "还是喜欢咖啡的")]
    assert keyed("咖啡是我的最爱。")[0][2] == "drink-coffee"


def test_a_mark_kept_out_of_replies_a_degree_under_way_and_tools_listed_are_read() -> None:
    """R-TYPE-2 (seventeenth probe): "Please don't use exclamation marks in your replies" stored nothing (the format,
    emoji and style rules keep theirs); "I'm doing a master's in education part-time" was no goal, so "I finished my
    master's!" reached none; "I mostly use FastAPI and Postgres" kept FastAPI only; "…gluten-free flour obviously"
    keyed the "obviously"."""
    assert keyed("Please don't use exclamation marks in your replies.")[0][:3] == (
        "upsert",
        "constraint",
        "rule-exclamation-marks",
    )
    assert keyed("Don't use bullet points in your answers.")[0][2] == "reply-format"
    assert keyed("Don't use emojis in your replies.")[0][2] == "reply-emoji"
    # One rule in either language (the lexicon names what it keeps out).
    for message in ("以后回答别用感叹号。", "回复里不要用感叹号。"):
        assert keyed(message)[0][2] == "rule-exclamation-marks", message
    assert (
        keyed("回答的时候别用太多专业术语。")[0][2] == keyed("Don't use jargon in your answers.")[0][2] == "rule-jargon"
    )
    degree = keyed("I'm doing a master's in education part-time.")
    assert degree == [("upsert", "goal", "goal-master-s", "Is doing a master's in education part-time")]
    assert keyed("I finished my master's!")[0][:3] == ("delete", "goal", "goal-master-s")
    assert [key for _, _, key, _ in keyed("I mostly use FastAPI and Postgres.")] == [
        "preference-fastapi",
        "preference-postgres",
    ]
    assert keyed("I switched to gluten-free flour obviously.")[0][2] == "preference-gluten-free-flour"


def test_a_pregnancys_details_and_a_students_school_year_and_admission_are_kept() -> None:
    """R-READ-6 (seventeenth probe): 「我有妊娠糖尿病」 and 「医生让我补充叶酸」 stored nothing (a condition and a
    medication of a pregnancy, both core); 「我怀孕了，预产期是明年三月」 lost the due date; 「我今年高三，准备高考」 stored a
    hashed goal only and 「我被浙大录取了」, "I got into Stanford" nothing; 「我被公司的HR录用了」 is no school."""
    assert keyed("我有妊娠糖尿病。") == [("upsert", "fact", "health-diabetes", "有妊娠糖尿病")]
    assert keyed("医生让我补充叶酸。") == [("upsert", "fact", "medication-folic-acid", "医生让我补充叶酸")]
    assert keyed("I take folic acid.")[0][2] == "medication-folic-acid"
    assert keyed("我怀孕了，预产期是明年三月。") == [("upsert", "fact", "health-pregnancy", "怀孕了，预产期是明年三月")]
    assert keyed("I'm pregnant, due in March.")[0][3] == "Is pregnant, due in March"
    assert keyed("我今年高三，准备高考。") == [
        ("upsert", "fact", "school", "在读高三"),
        ("upsert", "goal", "goal-gaokao", "准备高考"),
    ]
    assert keyed("我被浙大录取了。") == [("upsert", "fact", "school", "被浙大录取")]
    assert keyed("I got into Stanford.") == [("upsert", "fact", "school", "Admitted to Stanford")]
    assert keyed("我被公司的HR录用了") == []


def test_a_rule_that_names_nothing_is_no_rule() -> None:
    """R-TYPE-3 (seventeenth probe): 「以后别这样」, 「以后帮我记住」 (asked or said) and "Don't talk about that with me"
    were stored as standing rules on every reply, naming nothing (this, that, remember what?)."""
    for message in (
        "以后别这样",
        "以后帮我记住",
        "能不能以后别这样？",
        "以后别这样了",
        "Don't talk about that with me.",
    ):
        assert keyed(message) == [], message
    assert keyed("以后记得提醒我喝水")[0][2] == "rule-water"


def test_a_plan_decided_against_prediabetes_and_a_job_by_its_letters_are_read() -> None:
    """R-WRITE-2, R-READ-6 (seventeenth probe): 「我们决定不回国了」 and "We decided not to move back after all" kept the goal;
    「医生说我是糖尿病前期」 and "I have prediabetes" stored nothing; "Please don't bring up the miscarriage" was no rule;
    「我在Google上班，做SRE」 lost the job."""
    home = ExistingMemory(1, "goal-hfb698cd", "goal", "我们打算明年回国")
    assert refined("我们决定不回国了。", [home]) == [("delete", "goal", "goal-hfb698cd")]
    back = ExistingMemory(2, "goal-move-back-china", "goal", "Plans to move back to China next year")
    assert refined("We decided not to move back after all.", [back]) == [("delete", "goal", "goal-move-back-china")]
    assert refined("我们决定不回国了。", []) == []
    assert keyed("医生说我是糖尿病前期。") == [("upsert", "fact", "health-prediabetic", "是糖尿病前期")]
    assert keyed("I have prediabetes.")[0][2] == "health-prediabetic"
    assert keyed("Please don't bring up the miscarriage.")[0][1] == "constraint"
    assert ("occupation", "职业：SRE") in [(key, content) for _, _, key, content in keyed("我在Google上班，做SRE。")]
    assert "occupation" not in [key for _, _, key, _ in keyed("我周末做饭")]


def test_a_households_diet_is_the_users() -> None:
    """R-READ-6 (seventeenth probe): "We're vegetarian", "We don't eat pork", "Our family keeps kosher" and
    「我们家不吃猪肉」 stored nothing (the rules read "I" and 我), so a recipe could bring pork to a kosher home. What the
    household eats or keeps from is the user's; "We don't eat out much" (nor "I don't eat out much") is no food."""
    assert keyed("We're vegetarian.") == [("upsert", "fact", "diet", "Is vegetarian")]
    assert keyed("We don't eat pork.") == [("upsert", "preference", "food-pork", "Doesn't eat pork")]
    assert keyed("Our family keeps kosher.") == [("upsert", "fact", "diet-kosher", "Keeps kosher")]
    assert keyed("我们家不吃猪肉。") == [("upsert", "preference", "food-pork", "不吃猪肉")]
    for message in ("We don't eat out much.", "I don't eat out much.", "He keeps crying."):
        assert keyed(message) == [], message
    # No food either: the hour of the household's dinner is kept as the user said it (`lasting.py`).
    assert keyed("We eat dinner at 6.") == [("upsert", "fact", "said-eat-dinner-6", "Eats dinner at 6")]


def test_an_introduction_in_one_message_keeps_each_fact() -> None:
    """R-TYPE-2 (seventeenth probe): "I'm Maya, 34, a pediatric nurse in Chicago." lost the job (a name and an age
    said first; both stay unstored, R-TYPE-3); "I'm vegan, allergic to tree nuts, and …" put the allergy inside the
    diet's text; 「我们有个女儿两岁了」 stored nothing."""
    assert [key for _, _, key, _ in keyed("I'm Maya, 34, a pediatric nurse in Chicago.")] == ["occupation", "work-city"]
    assert keyed("I'm vegan, allergic to tree nuts, and I'm training for my first triathlon in August.")[:2] == [
        ("upsert", "fact", "diet", "Is vegan"),
        ("upsert", "fact", "allergy-tree-nut", "Is allergic to tree nuts"),
    ]
    assert keyed("Allergic to cats.") == [("upsert", "fact", "allergy-cat", "Is allergic to cats")]
    assert keyed("我们有个女儿两岁了") == [("append", "fact", "family-children", "我们有个女儿两岁了")]
    assert keyed("我没有个孩子") == []


def test_sources_no_longer_needed_end_the_rule_asking_for_them() -> None:
    """R-WRITE-2 (seventeenth probe): "You don't need to cite sources anymore" and "You can stop citing sources" left
    "Please always cite sources" on every reply."""
    sources = ExistingMemory(1, "reply-sources", "constraint", "Please always cite sources")
    for message in ("You don't need to cite sources anymore.", "You can stop citing sources."):
        assert refined(message, [sources]) == [("delete", "constraint", "reply-sources")], message
    bullets = ExistingMemory(2, "reply-format", "constraint", "Always answer in bullet points")
    assert refined("You can stop using bullet points.", [bullets]) == [("delete", "constraint", "reply-format")]


def test_no_need_to_worry_retires_nothing() -> None:
    """R-DATA-6 (left by the sixteenth probe): 「不用担心了」, 「不用谢了」 read 不用 as "no longer use" and recorded an
    inactive retraction of a taste no memory held (noise in the history); 「我不用微信了」 still retires WeChat."""
    for message in ("不用担心了", "不用谢了", "我现在不用担心了", "我不用麻烦你了"):
        assert [op for op, _, key, _ in keyed(message) if not key.startswith(("rule-", "reply-"))] == [], message
        assert refined(message, []) == [], message
    assert keyed("我不用微信了") == [("delete", "preference", "app-wechat", "不用微信了")]


def test_sleeping_during_the_day_is_the_bedtime() -> None:
    """R-WRITE-2 (left by the sixteenth probe): 「我上夜班，白天睡觉」 and 「我现在白天睡觉」 kept a night-time bedtime held
    (no statement of the slot); sleeping by day is the bedtime now, in either language."""
    assert keyed("我上夜班，白天睡觉")[1] == ("upsert", "preference", "preference-bedtime", "白天睡觉")
    assert keyed("I sleep during the day now.") == [
        ("upsert", "preference", "preference-bedtime", "Sleeps during the day now")
    ]


def test_what_an_intolerance_allows_is_kept_with_it_in_more_words() -> None:
    """R-READ-6 (seventeenth probe): 「我乳糖不耐受，但是能喝酸奶」 stored the allowance as a taste of its own (能 was no
    word of an allowance), and "I can't have gluten, but oats are fine" lost the oats."""
    assert keyed("我乳糖不耐受，但是能喝酸奶。") == [
        ("upsert", "fact", "health-lactose-intolerance", "乳糖不耐受，但能喝酸奶")
    ]
    assert keyed("I can't have gluten, but oats are fine.") == [
        ("upsert", "fact", "sensitivity-gluten", "Can't have gluten but oats are fine")
    ]
    assert keyed("I love pizza, but it's fine.") == [("upsert", "preference", "food-pizza", "Loves pizza")]


def test_reply_rules_in_more_english_words_are_kept_on_their_slots() -> None:
    """R-TYPE-2 (seventeenth probe): "Please stop saying 'great question'", "No more than three bullet points,
    please" and "Whenever I ask about recipes, make them vegetarian" stored nothing; "I'd rather you didn't use
    emojis" was a rule beside the emoji slot; "I prefer you answer in English" also stored a liking of English."""
    assert keyed("Please stop saying 'great question'.")[0][1] == "constraint"
    assert keyed("No more than three bullet points, please.")[0][:3] == ("upsert", "constraint", "reply-length")
    assert keyed("Whenever I ask about recipes, make them vegetarian.")[0][:3] == (
        "upsert",
        "constraint",
        "rule-recipes",
    )
    assert keyed("When you recommend restaurants, keep it cheap.")[0][1] == "constraint"
    assert [key for _, _, key, _ in keyed("I'd rather you didn't use emojis.")] == ["reply-emoji"]
    assert [key for _, _, key, _ in keyed("I prefer you answer in English.")] == ["reply-language"]
    # 「我问菜谱的时候，都按素食来」 was the user's core diet 「都按素食来」: a rule for recipes, not a diet.
    assert keyed("我问菜谱的时候，都按素食来。") == [
        ("upsert", "constraint", "rule-recipes", "问菜谱的时候，都按素食来")
    ]


def test_a_pet_lost_among_several_is_added_not_the_others_ended() -> None:
    """R-WRITE-2, R-DATA-6 (seventeenth probe): "Max died last month" deleted "Has two dogs, Max and Bella", and
    「团团去世了」 the fact of both cats: the loss of one animal ended the others. Where the pet fact holds more than
    one, the loss is added to it; a pet held alone is still ended. A trip to one of two places wished for, likewise."""
    dogs = ExistingMemory(1, "pet-dog", "fact", "Has two dogs, Max and Bella")
    assert refined("Max died last month.", [dogs]) == [("append", "fact", "pet-dog")]
    cats = ExistingMemory(2, "pet-cat", "fact", "我家有两只猫，叫团团和圆圆")
    assert refined("团团上个月去世了。", [cats]) == [("append", "fact", "pet-cat")]
    rex = ExistingMemory(3, "pet-dog", "fact", "Has a dog named Rex")
    assert refined("Rex passed away.", [rex]) == [("delete", "fact", "pet-dog")]
    # The same for an item listed with another: a trip to one of two places ends no wish to see the other.
    trips = ExistingMemory(4, "goal-japan-korea", "goal", "Wants to visit Japan and Korea")
    assert refined("I finally went to Japan.", [trips]) == [("append", "goal", "goal-japan-korea")]
    trips_zh = ExistingMemory(5, "goal-h1", "goal", "想去日本和韩国旅游")
    assert refined("我上个月去了日本", [trips_zh]) == [("append", "goal", "goal-h1")]
    japan = ExistingMemory(6, "goal-japan", "goal", "Wants to visit Japan")
    assert refined("I finally went to Japan.", [japan]) == [("delete", "goal", "goal-japan")]
    # And a taste retired under another key (a tool's memory): "Loves milk tea and coffee" keeps the coffee.
    drinks = ExistingMemory(7, "drink-tool", "preference", "Loves milk tea and coffee")
    assert refined("I don't drink milk tea anymore.", [drinks]) == [("append", "preference", "drink-tool")]


def test_a_group_left_ends_the_activity_and_a_kind_of_book_read_is_a_liking() -> None:
    """R-WRITE-2 (seventeenth probe): "I quit the band" left "Plays bass in a band on weekends"; "I mostly read
    non-fiction" stored nothing."""
    band = ExistingMemory(1, "preference-bass-band", "preference", "Plays bass in a band on weekends")
    assert refined("I quit the band.", [band]) == [("delete", "preference", "preference-bass-band")]
    assert refined("I quit the band.", []) == []
    assert keyed("I mostly read non-fiction.") == [
        ("upsert", "preference", "preference-non-fiction", "Mostly reads non-fiction")
    ]
    assert keyed("I left the office early.") == []


def test_a_child_named_in_a_list_is_that_child() -> None:
    """R-READ-6 (seventeenth probe): after "I have 2 kids: Emma (7) and Jack (4)", "Jack is allergic to peanuts" was
    the user's own core allergy (and, with a name's allergy no longer read, nothing). A name from a list of children
    opens a clause said of that child; "she" after the list means no one."""
    after_list = ("I have 2 kids: Emma (7) and Jack (4).",)
    assert keyed("Jack is allergic to peanuts.", recent=after_list) == [
        ("append", "fact", "family-children", "Child Jack is allergic to peanuts")
    ]
    assert keyed("She loves drawing.", recent=after_list) == []
    assert [c for _, _, _, c in keyed("My kids Emma and Jack love soccer. Emma is 7.")] == [
        "Kids Emma and Jack love soccer; Child Emma is 7"
    ]
    assert keyed("Sam loves cats.", recent=("My friend Sam is a nurse.",)) == []


def test_a_goal_reached_by_its_words_and_a_retake_with_no_object() -> None:
    """R-WRITE-2 (seventeenth probe): 「车买了」 and 「我提车了」 kept 「正在存钱买车」; 「我打算12月再考一次」 in a turn of its own
    was a goal keyed `goal-12-…` (take what again?); 「接下来想考N1」 stored nothing."""
    car = ExistingMemory(1, "goal-car", "goal", "正在存钱买车")
    for message in ("车买了，买的是比亚迪。", "我提车了", "我买车了"):
        assert ("delete", "goal", "goal-car") in refined(message, [car]), message
    assert keyed("我打算12月再考一次。") == []
    assert keyed("我在准备PMP考试，打算明年上半年考")[0][3] == "在准备PMP考试；打算明年上半年考"
    assert keyed("接下来想考N1。") == [("upsert", "goal", "goal-jlpt-n1", "接下来想考N1")]


def test_a_diagnosis_a_named_drug_a_low_salt_order_and_a_diet_done_are_read() -> None:
    """R-READ-6 (seventeenth probe): "I've been diagnosed with high blood pressure" stored nothing (the 've form never
    matched), nor "My doctor put me on lisinopril", "I'm supposed to cut back on salt" or "I'm doing keto"."""
    assert keyed("I've been diagnosed with high blood pressure.")[0][:3] == ("upsert", "fact", "health-hypertension")
    assert keyed("My doctor put me on lisinopril.")[0][:3] == ("upsert", "fact", "medication-lisinopril")
    assert keyed("I'm supposed to cut back on salt.")[0][:3] == ("upsert", "fact", "diet-low-salt")
    assert keyed("I'm doing keto.") == [("upsert", "fact", "diet-keto", "Is doing keto")]
    assert keyed("I'm doing great.") == []
    for message in ("I've been diagnosed with high blood pressure.", "I'm supposed to cut back on salt."):
        (candidate,) = extract(message)
        assert is_core_memory(candidate.memory_type, candidate.key, candidate.content), message


def test_ive_got_forms_are_read_as_have() -> None:
    """R-WRITE-2 (seventeenth probe): four rules wrote "I 've got" (a space after I), so "I've got a dog named Rex",
    "We've got two cats", "I've just adopted a puppy" and "I've got a gluten intolerance" stored nothing (the labeled
    holdout en-h013, "I've got a golden retriever named Biscuit", was one of the 294 set's misses)."""
    assert keyed("I've got a dog named Rex.")[0][:3] == ("upsert", "fact", "pet-dog")
    assert keyed("We've got two cats.")[0][:3] == ("upsert", "fact", "pet-cat")
    assert keyed("I've just adopted a puppy.")[0][:3] == ("upsert", "fact", "pet-dog")
    assert keyed("I've got a gluten intolerance.")[0][:3] == ("upsert", "fact", "health-gluten-intolerance")


def test_what_a_trait_rules_out_right_after_it_is_a_rule() -> None:
    """R-READ-6 (seventeenth probe): 「我晕车，出去玩别安排太远的自驾」 and "I get seasick easily, so no boat trips" kept the
    trait without the rule that follows from it (only a health fact's was read), and "I have a bad knee, so no running"
    the condition without "no running"; 「我有密集恐惧症」, "I'm claustrophobic", 「我近视800度」 stored nothing.
    "…, so no problem" is no rule."""
    assert [key for _, _, key, _ in keyed("我晕车，出去玩别安排太远的自驾。")] == [
        "trait-motion-sickness",
        "rule-h44b02f1",
    ]
    assert keyed("I get seasick easily, so no boat trips.")[1] == (
        "upsert",
        "constraint",
        "rule-boat-trips",
        "No boat trips",
    )
    assert keyed("I have a bad knee, so no running.") == [
        ("upsert", "fact", "health-bad-knees", "Has a bad knee"),
        ("upsert", "constraint", "rule-running", "No running"),
    ]
    assert [key for _, _, key, _ in keyed("I'm left-handed, so no problem.")] == ["trait-left-handed"]
    assert keyed("I'm claustrophobic.")[0][2] == keyed("我有幽闭恐惧症")[0][2] == "trait-claustrophobia"
    assert keyed("我有密集恐惧症。")[0][2] == "trait-trypophobia"
    assert keyed("我近视800度。")[0][2] == "trait-nearsighted"


def test_a_name_after_a_correction_lead_is_the_family_members() -> None:
    """R-WRITE-2 (eighteenth probe): 「不对，她叫小虹」 and "Sorry, her name is Hanna" after the wife was named stored
    nothing: a name clause was read as naming the clause before it in the sentence, here a bare correction lead.
    After a lead alone, "she" is the family member of the turn before, as in a turn of its own."""
    assert keyed("不对，她叫小虹，彩虹的虹。", recent=("我老婆叫小红。",))[0][2:] == (
        "family-partner",
        "老婆叫小虹；彩虹的虹",
    )
    assert keyed("Sorry, her name is Hanna.", recent=("My wife's name is Anna.",)) == [
        ("append", "fact", "family-partner", "Wife's name is Hanna")
    ]
    assert keyed("我有个女儿，她叫小雨。")[0][3] == "有个女儿，叫小雨"
    assert keyed("不对劲。", recent=("我老婆叫小红。",)) == []


def test_a_food_a_vegetarian_diet_keeps_from_taken_up_qualifies_the_diet() -> None:
    """R-READ-6 (eighteenth probe): 「我是素食者」 then 「最近开始吃鱼了」 kept 「是素食者」 alone, a core memory saying the user
    keeps from fish they now eat (吃鱼 was not read at all); "I started eating fish again, so pescatarian now" kept
    "Is vegetarian" (the bare diet was not read); 「算是鱼素吧」 stored nothing. The food taken up is appended to the
    held diet that keeps from it; a diet stated in the turn replaces it."""
    vegetarian = ExistingMemory(1, "diet", "fact", "是素食者")
    refined = ENGINE.refine(extract("我最近开始吃鱼了。"), [vegetarian])
    assert [(c.op, c.target_key, c.content) for c in refined if c.target_key == "diet"] == [
        ("append", "diet", "最近开始吃鱼了")
    ]
    pescatarian = ExistingMemory(2, "diet", "fact", "Is pescatarian")
    assert [c for c in ENGINE.refine(extract("I started eating fish again."), [pescatarian]) if c.key == "diet"] == []
    assert [c for c in ENGINE.refine(extract("I started eating meat again."), [pescatarian]) if c.key == "diet"]
    stated = extract("I started eating fish again, so pescatarian now.")
    assert [(c.key, c.content) for c in stated] == [
        ("food-fish", "Started eating fish again"),
        ("diet", "Is pescatarian now"),
    ]
    assert [c.op for c in ENGINE.refine(stated, [vegetarian]) if c.key == "diet"] == ["upsert"]
    assert keyed("算是鱼素吧。") == [("upsert", "fact", "diet", "算是鱼素")]
    assert keyed("I'm basically pescatarian now.")[0][2] == "diet"
    assert keyed("Vegetarian options are great.") == []


def test_reply_language_following_the_users_and_a_language_rule_taken_back() -> None:
    """R-TYPE-2 (eighteenth probe): "Reply in whatever language I write in" and 「我用什么语言你就用什么语言回复」 stored
    nothing (什么 read as a question); "You don't have to answer in English anymore" was stored as the English rule
    itself, and "I don't reply in English to my boss" as a rule for the assistant."""
    assert keyed("Reply in whatever language I write in.") == [
        ("upsert", "constraint", "reply-language", "Reply in whatever language I write in")
    ]
    assert keyed("我用什么语言你就用什么语言回复。")[0][2] == "reply-language"
    assert keyed("跟我用一样的语言回复就行。")[0][2] == "reply-language"
    assert keyed("You don't have to answer in English anymore.")[0][:3] == ("delete", "constraint", "reply-language")
    assert keyed("You can stop replying in English.")[0][0] == "delete"
    assert keyed("Stop replying in English, use Chinese.")[0][:3] == ("upsert", "constraint", "reply-language")
    assert keyed("I don't reply in English to my boss.") == []
    assert keyed("你想吃什么就吃什么。") == []


def test_a_pet_adopted_also_and_a_gym_on_named_weekdays_are_read() -> None:
    """R-WRITE-2 (eighteenth probe): "We also just adopted a puppy called Bean" and "I go to the gym every Monday and
    Thursday" stored nothing: "also" broke the pet rule, and named weekdays were no frequency."""
    assert keyed("We also just adopted a puppy called Bean.")[0][:3] == ("upsert", "fact", "pet-dog")
    assert keyed("I go to the gym every Monday and Thursday.") == [
        ("upsert", "preference", "sport-gym", "Goes to the gym every Monday and Thursday")
    ]
    assert keyed("I now go to the gym on Tuesdays and Fridays.")[0][2] == "sport-gym"
    assert keyed("I play tennis every Monday, Wednesday and Friday.")[0][2] == "sport-tennis"


def test_an_allergy_corrected_to_another_allergen_moves_to_it() -> None:
    """R-READ-6 (eighteenth probe): 「后来检查发现其实不是青霉素过敏，是头孢过敏」 after 「我对青霉素过敏」 kept the penicillin
    allergy and lost the cephalosporin one (「不是X过敏」 and 「是X过敏」 were read by no rule); "I'm not allergic to
    penicillin, it's cephalosporins" took the whole rest as the item; "I'm allergic to cephalosporins, not penicillin"
    kept the penicillin allergy. The wrong allergy is taken back if held, the right one written."""
    penicillin = ExistingMemory(1, "allergy-penicillin", "fact", "对青霉素过敏")
    for message in (
        "后来检查发现其实不是青霉素过敏，是头孢过敏。",
        "其实不是青霉素过敏，是头孢。",
        "我对头孢过敏，不是青霉素。",
        "I'm not allergic to penicillin, it's cephalosporins.",
        "I'm allergic to cephalosporins, not penicillin.",
    ):
        assert sorted((c.op, c.target_key) for c in ENGINE.refine(extract(message), [penicillin])) == [
            ("delete", "allergy-penicillin"),
            ("upsert", "allergy-cephalosporins"),
        ], message
        assert [c.target_key for c in ENGINE.refine(extract(message), [])] == ["allergy-cephalosporins"], message
    # A denial's reason names no allergen.
    assert [c.op for c in ENGINE.refine(extract("其实我对青霉素不过敏，是误诊"), [penicillin])] == ["delete"]
    assert keyed("I'm allergic to peanuts, it's serious.") == [
        ("upsert", "fact", "allergy-peanut", "Is allergic to peanuts")
    ]


def test_a_rule_for_the_assistants_code_and_its_lifting_are_read() -> None:
    """R-TYPE-2 (eighteenth probe): 「代码请加注释」 stored nothing, and 「算了，代码不用加注释了」 ended no rule."""
    assert keyed("代码请加注释。") == [("upsert", "constraint", "rule-code-comments", "代码请加注释")]
    rule = ExistingMemory(1, "rule-code-comments", "constraint", "代码请加注释")
    lifted = ENGINE.refine(extract("算了，代码不用加注释了。"), [rule])
    assert ("delete", "rule-code-comments") in [(c.op, c.target_key) for c in lifted]
    assert {c.op for c in lifted} == {"delete"}


def test_a_bedtime_ends_the_sleep_habit_its_hour_contradicts() -> None:
    """R-WRITE-2 (eighteenth probe): 「我是夜猫子」 then 「最近改作息了，每天十一点就睡」 left "is a night owl" beside the
    11pm bedtime. A bedtime in the evening ends a held night-owl habit, one in the small hours a held early-riser
    habit; a bedtime with no hour, or at midnight, ends neither."""
    owl = ExistingMemory(1, "habit-staying-up-late", "preference", "是夜猫子")
    early = ExistingMemory(2, "habit-early-rising", "preference", "Is an early bird")
    for message in ("最近改作息了，每天十一点就睡。", "I go to bed at 10:30 pm now.", "我每天晚上十点睡觉。"):
        assert ("delete", "preference", "habit-staying-up-late") in refined(message, [owl, early]), message
        assert ("delete", "preference", "habit-early-rising") not in refined(message, [owl, early]), message
    for message in ("我一般晚上一点才睡。", "I go to bed at 2am."):
        assert ("delete", "preference", "habit-early-rising") in refined(message, [owl, early]), message
    assert refined("我十二点睡。", [owl, early]) == [("upsert", "preference", "preference-bedtime")]
    assert refined("每天十一点就睡。", []) == [("upsert", "preference", "preference-bedtime")]


def test_an_editor_switched_to_ends_the_held_one_and_devices_listed_are_each_kept() -> None:
    """R-WRITE-2 (eighteenth probe): "I switched to Neovim last month" (no "from") kept "Uses VS Code"; "I use a
    MacBook for work and a Windows PC for gaming" and "I use a MacBook and an iPad" kept the MacBook only."""
    vscode = ExistingMemory(1, "preference-vs-code", "preference", "Uses VS Code")
    assert sorted(refined("I switched to Neovim last month.", [vscode])) == [
        ("delete", "preference", "preference-vs-code"),
        ("upsert", "preference", "preference-neovim"),
    ]
    assert refined("I switched to Neovim last month.", []) == [("upsert", "preference", "preference-neovim")]
    assert refined("I also use Neovim.", [vscode]) == [("upsert", "preference", "preference-neovim")]
    assert [(c.key, c.content) for c in extract("I use a MacBook for work and a Windows PC for gaming.")] == [
        ("device-mac", "Uses MacBook for work"),
        ("device-windows", "Uses Windows PC for gaming"),
    ]
    assert [(c.key, c.content) for c in extract("I use a MacBook and an iPad.")] == [
        ("device-mac", "Uses MacBook"),
        ("device-ipad", "Uses iPad"),
    ]


def test_a_birth_takes_the_pregnancy_out_of_the_partners_fact() -> None:
    """R-READ-6 (eighteenth probe): 「我老婆怀孕了，预产期是明年三月」 then 「宝宝出生了」 left the wife pregnant on every
    reply (the birth ended only the user's own pregnancy); 「我们的宝宝出生了」 was read as nothing. The parts saying
    the pregnancy leave the partner's fact (all of it when nothing else is left), marked as narrowing it on purpose."""
    partner = ExistingMemory(1, "family-partner", "fact", "老婆叫小红；是个老师；老婆怀孕了")
    ended = [c for c in ENGINE.refine(extract("我们的宝宝出生了。"), [partner]) if c.key == "family-partner"]
    assert [(c.op, c.content, c.narrows) for c in ended] == [("upsert", "老婆叫小红；是个老师", True)]
    only_pregnant = ExistingMemory(2, "family-partner", "fact", "Wife is pregnant; due in March")
    assert ("delete", "fact", "family-partner") in refined("My wife gave birth to our son.", [only_pregnant])
    named = ExistingMemory(3, "family-partner", "fact", "老婆叫小红")
    assert [c.key for c in ENGINE.refine(extract("宝宝出生了，是个女儿！"), [named])] == [
        "health-pregnancy",
        "family-children",
    ]


def test_a_car_make_named_in_chinese_is_the_vehicle() -> None:
    """R-WRITE-2 (eighteenth probe): 「我刚买了辆车，买的是比亚迪」 stored no vehicle, and 「开了半年，换成特斯拉了」 was a
    liking keyed `preference-h3f426f9`. A make named after 买的是 / 换成 / 开 is the user's vehicle."""
    assert keyed("我刚买了辆车，买的是比亚迪。") == [("upsert", "fact", "vehicle", "买的是比亚迪")]
    assert keyed("开了半年，换成特斯拉了。") == [("upsert", "fact", "vehicle", "换成特斯拉了")]
    assert keyed("换成Tesla了。") == [("upsert", "fact", "vehicle", "换成Tesla了")]
    assert keyed("我换成咖啡了。")[0][2] == "drink-coffee"


def test_a_wish_to_quit_with_no_object_is_the_goal_to_quit_what_came_before() -> None:
    """R-WRITE-2 (eighteenth probe): 「我每天喝三杯咖啡，最近想戒掉」 kept a goal keyed `goal-hdd73235` "最近想戒掉" (quit
    what?), 「我抽烟，一直想戒」 no goal, "I smoke, but I'm trying to quit" `goal-quit`. The wish is the goal to quit the
    food, drink or habit just said, keyed as 「我想戒咖啡」 is; with nothing before it, no goal."""
    assert keyed("我每天喝三杯咖啡，最近想戒掉。")[1] == ("upsert", "goal", "goal-coffee", "最近想戒掉咖啡")
    assert keyed("我抽烟，一直想戒。")[1] == ("upsert", "goal", "goal-smoking", "一直想戒烟")
    assert keyed("I smoke, but I'm trying to quit.")[1] == (
        "upsert",
        "goal",
        "goal-smoking",
        "Is trying to quit smoking",
    )
    assert keyed("I smoke. I want to quit it soon.")[1][2:] == ("goal-smoking", "Wants to quit smoking soon")
    assert keyed("我想戒咖啡。")[0][2] == keyed("我每天喝三杯咖啡，最近想戒掉。")[1][2]
    assert keyed("I'm trying to quit.") == []
    assert keyed("最近想戒掉。") == []


def test_a_shorter_or_longer_reply_asked_for_is_the_reply_style() -> None:
    """R-TYPE-2 (eighteenth probe): 「回答短一点」 stored nothing where 「回答简洁一点」 was the reply style."""
    assert keyed("回答短一点。") == [("upsert", "preference", "reply-style", "回答短一点")]
    assert keyed("回复长一点")[0][2] == "reply-style"
    assert keyed("回答短期内的问题") == []


@pytest.mark.parametrize(
    "message",
    [
        "My best friend is allergic to shellfish.",
        "My close friend is allergic to shellfish.",
        "A friend of mine is vegan.",
        "我最好的朋友对花生过敏。",
        "我闺蜜对芒果过敏。",
        "我好朋友是素食者。",
    ],
)
def test_a_best_friends_allergy_is_not_the_users(message: str) -> None:
    """R-READ-6 (eighteenth probe): "My best friend is allergic to shellfish" was stored as the user's core
    `allergy-shellfish` ("best" hid the friend), and 「我闺蜜对芒果过敏」 the user's mango allergy. A friend said with
    an adjective, or in other words, is someone else."""
    assert keyed(message) == []


def test_where_the_user_is_right_after_leaving_a_job_is_the_new_employer() -> None:
    """R-WRITE-2 (eighteenth probe): "Actually I left Stripe, I'm at Databricks now" ended the employer and stored
    none; "I'm at Starbucks now" said alone is a place, no employer."""
    assert ("upsert", "fact", "employer", "Works at Databricks") in keyed(
        "Actually I left Stripe, I'm at Databricks now."
    )
    assert keyed("I'm at Starbucks now.") == []


def test_a_short_quoted_phrase_is_what_a_rule_is_about() -> None:
    """R-TYPE-2 (eighteenth probe): 'Never start your answer with "Great question"' stored nothing: a quoted text of
    two words was removed as a sentence, and "never start your answer with" was no rule. A quoted phrase of up to
    three words without the user's "I" stays; "Translate "I love you" into French" states nothing."""
    assert keyed('Also, never start your answer with "Great question".') == [
        ("upsert", "constraint", "rule-start-answer-great-question", 'Never start your answer with "Great question"')
    ]
    assert keyed('Please stop saying "great question".')[0][2] == "rule-saying-great-question"
    assert keyed('Translate "I love you" into French.') == []
    assert keyed("Don't start with that.") == []


def test_a_goals_detail_said_in_the_next_turn_goes_with_the_goal() -> None:
    """R-WRITE-2 (eighteenth probe): "My goal is to finish under four hours" the turn after "I'm training for a
    marathon in April" was a goal of its own (`goal-under-four-hours`), left when the marathon was done; said in one
    message the two were one goal. The detail is appended to the goal of the turn before."""
    assert keyed("My goal is to finish under four hours.", recent=("I'm training for a marathon in April.",)) == [
        ("append", "goal", "goal-marathon", "goal is to finish under four hours")
    ]
    assert keyed("My goal is to finish under four hours.", recent=("I love jazz.",))[0][:3] == (
        "upsert",
        "goal",
        "goal-under-four-hours",
    )


def test_a_language_learned_said_in_chinese_is_keyed_as_in_english() -> None:
    """R-WRITE-2 (eighteenth probe): 「我在学法语」 was `goal-hc50fca2` where "I'm learning French" is goal-french."""
    assert keyed("我在学法语。")[0][2] == keyed("I'm learning French.")[0][2] == "goal-french"
    assert keyed("我想学韩语。")[0][2] == keyed("I want to learn Korean.")[0][2] == "goal-korean"
    assert keyed("I love French food.")[0][2] == "preference-french-food"


def test_a_drug_named_first_as_stopped_ends_the_medication() -> None:
    """R-READ-6 (eighteenth probe): 「医生说血压控制得不错，降压药停了」 kept 「在吃降压药」 on every reply; only
    「我停了降压药」 (the verb first) ended it."""
    held = ExistingMemory(1, "medication-blood-pressure-medication", "fact", "在吃降压药")
    assert refined("医生说血压控制得不错，降压药停了。", [held]) == [
        ("delete", "fact", "medication-blood-pressure-medication")
    ]
    assert keyed("二甲双胍已经不吃了")[0][:3] == ("delete", "fact", "medication-metformin")


def test_a_goal_reached_said_without_its_object_after_the_goal_ends_it() -> None:
    """R-WRITE-2 (eighteenth probe): 「考上了！」 the turn after 「我在准备考研」, "I passed!" after "I'm studying for the bar
    exam" and 「减肥成功了」 left the goal held. Said right after the goal (the turn before, or this message), a
    reaching with no object ends that goal where held; after anything else it ends nothing."""
    assert keyed("考上了！九月入学。", recent=("我在准备考研，目标是浙大计算机。",))[0][:3] == (
        "delete",
        "goal",
        "goal-grad-school-exam",
    )
    assert keyed("I passed!", recent=("I'm studying for the bar exam.",))[0][:3] == ("delete", "goal", "goal-bar-exam")
    assert keyed("I passed!", recent=("I love jazz.",)) == []
    assert keyed("减肥成功了，现在正常吃了。")[0][:3] == ("delete", "goal", "goal-weight-loss")
    # A goal's detail in the next sentence of one message goes with it, as in one sentence.
    assert keyed("I'm training for a marathon. My goal is to finish under four hours.") == [
        ("upsert", "goal", "goal-marathon", "Is training for a marathon; goal is to finish under four hours")
    ]


def test_a_day_shift_switched_to_and_terms_kept_in_english_are_read() -> None:
    """R-WRITE-2, R-TYPE-2 (eighteenth probe): 「我换成白班了」 was a liking keyed `preference-h53b1595` beside 「上夜班」,
    and 「技术术语可以保留英文」 after a reply-language rule stored nothing."""
    assert keyed("我换成白班了。") == [("upsert", "fact", "work-schedule", "换成白班了")]
    assert keyed("技术术语可以保留英文。") == [("upsert", "constraint", "rule-english-jargon", "专业术语保留英文")]


def test_a_childs_name_said_with_the_family_word_stands_for_the_child_in_the_next_turn() -> None:
    """R-WRITE-2 (eighteenth probe): "Noah has ADHD" after "I have a son named Noah", "Emma is allergic to eggs" after
    "I have a daughter, Emma" and 「小雨对鸡蛋过敏」 after 「我有个女儿叫小雨」 stored nothing (left since the seventeenth:
    only "My son Noah" gave the name). The name said with the family word is that member's."""
    assert keyed("Noah has ADHD.", recent=("I have a son named Noah.",)) == [
        ("append", "fact", "family-children", "Son has ADHD")
    ]
    assert keyed("Emma is allergic to eggs.", recent=("I have a daughter, Emma.",))[0][3] == (
        "Daughter is allergic to eggs"
    )
    assert keyed("小雨对鸡蛋过敏。", recent=("我有个女儿叫小雨。",)) == [
        ("append", "fact", "family-children", "女儿对鸡蛋过敏")
    ]
    assert keyed("Noah has ADHD.") == []


def test_the_day_a_resolution_starts_does_not_make_it_short_term() -> None:
    """R-TYPE-3 (eighteenth probe): 「明天开始我要戒咖啡」 was dropped as a window of tomorrow (left since the seventeenth);
    明天开始 dates the start of a lasting resolution. A plan for tomorrow alone is still short-term."""
    assert keyed("明天开始我要戒咖啡。") == [("upsert", "goal", "goal-coffee", "要戒咖啡")]
    assert keyed("明天我要去北京。") == []
    assert keyed("明天开始下雨。") == []


@pytest.mark.parametrize(
    "message",
    [
        "如果我是素食者，应该怎么补充蛋白质？",
        "要是我怀孕了，就不能喝酒了。",
        "If I were vegan, would I need B12?",
        "My ex was allergic to cats.",
        "我前女友对猫过敏。",
        "Pretend I'm allergic to nuts and suggest a menu.",
        "My patient is allergic to penicillin.",
        "My cat is allergic to chicken.",
    ],
)
def test_a_supposition_or_someone_elses_fact_is_not_the_users(message: str) -> None:
    """R-TYPE-3, R-READ-6 (eighteenth probe): 「如果我是素食者，应该怎么补充蛋白质？」 was stored as the user's core diet
    「如果我是素食者」, 「要是我怀孕了，就不能喝酒了」 as a dislike of alcohol; "My ex was allergic to cats", "My patient is
    allergic to penicillin" and "My cat is allergic to chicken" as the user's allergy; "Pretend I'm allergic to nuts
    and suggest a menu" as two (one keyed `allergy-suggest-menu`). A supposition (and what follows from it in its
    sentence) is not so; an ex, a patient or a pet is not the user."""
    assert keyed(message) == []


def test_an_allergy_wondered_about_is_hedged_and_a_siblings_diet_is_theirs() -> None:
    """R-READ-6 (eighteenth probe): "I wonder if I'm allergic to shellfish" and "I'm not sure if I'm allergic to
    shellfish" were sure core allergies (now hedged, below the confidence floor); 「我姐是素食者，我哥对花生过敏」 was the
    user's diet (我姐 and 我哥 were no family words, as 我妈 is)."""
    for message in ("I wonder if I'm allergic to shellfish.", "I'm not sure if I'm allergic to shellfish."):
        assert [c.confidence < Settings().LONG_TERM_MEMORY_MIN_CONFIDENCE for c in extract(message)] == [True], message
    assert keyed("我姐是素食者，我哥对花生过敏。") == [
        ("append", "fact", "family-siblings", "姐是素食者；哥对花生过敏")
    ]
    assert keyed("我们姐妹们都喜欢火锅。") == keyed("姐妹们都喜欢火锅。")


def test_a_rule_in_the_indicative_after_if_is_still_a_rule() -> None:
    """R-TYPE-2: "If I ask for code, …" is a standing rule, not a supposition."""
    assert keyed("If I ask for code, give me the full file.")[0][1] == "constraint"
    assert keyed("如果下雨就提醒我带伞")[0][1] == "constraint"


@pytest.mark.parametrize(
    "message",
    [
        "吃素对身体好。",
        "听说吃素对身体好。",
        "吃素的人要补充B12。",
        "素食者容易缺铁。",
        "我觉得吃素挺好的。",
        "我儿子的同学对芒果过敏。",
        "我老婆的同事是素食者。",
        "My son's friend is allergic to mangoes.",
        "My wife's boss is vegan.",
    ],
)
def test_a_diet_said_of_people_in_general_or_of_someone_of_someones_is_not_the_users(message: str) -> None:
    """R-READ-6 (eighteenth probe): 「吃素对身体好」, 「素食者容易缺铁」 and 「我觉得吃素挺好的」 were each the user's core diet (the
    diet word was read anywhere in the clause), and 「我儿子的同学对芒果过敏」 / "My son's friend is allergic to mangoes"
    were appended to the son's fact. A diet is the user's when the clause ends on it (or on how long), and someone
    of a family member's is someone else."""
    assert keyed(message) == []


def test_a_diet_said_of_the_user_with_how_long_is_still_read() -> None:
    """R-READ-6: the end-anchored diet keeps every way of saying it of the user, and 「我是吃素的人」 is no hometown."""
    for message in (
        "我吃素很多年了",
        "我从去年开始吃素",
        "我是纯素食者",
        "我吃素三年了",
        "算是鱼素吧",
        "我是吃素的人",
        "我一直吃素的",
    ):
        assert [key for _, _, key, _ in keyed(message)] == ["diet"], message
    assert keyed("My son's name is Leo.")[0][2] == "family-children"


@pytest.mark.parametrize(
    "message", ["对花生过敏的人很多。", "我觉得有高血压的人应该少吃盐。", "有高血压的话要少吃盐。"]
)
def test_a_condition_said_of_people_who_have_it_is_not_the_users(message: str) -> None:
    """R-READ-6 (eighteenth probe): 「对花生过敏的人很多」 was the user's peanut allergy and 「有高血压的话要少吃盐」 the user's
    hypertension: an allergy or a condition followed by 的人 / 的话 / 患者 is said of whoever has it."""
    assert keyed(message) == []


@pytest.mark.parametrize(
    "message",
    [
        "Translate this: I am vegetarian.",
        "Translate to French: I love cats",
        "How do you say: I'm allergic to peanuts",
        "请帮我润色一下：我是一名医生，住在北京。",
        "程序员一般都用Mac。",
    ],
)
def test_a_text_handed_over_or_people_in_general_state_nothing_of_the_user(message: str) -> None:
    """R-TYPE-3 (eighteenth probe): "Translate this: I am vegetarian" stored the user's core diet (the text after the
    colon was read as a statement; a quoted text already was not), and 「程序员一般都用Mac」 the user's Mac."""
    assert keyed(message) == []


def test_a_note_after_a_colon_is_still_the_users() -> None:
    """R-READ-6: only a text handed over to work on is dropped after its colon."""
    assert keyed("Note: I'm allergic to peanuts.")[0][2] == "allergy-peanut"
    assert keyed("我一般用Mac")[0][2] == "device-mac"


def test_everyday_statements_read_in_english_are_read_in_chinese_too() -> None:
    """R-WRITE-2, issue 13.7 (eighteenth probe): the English of each was read, the Chinese stored nothing or a hashed
    key: 「我有个三岁的儿子」 (a modifier before the family word), 「我周一和周五在家办公」, 「比起咖啡我更喜欢茶」, and
    「我在学大提琴」 was `goal-h1e6f3db` where "I'm learning to play the cello" was `goal-play-cello` (now both goal-cello)."""
    assert keyed("我有个三岁的儿子。") == [("append", "fact", "family-children", "有个三岁的儿子")]
    assert keyed("我周一和周五在家办公。") == [("upsert", "fact", "work-location", "周一和周五在家办公")]
    assert keyed("比起咖啡我更喜欢茶。") == [("upsert", "preference", "drink-tea", "比起咖啡我更喜欢茶")]
    assert keyed("我在学大提琴。")[0][2] == keyed("I'm learning to play the cello.")[0][2] == "goal-cello"
    assert keyed("和他比我更喜欢你") == []


def test_likings_formats_and_households_said_in_more_ways_are_read() -> None:
    """R-WRITE-2 (eighteenth probe): "I've gone off sushi" left "Loves sushi"; "Actually, paragraphs are better for long
    explanations" left "Please use bullet points"; "My wife and I have a daughter, Ava" was a fact of the wife's;
    "My girlfriend just moved in with me" left "Lives alone"; 「我和老公结婚十年了」 stored nothing."""
    assert keyed("Actually I've gone off sushi, too much mercury worry.") == [
        ("upsert", "preference", "food-sushi", "Has gone off sushi")
    ]
    assert keyed("Actually, paragraphs are better for long explanations.")[0][2] == "reply-format"
    assert keyed("My wife and I have a daughter, Ava.")[0][2] == "family-children"
    assert keyed("我和老婆有两个孩子")[0][2] == "family-children"
    household = ExistingMemory(1, "household", "fact", "Lives alone")
    assert ("delete", "fact", "household") in refined("My girlfriend just moved in with me.", [household])
    assert ("delete", "fact", "household") in refined("女朋友搬过来和我一起住了", [household])
    assert keyed("我和老公结婚十年了")[0][2] == "family-partner"
    assert keyed("My girlfriend and I love to discover new places to eat.")[0][2] == "family-partner"


def test_another_allergen_said_in_the_turn_after_the_allergy_is_an_allergy() -> None:
    """R-READ-6 (eighteenth probe): "Also pollen in spring." and 「芒果也不行。」 the turn after an allergy stored nothing
    (read only within one message), nor "Also pollen in spring." in the same message (no "too")."""
    assert keyed("Also pollen in spring.", recent=("I'm allergic to dust mites.",)) == [
        ("upsert", "fact", "allergy-pollen", "Is allergic to pollen")
    ]
    assert keyed("芒果也不行。", recent=("我对花生过敏。",))[0][2] == "allergy-mango"
    assert [key for _, _, key, _ in keyed("I'm allergic to dust mites. Also pollen in spring.")] == [
        "allergy-dust-mites",
        "allergy-pollen",
    ]
    assert keyed("Also pollen in spring.", recent=("I love jazz.",)) == []


def test_an_exception_to_a_liking_a_school_year_and_an_ability_are_read_right() -> None:
    """R-WRITE-2 (eighteenth probe): 「不过巧克力例外」 after 「我不喜欢吃甜的」 was lost, and "I don't like sweets, except
    chocolate" stored a liking keyed `preference-except-chocolate`; 「我在北大读研一」 stored no school; 「我能游50米」 was a
    liking keyed `preference-50-h9d16a9a` (能 is a liking only before eating, drinking, taking or using)."""
    assert keyed("不过巧克力例外。", recent=("我不喜欢吃甜的。",)) == [
        ("upsert", "preference", "food-sweets", "不喜欢吃甜的，但巧克力例外")
    ]
    assert keyed("I don't like sweets, except chocolate.") == [
        ("upsert", "preference", "food-sweets", "Doesn't like sweets, except chocolate")
    ]
    assert keyed("我在北大读研一。") == [("upsert", "fact", "school", "在北大读研一")]
    assert keyed("我能游50米。") == []
    assert keyed("我能说三种语言。")[0][2] == "spoken-languages"
    assert keyed("我能吃辣。")[0][2] == "food-spicy-food"
    assert keyed("周末除外。") == []


@pytest.mark.parametrize(
    "message",
    [
        "My doctor asked if I'm allergic to anything.",
        "I'm allergic to Mondays lol.",
        "I was allergic to cats.",
    ],
)
def test_an_allergy_asked_about_joked_about_or_past_is_not_held(message: str) -> None:
    """R-READ-6 (eighteenth probe): "My doctor asked if I'm allergic to anything" was the core `allergy-anything`,
    "I'm allergic to Mondays lol" `allergy-mondays`, and "I was allergic to …" a present allergy."""
    assert keyed(message) == []


def test_an_allergy_outgrown_is_taken_back() -> None:
    """R-READ-6 (eighteenth probe): "I was allergic to penicillin as a kid but outgrew it" was stored as a present
    allergy whose item was "penicillin as a kid but outgrew it"."""
    held = ExistingMemory(1, "allergy-penicillin", "fact", "Is allergic to penicillin")
    assert refined("I was allergic to penicillin as a kid but outgrew it.", [held]) == [
        ("delete", "fact", "allergy-penicillin")
    ]


def test_a_worry_a_condition_ruled_out_and_a_time_word_are_no_diagnosis() -> None:
    """R-READ-6 (eighteenth probe): 「医生说我没有高血压」 was stored as the user's hypertension (有 inside 没有), 「我怕我得了
    糖尿病」 and 「我担心自己有抑郁症」 as sure conditions, and 「我以前有过敏性鼻炎，现在好了」 retired a health fact naming
    「现在」. A condition ruled out is taken back where held; a worry is hedged (under the confidence floor)."""
    held = ExistingMemory(1, "health-hypertension", "fact", "有高血压")
    assert refined("医生说我没有高血压。", [held]) == [("delete", "fact", "health-hypertension")]
    assert refined("医生说我没有高血压。", []) == []
    for message in ("我怕我得了糖尿病。", "我担心自己有抑郁症。"):
        assert all(c.confidence < Settings().LONG_TERM_MEMORY_MIN_CONFIDENCE for c in extract(message)), message
    now = ExistingMemory(2, "health-blood-pressure", "fact", "现在在吃降压药")
    assert refined("我以前有过敏性鼻炎，现在好了。", [now]) == []
    assert keyed("我怕冷。")[0][2] == "trait-sensitive-to-cold"
    # "pre-diabetic" with its hyphen is the prediabetes 「糖尿病前期」 and "prediabetic" name.
    assert (
        keyed("I'm pre-diabetic according to my last test.")[0][2]
        == keyed("我是糖尿病前期")[0][2]
        == "health-prediabetic"
    )


def test_a_faiths_foods_a_recommendation_rule_after_a_comma_and_a_listed_verb_are_read() -> None:
    """R-READ-6, R-TYPE-2 (eighteenth probe): "I'm Muslim, so no pork or alcohol" stored nothing (「我是回族，不吃猪肉」 was
    read); 「以后推荐餐厅的时候，不要推荐太贵的」 stored nothing (with no comma it was a rule); "I don't eat pork or drink
    alcohol" stored "Doesn't eat drink alcohol"."""
    assert keyed("I'm Muslim, so no pork or alcohol.") == [
        ("upsert", "fact", "diet-pork", "Doesn't eat pork for religious reasons"),
        ("upsert", "fact", "diet-alcohol", "Doesn't drink alcohol for religious reasons"),
    ]
    assert keyed("So no pork or alcohol.") == []
    assert keyed("以后推荐餐厅的时候，不要推荐太贵的。") == [
        ("upsert", "constraint", "rule-restaurants", "以后推荐餐厅的时候，不要推荐太贵的")
    ]
    assert keyed("I don't eat pork or drink alcohol.")[1][3] == "Doesn't drink alcohol"


def test_english_words_inside_chinese_and_a_city_after_a_hometown_are_read() -> None:
    """R-WRITE-2, issue 13.7 (eighteenth probe): engineers writing Chinese with English words — 「我在字节做SRE」 stored
    neither the employer nor the job, 「我是vegetarian」 no diet, 「我的IDE是IntelliJ」 no editor; "I'm from 成都, now living
    in Shanghai" lost the city the user lives in ("now" left "living in Shanghai")."""
    assert [key for _, _, key, _ in keyed("我在字节做SRE。")] == ["occupation", "employer"]
    assert keyed("我是vegetarian。") == [("upsert", "fact", "diet", "是vegetarian")]
    assert keyed("我的IDE是IntelliJ。")[0][2] == "preference-intellij"
    assert ("upsert", "fact", "residence-city", "Lives in Shanghai") in keyed("I'm from 成都, now living in Shanghai.")
    assert keyed("Living in Shanghai is expensive.") == []


def test_a_wedding_said_as_we_is_the_partners_fact() -> None:
    """R-WRITE-2 (eighteenth probe): "We got married last Saturday" after "I'm engaged!" and 「我们结婚了」 stored nothing
    ("I got married" was read); now the partner's fact, ending a single status held."""
    for message in ("We got married last Saturday.", "我们结婚了。", "我们上周领证了。"):
        assert [(op, key) for op, _, key, _ in keyed(message)] == [
            ("append", "family-partner"),
            ("delete", "relationship-status"),
        ], message


def test_a_favourites_new_value_said_bare_replaces_it() -> None:
    """R-WRITE-2 (eighteenth probe): "Actually green now" after "My favorite color is blue" kept blue (left in the
    fifteenth set above); 「现在改成绿色了」 the same. Said right after the favourite (this message or the turn after),
    a bare value with "now" / 改成 is its new value; "I'm busy now" is none."""
    assert keyed("Actually green now.", recent=("My favorite color is blue.",)) == [
        ("upsert", "preference", "favorite-color", "Favorite color is green")
    ]
    assert keyed("现在改成绿色了。", recent=("我最喜欢的颜色是蓝色。",))[0][3] == "最喜欢的颜色是绿色"
    assert keyed("My favorite color is blue. Actually, green now.")[0][3] == "Favorite color is green"
    assert keyed("I'm busy now.", recent=("My favorite color is blue.",)) == []


def test_a_drug_switched_to_ends_the_one_held_drug_of_its_use() -> None:
    """R-WRITE-2, R-READ-6 (nineteenth probe): "My doctor switched me to insulin" after "I take metformin"
    kept both drugs on every reply; 「我换成胰岛素了」 stored nothing. Of two held blood-pressure drugs the switch
    does not say which it replaces, so both stay; a drug put on beside another ends nothing."""
    metformin = ExistingMemory(1, "medication-metformin", "fact", "Takes metformin for their diabetes")
    for message in (
        "My doctor switched me to insulin.",
        "I switched to insulin.",
        "我换成胰岛素了。",
        "医生让我改打胰岛素",
    ):
        assert sorted(refined(message, [metformin])) == [
            ("delete", "fact", "medication-metformin"),
            ("upsert", "fact", "medication-insulin"),
        ], message
    statin = ExistingMemory(2, "medication-statins", "fact", "Takes statins")
    assert ("delete", "fact", "medication-statins") not in refined("My doctor switched me to insulin.", [statin])
    lisinopril = ExistingMemory(3, "medication-lisinopril", "fact", "Takes lisinopril")
    amlodipine = ExistingMemory(4, "medication-amlodipine", "fact", "Takes amlodipine")
    assert refined("My doctor switched me to losartan.", [lisinopril, amlodipine]) == [
        ("upsert", "fact", "medication-losartan")
    ]
    assert refined("My doctor put me on amlodipine too.", [lisinopril]) == [("upsert", "fact", "medication-amlodipine")]


def test_drugs_said_together_are_each_a_medication_on_a_key_of_their_own() -> None:
    """R-READ-6 (nineteenth probe): "I take lisinopril and amlodipine" was one memory under the first drug's key
    (a switch from it would end both); "heart medication" and "seizure medication" shared `medication-medicine`,
    so one overwrote the other; 帕罗西汀 was a hashed key and Lipitor not atorvastatin's."""
    assert [(c.key, c.content) for c in extract("I take lisinopril and amlodipine.")] == [
        ("medication-lisinopril", "Takes lisinopril"),
        ("medication-amlodipine", "Takes amlodipine"),
    ]
    assert [c.key for c in extract("我在吃二甲双胍和胰岛素。")] == ["medication-metformin", "medication-insulin"]
    assert only("I take heart medication.").key == "medication-heart-medication"
    assert only("I take seizure medication.").key == only("我每天吃抗癫痫药。").key == "medication-seizure-medication"
    assert only("我在吃帕罗西汀。").key == only("I take Paxil.").key == "medication-paroxetine"
    assert only("I take Lipitor.").key == only("我在吃阿托伐他汀。").key == "medication-atorvastatin"


def test_a_family_members_allergy_said_to_be_over_leaves_their_fact() -> None:
    """R-WRITE-2 (nineteenth probe): 「我儿子对芒果过敏」 then 「他现在不过敏了」 appended 「儿子现在不过敏了」 beside the allergy.
    The allergy leaves the member's fact (of the allergen named, if one is); a part naming another allergen as well
    stays whole, the safe side; another member's allergy is not touched."""

    def written(message: str, held: str) -> list[tuple[str, str]]:
        children = ExistingMemory(1, "family-children", "fact", held)
        return [(c.op, c.content) for c in ENGINE.refine(extract(message), [children])]

    assert written("我儿子现在不过敏了。", "儿子5岁了；儿子对芒果过敏") == [("upsert", "儿子5岁了")]
    assert written("我儿子现在对牛奶不过敏了。", "儿子对牛奶过敏") == [("delete", "儿子现在对牛奶不过敏了")]
    assert written("My son outgrew his egg allergy.", "Son is allergic to eggs; Daughter is 3") == [
        ("upsert", "Daughter is 3")
    ]
    assert written("My son is not allergic anymore.", "Son is allergic to eggs") == [
        ("delete", "Son is not allergic anymore")
    ]
    for message, held in (
        ("我儿子现在对牛奶不过敏了。", "儿子对牛奶和芒果过敏"),
        ("My son outgrew his egg allergy.", "Son is allergic to eggs and peanuts"),
        ("我女儿现在不过敏了。", "儿子对牛奶过敏"),
    ):
        assert [op for op, _ in written(message, held)] == ["append"], message


def test_programming_languages_said_together_are_each_a_preference_with_what_they_are_for() -> None:
    """R-WRITE-2 (nineteenth probe): 「我平时用Python和Go写后端」 was one memory under `preference-python` (saying it
    stopped Python would end Go too) and "I mostly code in Rust and TypeScript" lost TypeScript. Each is its own
    memory, and what the list is for stays with each item."""
    assert [(c.key, c.content) for c in extract("我平时用Python和Go写后端。")] == [
        ("preference-python", "平时用Python写后端"),
        ("preference-go", "平时用Go写后端"),
    ]
    assert [(c.key, c.content) for c in extract("I mostly code in Rust and TypeScript.")] == [
        ("preference-rust", "Mostly codes in Rust"),
        ("preference-typescript", "Mostly codes in TypeScript"),
    ]
    assert [c.key for c in extract("I code in Python, Go and Rust.")] == [
        "preference-python",
        "preference-go",
        "preference-rust",
    ]
    assert [c.content for c in extract("我主要用Java、Kotlin写安卓。")] == ["主要用Java写安卓", "主要用Kotlin写安卓"]


def test_a_goals_detail_is_joined_with_the_separator_of_its_language() -> None:
    """R-WRITE-2 (nineteenth probe): 「我在准备考研，目标是浙大」 was stored 「在准备考研; 目标是浙大」, an English semicolon
    inside Chinese, where family facts and narrowed facts already used 「；」."""
    assert only("我在准备考研，目标是浙大。").content == "在准备考研；目标是浙大"
    assert only("I'm training for a marathon. My goal is to finish under four hours.").content == (
        "Is training for a marathon; goal is to finish under four hours"
    )


def test_a_rule_said_with_its_condition_is_a_standing_rule_and_a_statement_after_a_condition_is_the_users() -> None:
    """R-TYPE-2 (nineteenth probe): 「如果我问菜谱，都按素食来」 and 「推荐餐厅的话人均200以内就行」 stored nothing (如果我 read as
    a supposition); 「我找工作的时候，压力很大」 was a standing rule; 「推荐餐厅的话，我喜欢川菜」 lost the liking."""
    for message, key in (
        ("如果我问菜谱，都按素食来。", "rule-recipes"),
        ("我问菜谱的时候都按素食来。", "rule-recipes"),
        ("推荐餐厅的话人均200以内就行。", "rule-restaurants"),
        ("要是推荐电影的话，别推荐恐怖片。", "rule-horror-movies"),
    ):
        candidate = only(message)
        assert (candidate.memory_type, candidate.key) == ("constraint", key), message
    for message in (
        "我找工作的时候，压力很大。",
        "如果我问你天气，你会怎么回答？",
        "如果我是素食者，应该怎么补充蛋白质？",
    ):
        assert extract(message) == [], message
    assert only("我写代码的时候都用Vim。").key == "preference-vim"
    assert (only("推荐餐厅的话，我喜欢川菜。").key, only("推荐餐厅的话，我喜欢川菜。").content) == (
        "food-sichuan-cuisine",
        "喜欢川菜",
    )


def test_meat_taken_up_again_ends_the_diet_that_kept_from_it() -> None:
    """R-WRITE-2, R-READ-6 (nineteenth probe): "I'm vegetarian" then "I started eating meat again" left the core diet
    "Is vegetarian; Started eating meat again" on every reply. The named diet goes (what else the fact keeps stays);
    fish taken up still qualifies a vegetarian diet, and chicken is meat (it had no key and was not read)."""
    vegetarian = ExistingMemory(1, "diet", "fact", "Is vegetarian")
    assert ("delete", "fact", "diet") in refined("I started eating meat again.", [vegetarian])
    assert ("delete", "fact", "diet") in refined("I started eating chicken again.", [vegetarian])
    sober = ExistingMemory(1, "diet", "fact", "是素食者；不喝酒")
    narrowed = [c for c in ENGINE.refine(extract("最近又开始吃肉了。"), [sober]) if c.key == "diet"]
    assert [(c.op, c.content, c.narrows) for c in narrowed] == [("upsert", "不喝酒", True)]
    assert ("append", "fact", "diet") in refined("最近开始吃鱼了。", [ExistingMemory(1, "diet", "fact", "是素食者")])


def test_a_break_up_or_divorce_said_with_the_partner_first_ends_the_partner() -> None:
    """R-WRITE-2 (nineteenth probe): "Anna and I broke up" stored nothing and "My girlfriend and I broke up" / "My
    wife and I got divorced" were appended to the partner's fact; 「我和小美分手了」, 「我和老婆离婚了」 and "We got
    divorced last year" were none."""
    for message in ("Anna and I broke up.", "My girlfriend and I broke up.", "我和小美分手了。"):
        assert [(c.op, c.key) for c in extract(message)] == [("delete", "family-partner")], message
    for message in ("My wife and I got divorced.", "我和老婆离婚了。", "We got divorced last year."):
        assert [(c.op, c.key) for c in extract(message)] == [
            ("upsert", "relationship-status"),
            ("delete", "family-partner"),
        ], message
    assert extract("My girlfriend and I just moved in together.")[0].op == "append"


def test_a_title_said_as_an_acronym_is_the_occupation() -> None:
    """R-WRITE-2 (nineteenth probe): "I'm a PM at Stripe" stored the employer only; "I'm a PM" nothing."""
    assert [(c.key, c.content) for c in extract("I'm a PM at Stripe.")] == [
        ("occupation", "Occupation: PM"),
        ("employer", "Works at Stripe"),
    ]
    assert only("I work as an SRE.").content == "Occupation: SRE"


def test_a_role_play_or_an_imagined_scene_is_no_fact_of_the_user() -> None:
    """R-TYPE-3 (nineteenth probe): "Pretend you're my wife and I'm a doctor" stored the occupation "doctor"; the
    scene's clauses naming the user were read as statements. The whole sentence of a role-play is none; the next
    sentence is the user's again, and a persona given to the assistant alone frames nothing."""
    for message in (
        "Pretend you're my wife and I'm a doctor.",
        "Let's role-play: you are my boss and I am a nurse.",
        "Imagine we are married and I am a pilot.",
        "我们来玩角色扮演，你是医生，我是病人。",
        "请扮演我的女朋友，我是一名医生。",
    ):
        assert extract(message) == [], message
    assert only("Imagine that. I'm a doctor.").key == "occupation"
    assert only("You are a nutritionist. I'm a diabetic patient.").key == "health-diabetes"


def test_a_goal_reached_ends_its_part_of_a_held_goal_and_the_next_step_is_a_goal() -> None:
    """R-WRITE-2 (nineteenth probe): 「N2考过了！下一步考N1」 after 「我最近在学日语，目标是明年考N2」 left the N2 target in the
    Japanese goal and stored no next step. The part naming what is reached leaves the held goal (the rest stays);
    「下一步考N1」 is a goal; a goal of one part is left to its own key."""
    japanese = ExistingMemory(1, "goal-japanese", "goal", "最近在学日语；目标是明年考N2")
    written = [(c.op, c.key, c.content) for c in ENGINE.refine(extract("N2考过了！下一步考N1。"), [japanese])]
    assert ("upsert", "goal-japanese", "最近在学日语") in written
    assert ("upsert", "goal-jlpt-n1", "下一步考N1") in written
    alone = ExistingMemory(1, "goal-japanese", "goal", "目标是考N2")
    assert ENGINE.refine(extract("N2考过了。"), [alone]) == []


def test_a_goal_reached_with_no_object_ends_the_goal_before_it_and_names_the_school() -> None:
    """R-WRITE-2 (nineteenth probe): 「考过了！」 / 「通过了！」 after 「我在准备考N2」 ended nothing (two goal rules read 考 and
    通 as the item); 「考上了！九月入学」 after 「我在准备考研，目标是浙大」 and 「我考上浙大了」 stored no school."""
    for reached in ("考过了！", "通过了！"):
        assert [(op, key) for op, _, key, _ in keyed(reached, ("我在准备考N2。",))] == [("delete", "goal-jlpt-n2")], (
            reached
        )
    assert keyed("考上了！", ("我在准备考研，目标是浙大。",)) == [
        ("delete", "goal", "goal-grad-school-exam", "考上了"),
        ("upsert", "fact", "school", "考上了浙大"),
    ]
    assert [(c.key, c.content) for c in extract("我考上浙大研究生了。") if c.key == "school"] == [
        ("school", "考上了浙大")
    ]
    assert [c for c in extract("我考上了一个好大学。") if c.key == "school"] == []
    assert keyed("考过了！") == []


def test_an_employer_said_before_a_job_with_its_field_and_a_job_field_are_read() -> None:
    """R-WRITE-2 (nineteenth probe): 「我在阿里做Java开发」 stored no employer (the job had to follow 做 at once);
    「我转行做数据分析了」 no occupation; 「我在学校当老师」 was also a goal 「学校当老师」 (在学 read as studying)."""
    assert [(c.key, c.content) for c in extract("我在阿里做Java开发。")] == [
        ("occupation", "职业：Java开发"),
        ("employer", "在阿里工作"),
    ]
    assert only("我转行做数据分析了。").content == "职业：数据分析"
    assert [c.key for c in extract("我在学校当老师。")] == ["occupation"]
    assert only("我在学日语。").key == "goal-japanese"


def test_a_food_or_drink_said_first_is_read_as_after_its_verb() -> None:
    """R-WRITE-2 (nineteenth probe): 「其实香菜我现在能吃了」 after 「我不吃香菜」 kept the dislike; 「香菜我不吃」 and 「咖啡我不喝了」,
    common Chinese word orders, stored nothing. Not a meal (「晚饭我不吃了」 is tonight's) nor words with a verb of
    their own (「医生不让我喝了」)."""
    assert (only("香菜我不吃。").key, only("香菜我不吃。").content) == ("food-cilantro", "不吃香菜")
    assert only("其实香菜我现在能吃了。").content == "现在能吃香菜了"
    assert (only("咖啡我不喝了。").op, only("咖啡我不喝了。").key) == ("delete", "drink-coffee")
    assert only("辣的我现在也能吃了。").key == "food-spicy-food"
    assert extract("晚饭我不吃了。") == extract("这个我不吃。") == []
    assert only("我喜欢喝咖啡，不过医生不让我喝了").content == "喜欢喝咖啡，但医生不让我喝了"


def test_a_hot_drink_switched_to_ends_the_held_one() -> None:
    """R-WRITE-2 (nineteenth probe): 「我现在改喝茶了」 after 「我喜欢喝美式咖啡」 kept the coffee; a drink taken up without a
    switch ends nothing."""
    coffee = ExistingMemory(1, "drink-coffee", "preference", "喜欢喝美式咖啡")
    for message in ("我现在改喝茶了。", "I switched to tea."):
        assert sorted(refined(message, [coffee])) == [
            ("delete", "preference", "drink-coffee"),
            ("upsert", "preference", "drink-tea"),
        ], message
    assert refined("我开始喝茶了。", [coffee]) == [("upsert", "preference", "drink-tea")]


def test_a_drug_ended_never_ends_another_safety_fact_and_a_drug_after_a_condition_is_its_own() -> None:
    """R-READ-6 (nineteenth probe): "I have type 2 diabetes and take metformin" was one memory, the diabetes's, and
    "My doctor took me off metformin" then found it by the drug's name and deleted it: the user's diabetes was lost.
    The drug is a memory of its own, and a retirement that finds a safety fact of another kind adds to it."""
    assert [(c.key, c.content) for c in extract("I have type 2 diabetes and take metformin.")] == [
        ("health-diabetes", "Has type 2 diabetes"),
        ("medication-metformin", "Takes metformin"),
    ]
    legacy = ExistingMemory(1, "health-diabetes", "fact", "Has type 2 diabetes and take metformin")
    assert refined("My doctor took me off metformin, diet is enough now.", [legacy]) == [
        ("append", "fact", "health-diabetes")
    ]
    metformin = ExistingMemory(2, "medication-metformin", "fact", "Takes metformin")
    assert refined("My doctor took me off metformin.", [metformin]) == [("delete", "fact", "medication-metformin")]
    assert [c.key for c in extract("She loved to sit there every morning and take in the view.")] == []


def test_children_said_as_twin_boys_or_one_of_them_are_the_childrens_fact() -> None:
    """R-WRITE-2 (nineteenth probe): "…and we have twin boys, 6" and "One of the boys, Leo, has asthma" stored
    nothing: boys, girls and twins were no children, and "one of the boys" no subject."""
    assert [(c.op, c.key) for c in extract("We have twin boys, 6.")] == [("append", "family-children")]
    assert [c.key for c in extract("My husband Mark is a firefighter and we have twin boys, 6.")] == [
        "family-partner",
        "family-children",
    ]
    assert only("One of the boys, Leo, has asthma.").key == "family-children"
    assert only("I have two girls.").key == "family-children"


def test_an_aim_is_the_goals_detail_and_the_level_passed_leaves_it() -> None:
    """R-WRITE-2 (nineteenth probe): "I'm learning Spanish, aiming for B2 by next summer" lost the target, and
    "Passed B2! Going for C1 next." stored nothing."""
    assert only("I'm learning Spanish, aiming for B2 by next summer.").content == (
        "Is learning Spanish; aiming for B2 by next summer"
    )
    spanish = ExistingMemory(1, "goal-spanish", "goal", "Is learning Spanish; aiming for B2 by next summer")
    written = [(c.op, c.key, c.content) for c in ENGINE.refine(extract("Passed B2! Going for C1 next."), [spanish])]
    assert ("upsert", "goal-spanish", "Is learning Spanish") in written
    assert ("upsert", "goal-c1", "Going for C1 next") in written
    assert extract("Going for a run next.") == extract("I'm going for a walk.") == []


def test_only_a_known_drug_after_a_condition_is_split_from_it() -> None:
    """R-WRITE-2 (nineteenth probe): splitting "…and take <anything>" lost what it did not know as a drug ("I have
    ADHD and take Adderall" kept no Adderall) and split scenes ("…every morning and take in the view"). Only a drug
    LEXICON knows is its own memory; another stays with the condition."""
    assert only("I have ADHD and take Adderall.").content == "Has ADHD and take Adderall"
    assert [c.key for c in extract("I have asthma and take an inhaler.")] == ["health-asthma", "medication-inhaler"]


def test_more_chinese_word_orders_with_the_food_first() -> None:
    """R-WRITE-2 (nineteenth probe): 「牛奶我喝不了」, 「酒我早就戒了」 and 「猪肉我们家不吃」 stored nothing."""
    assert (only("牛奶我喝不了。").key, only("牛奶我喝不了。").content) == ("drink-milk", "喝不了牛奶")
    assert ("append", "fact", "diet", "戒酒") in keyed("酒我早就戒了。")
    assert (only("猪肉我们家不吃。").key, only("猪肉我们家不吃。").content) == ("food-pork", "不吃猪肉")


def test_a_verb_after_a_gerund_in_a_liking_is_no_item_of_it() -> None:
    """R-WRITE-2 (nineteenth probe): "I love hiking and take my dog along" stored "Loves take their dog along" as a
    liking of dogs; an item with a verb of its own still replaces the head's verb, and infinitives stay items."""
    assert [c.key for c in extract("I love hiking and take my dog along.")] == ["sport-hiking"]
    assert [c.content for c in extract("I don't eat pork or drink alcohol.")] == [
        "Doesn't eat pork",
        "Doesn't drink alcohol",
    ]
    assert [c.key for c in extract("I like to read and play chess.")] == ["preference-read", "habit-chess"]


def test_which_of_a_liking_the_user_likes_most_stays_with_it() -> None:
    """R-WRITE-2 (nineteenth probe; the eighteenth's 「特别是诺兰的」): 「我喜欢看科幻小说，特别是刘慈欣的」 lost 刘慈欣; 「我对坚果过敏，
    特别是花生」 stored 「对特别是花生过敏」 and "…, especially peanuts" "Is allergic to especially peanuts"."""
    assert only("我喜欢看科幻小说，特别是刘慈欣的。").content == "喜欢看科幻小说，特别是刘慈欣的"
    assert (
        only("I love sci-fi novels, especially Liu Cixin's.").content == "Loves sci-fi novels, especially Liu Cixin's"
    )
    assert [(c.key, c.content) for c in extract("我对坚果过敏，特别是花生。")] == [
        ("allergy-tree-nut", "对坚果过敏"),
        ("allergy-peanut", "对花生过敏"),
    ]
    assert extract("I'm allergic to nuts, especially peanuts.")[1].content == "Is allergic to peanuts"


def test_emojis_the_user_dislikes_in_replies_and_a_phone_said_as_used_are_read() -> None:
    """R-WRITE-2 (nineteenth probe): 「我不喜欢你用太多emoji」 and "I don't like it when you use too many emojis" were
    no reply rule; 「我用的是iPhone 15」 and 「我的手机是iPhone 15」 no device (a model number after the name)."""
    for message in (
        "我不喜欢你用太多emoji。",
        "I don't like it when you use too many emojis.",
        "I hate it when you use emojis.",
    ):
        assert (only(message).memory_type, only(message).key) == ("constraint", "reply-emoji"), message
    assert only("I dislike emojis.").key == "preference-emojis"  # a taste, not said of the replies
    for message in ("我用的是iPhone 15。", "我的手机是iPhone 15。"):
        assert only(message).key == "device-iphone", message


def test_the_users_usual_budget_is_a_fact_and_one_purchases_is_not() -> None:
    """R-TYPE-2 (nineteenth probe; left since the seventeenth): 「我的预算一般在五千以内」, "My budget is usually under 500
    dollars" and "I'm on a tight budget" stored nothing. A budget not said as usual (a trip's, a bare 「预算五千」,
    「我的预算不超过五千」 said with a request) is the request's."""
    for message in (
        "我的预算一般在五千以内。",
        "我买东西预算一般不超过500。",
        "My budget is usually under 500 dollars.",
        "I'm on a tight budget.",
    ):
        assert (only(message).memory_type, only(message).key) == ("fact", "budget"), message
    for message in (
        "这次旅行预算五千。",
        "预算五千。",
        "我的预算不超过五千。",
        "My budget for this trip is 500 dollars.",
        "My budget is around $2,000.",
    ):
        assert extract(message) == [], message


def test_where_the_user_lives_after_the_hometown_and_how_they_commute_are_read() -> None:
    """R-WRITE-2 (nineteenth probe): "I'm originally from Brazil but live in Toronto now" stored the hometown only,
    and "I commute by bike" (left since the third round) nothing."""
    for message, city in (
        ("I'm originally from Brazil but live in Toronto now.", "Lives in Toronto"),
        ("I grew up in Ohio but live in Seattle.", "Lives in Seattle"),
    ):
        assert [(c.key, c.content) for c in extract(message)][1:] == [("residence-city", city)], message
    assert (only("I commute by bike.").key, only("I commute by bike.").content) == ("commute", "Bikes to work")
    assert only("I usually get to work by train.").key == "commute"


def test_an_age_said_alone_after_a_family_member_is_theirs_and_a_correction_lead_leaves_no_shi() -> None:
    """R-WRITE-2 (nineteenth probe): 「我女儿叫小雨，今年5岁」 then 「不对，她今年6岁了」 kept both ages (「女儿叫小雨；今年5岁；
    女儿今年6岁了」): the age part named no one, so the new age replaced nothing. 「我说错了，是对芒果过敏」 stored 「是对芒果过敏」."""
    held = only("我女儿叫小雨，今年5岁。").content
    assert held == "女儿叫小雨；女儿今年5岁"
    assert append_content(held, "女儿今年6岁了") == "女儿叫小雨；女儿今年6岁了"
    assert [c.content for c in extract("我说错了，是对芒果过敏，不是花生。") if c.key == "allergy-mango"] == [
        "对芒果过敏"
    ]


def test_a_long_introduction_is_read_clause_by_clause() -> None:
    """R-WRITE-2 (nineteenth probe): a first message telling everything at once lost half of it — 「有个4岁的儿子」 went
    into the wife's fact, 「平时不怎么吃辣」 was a question (怎么), 「代码用TypeScript写」 no rule, 「从阿里跳到了美团」 no
    employer, 「还是做后端」 the job 「做后端」; "I'm a 28-year-old data scientist in Berlin, originally from India" kept
    "28-year-old" in the job and lost the city and the hometown."""
    intro = "我今年32岁，在深圳做前端开发，老婆是老师，有个4岁的儿子。我对海鲜过敏，平时不怎么吃辣。以后回答尽量简短，代码用TypeScript写。"
    assert {(c.key, c.content) for c in extract(intro)} >= {
        ("family-partner", "老婆是老师"),
        ("family-children", "有个4岁的儿子"),
        ("food-spicy-food", "平时不怎么吃辣"),
        ("code-language", "代码用TypeScript写"),
    }
    assert {(c.key, c.content) for c in extract("我最近换了工作，从阿里跳到了美团，还是做后端。")} == {
        ("employer", "在美团工作"),
        ("occupation", "职业：后端"),
    }
    assert [
        (c.key, c.content) for c in extract("I'm a 28-year-old data scientist in Berlin, originally from India.")
    ] == [
        ("occupation", "Occupation: data scientist"),
        ("work-city", "Works in Berlin"),
        ("hometown", "Is from India"),
    ]
    assert extract("我该怎么办？") == []


def test_updates_said_in_the_next_turn_or_after_and_are_read() -> None:
    """R-WRITE-2 (nineteenth probe): "I'm at Google now" in the turn after "I left Microsoft last month." and
    "Actually English is fine" after "Please answer in Spanish." stored nothing (their rules read only right after
    a statement of their slot in the same message); "I sold my Civic and got a Tesla" kept the Civic."""
    assert keyed("I'm at Google now.", ("I left Microsoft last month.",)) == [
        ("upsert", "fact", "employer", "Works at Google")
    ]
    assert keyed("I'm at Starbucks now.", ("I love coffee.",)) == []
    assert keyed("Actually English is fine.", ("Please answer in Spanish.",)) == [
        ("upsert", "constraint", "reply-language", "Replies in English")
    ]
    assert keyed("English is fine.") == []
    civic = ExistingMemory(1, "vehicle", "fact", "Has a Honda Civic")
    assert refined("I sold my Civic and got a Tesla.", [civic]) == [("upsert", "fact", "vehicle")]


def test_the_day_an_age_was_reached_leaves_the_family_fact() -> None:
    """R-WRITE-2 (nineteenth probe): "He turned 6 yesterday" after "My son is 5" was appended beside it ("Son is 5; Son
    turned 6 yesterday"): the day kept the two from being one slot. The age lasts, the day does not."""
    content = keyed("He turned 6 yesterday.", ("My son is 5.",))[0][3]
    assert content == "Son turned 6"
    assert append_content("Son is 5", content) == "Son turned 6"


def test_a_pregnancy_ends_trying_to_conceive_and_a_drug_the_doctor_lets_go_ends() -> None:
    """R-READ-6 (nineteenth probe): 「我最近在备孕」 then 「我怀孕了！」 kept the trying to conceive beside the pregnancy,
    and 「医生说我可以停药了」 / "I'm off my meds now" kept the one drug held."""
    trying = ExistingMemory(1, "health-trying-to-conceive", "fact", "最近在备孕")
    for message in ("我怀孕了！", "I'm pregnant!"):
        assert sorted(refined(message, [trying])) == [
            ("delete", "fact", "health-trying-to-conceive"),
            ("upsert", "fact", "health-pregnancy"),
        ], message
    sertraline = ExistingMemory(2, "medication-sertraline", "fact", "在吃舍曲林")
    statins = ExistingMemory(3, "medication-statins", "fact", "在吃他汀")
    for message in ("医生说我可以停药了。", "I'm off my meds now.", "My doctor says I can stop my medication."):
        assert refined(message, [sertraline]) == [("delete", "fact", "medication-sertraline")], message
        assert refined(message, [sertraline, statins]) == [], message


def test_more_reply_rules_of_both_languages_are_read() -> None:
    """R-TYPE-2, R-READ-6 (nineteenth probe, 22 reply rules): 「以后跟我说话用繁体字」, "Always answer in British English",
    「回答先给结论再解释」, 「回复的时候多用例子」, 「代码不要加注释」 and quoted openings to avoid stored nothing; 「以后回答都用列表
    的形式」 also stored a liking 「列表的形式」 under a hashed key."""
    for message, key in (
        ("以后跟我说话用繁体字。", "reply-language"),
        ("Always answer in British English.", "reply-language"),
        ("回答先给结论再解释。", "rule-conclusion-first"),
        ("代码不要加注释。", "rule-code-comments"),
        ('Don\'t start with "Great question".', "rule-start-great-question"),
    ):
        assert (only(message).memory_type, only(message).key) == ("constraint", key), message
    for message in ("回复的时候多用例子。", '不要每次都说"好的"开头。'):
        assert only(message).memory_type == "constraint", message
    assert [c.key for c in extract("以后回答都用列表的形式。")] == ["reply-format"]


def test_what_a_request_asks_for_is_no_rule_and_a_rule_for_code_is_no_liking() -> None:
    """R-TYPE-3 (nineteenth probe, 20 Chinese must-drop statements): 「给我推荐几本书吧，别太长的」 stored the reply style
    「别太长的」 (the books' length, said with the request); 「帮我写个函数，以后代码都用TypeScript写」 also stored a liking of
    TypeScript. A rule after a request still counts when it names replies or a time to come."""
    assert extract("给我推荐几本书吧，别太长的。") == []
    assert only("给我推荐几本书吧，以后回答别太长。").key == "reply-style"
    assert only("别太长。").key == "reply-style"
    assert [c.key for c in extract("帮我写个函数，以后代码都用TypeScript写。")] == ["code-language"]
    assert only("我平时都用Python写代码。").key == "preference-python"


def test_a_child_named_by_birth_order_and_a_universitys_offer_are_read() -> None:
    """R-READ-6, R-WRITE-2 (nineteenth probe): 「老大对花生过敏」 after 「我有两个孩子，老大8岁，老二5岁」 stored nothing (a
    child's allergy lost); 「我拿到东京大学的offer了！」 no school. 老大 alone is as often the boss: 「我老大让我加班」 is none."""
    assert keyed("老大对花生过敏。", ("我有两个孩子，老大8岁，老二5岁。",)) == [
        ("append", "fact", "family-children", "老大对花生过敏")
    ]
    assert extract("我老大让我加班。") == []
    # (The goal it may reach is ended only where held: an `IF_HELD` delete beside it.)
    assert [(c.key, c.content) for c in extract("我拿到东京大学的offer了！") if c.op == "upsert"] == [
        ("school", "拿到了东京大学的offer")
    ]


def test_a_day_shift_ends_sleeping_by_day() -> None:
    """R-WRITE-2 (nineteenth probe; left since the seventeenth): 「我换成白班了」 after 「我上夜班，白天睡觉」 kept 「白天睡觉」 on
    every reply ("I switched to day shifts" the same); a bedtime at night is kept."""
    by_day = ExistingMemory(1, "preference-bedtime", "preference", "白天睡觉")
    for message in ("我换成白班了。", "I switched to day shifts."):
        assert sorted(refined(message, [by_day])) == [
            ("delete", "preference", "preference-bedtime"),
            ("upsert", "fact", "work-schedule"),
        ], message
    at_night = ExistingMemory(1, "preference-bedtime", "preference", "晚上十一点睡")
    assert refined("我换成白班了。", [at_night]) == [("upsert", "fact", "work-schedule")]


def test_the_nineteenth_probes_new_readings_keep_what_the_user_states() -> None:
    """R-READ-6, R-TYPE-3 (nineteenth probe, the review of its own changes): a clause after a request is skipped only
    when it is a degree of what is asked for — 「帮我推荐个餐厅，对海鲜过敏」 keeps the allergy; "Imagine my surprise when I
    found out I'm allergic to peanuts" is no imagined scene; 「我要是胖了的话，就去跑步」 is no rule for the assistant."""
    assert [c.key for c in extract("帮我推荐个餐厅，对海鲜过敏。")] == ["allergy-seafood"]
    assert [c.key for c in extract("推荐几道菜吧，不吃辣。")] == ["food-spicy-food"]
    assert only("Imagine my surprise when I found out I'm allergic to peanuts.").key == "allergy-peanut"
    assert [c for c in extract("我要是胖了的话，就去跑步。") if c.memory_type == "constraint"] == []


@pytest.mark.parametrize(
    ("message", "occupation", "employer"),
    [
        ("I work as an engineer at Google.", "Occupation: engineer", "Works at Google"),
        ("I'm working as a nurse at Mercy Hospital.", "Occupation: nurse", "Works at Mercy Hospital"),
        ("I'm an accountant at Deloitte.", "Occupation: accountant", "Works at Deloitte"),
    ],
)
def test_a_job_said_with_where_it_is_done_keeps_the_employer(message: str, occupation: str, employer: str) -> None:
    """R-TYPE-2 (nineteenth probe): "I work as an engineer at Google" kept the job and lost Google, where "I'm an
    engineer at Google" kept both."""
    assert [(c.key, c.content) for c in extract(message)] == [("occupation", occupation), ("employer", employer)]


@pytest.mark.parametrize(
    ("message", "content"),
    [
        ("I work as a teacher at a high school.", "Occupation: teacher at a high school"),
        ("I'm a nurse at a hospital.", "Occupation: nurse at a hospital"),
        ("I'm a high school teacher.", "Occupation: high school teacher"),
    ],
)
def test_the_kind_of_place_a_job_is_done_at_is_kept_with_it(message: str, content: str) -> None:
    """R-TYPE-2, issue 13.1 (nineteenth probe): "I work as a teacher at a high school" was "Occupation: teacher",
    which then flip-flopped with "Occupation: high school teacher" on every re-send (one adds words to the other)."""
    assert (only(message).key, only(message).content) == ("occupation", content)


def test_held_out_sentences_of_the_demos_kind_keep_their_objects_and_each_item() -> None:
    """Issue 13.7 (nineteenth probe, sentences of the demo's kind not shown before): a race's target lost its
    race ("Aiming for under two hours": under two hours of what?), a wish after a goal became a goal of its own
    under a hash key (goal-hfb2f4dc 「想年底前能弹唱一首歌」), and each pet of a list held the whole list."""
    assert [(c.key, c.content) for c in extract("I'm running a half marathon in May, aiming for under two hours.")] == [
        ("goal-half-marathon", "Is running a half marathon in May; aiming for under two hours")
    ]
    assert [(c.key, c.content) for c in extract("我在学吉他，想年底前能弹唱一首歌。")] == [
        ("goal-guitar", "在学吉他；想年底前能弹唱一首歌")
    ]
    # A wish naming an item of its own is a goal of its own.
    assert [c.key for c in extract("我在学日语，还想明年去考驾照。")] == ["goal-japanese", "goal-drivers-license"]
    assert [(c.key, c.content) for c in extract("I have a dog named Max and a cat named Luna.")] == [
        ("pet-dog", "Has a dog named Max"),
        ("pet-cat", "Has a cat named Luna"),
    ]
    assert [(c.key, c.content) for c in extract("I have a cat, a dog named Rex, and a parrot.")] == [
        ("pet-cat", "Has a cat"),
        ("pet-dog", "Has a dog named Rex"),
        ("pet-parrot", "Has a parrot"),
    ]
    # Not a list: the clause goes on about the one dog.
    assert [(c.key, c.content) for c in extract("I have a dog named Max, he is a corgi.")] == [
        ("pet-dog", "Has a dog named Max, he is a corgi")
    ]
    # Two rules of replying asked for with one verb: each in its own slot ("I prefer …" stored nothing).
    assert [(c.key, c.memory_type, c.content) for c in extract("I prefer metric units and 24-hour time.")] == [
        ("reply-units", "preference", "Prefers metric units"),
        ("reply-time-format", "preference", "Prefers 24-hour time"),
    ]
    assert [(c.key, c.content) for c in extract("Use metric units and 24-hour time.")] == [
        ("reply-units", "Uses metric units"),
        ("reply-time-format", "Times in 24-hour format"),
    ]
    # Children and a pet had with one verb: each half is about whom it names (the dog was inside family-children).
    assert [(c.key, c.content) for c in extract("I have two kids and a dog.")] == [
        ("family-children", "Has two kids"),
        ("pet-dog", "Has a dog"),
    ]
    assert [(c.key, c.content) for c in extract("I have a son and a daughter.")] == [
        ("family-children", "Has a son and a daughter")
    ]
    # One verb over two likings is read as before.
    assert [(c.key, c.content) for c in extract("I like pizza and sushi.")] == [
        ("food-pizza", "Likes pizza"),
        ("food-sushi", "Likes sushi"),
    ]


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("I can't have dairy, I'm lactose intolerant.", "health-lactose-intolerance"),
        ("I'm lactose intolerant, I can't have dairy.", "health-lactose-intolerance"),
        ("I can't have gluten, I have celiac disease.", "health-celiac-disease"),
        # Twentieth probe: the allergen avoided, said with its allergy, was a second core memory saying it again.
        ("我对花生过敏，不能吃花生。", "allergy-peanut"),
        ("我不能吃花生，我对花生过敏。", "allergy-peanut"),
    ],
)
def test_a_sensitivity_its_condition_explains_is_the_condition_in_either_order(message: str, key: str) -> None:
    """R-TYPE-2, issue 13.1 (nineteenth probe): said after the condition, "I can't have dairy" was already
    left out (the condition is why); said before it, it stayed as a second core fact, sensitivity-dairy."""
    assert [c.key for c in extract(message)] == [key]
    assert [c.key for c in extract("I can't have caffeine.")] == ["sensitivity-caffeine"]


@pytest.mark.parametrize(
    ("message", "keys"),
    [
        ("I'm lactose intolerant, I can't have caffeine.", ["health-lactose-intolerance", "sensitivity-caffeine"]),
        ("I can't have caffeine, I'm lactose intolerant.", ["sensitivity-caffeine", "health-lactose-intolerance"]),
        ("我有乳糖不耐受，喝咖啡会心慌。", ["health-lactose-intolerance", "sensitivity-coffee"]),
        ("我有哮喘，吃海鲜会起疹子。", ["health-asthma", "allergy-seafood"]),
    ],
)
def test_a_sensitivity_its_condition_does_not_explain_is_kept(message: str, keys: list[str]) -> None:
    """R-READ-6 (twentieth probe): any sensitivity said next to a condition was taken for the condition's own, so
    "I'm lactose intolerant, I can't have caffeine" lost the caffeine and 「我有哮喘，吃海鲜会起疹子」 the seafood
    allergy: safety facts the user stated. Only what the condition explains is left out."""
    assert [c.key for c in extract(message)] == keys


@pytest.mark.parametrize(
    ("message", "content"),
    [
        ("I don't drink.", "Doesn't drink alcohol"),
        ("I never drink at all.", "Never drinks alcohol"),
        ("我滴酒不沾。", "滴酒不沾"),
        ("我不喝酒。", "不喝酒"),
    ],
)
def test_not_drinking_said_alone_is_alcohol_kept_from(message: str, content: str) -> None:
    """R-READ-6, R-TYPE-2 (twentieth probe): "I don't drink." and 「我滴酒不沾」 stored nothing, and 「我不喝酒」 was a
    taste that was not core, while "I quit drinking" was a core diet: a bar or a wine pairing could be suggested."""
    (candidate,) = extract(message)
    assert (candidate.key, candidate.content) == ("drink-alcohol", content)
    assert is_core_memory(candidate.memory_type, candidate.key, candidate.content)
    assert extract("I don't drink anymore.")[0].op == "delete"


@pytest.mark.parametrize(
    ("message", "content"),
    [
        ("I'm on blood thinners, warfarin every day.", "Is on blood thinners, warfarin every day"),
        ("我在吃抗凝药，华法林，每天一片。", "在吃抗凝药，华法林，每天一片"),
        # Said one way since session 41 (`builders.medication_dose`), as a dose said again or changed is compared.
        ("I take metformin, 500mg twice a day.", "Takes metformin, 500 mg twice a day"),
    ],
)
def test_a_drug_named_beside_its_kind_and_its_dose_stay_in_the_medication(message: str, content: str) -> None:
    """R-TYPE-2, R-READ-6 (twentieth probe): "I'm on blood thinners, warfarin every day" kept "Is on blood thinners
    every day" (warfarin, the drug a doctor or a pharmacist asks about, was dropped as a second item of the same key),
    and 「我在吃抗凝药，华法林，每天一片」 kept only 在吃抗凝药."""
    assert [c.content for c in extract(message)] == [content]
    # A remark after the medication is no part of it.
    assert [c.content for c in extract("我每天吃降压药，挺烦的。")] == ["每天吃降压药"]
    assert [c.content for c in extract("I'm on insulin, so please keep that in mind.")] == ["Is on insulin"]


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("Sesame makes my throat swell up.", "allergy-sesame"),
        ("Shrimp gives me hives.", "allergy-shrimp"),
        ("我吃芒果嘴巴会肿。", "allergy-mango"),
        ("我有乙肝。", "health-hepatitis-b"),
        ("I have hepatitis B.", "health-hepatitis-b"),
        ("我有甲亢。", "health-hyperthyroidism"),
        ("I have a pacemaker.", "health-pacemaker"),
        ("我装了心脏起搏器。", "health-pacemaker"),
    ],
)
def test_a_reaction_a_condition_or_an_implant_said_plainly_is_a_core_fact(message: str, key: str) -> None:
    """R-READ-6, R-TYPE-2 (twentieth probe, safety statements written before the run): these stored nothing, so
    sesame could be suggested to a user whose throat swells from it, and a scan to one with a pacemaker."""
    (candidate,) = extract(message)
    assert candidate.key == key
    assert is_core_memory(candidate.memory_type, candidate.key, candidate.content)


@pytest.mark.parametrize(
    "message",
    [
        "Stress gives me hives.",
        "My job gives me hives.",
        "我吃火锅会上火。",
        "我喝酒会脸红。",
        "我们公司有一个支架项目。",
        "I use ICD codes at work.",
    ],
)
def test_a_reaction_to_no_food_or_without_swelling_is_no_allergy(message: str) -> None:
    """R-TYPE-3: stress is no allergen, 上火 and a flush are no allergic reaction, a company's project no implant."""
    assert [c.key for c in extract(message) if c.key.startswith(("allergy-", "health-"))] == []


def test_a_drink_listed_after_a_food_is_drunk() -> None:
    """R-TYPE-2 (twentieth probe): 「我有痛风，不能吃海鲜和啤酒」 stored 「不能吃啤酒」."""
    assert [c.content for c in extract("我有痛风，不能吃海鲜和啤酒。")] == ["有痛风", "不能吃海鲜", "不能喝啤酒"]


@pytest.mark.parametrize(
    ("message", "content"), [("芒果我过敏。", "对芒果过敏"), ("海鲜我从小就过敏。", "从小就对海鲜过敏")]
)
def test_an_allergen_said_first_is_the_allergy_in_the_usual_words(message: str, content: str) -> None:
    """R-READ-6, R-WRITE-3 (twentieth probe): 「芒果我过敏」 stored nothing, or, after 「我对芒果过敏」, 「对芒果我过敏过敏」;
    in the usual order its words restate the allergy, so a re-send confirms it instead of rewriting it."""
    (candidate,) = extract(message)
    assert (candidate.key, candidate.content) == (f"allergy-{'mango' if '芒果' in message else 'seafood'}", content)
    assert extract("花粉我不过敏。") == extract("这个我过敏。") == []


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("Talk to me like a friend, not a robot.", "reply-style"),
        ("Please don't use the word 'delve'.", "rule-word-delve"),
        ("解释概念的时候多举例子。", "rule-examples"),
        ("Use lots of examples when you explain things.", "rule-examples"),
        ("Avoid jargon, I'm not technical.", "rule-jargon"),
        ("Always summarize at the end.", "rule-summarize-end"),
        ("给我解释的时候多用比喻。", "rule-analogies"),
        ("我是色盲，图表别用红绿配色。", "rule-red-green-colors"),
    ],
)
def test_a_rule_of_replying_said_plainly_is_kept_under_a_readable_key(message: str, key: str) -> None:
    """R-READ-6, issue 13.7 (twentieth probe, rules written before the run): the first five stored nothing, so the
    assistant forgot how the user asked to be answered; 「…图表别用红绿配色」 was keyed rule-h1992645. (A summary
    asked for gets no lexicon word: every rule naming one would share its key.)"""
    candidate = extract(message)[-1]
    assert candidate.key == key
    assert is_core_memory(candidate.memory_type, candidate.key, candidate.content)


@pytest.mark.parametrize(
    "message",
    ["Give me some examples of sorting algorithms.", "Summarize this article.", "Don't use the word like that."],
)
def test_a_one_off_request_about_examples_or_a_summary_is_no_rule(message: str) -> None:
    """R-TYPE-4: what is asked of this reply only is not kept."""
    assert extract(message) == []


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("I work remotely as a data analyst for a company in Berlin.", ("occupation", "Occupation: data analyst")),
        (
            "I've been learning Japanese for two years, mostly for anime.",
            ("goal-japanese", "Has been learning Japanese for two years"),
        ),
        ("My wife and I are both vegan.", ("diet", "Is vegan")),
        ("Me and my girlfriend are vegetarian.", ("diet", "Is vegetarian")),
        ("My husband and I don't eat pork.", ("food-pork", "Doesn't eat pork")),
    ],
)
def test_everyday_statements_with_a_word_between_keep_their_fact(message: str, expected: tuple[str, str]) -> None:
    """R-TYPE-2, issue 13.7 (twentieth probe, everyday messages written before the run): a job said with "remotely",
    a language learned "for two years" stored nothing, and "My wife and I are vegetarians" became a fact about the
    wife that is not core, while "We're vegetarian" was the user's diet."""
    assert [(c.key, c.content) for c in extract(message)] == [expected]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("我想辞职去读MBA。", ("goal-mba", "想辞职去读MBA")),
        ("我想读研。", ("goal-grad-school-exam", "想读研")),
        ("我想读博士。", ("goal-phd", "想读博士")),
        ("我在一家游戏公司做策划。", ("occupation", "职业：策划")),
    ],
)
def test_a_degree_wanted_and_a_planners_job_are_kept(message: str, expected: tuple[str, str]) -> None:
    """R-TYPE-2, issue 13.7 (twentieth probe, Chinese everyday messages written before the run): these stored
    nothing; 读博 is keyed as English says it ("I want to get a PhD": goal-phd), 读研 as 考研 (考上研究生 reaches both). Considering it
    (「我在考虑辞职去读MBA」) stays unstored, as 「我在考虑换工作」 does."""
    assert [(c.key, c.content) for c in extract(message)] == [expected]
    assert only("I want to get a PhD.").key == "goal-phd"
    assert (only("我考上研究生了！").op, only("我考上研究生了！").key) == ("delete", "goal-grad-school-exam")


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("Peanuts could literally kill me.", "allergy-peanut"),
        ("Shrimp is deadly for me.", "allergy-shrimp"),
        ("Nuts are a no-go for me, I'm allergic.", "allergy-tree-nut"),
        ("I can't have nuts, I'm allergic.", "allergy-tree-nut"),
        ("坚果不行，我会过敏。", "allergy-tree-nut"),
        ("I suffer from panic attacks.", "health-panic-disorder"),
        ("I'm bipolar.", "health-bipolar-disorder"),
    ],
)
def test_an_allergy_said_as_a_danger_or_after_the_food_it_names_is_kept(message: str, key: str) -> None:
    """R-READ-6 (twentieth probe, second safety batch written before the run): these stored nothing, the worst
    being "Peanuts could literally kill me" and "Nuts are a no-go for me, I'm allergic" (the bare "I'm allergic"
    was read only after a food avoided, "I can't eat nuts, I'm allergic")."""
    assert [c.key for c in extract(message)] == [key]
    assert extract("My boss could kill me.") == extract("Mondays are a no-go for me, I'm allergic.") == []


def test_a_rule_or_a_goal_ended_in_other_words_is_ended() -> None:
    """R-WRITE-2 (twentieth probe, changes said after the facts): "You can use technical terms now" kept the rule
    "Avoid jargon" (it names the item by its lexicon word, not its text), and "I got into grad school!" stored
    nothing, so 「我想读研」 stayed a goal after it was reached."""
    said = extract("You can use technical terms now, I've learned a lot.")
    for held in ("Avoid jargon", "不要用太多专业术语"):
        refined = ENGINE.refine(said, [ExistingMemory(1, "rule-jargon", "constraint", held)])
        assert [(c.op, c.reuse_key) for c in refined] == [("delete", "rule-jargon")]
    assert [(c.op, c.key) for c in extract("I got into grad school!")] == [
        ("upsert", "school"),
        ("delete", "goal-grad-school-exam"),
    ]
    assert [(c.op, c.key) for c in extract("I got into Stanford!")] == [("upsert", "school")]


# --- twenty-first probe (held-out statements, written before the run) ---------------------------------


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("I used to love coffee but now I can't stand it.", [("upsert", "drink-coffee", "Can't stand coffee")]),
        ("I used to hate running, now I love it.", [("upsert", "sport-running", "Loves running")]),
        ("我以前喜欢打篮球，现在膝盖不好不打了。", [("delete", "sport-basketball", "不再打篮球了")]),
        ("我以前爱吃辣，现在不吃了。", [("delete", "food-spicy-food", "不再吃辣了")]),
        ("我不打篮球了。", [("delete", "sport-basketball", "不打篮球了")]),
        ("我不下棋了。", [("delete", "habit-chess", "不下棋了")]),
        ("I used to live in Paris.", []),
    ],
)
def test_a_liking_said_to_have_changed_since_is_read_of_what_it_named(message: str, expected: list) -> None:
    """R-WRITE-2 (twenty-first probe): "I used to love coffee but now I can't stand it" left "Loves coffee" (the
    whole clause was a former state), 「我以前喜欢打篮球，现在膝盖不好不打了」 and even 「我不打篮球了」 left
    「喜欢打篮球」 (不打 was no retirement verb). What is said now is read of the thing the former state named."""
    assert [(c.op, c.key, c.content) for c in extract(message)] == expected


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("Bee stings are dangerous for me, I carry an EpiPen.", "allergy-bee-stings"),
        ("我吃虾会过敏。", "allergy-shrimp"),
        ("我一吃虾就过敏。", "allergy-shrimp"),
        ("我喝牛奶会过敏。", "allergy-milk"),
    ],
)
def test_an_allergy_said_by_what_it_does_or_by_eating_is_keyed_by_its_allergen(message: str, key: str) -> None:
    """R-READ-6 (twenty-first probe): "Bee stings are dangerous for me" stored no allergy (only the EpiPen), and
    「我吃虾会过敏」 was keyed `allergy-hb29040c` (the item was 吃虾会), so 「我对虾过敏」 would not meet it."""
    allergies = [c for c in extract(message) if c.key == key]
    assert allergies and is_core_memory(allergies[0].memory_type, key, allergies[0].content)


def test_a_food_that_makes_the_user_sick_is_no_second_allergen_of_the_clause() -> None:
    """R-READ-6 (twenty-first probe): after "I have a peanut allergy", "Peanuts make me sick, I'm allergic" stored
    "Is allergic to peanuts make them sick": the clause was read as an allergen listed after the allergy."""
    turn = TurnContext(message="Peanuts make me sick, I'm allergic.", earlier=("I have a peanut allergy.",))
    assert {c.content for c in ENGINE.extract(turn)} <= {"Has a peanut allergy", "Is allergic to peanuts"}
    assert [c.key for c in extract("I'm allergic to shellfish. Also pollen in spring.")] == [
        "allergy-shellfish",
        "allergy-pollen",
    ]


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("Please don't recommend anything with alcohol, I'm in recovery.", "rule-alcohol"),
        ("别给我推荐带酒精的饮料。", "rule-alcohol-soft-drinks"),
        ("别跟我提减肥的事。", "rule-weight-loss"),
        ("不要跟我提我前任。", "rule-ex"),
        ("Please explain things step by step.", "rule-step-by-step"),
        ("以后一步一步给我讲。", "rule-step-by-step"),
        ("I hate it when you apologize too much.", "rule-apologies"),
        ("以后别老是道歉。", "rule-apologies"),
        ("I'm Muslim, so no pork please.", "diet-pork"),
    ],
)
def test_rules_of_replying_and_recommending_said_in_more_ways_are_core(message: str, key: str) -> None:
    """R-READ-6 (twenty-first probe): each of these stored nothing, or (alcohol) only "Is in recovery"; the
    English and Chinese wordings of one rule meet on one key."""
    found = [c for c in extract(message) if c.key == key]
    assert found and is_core_memory(found[0].memory_type, found[0].key, found[0].content)
    assert extract("别跟我提这个。") == extract("I hate it when you do that.") == []


def test_a_habit_a_favourite_and_a_genre_said_in_other_orders_read_as_they_would_in_the_usual_one() -> None:
    """R-WRITE-3 (twenty-first probe, held-out bursts): "Every morning I go for a run" was stored in the first
    person; "Actually purple is my favorite color now" was keyed `favorite-color-now` beside the held blue;
    "Mystery novels are my favorite genre" became "Favorite genre are Mystery novels"; "I love mystery books" and
    "I enjoy reading mystery novels" were two keys; "I play the piano, been doing it for 20 years" stored nothing."""
    assert [(c.key, c.content) for c in extract("Every morning I go for a run.")] == [
        ("sport-running", "Goes for a run every morning")
    ]
    assert [(c.key, c.content) for c in extract("Actually purple is my favorite color now.")] == [
        ("favorite-color", "Favorite color is purple")
    ]
    assert only("Mystery novels are my favorite genre.").content == "Favorite genre is mystery novels"
    assert only("Radiohead is my favorite band.").content == "Favorite band is Radiohead"
    for message in ("I love mystery books.", "I enjoy reading mystery novels.", "我喜欢看悬疑小说。"):
        assert only(message).key == "book-mystery-novels"
    assert only("I play the piano, been doing it for 20 years.").key == "music-piano"
    assert only("I've been playing piano for 20 years.").key == "music-piano"
    assert extract("I've been playing games all day.") == []


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("我在读计算机硕士。", [("occupation", "在读计算机硕士")]),
        ("我在美国留学，读计算机硕士。", [("occupation", "在美国留学；读计算机硕士")]),
        ("我换工作了，现在在字节跳动。", [("employer", "在字节跳动工作")]),
        ("I changed jobs, now I'm at Stripe.", [("employer", "Works at Stripe")]),
        ("我喝咖啡不加糖。", [("drink-coffee", "喝咖啡不加糖")]),
        ("I'm in the UTC+8 timezone.", [("timezone", "Time zone: UTC+8")]),
        (
            "I mostly write Go and Python.",
            [("preference-go", "Mostly writes Go"), ("preference-python", "Mostly writes Python")],
        ),
        ("我主要写Go和Python。", [("preference-go", "主要写Go"), ("preference-python", "主要写Python")]),
        ("现在在机场。", []),
        ("我读书很慢。", []),
    ],
)
def test_studies_a_new_job_a_drink_a_time_zone_and_languages_written_are_read(message: str, expected: list) -> None:
    """R-TYPE-2 (twenty-first probe): each stored nothing, or (Go and Python) the first language only."""
    assert [(c.key, c.content) for c in extract(message) if c.op == "upsert"] == expected


def test_drinking_now_and_then_and_a_food_eaten_now_end_what_was_kept_from() -> None:
    """R-WRITE-2 (twenty-first probe, changes): after "I don't drink", "I drink wine now and then" and
    「我偶尔喝点红酒」 stored nothing, so the core "Doesn't drink alcohol" stayed; after "I'm a vegetarian",
    "I eat fish now" stored nothing, so the diet still said the user keeps from fish."""
    for message in ("I drink wine now and then.", "我偶尔喝点红酒。", "I drink occasionally.", "I'm a social drinker."):
        assert [(c.op, c.key) for c in extract(message)] == [("upsert", "drink-alcohol")], message
    vegetarian = ExistingMemory(1, "diet", "fact", "Is a vegetarian")
    for message in ("I eat fish now.", "我现在也吃鱼了。"):
        assert ("append", "fact", "diet") in refined(message, [vegetarian]), message
    assert extract("I drink coffee now and then.") == []  # no drink of alcohol, and no habit said to last


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("Actually, English is fine now.", "reply-language", "English is fine now"),
        ("现在可以用英文回复了。", "reply-language", "现在可以用英文回复了"),
        ("以后可以说详细点。", "reply-style", "以后可以说详细点"),
    ],
)
def test_a_reply_language_or_style_allowed_now_is_the_new_value_of_its_slot(
    message: str, key: str, content: str
) -> None:
    """R-WRITE-2 (twenty-first probe): after "Please reply in Chinese", "Actually, English is fine now" was read as
    a rule lifted (`rule-english`, held by no one), so replies stayed Chinese; after 「回答简短一点」, 「以后可以说详细点」
    stored nothing. 「你说详细点」 alone asks it of this reply only."""
    assert [(c.key, c.content) for c in extract(message)] == [(key, content)]
    assert extract("你说详细点。") == []


@pytest.mark.parametrize(
    ("message", "key", "core"),
    [
        ("我有轻度自闭症。", "health-autism", True),
        ("I get migraines a lot.", "health-migraines", True),
        ("我经常偏头痛。", "health-migraines", True),
        ("我吃全素。", "diet", True),
        ("I don't eat anything with eggs.", "food-egg", True),
        ("Don't use so many exclamation marks.", "rule-exclamation-marks", True),
        ("Don't use too many emojis.", "reply-emoji", True),
        ("I've lived in London for 5 years.", "residence-city", False),
        ("我用Windows电脑。", "device-windows", False),
        ("我会弹吉他。", "music-guitar", False),
        ("I can play the guitar.", "music-guitar", False),
        ("我最近迷上了滑板。", "sport-skateboarding", False),
        ("我的目标是今年存十万块。", "goal-savings", False),
        ("我在存钱买房。", "goal-house", False),
    ],
)
def test_conditions_diets_rules_and_everyday_facts_of_the_second_batch_are_read(
    message: str, key: str, core: bool
) -> None:
    """R-READ-6, R-TYPE-2 (twenty-first probe, second batch written before the run): 「我有轻度自闭症」, "I get
    migraines a lot", 「我吃全素」, "Don't use so many exclamation marks", "I've lived in London for 5 years",
    「我用Windows电脑」 and 「我会弹吉他」 stored nothing; "I don't eat anything with eggs" was a taste, not core;
    滑板 and 存十万块 were hashed keys."""
    found = [c for c in extract(message) if c.key == key]
    assert found, [(c.key, c.content) for c in extract(message)]
    assert is_core_memory(found[0].memory_type, key, found[0].content) is core
    assert only("我在清华读博。").content == "在清华读博"
    assert extract("I lived in London for a year.") == extract("我用Mac剪视频。") == []


def test_a_goal_said_again_a_diet_said_with_only_and_an_avoidance_said_as_staying_away_are_one_memory_each() -> None:
    """R-WRITE-3 (twenty-first probe, third set of held-out bursts): "My goal is to run a marathon" after "I want
    to run a marathon" was appended to it as a detail ("Wants to run a marathon; goal is to run a marathon"), and
    changed the memory on every re-send; 「我平时只吃素」 was the diet and a liking keyed `preference-h597f864`;
    "I'm hoping to run a marathon someday" and "I stay away from sugar" stored nothing; "I'm a principal now"
    (a teacher's new job) stored nothing."""
    turn = TurnContext(message="My goal is to run a marathon.", earlier=("I want to run a marathon.",))
    assert [(c.op, c.key) for c in ENGINE.extract(turn)] == [("upsert", "goal-marathon"), ("upsert", "goal-marathon")]
    assert [c.key for c in extract("我平时只吃素。")] == ["diet"]
    assert [c.key for c in extract("I'm hoping to run a marathon someday.")] == ["goal-marathon"]
    assert [c.key for c in extract("I stay away from sugar.")] == ["food-sugar"]
    assert [c.key for c in extract("I'm a principal now.")] == ["occupation"]
    turn = TurnContext(message="My goal is to finish under four hours.", earlier=("I'm training for a marathon.",))
    assert [c.op for c in ENGINE.extract(turn)][-1] == "append"  # another goal's words are still its detail


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            "我不喝咖啡，喝了会心慌，一般喝绿茶。",
            {("sensitivity-coffee", "不喝咖啡，喝了会心慌"), ("drink-green-tea", "一般喝绿茶")},
        ),
        (
            "I don't drink coffee, it makes me jittery.",
            {("sensitivity-coffee", "Doesn't drink coffee, it makes them jittery")},
        ),
        ("我不爱吃辣，吃了会胃疼。", {("sensitivity-spicy-food", "不爱吃辣，吃了会胃疼")}),
        (
            "我是一名高中数学老师，教了十年书了，最近想转行做数据分析。",
            {("occupation", "职业：高中数学老师"), ("goal-career-change", "最近想转行做数据分析")},
        ),
        ("我刚毕业，在找工作，想去互联网公司做产品。", {("goal-job-change", "在找工作；想去互联网公司做产品")}),
        ("I'm job hunting.", {("goal-job-change", "Is job hunting")}),
        (
            "I've been learning Spanish for 2 years and I want to be fluent by next summer.",
            {("goal-spanish", "Has been learning Spanish for 2 years; wants to be fluent by next summer")},
        ),
        ("I want to be fluent in French.", {("goal-french", "Wants to be fluent in French")}),
        (
            "I'm training for my first triathlon in September, swimming is my weakest part.",
            {("goal-triathlon", "Is training for their first triathlon in September, swimming is their weakest part")},
        ),
        ("Also I'm allergic to penicillin btw.", {("allergy-penicillin", "Is allergic to penicillin")}),
        (
            "I just moved to Seattle for a new job at Microsoft.",
            {("residence-city", "Lives in Seattle"), ("employer", "Works at Microsoft")},
        ),
        (
            "我用的是安卓手机，电脑是Windows的。",
            {("device-android", "用的是安卓手机"), ("device-windows", "电脑是Windows的")},
        ),
        (
            "My favorite programming language is Rust but at work I use Java.",
            {
                ("favorite-programming-language", "Favorite programming language is Rust"),
                ("preference-java", "Uses Java"),
            },
        ),
        (
            "Remind me that I'm vegan when suggesting recipes.",
            {("rule-recipes", "Remind me that I'm vegan when suggesting recipes")},
        ),
        (
            "I broke up with my girlfriend last month, so please don't bring her up.",
            {("family-partner", "Broke up with their girlfriend last month"), ("rule-ex", "Don't bring up their ex")},
        ),
        (
            "我现在在减肥，别给我推荐高热量的东西。",
            {("goal-weight-loss", "现在在减肥"), ("rule-calories", "别给我推荐高热量的东西")},
        ),
    ],
)
def test_what_a_message_of_several_facts_says_is_read_whole(message: str, expected: set) -> None:
    """R-TYPE-2, R-READ-6 (twenty-first probe, third batch: messages of several facts, as chat users write them):
    「喝了会心慌」 was lost (the avoidance stayed a taste, not a core sensitivity), 「想转行做数据分析」, 「在找工作」 and
    "I'm job hunting" stored nothing, "I want to be fluent by next summer" was a goal of its own (fluent in what?),
    the triathlon was keyed by the swimming said after it, "btw" was kept in the allergy, the employer of a move,
    the computer said with 是 and the language used at work were lost, "Can you remind me that I'm vegan when
    suggesting recipes?" and "so please don't bring her up" stored nothing, and 「别给我推荐高热量的东西」 after a
    diet stored nothing."""
    assert {(c.key, c.content) for c in extract(message)} == expected
    assert [c.key for c in extract("Can you remind me that I'm vegan when suggesting recipes?")] == ["rule-recipes"]
    assert [c.key for c in extract("我老婆是老师，别提她。")] == ["family-partner"]  # no ex: she is held


def test_a_partner_by_name_a_corrected_allergen_and_a_sport_stopped_for_a_reason_are_read() -> None:
    """R-WRITE-2 (twenty-first probe, changes): "I'm dating someone named Alex" and "Alex and I got engaged!" stored
    nothing; "Actually it's amoxicillin I'm allergic to, not penicillin" rewrote the penicillin allergy as "Is
    allergic to amoxicillin I'm allergic to" under `allergy-penicillin`; "I hurt my knee so I stopped running" kept
    the running."""
    for message in ("I'm dating someone named Alex.", "Alex and I got engaged!"):
        assert [(c.op, c.key) for c in extract(message)] == [
            ("append", "family-partner"),
            ("delete", "relationship-status"),  # "Is single" ends
        ]
    assert [
        (c.op, c.key, c.content) for c in extract("Actually it's amoxicillin I'm allergic to, not penicillin.")
    ] == [
        ("upsert", "allergy-amoxicillin", "Is allergic to amoxicillin"),
        ("delete", "allergy-penicillin", "Is not allergic to penicillin"),
    ]
    assert [(c.op, c.key) for c in extract("I hurt my knee so I stopped running.")] == [("delete", "sport-running")]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("我是自由撰稿人。", {("occupation", "职业：自由撰稿人")}),
        ("我是东北人。", {("hometown", "老家是东北")}),
        (
            "I can't have shellfish or peanuts.",
            {("food-shellfish", "Can't have shellfish"), ("food-peanut", "Can't have peanuts")},
        ),
        ("我不吃牛羊肉。", {("food-beef", "不吃牛肉"), ("food-lamb", "不吃羊肉")}),
        (
            "I'm allergic to both cats and dogs.",
            {("allergy-cat", "Is allergic to cats"), ("allergy-dog", "Is allergic to dogs")},
        ),
        ("我每天吃一片阿司匹林。", {("medication-aspirin", "每天吃一片阿司匹林")}),
        ("Always reply in Traditional Chinese.", {("reply-language", "Always reply in Traditional Chinese")}),
        ("Use British spelling please.", {("rule-british-spelling", "Use British spelling please")}),
        (
            "Stop asking me follow-up questions at the end.",
            {("rule-follow-up-questions", "Stop asking me follow-up questions at the end")},
        ),
        ("以后别反问我。", {("rule-follow-up-questions", "以后别反问我")}),
        ("我喜欢你用幽默一点的语气。", {("reply-style", "喜欢你用幽默一点的语气")}),
        ("我不喜欢吃香蕉。", {("food-banana", "不喜欢吃香蕉")}),
        ("I meditate every morning.", {("habit-meditation", "Meditates every morning")}),
        ("I'm planning to run for city council.", {("goal-city-council", "Is planning to run for city council")}),
        (
            "I'm left-handed and colorblind.",
            {("trait-left-handed", "Is left-handed"), ("health-colorblind", "Is colorblind")},
        ),
        (
            "I'm an accountant but I'm studying to become a data scientist.",
            {
                ("occupation", "Occupation: accountant"),
                ("goal-data-scientist", "Is studying to become a data scientist"),
            },
        ),
        ("I don't have a car.", {("vehicle", "Doesn't have a car")}),
        (
            "I live with my boyfriend and our two dogs.",
            {("family-partner", "Lives with their boyfriend and their two dogs")},
        ),
    ],
)
def test_the_fourth_batch_of_held_out_statements_is_read(message: str, expected: set) -> None:
    """R-TYPE-2, R-READ-6 (twenty-first probe, fourth batch written before the run): 「我是自由撰稿人」 was the hometown
    「自由撰稿」; "I can't have shellfish or peanuts", 「我每天吃一片阿司匹林」, "Always reply in Traditional Chinese",
    "Use British spelling", "Stop asking me follow-up questions" and 「我喜欢你用幽默一点的语气」 stored nothing; 「牛羊肉」
    kept only the lamb, "both cats" was an item, "run for city council" was keyed `goal-running`, "colorblind" after
    "left-handed" was lost (not core), and "our two dogs" was left in the first person."""
    assert {(c.key, c.content) for c in extract(message) if c.op != "delete"} == expected


def test_an_intolerance_said_beside_or_after_avoiding_its_own_food_is_one_fact() -> None:
    """R-WRITE-3 (twenty-first probe, held-out bursts): "I'm gluten intolerant" then "I can't eat gluten" left two
    memories (`health-gluten-intolerance`, `preference-gluten`): the intolerance is the avoidance of gluten itself,
    as an allergy is of its allergen. Celiac disease beside "I can't eat gluten" keeps both, as the labeled set says."""
    assert [c.key for c in extract("I'm gluten intolerant, I can't eat gluten.")] == ["health-gluten-intolerance"]
    held = [ExistingMemory(1, "health-gluten-intolerance", "fact", "Is gluten intolerant")]
    assert refined("I can't eat gluten.", held) == []
    avoided = [ExistingMemory(1, "food-gluten", "preference", "Can't eat gluten")]
    assert ("delete", "preference", "food-gluten") in refined("I'm gluten intolerant.", avoided)
    # Held under its key before the lexicon named gluten (twenty-second probe): still the avoidance retired.
    avoided_before = [ExistingMemory(1, "preference-gluten", "preference", "Can't eat gluten")]
    assert ("delete", "preference", "preference-gluten") in refined("I'm gluten intolerant.", avoided_before)
    assert {c.key for c in extract("I can't eat gluten, I have celiac disease.")} == {
        "food-gluten",
        "health-celiac-disease",
    }


def test_an_avoidance_a_diet_already_says_is_one_fact_in_either_order_and_a_habit_said_with_always_is_no_rule() -> None:
    """R-WRITE-3 (twenty-first probe, fifth set of held-out bursts): "I'm vegetarian" and "I don't eat meat" left
    two memories (`diet`, `food-meat`) in either order; "I always use dark mode" was a standing rule
    (`rule-dark-mode`) beside the liking; "From now on, always include sources" was keyed `rule-include-sources`,
    not the `reply-sources` of "Always cite your sources"."""
    vegetarian = [ExistingMemory(1, "diet", "fact", "Is vegetarian")]
    assert refined("I don't eat meat.", vegetarian) == []
    assert refined("I don't eat pork.", vegetarian) == []
    assert refined("I don't eat eggs.", vegetarian) == [
        ("upsert", "preference", "food-egg")
    ]  # vegetarians may eat eggs
    meat = [ExistingMemory(1, "food-meat", "preference", "Doesn't eat meat")]
    assert sorted(refined("I'm vegetarian.", meat)) == [
        ("delete", "preference", "food-meat"),
        ("upsert", "fact", "diet"),
    ]
    assert refined("I'm vegetarian.", [ExistingMemory(1, "food-meat", "preference", "Loves meat")]) == [
        ("upsert", "fact", "diet")
    ]
    assert [c.key for c in extract("I always use dark mode.")] == ["preference-dark-mode"]
    assert [c.key for c in extract("From now on, always include sources.")] == ["reply-sources"]


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("I'm intolerant to fructose.", "sensitivity-fructose", "Is intolerant to fructose"),
        ("I'm intolerant of lactose.", "health-lactose-intolerance", "Is intolerant of lactose"),
        ("I'm on a low FODMAP diet.", "diet-low-fodmap", "Is on a low FODMAP diet"),
        ("I'm sober, 3 years now.", "health-sobriety", "Is sober, 3 years now"),
        ("I get anaphylaxis from bee stings.", "allergy-bee-stings", "Gets anaphylaxis from bee stings"),
        ("I'm anaphylactic to shellfish.", "allergy-shellfish", "Is anaphylactic to shellfish"),
        ("I can't drink milk, it upsets my stomach.", "sensitivity-milk", "Can't drink milk, it upsets their stomach"),
        ("我对芒果和菠萝都过敏。", "allergy-pineapple", "对菠萝过敏"),
    ],
)
def test_safety_statements_of_the_last_batch_are_core_facts(message: str, key: str, content: str) -> None:
    """R-READ-6 (twenty-first probe, a last batch of 30 safety statements): "I'm intolerant to fructose", "I'm on a
    low FODMAP diet", "I'm sober, 3 years now" and "I get anaphylaxis from bee stings" stored nothing; "I can't drink
    milk, it upsets my stomach" was a taste; 「我对芒果和菠萝都过敏」 stored 「对芒果都过敏」."""
    found = [c for c in extract(message) if c.key == key]
    assert [c.content for c in found] == [content]
    assert is_core_memory(found[0].memory_type, key, found[0].content)


# --- twenty-second probe (held-out bursts and statements, written before the run) -------------------------------


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("I have chronic kidney disease.", "health-kidney-disease", "Has chronic kidney disease"),
        ("I've got CKD.", "health-kidney-disease", "Has CKD"),
        ("I have kidney problems.", "health-kidney-disease", "Has kidney problems"),
        ("我有慢性肾病。", "health-kidney-disease", "有慢性肾病"),
        ("I have mild asthma.", "health-asthma", "Has mild asthma"),
        ("I have severe eczema.", "health-eczema", "Has severe eczema"),
        ("我有湿疹。", "health-eczema", "有湿疹"),
        ("I have a heart murmur.", "health-heart-murmur", "Has a heart murmur"),
        ("我有低血糖，饿了会头晕。", "health-hypoglycemia", "有低血糖"),
        ("I wear hearing aids.", "health-hearing-aid", "Wears hearing aids"),
        ("I'm on blood thinners, so no aspirin.", "sensitivity-aspirin", "Can't take aspirin"),
        (
            "I can't eat anything fried, doctor's orders.",
            "diet-anything-fried",
            "Doctor told them to avoid anything fried",
        ),
    ],
)
def test_conditions_said_with_a_degree_a_short_name_or_a_reason_are_core_facts(
    message: str, key: str, content: str
) -> None:
    """R-READ-6 (twenty-second probe): "I have chronic kidney disease", "I've got CKD", "I have mild asthma",
    「我有慢性肾病」, 「我有低血糖」, "I have a heart murmur" and "I wear hearing aids" stored nothing; "…, so no
    aspirin" lost the drug ruled out; "I can't eat anything fried, doctor's orders" stored "Can't eat doctor's
    orders" as a taste."""
    found = extract(message)
    assert [(c.key, c.content) for c in found if c.key == key] == [(key, content)]
    assert is_core_memory(found[[c.key for c in found].index(key)].memory_type, key, content)
    assert all("orders" not in c.key for c in found)


def test_a_job_left_ends_the_occupation_and_a_job_taken_up_is_the_occupation_now() -> None:
    """R-WRITE-2 (twenty-second probe, held-out bursts): "I quit my job as an accountant" and "I left my job as a
    teacher" stored the job left as the occupation; "I became a chef", "…and became a chef" and "I do accounting
    for a living" stored nothing."""
    accountant = [ExistingMemory(1, "occupation", "fact", "Occupation: accountant")]
    assert sorted(refined("I quit my job as an accountant.", accountant)) == [("delete", "fact", "occupation")]
    assert refined("I quit my job as a teacher.", accountant) == []
    assert [(c.key, c.content) for c in written("I quit accounting and became a chef.")] == [
        ("occupation", "Occupation: chef")
    ]
    assert [(c.key, c.content) for c in extract("I've just become a nurse.")] == [("occupation", "Occupation: nurse")]
    assert [(c.key, c.content) for c in extract("I do accounting for a living.")] == [
        ("occupation", "Does accounting for a living")
    ]


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("I tend to stay up really late.", "habit-staying-up-late", "Tends to stay up really late"),
        ("I usually go to bed late.", "habit-staying-up-late", "Usually goes to bed late"),
        ("I've got two kids.", "family-children", "Has two kids"),
        ("I've got asthma.", "health-asthma", "Has asthma"),
        ("I like answers formatted as Markdown.", "reply-format", "Likes answers formatted as Markdown"),
        ("羊肉我一口都不吃。", "food-lamb", "不吃羊肉"),
        ("咖啡我一滴都不喝。", "drink-coffee", "不喝咖啡"),
        ("Every Saturday I play tennis.", "sport-tennis", "Plays tennis every Saturday"),
        ("ON WEEKENDS I hike.", "sport-hiking", "Hikes on weekends"),
        ("I'm Jewish and keep kosher.", "diet-kosher", "Keeps kosher"),
        (
            "Please don't ever give me medical advice without a disclaimer.",
            "rule-medical-advice-without-disclaimer",
            "Please don't ever give me medical advice without a disclaimer",
        ),
        (
            "No more than three bullet points per answer, please.",
            "reply-length",
            "No more than three bullet points per answer, please",
        ),
    ],
)
def test_held_out_wordings_of_everyday_facts_and_rules_are_read_once(message: str, key: str, content: str) -> None:
    """R-TYPE-2, R-WRITE-3 (twenty-second probe): each stored nothing, a second memory ("I like answers formatted as
    Markdown" was also a taste of `preference-answers-formatted-as-markdown`), or odd text ("Has got two kids" was
    nothing at all; "Every Saturday I play tennis" kept the first person; "oN WEEKENDS")."""
    assert [(c.key, c.content) for c in extract(message)] == [(key, content)]


def test_a_drug_taken_is_no_tool_used() -> None:
    """R-TYPE-2 (twenty-second probe, held-out bursts): 「我一直在服用二甲双胍」 was also read as using a tool
    (服用 holds 用), `preference-metformin` beside the medication."""
    assert [c.key for c in extract("我一直在服用二甲双胍。")] == ["medication-metformin"]
    assert [c.key for c in extract("我平时用VS Code写代码。")] == ["preference-vs-code"]


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("I've started learning ukulele.", "goal-ukulele", "Has started learning ukulele"),
        ("I'm teaching myself the ukulele.", "goal-ukulele", "Is teaching themselves the ukulele"),
        ("I started learning Spanish.", "goal-spanish", "Started learning Spanish"),
        ("I started learning to code.", "goal-coding", "Started learning to code"),
        ("我想减掉十斤。", "goal-weight-loss", "想减掉十斤"),
        ("我的目标是减十斤。", "goal-weight-loss", "目标是减十斤"),
        ("My goal is to lose 10 pounds.", "goal-weight-loss", "Goal is to lose 10 pounds"),
        ("我今年的目标是读完二十本书。", "goal-reading", "今年的目标是读完二十本书"),
        ("回答里的生字请标上拼音。", "rule-pinyin", "回答里的生字请标上拼音"),
        ("遇到生字给我注音。", "rule-pinyin", "遇到生字给我注音"),
        ("I listen to a lot of podcasts.", "media-podcasts", "Listens to a lot of podcasts"),
        ("I read about two books a month.", "habit-reading", "Reads about two books a month"),
        ("I love books.", "habit-reading", "Loves books"),
        ("我每天刷抖音。", "media-short-videos", "每天刷抖音"),
    ],
)
def test_goals_rules_and_pastimes_of_the_third_set_get_one_readable_key(message: str, key: str, content: str) -> None:
    """R-TYPE-2, R-WRITE-3 (twenty-second probe, third set of held-out bursts and a second batch of statements):
    "I've started learning ukulele" was a taste (`music-ukulele`) beside the goal of "I'm learning the ukulele";
    "I started learning Spanish", "I'm teaching myself…", 「我想减掉十斤」, the pinyin rules, podcasts, books a month and
    抖音 stored nothing; 「我的目标是减十斤」 and 「读完二十本书」 were hash-keyed."""
    assert [(c.key, c.content) for c in extract(message)] == [(key, content)]


@pytest.mark.parametrize("message", ["我的狗去年走了。", "我的狗没了。", "我家狗狗上个月死了。"])
def test_a_pet_gone_with_a_time_word_ends_the_pet(message: str) -> None:
    """R-WRITE-2 (twenty-second probe): 「我的狗去年走了」 was keyed by a hash of 「狗去年」, so 「养了一只狗」 stayed."""
    assert refined(message, [ExistingMemory(1, "pet-dog", "fact", "养了一只狗")]) == [("delete", "fact", "pet-dog")]


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("阿杰是我男朋友。", "family-partner", "男朋友叫阿杰"),
        ("咪咪是我养的猫。", "pet-cat", "猫叫咪咪"),
        ("我在厦门读大学。", "school-city", "在厦门读大学"),
        ("我大学在厦门读。", "school-city", "在厦门读大学"),
        ("I go to college in Boston.", "school-city", "Goes to college in Boston"),
        ("我在北京大学读书。", "school", "在北京大学上学"),
        ("I go hiking most weekends.", "sport-hiking", "Goes hiking most weekends"),
        ("Most weekends I go hiking.", "sport-hiking", "Goes hiking most weekends"),
        ("Switch back to English please.", "reply-language", "Switch back to English please"),
        ("I retired from dentistry last year.", "occupation", "Retired from dentistry last year"),
    ],
)
def test_held_out_wordings_of_the_fourth_set_are_read(message: str, key: str, content: str) -> None:
    """R-TYPE-2, R-WRITE-2 (twenty-second probe, fourth set of held-out bursts): 「阿杰是我男朋友」 after 「我男朋友叫阿杰」
    was stored as 「男朋友是我男朋友」 (the name put back as the member it names); a college's city, a school named for
    its city (「北京大学」 was taken for the city), "most weekends" and "Switch back to English" stored nothing."""
    assert [(c.key, c.content) for c in extract(message)] == [(key, content)]


def test_a_name_said_first_after_the_member_was_named_is_no_second_statement() -> None:
    """R-WRITE-3 (twenty-second probe): with 「我男朋友叫阿杰」 the turn before, 「阿杰是我男朋友」 read 阿杰 as the member
    and stored 「男朋友是我男朋友」."""
    turn = TurnContext(message="阿杰是我男朋友。", recent=({"role": "user", "content": "我男朋友叫阿杰。"},))
    assert [(c.key, c.content) for c in ENGINE.extract(turn)] == [("family-partner", "男朋友叫阿杰")]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            "I'm 28, vegan, and training for my first marathon in the fall.",
            [("diet", "Is vegan"), ("goal-marathon", "Is training for their first marathon in the fall")],
        ),
        (
            "I don't do dairy or gluten, and I'm trying to cut sugar.",
            [
                ("food-dairy", "Doesn't eat dairy"),
                ("food-gluten", "Doesn't eat gluten"),
                ("goal-sugar", "Is trying to cut sugar"),
            ],
        ),
        (
            "我对花生和芒果过敏，还有轻度哮喘。",
            [("allergy-peanut", "对花生过敏"), ("allergy-mango", "对芒果过敏"), ("health-asthma", "有轻度哮喘")],
        ),
        (
            "FYI I'm colorblind so please don't rely on colors in charts.",
            [
                ("health-colorblind", "Is colorblind"),
                ("rule-rely-colors-charts", "Please don't rely on colors in charts"),
            ],
        ),
        ("I love gluten-free bread.", [("preference-gluten-free-bread", "Loves gluten-free bread")]),
        ("I don't do alcohol.", [("drink-alcohol", "Doesn't drink alcohol")]),
        ("I don't do caffeine or sugar.", []),  # no one verb for a drink and a food: nothing rather than "drink sugar"
    ],
)
def test_a_message_of_several_facts_keeps_each_safety_fact(message: str, expected: list[tuple[str, str]]) -> None:
    """R-READ-6, R-TYPE-2 (twenty-second probe, messages of several facts as chat users write them): "I'm 28, vegan,
    and training for…" stored nothing (the age took the diet, the training had no subject); "I don't do dairy or
    gluten" stored nothing; 「…，还有轻度哮喘」 lost the asthma; "I'm colorblind so please don't rely on colors" kept
    the rule inside the condition. "Gluten-free" names no gluten."""
    assert [(c.key, c.content) for c in extract(message)] == expected


def test_avoiding_dairy_or_gluten_is_a_dietary_restriction() -> None:
    """R-READ-6 (twenty-second probe): "Doesn't eat dairy" was `preference-dairy`, a taste, not core."""
    for message in ("I don't do dairy or gluten.", "我不吃乳制品。"):
        for found in extract(message):
            assert found.key in ("food-dairy", "food-gluten")
            assert is_core_memory(found.memory_type, found.key, found.content)


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("我有甲状腺结节，在定期复查。", "health-thyroid-nodules", "有甲状腺结节"),
        ("我装了心脏支架，在吃阿司匹林和氯吡格雷。", "medication-clopidogrel", "在吃氯吡格雷"),
        ("我装了心脏支架，在吃阿司匹林和氯吡格雷。", "medication-aspirin", "在吃阿司匹林"),
        ("我有过敏性哮喘，对猫毛和尘螨过敏。", "health-asthma", "有过敏性哮喘"),
        ("我是过敏体质，吃药要小心。", "health-allergy-prone", "是过敏体质"),
        ("我有胆结石，不能吃太油的。", "health-gallstones", "有胆结石"),
        ("I'm immunocompromised.", "health-immunocompromised", "Is immunocompromised"),
        ("I had a kidney transplant, so I take immunosuppressants.", "health-transplant", "Had a kidney transplant"),
        (
            "I had a kidney transplant, so I take immunosuppressants.",
            "medication-immunosuppressants",
            "Takes immunosuppressants",
        ),
        ("I'm on an MAOI, so no aged cheese.", "medication-maoi", "Is on an MAOI"),
        ("I'm on an MAOI, so no aged cheese.", "rule-aged-cheese", "No aged cheese"),
        ("I'm hypoglycemic, I need to eat regularly.", "health-hypoglycemia", "Is hypoglycemic"),
        ("I have POTS.", "health-pots", "Has POTS"),
        ("I have tinnitus.", "health-tinnitus", "Has tinnitus"),
    ],
)
def test_conditions_drugs_and_what_they_rule_out_of_the_last_batch_are_core(
    message: str, key: str, content: str
) -> None:
    """R-READ-6 (twenty-second probe, 30 safety statements written before the run): each of these stored nothing, or
    (the stent, the MAOI) the condition without the drugs or what the drug rules out."""
    found = [c for c in extract(message) if c.key == key]
    assert [c.content for c in found] == [content]
    assert is_core_memory(found[0].memory_type, key, content)
    assert extract("我今天吃了阿司匹林。") == []  # a pill taken today is no medication kept up


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("Keep code comments in English.", "code-comment-language", "Keep code comments in English"),
        (
            "Don't recommend anything that needs a car, I don't drive.",
            "rule-recommend-needs-car",
            "Don't recommend anything that needs a car",
        ),
        ("Please write like a human, not like a corporate memo.", "reply-style", "Please write like a human"),
        ("Give me sources when you state facts.", "reply-sources", "Give me sources when you state facts"),
        ("I'd like shorter paragraphs.", "reply-style", "Would like shorter paragraphs"),
        ("Ask me before making assumptions.", "rule-assumptions", "Ask me before making assumptions"),
        (
            "Always give me the answer first, then the explanation.",
            "rule-conclusion-first",
            "Always give me the answer first, then the explanation",
        ),
        ("回答问题先给结论。", "rule-conclusion-first", "回答问题先给结论"),
        ("别在回复里加免责声明。", "rule-disclaimers", "别在回复里加免责声明"),
        ("我用的是Linux，命令行示例给Linux的。", "rule-linux", "命令行示例给Linux的"),
        ("时间都按北京时间说。", "timezone", "时区：北京时间"),
    ],
)
def test_rules_of_replying_said_without_from_now_on_are_standing_rules(message: str, key: str, content: str) -> None:
    """R-TYPE-2, R-READ-6 (twenty-second probe, 25 rules of replying written before the run): each stored nothing, or
    (the car) only the trait it gave as the reason; "the answer first" was keyed apart from 「先给结论」."""
    found = [c for c in extract(message) if c.key == key]
    assert [c.content for c in found] == [content]
    assert is_core_memory(found[0].memory_type, key, content) or key == "timezone"


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("我现在主要写Go了。", "preference-go", "现在主要写Go了"),
        ("不用写那么长。", "reply-style", "不用写那么长"),
        ("我家儿子还在幼儿园。", "family-children", "儿子还在幼儿园"),
        ("我家有只猫。", "pet-cat", "我家有只猫"),
    ],
)
def test_wordings_of_the_sixth_set_are_read_once(message: str, key: str, content: str) -> None:
    """R-TYPE-2, R-WRITE-3 (twenty-second probe, sixth set of held-out bursts): 「我现在主要写Go了」 stored nothing (the 了
    was read as 「写了个…」); 「不用写那么长」 was a taste keyed by a hash; 「我家儿子…」 kept 我家 in the family fact."""
    assert [(c.key, c.content) for c in extract(message)] == [(key, content)]
    assert extract("我写了个Python脚本。") == []


def test_a_households_children_and_the_kind_of_place_they_need_are_read() -> None:
    """R-TYPE-2, R-READ-6 (twenty-second probe, family statements): "We have a toddler, so kid-friendly places only"
    stored nothing (a household's children were no one's; the rule had no standing word)."""
    assert [(c.key, c.content) for c in extract("We have a toddler, so kid-friendly places only.")] == [
        ("family-children", "Has a toddler"),
        ("rule-kid-friendly-places", "Kid-friendly places only"),
    ]
    assert [(c.key, c.content) for c in extract("We have twins.")] == [("family-children", "Has twins")]
    assert [c.key for c in extract("Wheelchair-accessible places only, please.")] == ["rule-wheelchair"]


def test_changes_of_the_last_batch_end_or_qualify_what_they_change() -> None:
    """R-WRITE-2 (twenty-second probe, changes said after a fact): 「医生说我的花生过敏已经好了」 left the allergy; 「我膝盖
    受伤了，最近不跑了」 and 「我不游了」 left the sport; 「我现在偶尔喝点酒了」 after 「我不喝酒」 stored nothing; "I eat fish
    now" after "I'm vegetarian" was stored twice, in the diet and as a taste of its own."""
    peanut = [ExistingMemory(1, "allergy-peanut", "fact", "对花生过敏")]
    assert refined("医生说我的花生过敏已经好了。", peanut) == [("delete", "fact", "allergy-peanut")]
    assert refined("我的哮喘已经好了。", peanut) == []
    running = [ExistingMemory(1, "sport-running", "preference", "每天跑步")]
    assert refined("我膝盖受伤了，最近不跑了。", running) == [("delete", "preference", "sport-running")]
    swimming = [ExistingMemory(1, "sport-swimming", "preference", "每天游泳")]
    assert refined("我不游了。", swimming) == [("delete", "preference", "sport-swimming")]
    assert [(c.key, c.content) for c in extract("我现在偶尔喝点酒了。")] == [("drink-alcohol", "现在偶尔喝点酒了")]
    vegetarian = [ExistingMemory(1, "diet", "fact", "Is vegetarian")]
    assert refined("I eat fish now.", vegetarian) == [("append", "fact", "diet")]
    assert refined("我现在开始吃鱼了。", [ExistingMemory(1, "diet", "fact", "是素食主义者")]) == [
        ("append", "fact", "diet")
    ]


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("I'm crazy about Korean food.", "preference-korean-food", "Is crazy about Korean food"),
        ("Korean cuisine is the best.", "preference-korean-food", "Korean cuisine is a favorite"),
        ("I could eat Korean food every day.", "preference-korean-food", "Could eat Korean food every day"),
        ("I listen to audiobooks on my commute.", "media-audiobooks", "Listens to audiobooks on their commute"),
        ("I use Vim for coding.", "preference-vim", "Uses Vim for coding"),
        ("I left law to become a teacher.", "occupation", "Occupation: teacher"),
        ("My company moved me to Austin.", "work-city", "Works in Austin"),
        ("I got transferred to Austin last month.", "work-city", "Works in Austin"),
    ],
)
def test_english_wordings_of_the_eighth_set_are_read_on_one_key(message: str, key: str, content: str) -> None:
    """R-TYPE-2, R-WRITE-2 (twenty-second probe, eighth set of held-out bursts, English): each stored nothing, or (Vim)
    a key of its own (`preference-vim-coding` beside "I use Vim"). "My wife is the best" is no taste."""
    assert [(c.key, c.content) for c in extract(message)] == [(key, content)]
    assert [c.key for c in extract("My wife is the best.")] == ["family-partner"]


def test_a_sensitivity_and_the_avoidance_it_says_are_one_restriction() -> None:
    """R-WRITE-3, R-READ-6 (twenty-third probe): "I can't handle spicy food" and "I can't eat spicy food" were kept
    twice (sensitivity-spicy-food and food-spicy-food), and "I can't have dairy" beside a held lactose intolerance."""
    sensitivity = [ExistingMemory(1, "sensitivity-spicy-food", "fact", "Can't handle spicy food")]
    assert refined("I can't eat spicy food.", sensitivity) == []
    avoidance = [ExistingMemory(1, "food-spicy-food", "preference", "Can't eat spicy food")]
    assert refined("I can't handle spicy food.", avoidance) == [
        ("delete", "preference", "food-spicy-food"),
        ("upsert", "fact", "sensitivity-spicy-food"),
    ]
    intolerance = [ExistingMemory(1, "health-lactose-intolerance", "fact", "Is lactose intolerant")]
    assert refined("I can't have dairy.", intolerance) == []
    assert refined("I can't have caffeine.", intolerance) == [("upsert", "fact", "sensitivity-caffeine")]


def test_wordings_of_the_twenty_third_probes_sixth_set_are_read_on_a_key() -> None:
    """R-TYPE-2, R-WRITE-2 (twenty-third probe, sixth set of held-out bursts): "I'm asthmatic" was `health-asthmatic`
    beside `health-asthma`; 「我下午不喝咖啡」 stored nothing; 「过了中午我就不喝咖啡了」 retired the coffee held (a
    condition's 就 is no quitting)."""
    assert [(c.key, c.content) for c in extract("I'm asthmatic.")] == [("health-asthma", "Is asthmatic")]
    assert [(c.key, c.content) for c in extract("我下午不喝咖啡。")] == [("drink-coffee-cutoff", "下午不喝咖啡")]
    coffee = [ExistingMemory(1, "drink-coffee", "preference", "每天早上喝咖啡")]
    assert refined("过了中午我就不喝咖啡了。", coffee) == [("upsert", "preference", "drink-coffee-cutoff")]
    assert refined("我早就不喝咖啡了。", coffee) == [("delete", "preference", "drink-coffee")]


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("我每周游两次泳。", "sport-swimming", "每周游泳两次"),
        ("我周末会去游个泳。", "sport-swimming", "周末会去游泳"),
        ("我每天都要跑一会儿步。", "sport-running", "每天都要跑步"),
        ("我每天跑五公里。", "sport-running", "每天跑步五公里"),
        ("我每天晨跑。", "sport-running", "每天晨跑"),
        ("I only drink oat milk.", "drink-oat-milk", "Only drinks oat milk"),
        ("Oat milk is the only milk I drink.", "drink-oat-milk", "Oat milk is the only milk I drink"),
        ("我只喝燕麦奶。", "drink-oat-milk", "只喝燕麦奶"),
        ("I drink coffee.", "drink-coffee", "Drinks coffee"),
        ("I only eat halal.", "diet-halal", "Only eats halal"),
        ("Don't show me code unless I ask.", "rule-code", "Don't show me code unless I ask"),
        ("Only give me code when I ask for it.", "rule-code", "Only give me code when I ask for it"),
        ("我孙子今年五岁。", "family-grandchildren", "孙子今年五岁"),
        ("I have a grandson.", "family-grandchildren", "Has a grandson"),
        ("I've got two grandkids.", "family-grandchildren", "Has two grandkids"),
        ("I'm a grandma of three.", "family-grandchildren", "Is a grandma of three"),
        ("I'm a father of two.", "family-children", "Is a father of two"),
        ("我现在是护士长了。", "occupation", "职业：护士长"),
        ("我在医院当护士。", "occupation", "职业：护士"),
        ("我在医院上班。", "employer", "在医院工作"),
        ("I have a stepdaughter.", "family-children", "Has a stepdaughter"),
        ("My stepson is 12.", "family-children", "Stepson is 12"),
        ("我不吃蒜。", "food-garlic", "不吃蒜"),
        ("大蒜我不吃。", "food-garlic", "不吃大蒜"),
        ("专业术语请保留英文。", "rule-english-jargon", "专业术语保留英文"),
        ("技术名词用英文就行。", "rule-english-jargon", "专业术语保留英文"),
        ("我养了一只鹦鹉。", "pet-parrot", "养了一只鹦鹉"),
        ("回答里不要夹英文。", "rule-mixed-languages", "回答里不要夹英文"),
        ("回复不要中英混杂。", "rule-mixed-languages", "回复不要中英混杂"),
        ("别在回答里掺英文。", "rule-mixed-languages", "别在回答里掺英文"),
        ("I travel on a tight budget.", "habit-budget-travel", "Travels on a tight budget"),
        ("I'm a budget traveler.", "habit-budget-travel", "Is a budget traveler"),
        ("我喜欢穷游。", "habit-budget-travel", "喜欢穷游"),
        ("I was born in London.", "hometown", "Is from London"),
        ("London is my hometown.", "hometown", "Is from London"),
        ("Toronto is home.", "residence-city", "Lives in Toronto"),
        ("Boston is where I live.", "residence-city", "Lives in Boston"),
        ("我现在做审计了。", "occupation", "职业：审计"),
        ("I had a heart attack last year.", "health-heart-attack", "Had a heart attack last year"),
        ("I'm a cancer survivor.", "health-cancer", "Is a cancer survivor"),
        ("我以前得过心梗。", "health-heart-attack", "以前得过心梗"),
        ("我做过心脏支架手术。", "health-stent", "做过心脏支架手术"),
        ("I'm recovering from knee surgery.", "health-surgery", "Is recovering from knee surgery"),
        ("我刚做完膝盖手术。", "health-surgery", "刚做完膝盖手术"),
        ("我有色弱。", "health-colorblind", "有色弱"),
        ("I can't eat anything with MSG.", "food-msg", "Can't eat anything with MSG"),
        ("我吃饭不吃香菜。", "food-cilantro", "吃饭不吃香菜"),
        ("我因为宗教原因不吃猪肉。", "diet-pork", "不吃猪肉（宗教原因）"),
        ("我信仰伊斯兰教，不吃猪肉。", "diet-pork", "不吃猪肉（宗教原因）"),
        ("猪肉我是不能吃的，宗教原因。", "diet-pork", "不能吃猪肉（宗教原因）"),
        ("代码示例尽量短一点。", "reply-code-length", "代码示例尽量短一点"),
        ("给我的代码别太长。", "reply-code-length", "给我的代码别太长"),
        ("Keep code examples short.", "reply-code-length", "Keep code examples short"),
        ("我闺女在学弹钢琴。", "family-children", "闺女在学弹钢琴"),
        ("I moved into sales.", "work-field", "Works in sales"),
        ("I'm not a morning person.", "habit-early-rising", "Is not a morning person"),
        ("I'm sick of ramen now.", "food-noodles", "Is sick of ramen now"),
        ("我女儿今天四岁生日。", "family-children", "女儿今年四岁了"),
        ("我现在回公司坐班了。", "work-location", "现在回公司坐班了"),
        ("Please correct my Spanish mistakes.", "rule-corrections-spanish", "Please correct my Spanish mistakes"),
        ("我说错了请纠正我。", "rule-corrections", "说错了请纠正我"),
        ("我跑过三次全马。", "sport-marathon", "跑过三次全马"),
        ("I've run three marathons.", "sport-marathon", "Has run three marathons"),
        ("I play jazz piano.", "music-piano", "Plays jazz piano"),
        ("我喜欢弹爵士钢琴。", "music-piano", "喜欢弹爵士钢琴"),
        ("不用对我那么客气。", "reply-style", "不用对我那么客气"),
        ("我是租房住的。", "home", "是租房住的"),
        ("I rent an apartment.", "home", "Rents an apartment"),
        ("我换了苹果手机。", "device-iphone", "换了苹果手机"),
        ("I used to live in Chicago but moved to Denver last year.", "residence-city", "Lives in Denver"),
        ("I used to live in Chicago but now I live in Denver.", "residence-city", "Lives in Denver"),
        ("以后多举例子。", "rule-examples", "以后多举例子"),
        ("我们家的狗叫豆豆，是只柯基。", "pet-dog", "我们家的狗叫豆豆，是只柯基"),
        ("I started working from home.", "work-location", "Started working from home"),
        ("我不能吃豆制品，会过敏。", "allergy-soy", "不能吃豆制品，会过敏"),
        ("我喜欢喝普洱。", "drink-puer-tea", "喜欢喝普洱"),
        ("我喜欢喝红茶。", "drink-black-tea", "喜欢喝红茶"),
        ("I do cardio every morning.", "preference-cardio", "Does cardio every morning"),
        ("I'm back on day shifts now.", "work-schedule", "Is back on day shifts now"),
    ],
)
def test_wordings_of_the_twenty_third_probe_are_read_on_one_key(message: str, key: str, content: str) -> None:
    """R-TYPE-2, R-WRITE-3, R-READ-6 (twenty-third probe: seven sets of held-out bursts and batches of statements).
    Each stored nothing, a key of its own beside the fact's (a hash, or its words), or the wrong fact:
    - a sport's two characters split by its count (「游两次泳」) or said by its verb with a distance; a plant milk,
      a parrot, 蒜 (hash keys); "I only drink …", "I drink coffee"; "Don't show me code unless I ask" and "… include
      code …" were two rules, "Only give me code when I ask" none;
    - grandchildren and stepchildren were no family, nor "I'm a father of two" or 「我闺女…」 (the user's own goal);
      「护士长」 and a final 了 were no occupation, nor 审计 or "I moved into sales"; 「在医院当护士」 stored the
      hospital's kind as an employer; "I was born in London" was "Grew up in London", a place said before "is my
      hometown" or "is home" stored nothing;
    - 「技术名词」 was no jargon; a reply rule against English mixed in, travelling on a budget, "I'm not a morning
      person" stored nothing; 「给我的代码别太长」 overwrote the reply's length (reply-style);
    - safety: a medical history (a heart attack, cancer, a stent) and a recent operation stored nothing (「我以前…」 was
      a former state), nor 「我有色弱」, 「我吃饭不吃香菜」 or 「我因为宗教原因不吃猪肉」 (「我信仰伊斯兰教，不吃猪肉」
      lost its reason); "anything with MSG" was a key of its own words;
    - new values lost (eighth set): "I'm sick of ramen now", 「我女儿今天四岁生日」 (a day's window), 「我现在回公司坐班了」;
      asking to be corrected, races run stored nothing;
    - ninth set: "jazz piano" was music-jazz (a compound's second word names the thing); 「不用对我那么客气」 was a
      taste keyed by a hash; renting and 「我换了苹果手机」 (no final 了) stored nothing;
    - messages of several facts: a move after the home left ("I used to live in Chicago but moved to Denver") was read
      as a former state and lost; 「多举例子」 after other rules, 「我们家的狗…」, "I started working from home" stored
      nothing;
    - tenth set: 豆制品 (an allergy keyed by a hash beside allergy-soy), 普洱 and 红茶 (hash keys), cardio, and "I'm back on
      day shifts now" (a new value lost) were not read."""
    assert [(c.key, c.content) for c in extract(message)] == [(key, content)]


def test_what_the_twenty_third_probes_rules_leave_alone() -> None:
    """What the rules added for the twenty-third probe do not read: how much one drinks, a book's title (孙子兵法), a
    saying ("Home is where the heart is"), a bad day, a liking of the past; a reply's own length stays reply-style."""
    assert [c.key for c in extract("I drink too much.")] == []
    assert extract("我在读孙子兵法。") == []
    assert extract("Home is where the heart is.") == []
    assert [c.key for c in extract("I had a bad day.")] == []
    assert [c.key for c in extract("我以前喜欢喝咖啡。")] == []
    assert [c.key for c in extract("回答简短一点。")] == ["reply-style"]
    # A coffee shop is no coffee (the job is a lasting fact in the user's words: `rules.lasting`).
    assert not [c for c in extract("我周末在咖啡店兼职。") if c.key.startswith("drink-")]


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("我下午不喝咖啡。", "drink-coffee-cutoff", "下午不喝咖啡"),
        ("睡前不喝茶。", "drink-tea-cutoff", "睡前不喝茶"),
        ("I never drink coffee after 2pm.", "drink-coffee-cutoff", "Never drinks coffee after 2pm"),
        ("I don't drink coffee in the evening.", "drink-coffee-cutoff", "Doesn't drink coffee in the evening"),
        # No quitting: not at those hours any more, the mornings' coffee is not given up.
        ("我晚上不喝咖啡了。", "drink-coffee-cutoff", "晚上不喝咖啡了"),
        (
            "I don't drink coffee in the evening anymore.",
            "drink-coffee-cutoff",
            "Doesn't drink coffee in the evening anymore",
        ),
        ("I stopped drinking coffee after lunch.", "drink-coffee-cutoff", "Stopped drinking coffee after lunch"),
        ("下午三点以后我就不喝咖啡了。", "drink-coffee-cutoff", "下午三点以后我就不喝咖啡了"),
        # When the user stops eating: one slot, its hour said one way.
        ("晚上八点以后不吃东西。", "eating-cutoff", "晚上8点以后不吃东西"),
        ("我晚上8点以后就不吃东西了。", "eating-cutoff", "晚上8点以后不吃东西"),
        ("晚饭后我就不吃东西了。", "eating-cutoff", "晚饭以后不吃东西"),
        ("睡觉前不吃东西。", "eating-cutoff", "睡前不吃东西"),
        ("我过午不食。", "eating-cutoff", "过午不食"),
        ("I don't eat after 8pm.", "eating-cutoff", "Doesn't eat after 8pm"),
        ("I stop eating after 7 pm.", "eating-cutoff", "Doesn't eat after 7pm"),
        ("I never eat after dinner.", "eating-cutoff", "Doesn't eat after dinner"),
    ],
)
def test_keeping_from_an_item_at_some_hours_is_a_fact_of_its_own(message: str, key: str, content: str) -> None:
    """R-WRITE-2, issue 13.1 (session 33): 「我每天早上喝咖啡」 then 「我下午不喝咖啡」 left only the afternoon: both were
    drink-coffee, so the second overwrote the first. The hours an item is kept from are its `-cutoff` key; 「我晚上不喝咖啡了」
    retired the coffee held; "I don't eat after 8pm" was keyed by its words, 「晚上八点以后不吃东西」 stored nothing."""
    assert [(c.op, c.key, c.content) for c in extract(message)] == [("upsert", key, content)]


def test_an_item_given_up_whatever_the_hour_is_still_retired() -> None:
    """R-WRITE-2: a quitting without hours still ends the habit held, and 「早就」 is long since, no condition."""
    coffee = [ExistingMemory(1, "drink-coffee", "preference", "每天早上喝咖啡")]
    assert refined("我不喝咖啡了。", coffee) == [("delete", "preference", "drink-coffee")]
    assert refined("I quit coffee.", [ExistingMemory(1, "drink-coffee", "preference", "Drinks coffee")]) == [
        ("delete", "preference", "drink-coffee")
    ]
    assert refined("我晚上不喝酒了。", []) == [("upsert", "preference", "drink-alcohol-cutoff")]  # no diet part


@pytest.mark.parametrize(
    ("message", "read"),
    [
        ("Keep meal suggestions cheap.", [("upsert", "rule-meals", "Keep meal suggestions cheap")]),
        ("Only suggest cheap meals.", [("upsert", "rule-meals", "Only suggest cheap meals")]),
        ("Give me measurements in metric.", [("upsert", "reply-units", "Uses metric units")]),
        ("Metric units please.", [("upsert", "reply-units", "Uses metric units")]),
        ("专业名词不用翻译成中文。", [("upsert", "rule-english-jargon", "专业术语保留英文")]),
        ("技术名词别翻译。", [("upsert", "rule-english-jargon", "专业术语保留英文")]),
        ("Don't translate technical terms.", [("upsert", "rule-english-jargon", "Keep technical terms in English")]),
        ("I previously had a stroke.", [("upsert", "health-stroke", "Previously had a stroke")]),
        (
            "I previously had a hysterectomy.",
            [("upsert", "said-previously-had-hysterectomy", "Previously had a hysterectomy")],
        ),
        ("我以前做了阑尾手术。", [("upsert", "said-surgery-h78268a3", "以前做了阑尾手术")]),
        ("全马我跑过三次。", [("upsert", "sport-marathon", "全马我跑过三次")]),
        ("我跑过四次全马了。", [("upsert", "sport-marathon", "跑过四次全马了")]),
        ("奶茶我戒掉了。", [("delete", "drink-milk-tea", "戒掉奶茶")]),
        (
            "我不吃葱姜蒜。",
            [
                ("upsert", "food-scallion", "不吃葱"),
                ("upsert", "food-ginger", "不吃姜"),
                ("upsert", "food-garlic", "不吃蒜"),
            ],
        ),
    ],
)
def test_wordings_the_twenty_third_probe_left_unread_are_read(message: str, read: list[tuple[str, str, str]]) -> None:
    """R-TYPE-2, R-READ-6, issue 13.1 (left by the twenty-third probe, read in session 33): each stored nothing, or
    under a key of its own words (「葱姜蒜」 was one item keyed by a hash; 「专业名词不用翻译成中文」 a rule beside
    「专业术语保留英文」); 「我跑过四次全马了」 (a final 了) was not read. ("I'm a jazz pianist" stays unread: the shipped
    bursts b20-en-violin and b24-en-jazz-piano hold it for the hobby, where an occupation rule had put it.) A surgery
    said with "previously" or 以前 is a history of the body, as a stroke is (session 40: dropped as the past)."""
    assert [(c.op, c.key, c.content) for c in extract(message)] == read


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("I take oat milk in my coffee.", "drink-coffee-taken", "Takes coffee with oat milk"),
        ("I drink my coffee with oat milk.", "drink-coffee-taken", "Takes coffee with oat milk"),
        ("I take my coffee black.", "drink-coffee-taken", "Takes coffee black"),
        ("I put sugar in my tea.", "drink-tea-taken", "Takes tea with sugar"),
        ("我喝咖啡加燕麦奶。", "drink-coffee-taken", "喝咖啡加燕麦奶"),
        ("咖啡我一般加燕麦奶。", "drink-coffee-taken", "喝咖啡加燕麦奶"),
        ("我现在每天去公司上班了。", "work-location", "现在每天去公司上班了"),
        ("My time zone is Pacific Time.", "timezone", "Time zone: Pacific"),
        ("I work out in the evenings now.", "preference-work-out", "Works out in the evenings now"),
        ("I lead a team of five engineers.", "work-team", "Leads a team of 5"),
        ("I'm the lead of a five-person engineering team.", "work-team", "Leads a team of 5"),
        ("I manage a team of 8 engineers now.", "work-team", "Leads a team of 8"),
        ("我管理一个十人的团队。", "work-team", "带一个10人的团队"),
        ("I live on Pacific time.", "timezone", "Time zone: Pacific"),
        ("我每天走一万步。", "sport-walking", "每天走一万步"),
        ("I go for a walk every evening.", "sport-walking", "Goes for a walk every evening"),
        ("我两个孩子都上大学了。", "family-children", "两个孩子都上大学了"),
        ("I develop in Python for a living.", "occupation", "Occupation: Python developer"),
        ("I code in Go professionally.", "occupation", "Occupation: Go developer"),
    ],
)
def test_wordings_of_the_session_33_probe_are_read_on_one_key(message: str, key: str, content: str) -> None:
    """R-TYPE-2, issue 13.1 (session 33's held-out bursts and statements): how a coffee is taken stored nothing (a new
    milk was lost with it), nor 「我现在每天去公司上班了」 (a new value lost), walking, or 「我两个孩子…」 (a count before the
    family word); "I develop in Python for a living" was a liking of Python beside the occupation."""
    assert [(c.key, c.content) for c in extract(message)] == [(key, content)]


@pytest.mark.parametrize(
    ("first", "then", "held"),
    [
        (
            "I only eat halal.",
            "I'm gluten-free.",
            [("diet-gluten-free", "Is gluten-free"), ("diet-halal", "Only eats halal")],
        ),
        ("I'm vegetarian.", "I'm on a keto diet.", [("diet", "Is vegetarian"), ("diet-keto", "Is on a keto diet")]),
        ("我吃清真。", "我在吃生酮饮食。", [("diet-halal", "吃清真"), ("diet-keto", "在吃生酮饮食")]),
    ],
)
def test_two_diets_kept_together_are_two_facts(first: str, then: str, held: list[tuple[str, str]]) -> None:
    """R-READ-6, R-WRITE-2 (session 33's third held-out set): "I'm gluten-free" after "I only eat halal" overwrote the
    one `diet` slot: the halal diet, a core fact, was lost. Each diet of another kind has its own key."""
    keys = sorted((c.key, c.content) for c in extract(first) + extract(then))
    assert keys == held


def test_a_named_diet_given_up_ends_the_diet_of_its_kind() -> None:
    """R-WRITE-2: "I quit keto" ends diet-keto, not the vegetarian `diet` held beside it; 「我不搞生酮了」 stored nothing."""
    held = [
        ExistingMemory(1, "diet", "fact", "Is vegetarian"),
        ExistingMemory(2, "diet-keto", "fact", "Is on a keto diet"),
    ]
    assert refined("I quit keto.", held) == [("delete", "fact", "diet-keto")]
    assert refined("I'm off keto now.", held) == [("delete", "fact", "diet-keto")]
    assert refined("我不搞生酮了。", [ExistingMemory(1, "diet-keto", "fact", "在吃生酮饮食")]) == [
        ("delete", "fact", "diet-keto")
    ]


def test_a_meal_skipped_is_no_eating_cutoff_nor_a_quitting() -> None:
    """R-WRITE-2 (session 33, review): 「我中午不吃饭」 skips lunch; the eating-cutoff and hours-retirement rules added
    this session read it as 「中午以后不吃东西」 and as the end of a food held, before they asked for 以后 after 中午."""
    assert [(c.op, c.key) for c in extract("我中午不吃饭。")] == [("upsert", "preference-hcded745")]


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        ("I'm a jazz pianist.", "music-piano", "Is a jazz pianist"),
        ("I'm a violinist.", "music-violin", "Is a violinist"),
        ("I'm an amateur cellist.", "music-cello", "Is an amateur cellist"),
        ("I'm a professional violinist.", "occupation", "Occupation: violinist"),
        ("I work as a jazz pianist.", "occupation", "Occupation: jazz pianist"),
        ("I work as a guitarist at a restaurant.", "occupation", "Occupation: guitarist at a restaurant"),
    ],
)
def test_who_plays_an_instrument_plays_it_unless_it_is_said_as_a_job(message: str, key: str, content: str) -> None:
    """R-WRITE-2 (twenty-fifth probe): "I'm a jazz pianist" and "I'm a violinist" stored nothing. Said alone they are
    the instrument played (the shipped bursts b20-en-violin and b24-en-jazz-piano hold them as "I play the violin"); a
    job when said as one."""
    assert [(c.key, c.content) for c in extract(message)] == [(key, content)]


@pytest.mark.parametrize(
    ("message", "key", "content"),
    [
        # How well the user speaks a language: one wording per level, a key per language.
        ("我英语不太好。", "language-english", "英语水平：一般"),
        ("我英文不太行。", "language-english", "英语水平：一般"),
        ("我的日语很流利。", "language-japanese", "日语水平：流利"),
        ("My English isn't very good.", "language-english", "Speaks basic English"),
        ("My Spanish is rusty now.", "language-spanish", "Speaks rusty Spanish"),
        ("My English is not bad.", "language-english", "Speaks basic English"),
        ("My English is bad.", "language-english", "Speaks poor English"),
        # Sleeping lightly, however said.
        ("I'm a light sleeper.", "trait-light-sleeper", "Is a light sleeper"),
        ("I sleep lightly.", "trait-light-sleeper", "Sleeps lightly"),
        ("我睡眠很浅。", "trait-light-sleeper", "睡眠很浅"),
        # Short sight in Chinese numerals, and with 有.
        ("我近视八百度。", "trait-nearsighted", "近视八百度"),
        ("我近视有800度。", "trait-nearsighted", "近视有800度"),
        # When the user gets off work, one hour said one way.
        ("我一般晚上十点以后才下班。", "work-end", "10点以后下班"),
        ("我平时晚上10点后才下班。", "work-end", "10点以后下班"),
        ("I usually finish work around 6 pm.", "work-end", "Finishes work around 6pm"),
        # A tight budget said without the word, the office gone to, a bedtime at midnight.
        ("Money is tight for me.", "budget", "Is on a tight budget"),
        ("I'm trying to spend as little as possible.", "budget", "Is on a tight budget"),
        ("I go into the office every day now.", "work-location", "Goes into the office every day now"),
        ("I go to bed at midnight these days.", "preference-bedtime", "Goes to bed at midnight these days"),
        # How long the user sleeps (「每晚睡六个小时」 holds 晚睡: it was read as staying up late), where lunch is had, a
        # routine after work.
        ("我每晚睡六个小时。", "sleep-hours", "每天睡6小时"),
        ("我一天睡6小时左右。", "sleep-hours", "每天睡6小时"),
        ("I get about 7 hours of sleep.", "sleep-hours", "Sleeps 7 hours a night"),
        ("我中午一般吃食堂。", "lunch-place", "午饭一般在食堂吃"),
        ("中午我一般去食堂吃饭。", "lunch-place", "午饭一般在食堂吃"),
        ("I go to the gym after work.", "sport-gym", "Goes to the gym after work"),
        ("我下班后去健身房。", "sport-gym", "下班后去健身房"),
        # How far the user runs each time (「我一般跑5公里」 was running, 「我每次跑步跑五公里」 nothing), a favourite colour.
        ("我每次跑步跑五公里。", "running-distance", "每次跑5公里"),
        ("我一般跑5公里。", "running-distance", "每次跑5公里"),
        ("My favourite colour is green.", "favorite-color", "Favourite colour is green"),
    ],
)
def test_held_out_statements_of_the_twenty_fifth_probe_are_read(message: str, key: str, content: str) -> None:
    """R-WRITE-2 (twenty-fifth probe, held-out bursts): each of these stored nothing, or (the budget) a goal beside the
    budget, or (「我英语不太好」 / 「我英文不太行」) would have flip-flopped between its wordings."""
    assert [(c.key, c.content) for c in extract(message)] == [(key, content)]


@pytest.mark.parametrize(
    "message", ["I'm going to the gym after work.", "I'll go swimming after work.", "我今天下班后去健身房"]
)
def test_a_time_of_the_workday_said_of_one_day_is_no_habit(message: str) -> None:
    """R-WRITE-2 (twenty-fifth probe): "after work" makes a routine of an activity only when no day is named."""
    assert extract(message) == []


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # A best race time, said one way.
        ("我全马最好成绩是三小时五十分。", [("running-best-marathon", "全马最好成绩3小时50分")]),
        ("我的全马PB是3小时50分。", [("running-best-marathon", "全马最好成绩3小时50分")]),
        ("我全马最好跑过3小时50分。", [("running-best-marathon", "全马最好成绩3小时50分")]),
        ("我半马最好成绩是一个半小时。", [("running-best-half-marathon", "半马最好成绩1小时30分")]),
        ("My marathon PB is 3:50.", [("running-best-marathon", "Best marathon time: 3:50")]),
        ("My best marathon time is 3 hours 50 minutes.", [("running-best-marathon", "Best marathon time: 3:50")]),
        (
            "My personal best in the half marathon is 1:45.",
            [("running-best-half-marathon", "Best half marathon time: 1:45")],
        ),
        # The floor of the home, and no lift right after it.
        ("我住六楼，没有电梯。", [("home-floor", "住在6楼，没有电梯")]),
        ("我住在6楼，楼里没有电梯。", [("home-floor", "住在6楼，没有电梯")]),
        ("I live on the sixth floor and there's no elevator.", [("home-floor", "Lives on floor 6, no elevator")]),
        ("My apartment is on the 6th floor, no lift.", [("home-floor", "Lives on floor 6, no elevator")]),
        # A weight to lose in words.
        ("My goal is to lose ten pounds.", [("goal-weight-loss", "Goal is to lose ten pounds")]),
        # Conditions: dry eye, gastritis (its vaguer name said with it goes), acid reflux, hay fever.
        ("我眼睛有干眼症的毛病。", [("health-dry-eye", "眼睛有干眼症的毛病")]),
        ("我胃不好，是慢性胃炎。", [("health-gastritis", "有慢性胃炎")]),
        ("I deal with acid reflux.", [("health-acid-reflux", "Deals with acid reflux")]),
        ("I get hay fever every spring.", [("health-hay-fever", "Gets hay fever every spring")]),
        ("Every spring my hay fever kicks in.", [("health-hay-fever", "Hay fever kicks in every spring")]),
        # Amounts aimed at, in digits.
        ("我打算每个月存五千块钱。", [("goal-saving", "目标每月存5000元")]),
        ("每个月攒下五千块是我现在的存钱计划。", [("goal-saving", "目标每月存5000元")]),
        ("I save $500 a month.", [("goal-saving", "Aims to save $500 a month")]),
        ("我每天的目标是走一万步。", [("goal-walking", "目标每天走10000步")]),
        ("每天走够一万步是我的目标。", [("goal-walking", "目标每天走10000步")]),
        ("My goal is 10,000 steps a day.", [("goal-walking", "Aims to walk 10000 steps a day")]),
        # How long a nap is, in minutes, the bare habit before it included.
        ("我每天中午午睡半小时。", [("habit-nap", "午睡30分钟")]),
        ("我有午睡的习惯，一般睡半个小时。", [("habit-nap", "午睡30分钟")]),
        ("中午我都会睡上半小时。", [("habit-nap", "午睡30分钟")]),
        ("I take a 20-minute nap every day.", [("habit-nap", "Naps for 20 minutes")]),
        # The device used and the one read on, said one way.
        ("I use a Google Pixel phone.", [("device-pixel", "Uses a Google Pixel")]),
        ("I'm on a Pixel, by the way.", [("device-pixel", "Uses a Google Pixel")]),
        ("I love pixel art.", [("habit-pixel-art", "Loves pixel art")]),
        ("My Kindle is what I use for reading books.", [("device-kindle", "Reads books on a Kindle")]),
        ("Actually, I do all my book reading on a Kindle.", [("device-kindle", "Reads books on a Kindle")]),
        # Supplements taken daily (吃鱼油 is no fish eaten).
        ("I'm on a daily vitamin D supplement.", [("medication-vitamin-d", "Is on a daily vitamin D supplement")]),
        ("我每天吃鱼油。", [("medication-fish-oil", "每天吃鱼油")]),
        # When work starts, how long the way there takes (with the way, one memory).
        ("My workday begins at 7 in the morning.", [("work-start", "Starts work at 7am")]),
        ("我一般九点到公司。", [("work-start", "9点上班")]),
        ("从家到公司我单程得花一个小时左右。", [("commute", "上班单程60分钟")]),
        ("我开车上下班，单程四十分钟。", [("commute", "开车上下班；上班单程40分钟")]),
        # What a trip may cost.
        ("For trips, I typically budget around $2,000.", [("budget-travel", "Travel budget: about $2000")]),
        ("我旅游预算一般在五千左右。", [("budget-travel", "旅行预算5000元左右")]),
        # Reply rules said in many words.
        ("Please break instructions into numbered steps.", [("reply-steps", "Gives how-to answers as numbered steps")]),
        ("I don't need a closing summary in your answers.", [("reply-summary", "No summary at the end of replies")]),
        ("回答最后不要总结。", [("reply-summary", "回答结尾不加总结")]),
        # Habits of a day, said with the day first or as the day's.
        ("每个礼拜六我都去学书法。", [("habit-calligraphy", "每个礼拜六都去学书法")]),
        ("I meal prep every Sunday.", [("habit-meal-prep", "Meal preps every Sunday")]),
        ("Sundays are my meal prep day.", [("habit-meal-prep", "Does meal prep on Sundays")]),
        ("I spend Saturday mornings gardening.", [("habit-gardening", "Does gardening on Saturday mornings")]),
        (
            "On Saturday mornings, I'm usually out gardening.",
            [("habit-gardening", "Is usually out gardening on Saturday mornings")],
        ),
        (
            "I've bumped pickleball up to four times a week.",
            [("preference-pickleball", "Pickleball four times a week now")],
        ),
    ],
)
def test_held_out_statements_of_the_twenty_sixth_probe_are_read(message: str, expected: list[tuple[str, str]]) -> None:
    """R-WRITE-2 (twenty-sixth probe, held-out bursts): each of these stored nothing, or two memories of one fact, or
    a wording that the next paraphrase rewrote (an amount, a duration, a device's name said one way makes the repeat a
    confirmation and another value a new one)."""
    assert [(c.key, c.content) for c in extract(message)] == expected


@pytest.mark.parametrize(
    "message",
    [
        "公司在五楼，没有电梯。",  # not the home's
        "我在六楼。",  # where the user is, not where they live
        "Weekends are for hiking.",
        "Can you give me numbered steps for installing Docker?",  # one request
    ],
)
def test_what_the_twenty_sixth_probe_reads_is_not_read_where_it_is_not_said(message: str) -> None:
    """R-WRITE-2: the floor, the lift and the reply rules of the twenty-sixth probe are read only as said of the user."""
    assert extract(message) == []


def test_a_trigger_of_a_condition_stays_a_sensitivity() -> None:
    """R-TYPE-2: "I get hay fever every spring" is the condition, "I get migraines from red wine" what red wine does."""
    assert [c.key for c in extract("I get migraines from red wine.")] == ["sensitivity-red-wine"]


def test_a_family_members_new_job_after_and_stays_theirs() -> None:
    """R-WRITE-2 (twenty-sixth probe): "and became a firefighter" after "My son quit being an electrician" was stored as
    the user's own occupation."""
    assert [(c.key, c.content) for c in extract("My son quit being an electrician and became a firefighter.")] == [
        ("family-children", "Son quit being an electrician; Son became a firefighter")
    ]
    assert [c.key for c in written("I quit accounting and became a chef.")] == ["occupation"]
    # Someone else's new job or car is no fact of the user's.
    assert extract("My friend quit his job and became a chef.") == []
    assert extract("My boss sold his car and bought a Tesla.") == []


def test_parents_brought_to_live_with_the_user_have_moved() -> None:
    """R-WRITE-2 (twenty-sixth probe): 「我把爸妈从河南接过来跟我一起住了」 stored nothing."""
    assert [(c.key, c.content) for c in extract("我把爸妈从河南接过来跟我一起住了。")] == [
        ("family-parents", "爸妈从河南搬过来跟我一起住了")
    ]


def test_a_supplement_switched_by_the_doctor_ends_the_one_before() -> None:
    """R-WRITE-2 (twenty-sixth probe): a supplement is a medication (vitamin D to B12 stored nothing)."""
    said = {(c.op, c.key) for c in extract("My doctor switched me from vitamin D to a daily B12 supplement.")}
    assert said == {("upsert", "medication-vitamin-b12"), ("delete", "medication-vitamin-d")}


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # The partner's family: 公公 was the user (health-parkinsons), 老公的爸爸 the partner.
        ("我公公有帕金森。", [("family-in-laws", "公公有帕金森")]),
        ("我老公的爸爸得了帕金森病。", [("family-in-laws", "老公的爸爸得了帕金森病")]),
        ("My brother-in-law is a firefighter.", [("family-in-laws", "Brother-in-law is a firefighter")]),
        ("My husband's mother lives with us.", [("family-in-laws", "Husband's mother lives with us")]),
        ("My niece is in medical school.", [("family-relatives", "Niece is in medical school")]),
        ("我表哥在深圳工作。", [("family-relatives", "表哥在深圳工作")]),
        # Hearing in one ear, said one way.
        ("我左边耳朵听东西不太清楚。", [("health-hearing", "左耳听力不好")]),
        ("I'm hard of hearing in my left ear.", [("health-hearing", "Hard of hearing in the left ear")]),
        # A job said by what is done or with the place it is done at.
        ("我的工作是跑外卖。", [("occupation", "职业：外卖骑手")]),
        ("其实我是干外卖骑手这一行的。", [("occupation", "职业：外卖骑手")]),
        ("我业余时间在网上接点翻译兼职。", [("side-job", "副业：翻译")]),
        # Habits whose time comes first, or are the time's, and what is new to the lexicon.
        ("晚饭过后我天天都要喝杯酸奶。", [("drink-yogurt", "晚饭过后天天都要喝杯酸奶")]),
        ("周五晚上是我跟朋友固定打麻将的时间。", [("habit-mahjong", "周五晚上跟朋友固定打麻将")]),
        ("古筝课我是每周去上一次。", [("music-guzheng", "古筝课每周去上一次")]),
        ("Tuesday nights I'm at my bowling league.", [("sport-bowling", "Is at their bowling league Tuesday nights")]),
        ("My bowling league moved to Thursday nights.", [("sport-bowling", "Bowling league Thursday nights now")]),
        (
            "Every weekend I bake my own sourdough bread.",
            [("habit-baking", "Bakes their own sourdough bread every weekend")],
        ),
        # A drink had instead of another, said one way.
        (
            "Sparkling water is what I drink instead of soda.",
            [("drink-sparkling-water", "Drinks sparkling water instead of soft drinks")],
        ),
        (
            "Instead of soft drinks, I go for sparkling water.",
            [("drink-sparkling-water", "Drinks sparkling water instead of soft drinks")],
        ),
        # Pets of more kinds, named however said.
        ("My pet ferret is called Pepper.", [("pet-ferret", "Has a ferret named Pepper")]),
        ("Spike is my bearded dragon, by the way.", [("pet-bearded-dragon", "Has a bearded dragon named Spike")]),
        # Units, clocks and currencies asked for with what they are for.
        ("When you mention temperatures, use Celsius.", [("reply-units", "Uses Celsius")]),
        ("When you give me times, use 24-hour format.", [("reply-time-format", "Times in 24-hour format")]),
        ("以后提到体重，单位统一用斤。", [("reply-weight-unit", "体重用斤")]),
        ("提到钱的话，麻烦都换算成人民币给我。", [("reply-currency", "价格用人民币")]),
        ("Please give prices in euros.", [("reply-currency", "Prices in euros")]),
    ],
)
def test_held_out_statements_of_the_twenty_seventh_probe_are_read(
    message: str, expected: list[tuple[str, str]]
) -> None:
    """R-WRITE-2 (twenty-seventh probe, held-out bursts written by a helper that never saw the engine): each of these
    stored nothing, a wording the next paraphrase rewrote, or (公公, 老公的爸爸) a fact of the wrong person."""
    assert [(c.key, c.content) for c in extract(message)] == expected


def test_a_family_members_condition_is_not_the_users() -> None:
    """R-WRITE-2 (twenty-seventh probe): 「我公公有帕金森」 stored health-parkinsons, a core fact of the user's own."""
    assert not [c for c in extract("我公公有帕金森。") if c.key.startswith("health-")]
    assert not [c for c in extract("My mother-in-law is diabetic.") if c.key.startswith("health-")]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            "I stopped wearing contacts and went back to glasses.",
            {("delete", "trait-contact-lenses"), ("upsert", "trait-glasses")},
        ),
        ("I closed the Etsy candle shop.", {("delete", "business-etsy")}),
        (
            "I've changed my goal to the B2 Italian exam.",
            {("upsert", "goal-b2-italian-exam"), ("delete", "goal-italian")},
        ),
        ("我不跑外卖了，现在在快递站当分拣员。", {("upsert", "occupation"), ("upsert", "employer")}),
    ],
)
def test_what_the_twenty_seventh_probe_said_is_over_is_read(message: str, expected: set[tuple[str, str]]) -> None:
    """R-WRITE-2 (twenty-seventh probe, new values): each of these stored nothing, so the old value stayed."""
    # What a switch gives up is looked for among held memories (`rules.given_up`): the user here holds none.
    assert {(c.op, c.key) for c in extract(message) if GIVEN_UP not in c.extra} == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # Smoking given up years ago: the habit ends and the user is a former smoker (the retirement rules read "three"
        # as the item quit).
        ("我已经戒烟三年了。", [("habit-smoking", "3年前戒了烟"), ("trait-former-smoker", "3年前戒了烟")]),
        ("烟我是三年前戒掉的。", [("habit-smoking", "3年前戒了烟"), ("trait-former-smoker", "3年前戒了烟")]),
        (
            "I quit smoking three years ago.",
            [("habit-smoking", "Quit smoking 3 years ago"), ("trait-former-smoker", "Quit smoking 3 years ago")],
        ),
        # A language's level in the European framework, a favourite writer keyed as a favourite author, mayo.
        ("我在学法语，目前到A2了。", [("language-french", "法语水平：A2")]),
        ("My French is at A2.", [("language-french", "Speaks A2-level French")]),
        ("Kazuo Ishiguro is my favorite writer.", [("favorite-author", "Favorite writer is Kazuo Ishiguro")]),
        ("Just so you know, I hate mayo.", [("food-mayonnaise", "Hates mayo")]),
        # Whom the user reports to, the airline, a week's groceries, flatmates, the car, the home's size.
        ("My manager's name is Priya.", [("work-manager", "Reports to Priya")]),
        ("By the way, my boss is Priya.", [("work-manager", "Reports to Priya")]),
        ("When I travel by plane I stick with Delta.", [("travel-airline", "Usually flies Delta")]),
        ("I try to keep groceries to $150 per week.", [("budget-groceries", "Grocery budget: $150 a week")]),
        ("我是合租的，有两个室友。", [("household", "和2个室友合租")]),
        ("我和另外两个人合租一套房子。", [("household", "和2个室友合租")]),
        ("My car is a 2016 Civic.", [("vehicle", "Drives a 2016 Honda Civic")]),
        ("我们家是两室的，89平米。", [("home-size", "住89平的两居室")]),
        ("I live in a one-bedroom, 650 square feet.", [("home-size", "Lives in a 650 sq ft one-bedroom")]),
        # How long an instrument is played, how much can be drunk, a horse.
        ("二胡我学了有十年了。", [("music-erhu", "拉二胡10年了")]),
        ("其实我有个爱好是拉二胡，已经拉了十年。", [("music-erhu", "拉二胡10年了")]),
        ("喝白酒的话，二两就是我的极限了。", [("drink-alcohol-limit", "白酒最多喝2两")]),
        ("I own a 12-year-old quarter horse.", [("pet-horse", "Owns a 12-year-old quarter horse")]),
        # Type hints however asked for, and a "please" closing a list is no item.
        (
            "I prefer Python examples with type annotations, please.",
            [("reply-type-hints", "Adds type hints to Python code")],
        ),
        ("I like tea, please.", [("drink-tea", "Likes tea")]),
    ],
)
def test_held_out_statements_of_the_twenty_eighth_probe_are_read(message: str, expected: list[tuple[str, str]]) -> None:
    """R-WRITE-2 (twenty-eighth probe, held-out bursts written by a helper that never saw the engine): each of these
    stored nothing, two memories of one fact, a wording the next paraphrase rewrote, or ("…, please") a preference for
    "please"."""
    assert [(c.key, c.content) for c in extract(message)] == expected


def test_smoking_quit_without_a_time_still_only_ends_the_habit() -> None:
    """R-WRITE-2: 「我戒烟了」 / "I quit smoking" end the habit held; a time ago also keeps the user a former smoker."""
    assert [(c.op, c.key) for c in extract("我戒烟了。")] == [("delete", "habit-smoking")]
    assert [(c.op, c.key) for c in extract("I quit smoking.")] == [("delete", "habit-smoking")]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # A daily dose, said one way, and a change of it; a drug known by the ending of its name; one drug for another.
        ("我每天吃一片氯雷他定。", [("medication-loratadine", "每天吃一片氯雷他定")]),
        ("氯雷他定我每天都要吃一片。", [("medication-loratadine", "每天吃一片氯雷他定")]),
        ("我现在每天固定吃一粒氯雷他定", [("medication-loratadine", "每天吃一片氯雷他定")]),
        ("I take 10 mg of lisinopril every morning.", [("medication-lisinopril", "Takes lisinopril, 10 mg a day")]),
        ("My morning med is lisinopril, 10 mg a day.", [("medication-lisinopril", "Takes lisinopril, 10 mg a day")]),
        ("My doctor bumped my lisinopril up to 20 mg.", [("medication-lisinopril", "Takes lisinopril, 20 mg a day")]),
        ("I take omeprazole every morning.", [("medication-omeprazole", "Takes omeprazole every morning")]),
        # Money given, paid or owed each month, one amount however said.
        ("每个月我都会给我爸妈打两千块钱生活费。", [("finance-parents-allowance", "每月给爸妈2000元生活费")]),
        ("爸妈那边，我每月给两千生活费", [("finance-parents-allowance", "每月给爸妈2000元生活费")]),
        ("给爸妈的生活费我涨到每月三千了。", [("finance-parents-allowance", "每月给爸妈3000元生活费")]),
        ("我房贷一个月六千八。", [("finance-mortgage", "房贷每月还6800元")]),
        ("我提前还了一部分房贷，现在每个月只要还四千五了。", [("finance-mortgage", "房贷每月还4500元")]),
        (
            "I still owe roughly 30 grand on my student loans.",
            [("finance-student-loans", "Student loans left: about $30000")],
        ),
        ("I have about $30k left in student loans.", [("finance-student-loans", "Student loans left: about $30000")]),
        ("我出去旅游的预算一般是8000块", [("budget-travel", "旅行预算8000元左右")]),
        ("I pay $1,200 a month on my mortgage.", [("finance-mortgage", "Mortgage payment: $1200 a month")]),
        # What a payment is for must be said: rent, a car, anything.
        ("I pay $1,200 a month.", []),
        # Reply rules: how many options a recommendation lists, 你 rather than 您.
        ("推荐的时候别超过三个选项。", [("reply-options", "推荐时最多列3个选项")]),
        ("以后推荐东西给我，三个以内就够了", [("reply-options", "推荐时最多列3个选项")]),
        ("跟我说话别用“您”，用“你”就行。", [("reply-address", "称呼用“你”，不用“您”")]),
        ("以后回复里把“您”都换成“你”吧", [("reply-address", "称呼用“你”，不用“您”")]),
        # The way to work, said one way; left-handedness; a packed lunch; an exam; a hockey league; ASL.
        ("Getting to work, I ride the ferry.", [("commute", "Takes the ferry to work")]),
        ("My commute is by ferry.", [("commute", "Takes the ferry to work")]),
        ("I don't take the ferry anymore, I drive to work now.", [("commute", "Drives to work")]),
        ("我平时惯用左手。", [("trait-left-handed", "是左撇子")]),
        ("说一下哈，我是个左撇子", [("trait-left-handed", "是左撇子")]),
        ("我每天带饭上班。", [("habit-packed-lunch", "每天带饭上班")]),
        ("我在备考注册会计师。", [("goal-cpa", "在备考注册会计师")]),
        (
            "I play beer-league hockey on Wednesday nights.",
            [("sport-ice-hockey", "Plays beer-league hockey on Wednesday nights")],
        ),
        ("Right now I'm learning ASL.", [("goal-american-sign-language", "Is currently learning ASL")]),
        # C++ is not C; a language used at work is no reply rule for code (平时 is no 「…时」 occasion).
        ("我平时工作写代码主要用C++", [("preference-cpp", "平时工作写代码主要用C++")]),
        ("I mostly write C# at work.", [("preference-csharp", "Mostly writes C# at work")]),
    ],
)
def test_held_out_statements_of_the_twenty_ninth_probe_are_read(message: str, expected: list[tuple[str, str]]) -> None:
    """R-WRITE-2 (twenty-ninth to thirty-first probes, held-out bursts written by a helper that never saw the engine):
    each of these stored nothing, a hashed or wrong key (drink-beer for hockey, preference-c for C++), a wording the
    next paraphrase rewrote, or a garbage part (「换成」)."""
    assert [(c.key, c.content) for c in extract(message)] == expected


@pytest.mark.parametrize(
    "message",
    [
        # 「给我爸妈」 is for the user's family, not a request to the assistant; 平时 is no occasion of a standing rule.
        "每个月我都会给我爸妈打两千块钱生活费",
        "我平时写代码主要用Python",
        # "Right now" of a passing state stays a short window.
        "Right now I'm hungry.",
    ],
)
def test_what_only_looked_like_a_standing_rule_is_none(message: str) -> None:
    """R-WRITE-2 (twenty-ninth probe): these were stored as constraints injected into every reply (a monthly allowance
    as `rule-…`, the language used at work as `code-language`)."""
    assert [c.key for c in extract(message) if c.memory_type == "constraint"] == []


def test_one_drug_switched_for_another_ends_the_first() -> None:
    """R-WRITE-2 (twenty-ninth probe's b36a-zh-loratadine): 「医生让我把氯雷他定换成西替利嗪了」 was read as a preference
    for 「换成西替利嗪了」; the drug given up stayed."""
    assert [(c.op, c.key) for c in extract("医生让我把氯雷他定换成西替利嗪了，还是每天一片。")] == [
        ("delete", "medication-loratadine"),
        ("upsert", "medication-cetirizine"),
    ]
    assert [(c.op, c.key) for c in extract("My doctor switched me from lisinopril to losartan.")] == [
        ("delete", "medication-lisinopril"),
        ("upsert", "medication-losartan"),
    ]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # Devices: a laptop or a watch said used, and one put in place of another.
        ("我电脑用的是ThinkPad。", [("device-thinkpad", "用ThinkPad")]),
        ("ThinkPad是我平时用的笔记本", [("device-thinkpad", "用ThinkPad")]),
        ("My runs get recorded on my Garmin watch.", [("device-garmin-watch", "Uses a Garmin watch")]),
        # Doses in tablets, a change of dose, said with the time of day.
        ("褪黑素我每晚睡觉前吃一粒。", [("medication-melatonin", "每天吃一片褪黑素")]),
        ("我天天晚上睡前都要吃一粒褪黑素。", [("medication-melatonin", "每天吃一片褪黑素")]),
        ("褪黑素我现在减到每晚半粒了。", [("medication-melatonin", "每天吃半片褪黑素")]),
        ("倍他乐克我一天吃半片。", [("medication-metoprolol", "每天吃半片倍他乐克")]),
        ("医生把我的倍他乐克加到每天一整片了。", [("medication-metoprolol", "每天吃一片倍他乐克")]),
        # 「每晚睡觉前」 holds no 晚睡: a habit at bedtime is not staying up late.
        ("我每天晚上睡前都泡脚。", [("habit-foot-soak", "每天晚上睡前都泡脚")]),
        # Family words: an older or big sister, a stepdad.
        ("My big sister is deaf.", [("family-siblings", "Big sister is deaf")]),
        ("My stepdad is a plumber.", [("family-parents", "Stepdad is a plumber")]),
        # Health and money facts, reply rules with one wording each.
        ("我血型是O型的。", [("health-blood-type", "血型：O型")]),
        ("我有慢性荨麻疹。", [("health-urticaria", "有慢性荨麻疹")]),
        ("15% of each paycheck goes straight into savings.", [("finance-savings-rate", "Saves 15% of each paycheck")]),
        ("Every month, $380 goes to my car payment.", [("finance-car-payment", "Car payment: $380 a month")]),
        ("Use the DD/MM/YYYY format for dates.", [("reply-date-format", "Dates as DD/MM/YYYY")]),
        (
            "When you use an acronym, write out the full term the first time.",
            [("reply-acronyms", "Spells out acronyms the first time they are used")],
        ),
        ("数字麻烦都写成1、2、3这种，不要写一二三。", [("reply-numerals", "数字用阿拉伯数字写")]),
        # Jobs, sports and habits the lists did not know.
        ("I work as an air traffic controller.", [("occupation", "Occupation: air traffic controller")]),
        ("我一周会去打两次桌球。", [("sport-billiards", "一周会去打两次桌球")]),
        ("我每周练两次拳击。", [("sport-boxing", "每周练两次拳击")]),
        ("Every morning I take a cold shower.", [("habit-cold-shower", "Takes a cold shower every morning")]),
        ("I take a pottery class on Monday evenings.", [("habit-pottery", "Takes a pottery class on Monday evenings")]),
    ],
)
def test_held_out_statements_of_the_thirty_second_probe_are_read(message: str, expected: list[tuple[str, str]]) -> None:
    """R-WRITE-2 (thirty-second to thirty-fourth probes, held-out bursts by a helper that never saw the engine): each
    of these stored nothing, a wrong key (「每晚睡觉前」 as `habit-staying-up-late`) or a wording the next paraphrase
    rewrote."""
    assert [(c.key, c.content) for c in extract(message)] == expected


def test_a_family_member_said_first_as_the_one_given_to_is_no_fact_of_their_own() -> None:
    """R-WRITE-2 (twenty-ninth probe's b36a-zh-parents-allowance): 「爸妈那边，我每月给两千生活费」 stored 「爸妈那边」 as a
    fact of the parents; the member said first is the one given to, and a pronoun after it is them."""
    assert [(c.key, c.content) for c in extract("爸妈那边，我每月给两千生活费")] == [
        ("finance-parents-allowance", "每月给爸妈2000元生活费")
    ]
    assert [c.content for c in extract("我妈那边，我每周给她打电话") if c.content.endswith("那边")] == []
    assert [clause.text for clause in split_clauses("我妈那边，我每周给她打电话")] == ["我每周给我妈打电话"]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # A sibling's or a child's partner is an in-law, not the user nor the sibling (「嫂子在幼儿园当老师」 stored the
        # user's occupation).
        ("我嫂子在幼儿园当老师。", [("family-in-laws", "嫂子在幼儿园当老师")]),
        ("我哥的老婆是幼儿园老师。", [("family-in-laws", "哥的老婆是幼儿园老师")]),
        ("我闺女她老公是个警察。", [("family-in-laws", "闺女她老公是个警察")]),
        # A chinchilla (龙猫) is no cat; living alone said one way.
        ("我养了两只龙猫。", [("pet-chinchilla", "养了两只龙猫")]),
        ("I live by myself.", [("household", "Lives alone")]),
        # The object of 「备考公务员」 is the exam; a job of 公务员 stays a job.
        ("我在备考公务员。", [("goal-civil-service-exam", "在备考公务员")]),
        ("我老公是公务员", [("family-partner", "老公是公务员")]),
        # A habit's amount or kind changed is a new value of it.
        (
            "I've bumped my morning meditation up to 30 minutes.",
            [("habit-meditation", "Has bumped their morning meditation up to 30 minutes")],
        ),
        (
            "I've moved from 16:8 to 18:6 fasting.",
            [("habit-intermittent-fasting", "Has moved from 16:8 to 18:6 fasting")],
        ),
        # Hobbies, drinks and conditions the lexicon did not know.
        ("I do the crossword every morning.", [("habit-crossword", "Does the crossword every morning")]),
        ("I journal every night before bed.", [("habit-journaling", "Journals every night before bed")]),
        ("I surf most mornings before work.", [("sport-surfing", "Surfs most mornings before work")]),
        ("我每周日下午去玩飞盘。", [("sport-ultimate-frisbee", "每周日下午去玩飞盘")]),
        ("I drink a bottle of kombucha every day.", [("drink-kombucha", "Drinks a bottle of kombucha every day")]),
        ("我患有腱鞘炎。", [("health-tenosynovitis", "患有腱鞘炎")]),
        # "X is what I use" keeps the article inside the sentence: no "Uses A" (a habit in the simple present, kept in
        # the user's words since session 38).
        (
            "A split ergonomic keyboard is what I use for typing.",
            [("said-split-ergonomic-keyboard-typing", "Uses a split ergonomic keyboard for typing")],
        ),
    ],
)
def test_held_out_statements_of_the_thirty_fifth_probe_are_read(message: str, expected: list[tuple[str, str]]) -> None:
    """R-WRITE-2 (thirty-fifth to thirty-seventh probes, held-out bursts by a helper that never saw the engine): each
    of these stored nothing, the wrong person's fact, a wrong kind (龙猫 as a cat), a wording the next paraphrase
    rewrote, or "Uses A"."""
    assert [(c.key, c.content) for c in extract(message)] == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("I'd rather you avoid em dashes when you write for me.", [("reply-em-dashes", "No em dashes in replies")]),
        ("No em dashes in your replies, please.", [("reply-em-dashes", "No em dashes in replies")]),
        ("In code you give me, variables should be snake_case.", [("code-naming", "Variable names in snake_case")]),
        ("Switch to camelCase for variable names from now on.", [("code-naming", "Variable names in camelCase")]),
    ],
)
def test_reply_rules_of_the_thirty_fifth_probe_are_read(message: str, expected: list[tuple[str, str]]) -> None:
    """R-WRITE-2 (thirty-fifth and thirty-sixth probes' b36g-en-reply-no-em-dashes, b36h-en-reply-snake-case): a rule
    on how replies or code are written stored nothing."""
    assert [(c.key, c.content) for c in extract(message)] == expected


@pytest.mark.parametrize(
    ("message", "content"),
    [
        (
            "For any plan or checklist you write me, put an estimated duration next to every item.",
            "For any plan or checklist you write me, put an estimated duration next to every item",
        ),
        (
            "Please add how long each step should take whenever you break a task down for me.",
            "Please add how long each step should take whenever you break a task down for me",
        ),
        # The answers the rule is for, said before the comma, are carried to the rule after it.
        ("以后回答我之前，先把我的问题复述一遍。", "以后回答我之前，先把我的问题复述一遍"),
        ("以后给我举例子的时候，尽量用国内的例子。", "以后给我举例子的时候，尽量用国内的例子"),
        ("以后发网址给我，请发国内不用翻墙就能访问的。", "以后发网址给我，请发国内不用翻墙就能访问的"),
    ],
)
def test_a_rule_for_every_answer_of_a_kind_is_kept_whole(message: str, content: str) -> None:
    """R-READ-6 (session 38's probes: s38c-en-reply-time-estimates, s38c-zh-reply-restate, s38b-zh-reply-links-china):
    a rule for every list, plan or answer of a kind stored nothing, or only the clause naming the answers
    (「以后发网址给我」, a rule of nothing)."""
    (rule,) = extract(message)
    assert (rule.memory_type, rule.content) == ("constraint", content)
    assert rule.key.startswith("rule-")


@pytest.mark.parametrize(
    ("message", "job"),
    [
        ("I work as a dental hygienist.", "dental hygienist"),
        ("I work for the city council as a planner.", "planner"),
        ("I work as an actuary for an insurer.", "actuary"),
        ("I work with kids as a speech therapist.", "speech therapist"),
    ],
)
def test_a_job_no_list_names_said_as_ones_work_is_the_occupation(message: str, job: str) -> None:
    """R-TYPE-2 (session 38's s38d-en-actuary, eval-extraction's en-h017): "I work as a <job>" was read only for the jobs
    `_EN_OCCUPATION` lists. "I work as a team" names none."""
    assert [(c.key, c.content) for c in extract(message)] == [("occupation", f"Occupation: {job}")]
    assert [c.key for c in extract("I work as a team with my brother.")] == []


def test_a_machine_that_runs_and_a_home_of_some_kind_are_no_run_and_no_city() -> None:
    """R-TYPE-2 (session 38's s38l-en-3d-printer, s38k-zh-company-dorm): "…a Prusa MK4 last year and it runs most
    weekends" was kept as the sport `sport-running`, 「我住的是单位提供的宿舍」 as the city 「住在是单位提供的宿舍」."""
    assert not [c for c in extract("I bought a Prusa MK4 last year and it runs most weekends.") if "running" in c.key]
    assert [c.key for c in extract("I run every morning.")] == ["sport-running"]
    assert not [c for c in extract("我住的是单位提供的宿舍。") if c.key == "residence-city"]
    assert [c.content for c in extract("我住西湖区")] == ["住在西湖区"]


@pytest.mark.parametrize(
    ("message", "content"),
    [
        (
            "以后你给我列步骤的时候，每一步后面标一下大概要花多长时间",
            "以后你给我列步骤的时候，每一步后面标一下大概要花多长时间",
        ),
        ("以后提到日期，后面都给我标上星期几。", "以后提到日期，后面都给我标上星期几"),
        ("以后说到地的面积，直接用亩给我算，别用平方米。", "以后说到地的面积，直接用亩给我算"),
        ("跟我讲田地面积都换成亩，平方米我没概念", "跟我讲田地面积都换成亩"),
        ("记住啊，土地面积一律用亩来说。", "土地面积一律用亩来说"),
        ("以后回答别用“首先、其次、最后”这种套路", "以后回答别用“首先、其次、最后”这种套路"),
        ("回复我的时候不要写“首先……其次……最后”那种结构，看着很死板", "回复我的时候不要写“首先……其次……最后”那种结构"),
        ("拜托，回答里别再出现“首先”“其次”“最后”这几个词了", "回答里别再出现“首先”“其次”“最后”这几个词了"),
    ],
)
def test_a_rule_keeps_what_it_is_for_and_the_words_it_quotes(message: str, content: str) -> None:
    """R-READ-6 (session 39's probes s39a-zh-reply-no-shouxian, s39b-zh-reply-time-estimates, s39c-zh-reply-mu,
    s39c-zh-reply-weekday): the rule was stored as its condition alone (「以后你给我列步骤的时候」) or without it (「后面都给我
    标上星期几」), a list of quoted words was cut out (「以后回答别用 这种套路」), and 「都换成亩」 asked of the replies was kept as
    a preference 「换成亩」. A rule at full confidence: 「大概要花多长时间」 asks an estimate, it doubts nothing."""
    (rule,) = extract(message)
    assert (rule.memory_type, rule.content, rule.confidence) == ("constraint", content, 0.9)


def test_a_slot_rule_said_after_what_it_is_about_keeps_its_slot() -> None:
    """R-READ-6: 「以后提到体重，」 carried to the rule after it still leaves the weight unit's slot (twenty-seventh probe)."""
    assert [(c.key, c.content) for c in extract("以后提到体重，单位统一用斤。")] == [("reply-weight-unit", "体重用斤")]
    assert [(c.key, c.content) for c in extract("以后说到价格，都用人民币")] == [("reply-currency", "价格用人民币")]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("When you write code for me, indent with tabs, not spaces.", "Indent code with tabs"),
        ("Always use tabs for indentation in any code you give me.", "Indent code with tabs"),
        ("Tabs please, never spaces, in code snippets.", "Indent code with tabs"),
        ("Change of plan on indentation: use 4 spaces from now on, no tabs.", "Indent code with 4 spaces"),
        ("以后写代码缩进用4个空格，不要用tab", "代码缩进用4个空格"),
    ],
)
def test_tabs_or_spaces_is_one_slot(message: str, expected: str) -> None:
    """R-WRITE-3 (s39a-en-reply-tabs): each wording of the tabs rule had a key of its own words, so "use 4 spaces
    from now on" stood beside "Always use tabs…" instead of replacing it. The user's own habit is no rule."""
    assert [(c.key, c.content) for c in extract(message)] == [("code-indentation", expected)]
    assert [c.key for c in extract("I use tabs at work.") if c.key == "code-indentation"] == []


def test_a_standing_word_after_the_imperative_still_makes_a_rule() -> None:
    """R-READ-6: "Use 4 spaces for indentation from now on" stored nothing ("From now on, use…" was read)."""
    (rule,) = extract("Use 4 spaces for indentation from now on.")
    assert rule.memory_type == "constraint"
    (rule,) = extract("Write in a casual tone from now on")
    assert (rule.memory_type, rule.content) == ("constraint", "Write in a casual tone from now on")


def test_stone_and_pounds_is_one_weight_unit() -> None:
    """R-READ-6 (s39c-en-reply-stone): "stones and pounds" was split into "Always use stones" and "Weights in pounds"."""
    for message in (
        "When you mention my weight, give it in stone and pounds, please.",
        "Always use stones and pounds for body weight, not kilos.",
    ):
        assert [(c.key, c.content) for c in extract(message)] == [("reply-weight-unit", "Weights in stone and pounds")]
    assert [(c.key, c.content) for c in extract("Use metric units and 24-hour time")] == [
        ("reply-units", "Uses metric units"),
        ("reply-time-format", "Times in 24-hour format"),
    ]


def test_what_follows_a_dash_is_a_statement_of_its_own() -> None:
    """R-TYPE-2 (session 38's s38j-en-respiratory-therapist): "Occupation: respiratory therapy — I'm at Children's
    Mercy" kept the workplace in the job. A correction's "no —" still leads the value it corrects."""
    assert [(c.key, c.content) for c in extract("My job is respiratory therapy — I'm at Children's Mercy.")] == [
        ("occupation", "Occupation: respiratory therapy"),
        ("employer", "Works at Children's Mercy"),
    ]
    assert [c.content for c in extract("Wait, no — I live in Dallas.")] == ["Lives in Dallas"]


@pytest.mark.parametrize(
    ("message", "content"),
    [
        ("I live in Austin. Wait, no — I live in Dallas.", "Lives in Dallas"),
        ("I live in Austin. Wait, no, I live in Dallas.", "Lives in Dallas"),
        ("我住在广州，不对，我住在深圳", "住在深圳"),
        ("我住在广州。说错了，我住在深圳。", "住在深圳"),
    ],
)
def test_a_value_corrected_in_the_same_message_is_the_one_kept(message: str, content: str) -> None:
    """R-READ-2: the first value of a key won even when the message corrected it ("Wait, no — …")."""
    assert [(c.key, c.content) for c in extract(message)] == [("residence-city", content)]


@pytest.mark.parametrize(
    ("message", "content"),
    [
        ("Actually, I work as a nurse, and on weekends I also work as a tutor.", "Occupation: nurse"),
        ("Oh wait, I should mention I'm a nurse. I work as a paramedic on weekends too.", "Occupation: nurse"),
        ("其实我是老师，周末我也当家教。", "职业：老师"),
    ],
)
def test_a_correction_word_before_the_first_value_corrects_nothing(message: str, content: str) -> None:
    """R-READ-2 (session 40): a correction word anywhere in the message let a later value of the key replace the first,
    so "Actually" or "Oh wait" said as a lead put a weekend job in the place of the occupation."""
    assert [(c.key, c.content) for c in extract(message)] == [("occupation", content)]


@pytest.mark.parametrize(
    ("message", "read"),
    [
        ("I forgot to tell you that I'm vegan.", ("diet", "Is vegan")),
        ("I wanted to let you know I'm allergic to shellfish.", ("allergy-shellfish", "Is allergic to shellfish")),
        ("I should mention I'm a nurse.", ("occupation", "Occupation: nurse")),
    ],
)
def test_a_lead_to_the_listener_before_a_statement_is_no_part_of_it(message: str, read: tuple[str, str]) -> None:
    """R-READ-6 (session 40): "I forgot to tell you that…" left the statement unread, and "I wanted to let you know…"
    was kept in the memory's words ("Wanted to let you know they're allergic to shellfish")."""
    assert [(c.key, c.content) for c in extract(message)] == [read]


def test_a_train_driven_at_work_is_no_vehicle_of_the_users() -> None:
    """R-TYPE-2 (session 38's s38j-zh-metro-driver): 「开的是成都地铁2号线」 was stored as the user's vehicle."""
    assert [c.key for c in extract("我是地铁司机，开的是成都地铁2号线。")] == ["occupation"]
    assert [c.key for c in extract("我开的是五菱宏光MINI EV")] == ["vehicle"]
    assert [c.key for c in extract("mini已经卖掉了，换了台比亚迪海鸥")] == ["vehicle"]
    assert [c.key for c in extract("我买了台电脑")] == []


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("我从小就不碰苦瓜。", "food-bitter-melon"),
        ("I can't stand eggplant", "food-eggplant"),
        ("我不吃香菇", "food-mushrooms"),
        ("I hate coconut.", "food-coconut"),
        ("I play competitive Scrabble.", "habit-scrabble"),
        ("I play tournament Scrabble.", "habit-scrabble"),
        ("最近迷上了SUP桨板，基本每个周末都去水库划", "sport-paddleboarding"),
    ],
)
def test_common_items_get_a_readable_key_in_both_languages(message: str, key: str) -> None:
    """Issue 13.7 (session 38's s38k-zh-no-bitter-melon, s39b-en-scrabble, s39b-zh-paddleboard): 「不碰苦瓜」 was keyed
    by a hash, and "competitive" / "tournament" Scrabble by their words, two keys for one game."""
    assert [c.key for c in extract(message)] == [key]


def test_what_the_user_took_to_said_as_a_choice_is_a_liking() -> None:
    """R-WRITE-3 (s39a-zh-jubensha): in 「剧本杀玩腻了，最近迷上的是密室逃脱」 the new hobby was read by nothing."""
    assert [(c.op, c.content) for c in extract("剧本杀玩腻了，最近迷上的是密室逃脱")] == [
        ("delete", "剧本杀玩腻了"),
        ("upsert", "最近迷上了密室逃脱"),
    ]


def test_a_preference_held_under_the_key_before_the_lexicon_named_it_is_the_one_written() -> None:
    """R-WRITE-2: a lexicon that grows gives an item a new key ("preference-mushrooms" -> "food-mushrooms"); what the
    user says after the upgrade must land on the memory stored before it, not beside it."""
    held = ExistingMemory(1, "preference-mushroom", "preference", "Hates mushrooms")
    assert refined("I've come around on mushrooms.", [held]) == [("upsert", "preference", "preference-mushroom")]
    assert refined("I've come around on mushrooms.", []) == [("upsert", "preference", "food-mushrooms")]


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("I play water polo every Tuesday night.", "preference-water-polo"),
        ("I play water polo on Thursdays now.", "preference-water-polo"),
        ("I love playing bridge on weekends.", "preference-bridge"),
        ("I play bridge every Friday evening.", "preference-bridge"),
        ("I play in a curling league on Thursday nights.", "preference-curling-league"),
        ("I just like playing for fun.", "preference-playing-fun"),
    ],
)
def test_when_an_activity_is_done_is_no_part_of_its_key(message: str, key: str) -> None:
    """R-WRITE-2 (session 40's s40a-en-water-polo): an activity no lexicon names was keyed with its day
    ("preference-water-polo-every-tuesday-night"), so the same activity said on another day stood beside it instead of
    taking its place; "playing bridge" and "bridge" were two keys too."""
    assert [c.key for c in extract(message)] == [key]


def test_played_when_with_nothing_named_is_no_preference() -> None:
    """R-TYPE-2: "I play every week" (after "Saturdays are for tennis,") was the preference "Plays every week"."""
    assert extract("I play every Tuesday night.") == []
    assert [c.key for c in extract("I play the cello every evening.")] == ["music-cello"]


def test_a_preference_held_under_its_key_with_when_it_is_done_is_the_one_written() -> None:
    """R-WRITE-2: a preference stored before when it is done was cut from its key lands where it is."""
    held = ExistingMemory(
        1, "preference-water-polo-every-tuesday-night", "preference", "Plays water polo every Tuesday night"
    )
    written = [("upsert", "preference", "preference-water-polo-every-tuesday-night")]
    assert refined("I play water polo on Thursdays now.", [held]) == written
    other = ExistingMemory(1, "preference-water-every-day", "preference", "Drinks water every day")
    assert refined("I play water polo on Thursdays now.", [other]) == [
        ("upsert", "preference", "preference-water-polo")
    ]


def test_a_pet_of_any_kind_said_as_a_pet_is_kept() -> None:
    """R-TYPE-2 (s39a-en-axolotl): "I have a pet axolotl" and "My pet is an axolotl" stored nothing (no list names
    axolotls). A pet peeve is no pet."""
    for message in ("I have a pet axolotl.", "My pet is an axolotl."):
        assert [(c.key, c.content) for c in extract(message)] == [("pet-axolotl", "Has a pet axolotl")]
    assert extract("I have a pet peeve.") == []
    assert extract("I have a pet project.") == []


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("I have Raynaud's.", "health-raynauds"),
        ("Just so you know, I've got Raynaud's phenomenon.", "health-raynauds"),
        ("我是轻型地中海贫血", "health-thalassemia"),
        ("体检查出来我有地贫，轻型那种", "health-thalassemia"),
        ("我有玫瑰痤疮，脸动不动就泛红", "health-rosacea"),
        ("玫瑰痤疮患者，求推荐不刺激的洗面奶", "health-rosacea"),
        ("I have sciatica.", "health-sciatica"),
        ("我有贫血", "health-anemia"),
    ],
)
def test_more_conditions_are_core_health_facts(message: str, key: str) -> None:
    """R-READ-6 (s39a-zh-thalassemia, s39a-en-raynauds, s39b-zh-rosacea): each stored nothing, or a fact in the user's
    words that is not core. Thalassemia is not anemia."""
    (fact,) = extract(message)
    assert fact.key == key
    assert is_core_memory(fact.memory_type, fact.key, fact.content)


@pytest.mark.parametrize(
    ("message", "job"),
    [
        ("I'm a piano tuner.", "Occupation: piano tuner"),
        ("I'm a zookeeper.", "Occupation: zookeeper"),
        ("I'm a rural mail carrier.", "Occupation: rural mail carrier"),
        ("I'm working as an aquarist at the state aquarium now.", "Occupation: aquarist"),
        ("现在在一家咖啡馆当咖啡师", "职业：咖啡师"),
        ("本人纹身师一枚", "职业：纹身师"),
        ("我是种苹果的果农。", "职业：种苹果的果农"),
    ],
)
def test_more_jobs_are_read(message: str, job: str) -> None:
    """R-TYPE-2 (s39a-en-piano-tuner, s39b-en-zookeeper, s39c-en-rural-mail-carrier, s39b-zh-tattoo-artist): no list
    named these jobs; 「…一枚」 is a self-introduction."""
    assert [(c.key, c.content) for c in extract(message)] == [("occupation", job)]


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("我现在不怎么玩桨板了", "sport-paddleboarding"),
        ("我很少喝咖啡了", "drink-coffee"),
        ("我不太喝咖啡了", "drink-coffee"),
    ],
)
def test_hardly_any_more_ends_a_liking(message: str, key: str) -> None:
    """R-WRITE-3 (s39b-zh-paddleboard): 「不怎么玩桨板了」 was stored as the liking itself. Without 了 it is a liking said."""
    assert [(c.op, c.key) for c in extract(message)] == [("delete", key)]
    assert [(c.op, c.key) for c in extract("我不太喝咖啡")] == [("upsert", "drink-coffee")]


def test_a_progressive_ne_asks_nothing() -> None:
    """R-READ-1 (s39c-zh-hulusi): 「我在学葫芦丝呢」 was taken for a question (「…呢」) and stored nothing; 「那你呢」 asks."""
    assert [(c.key, c.content) for c in extract("我在学葫芦丝呢")] == [("goal-hulusi", "在学葫芦丝")]
    assert extract("那你呢") == []


def test_a_hobby_named_main_is_the_favourite_and_loses_the_sentences_capital() -> None:
    """R-TYPE-2 (s39c-en-quilting): "Quilting's my main hobby these days" stored nothing and "Quilting is my favorite
    hobby" kept "Favorite hobby is Quilting". A name keeps its capital."""
    for message in ("Quilting's my main hobby these days.", "Quilting is my favorite hobby."):
        assert [(c.key, c.content) for c in extract(message)] == [("favorite-hobby", "Favorite hobby is quilting")]
    assert [c.content for c in extract("Beijing is my favorite city.")] == ["Favorite city is Beijing"]


def test_a_wife_called_xifu_is_the_partner_not_the_user() -> None:
    """R-TYPE-2 (s39f-zh-wife-flight-attendant): 「我媳妇在航空公司上班」 stored the wife's workplace as the user's employer."""
    assert [(c.key, c.content) for c in extract("我媳妇在航空公司上班，做空乘的")] == [
        ("family-partner", "媳妇在航空公司上班；做空乘的")
    ]
    assert [c.key for c in extract("我儿媳妇是老师")] == ["family-in-laws"]


@pytest.mark.parametrize(
    ("message", "content"),
    [
        ("以后给我讲新概念的时候,先打个生活中的比方", "以后给我讲新概念的时候，先打个生活中的比方"),
        ("以后给我菜谱的时候，每一步都标上大概要多少分钟。", "以后给我菜谱的时候，每一步都标上大概要多少分钟"),
    ],
)
def test_a_rule_said_after_when_it_applies_is_kept_with_it(message: str, content: str) -> None:
    """R-READ-6 (s39d-zh-reply-analogy, s39e-zh-reply-step-time): the clause saying when the rule applies was kept alone
    as the rule (「以后给我讲新概念的时候」) and the rule itself lost; 「标上…要多少分钟」 asks the replies for a figure, it is
    no question. A condition alone is no rule."""
    assert [(c.memory_type, c.content) for c in extract(message)] == [("constraint", content)]
    assert extract("以后给我讲新概念的时候") == []
    assert extract("这个要多少钱") == []
    assert [c.content for c in extract("When I ask for code give me Python")] == ["When I ask for code give me Python"]


def test_a_reaction_to_a_food_is_the_users_allergy_in_the_third_person() -> None:
    """R-READ-6 (s39d-en-avocado-allergy): "Avocados make my mouth itch" was keyed allergy-avocados beside
    allergy-avocado, and said "my" to the assistant that reads it."""
    assert [(c.key, c.content) for c in extract("Avocados make my mouth itch and swell up.")] == [
        ("allergy-avocado", "Avocados make their mouth itch and swell up")
    ]
    assert [c.key for c in extract("I'm allergic to avocado.")] == ["allergy-avocado"]


def test_no_need_to_do_something_as_often_uses_nothing() -> None:
    """R-TYPE-2 (s39f-zh-zhuhai-macau-commute): 「现在不用每天过关」 was stored as the preference 「现在不用每天过关」 (不用 read
    as "does not use"), and 「我现在不用再加班了」 as the end of a preference for 「加班」. 「不用微信」 still says an app not used."""
    assert extract("我在澳门租了房子搬过去了，现在不用每天过关，走路就能到公司。") == []
    assert extract("我现在不用再加班了") == []
    assert [(c.op, c.key) for c in extract("我不用微信")] == [("upsert", "app-wechat")]
    assert [(c.op, c.key) for c in extract("我现在不用微信了")] == [("delete", "app-wechat")]


@pytest.mark.parametrize(
    ("message", "read"),
    [
        ("I switched over to being a lineman.", ("occupation", "Occupation: lineman")),
        ("I've switched to being a nurse.", ("occupation", "Occupation: nurse")),
        ("I'm a crane operator.", ("occupation", "Occupation: crane operator")),
    ],
)
def test_a_career_switched_to_is_the_occupation(message: str, read: tuple[str, str]) -> None:
    """R-TYPE-2 (session 39's s39f-en-arborist): "switched over to being a lineman" was kept in words beside the
    occupation it changes, and "switched to being a nurse" was a preference for "being nurse" too."""
    assert [(c.key, c.content) for c in extract(message)] == [read]


@pytest.mark.parametrize(
    ("first", "second", "key"),
    [
        ("我在备考一建。", "我准备考一级建造师。", "goal-construction-engineer-first-class"),
        ("我在准备考公。", "我今年要考公务员考试。", "goal-civil-service-exam"),
        ("我在准备法考。", "我在备考司法考试。", "goal-bar-exam"),
    ],
)
def test_a_chinese_exam_by_its_everyday_name_is_the_exam_by_its_full_name(first: str, second: str, key: str) -> None:
    """R-WRITE-3 (session 39's s39a-zh-yijian-exam): 「一建」 and 「一级建造师」 were two goals keyed by hashes."""
    assert [c.key for c in extract(first)] == [c.key for c in extract(second)] == [key]


@pytest.mark.parametrize(
    ("message", "read"),
    [
        ("我会说闽南话。", [("spoken-languages", "会说闽南话")]),
        ("对了，我能用闽南话跟人聊天。", [("spoken-languages", "能用闽南话跟人聊天")]),
        ("I speak Tagalog.", [("spoken-languages", "Speaks Tagalog")]),
        ("之后都用广东话跟我聊吧，别用普通话了", [("reply-language", "之后都用广东话跟我聊")]),
        ("我喜欢用毛笔和朋友写信", [("preference-h84ed15d", "喜欢用毛笔和朋友写信")]),
        ("我喜欢跟朋友打篮球", [("sport-basketball", "喜欢跟朋友打篮球")]),
    ],
)
def test_a_language_or_dialect_spoken_and_someone_talked_with_are_read_as_said(
    message: str, read: list[tuple[str, str]]
) -> None:
    """R-TYPE-2 (session 40's s40b-zh-minnan, s40c-zh-reply-cantonese): 闽南话, 广东话 and Tagalog were no languages, and
    「用闽南话跟人聊天」 was split as a list into 「能用闽南话」 and 「能用人聊天」 (跟 before someone and a verb is "with")."""
    assert [(c.key, c.content) for c in extract(message)] == read


@pytest.mark.parametrize(
    "message",
    [
        "以后跟我说食物热量的时候用千焦，别用大卡",
        "热量单位请统一换成kJ，不要给我写kcal",
        "对了，卡路里那套我不看的，热量都按千焦给我算",
    ],
)
def test_a_unit_asked_of_the_replies_is_one_rule(message: str) -> None:
    """R-TYPE-1 (session 40's s40a-zh-reply-kilojoules): 「热量单位请统一换成kJ」 was the user's preference 「换成kJ」, and
    「…的时候用千焦」 was read as nothing."""
    assert [(c.key, c.memory_type) for c in extract(message)] == [("rule-calories", "constraint")]


@pytest.mark.parametrize(
    ("message", "content"),
    [
        ("Please format any citations in APA style.", "Citations in APA style"),
        ("btw when you cite stuff for me, use APA.", "Citations in APA style"),
        ("Citations should follow APA format, thanks.", "Citations in APA style"),
        ("My professor wants MLA now, so switch my citations from APA to MLA.", "Citations in MLA style"),
        ("参考文献请用国标格式", "引用格式用GB/T 7714"),
        ("I prefer APA for citations.", "Citations in APA style"),
        ("I'd like citations in MLA format.", "Citations in MLA style"),
    ],
)
def test_the_citation_style_of_the_replies_is_one_slot(message: str, content: str) -> None:
    """R-TYPE-1 (session 40's s40b-en-apa-citations): none of the three wordings of "cite in APA" was read; said as
    the user's preference it is the same slot, not a liking of "APA citations" beside it."""
    assert [(c.key, c.content) for c in extract(message)] == [("reply-citation-style", content)]
    assert extract("I cite everything in APA at work.") == []


@pytest.mark.parametrize(
    "message",
    ["Please write all code examples in Rust.", "Dates should be in ISO format.", "Prices should include tax."],
)
def test_what_all_replies_give_asked_without_a_standing_word_is_a_rule(message: str) -> None:
    """R-TYPE-1 (session 40): a rule for every reply said without "always" or "from now on" was read as nothing; one
    answer asked for, and the user's own things, are no rule."""
    assert [(c.memory_type, c.content) for c in extract(message)] == [("constraint", message.rstrip("."))]
    assert extract("Write a summary of this.") == []
    assert [c.memory_type for c in extract("My emails should be short.")] != ["constraint"]


def test_a_switch_said_with_finally_keeps_what_was_switched_to() -> None:
    """R-WRITE-2 (session 40's s40f-en-emacs): "I finally switched from Emacs to Helix" ended the Emacs memory and
    stored nothing of Helix ("finally" was read by the switch's end, not by what it switched to)."""
    said = extract("I finally switched from Emacs to Helix.")
    assert [(c.op, c.key) for c in said if GIVEN_UP not in c.extra] == [
        ("delete", "preference-emacs"),
        ("upsert", "preference-helix"),
    ]


def test_a_comma_before_or_in_a_list_is_no_part_of_its_last_item() -> None:
    """R-READ-6 (session 40's s40f-en-jain-root-veg): "onions, garlic, or potatoes" stored "Doesn't eat or potatoes"."""
    assert [c.content for c in extract("I don't eat onions, garlic, or potatoes.")] == [
        "Doesn't eat onions",
        "Doesn't eat garlic",
        "Doesn't eat potatoes",
    ]


@pytest.mark.parametrize(
    ("message", "contents"),
    [
        ("I love tea, coffee, and pickles.", ["Loves tea", "Loves coffee", "Loves pickles"]),
        ("I don't eat pork, beef, and lamb.", ["Doesn't eat pork", "Doesn't eat beef", "Doesn't eat lamb"]),
        ("I play tennis, golf, and chess.", ["Plays tennis", "Plays golf", "Plays chess"]),
        (
            "I play tennis, golf, and chess every weekend.",
            ["Plays tennis every weekend", "Plays golf every weekend", "Plays chess every weekend"],
        ),
    ],
)
def test_a_lists_last_item_after_a_serial_comma_is_kept(message: str, contents: list[str]) -> None:
    """R-READ-6 (session 41): ", and" before a list's last item was cut as a clause, and "and pickles" alone is no
    statement: the last item of every list written with a serial comma was lost."""
    assert [c.content for c in extract(message)] == contents


def test_a_clause_after_a_serial_comma_is_still_a_clause_of_its_own() -> None:
    """R-READ-6 (session 41): only a list's last item stays with the list; ", and I live in Ohio" is a statement."""
    assert [c.key for c in extract("I'm a nurse, and I live in Ohio.")] == ["occupation", "residence-city"]
    assert [c.key for c in extract("I'm 28, vegan, and training for my first marathon.")] == ["diet", "goal-marathon"]


@pytest.mark.parametrize("message", ["I live in Ohio and work at Google.", "I live in Ohio, and work at Google."])
def test_where_the_user_works_said_after_and_is_read(message: str) -> None:
    """R-READ-6 (session 41): "…and work at Google" had no subject, and the employer was lost."""
    assert [(c.key, c.content) for c in extract(message)] == [
        ("residence-city", "Lives in Ohio"),
        ("employer", "Works at Google"),
    ]


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("我有甲状腺功能亢进", "health-hyperthyroidism"),
        ("我确诊了甲亢", "health-hyperthyroidism"),
        ("去年查出了甲状腺功能减退症", "health-hypothyroidism"),
        ("I've got an underactive thyroid.", "health-hypothyroidism"),
        ("Turns out I have hypothyroidism.", "health-hypothyroidism"),
    ],
)
def test_a_thyroid_condition_is_read_by_its_full_and_everyday_names(message: str, key: str) -> None:
    """R-TYPE-2 (session 40's s40d-zh-hyperthyroid, session 41): 甲状腺功能亢进 was not 甲亢, 「我确诊了甲亢」 was read as
    「我甲亢」 (nothing), and "Turns out I have…" was not read as a finding."""
    assert [c.key for c in extract(message)] == [key]


@pytest.mark.parametrize(
    ("message", "content"),
    [
        ("我每天打14个单位的胰岛素。", "每天打14个单位胰岛素"),
        ("胰岛素我每天打14个单位。", "每天打14个单位胰岛素"),
        ("医生把我的胰岛素调到16个单位了。", "每天打16个单位胰岛素"),
        ("医生把我的甘精胰岛素加到每晚14个单位了。", "每天打14个单位甘精胰岛素"),
        ("我每天吃500毫克二甲双胍", "每天吃500毫克二甲双胍"),
        ("I take metformin 500mg twice a day.", "Takes metformin, 500 mg twice a day"),
        ("I'm on 500mg metformin, twice daily.", "Takes metformin, 500 mg twice a day"),
        ("They upped my metformin to 1000mg twice a day.", "Takes metformin, 1000 mg twice a day"),
        ("I'm on 500mg of metformin.", "Takes metformin, 500 mg a day"),
    ],
)
def test_a_dose_in_units_or_milligrams_and_how_often_is_one_medication_fact(message: str, content: str) -> None:
    """R-TYPE-2 (session 41, s41f-zh-insulin-glargine): insulin units (of 甘精胰岛素 too) and milligrams in Chinese, "twice
    a day", "I'm on <dose>" (the rule had a space before "'m") and a dose changed by "they" were read as nothing, so a
    changed dose never replaced the old."""
    assert [(c.key.split("-")[0], c.content) for c in extract(message)] == [("medication", content)]


def test_a_car_traded_in_ends_the_car_held_and_names_the_new_one() -> None:
    """R-WRITE-2 (session 41): "I traded in the Civic for a RAV4" was read as nothing, and "I sold my Civic" looked
    for the Civic among likings and devices only, never the vehicle."""
    read = [(c.op, c.key, c.content) for c in extract("I traded in the Civic for a RAV4 last weekend.")]
    assert read[-1] == ("upsert", "vehicle", "Got a RAV4")
    assert read[0][0] == "delete"
    assert [(c.key, c.content) for c in extract("I got a RAV4.")] == [("vehicle", "Got a RAV4")]


def test_a_job_said_with_zai_zuo_is_the_occupation_not_an_employer() -> None:
    """R-TYPE-2 (session 41): 「现在在做保险销售」 after 「我辞职了」 was stored as the employer 「在做保险销售工作」."""
    assert [(c.op, c.key, c.content) for c in extract("我辞职了，现在在做保险销售。")] == [
        ("delete", "employer", "辞职了"),
        ("upsert", "occupation", "职业：保险销售"),
    ]
    assert [(c.key, c.content) for c in extract("我在当老师")] == [("occupation", "职业：老师")]


@pytest.mark.parametrize(
    ("message", "read"),
    [
        ("As a vegetarian, what should I eat for protein?", ("diet", "Is a vegetarian")),
        ("作为一个素食者，我该怎么补充蛋白质？", ("diet", "是素食者")),
        (
            "As someone who's lactose intolerant, what cheese can I eat?",
            ("health-lactose-intolerance", "Is lactose intolerant"),
        ),
        ("As someone who doesn't drink, what should I order at a bar?", ("drink-alcohol", "Doesn't drink alcohol")),
        ("身为一个程序员，我该学什么？", ("occupation", "职业：程序员")),
    ],
)
def test_who_the_user_is_said_before_a_question_is_a_statement(message: str, read: tuple[str, str]) -> None:
    """R-READ-6 (session 41): "As a vegetarian, …?" and 「作为一个素食者，…？」 said who the user is before what they
    asked; it was read as nothing, or kept with its 作为 (「作为一个素食者」)."""
    assert [(c.key, c.content) for c in extract(message)] == [read]


@pytest.mark.parametrize("message", ["As a kid, I loved soccer.", "As a result, what should I do?"])
def test_what_the_user_was_or_an_as_a_of_no_person_is_no_statement_of_who_they_are(message: str) -> None:
    """R-READ-6 (session 41): "As a kid" is who the user was; "As a result" names nobody."""
    assert extract(message) == []


@pytest.mark.parametrize(
    ("message", "read"),
    [
        ("I'm kind of a night owl.", ("habit-staying-up-late", "Is a night owl")),
        ("我这人不太能吃辣。", ("food-spicy-food", "不太能吃辣")),
        ("我家有两个娃。", ("family-children", "我家有两个孩子")),
        ("My wife and I live in Denver.", ("residence-city", "Lives in Denver")),
    ],
)
def test_everyday_ways_of_saying_i_are_read_as_the_user(message: str, read: tuple[str, str]) -> None:
    """R-READ-6 (session 41): "kind of a", 「我这人」, 娃 for a child and "My wife and I live in…" each left the
    statement unread."""
    assert [(c.key, c.content) for c in extract(message)] == [read]


def test_a_new_thing_just_got_is_what_the_user_has_not_a_goal_reached() -> None:
    """R-WRITE-2 (session 41): "I just got a new iPhone 15" was read as the goal "iPhone" reached, and the phone held
    stayed the old one; a thing earned is still a goal reached."""
    assert [(c.op, c.key) for c in extract("I just got a new iPhone 15.")] == [("upsert", "device-iphone")]
    assert [(c.op, c.key) for c in extract("I just got my black belt.")] == [("delete", "goal-black-belt")]


@pytest.mark.parametrize(
    ("message", "read"),
    [
        ("我升职做销售主管了。", [("upsert", "occupation", "职业：销售主管")]),
        ("我换了个新工作，现在在腾讯。", [("upsert", "employer", "在腾讯工作")]),
    ],
)
def test_a_new_job_said_as_what_happened_is_the_job_now(message: str, read: list[tuple[str, str, str]]) -> None:
    """R-WRITE-2 (session 41): 「升职做…」 and 「换了个新工作，现在在…」 were read as nothing, so the old job stayed."""
    assert [(c.op, c.key, c.content) for c in extract(message)] == read


@pytest.mark.parametrize(
    ("message", "content"),
    [
        ("Quick update: I've moved from Leeds to Manchester.", "Lives in Manchester"),
        ("We moved from Denver to Austin last month.", "Lives in Austin"),
    ],
)
def test_a_move_said_with_where_from_is_where_the_user_lives_now(message: str, content: str) -> None:
    """R-WRITE-2 (session 41's s41d-en-leeds): "I've moved from Leeds to Manchester" was read as a switch away from a
    liking of Leeds only; the city held stayed Leeds."""
    assert [(c.key, c.content) for c in extract(message) if c.op == "upsert"] == [("residence-city", content)]


@pytest.mark.parametrize(
    ("message", "read"),
    [
        ("I moved to Austin this week.", ("residence-city", "Lives in Austin")),
        ("I started a new job at Google today.", ("employer", "Works at Google")),
        ("My son turned 7 today.", ("family-children", "Son turned 7")),
        ("我这周刚搬到深圳。", ("residence-city", "住在深圳")),
        ("女儿今天开始上小学了。", ("family-children", "女儿开始上小学了")),
    ],
)
def test_a_lasting_change_told_the_day_it_happened_is_kept(message: str, read: tuple[str, str]) -> None:
    """R-WRITE-2, R-TYPE-3 (session 41): news told the day it happened ("this week", "today", 这周, 今天) was taken for
    a short-term window and dropped, so the city, the job or the child's age held stayed the old one."""
    assert [(c.key, c.content) for c in extract(message)] == [read]


@pytest.mark.parametrize("message", ["I got sick this week.", "I'm going to the gym today.", "我今天开始减肥"])
def test_what_holds_for_the_day_stays_short_term(message: str) -> None:
    """R-TYPE-3 (session 41): only the day of a lasting change is no window; the day's own matters still are."""
    assert extract(message) == []


@pytest.mark.parametrize(
    ("message", "read"),
    [
        # The member named first, then who they are.
        ("Diego, my older brother, is a welder.", ("family-siblings", "Older brother Diego is a welder")),
        ("Sarah, my wife, works as a nurse.", ("family-partner", "Wife Sarah works as a nurse")),
        # A sigh or a laugh after a family fact is no part of it.
        ("我老婆是空姐，经常一飞就好几天不着家，唉。", ("family-partner", "老婆是空姐；经常一飞就好几天不着家")),
        # Every animal the lexicon names is a pet kept.
        ("我养了一只刺猬，叫栗子。", ("pet-hedgehog", "养了一只刺猬，叫栗子")),
        ("栗子是我养的刺猬。", ("pet-hedgehog", "栗子是我养的刺猬")),
        ("I keep a hedgehog.", ("pet-hedgehog", "Keeps a hedgehog")),
        # A diet no table names, said as a diet.
        ("I'm following a Mediterranean diet now.", ("diet-mediterranean", "Is following a Mediterranean diet now")),
        ("I'm on the DASH diet.", ("diet-dash", "Is on the DASH diet")),
        ("I'm following a keto diet.", ("diet-keto", "Is following a keto diet")),
        # A job or an employer taken up, said as news.
        ("I just started as a compliance analyst at a bank.", ("occupation", "Occupation: compliance analyst")),
        ("I just accepted an offer at REI.", ("employer", "Works at REI")),
        # A dose changed by a specialist.
        (
            "My cardiologist bumped my propranolol up to 40 mg a day.",
            ("medication-propranolol", "Takes propranolol, 40 mg a day"),
        ),
        # A dialect to reply in, and one more name of a restaurant.
        ("以后你用东北话跟我聊天。", ("reply-language", "以后你用东北话跟我聊天")),
        ("每次给我推荐馆子都附上人均消费吧。", ("rule-restaurants", "每次给我推荐馆子都附上人均消费")),
    ],
)
def test_what_session_42s_bursts_said_is_read(message: str, read: tuple[str, str]) -> None:
    """R-WRITE-2 (session 42's held-out bursts): each of these stored nothing, a clause without its name ("Older brother,
    is a welder"), a sigh as a part of the wife's fact, or a key of its wording's hash."""
    assert [(c.key, c.content) for c in extract(message)] == [read]


@pytest.mark.parametrize(
    "message",
    [
        "坐标大连哈，周末想带朋友吃海鲜，你有推荐的地方吗？",  # a plan for the weekend, no habit
        "I'm on a healthy diet.",  # no diet named
        "我有马上要交的作业。",  # 马 alone is no horse kept
    ],
)
def test_what_session_42_left_unread_stays_unread(message: str) -> None:
    """R-WRITE-2 (session 42): the reads above must not take these for a habit, a diet or a pet."""
    assert extract(message) == []


def test_a_habit_said_with_its_frequency_is_still_a_habit() -> None:
    """R-WRITE-2 (session 42): a wish (「想」) keeps a clause from being a habit; 「一般」 and "going to" do not."""
    assert [(c.key, c.content) for c in extract("我周末一般去爬山。")] == [("sport-hiking", "周末一般去爬山")]
    assert [c.key for c in extract("I'm going to yoga every Tuesday.")] == ["sport-yoga"]
