"""What became of each statement of a turn, collected as data by the stages (issue 17 item 2)."""

from __future__ import annotations

from config.settings import Settings
from memory_tasks.extraction.candidates import Candidate
from memory_tasks.extraction.gate import screen
from memory_tasks.extraction.outcomes import (
    NOTHING_FOUND,
    REFINE_DROP,
    Outcome,
    nothing_found,
    parse_outcomes,
    refine_drops,
    stored,
    unread_statements,
)
from memory_tasks.memories.store import AppliedChange
from memory_tasks.memories.write_path import _after_merges, _outcome

SETTINGS = Settings(_env_file=None, LONG_TERM_MEMORY_MIN_CONFIDENCE=0.75, LONG_TERM_MEMORY_MAX_WRITE_ITEMS=2)


def _candidate(key: str, content: str, **fields) -> Candidate:
    values = {"op": "upsert", "memory_type": "preference", "confidence": 0.9, "importance": 3} | fields
    return Candidate(key=key, content=content, **values)


def test_the_gate_says_why_it_drops_each_candidate() -> None:
    """Issue 17 item 2: noise key, profile field, short-term window, confidence floor and write cap
    are each a dropped outcome with its reason; admitted candidates have none."""
    candidates = [
        _candidate("tool-search", "可以调用搜索工具"),
        _candidate("nickname", "叫我小王"),
        _candidate("dinner", "今晚想吃火锅"),
        _candidate("music-jazz", "喜欢爵士乐", confidence=0.6),
        _candidate("drink-tea", "喜欢喝普洱茶", importance=5),
        _candidate("food-sichuan", "喜欢吃川菜", importance=4),
        _candidate("sport-tennis", "喜欢打网球", importance=1),
    ]
    screening = screen(candidates, SETTINGS, stage="extract")
    assert [c.key for c in screening.admitted] == ["drink-tea", "food-sichuan"]
    assert [(o.key, o.status, o.stage, o.reason) for o in screening.dropped] == [
        ("tool-search", "dropped", "extract", "noise key: tool-*"),
        ("nickname", "dropped", "extract", "profile field: key"),
        ("dinner", "dropped", "extract", "short-term window: 今晚"),
        ("music-jazz", "dropped", "extract", "below the confidence floor: 0.60 < 0.75"),
        ("sport-tennis", "dropped", "extract", "over the write cap (LONG_TERM_MEMORY_MAX_WRITE_ITEMS=2)"),
    ]


def test_the_write_cap_never_cuts_a_core_memory_for_a_taste() -> None:
    """R-PIPE-3, R-READ-6 (fourteenth probe): a long introduction with more than the cap's candidates lost
    its reply rule ("please keep your answers short", importance 3) to likings of the same importance
    listed before it; an allergy of importance 2 would have gone the same way."""
    candidates = [
        _candidate("sport-hiking", "Loves hiking", importance=4),
        _candidate("food-sushi", "Loves sushi", importance=4),
        _candidate("reply-style", "Please keep your answers short"),
        _candidate("allergy-peanut", "Is allergic to peanuts", memory_type="fact", importance=2),
    ]
    screening = screen(candidates, SETTINGS, stage="extract")
    assert [c.key for c in screening.admitted] == ["reply-style", "allergy-peanut"]
    assert [o.key for o in screening.dropped] == ["sport-hiking", "food-sushi"]


def test_the_rules_say_which_clauses_they_do_not_read_and_why() -> None:
    """Issue 17 item 2: a clause under a short time window is a drop naming the window; the lasting
    clause beside it is not reported as dropped."""
    outcomes = unread_statements("今天开会讨论了很多事情，我喜欢喝普洱茶。")
    assert [(o.text, o.reason) for o in outcomes] == [("今天开会讨论了很多事情", "short-term window: 今天")]
    assert [o.reason for o in unread_statements("我叫李明")] == ["profile field"]
    assert unread_statements("我喜欢喝普洱茶") == []


def test_refinement_drops_are_the_candidates_it_left_out() -> None:
    """Issue 17 item 2: a candidate refinement does not return is a "refine drop"."""
    kept, left_out = _candidate("drink-tea", "喜欢喝茶"), _candidate("forget-job", "我的工作", op="delete")
    drops = refine_drops([kept, left_out], [kept])
    assert [(o.key, o.stage, o.reason) for o in drops] == [("forget-job", "refine", REFINE_DROP)]


def test_outcomes_survive_the_payload_and_garbage_does_not() -> None:
    """Issue 17 item 2, R-FAIL-4: outcomes travel in the stage payload; what is not one is left out."""
    outcome = stored(_candidate("drink-tea", "喜欢喝普洱茶"), 12, "create")
    garbage = [
        {"status": "stored", "memory_id": "12"},
        {"status": "burned"},
        {"status": "dropped", "reason": 5},
        "dropped",
        {"status": "stored", "memory_id": True},
    ]
    assert parse_outcomes([outcome.to_json(), *garbage]) == [outcome]
    assert parse_outcomes({"status": "stored"}) == []
    long = Outcome.from_json({"status": "dropped", "reason": "x" * 5000, "text": "y" * 5000})
    assert long is not None and len(long.reason or "") <= 200 and len(long.text) <= 120


def test_each_outcome_reads_as_one_line() -> None:
    """Issue 17 item 2: `ingest --wait` prints one line per outcome."""
    assert (
        stored(_candidate("drink-tea", "喜欢喝普洱茶"), 12, "create").line()
        == "stored #12 create drink-tea: 喜欢喝普洱茶"
    )
    assert nothing_found().line() == f"dropped: {NOTHING_FOUND}"
    clause = unread_statements("今天好累啊")[0]
    assert clause.line() == 'dropped "今天好累啊": short-term window: 今天'
    assert "\n" not in Outcome(status="dropped", stage="extract", text="a\nb", reason="c\nd").line()


def test_the_write_path_says_what_it_did_with_each_candidate() -> None:
    """Issue 17 item 2: a write is stored with its op, a restatement under another key is a duplicate of
    the memory it repeats, a same-key repeat a confirm, a stale or empty delete a drop naming why."""
    tea = _candidate("drink-tea", "喜欢喝普洱茶")
    assert _outcome(tea, AppliedChange(7, "create"), redirected=False) == stored(tea, 7, "create")
    duplicate = _outcome(tea, AppliedChange(3, "confirm", changed=False), redirected=True)
    assert (duplicate.status, duplicate.memory_id, duplicate.reason) == ("dropped", 3, "duplicate of memory #3")
    confirmed = _outcome(tea, AppliedChange(3, "confirm", changed=False), redirected=False)
    assert (confirmed.status, confirmed.op, confirmed.memory_id) == ("stored", "confirm", 3)
    stale = _outcome(
        tea, AppliedChange(3, "upsert", changed=False, note="memory #3 holds a later statement"), redirected=False
    )
    assert (stale.status, stale.reason) == ("dropped", "memory #3 holds a later statement")


def test_a_memory_written_then_merged_away_points_at_its_survivor() -> None:
    """Issue 17 item 2: after the near-duplicate merge, the outcome names the memory that holds the statement."""
    tea, oolong = (
        stored(_candidate("drink-tea", "喜欢喝茶"), 7, "create"),
        stored(_candidate("oolong", "爱喝乌龙"), 8, "create"),
    )
    merged, survivor = (_after_merges(o, {7: 5, 4: 8}) for o in (tea, oolong))
    assert (merged.op, merged.memory_id, merged.reason) == ("merge", 5, "merged into memory #5")
    assert (survivor.op, survivor.memory_id, survivor.reason) == ("create", 8, "absorbed memory #4")
    dropped_one = nothing_found()
    assert _after_merges(dropped_one, {7: 5}) == dropped_one
