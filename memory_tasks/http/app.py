"""The application factory: the /v1 routers, the inspector, error handlers, limits and headers."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from urllib.parse import urlencode

from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from swagger_ui_bundle import swagger_ui_path

from config.settings import Settings, get_settings
from memory_tasks.http.auth import AuthConfig
from memory_tasks.http.deps import caller_role, reject_unknown_query
from memory_tasks.http.errors import error_response, install_error_handlers
from memory_tasks.http.inspector import routes as inspector
from memory_tasks.http.inspector.session import SessionSigner
from memory_tasks.http.routes import conversations, memories, messages, metrics, retrieval, service, tools, turns, users

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
    # Not "no-referrer": with it browsers send `Origin: null` on the inspector's own forms.
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}


class BodyTooLarge(HTTPException):
    def __init__(self) -> None:
        super().__init__(413, f"the body is larger than {MAX_BODY_BYTES // 1024} KB")


class BodyLimit:
    """Refuse request bodies over MAX_BODY_BYTES with a JSON 413, by Content-Length or while reading.

    Raised inside a route, the 413 goes through the app's error handlers like any HTTP error;
    what escapes them (a limit hit before any route runs) is answered here.
    """

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(scope, receive, send)
            return
        received = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise BodyTooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            if started:
                raise
            await self._refuse(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        error = BodyTooLarge()
        await error_response(413, "payload_too_large", error.detail)(scope, receive, send)


class ServiceHeaders:
    """The security headers, and one access-log line per request (no query string: it may hold search text)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        path = scope["path"]
        extra = {"X-Content-Type-Options": "nosniff", **(INSPECTOR_HEADERS if path.startswith("/inspector") else {})}
        status = 500

        async def send_with_headers(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = MutableHeaders(scope=message)
                for name, value in extra.items():
                    headers.setdefault(name, value)
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        finally:
            access_log.info(
                "request",
                extra={
                    "method": scope["method"],
                    "path": path,
                    "status": status,
                    "duration_ms": round((time.perf_counter() - started) * 1000, 1),
                },
            )


async def _docs() -> HTMLResponse:
    return get_swagger_ui_html(
        openapi_url="/openapi.json",
        title="memory_tasks API",
        swagger_js_url="/docs/static/swagger-ui-bundle.js",
        swagger_css_url="/docs/static/swagger-ui.css",
        swagger_favicon_url="/docs/static/favicon-32x32.png",
    )


async def _login_required(request: Request, exc: inspector.LoginRequired) -> Response:
    return RedirectResponse(
        f"/inspector/login?{urlencode({'next': inspector.safe_next(exc.next_path)})}", status_code=303
    )


async def _form_rejected(request: Request, exc: inspector.FormRejected) -> Response:
    page = inspector.Page(request, inspector.language_of(request), inspector.current_session(request))
    return page.render("rejected.html", status=403)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The ASGI app; auth comes from `settings` (default: the process settings)."""
    settings = settings or get_settings()
    # /docs is served from the swagger-ui-bundle package: no CDN (the default loads it from one).
    app = FastAPI(title="memory_tasks", version=API_VERSION, description=DESCRIPTION, docs_url=None, redoc_url=None)
    app.state.settings = settings
    app.state.auth = AuthConfig.from_settings(settings)
    app.state.sessions = SessionSigner(app.state.auth.admin_token)
    install_error_handlers(app)
    app.add_exception_handler(inspector.LoginRequired, _login_required)
    app.add_exception_handler(inspector.FormRejected, _form_rejected)
    app.add_middleware(ServiceHeaders)
    app.add_middleware(BodyLimit)
    # Who calls is checked first: an unknown caller learns nothing about parameters or ids.
    for module in (turns, messages, retrieval, tools, memories, conversations, users):
        app.include_router(module.router, dependencies=[Depends(caller_role), Depends(reject_unknown_query)])
    app.include_router(service.router)
    app.include_router(metrics.router)
    app.include_router(inspector.router)
    app.mount("/inspector/static", StaticFiles(directory=STATIC), name="inspector-static")
    app.mount("/docs/static", StaticFiles(directory=str(swagger_ui_path)), name="docs-static")
    app.add_api_route("/docs", _docs, include_in_schema=False)
    return app
