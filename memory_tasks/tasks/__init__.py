"""Thin Celery tasks: serialization, retries and routing only; the logic lives in plain modules.

Task names are stable ("memory.<stage>") so a chat server can `send_task` by name without
importing this package (R-PIPE-1); tests/unit/test_task_names.py pins them.
"""

from memory_tasks.tasks import access, index, maintenance, pipeline

__all__ = ["access", "index", "maintenance", "pipeline"]
