"""What an engine sees and answers: the turn, the user's existing memories, the protocols.

Extraction engines (`rules.RulesEngine`, `llm_engine.LLMEngine`) and the stages import these
types; the factory that picks an engine is `extraction.engine`. Consolidation's reviewers
(`extraction.review`) answer a `Reviewer`'s `Decision`s, which the planner in
`memories.consolidation` validates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol

from memory_tasks.extraction.candidates import Candidate


@dataclass(frozen=True)
class TurnContext:
    """The user's turn to extract from, with the turns of the same burst before it.

    `message` and `earlier` (the user's own turns of the same debounce window before it,
    oldest first, issue 16) are the only fact sources. `summary` and `recent` (the turns
    before the window as {"role", "content"} dicts, oldest first) are context only;
    `context.context_window` bounds them together by LONG_TERM_MEMORY_EXTRACT_CONTEXT_MAX_CHARS.
    """

    message: str
    summary: str = ""
    recent: tuple[dict[str, str], ...] = ()
    earlier: tuple[str, ...] = ()

    @property
    def user_turns(self) -> tuple[str, ...]:
        """Every fact source, oldest first: the earlier turns of the burst, then `message`."""
        return (*self.earlier, self.message)


@dataclass(frozen=True)
class ExistingMemory:
    """An active memory of the user as plain values: what refinement and consolidation see.

    A model is shown the first six fields. The stored row's bookkeeping after them is read
    by consolidation's planner (expiry, which of two duplicates survives, the snapshot's
    fingerprint of (id, revision)); refinement ignores it.
    """

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
    is_core: bool = False


class Engine(Protocol):
    name: str

    def extract(self, turn: TurnContext) -> list[Candidate]:
        """Candidates proposed by this turn (not yet validated against the user's memories)."""

    def refine(self, candidates: list[Candidate], existing: list[ExistingMemory]) -> list[Candidate]:
        """The candidates to write: kept, merged into / reusing an existing key, or dropped."""


Verdict = Literal["keep", "delete", "merge", "normalize"]
VERDICTS: tuple[Verdict, ...] = ("keep", "delete", "merge", "normalize")


@dataclass(frozen=True)
class Decision:
    """What a reviewer proposes for one memory; None fields are unchanged. `into_id`: merge target."""

    memory_id: int
    verdict: Verdict
    into_id: int | None = None
    key: str | None = None
    memory_type: str | None = None
    content: str | None = None
    reason: str = ""


class Reviewer(Protocol):
    """An engine's review of a user's memories for consolidation."""

    name: str

    def review(self, rows: Sequence[ExistingMemory]) -> list[Decision]:
        """Proposals for some of `rows`; rows without one are kept as they are."""
