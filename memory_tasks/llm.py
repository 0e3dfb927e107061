"""The one module that talks to the chat model (R-LLM-1, R-PIPE-9, R-PIPE-10).

Any OpenAI-compatible server works (OpenAI, vLLM, Ollama, llama.cpp …) through the
`openai` client. Callers get either an `LLMResult` with the parsed JSON value or one of
three errors, which is all a Celery task needs to decide what to do:

- `LLMTransientError`  rate limit, 5xx, timeout, connection trouble, or the shared breaker
                       is open (memory_tasks/breaker.py): retry later with backoff.
- `LLMPermanentError`  the request itself is wrong (bad key, unknown model, bad request): fail fast.
- `LLMOutputError`     the model answered but not with usable JSON: fail the stage, write nothing.

Structured output is asked for on a ladder (`FORMATS`): a JSON schema when the caller gives
one (`response_format={"type": "json_schema", ...}`), else JSON mode (`json_object`), else
nothing; the answer is parsed tolerantly whatever the rung. A server that rejects a rung with
a 400 about the response format is asked again one rung lower at once, and that server and
model start on the lower rung for the rest of the process.
"""

from __future__ import annotations

import json
import logging
import os
import random
import re
import threading
import time
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from functools import lru_cache
from typing import Any

import openai
from openai import OpenAI

from config.settings import Settings, get_settings
from memory_tasks import metrics
from memory_tasks.breaker import Breaker, BreakerOpen
from memory_tasks.redaction import redact
from memory_tasks.text import UNSTORABLE_CHAR

logger = logging.getLogger("memory_tasks.llm")

TEMPERATURE = 0.1
# Local servers often run without authentication, but the client refuses an empty key.
PLACEHOLDER_API_KEY = "not-needed"
# At most this many requests per call on transient errors; the Celery task retries beyond.
MAX_ATTEMPTS = 3
BACKOFF_BASE_SEC = 0.25
# An attempt with less time than this left is not worth starting.
MIN_ATTEMPT_SEC = 0.3
# How much of an unusable answer travels with LLMOutputError (stored as the message's error).
MAX_RAW_TEXT_CHARS = 4000
MAX_ERROR_DETAIL_CHARS = 300
PERMANENT_STATUS = frozenset({400, 401, 403, 404, 422})


class LLMError(Exception):
    """Base of every error raised by this module; the message never contains the API key."""


class LLMTransientError(LLMError):
    """Worth retrying later. `retry_after` is the server's hint in seconds, when it gave one."""

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after

    def __reduce__(self):  # Celery pickles task exceptions; keep the extra field
        return _rebuild_transient, (str(self), self.retry_after)


class LLMPermanentError(LLMError):
    """Retrying the same request cannot succeed (auth, unknown model, rejected request)."""


class LLMOutputError(LLMError):
    """The model answered, but not with usable JSON. `raw_text` is its answer, truncated, with NUL
    and lone surrogates replaced by U+FFFD so that recording the failure cannot fail too."""

    def __init__(self, message: str, raw_text: str) -> None:
        super().__init__(message)
        self.raw_text = UNSTORABLE_CHAR.sub("\ufffd", raw_text[:MAX_RAW_TEXT_CHARS])

    def __reduce__(self):  # Celery pickles task exceptions; without this it falls back to LLMError
        return type(self), (str(self), self.raw_text)


def _rebuild_transient(message: str, retry_after: float | None) -> LLMTransientError:
    return LLMTransientError(message, retry_after=retry_after)


@dataclass(frozen=True)
class LLMResult:
    """One successful call: `value` is the parsed JSON, `raw_text` what the model wrote."""

    value: Any
    raw_text: str
    model: str
    prompt_tokens: int | None
    completion_tokens: int | None
    latency_sec: float


# --- <think> blocks ------------------------------------------------------------------------

_THINK_BLOCK = re.compile(r"<think\b[^>]*>.*?</think\s*>", re.DOTALL | re.IGNORECASE)
_UNCLOSED_THINK = re.compile(r"^\s*<think\b[^>]*>.*", re.DOTALL | re.IGNORECASE)
# Some servers strip the opening tag and leave only "…reasoning</think>answer".
_ORPHAN_THINK_CLOSE = re.compile(r"^.*?</think\s*>", re.DOTALL | re.IGNORECASE)


def strip_think(text: str) -> str:
    """`text` without reasoning blocks (R-PIPE-11).

    Removes every `<think>…</think>`, a leading `<think>` that never closes (the model was
    cut off while reasoning, so nothing after it is an answer) and a leading orphan
    `…</think>`. Returns the remaining text, stripped.
    """
    text = _THINK_BLOCK.sub("", text or "")
    text = _ORPHAN_THINK_CLOSE.sub("", text, count=1)
    text = _UNCLOSED_THINK.sub("", text)
    return text.strip()


# --- robust JSON parsing (R-PIPE-9) -------------------------------------------------------

_FENCE = re.compile(r"```[ \t]*(?:json5?|javascript|js)?[ \t]*\r?\n?(.*?)```", re.DOTALL | re.IGNORECASE)
_OPENERS = {"{": "}", "[": "]"}
# Each bracket that never closes costs a scan to the end; this bounds hostile or broken text.
MAX_SPAN_STARTS = 64
# Smart quotes only count as JSON quotes next to structural characters, because Chinese
# content legitimately contains “…” inside strings.
_SMART_QUOTE_OPEN = re.compile(r"([{\[,:]\s*)[“”„‟＂]")
_SMART_QUOTE_CLOSE = re.compile(r"[“”„‟＂](\s*[:,}\]])")


def parse_json_output(text: str) -> Any:
    """The JSON value a model meant to write; raises LLMOutputError when there is none.

    Accepts, in this order: plain JSON; JSON inside ``` fences; the first balanced
    object/array inside prose. Each is also tried with trailing commas removed and with
    smart quotes used as delimiters replaced. `<think>` blocks are ignored. The value is
    returned as is (object or list); shaping it is `json_items`'s job.
    """
    raw = text or ""
    cleaned = strip_think(raw).lstrip("\ufeff").strip()
    if not cleaned:
        raise LLMOutputError("model returned no JSON (empty answer)", raw)
    candidates = [cleaned, *(block.strip() for block in _FENCE.findall(cleaned))]
    candidates += _balanced_spans(cleaned)
    for candidate in candidates:
        value = _loads_lenient(candidate)
        if value is not None:
            return value
    # Last resort: smart quotes as delimiters break the span scanner, so repair first.
    requoted = _repair_smart_quotes(cleaned)
    if requoted != cleaned:
        for candidate in _balanced_spans(requoted):
            value = _loads_lenient(candidate)
            if value is not None:
                return value
    raise LLMOutputError("model output is not valid JSON", raw)


def _loads_lenient(candidate: str) -> Any:
    """The JSON object/array in `candidate`, or None if it is not one even after repairs."""
    for attempt in (candidate, _remove_trailing_commas(candidate), _repair_smart_quotes(candidate)):
        try:
            value = json.loads(attempt)
        except ValueError:
            continue
        if isinstance(value, (dict, list)):
            return value
    repaired = _remove_trailing_commas(_repair_smart_quotes(candidate))
    try:
        value = json.loads(repaired)
    except ValueError:
        return None
    return value if isinstance(value, (dict, list)) else None


def _repair_smart_quotes(text: str) -> str:
    """`text` with smart quotes that sit next to JSON punctuation turned into '"'."""
    text = _SMART_QUOTE_OPEN.sub(r'\1"', text)
    return _SMART_QUOTE_CLOSE.sub(r'"\1', text)


def _remove_trailing_commas(text: str) -> str:
    """`text` without commas directly before '}' or ']' (outside strings)."""
    out: list[str] = []
    in_string = escaped = False
    for index, char in enumerate(text):
        if in_string:
            out.append(char)
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char == '"':
            in_string = True
        elif char == "," and _next_non_space(text, index + 1) in ("}", "]"):
            continue
        out.append(char)
    return "".join(out)


def _next_non_space(text: str, start: int) -> str:
    """The first non-whitespace character of `text` from `start`, or "" at the end."""
    for index in range(start, len(text)):
        if not text[index].isspace():
            return text[index]
    return ""


def _balanced_spans(text: str) -> list[str]:
    """The top-level balanced {...} / [...] spans of `text`, in order of appearance.

    At most MAX_SPAN_STARTS opening brackets are tried.
    """
    spans: list[str] = []
    index = starts = 0
    while index < len(text) and starts < MAX_SPAN_STARTS:
        if text[index] in _OPENERS:
            starts += 1
            end = _span_end(text, index)
            if end is not None:
                spans.append(text[index:end])
                index = end
                continue
        index += 1
    return spans


def _span_end(text: str, start: int) -> int | None:
    """Index just past the bracket closing the one at `start`, or None if it never closes."""
    stack: list[str] = []
    in_string = escaped = False
    for index in range(start, len(text)):
        char = text[index]
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in _OPENERS:
            stack.append(_OPENERS[char])
        elif char in "}]":
            if not stack or stack.pop() != char:
                return None
            if not stack:
                return index + 1
    return None


def items_schema(wrapper: str, properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """The JSON schema of the answer `json_items` reads first: `{"<wrapper>": [item, ...]}`, each
    item an object with `properties`, of which `required` must be present."""
    item = {"type": "object", "properties": properties, "required": required}
    return {"type": "object", "properties": {wrapper: {"type": "array", "items": item}}, "required": [wrapper]}


def json_items(value: Any, *, wrapper: str, raw_text: str) -> list[Any]:
    """The list of items a model answered with, whatever shape it chose.

    `{"<wrapper>": [...]}` (the asked-for shape), a bare list, a single item object, an
    object whose only list-valued field is the list, or `{}` (nothing to report) all work.
    Items are returned unvalidated. Raises LLMOutputError for anything else.
    """
    if isinstance(value, list):
        return value
    if not isinstance(value, dict):
        raise LLMOutputError(f"expected a JSON object with {wrapper!r}", raw_text)
    if wrapper in value:
        items = value[wrapper]
        if items is None:
            return []
        if isinstance(items, dict):
            return [items]
        if isinstance(items, list):
            return items
        raise LLMOutputError(f"{wrapper!r} is not a list", raw_text)
    if not value:
        return []
    lists = [item for item in value.values() if isinstance(item, list)]
    if len(lists) == 1 and len(value) == 1:
        return lists[0]
    # A lone item: the model skipped the wrapper and the list.
    if {"key", "content", "op", "action", "index"} & value.keys():
        return [value]
    raise LLMOutputError(f"expected a JSON object with {wrapper!r}", raw_text)


# --- the client ---------------------------------------------------------------------------

# The rungs of the response-format ladder, most structured first.
FORMATS = ("json_schema", "json_object", "none")
# (base_url, model) -> the highest rung its server accepted after rejecting one; per process.
_FORMAT_FLOOR: dict[tuple[str, str], int] = {}
_FORMAT_FLOOR_LOCK = threading.Lock()


def _response_format(rung: str, schema: dict[str, Any] | None, purpose: str) -> dict[str, Any]:
    """The request's `response_format` argument for `rung` ({} for none)."""
    if rung == "json_schema" and schema is not None:
        return {"response_format": {"type": "json_schema", "json_schema": {"name": purpose, "schema": schema}}}
    if rung == "json_object":
        return {"response_format": {"type": "json_object"}}
    return {}


def _first_rung(server: tuple[str, str], schema: dict[str, Any] | None) -> int:
    """Where the ladder starts for `server`: a schema only when given, never above a rung it rejected."""
    return max(0 if schema is not None else 1, _FORMAT_FLOOR.get(server, 0))


@lru_cache(maxsize=8)
def _client(base_url: str, api_key: str, pid: int) -> OpenAI:
    """A client per (server, key, process); `pid` keeps forked workers off the parent's sockets."""
    del pid  # only part of the cache key
    return OpenAI(
        api_key=api_key or PLACEHOLDER_API_KEY,
        base_url=base_url or None,
        # Retries are ours (bounded by the caller's budget), not the client's.
        max_retries=0,
    )


@metrics.counted_llm_call
def chat_json(
    messages: list[dict[str, str]],
    *,
    timeout: float,
    purpose: str,
    settings: Settings | None = None,
    schema: dict[str, Any] | None = None,
) -> LLMResult:
    """Ask the chat model for JSON and parse it.

    `timeout` is the whole budget in seconds, retries included. `purpose` names the call
    in logs ("extract", "refine", "consolidate"). `schema` (a JSON schema of the answer)
    asks for structured output; without it, or where the server rejects it, JSON mode is
    requested, and plain text where that is rejected too (the module docstring's ladder).
    Raises LLMTransientError, LLMPermanentError or LLMOutputError (see the module docstring).
    """
    settings = settings or get_settings()
    api_key = settings.OPENAI_API_KEY
    model = settings.OPENAI_CHAT_MODEL
    server = (settings.OPENAI_BASE_URL, model)
    client = _client(settings.OPENAI_BASE_URL, api_key, os.getpid())
    breaker = Breaker(settings, probe_timeout_sec=timeout)
    deadline = time.monotonic() + timeout
    started = time.monotonic()
    failures = 0
    rung = _first_rung(server, schema)
    while True:
        remaining = deadline - time.monotonic()
        response_format = _response_format(FORMATS[rung], schema, purpose)
        try:
            permit = breaker.acquire()
        except BreakerOpen as exc:
            # Every worker holds off while the model fails for everyone; nothing is sent.
            raise LLMTransientError(f"chat model unavailable: {exc}", retry_after=exc.retry_after) from None
        try:
            completion = _create(client, model, messages, response_format=response_format, timeout=remaining)
        except openai.BadRequestError as exc:
            breaker.record_success(permit)  # the server answered
            if response_format and _rejects_json_mode(exc):
                # Remembered for the process: later calls start one rung lower at once.
                rung += 1
                logger.warning(
                    "chat server rejects response_format; continuing with %s",
                    FORMATS[rung],
                    extra={"purpose": purpose, "model": model, "response_format": FORMATS[rung]},
                )
                with _FORMAT_FLOOR_LOCK:
                    _FORMAT_FLOOR[server] = max(_FORMAT_FLOOR.get(server, 0), rung)
                continue
            raise _permanent(exc, api_key) from None
        except (openai.APIConnectionError, openai.APIStatusError) as exc:
            failures += 1
            error = _classify(exc, api_key)
            if isinstance(error, LLMPermanentError):
                breaker.record_success(permit)  # the server answered: the request is wrong
                raise error from None
            breaker.record_failure(permit)
            pause = _backoff(failures, error.retry_after)
            left = deadline - time.monotonic()
            if failures >= MAX_ATTEMPTS or left - pause < MIN_ATTEMPT_SEC:
                raise error from None
            logger.info(
                "chat call failed, retrying",
                extra={"purpose": purpose, "model": model, "failures": failures, "error": str(error)},
            )
            time.sleep(pause)
            continue
        except json.JSONDecodeError as exc:
            # A 2xx whose body is not JSON (a proxy's HTML page, a cut-off body): unusable.
            breaker.record_success(permit)
            raise LLMOutputError("chat response body is not JSON", exc.doc) from None
        except openai.APIError as exc:
            # Any other answer the client could not read: unusable as well.
            breaker.record_success(permit)
            raise LLMOutputError(f"unreadable chat response: {redact(str(exc), api_key)}", str(exc.body)) from None
        breaker.record_success(permit)
        break
    latency = time.monotonic() - started
    raw_text = _content(completion)
    usage = completion.usage
    prompt_tokens = usage.prompt_tokens if usage else None
    completion_tokens = usage.completion_tokens if usage else None
    logger.info(
        "llm call purpose=%s model=%s prompt_tokens=%s completion_tokens=%s latency_ms=%d",
        purpose,
        completion.model or model,
        prompt_tokens,
        completion_tokens,
        latency * 1000,
        extra={
            "purpose": purpose,
            "model": completion.model or model,
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "latency_ms": round(latency * 1000),
            "retries": failures,
            "response_format": FORMATS[rung],
        },
    )
    return LLMResult(
        value=parse_json_output(raw_text),
        raw_text=raw_text,
        model=completion.model or model,
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
        latency_sec=latency,
    )


def _create(
    client: OpenAI, model: str, messages: list[dict[str, str]], *, response_format: dict[str, Any], timeout: float
) -> Any:
    """One chat completion request (`response_format`: the `_response_format` arguments); raises the client's own errors."""
    if timeout <= 0:
        raise LLMTransientError("chat model call timed out (budget used up)")
    return client.chat.completions.create(
        model=model,
        messages=messages,  # type: ignore[arg-type]
        temperature=TEMPERATURE,
        timeout=timeout,
        **response_format,
    )


def _content(completion: Any) -> str:
    """The assistant text of a completion; raises LLMOutputError when there is none."""
    choices = getattr(completion, "choices", None) or []
    message = choices[0].message if choices else None
    content = getattr(message, "content", None) if message else None
    if not isinstance(content, str):
        raise LLMOutputError("chat response has no message content", repr(completion)[:MAX_RAW_TEXT_CHARS])
    return content


def _rejects_json_mode(exc: openai.BadRequestError) -> bool:
    """True when a 400 complains about response_format / JSON mode rather than the request."""
    detail = f"{exc.message} {exc.body}".lower()
    markers = ("response_format", "json_object", "json_schema", "json mode", "response format", "structured output")
    return any(marker in detail for marker in markers)


def _classify(exc: openai.APIConnectionError | openai.APIStatusError, api_key: str) -> LLMError:
    """The error of ours a client error stands for: transient or permanent."""
    if isinstance(exc, openai.APITimeoutError):
        return LLMTransientError("chat model call timed out")
    if isinstance(exc, openai.APIConnectionError):
        return LLMTransientError(f"cannot reach the chat model: {redact(str(exc), api_key)}")
    status = exc.status_code
    if status == 429 or status >= 500 or status in (408, 409):
        return LLMTransientError(
            f"chat model unavailable ({status}): {_detail(exc, api_key)}",
            retry_after=_retry_after(exc),
        )
    return _permanent(exc, api_key)


def _permanent(exc: openai.APIStatusError, api_key: str) -> LLMPermanentError:
    """A fail-fast error naming the status and the server's reason, with the key redacted."""
    hint = {
        401: "check OPENAI_API_KEY",
        403: "the API key may not use this model",
        404: "check OPENAI_BASE_URL and OPENAI_CHAT_MODEL",
    }.get(exc.status_code, "the request was rejected")
    return LLMPermanentError(f"chat model rejected the call ({exc.status_code}, {hint}): {_detail(exc, api_key)}")


def _detail(exc: openai.APIStatusError, api_key: str) -> str:
    """The server's error message, short and without the API key."""
    body = exc.body
    message = body.get("message") if isinstance(body, dict) else None
    return redact(str(message or exc.message), api_key)[:MAX_ERROR_DETAIL_CHARS]


def _retry_after(exc: openai.APIStatusError) -> float | None:
    """The server's Retry-After in seconds (RFC 9110: delay-seconds or an HTTP date), if it sent one."""
    value = exc.response.headers.get("retry-after") if exc.response is not None else None
    return retry_after_seconds(value) if value is not None else None


def retry_after_seconds(value: str) -> float | None:
    """A Retry-After header value in seconds from now (never negative); None when unreadable."""
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None or when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - time.time())


def _backoff(failures: int, retry_after: float | None) -> float:
    """Seconds to wait after the `failures`-th failure: the server's hint, else exponential plus jitter."""
    if retry_after is not None:
        return retry_after
    base = BACKOFF_BASE_SEC * 2 ** (failures - 1)
    return base + random.uniform(0, base)
