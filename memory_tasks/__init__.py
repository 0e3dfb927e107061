"""memory_tasks: long-term memory for LLM chat assistants, as a Celery pipeline.

`celery -A memory_tasks worker|beat|flower` finds `app` here. A chat server uses the
functions of `memory_tasks.api` (re-exported below) and the agent tools of `memory_tasks.tools`.
"""

from memory_tasks.celery_app import app

__all__ = ["app"]
