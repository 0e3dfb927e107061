"""Consolidation's reviewers: the engines that propose a fate for each of a user's memories (R-LIFE-2).

`RulesReviewer` proposes nothing (the planner's deterministic rules do the work offline);
`LLMReviewer` asks the chat model. Either one's answer is only a proposal: the planner in
`memories.consolidation` validates every `Decision` against the write path's hard filters.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any

from config.settings import Settings, get_settings
from memory_tasks.extraction.candidates import MAX_CONTENT_CHARS, MEMORY_TYPES
from memory_tasks.extraction.engine import choose_engine
from memory_tasks.extraction.prompts import load_prompt
from memory_tasks.extraction.types import VERDICTS, Decision, ExistingMemory, Reviewer
from memory_tasks.llm import LLMOutputError, chat_json, items_schema, json_items

logger = logging.getLogger(__name__)

LLM_CHUNK_SIZE = 60
MAX_REASON_CHARS = 200

_NULLABLE_TEXT = {"type": ["string", "null"]}
# The answer of the consolidate prompt: {"actions": [...]}, one per memory id shown. As for the
# extract and refine schemas (`llm_engine`), a server with structured output is held to it and the
# ladder in `llm.chat_json` falls back where it is rejected; `parse_decisions` still validates
# every field, whatever the server enforced.
CONSOLIDATE_SCHEMA = items_schema(
    "actions",
    {
        "id": {"type": "integer"},
        "action": {"type": "string", "enum": list(VERDICTS)},
        "into_id": {"type": ["integer", "null"]},
        "key": _NULLABLE_TEXT,
        "memory_type": {"type": ["string", "null"], "enum": [*MEMORY_TYPES, None]},
        "content": {"type": ["string", "null"], "maxLength": MAX_CONTENT_CHARS},
        "reason": _NULLABLE_TEXT,
    },
    ["id", "action"],
)


class RulesReviewer:
    """The offline engine: no proposals; triage and finalize's deterministic rules do the work."""

    name = "rules"

    def review(self, rows: Sequence[ExistingMemory]) -> list[Decision]:
        return []


class LLMReviewer:
    """Review by the chat model (`memory_tasks.llm.chat_json`), LLM_CHUNK_SIZE rows per call.

    Rows are sorted by type and key before chunking so related memories meet in one call;
    near-duplicates across chunks are still merged by the planner. The answer is untrusted:
    only ids of the chunk are accepted, and the planner validates every change. Raises the
    `memory_tasks.llm` errors; LLMOutputError when an answer holds no usable action.
    """

    name = "llm"

    def __init__(self, settings: Settings | None = None, chunk_size: int = LLM_CHUNK_SIZE) -> None:
        self._settings = settings
        self.chunk_size = chunk_size
        self.prompt = load_prompt("consolidate")

    def review(self, rows: Sequence[ExistingMemory]) -> list[Decision]:
        ordered = sorted(rows, key=lambda r: (r.memory_type, r.key, r.id))
        decisions: list[Decision] = []
        for start in range(0, len(ordered), self.chunk_size):
            decisions += self._review_chunk(ordered[start : start + self.chunk_size])
        return decisions

    def _review_chunk(self, chunk: Sequence[ExistingMemory]) -> list[Decision]:
        settings = self._settings or get_settings()
        payload = {
            "memories": [
                {
                    "id": r.id,
                    "key": r.key,
                    "memory_type": r.memory_type,
                    "content": r.content,
                    "importance": r.importance,
                    "confidence": round(r.confidence, 2),
                }
                for r in chunk
            ]
        }
        messages = [
            {"role": "system", "content": self.prompt.text},
            {
                "role": "user",
                "content": json.dumps(payload, ensure_ascii=False, indent=1)
                + '\n\nAnswer with the JSON object {"actions": [...]}.',
            },
        ]
        result = chat_json(
            messages,
            timeout=settings.LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC,
            purpose="consolidate",
            schema=CONSOLIDATE_SCHEMA,
            settings=settings,
        )
        items = json_items(result.value, wrapper="actions", raw_text=result.raw_text)
        decisions = parse_decisions(items, {row.id for row in chunk})
        if items and not decisions:
            raise LLMOutputError("consolidate answer holds no usable action", result.raw_text)
        return decisions


def _as_id(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _as_text(value: Any) -> str | None:
    return value.strip() or None if isinstance(value, str) else None


def parse_decisions(items: Sequence[Any], allowed_ids: set[int]) -> list[Decision]:
    """Decisions from a model's answer items, keeping only those about `allowed_ids`.

    An item naming an id it was not shown (another user's, an invented one), an unknown
    action, or a merge whose `into_id` is not an allowed id is dropped and logged.
    """
    decisions = []
    for item in items:
        if not isinstance(item, dict):
            continue
        memory_id = _as_id(item.get("id"))
        verdict = str(item.get("action") or "").strip().lower()
        into_id = _as_id(item.get("into_id")) if verdict == "merge" else None
        if (
            memory_id not in allowed_ids
            or verdict not in VERDICTS
            or (verdict == "merge" and into_id not in allowed_ids)
        ):
            logger.info("review item ignored", extra={"memory_id": str(item.get("id"))[:20], "action": verdict[:20]})
            continue
        decisions.append(
            Decision(
                memory_id,
                verdict,  # type: ignore[arg-type]
                into_id,
                key=_as_text(item.get("key")),
                memory_type=_as_text(item.get("memory_type")),
                content=_as_text(item.get("content")),
                reason=str(item.get("reason") or "")[:MAX_REASON_CHARS],
            )
        )
    return decisions


def get_reviewer(engine: str | None = None, settings: Settings | None = None) -> Reviewer:
    """The reviewer for `engine`: "llm", "rules", or None/"auto" (LLM when one is configured).

    Raises ValueError for an unknown engine, or "llm" with no chat model configured.
    """
    settings = settings or get_settings()
    return LLMReviewer(settings) if choose_engine(engine, settings) == "llm" else RulesReviewer()
