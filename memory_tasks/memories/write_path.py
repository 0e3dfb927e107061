"""Writing a batch of candidates for one user: what the upsert stage and the agent tools both run.

PII redaction (when configured), semantic dedup (a restatement reuses the existing key),
`store.apply_candidate` per candidate (a repeat in other words confirms, judged by the same
scorer: `dedup.says_nothing_new`), then the near-duplicate merge. One path, so a tool
write and an extracted memory are deduplicated, merged and recorded alike (R-PIPE-4, R-WRITE-1).
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from sqlalchemy.orm import Session

from config.settings import get_settings
from memory_tasks.extraction.candidates import Candidate
from memory_tasks.extraction.filters import redact_pii
from memory_tasks.memories.corpus import user_memories
from memory_tasks.memories.dedup import merge_written, redirect_duplicates, says_nothing_new, scorer_for
from memory_tasks.memories.store import WriteContext, apply_candidate


def write_candidates(session: Session, ctx: WriteContext, candidates: list[Candidate]) -> list[int]:
    """Apply candidates for `ctx.user_id` (caller holds the user lock), then merge near-duplicates.

    Returns the ids of every memory that changed, for index sync.
    """
    if get_settings().LONG_TERM_MEMORY_REDACT_PII:
        candidates = [replace(c, content=redact_pii(c.content)) for c in candidates]
    scorer = scorer_for(session)
    corpus = user_memories(session, scorer, ctx.user_id, ctx.now)
    candidates = redirect_duplicates(session, corpus, candidates, ctx)
    restates = partial(says_nothing_new, scorer)
    touched: list[int] = []
    for candidate in candidates:
        change = apply_candidate(session, ctx, candidate, restates)
        if change is not None:
            touched.append(change.memory_id)
    if touched:
        corpus.note_written(session, touched, ctx.now)
        merged = merge_written(session, corpus, ctx, touched)
        corpus.note_written(session, merged, ctx.now)
        touched.extend(merged)
    return sorted(set(touched))
