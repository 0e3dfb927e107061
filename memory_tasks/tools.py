"""The agent's memory tools (R-WRITE-1): OpenAI tool schemas plus one dispatcher.

A chat server passes `TOOL_SCHEMAS` to `chat.completions.create(tools=...)` and answers
every tool call with `execute(user_id, call.function.name, call.function.arguments)`,
sending the returned dict back (JSON) as the tool message.

- `memory_save` creates or overwrites the memory under a key.
- `memory_append` adds sentences to the memory under a key. When the key does not exist
  it creates the memory (type `fact` unless `memory_type` is given): the model asked
  for the information to be kept, and refusing would only cost another round trip.
  Appending never changes an existing memory's type, importance or confidence, and
  never shortens its lifetime.
- `memory_delete` deactivates the memory under a key (kept in the history).
- `memory_list` lists the user's valid memories (active, unexpired, noise filtered).

Writes go through the pipeline's own write path (`memories.write_path.write_candidates`:
semantic dedup, `apply_candidate`, merge) in one transaction under the user's write lock, with
history rows of source `tool`; the touched rows are DIRTY and their index sync is
enqueued at once, so a saved memory reaches dense search within seconds.

Every bad call returns `{"error": "..."}` written for the model and changes nothing;
nothing raises into the chat loop. The user is always the `user_id` the chat server
passes, never anything in the model's arguments (R-SAFE-3).
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from config.settings import get_settings
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import HistorySource, LongTermMemory, User
from memory_tasks.db.session import session_scope
from memory_tasks.dispatch import enqueue_index_sync
from memory_tasks.extraction.candidates import (
    MAX_CONTENT_CHARS,
    MAX_KEY_CHARS,
    MEMORY_TYPES,
    Candidate,
    InvalidCandidate,
    coerce_candidate,
)
from memory_tasks.extraction.gate import refusal
from memory_tasks.memories.store import WriteContext, load_for_update, lock_user
from memory_tasks.memories.write_path import write_candidates
from memory_tasks.shapes import list_memories, memory_json
from memory_tasks.text import InvalidUserId, checked_user_id

logger = logging.getLogger(__name__)

Result = dict[str, Any]
DEFAULT_LIST_LIMIT = 20
MAX_LIST_LIMIT = 100
# Type of a memory that memory_append creates when the key is new and no type is given.
APPEND_DEFAULT_TYPE = "fact"
KEY_HINT = (
    "use a short English slug such as 'food-preference' or 'home-city' (a-z, 0-9, '-', '_'), "
    "also when the user writes Chinese; the Chinese text belongs in content"
)


class ToolError(ValueError):
    """A bad tool call; the message is what the model reads in `{"error": ...}`."""


# --- parameters: one declaration gives both the JSON schema and the argument check ------


@dataclass(frozen=True)
class Param:
    """One tool argument: its JSON schema and whether the model must send it."""

    name: str
    schema: dict[str, Any]
    required: bool = False


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    params: tuple[Param, ...]
    run: Callable[[int, dict[str, Any]], Result] = field(repr=False)

    def schema(self) -> dict[str, Any]:
        """The OpenAI tool definition of this tool."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": {
                    "type": "object",
                    "properties": {p.name: p.schema for p in self.params},
                    "required": [p.name for p in self.params if p.required],
                    "additionalProperties": False,
                },
            },
        }


_JSON_TYPE_NAMES = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "object"}


def _type_name(value: Any) -> str:
    return "null" if value is None else _JSON_TYPE_NAMES.get(type(value), type(value).__name__)


def _checked_value(param: Param, value: Any) -> Any:
    """`value` as the schema's type (3.0 -> 3 for integers), or ToolError saying what is wrong."""
    expected = param.schema["type"]
    if expected == "string":
        if not isinstance(value, str):
            raise ToolError(f"{param.name} must be a string, got {_type_name(value)}")
        if "\x00" in value:
            raise ToolError(f"{param.name} contains a NUL character")
        if not _encodable(value):
            raise ToolError(f"{param.name} is not valid UTF-8 text (it holds a lone surrogate)")
        return value
    # bool is an int in Python but not a number in JSON.
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ToolError(
            f"{param.name} must be {'an integer' if expected == 'integer' else 'a number'}, got {_type_name(value)}"
        )
    if expected == "integer":
        if isinstance(value, float) and not value.is_integer():
            raise ToolError(f"{param.name} must be an integer, got {value}")
        value = int(value)
    low, high = param.schema.get("minimum", -math.inf), param.schema.get("maximum", math.inf)
    # Written so that NaN fails too.
    if not low <= value <= high:
        raise ToolError(f"{param.name} must be between {low} and {high}, got {value}")
    return value


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates, e.g. from a JSON "\ud800"
        return False
    return True


def checked_arguments(tool: Tool, arguments: dict[str, Any]) -> dict[str, Any]:
    """The arguments with types and ranges checked; an optional one sent as null counts as absent.

    Raises ToolError for unknown names (the user can never be chosen by the model),
    missing required ones and wrong types.
    """
    known = {p.name for p in tool.params}
    unknown = sorted(set(arguments) - known)
    if unknown:
        # Names come from the model: shown shortened, never in full.
        shown = ", ".join(name[:40] for name in unknown[:5])
        raise ToolError(f"unknown argument(s) {shown}; {tool.name} takes {', '.join(sorted(known))}")
    checked: dict[str, Any] = {}
    for param in tool.params:
        value = arguments.get(param.name)
        if value is None:
            if param.required:
                raise ToolError(f"missing required argument {param.name!r}")
            continue
        checked[param.name] = _checked_value(param, value)
    return checked


def parse_arguments(arguments: str | bytes | dict[str, Any] | None) -> dict[str, Any]:
    """The model's arguments as a dict: a JSON object string, a dict, or nothing (= no arguments)."""
    if arguments is None:
        return {}
    if isinstance(arguments, bytes):
        try:
            arguments = arguments.decode("utf-8")
        except UnicodeDecodeError:
            raise ToolError("arguments are not valid UTF-8") from None
    if isinstance(arguments, str):
        if not arguments.strip():
            return {}
        try:
            arguments = json.loads(arguments)
        except ValueError as exc:
            raise ToolError(f"arguments are not valid JSON ({exc}); send one JSON object") from None
    if not isinstance(arguments, dict):
        raise ToolError(f"arguments must be a JSON object, got {_type_name(arguments)}")
    return arguments


# --- validation shared by the tools ------------------------------------------------------


def _memory_type(raw: str) -> str:
    memory_type = raw.strip().lower()
    if memory_type == "profile":
        raise ToolError(
            "profile details (nickname, the assistant's name, emoji...) are not long-term memories; do not save them"
        )
    if memory_type not in MEMORY_TYPES:
        raise ToolError(f"unknown memory_type {raw!r}; use one of {', '.join(MEMORY_TYPES)}")
    return memory_type


def _candidate(data: dict[str, Any]) -> Candidate:
    """`coerce_candidate` (the pipeline's validation) with its reason turned into a tool error."""
    try:
        return coerce_candidate(data)
    except InvalidCandidate as exc:
        hint = f"; {KEY_HINT}" if "key" in str(exc) else ""
        raise ToolError(f"{exc}{hint}") from None


def _checked_key(raw: str) -> str:
    """The key as the pipeline normalises and accepts it ('Home City' -> 'home-city')."""
    # A delete needs no type or content; any valid type lets coerce_candidate check the key alone.
    return _candidate({"op": "delete", "memory_type": MEMORY_TYPES[0], "key": raw}).key


def _admit(candidate: Candidate) -> None:
    """The pipeline's gate (hard filters, confidence floor: R-TYPE-3/4, R-PIPE-3), as tool errors."""
    settings = get_settings()
    refused = refusal(candidate, settings)
    if refused is None:
        return
    if refused.kind == "boundary":
        raise ToolError(f"not a long-term memory: {refused.reason}")
    raise ToolError(
        f"confidence {candidate.confidence} is below the minimum "
        f"{settings.LONG_TERM_MEMORY_MIN_CONFIDENCE}; save only what the user clearly stated"
    )


# --- the four tools -----------------------------------------------------------------------


def _active(session: Session, user_id: int, key: str) -> LongTermMemory | None:
    """The user's active memory under `key`, row-locked, or None."""
    memory = load_for_update(session, user_id, key)
    return memory if memory is not None and memory.is_active else None


def _kept_ttl_days(memory: LongTermMemory, now: datetime, default_days: int) -> int | None:
    """The ttl_days that keeps `memory`'s expiry when it is later than the default TTL would give.

    None means the default: an append extends a memory's life, it never shortens it.
    """
    if memory.expires_at is None:
        return None
    remaining = math.ceil((memory.expires_at - now).total_seconds() / 86400)
    return remaining if remaining > default_days else None


def _write(user_id: int, key: str, build: Callable[[LongTermMemory | None, WriteContext], Candidate]) -> Result:
    """Write the candidate `build(active memory under key, ctx)` in one transaction under the user's lock.

    `build` raises ToolError to refuse; then the transaction is rolled back and nothing
    changes. The write goes through the pipeline's write path (semantic dedup, apply,
    merge); then the index sync of every touched row is enqueued. `op` in the result is
    create / upsert / append / delete, or `unchanged` when the memory already said this
    (its lifetime is still extended).
    """
    with session_scope() as session:
        lock_user(session, user_id)
        # Memories reference their user; a user first seen through a tool call is created here.
        session.execute(pg_insert(User).values(id=user_id).on_conflict_do_nothing())
        ctx = WriteContext(
            user_id=user_id,
            source=HistorySource.TOOL,
            now=db_now(session),
            default_ttl_days=get_settings().LONG_TERM_MEMORY_DEFAULT_TTL_DAYS,
        )
        before = _active(session, user_id, key)
        existed = before is not None
        candidate = build(before, ctx)
        if candidate.op != "delete":
            _admit(candidate)
        touched = write_candidates(session, ctx, [candidate]).touched
        result = _write_result(session, user_id, candidate, existed, touched)
    result["index"] = enqueue_index_sync(touched)
    return result


def _write_result(session: Session, user_id: int, candidate: Candidate, existed: bool, touched: list[int]) -> Result:
    """What the model is told: the op and the memory that now holds the information."""
    written = session.scalars(
        select(LongTermMemory).where(
            LongTermMemory.user_id == user_id, LongTermMemory.memory_key == candidate.target_key
        )
    ).one()
    if written.id not in touched:
        op = "unchanged"
    else:
        op = candidate.op if existed else "create"
    notes = []
    if candidate.target_key != candidate.key:
        # Semantic dedup (R-PIPE-4): the candidate restated a memory stored under another key.
        notes.append(f"this restates the existing memory {candidate.target_key!r}, which was kept")
    shown = written
    if not written.is_active and written.merged_into_id is not None:
        shown = session.get(LongTermMemory, written.merged_into_id) or written
        notes.append(f"merged into the near-identical memory {shown.memory_key!r}")
    result: Result = {"ok": True, "op": op, "memory": memory_json(shown)}
    if notes:
        result["note"] = "; ".join(notes)
    return result


def memory_save(user_id: int, args: dict[str, Any]) -> Result:
    """Create or overwrite the memory under args["key"]; the result shows the memory as stored."""
    memory_type = _memory_type(args["memory_type"])
    data = {**args, "op": "upsert", "memory_type": memory_type, "reason": "agent tool memory_save"}
    candidate = _candidate(data)
    return _write(user_id, candidate.key, lambda _before, _ctx: candidate)


def memory_append(user_id: int, args: dict[str, Any]) -> Result:
    """Append args["content"] to the memory under args["key"], creating it when absent."""
    key = _checked_key(args["key"])
    new_type = _memory_type(args.get("memory_type", APPEND_DEFAULT_TYPE))

    def build(before: LongTermMemory | None, ctx: WriteContext) -> Candidate:
        data: dict[str, Any] = {
            "op": "append",
            "key": key,
            "content": args["content"],
            "memory_type": new_type,
            "reason": "agent tool memory_append",
        }
        if before is not None:
            # The write path stores the candidate's type, importance, confidence and TTL;
            # appending must not reset what the memory already has.
            data.update(
                memory_type=before.memory_type,
                importance=before.importance,
                confidence=before.confidence,
                ttl_days=_kept_ttl_days(before, ctx.now, ctx.default_ttl_days),
            )
        return _candidate(data)

    return _write(user_id, key, build)


def memory_delete(user_id: int, args: dict[str, Any]) -> Result:
    """Deactivate the memory under args["key"]; ToolError when there is none."""
    key = _checked_key(args["key"])

    def build(before: LongTermMemory | None, _ctx: WriteContext) -> Candidate:
        if before is None:
            raise ToolError(f"there is no memory under key {key!r}; call memory_list to see the keys")
        return Candidate(
            op="delete", memory_type=before.memory_type, key=key, content="", reason="agent tool memory_delete"
        )

    return _write(user_id, key, build)


def memory_list(user_id: int, args: dict[str, Any]) -> Result:
    """The user's valid memories, most important first: `count` shown of `total`."""
    memory_type = _memory_type(args["memory_type"]) if "memory_type" in args else None
    memories = list_memories(user_id, memory_type=memory_type)
    shown = memories[: args.get("limit", DEFAULT_LIST_LIMIT)]
    return {"ok": True, "count": len(shown), "total": len(memories), "memories": shown}


# --- the schemas the model sees -----------------------------------------------------------

_KEY = Param(
    "key",
    {
        "type": "string",
        "maxLength": MAX_KEY_CHARS,
        "description": "Stable English slug naming what the memory is about, e.g. 'home-city', 'food-preference', "
        "'reply-style' (a-z, 0-9, '-', '_'). The same key always names the same memory. "
        "即使用户说中文，key 也用英文 slug。",
    },
    required=True,
)
_CONTENT = Param(
    "content",
    {
        "type": "string",
        "maxLength": MAX_CONTENT_CHARS,
        "description": "The memory as a short self-contained statement in the user's language, "
        "e.g. '用户住在上海' or 'Prefers concise answers'.",
    },
    required=True,
)
_TYPE_DESCRIPTION = (
    "preference (likes, habits, style), fact (lasting facts about the user), goal (long-term aims), "
    "project (ongoing work), constraint (standing rules, e.g. '以后回复用中文', 'never schedule before 9')"
)


def _memory_type_param(required: bool, extra: str = "") -> Param:
    return Param(
        "memory_type",
        {"type": "string", "enum": list(MEMORY_TYPES), "description": _TYPE_DESCRIPTION + extra},
        required=required,
    )


TOOLS: dict[str, Tool] = {
    tool.name: tool
    for tool in (
        Tool(
            "memory_save",
            "Remember something about the user for future conversations, or overwrite the memory under the same key "
            "when it changed (e.g. the user moved: save 'home-city' again). Save stable preferences, facts still true "
            "in a month, long-term goals and projects, and rules the user wants applied from now on. Do NOT save "
            "short-term reminders or todos (今晚/明天/这周…), weather, daily or monthly stats, tool or system details, "
            "or profile fields (nickname, your name, emoji). 保存或覆盖一条关于用户的长期记忆。",
            (
                _KEY,
                _CONTENT,
                _memory_type_param(required=True),
                Param(
                    "importance",
                    {
                        "type": "integer",
                        "minimum": 1,
                        "maximum": 5,
                        "description": "1 (minor) to 5 (essential); default 3.",
                    },
                ),
                Param(
                    "confidence",
                    {
                        "type": "number",
                        "minimum": 0,
                        "maximum": 1,
                        "description": "How sure you are the user meant this, 0 to 1; default 0.8.",
                    },
                ),
                Param(
                    "ttl_days",
                    {
                        "type": "integer",
                        "minimum": 1,
                        "maximum": 36500,
                        "description": "Days to keep it; omit for the default lifetime.",
                    },
                ),
            ),
            memory_save,
        ),
        Tool(
            "memory_append",
            "Add new details to the memory under key without losing what it already says (e.g. one more food the "
            "user dislikes). If there is no memory under key yet, it is created. 给已有记忆追加内容；不存在时新建。",
            (
                _KEY,
                _CONTENT,
                _memory_type_param(required=False, extra="; only used when the memory is created (default fact)"),
            ),
            memory_append,
        ),
        Tool(
            "memory_delete",
            "Forget the memory under key: when it no longer holds (e.g. '我不喝奶茶了' / 'I quit coffee') or the user "
            "asks you to forget it. Call memory_list first if you are unsure of the key. 删除一条长期记忆。",
            (_KEY,),
            memory_delete,
        ),
        Tool(
            "memory_list",
            "List what you remember about the user (key, type, content), most important first. 列出用户的长期记忆。",
            (
                _memory_type_param(required=False, extra="; omit to list every type"),
                Param(
                    "limit",
                    {
                        "type": "integer",
                        "minimum": 1,
                        "maximum": MAX_LIST_LIMIT,
                        "description": f"At most this many memories; default {DEFAULT_LIST_LIMIT}.",
                    },
                ),
            ),
            memory_list,
        ),
    )
}

TOOL_SCHEMAS: list[dict[str, Any]] = [tool.schema() for tool in TOOLS.values()]


def _checked_user(user_id: Any) -> int:
    try:
        return checked_user_id(user_id)
    except InvalidUserId:
        raise ToolError(f"the chat server passed an invalid user id {user_id!r}") from None


def execute(user_id: int, name: str, arguments: str | bytes | dict[str, Any] | None) -> Result:
    """Run one tool call for `user_id`; returns the JSON-serialisable result for the tool message.

    `arguments` is the JSON text the model produced (or an already parsed dict). A bad
    call returns `{"error": "..."}` and changes nothing; an unexpected failure (database
    down, a bug) is logged and also returned as `{"error": ...}`: nothing raises.
    """
    tool = TOOLS.get(name) if isinstance(name, str) else None
    try:
        user_id = _checked_user(user_id)
        if tool is None:
            raise ToolError(f"unknown tool {name!r}; the memory tools are {', '.join(TOOLS)}")
        result = tool.run(user_id, checked_arguments(tool, parse_arguments(arguments)))
    except ToolError as exc:
        logger.info("tool call refused", extra={"user_id": user_id, "tool": name, "reason": str(exc)})
        return {"error": str(exc)}
    except Exception as exc:
        logger.exception("tool call failed", extra={"user_id": user_id, "tool": name})
        # The exception text may carry SQL or hostnames; the model gets the kind of failure only.
        return {"error": f"{name} failed ({type(exc).__name__}); nothing was changed, try again later"}
    logger.info("tool call done", extra={"user_id": user_id, "tool": name, "op": result.get("op")})
    return result
