"""The gate before any write (memory_tasks.extraction.gate): one candidate, and a turn's candidates."""

from __future__ import annotations

import pytest

from config.settings import Settings
from memory_tasks.extraction.candidates import Candidate
from memory_tasks.extraction.gate import Refusal, admit, refusal

SETTINGS = Settings(_env_file=None, LONG_TERM_MEMORY_MIN_CONFIDENCE=0.75, LONG_TERM_MEMORY_MAX_WRITE_ITEMS=3)


def _candidate(key: str, content: str = "喜欢川菜", **fields) -> Candidate:
    values = {"op": "upsert", "memory_type": "preference", "confidence": 0.9, "importance": 3} | fields
    return Candidate(key=key, content=content, **values)


def test_refusal_lets_a_lasting_confident_candidate_through() -> None:
    """R-TYPE-2, R-PIPE-3: a stable preference above the confidence floor may be written."""
    assert refusal(_candidate("food-sichuan-cuisine"), SETTINGS) is None


@pytest.mark.parametrize(
    ("candidate", "reason"),
    [
        (_candidate("tool-search", "可以调用搜索工具"), "noise key: tool-*"),
        (_candidate("nickname", "叫我小王"), "profile field: key"),
        (_candidate("home-city", "12345", memory_type="fact"), "bad slot value: '12345' is not a place"),
        (_candidate("dinner", "今晚想吃火锅"), "short-term window: 今晚"),
    ],
)
def test_refusal_names_the_boundary_a_candidate_breaks(candidate: Candidate, reason: str) -> None:
    """R-TYPE-3, R-TYPE-4: noise keys, profile fields, impossible slot values and short windows are refused."""
    assert refusal(candidate, SETTINGS) == Refusal("boundary", reason)


def test_refusal_names_a_confidence_under_the_floor() -> None:
    """R-PIPE-3: LONG_TERM_MEMORY_MIN_CONFIDENCE is a floor for every channel."""
    assert refusal(_candidate("music-jazz", "喜欢爵士乐", confidence=0.6), SETTINGS) == Refusal(
        "confidence", "below the confidence floor: 0.60 < 0.75"
    )


def test_refusal_checks_a_reminder_against_its_message_only_when_there_is_one() -> None:
    """R-TYPE-3: "明天提醒我开会" rewritten as "提醒开会" is still short-term; a tool call has no message."""
    reminder = _candidate("meeting-reminder", "提醒开会", memory_type="goal")
    refused = refusal(reminder, SETTINGS, message="明天提醒我开会")
    assert refused is not None and refused.kind == "boundary"
    assert refusal(reminder, SETTINGS) is None


def test_a_models_plan_a_month_ahead_passes_but_a_reminder_from_that_message_does_not() -> None:
    """R-TYPE-3, issue 13.4: the plan in "下个月我要参加马拉松，到时候提醒我报名" lasts; the reminder does not."""
    message = "下个月我要参加马拉松，到时候提醒我报名"
    assert (
        refusal(_candidate("goal-marathon", "下个月要参加马拉松", memory_type="goal"), SETTINGS, message=message)
        is None
    )
    refused = refusal(_candidate("reminder-signup", "提醒报名马拉松", memory_type="goal"), SETTINGS, message=message)
    assert refused == Refusal("boundary", "short-term window: reminder bound to '下个月' in the message")


def test_admit_keeps_the_best_candidates_up_to_the_write_cap() -> None:
    """R-PIPE-3: refused candidates go, deletes come first, then importance × confidence, at most MAX_WRITE_ITEMS."""
    candidates = [
        _candidate("a", importance=2),
        _candidate("tool-x", "工具"),
        _candidate("b", importance=5),
        _candidate("c", importance=3, confidence=0.5),
        _candidate("d", op="delete", importance=1),
        _candidate("e", importance=4),
        _candidate("f", importance=3),
    ]
    admitted = admit(candidates, SETTINGS, stage="extract", message="我喜欢川菜")
    assert [c.key for c in admitted] == ["d", "b", "e"]


def test_admit_logs_each_drop_with_its_reason_and_key_but_not_the_content(caplog: pytest.LogCaptureFixture) -> None:
    """R-PIPE-2, R-OPS-4: every dropped candidate is logged with why; what the user said stays out of logs."""
    caplog.set_level("INFO", logger="memory_tasks.extraction.gate")
    admit([_candidate("tool-x", "秘密工具内容")], SETTINGS, stage="refine", message_id=7)
    (record,) = caplog.records
    assert (record.stage, record.message_id, record.key, record.reason) == ("refine", 7, "tool-x", "noise key: tool-*")
    assert "秘密工具内容" not in record.getMessage()
