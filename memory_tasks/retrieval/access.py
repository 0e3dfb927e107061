"""Deferred access statistics (R-READ-5): a read only hands off; a task writes later.

The read path never writes to PostgreSQL and never waits for the broker: `enqueue_touch`
puts the read on an in-process queue, a daemon thread publishes it as one small task
(`memory.touch_memories`, queue "index"), and a worker runs the UPDATE. A broker that is
down, or hangs on connect, only costs statistics, never reply time.
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import threading
import time
from datetime import datetime

from sqlalchemy import func, update

from memory_tasks.db.models import LongTermMemory
from memory_tasks.db.session import session_scope
from memory_tasks.retrieval.outage import Outage

logger = logging.getLogger(__name__)

TOUCH_TASK = "memory.touch_memories"

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


def _publish(user_id: int, memory_ids: list[int], accessed_at: datetime) -> None:
    """Send one touch task by name (the read path needs the Celery app, not the task modules)."""
    try:
        from memory_tasks.celery_app import app

        # retry=False: a broken broker fails this message instead of stalling the queue behind it.
        app.send_task(TOUCH_TASK, args=(user_id, memory_ids, accessed_at.isoformat()), retry=False)
    except Exception as exc:  # any publish failure only costs statistics
        _broker.failed(exc)
    else:
        _broker.recovered()


class _Publisher:
    """A bounded queue of reads and the daemon thread that publishes them, one per process.

    The thread starts on first use and again in a forked child (threads do not survive a
    fork). When the broker cannot keep up and MAX_PENDING reads wait, new ones are dropped.
    """

    MAX_PENDING = 10_000

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._reset()
        os.register_at_fork(after_in_child=self._reset)

    def _reset(self) -> None:
        self._queue: queue.Queue[tuple[int, list[int], datetime]] = queue.Queue(self.MAX_PENDING)
        self._thread: threading.Thread | None = None

    def submit(self, user_id: int, memory_ids: list[int], accessed_at: datetime) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="memory-touch-publisher", daemon=True)
                self._thread.start()
        try:
            self._queue.put_nowait((user_id, memory_ids, accessed_at))
        except queue.Full:
            _broker.failed(f"{self.MAX_PENDING} access-stat messages waiting; dropping new ones")

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            try:
                _publish(*item)
            finally:
                self._queue.task_done()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until every submitted read is published (or failed); False on timeout."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True


_publisher = _Publisher()
# A short-lived process (the CLI) still sends what it read before exiting.
atexit.register(_publisher.wait_idle, 2.0)


def enqueue_touch(user_id: int, memory_ids: list[int], accessed_at: datetime) -> None:
    """Record this read for a worker to apply later; returns at once and never raises."""
    if memory_ids:
        _publisher.submit(user_id, list(memory_ids), accessed_at)


def wait_for_touches(timeout: float = 5.0) -> bool:
    """Block until this process' pending reads are published (tests, shutdown); False on timeout."""
    return _publisher.wait_idle(timeout)
