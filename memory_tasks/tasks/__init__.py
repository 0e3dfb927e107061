"""Thin Celery tasks: serialization, retries and routing only; the logic lives in plain modules.

Task names are stable ("memory.<stage>") so a chat server can `send_task` by name without
importing this package (R-PIPE-1); tests/unit/test_task_names.py pins them.
"""

# Whoever sends a task (CLI, chat server, tests) gets the configured app, not Celery's default.
from memory_tasks.celery_app import app
from memory_tasks.tasks import access, index, lifecycle, maintenance, pipeline

__all__ = ["access", "app", "index", "lifecycle", "maintenance", "pipeline"]
