"""The one engine factory: which engine runs, for extraction and for consolidation's review.

"llm" is the OpenAI-compatible chat model (`llm_engine.LLMEngine`), "rules" the offline
rules engine (`rules.RulesEngine`); "auto" (or None) is the LLM when one is configured.
"""

from __future__ import annotations

from typing import Literal

from config.settings import Settings
from memory_tasks.extraction.llm_engine import LLMEngine
from memory_tasks.extraction.rules import RulesEngine
from memory_tasks.extraction.types import Engine

EngineName = Literal["llm", "rules"]


def choose_engine(requested: str | None, settings: Settings) -> EngineName:
    """The engine to run for `requested` ("auto"/None, "llm" or "rules").

    Raises ValueError for an unknown name, or "llm" with no chat model configured.
    """
    if requested in (None, "auto"):
        return "llm" if settings.use_llm else "rules"
    if requested == "llm" and not settings.llm_configured:
        raise ValueError("engine 'llm' needs OPENAI_BASE_URL or OPENAI_API_KEY")
    if requested not in ("llm", "rules"):
        raise ValueError(f"unknown engine {requested!r} (auto, llm or rules)")
    return requested


def select_engine(use_llm: bool) -> Engine:
    """The LLM engine when a chat model is configured, else the offline rules engine."""
    return LLMEngine() if use_llm else RulesEngine()
