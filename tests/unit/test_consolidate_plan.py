"""The consolidation planner on plain data: both engines, no database (R-LIFE-2, R-TYPE-4, R-PIPE-4)."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from config.settings import Settings
from memory_tasks.extraction.candidates import slug_key
from memory_tasks.extraction.prompts import load_prompt
from memory_tasks.extraction.review import (
    CONSOLIDATE_SCHEMA,
    LLMReviewer,
    RulesReviewer,
    get_reviewer,
    parse_decisions,
)
from memory_tasks.extraction.types import Decision, ExistingMemory
from memory_tasks.memories.consolidation import Action, Plan, plan_rows
from memory_tasks.memories.consolidation.normalizers import fix_type, tidy_content
from memory_tasks.memories.similarity import LexicalScorer
from tests.fake_openai import FakeOpenAI, as_json

SETTINGS = Settings(_env_file=None)
PATTERNS = SETTINGS.noise_key_patterns
NOW = datetime(2025, 3, 1, tzinfo=UTC)


def days(n: float) -> datetime:
    return NOW + timedelta(days=n)


def row(memory_id: int, key: str, memory_type: str, content: str, **extra) -> ExistingMemory:
    values = {"expires_at": days(90), "updated_at": days(-30)} | extra
    return ExistingMemory(memory_id, key, memory_type, content, **values)


class Scripted:
    """A reviewer that proposes fixed decisions and records what it was shown."""

    name = "scripted"

    def __init__(self, *decisions: Decision) -> None:
        self.decisions = list(decisions)
        self.shown: list[ExistingMemory] = []

    def review(self, rows):
        self.shown = list(rows)
        return self.decisions


def plan(rows: list[ExistingMemory], reviewer=None) -> Plan:
    return plan_rows(1, rows, NOW, reviewer or RulesReviewer(), LexicalScorer(SETTINGS), PATTERNS)


def by_id(result: Plan) -> dict[int, Action]:
    return {action.memory_id: action for action in result.actions}


# A seeded messy user: expired, duplicated, mis-typed, badly keyed and noise memories.
MESSY = [
    row(1, "food-preference", "preference", "喜欢川菜", updated_at=days(-40)),
    row(2, "Food Preference", "preference", "喜欢  吃湘菜 。。", updated_at=days(-2), expires_at=days(170)),
    row(3, "tool-list", "fact", "当前可用工具：web_search, memory_save"),
    row(4, "nickname", "profile", "叫我小明"),
    row(5, "residence-city", "location", "常住上海"),
    row(6, "morning-drink", "habits", "每天早上喝美式咖啡"),
    row(7, "old-hobby", "preference", "likes chess", expires_at=days(-1)),
    row(8, "editor-theme", "preference", "Prefers dark mode in code editors", importance=4),
    row(9, "dark-mode", "preference", "Prefers dark mode in code editors.", importance=2, expires_at=days(150)),
    row(10, "goal-learn-japanese", "goal", "  Learn   Japanese ,"),
    row(11, "饮食禁忌", "constraint", "不吃香菜"),
    row(12, "weather-date_2025_02_01", "fact", "晴，最高温 12℃"),
    row(13, "reply-language", "constraint", "回复用中文"),
]


def test_offline_engine_tidies_a_messy_user() -> None:
    """R-LIFE-2, R-TYPE-4: expire, drop noise/profile, merge key and near duplicates, fix keys/types/content."""
    actions = by_id(plan(MESSY))
    # It should expire what outlived its TTL and delete what the hard filters refuse.
    assert actions[7].kind == "expire"
    assert (actions[3].kind, actions[3].reason) == ("delete", "noise key: tool-*")
    assert (actions[12].kind, actions[12].reason) == ("delete", "noise key: weather-date_*")
    assert actions[4].kind == "delete" and actions[4].reason.startswith("profile field")
    # "Food Preference" is the slot food-preference: the row holding the key survives, the newest value wins.
    assert (actions[2].kind, actions[2].into_id) == ("merge", 1)
    assert actions[1].changes["content"] == "喜欢吃湘菜。"
    assert actions[1].changes["expires_at"] == days(170)
    # Near-duplicates merge into the better-supported row, which inherits the longer lifetime.
    assert (actions[9].kind, actions[9].into_id) == ("merge", 8)
    assert actions[8].changes == {"expires_at": days(150)}
    # Unknown types are fixed (alias, or key hints, else fact); bad keys become slugs; content is tidied.
    assert actions[5].changes == {"memory_type": "fact"}
    assert actions[6].changes == {"memory_type": "preference"}
    assert actions[10].changes == {"content": "Learn Japanese"}
    assert actions[11].changes["memory_key"].startswith("constraint-")
    assert actions[13].kind == "keep"


def test_every_row_gets_one_action_in_a_stable_order() -> None:
    """R-LIFE-2: the plan covers every active row once and serializes to JSON (CLI --json)."""
    result = plan(MESSY)
    assert sorted(a.memory_id for a in result.actions) == [r.id for r in MESSY]
    kinds = [a.kind for a in result.actions]
    assert kinds == sorted(kinds, key=["expire", "delete", "merge", "normalize", "keep"].index)
    assert result.fingerprint == tuple((r.id, r.revision) for r in MESSY)
    json.dumps(result.to_json(), ensure_ascii=False)


def applied(rows: list[ExistingMemory], result: Plan) -> list[ExistingMemory]:
    """The rows as they would be after `result`, for checking convergence without a database."""
    names = {"memory_key": "key"}
    out = []
    for memory in rows:
        action = by_id(result)[memory.id]
        if action.kind in ("normalize", "keep"):
            out.append(replace(memory, **{names.get(k, k): v for k, v in action.changes.items()}))
    return out


def test_a_consolidated_user_needs_nothing_more() -> None:
    """R-LIFE-2: consolidation converges; planning its own result again changes nothing."""
    once = applied(MESSY, plan(MESSY))
    assert [a.kind for a in plan(once).actions] == ["keep"] * len(once)


@pytest.mark.parametrize(
    ("raw", "tidy"),
    [
        ("我 喜欢 吃 川菜 。。", "我喜欢吃川菜。"),
        ("  likes tea ,  and coffee !!", "likes tea, and coffee!"),
        ("，每天跑步５公里；", "每天跑步5公里"),
        ("用 Python 写 后端", "用 Python 写后端"),
        ("\u200b \u3000 ", ""),
        (".NET developer, uses std::vector...", ".NET developer, uses std::vector..."),
    ],
)
def test_content_is_tidied_without_changing_its_meaning(raw: str, tidy: str) -> None:
    """R-LIFE-2 normalize: whitespace and punctuation only; Chinese punctuation stays Chinese."""
    assert tidy_content(raw) == tidy


@pytest.mark.parametrize(
    ("raw", "slug"),
    [
        ("food-preference", "food-preference"),
        ("Food Preference", "food-preference"),
        ("food__pref!!", "food_pref"),
        ("  Ｃity / 城市 ", "city"),
        ("a" * 200, "a" * 160),
    ],
)
def test_keys_become_slugs(raw: str, slug: str) -> None:
    """R-PIPE-2: keys are lowercase ASCII slugs of at most 160 characters."""
    assert slug_key(raw, "fact") == slug


def test_a_key_without_ascii_gets_a_stable_slug() -> None:
    """R-PIPE-2: 饮食偏好 maps to the same valid slug every run."""
    assert slug_key("饮食偏好", "preference") == slug_key("饮食偏好", "preference")
    assert slug_key("饮食偏好", "preference").startswith("preference-")


@pytest.mark.parametrize(
    ("memory_type", "key", "fixed"),
    [
        ("fact", "anything", "fact"),
        ("Preference", "x", "preference"),
        ("habits", "x", "preference"),
        ("偏好", "x", "preference"),
        ("misc", "coding-rules", "constraint"),
        ("misc", "career-goal", "goal"),
        ("misc", "favorite-band", "preference"),
        ("misc", "employer", "fact"),
        ("profile", "ai-name", None),
        ("user_profile", "x", None),
    ],
)
def test_types_are_fixed_by_alias_or_key_hints(memory_type: str, key: str, fixed: str | None) -> None:
    """R-TYPE-1: five types; profile is never kept."""
    assert fix_type(memory_type, key) == fixed


def test_review_can_only_act_on_rows_it_was_shown() -> None:
    """R-SAFE-3, R-TYPE-4: foreign ids are ignored, noise rows never reach the reviewer nor survive it."""
    reviewer = Scripted(
        Decision(999, "delete", reason="another user's memory"),
        Decision(3, "keep"),  # tool-list: deleted by triage whatever the reviewer says
        Decision(13, "merge", into_id=999),
        Decision(5, "normalize", key="system-city"),  # would make it noise: refused
        Decision(6, "normalize", memory_type="profile"),  # profile is not a type: refused
        Decision(8, "merge", into_id=9, content="Prefers dark mode everywhere"),
        Decision(10, "delete", reason="short-term"),
    )
    actions = by_id(plan(MESSY, reviewer))
    assert {r.id for r in reviewer.shown} == {1, 2, 5, 6, 8, 9, 10, 11, 13}
    assert actions[3].kind == "delete"
    assert actions[13].kind == "keep"
    assert actions[5].changes == {"memory_type": "fact"}
    assert actions[6].changes == {"memory_type": "preference"}
    assert (actions[8].kind, actions[8].into_id) == ("merge", 9)
    assert actions[9].changes["content"] == "Prefers dark mode everywhere"
    assert actions[10].kind == "delete"


def test_review_sees_conformed_rows() -> None:
    """R-LIFE-2: the reviewer gets slug keys, valid types and tidy content, not the raw mess."""
    reviewer = Scripted()
    plan(MESSY, reviewer)
    shown = {r.id: r for r in reviewer.shown}
    assert shown[2].key == "food-preference" and shown[2].content == "喜欢吃湘菜。"
    assert shown[6].memory_type == "preference"


def test_renames_never_collide() -> None:
    """R-DATA-1 UNIQUE(user_id, memory_key): a row never moves onto the key of a row that moves away."""
    rows = [row(1, "city", "fact", "常住上海"), row(2, "home", "fact", "家在杭州")]
    reviewer = Scripted(Decision(1, "normalize", key="residence-city"), Decision(2, "normalize", key="city"))
    actions = by_id(plan(rows, reviewer))
    assert actions[1].changes["memory_key"] == "residence-city"
    # "city" is still held by row 1 until it is renamed, so row 2 keeps its own key.
    assert actions[2].kind == "keep"


def test_similar_memories_of_different_items_or_numbers_are_not_merged() -> None:
    """R-PIPE-4: the write path's guard holds in consolidation too (pet-cat vs pet-dog, 6 vs 7 o'clock)."""
    rows = [
        row(1, "pet-cat", "fact", "养了一只猫"),
        row(2, "pet-dog", "fact", "养了一只猫"),
        row(3, "wake-up-time", "fact", "Wakes up at 6 every day"),
        row(4, "wake-up", "fact", "Wakes up at 7 every day"),
    ]
    assert {a.kind for a in plan(rows).actions} == {"keep"}


def test_two_rows_renamed_onto_one_key_are_merged() -> None:
    """R-PIPE-5: one key is one memory; the newest value wins."""
    rows = [
        row(1, "Home City", "fact", "常住武汉", updated_at=days(-50)),
        row(2, "home city", "fact", "常住上海", updated_at=days(-5)),
    ]
    actions = by_id(plan(rows))
    survivor, loser = (1, 2) if actions[1].kind == "normalize" else (2, 1)
    assert actions[loser].kind == "merge" and actions[loser].into_id == survivor
    assert actions[survivor].changes["memory_key"] == "home-city"
    assert actions[survivor].changes.get("content", "常住上海") == "常住上海"


def test_parse_decisions_keeps_only_allowed_ids() -> None:
    """R-SAFE-3: the model's answer cannot name rows it was not given."""
    items = [
        {"id": 1, "action": "keep"},
        {"id": "2", "action": "DELETE", "reason": "x" * 500},
        {"id": 3, "action": "merge", "into_id": 77},
        {"id": True, "action": "delete"},
        {"id": 4, "action": "explode"},
        "not an object",
        {"id": 5, "action": "merge", "into_id": "1", "content": "  "},
    ]
    decisions = parse_decisions(items, {1, 2, 3, 4, 5})
    assert [(d.memory_id, d.verdict, d.into_id) for d in decisions] == [
        (1, "keep", None),
        (2, "delete", None),
        (5, "merge", 1),
    ]
    assert len(decisions[1].reason) == 200 and decisions[2].content is None


def test_llm_review_is_chunked(fake_openai: FakeOpenAI) -> None:
    """R-LIFE-2: large users are reviewed in bounded calls (at most 60 memories each)."""
    fake_openai.default = lambda body: as_json({"actions": []})
    settings = Settings(_env_file=None, OPENAI_BASE_URL=fake_openai.base_url, LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC=5)
    rows = [row(i, f"topic-{i}", "fact", f"fact number {i}") for i in range(1, 131)]
    LLMReviewer(settings).review(rows)
    sizes = [
        len(json.loads(r["messages"][1]["content"].split("\n\nAnswer")[0])["memories"]) for r in fake_openai.requests
    ]
    assert sizes == [60, 60, 10]
    assert fake_openai.requests[0]["messages"][0]["content"] == load_prompt("consolidate").text


def test_llm_review_asks_for_its_schema_and_falls_back_where_it_is_rejected(fake_openai: FakeOpenAI) -> None:
    """Issue 13 item 6: the consolidate call asks for JSON-schema structured output, like extract and
    refine; a server that rejects it gets JSON mode, and the answer is parsed the same way."""
    answer = {"actions": [{"id": 1, "action": "normalize", "memory_type": "preference", "reason": "habit"}]}
    fake_openai.default = lambda body: as_json(answer)
    settings = Settings(_env_file=None, OPENAI_BASE_URL=fake_openai.base_url, LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC=5)
    rows = [row(1, "morning-drink", "fact", "每天早上喝美式咖啡")]
    expected = [Decision(1, "normalize", None, memory_type="preference", reason="habit")]

    assert LLMReviewer(settings).review(rows) == expected
    assert fake_openai.requests[0]["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "consolidate", "schema": CONSOLIDATE_SCHEMA},
    }
    item = CONSOLIDATE_SCHEMA["properties"]["actions"]["items"]
    assert item["properties"]["action"]["enum"] == ["keep", "delete", "merge", "normalize"]
    assert item["required"] == ["id", "action"]

    fake_openai.requests.clear()
    fake_openai.rejects_json_schema = True
    other_model = Settings(
        _env_file=None,
        OPENAI_BASE_URL=fake_openai.base_url,
        OPENAI_CHAT_MODEL="a-model-without-structured-output",
        LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC=5,
    )
    assert LLMReviewer(other_model).review(rows) == expected
    assert [body["response_format"]["type"] for body in fake_openai.requests] == ["json_schema", "json_object"]


def test_engine_choice() -> None:
    """R-LLM-2: offline when no LLM is configured; asking for the LLM without one is an error."""
    assert get_reviewer("auto", SETTINGS).name == "rules"
    with pytest.raises(ValueError, match="OPENAI_BASE_URL"):
        get_reviewer("llm", SETTINGS)
    configured = Settings(_env_file=None, OPENAI_BASE_URL="http://127.0.0.1:9/v1")
    assert get_reviewer(None, configured).name == "llm"
    assert get_reviewer("rules", configured).name == "rules"


def test_core_memories_are_never_planned_away() -> None:
    """Issue 13 item 3 / R-READ-6: a core memory does not expire, and review or noise filters cannot delete it."""
    rows = [
        row(1, "allergy-peanuts", "fact", "Is allergic to peanuts", expires_at=days(-5), is_core=True),
        row(2, "reply-language", "constraint", "回复用中文", is_core=True),
        row(3, "tool-list", "constraint", "Never suggest web_search results", is_core=True),
        row(4, "old-hobby", "preference", "likes chess", expires_at=days(-5)),
    ]
    actions = by_id(plan(rows, Scripted(Decision(2, "delete", reason="stale"))))
    assert actions[1].kind == "keep"  # past its expiry, but core
    assert actions[2].kind == "keep"  # the reviewer's delete is refused
    assert actions[3].kind in ("keep", "normalize")  # a noise key deletes other rows, not a core one
    assert actions[4].kind == "expire"


def test_a_core_memory_survives_merges_and_merges_only_into_a_core_one() -> None:
    """Issue 13 item 3 / R-READ-6: near-duplicates and same-key groups keep the core row; a review merge into a non-core row is refused."""
    rows = [
        row(1, "allergy-peanuts", "fact", "Is allergic to peanuts", importance=2, is_core=True),
        row(2, "peanut-note", "fact", "Is allergic to peanuts.", importance=5),
        row(3, "diet", "fact", "Is vegetarian", importance=2, is_core=True),
        row(4, "food-note", "fact", "Loves vegetable curry", importance=5),
    ]
    actions = by_id(plan(rows, Scripted(Decision(3, "merge", into_id=4, reason="same"))))
    assert (actions[2].kind, actions[2].into_id) == ("merge", 1)  # the better-supported non-core row merges away
    assert actions[1].kind in ("keep", "normalize")
    assert actions[3].kind == "keep" and actions[4].kind == "keep"


ALLERGY = row(1, "allergy-peanut", "fact", "Is allergic to peanuts", is_core=True)


@pytest.mark.parametrize(
    "proposal",
    [
        Decision(1, "normalize", memory_type="preference", content="Loves peanut butter", reason="taste"),
        Decision(1, "normalize", content="Loves peanuts", reason="reworded"),
        Decision(1, "normalize", key="food-peanut", reason="tidier key"),
        Decision(1, "normalize", memory_type="goal", reason="retyped"),
    ],
    ids=["into-a-taste", "loses-its-words", "ordinary-key", "into-a-goal"],
)
def test_a_model_normalize_cannot_turn_an_allergy_into_something_else(proposal: Decision) -> None:
    """R-READ-6: consolidation's reviewer may tidy a safety fact, never take what makes it core."""
    assert by_id(plan([ALLERGY], Scripted(proposal)))[1].kind == "keep"


def test_a_model_may_still_reword_an_allergy_that_stays_an_allergy() -> None:
    """R-READ-6: the guard refuses only changes that lose the safety fact; a tidier wording is taken."""
    proposal = Decision(1, "normalize", content="Allergic to peanuts (anaphylaxis)", reason="detail")
    action = by_id(plan([ALLERGY], Scripted(proposal)))[1]
    assert action.kind == "normalize" and action.changes["content"] == "Allergic to peanuts (anaphylaxis)"


def test_a_taste_is_not_renamed_onto_an_allergys_key() -> None:
    """R-READ-6: the rename would merge the two and put the taste's text on the allergy; both stay as they are."""
    rows = [ALLERGY, row(2, "preference-peanut-butter", "preference", "Loves peanut butter", updated_at=days(-1))]
    actions = by_id(plan(rows, Scripted(Decision(2, "normalize", key="allergy-peanut", reason="same food"))))
    assert actions[1].kind == "keep" and actions[2].kind == "keep"


def test_a_merge_keeps_the_allergys_text_when_the_merged_text_drops_it() -> None:
    """R-READ-6: a review merge into a core memory may absorb a row, not rewrite the allergy away."""
    rows = [ALLERGY, row(2, "peanut-allergy-note", "fact", "Allergic to peanuts.", is_core=True)]
    merge = Decision(2, "merge", into_id=1, content="Likes peanuts", reason="same subject")
    actions = by_id(plan(rows, Scripted(merge)))
    assert (actions[2].kind, actions[2].into_id) == ("merge", 1)
    assert "content" not in actions[1].changes


def test_a_newer_value_on_an_allergys_key_does_not_replace_it_with_a_taste() -> None:
    """R-READ-6 with R-PIPE-5: rows ending on one key merge, and the newest value wins unless it is not a safety fact."""
    rows = [
        replace(ALLERGY, updated_at=days(-30)),
        row(2, "Allergy Peanut", "preference", "Loves peanut butter", is_core=True, updated_at=days(-1)),
    ]
    actions = by_id(plan(rows))
    assert (actions[2].kind, actions[2].into_id) == ("merge", 1)
    assert "content" not in actions[1].changes and "memory_type" not in actions[1].changes
