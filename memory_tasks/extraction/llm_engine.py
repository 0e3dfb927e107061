"""The production engine: extraction and refinement by an OpenAI-compatible chat model (R-LLM-1).

Only the user's message is a fact source; the summary and earlier turns go into the
prompt as marked context (seed: 事实来源与硬过滤). Whatever the model answers is
untrusted: candidates are validated by `coerce_candidate`, refine decisions may only
point at keys the caller passed in, and nothing in the output can name a user.
Errors are those of `memory_tasks.llm` (transient / permanent / output).

Both calls ask for JSON-schema structured output (`EXTRACT_SCHEMA`, `REFINE_SCHEMA`); a
server that rejects it gets JSON mode, then plain text parsed tolerantly, and is remembered
per base URL and model (`llm.chat_json`). The schemas describe the answer the prompts ask
for; validation stays here, field by field, whatever the server enforced.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from config.settings import Settings, get_settings
from memory_tasks.extraction.candidates import (
    MAX_CONTENT_CHARS,
    MEMORY_TYPES,
    OPS,
    Candidate,
    InvalidCandidate,
    checked_int,
    checked_text,
    coerce_candidate,
    coerce_candidates,
    is_key,
)
from memory_tasks.extraction.context import context_line, context_window
from memory_tasks.extraction.prompts import Prompt, load_prompt
from memory_tasks.extraction.types import ExistingMemory, TurnContext
from memory_tasks.llm import LLMOutputError, chat_json, items_schema, json_items

logger = logging.getLogger(__name__)

# The caller picks the most relevant memories; this only bounds the prompt if it did not.
MAX_EXISTING = 50
# Our section markers; the same text inside user data is defused so it cannot close a section.
MARKERS = ("conversation_summary", "recent_context", "user_message", "user_turns")
ACTIONS = ("keep", "merge", "reuse", "drop")

_NULLABLE_INT = {"type": ["integer", "null"]}
# The answer of the extract prompt: {"candidates": [...]}, each item as extract.v3.md lists it.
EXTRACT_SCHEMA = items_schema(
    "candidates",
    {
        "op": {"type": "string", "enum": list(OPS)},
        "memory_type": {"type": "string", "enum": list(MEMORY_TYPES)},
        "key": {"type": "string"},
        "content": {"type": "string", "maxLength": MAX_CONTENT_CHARS},
        "importance": {"type": "integer", "minimum": 1, "maximum": 5},
        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        "ttl_days": _NULLABLE_INT,
        "reason": {"type": "string"},
        "turn": {"type": "integer", "minimum": 1},
    },
    ["op", "memory_type", "key", "content", "importance", "confidence"],
)
# The answer of the refine prompt: {"decisions": [...]}, one per candidate index.
REFINE_SCHEMA = items_schema(
    "decisions",
    {
        "index": {"type": "integer", "minimum": 0},
        "action": {"type": "string", "enum": list(ACTIONS)},
        "target_key": {"type": ["string", "null"]},
        "key": {"type": ["string", "null"]},
        "content": {"type": ["string", "null"]},
        "importance": _NULLABLE_INT,
        "confidence": {"type": ["number", "null"]},
        "ttl_days": _NULLABLE_INT,
        "reason": {"type": ["string", "null"]},
    },
    ["index", "action"],
)


class LLMEngine:
    """Extract and refine with the chat model configured by OPENAI_* settings."""

    name = "llm"

    def __init__(self, settings: Settings | None = None) -> None:
        self._settings = settings
        self.extract_prompt: Prompt = load_prompt("extract")
        self.refine_prompt: Prompt = load_prompt("refine")

    @property
    def settings(self) -> Settings:
        return self._settings or get_settings()

    def extract(self, turn: TurnContext) -> list[Candidate]:
        """Valid candidates stated in the user's turns (`turn.user_turns`); invalid ones are logged and dropped.

        Raises the `memory_tasks.llm` errors; LLMOutputError when the answer is no usable JSON.
        """
        settings = self.settings
        messages = [
            {"role": "system", "content": self.extract_prompt.text},
            {"role": "user", "content": build_extract_input(turn, settings.LONG_TERM_MEMORY_EXTRACT_CONTEXT_MAX_CHARS)},
        ]
        result = chat_json(
            messages,
            timeout=settings.LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC,
            purpose="extract",
            settings=settings,
            schema=EXTRACT_SCHEMA,
        )
        items = json_items(result.value, wrapper="candidates", raw_text=result.raw_text)
        return coerce_candidates(items, stage="extract")

    def refine(self, candidates: list[Candidate], existing: list[ExistingMemory]) -> list[Candidate]:
        """The candidates to write, in input order, after the model's keep/merge/reuse/drop.

        merge/reuse set `reuse_key` to an existing key (merge also replaces the content with
        the merged text and writes it as an upsert); drop omits the candidate. A decision
        naming a key that is not in `existing`, an unknown action, a missing decision, or a
        decided value that fails validation all leave the candidate as it was (keep).
        Raises LLMOutputError when the answer holds no usable decisions at all.
        """
        if not candidates:
            return []
        settings = self.settings
        shown = existing[:MAX_EXISTING]
        messages = [
            {"role": "system", "content": self.refine_prompt.text},
            {"role": "user", "content": build_refine_input(candidates, shown)},
        ]
        result = chat_json(
            messages,
            timeout=settings.LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC,
            purpose="refine",
            settings=settings,
            schema=REFINE_SCHEMA,
        )
        items = json_items(result.value, wrapper="decisions", raw_text=result.raw_text)
        decisions = _index_decisions(items, len(candidates))
        if items and not decisions:
            raise LLMOutputError("refine answer holds no usable decision", result.raw_text)
        existing_keys = {memory.key for memory in shown}
        refined = []
        for index, candidate in enumerate(candidates):
            decided = apply_decision(candidate, decisions.get(index), existing_keys)
            if decided is not None:
                refined.append(decided)
        return refined


def build_extract_input(turn: TurnContext, max_context_chars: int) -> str:
    """The user-role content of the extract call: marked context, then the user's turn(s).

    The context is `context_window(turn.recent, max_context_chars, summary=turn.summary)`:
    the newest user and assistant turns (assistant text without <think> blocks) and the
    summary within the budget. The user message is never cut.
    """
    window = context_window(turn.recent, max_context_chars, summary=turn.summary)
    # _defuse keeps the length, so the defused lines stay within the window's budget.
    kept = [context_line(t["role"], _defuse(t["content"])) for t in window.turns]
    summary = _defuse(window.summary)
    return (
        "<conversation_summary>\n"
        f"{summary or '(none)'}\n"
        "</conversation_summary>\n\n"
        "<recent_context>\n"
        f"{chr(10).join(kept) or '(none)'}\n"
        "</recent_context>\n\n"
        f"{_user_part(turn.user_turns)}\n\n"
        f"Extract long-term memory candidates from the {'user_turns' if turn.earlier else 'user_message'} "
        'section only; answer with the JSON object {"candidates": [...]}.'
    )


def _user_part(turns: tuple[str, ...]) -> str:
    """The fact source: one <user_message>, or a burst as <user_turns> of them, oldest first (issue 16)."""
    messages = [f"<user_message>\n{_defuse(text.strip())}\n</user_message>" for text in turns]
    if len(messages) == 1:
        return messages[0]
    return "<user_turns>\n" + "\n".join(messages) + "\n</user_turns>"


def build_refine_input(candidates: list[Candidate], existing: list[ExistingMemory]) -> str:
    """The user-role content of the refine call: candidates and existing memories as JSON."""
    payload = {
        "candidates": [
            {
                "index": index,
                "op": candidate.op,
                "memory_type": candidate.memory_type,
                "key": candidate.key,
                "content": candidate.content,
                "importance": candidate.importance,
                "confidence": candidate.confidence,
                "ttl_days": candidate.ttl_days,
            }
            for index, candidate in enumerate(candidates)
        ],
        "existing_memories": [
            {"id": memory.id, "key": memory.key, "memory_type": memory.memory_type, "content": memory.content}
            for memory in existing
        ],
    }
    return json.dumps(payload, ensure_ascii=False, indent=1) + '\n\nAnswer with the JSON object {"decisions": [...]}.'


def apply_decision(candidate: Candidate, decision: dict[str, Any] | None, existing_keys: set[str]) -> Candidate | None:
    """The candidate as `decision` leaves it, or None when the decision is drop."""
    if decision is None:
        return candidate
    try:
        action = checked_text(decision.get("action"), "action").lower()
        target = checked_text(decision.get("target_key"), "target_key")
    except InvalidCandidate as exc:
        logger.info("refine decision invalid, keeping candidate", extra={"key": candidate.key, "reason": str(exc)})
        return candidate
    if action == "drop":
        # The model's own reason is not logged: it may quote what the user said.
        logger.info("candidate dropped by refine", extra={"key": candidate.key})
        return None
    if action not in ACTIONS:
        logger.info("unknown refine action, keeping candidate", extra={"key": candidate.key})
        return candidate
    if action in ("merge", "reuse") and target not in existing_keys:
        # Only keys the caller passed in can be targeted; anything else may be invented.
        logger.info(
            "refine target is not an existing key, keeping",
            extra={"key": candidate.key, "target": target[:60] if is_key(target) else "(not a key)"},
        )
        action = "keep"
    fields = candidate.to_json()
    for name in ("key", "content", "importance", "confidence", "ttl_days", "reason"):
        # null means "unchanged" except for ttl_days, where it means "lasting".
        if name in decision and (decision[name] is not None or name == "ttl_days"):
            fields[name] = decision[name]
    if action == "keep":
        fields["reuse_key"] = None
    else:
        fields["reuse_key"] = target
        if action == "merge" and candidate.op == "append":
            # The merged text already holds the old content; appending it would repeat it.
            fields["op"] = "upsert"
    try:
        return coerce_candidate(fields)
    except InvalidCandidate as exc:
        logger.info("refine decision invalid, keeping candidate", extra={"key": candidate.key, "reason": str(exc)})
        return candidate


def _index_decisions(items: list[Any], count: int) -> dict[int, dict[str, Any]]:
    """Decisions by candidate index; items without a usable index use their position.

    Out-of-range and repeated indexes are ignored (the first decision for an index wins).
    """
    decisions: dict[int, dict[str, Any]] = {}
    for position, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        try:
            index = checked_int(item.get("index", position), "index")
        except InvalidCandidate:
            continue
        if 0 <= index < count and index not in decisions:
            decisions[index] = item
    return decisions


def _defuse(text: str) -> str:
    """`text` with our section markers made inert, so data cannot open or close a section."""
    for marker in MARKERS:
        text = text.replace(f"<{marker}>", f"‹{marker}›").replace(f"</{marker}>", f"‹/{marker}›")
    return text
