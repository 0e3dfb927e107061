"""What an extraction engine is: the inputs it sees and the two calls it answers.

Two engines implement it: the offline rules engine (`rules.RulesEngine`) and the
OpenAI-compatible chat model (`llm_engine.LLMEngine`). `get_engine` picks one from config.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from memory_tasks.extraction.candidates import Candidate


@dataclass(frozen=True)
class TurnContext:
    """One user turn to extract from.

    `message` is the only fact source. `summary` and `recent` (earlier turns as
    {"role", "content"} dicts, assistant text already stripped of <think> blocks and the
    whole capped at LONG_TERM_MEMORY_EXTRACT_CONTEXT_MAX_CHARS) are context only.
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


def select_engine(use_llm: bool) -> Engine:
    """The LLM engine when a chat model is configured, else the offline rules engine."""
    if use_llm:
        from memory_tasks.extraction.llm_engine import LLMEngine

        return LLMEngine()
    from memory_tasks.extraction.rules import RulesEngine

    return RulesEngine()
