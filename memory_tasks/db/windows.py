"""Debounce windows (issue 16): the turns of one user in one conversation that one extraction takes.

Every user turn is enqueued with a delayed trigger (`memory.extract_candidates` with its id).
When a trigger runs, the conversation row is locked (so window decisions of one
conversation never interleave) and the trigger's turn leads a window only if no later turn
of the conversation is still waiting: a trigger for that later turn comes after it (one
trigger waits per conversation: `memory_tasks.triggers`). A burst that never goes quiet is
cut once its oldest turn has waited `max_wait_sec`, and so is a backlog whose triggers all
run late: such an overdue window also takes the later waiting turns, up to `max_turns`,
rather than one turn per trigger. More than `max_turns` waiting turns up to the leader (a
backlog) are taken `max_turns` at a time, oldest first. The window is every waiting turn
up to the leader (and those), oldest first; each is stamped with the run id (the
trigger's task id) and the claim time, and a turn stamped by another run within the lease
is that run's. A redelivered trigger has the same task id, so it takes its window over;
a duplicate trigger, a second chat-server process or a rescan has another and finds the
turns held. PostgreSQL is the only record: a restart loses nothing.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import and_, bindparam, func, or_, select, update
from sqlalchemy.orm import Session

from memory_tasks.db.models import Conversation, Message, MessageStatus
from memory_tasks.db.session import session_scope

WAITING = (MessageStatus.PENDING.value, MessageStatus.FAILED.value)


@dataclass(frozen=True)
class Window:
    """The turns one extraction run took: `message_ids` oldest first (the leader last, unless an
    overdue window took later turns, or a backlog's oldest `max_turns` left the leader waiting:
    `claim_window`). Empty when the leader's window is not due yet: a later turn is waiting."""

    message_ids: tuple[int, ...]
    # The newest turn still waiting after the window (it needs a trigger after this one), or None.
    left_behind: int | None = None
    # More turns wait than one window takes: the next window is due now, not after a debounce.
    backlog: bool = False
    # The rows locked for it, held so that the session (which keeps loaded objects only while
    # they are referenced) does not load them again one by one (issue 12).
    rows: tuple[Message, ...] = field(default=(), compare=False, repr=False)


# The statements every trigger sends, built once with their parameters named (issue 12: building
# and caching a statement per call cost the worker more CPU than PostgreSQL spends running it).
_LOCK_CONVERSATION = select(Conversation.id).where(Conversation.id == bindparam("conversation_id")).with_for_update()
# Not held by another run: never taken, taken by this run, or its lease ended before :stale_before.
_FREE = or_(
    Message.memory_window_run.is_(None),
    Message.memory_window_run == bindparam("run_id"),
    Message.memory_claimed_at.is_(None),
    Message.memory_claimed_at < bindparam("stale_before"),
)
# The leader's turns that wait, free, for a window (FAILED ones are retried alone).
_WAITING_FOR_A_WINDOW = and_(
    Message.conversation_id == bindparam("conversation_id"),
    Message.user_id == bindparam("user_id"),
    Message.role == "user",
    Message.memory_status.in_(WAITING),
    _FREE,
    Message.memory_status != MessageStatus.FAILED.value,
)
_MEMBERS = (
    select(Message)
    .where(_WAITING_FOR_A_WINDOW, Message.id <= bindparam("leader_id"))
    .order_by(Message.id)
    .with_for_update()
)
_NEWEST_LATER = select(func.max(Message.id)).where(_WAITING_FOR_A_WINDOW, Message.id > bindparam("leader_id"))
# The turns after the leader an overdue window also takes, oldest first, at most :room of them.
_NEXT_LATER = (
    select(Message)
    .where(_WAITING_FOR_A_WINDOW, Message.id > bindparam("leader_id"))
    .order_by(Message.id)
    .limit(bindparam("room"))
    .with_for_update()
)


def lock_conversation(session: Session, conversation_id: int) -> None:
    """Serialize the window decisions of one conversation until the transaction ends.

    Sent on the session's connection: every caller locks before it changes any object, so
    there is nothing to flush first.
    """
    session.connection().execute(_LOCK_CONVERSATION, {"conversation_id": conversation_id})


def _is_free(message: Message, run_id: str, stale_before: datetime) -> bool:
    """`_FREE` for a row loaded (and locked) in this transaction."""
    return (
        message.memory_window_run is None
        or message.memory_window_run == run_id
        or message.memory_claimed_at is None
        or message.memory_claimed_at < stale_before
    )


def claim_window(
    session: Session,
    leader: Message,
    run_id: str,
    now: datetime,
    *,
    max_wait_sec: float,
    max_turns: int,
    lease_sec: float,
) -> Window | None:
    """Take the window `leader` leads for the run `run_id`.

    The window is every waiting turn up to the leader; once its oldest has waited
    `max_wait_sec` with later turns waiting, also the next of those, up to `max_turns` in all.
    More than `max_turns` waiting up to the leader (a backlog): the oldest `max_turns` of them,
    the leader left behind. An empty window (`left_behind` set): a later turn is waiting,
    fewer than `max_turns` wait and the oldest has not yet waited `max_wait_sec`, so the
    leader's window is not due. None: the leader is held by another run, or no turn waits.
    A FAILED leader is a window of its own, and FAILED turns join no other window. The
    caller holds the conversation lock (`lock_conversation`) and the leader's row lock, and
    `leader` is the row as that lock read it (its lease is checked on it, not asked again).
    """
    stale_before = now - timedelta(seconds=lease_sec)
    if not _is_free(leader, run_id, stale_before):
        return None
    if leader.memory_window_run == run_id:
        # A retry or redelivery of the run that took the window: the same window, whatever came since.
        held = list(
            session.scalars(
                select(Message.id)
                .where(Message.memory_window_run == run_id, Message.memory_status.in_(WAITING))
                .order_by(Message.id)
            )
        )
        session.execute(update(Message).where(Message.id.in_(held)).values(memory_claimed_at=now))
        return Window(message_ids=tuple(held))
    if leader.memory_status == MessageStatus.FAILED.value:
        # A turn whose last run failed is retried alone, and no other window takes it: one turn
        # the model cannot answer for (a poison turn) must not fail its neighbours again.
        members, later = [leader], None
    else:
        params = {
            "conversation_id": leader.conversation_id,
            "user_id": leader.user_id,
            "run_id": run_id,
            "stale_before": stale_before,
            "leader_id": leader.id,
        }
        members = list(session.scalars(_MEMBERS, params))
        if not members:
            return None
        if len(members) > max_turns:
            # A backlog: its oldest window goes first; the leader waits for the next trigger.
            # The rows past the window stay locked until the transaction ends; nothing else
            # takes them meanwhile (the conversation is locked too).
            taken, waiting = members[:max_turns], members[max_turns:]
            _hold(session, taken, run_id, now)
            later = session.scalar(_NEWEST_LATER, params) or waiting[-1].id
            return Window(message_ids=tuple(m.id for m in taken), left_behind=later, backlog=True, rows=tuple(taken))
        later = session.scalar(_NEWEST_LATER, params)
        quiet = later is None or len(members) == max_turns
        if not quiet:
            if members[0].created_at > now - timedelta(seconds=max_wait_sec):
                return Window(message_ids=(), left_behind=later)
            # Overdue while later turns wait: their triggers are late too (a backlog behind a slow
            # model or an outage, or a burst that never goes quiet). Cut at each trigger, every
            # window would be one turn, an extraction call each; the window takes the next
            # waiting turns up to max_turns instead, and their own triggers find them held.
            members += session.scalars(_NEXT_LATER, {**params, "room": max_turns - len(members)})
            later = session.scalar(_NEWEST_LATER, {**params, "leader_id": members[-1].id})
    _hold(session, members, run_id, now)
    return Window(
        message_ids=tuple(m.id for m in members),
        left_behind=later,
        backlog=later is not None and len(members) == max_turns,
        rows=tuple(members),
    )


def _hold(session: Session, members: list[Message], run_id: str, now: datetime) -> None:
    """Stamp the window's turns with its run and the claim time."""
    session.execute(
        update(Message)
        .where(Message.id.in_([m.id for m in members]))
        .values(memory_window_run=run_id, memory_claimed_at=now)
    )


def window_leaders(message_ids: Collection[int]) -> list[int]:
    """Of `message_ids`, the triggers their windows need: the newest waiting turn of each (user,
    conversation), and every FAILED turn (retried alone, `claim_window`)."""
    if not message_ids:
        return []
    ids = list(message_ids)
    failed = Message.memory_status == MessageStatus.FAILED.value
    newest = (
        select(func.max(Message.id))
        .where(Message.id.in_(ids), ~failed)
        .group_by(Message.user_id, Message.conversation_id)
    )
    with session_scope() as session:
        alone = session.scalars(select(Message.id).where(Message.id.in_(ids), failed))
        return sorted({*session.scalars(newest), *alone})
