"""Debounce windows (issue 16): the turns of one user in one conversation that one extraction takes.

Every user turn is enqueued with a delayed trigger (`memory.extract_candidates` with its id).
When a trigger runs, the conversation row is locked (so window decisions of one
conversation never interleave) and the trigger's turn leads a window only if no later turn
of the conversation is still waiting: that later turn's own trigger comes after it. A burst
that never goes quiet is cut once its oldest turn has waited `max_wait_sec`, and so is a
backlog whose triggers all run late: such an overdue window also takes the later waiting
turns, up to `max_turns`, rather than one turn per trigger. The window is every waiting turn
up to the leader (and those), oldest first; each is stamped with the run id (the
trigger's task id) and the claim time, and a turn stamped by another run within the lease
is that run's. A redelivered trigger has the same task id, so it takes its window over;
a duplicate trigger, a second chat-server process or a rescan has another and finds the
turns held. PostgreSQL is the only record: a restart loses nothing.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, and_, func, or_, select, update
from sqlalchemy.orm import Session

from memory_tasks.db.models import Conversation, Message, MessageStatus
from memory_tasks.db.session import session_scope

WAITING = (MessageStatus.PENDING.value, MessageStatus.FAILED.value)


@dataclass(frozen=True)
class Redirect:
    """More than a window's worth of turns is waiting: `message_id` (the last turn of the
    oldest full window) leads the next window, not the trigger that found them."""

    message_id: int


@dataclass(frozen=True)
class Window:
    """The turns one extraction run took: `message_ids` oldest first (the leader last, unless an
    overdue window took later turns: `claim_window`); `newly_taken` those it took now (not the
    leader, nor turns a retry of the run took before)."""

    leader_id: int
    message_ids: tuple[int, ...]
    newly_taken: tuple[int, ...]
    # The newest turn still waiting after the window (its trigger may have passed it by), or None.
    left_behind: int | None = None


def lock_conversation(session: Session, conversation_id: int) -> None:
    """Serialize the window decisions of one conversation until the transaction ends."""
    session.execute(select(Conversation.id).where(Conversation.id == conversation_id).with_for_update())


def _free(run_id: str, now: datetime, lease_sec: float) -> ColumnElement[bool]:
    """Not held by another run: never taken, taken by this run, or its lease is over."""
    return or_(
        Message.memory_window_run.is_(None),
        Message.memory_window_run == run_id,
        Message.memory_claimed_at.is_(None),
        Message.memory_claimed_at < now - timedelta(seconds=lease_sec),
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
) -> Window | Redirect | None:
    """Take the window `leader` leads for the run `run_id`, or say who leads instead.

    The window is every waiting turn up to the leader; once its oldest has waited
    `max_wait_sec` with later turns waiting, also the next of those, up to `max_turns` in all.
    None: the leader is held by another run, or a later turn is waiting (its trigger comes
    later), fewer than `max_turns` wait and the oldest has not yet waited `max_wait_sec`. Redirect: more than `max_turns` wait
    up to the leader (a backlog), so the oldest `max_turns` go first, led by the last of
    them. A FAILED leader is a window of its own, and FAILED turns join no other window. The
    caller holds the conversation lock (`lock_conversation`) and the leader's row lock.
    """
    free = _free(run_id, now, lease_sec)
    waiting = and_(
        Message.conversation_id == leader.conversation_id,
        Message.user_id == leader.user_id,
        Message.role == "user",
        Message.memory_status.in_(WAITING),
        free,
    )
    if session.scalar(select(func.count()).where(Message.id == leader.id, free)) == 0:
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
        return Window(leader_id=leader.id, message_ids=tuple(held), newly_taken=())
    if leader.memory_status == MessageStatus.FAILED.value:
        # A turn whose last run failed is retried alone, and no other window takes it: one turn
        # the model cannot answer for (a poison turn) must not fail its neighbours again.
        members, later = [leader], None
    else:
        waiting = and_(waiting, Message.memory_status != MessageStatus.FAILED.value)
        members = list(
            session.scalars(
                select(Message).where(waiting, Message.id <= leader.id).order_by(Message.id).with_for_update()
            )
        )
        if not members:
            return None
        if len(members) > max_turns:
            return Redirect(members[max_turns - 1].id)
        later = session.scalar(select(func.max(Message.id)).where(waiting, Message.id > leader.id))
        quiet = later is None or len(members) == max_turns
        if not quiet:
            if members[0].created_at > now - timedelta(seconds=max_wait_sec):
                return None
            # Overdue while later turns wait: their triggers are late too (a backlog behind a slow
            # model or an outage, or a burst that never goes quiet). Cut at each trigger, every
            # window would be one turn, an extraction call each; the window takes the next
            # waiting turns up to max_turns instead, and their own triggers find them held.
            members += session.scalars(
                select(Message)
                .where(waiting, Message.id > leader.id)
                .order_by(Message.id)
                .limit(max_turns - len(members))
                .with_for_update()
            )
            later = session.scalar(select(func.max(Message.id)).where(waiting, Message.id > members[-1].id))
    newly_taken = tuple(m.id for m in members if m.id != leader.id and m.memory_window_run != run_id)
    session.execute(
        update(Message)
        .where(Message.id.in_([m.id for m in members]))
        .values(memory_window_run=run_id, memory_claimed_at=now)
    )
    return Window(
        leader_id=leader.id, message_ids=tuple(m.id for m in members), newly_taken=newly_taken, left_behind=later
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
