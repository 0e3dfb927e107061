"""`python -m memory_tasks serve`: run the HTTP service with uvicorn, after checking it may start."""

from __future__ import annotations

import sys

import uvicorn

from config.settings import get_settings
from memory_tasks.http.app import create_app
from memory_tasks.http.auth import startup_problem
from memory_tasks.logs import configure_logging

EXIT_REFUSED = 2


def serve(host: str | None = None, port: int | None = None) -> int:
    """Serve until interrupted; returns EXIT_REFUSED (after saying why) when the settings forbid starting.

    `host`/`port` default to MEMORY_API_HOST/MEMORY_API_PORT. uvicorn's own access log is off:
    the app logs one JSON line per request, without the query string.
    """
    settings = get_settings()
    host = host or settings.MEMORY_API_HOST
    port = settings.MEMORY_API_PORT if port is None else port
    if not 0 < port < 65536:
        print(f"error: port must be between 1 and 65535, got {port}", file=sys.stderr)
        return EXIT_REFUSED
    problem = startup_problem(settings, host)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_REFUSED
    configure_logging(log_content=settings.MEMORY_LOG_CONTENT)
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        access_log=False,
        log_config=None,
        server_header=False,
        timeout_graceful_shutdown=10,
    )
    return 0
