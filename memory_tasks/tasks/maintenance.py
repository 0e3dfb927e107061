"""Periodic safety nets: the message rescan (R-BEAT-1)."""

from __future__ import annotations

import logging

from celery import shared_task

from config.settings import get_settings
from memory_tasks.db.claims import claim_messages_to_rescan
from memory_tasks.tasks.pipeline import message_chain

logger = logging.getLogger(__name__)

RESCAN_BATCH = 200


@shared_task(name="memory.rescan_messages", ignore_result=True)
def rescan_messages() -> int:
    """Restart the pipeline for PENDING messages whose task was lost and FAILED ones due a retry.

    Returns how many messages were claimed and re-enqueued.
    """
    settings = get_settings()
    if not settings.LONG_TERM_MEMORY_SCAN_ENABLED:
        return 0
    message_ids = claim_messages_to_rescan(
        limit=RESCAN_BATCH,
        debounce_sec=settings.LONG_TERM_MEMORY_DEBOUNCE_SEC,
        lease_sec=settings.LONG_TERM_MEMORY_CLAIM_LEASE_SEC,
        max_attempts=settings.LONG_TERM_MEMORY_MAX_ATTEMPTS,
        backoff_sec=settings.LONG_TERM_MEMORY_RETRY_BACKOFF_SEC,
    )
    for message_id in message_ids:
        message_chain(message_id).apply_async()
    if message_ids:
        logger.info("messages re-enqueued", extra={"message_ids": message_ids})
    return len(message_ids)
