"""The per-message pipeline as plain functions (R-PIPE): the Celery tasks only call these.

extract -> refine -> upsert -> embed -> sync. Each stage takes ids and small JSON, re-reads
the truth from PostgreSQL and is idempotent: a stage run again for a message that is
already PROCESSED or SKIPPED does nothing. The extraction of a turn takes its debounce
window (`memory_tasks.db.windows`): every waiting turn of the conversation up to it, one
extraction for the whole burst (issue 16). Payloads between stages are
`{"message_id": leader id, "message_ids": [the window, oldest first], "run_id": the run holding
it, "candidates": [...], "outcomes": {turn id: [outcome json, ...]}}` (the outcomes: what was dropped so far, and why,
turn by turn; the upsert stage stores them on each turn with what it wrote, issue 17 item 2);
a stage with nothing to do returns None or [] and the chain ends there (`tasks.base`).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from sqlalchemy import bindparam, case, func, or_, select, update
from sqlalchemy.orm import Session

from config.settings import get_settings
from memory_tasks import dispatch, queued, triggers
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import Conversation, HistorySource, Message, MessageStatus
from memory_tasks.db.session import session_scope
from memory_tasks.db.windows import Window, claim_window, lock_conversation
from memory_tasks.errors import is_transient
from memory_tasks.extraction.candidates import Candidate, coerce_candidates
from memory_tasks.extraction.context import ContextWindow, context_window
from memory_tasks.extraction.engine import select_engine
from memory_tasks.extraction.filters import is_trivial
from memory_tasks.extraction.gate import screen
from memory_tasks.extraction.outcomes import (
    Outcome,
    nothing_found,
    parse_outcomes,
    read_with_burst,
    refine_drops,
    unread_statements,
)
from memory_tasks.extraction.types import ExistingMemory, TurnContext
from memory_tasks.memories.dedup import refine_shortlist, scorer_for
from memory_tasks.memories.store import WriteContext, existing_memory, lock_user
from memory_tasks.memories.write_path import write_candidates
from memory_tasks.redaction import redact

logger = logging.getLogger(__name__)

Payload = dict[str, Any]
# What became of the statements of each turn of a window, by turn id.
TurnOutcomes = dict[int, list[Outcome]]
# Refinement sees at most this many existing memories, the most similar ones first.
REFINE_EXISTING_LIMIT = 50
# States no stage changes any more (DEAD until an operator requeues the message).
FINISHED = (MessageStatus.PROCESSED.value, MessageStatus.SKIPPED.value, MessageStatus.DEAD.value)
# The stored error of a failed message is at most this long (the raw LLM output is cut).
MAX_STORED_ERROR_CHARS = 4000
LOST_RUN_NOTE = "a run did not finish (worker lost, or the hard time limit)"


def _finish(
    session: Session,
    message: Message,
    status: MessageStatus,
    note: str | None = None,
    outcomes: list[Outcome] | None = None,
) -> None:
    """Set the message's final state; `outcomes` (PROCESSED) say what became of each statement,
    and a turn that yielded none says `NOTHING_FOUND`."""
    now = db_now(session)
    if status == MessageStatus.PROCESSED:
        message.memory_outcomes = [o.to_json() for o in outcomes or [nothing_found()]]
    message.memory_status = status.value
    message.memory_error = note
    message.memory_processed_at = now
    message.updated_at = now
    # A finished turn is held by no window: requeued, it is free for the next run.
    message.memory_window_run = None
    logger.info(
        "message finished",
        extra={"message_id": message.id, "user_id": message.user_id, "status": status.value, "note": note},
    )


def recent_context(session: Session, message: Message, summary: str, max_chars: int) -> ContextWindow:
    """The conversation's summary and the turns before `message`, within `max_chars` (`context_window`):
    the newest user/assistant turns that fit, assistant text without its <think> blocks (R-PIPE-11)."""
    if max_chars <= 0:
        return ContextWindow(summary="", turns=())
    # Two columns, not 50 mapped objects: loading those cost more than the query (issue 12).
    earlier = session.execute(
        select(Message.role, Message.content)
        .where(Message.conversation_id == message.conversation_id, Message.id < message.id)
        .order_by(Message.id.desc())
        .limit(50)
    )
    turns = [{"role": turn.role, "content": turn.content} for turn in reversed(list(earlier))]
    return context_window(turns, max_chars, summary=summary)


def extract_stage(message_id: int, run_id: str | None = None) -> Payload | None:
    """Stage 1: the trigger of one turn; take its debounce window and propose candidates for it.

    `run_id` names this run (the task id: the same for a redelivery or a retry of the task);
    None means a run of its own. Returns the payload for refinement, or None when nothing
    follows: the turn is unknown or finished, not a user turn, memory is disabled (SKIPPED),
    it leads no window now (a later turn is waiting and the window is not due: `db.windows`),
    every turn of the window is trivial (SKIPPED), or nothing is worth remembering
    (PROCESSED without a refine call, R-PIPE-8).

    Turns of the conversation that came while this trigger waited sent no trigger of their
    own (`memory_tasks.triggers`); right after its window is decided, the trigger arms the
    one the turns after that window need (`_arm_follow_up`), before its extraction runs.

    The trigger does its own attempt bookkeeping (its task skips `begin_attempt` /
    `end_attempt`, docs/reliability.md): the turns of the window count one attempt each in the
    transaction that takes it, and get it back when the run ends without a fault of theirs
    (success, or a transient failure of a dependency). A trigger that leads no window, most
    of them in a burst, thus costs one transaction instead of three (issue 12).
    """
    settings = get_settings()
    run_id = run_id or f"run-{message_id}"
    taken = _take_window(message_id, run_id, settings)
    window, ids = taken.window, taken.ids
    # The payload and the bookkeeping speak for a turn the run holds: the trigger's own turn may
    # have been finished at pick-up (trivial, or out of attempts: DEAD), or left behind by a backlog.
    leader = message_id if message_id in ids else (ids[-1] if ids else message_id)
    held = StageWindow(tuple(ids), run_id)
    try:
        if taken.owner is not None:
            _arm_follow_up(message_id, taken.owner, window, settings)
        if window is not None and window.message_ids:
            # Turns that joined a trigger were registered as queued: the window picked them up.
            queued.clear_queued(settings, *window.message_ids)
        if window is None or not ids:
            return None
        logger.info("window taken", extra={"message_id": message_id, "message_ids": ids})
        payload = _extract_window(leader, taken.turn, held, settings)
    except BaseException as exc:
        if ids and is_transient(exc):
            # A dependency failed (the broker, the model, the database): not these turns' fault.
            give_back_attempt(leader, held)
        raise
    if payload is not None:
        give_back_attempt(leader, held)
    return payload


def _arm_follow_up(message_id: int, owner: _Owner, window: Window | None, settings: Any) -> None:
    """Arm the trigger that the turns after this run's window need (`memory_tasks.triggers`).

    A window left turns waiting behind it: the follow-up goes to the newest of them, at once
    for a backlog (more turns wait than one window takes), else when the newest turn that
    joined this trigger is due, else after the debounce (its own trigger may have passed it
    by). No window taken (not due yet, or this turn was finished or held by another run): the
    turns that joined this trigger while it waited get the next one, when the newest is due;
    a waiting turn that did not join it sent a trigger of its own.
    """
    pending = triggers.take(settings, owner.user_id, owner.conversation_id, message_id)
    joined = pending if pending is not None and pending.newest > message_id else None
    now = time.time()
    if window is not None and window.message_ids:
        if window.left_behind is None:
            return
        later = window.left_behind
        if window.backlog:
            due_at = now
        elif joined is not None and joined.newest >= later:
            due_at = joined.due_at
        else:
            due_at = now + settings.LONG_TERM_MEMORY_DEBOUNCE_SEC
    elif joined is not None:
        later, due_at = joined.newest, joined.due_at
    else:
        return
    # If this send fails (the broker is down), the retry finds the key taken: the turns after
    # the window then wait for the conversation's next turn or the rescan, as a failed enqueue would.
    dispatch.enqueue_turn_trigger(later, owner.user_id, owner.conversation_id, countdown=max(0.0, due_at - now))


def _extract_window(message_id: int, turn: TurnContext, held: StageWindow, settings: Any) -> Payload | None:
    """Propose candidates for the window's turns; the payload for refinement, or None when none
    is admitted (every turn is then PROCESSED, its attempt given back)."""
    ids = list(held.message_ids)
    # The engine (maybe a slow LLM call) runs outside any transaction.
    candidates = select_engine(settings.use_llm).extract(turn)
    texts = list(zip(ids, turn.user_turns, strict=True))
    admitted, screened = _screened(candidates, texts, ids, settings, "extract")
    # The rules say which clauses they would not read and why; a model's silence has no reasons.
    outcomes = {
        turn_id: ([] if settings.use_llm else unread_statements(text)) + screened[turn_id] for turn_id, text in texts
    }
    if not admitted:
        _finish_all(ids, MessageStatus.PROCESSED, _with_burst_note(outcomes))
        return None
    return {
        "message_id": message_id,
        "message_ids": ids,
        "run_id": held.run_id,
        "candidates": [c.to_json() for c in admitted],
        "outcomes": _outcomes_json(outcomes),
    }


@dataclass(frozen=True)
class _Owner:
    """The user and conversation of a turn: whose debounce trigger it is (`memory_tasks.triggers`)."""

    user_id: int
    conversation_id: int


# Built once: every trigger and every window bookkeeping asks it first (issue 12).
_OWNER_OF = select(Message.user_id, Message.conversation_id).where(Message.id == bindparam("message_id"))


def _owner_of(session: Session, message_id: int) -> _Owner | None:
    """The user and conversation of the message (None if unknown); read before any object of the session changes."""
    found = session.connection().execute(_OWNER_OF, {"message_id": message_id}).one_or_none()
    return None if found is None else _Owner(found.user_id, found.conversation_id)


@dataclass(frozen=True)
class _Taken:
    """What a trigger's transaction decided: `window` None when there is nothing to do; `ids` the
    window's turns to extract from ([] when every one was finished there); `turn` what the
    engine sees of them; `owner` None when the message is unknown."""

    owner: _Owner | None
    window: Window | None = None
    turn: TurnContext = field(default_factory=lambda: TurnContext(message=""))
    ids: list[int] = field(default_factory=list)


def _take_window(message_id: int, run_id: str, settings: Any) -> _Taken:
    """In one transaction: the checks of the trigger's own turn, then its window (`claim_window`)."""
    with session_scope() as session:
        owner = _owner_of(session, message_id)
        if owner is None:
            logger.warning("message not found", extra={"message_id": message_id})
            return _Taken(owner=None)
        lock_conversation(session, owner.conversation_id)
        message = session.get(Message, message_id, with_for_update=True)
        if message is None or message.memory_status in FINISHED:
            return _Taken(owner)
        if message.role != "user":
            _finish(session, message, MessageStatus.SKIPPED, f"role {message.role!r} is never a fact source")
            return _Taken(owner)
        if not settings.LONG_TERM_MEMORY_ENABLED:
            _finish(session, message, MessageStatus.SKIPPED, "long-term memory disabled")
            return _Taken(owner)
        now = db_now(session)
        window = claim_window(
            session,
            message,
            run_id,
            now,
            max_wait_sec=settings.LONG_TERM_MEMORY_DEBOUNCE_MAX_WAIT_SEC,
            max_turns=settings.LONG_TERM_MEMORY_DEBOUNCE_MAX_TURNS,
            lease_sec=settings.LONG_TERM_MEMORY_CLAIM_LEASE_SEC,
        )
        if window is None or not window.message_ids:
            return _Taken(owner, window)
        turns = _pick_up_window(session, window, settings.LONG_TERM_MEMORY_MAX_ATTEMPTS, now)
        if not turns:
            return _Taken(owner, window)
        summary = session.scalar(select(Conversation.summary).where(Conversation.id == owner.conversation_id)) or ""
        context = recent_context(session, turns[0], summary, settings.LONG_TERM_MEMORY_EXTRACT_CONTEXT_MAX_CHARS)
        texts = [t.content for t in turns]
        turn = TurnContext(message=texts[-1], earlier=tuple(texts[:-1]), summary=context.summary, recent=context.turns)
        return _Taken(owner, window, turn, [t.id for t in turns])


def _pick_up_window(session: Session, window: Window, max_attempts: int, now: Any) -> list[Message]:
    """The window's turns to extract from, oldest first; the others are finished here.

    A trivial turn is SKIPPED; every other turn counts one attempt, the leader's included (a
    turn that used its attempts is DEAD instead). Returns [] when no turn is left.
    """
    turns = []
    for turn_id in window.message_ids:
        turn = session.get(Message, turn_id)
        if turn is None:
            continue
        if is_trivial(turn.content):
            _finish(session, turn, MessageStatus.SKIPPED, "trivial message")
            continue
        if _count_attempt(turn, max_attempts, now):
            turns.append(turn)
    return turns


def _finish_all(message_ids: list[int], status: MessageStatus, outcomes: TurnOutcomes) -> None:
    """Finish the window's turns and give back the attempt each counted when it was taken."""
    with session_scope() as session:
        # One statement, locking in id order (the window's order) as one get per turn did.
        messages = session.scalars(
            select(Message).where(Message.id.in_(message_ids)).order_by(Message.id).with_for_update()
        ).all()
        for message in messages:
            if message.memory_status not in FINISHED:
                _finish(session, message, status, None, outcomes.get(message.id))
                # After `_finish`: its clock query flushes what is pending, and a row written twice in
                # one transaction has PostgreSQL check its conversation key (FOR KEY SHARE), which
                # waits for a trigger holding the conversation while that trigger waits for the row.
                message.memory_attempts = max(message.memory_attempts - 1, 0)


def _outcomes_json(outcomes: TurnOutcomes) -> dict[str, list[dict[str, Any]]]:
    return {str(turn_id): [o.to_json() for o in items] for turn_id, items in outcomes.items()}


def _payload_outcomes(payload: Payload, turn_ids: list[int]) -> TurnOutcomes:
    """The valid outcomes an untrusted payload carries for each of `turn_ids` (none for any other turn)."""
    items = payload.get("outcomes")
    items = items if isinstance(items, dict) else {}
    return {turn_id: parse_outcomes(items.get(str(turn_id))) for turn_id in turn_ids}


def _with_burst_note(outcomes: TurnOutcomes) -> TurnOutcomes:
    """`outcomes`, where a turn of a burst with none of its own says it was read with the others
    (its statements may live in another turn's memory), instead of "nothing found"."""
    if len(outcomes) < 2:
        return outcomes
    ids = list(outcomes)
    return {
        turn_id: items or [read_with_burst([i for i in ids if i != turn_id])] for turn_id, items in outcomes.items()
    }


def window_ids(payload: Any) -> list[int]:
    """The turns a stage payload speaks for: its `message_ids`, else its `message_id` ([] if neither)."""
    if not isinstance(payload, dict):
        return []
    ids = payload.get("message_ids")
    if isinstance(ids, list) and ids and all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
        return list(ids)
    message_id = payload.get("message_id")
    return [message_id] if isinstance(message_id, int) and not isinstance(message_id, bool) else []


# The longest run id a payload may name: a task id (`Message.memory_window_run`'s width).
MAX_RUN_ID_CHARS = 64


@dataclass(frozen=True)
class StageWindow:
    """What a stage knows of the window it runs for, without reading the database: its turns
    (`message_ids`, empty when unknown) and the run holding them (`run_id`, None when unknown)."""

    message_ids: tuple[int, ...] = ()
    run_id: str | None = None

    @classmethod
    def of(cls, stage_arg: Any) -> StageWindow:
        """What an untrusted stage argument (a payload, or a bare message id) says of its window."""
        run_id = stage_arg.get("run_id") if isinstance(stage_arg, dict) else None
        valid_run = isinstance(run_id, str) and 0 < len(run_id) <= MAX_RUN_ID_CHARS
        return cls(tuple(window_ids(stage_arg)), run_id if valid_run else None)

    def lone_run(self, message_id: int) -> str | None:
        """The run holding `message_id` alone (a window of that one turn), or None when that is not known."""
        return self.run_id if self.message_ids == (message_id,) else None

    @property
    def shared(self) -> bool:
        """Whether the window holds several turns (the bookkeeping must then lock the conversation)."""
        return len(self.message_ids) > 1


def _existing_for_refine(session: Session, user_id: int, candidates: list[Candidate]) -> list[ExistingMemory]:
    """The user's active memories most similar to the candidates, at most REFINE_EXISTING_LIMIT."""
    memories = refine_shortlist(
        session, scorer_for(session), user_id, db_now(session), candidates, REFINE_EXISTING_LIMIT
    )
    return [existing_memory(m) for m in memories]


def refine_stage(payload: Payload | None) -> Payload | None:
    """Stage 2: keep / merge into an existing memory / reuse its key / drop, per candidate."""
    if not payload:
        return None
    settings = get_settings()
    candidates = [Candidate.from_json(c) for c in payload["candidates"]]
    ids = window_ids(payload)
    with session_scope() as session:
        turns = [m for m in (session.get(Message, i) for i in ids) if m is not None]
        turns = [m for m in turns if m.memory_status not in FINISHED]
        if not turns:
            return None
        existing = _existing_for_refine(session, turns[0].user_id, candidates)
        texts = [(m.id, m.content) for m in turns]
    refined = select_engine(settings.use_llm).refine(candidates, existing)
    admitted, screened = _screened(refined, texts, ids, settings, "refine")
    before = _by_turn(candidates, texts, ids)
    earlier = _payload_outcomes(payload, [turn_id for turn_id, _ in texts])
    outcomes = {
        turn_id: earlier[turn_id] + refine_drops(before[turn_id], refined) + screened[turn_id] for turn_id, _ in texts
    }
    return {
        "message_id": payload["message_id"],
        "message_ids": ids,
        "run_id": StageWindow.of(payload).run_id,
        "candidates": [c.to_json() for c in admitted],
        "outcomes": _outcomes_json(outcomes),
    }


def upsert_stage(payload: Payload | None) -> list[int]:
    """Stage 3: write the candidates in one transaction under the user's lock; the window -> PROCESSED.

    Returns the ids of the memories changed (to index). The user is the turns' user as
    stored in PostgreSQL, whatever the payload or an LLM said (R-SAFE-3); each candidate is
    recorded as coming from the turn of the window that states it (`_source_turn`). The
    payload is untrusted (anyone with the broker can send this task): every candidate is
    validated again (`coerce_candidates`) and passed through the gate, so hand-sent garbage
    writes nothing.
    """
    if not payload:
        return []
    message_id = payload.get("message_id") if isinstance(payload, dict) else None
    items = payload.get("candidates") if isinstance(payload, dict) else None
    if not isinstance(message_id, int) or isinstance(message_id, bool) or not isinstance(items, list):
        logger.warning("upsert payload refused", extra={"payload_type": type(payload).__name__})
        return []
    ids = window_ids(payload)
    settings = get_settings()
    with session_scope() as session:
        leader = session.execute(
            select(Message.user_id, Message.conversation_id).where(Message.id == message_id)
        ).first()
        if leader is None:
            return []
        owner = leader.user_id
        lock_user(session, owner)
        lock_conversation(session, leader.conversation_id)  # before its turns' rows (`_window_of`)
        turns = [session.get(Message, i, with_for_update=True) for i in ids]
        # Only the leader's user's turns: a forged payload cannot write into another user.
        turns = [m for m in turns if m is not None and m.user_id == owner and m.memory_status not in FINISHED]
        if not turns:
            return []
        by_turn = _by_turn(coerce_candidates(items, stage="upsert"), [(m.id, m.content) for m in turns], ids)
        outcomes = _payload_outcomes(payload, [m.id for m in turns])
        now = db_now(session)
        touched: list[int] = []
        for turn in turns:
            screening = screen(by_turn[turn.id], settings, stage="upsert", message_id=turn.id, message=turn.content)
            outcomes[turn.id] += screening.dropped
            if not screening.admitted:
                continue
            ctx = WriteContext(
                user_id=owner,
                source=HistorySource.EXTRACTION,
                now=now,
                default_ttl_days=settings.LONG_TERM_MEMORY_DEFAULT_TTL_DAYS,
                message_id=turn.id,
                conversation_id=turn.conversation_id,
                stated_at=turn.created_at,
            )
            written = write_candidates(session, ctx, screening.admitted)
            outcomes[turn.id] += written.outcomes
            touched.extend(i for i in written.touched if i not in touched)
        outcomes = _with_burst_note(outcomes)
        for turn in turns:
            _finish(session, turn, MessageStatus.PROCESSED, None, outcomes[turn.id])
            if turn.id != message_id:
                # The bookkeeping around this stage gives the leader's attempt back; the other turns,
                # once finished, are held by no window, and `end_attempt` would not find them.
                # After `_finish`, so the row is written once (`_finish_all`).
                turn.memory_attempts = max(turn.memory_attempts - 1, 0)
    logger.info("memories written", extra={"message_id": message_id, "user_id": owner, "memory_ids": touched})
    return touched


def _bigrams(text: str) -> set[str]:
    folded = "".join(text.lower().split())
    return {folded[i : i + 2] for i in range(len(folded) - 1)} or {folded}


def _source_turn(candidate: Candidate, turns: list[tuple[int, str]], window: list[int]) -> int:
    """The id of the turn (id, text) of the window the candidate comes from.

    `window` is the extraction's turn ids in the order the model read them; the turn the
    model named (`candidate.turn`, 1-based) when that is one of `turns`. Otherwise the turn
    that shares most of the candidate's wording (the newest on a tie): a fact a burst states
    across turns (「搬到杭州了」「在滨江那边」) is recorded on the turn that completed it; a
    lone turn is its own source. The model's word is taken first because wording can point
    at the wrong turn: a retraction's content is often empty, and an English key shares
    nothing with a Chinese turn.
    """
    present = {turn_id for turn_id, _ in turns}
    if candidate.turn is not None and candidate.turn <= len(window) and window[candidate.turn - 1] in present:
        return window[candidate.turn - 1]
    wording = _bigrams(f"{candidate.key} {candidate.content}")
    return max(reversed(turns), key=lambda turn: len(wording & _bigrams(turn[1])))[0]


def _by_turn(
    candidates: list[Candidate], turns: list[tuple[int, str]], window: list[int]
) -> dict[int, list[Candidate]]:
    """{turn id: its candidates, in their order} for every turn (id, text) of the window (`_source_turn`)."""
    grouped: dict[int, list[Candidate]] = {turn_id: [] for turn_id, _ in turns}
    for candidate in candidates:
        grouped[_source_turn(candidate, turns, window)].append(candidate)
    return grouped


def _screened(
    candidates: list[Candidate], turns: list[tuple[int, str]], window: list[int], settings: Any, stage: str
) -> tuple[list[Candidate], TurnOutcomes]:
    """The gate (`screen`) turn by turn, oldest turn first: each turn's candidates are checked
    against its own text and capped as a lone turn's are, so a window writes what its turns
    one by one would, in their order. Returns the admitted candidates and each turn's drops."""
    by_turn = _by_turn(candidates, turns, window)
    admitted: list[Candidate] = []
    drops: TurnOutcomes = {}
    for turn_id, text in turns:
        screening = screen(by_turn[turn_id], settings, stage=stage, message_id=turn_id, message=text)
        admitted.extend(screening.admitted)
        drops[turn_id] = screening.dropped
    return admitted, drops


def _window_of(session: Session, message_id: int, now: Any) -> list[Message]:
    """The message and the unfinished turns its extraction run took (within the lease), locked, oldest first.

    A stage's attempt bookkeeping and final failure apply to the whole window the message
    leads; a message that leads none is alone. Every transaction that locks several turns of a
    conversation takes the conversation's row first (as the window claim does), so two stages
    of one window, or a stage and a new trigger, never lock its turns in crossing orders.
    """
    owner = _owner_of(session, message_id)
    if owner is None:
        return []
    lock_conversation(session, owner.conversation_id)
    message = session.get(Message, message_id, with_for_update=True)
    if message is None:
        return []
    lease = timedelta(seconds=get_settings().LONG_TERM_MEMORY_CLAIM_LEASE_SEC)
    if message.memory_window_run is not None and (
        message.memory_claimed_at is None or message.memory_claimed_at < now - lease
    ):
        # The run that took it is over (its lease ran out): renewing the lease below must not
        # make that dead run hold it again.
        message.memory_window_run = None
    if message.memory_window_run is None:
        return [message]
    members = session.scalars(
        select(Message)
        .where(
            Message.memory_window_run == message.memory_window_run,
            Message.id != message_id,
            Message.memory_status.notin_(FINISHED),
            Message.memory_claimed_at >= now - lease,
        )
        .order_by(Message.id)
        .with_for_update()
    )
    return sorted([message, *members], key=lambda m: m.id)


def _count_attempt(message: Message, max_attempts: int, now: Any) -> bool:
    """Count one attempt on a message picked up and renew its lease; False (and DEAD) when it has none left."""
    if message.memory_attempts >= max_attempts:
        cause = message.memory_error if message.memory_status == MessageStatus.FAILED.value else None
        message.memory_status = MessageStatus.DEAD.value
        message.memory_error = storable_error(
            f"dead after {message.memory_attempts} attempts; last: {cause or LOST_RUN_NOTE}"
        )
        message.memory_claimed_at = None
        message.updated_at = now
        logger.warning("message dead", extra={"message_id": message.id, "attempts": message.memory_attempts})
        return False
    message.memory_attempts += 1
    message.memory_claimed_at = now
    return True


# The statements of the common cases of `begin_attempt` and `end_attempt`, which run around
# every stage task: built once and sent on the session's Core connection. Built per call and
# run as ORM statements they cost the worker more CPU than PostgreSQL spends running them (issue 12).
# A message alone: held by no window, or by `:lone_run`, the run its stage knows holds it alone
# (NULL when the stage does not know that: `= NULL` matches nothing).
_ALONE = or_(Message.memory_window_run.is_(None), Message.memory_window_run == bindparam("lone_run"))
_COUNT_ATTEMPT_ALONE = (
    update(Message)
    .where(
        Message.id == bindparam("message_id"),
        _ALONE,
        Message.memory_status.notin_(FINISHED),
        Message.memory_attempts < bindparam("max_attempts"),
    )
    .values(memory_attempts=Message.memory_attempts + 1, memory_claimed_at=func.now())
    .returning(Message.id)
)
_GIVE_BACK_ATTEMPT_ALONE = (
    update(Message)
    .where(Message.id == bindparam("message_id"), _ALONE, Message.memory_attempts > 0)
    .values(memory_attempts=Message.memory_attempts - 1)
    .returning(Message.id)
)


def _count_attempt_alone(session: Session, message_id: int, max_attempts: int, window: StageWindow) -> bool:
    """The common case of `begin_attempt` in one statement: a message alone (that no window holds,
    or that its stage's run holds as a window of one turn), not finished, with attempts left,
    counts one and renews its lease. False: nothing was changed (another window holds it, it is
    finished or unknown, or it has no attempt left): the full path decides.

    A run's turns are fixed when the run takes its window (later runs never add to it), so a
    stage that knows its run holds this turn alone needs no lock on the conversation.
    It may leave that row locked even when it changed nothing: an UPDATE that waited for a
    concurrent writer of the row locks its newest version before checking the WHERE again, and
    keeps the lock when the check fails (a window took the row meanwhile). The full path, which
    locks the conversation before the window's rows (`_window_of`), must therefore run in a
    transaction of its own: holding the row while waiting for the conversation deadlocked with a
    trigger holding the conversation and waiting for the row (issue 12: under a backlog, when an
    overdue window takes later turns whose own tasks are starting). `_GIVE_BACK_ATTEMPT_ALONE`
    and `end_attempt` likewise.
    """
    params = {"message_id": message_id, "max_attempts": max_attempts, "lone_run": window.lone_run(message_id)}
    return session.connection().execute(_COUNT_ATTEMPT_ALONE, params).first() is not None


def begin_attempt(message_id: int, max_attempts: int, window: StageWindow = StageWindow()) -> bool:
    """A stage picked the message up: count one attempt and renew the lease of it and its window (docs/reliability.md).

    The attempt is counted before the stage runs, so a run that never reports back (a
    killed worker, the hard time limit) still counts; `end_attempt` gives it back when the
    run ends without a fault of this message. Returns False when the stage must not run:
    the message is unknown or finished, or it has used its `max_attempts` and is now DEAD.
    `window` is what the stage's argument says of its window: one that holds several turns
    goes straight to the full path, one the stage's run holds alone is counted in one statement.
    """
    if not window.shared:
        with session_scope() as session:
            if _count_attempt_alone(session, message_id, max_attempts, window):
                return True
    # A new transaction: no row lock of the fast path is held while the conversation's is awaited.
    with session_scope() as session:
        now = db_now(session)
        turns = _window_of(session, message_id, now)
        runnable = False
        for message in turns:
            if message.memory_status in FINISHED:
                continue
            counted = _count_attempt(message, max_attempts, now)
            runnable = runnable or (counted and message.id == message_id)
        return runnable


def end_attempt(message_id: int, window: StageWindow = StageWindow()) -> None:
    """Give back the attempt `begin_attempt` counted (on the message and its window): the run
    succeeded, or a dependency failed. `window` as for `begin_attempt`."""
    if not window.shared:
        with session_scope() as session:
            params = {"message_id": message_id, "lone_run": window.lone_run(message_id)}
            if session.connection().execute(_GIVE_BACK_ATTEMPT_ALONE, params).first() is not None:
                return
    # A new transaction: no row lock of the fast path is held while the conversation's is awaited.
    with session_scope() as session:
        ids = [m.id for m in _window_of(session, message_id, db_now(session))]
        session.execute(
            update(Message)
            .where(Message.id.in_(ids), Message.memory_attempts > 0)
            .values(memory_attempts=Message.memory_attempts - 1)
        )


def give_back_attempt(message_id: int, window: StageWindow = StageWindow()) -> None:
    """`end_attempt`, except that a database gone meanwhile leaves the attempt counted (one of N lost, logged)."""
    try:
        end_attempt(message_id, window)
    except Exception as exc:
        if not is_transient(exc):
            raise
        logger.warning("attempt not given back", extra={"message_id": message_id}, exc_info=True)


def storable_error(text: str) -> str:
    """`text` as PostgreSQL can store it: secrets masked, no NUL, no lone surrogate, at most MAX_STORED_ERROR_CHARS."""
    text = redact(text).replace("\x00", "\\0")
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    if len(text) > MAX_STORED_ERROR_CHARS:
        text = text[: MAX_STORED_ERROR_CHARS - 20] + f" … [{len(text)} chars]"
    return text


def mark_message_failed(message_id: int, error: str) -> None:
    """Record a failed run of the message (and of the turns of its window) with its (sanitised) error: FAILED, for the rescan to retry with backoff,
    or DEAD when the message has used all its attempts (LONG_TERM_MEMORY_MAX_ATTEMPTS).

    A failure of a dependency had its attempt given back before this (`end_attempt`), so
    only failures of this message can make it DEAD.
    """
    stored = storable_error(error)
    max_attempts = get_settings().LONG_TERM_MEMORY_MAX_ATTEMPTS
    with session_scope() as session:
        now = db_now(session)
        ids = [m.id for m in _window_of(session, message_id, now)]
        session.execute(
            update(Message)
            .where(Message.id.in_(ids), Message.memory_status.notin_(FINISHED))
            .values(
                memory_status=case(
                    (Message.memory_attempts >= max_attempts, MessageStatus.DEAD.value),
                    else_=MessageStatus.FAILED.value,
                ),
                memory_error=stored,
                updated_at=now,
                memory_claimed_at=None,
                # A failed run holds nothing: the retry is a window of its own.
                memory_window_run=None,
            )
        )
    logger.warning("message failed", extra={"message_id": message_id, "error": stored[:500]})
