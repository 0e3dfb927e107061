"""The private stack of `bench.chaos`, the faults it injects, and the supervisor that restarts what died.

`ChaosStack` starts PostgreSQL, Redis (append-only file on, so queued tasks survive a kill)
and Milvus with `memory_tasks.stack`'s own functions, on free ports of their own and with
their state in one folder, so a developer's stack (`make up`) is never touched. Each process
is a `Managed`: its current pid and how to start it again. The Celery processes of a run
(the Procfile's llm and index workers, `memory_tasks.stack.CELERY_WORKERS`, and one beat)
are added per run with that run's environment.

`Supervisor` watches every managed process from one thread each and restarts the one that
died, as systemd or Kubernetes would: the dead process's group is killed first (a worker's
orphaned pool children with it, systemd's KillMode=control-group), and a process a fault
holds down (Milvus for 30 s) is left down until the hold ends.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from bench.pipeline_stack import free_port_block
from memory_tasks.stack import (
    CELERY_WORKERS,
    MILVUS_PORT_SPAN,
    Stack,
    StackError,
    alive,
    spawn,
    start_milvus,
    start_postgres,
    start_redis,
    stop_postgres,
    stop_processes,
)

# First ports tried (the next free ones are used when taken); apart from bench_pipeline's.
PG_PORT_FROM = 55960
REDIS_PORT_FROM = 56960
MILVUS_PORT_FROM = 20100
MILVUS_LOAD_TIMEOUT = 240.0
CELERY_STOP_TIMEOUT = 15.0
POLL_SEC = 0.5
RESTART_RETRY_SEC = 2.0


@dataclass
class Managed:
    """One process of the stack: its pid now, how to start it, and what the supervisor did to it."""

    name: str
    start: Callable[[], int]
    pid: int = 0
    held_until: float = 0.0  # monotonic time before which a fault keeps it down
    restarts: int = 0
    retired: bool = False  # its run is over: stopped for good, never restarted
    lock: threading.Lock = field(default_factory=threading.Lock)

    def launch(self) -> None:
        self.pid = self.start()

    @property
    def running(self) -> bool:
        return alive(self.pid)


def _reap(pid: int) -> None:
    """Collect a dead child of ours (Redis, Milvus, Celery), so it does not stay a zombie."""
    with contextlib.suppress(ChildProcessError, OSError):
        os.waitpid(pid, os.WNOHANG)


class ChaosStack:
    """PostgreSQL, Redis and Milvus in `folder`, on free ports; Celery processes added per run."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.stack = Stack(
            dir=folder / "stack",
            log_dir=folder / "log",
            pg_port=free_port_block(PG_PORT_FROM),
            redis_port=free_port_block(REDIS_PORT_FROM),
            milvus_port=free_port_block(MILVUS_PORT_FROM, MILVUS_PORT_SPAN),
        )
        self.stack.dir.mkdir(parents=True, exist_ok=True)
        self.stack.log_dir.mkdir(parents=True, exist_ok=True)
        self.collection: str | None = None  # Milvus waits for this collection to load when restarted
        self.postgres = Managed("postgres", lambda: start_postgres(self.stack))
        self.redis = Managed("redis", lambda: start_redis(self.stack))
        self.milvus = Managed("milvus", self._start_milvus)
        self.celery: dict[str, Managed] = {}

    def _start_milvus(self) -> int:
        server = start_milvus(
            self.stack.dir / "milvus",
            self.stack.milvus_port,
            self.stack.log("milvus"),
            timeout=MILVUS_LOAD_TIMEOUT,
            collection=self.collection,
        )
        return server.pid

    @property
    def backing(self) -> list[Managed]:
        return [self.postgres, self.redis, self.milvus]

    @property
    def managed(self) -> list[Managed]:
        return [*self.backing, *self.celery.values()]

    def start(self) -> None:
        for process in self.backing:
            process.launch()

    def start_celery(self, env: dict[str, str], run: str) -> None:
        """The llm and index workers of the default layout and one beat, with `env`, logs under log/<run>/."""
        celery = [sys.executable, "-m", "celery", "-A", "memory_tasks"]
        log_dir = self.stack.log_dir / run
        commands = {name: [*celery, *args] for name, args in CELERY_WORKERS.items()}
        commands["beat"] = [*celery, "beat", "-s", str(self.folder / f"celerybeat-{run}")]
        for name, command in commands.items():
            log = log_dir / f"{name}.log"
            self.celery[name] = Managed(name, lambda command=command, log=log: spawn(command, log, env, self.folder))
            self.celery[name].launch()

    def stop_celery(self) -> None:
        processes = list(self.celery.values())
        for process in processes:
            with process.lock:  # not while its watcher restarts it
                process.retired = True
        self.celery = {}
        stop_processes([p.pid for p in processes], CELERY_STOP_TIMEOUT)

    def stop(self) -> None:
        """Everything, Celery first; PostgreSQL with a fast shutdown."""
        self.stop_celery()
        stop_processes([self.milvus.pid, self.redis.pid], 10.0)
        if self.postgres.running:
            stop_postgres(self.stack, self.postgres.pid)

    # --- faults ----------------------------------------------------------------------------------

    def kill_main(self, name: str) -> str:
        """kill -9 of a Celery process's main process (its pool children are orphaned)."""
        pid = self.celery[name].pid
        os.kill(pid, signal.SIGKILL)
        return f"kill -9 {name} main process {pid}"

    def kill_pool_child(self, name: str) -> str:
        """kill -9 of one pool child of a worker (the main replaces it)."""
        children = psutil.Process(self.celery[name].pid).children()
        if not children:
            return f"{name} had no pool child to kill"
        os.kill(children[0].pid, signal.SIGKILL)
        return f"kill -9 {name} pool child {children[0].pid}"

    def kill_redis(self) -> str:
        os.kill(self.redis.pid, signal.SIGKILL)
        return f"kill -9 redis {self.redis.pid}"

    def stop_postgres_immediately(self) -> str:
        """SIGQUIT to the postmaster: PostgreSQL's immediate shutdown (pg_ctl stop -m immediate)."""
        os.kill(self.postgres.pid, signal.SIGQUIT)
        return f"immediate stop of postgres {self.postgres.pid}"

    def kill_milvus(self, hold_sec: float) -> str:
        """kill -9 of Milvus (its whole group), kept down `hold_sec` s before the supervisor restarts it."""
        self.milvus.held_until = time.monotonic() + hold_sec
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.milvus.pid, signal.SIGKILL)
        return f"kill -9 milvus {self.milvus.pid}, down for {hold_sec:.0f} s"


class Supervisor:
    """One watcher thread per managed process: a dead one is cleaned up and started again."""

    def __init__(self, stack: ChaosStack, log: Callable[[str], None]) -> None:
        self.stack = stack
        self.log = log
        self._stop = threading.Event()
        self._watched: set[str] = set()
        self._threads: list[threading.Thread] = []

    def watch_all(self) -> None:
        """Start watching every managed process not watched yet (the Celery processes of a new run)."""
        for process in self.stack.managed:
            key = f"{process.name}:{id(process)}"
            if key not in self._watched:
                self._watched.add(key)
                thread = threading.Thread(
                    target=self._watch, args=(process,), name=f"watch-{process.name}", daemon=True
                )
                thread.start()
                self._threads.append(thread)

    def _watch(self, process: Managed) -> None:
        while not self._stop.wait(POLL_SEC):
            if process.retired:
                return
            if process.running or time.monotonic() < process.held_until:
                continue
            with process.lock:
                if process.retired:
                    return
                dead = process.pid
                _reap(dead)
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(dead, signal.SIGKILL)  # what it left behind (pool children)
                try:
                    process.launch()
                except StackError as exc:
                    self.log(f"supervisor: {process.name} did not start again: {str(exc)[:300]}")
                    self._stop.wait(RESTART_RETRY_SEC)
                    continue
                process.restarts += 1
                self.log(f"supervisor: {process.name} (pid {dead}) died; started again as pid {process.pid}")

    def all_running(self) -> bool:
        return all(process.running for process in self.stack.managed)

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=MILVUS_LOAD_TIMEOUT)
