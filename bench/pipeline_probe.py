"""Counters for `bench.bench_pipeline`, taken where the work happens, without changing memory_tasks.

    celery -A bench.pipeline_probe worker ...    the project's own Celery app, counters installed

Three things are counted in every process that installs the probe:
- `sql`: statements SQLAlchemy sends to PostgreSQL (its `before_cursor_execute` event);
- `embed_requests` / `embed_texts`: calls into the embedding model and the texts in them
  (the model classes' `embed_*` methods, wrapped; the PostgreSQL embedding cache sits in
  front of them, so only texts the cache lacks get here);
- `embed_repeats`: texts the model had already embedded before for the same model and side
  (passage or query), in any process of the run.

Before each task it empties the process's vector LRU (`vectors.index.PROCESS_VECTORS`) when
the bench has started a new cache epoch (`new_cache_epoch`): phases of one mode share
LoCoMo's texts, and a worker must not find in memory the vectors an earlier phase made.

It also records which extraction run took each turn's debounce window (`claim_window`'s
answers, the run id being the extraction task's id) in the Redis hash
BENCH_PROBE_KEY + WINDOWS_SUFFIX, so the bench knows when a turn became retrievable when
another turn's trigger took it.

A worker process adds what each task counted to the Redis hash BENCH_PROBE_KEY at
BENCH_PROBE_URL after the task ran, under "<task name>|<counter>", so the bench reads the
figures per stage. The bench process installs the same counters for its in-process loop
and reads them with `LOCAL.take()`.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections import Counter
from collections.abc import Callable
from typing import Any

from celery.signals import task_postrun, task_prerun
from sqlalchemy import event
from sqlalchemy.engine import Engine

from memory_tasks import pipeline
from memory_tasks.db.windows import Window
from memory_tasks.vectors import embedders
from memory_tasks.vectors.index import PROCESS_VECTORS

COUNTERS = ("sql", "embed_requests", "embed_texts", "embed_repeats")
PROBE_URL_VAR = "BENCH_PROBE_URL"
PROBE_KEY_VAR = "BENCH_PROBE_KEY"
# Digests of every text embedded in the run, to find texts embedded twice across processes.
SEEN_SUFFIX = ":seen"
# {message id: id of the extraction run whose window took it}.
WINDOWS_SUFFIX = ":windows"
# A counter the bench raises when a phase starts with empty embedding caches.
EPOCH_SUFFIX = ":cache-epoch"


class Counts:
    """What this process counted since the last `take`."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.digests: list[str] = []

    def statement(self, *_: Any) -> None:
        self.counts["sql"] += 1

    def embedded(self, model: str, side: str, texts: list[str]) -> None:
        self.counts["embed_requests"] += 1
        self.counts["embed_texts"] += len(texts)
        self.digests += [hashlib.sha1(f"{model}|{side}|{t}".encode()).hexdigest() for t in texts]

    def take(self) -> tuple[Counter[str], list[str]]:
        """The counts and embedded-text digests since the last call; both start again from zero."""
        taken = self.counts, self.digests
        self.counts, self.digests = Counter(), []
        return taken


LOCAL = Counts()
_installed = False


def _counted(method: Callable[..., Any], side: str) -> Callable[..., Any]:
    @functools.wraps(method)
    def counted(self: Any, texts: Any) -> Any:
        batch = [texts] if isinstance(texts, str) else list(texts)
        if batch:
            LOCAL.embedded(self.model_name, side, batch)
        return method(self, texts)

    return counted


def _noting_windows(claim: Callable[..., Any]) -> Callable[..., Any]:
    """`claim_window`, noting in Redis which run took the turns of each window it hands out."""

    @functools.wraps(claim)
    def claim_window(session: Any, leader: Any, run_id: str, *args: Any, **kwargs: Any) -> Any:
        window = claim(session, leader, run_id, *args, **kwargs)
        if isinstance(window, Window) and window.message_ids and PROBE_URL_VAR in os.environ:
            client = _redis(os.getpid())
            client.hset(os.environ[PROBE_KEY_VAR] + WINDOWS_SUFFIX, mapping=dict.fromkeys(window.message_ids, run_id))
        return window

    return claim_window


def install() -> None:
    """Count SQL statements and embedding calls of this process into LOCAL (once per process)."""
    global _installed
    if _installed:
        return
    _installed = True
    event.listen(Engine, "before_cursor_execute", LOCAL.statement)
    for model_class in (embedders.LocalE5Embedder, embedders.OpenAIEmbedder):
        model_class.embed_passages = _counted(model_class.embed_passages, "passage")
        model_class.embed_queries = _counted(model_class.embed_queries, "query")
        model_class.embed_query = _counted(model_class.embed_query, "query")
    pipeline.claim_window = _noting_windows(pipeline.claim_window)


class LocalSeen:
    """Texts embedded so far by the bench process itself: `repeats` counts those seen before."""

    def __init__(self) -> None:
        self._seen: set[str] = set()

    def repeats(self, digests: list[str]) -> int:
        repeated = 0
        for digest in digests:
            repeated += digest in self._seen
            self._seen.add(digest)
        return repeated


@functools.cache
def _redis(pid: int) -> Any:
    """A Redis client for this process (`pid` keeps forked pool children off the parent's socket)."""
    del pid  # only part of the cache key
    import redis

    return redis.Redis.from_url(os.environ[PROBE_URL_VAR])


def new_cache_epoch(client: Any, key: str) -> None:
    """Start a new cache epoch for the workers reporting under `key`, and empty this process's vector LRU."""
    client.incr(key + EPOCH_SUFFIX)
    PROCESS_VECTORS.clear()


_epoch_seen: list[bytes | None] = [None]


def _forget_vectors_of_earlier_phases(**_: Any) -> None:
    """Before a task: empty the vector LRU when the bench started a new cache epoch since the last task.

    One Redis GET per task (~0.1 ms), which the in-process loop does not pay.
    """
    epoch = _redis(os.getpid()).get(os.environ[PROBE_KEY_VAR] + EPOCH_SUFFIX)
    if epoch != _epoch_seen[0]:
        PROCESS_VECTORS.clear()
        _epoch_seen[0] = epoch


def _report(sender: Any = None, **_: Any) -> None:
    """After a task: add its counts to the run's Redis hash, per task name."""
    counts, digests = LOCAL.take()
    key = os.environ[PROBE_KEY_VAR]
    client = _redis(os.getpid())
    if digests:
        added = client.sadd(key + SEEN_SUFFIX, *digests)
        counts["embed_repeats"] += len(digests) - added
    pipe = client.pipeline(transaction=False)
    for counter, value in counts.items():
        pipe.hincrby(key, f"{sender.name}|{counter}", value)
    pipe.execute()


def read_windows(client: Any, key: str) -> dict[int, str]:
    """{message id: the extraction run (task id) whose window took it} noted by the workers under `key`."""
    return {int(message): run.decode() for message, run in client.hgetall(key + WINDOWS_SUFFIX).items()}


def read_counts(client: Any, key: str) -> dict[str, Counter[str]]:
    """{task name: Counter of COUNTERS} reported by the workers so far under `key`."""
    by_task: dict[str, Counter[str]] = {}
    for field, value in client.hgetall(key).items():
        name, counter = field.decode().rsplit("|", 1)
        by_task.setdefault(name, Counter())[counter] = int(value)
    return by_task


def __getattr__(name: str) -> Any:
    """`app` for `celery -A bench.pipeline_probe`: the project's app, with the counters reporting."""
    if name == "app":
        from memory_tasks.celery_app import app

        install()
        task_prerun.connect(_forget_vectors_of_earlier_phases, weak=False)
        task_postrun.connect(_report, weak=False)
        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
