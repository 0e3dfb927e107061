"""How far behind the pipeline is, read when Prometheus scrapes (`metrics.PipelineCollector`).

Cheap on purpose (a scrape every 15-60 s): one passive queue declare per queue on the
broker, two grouped counts over the backlog states only (PENDING / FAILED / DEAD messages,
DIRTY / FAILED / DEAD vectors: PROCESSED and SYNCED rows, the bulk, are never counted), the
oldest PENDING turn through its partial index, and two Redis reads for the breaker. Each
source that fails is left out of the snapshot (None), never raised: a scrape must answer.
"""

from __future__ import annotations

import logging

from sqlalchemy import func, select

from config.celery import ALL_QUEUES
from config.settings import Settings, get_settings
from memory_tasks.breaker import Breaker
from memory_tasks.celery_app import app
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import LongTermMemory, Message, MessageStatus, VectorStatus
from memory_tasks.db.session import session_scope
from memory_tasks.metrics import PipelineSnapshot

logger = logging.getLogger(__name__)

MESSAGE_BACKLOG = (MessageStatus.PENDING.value, MessageStatus.FAILED.value, MessageStatus.DEAD.value)
VECTOR_BACKLOG = (VectorStatus.DIRTY.value, VectorStatus.FAILED.value, VectorStatus.DEAD.value)
BROKER_TIMEOUT_SEC = 2.0


def queue_depths() -> dict[str, int]:
    """Tasks waiting in each of the project's queues (a queue the broker does not know yet: 0)."""
    depths: dict[str, int] = {}
    with app.connection_for_read() as connection:
        connection.ensure_connection(max_retries=1, timeout=BROKER_TIMEOUT_SEC)
        for queue in ALL_QUEUES:
            # A fresh channel per queue: on AMQP a passive declare of a missing queue closes its channel.
            with connection.channel() as channel:
                try:
                    depths[queue] = channel.queue_declare(queue=queue, passive=True).message_count
                except connection.channel_errors:
                    depths[queue] = 0
    return depths


def database_backlog() -> tuple[dict[str, int], float, dict[str, int]]:
    """(messages per backlog state, age in seconds of the oldest PENDING user turn or 0, vectors per backlog state)."""
    with session_scope() as session:
        messages = dict(
            session.execute(
                select(Message.memory_status, func.count())
                .where(Message.memory_status.in_(MESSAGE_BACKLOG))
                .group_by(Message.memory_status)
            ).all()
        )
        oldest = session.scalar(
            select(func.min(Message.created_at)).where(
                Message.memory_status == MessageStatus.PENDING.value, Message.role == "user"
            )
        )
        age = max(0.0, (db_now(session) - oldest).total_seconds()) if oldest is not None else 0.0
        vectors = dict(
            session.execute(
                select(LongTermMemory.vector_status, func.count())
                .where(LongTermMemory.vector_status.in_(VECTOR_BACKLOG))
                .group_by(LongTermMemory.vector_status)
            ).all()
        )
    return (
        {state: messages.get(state, 0) for state in MESSAGE_BACKLOG},
        age,
        {state: vectors.get(state, 0) for state in VECTOR_BACKLOG},
    )


def read_snapshot(settings: Settings | None = None) -> PipelineSnapshot:
    """The pipeline now; a source that fails is None in the snapshot (and logged by exception type)."""
    settings = settings or get_settings()
    depths = messages = vectors = breaker = None
    age = None
    try:
        depths = queue_depths()
    except Exception as exc:  # noqa: BLE001 - a scrape reports the broker as down, it does not fail
        logger.warning("metrics: broker unreadable", extra={"error": type(exc).__name__})
    try:
        messages, age, vectors = database_backlog()
    except Exception as exc:  # noqa: BLE001 - likewise for PostgreSQL
        logger.warning("metrics: database unreadable", extra={"error": type(exc).__name__})
    try:
        breaker = Breaker(settings).state()
    except Exception as exc:  # noqa: BLE001 - likewise for the breaker's Redis
        logger.warning("metrics: breaker state unreadable", extra={"error": type(exc).__name__})
    return PipelineSnapshot(
        queue_depths=depths, messages=messages, oldest_pending_age_sec=age, vectors=vectors, breaker=breaker
    )
