"""Retrieval benchmark (issue 5, SPEC §8): LoCoMo recall, and latency at 100,000 memories.

    python -m bench.bench_retrieval --locomo ../shared/data/locomo10.json [--output docs/benchmarks.md]

Everything runs against real services it sets up and removes itself: a throwaway
PostgreSQL database on the machine's server (DATABASE_URL's server, else 127.0.0.1:5432)
and a Milvus server of its own (`memory_tasks.stack.start_milvus`). Task messages (access
statistics) go to Celery's in-memory broker, never to a real queue.

Quality: each LoCoMo conversation's `observation` facts become the memories of one user,
written through `apply_candidate` and synced to Milvus through `sync_vectors`. Every
question of categories 1-4 is asked three ways: the lexical fallback, pure dense (Milvus
order) and the product's dense path with rerank, and the rerank is swept over other
similarity/lexical weights. recall@k = share of questions where one of the top k
memories comes from an evidence turn.

Speed: 1,000 users x 100 synthetic memories bulk-loaded (random unit vectors: search cost
does not depend on their meaning), then p50/p95/p99 of dense, full_inject and the lexical
fallback through `find_memories`, the real query embedding on its own, a naive baseline
(the user's vectors from PostgreSQL, brute-force cosine in Python), index-sync throughput
through `sync_vectors`, and recall of HNSW against exact FLAT search under the per-user
filter at this scale and at the filter selectivity of a 64 times larger collection.
"""

from __future__ import annotations

import os

from bench.in_process import IN_PROCESS_ENVIRONMENT

# Run as a script: before anything imports the Celery app. Imported by a test for its functions: nothing,
# or every worker subprocess the test process starts afterwards would inherit the in-memory broker.
os.environ.update(IN_PROCESS_ENVIRONMENT if __name__ == "__main__" else {})

import argparse
import io
import json
import platform
import shutil
import signal
import statistics
import struct
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
from sqlalchemy.engine import make_url

from bench.common import (
    configure,
    dialog_ids,
    memory_gib,
    percentiles,
    postgres_version,
    throwaway_database,
    write_section,
)
from config.settings import get_settings
from memory_tasks.db.session import session_scope
from memory_tasks.retrieval.period import named_period, without_period
from memory_tasks.vectors.milvus_store import MilvusStore, get_store

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "docs" / "benchmarks.md"
KS = (1, 3, 6, 10)
CATEGORIES = (1, 2, 3, 4)
CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
LOCOMO_USER_BASE = 1  # conversation i is user LOCOMO_USER_BASE + i
# Issue 13.5: weights are tuned on conversations 0-4 and reported on 5-9 (and on all 10).
SPLITS = {"tune (0-4)": range(0, 5), "held out (5-9)": range(5, 10), "all 10": range(0, 10)}
SPEED_USER_BASE = 100_001
SPEED_MEMORY_BASE = 1_000_001  # above any id the sequence gives the LoCoMo rows
SPEED_MODEL = "bench-random"  # embedding_cache model name of the synthetic vectors
DEFAULT_MILVUS_PORT = 19680
DENSE_TARGET_P95_MS = 30  # issue 5: dense p95 including the local query embedding
SEARCH_BUDGET_MS = 10  # the share of that target allowed to the Milvus search
# FLAT's p50 moves by about this much between runs on one layout: a smaller growth from 1/64 of the
# vectors to all of them in one partition says nothing about a slope.
MEASURABLE_GROWTH_MS = 1.0
INDEX_LEVERS = (
    "first by creating the collection with more partitions (`num_partitions`), so each holds fewer vectors; "
    "beyond that, with a graph per user group (Milvus 2.4+ `partitionkey.isolation` with HNSW)"
)
MILVUS_PARTITIONS = 64  # Milvus 2.3's default number of partitions for a partition-key collection
MILVUS_LOAD_BATCH = 10_000  # vectors per insert while bulk-loading (~15 MB of float32)
REPORT_TITLE = "# Retrieval benchmarks"


# --- the throwaway stack ---------------------------------------------------------------------------


@contextmanager
def overridden(**env: str) -> Iterator[None]:
    """Settings changed for the duration of the block, then restored."""
    saved = {name: os.environ.get(name) for name in env}
    configure(**env)
    try:
        yield
    finally:
        configure(**saved)


@dataclass(frozen=True)
class BenchStack:
    milvus_uri: str
    milvus_pid: int
    database_url: str
    collection: str


@contextmanager
def bench_stack(milvus_port: int) -> Iterator[BenchStack]:
    """A throwaway database (migrated) and a private Milvus server; both removed on exit."""
    from memory_tasks.stack import start_milvus

    data_dir = Path(tempfile.mkdtemp(prefix="mt_bench_milvus_"))
    server = None
    try:
        with throwaway_database() as database_url:
            server = start_milvus(data_dir, milvus_port, data_dir / "milvus.log")
            stack = BenchStack(server.uri, server.pid, database_url, f"bench_{make_url(database_url).database}")
            configure(
                MEMORY_MILVUS_ENABLED="true",
                MEMORY_MILVUS_URI=stack.milvus_uri,
                MEMORY_MILVUS_COLLECTION=stack.collection,
                MEMORY_INDEX_WORKER_ENABLED="false",
            )
            yield stack
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(data_dir, ignore_errors=True)


def wait_until_quiet(pid: int, timeout: float = 180, busy_percent: float = 30) -> float:
    """Wait until process `pid` (Milvus) stops working in the background after a bulk load
    (segment sealing, index building, compaction), so it does not steal the CPU the timed
    paths run on. Returns the seconds waited."""
    import psutil

    process = psutil.Process(pid)
    started = time.monotonic()
    quiet = 0
    while quiet < 3 and time.monotonic() - started < timeout:
        quiet = quiet + 1 if process.cpu_percent(interval=2) < busy_percent else 0
    return time.monotonic() - started


def wait_until_sealed(milvus_uri: str, collection: str, rows: int, timeout: float = 300) -> float:
    """Wait until Milvus' query node serves all `rows` of `collection` from sealed segments;
    returns the seconds waited.

    After a bulk load the rows are first searched in growing segments, and the query node takes
    them over as sealed ones ~20 s later (measured); searches until then stall now and then for
    30-120 ms, while Milvus' CPU already looks quiet. A chat server searches a collection whose
    rows arrived long before, so the timed paths wait for the handover.
    """
    from pymilvus import connections, utility
    from pymilvus.grpc_gen.common_pb2 import SegmentState

    started = time.monotonic()
    alias = "bench-sealed"
    connections.connect(alias=alias, uri=milvus_uri)
    try:
        while time.monotonic() - started < timeout:
            segments = utility.get_query_segment_info(collection, using=alias)
            sealed = sum(s.num_rows for s in segments if s.state != SegmentState.Growing)
            if sealed >= rows:
                break
            time.sleep(2)
    finally:
        connections.disconnect(alias)
    return time.monotonic() - started


TimedPath = tuple[Callable[[int, str], object], dict[str, str]]  # call(user, question), settings it runs under


def timed_paths(
    paths: dict[str, TimedPath], asks: Sequence[tuple[int, str]], rounds: int = 3, warmup: int = 3
) -> dict[str, dict[str, float]]:
    """Latency percentiles (ms) of each path over the asks, one call per ask.

    The asks are split into `rounds` blocks and every path runs each block in turn, so a
    burst of load from elsewhere on the machine lands on all paths alike; each block
    starts with `warmup` unmeasured calls (a settings switch reconnects).
    """
    samples: dict[str, list[float]] = {name: [] for name in paths}
    size = -(-len(asks) // rounds)
    for block in (asks[start : start + size] for start in range(0, len(asks), size)):
        for name, (call, env) in paths.items():
            with overridden(**env):
                for user, question in block[:warmup]:
                    call(user, question)
                for user, question in block:
                    started = time.perf_counter()
                    call(user, question)
                    samples[name].append((time.perf_counter() - started) * 1000)
    return {name: percentiles(values) for name, values in samples.items()}


# --- quality: LoCoMo -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Question:
    user_id: int
    text: str
    evidence: frozenset[str]
    category: int


# The dialog ids ("D1:3") a memory's fact came from.
Dialogs = frozenset[str]


@dataclass
class Locomo:
    # user id -> [(fact text, its dialog ids)]: a few facts name several turns (['D15:3', 'D15:5'])
    facts: dict[int, list[tuple[str, Dialogs]]]
    questions: list[Question]
    # user id -> session number -> when the session took place ("1:56 pm on 8 May, 2023")
    session_dates: dict[int, dict[int, datetime]] = field(default_factory=dict)

    def said_on(self, user_id: int, dialogs: Dialogs) -> datetime | None:
        """When the earliest of `dialogs` ("D4:8": session 4) was said; None when no session date is known."""
        dates = self.session_dates.get(user_id, {})
        known = [dates[n] for n in (int(d[1:].split(":")[0]) for d in dialogs) if n in dates]
        return min(known, default=None)


def load_locomo(path: Path) -> Locomo:
    """Observation facts per conversation and the questions of categories 1-4."""
    data = json.loads(path.read_text(encoding="utf-8"))
    facts: dict[int, list[tuple[str, str]]] = {}
    session_dates: dict[int, dict[int, datetime]] = {}
    questions = []
    for index, sample in enumerate(data):
        user_id = LOCOMO_USER_BASE + index
        facts[user_id] = [
            (text, frozenset(dialog_ids(dialog_id)))
            for session in sample["observation"].values()
            for speaker_facts in session.values()
            for text, dialog_id in speaker_facts
        ]
        session_dates[user_id] = {
            int(name.split("_")[1]): datetime.strptime(when.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)
            for name, when in sample.get("conversation", {}).items()
            if name.endswith("_date_time")
        }
        questions += [
            Question(user_id, qa["question"], frozenset(dialog_ids(qa.get("evidence", []))), qa["category"])
            for qa in sample["qa"]
            if qa["category"] in CATEGORIES
        ]
    return Locomo(facts, questions, session_dates)


def write_locomo(
    locomo: Locomo,
    keys: Mapping[tuple[int, str], str] | None = None,
    dated: bool = False,
) -> dict[int, Dialogs]:
    """Write every fact as a memory through the write model; returns {memory id: the dialog ids of its facts}.

    A fact's key is `keys[(user id, fact text)]` when given, else `observation-<its number>`. `dated`: a
    fact is written as stated when its session took place (the memory's `stated_at`), as it would have
    been had the conversation been recorded as it happened; else as stated now.
    """
    from sqlalchemy.dialects.postgresql import insert as pg_insert

    from memory_tasks.db.clock import db_now
    from memory_tasks.db.models import HistorySource, User
    from memory_tasks.extraction.candidates import Candidate
    from memory_tasks.memories.store import WriteContext, apply_candidate, lock_user

    dialog_of: dict[int, Dialogs] = {}
    for user_id, facts in locomo.facts.items():
        with session_scope() as session:
            session.execute(pg_insert(User).values(id=user_id).on_conflict_do_nothing())
            lock_user(session, user_id)
            ctx = WriteContext(
                user_id, HistorySource.TOOL, db_now(session), get_settings().LONG_TERM_MEMORY_DEFAULT_TTL_DAYS
            )
            for number, (text, dialog_id) in enumerate(facts):
                candidate = Candidate(
                    op="upsert",
                    memory_type="fact",
                    key=(keys or {}).get((user_id, text), f"observation-{number}"),
                    content=text,
                    importance=3,
                    confidence=0.9,
                )
                said = locomo.said_on(user_id, dialog_id) if dated else None
                change = apply_candidate(session, replace(ctx, stated_at=said) if said else ctx, candidate)
                # A fact said again (the same text, or a key given twice) confirms one memory: it counts for both.
                dialog_of[change.memory_id] = dialog_of.get(change.memory_id, frozenset()) | dialog_id
    return dialog_of


def sync_all(memory_ids: list[int], flush: bool = True) -> float:
    """Embed and index every memory through `sync_vectors`, MEMORY_INDEX_WORKER_BATCH_SIZE at a
    time, flushing Milvus after each batch or not; returns memories per second."""
    from memory_tasks.vectors.index import sync_vectors

    batch = get_settings().MEMORY_INDEX_WORKER_BATCH_SIZE
    started = time.perf_counter()
    for start in range(0, len(memory_ids), batch):
        sync_vectors(memory_ids[start : start + batch], flush=flush)
    return len(memory_ids) / (time.perf_counter() - started)


def recall_by_split(rankings: Sequence[Sequence[Dialogs]], questions: Sequence[Question]) -> dict[str, float]:
    """{split name: recall@6 over the questions of that split's conversations}."""
    figures = {}
    for name, conversations in SPLITS.items():
        users = {LOCOMO_USER_BASE + c for c in conversations}
        chosen = [i for i, q in enumerate(questions) if q.user_id in users]
        figures[name] = recall([rankings[i] for i in chosen], [questions[i] for i in chosen])[6]
    return figures


def recall(rankings: Sequence[Sequence[Dialogs]], questions: Sequence[Question]) -> dict[int, float]:
    """{k: share of questions with an evidence dialog among the dialogs of the first k ranked memories}."""
    return {
        k: sum(bool(q.evidence & frozenset().union(*ranked[:k])) for ranked, q in zip(rankings, questions, strict=True))
        / len(questions)
        for k in KS
    }


@dataclass
class QualityResult:
    questions: int
    memories: int
    ceiling: float
    recall: dict[str, dict[int, float]]  # path -> k -> recall
    by_category: dict[str, dict[int, float]]  # path -> category -> recall@6
    sweep: list[tuple[float, float, float, dict[int, float]]] = field(
        default_factory=list
    )  # similarity, lexical, period
    noise_hidden: int = 0
    by_split: dict[str, dict[str, float]] = field(default_factory=dict)  # path -> split -> recall@6
    sweep_by_split: list[dict[str, float]] = field(default_factory=list)  # per sweep row: split -> recall@6
    # the rerank of each question's candidates, ms (p50, p95): with the period signal, and with its weight 0
    rerank_ms: dict[str, tuple[float, float]] = field(default_factory=dict)
    core_memories: int = 0
    dated_questions: int = 0  # questions naming a day, month or year (the rerank's period signal)


def run_quality(locomo_path: Path, sweep: bool) -> QualityResult:
    from memory_tasks.db.clock import db_now
    from memory_tasks.extraction.core import is_core_memory
    from memory_tasks.extraction.filters import is_noise_memory
    from memory_tasks.retrieval.rerank import RerankWeights, rerank
    from memory_tasks.retrieval.search import dense_candidates, find_memories, lexical_ranking, vector_search

    locomo = load_locomo(locomo_path)
    # Dated as said: questions that name a day, month or year rank what was stated then (rerank's period).
    dialog_of = write_locomo(locomo, dated=True)
    print(f"quality: {len(dialog_of)} memories written, {len(locomo.questions)} questions", flush=True)
    with overridden(MEMORY_INDEX_WORKER_BATCH_SIZE="512"):  # each Milvus write ends with a ~3 s flush
        print(f"quality: indexed at {sync_all(sorted(dialog_of)):.1f} memories/s", flush=True)
    observed = {user: frozenset().union(*(d for _, d in facts)) for user, facts in locomo.facts.items()}
    ceiling = sum(bool(q.evidence & observed[q.user_id]) for q in locomo.questions) / len(locomo.questions)
    settings = get_settings()
    patterns = settings.noise_key_patterns
    noise_hidden = sum(
        is_noise_memory("observation", text, patterns) for facts in locomo.facts.values() for text, _ in facts
    )

    weights = RerankWeights.from_settings(settings)
    rankings: dict[str, list[list[Dialogs]]] = {"lexical": [], "dense": [], "final": []}
    candidates_of = []
    started = time.perf_counter()
    for question in locomo.questions:
        # As `find_memories` embeds it: without the date words of a period it names.
        found = vector_search(question.user_id, without_period(question.text), settings)
        assert found is not None, "the vector path failed during the benchmark"
        rankings["dense"].append([dialog_of[h.memory_id] for h in found.hits[: max(KS)]])
        final = find_memories(question.user_id, question.text, mode="dense", limit=max(KS))
        rankings["final"].append([dialog_of[h.id] for h in final])
        with session_scope() as session:
            now = db_now(session)
            period = named_period(question.text)
            lexical = lexical_ranking(session, question.user_id, question.text, now, settings, period)[: max(KS)]
            rankings["lexical"].append([dialog_of[r.memory.id] for r in lexical])
            if sweep:
                candidates_of.append((dense_candidates(session, question.user_id, found, now, settings), now))
    print(f"quality: questions asked in {time.perf_counter() - started:.0f} s", flush=True)

    result = QualityResult(
        questions=len(locomo.questions),
        memories=len(dialog_of),
        ceiling=ceiling,
        recall={path: recall(ranked, locomo.questions) for path, ranked in rankings.items()},
        by_category={
            path: {
                c: recall(
                    [r for r, q in zip(ranked, locomo.questions, strict=True) if q.category == c],
                    [q for q in locomo.questions if q.category == c],
                )[6]
                for c in CATEGORIES
            }
            for path, ranked in rankings.items()
        },
        noise_hidden=noise_hidden,
        by_split={path: recall_by_split(ranked, locomo.questions) for path, ranked in rankings.items()},
        dated_questions=sum(named_period(q.text) is not None for q in locomo.questions),
        core_memories=sum(
            is_core_memory("fact", "observation", text) for facts in locomo.facts.values() for text, _ in facts
        ),
    )
    if sweep:
        period = weights.period
        trials = [(1.0, x, period) for x in (0.0, 0.2, 0.3, 0.5, 0.6, 0.7, 1.0)] + [(0.0, 1.0, period)]
        for w_sim, w_lex, w_period in [*trials, (weights.similarity, weights.lexical, 0.0)]:
            trial = replace(weights, similarity=w_sim, lexical=w_lex, period=w_period)
            ranked = [
                [dialog_of[r.memory.id] for r in rerank(cands, q.text, trial, now, named_period(q.text))[: max(KS)]]
                for (cands, now), q in zip(candidates_of, locomo.questions, strict=True)
            ]
            result.sweep.append((w_sim, w_lex, w_period, recall(ranked, locomo.questions)))
            result.sweep_by_split.append(recall_by_split(ranked, locomo.questions))
            print(f"sweep: similarity {w_sim} lexical {w_lex} period {w_period}: {result.sweep[-1][3]}", flush=True)
        result.rerank_ms = rerank_times(
            candidates_of,
            locomo.questions,
            {"with the period signal": weights, "without it": replace(weights, period=0.0)},
        )
    return result


def rerank_times(
    candidates_of, questions: Sequence[Question], variants: Mapping[str, object]
) -> dict[str, tuple[float, float]]:
    """{variant: (p50, p95) in ms} of reading the question's period and `rerank` over its dense candidates,
    with each variant's weights. The variants alternate question by question, so load on the machine falls on
    all of them alike; three passes, the first discarded."""
    from memory_tasks.retrieval.rerank import rerank

    times: dict[str, list[float]] = {label: [] for label in variants}
    for attempt in range(3):
        for (cands, now), question in zip(candidates_of, questions, strict=True):
            for label, weights in variants.items():
                started = time.perf_counter()
                rerank(cands, question.text, weights, now, named_period(question.text))
                if attempt:
                    times[label].append((time.perf_counter() - started) * 1000)
    return {label: (percentiles(t)["p50"], percentiles(t)["p95"]) for label, t in times.items()}


# --- speed: 100,000 memories over 1,000 users ------------------------------------------------------

# Synthetic memories: (memory_type, key stem, content template). {a}/{b} are filled from WORDS.
TEMPLATES = [
    ("preference", "food", "用户喜欢吃{a}，尤其是{b}的做法"),
    ("fact", "city", "用户住在{a}，在{b}上班"),
    ("goal", "goal", "用户今年想学会{a}，每周练习{b}次"),
    ("project", "project", "用户在做一个关于{a}的项目，用{b}写的"),
    ("constraint", "constraint", "推荐{a}时要避开{b}"),
    ("preference", "music", "Enjoys listening to {a} while working on {b}"),
    ("fact", "pet", "Has a pet called {a} who likes {b}"),
    ("goal", "fitness", "Wants to get better at {a} and train {b} times a week"),
    ("project", "app", "Is building an app for {a} with a friend who knows {b}"),
    ("fact", "job", "Works as a {a} at a company that makes {b}"),
]
WORDS = (
    "火锅 川菜 杭州 上海 北京 深圳 游泳 吉他 钢琴 摄影 咖啡 绿茶 花生 香菜 Python Rust jazz hiking "
    "running chess cooking tennis Mochi Luna design teaching robots games maps 3 4 5"
).split()
QUERIES = [
    "我住在哪个城市？",
    "晚饭吃什么好？",
    "推荐点音乐给我听",
    "我的项目进展怎么样？",
    "周末适合做什么运动？",
    "What's my pet called?",
    "Which language should I use?",
    "What do I do for a living?",
    "How should I train this week?",
    "Any snack ideas for me?",
    "我有什么忌口吗？",
    "帮我安排一下学习计划",
]


@dataclass
class SpeedResult:
    users: int
    memories: int
    load_seconds: float
    sync_per_sec: dict[str, float]  # setup -> memories per second through sync_vectors
    embed_per_sec: float  # passages per second, embedding alone
    latency: dict[str, dict[str, float]]  # path -> percentiles (ms)
    hnsw: dict[str, dict[str, float]] = field(default_factory=dict)  # setting -> {recall, hits, p50, p95}
    sealed_seconds: float = 0.0  # from the end of the load until Milvus served every row from sealed segments


def _copy(cursor, sql: str, data: bytes | str) -> None:
    cursor.copy_expert(sql, io.BytesIO(data) if isinstance(data, bytes) else io.StringIO(data))


def _binary_copy(rows: Sequence[tuple[str, int, str, np.ndarray]]) -> bytes:
    """COPY BINARY payload of embedding_cache (model, version, text_hash, vector REAL[]) rows."""
    parts = [b"PGCOPY\n\xff\r\n\x00", struct.pack("!ii", 0, 0)]
    for model, version, digest, vector in rows:
        elements = np.empty(len(vector), dtype=[("len", ">i4"), ("value", ">f4")])
        elements["len"], elements["value"] = 4, vector
        array = struct.pack("!iiiii", 1, 0, 700, len(vector), 1) + elements.tobytes()  # ndim, nulls, float4 oid
        fields = [model.encode(), struct.pack("!i", version), digest.encode(), array]
        parts.append(struct.pack("!h", len(fields)))
        parts += [struct.pack("!i", len(f)) + f for f in fields]
    parts.append(struct.pack("!h", -1))
    return b"".join(parts)


def bulk_load(
    users: int, per_user: int, dim: int, stack: BenchStack, rng: np.random.Generator
) -> tuple[np.ndarray, float]:
    """Load users x per_user synced memories into PostgreSQL (COPY) and Milvus; returns (vectors, seconds).

    The vectors are random unit vectors, also stored in embedding_cache for the naive baseline.
    The collection is created by the store (its schema and index), then filled in big
    batches with one flush: `MilvusStore.replace` flushes every call, and a flush per batch
    leaves hundreds of small segments that Milvus compacts for minutes afterwards.
    """
    from pymilvus import MilvusClient

    from memory_tasks.db.session import get_engine
    from memory_tasks.vectors.index import index_text, text_hash

    started = time.perf_counter()
    count = users * per_user
    vectors = rng.standard_normal((count, dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    now = datetime.now(UTC)
    memory_rows, vector_of = io.StringIO(), {}
    for n in range(count):
        memory_id, user_id = SPEED_MEMORY_BASE + n, SPEED_USER_BASE + n // per_user
        memory_type, stem, template = TEMPLATES[n % len(TEMPLATES)]
        key = f"{stem}-{n % per_user}"
        content = template.format(a=WORDS[rng.integers(len(WORDS))], b=WORDS[rng.integers(len(WORDS))])
        digest = text_hash(index_text(memory_type, key, content))
        updated = now - timedelta(days=int(rng.integers(0, 300)))
        memory_rows.write(
            f'{memory_id},{user_id},{key},{memory_type},"{content}",{1 + n % 5},0.9,t,'
            f"{now + timedelta(days=180)},SYNCED,{SPEED_MODEL},1,{digest},{updated},{updated}\n"
        )
        # One text, one vector (the cache's key), even when two users happen to share a text.
        vectors[n] = vector_of.setdefault(digest, vectors[n])
    connection = get_engine().raw_connection()
    try:
        with connection.cursor() as cursor:
            _copy(cursor, "COPY users (id) FROM STDIN", "".join(f"{SPEED_USER_BASE + u}\n" for u in range(users)))
            _copy(
                cursor,
                "COPY long_term_memories (id, user_id, memory_key, memory_type, content, importance, "
                "confidence, is_active, expires_at, vector_status, vector_model, vector_version, "
                "vector_text_hash, created_at, updated_at) FROM STDIN WITH (FORMAT csv)",
                memory_rows.getvalue(),
            )
            _copy(
                cursor,
                "COPY embedding_cache (model, version, text_hash, vector) FROM STDIN WITH (FORMAT binary)",
                _binary_copy([(SPEED_MODEL, 1, digest, vector) for digest, vector in vector_of.items()]),
            )
            cursor.execute("ANALYZE")
        connection.commit()
    finally:
        connection.close()
    MilvusStore(stack.milvus_uri, stack.collection).ensure_collection(dim)
    client = MilvusClient(uri=stack.milvus_uri)
    _fill_collection(client, stack.collection, vectors, per_user)
    client.close()
    return vectors, time.perf_counter() - started


def naive_search(user_id: int, query: str, limit: int) -> list[int]:
    """The baseline: the user's vectors read from PostgreSQL, cosine computed row by row in Python."""
    from sqlalchemy import and_, select

    from memory_tasks.db.models import EmbeddingCache, LongTermMemory
    from memory_tasks.vectors.embedders import get_embedder

    vector = get_embedder().embed_query(query)
    with session_scope() as session:
        rows = session.execute(
            select(LongTermMemory.id, EmbeddingCache.vector)
            .join(
                EmbeddingCache,
                and_(EmbeddingCache.text_hash == LongTermMemory.vector_text_hash, EmbeddingCache.model == SPEED_MODEL),
            )
            .where(LongTermMemory.user_id == user_id, LongTermMemory.is_active.is_(True))
        ).all()
    scored = sorted(
        ((float(np.dot(vector, np.asarray(v, dtype=np.float32))), memory_id) for memory_id, v in rows), reverse=True
    )
    return [memory_id for _, memory_id in scored[:limit]]


def sync_throughput(setups: Sequence[tuple[int, bool]], count: int) -> tuple[dict[str, float], float]:
    """Memories/s through `sync_vectors` (fresh texts, so every one is embedded) for each
    (batch size, flush) setup, and passages/s of the embedder alone."""
    from memory_tasks.vectors.embedders import get_embedder

    results = {}
    for round_number, (batch, flush) in enumerate(setups):
        facts = [
            (f"Throughput memory {n} of round {round_number}: likes {WORDS[n % len(WORDS)]}", frozenset())
            for n in range(count)
        ]
        ids = sorted(write_locomo(Locomo({SPEED_USER_BASE + 50_000 + round_number: facts}, [])))
        label = f"batches of {batch}, " + (
            "flush after each (the sweep, reindex)" if flush else "no flush (per message)"
        )
        with overridden(MEMORY_INDEX_WORKER_BATCH_SIZE=str(batch)):
            results[label] = sync_all(ids, flush)
        print(f"speed: sync_vectors {label}: {results[label]:.1f} memories/s", flush=True)
    texts = [f"passage number {n} about {WORDS[n % len(WORDS)]} and {WORDS[(n * 7) % len(WORDS)]}" for n in range(128)]
    started = time.perf_counter()
    get_embedder().embed_passages(texts)
    return results, len(texts) / (time.perf_counter() - started)


INDEX_PARAMS_FLAT = {"index_type": "FLAT", "metric_type": "COSINE"}  # as milvus_store.INDEX_PARAMS
HNSW_PARAMS = {"index_type": "HNSW", "metric_type": "COSINE", "params": {"M": 16, "efConstruction": 200}}


def _fill_collection(client, name: str, vectors: np.ndarray, per_user: int) -> None:
    """Insert the speed part's vectors (memory ids and users as in PostgreSQL), flush once,
    wait until the index is built (searching raw segments would flatter HNSW), and load."""
    for start in range(0, len(vectors), MILVUS_LOAD_BATCH):
        client.insert(
            name,
            [
                {
                    "id": SPEED_MEMORY_BASE + n,
                    "user_id": SPEED_USER_BASE + n // per_user,
                    "text_hash": "",
                    "vector": vectors[n].tolist(),
                }
                for n in range(start, min(len(vectors), start + MILVUS_LOAD_BATCH))
            ],
        )
    client.flush(name)
    deadline = time.monotonic() + 300
    while client.describe_index(name, "vector")["pending_index_rows"] and time.monotonic() < deadline:
        time.sleep(2)
    client.load_collection(name)


def _experiment_collection(client, name: str, vectors: np.ndarray, per_user: int, index: dict, partitions: int) -> None:
    """A copy of the store's schema (`MilvusStore.ensure_collection`) with another index or
    partition count, filled like the live one."""
    from pymilvus import DataType, MilvusClient

    schema = MilvusClient.create_schema(auto_id=False, enable_dynamic_field=False)
    schema.add_field("id", DataType.INT64, is_primary=True)
    schema.add_field("user_id", DataType.INT64, is_partition_key=True)
    schema.add_field("text_hash", DataType.VARCHAR, max_length=64)
    schema.add_field("vector", DataType.FLOAT_VECTOR, dim=vectors.shape[1])
    index_params = client.prepare_index_params()
    index_params.add_index(field_name="vector", **index)
    client.create_collection(name, schema=schema, index_params=index_params, num_partitions=partitions)
    _fill_collection(client, name, vectors, per_user)


def index_experiment(
    stack: BenchStack, vectors: np.ndarray, users: int, per_user: int, rng: np.random.Generator, probes: int, limit: int
) -> dict[str, dict[str, float]]:
    """Recall and latency of FLAT and HNSW for `limit` hits under the per-user filter, at two
    filter selectivities: the collection as loaded (64 partitions), and the same vectors in
    one partition, where a user's share of the searched partition is what it would be in a
    64-partition collection 64 times larger. Recall is against FLAT on the same layout."""
    from pymilvus import MilvusClient

    from memory_tasks.vectors.milvus_store import SEARCH_CONSISTENCY

    client = MilvusClient(uri=stack.milvus_uri)
    asks = [(SPEED_USER_BASE + int(rng.integers(users)), rng.standard_normal(vectors.shape[1])) for _ in range(probes)]
    asks = [(user, (v / np.linalg.norm(v)).tolist()) for user, v in asks]
    layouts = {MILVUS_PARTITIONS: {"FLAT": stack.collection}, 1: {}}
    results: dict[str, dict[str, float]] = {}
    for partitions, collections in layouts.items():
        for index in (INDEX_PARAMS_FLAT, HNSW_PARAMS):
            name = collections.get(index["index_type"])
            if name is None:
                name = collections[index["index_type"]] = (
                    f"{stack.collection}_{index['index_type'].lower()}_{partitions}p"
                )
                started = time.perf_counter()
                _experiment_collection(client, name, vectors, per_user, index, partitions)
                print(f"speed: {name} built in {time.perf_counter() - started:.0f} s", flush=True)
            # As for the live collection (run_speed): time searches of sealed segments on a quiet Milvus.
            wait_until_sealed(stack.milvus_uri, name, len(vectors))
            wait_until_quiet(stack.milvus_pid)
            for ef in [None] if index is INDEX_PARAMS_FLAT else [limit, 4 * limit, 16 * limit]:
                found, samples = [], []
                for user, vector in asks:
                    started = time.perf_counter()
                    hits = client.search(
                        name,
                        data=[vector],
                        filter=f"user_id == {user}",
                        limit=limit,
                        search_params={"metric_type": "COSINE", "params": {"ef": ef} if ef else {}},
                        consistency_level=SEARCH_CONSISTENCY,
                    )
                    samples.append((time.perf_counter() - started) * 1000)
                    found.append({int(h["id"]) for h in hits[0]})
                if ef is None:
                    exact = found
                label = f"{partitions} partition{'s' if partitions > 1 else ''}, " + (f"HNSW ef={ef}" if ef else "FLAT")
                results[label] = {
                    "partitions": partitions,
                    "recall": sum(len(f & e) for f, e in zip(found, exact, strict=True)) / sum(len(e) for e in exact),
                    "hits": statistics.mean(len(f) for f in found),
                    **percentiles(samples),
                }
                print(f"speed: {label}: {results[label]}", flush=True)
        # Every loaded collection costs Milvus idle CPU; the next layout is timed without these.
        for name in collections.values():
            if name != stack.collection:
                client.drop_collection(name)
    client.close()
    return results


def run_speed(stack: BenchStack, users: int, per_user: int, queries: int, hnsw: bool) -> SpeedResult:
    from memory_tasks.retrieval.search import find_memories
    from memory_tasks.vectors.embedders import get_embedder

    rng = np.random.default_rng(5)
    embedder = get_embedder()
    scan_limit = get_settings().LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT
    query_vectors = {q: embedder.embed_query(q).tolist() for q in QUERIES}
    vectors, load_seconds = bulk_load(users, per_user, embedder.dim, stack, rng)
    sealed_seconds = wait_until_sealed(stack.milvus_uri, stack.collection, users * per_user)
    print(
        f"speed: {users * per_user} memories loaded in {load_seconds:.0f} s; sealed after {sealed_seconds:.0f} s; "
        f"Milvus settled after {wait_until_quiet(stack.milvus_pid):.0f} s more",
        flush=True,
    )
    asks = [
        (SPEED_USER_BASE + int(rng.integers(users)), QUERIES[int(rng.integers(len(QUERIES)))]) for _ in range(queries)
    ]
    latency = timed_paths(
        {
            "query embedding alone": (lambda u, q: embedder.embed_query(q), {}),
            "Milvus search alone (FLAT)": (lambda u, q: get_store().search(u, query_vectors[q], scan_limit), {}),
            "dense (embedding + Milvus + PostgreSQL + rerank)": (lambda u, q: find_memories(u, q, mode="dense"), {}),
            "full_inject": (lambda u, q: find_memories(u, q, mode="full_inject"), {}),
            "lexical fallback": (lambda u, q: find_memories(u, q, mode="dense"), {"MEMORY_MILVUS_ENABLED": "false"}),
            "naive baseline (embedding + PostgreSQL rows + Python cosine)": (lambda u, q: naive_search(u, q, 6), {}),
        },
        asks,
    )
    for name, figures in latency.items():
        print(f"speed: {name}: {figures}", flush=True)
    result = SpeedResult(users, users * per_user, load_seconds, {}, 0.0, latency, sealed_seconds=sealed_seconds)
    result.sync_per_sec, result.embed_per_sec = sync_throughput([(32, False), (32, True), (256, True)], 128)
    if hnsw:
        result.hnsw = index_experiment(stack, vectors, users, per_user, rng, probes=150, limit=80)
    return result


# --- the report ------------------------------------------------------------------------------------


def _ms(figures: dict[str, float]) -> str:
    return f"{figures['p50']:.1f} | {figures['p95']:.1f} | {figures['p99']:.1f}"


CHOICES = """## Design choices these figures support

- **Exact search (FLAT) under the user filter.** Every search is filtered by `user_id` (partition key).
  FLAT is exact by construction and fast at this scale; an approximate graph index cut by a selective
  filter drops true neighbours (table above). The store's `INDEX_PARAMS` is where to change it, and
  `num_partitions` at collection creation is the first lever when partitions grow large.
- **Bounded consistency for searches.** The collection is created Strong, and a Strong search waits for
  Milvus' next time tick: ~200 ms per search measured here, against ~3 ms at Bounded. Retrieval searches
  at Bounded and reads from PostgreSQL the user's rows Milvus may not show yet (not SYNCED, or synced in
  the last 10 s), scoring them with their cached vectors: a memory is retrievable as soon as it is written.
- **Rerank.** score = the weighted sum of similarity, lexical, importance, confidence, recency, key and
  period signals, each in [0, 1] (`LONG_TERM_MEMORY_RERANK_W_*` in `config/settings.py`; the weights of this run
  are listed above). Similarity is rescaled over the query's candidates because e5 cosines sit in a narrow
  band. The lexical weight is 0.6 (issue 13.5: the best of 0.3 / 0.5 / 0.6 / 0.8 on conversations 0-4,
  then read on 5-9); the integration tests' small Chinese and English sets still rank the right memory
  first with it. English words are lightly stemmed and question/request words dropped before BM25 (+4
  points for BM25, +1 for the hybrid). Core memories (issue 13.3) take up to LONG_TERM_MEMORY_CORE_LIMIT
  places of their user's answers whatever the question; they are read in the same PostgreSQL query.
- **Period** (issue 13.5). A question naming a day, month or year ("on May 3, 2023", "in June",
  「2023年5月」, `retrieval/period.py`) ranks a memory stated then, or within a week after, with the
  period weight (1.0, as strong as the best similarity), and is embedded without its date words (they
  pulled a test question's cosine with its trip from 0.84 to 0.78, under the relevance floor). 199 of
  the 1,540 questions name one. Offline on the same vectors, weights 0.2 / 0.3 / 0.5 / 0.7 / 1.0 / 1.5 /
  2.0 / 5.0 gave 0.680 / 0.681 / 0.682 / 0.684 / **0.686** / 0.685 / 0.686 / 0.686 on conversations 0-4
  against 0.672 without (1.0 is the smallest of the best; a week's grace against none: equal there); read
  on 5-9: 0.713 -> 0.731. Embedding the question without its date: 0.689 / 0.729 / 0.709 against 0.686 /
  0.731 / 0.709 with it. The benchmark writes each fact as stated on its session's date, as a
  conversation recorded while it happened would be.
- **What else was tried for issue 13.5** (recall@6 on conversations 0-4 / 5-9 / all, measured offline on
  the same e5 vectors with the rerank re-implemented over exact top-80 candidates, which reproduces the
  product's 0.674 at lexical 0.3): lexical weight 0.3 -> 0.6: 0.657 / 0.690 / 0.674 -> 0.665 / 0.697 /
  0.681 (**kept**; 0.8 drops to 0.665 / 0.685). A second vector per memory, its content embedded
  query-side (the vector dedup already caches), fused into the similarity at 0.3 / 0.5: 0.657 / 0.692 and
  0.652 / 0.688 (lost 1 point). Content-only passage vectors instead of "[type] key: content": 0.651 /
  0.694 (lost 1.4 on 0-4). The question also embedded passage-side and fused: 0.659 / 0.701 (lost on
  0-4). Reciprocal-rank fusion of dense and BM25 (k 10-60): 0.640-0.653 on 0-4 (lost up to 2.5 points).
  BM25 over all of the user's memories, alone as corpus statistics: 0.663 / 0.699; with its top 20 added
  to the candidates: 0.668 / 0.676 (lost 2 on 5-9). Scan limit 40 / 150 / 300: 0.661, 0.667, 0.660 on
  0-4 (150 loses 0.7 on 5-9). Pseudo-relevance feedback on the dense top 1-5: -0.4 to -1.8 on 0-4; on
  BM25 terms: -0.8. MMR diversity: 0. A person-name match signal: -0.4 to -1.0. z-score similarity:
  -0.6. BM25 k1 / b variants: +-0.1. Query expansion from the conversation summary cannot be measured
  here (LoCoMo questions come without one), and a question-style paraphrase written at write time needs
  a chat model (none offline). So **the 0.72 aim is not reached**: held out 0.697, all 0.681 (table above).
  The first stage is the limit: an evidence memory is in dense's top 6 for 0.653 of the questions, top 20
  for 0.747, top 80 for 0.809 (ceiling 0.839); a stronger embedding model or a cross-encoder over the top
  20-80 is what remains, within the latency budget only with a small model.
- **Fallback.** When the embedder or Milvus fails, or is off, the user's valid memories are ranked by the
  same rerank without the vector signal (BM25 takes its weight) within LONG_TERM_MEMORY_LEXICAL_BUDGET_MS.
  The failure is logged once; retrieval then skips the vector path for LONG_TERM_MEMORY_VECTOR_RETRY_SEC
  before trying again, so an outage costs one failed attempt per interval, not one per reply.
- **Reindex** (`python -m memory_tasks reindex`) builds `<collection>_v<N+1>` from PostgreSQL with the current
  embedder while the live collection keeps serving, then mends what changed meanwhile by comparing text
  hashes; the operator switches MEMORY_MILVUS_COLLECTION (with the matching embedding settings) and runs
  `reindex --reconcile`. No automatic alias swap: after a model change the chat servers must switch model
  and collection together, and Milvus 2.3 cannot give an alias the name of an existing collection.
"""


def render(
    quality: QualityResult | None, speed: SpeedResult | None, seconds: float, command: str
) -> list[tuple[str, str]]:
    """This bench's sections of docs/benchmarks.md as (heading, text): the figures of this run, how they
    were made, and what they mean. A part not run (--skip-quality, --skip-speed) is left out, so the
    file keeps that part's earlier figures."""
    settings = get_settings()
    lines = [
        REPORT_TITLE,
        "",
        f"Generated by `{command}` on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC in {seconds / 60:.1f} min "
        f"(machine: {os.cpu_count()} cores, {memory_gib():.0f} GiB, {platform.python_implementation()} "
        f"{platform.python_version()}, Milvus 2.3.5 standalone, PostgreSQL {postgres_version()}). "
        "Reproduce with `make bench-retrieval` (it starts its own Milvus server, uses a throwaway database "
        "on the machine's PostgreSQL or DATABASE_URL's server, and removes both). Timings share the "
        f"machine with whatever else runs on it (load average {os.getloadavg()[0]:.1f} at the end). A part this "
        "command skipped keeps the figures of an earlier run.",
        "",
    ]
    parts = [(REPORT_TITLE, lines)]
    if quality:
        parts.append(("## Quality on LoCoMo", _render_quality(quality, settings)))
    if speed:
        parts.append(("## Speed at ", _render_speed(speed, settings)))
    parts.append((CHOICES.splitlines()[0], [CHOICES]))
    # One newline at the end of each: `replace_section` puts the blank line before the next heading.
    return [(heading, "\n".join(part).rstrip("\n") + "\n") for heading, part in parts]


def _render_quality(quality: QualityResult, settings) -> list[str]:
    names = {
        "lexical": "lexical (the fallback: BM25 over CJK-aware tokens)",
        "dense": "pure dense (Milvus cosine order, multilingual-e5-small)",
        "final": 'final: dense + rerank (`retrieve(mode="dense")`)',
    }
    lines = [
        "## Quality on LoCoMo",
        "",
        f"{quality.memories} observation facts of the 10 LoCoMo conversations written as memories (one user per "
        f"conversation, through `apply_candidate`, indexed through `sync_vectors`); {quality.questions} questions of "
        "categories 1-4. recall@k = share of questions for which one of the k memories returned comes from a dialog "
        "turn of the question's evidence.",
        "",
        "| path | " + " | ".join(f"recall@{k}" for k in KS) + " |",
        "|---|" + "---|" * len(KS),
    ]
    lines += [f"| {names[p]} | " + " | ".join(f"{r[k]:.3f}" for k in KS) + " |" for p, r in quality.recall.items()]
    lines += [
        f"| ceiling (evidence has an observation) | {quality.ceiling:.3f} | | | |",
        "",
        "recall@6 by category: "
        + "; ".join(
            f"{CATEGORY_NAMES[c]} " + " / ".join(f"{quality.by_category[p][c]:.2f}" for p in quality.by_category)
            for c in CATEGORIES
        )
        + " (lexical / dense / final).",
        "",
        f"Rerank weights of this run: similarity {settings.LONG_TERM_MEMORY_RERANK_W_SIMILARITY}, lexical "
        f"{settings.LONG_TERM_MEMORY_RERANK_W_LEXICAL}, importance {settings.LONG_TERM_MEMORY_RERANK_W_IMPORTANCE}, "
        f"confidence {settings.LONG_TERM_MEMORY_RERANK_W_CONFIDENCE}, recency {settings.LONG_TERM_MEMORY_RERANK_W_RECENCY}, "
        f"key {settings.LONG_TERM_MEMORY_RERANK_W_KEY}, period {settings.LONG_TERM_MEMORY_RERANK_W_PERIOD}, "
        f"scan limit {settings.LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT}. "
        "LoCoMo's memories all share one importance and confidence, and each is written as stated on its "
        "session's date: similarity and lexical move the ranking, and the period signal does for the "
        f"{quality.dated_questions} questions that name a day, month or year. {quality.noise_hidden} facts are hidden by the read-time noise filter in every path. "
        f"{quality.core_memories} facts are core memories (allergies, diets, medical conditions; "
        f"`extraction/core.py`): the final path injects up to {settings.LONG_TERM_MEMORY_CORE_LIMIT} of them into "
        "every answer of their user, whatever the question, as the product does.",
        "",
        "recall@6 by split (issue 13.5: tuned on conversations 0-4, reported on 5-9):",
        "",
        "| path | " + " | ".join(SPLITS) + " |",
        "|---|" + "---|" * len(SPLITS),
    ]
    lines += [
        f"| {names[p]} | " + " | ".join(f"{quality.by_split[p][s]:.3f}" for s in SPLITS) + " |"
        for p in quality.by_split
    ]
    lines.append("")
    if quality.sweep:
        lines += [
            "Sweep of the similarity/lexical weights over the same candidates (the last row: the period signal off):",
            "",
            "| w_similarity | w_lexical | w_period | "
            + " | ".join(f"recall@{k}" for k in KS)
            + " | "
            + " | ".join(f"recall@6 {s}" for s in SPLITS)
            + " |",
            "|---|---|---|" + "---|" * (len(KS) + len(SPLITS)),
        ]
        lines += [
            f"| {ws} | {wl} | {wp} | "
            + " | ".join(f"{r[k]:.3f}" for k in KS)
            + " | "
            + " | ".join(f"{split[s]:.3f}" for s in SPLITS)
            + " |"
            for (ws, wl, wp, r), split in zip(quality.sweep, quality.sweep_by_split, strict=True)
        ]
        lines.append("")
    if quality.rerank_ms:
        lines += [
            "The rerank of a question's dense candidates (up to the scan limit), p50 / p95 over the "
            f"{quality.questions} questions: "
            + "; ".join(f"{label} {p50:.2f} / {p95:.2f} ms" for label, (p50, p95) in quality.rerank_ms.items())
            + ". The period signal reads the question once and, when it names a period, each candidate's "
            "statement times.",
            "",
        ]
    return lines


def _render_speed(speed: SpeedResult, settings) -> list[str]:
    dense = speed.latency["dense (embedding + Milvus + PostgreSQL + rerank)"]
    naive = speed.latency["naive baseline (embedding + PostgreSQL rows + Python cosine)"]
    embedding = speed.latency["query embedding alone"]
    lines = [
        f"## Speed at {speed.memories:,} memories over {speed.users:,} users",
        "",
        f"Bulk-loaded in {speed.load_seconds:.0f} s (COPY into PostgreSQL, random unit vectors into Milvus, FLAT "
        "index, user_id partition key); timed once Milvus served every row from sealed segments "
        f"({speed.sealed_seconds:.0f} s after the load; searched before that, in growing segments, some calls stall "
        "for 30-120 ms). Each path ran once per question over "
        f"{dense['n']} (user, question) pairs after a warm-up; milliseconds.",
        "",
        "| path | p50 | p95 | p99 |",
        "|---|---|---|---|",
    ]
    lines += [f"| {name} | {_ms(figures)} |" for name, figures in speed.latency.items()]
    lines += [
        "",
        f"dense p95 is {dense['p95']:.1f} ms: "
        + ("within" if dense["p95"] <= DENSE_TARGET_P95_MS else "over")
        + f" issue 5's {DENSE_TARGET_P95_MS} ms target on this run; the query embedding alone has a p95 of "
        f"{embedding['p95']:.1f} ms, and its tail is what other load on the 2 cores stretches most. "
        f"dense without the query embedding: ~{dense['p50'] - embedding['p50']:.1f} ms at p50. The naive baseline "
        f"takes {naive['p50'] / dense['p50']:.1f}x the time of dense at p50 ({naive['p95'] / dense['p95']:.1f}x at p95), "
        f"and {(naive['p50'] - embedding['p50']) / max(dense['p50'] - embedding['p50'], 0.01):.1f}x without the shared "
        "embedding cost.",
        "",
        "Index sync through the real path (`sync_vectors`: embed with the local model, write Milvus, mark SYNCED), "
        "fresh texts: "
        + "; ".join(f"{per_sec:.1f} memories/s with {setup}" for setup, per_sec in speed.sync_per_sec.items())
        + f". The embedder alone does {speed.embed_per_sec:.0f} passages/s; a Milvus 2.3 flush takes ~3 s, so "
        "flushed small batches are bound by the flush, not the model.",
        "",
    ]
    return [*lines, *_render_index_choice(speed)]


def _render_index_choice(speed: SpeedResult) -> list[str]:
    """FLAT against HNSW under the user filter, and the scale at which FLAT stops fitting."""
    if not speed.hnsw:
        return []
    per_user = speed.memories // speed.users
    bigger = speed.memories * MILVUS_PARTITIONS
    lines = [
        "### Index choice and the scale at which it should change",
        "",
        f"A search filtered by user runs in the partition the user hashes to ({MILVUS_PARTITIONS} partitions by "
        "default in 2.3). FLAT scans that partition's vectors; HNSW walks a graph of each segment and skips the "
        "rows the filter rejects. What changes with scale is how many vectors a partition holds, and how small a "
        "share of them one user is.",
        "",
        f"The same {speed.memories:,} vectors were also loaded with HNSW (M 16, efConstruction 200), and both "
        "indexes again into a single partition: there the partition holds as many vectors, and a user's "
        f"{per_user} as small a share of them, as in a {MILVUS_PARTITIONS}-partition collection of "
        f"{bigger / 1e6:.1f} million vectors. Top-80 searches filtered to one user; recall against FLAT on the "
        "same layout.",
        "",
        "| layout | vectors in the partition | user's share | index | recall | hits returned (of 80) | p50 ms "
        "| p95 ms |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for label, r in speed.hnsw.items():
        layout, index = label.split(", ")
        rows = speed.memories / r["partitions"]
        lines.append(
            f"| {layout} | {rows:,.0f} | {min(1.0, per_user / rows):.2%} | {index} | {r['recall']:.3f} "
            f"| {r['hits']:.1f} | {r['p50']:.1f} | {r['p95']:.1f} |"
        )
    flat = {r["partitions"]: r for label, r in speed.hnsw.items() if label.endswith("FLAT")}
    many, one = flat[MILVUS_PARTITIONS], flat[1]
    rows_many = speed.memories / MILVUS_PARTITIONS
    growth = one["p50"] - many["p50"]
    per_row = growth / (speed.memories - rows_many)
    worst_label, worst_hnsw = min(
        ((label, r) for label, r in speed.hnsw.items() if "HNSW" in label), key=lambda item: item[1]["recall"]
    )
    lines += [
        "",
        f"Reading: allow the Milvus search ~{SEARCH_BUDGET_MS} ms, a third of dense's {DENSE_TARGET_P95_MS} ms "
        "p95 target (the query embedding and PostgreSQL + rerank take the rest, table above).",
    ]
    if growth < MEASURABLE_GROWTH_MS:
        lines[-1] += (
            f" FLAT's p50 was {many['p50']:.1f} ms with {rows_many:,.0f} vectors in the partition and "
            f"{one['p50']:.1f} ms with {speed.memories:,}: searched in sealed segments under the user filter, "
            f"it did not grow measurably (under {MEASURABLE_GROWTH_MS:.0f} ms) across a {MILVUS_PARTITIONS}x "
            f"larger partition, so nothing here extrapolates to where it reaches ~{SEARCH_BUDGET_MS} ms: not below "
            f"{speed.memories:,} vectors per partition, a {MILVUS_PARTITIONS}-partition collection of "
            f"{bigger / 1e6:.1f} million vectors. Past that, the index choice should change: {INDEX_LEVERS}."
        )
    else:
        rows_at_budget = rows_many + (SEARCH_BUDGET_MS - many["p50"]) / per_row
        lines[-1] += (
            f" FLAT's p50 grows by {per_row * 1000:.2f} ms per thousand vectors in the partition, so it reaches "
            f"~{SEARCH_BUDGET_MS} ms at ~{rows_at_budget:,.0f} vectors per partition: a {MILVUS_PARTITIONS}-partition "
            f"collection of ~{rows_at_budget * MILVUS_PARTITIONS / 1e6:.1f} million vectors (p95 gets there "
            f"sooner on a busy machine). That is where the index choice should change: {INDEX_LEVERS}."
        )
    lines[-1] += " Plain HNSW is no way out: " + (
        f"under the filter it returned as little as {worst_hnsw['recall']:.1%} of the true hits in this run "
        f"({worst_label}; the filter cuts its graph walk), and issue 5 measured a loss of 59 of 80."
        if worst_hnsw["recall"] < 0.999
        else "it kept the true hits in this run, but issue 5 measured it losing up to 59 of 80 under such a filter."
    )
    return [*lines, ""]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.bench_retrieval",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--locomo", type=Path, required=True, help="path of locomo10.json (read, never copied)")
    parser.add_argument(
        "--no-sweep",
        dest="sweep",
        action="store_false",
        help="skip reranking LoCoMo with other similarity/lexical weights",
    )
    parser.add_argument("--users", type=int, default=1000, help="users of the speed part")
    parser.add_argument("--per-user", type=int, default=100, help="memories per user of the speed part")
    parser.add_argument("--queries", type=int, default=300, help="timed questions per path")
    parser.add_argument("--skip-quality", action="store_true")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--skip-hnsw", action="store_true", help="skip the HNSW-vs-FLAT recall measurement")
    parser.add_argument("--milvus-port", type=int, default=DEFAULT_MILVUS_PORT)
    parser.add_argument(
        "--output", type=Path, default=DEFAULT_OUTPUT, help="Markdown file whose retrieval sections are replaced"
    )
    args = parser.parse_args(argv)
    if not args.skip_quality and not args.locomo.is_file():
        parser.error(f"--locomo: no such file {args.locomo}")
    # A timeout or Ctrl-C must still drop the database and stop Milvus (the `finally` of bench_stack).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    started = time.perf_counter()
    quality = speed = None
    with bench_stack(args.milvus_port) as stack:
        if not args.skip_quality:
            quality = run_quality(args.locomo, args.sweep)
        if not args.skip_speed:
            speed = run_speed(stack, args.users, args.per_user, args.queries, hnsw=not args.skip_hnsw)
        command = "python -m bench.bench_retrieval " + " ".join(sys.argv[1:] if argv is None else argv)
        sections = render(quality, speed, time.perf_counter() - started, command)
    # Each part replaces only itself: the pipeline and write sections, and parts skipped, stay.
    for heading, section in sections:
        write_section(args.output, section, heading)
    print("\n".join(section for _, section in sections))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
