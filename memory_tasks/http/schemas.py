"""Request and response bodies of the /v1 API (Pydantic), the OpenAPI document's schemas.

Request bodies are strict (no "3" for 3, no unknown fields) and every text field refuses
what PostgreSQL cannot store (NUL, lone surrogates), so a bad request is a 422 before
anything is written.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field

from memory_tasks.conversations import MAX_SUMMARY_CHARS
from memory_tasks.extraction.candidates import MAX_CONTENT_CHARS, MEMORY_TYPES
from memory_tasks.memories.edits import MAX_IMPORTANCE, MAX_TTL_DAYS, MIN_IMPORTANCE
from memory_tasks.text import MAX_USER_ID
from memory_tasks.turns import MAX_MESSAGE_CHARS, ROLES

MAX_ROW_ID = 2**31 - 1  # every id column is a PostgreSQL integer
MAX_QUERY_CHARS = 10_000
MAX_RETRIEVE_LIMIT = 200
MAX_TOOL_ARGUMENT_CHARS = 32_000


def _storable(value: str) -> str:
    if "\x00" in value:
        raise ValueError("must not contain NUL characters")
    if value != value.encode("utf-8", "replace").decode("utf-8"):
        raise ValueError("must be valid UTF-8 (no lone surrogates)")
    return value


def _integral(value: Any) -> Any:
    """JSON Schema counts 3.0 as an integer; strict validation then refuses "3", true and 3.5."""
    return int(value) if isinstance(value, float) and value.is_integer() and abs(value) < 2**63 else value


def text(max_length: int, *, min_length: int = 0, non_blank: bool = False) -> Any:
    """A string type of that length that PostgreSQL can store; `non_blank`: not only whitespace."""
    # No NUL anywhere (so the OpenAPI document says it too); non-blank: at least one character
    # that is not whitespace, counting \x1c-\x1f as Python's str.strip does (the regex \s does not).
    pattern = r"^[^\x00]*[^\s\x00\x1c-\x1f][^\x00]*$" if non_blank else r"^[^\x00]*$"
    return _text(max_length, min_length, pattern)


def memory_text(max_length: int) -> Any:
    """A memory's new text, as the OpenAPI document can say it: what `memories.edits` stores is the
    text without control characters and stripped, so at least one character must be neither, and
    terminal escapes (ESC, CSI), which it would cut with the characters after them, are refused."""
    visible = r"[^\s\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"
    return _text(max_length, 1, rf"^[^\x00\x1b\x9b]*{visible}[^\x00\x1b\x9b]*$")


def _text(max_length: int, min_length: int, pattern: str) -> Any:
    return Annotated[
        str, Field(min_length=min_length, max_length=max_length, pattern=pattern), AfterValidator(_storable)
    ]


def integer(low: int, high: int, description: str | None = None) -> Any:
    """An integer type within [low, high] (constraints first, so the OpenAPI schema shows them)."""
    return Annotated[int, Field(ge=low, le=high, description=description), BeforeValidator(_integral)]


UserId = integer(1, MAX_USER_ID, "The chat server's own user id.")
RowId = integer(1, MAX_ROW_ID)
Timestamp = Annotated[str, Field(json_schema_extra={"format": "date-time"})]
MemoryType = Literal[MEMORY_TYPES]  # type: ignore[valid-type]
Role = Literal[ROLES]  # type: ignore[valid-type]


class RequestBody(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


# --- errors -----------------------------------------------------------------------------


class FieldError(BaseModel):
    loc: list[str]
    msg: str
    type: str


class ErrorBody(BaseModel):
    """Every error: a stable code and a sentence; `fields` says which fields failed validation."""

    error: str = Field(examples=["not_found"])
    detail: str
    fields: list[FieldError] | None = None


# --- memories ---------------------------------------------------------------------------


class MemoryPublic(BaseModel):
    """The public shape of a memory (`memory_tasks.shapes.memory_json`)."""

    id: int
    user_id: int
    memory_key: str
    memory_type: str
    content: str
    importance: int
    confidence: float
    is_active: bool
    expires_at: Timestamp | None
    vector_status: Literal["DIRTY", "SYNCED", "FAILED"]
    source: str
    created_at: Timestamp | None
    updated_at: Timestamp | None


class HistoryEntry(BaseModel):
    """One change of a memory: what it said before and after, from where, caused by which message."""

    id: int
    op: str
    source: str
    source_message_id: int | None
    memory_key: str
    old_content: str | None
    new_content: str | None
    detail: str | None
    created_at: Timestamp


class MemoryDetail(BaseModel):
    memory: MemoryPublic
    history: list[HistoryEntry]


class MemoriesPage(BaseModel):
    """`data`: this page of memories, newest change first; `count`: how many match the filters."""

    data: list[MemoryPublic]
    count: int
    limit: int
    offset: int


class MemoryPatch(RequestBody):
    """What to change; give at least one field. `ttl_days` counts from now."""

    model_config = ConfigDict(strict=True, extra="forbid", json_schema_extra={"minProperties": 1})

    # Absent means "leave it"; null is refused (the types are not nullable).
    content: memory_text(MAX_CONTENT_CHARS) = None  # type: ignore[valid-type]
    importance: integer(MIN_IMPORTANCE, MAX_IMPORTANCE) = None  # type: ignore[valid-type]
    ttl_days: integer(1, MAX_TTL_DAYS) = None  # type: ignore[valid-type]


IndexSync = Literal["queued", "deferred", "not needed"]


class MemoryChange(BaseModel):
    """The memory after the call; `changed` false when it already was so. `index`: its vector sync
    (`deferred`: the broker was unreachable, the beat sweep indexes it later)."""

    memory: MemoryPublic
    changed: bool
    index: IndexSync


# --- turns and messages -----------------------------------------------------------------


class TurnIn(RequestBody):
    """One chat turn. Without `conversation_id` the user's latest conversation is used (or a new one)."""

    user_id: UserId
    role: Role
    content: text(MAX_MESSAGE_CHARS, min_length=1, non_blank=True)  # type: ignore[valid-type]
    conversation_id: RowId | None = None


class TurnAccepted(BaseModel):
    """The recorded turn. `enqueued`: `queued` (the memory chain runs after the debounce), `deferred`
    (the broker was unreachable; the beat rescan picks it up) or `not needed` (not a user turn, or a
    replay). `replayed`: an earlier request with the same Idempotency-Key recorded it."""

    message_id: int
    status: str
    enqueued: IndexSync
    replayed: bool


class StatementOutcome(BaseModel):
    """What became of one statement of the turn: stored (memory id and op) or dropped (and why)."""

    status: Literal["stored", "dropped"]
    stage: str = Field(description="where it was decided: extract, refine or upsert")
    key: str = Field(description="the candidate's memory key; empty for a clause no candidate came from")
    text: str = Field(description="the statement (cut to 120 characters)")
    op: str | None = Field(description="stored: create, upsert, append, confirm, delete or merge")
    memory_id: int | None = Field(description="stored: the memory; dropped as a duplicate: the memory it repeats")
    reason: str | None = Field(
        description="dropped: why (short-term window: 今天, profile field, noise key: …, below the confidence "
        "floor: …, over the write cap …, duplicate of memory #id, refine drop: …, no memory-worthy "
        "statement found); stored: a note (merged into memory #id)"
    )


class MessageState(BaseModel):
    """A message's memory processing: PENDING → PROCESSED / SKIPPED / FAILED / DEAD, and what it did."""

    message_id: int
    user_id: int
    role: str
    status: Literal["PENDING", "PROCESSED", "FAILED", "SKIPPED", "DEAD"]
    attempts: int
    error: str | None
    memory_ids: list[int] = Field(description="memories this turn wrote or confirmed that are active now")
    deactivated_ids: list[int] = Field(description="memories this turn changed that are inactive now (deleted, merged)")
    outcomes: list[StatementOutcome] = Field(description="what became of each statement; empty until PROCESSED")


# --- retrieval --------------------------------------------------------------------------


class RetrieveIn(RequestBody):
    """The question (and the conversation summary) to find memories for; `mode`/`limit` default to the settings."""

    user_id: UserId
    query: text(MAX_QUERY_CHARS)  # type: ignore[valid-type]
    summary: text(MAX_SUMMARY_CHARS) | None = None  # type: ignore[valid-type]
    mode: Literal["full_inject", "dense"] | None = None
    limit: integer(1, MAX_RETRIEVE_LIMIT) | None = None  # type: ignore[valid-type]


class HitOut(MemoryPublic):
    """A retrieved memory: higher `score` is better (comparable within one call); `why` is each signal's
    share (similarity and lexical rescaled over the candidates); `raw` the absolute scores beside them:
    `cosine` with the question (when known), `bm25`, and `overlap`, the share of the question's tokens
    the memory holds (empty in full_inject)."""

    score: float
    why: dict[str, float]
    raw: dict[str, float]


class RetrieveOut(BaseModel):
    """`hits` best first; `block`: the text to put on the system side of the prompt ("" when none)."""

    hits: list[HitOut]
    block: str
    mode: Literal["full_inject", "dense"]


# --- tools ------------------------------------------------------------------------------


class ToolsOut(BaseModel):
    """The OpenAI tool definitions, to pass as `tools=` to chat.completions."""

    tools: list[dict[str, Any]]


class ToolCallIn(RequestBody):
    """`arguments`: the model's arguments, as the JSON string it produced or as an object."""

    user_id: UserId
    arguments: dict[str, Any] | text(MAX_TOOL_ARGUMENT_CHARS) | None = None  # type: ignore[valid-type]


# --- conversations and users ------------------------------------------------------------


class SummaryIn(RequestBody):
    summary: text(MAX_SUMMARY_CHARS)  # type: ignore[valid-type]


class SummaryOut(BaseModel):
    conversation_id: int
    user_id: int
    summary: str
    updated_at: Timestamp


class Forgotten(BaseModel):
    """What was removed: rows per table, vectors, and whether Milvus was `deleted` or `disabled`."""

    user_id: int
    memories: int
    history: int
    messages: int
    conversations: int
    embedding_cache: int
    vectors: int
    users: int
    milvus: Literal["deleted", "disabled"]


# --- service ----------------------------------------------------------------------------


class Failure(BaseModel):
    kind: Literal["message", "memory"]
    id: int
    at: Timestamp
    error: str


class VectorAudit(BaseModel):
    """How far the vector audit (a check of SYNCED rows against Milvus per sweep run) is behind: SYNCED
    rows not checked since their last write, and the longest-ago check of the others (null: none yet)."""

    unchecked: int
    oldest_check_at: Timestamp | None


class StatusOut(BaseModel):
    """What `python -m memory_tasks status --json` shows: counts per state, the latest failures, the vector audit."""

    messages: dict[str, int]
    vectors: dict[str, int]
    active_memories: int
    recent_failures: list[Failure]
    vector_audit: VectorAudit


class Health(BaseModel):
    status: Literal["ok"]


class ServiceCheck(BaseModel):
    ok: bool
    latency_ms: float | None
    error: str | None
    enabled: bool


class Readiness(BaseModel):
    """`ready` when every enabled service answered; each check with its round-trip time."""

    ready: bool
    checks: dict[str, ServiceCheck]
