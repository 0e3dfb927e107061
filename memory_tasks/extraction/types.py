"""What an extraction engine sees and answers: the turn, the user's existing memories, the protocol.

Engines (`rules.RulesEngine`, `llm_engine.LLMEngine`) and the stages import these types; the
factory that picks an engine is `extraction.engine`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from memory_tasks.extraction.candidates import Candidate


@dataclass(frozen=True)
class TurnContext:
    """One user turn to extract from.

    `message` is the only fact source. `summary` and `recent` (earlier turns as
    {"role", "content"} dicts, oldest first) are context only; `context.context_window`
    bounds them together by LONG_TERM_MEMORY_EXTRACT_CONTEXT_MAX_CHARS.
    """

    message: str
    summary: str = ""
    recent: tuple[dict[str, str], ...] = ()


@dataclass(frozen=True)
class ExistingMemory:
    """An active memory of the user, as refinement sees it."""

    id: int
    key: str
    memory_type: str
    content: str
    importance: int = 3
    confidence: float = 0.8


class Engine(Protocol):
    name: str

    def extract(self, turn: TurnContext) -> list[Candidate]:
        """Candidates proposed by this turn (not yet validated against the user's memories)."""

    def refine(self, candidates: list[Candidate], existing: list[ExistingMemory]) -> list[Candidate]:
        """The candidates to write: kept, merged into / reusing an existing key, or dropped."""
