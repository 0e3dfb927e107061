"""Thin Celery tasks: serialization, retries and routing only; the logic lives in plain modules.

Task names are stable ("memory.<stage>", `memory_tasks.task_names`) so a chat server can
`send_task` by name without importing this package (R-PIPE-1). Workers import this
package at start-up (the app's `include`); senders use `memory_tasks.dispatch` instead.
"""

from memory_tasks.celery_app import app
from memory_tasks.tasks import access, index, lifecycle, maintenance, pipeline

__all__ = ["access", "app", "index", "lifecycle", "maintenance", "pipeline"]
