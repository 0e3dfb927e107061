"""The broker's Redis as the place for the little state every worker shares (breaker, queued chains).

Keys live under `CELERY_REDIS_KEY_PREFIX` + "memory_tasks:", beside Celery's own, so
deployments (and test runs) sharing one Redis stay apart, and a Redis that loses its data
loses this state together with the queues it describes. With a broker that is not Redis
there is no shared state: `shared_redis` returns None and its users fall back to their
single-process behaviour.
"""

from __future__ import annotations

import os
from functools import lru_cache

import redis

from config.settings import Settings

KEY_NAMESPACE = "memory_tasks:"
# Shared state is an optimisation on top of PostgreSQL's truth: never wait long for it.
SOCKET_TIMEOUT_SEC = 2.0


@lru_cache(maxsize=4)
def _client(url: str, pid: int) -> redis.Redis:
    """One client per (broker, process); `pid` keeps forked workers off the parent's sockets."""
    del pid  # only part of the cache key
    return redis.Redis.from_url(url, socket_timeout=SOCKET_TIMEOUT_SEC, socket_connect_timeout=SOCKET_TIMEOUT_SEC)


def shared_redis(settings: Settings) -> redis.Redis | None:
    """The broker's Redis, or None when the broker is not Redis."""
    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://", "unix://")):
        return None
    return _client(url, os.getpid())


def shared_key(settings: Settings, name: str) -> str:
    """The full Redis key of `name` for this deployment."""
    return f"{settings.CELERY_REDIS_KEY_PREFIX}{KEY_NAMESPACE}{name}"
