"""Writing a batch of candidates for one user: what the upsert stage and the agent tools both run.

PII redaction (when configured), semantic dedup (a restatement reuses the existing key),
`store.apply_candidate` per candidate (a repeat in other words confirms, judged by the same
scorer: `dedup.says_nothing_new`), then the near-duplicate merge. One path, so a tool
write and an extracted memory are deduplicated, merged and recorded alike (R-PIPE-4, R-WRITE-1).
What became of each candidate is returned as an `Outcome` (issue 17 item 2).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial

from sqlalchemy.orm import Session

from config.settings import get_settings
from memory_tasks.extraction.candidates import Candidate
from memory_tasks.extraction.filters import redact_pii
from memory_tasks.extraction.outcomes import Outcome, dropped, stored
from memory_tasks.memories.corpus import user_memories
from memory_tasks.memories.dedup import merge_written, redirect_duplicates, says_nothing_new, scorer_for
from memory_tasks.memories.store import AppliedChange, WriteContext, apply_candidate


@dataclass(frozen=True)
class WriteResult:
    """`touched`: the ids of every memory that changed, for index sync; `outcomes`: one per candidate, in order."""

    touched: list[int]
    outcomes: list[Outcome]


def write_candidates(session: Session, ctx: WriteContext, candidates: list[Candidate]) -> WriteResult:
    """Apply candidates for `ctx.user_id` (caller holds the user lock), then merge near-duplicates."""
    if get_settings().LONG_TERM_MEMORY_REDACT_PII:
        candidates = [replace(c, content=redact_pii(c.content)) for c in candidates]
    stated = [replace(c) for c in candidates]  # as stated: the redirect below rewrites key and text
    scorer = scorer_for(session)
    corpus = user_memories(session, scorer, ctx.user_id, ctx.now)
    candidates = redirect_duplicates(session, corpus, candidates, ctx)
    restates = partial(says_nothing_new, scorer)
    touched: list[int] = []
    outcomes: list[Outcome] = []
    for original, candidate in zip(stated, candidates, strict=True):
        change = apply_candidate(session, ctx, candidate, restates)
        if change.changed:
            touched.append(change.memory_id)
        outcomes.append(_outcome(original, change, redirected=candidate.target_key != original.target_key))
    if touched:
        corpus.note_written(session, touched, ctx.now)
        merges = merge_written(session, corpus, ctx, touched)
        corpus.note_written(session, [loser for loser, _ in merges], ctx.now)
        touched.extend(loser for loser, _ in merges)
        outcomes = [_after_merges(outcome, dict(merges)) for outcome in outcomes]
    return WriteResult(sorted(set(touched)), outcomes)


def _outcome(candidate: Candidate, change: AppliedChange, *, redirected: bool) -> Outcome:
    """The outcome of `candidate` (as stated) from what `apply_candidate` did with it."""
    if change.changed:
        return stored(candidate, change.memory_id, change.op, change.note)
    if change.op == "confirm" and redirected:
        return dropped(candidate, f"duplicate of memory #{change.memory_id}", "upsert", change.memory_id)
    if change.op == "confirm":
        return stored(candidate, change.memory_id, "confirm", "already said; its expiry is refreshed")
    return dropped(candidate, change.note or "nothing to change", "upsert", change.memory_id)


def _after_merges(outcome: Outcome, survivors: dict[int, int]) -> Outcome:
    """`outcome` once the near-duplicate merge ran (`survivors`: deactivated id -> survivor id):
    a memory written and merged away points at its survivor; a survivor names what it absorbed."""
    if outcome.status != "stored":
        return outcome
    if outcome.memory_id in survivors:
        survivor = survivors[outcome.memory_id]
        return replace(outcome, op="merge", memory_id=survivor, reason=f"merged into memory #{survivor}")
    absorbed = [loser for loser, survivor in survivors.items() if survivor == outcome.memory_id]
    if absorbed:
        return replace(outcome, reason=", ".join(f"absorbed memory #{loser}" for loser in absorbed))
    return outcome
