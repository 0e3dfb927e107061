"""The application factory: the /v1 routers, the inspector, error handlers, limits and headers."""

from __future__ import annotations

import logging
import time
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import RedirectResponse
from fastapi.staticfiles import StaticFiles
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.responses import Response

from config.settings import Settings, get_settings
from memory_tasks.http.auth import AuthConfig
from memory_tasks.http.errors import install_error_handlers
from memory_tasks.http.inspector import routes as inspector
from memory_tasks.http.inspector.session import SessionSigner
from memory_tasks.http.routes import conversations, memories, messages, retrieval, service, tools, turns, users

MAX_BODY_BYTES = 64 * 1024
STATIC = Path(__file__).resolve().parent / "static"
API_VERSION = "1.0.0"

access_log = logging.getLogger("memory_tasks.http.access")

DESCRIPTION = """\
Long-term memory for chat servers in any language. Every request carries
`Authorization: Bearer <token>` (a chat server's token from MEMORY_API_TOKENS, or the
admin token); every error is JSON `{error, detail}`.

A turn: **before the reply** `POST /v1/retrieve` and put `block` on the system side of
the prompt; **during it** give the model `GET /v1/tools` and answer each tool call with
`POST /v1/tools/{name}`; **after it** `POST /v1/turns` for the user's and the assistant's
turns (with an `Idempotency-Key` when you retry).
"""

# The inspector's pages may load only this origin's script, style and images, and never be framed.
INSPECTOR_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; "
        "frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class ServiceHeaders(BaseHTTPMiddleware):
    """One access-log line per request (no query string: it may hold search text) and the security headers."""

    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        started = time.perf_counter()
        response = await call_next(request)
        response.headers["X-Content-Type-Options"] = "nosniff"
        if request.url.path.startswith("/inspector"):
            for name, value in INSPECTOR_HEADERS.items():
                response.headers.setdefault(name, value)
        access_log.info(
            "request",
            extra={
                "method": request.method,
                "path": request.url.path,
                "status": response.status_code,
                "duration_ms": round((time.perf_counter() - started) * 1000, 1),
            },
        )
        return response


async def _login_required(request: Request, exc: inspector.LoginRequired) -> Response:
    return RedirectResponse(f"/inspector/login?next={inspector.safe_next(exc.next_path)}", status_code=303)


async def _form_rejected(request: Request, exc: inspector.FormRejected) -> Response:
    page = inspector.Page(request, inspector.language_of(request), inspector.current_session(request))
    return page.render("rejected.html", status=403)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The ASGI app; auth comes from `settings` (default: the process settings)."""
    settings = settings or get_settings()
    app = FastAPI(
        title="memory_tasks",
        version=API_VERSION,
        description=DESCRIPTION,
        max_body_size=MAX_BODY_BYTES,
    )
    app.state.settings = settings
    app.state.auth = AuthConfig.from_settings(settings)
    app.state.sessions = SessionSigner(app.state.auth.admin_token)
    install_error_handlers(app)
    app.add_exception_handler(inspector.LoginRequired, _login_required)
    app.add_exception_handler(inspector.FormRejected, _form_rejected)
    app.add_middleware(ServiceHeaders)
    for module in (turns, messages, retrieval, tools, memories, conversations, users, service):
        app.include_router(module.router)
    app.include_router(inspector.router)
    app.mount("/inspector/static", StaticFiles(directory=STATIC), name="inspector-static")
    return app
