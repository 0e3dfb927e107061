"""The context an extraction sees besides the message, within one budget (R-PIPE-11).

LONG_TERM_MEMORY_EXTRACT_CONTEXT_MAX_CHARS bounds the conversation summary and the earlier
turns together, counted as they appear in the extract prompt. The pipeline applies the
budget when it builds a `TurnContext`, and the LLM engine applies it again to whatever
`TurnContext` it is given; both call `context_window`, which changes nothing the second time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from memory_tasks.llm import strip_think

# Tool and system output is never context for memories about the user.
CONTEXT_ROLES = ("user", "assistant")


@dataclass(frozen=True)
class ContextWindow:
    """The context that fits: the summary (maybe cut) and the newest earlier turns, oldest first."""

    summary: str
    turns: tuple[dict[str, str], ...]


def context_line(role: str, content: str) -> str:
    """How one earlier turn appears in the extract prompt."""
    return f"[{role}] {content}"


def context_window(turns: Iterable[Mapping[str, Any]], max_chars: int, *, summary: str = "") -> ContextWindow:
    """The summary and earlier turns that fit together in `max_chars` of the extract prompt.

    `turns` are {"role", "content"} mappings, oldest first. Only user and assistant turns are
    kept; assistant text loses its <think> blocks; text is stripped and empty turns go. The
    newest turns are kept first, each costing its `context_line` plus a newline, until the next
    older one does not fit; the summary (stripped) is cut to what is left.
    """
    budget = max(0, max_chars)
    kept: list[dict[str, str]] = []
    used = 0
    for turn in reversed(list(turns)):
        role = str(turn.get("role") or "")
        if role not in CONTEXT_ROLES:
            continue
        content = str(turn.get("content") or "")
        content = (strip_think(content) if role == "assistant" else content).strip()
        if not content:
            continue
        cost = len(context_line(role, content)) + 1
        if used + cost > budget:
            break
        kept.append({"role": role, "content": content})
        used += cost
    kept.reverse()
    return ContextWindow(summary=(summary or "").strip()[: budget - used], turns=tuple(kept))
