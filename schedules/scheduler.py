"""The beat scheduler: Celery's persistent scheduler that sends nothing unless it holds the one-beat lock (issue 15 item 5).

Celery beat has no lock of its own, so a second beat started by mistake would double every
periodic job. Ours ticks only while it holds a PostgreSQL session-level advisory lock
(`memory_tasks.db.singleton`); any other beat stands by, trying again every
BEAT_LOCK_RETRY_SEC, and takes over within seconds of the first one's death (its connection
closes, the lock goes with it). A beat whose own connection drops stops sending at its next
tick, until it holds the lock again.

Why PostgreSQL and not celery-redbeat: the database is already required and is the
pipeline's source of truth, the lock works whatever the broker (RabbitMQ too, where redbeat
would still need a Redis), and it needs no new dependency. The schedule itself stays in
`schedules/beat.py`.

`config/celery.py` makes this the app's `beat_scheduler`, so every `celery -A memory_tasks beat`
takes the lock, one started by hand included.
"""

from __future__ import annotations

import logging
from typing import Any

from celery.beat import PersistentScheduler

from config.settings import get_settings
from memory_tasks.db.singleton import SingletonLock

logger = logging.getLogger(__name__)

# Second int of the lock (memory_tasks.db.singleton's namespace): the beat.
BEAT_LOCK_KEY = 1
# How often a standing-by beat tries to take the lock: the longest a dead beat's jobs pause.
BEAT_LOCK_RETRY_SEC = 5.0


class LockedScheduler(PersistentScheduler):
    """Sends the due entries only while this process holds the beat lock; otherwise waits and retries."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._lock = SingletonLock(get_settings().DATABASE_URL, BEAT_LOCK_KEY)
        self._leading: bool | None = None
        super().__init__(*args, **kwargs)

    def tick(self, *args: Any, **kwargs: Any) -> float:
        """Seconds until the next tick: Celery's answer when we hold the lock (entries sent), else the retry wait."""
        held = self._lock.held()
        if held is not self._leading:  # log each change of role once (None: not known yet)
            self._leading = held
            if held:
                logger.info("beat lock acquired: this beat schedules the periodic jobs")
            else:
                logger.warning("beat lock held elsewhere (or the database is unreachable): standing by")
        if not held:
            return min(BEAT_LOCK_RETRY_SEC, self.max_interval)
        return super().tick(*args, **kwargs)

    def close(self) -> None:
        super().close()
        self._lock.release()
