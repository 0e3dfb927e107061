"""The environment of a bench that runs the product inside its own process.

It imports nothing of the project: the Celery app reads the broker settings when it is imported, so a bench
script applies this before its other imports.
"""

from __future__ import annotations

# Touches (`record_access`) must not reach a real broker, and texts are embedded here, not by a service.
IN_PROCESS_ENVIRONMENT = {
    "CELERY_BROKER_URL": "memory://",
    "CELERY_RESULT_BACKEND": "",
    "MEMORY_EMBEDDING_PROVIDER": "local",
}
