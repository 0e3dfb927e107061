"""Precision and recall of an extraction engine on labeled single turns (SPEC R-LLM-2, R-TYPE-3).

    python -m bench.eval_extraction [--data tests/data/extraction_turns.jsonl …] [--show-errors]
                                    [--engine auto|rules|llm] [--model NAME]
    make eval-extraction MODEL=deepseek-chat   # with OPENAI_BASE_URL (and OPENAI_API_KEY) set
    make eval-extraction DATA="tests/data/everyday_turns.jsonl tests/data/everyday_turns_heldout.jsonl"

The engine is the offline rules engine unless a chat model is configured (`--engine auto`,
the default, follows LONG_TERM_MEMORY_ENGINE like the pipeline) or asked for: `--model` sets
OPENAI_CHAT_MODEL and runs the LLM engine against whatever OpenAI-compatible server
OPENAI_BASE_URL names (DeepSeek, Qwen, a local vLLM or Ollama …). For a model the report
adds its calls, tokens and latency (p50 / p95 per call), and the turns whose answer was
unusable (counted as producing nothing).

Each line of the data is one user message with the memories it should yield:
{"id", "lang", "text", "expected": [{"memory_type", "op", "facts": [...], "key"?}],
"existing"?: [{"id", "key", "memory_type", "content"}]};
an empty `expected` means the message must produce nothing (short-term request, weather,
tool talk, profile field, small talk, question). `existing` are the user's memories when the
message arrives (what a forget request or a retraction targets); the engine's `refine` sees
them, as in the pipeline. Lines with "split": "holdout" were written
after the rules and never used to tune them; the others ("dev") were written before the
rules and then used to develop them, so their figures are optimistic.

Matching: a produced candidate matches an expected item when the memory_type is equal, the
op is equal (upsert and append count as one: both store the content, and which of the two
lands it on a key is the key scheme's choice; delete is distinct), every fact is a substring of the candidate's content (case-insensitive), and the
key (the key the candidate writes to after refine) is equal where the label gives one (labels
give keys for the defined single-valued slots: residence-city, occupation, reply-language …, and
for a delete, the existing memory it must remove). Within a turn, expected items are
matched in label order, each to the first still unmatched candidate that fits.

- precision = matched candidates / produced candidates (1.0 when nothing is produced)
- recall = matched expected items / expected items
- must-drop accuracy = share of must-produce-nothing turns that produced nothing
Per type, precision counts candidates of that type and recall expected items of that type.
`evaluate()` returns the same figures for tests.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from config.settings import get_settings
from memory_tasks.extraction.candidates import MEMORY_TYPES, Candidate
from memory_tasks.extraction.engine import choose_engine, select_engine
from memory_tasks.extraction.rules import RulesEngine
from memory_tasks.extraction.types import Engine, ExistingMemory, TurnContext
from memory_tasks.llm import LLMError

DEFAULT_DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "extraction_turns.jsonl"


@dataclass(frozen=True)
class Expected:
    memory_type: str
    op: str
    facts: tuple[str, ...]
    key: str | None = None

    def matches(self, candidate: Candidate) -> bool:
        """True when `candidate` is this expected memory (see the module docstring)."""
        content = candidate.content.casefold()
        return (
            candidate.memory_type == self.memory_type
            and (candidate.op == "delete") == (self.op == "delete")
            and (self.key is None or candidate.target_key == self.key)
            and all(fact.casefold() in content for fact in self.facts)
        )


@dataclass(frozen=True)
class LabeledTurn:
    id: str
    lang: str
    text: str
    expected: tuple[Expected, ...]
    split: str = "dev"
    existing: tuple[ExistingMemory, ...] = ()


@dataclass
class Counts:
    matched: int = 0
    produced: int = 0
    expected: int = 0

    @property
    def precision(self) -> float:
        """Share of produced candidates that match a label; 1.0 when nothing was produced."""
        return self.matched / self.produced if self.produced else 1.0

    @property
    def recall(self) -> float:
        """Share of labeled memories found; 1.0 when nothing was expected."""
        return self.matched / self.expected if self.expected else 1.0


@dataclass
class Evaluation:
    overall: Counts = field(default_factory=Counts)
    by_type: dict[str, Counts] = field(default_factory=lambda: defaultdict(Counts))
    by_lang: dict[str, Counts] = field(default_factory=lambda: defaultdict(Counts))
    must_drop_turns: int = 0
    must_drop_ok: int = 0
    missed: list[tuple[str, Expected]] = field(default_factory=list)
    unexpected: list[tuple[str, Candidate]] = field(default_factory=list)
    # Turns whose engine call failed (a model's unusable answer, a server error): produced nothing.
    failed: list[tuple[str, str]] = field(default_factory=list)

    @property
    def must_drop_accuracy(self) -> float:
        """Share of must-produce-nothing turns that produced nothing."""
        return self.must_drop_ok / self.must_drop_turns if self.must_drop_turns else 1.0


def load_turns(path: Path = DEFAULT_DATA) -> list[LabeledTurn]:
    turns = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        expected = tuple(
            Expected(e["memory_type"], e.get("op", "upsert"), tuple(e.get("facts", ())), e.get("key"))
            for e in row["expected"]
        )
        existing = tuple(
            ExistingMemory(id=m["id"], key=m["key"], memory_type=m["memory_type"], content=m["content"])
            for m in row.get("existing", ())
        )
        turns.append(LabeledTurn(row["id"], row["lang"], row["text"], expected, row.get("split", "dev"), existing))
    return turns


def match_turn(expected: Sequence[Expected], produced: Sequence[Candidate]) -> list[tuple[int, int]]:
    """(expected index, produced index) pairs: each label takes the first unmatched candidate that fits."""
    pairs: list[tuple[int, int]] = []
    used: set[int] = set()
    for e_index, item in enumerate(expected):
        c_index = next((i for i, c in enumerate(produced) if i not in used and item.matches(c)), None)
        if c_index is not None:
            used.add(c_index)
            pairs.append((e_index, c_index))
    return pairs


def evaluate(turns: Sequence[LabeledTurn], engine: Engine | None = None) -> Evaluation:
    """Run `engine` (the rules engine by default) on every turn, extract then refine against the
    turn's existing memories, and count matches."""
    engine = engine or RulesEngine()
    result = Evaluation()
    for turn in turns:
        try:
            produced = engine.extract(TurnContext(message=turn.text))
            # Retractions and forget requests are resolved against the user's memories, as in the
            # pipeline (whose refine also runs when the user has none: a forget request naming
            # nothing stored is dropped there).
            if turn.existing or any(c.op == "delete" for c in produced):
                produced = engine.refine(produced, list(turn.existing))
        except LLMError as exc:
            result.failed.append((turn.id, f"{type(exc).__name__}: {exc}"))
            produced = []
        pairs = match_turn(turn.expected, produced)
        matched_expected = {e for e, _ in pairs}
        matched_produced = {c for _, c in pairs}
        for counts in (result.overall, result.by_lang[turn.lang]):
            counts.matched += len(pairs)
            counts.produced += len(produced)
            counts.expected += len(turn.expected)
        for e_index, _ in pairs:
            result.by_type[turn.expected[e_index].memory_type].matched += 1
        for item in turn.expected:
            result.by_type[item.memory_type].expected += 1
        for candidate in produced:
            result.by_type[candidate.memory_type].produced += 1
        result.missed += [(turn.id, e) for i, e in enumerate(turn.expected) if i not in matched_expected]
        result.unexpected += [(turn.id, c) for i, c in enumerate(produced) if i not in matched_produced]
        if not turn.expected:
            result.must_drop_turns += 1
            result.must_drop_ok += not produced
    return result


class AskedOnce:
    """`engine`, asked at most once per message text (and refine once per input): its answer (or
    its error) is replayed after."""

    def __init__(self, engine: Engine) -> None:
        self.name = engine.name
        self._engine = engine
        self._answers: dict[str, list[Candidate] | LLMError] = {}
        self._refined: dict[str, list[Candidate]] = {}

    def extract(self, turn: TurnContext) -> list[Candidate]:
        if turn.message not in self._answers:
            try:
                self._answers[turn.message] = self._engine.extract(turn)
            except LLMError as exc:
                self._answers[turn.message] = exc
        answer = self._answers[turn.message]
        if isinstance(answer, LLMError):
            raise answer
        return list(answer)

    def refine(self, candidates: list[Candidate], existing: list[ExistingMemory]) -> list[Candidate]:
        """The wrapped engine's refine, asked once per (candidates, existing memories)."""
        asked = repr((candidates, existing))
        if asked not in self._refined:
            self._refined[asked] = self._engine.refine(candidates, existing)
        return list(self._refined[asked])


class CallMeter(logging.Handler):
    """Counts the chat model's calls, tokens and latency from `memory_tasks.llm`'s per-call log record."""

    def __init__(self) -> None:
        super().__init__(level=logging.INFO)
        self.latencies_ms: list[float] = []
        self.prompt_tokens = 0
        self.completion_tokens = 0
        # Which structured-output rung answered (json_schema, json_object, none): what the server supports.
        self.formats: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        if not hasattr(record, "latency_ms"):
            return
        self.latencies_ms.append(float(record.latency_ms))
        self.prompt_tokens += getattr(record, "prompt_tokens", None) or 0
        self.completion_tokens += getattr(record, "completion_tokens", None) or 0
        self.formats[str(getattr(record, "response_format", "?"))] += 1

    def summary(self) -> str:
        """One line: calls, tokens, latency per call (p50 / p95 / mean), and the response formats that answered."""
        calls = len(self.latencies_ms)
        if not calls:
            return "model calls 0"
        ordered = sorted(self.latencies_ms)
        p95 = ordered[min(calls - 1, round(0.95 * (calls - 1)))]
        return (
            f"model calls {calls}, tokens {self.prompt_tokens} prompt + {self.completion_tokens} completion,"
            f" latency ms p50 {statistics.median(ordered):.0f} p95 {p95:.0f} mean {statistics.fmean(ordered):.0f},"
            " response format " + ", ".join(f"{name} {n}" for name, n in self.formats.most_common())
        )


def _row(name: str, counts: Counts) -> str:
    return (
        f"{name:<12} {counts.precision:>9.3f} {counts.recall:>7.3f}"
        f" {counts.matched:>8} {counts.produced:>9} {counts.expected:>9}"
    )


def report(evaluation: Evaluation, *, show_errors: bool = False) -> str:
    """The figures as a plain-text table (what `main` prints)."""
    lines = [f"{'':<12} {'precision':>9} {'recall':>7} {'matched':>8} {'produced':>9} {'expected':>9}"]
    lines += [_row(t, evaluation.by_type[t]) for t in MEMORY_TYPES]
    lines += [_row(f"lang {lang}", evaluation.by_lang[lang]) for lang in sorted(evaluation.by_lang)]
    lines.append(_row("overall", evaluation.overall))
    lines.append(
        f"must-drop accuracy {evaluation.must_drop_accuracy:.3f}"
        f" ({evaluation.must_drop_ok}/{evaluation.must_drop_turns} turns produced nothing)"
    )
    if evaluation.failed:
        lines.append(f"failed turns {len(evaluation.failed)} (counted as producing nothing)")
    if show_errors:
        lines += [f"failed      {tid}: {reason}" for tid, reason in evaluation.failed]
        lines += [
            f"missed      {tid}: {e.memory_type}/{e.op} {list(e.facts)} {e.key or ''}" for tid, e in evaluation.missed
        ]
        lines += [
            f"unexpected  {tid}: {c.memory_type}/{c.op} {c.target_key} {c.content!r}"
            for tid, c in evaluation.unexpected
        ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--data", type=Path, nargs="+", default=[DEFAULT_DATA], help="labeled turns (JSON lines), one or more files"
    )
    parser.add_argument("--show-errors", action="store_true", help="list missed labels and unexpected candidates")
    parser.add_argument("--engine", default="auto", help="auto (as the pipeline chooses), rules or llm")
    parser.add_argument("--model", help="OPENAI_CHAT_MODEL to evaluate (implies --engine llm)")
    args = parser.parse_args(argv)
    if args.model:
        os.environ["OPENAI_CHAT_MODEL"] = args.model
        get_settings.cache_clear()
    settings = get_settings()
    try:
        engine_name = choose_engine("llm" if args.model else args.engine, settings)
    except ValueError as exc:
        parser.error(f"{exc} (set OPENAI_BASE_URL to an OpenAI-compatible server)")
    engine = select_engine(engine_name == "llm")
    label = f"model {settings.OPENAI_CHAT_MODEL} at {settings.OPENAI_BASE_URL or 'api.openai.com'}"
    label = label if engine_name == "llm" else "rules engine"
    meter = CallMeter()
    logging.getLogger("memory_tasks.llm").addHandler(meter)
    logging.getLogger("memory_tasks.llm").setLevel(logging.INFO)
    engine = AskedOnce(engine)  # the splits below re-read one run: each turn costs one model call
    for path in args.data:
        turns = load_turns(path)
        splits = [("all", turns)] + [(s, [t for t in turns if t.split == s]) for s in sorted({t.split for t in turns})]
        for name, subset in splits:
            print(f"\n== {label}, split {name}: {len(subset)} labeled turns ({path.name})")
            print(report(evaluate(subset, engine), show_errors=args.show_errors and name != "all"))
            if engine_name == "llm" and name == "all":
                print(meter.summary())


if __name__ == "__main__":
    main()
