"""Consolidation: review one user's memories and keep / delete / merge / normalize them (R-LIFE-2).

A plan is made first and applied second, so an operator can look before anything
changes (`consolidate --dry-run`) and the slow part, the LLM review, runs outside any
transaction:

1. snapshot - the user's active rows as plain `MemoryRow`s, read at `now`;
2. triage   - the same for both engines: expired rows are expired; every other row is
              conformed (slug key, known type, tidy content) and deleted when it fails the
              hard filters of the write path (noise keys, profile fields, short-term …);
3. review   - the engine: the offline `RulesReviewer` proposes nothing beyond the rules;
              `LLMReviewer` proposes an action per row, in chunks of at most LLM_CHUNK_SIZE
              rows, and may only name ids it was shown;
4. finalize - deterministic: proposals are validated (a change that fails the hard filters
              is refused), rows that end on one key are merged (the row holding the key
              survives, the newest content wins), near-duplicates at >= the merge threshold
              are merged (the better-supported row survives);
5. apply    - one transaction under the user's write lock, refused as "stale" when the
              user's active rows changed since the snapshot; every change bumps the
              revision, marks the row DIRTY and appends history (source=consolidate,
              expiry for expired rows); `users.last_consolidated_at` is set.

Steps 2-4 are `plan_rows`, a pure function of plain data; `plan_consolidation` and
`apply_plan` are the database around it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Literal, Protocol

import numpy as np
from sqlalchemy import ColumnElement, Select, exists, or_, select, update
from sqlalchemy.orm import Session

from config.settings import Settings, get_settings
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import HistorySource, LongTermMemory, User, VectorStatus
from memory_tasks.db.session import session_scope
from memory_tasks.extraction.candidates import KEY_PATTERN, MAX_CONTENT_CHARS, MAX_KEY_CHARS, MEMORY_TYPES, Candidate
from memory_tasks.extraction.engine import choose_engine
from memory_tasks.extraction.filters import drop_reason
from memory_tasks.extraction.prompts import load_prompt
from memory_tasks.llm import LLMOutputError, chat_json, json_items
from memory_tasks.memories.dedup import different_facts
from memory_tasks.memories.lifecycle import expire_user_memories
from memory_tasks.memories.similarity import SimilarityScorer
from memory_tasks.memories.store import WriteContext, load_for_update, lock_user, record_history
from memory_tasks.pipeline import scorer_for

logger = logging.getLogger(__name__)

ActionKind = Literal["expire", "delete", "merge", "normalize", "keep"]
Verdict = Literal["keep", "delete", "merge", "normalize"]
VERDICTS: tuple[Verdict, ...] = ("keep", "delete", "merge", "normalize")
# Order of a plan's actions: what leaves first, so renames find their keys free.
ACTION_ORDER: tuple[ActionKind, ...] = ("expire", "delete", "merge", "normalize", "keep")
# Columns a normalize action may set on the surviving row.
REWRITABLE = ("memory_key", "memory_type", "content", "importance", "confidence", "expires_at", "updated_at")
# Columns that travel with a memory when it moves onto a key an inactive row still holds.
MOVED_WITH_MEMORY = (
    *(c for c in REWRITABLE if c != "memory_key"),
    "conversation_id",
    "source_message_id",
    "source",
    "access_count",
    "last_accessed_at",
)
LLM_CHUNK_SIZE = 60
MAX_REASON_CHARS = 200


# --- plain data ----------------------------------------------------------------------------


@dataclass(frozen=True)
class MemoryRow:
    """One active memory as consolidation sees it: plain values, no ORM object."""

    id: int
    key: str
    memory_type: str
    content: str
    importance: int = 3
    confidence: float = 0.8
    access_count: int = 0
    revision: int = 1
    expires_at: datetime | None = None
    updated_at: datetime | None = None

    def columns(self) -> dict[str, Any]:
        """The REWRITABLE columns of the row, by name."""
        return dict(
            zip(
                REWRITABLE,
                (
                    self.key,
                    self.memory_type,
                    self.content,
                    self.importance,
                    self.confidence,
                    self.expires_at,
                    self.updated_at,
                ),
                strict=True,
            )
        )

    @classmethod
    def of(cls, memory: LongTermMemory) -> MemoryRow:
        return cls(
            memory.id,
            memory.memory_key,
            memory.memory_type,
            memory.content,
            memory.importance,
            memory.confidence,
            memory.access_count,
            memory.revision,
            memory.expires_at,
            memory.updated_at,
        )


@dataclass(frozen=True)
class Decision:
    """What a reviewer proposes for one row; None fields are unchanged. `into_id`: merge target."""

    memory_id: int
    verdict: Verdict
    into_id: int | None = None
    key: str | None = None
    memory_type: str | None = None
    content: str | None = None
    reason: str = ""


@dataclass(frozen=True)
class Action:
    """The planned fate of one row.

    expire / delete deactivate it; merge deactivates it with a pointer to `into_id`, the
    row that carries its information on; normalize sets `changes` (column -> new value,
    only columns that change) on it; keep leaves it alone.
    """

    kind: ActionKind
    memory_id: int
    key: str
    reason: str = ""
    into_id: int | None = None
    changes: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": self.kind, "memory_id": self.memory_id, "key": self.key}
        if self.reason:
            data["reason"] = self.reason
        if self.into_id is not None:
            data["into_id"] = self.into_id
        if self.changes:
            data["changes"] = {name: _json_value(value) for name, value in self.changes.items()}
        return data


@dataclass(frozen=True)
class Plan:
    """Everything consolidation would do for one user, as of `now` (the snapshot's clock).

    `fingerprint` is (id, revision) of every active row the plan was made from; applying
    is refused when it no longer matches.
    """

    user_id: int
    engine: str
    now: datetime
    actions: tuple[Action, ...]
    fingerprint: tuple[tuple[int, int], ...]

    @property
    def changes(self) -> list[Action]:
        """The actions that change something (all but keep)."""
        return [action for action in self.actions if action.kind != "keep"]

    def counts(self) -> dict[str, int]:
        return {kind: sum(1 for a in self.actions if a.kind == kind) for kind in ACTION_ORDER}

    def to_json(self) -> dict[str, Any]:
        return {
            "user_id": self.user_id,
            "engine": self.engine,
            "now": self.now.isoformat(),
            "counts": self.counts(),
            "actions": [action.to_json() for action in self.actions],
        }


@dataclass(frozen=True)
class ConsolidationResult:
    """What `apply_plan` did: "applied" (with the ids of every row changed, for index sync)
    or "stale" (the user's memories changed since the snapshot; nothing was written)."""

    user_id: int
    status: Literal["applied", "stale"]
    changed_ids: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "status": self.status, "changed_ids": list(self.changed_ids)}


def _json_value(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


# --- conforming one memory ------------------------------------------------------------------

_FULLWIDTH_ALNUM = {
    **{0xFF10 + i: ord("0") + i for i in range(10)},
    **{0xFF21 + i: ord("A") + i for i in range(26)},
    **{0xFF41 + i: ord("a") + i for i in range(26)},
    0x3000: ord(" "),
}
_INVISIBLE = re.compile("[\u200b-\u200d\u2060\ufeff]")
# Han characters plus CJK and full-width punctuation: no spaces belong between two of them.
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3001-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65"
_SPACE_IN_CJK = re.compile(rf"(?<=[{_CJK}])\s+(?=[{_CJK}])")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+(?=[,;:!?，。；：！？、）)])")
# Not ":" ("std::vector") nor "." ("...", ".NET").
_REPEATED_PUNCT = re.compile(r"([。，！？；、,!?;])\1+")
_LEADING_JUNK = re.compile(r"^[\s,，;；:：、。!！?？]+")
_TRAILING_SEPARATORS = re.compile(r"[\s,，;；:：、]+$")


def tidy_content(text: str) -> str:
    """`text` with whitespace and punctuation normalised, meaning untouched.

    Full-width letters/digits become ASCII (Chinese punctuation stays), invisible
    characters go, whitespace runs become one space, spaces between Chinese characters
    and before punctuation go, a repeated punctuation mark counts once, leading
    punctuation and trailing separators are cut. Returns "" when nothing is left.
    """
    text = _INVISIBLE.sub("", (text or "").translate(_FULLWIDTH_ALNUM))
    text = re.sub(r"\s+", " ", text).strip()
    text = _SPACE_IN_CJK.sub("", text)
    text = _SPACE_BEFORE_PUNCT.sub("", text)
    text = _REPEATED_PUNCT.sub(r"\1", text)
    text = _LEADING_JUNK.sub("", text)
    return _TRAILING_SEPARATORS.sub("", text)


def slug_key(raw: str, memory_type: str) -> str:
    """`raw` if it is a valid key slug, else the nearest slug.

    "Food Preference" -> "food-preference", "food__pref!" -> "food_pref". A key with no
    ASCII letters or digits at all ("饮食偏好") becomes "<memory_type>-<8 hex of its hash>",
    the same every run.
    """
    if len(raw) <= MAX_KEY_CHARS and KEY_PATTERN.match(raw):
        return raw
    text = re.sub(r"[^a-z0-9_-]+", "-", unicodedata.normalize("NFKC", raw).lower())
    text = re.sub(r"[-_]{2,}", lambda run: "_" if set(run.group()) == {"_"} else "-", text)
    text = text.strip("-_")[:MAX_KEY_CHARS].strip("-_")
    return text or f"{memory_type}-{hashlib.sha1(raw.encode('utf-8')).hexdigest()[:8]}"


_PROFILE_TYPES = frozenset({"profile", "identity", "persona", "nickname", "个人资料", "资料", "昵称", "身份"})
_TYPE_ALIASES = {
    "preferences": "preference",
    "pref": "preference",
    "like": "preference",
    "likes": "preference",
    "habit": "preference",
    "habits": "preference",
    "hobby": "preference",
    "hobbies": "preference",
    "taste": "preference",
    "偏好": "preference",
    "喜好": "preference",
    "习惯": "preference",
    "爱好": "preference",
    "facts": "fact",
    "info": "fact",
    "information": "fact",
    "personal": "fact",
    "background": "fact",
    "事实": "fact",
    "信息": "fact",
    "背景": "fact",
    "goals": "goal",
    "plan": "goal",
    "plans": "goal",
    "target": "goal",
    "aim": "goal",
    "目标": "goal",
    "计划": "goal",
    "projects": "project",
    "work": "project",
    "项目": "project",
    "constraints": "constraint",
    "rule": "constraint",
    "rules": "constraint",
    "restriction": "constraint",
    "requirement": "constraint",
    "约束": "constraint",
    "规则": "constraint",
    "限制": "constraint",
    "要求": "constraint",
}
# Words in an unknown type or in the key that tell the type, tried in this order; default fact.
_TYPE_HINTS: tuple[tuple[str, frozenset[str]], ...] = (
    (
        "constraint",
        frozenset(
            "rule rules constraint constraints avoid never must allergy allergies allergic "
            "restriction restrictions forbidden".split()
        ),
    ),
    ("goal", frozenset("goal goals plan plans target targets aim aims aspiration dream".split())),
    ("project", frozenset("project projects repo repository".split())),
    (
        "preference",
        frozenset(
            "preference preferences prefer prefers like likes favorite favourite fav habit "
            "habits hobby hobbies style taste love loves dislike dislikes hate".split()
        ),
    ),
)


def fix_type(memory_type: str, key: str) -> str | None:
    """A valid memory type for this row, or None when it is a profile field (never kept).

    A known type stays; an alias ("habits", "偏好") maps to its type; otherwise the words
    of the type and the key hint at one (rule -> constraint, goal -> goal, …), else fact.
    """
    lowered = (memory_type or "").strip().lower()
    if lowered in MEMORY_TYPES:
        return lowered
    if lowered in _PROFILE_TYPES:
        return None
    if lowered in _TYPE_ALIASES:
        return _TYPE_ALIASES[lowered]
    words = set(re.split(r"[^a-z0-9]+", f"{lowered} {key.lower()}"))
    if words & {"profile", "persona", "nickname"}:
        return None
    return next((name for name, hints in _TYPE_HINTS if words & hints), "fact")


@dataclass(frozen=True)
class Fields:
    """The three things that say what a memory is."""

    key: str
    memory_type: str
    content: str


def admissible(fields: Fields, noise_key_patterns: Iterable[str]) -> Fields | str:
    """`fields` conformed (slug key, valid type, tidy content), or why such a memory cannot be kept.

    The reason comes from the write path's hard filters (`drop_reason`: noise keys, profile
    fields, internal matters, weather snapshots, short-term windows, summaries, impossible
    slot values), so nothing the gate would refuse today survives consolidation.
    """
    memory_type = fix_type(fields.memory_type, fields.key)
    if memory_type is None:
        return "profile field: type"
    content = tidy_content(fields.content)[:MAX_CONTENT_CHARS]
    if not content:
        return "empty content"
    conformed = Fields(slug_key(fields.key, memory_type), memory_type, content)
    candidate = Candidate(op="upsert", memory_type=memory_type, key=conformed.key, content=content)
    return drop_reason(candidate, noise_key_patterns) or conformed


# --- planning --------------------------------------------------------------------------------


class Reviewer(Protocol):
    """An engine's review of the rows that passed triage."""

    name: str

    def review(self, rows: Sequence[MemoryRow]) -> list[Decision]:
        """Proposals for some of `rows`; rows without one are kept as they are."""


class RulesReviewer:
    """The offline engine: no proposals; triage and finalize's deterministic rules do the work."""

    name = "rules"

    def review(self, rows: Sequence[MemoryRow]) -> list[Decision]:
        return []


@dataclass
class _Draft:
    """A reviewable row while it is planned: its values so far and its fate."""

    row: MemoryRow
    fields: Fields
    importance: int
    confidence: float
    expires_at: datetime | None
    updated_at: datetime | None
    fate: Literal["keep", "delete", "merge"] = "keep"
    into: int | None = None
    reasons: list[str] = field(default_factory=list)

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
        """How well-supported the memory is (as in dedup): the better one survives a merge."""
        return (self.importance * self.confidence, self.row.access_count, len(self.fields.content), -self.row.id)


def _later(a: datetime | None, b: datetime | None, none_wins: bool) -> datetime | None:
    if a is None or b is None:
        return None if none_wins else (a or b)
    return max(a, b)


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


def _triage(rows: Sequence[MemoryRow], now: datetime, patterns: Iterable[str]) -> tuple[list[Action], list[_Draft]]:
    """Expire and hard-filter actions, and the drafts of the rows left to review (conformed)."""
    actions: list[Action] = []
    drafts: list[_Draft] = []
    for row in rows:
        if row.expires_at is not None and row.expires_at <= now:
            actions.append(Action("expire", row.id, row.key, f"expired at {row.expires_at.isoformat()}"))
            continue
        conformed = admissible(Fields(row.key, row.memory_type, row.content), patterns)
        if isinstance(conformed, str):
            actions.append(Action("delete", row.id, row.key, conformed))
            continue
        drafts.append(_Draft(row, conformed, row.importance, row.confidence, row.expires_at, row.updated_at))
    return actions, drafts


def _apply_decisions(drafts: dict[int, _Draft], decisions: Sequence[Decision], patterns: Iterable[str]) -> None:
    """Apply the reviewer's valid proposals; anything invalid is logged and ignored (the row is kept).

    Deletes and normalizations first, then merges, so a merge never targets a deleted row.
    """
    seen: set[int] = set()
    merges: list[Decision] = []
    for decision in decisions:
        draft = drafts.get(decision.memory_id)
        if draft is None or decision.memory_id in seen:
            continue  # not a reviewable row of this user, or already decided
        seen.add(decision.memory_id)
        if decision.verdict == "delete":
            draft.fate = "delete"
            draft.reasons.append(f"review: {decision.reason}".rstrip(": "))
        elif decision.verdict == "normalize":
            _propose(draft, decision.key, decision.memory_type, decision.content, decision.reason, patterns)
        elif decision.verdict == "merge":
            merges.append(decision)
    for decision in merges:
        loser, survivor = drafts[decision.memory_id], drafts.get(decision.into_id or -1)
        while survivor is not None and survivor.fate == "merge":  # follow a chain to its end
            survivor = drafts[survivor.into]
        if loser.fate != "keep" or survivor is None or survivor is loser or survivor.fate != "keep":
            logger.info("review merge ignored", extra={"memory_id": decision.memory_id, "into_id": decision.into_id})
            continue
        _merge(loser, survivor, f"review: {decision.reason}".rstrip(": "))
        if decision.content:
            _propose(survivor, None, None, decision.content, f"merged text of #{loser.row.id}", patterns)


def _propose(
    draft: _Draft, key: str | None, memory_type: str | None, content: str | None, reason: str, patterns: Iterable[str]
) -> None:
    """Take a reviewer's new fields when the result is admissible; otherwise keep the draft's."""
    proposed = Fields(key or draft.fields.key, memory_type or draft.fields.memory_type, content or draft.fields.content)
    conformed = admissible(proposed, patterns)
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
    content among them wins, as a newer value for one key overwrites (R-PIPE-5).
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
        survivor = max(group, key=lambda d: (d.row.key == key, d.support))
        newest = max(group, key=_recency)
        for draft in group:
            if draft is not survivor:
                _merge(draft, survivor, f"same key {key!r} as #{survivor.row.id}")
        if newest is not survivor and newest.fields.content != survivor.fields.content:
            survivor.fields = replace(
                survivor.fields, content=newest.fields.content, memory_type=newest.fields.memory_type
            )
            survivor.reasons.append(f"newest value from #{newest.row.id}")


def _merge_near_duplicates(drafts: Sequence[_Draft], scorer: SimilarityScorer) -> None:
    """Merge surviving rows of one type whose contents score >= the scorer's merge threshold (R-PIPE-4).

    Content, not the index text: the "[type] key:" prefix makes related memories look
    alike (docs/quality.md, "Dedup").
    """
    by_type: dict[str, list[_Draft]] = {}
    for draft in drafts:
        if draft.fate == "keep":
            by_type.setdefault(draft.fields.memory_type, []).append(draft)
    for group in by_type.values():
        if len(group) < 2:
            continue
        group.sort(key=lambda d: d.support, reverse=True)
        texts = [d.fields.content for d in group]
        scores = np.asarray(scorer.matrix(texts, texts))
        for i, survivor in enumerate(group):
            if survivor.fate != "keep":
                continue
            for j in range(i + 1, len(group)):
                loser = group[j]
                if loser.fate != "keep" or scores[i, j] < scorer.merge_threshold:
                    continue
                # The write path's guard: keys naming different items, or differing numbers, are different facts.
                if different_facts(
                    loser.fields.key, loser.fields.content, survivor.fields.key, survivor.fields.content
                ):
                    continue
                _merge(loser, survivor, f"near-duplicate of #{survivor.row.id} ({scores[i, j]:.2f})")


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
    current = row.columns()
    changes = {name: value for name, value in draft.columns().items() if value != current[name]}
    if not changes:
        return Action("keep", row.id, row.key)
    notes = [f"{name} fixed" for name in ("memory_key", "memory_type", "content") if name in changes]
    return Action("normalize", row.id, row.key, "; ".join(dict.fromkeys([*draft.reasons, *notes])), changes=changes)


def plan_rows(
    user_id: int,
    rows: Sequence[MemoryRow],
    now: datetime,
    reviewer: Reviewer,
    scorer: SimilarityScorer,
    noise_key_patterns: Iterable[str],
) -> Plan:
    """The consolidation plan for these rows of one user (steps 2-4 of the module docstring).

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


# --- the LLM engine -----------------------------------------------------------------------


class LLMReviewer:
    """Review by the chat model (`memory_tasks.llm.chat_json`), LLM_CHUNK_SIZE rows per call.

    Rows are sorted by type and key before chunking so related memories meet in one call;
    near-duplicates across chunks are still merged by finalize. The answer is untrusted:
    only ids of the chunk are accepted, and finalize validates every change. Raises the
    `memory_tasks.llm` errors; LLMOutputError when an answer holds no usable action.
    """

    name = "llm"

    def __init__(self, settings: Settings | None = None, chunk_size: int = LLM_CHUNK_SIZE) -> None:
        self._settings = settings
        self.chunk_size = chunk_size
        self.prompt = load_prompt("consolidate")

    def review(self, rows: Sequence[MemoryRow]) -> list[Decision]:
        ordered = sorted(rows, key=lambda r: (r.memory_type, r.key, r.id))
        decisions: list[Decision] = []
        for start in range(0, len(ordered), self.chunk_size):
            decisions += self._review_chunk(ordered[start : start + self.chunk_size])
        return decisions

    def _review_chunk(self, chunk: Sequence[MemoryRow]) -> list[Decision]:
        settings = self._settings or get_settings()
        payload = {
            "memories": [
                {
                    "id": r.id,
                    "key": r.key,
                    "memory_type": r.memory_type,
                    "content": r.content,
                    "importance": r.importance,
                    "confidence": round(r.confidence, 2),
                }
                for r in chunk
            ]
        }
        messages = [
            {"role": "system", "content": self.prompt.text},
            {
                "role": "user",
                "content": json.dumps(payload, ensure_ascii=False, indent=1)
                + '\n\nAnswer with the JSON object {"actions": [...]}.',
            },
        ]
        result = chat_json(
            messages, timeout=settings.LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC, purpose="consolidate", settings=settings
        )
        items = json_items(result.value, wrapper="actions", raw_text=result.raw_text)
        decisions = parse_decisions(items, {row.id for row in chunk})
        if items and not decisions:
            raise LLMOutputError("consolidate answer holds no usable action", result.raw_text)
        return decisions


def _as_id(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _as_text(value: Any) -> str | None:
    return value.strip() or None if isinstance(value, str) else None


def parse_decisions(items: Sequence[Any], allowed_ids: set[int]) -> list[Decision]:
    """Decisions from a model's answer items, keeping only those about `allowed_ids`.

    An item naming an id it was not shown (another user's, an invented one), an unknown
    action, or a merge whose `into_id` is not an allowed id is dropped and logged.
    """
    decisions = []
    for item in items:
        if not isinstance(item, dict):
            continue
        memory_id = _as_id(item.get("id"))
        verdict = str(item.get("action") or "").strip().lower()
        into_id = _as_id(item.get("into_id")) if verdict == "merge" else None
        if (
            memory_id not in allowed_ids
            or verdict not in VERDICTS
            or (verdict == "merge" and into_id not in allowed_ids)
        ):
            logger.info("review item ignored", extra={"memory_id": str(item.get("id"))[:20], "action": verdict[:20]})
            continue
        decisions.append(
            Decision(
                memory_id,
                verdict,
                into_id,  # type: ignore[arg-type]
                key=_as_text(item.get("key")),
                memory_type=_as_text(item.get("memory_type")),
                content=_as_text(item.get("content")),
                reason=str(item.get("reason") or "")[:MAX_REASON_CHARS],
            )
        )
    return decisions


def get_reviewer(engine: str | None = None, settings: Settings | None = None) -> Reviewer:
    """The reviewer for `engine`: "llm", "rules", or None/"auto" (LLM when one is configured).

    Raises ValueError for an unknown engine, or "llm" with no chat model configured.
    """
    settings = settings or get_settings()
    return LLMReviewer(settings) if choose_engine(engine, settings) == "llm" else RulesReviewer()


# --- the database around the plan --------------------------------------------------------


def _active_rows(user_id: int) -> Select:
    return select(LongTermMemory).where(LongTermMemory.user_id == user_id, LongTermMemory.is_active.is_(True))


def load_snapshot(user_id: int, now: datetime | None = None) -> tuple[list[MemoryRow], datetime]:
    """The user's active rows (expired ones included) and the clock of the snapshot (default: the DB's)."""
    with session_scope() as session:
        now = now or db_now(session)
        rows = [MemoryRow.of(m) for m in session.scalars(_active_rows(user_id).order_by(LongTermMemory.id))]
    return rows, now


def plan_consolidation(user_id: int, engine: str | None = None, now: datetime | None = None) -> Plan:
    """The plan for `user_id` with `engine` (see `get_reviewer`); changes nothing.

    Raises ValueError for an unusable engine and the `memory_tasks.llm` errors of the LLM engine.
    """
    settings = get_settings()
    rows, now = load_snapshot(user_id, now)
    reviewer = get_reviewer(engine, settings)
    # The scorer may read the embedding cache. A Session connects on first use, and the
    # review runs before any scoring, so no connection is held during the LLM calls.
    with session_scope() as session:
        return plan_rows(user_id, rows, now, reviewer, scorer_for(session), settings.noise_key_patterns)


class StalePlan(Exception):
    """The user's memories changed after the plan was made; nothing of it was applied."""


def apply_plan(plan: Plan) -> ConsolidationResult:
    """Apply `plan` in one transaction under the user's write lock, and stamp last_consolidated_at.

    Returns "stale" (and writes nothing) when the user's active rows are no longer those
    the plan was made from; a fresh plan is then needed.
    """
    try:
        with session_scope() as session:
            return _apply(session, plan)
    except StalePlan as exc:
        logger.info("consolidation plan is stale", extra={"user_id": plan.user_id, "error": str(exc)})
        return ConsolidationResult(plan.user_id, "stale")


def _apply(session: Session, plan: Plan) -> ConsolidationResult:
    lock_user(session, plan.user_id)
    current = session.execute(
        select(LongTermMemory.id, LongTermMemory.revision)
        .where(LongTermMemory.user_id == plan.user_id, LongTermMemory.is_active.is_(True))
        .order_by(LongTermMemory.id)
        .with_for_update()
    ).all()
    if tuple((row.id, row.revision) for row in current) != plan.fingerprint:
        raise StalePlan("active memories changed since the snapshot")
    ctx = WriteContext(
        user_id=plan.user_id,
        source=HistorySource.CONSOLIDATE,
        now=db_now(session),
        default_ttl_days=get_settings().LONG_TERM_MEMORY_DEFAULT_TTL_DAYS,
    )
    # Expiry is its own kind of change: the rows' history says source=expiry.
    changed = expire_user_memories(
        session, plan.user_id, [a.memory_id for a in plan.actions if a.kind == "expire"], plan.now
    )
    touched = [a for a in plan.actions if a.kind in ("delete", "merge", "normalize")]
    memories = {
        m.id: m
        for m in session.scalars(
            select(LongTermMemory).where(
                LongTermMemory.id.in_([a.memory_id for a in touched] + [a.into_id for a in touched if a.into_id])
            )
        )
    }
    for action in touched:  # ACTION_ORDER: rows leave before others are renamed onto their keys
        memory = memories[action.memory_id]
        if action.kind == "normalize":
            changed += _rewrite(session, ctx, memory, action)
        else:
            _retire(session, ctx, memory, action.kind, action.reason, memories.get(action.into_id or -1))
            changed.append(memory.id)
    session.execute(update(User).where(User.id == plan.user_id).values(last_consolidated_at=plan.now))
    logger.info(
        "user consolidated",
        extra={"user_id": plan.user_id, "engine": plan.engine, "memory_ids": changed, **plan.counts()},
    )
    return ConsolidationResult(plan.user_id, "applied", tuple(sorted(set(changed))))


def _mark_changed(memory: LongTermMemory) -> None:
    """A change the index must follow: DIRTY, and a new revision for its compare-and-set."""
    memory.vector_status = VectorStatus.DIRTY.value
    memory.revision = memory.revision + 1
    memory.vector_error = None


def _retire(
    session: Session, ctx: WriteContext, memory: LongTermMemory, op: str, reason: str, survivor: LongTermMemory | None
) -> None:
    """Deactivate `memory` (op delete or merge, into `survivor`) with history on both rows."""
    memory.is_active = False
    memory.merged_into_id = survivor.id if survivor is not None else None
    memory.updated_at = ctx.now
    _mark_changed(memory)
    record_history(session, ctx, memory.id, memory.memory_key, op, memory.content, None, reason or None)
    if survivor is not None:
        record_history(
            session,
            ctx,
            survivor.id,
            survivor.memory_key,
            "absorb",
            survivor.content,
            survivor.content,
            f"absorbed #{memory.id} ({memory.memory_key})",
        )


def _rewrite(session: Session, ctx: WriteContext, memory: LongTermMemory, action: Action) -> list[int]:
    """Set the action's changes on `memory`; returns the ids changed.

    When the new key is still held by an inactive row (deleted, merged or expired, now or
    long ago), the unique (user, key) rule forbids a rename: the memory moves into that
    row instead, which comes back to life with it, and `memory` is retired into it.
    """
    old_content = memory.content
    new_key = action.changes.get("memory_key")
    holder = load_for_update(session, ctx.user_id, new_key) if new_key else None
    if holder is None:
        target = memory
    elif holder.is_active:
        # The fingerprint rules out new active rows, and planning never renames onto a survivor's key.
        raise RuntimeError(f"consolidation bug: key {new_key!r} is held by active memory #{holder.id}")
    else:
        for name in MOVED_WITH_MEMORY:
            setattr(holder, name, getattr(memory, name))
        holder.is_active, holder.merged_into_id = True, None
        target = holder
    for name, value in action.changes.items():
        setattr(target, name, value)
    _mark_changed(target)
    detail = _describe(action) if target is memory else f"moved here from #{memory.id}: {_describe(action)}"
    record_history(session, ctx, target.id, target.memory_key, "normalize", old_content, target.content, detail)
    if target is memory:
        return [memory.id]
    session.flush()  # the holder is live under the key before `memory` points at it
    _retire(session, ctx, memory, "merge", f"moved to #{holder.id} under key {new_key!r}", holder)
    # Rows merged into `memory` (by this plan or earlier) now point at where it lives on.
    session.execute(
        update(LongTermMemory)
        .where(LongTermMemory.merged_into_id == memory.id, LongTermMemory.id != memory.id)
        .values(merged_into_id=holder.id)
    )
    logger.info(
        "memory moved onto a held key",
        extra={"user_id": ctx.user_id, "memory_id": memory.id, "into_id": holder.id, "key": new_key},
    )
    return [memory.id, holder.id]


def _describe(action: Action) -> str:
    changed = ", ".join(action.changes)
    return f"{action.reason} ({changed})" if action.reason else changed


# --- who is due ------------------------------------------------------------------------------


def _changed_since_consolidation() -> ColumnElement[bool]:
    """True for a user with an active memory written after their last consolidation.

    Consolidation keeps `updated_at` of the rows it rewrites (the time the user last said
    it, which retrieval ranks by) and stamps last_consolidated_at with its snapshot time,
    so its own changes never make a user due again.
    """
    return exists().where(
        LongTermMemory.user_id == User.id,
        LongTermMemory.is_active.is_(True),
        or_(User.last_consolidated_at.is_(None), LongTermMemory.updated_at > User.last_consolidated_at),
    )


def is_due(user_id: int) -> bool:
    """True when `user_id` has memories that changed since their last consolidation."""
    with session_scope() as session:
        return bool(session.scalar(select(User.id).where(User.id == user_id, _changed_since_consolidation())))


def schedule_due_users(limit: int, enqueue: Callable[[int], object]) -> list[int]:
    """Call `enqueue(user_id)` for at most `limit` due users, longest-waiting first; returns their ids.

    The users are claimed FOR NO KEY UPDATE SKIP LOCKED while they are enqueued, so a
    second fan-out running at the same time skips them instead of enqueuing them twice
    (memory writes, which only KEY SHARE-lock the user, are not blocked). A task that
    arrives after its user was consolidated finds the user not due and does nothing.
    """
    with session_scope() as session:
        user_ids = list(
            session.scalars(
                select(User.id)
                .where(_changed_since_consolidation())
                .order_by(User.last_consolidated_at.asc().nulls_first(), User.id)
                .limit(limit)
                .with_for_update(skip_locked=True, key_share=True)
            )
        )
        for user_id in user_ids:
            enqueue(user_id)
    return user_ids
