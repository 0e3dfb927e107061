"""The prompt block a chat server puts on the system side of its prompt (R-READ-4)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_tasks.retrieval.search import Hit

HEADER = (
    "Long-term memories about the user (用户的长期记忆), learned in earlier conversations. "
    "Use them when they are relevant; if the user now says otherwise, the user's latest words win."
)
_WHITESPACE = re.compile(r"\s+")


def format_memory_block(hits: Sequence[Hit]) -> str:
    """The header and one line per memory, `- [memory_type] content`; "" when there are no hits.

    Whitespace inside a memory is folded to single spaces so each memory stays on one line.
    """
    if not hits:
        return ""
    lines = [f"- [{hit.memory_type}] {_WHITESPACE.sub(' ', hit.content).strip()}" for hit in hits]
    return "\n".join([HEADER, *lines])
