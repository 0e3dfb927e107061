"""The one way work is enqueued: every message to the workers, sent by task name (R-PIPE-1).

The API, the agent tools, retrieval, the beat jobs, the CLI and the HTTP service all call
these functions; none of them imports `memory_tasks.tasks`. Messages are built from the
names in `memory_tasks.task_names` (`app.signature(name, …)` chains, `app.send_task`), so
a process that sends work needs the configured app and nothing of the workers' code.

A message sent by name carries `ignore_result=False` unless the sender says otherwise (the
sender does not see the task's own `ignore_result`), and the worker then stores the result
in the result backend. Nobody reads those results, so every send here passes
`ignore_result=True` except where a caller may wait for the result: the last stage of a
message chain (its id is what `enqueue_turn` returns) and a consolidation.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime

from celery import chain
from celery.canvas import Signature

from config.celery import QUEUE_LLM
from config.settings import get_settings
from memory_tasks import queued, triggers
from memory_tasks.celery_app import app
from memory_tasks.task_names import (
    CONSOLIDATE_USER,
    EMBED_MEMORIES,
    EXTRACT_CANDIDATES,
    PURGE_USER_VECTORS,
    REFINE_CANDIDATES,
    RELEASE_TRIGGER,
    SYNC_INDEX_BATCH,
    TOUCH_MEMORIES,
    UPSERT_MEMORIES,
    UPSERT_VECTORS,
)

logger = logging.getLogger(__name__)


def message_chain(message_id: int) -> Signature:
    """extract -> refine -> upsert -> embed -> upsert_vectors for one message.

    Each stage gets the previous one's result; only the first is immutable (it takes the id).
    """
    return chain(
        app.signature(EXTRACT_CANDIDATES, args=(message_id,), immutable=True, ignore_result=True),
        app.signature(REFINE_CANDIDATES),
        app.signature(UPSERT_MEMORIES),
        app.signature(EMBED_MEMORIES),
        app.signature(UPSERT_VECTORS),
    )


def index_chain(memory_ids: list[int]) -> Signature:
    """embed -> upsert_vectors for memories changed outside the pipeline (tools, consolidation, expiry)."""
    return chain(
        app.signature(EMBED_MEMORIES, args=(list(memory_ids),), immutable=True, ignore_result=True),
        app.signature(UPSERT_VECTORS),
    )


def enqueue_message(message_id: int, countdown: float | None = None) -> str:
    """Start the chain of one recorded message (in `countdown` seconds, else now); returns the Celery task id.

    A countdown is a release task (`RELEASE_TRIGGER`) that sends the chain when due: a
    worker holds a task with a countdown in its own memory and runs it when due, past the
    broker's priority queues, so a burst of due extractions would run ahead of the later
    stages of started chains (issue 12 item 2); the release only sends, and the chain then
    waits its turn in the broker. The message is registered as queued first
    (`memory_tasks.queued`), so the rescan does not enqueue it again however long it waits
    in a backlog; if sending fails the registration is withdrawn.
    """
    settings = get_settings()
    queued.mark_queued(settings, [message_id])
    try:
        if countdown:
            return app.send_task(RELEASE_TRIGGER, args=(message_id,), countdown=countdown, ignore_result=True).id
        return message_chain(message_id).apply_async().id
    except BaseException:
        queued.clear_queued(settings, message_id)
        raise


def enqueue_turn_trigger(message_id: int, user_id: int, conversation_id: int, countdown: float = 0.0) -> str | None:
    """Make sure a trigger runs for the turn `message_id` in `countdown` seconds; the task id
    sent, or None when the turn joined the trigger pending for its conversation.

    One trigger per conversation waits at a time (`memory_tasks.triggers`): a turn that comes
    while one is pending moves its due time forward and sends nothing, and that trigger arms
    the follow-up its window leaves (issue 12). The joined turn is registered as queued all
    the same: the rescan leaves it to the pending trigger as it would leave a trigger of its own.
    """
    settings = get_settings()
    if not triggers.arm(settings, user_id, conversation_id, message_id, time.time() + countdown):
        queued.mark_queued(settings, [message_id])
        return None
    try:
        return enqueue_message(message_id, countdown=countdown)
    except BaseException:
        # Later turns must not join a trigger that was never sent.
        triggers.disarm(settings, user_id, conversation_id, message_id)
        raise


def enqueue_index_sync(memory_ids: list[int]) -> str:
    """Start embed -> upsert_vectors for `memory_ids` now; returns queued / deferred / not needed.

    A broker outage must not fail the caller (a tool call, a consolidation): the rows stay
    DIRTY and the beat sweep (R-BEAT-2) indexes them later, so the sync is `deferred`.
    `retry=False`: with the broker down, publishing fails at once instead of blocking.
    """
    if not memory_ids:
        return "not needed"
    try:
        index_chain(memory_ids).apply_async(retry=False)
    except Exception:  # whatever the broker raises, the sweep is the fallback
        logger.warning(
            "index sync not enqueued; the sweep will pick it up", exc_info=True, extra={"memory_ids": memory_ids}
        )
        return "deferred"
    return "queued"


def enqueue_index_batch(batches_left: int) -> None:
    """Ask for the next batch of the DIRTY/FAILED sweep; it stops after `batches_left` more."""
    app.send_task(SYNC_INDEX_BATCH, args=(batches_left,), ignore_result=True)


def enqueue_vector_purge(user_id: int, countdown: float | None = None) -> bool:
    """Ask a worker to purge a forgotten user's vectors (in `countdown` s, else now); False when the broker refused it.

    A refused purge stays pending in `forgotten_users` and the index sweep enqueues it again.
    """
    try:
        app.send_task(PURGE_USER_VECTORS, args=(user_id,), countdown=countdown, retry=False, ignore_result=True)
    except Exception:  # whatever the broker raises, the sweep is the fallback
        logger.warning("vector purge not enqueued; the sweep will retry it", exc_info=True, extra={"user_id": user_id})
        return False
    return True


def enqueue_touch(user_id: int, memory_ids: list[int], accessed_at: datetime) -> None:
    """Ask a worker to record that a read returned these memories; raises what the broker raises.

    `retry=False`: with the broker down, publishing fails at once instead of holding the reply.
    """
    app.send_task(
        TOUCH_MEMORIES, args=(user_id, list(memory_ids), accessed_at.isoformat()), retry=False, ignore_result=True
    )


def enqueue_consolidation(user_id: int, expires: float) -> None:
    """Ask for the consolidation of one user, dropped if not started within `expires` seconds.

    It goes to the llm queue: the LLM engine is slow, and the offline one embeds, so
    neither may hold up index sync.
    """
    app.send_task(CONSOLIDATE_USER, args=[user_id], expires=expires, queue=QUEUE_LLM)
