"""The consolidation planner: steps 2-4 on plain data (`plan_rows`), and the snapshot around it.

Triage (expired rows are expired; every other row is conformed and deleted when it fails
the hard filters), review (the reviewer's proposals, validated), finalize (rows ending on
one key are merged, near-duplicates are merged). Only the reviewer may call a model.

Core memories (R-READ-6: standing constraints, safety facts) are never planned away: they
do not expire, the hard filters and the reviewer cannot delete them, they merge only into
another core memory (they may absorb others), and no change may take from them what makes them
core (`_keeps_it_core`): a model's normalize, a merged text or a newer value of their key is
refused when it would turn an allergy into a taste. A rewrite keeps the flag (`apply`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import select

from config.settings import get_settings
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import LongTermMemory
from memory_tasks.db.session import session_scope
from memory_tasks.extraction.candidates import KEY_PATTERN, MAX_KEY_CHARS
from memory_tasks.extraction.core import NOT_SAFETY_TYPES, has_safety_words, is_core_key
from memory_tasks.extraction.types import Decision, ExistingMemory, Reviewer
from memory_tasks.memories.consolidation.normalizers import Fields, admissible
from memory_tasks.memories.consolidation.plan import ACTION_ORDER, REWRITABLE, Action, Plan
from memory_tasks.memories.dedup import Mergeable, near_duplicate_merges, scorer_for, support
from memory_tasks.memories.similarity import SimilarityScorer
from memory_tasks.memories.store import existing_memory

logger = logging.getLogger(__name__)


@dataclass
class _Draft:
    """A reviewable row while it is planned: its values so far and its fate."""

    row: ExistingMemory
    fields: Fields
    importance: int
    confidence: float
    expires_at: datetime | None
    updated_at: datetime | None
    fate: Literal["keep", "delete", "merge"] = "keep"
    into: int | None = None
    reasons: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, row: ExistingMemory, fields: Fields) -> _Draft:
        """The draft of `row` with `fields`, its other values as stored."""
        return cls(row, fields, row.importance, row.confidence, row.expires_at, row.updated_at)

    def columns(self) -> dict[str, Any]:
        """The REWRITABLE columns the row should end with, by name."""
        return dict(
            zip(
                REWRITABLE,
                (
                    self.fields.key,
                    self.fields.memory_type,
                    self.fields.content,
                    self.importance,
                    self.confidence,
                    self.expires_at,
                    self.updated_at,
                ),
                strict=True,
            )
        )

    @property
    def support(self) -> tuple:
        """How well-supported the memory is: core first, then `dedup.support`; the better one survives a merge.

        Core first, so a core memory survives every merge the planner chooses (same key,
        near-duplicates) unless the other row is core too.
        """
        base = support(self.importance, self.confidence, self.row.access_count, self.fields.content, self.row.id)
        return (self.row.is_core, *base)


def _keeps_it_core(row: ExistingMemory, proposed: Fields) -> bool:
    """False when `proposed` would take from the core memory `row` what makes it core.

    That is a safety fact or a rule turned into a taste, goal or project, a core key renamed to
    an ordinary one, or content that loses the safety words it had ("Is allergic to peanuts" ->
    "Loves peanuts"); the write path refuses the same (`store.apply_candidate`). Rows that are
    not core may change freely.
    """
    if not row.is_core:
        return True
    return not (
        (proposed.memory_type in NOT_SAFETY_TYPES and row.memory_type not in NOT_SAFETY_TYPES)
        or (is_core_key(row.key) and not is_core_key(proposed.key))
        or (has_safety_words(row.content) and not has_safety_words(proposed.content))
    )


def _later(a: datetime | None, b: datetime | None, none_wins: bool) -> datetime | None:
    if a is None or b is None:
        return None if none_wins else (a or b)
    return max(a, b)


def _may_merge(loser: _Draft, survivor: _Draft) -> bool:
    """False when a reviewer's merge would retire a core memory into a memory that is not core."""
    return survivor.row.is_core or not loser.row.is_core


def _merge(loser: _Draft, survivor: _Draft, reason: str) -> None:
    """Retire `loser` into `survivor`, which inherits the stronger importance, confidence and lifetime."""
    loser.fate, loser.into = "merge", survivor.row.id
    loser.reasons.append(reason)
    survivor.importance = max(survivor.importance, loser.importance)
    survivor.confidence = max(survivor.confidence, loser.confidence)
    # No expiry (None) outlives any date; no updated_at (None) tells nothing.
    survivor.expires_at = _later(survivor.expires_at, loser.expires_at, none_wins=True)
    survivor.updated_at = _later(survivor.updated_at, loser.updated_at, none_wins=False)
    survivor.reasons.append(f"absorbed #{loser.row.id}")


def _triage(
    rows: Sequence[ExistingMemory], now: datetime, patterns: Iterable[str]
) -> tuple[list[Action], list[_Draft]]:
    """Expire and hard-filter actions, and the drafts of the rows left to review (conformed)."""
    actions: list[Action] = []
    drafts: list[_Draft] = []
    for row in rows:
        if row.expires_at is not None and row.expires_at <= now and not row.is_core:
            actions.append(Action("expire", row.id, row.key, f"expired at {row.expires_at.isoformat()}"))
            continue
        stored = Fields(row.key, row.memory_type, row.content)
        conformed = admissible(stored, patterns)
        if isinstance(conformed, str):
            if not row.is_core:
                actions.append(Action("delete", row.id, row.key, conformed))
                continue
            conformed = stored  # a safety fact or standing rule stays, as it was written
        drafts.append(_Draft.of(row, conformed))
    return actions, drafts


def _apply_decisions(drafts: dict[int, _Draft], decisions: Sequence[Decision], patterns: Iterable[str]) -> None:
    """Apply the reviewer's valid proposals; anything invalid is logged and ignored (the row is kept).

    Deletes and normalizations first, then merges, so a merge never targets a deleted row.
    A row that is not core may not be renamed onto a core memory's key, where the two would
    merge: a taste stays beside the allergy of its food, as on the write path.
    """
    core_keys = frozenset(d.fields.key for d in drafts.values() if d.row.is_core)
    seen: set[int] = set()
    merges: list[Decision] = []
    for decision in decisions:
        draft = drafts.get(decision.memory_id)
        if draft is None or decision.memory_id in seen:
            continue  # not a reviewable row of this user, or already decided
        seen.add(decision.memory_id)
        if decision.verdict == "delete" and draft.row.is_core:
            logger.info("review delete of a core memory ignored", extra={"memory_id": decision.memory_id})
        elif decision.verdict == "delete":
            draft.fate = "delete"
            draft.reasons.append(f"review: {decision.reason}".rstrip(": "))
        elif decision.verdict == "normalize" and decision.key in core_keys and not draft.row.is_core:
            logger.info("review rename onto a core key ignored", extra={"memory_id": decision.memory_id})
        elif decision.verdict == "normalize":
            _propose(draft, decision.key, decision.memory_type, decision.content, decision.reason, patterns)
        elif decision.verdict == "merge":
            merges.append(decision)
    for decision in merges:
        loser, survivor = drafts[decision.memory_id], drafts.get(decision.into_id or -1)
        while survivor is not None and survivor.fate == "merge":  # follow a chain to its end
            survivor = drafts[survivor.into]
        if (
            loser.fate != "keep"
            or survivor is None
            or survivor is loser
            or survivor.fate != "keep"
            or not _may_merge(loser, survivor)
        ):
            logger.info("review merge ignored", extra={"memory_id": decision.memory_id, "into_id": decision.into_id})
            continue
        _merge(loser, survivor, f"review: {decision.reason}".rstrip(": "))
        if decision.content:
            _propose(survivor, None, None, decision.content, f"merged text of #{loser.row.id}", patterns)


def _propose(
    draft: _Draft, key: str | None, memory_type: str | None, content: str | None, reason: str, patterns: Iterable[str]
) -> None:
    """Take a reviewer's new fields when the result is admissible and keeps a core memory core;
    otherwise keep the draft's."""
    proposed = Fields(key or draft.fields.key, memory_type or draft.fields.memory_type, content or draft.fields.content)
    conformed = admissible(proposed, patterns)
    if not isinstance(conformed, str) and not _keeps_it_core(draft.row, conformed):
        conformed = "it would no longer be a core memory"
    if isinstance(conformed, str):
        logger.info("review change refused", extra={"memory_id": draft.row.id, "reason": conformed})
        return
    if conformed != draft.fields:
        draft.fields = conformed
        draft.reasons.append(f"review: {reason}".rstrip(": "))


def _free_key(draft: _Draft, taken: set[str]) -> str:
    """A key for `draft` outside `taken`: its current key if that is a valid slug, else a numbered variant."""
    if draft.row.key not in taken and KEY_PATTERN.match(draft.row.key):
        return draft.row.key
    base = draft.fields.key[: MAX_KEY_CHARS - 6]
    return next(f"{base}-{n}" for n in range(2, 100_000) if f"{base}-{n}" not in taken)


def _recency(draft: _Draft) -> tuple:
    return (
        draft.row.updated_at is not None,
        draft.row.updated_at.timestamp() if draft.row.updated_at else 0.0,
        draft.row.id,
    )


def _resolve_keys(drafts: Sequence[_Draft]) -> None:
    """Make final keys unique: rows ending on one key are merged into one.

    A row never moves onto the current key of another surviving row that moves away
    (that would need the renames done in a particular order); it takes a free key instead.
    The row already holding a key keeps it (else the best-supported row), and the newest
    content among them wins, as a newer value for one key overwrites (R-PIPE-5), unless it
    would take from a core survivor what makes it core.
    """
    keep = [d for d in drafts if d.fate == "keep"]
    vacated = {d.row.key for d in keep if d.fields.key != d.row.key}
    for draft in keep:
        if draft.fields.key != draft.row.key and draft.fields.key in vacated:
            taken = (vacated | {d.fields.key for d in keep if d is not draft}) - {draft.row.key}
            draft.fields = replace(draft.fields, key=_free_key(draft, taken))
    groups: dict[str, list[_Draft]] = {}
    for draft in keep:
        groups.setdefault(draft.fields.key, []).append(draft)
    for key, group in groups.items():
        if len(group) < 2:
            continue
        # A core row survives its group whatever key it held (it merges only into a core one).
        survivor = max(group, key=lambda d: (d.row.is_core, d.row.key == key, d.support))
        newest = max(group, key=_recency)
        for draft in group:
            if draft is not survivor:
                _merge(draft, survivor, f"same key {key!r} as #{survivor.row.id}")
        newest_value = replace(survivor.fields, content=newest.fields.content, memory_type=newest.fields.memory_type)
        if (
            newest is not survivor
            and newest.fields.content != survivor.fields.content
            and _keeps_it_core(survivor.row, newest_value)
        ):
            survivor.fields = newest_value
            survivor.reasons.append(f"newest value from #{newest.row.id}")


def _merge_near_duplicates(drafts: Sequence[_Draft], scorer: SimilarityScorer) -> None:
    """Merge surviving rows that are near-duplicates, as the write path does (`dedup.near_duplicate_merges`)."""
    keep = [draft for draft in drafts if draft.fate == "keep"]
    views = [Mergeable(d.fields.key, d.fields.memory_type, d.fields.content, d.support) for d in keep]
    for loser, survivor, score in near_duplicate_merges(views, scorer):
        _merge(keep[loser], keep[survivor], f"near-duplicate of #{keep[survivor].row.id} ({score:.2f})")


def _final_survivor(drafts: Mapping[int, _Draft], draft: _Draft) -> int:
    while draft.fate == "merge":
        draft = drafts[draft.into]
    return draft.row.id


def _action(draft: _Draft, drafts: Mapping[int, _Draft]) -> Action:
    """The action that turns the draft's row into the draft."""
    row, reason = draft.row, "; ".join(draft.reasons)
    if draft.fate == "delete":
        return Action("delete", row.id, row.key, reason)
    if draft.fate == "merge":
        return Action("merge", row.id, row.key, reason, into_id=_final_survivor(drafts, draft))
    current = _Draft.of(row, Fields(row.key, row.memory_type, row.content)).columns()
    changes = {name: value for name, value in draft.columns().items() if value != current[name]}
    if not changes:
        return Action("keep", row.id, row.key)
    notes = [f"{name} fixed" for name in ("memory_key", "memory_type", "content") if name in changes]
    return Action("normalize", row.id, row.key, "; ".join(dict.fromkeys([*draft.reasons, *notes])), changes=changes)


def plan_rows(
    user_id: int,
    rows: Sequence[ExistingMemory],
    now: datetime,
    reviewer: Reviewer,
    scorer: SimilarityScorer,
    noise_key_patterns: Iterable[str],
) -> Plan:
    """The consolidation plan for these rows of one user (steps 2-4 of `memories.consolidation`).

    Pure: no database, no Celery; only `reviewer` may call a model. Every row gets
    exactly one action, in ACTION_ORDER.
    """
    patterns = tuple(noise_key_patterns)
    actions, drafts = _triage(rows, now, patterns)
    by_id = {draft.row.id: draft for draft in drafts}
    _apply_decisions(
        by_id,
        reviewer.review(
            [
                replace(d.row, key=d.fields.key, memory_type=d.fields.memory_type, content=d.fields.content)
                for d in drafts
            ]
        ),
        patterns,
    )
    _resolve_keys(drafts)
    _merge_near_duplicates(drafts, scorer)
    actions += [_action(draft, by_id) for draft in drafts]
    actions.sort(key=lambda a: (ACTION_ORDER.index(a.kind), a.memory_id))
    fingerprint = tuple(sorted((row.id, row.revision) for row in rows))
    return Plan(user_id, reviewer.name, now, tuple(actions), fingerprint)


def load_snapshot(user_id: int, now: datetime | None = None) -> tuple[list[ExistingMemory], datetime]:
    """The user's active rows (expired ones included) and the clock of the snapshot (default: the DB's)."""
    with session_scope() as session:
        now = now or db_now(session)
        rows = session.scalars(
            select(LongTermMemory)
            .where(LongTermMemory.user_id == user_id, LongTermMemory.is_active.is_(True))
            .order_by(LongTermMemory.id)
        )
        return [existing_memory(m) for m in rows], now


def plan_consolidation(user_id: int, reviewer: Reviewer, now: datetime | None = None) -> Plan:
    """The plan for `user_id` with `reviewer` (`extraction.review.get_reviewer`); changes nothing.

    Raises what the reviewer raises (the `memory_tasks.llm` errors of the LLM reviewer).
    """
    rows, now = load_snapshot(user_id, now)
    # The scorer may read the embedding cache. A Session connects on first use, and the
    # review runs before any scoring, so no connection is held during the LLM calls.
    with session_scope() as session:
        return plan_rows(user_id, rows, now, reviewer, scorer_for(session), get_settings().noise_key_patterns)
