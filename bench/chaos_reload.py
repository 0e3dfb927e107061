"""How long Milvus takes to serve again after a restart, at 100k vectors written by the index sweep (issue 11 item 7).

    python -m bench.chaos_reload [--vectors 100000] [--users 1000] [--batch 4096] [--partitions 16]

On a private stack (`bench.chaos_stack.ChaosStack`), `--vectors` memory rows are created in
PostgreSQL (`--users` users, one key per row) with their vectors already in the embedding
cache (random unit vectors: the figure is about Milvus, not the embedder), then written to
Milvus by the index sweep itself (`jobs.sync_index_batch`, batches of `--batch`, into a
collection of `--partitions` partitions = MEMORY_MILVUS_NUM_PARTITIONS; the sweep's own
flush + compaction, `jobs.seal_segments`, at the end of every sweep run of
`jobs.MAX_INDEX_BATCHES_PER_RUN` batches), then sweep runs with nothing left to sync every
MEMORY_INDEX_WORKER_INTERVAL_SEC, as beat sends them, until the collection is within the sweep's
segment bound again. It prints the sealed segment counts, then times the
chat path's search (`MilvusStore.search` as `retrieval.search.vector_search` calls it: a
user's top LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT under MEMORY_MILVUS_SEARCH_TIMEOUT_SEC, each
answer checked to hold only that user's memories). Milvus is then restarted twice: a graceful
stop (as `make down`), and a kill -9 (a crash: the write-ahead log is replayed and the old
node's session waited out); each time the seconds from the start of the process until the
collection is loaded (`memory_tasks.stack.start_milvus` with the collection, as `make up`)
and a strong count query answers, then the search again. docs/reliability.md records them by hand.
"""

from __future__ import annotations

import argparse
import os
import signal
import tempfile
import time
from pathlib import Path

import numpy as np
from pymilvus import MilvusClient
from sqlalchemy import text

from bench.chaos_stack import ChaosStack
from bench.common import configure
from config.settings import Settings, get_settings
from memory_tasks import jobs
from memory_tasks.db.admin import execute_autocommit
from memory_tasks.db.migrate import upgrade_to_head
from memory_tasks.db.session import session_scope
from memory_tasks.stack import MILVUS_STOP_TIMEOUT, StackError, port_free, stop_processes
from memory_tasks.vectors.embedders import get_embedder
from memory_tasks.vectors.index import index_text, text_hash
from memory_tasks.vectors.milvus_store import get_store

COLLECTION = "reload_bench"
CONTENTS = 20  # distinct contents per key: few distinct texts, one vector per row all the same
PORT_RELEASE_SEC = 30.0
SEARCHES = 300
# Sweep runs after the backlog compact it within this (76-130 s a compaction at 100k vectors).
SETTLE_TIMEOUT_SEC = 600.0


def seed_rows(vectors: int, users: int) -> None:
    """`vectors` DIRTY memory rows over `users` users, and a cached vector for each distinct index text."""
    per_user = -(-vectors // users)
    embedder = get_embedder()
    rng = np.random.default_rng(7)
    texts = {index_text("fact", f"k-{k}", f"Note number {k % CONTENTS}") for k in range(per_user)}
    with session_scope() as session:
        session.execute(text("INSERT INTO users (id) SELECT generate_series(1, :users)"), {"users": users})
        session.execute(
            text(
                "INSERT INTO long_term_memories (user_id, memory_key, memory_type, content) "
                "SELECT u, 'k-' || k, 'fact', 'Note number ' || (k % :contents) "
                "FROM generate_series(1, :users) AS u, generate_series(0, :per_user - 1) AS k "
                "LIMIT :vectors"
            ),
            {"users": users, "per_user": per_user, "vectors": vectors, "contents": CONTENTS},
        )
        for item in texts:
            vector = rng.standard_normal(embedder.dim).astype(np.float32)
            session.execute(
                text("INSERT INTO embedding_cache (model, version, text_hash, vector) VALUES (:m, :v, :h, :vec)"),
                {
                    "m": embedder.model_name,
                    "v": get_settings().MEMORY_EMBEDDING_VERSION,
                    "h": text_hash(item),
                    "vec": (vector / np.linalg.norm(vector)).tolist(),
                },
            )


def sweep_all() -> tuple[int, int]:
    """Run the sweep until nothing is left, in runs of MAX_INDEX_BATCHES_PER_RUN batches; (rows synced, runs)."""
    synced, runs, batch = 0, 0, 0
    while True:
        # A run's last batch (batches_left 1) seals the segments, as the last batch of a beat run does.
        last = (batch + 1) % jobs.MAX_INDEX_BATCHES_PER_RUN == 0
        started = time.monotonic()
        result = jobs.sync_index_batch(batches_left=1 if last else 2)
        batch += 1
        runs += last
        if result is None:
            return synced, runs + (not last)
        synced += result["synced"]
        if last:
            print(
                f"  sweep run {runs}: {synced} rows synced, {get_store().segment_count()} sealed segments; "
                f"its last batch (with the flush and any compaction) {time.monotonic() - started:.1f} s",
                flush=True,
            )


def settle(timeout: float) -> tuple[float, int]:
    """Run the sweep with nothing left to sync every MEMORY_INDEX_WORKER_INTERVAL_SEC, as beat does, until
    its compactions bring the collection within `jobs.SEGMENTS_PER_PARTITION` sealed segments per
    partition, at most `timeout` s; returns (seconds waited, empty runs). A run waits for a compaction
    only briefly unless Milvus is far behind (`jobs.seal_segments`), so the segments a backlog left
    come down over several runs; the restarts are then timed on the collection at rest."""
    store = get_store()
    bound = jobs.SEGMENTS_PER_PARTITION * max(store.partition_count(), 1)
    interval = get_settings().MEMORY_INDEX_WORKER_INTERVAL_SEC
    started, runs = time.monotonic(), 0
    while store.segment_count() > bound and time.monotonic() - started < timeout:
        time.sleep(max(0.0, started + runs * interval - time.monotonic()))
        jobs.sync_index_batch()
        runs += 1
    return time.monotonic() - started, runs


def owners() -> dict[int, int]:
    """{memory id: user id} of every row, to check what a search returns."""
    with session_scope() as session:
        return {
            int(memory_id): int(user_id)
            for memory_id, user_id in session.execute(text("SELECT id, user_id FROM long_term_memories"))
        }


def time_searches(owner_of: dict[int, int], users: int, searches: int) -> str:
    """p50/p95 ms of the chat path's Milvus search for random users; raises if an answer is wrong."""
    settings = get_settings()
    store, dim = get_store(), get_embedder().dim
    rng = np.random.default_rng(11)
    expected = {}
    for user_id in owner_of.values():
        expected[user_id] = min(expected.get(user_id, 0) + 1, settings.LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT)
    timings = []
    for _ in range(searches):
        user_id = int(rng.integers(1, users + 1))
        query = rng.standard_normal(dim).astype(np.float32)
        started = time.perf_counter()
        hits = store.search(
            user_id,
            (query / np.linalg.norm(query)).tolist(),
            settings.LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT,
            timeout=settings.MEMORY_MILVUS_SEARCH_TIMEOUT_SEC,
        )
        timings.append((time.perf_counter() - started) * 1000)
        if len(hits) != expected[user_id] or any(owner_of[hit.memory_id] != user_id for hit in hits):
            raise RuntimeError(f"search of user {user_id}: {len(hits)} hits, expected {expected[user_id]} of theirs")
    p50, p95 = np.percentile(timings, [50, 95])
    return f"{searches} searches p50 {p50:.1f} ms, p95 {p95:.1f} ms (every answer the user's own top hits)"


def count_loaded(uri: str) -> int:
    client = MilvusClient(uri=uri)
    try:
        rows = client.query(COLLECTION, filter="", output_fields=["count(*)"], consistency_level="Strong")
        return int(rows[0]["count(*)"])
    finally:
        client.close()


def restart(stack: ChaosStack, kill: bool) -> float:
    """Stop Milvus (graceful or kill -9), start it again; seconds from the start until loaded and counted.

    Raises StackError when it is not loaded within chaos_stack's MILVUS_LOAD_TIMEOUT.
    """
    if kill:
        os.killpg(stack.milvus.pid, signal.SIGKILL)
        stop_processes([stack.milvus.pid], 5)
    else:
        stop_processes([stack.milvus.pid], MILVUS_STOP_TIMEOUT)
    deadline = time.monotonic() + PORT_RELEASE_SEC
    while not port_free(stack.stack.milvus_port) and time.monotonic() < deadline:
        time.sleep(0.2)  # a killed server's sockets are released once all its threads are gone
    started = time.monotonic()
    stack.milvus.launch()  # start_milvus waits until the collection is loaded
    count_loaded(stack.stack.milvus_uri)
    get_store.cache_clear()  # a client of the old process
    return time.monotonic() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.chaos_reload", description=__doc__.splitlines()[0])
    parser.add_argument("--vectors", type=int, default=100_000)
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--batch", type=int, default=4096, help="MEMORY_INDEX_WORKER_BATCH_SIZE of the sweep")
    parser.add_argument(
        "--partitions",
        type=int,
        default=Settings.model_fields["MEMORY_MILVUS_NUM_PARTITIONS"].default,
        help="MEMORY_MILVUS_NUM_PARTITIONS of the collection",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="mt_reload_") as folder:
        os.chdir(folder)
        stack = ChaosStack(Path(folder))
        stack.start()
        try:
            execute_autocommit(stack.stack.libpq_url("postgres"), 'CREATE DATABASE "reload"')
            configure(
                DATABASE_URL=stack.stack.database_url("reload"),
                CELERY_BROKER_URL=stack.stack.redis_url(0),
                CELERY_RESULT_BACKEND=stack.stack.redis_url(1),
                MEMORY_MILVUS_ENABLED="true",
                MEMORY_MILVUS_URI=stack.stack.milvus_uri,
                MEMORY_MILVUS_COLLECTION=COLLECTION,
                MEMORY_INDEX_WORKER_ENABLED="true",
                MEMORY_INDEX_WORKER_BATCH_SIZE=str(args.batch),
                MEMORY_MILVUS_NUM_PARTITIONS=str(args.partitions),
                MEMORY_EMBEDDING_PROVIDER="local",
            )
            stack.collection = COLLECTION
            upgrade_to_head()
            get_store().ensure_collection(get_embedder().dim)
            started = time.monotonic()
            seed_rows(args.vectors, args.users)
            print(f"{args.vectors} rows seeded in {time.monotonic() - started:.0f} s", flush=True)
            started = time.monotonic()
            synced, runs = sweep_all()
            store = get_store()
            print(
                f"sweep: {synced} rows synced in {runs} runs, {time.monotonic() - started:.0f} s; "
                f"{store.segment_count()} sealed segments as the last run ended",
                flush=True,
            )
            waited, empty_runs = settle(SETTLE_TIMEOUT_SEC)
            print(f"settled after {waited:.0f} s ({empty_runs} sweep runs with nothing to sync)", flush=True)
            print(
                f"in Milvus: {count_loaded(stack.stack.milvus_uri)} vectors, {store.partition_count()} partitions, "
                f"{store.segment_count()} sealed segments",
                flush=True,
            )
            owner_of = owners()
            print(f"before the restarts: {time_searches(owner_of, args.users, SEARCHES)}", flush=True)
            for kill, label in ((False, "graceful stop"), (True, "kill -9")):
                try:
                    seconds = restart(stack, kill=kill)
                except StackError as exc:
                    print(f"{label}: not loaded: {exc}", flush=True)
                    return 1
                print(
                    f"{label}, start until loaded: {seconds:.1f} s; {count_loaded(stack.stack.milvus_uri)} vectors, "
                    f"{get_store().segment_count()} sealed segments; {time_searches(owner_of, args.users, SEARCHES)}",
                    flush=True,
                )
        finally:
            stack.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
