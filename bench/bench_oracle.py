"""Write-path benchmark with an oracle extractor (issue 13 item 4): does the write path keep what a good model proposes?

    python -m bench.bench_oracle --locomo ../shared/data/locomo10.json [--conversations 0,1] [--output docs/quality.md]

A throwaway database and a private Milvus server (`bench.bench_retrieval.bench_stack`), removed
at the end. The chat model is the OpenAI-compatible stub of `bench.locomo_model` on 127.0.0.1:
for each turn it proposes exactly the observation facts `locomo10.json` attaches to that turn
(a fact citing two turns is proposed at both: the second is a true duplicate) and keeps every
candidate at refinement. Each conversation is one user, all its turns user turns (the facts
speak of both speakers in the third person), recorded in order and run through the product's
stage functions one turn after another (extract -> refine -> upsert -> embed -> sync, what the
Celery tasks call; the chain's transport is measured by `make bench-pipeline`, not here).

Then, per proposed fact: kept (an active memory under its key saying it, SYNCED in Milvus),
or lost with the reason: refused by the gate/filters (`extraction.gate.refusal`), dropped by
refinement, redirected by dedup onto another memory, merged into another memory, or
rewritten. Each loss is listed with the text it went to, and whether that is a true duplicate
(the same text up to spacing/punctuation/case). Then QA recall@6 of LoCoMo's questions
(categories 1-4) through `find_memories(mode="dense")` (what `retrieve` runs) for that user,
against the retrieval-only figure on the same questions: every observation fact written
directly as a memory of another user (`bench_retrieval.write_locomo`). The report replaces
the write-path section of --output (docs/quality.md).
"""

from __future__ import annotations

import os

os.environ.update({"CELERY_BROKER_URL": "memory://", "CELERY_RESULT_BACKEND": "", "MEMORY_EMBEDDING_PROVIDER": "local"})

import argparse
import signal
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import select

from bench.bench_pipeline import git_commit
from bench.bench_retrieval import Locomo, Question, bench_stack, load_locomo, write_locomo
from bench.common import configure, dialog_ids, write_section
from bench.locomo_model import LocomoModel, Turn, load_turns, serve
from bench.locomo_model import _candidate as proposed_candidate
from config.settings import get_settings
from memory_tasks.db.models import LongTermMemory, MemoryHistory
from memory_tasks.db.session import session_scope
from memory_tasks.extraction.candidates import Candidate
from memory_tasks.extraction.gate import refusal
from memory_tasks.memories.store import comparable
from memory_tasks.pipeline import extract_stage, refine_stage, upsert_stage
from memory_tasks.retrieval.search import find_memories
from memory_tasks.turns import record_turn
from memory_tasks.vectors.embedders import get_embedder
from memory_tasks.vectors.index import embed_memories, sync_vectors
from memory_tasks.vectors.milvus_store import get_store

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "docs" / "quality.md"
SECTION_TITLE = "## Write path with an oracle extractor (issue 13.4)"
PIPELINE_USER_BASE = 10_001  # conversation i is user PIPELINE_USER_BASE + i; retrieval-only users are 1 + i
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


@dataclass
class ConversationResult:
    conversation: int
    turns: int
    fates: list[Fate] = field(default_factory=list)
    seconds: float = 0.0


def _key_of(text: str, number: int) -> str:
    """The key `bench.locomo_model` proposes for the `number`-th fact of a turn saying `text`."""
    return proposed_candidate(text, number, "")["key"]


def run_conversation(
    index: int, turns: list[Turn], model: LocomoModel
) -> tuple[ConversationResult, dict[str, set[str]]]:
    """All turns of one conversation through the stages as one user; the proposed facts and their dialog ids.

    Returns the result (fates filled later) and {memory key: dialog ids of the turns proposing it}.
    """
    user_id = PIPELINE_USER_BASE + index
    result = ConversationResult(index, len(turns))
    dialogs_of_key: dict[str, set[str]] = {}
    proposed: list[Proposed] = []
    started = time.perf_counter()
    for turn in turns:
        message_id = record_turn(user_id, turn.text, role="user", conversation_id=user_id * 100 + turn.session)
        for number, fact in enumerate(model.facts_of.get(turn.text, [])):
            key = _key_of(turn.text, number)
            dialogs_of_key.setdefault(key, set()).add(turn.dialog_id)
            proposed.append(Proposed(index, turn.dialog_id, key, fact, message_id))
        memory_ids = upsert_stage(refine_stage(extract_stage(message_id)))
        sync_vectors(embed_memories(memory_ids), flush=False)
    result.seconds = time.perf_counter() - started
    result.fates = [judge(p, user_id) for p in proposed]
    return result, dialogs_of_key


def judge(fact: Proposed, user_id: int) -> Fate:
    """Where one proposed fact ended (see the module docstring)."""
    with session_scope() as session:
        row = session.scalar(
            select(LongTermMemory).where(LongTermMemory.user_id == user_id, LongTermMemory.memory_key == fact.key)
        )
        if row is not None and row.is_active:
            if comparable(row.content) != comparable(fact.content):
                return Fate(fact, "rewritten under its key", row.content)
            return Fate(
                fact, "kept" if row.vector_status == "SYNCED" else f"kept, not retrievable ({row.vector_status})"
            )
        if row is not None and row.merged_into_id is not None:
            survivor = session.get(LongTermMemory, row.merged_into_id)
            return Fate(fact, "merged", survivor.content if survivor else "?")
        if row is not None:
            return Fate(fact, "deactivated")
        # No row under its key: confirmed another memory (dedup redirect), or never written.
        other = session.execute(
            select(MemoryHistory.op, LongTermMemory.content)
            .join(LongTermMemory, LongTermMemory.id == MemoryHistory.memory_id)
            .where(MemoryHistory.source_message_id == fact.message_id, LongTermMemory.memory_key != fact.key)
        ).first()
    candidate = Candidate("upsert", "fact", fact.key, fact.content, importance=3, confidence=0.9)
    refused = refusal(candidate, get_settings(), message="")
    if refused is not None:
        return Fate(fact, f"gate/filter: {refused.reason}")
    if other is not None:
        return Fate(fact, f"dedup redirect ({other.op})", other.content)
    return Fate(fact, "not written (refinement or the write cap)")


def qa_recall(questions: list[Question], user_of: dict[int, int], dialog_of_memory) -> float:
    """Share of questions with a memory from an evidence turn among `find_memories`' top K."""
    hits = 0
    for question in questions:
        found = find_memories(user_of[question.user_id], question.text, mode="dense", limit=K)
        if any(dialog_of_memory(hit.id) & question.evidence for hit in found):
            hits += 1
    return hits / max(len(questions), 1)


def render(
    results: list[ConversationResult],
    pipeline_recall: float,
    direct_recall: float,
    questions: int,
    command: str,
    commit: str,
    minutes: float,
) -> str:
    fates = [f for r in results for f in r.fates]
    kept = sum(f.outcome == "kept" for f in fates)
    true_dup = [
        f
        for f in fates
        if f.outcome != "kept" and f.went_to and comparable(f.went_to) == comparable(f.proposed.content)
    ]
    lost = [f for f in fates if f.outcome != "kept"]
    share = kept / max(len(fates), 1)
    # A fact whose text another kept memory already says is not lost to retrieval.
    effective = (kept + len(true_dup)) / max(len(fates), 1)
    conversations = ", ".join(str(r.conversation) for r in results)
    lines = [
        SECTION_TITLE,
        "",
        f"Generated by `{command}` on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC at commit {commit} in {minutes:.1f} min "
        f"(a shared 2-core machine). Reproduce with `make bench-oracle`. LoCoMo conversations {conversations} "
        f"({sum(r.turns for r in results)} turns), each one user; the stub model proposes each turn's observation "
        "facts and keeps every candidate at refinement; the stages run in-process one turn after another "
        "(see `bench/bench_oracle.py`).",
        "",
        "| figure | value | target |",
        "|---|---:|---|",
        f"| facts proposed | {len(fates)} | |",
        f"| kept as active, SYNCED memories under their key | {kept} ({share:.1%}) | >= {KEPT_TARGET:.0%} |",
        f"| lost to a memory saying the same text (true duplicates) | {len(true_dup)} | may merge |",
        f"| kept or in a memory saying the same | {effective:.1%} | |",
        f'| QA recall@{K} through `find_memories(mode="dense")` after the pipeline | {pipeline_recall:.3f} | |',
        f"| QA recall@{K}, the same {questions} questions, facts written directly (retrieval only) | {direct_recall:.3f} | |",
        f"| gap | {direct_recall - pipeline_recall:+.3f} | <= {RECALL_GAP_TARGET:.2f} |",
        "",
        "Outcomes: "
        + ", ".join(f"{outcome} {count}" for outcome, count in Counter(f.outcome for f in fates).most_common())
        + ".",
        "",
    ]
    if lost:
        lines += ["Each fact not kept under its own key (conversation, turn, outcome; the fact; where it went):", ""]
        for fate in lost:
            where = f" → «{fate.went_to}»" if fate.went_to else ""
            same = " (same text)" if fate in true_dup else ""
            lines.append(
                f"- {fate.proposed.conversation} {fate.proposed.dialog_id}, {fate.outcome}{same}: «{fate.proposed.content}»{where}"
            )
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.bench_oracle", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--locomo", type=Path, required=True, help="path of locomo10.json (read, never copied)")
    parser.add_argument("--conversations", default="0,1", help="comma separated indices (0-9), or all")
    parser.add_argument("--milvus-port", type=int, default=MILVUS_PORT)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="Markdown file whose section is replaced")
    args = parser.parse_args(argv)
    if not args.locomo.is_file():
        parser.error(f"--locomo: no such file {args.locomo}")
    chosen = list(range(10)) if args.conversations == "all" else sorted(int(c) for c in args.conversations.split(","))
    # A timeout or Ctrl-C must still drop the database and stop Milvus (the `finally` of bench_stack).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    command = "python -m bench.bench_oracle " + " ".join(sys.argv[1:] if argv is None else argv)
    commit = git_commit()
    started = time.perf_counter()
    turns = load_turns(args.locomo, max(chosen) + 1, None)
    model = LocomoModel([turns[i] for i in chosen])
    locomo = load_locomo(args.locomo)
    with bench_stack(args.milvus_port):
        server = serve(model)
        try:
            configure(LONG_TERM_MEMORY_ENGINE="llm", OPENAI_BASE_URL=server.base_url)
            get_store().ensure_collection(get_embedder().dim)
            results, dialogs_of_key = [], {}
            for index in chosen:
                result, keys = run_conversation(index, turns[index], model)
                results.append(result)
                dialogs_of_key.update(keys)
                print(f"conversation {index}: {result.turns} turns in {result.seconds:.0f} s", flush=True)
            questions = [q for q in locomo.questions if q.user_id - 1 in chosen]
            with session_scope() as session:
                key_of_memory = dict(
                    session.execute(
                        select(LongTermMemory.id, LongTermMemory.memory_key).where(
                            LongTermMemory.user_id >= PIPELINE_USER_BASE
                        )
                    ).all()
                )
            pipeline_recall = qa_recall(
                questions,
                {q.user_id: PIPELINE_USER_BASE + q.user_id - 1 for q in questions},
                lambda memory_id: dialogs_of_key.get(key_of_memory.get(memory_id, ""), set()),
            )
            direct = Locomo({u: f for u, f in locomo.facts.items() if u - 1 in chosen}, questions)
            dialog_of = write_locomo(direct)
            sync_vectors(sorted(dialog_of))
            direct_recall = qa_recall(
                questions,
                {q.user_id: q.user_id for q in questions},
                lambda memory_id: dialog_ids(dialog_of.get(memory_id, "")),
            )
        finally:
            server.stop()
    section = render(
        results, pipeline_recall, direct_recall, len(questions), command, commit, (time.perf_counter() - started) / 60
    )
    write_section(args.output.resolve(), section, SECTION_TITLE)
    print(section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
