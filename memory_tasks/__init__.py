"""memory_tasks: long-term memory for LLM chat assistants, as a Celery pipeline.

`celery -A memory_tasks worker|beat|flower` finds `app` here. It is created on first use,
so importing a plain module of the package (the stack manager, the rules engine) does
not configure Celery. A chat server uses `memory_tasks.api`, `memory_tasks.retrieval`
and the agent tools of `memory_tasks.tools`.
"""

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "app":
        from memory_tasks.celery_app import app

        return app
    raise AttributeError(f"module 'memory_tasks' has no attribute {name!r}")
