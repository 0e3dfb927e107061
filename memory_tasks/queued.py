"""Which messages have a pipeline task waiting in a queue, so the rescan does not enqueue them twice.

A message's chain is *queued* from the moment a stage task is sent (enqueue, a hand-over
to the next stage, a retry with countdown) until a worker picks it up; while it runs, the
claim lease (stamped at pick-up) protects it. The register is one sorted set in the
broker's Redis (message id -> time it was queued): it lives and dies with the queues it
describes, so a Redis that lost its data lost these entries too and the rescan restarts
those messages once their lease is over. An entry older than the queue bound
(`Settings.queue_max_age_sec`: LONG_TERM_MEMORY_QUEUE_MAX_AGE_SEC, by default the broker's
visibility timeout) no longer protects its message (the task is taken as lost): a task held
by a worker killed with -9 is restarted by the rescan no later than Redis would give it back.
See docs/reliability.md, "Duplicate chains".
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable

import redis.exceptions

from config.settings import Settings
from memory_tasks.broker_redis import shared_key, shared_redis

logger = logging.getLogger(__name__)

NAME = "queued_messages"


def mark_queued(settings: Settings, message_ids: Iterable[int]) -> None:
    """Record that a task of each message was just sent; raises what Redis raises (as sending would)."""
    client = shared_redis(settings)
    ids = list(message_ids)
    if client is None or not ids:
        return
    now = time.time()
    client.zadd(shared_key(settings, NAME), {str(message_id): now for message_id in ids})


def clear_queued(settings: Settings, *message_ids: int) -> None:
    """The messages were picked up (their task started, or a window took them: the lease
    protects them from here), or their task was never sent."""
    client = shared_redis(settings)
    if client is None or not message_ids:
        return
    try:
        client.zrem(shared_key(settings, NAME), *(str(message_id) for message_id in message_ids))
    except redis.exceptions.RedisError:
        # A stale entry only delays a rescan of these messages by at most the queue bound.
        logger.warning("queued register not updated", extra={"message_ids": list(message_ids)}, exc_info=True)


def queued_message_ids(settings: Settings) -> list[int]:
    """Ids of messages with a task queued within the queue bound (older entries are dropped)."""
    client = shared_redis(settings)
    if client is None:
        return []
    key = shared_key(settings, NAME)
    oldest = time.time() - settings.queue_max_age_sec
    pipe = client.pipeline()
    pipe.zremrangebyscore(key, "-inf", f"({oldest}")
    pipe.zrangebyscore(key, oldest, "+inf")
    return [int(member) for member in pipe.execute()[1]]
