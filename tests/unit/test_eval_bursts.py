"""`make eval-bursts` (issue 13.1): its data is checked line by line and its counts say what each burst did."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.eval_bursts import DEFAULT_DATA, RESENDS, REVERSED, Burst, BurstResult, format_results, load_bursts, misses


def test_the_shipped_bursts_load_each_with_statements_to_send() -> None:
    bursts = load_bursts(DEFAULT_DATA)
    assert len(bursts) == 1157 and len({b.id for b in bursts}) == 1157
    assert {b.lang for b in bursts} == {"en", "zh"}
    assert sum(b.new_value is not None for b in bursts) == 378


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ('{"statements": ["a", "b"]}', "needs an id"),
        ('{"id": "x", "statements": ["only one"]}', "at least two statements"),
        ('{"id": "x", "statements": ["a", ""]}', "non-empty string"),
        ('{"id": "x", "statements": ["a", 3]}', "non-empty string"),
    ],
)
def test_a_burst_without_an_id_or_two_statements_is_refused_with_its_line(
    tmp_path: Path, line: str, error: str
) -> None:
    data = tmp_path / "bursts.jsonl"
    data.write_text('{"id": "ok", "statements": ["a", "b"]}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=rf"bursts.jsonl:2: .*{error}"):
        load_bursts(data)


def test_the_counts_tell_one_memory_stability_and_new_values_apart() -> None:
    one = (1, "k", "fact", "Lives in Berlin", 1)
    results = [
        BurstResult(Burst("held", "en", ("a", "b")), [one], [], [one], [(1, "k", "fact", "Lives in Rome", 2)]),
        BurstResult(Burst("two", "en", ("a", "b")), [one, (2, "j", "fact", "x", 1)], [], [], None),
        BurstResult(Burst("flips", "zh", ("a", "b"), "c"), [one], ["shuffled 2"], [one], [one]),
    ]
    report = format_results(results)
    assert "ok  held" in report
    assert "BAD two" in report and "[2 memories]" in report
    assert "changed by re-sends: shuffled 2" in report and "new value not taken" in report
    assert report.splitlines()[-1].split() == ["all", "3", "2", "2", "1", "1/2"]
    assert misses(results) == {"one memory": ["two"], "stable": ["flips"], "new value": ["flips"]}


def test_make_test_re_sends_a_burst_in_an_order_other_than_the_one_first_said() -> None:
    """Issue 13.1: a shuffle of three statements may give the first order back; the reverse never does."""
    statements = ("a", "b", "c")
    assert [resend.order(statements) for resend in REVERSED] == [["c", "b", "a"]]
    assert [resend.order(statements) for resend in RESENDS] == [resend.order(statements) for resend in RESENDS]
    assert all(sorted(resend.order(statements)) == list(statements) for resend in RESENDS)
