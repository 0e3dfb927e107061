"""The oracle write-path benchmark's own logic (issue 13.4, 16.4): its trigger queue and its report."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from bench.bench_oracle import (
    ConversationResult,
    Fate,
    ModeResult,
    Proposed,
    captured_triggers,
    first_proposed_keys,
    render,
    section_title,
)
from bench.bench_retrieval import LOCOMO_USER_BASE
from bench.common import write_section
from bench.locomo_model import LocomoModel, Turn
from memory_tasks import dispatch


def test_triggers_the_stages_send_are_queued_in_order_and_the_transport_restored() -> None:
    """Issue 16.4: a redirect or a turn left behind is run by the bench, not sent to a broker."""
    sent = dispatch.enqueue_message
    with captured_triggers() as queue:
        dispatch.enqueue_message(7)
        dispatch.enqueue_message(3, countdown=12)
        assert list(queue) == [7, 3]
    assert dispatch.enqueue_message is sent


def test_each_selection_replaces_only_its_own_section(tmp_path: Path) -> None:
    """Issue 13.4: the run on all 10 conversations and the run on 0 and 1 both stay in docs/quality.md."""
    output = tmp_path / "quality.md"
    output.write_text("# Quality\n\n## Dedup\nD\n", encoding="utf-8")
    all_ten, first_two = section_title(list(range(10))), section_title([0, 1])
    write_section(output, f"{all_ten}\nA\n", all_ten)
    write_section(output, f"{first_two}\nB\n", first_two)
    write_section(output, f"{all_ten}\nA2\n", all_ten)
    assert output.read_text(encoding="utf-8") == f"# Quality\n\n## Dedup\nD\n\n{all_ten}\nA2\n\n{first_two}\nB\n"


def test_the_retrieval_only_side_keys_each_fact_as_the_stub_first_proposed_it() -> None:
    """Issue 13.4: the key is embedded with the fact, so both sides must carry the same one; a fact citing
    two turns is proposed at both, and the first proposal's key is the one the pipeline keeps."""
    turns = [
        [
            Turn(0, 1, "D1:1", 0, "I paint.", ("Ann paints.",)),
            Turn(0, 1, "D1:2", 1, "Nice!", ()),
            Turn(0, 1, "D1:3", 0, "I got a cat, and I still paint.", ("Ann adopted a cat.", "Ann paints.")),
        ],
        [Turn(1, 1, "D1:1", 0, "I run.", ("Bo runs.",))],
    ]
    model = LocomoModel(turns)
    keys = first_proposed_keys([0, 1], turns, model)
    ann, bo = LOCOMO_USER_BASE, LOCOMO_USER_BASE + 1
    assert keys == {
        (ann, "Ann paints."): model.key_of("I paint.", 0),
        (ann, "Ann adopted a cat."): model.key_of("I got a cat, and I still paint.", 0),
        (bo, "Bo runs."): model.key_of("I run.", 0),
    }
    assert keys[(ann, "Ann paints.")] != model.key_of("I got a cat, and I still paint.", 1)
    assert first_proposed_keys([1], turns, model) == {(bo, "Bo runs."): model.key_of("I run.", 0)}


def _run(mode: str, fates: list[Fate], extract_calls: int, sizes: Counter[int]) -> ModeResult:
    return ModeResult(
        mode,
        [ConversationResult(0, 10, fates)],
        user_turns=10,
        extract_calls=extract_calls,
        refine_calls=2,
        window_sizes=sizes,
        recall=0.5,
    )


def test_the_report_sets_the_modes_side_by_side_and_lists_every_loss_with_its_reason() -> None:
    """Issue 13.4, 16.4: kept share, calls per user turn, each loss and each misattributed turn, per mode."""
    art = Proposed(0, "D1:2", "locomo-a-0", "Ann paints.", 11)
    cat = Proposed(0, "D1:4", "locomo-b-0", "Ann adopted a cat.", 12)
    per_turn = [Fate(art, "kept"), Fate(cat, "merged", "ann adopted a cat")]
    windowed = [Fate(art, "kept", recorded_on="D1:4"), Fate(cat, "dropped at extract: short-term window: today")]
    report = render(
        [_run("per-turn", per_turn, 10, Counter({1: 10})), _run("windowed", windowed, 3, Counter({2: 1, 4: 2}))],
        0.6,
        5,
        [0],
        "cmd",
        "abc1234",
        1.0,
        "1.00 1.00 1.00",
    )
    assert report.startswith(section_title([0]))
    assert "| kept as active, SYNCED memories under their key | 1 (50.0%) | 1 (50.0%) | >= 98% |" in report
    assert "| extraction calls (per user turn) | 10 (1.00) | 3 (0.30) | windowed <= 0.6 |" in report
    assert "| lost to a memory saying the same text (true duplicates) | 1 | 0 | may merge |" in report
    assert "| gap to retrieval only | +0.100 | +0.100 | <= 0.02 |" in report
    assert "- 0 D1:4, merged (same text): «Ann adopted a cat.» → «ann adopted a cat»" in report
    assert "- 0 D1:4, dropped at extract: short-term window: today: «Ann adopted a cat.»" in report
    assert "- 0 D1:2 → D1:4: «Ann paints.»" in report
