"""Write-path benchmark with an oracle extractor (issue 13 item 4, issue 16 item 4): does the write
path keep what a good model proposes, turn by turn and in debounce windows?

    python -m bench.bench_oracle --locomo ../shared/data/locomo10.json [--conversations 0,1 | all]
        [--modes per-turn,windowed] [--output docs/quality.md]

A throwaway database and a private Milvus server (`bench.bench_retrieval.bench_stack`), removed
at the end. The chat model is the OpenAI-compatible stub of `bench.locomo_model` on 127.0.0.1:
for each turn it proposes exactly the observation facts `locomo10.json` attaches to that turn
(a fact citing two turns is proposed at both: the second is a true duplicate) and keeps every
candidate at refinement. Each conversation is one user (the facts speak of both speakers in
the third person); each speaker's turns of one LoCoMo session are user turns of a
conversation of their own, the other speaker's turns assistant turns of it (context, never a
fact source), so a window is a speaker's turns of one session. The product's stage functions
run in-process (extract -> refine -> upsert -> embed -> sync, what the Celery tasks call; the
chain's transport is measured by `make bench-pipeline`, not here); the triggers a stage sends
(`dispatch.enqueue_message`: a backlog's redirect, a turn left behind) go to a queue this
bench drains in order instead of the broker. Modes, each with users of its own:
- per-turn: each turn's trigger runs as soon as the turn is recorded, so every turn is a
  window of its own (`LONG_TERM_MEMORY_DEBOUNCE_SEC=0`, or turns slower than the debounce);
- windowed: a session's turns are all recorded first, then each user turn's trigger runs in
  order, as when the session arrives within the debounce: the real `claim_window` decides the
  windows (a later turn waiting -> no window yet; at most LONG_TERM_MEMORY_DEBOUNCE_MAX_TURNS
  turns, a backlog redirected to its oldest window).

Then, per proposed fact: kept (an active memory under its key saying it, SYNCED in Milvus),
or lost with the reason: the outcome the product recorded on the turn (gate/filters,
the write cap, refinement), a dedup redirect onto another memory, a merge into another
memory, or a rewrite. Each loss is listed with the text it went to, and whether that is a
true duplicate (the same text up to spacing/punctuation/case). A kept fact whose history names
another turn of its window than the one proposing it is counted (`pipeline._source_turn`).
Then QA recall@6 of LoCoMo's questions (categories 1-4) through `find_memories(mode="dense")`
(what `retrieve` runs) for that user, against the retrieval-only figure on the same
questions: every observation fact written directly as a memory of another user
(`bench_retrieval.write_locomo`), under the key the stub first proposed it with, so a fact
both sides hold is the same vector and the gap is what the write path lost. Each side is
asked once its last sync has settled (`qa_recall`), and each side's memories are dated as said: the
direct side is written as stated when its session took place, and the pipeline's, whose turns are
recorded now, get the date of the session of the turns that proposed them (`date_as_said`), so a
question naming a day, month or year (the rerank's period signal) reads both alike. The report replaces this selection's
section of --output (docs/quality.md).
"""

from __future__ import annotations

import os

from bench.in_process import IN_PROCESS_ENVIRONMENT

# Run as a script: before anything imports the Celery app. Imported by a test for its functions: nothing,
# or every worker subprocess the test process starts afterwards would inherit the in-memory broker.
os.environ.update(IN_PROCESS_ENVIRONMENT if __name__ == "__main__" else {})

import argparse
import contextlib
import signal
import sys
import time
import uuid
from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import select, update

from bench.bench_pipeline import git_commit
from bench.bench_retrieval import LOCOMO_USER_BASE, Locomo, Question, bench_stack, load_locomo, write_locomo
from bench.common import configure, write_section
from bench.locomo_model import LocomoModel, Turn, load_turns, serve
from config.settings import get_settings
from memory_tasks import dispatch
from memory_tasks.db.models import LongTermMemory, MemoryHistory, Message
from memory_tasks.db.session import session_scope
from memory_tasks.extraction.candidates import Candidate
from memory_tasks.extraction.gate import refusal
from memory_tasks.memories.store import comparable
from memory_tasks.pipeline import extract_stage, refine_stage, upsert_stage
from memory_tasks.retrieval.search import MILVUS_STALENESS_SEC, find_memories
from memory_tasks.turns import record_turn
from memory_tasks.vectors.embedders import get_embedder
from memory_tasks.vectors.index import embed_memories, sync_vectors
from memory_tasks.vectors.milvus_store import get_store

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "docs" / "quality.md"
SECTION_TITLE = "## Write path with an oracle extractor (issue 13.4, 16.4)"
MODES = ("per-turn", "windowed")
# Conversation i is user USER_BASE[mode] + i; retrieval-only users are LOCOMO_USER_BASE + i.
USER_BASE = {"per-turn": 10_001, "windowed": 20_001}
CALLS_PER_TURN_TARGET = 0.6
MISATTRIBUTED_SHOWN = 8
KEPT_TARGET = 0.98
RECALL_GAP_TARGET = 0.02
K = 6
MILVUS_PORT = 24100  # the first of 12 ports; not bench-retrieval's, so both can run at once


@dataclass(frozen=True)
class Proposed:
    """One fact the model proposed at one turn, under the key it proposed it with."""

    conversation: int
    dialog_id: str
    key: str
    content: str
    message_id: int


@dataclass
class Fate:
    proposed: Proposed
    outcome: str  # kept, or the reason it was lost
    went_to: str = ""  # the memory text it ended in, when it ended in another memory
    recorded_on: str = ""  # kept, but its history names this other turn (dialog id) of its window


@dataclass
class ConversationResult:
    conversation: int
    turns: int
    fates: list[Fate] = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class ModeResult:
    """One mode's run: the conversations, the model's calls and QA recall after the pipeline."""

    mode: str
    results: list[ConversationResult] = field(default_factory=list)
    user_turns: int = 0
    extract_calls: int = 0
    refine_calls: int = 0
    window_sizes: Counter[int] = field(default_factory=Counter)  # turns per extract call -> calls
    recall: float = 0.0

    @property
    def fates(self) -> list[Fate]:
        return [f for r in self.results for f in r.fates]


@contextlib.contextmanager
def captured_triggers() -> Iterator[deque[int]]:
    """The triggers the stages send (`dispatch.enqueue_message`), queued here instead of the broker."""
    queue: deque[int] = deque()
    sent = dispatch.enqueue_message

    def enqueue(message_id: int, countdown: float | None = None) -> str:
        queue.append(message_id)
        return f"bench-{uuid.uuid4()}"

    dispatch.enqueue_message = enqueue
    try:
        yield queue
    finally:
        dispatch.enqueue_message = sent


def run_triggers(queue: deque[int]) -> None:
    """Each trigger in order, as its task would run it (its own run id), the ones it sends after it."""
    while queue:
        payload = extract_stage(queue.popleft(), run_id=f"bench-{uuid.uuid4()}")
        memory_ids = upsert_stage(refine_stage(payload))
        if memory_ids:
            sync_vectors(embed_memories(memory_ids), flush=False)


def run_conversation(
    index: int, turns: list[Turn], model: LocomoModel, mode: str, queue: deque[int]
) -> tuple[ConversationResult, dict[str, set[str]]]:
    """All turns of one conversation through the stages as one user (see the module docstring).

    Returns the result and {memory key: dialog ids of the turns proposing it}.
    """
    user_id = USER_BASE[mode] + index
    result = ConversationResult(index, len(turns))
    dialogs_of_key: dict[str, set[str]] = {}
    proposed: list[Proposed] = []
    dialog_of_message: dict[int, str] = {}
    started = time.perf_counter()
    for number, turn in enumerate(turns):
        # A speaker's turns of one session are one conversation; the other speaker is its assistant.
        conversation_id = user_id * 100 + 2 * turn.session + turn.speaker
        message_id = record_turn(user_id, turn.text, role="user", conversation_id=conversation_id)
        record_turn(user_id, turn.text, role="assistant", conversation_id=conversation_id + 1 - 2 * turn.speaker)
        dialog_of_message[message_id] = turn.dialog_id
        for fact_number, fact in enumerate(model.facts_of.get(turn.text, [])):
            key = model.key_of(turn.text, fact_number)
            dialogs_of_key.setdefault(key, set()).add(turn.dialog_id)
            proposed.append(Proposed(index, turn.dialog_id, key, fact, message_id))
        queue.append(message_id)
        session_ends = number + 1 == len(turns) or turns[number + 1].session != turn.session
        if mode == "per-turn" or session_ends:
            run_triggers(queue)
    result.seconds = time.perf_counter() - started
    result.fates = [judge(p, user_id, dialog_of_message) for p in proposed]
    return result, dialogs_of_key


def _recorded_outcome(session, fact: Proposed) -> str | None:
    """The drop the product recorded for the fact's key on one of the user's turns, or None."""
    outcomes = session.scalars(
        select(Message.memory_outcomes).where(
            Message.conversation_id.in_(select(Message.conversation_id).where(Message.id == fact.message_id)),
            Message.memory_outcomes.is_not(None),
        )
    )
    for recorded in outcomes:
        for outcome in recorded:
            if outcome.get("key") == fact.key and outcome.get("status") == "dropped":
                return f"dropped at {outcome.get('stage')}: {outcome.get('reason')}"
    return None


def judge(fact: Proposed, user_id: int, dialog_of_message: dict[int, str]) -> Fate:
    """Where one proposed fact ended (see the module docstring); `dialog_of_message` names the turns."""
    with session_scope() as session:
        row = session.scalar(
            select(LongTermMemory).where(LongTermMemory.user_id == user_id, LongTermMemory.memory_key == fact.key)
        )
        if row is not None and row.is_active:
            if comparable(row.content) != comparable(fact.content):
                return Fate(fact, "rewritten under its key", row.content)
            sources = set(
                session.scalars(select(MemoryHistory.source_message_id).where(MemoryHistory.memory_id == row.id))
            )
            return Fate(
                fact,
                "kept" if row.vector_status == "SYNCED" else f"kept, not retrievable ({row.vector_status})",
                recorded_on=""
                if fact.message_id in sources
                else ", ".join(sorted(dialog_of_message.get(m, "?") for m in sources if m)),
            )
        if row is not None and row.merged_into_id is not None:
            survivor = session.get(LongTermMemory, row.merged_into_id)
            return Fate(fact, "merged", survivor.content if survivor else "?")
        if row is not None:
            return Fate(fact, "deactivated")
        recorded = _recorded_outcome(session, fact)
        # No row under its key: confirmed another memory (dedup redirect), or never written.
        other = session.execute(
            select(MemoryHistory.op, LongTermMemory.content)
            .join(LongTermMemory, LongTermMemory.id == MemoryHistory.memory_id)
            .where(MemoryHistory.source_message_id == fact.message_id, LongTermMemory.memory_key != fact.key)
        ).first()
    if recorded is not None:
        return Fate(fact, recorded)
    candidate = Candidate("upsert", "fact", fact.key, fact.content, importance=3, confidence=0.9)
    refused = refusal(candidate, get_settings(), message="")
    if refused is not None:
        return Fate(fact, f"gate/filter: {refused.reason}")
    if other is not None:
        return Fate(fact, f"dedup redirect ({other.op})", other.content)
    return Fate(fact, "not written (no outcome recorded)")


def first_proposed_keys(chosen: list[int], turns: list[list[Turn]], model: LocomoModel) -> dict[tuple[int, str], str]:
    """{(retrieval-only user, fact text): the key the stub proposed the fact with first}.

    The key is part of the embedded text (`index_text`): written under these keys, a fact the pipeline
    kept is the same vector on both sides, and the recall gap is what the write path lost, not key noise.
    """
    keys: dict[tuple[int, str], str] = {}
    for index in chosen:
        for turn in turns[index]:
            for number, fact in enumerate(model.facts_of.get(turn.text, [])):
                keys.setdefault((LOCOMO_USER_BASE + index, fact), model.key_of(turn.text, number))
    return keys


def qa_recall(questions: list[Question], user_of: dict[int, int], dialog_of_memory) -> float:
    """Share of questions with a memory from an evidence turn among `find_memories`' top K.

    Asked once the last sync is MILVUS_STALENESS_SEC old: before that, a search also ranks every row synced
    within it (`search._truth`), a larger candidate set whose rescaled signals order the top K differently, so
    the side asked right after its writes would be ranked unlike the other.
    """
    time.sleep(MILVUS_STALENESS_SEC)
    hits = 0
    for question in questions:
        found = find_memories(user_of[question.user_id], question.text, mode="dense", limit=K)
        if any(dialog_of_memory(hit.id) & question.evidence for hit in found):
            hits += 1
    return hits / max(len(questions), 1)


def date_as_said(locomo: Locomo, base: int, dialogs_of_key: dict[str, set[str]]) -> None:
    """Give the memories of users `base`.. the time their facts were said (the earliest session of the
    turns that proposed them), as if each turn had been recorded when it was said."""
    with session_scope() as session:
        rows = session.execute(
            select(LongTermMemory.id, LongTermMemory.user_id, LongTermMemory.memory_key).where(
                LongTermMemory.user_id >= base, LongTermMemory.user_id < base + 10
            )
        ).all()
        said = {
            memory_id: locomo.said_on(user_id - base + LOCOMO_USER_BASE, frozenset(dialogs_of_key.get(key, ())))
            for memory_id, user_id, key in rows
        }
        # One ORM bulk UPDATE by primary key (an executemany), not a round trip per memory.
        dated = [{"id": memory_id, "stated_at": when} for memory_id, when in said.items() if when is not None]
        if dated:
            session.execute(update(LongTermMemory), dated)


def run_mode(mode: str, chosen: list[int], turns: list[list[Turn]], model: LocomoModel, locomo: Locomo) -> ModeResult:
    """The chosen conversations through the stages in `mode`, then QA recall@K for its users."""
    outcome = ModeResult(mode)
    dialogs_of_key: dict[str, set[str]] = {}
    calls_before = len(model.calls)
    with captured_triggers() as queue:
        for index in chosen:
            result, keys = run_conversation(index, turns[index], model, mode, queue)
            outcome.results.append(result)
            dialogs_of_key.update(keys)
            print(f"{mode}: conversation {index}, {result.turns} turns in {result.seconds:.0f} s", flush=True)
    calls = model.calls[calls_before:]
    outcome.user_turns = sum(r.turns for r in outcome.results)
    outcome.extract_calls = sum(c.purpose == "extract" for c in calls)
    outcome.refine_calls = sum(c.purpose == "refine" for c in calls)
    outcome.window_sizes = Counter(len(c.texts) for c in calls if c.purpose == "extract")
    base = USER_BASE[mode]
    with session_scope() as session:
        key_of_memory = dict(
            session.execute(
                select(LongTermMemory.id, LongTermMemory.memory_key).where(
                    LongTermMemory.user_id >= base, LongTermMemory.user_id < base + 10
                )
            ).all()
        )
    date_as_said(locomo, base, dialogs_of_key)
    outcome.recall = qa_recall(
        locomo.questions,
        {q.user_id: base + q.user_id - LOCOMO_USER_BASE for q in locomo.questions},
        lambda memory_id: dialogs_of_key.get(key_of_memory.get(memory_id, ""), set()),
    )
    return outcome


def _figures(run: ModeResult) -> dict[str, str]:
    """One mode's column of the report."""
    fates = run.fates
    kept = sum(f.outcome == "kept" for f in fates)
    true_dup = sum(_is_true_duplicate(f) for f in fates)
    total = max(len(fates), 1)
    sizes = ", ".join(f"{size}: {count}" for size, count in sorted(run.window_sizes.items()))
    return {
        "facts proposed": str(len(fates)),
        "kept as active, SYNCED memories under their key": f"{kept} ({kept / total:.1%})",
        "lost to a memory saying the same text (true duplicates)": str(true_dup),
        "kept or in a memory saying the same": f"{(kept + true_dup) / total:.1%}",
        "kept, but history names another turn of the window": str(sum(bool(f.recorded_on) for f in fates)),
        f'QA recall@{K} through `find_memories(mode="dense")` after the pipeline': f"{run.recall:.3f}",
        "user turns": str(run.user_turns),
        "extraction calls (per user turn)": f"{run.extract_calls} ({run.extract_calls / max(run.user_turns, 1):.2f})",
        "refine calls (per user turn)": f"{run.refine_calls} ({run.refine_calls / max(run.user_turns, 1):.2f})",
        "turns per extraction call: calls": sizes,
    }


def _is_true_duplicate(fate: Fate) -> bool:
    return (
        fate.outcome != "kept" and bool(fate.went_to) and comparable(fate.went_to) == comparable(fate.proposed.content)
    )


TARGETS = {
    "kept as active, SYNCED memories under their key": f">= {KEPT_TARGET:.0%}",
    "lost to a memory saying the same text (true duplicates)": "may merge",
    "extraction calls (per user turn)": f"windowed <= {CALLS_PER_TURN_TARGET}",
}


def section_title(chosen: list[int]) -> str:
    label = "all 10 conversations" if len(chosen) == 10 else "conversations " + ", ".join(map(str, chosen))
    return f"{SECTION_TITLE}: {label}"


def render(
    runs: list[ModeResult],
    direct_recall: float,
    questions: int,
    chosen: list[int],
    command: str,
    commit: str,
    minutes: float,
    load: str,
) -> str:
    columns = [_figures(run) for run in runs]
    first = runs[0].results
    lines = [
        section_title(chosen),
        "",
        f"Generated by `{command}` on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC at commit {commit} in {minutes:.1f} min "
        f"(a shared 2-core machine, load average at the start {load}; wall times are not figures here). "
        f"Reproduce with `make bench-oracle`. LoCoMo conversations {', '.join(map(str, chosen))} "
        f"({sum(r.turns for r in first)} turns), each one user, each speaker's turns of a session a conversation; "
        "the stub model proposes each turn's observation facts and keeps every candidate at refinement. per-turn: "
        "each turn's trigger runs when it is recorded; windowed: a session's turns are recorded first, then the "
        "triggers run and `claim_window` groups them (see `bench/bench_oracle.py`).",
        "",
        "| figure | " + " | ".join(run.mode for run in runs) + " | target |",
        "|---|" + "---:|" * len(runs) + "---|",
    ]
    for name in columns[0]:
        lines.append(f"| {name} | " + " | ".join(c[name] for c in columns) + f" | {TARGETS.get(name, '')} |")
    lines.append(
        f"| QA recall@{K}, the same {questions} questions, facts written directly (retrieval only) | "
        + " | ".join(f"{direct_recall:.3f}" for _ in runs)
        + " | |"
    )
    lines.append(
        "| gap to retrieval only | "
        + " | ".join(f"{direct_recall - run.recall:+.3f}" for run in runs)
        + f" | <= {RECALL_GAP_TARGET:.2f} |"
    )
    lines.append("")
    for run in runs:
        fates = run.fates
        lines += [
            f"{run.mode} outcomes: "
            + ", ".join(f"{outcome} {count}" for outcome, count in Counter(f.outcome for f in fates).most_common())
            + ".",
            "",
        ]
        lost = [f for f in fates if f.outcome != "kept"]
        if lost:
            lines += [
                f"{run.mode}: each fact not kept under its own key (conversation, turn, outcome; the fact; where it went):",
                "",
            ]
            for fate in lost:
                where = f" → «{fate.went_to}»" if fate.went_to else ""
                same = " (same text)" if _is_true_duplicate(fate) else ""
                lines.append(
                    f"- {fate.proposed.conversation} {fate.proposed.dialog_id}, {fate.outcome}{same}: "
                    f"«{fate.proposed.content}»{where}"
                )
            lines.append("")
        elsewhere = [f for f in fates if f.recorded_on]
        if elsewhere:
            lines += [
                f"{run.mode}: kept facts whose history names another turn of the window "
                f"(`pipeline._source_turn`; the first {min(len(elsewhere), MISATTRIBUTED_SHOWN)} of {len(elsewhere)}: "
                "conversation, proposed at → recorded on; the fact):",
                "",
            ]
            lines += [
                f"- {f.proposed.conversation} {f.proposed.dialog_id} → {f.recorded_on}: «{f.proposed.content}»"
                for f in elsewhere[:MISATTRIBUTED_SHOWN]
            ]
            lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.bench_oracle", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--locomo", type=Path, required=True, help="path of locomo10.json (read, never copied)")
    parser.add_argument("--conversations", default="0,1", help="comma separated indices (0-9), or all")
    parser.add_argument("--modes", default=",".join(MODES), help=f"comma separated, of {', '.join(MODES)}")
    parser.add_argument("--milvus-port", type=int, default=MILVUS_PORT)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="Markdown file whose section is replaced")
    args = parser.parse_args(argv)
    if not args.locomo.is_file():
        parser.error(f"--locomo: no such file {args.locomo}")
    modes = [m for m in args.modes.split(",") if m]
    if not modes or any(m not in MODES for m in modes):
        parser.error(f"--modes: choose among {', '.join(MODES)}")
    chosen = list(range(10)) if args.conversations == "all" else sorted(int(c) for c in args.conversations.split(","))
    # A timeout or Ctrl-C must still drop the database and stop Milvus (the `finally` of bench_stack).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    command = "python -m bench.bench_oracle " + " ".join(sys.argv[1:] if argv is None else argv)
    commit = git_commit()
    load = " ".join(f"{figure:.2f}" for figure in os.getloadavg())
    started = time.perf_counter()
    turns = load_turns(args.locomo, max(chosen) + 1, None)
    model = LocomoModel([turns[i] for i in chosen])
    locomo = load_locomo(args.locomo)
    questions = [q for q in locomo.questions if q.user_id - 1 in chosen]
    with bench_stack(args.milvus_port):
        server = serve(model)
        try:
            configure(LONG_TERM_MEMORY_ENGINE="llm", OPENAI_BASE_URL=server.base_url)
            get_store().ensure_collection(get_embedder().dim)
            facts = {u: f for u, f in locomo.facts.items() if u - LOCOMO_USER_BASE in chosen}
            direct = Locomo(facts, questions, locomo.session_dates)
            runs = [run_mode(mode, chosen, turns, model, direct) for mode in modes]
            dialog_of = write_locomo(direct, first_proposed_keys(chosen, turns, model), dated=True)
            sync_vectors(sorted(dialog_of))
            # `write_locomo` maps each memory to its fact's dialog ids, a set already.
            direct_recall = qa_recall(
                questions,
                {q.user_id: q.user_id for q in questions},
                lambda memory_id: dialog_of.get(memory_id, frozenset()),
            )
        finally:
            server.stop()
    section = render(
        runs, direct_recall, len(questions), chosen, command, commit, (time.perf_counter() - started) / 60, load
    )
    write_section(args.output.resolve(), section, section_title(chosen))
    print(section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
