"""The HTTP service: the /v1 JSON API for chat servers in any language and the inspector page.

`create_app()` builds the ASGI app; `serve()` runs it (`python -m memory_tasks serve`).
"""

from memory_tasks.http.app import create_app
from memory_tasks.http.server import serve

__all__ = ["create_app", "serve"]
