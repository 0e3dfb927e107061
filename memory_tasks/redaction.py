"""The one place that masks secrets in text bound for a log, a stored error, stdout or an HTTP body (issue 15 item 6).

Masked: the password of any URL (`scheme://user:***@host`), API keys shaped like `sk-…`,
bearer tokens, `api_key=…` / `token=…` / `password=…` pairs (JSON's `"api_key": "…"` too),
and every value this process was told is secret (`remember_secrets`: its own keys, tokens and
URL passwords, whatever their shape, since servers echo them back verbatim).

A bottom module: it imports nothing of the project, so settings, logging, the data layer and
the HTTP service all use it.
"""

from __future__ import annotations

import logging
import re
import traceback
from typing import Any
from urllib.parse import urlsplit

MASK = "***"

# Shorter known values are not masked: they would mask ordinary words and numbers.
MIN_SECRET_CHARS = 6

_URL_PASSWORD = re.compile(r"(?P<head>\b[a-zA-Z][a-zA-Z0-9+.\-]*://[^\s:/@]*:)(?P<secret>[^\s@/]+)(?=@)")
_KEY_LIKE = re.compile(r"\b(?:sk|pk|rk|key)-[A-Za-z0-9_\-]{8,}")
_BEARER = re.compile(
    r"(?P<head>\b(?:Bearer|Authorization:\s*Basic)\s+)(?P<secret>[A-Za-z0-9._~+/\-=]{6,})", re.IGNORECASE
)
_PAIR = re.compile(
    r"(?P<head>\b(?:api[_-]?key|access[_-]?token|auth[_-]?token|token|password|passwd|secret|client[_-]?secret)"
    r"[\"']?\s*[:=]\s*[\"']?)(?P<secret>[^\s\"'&,;}]+)",
    re.IGNORECASE,
)

_known: set[str] = set()


def remember_secrets(*values: str) -> None:
    """Mask these exact values from now on, in this process (empty and very short ones are ignored).

    A URL among them contributes its password; a comma-separated list (MEMORY_API_TOKENS) each item.
    """
    for value in values:
        for item in value.split(","):
            item = item.strip()
            if "://" in item:
                try:
                    item = urlsplit(item).password or ""
                except ValueError:
                    continue
            if len(item) >= MIN_SECRET_CHARS:
                _known.add(item)


def redact(text: str, *secrets: str) -> str:
    """`text` with every secret masked by `***`: the known ones, the given `secrets`, and anything
    shaped like a URL password, an API key, a bearer token or a `key=value` credential."""
    for secret in sorted({*_known, *(s for s in secrets if len(s) >= MIN_SECRET_CHARS)}, key=len, reverse=True):
        text = text.replace(secret, MASK)
    text = _URL_PASSWORD.sub(lambda m: m["head"] + MASK, text)
    text = _BEARER.sub(lambda m: m["head"] + MASK, text)
    text = _PAIR.sub(lambda m: m["head"] + MASK, text)
    return _KEY_LIKE.sub(MASK, text)


# Attributes every LogRecord has; the others came with `extra=` and are redacted when text.
_RECORD_ATTRS = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime"}


def _redacted(value: Any) -> Any:
    """An `extra` value with its text redacted: strings, and those inside dicts, lists and tuples
    (Celery logs its task events as a dict); numbers and None as they are; anything else as redacted text."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {key: _redacted(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_redacted(item) for item in value] if isinstance(value, list) else tuple(map(_redacted, value))
    if value is None or isinstance(value, int | float):
        return value
    return redact(str(value))


class RedactingFilter(logging.Filter):
    """A handler filter that redacts a record before any formatter sees it: the message with its
    arguments, every `extra`, and the traceback (left in `exc_text`, which formatters print
    instead of formatting `exc_info` again)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError, KeyError):
            return True  # arguments that do not fit the message: the handler reports it, as without us
        record.msg = redact(message)
        record.args = None
        for name, value in list(vars(record).items()):
            if name not in _RECORD_ATTRS:
                setattr(record, name, _redacted(value))
        if record.exc_info and not record.exc_text:
            record.exc_text = redact("".join(traceback.format_exception(*record.exc_info)).rstrip("\n"))
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True
