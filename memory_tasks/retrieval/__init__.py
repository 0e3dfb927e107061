"""Retrieval before a reply (SPEC §8): `retrieve` the memories, `format_memory_block` them.

hits = retrieve(user_id, question, summary=conversation_summary)
system_prompt += "\\n\\n" + format_memory_block(hits)
"""

from memory_tasks.retrieval.prompt import format_memory_block
from memory_tasks.retrieval.search import Hit, find_memories, retrieve

__all__ = ["Hit", "find_memories", "format_memory_block", "retrieve"]
