"""The prompt block a chat server puts on the system side of its prompt (R-READ-4)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_tasks.retrieval.search import Hit, guards_safety
from memory_tasks.text import without_control_chars

HEADER = (
    "Long-term memories about the user (用户的长期记忆), learned in earlier conversations. "
    "Use them when they are relevant; if the user now says otherwise, the user's latest words win."
)
# Sub-headers, only when core memories are among the hits (R-READ-6): they come first.
CORE_HEADER = "Always apply, whatever the question (始终遵守):"
RELEVANT_HEADER = "Relevant to this message (相关记忆):"
_WHITESPACE = re.compile(r"\s+")


def _line(hit: Hit) -> str:
    return f"- [{hit.memory_type}] {_WHITESPACE.sub(' ', without_control_chars(hit.content)).strip()}"


def format_memory_block(hits: Sequence[Hit]) -> str:
    """The header and one line per memory, `- [memory_type] content`; "" when there are no hits.

    Core memories come first under CORE_HEADER, safety facts (an allergy, a condition, a diet:
    `core.is_safety_memory`) before the rules of replying, the others after under
    RELEVANT_HEADER; each group in the hits' order. Without core hits the lines follow the
    header directly. Whitespace inside a memory is folded to single spaces so
    each memory stays on one line; escape sequences and control characters are dropped (a row
    stored before they were stripped at write time never reaches the prompt).
    """
    if not hits:
        return ""
    # A stable sort: what keeps the user safe leads the block, whatever the question ranked first.
    core = [_line(hit) for hit in sorted((h for h in hits if h.is_core), key=lambda h: not guards_safety(h))]
    rest = [_line(hit) for hit in hits if not hit.is_core]
    if not core:
        return "\n".join([HEADER, *rest])
    return "\n".join([HEADER, CORE_HEADER, *core, *([RELEVANT_HEADER, *rest] if rest else [])])
