"""Deferred access statistics (R-READ-5): a read only publishes; a task writes later.

The read path never writes to PostgreSQL: `enqueue_touch` publishes one small task
(`memory.touch_memories` through `memory_tasks.dispatch`, queue "index", ~1 ms) and a
worker runs the UPDATE. When the
broker fails, publishing is skipped for TOUCH_RETRY_SEC, so an outage costs statistics
and at most one failed attempt (bounded by Celery's broker_connection_timeout) per
interval, never a failed read.

Why not publish from a background thread: measured on 2 cores, a publisher thread waking
between back-to-back reads stalls the multi-threaded query embedding (dense p95 172 ms
against 39 ms publishing inline).
"""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy import func, update

from memory_tasks import dispatch
from memory_tasks.db.models import LongTermMemory
from memory_tasks.db.session import session_scope
from memory_tasks.retrieval.outage import Outage

logger = logging.getLogger(__name__)

# After a failed publish, reads skip publishing for this long (statistics are lost meanwhile).
TOUCH_RETRY_SEC = 30.0

_broker = Outage("access-stats broker", logger)


def record_access(user_id: int, memory_ids: list[int], accessed_at: datetime) -> int:
    """Stamp last_accessed_at and bump access_count of the user's memories in one UPDATE.

    Returns the number of rows updated. Ids of another user are ignored (R-SAFE-3). The
    stamp never moves backwards, so a late, redelivered task cannot age a memory.
    """
    if not memory_ids:
        return 0
    with session_scope() as session:
        result = session.execute(
            update(LongTermMemory)
            .where(LongTermMemory.user_id == user_id, LongTermMemory.id.in_(memory_ids))
            .values(
                last_accessed_at=func.greatest(
                    func.coalesce(LongTermMemory.last_accessed_at, accessed_at), accessed_at
                ),
                access_count=LongTermMemory.access_count + 1,
            )
            .execution_options(synchronize_session=False)
        )
        return result.rowcount


def enqueue_touch(user_id: int, memory_ids: list[int], accessed_at: datetime) -> None:
    """Ask a worker to record this read; never raises (a broker outage is logged once).

    Sent by name, so the read path needs the Celery app but none of the task modules;
    with the broker down, publishing fails at once instead of holding the reply.
    """
    if not memory_ids or _broker.skip():
        return
    try:
        dispatch.enqueue_touch(user_id, memory_ids, accessed_at)
    except Exception as exc:  # noqa: BLE001 - any publish failure only costs statistics
        _broker.failed(exc, retry_sec=TOUCH_RETRY_SEC)
    else:
        _broker.recovered()
