"""Every Prometheus series of the project, in one place (issue 15 item 2).

Two kinds:

- Counted where it happens (this process): task durations, LLM calls / tokens / errors,
  breaker openings, embedding calls, retrieval latency and fallbacks, memory writes by op.
  Workers run Celery's prefork pool, so these use prometheus_client's multiprocess mode
  when PROMETHEUS_MULTIPROC_DIR is set (each pool child writes its own file, the worker's
  main process serves their sum on MEMORY_WORKER_METRICS_PORT: `serve_worker_metrics`).
- Read at scrape time (`PipelineCollector`, served by the HTTP service's `/metrics` only,
  once per deployment): queue depth per queue from the broker, the PENDING / FAILED / DEAD
  message counts and the age of the oldest PENDING message, the DIRTY / FAILED / DEAD vector
  counts from PostgreSQL, the shared LLM breaker's state from Redis. `memory_tasks.backlog`
  does the reading; this module only turns a `PipelineSnapshot` into series.

This module imports nothing of the project, so every layer (llm.py included) may count.
Label values are small fixed sets (task names, purposes, ops, error class names): never
user ids, memory ids or text.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    start_http_server,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
# The Content-Type of `render`'s body.
CONTENT_TYPE = CONTENT_TYPE_LATEST

# Seconds: a rules-engine stage takes milliseconds, an LLM stage seconds, a sweep up to minutes.
STAGE_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300)
# The chat path: retrieval is budgeted in tens of milliseconds.
RETRIEVAL_BUCKETS = (0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5)

# prometheus_client writes into PROMETHEUS_MULTIPROC_DIR as soon as a series exists (at import,
# below), so the folder must exist first; a worker cleans out earlier runs' files at start.
if os.environ.get(MULTIPROC_ENV):
    Path(os.environ[MULTIPROC_ENV]).mkdir(parents=True, exist_ok=True)

# --- counted where it happens ---------------------------------------------------------------------

TASK_DURATION = Histogram(
    "memory_task_duration_seconds",
    "Run time of each Celery task (the pipeline's stages and the beat jobs), by final state.",
    ["task", "state"],
    buckets=STAGE_BUCKETS,
)
LLM_CALLS = Counter("memory_llm_calls_total", "chat_json calls to the chat model, by purpose.", ["purpose"])
LLM_ERRORS = Counter(
    "memory_llm_errors_total",
    "chat_json calls that raised, by purpose and error kind (LLMTransientError, LLMPermanentError, LLMOutputError).",
    ["purpose", "kind"],
)
LLM_TOKENS = Counter(
    "memory_llm_tokens_total", "Tokens the chat model reported, by purpose and direction.", ["purpose", "direction"]
)
LLM_DURATION = Histogram(
    "memory_llm_call_duration_seconds",
    "Wall time of chat_json calls (retries included), by purpose.",
    ["purpose"],
    buckets=STAGE_BUCKETS,
)
BREAKER_OPENED = Counter("memory_llm_breaker_opened_total", "Times this process opened the shared LLM breaker.")
EMBEDDING_CALLS = Counter(
    "memory_embedding_calls_total", "Embedder calls, by model and side (passage, query).", ["model", "side"]
)
EMBEDDING_TEXTS = Counter("memory_embedding_texts_total", "Texts embedded, by model and side.", ["model", "side"])
EMBEDDING_ERRORS = Counter(
    "memory_embedding_errors_total",
    "Embedder calls that raised, by model, side and error kind.",
    ["model", "side", "kind"],
)
RETRIEVAL_DURATION = Histogram(
    "memory_retrieval_duration_seconds",
    "Time of one retrieval before a reply (find_memories: search, truth, rerank).",
    buckets=RETRIEVAL_BUCKETS,
)
RETRIEVAL_FALLBACKS = Counter(
    "memory_retrieval_fallbacks_total", "Dense retrievals answered by the lexical fallback (embedder or Milvus off)."
)
MEMORY_WRITES = Counter(
    "memory_writes_total",
    "Memory changes by op, one per history row (create, upsert, append, delete, merge, absorb, confirm, "
    "expire, consolidation ops), plus dedup: a candidate redirected to an existing memory's key.",
    ["op"],
)
VECTOR_AUDIT_ROWS = Counter(
    "memory_vector_audit_rows_total",
    "SYNCED rows the vector audit compared with Milvus, by what Milvus held: held (as recorded), missing, "
    "stale (another text), duplicated (more than one row), leftover (a vector of an inactive memory).",
    ["found"],
)

# --- read at scrape time ---------------------------------------------------------------------------

# The breaker's states as gauge values (alert on == 2).
BREAKER_CLOSED, BREAKER_HALF_OPEN, BREAKER_OPEN = 0, 1, 2


@dataclass(frozen=True)
class PipelineSnapshot:
    """What the pipeline looks like now; a part is None when its source could not be read.

    `queue_depths`: queue -> messages waiting in the broker. `messages`: state -> count for
    the backlog states (PENDING, FAILED, DEAD). `oldest_pending_age_sec`: age of the oldest
    PENDING user turn (0 when none). `vectors`: state -> count for DIRTY, FAILED, DEAD.
    `breaker`: (one of BREAKER_*, consecutive failures counted).
    """

    queue_depths: dict[str, int] | None
    messages: dict[str, int] | None
    oldest_pending_age_sec: float | None
    vectors: dict[str, int] | None
    breaker: tuple[int, int] | None


class PipelineCollector(Collector):
    """The scrape-time series, from `read()` (one snapshot per scrape)."""

    def __init__(self, read: Callable[[], PipelineSnapshot]) -> None:
        self._read = read

    def describe(self) -> Iterable[Metric]:
        # Nothing: registering must not read the database (prometheus_client calls describe then).
        return []

    def collect(self) -> Iterator[Metric]:
        snapshot = self._read()
        up = GaugeMetricFamily(
            "memory_scrape_source_up", "1 when the source of these series answered this scrape.", labels=["source"]
        )
        sources = {
            "broker": snapshot.queue_depths is not None,
            "postgres": snapshot.messages is not None,
            "breaker": snapshot.breaker is not None,
        }
        for source, ok in sources.items():
            up.add_metric([source], 1.0 if ok else 0.0)
        yield up
        if snapshot.queue_depths is not None:
            depth = GaugeMetricFamily("memory_queue_depth", "Tasks waiting in each broker queue.", labels=["queue"])
            for queue, count in sorted(snapshot.queue_depths.items()):
                depth.add_metric([queue], count)
            yield depth
        if snapshot.messages is not None:
            messages = GaugeMetricFamily(
                "memory_messages", "User turns in a backlog state (PENDING, FAILED, DEAD).", labels=["state"]
            )
            for state, count in sorted(snapshot.messages.items()):
                messages.add_metric([state], count)
            yield messages
            yield GaugeMetricFamily(
                "memory_dead_letters",
                "DEAD messages: attempts used up, waiting for `requeue`.",
                value=snapshot.messages.get("DEAD", 0),
            )
        if snapshot.oldest_pending_age_sec is not None:
            yield GaugeMetricFamily(
                "memory_oldest_pending_age_seconds",
                "Age of the oldest PENDING user turn (0 when there is none).",
                value=snapshot.oldest_pending_age_sec,
            )
        if snapshot.vectors is not None:
            vectors = GaugeMetricFamily(
                "memory_vectors", "Memories whose vector is not in sync (DIRTY, FAILED, DEAD).", labels=["state"]
            )
            for state, count in sorted(snapshot.vectors.items()):
                vectors.add_metric([state], count)
            yield vectors
        if snapshot.breaker is not None:
            state, failures = snapshot.breaker
            yield GaugeMetricFamily(
                "memory_llm_breaker_state", "The shared LLM breaker: 0 closed, 1 half-open, 2 open.", value=state
            )
            yield GaugeMetricFamily(
                "memory_llm_breaker_failures",
                "Consecutive transient LLM failures counted by the breaker.",
                value=failures,
            )


# --- instrumentation helpers (one line at each place) ---------------------------------------------

_P = ParamSpec("_P")
_R = TypeVar("_R")
_task_started: dict[str, float] = {}


def task_started(task_id: str) -> None:
    """Celery's task_prerun: remember when `task_id` started in this process."""
    _task_started[task_id] = time.perf_counter()


def task_finished(task_id: str, task_name: str, state: str | None) -> float | None:
    """Celery's task_postrun: observe the run's duration; returns it in seconds (None if its start was not seen)."""
    started = _task_started.pop(task_id, None)
    if started is None:
        return None
    duration = time.perf_counter() - started
    TASK_DURATION.labels(task_name, state or "UNKNOWN").observe(duration)
    return duration


def counted_llm_call(call: Callable[_P, _R]) -> Callable[_P, _R]:
    """Decorator of llm.chat_json: calls, wall time, errors by class and reported tokens, by `purpose`."""

    @functools.wraps(call)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        purpose = str(kwargs.get("purpose", "unknown"))
        LLM_CALLS.labels(purpose).inc()
        started = time.perf_counter()
        try:
            result = call(*args, **kwargs)
        except Exception as exc:
            LLM_ERRORS.labels(purpose, type(exc).__name__).inc()
            raise
        finally:
            LLM_DURATION.labels(purpose).observe(time.perf_counter() - started)
        for direction in ("prompt", "completion"):
            tokens = getattr(result, f"{direction}_tokens", None)
            if tokens:
                LLM_TOKENS.labels(purpose, direction).inc(tokens)
        return result

    return wrapper


_EMBEDDER_SIDES = {"embed_passages": "passage", "embed_query": "query", "embed_queries": "query"}


def counted_embedder(cls: type[_R]) -> type[_R]:
    """Class decorator of an embedder: every embed_* call counted with its texts and errors, by model and side."""
    for name, side in _EMBEDDER_SIDES.items():
        setattr(cls, name, _counted_embed(getattr(cls, name), side))
    return cls


def _counted_embed(method: Callable[..., Any], side: str) -> Callable[..., Any]:
    @functools.wraps(method)
    def wrapper(self: Any, texts: Any) -> Any:
        model = str(getattr(self, "model_name", "unknown"))
        EMBEDDING_CALLS.labels(model, side).inc()
        EMBEDDING_TEXTS.labels(model, side).inc(1 if isinstance(texts, str) else len(texts))
        try:
            return method(self, texts)
        except Exception as exc:
            EMBEDDING_ERRORS.labels(model, side, type(exc).__name__).inc()
            raise

    return wrapper


def count_write(op: str) -> None:
    """One change of the write model (`MEMORY_WRITES`); counted when made, so a rolled-back transaction counts too."""
    MEMORY_WRITES.labels(op).inc()


# --- exposition -------------------------------------------------------------------------------------


def multiproc_dir() -> Path | None:
    """The multiprocess folder of this process (PROMETHEUS_MULTIPROC_DIR), or None in single-process mode."""
    value = os.environ.get(MULTIPROC_ENV)
    return Path(value) if value else None


def exposition_registry() -> CollectorRegistry:
    """The registry to serve: the sum of every process's files in multiprocess mode, else this
    process's default registry."""
    folder = multiproc_dir()
    if folder is None:
        return REGISTRY
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(folder))
    return registry


def render(extra: Collector | None = None) -> bytes:
    """The text exposition of this process's (or pool's) series, then `extra`'s (read now)."""
    body = generate_latest(exposition_registry())
    if extra is not None:
        scrape = CollectorRegistry(auto_describe=False)
        scrape.register(extra)
        body += generate_latest(scrape)
    return body


def clean_multiproc_dir(keep_pid: int) -> int:
    """Remove the files of earlier runs from the multiprocess folder (all but `keep_pid`'s); returns how many.

    Called by the worker's main process before its pool forks: counts of a previous run
    would otherwise be added to this run's (prometheus_client requires a clean folder).
    """
    folder = multiproc_dir()
    if folder is None:
        return 0
    removed = 0
    for path in folder.glob("*.db"):
        if not path.stem.endswith(f"_{keep_pid}"):
            path.unlink(missing_ok=True)
            removed += 1
    return removed


def serve_worker_metrics(port: int, address: str) -> None:
    """Serve the pool's summed series on address:port (a daemon thread of the worker's main process)."""
    start_http_server(port, addr=address, registry=exposition_registry())
