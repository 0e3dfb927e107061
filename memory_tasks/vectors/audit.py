"""The vector audit: SYNCED rows checked against Milvus, a batch at the end of each sweep run (R-VEC-4).

For every SYNCED row PostgreSQL records the text whose vector Milvus holds (`vector_text_hash`;
none for an inactive row, whose vector was removed). Milvus 2.3 can lose an acknowledged delete
around a compaction or a restart (milvus-io/milvus#24234, #25512, #19074): the old row comes
back beside the new one under the same id, and a search may score the memory by a text it no
longer says, or find a memory that is gone. Nothing else would notice: the row is SYNCED and
no sync touches it again (one `make chaos` run ended with such a row, docs/reliability.md).

Each run reads the SYNCED rows not checked since their last sync first, then those checked
longest ago, and compares them with Milvus by one strong read. A row Milvus does not hold as
recorded goes back to DIRTY, by compare-and-set on the revision read (a row edited meanwhile
is its own sync's to settle), and the sweep's next batch writes it again: `replace` removes
every row of the id before it inserts one, `delete` checks the vector is gone.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass

from sqlalchemy import Row, select, tuple_, update
from sqlalchemy.orm import Session

from config.settings import get_settings
from memory_tasks import metrics
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import LongTermMemory, VectorStatus
from memory_tasks.db.session import session_scope
from memory_tasks.vectors.milvus_store import MilvusStore, StoredVector, get_store

logger = logging.getLogger(__name__)

HELD = "held"
MISSING, STALE, DUPLICATED, LEFTOVER = "missing", "stale", "duplicated", "leftover"
NOT_HELD = (MISSING, STALE, DUPLICATED, LEFTOVER)
# Logged (a warning) with the ids sent back and how many of them of each finding; bench/chaos.py sums these lines.
NOT_HELD_LOG = "vector audit: milvus did not hold rows as recorded"


@dataclass(frozen=True)
class AuditResult:
    """`checked`: SYNCED rows compared with Milvus. `found`: how many of them Milvus held as
    recorded (`held`) or not (`missing`, `stale`, `duplicated`, `leftover`). `mended`: the ids
    sent back to DIRTY (those not held, less any that changed meanwhile)."""

    checked: int
    found: dict[str, int]
    mended: list[int]


def finding(active: bool, recorded_hash: str | None, stored: StoredVector | None) -> str:
    """What Milvus holds for one SYNCED row, against what PostgreSQL records.

    `held` when it is as recorded: exactly one row of the recorded text for an active memory,
    nothing for an inactive one. Otherwise `missing` (no row), `duplicated` (more than one row
    under the id), `stale` (one row of another text) or `leftover` (a row of an inactive memory).
    """
    if not active:
        return HELD if stored is None else LEFTOVER
    if stored is None:
        return MISSING
    if stored.rows > 1:
        return DUPLICATED
    return HELD if stored.holds(recorded_hash) else STALE


def _due(session: Session, limit: int) -> list[Row]:
    """Up to `limit` SYNCED rows: never checked since their sync first (oldest id first), then
    those checked longest ago. Both reads use the partial index ix_ltm_vector_audit."""
    columns = (LongTermMemory.id, LongTermMemory.revision, LongTermMemory.is_active, LongTermMemory.vector_text_hash)
    synced = LongTermMemory.vector_status == VectorStatus.SYNCED.value
    rows = list(
        session.execute(
            select(*columns)
            .where(synced, LongTermMemory.vector_checked_at.is_(None))
            .order_by(LongTermMemory.id)
            .limit(limit)
        )
    )
    if len(rows) < limit:
        rows += session.execute(
            select(*columns)
            .where(synced, LongTermMemory.vector_checked_at.is_not(None))
            .order_by(LongTermMemory.vector_checked_at)
            .limit(limit - len(rows))
        )
    return rows


def audit_vectors(limit: int | None = None, store: MilvusStore | None = None) -> AuditResult:
    """Check up to `limit` (default MEMORY_VECTOR_AUDIT_BATCH_SIZE) SYNCED rows against Milvus and
    send those it does not hold as recorded back to DIRTY; the others are marked checked now.

    Raises VectorStoreError when Milvus fails (nothing is marked then); the next run tries again.
    """
    limit = get_settings().MEMORY_VECTOR_AUDIT_BATCH_SIZE if limit is None else limit
    store = store if store is not None else get_store()
    if store is None or limit <= 0:
        return AuditResult(0, {}, [])
    with session_scope() as session:
        rows = _due(session, limit)
    if not rows:
        return AuditResult(0, {}, [])
    # Read after PostgreSQL: a sync that lands in between changes the revision, or holds the row as recorded.
    stored = store.stored([row.id for row in rows])
    found = {row.id: finding(row.is_active, row.vector_text_hash, stored.get(row.id)) for row in rows}
    held = [(row.id, row.revision) for row in rows if found[row.id] == HELD]
    wrong = [(row.id, row.revision) for row in rows if found[row.id] != HELD]
    mended: list[int] = []
    with session_scope() as session:
        now = db_now(session)
        unchanged = LongTermMemory.vector_status == VectorStatus.SYNCED.value
        if held:
            session.execute(
                update(LongTermMemory)
                .where(tuple_(LongTermMemory.id, LongTermMemory.revision).in_(held), unchanged)
                .values(vector_checked_at=now)
            )
        if wrong:
            mended = sorted(
                session.scalars(
                    update(LongTermMemory)
                    .where(tuple_(LongTermMemory.id, LongTermMemory.revision).in_(wrong), unchanged)
                    .values(vector_status=VectorStatus.DIRTY.value, vector_checked_at=None, vector_claimed_at=None)
                    .returning(LongTermMemory.id)
                )
            )
    counts = Counter(found.values())
    for kind, count in counts.items():
        metrics.VECTOR_AUDIT_ROWS.labels(found=kind).inc(count)
    if mended:
        # By finding, the rows sent back only: one that changed meanwhile was found, not mended.
        logger.warning(NOT_HELD_LOG, extra={"memory_ids": mended, **Counter(found[i] for i in mended)})
    return AuditResult(len(rows), dict(counts), mended)
