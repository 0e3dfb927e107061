"""Send bursts of paraphrases through the write path and say whether each leaves one memory that
stays put when the burst is said again (issue 13.1, R-WRITE-3).

    python -m bench.eval_bursts [--data tests/data/paraphrase_bursts.jsonl] [--model NAME]

A burst is one fact said several ways (`statements`), optionally followed by a new value of it
(`new_value`). Each burst gets a user of its own in a throwaway database on DATABASE_URL's server
(else 127.0.0.1:5432) and goes through the pipeline's stages in process, turn by turn —
extraction, refinement and the write model with its dedup, merge and confirm rules, with the
configured engine (the offline rules; a chat model with --model or LONG_TERM_MEMORY_ENGINE=llm) —
and is checked for:

- one memory: the user holds exactly one active memory after the first sending;
- stable: sent again three times, shuffled, the active memories stay byte-identical (id, key,
  type, content, revision) (`make test` re-sends once, in reverse: `run_share`);
- new value: the `new_value` statement changes the active memories (it is neither dropped nor
  taken for a repeat).

No vectors are written (the index stage is not run): dedup and confirm read the embedding scorer
and PostgreSQL only. Data: JSON lines {"id", "lang", "statements": [...], "new_value"?}.
"""

from __future__ import annotations

import os

from bench.in_process import IN_PROCESS_ENVIRONMENT

# Run as a script: before anything imports the Celery app, so a follow-up the stages enqueue (a debounce
# trigger) reaches no real broker. Imported by a test: nothing (bench/bench_retrieval.py says why).
os.environ.update(IN_PROCESS_ENVIRONMENT if __name__ == "__main__" else {})

import argparse
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import select

from bench.common import configure, throwaway_database
from config.settings import get_settings
from memory_tasks import pipeline
from memory_tasks.api import record_turn
from memory_tasks.db.models import LongTermMemory
from memory_tasks.db.session import session_scope
from memory_tasks.extraction.engine import choose_engine

DEFAULT_DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "paraphrase_bursts.jsonl"
FIRST_USER = 900_001


@dataclass(frozen=True)
class Burst:
    id: str
    lang: str
    statements: tuple[str, ...]
    new_value: str | None = None


@dataclass(frozen=True)
class BurstResult:
    burst: Burst
    first: list[tuple]  # the active memories after the first sending: (id, key, type, content, revision)
    changed_by_resend: list[str]  # the re-sends that changed them (`Resend.name`)
    before_new_value: list[tuple]  # the active memories after the re-sends
    after_new_value: list[tuple] | None  # and once the new value was said (None without one)

    @property
    def one_memory(self) -> bool:
        return len(self.first) == 1

    @property
    def stable(self) -> bool:
        return not self.changed_by_resend

    @property
    def new_value_landed(self) -> bool | None:
        """None without a new value; else True when it changed the active memories."""
        return None if self.after_new_value is None else self.after_new_value != self.before_new_value


def load_bursts(path: Path = DEFAULT_DATA) -> list[Burst]:
    """The bursts of a JSON-lines file; a line without an id or with fewer than two statements is refused."""
    bursts = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        row = json.loads(line)
        statements = row.get("statements")
        if not row.get("id") or not isinstance(statements, list) or len(statements) < 2:
            raise ValueError(f"{path}:{number}: a burst needs an id and at least two statements")
        if not all(isinstance(text, str) and text.strip() for text in statements):
            raise ValueError(f"{path}:{number}: every statement must be a non-empty string")
        bursts.append(Burst(row["id"], row.get("lang", ""), tuple(statements), row.get("new_value") or None))
    return bursts


def tell(user_id: int, texts: Sequence[str]) -> None:
    """Record each text as a turn of the user and run it through extraction, refinement and the write model."""
    for text in texts:
        pipeline.upsert_stage(pipeline.refine_stage(pipeline.extract_stage(record_turn(user_id, text))))


# What a repeat must leave alone: a re-send that rewrites a memory bumps its revision.
STATE_COLUMNS = (
    LongTermMemory.id,
    LongTermMemory.memory_key,
    LongTermMemory.memory_type,
    LongTermMemory.content,
    LongTermMemory.revision,
)


def active_memories(user_id: int, columns: Sequence[Any] = STATE_COLUMNS) -> list[tuple]:
    """The user's active memories as tuples of `columns` (id, key, type, content, revision), by id."""
    with session_scope() as session:
        rows = session.execute(
            select(*columns)
            .where(LongTermMemory.user_id == user_id, LongTermMemory.is_active.is_(True))
            .order_by(LongTermMemory.id)
        )
        return [tuple(row) for row in rows]


@dataclass(frozen=True)
class Resend:
    """One sending of a burst again: `order` gives the statements in the order they are re-sent."""

    name: str
    order: Callable[[Sequence[str]], list[str]]


def shuffled(seed: int) -> Resend:
    """The statements in the order of a shuffle seeded with `seed` (which may be the order first said)."""

    def order(statements: Sequence[str]) -> list[str]:
        statements = list(statements)
        random.Random(seed).shuffle(statements)
        return statements

    return Resend(f"shuffled {seed}", order)


# `make eval-bursts`: three shuffles.
RESENDS = (shuffled(1), shuffled(2), shuffled(3))
# `make test`: one re-send, in reverse, which always differs from the order first said (a shuffle of three statements
# gives that order back one time in six). A re-send that rewrites a memory shows in any order, and two more re-sends of
# every shipped burst cost `make test` about 150 s of its 15 minutes (465 bursts: 270 s alone with three, 123 s with
# this one).
REVERSED = (Resend("reversed", lambda statements: list(reversed(statements))),)


def run_burst(user_id: int, burst: Burst, resends: Sequence[Resend] = RESENDS) -> BurstResult:
    """Send `burst` as `user_id` (a user with no memories): once, then again in each order of `resends`, then its new
    value."""
    tell(user_id, burst.statements)
    first = active_memories(user_id)
    changed = []
    for resend in resends:
        tell(user_id, resend.order(burst.statements))
        if active_memories(user_id) != first:
            changed.append(resend.name)
    before = active_memories(user_id)
    after = None
    if burst.new_value:
        tell(user_id, [burst.new_value])
        after = active_memories(user_id)
    return BurstResult(burst, first, changed, before, after)


def misses(results: Sequence[BurstResult]) -> dict[str, list[str]]:
    """The ids of the bursts that missed each check: left more or fewer than one memory, changed on a re-send, or
    did not take their new value (each list empty when every burst held)."""
    return {
        "one memory": [r.burst.id for r in results if not r.one_memory],
        "stable": [r.burst.id for r in results if not r.stable],
        "new value": [r.burst.id for r in results if r.new_value_landed is False],
    }


def run_share(share: int, of: int) -> list[BurstResult]:
    """Every `of`-th shipped burst from the `share`-th, each run as its own user and re-sent once in reverse
    (`run_burst`, `REVERSED`): one of `of` shares of the shipped file, so that test files can run them side by side."""
    bursts = list(enumerate(load_bursts()))[share::of]
    return [run_burst(FIRST_USER + index, burst, REVERSED) for index, burst in bursts]


def format_results(results: Sequence[BurstResult]) -> str:
    """One line per burst (what it left), then the counts per language."""
    lines = []
    for r in results:
        verdict = "ok " if r.one_memory and r.stable else "BAD"
        left = "; ".join(f"{key}: {content}" for _, key, _, content, _ in r.first) or "(nothing)"
        notes = [f"{len(r.first)} memories"] if not r.one_memory else []
        if not r.stable:
            notes.append(f"changed by re-sends: {', '.join(r.changed_by_resend)}")
        if r.new_value_landed is False:
            notes.append("new value not taken")
        lines.append(f"{verdict} {r.burst.id:24} {left}" + (f"  [{', '.join(notes)}]" if notes else ""))
    lines.append("")
    lines.append("lang  bursts  one memory  stable on re-send  both  new values taken")
    for lang in sorted({r.burst.lang for r in results}) + ["all"]:
        subset = [r for r in results if lang in ("all", r.burst.lang)]
        with_new = [r for r in subset if r.new_value_landed is not None]
        lines.append(
            f"{lang:5} {len(subset):6}  {sum(r.one_memory for r in subset):10}  {sum(r.stable for r in subset):17}  "
            f"{sum(r.one_memory and r.stable for r in subset):4}  "
            f"{sum(bool(r.new_value_landed) for r in with_new)}/{len(with_new)}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.eval_bursts", description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="bursts, JSON lines")
    parser.add_argument("--model", help="OPENAI_CHAT_MODEL to extract and refine with (implies the llm engine)")
    args = parser.parse_args(argv)
    try:
        bursts = load_bursts(args.data)
    except (OSError, ValueError) as exc:
        parser.error(str(exc))
    if args.model:
        configure(OPENAI_CHAT_MODEL=args.model, LONG_TERM_MEMORY_ENGINE="llm")
    settings = get_settings()
    try:
        engine = choose_engine(settings.LONG_TERM_MEMORY_ENGINE, settings)
    except ValueError as exc:
        parser.error(f"{exc} (set OPENAI_BASE_URL to an OpenAI-compatible server)")
    label = f"model {settings.OPENAI_CHAT_MODEL} at {settings.OPENAI_BASE_URL}" if engine == "llm" else "rules engine"
    with throwaway_database():
        results = [run_burst(FIRST_USER + index, burst) for index, burst in enumerate(bursts)]
    print(f"{len(bursts)} bursts from {args.data}, {label}")
    print(format_results(results))


if __name__ == "__main__":
    main()
