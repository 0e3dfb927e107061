"""Structured logs: one JSON object per line, with the ids of what is being worked on (issue 15 item 3, R-OPS-4).

Every line has `ts`, `level`, `logger`, `msg`, and inside a Celery task `task_id`, `task`,
`stage` and, from the task's arguments, `message_id` (stages owning a message) or
`memory_ids` (stages owning memories); the `extra=` fields of the call follow (`user_id`,
`memory_ids`, `status`, ...). Celery's own task lines ("succeeded", "retry", "failed") are
rewritten to their ids and `duration_ms`: their return value and arguments (candidate
memories, i.e. what users said) are never written.

Memory text is left out by default: the fields in CONTENT_FIELDS are dropped unless
MEMORY_LOG_CONTENT=true (for debugging on a private machine). Fields naming a secret are
always dropped. Configured once per process by `configure_logging`: the Celery app's
`setup_logging` signal (workers, beat, Flower), the HTTP service and the CLI's `health`.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from memory_tasks.redaction import RedactingFilter

# Attributes every LogRecord has; anything else was passed with `extra=` and is logged.
_STANDARD_ATTRS = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime"}
# `extra=` fields that may hold what a user said (memory text, keys made from it, the model's
# reasons, questions) or Celery's task arguments and results: dropped unless content logging is on.
CONTENT_FIELDS = frozenset(
    {
        "content",
        "text",
        "key",
        "target",
        "reason",
        "note",
        "summary",
        "query",
        "candidates",
        "raw_text",
        "old_content",
        "new_content",
        "return_value",
        "args",
        "kwargs",
        "payload",
    }
)
# Always dropped, whatever the settings.
SECRET_FIELDS = frozenset({"api_key", "password", "token", "authorization", "secret", "credentials"})
NOISY_LOGGERS = ("httpx", "httpcore", "openai._base_client", "urllib3")

# The task this thread (a pool process runs one at a time) is working on: set by `bind_task`.
_task_context: ContextVar[dict[str, Any] | None] = ContextVar("memory_task_log_context", default=None)


def task_ids(owns: str | None, args: tuple | list) -> dict[str, Any]:
    """The ids a task works on, from its first argument: {"message_id": n} for a stage owning a
    message (its id, or the payload dict holding it), {"memory_ids": [...]} for one owning memories."""
    first = args[0] if args else None
    if owns == "message":
        if isinstance(first, dict):
            first = first.get("message_id")
        return {"message_id": first} if isinstance(first, int) and not isinstance(first, bool) else {}
    if owns == "memories" and isinstance(first, list) and all(isinstance(i, int) for i in first):
        return {"memory_ids": first}
    return {}


def bind_task(task_id: str, task_name: str, ids: dict[str, Any]) -> None:
    """Celery's task_prerun: every line until `unbind_task` carries these ids."""
    stage = task_name.removeprefix("memory.")
    _task_context.set({"task_id": task_id, "task": task_name, "stage": stage, **ids})


def unbind_task() -> None:
    """Celery's task_postrun: lines are no longer about that task."""
    _task_context.set(None)


class JsonFormatter(logging.Formatter):
    """One JSON object per record; content fields only when `log_content`."""

    def __init__(self, log_content: bool = False) -> None:
        super().__init__()
        self.log_content = log_content

    def format(self, record: logging.LogRecord) -> str:
        payload: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
        }
        payload.update(_task_context.get() or {})
        data = getattr(record, "data", None)
        if isinstance(data, dict) and "id" in data and "name" in data:  # a line of Celery's about a task
            payload.update(self._trace_fields(record, data))
        else:
            payload["msg"] = record.getMessage()
        for name, value in vars(record).items():
            if name in _STANDARD_ATTRS or name == "data" or name in SECRET_FIELDS:
                continue
            if name in CONTENT_FIELDS and not self.log_content:
                continue
            payload[name] = value
        if record.exc_info:
            # RedactingFilter leaves the traceback, secrets masked, in exc_text.
            payload["exc"] = record.exc_text or self.formatException(record.exc_info)
        return json.dumps(payload, ensure_ascii=False, default=str)

    def _trace_fields(self, record: logging.LogRecord, data: dict[str, Any]) -> dict[str, Any]:
        """Celery's task lines ("Task x[id] received", "... succeeded in 0.1s: <return value>", a
        retry, a failure; the formatting arguments are in `data`) as ids and a duration; the
        return value and arguments only with content logging on."""
        if "return_value" in data:
            event = "task succeeded"
        elif "retry:" in str(record.msg):
            event = "task retried"
        elif "received" in str(record.msg):
            event = "task received"
        else:  # failures, rejections, ignored tasks: "raised unexpected", "rejected", ...
            event = f"task {data.get('description', 'event')}"
        fields: dict[str, Any] = {"msg": event, "task_id": data.get("id"), "task": data.get("name")}
        if isinstance(data.get("runtime"), (int, float)):
            fields["duration_ms"] = round(data["runtime"] * 1000, 1)
        if "exc" in data:
            fields["error"] = str(data["exc"])
        if self.log_content:
            fields.update({name: data[name] for name in ("return_value", "args", "kwargs") if name in data})
        return fields


def configure_logging(level: str | None = None, *, log_content: bool = False) -> None:
    """Send JSON lines to stderr at `level` (default LOG_LEVEL, else INFO); memory text only with `log_content`."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter(log_content=log_content))
    handler.addFilter(RedactingFilter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level or os.environ.get("LOG_LEVEL", "INFO"))
    for noisy in NOISY_LOGGERS:
        logging.getLogger(noisy).setLevel(logging.WARNING)
