"""Structured (one JSON object per line) logging with task, message, user and memory ids (R-OPS-4)."""

from __future__ import annotations

import json
import logging
import os
import sys
from datetime import UTC, datetime

from memory_tasks.redaction import RedactingFilter

# Attributes every LogRecord has; anything else was passed with `extra=` and is logged.
_STANDARD_ATTRS = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        payload = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        task = _current_task()
        if task is not None:
            payload["task_id"] = task.request.id
            payload["task"] = task.name
        payload.update({k: v for k, v in vars(record).items() if k not in _STANDARD_ATTRS})
        if record.exc_info:
            # RedactingFilter leaves the traceback, secrets masked, in exc_text.
            payload["exc"] = record.exc_text or self.formatException(record.exc_info)
        return json.dumps(payload, ensure_ascii=False, default=str)


def _current_task():
    from celery import current_task

    return current_task if current_task and current_task.request.id else None


def configure_logging(level: str | None = None) -> None:
    """Send JSON lines to stderr; LOG_LEVEL (default INFO) sets the level."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(RedactingFilter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level or os.environ.get("LOG_LEVEL", "INFO"))
    for noisy in ("httpx", "httpcore", "openai._base_client", "urllib3"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
