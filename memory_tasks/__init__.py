"""memory_tasks: long-term memory for LLM chat assistants, as a Celery pipeline.

`celery -A memory_tasks worker|beat|flower` finds `app` here. It is created on first use,
so importing a plain module of the package (the stack manager, the rules engine) does
not configure Celery. A chat server uses `memory_tasks.api`, `memory_tasks.retrieval`
and the agent tools of `memory_tasks.tools`.
"""

import os
import sys
from typing import Any

# pymilvus runs python-dotenv's `load_dotenv()` when first imported (pymilvus/settings.py): the first
# .env above its installed folder (a project's own .env when the virtualenv lives inside the
# project, as a chat server's often does) is copied into os.environ. There its variables outrank
# the settings file this process reads (the environment wins over MEMORY_ENV_FILE's file), so a
# chat server's DATABASE_URL could point memory_tasks at the chat server's database. pymilvus is
# imported here, before any module of the package can import it, and what it added is taken back.
# (If the host imported pymilvus first, the copy has happened outside this package.)
if "pymilvus" not in sys.modules:
    _environment_before = set(os.environ)
    import pymilvus  # noqa: F401

    for _name in set(os.environ) - _environment_before:
        del os.environ[_name]


def __getattr__(name: str) -> Any:
    if name == "app":
        from memory_tasks.celery_app import app

        return app
    raise AttributeError(f"module 'memory_tasks' has no attribute {name!r}")
