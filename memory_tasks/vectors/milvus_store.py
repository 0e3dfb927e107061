"""The one module that talks to Milvus (R-VEC-1): collection, writes, deletes, filtered search.

Primary key = the PostgreSQL memory id (no auto id, so a re-run overwrites), user_id is
the partition key (MEMORY_MILVUS_NUM_PARTITIONS partitions, fixed when the collection is
created), metric COSINE. Every search, query and delete is filtered by user;
filters are only ever built from integers, never from strings.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Concatenate, ParamSpec, TypeVar

import grpc
from pymilvus import DataType, MilvusClient, MilvusException
from pymilvus.client.types import LoadState

from config.settings import get_settings
from memory_tasks.errors import PermanentError, TransientError, is_transient

logger = logging.getLogger(__name__)

# FLAT is exact: under a selective per-user filter approximate indexes (HNSW, IVF) drop
# true neighbours (measured: 21 of 80 hits on Milvus 2.3 at 100k vectors / 1k users).
INDEX_PARAMS = {"index_type": "FLAT", "metric_type": "COSINE"}
SEARCH_CONSISTENCY = "Bounded"


DELETE_ATTEMPTS = 4
DELETE_RETRY_SLEEP_SEC = 0.5
COMPACTION_POLL_SEC = 1.0
# A compaction asked for is waited on this long at most (~30 s seen for 16 small segments on a busy machine).
COMPACTION_WAIT_SEC = 120.0


class VectorStoreError(RuntimeError):
    """Milvus failed; one of the two kinds below."""


class VectorStoreTransientError(VectorStoreError, TransientError):
    """Milvus is unreachable, overloaded or failed on its side: retry later."""


class VectorStorePermanentError(VectorStoreError, PermanentError):
    """Retrying cannot help: the collection does not fit (another dimension) or Milvus refused the request."""


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _translated(
    method: Callable[Concatenate[MilvusStore, _P], _R],
) -> Callable[Concatenate[MilvusStore, _P], _R]:
    """The store method, raising VectorStoreTransientError / VectorStorePermanentError for what
    pymilvus raises (classified by error code, `memory_tasks.errors`), so callers see one kind."""

    @functools.wraps(method)
    def wrapper(self: MilvusStore, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return method(self, *args, **kwargs)
        except (MilvusException, grpc.RpcError) as exc:
            kind = VectorStoreTransientError if is_transient(exc) else VectorStorePermanentError
            raise kind(f"Milvus {method.__name__} failed: {exc}") from exc

    return wrapper


@dataclass(frozen=True)
class VectorRow:
    memory_id: int
    user_id: int
    text_hash: str
    vector: list[float]


@dataclass(frozen=True)
class VectorHit:
    memory_id: int
    score: float


@dataclass(frozen=True)
class StoredVector:
    """What Milvus holds under one memory id.

    Milvus 2.3 has lost acknowledged deletes around compactions and restarts
    (milvus-io/milvus#24234, #25512, #19074): the old row then stays beside the new one under
    the same primary key. A query returns one row per key (here the older one was seen, while
    a search scored the newer), so `text_hash` is that row's and `rows` is counted apart.
    """

    user_id: int
    text_hash: str
    rows: int = 1

    def holds(self, digest: str | None) -> bool:
        """True when Milvus holds exactly one row for the id, of the text with this hash."""
        return self.rows == 1 and self.text_hash == digest


@dataclass(frozen=True)
class Compaction:
    """A compaction asked for and waited on: `completed` False when `timeout` ran out first."""

    completed: bool
    seconds: float
    segments: int  # sealed segments once it completed (or when the wait ended)


# The most rows one query may return (Milvus' own cap on offset + limit). Without a limit, a
# query by ids gets one row per id asked, counted before the duplicates of a lost delete are
# folded into one: with one id duplicated, another id present went unreported.
QUERY_LIMIT = 16384


def _ids_filter(field: str, ids: list[int]) -> str:
    return f"{field} in [{', '.join(str(int(i)) for i in ids)}]"


class MilvusStore:
    def __init__(self, uri: str, collection: str, *, num_partitions: int | None = None) -> None:
        """`num_partitions` (default MEMORY_MILVUS_NUM_PARTITIONS): of the collection if this store
        creates it; an existing collection keeps its own."""
        self.collection = collection
        self.num_partitions = num_partitions or get_settings().MEMORY_MILVUS_NUM_PARTITIONS
        self._uri = uri
        try:
            self._client = MilvusClient(uri=uri, timeout=10)
        except Exception as exc:  # pymilvus raises several unrelated types on connect
            # Only a request Milvus classifies as wrong (a bad URI, bad credentials) is permanent.
            permanent = isinstance(exc, MilvusException) and not is_transient(exc)
            kind = VectorStorePermanentError if permanent else VectorStoreTransientError
            raise kind(f"cannot connect to Milvus at {uri}: {exc}") from exc
        self._ready_dim: int | None = None
        self._compaction_job: int | None = None  # asked for by `compact`, still running when its wait ended

    @_translated
    def ensure_collection(self, dim: int, *, timeout: float | None = None) -> None:
        """Create the collection on first use, load it after a restart, refuse another dimension.

        `timeout` bounds each call, loading included (a collection still loading after a
        restart then raises VectorStoreTransientError: the caller retries or falls back).
        """
        if self._ready_dim == dim:
            return
        client = self._client
        if client.has_collection(self.collection, timeout=timeout):
            existing = self.dimension(timeout=timeout)
            if existing != dim:
                raise VectorStorePermanentError(
                    f"Milvus collection {self.collection!r} has dimension {existing} but the embedder "
                    f"gives {dim}: run `python -m memory_tasks reindex` with a new MEMORY_MILVUS_COLLECTION"
                )
        else:
            schema = MilvusClient.create_schema(auto_id=False, enable_dynamic_field=False)
            schema.add_field("id", DataType.INT64, is_primary=True)
            schema.add_field("user_id", DataType.INT64, is_partition_key=True)
            schema.add_field("text_hash", DataType.VARCHAR, max_length=64)
            schema.add_field("vector", DataType.FLOAT_VECTOR, dim=dim)
            index_params = client.prepare_index_params()
            index_params.add_index(field_name="vector", **INDEX_PARAMS)
            client.create_collection(
                self.collection,
                schema=schema,
                index_params=index_params,
                consistency_level="Strong",
                # Every flush leaves a segment per partition written to, and a restart loads every
                # segment: Milvus 2.3's default of 64 made 1,020 segments of 100k vectors (issue 11).
                num_partitions=self.num_partitions,
            )
            logger.info(
                "milvus collection created",
                extra={"collection": self.collection, "dim": dim, "partitions": self.num_partitions},
            )
        client.load_collection(self.collection, timeout=timeout)
        self._ready_dim = dim

    @_translated
    def flush(self) -> None:
        """Seal the growing segments: what is flushed is not replayed from the log after a restart."""
        if self._client.has_collection(self.collection):
            self._client.flush(self.collection)

    @_translated
    def compact(self, timeout: float = COMPACTION_WAIT_SEC) -> Compaction | None:
        """Merge small sealed segments and purge deleted rows, waiting up to `timeout` s for it.

        Milvus compacts in the background; a wait cut short leaves it running there. While the
        compaction this store asked for last is still running, it is waited on again rather
        than another asked for: requests made while one runs merged far less
        (docs/reliability.md, "Milvus reload"). None when there is no collection.
        """
        if not self._client.has_collection(self.collection):
            return None
        started = time.monotonic()
        # Forgotten first: a job Milvus no longer knows (it restarted) must not be asked about forever.
        job, self._compaction_job = self._compaction_job, None
        state = self._client.get_compaction_state(job) if job is not None else None
        if state != "Executing":
            job = self._client.compact(self.collection)
            state = self._client.get_compaction_state(job)
        while state == "Executing":
            if time.monotonic() - started >= timeout:
                self._compaction_job = job
                break
            time.sleep(COMPACTION_POLL_SEC)
            state = self._client.get_compaction_state(job)
        return Compaction(state == "Completed", time.monotonic() - started, self.segment_count())

    @_translated
    def segment_count(self) -> int:
        """Sealed (flushed) segments of the collection: what a restart loads one by one."""
        if not self._client.has_collection(self.collection):
            return 0
        return len(self._client.list_persistent_segments(self.collection))

    @_translated
    def partition_count(self) -> int:
        """Partitions of the existing collection (0 when there is none)."""
        if not self._client.has_collection(self.collection):
            return 0
        return len(self._client.list_partitions(self.collection))

    @_translated
    def dimension(self, *, timeout: float | None = None) -> int | None:
        """The vector dimension of the existing collection, or None if there is none."""
        if not self._client.has_collection(self.collection, timeout=timeout):
            return None
        for field in self._client.describe_collection(self.collection, timeout=timeout)["fields"]:
            if field["name"] == "vector":
                return int(field["params"]["dim"])
        return None

    @_translated
    def loaded(self, *, timeout: float | None = None) -> bool | None:
        """True when the collection is loaded (searchable), False while it is not, None when it does not exist yet."""
        if not self._client.has_collection(self.collection, timeout=timeout):
            return None
        return self._client.get_load_state(self.collection, timeout=timeout)["state"] == LoadState.Loaded

    @_translated
    def replace(self, rows: list[VectorRow], *, flush: bool = True) -> None:
        """Write `rows`, replacing any vector stored under the same memory ids.

        Delete-then-insert rather than `upsert`: Milvus 2.3's upsert routes rows to the wrong
        partition when a partition key is set (the rows then vanish from filtered searches).
        `flush` seals the written segments (~3 s on Milvus 2.3): right after a bulk write,
        wasted on a handful of rows, which are searchable and durable (write-ahead log) without it.
        The insert is sent once (`retry_times=0`): pymilvus resends one whose answer was lost
        (Milvus killed after it took the rows), and Milvus 2.3 then holds two rows under each id.
        A failed insert raises instead, and the caller's retry runs this whole delete-then-insert.
        """
        if not rows:
            return
        self.ensure_collection(len(rows[0].vector))
        self._client.delete(self.collection, filter=_ids_filter("id", [r.memory_id for r in rows]))
        self._client.insert(
            self.collection,
            [{"id": r.memory_id, "user_id": r.user_id, "text_hash": r.text_hash, "vector": r.vector} for r in rows],
            retry_times=0,
        )
        if flush:
            self._client.flush(self.collection)

    @_translated
    def delete(self, memory_ids: list[int], *, flush: bool = True) -> None:
        """Remove these memories' vectors (`flush` as for `replace`), and check they are gone.

        Milvus 2.3 was seen keeping a vector after a delete by primary key in a long-lived
        collection; the delete is repeated until a strong read no longer finds the ids.
        """
        if not memory_ids or not self._client.has_collection(self.collection):
            return
        remaining = list(memory_ids)
        for attempt in range(DELETE_ATTEMPTS):
            self._client.delete(self.collection, filter=_ids_filter("id", remaining))
            if flush:
                self._client.flush(self.collection)
            remaining = sorted(self.present(remaining))
            if not remaining:
                return
            logger.warning("milvus kept deleted vectors", extra={"memory_ids": remaining, "attempt": attempt + 1})
            time.sleep(DELETE_RETRY_SLEEP_SEC * (attempt + 1))
        # Seen as a lag of Milvus 2.3 after a delete: a later attempt (or the sweep) finishes it.
        raise VectorStoreTransientError(f"Milvus still holds vectors of deleted memories {remaining}")

    @_translated
    def delete_user(self, user_id: int) -> None:
        """Remove every vector of the user, and check by a strong read that none is left.

        Repeated like `delete` (Milvus 2.3 may show deleted rows for a moment); still there
        after DELETE_ATTEMPTS: VectorStoreTransientError.
        """
        if not self._client.has_collection(self.collection):
            return
        for attempt in range(DELETE_ATTEMPTS):
            self._client.delete(self.collection, filter=f"user_id == {int(user_id)}")
            self._client.flush(self.collection)
            left = self.user_vector_ids(user_id)
            if not left:
                return
            logger.warning("milvus kept deleted vectors", extra={"user_id": user_id, "attempt": attempt + 1})
            time.sleep(DELETE_RETRY_SLEEP_SEC * (attempt + 1))
        raise VectorStoreTransientError(f"Milvus still shows {len(left)} vectors of user {user_id}")

    @_translated
    def user_vector_ids(self, user_id: int, limit: int = QUERY_LIMIT) -> list[int]:
        """Ids of the user's vectors by a strong read (every acknowledged write and delete seen)."""
        if not self._client.has_collection(self.collection):
            return []
        rows = self._client.query(
            self.collection,
            filter=f"user_id == {int(user_id)}",
            output_fields=["id"],
            limit=limit,
            consistency_level="Strong",
        )
        return [int(r["id"]) for r in rows]

    @_translated
    def search(
        self, user_id: int, vector: list[float], limit: int, *, strong: bool = False, timeout: float | None = None
    ) -> list[VectorHit]:
        """The user's nearest memories, best first (score = cosine similarity).

        `strong=True` waits until every write acknowledged so far is visible (~200 ms);
        for checks that must see the latest writes, not for the chat path. `timeout` bounds
        every call (the chat path's budget): past it, VectorStoreTransientError.
        """
        # Known to exist once ensured: skips an RPC (~3 ms) per search on the read path.
        if self._ready_dim is None and not self._client.has_collection(self.collection, timeout=timeout):
            return []
        self.ensure_collection(len(vector), timeout=timeout)
        result = self._client.search(
            self.collection,
            data=[vector],
            filter=f"user_id == {int(user_id)}",
            limit=limit,
            output_fields=["id"],
            search_params={"metric_type": "COSINE", "params": {}},
            # The collection's Strong level makes every search wait for the next time tick
            # (~200 ms, measured); Bounded answers in ~3 ms and may miss writes of the last
            # few seconds, which retrieval covers from PostgreSQL (see retrieval/search.py).
            consistency_level="Strong" if strong else SEARCH_CONSISTENCY,
            timeout=timeout,
        )
        return [VectorHit(int(hit["id"]), float(hit["distance"])) for hit in result[0]]

    @_translated
    def present(self, memory_ids: list[int]) -> set[int]:
        """Those of `memory_ids` with a vector in Milvus, by a strong read (every acknowledged write and delete seen)."""
        if not memory_ids or not self._client.has_collection(self.collection):
            return set()
        rows = self._client.query(
            self.collection,
            filter=_ids_filter("id", memory_ids),
            output_fields=["id"],
            limit=QUERY_LIMIT,
            consistency_level="Strong",
        )
        return {int(r["id"]) for r in rows}

    @_translated
    def stored(self, memory_ids: list[int]) -> dict[int, StoredVector]:
        """{memory id: what Milvus holds under it} for the ids present in Milvus, by strong reads.

        One query for the rows and one count of them; only when the count is more than the ids
        found does it look for the ids holding several rows, halving the list (a few counts more).
        The reads are not one snapshot: a write landing between them can shift a count, which
        costs the audit one needless rewrite or defers a finding to its next pass.
        """
        if not memory_ids or not self._client.has_collection(self.collection):
            return {}
        rows = self._client.query(
            self.collection,
            filter=_ids_filter("id", memory_ids),
            output_fields=["id", "user_id", "text_hash"],
            limit=QUERY_LIMIT,
            consistency_level="Strong",
        )
        found = {int(r["id"]): StoredVector(int(r["user_id"]), r["text_hash"]) for r in rows}
        surplus = self._row_count(list(found)) - len(found)
        for memory_id, count in self._ids_with_rows(sorted(found), surplus).items():
            found[memory_id] = StoredVector(found[memory_id].user_id, found[memory_id].text_hash, count)
        return found

    def _row_count(self, memory_ids: list[int]) -> int:
        """Rows under these ids, every duplicate counted (a query of the rows shows one per id)."""
        if not memory_ids:
            return 0
        result = self._client.query(
            self.collection,
            filter=_ids_filter("id", memory_ids),
            output_fields=["count(*)"],
            consistency_level="Strong",
        )
        return int(result[0]["count(*)"])

    def _ids_with_rows(self, memory_ids: list[int], surplus: int) -> dict[int, int]:
        """{id: rows} for those of `memory_ids` (each present) holding more than one row, given
        `surplus`, the rows they hold beyond one each."""
        if surplus <= 0:
            return {}
        if len(memory_ids) == 1:
            return {memory_ids[0]: 1 + surplus}
        half = memory_ids[: len(memory_ids) // 2]
        half_surplus = self._row_count(half) - len(half)
        return {
            **self._ids_with_rows(half, half_surplus),
            **self._ids_with_rows(memory_ids[len(half) :], surplus - half_surplus),
        }

    @_translated
    def drop(self) -> None:
        if self._client.has_collection(self.collection):
            self._client.drop_collection(self.collection)
        self._ready_dim = None


@lru_cache(maxsize=1)
def get_store() -> MilvusStore | None:
    """The process-wide store, or None when MEMORY_MILVUS_ENABLED is false."""
    settings = get_settings()
    if not settings.MEMORY_MILVUS_ENABLED:
        return None
    return MilvusStore(settings.MEMORY_MILVUS_URI, settings.MEMORY_MILVUS_COLLECTION)
