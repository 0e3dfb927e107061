"""The beat's heartbeat: the time the beat process last sent a scheduled job, in the broker's Redis.

Celery beat has no heartbeat of its own. The Celery app connects `record_beat_tick` to
`before_task_publish` in the beat process only (`beat_init`), so the key `beat:last_tick`
(under the deployment's prefix, `broker_redis.shared_key`) moves each time a schedule entry
fires, and stops when beat dies or schedules nothing (a second beat kept out by the lock).
`python -m memory_tasks health` reads it. With a broker that is not Redis there is nowhere
shared to write it: the beat check then reports so and fails.
"""

from __future__ import annotations

import logging
import time

import redis.exceptions

from config.settings import Settings
from memory_tasks.broker_redis import shared_key, shared_redis

logger = logging.getLogger(__name__)

BEAT_TICK = "beat:last_tick"


def record_beat_tick(settings: Settings) -> None:
    """Record that beat sent a job now; a Redis failure is logged, never raised into beat."""
    client = shared_redis(settings)
    if client is None:
        return
    try:
        client.set(shared_key(settings, BEAT_TICK), repr(time.time()))
    except redis.exceptions.RedisError:
        logger.warning("beat heartbeat not recorded", exc_info=True)


def last_beat_tick(settings: Settings) -> float | None:
    """The Unix time beat last sent a job, or None when it never did (or the broker is not Redis).

    Raises what Redis raises when it cannot be read.
    """
    client = shared_redis(settings)
    if client is None:
        return None
    value = client.get(shared_key(settings, BEAT_TICK))
    return float(value) if value is not None else None
