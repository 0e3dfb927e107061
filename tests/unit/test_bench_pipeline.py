"""The pipeline benchmark's own logic: LoCoMo turns, the stub model, chain tracking, figures, the report."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from bench import pipeline_probe
from bench.bench_pipeline import (
    ModeResult,
    PhaseRun,
    Recorded,
    burst_cpu_split,
    chain_ends,
    latencies,
    latencies_from_due,
    llm_calls,
    overhead,
    replace_section,
    throughput,
)
from bench.locomo_model import Call, LocomoModel, Turn, load_turns, serve
from bench.pipeline_stack import ChainTracker, TaskRecord
from config.settings import Settings
from memory_tasks.extraction.llm_engine import LLMEngine
from memory_tasks.extraction.types import TurnContext
from memory_tasks.vectors.index import PROCESS_VECTORS

LOCOMO = {
    "conversation": {
        "speaker_a": "Ann",
        "speaker_b": "Bo",
        "session_1": [
            {"speaker": "Ann", "dia_id": "D1:1", "text": "Hi Bo!"},
            {"speaker": "Bo", "dia_id": "D1:2", "text": " I adopted a cat and started painting. "},
            {"speaker": "Ann", "dia_id": "D1:3", "text": ""},
        ],
        "session_2": [{"speaker": "Ann", "dia_id": "D2:1", "text": "I moved to Lisbon."}],
    },
    "observation": {
        "session_1_observation": {"Bo": [["Bo adopted a cat.", "D1:2"], ["Bo paints.", "D1:2; D2:1"]]},
        "session_2_observation": {"Ann": [["Ann lives in Lisbon.", "D2:1"]]},
    },
}


@pytest.fixture
def locomo_file(tmp_path: Path) -> Path:
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps([LOCOMO, LOCOMO]), encoding="utf-8")
    return path


def test_turns_carry_the_facts_citing_them_and_skip_empty_text(locomo_file: Path) -> None:
    conversations = load_turns(locomo_file, conversations=1, max_turns=None)

    assert len(conversations) == 1
    assert [(t.session, t.dialog_id, t.speaker, t.text) for t in conversations[0]] == [
        (1, "D1:1", 0, "Hi Bo!"),
        (1, "D1:2", 1, "I adopted a cat and started painting."),
        (2, "D2:1", 0, "I moved to Lisbon."),
    ]
    assert conversations[0][1].facts == ("Bo adopted a cat.", "Bo paints.")
    assert conversations[0][2].facts == ("Bo paints.", "Ann lives in Lisbon.")
    assert [len(c) for c in load_turns(locomo_file, conversations=2, max_turns=2)] == [2, 2]


def test_the_stub_model_answers_the_real_engine_with_the_turns_facts_and_keeps_them(locomo_file: Path) -> None:
    model = LocomoModel(load_turns(locomo_file, conversations=1, max_turns=None))
    server = serve(model)
    try:
        engine = LLMEngine(Settings(_env_file=None, OPENAI_BASE_URL=server.base_url, OPENAI_API_KEY=""))
        candidates = engine.extract(TurnContext(message="I adopted a cat and started painting."))
        kept = engine.refine(candidates, [])
        nothing = engine.extract(TurnContext(message="Hi Bo!"))
    finally:
        server.stop()

    assert [c.content for c in candidates] == ["Bo adopted a cat.", "Bo paints."]
    assert len({c.key for c in candidates}) == 2
    assert kept == candidates
    assert nothing == []
    assert [(c.purpose, c.texts) for c in model.calls] == [
        ("extract", ("I adopted a cat and started painting.",)),
        ("refine", ("Bo adopted a cat.", "Bo paints.")),
        ("extract", ("Hi Bo!",)),
    ]


def test_the_stub_model_names_every_turn_of_a_window_and_the_turns_a_refinement_is_about(locomo_file: Path) -> None:
    """Issue 12 (LLM calls per turn): one extraction call serves every turn of a debounce window,
    and a refinement the turns whose candidates it lists (known by the candidate keys the stub
    gave them), however the facts are spread over the window."""
    model = LocomoModel(load_turns(locomo_file, conversations=1, max_turns=None))
    server = serve(model)
    try:
        engine = LLMEngine(Settings(_env_file=None, OPENAI_BASE_URL=server.base_url, OPENAI_API_KEY=""))
        window = TurnContext(message="I adopted a cat and started painting.", earlier=("Hi Bo!",))
        candidates = engine.extract(window)
        engine.refine(candidates, [])
    finally:
        server.stop()

    assert [(c.purpose, c.turns) for c in model.calls] == [
        ("extract", ("Hi Bo!", "I adopted a cat and started painting.")),
        ("refine", ("I adopted a cat and started painting.",)),
    ]
    assert model.turn_of_key("observation-999999") is None


def _event(kind: str, uuid: str, at: float, **fields) -> dict:
    return {"type": kind, "uuid": uuid, "timestamp": at, **fields}


def test_a_chain_is_finished_only_when_every_task_sent_for_it_has_ended() -> None:
    tracker = ChainTracker()
    tracker.on_event(_event("task-sent", "a", 1.0, name="memory.extract_candidates", root_id="a", args="(7,)"))
    assert not tracker.finished({7})
    tracker.on_event(_event("task-started", "a", 1.1, hostname="llm@h"))
    tracker.on_event(_event("task-sent", "b", 1.2, name="memory.refine_candidates", root_id="a", args="({},)"))
    tracker.on_event(_event("task-succeeded", "a", 1.3, runtime=0.2))
    assert not tracker.finished({7})
    # The end of b is heard before its sending: b must not count as still open afterwards.
    tracker.on_event(_event("task-succeeded", "b", 1.5, runtime=0.1))
    tracker.on_event(_event("task-received", "b", 1.25, name="memory.refine_candidates", root_id="a", args="()"))

    assert tracker.finished({7})
    assert not tracker.finished({7, 8})
    assert tracker.root_of_message() == {7: "a"}
    snapshot = tracker.snapshot()
    assert (snapshot["a"].sent, snapshot["a"].started, snapshot["a"].hostname) == (1.0, 1.1, "llm@h")
    assert snapshot["b"].state == "SUCCESS"


def test_each_retry_is_counted_with_the_error_class_it_named_and_no_message_text() -> None:
    """Issue 12: a stage's retries are reported with their cause (the full run's "(1 retries)"
    could not be traced once the bench had deleted the worker logs)."""
    tracker = ChainTracker()
    tracker.on_event(_event("task-sent", "a", 1.0, name="memory.extract_candidates", root_id="a", args="(7,)"))
    deadlock = "OperationalError('(psycopg2.errors.DeadlockDetected) deadlock detected\\nDETAIL:  Process 1 waits')"
    tracker.on_event(_event("task-retried", "a", 1.1, exception=deadlock))
    tracker.on_event(
        _event("task-retried", "a", 1.2, exception="LLMTransientError('chat model unavailable: I love tea')")
    )
    tracker.on_event(_event("task-retried", "a", 1.3, exception="no class here"))

    record = tracker.snapshot()["a"]

    assert record.retries == 3
    assert record.retry_causes == Counter({"DeadlockDetected": 1, "LLMTransientError": 1, "?": 1})


def _run(ends: list[float]) -> PhaseRun:
    """A phase of len(ends) turns enqueued at 0, the chain of turn i ending at ends[i]."""
    turn = Turn(0, 1, "D1:1", 0, "text", ())
    run = PhaseRun("burst", [Recorded(i, 1, turn) for i in range(len(ends))], started=0.0)
    run.enqueued_at = dict.fromkeys(range(len(ends)), 0.0)
    run.root_of = {i: f"root{i}" for i in range(len(ends))}
    run.tasks = {f"t{i}": TaskRecord(root_id=f"root{i}", finished=end) for i, end in enumerate(ends)}
    return run


def test_throughput_over_the_run_and_in_its_middle() -> None:
    steady = _run([float(i + 1) for i in range(10)])
    bunched = _run([9.0] * 9 + [10.0])

    assert chain_ends(steady)[3] == 4.0
    assert sorted(latencies(bunched)) == [9.0] * 9 + [10.0]
    assert throughput(steady) == pytest.approx((1.0, 1.0))
    whole, middle = throughput(bunched)
    assert whole == pytest.approx(1.0)
    assert middle == pytest.approx(9 / 8)  # the 9 chains ending at 9 s fall in (1 s, 9 s]
    assert throughput(_run([9.5] * 9 + [10.0]))[1] == 0.0  # nothing retired in the middle of the run


def test_a_turn_is_retrievable_when_the_run_that_took_its_window_ends_and_is_timed_from_its_due_trigger() -> None:
    """Issue 12 item 3: turn 7's trigger (a debounce release, due at 10) takes turns 7 and 8; its
    extraction sends a release for the turn it left behind (9), which Celery files under the same
    root. Turns 7 and 8 are retrievable when 7's chain ends (11), not when 9's run ends (23)."""
    tracker = ChainTracker()
    events = [
        (
            "task-sent",
            "r7",
            0.0,
            {"name": "memory.release_trigger", "args": "(7,)", "eta": "1970-01-01T00:00:10+00:00"},
        ),
        ("task-sent", "e7", 10.1, {"name": "memory.extract_candidates", "root_id": "r7", "parent_id": "r7"}),
        ("task-sent", "r9", 10.5, {"name": "memory.release_trigger", "root_id": "r7", "parent_id": "e7"}),
        ("task-sent", "f7", 10.6, {"name": "memory.refine_candidates", "root_id": "r7", "parent_id": "e7"}),
        ("task-sent", "e9", 22.1, {"name": "memory.extract_candidates", "root_id": "r7", "parent_id": "r9"}),
    ]
    for kind, uuid, at, fields in events:
        tracker.on_event(_event(kind, uuid, at, **fields))
    tracker.on_event(_event("task-received", "r9", 10.5, eta="1970-01-01T00:00:22+00:00"))
    for uuid, at in (("r7", 10.05), ("e7", 10.5), ("r9", 22.05), ("f7", 11.0), ("e9", 23.0)):
        tracker.on_event(_event("task-succeeded", uuid, at, runtime=0.1))
    turn = Turn(0, 1, "D1:1", 0, "text", ())
    run = PhaseRun("paced", [Recorded(m, 1, turn) for m in (7, 8, 9)], started=0.0)
    run.enqueued_at = {7: 0.0, 8: 0.5, 9: 9.0}
    run.tasks, run.root_of = tracker.snapshot(), {7: "r7"}
    run.window_of = {7: "e7", 8: "e7", 9: "e9"}

    assert chain_ends(run) == {7: 11.0, 8: 11.0, 9: 23.0}
    assert sorted(latencies(run)) == [10.5, 11.0, 14.0]
    assert sorted(latencies_from_due(run)) == [1.0, 1.0, 1.0]


def test_a_model_call_is_idle_only_when_no_turn_it_covered_yielded_a_memory() -> None:
    """Issue 12 (0 LLM calls for memory-less turns): a window's extraction whose first turn says
    nothing but whose second yields a memory is no idle call (it used to be charged to the first
    turn alone); one over memory-less turns only is; a refinement is judged by its candidates' turns."""
    texts = ("Hi Bo!", "I moved to Lisbon.", "Nice.", "Really?", "ok")
    recorded = [Recorded(m, 1, Turn(0, 1, f"D1:{m}", 0, text, ())) for m, text in enumerate(texts, 1)]
    run = PhaseRun("burst", recorded)
    run.outcomes = {1: "memory-less", 2: "memories", 3: "memory-less", 4: "memory-less", 5: "trivial"}
    run.calls = [
        Call(1.0, "extract", texts[:2], texts[:2]),
        Call(2.0, "refine", ("Ann lives in Lisbon.",), ("I moved to Lisbon.",)),
        Call(3.0, "extract", texts[2:4], texts[2:4]),
        Call(4.0, "extract", ("unknown",), ("unknown",)),
    ]

    counts = llm_calls(run)

    assert (counts.calls, counts.turns, counts.idle, counts.on_trivial, counts.unattributed) == (4, 5, 1, 0, 1)
    assert counts.memory_less_turns == 4
    run.calls.append(Call(5.0, "extract", ("ok",), ("ok",)))
    assert (llm_calls(run).idle, llm_calls(run).on_trivial) == (2, 1)


def _overhead_phase(name: str, cpu_sec: float, window_sec: float, wall_sec: float) -> PhaseRun:
    recorded = [Recorded(m, 1, Turn(0, 1, f"D1:{m}", 0, "hi", ())) for m in range(40)]
    run = PhaseRun(name, recorded, started=0.0, ended=wall_sec, cpu_sec=cpu_sec, cpu_window_sec=window_sec)
    run.cpu_by_process = Counter({"worker-llm": cpu_sec / 2, "bench": cpu_sec / 2})
    return run


def test_the_celery_overhead_above_idle_leaves_out_what_the_idle_stack_burns_over_each_phase() -> None:
    """Issue 12 (Celery overhead ≤ 1.3×): the chain's phase lasts as long as its 12 s re-triggers
    wait, the loop's as its work; the idle stack's burn over each phase's own window is no cost
    of its turns, the raw ratio is kept beside it."""
    phases = {
        "loop": _overhead_phase("loop", cpu_sec=0.56, window_sec=1.0, wall_sec=0.5),
        "one at a time": _overhead_phase("one at a time", cpu_sec=1.0, window_sec=2.0, wall_sec=2.0),
        "all at once": _overhead_phase("all at once", cpu_sec=1.6, window_sec=13.0, wall_sec=12.5),
    }
    result = ModeResult("offline", phases, {}, 1.0, 0.0, 1.0, None, "", idle_cpu_per_sec=0.025)

    figures = overhead(result)

    assert figures["cpu"] == pytest.approx(1.6 / 0.56)
    assert figures["chain cpu ms per turn above idle"] == pytest.approx((1.6 - 0.025 * 13.0) / 40 * 1000)
    assert figures["loop cpu ms per turn above idle"] == pytest.approx((0.56 - 0.025 * 1.0) / 40 * 1000)
    assert figures["cpu above idle"] == pytest.approx((1.6 - 0.325) / (0.56 - 0.025))


def test_the_bursts_cpu_is_split_by_process_largest_first_per_turn() -> None:
    """Issue 12: where the burst's CPU ceiling goes (the instant target is CPU-bound)."""
    burst = _overhead_phase("burst", cpu_sec=2.0, window_sec=1.0, wall_sec=1.0)
    burst.cpu_by_process = Counter({"PostgreSQL": 0.2, "worker-index": 0.6, "worker-llm": 1.2})
    result = ModeResult("instant", {"burst": burst}, {}, 1.0, 0.0, 1.0, None, "", idle_cpu_per_sec=0.0)

    assert burst_cpu_split(result) == "worker-llm 30.0, worker-index 15.0, PostgreSQL 5.0"


def test_the_pipeline_section_is_replaced_in_place_or_appended() -> None:
    old = "# Benchmarks\n\n## Retrieval\nA\n\n## Pipeline on LoCoMo\nold\n### Stages\nold\n\n## Later\nB\n"
    new = "## Pipeline on LoCoMo\nnew\n"

    assert replace_section(old, new) == "# Benchmarks\n\n## Retrieval\nA\n\n## Pipeline on LoCoMo\nnew\n\n## Later\nB\n"
    assert replace_section("# Benchmarks\n\n## Retrieval\nA\n", new) == (
        "# Benchmarks\n\n## Retrieval\nA\n\n## Pipeline on LoCoMo\nnew\n"
    )


class _EpochRedis:
    """The two Redis commands the cache epoch uses, in memory."""

    def __init__(self) -> None:
        self.values: dict[str, int] = {}

    def incr(self, key: str) -> None:
        self.values[key] = self.values.get(key, 0) + 1

    def get(self, key: str) -> bytes | None:
        return str(self.values[key]).encode() if key in self.values else None


def test_a_worker_forgets_the_vectors_of_an_earlier_phase_but_keeps_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 12 (Celery overhead): a phase's chain must embed LoCoMo's texts as new, not find the
    vectors an earlier phase of the same texts left in the worker's memory."""
    client = _EpochRedis()
    monkeypatch.setenv(pipeline_probe.PROBE_KEY_VAR, "bench:test")
    monkeypatch.setattr(pipeline_probe, "_redis", lambda _pid: client)
    monkeypatch.setattr(pipeline_probe, "_epoch_seen", [None])
    key = ("model", 1, "digest")
    PROCESS_VECTORS.put(key, np.zeros(3, dtype=np.float32))
    pipeline_probe._forget_vectors_of_earlier_phases()  # no new epoch: the phase's own vectors stay
    assert PROCESS_VECTORS.get(key) is not None
    client.incr("bench:test" + pipeline_probe.EPOCH_SUFFIX)  # the bench starts a phase
    pipeline_probe._forget_vectors_of_earlier_phases()
    assert PROCESS_VECTORS.get(key) is None
    PROCESS_VECTORS.put(key, np.zeros(3, dtype=np.float32))
    pipeline_probe._forget_vectors_of_earlier_phases()  # the same epoch: made in this phase, kept
    assert PROCESS_VECTORS.get(key) is not None
    pipeline_probe.new_cache_epoch(client, "bench:test")  # the bench process empties its own too
    assert PROCESS_VECTORS.get(key) is None
