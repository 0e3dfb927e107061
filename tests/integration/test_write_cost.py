"""What one write costs in embedding calls, against real PostgreSQL (issue 12 item 2).

The embedder is counted where the texts reach the model: a message's new texts go to it in
one batch per side (query-side content for dedup, passage-side index text for the index),
and no text is ever embedded twice for one model and side, whichever stage asks and whether
or not this process kept it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from memory_tasks.api import list_memories, record_turn
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import HistorySource
from memory_tasks.db.session import session_scope
from memory_tasks.extraction.candidates import Candidate
from memory_tasks.memories.corpus import forget_kept, user_memories
from memory_tasks.memories.dedup import refine_shortlist, scorer_for
from memory_tasks.memories.store import WriteContext, apply_candidate, lock_user
from memory_tasks.memories.write_path import write_candidates
from memory_tasks.vectors import index
from memory_tasks.vectors.embedders import get_embedder
from tests.helpers import statements_sent

pytestmark = [pytest.mark.slow]

USER = 1301


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, list[str]]]]:
    """Every call into the process' embedder as (side, texts)."""
    embedder = get_embedder()
    seen: list[tuple[str, list[str]]] = []
    for side in ("passages", "queries"):
        real = getattr(embedder, f"embed_{side}")

        def counted(texts: list[str], real=real, side=side):
            seen.append((side, list(texts)))
            return real(texts)

        monkeypatch.setattr(embedder, f"embed_{side}", counted)
    yield seen


def _write(candidates: list[Candidate]) -> list[int]:
    """The ids of the memories the write changed."""
    with session_scope() as session:
        lock_user(session, USER)
        ctx = WriteContext(USER, HistorySource.EXTRACTION, db_now(session), 180)
        return write_candidates(session, ctx, candidates).touched


def _facts(start: int, count: int) -> list[Candidate]:
    # Different numbers are different facts: none of these merges with another.
    return [
        Candidate("upsert", "fact", f"books-{n}", f"Has read {n} books about topic {n}")
        for n in range(start, start + count)
    ]


def test_a_message_embeds_its_new_texts_in_one_call_per_side_and_never_twice(db, calls) -> None:
    """Issue 12 item 2: one batch call per message and side; a text embedded once for a model and side."""
    record_turn(USER, "seed")
    _write(_facts(0, 60))
    calls.clear()

    new = _facts(100, 3)
    with session_scope() as session:  # refinement (60 memories > its limit) scores the candidates first
        refine_shortlist(session, scorer_for(session), USER, db_now(session), new, 50)
    assert calls == [("queries", [c.content for c in new])]

    touched = _write(new)  # dedup and merge reuse refinement's vectors and the kept memories'
    assert len(touched) == 3 and calls == [("queries", [c.content for c in new])]

    index.embed_memories(touched)  # the embed stage: the three index texts in one call
    assert len(calls) == 2 and calls[1][0] == "passages" and len(calls[1][1]) == 3

    calls.clear()  # a message refinement did not score (the rules engine): dedup embeds its texts in one call
    more = _facts(200, 3)
    _write(more)
    assert calls == [("queries", [c.content for c in more])]

    calls.clear()
    # Again, and from a process that kept nothing: PostgreSQL's cache answers, the model is not asked.
    forget_kept()
    index.PROCESS_VECTORS.clear()
    index.embed_memories(touched)
    with session_scope() as session:
        refine_shortlist(session, scorer_for(session), USER, db_now(session), new, 50)
    _write(_facts(100, 3))  # the same statements again: confirmations
    assert calls == []
    assert len(list_memories(USER)) == 66


def test_a_write_made_elsewhere_is_seen_by_the_kept_copy(db) -> None:
    """Issue 12 item 2 / R-PIPE-4: the copy of a user's memories a process keeps never hides a newer write.

    A memory written behind the kept copy's back (straight through the write model, as
    another process would) is still found by dedup, so its restatement confirms it.
    """
    record_turn(USER, "seed")
    _write(_facts(0, 5))  # this process now keeps the user's memories
    with session_scope() as session:
        lock_user(session, USER)
        ctx = WriteContext(USER, HistorySource.TOOL, db_now(session), 180)
        apply_candidate(session, ctx, Candidate("upsert", "preference", "food-sichuan", "喜欢吃川菜"))
    _write([Candidate("upsert", "preference", "sichuan-food-love", "喜欢吃川菜。")])
    assert [m["memory_key"] for m in list_memories(USER) if m["memory_type"] == "preference"] == ["food-sichuan"]


def test_the_next_write_of_a_user_starts_with_one_query(db) -> None:
    """Issue 12 item 2: after a write, this process's copy matches PostgreSQL's digest; nothing else is read."""
    record_turn(USER, "seed")
    _write(_facts(0, 20))
    _write(_facts(50, 2))  # a second write: the digest updated from the rows it wrote
    with session_scope() as session:
        now = db_now(session)
        scorer = scorer_for(session)
        with statements_sent() as statements:
            kept = user_memories(session, scorer, USER, now)
    assert len(statements) == 1 and len(kept.rows) == 22
