"""Debounce triggers a restarted Redis still lists as delivered go back to their queue at once.

A worker holds a task with a countdown (every debounce trigger) in its own memory,
unacknowledged, until it is due. When Redis restarts, every connection to it dies with it,
and the worker drops what it held; a Redis that kept its data (AOF) still lists those
tasks as delivered, so they would come back only after the visibility timeout (900 s by
default), and their turns would wait that long. At each (re)connection the worker gives
back every `memory.release_trigger` delivered before this Redis process started: no live
connection can hold it any more. Only triggers: one that already ran only sends its chain
again, which finds the turns taken (`db.windows`); other tasks (a stage's retry with a
countdown) may still be running and are left to the visibility timeout and the rescan.
docs/reliability.md, "A Redis kill took the llm worker down with it".
"""

from __future__ import annotations

import json
import logging
import time

from celery import bootsteps

from memory_tasks.task_names import RELEASE_TRIGGER

logger = logging.getLogger(__name__)


def _is_trigger(raw: bytes | str) -> bool:
    """Whether a stored delivery ([message, exchange, routing key]) is a debounce trigger."""
    try:
        return json.loads(raw)[0]["headers"]["task"] == RELEASE_TRIGGER
    except (ValueError, LookupError, TypeError):
        return False


def restore_held_triggers(channel) -> int:
    """Give back to their queue the triggers delivered before this Redis process started; returns
    how many. `channel`: a kombu Redis channel (its QoS keeps the delivered set)."""
    qos = channel.qos
    # A client of its own: `channel.client`'s connection is the one the worker's poller reads its
    # BRPOP replies from, and a command sent on it mixes the replies up (the worker then exits).
    with channel.conn_or_acquire() as client:
        # Whole seconds of uptime, and the delivering workers' clocks: a trigger delivered in the
        # first second or so of this Redis may be given back too, and then runs twice (the second
        # run finds the turns taken). With the workers' clocks in step, none delivered before it
        # started is missed.
        started_at = time.time() - float(client.info("server")["uptime_in_seconds"])
        restored = 0
        # ZRANGE … BYSCORE, not ZRANGEBYSCORE: kombu adds CELERY_REDIS_KEY_PREFIX to the former only.
        for tag in client.zrange(qos.unacked_index_key, "-inf", started_at, byscore=True):
            raw = client.hget(qos.unacked_key, tag)
            if raw is not None and _is_trigger(raw):
                qos.restore_by_tag(tag.decode() if isinstance(tag, bytes) else tag, client=client, leftmost=True)
                restored += 1
    return restored


class RestoreHeldTriggers(bootsteps.StartStopStep):
    """A consumer step: `restore_held_triggers` at each connection to the broker (Redis only)."""

    requires = ("celery.worker.consumer.connection:Connection",)

    def start(self, consumer) -> None:
        if consumer.connection is None or consumer.connection.transport.driver_type != "redis":
            return
        try:
            restored = restore_held_triggers(consumer.connection.default_channel)
        except Exception:  # the visibility timeout still brings them back
            logger.warning("held triggers not restored", exc_info=True)
            return
        if restored:
            logger.warning("triggers held before a Redis restart restored", extra={"restored": restored})
