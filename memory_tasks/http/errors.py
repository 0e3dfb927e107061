"""Every error the service answers is JSON `{error, detail}` (plus `fields` for a request that fails validation).

`error` is a stable machine-readable code, `detail` a sentence for a person. Neither
ever echoes a token, a submitted value or an exception's text (which can hold SQL,
hostnames or memory content).
"""

from __future__ import annotations

import logging
import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

from memory_tasks.http.schemas import ErrorBody
from memory_tasks.redaction import redact

logger = logging.getLogger(__name__)

# The code of each status the framework itself may answer with.
STATUS_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
    503: "unavailable",
}

# Documented on every /v1 route, so the OpenAPI document says what each error looks like.
COMMON_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "The body is not parseable JSON (or not UTF-8)."},
    401: {"model": ErrorBody, "description": "No bearer token, or an unknown one."},
    413: {"model": ErrorBody, "description": "The body is larger than 64 KB."},
    422: {"model": ErrorBody, "description": "A field is missing, of the wrong type or out of range."},
}
ADMIN_RESPONSES: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorBody, "description": "A chat server's token; this needs the admin token."},
}
NOT_FOUND_RESPONSE: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorBody, "description": "No such id for this user (another user's id is not found either)."},
}
UNAVAILABLE_RESPONSE: dict[int | str, dict[str, Any]] = {
    503: {"model": ErrorBody, "description": "A backing service (PostgreSQL, Milvus) is unavailable; retry later."},
}


class ApiError(Exception):
    """An error answer: HTTP status, code and a sentence for the caller."""

    def __init__(self, status: int, error: str, detail: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.error = error
        self.detail = detail
        self.headers = headers


def error_response(status: int, error: str, detail: str, headers: dict[str, str] | None = None, **extra: Any):
    return JSONResponse({"error": error, "detail": redact(detail), **extra}, status_code=status, headers=headers)


def _field_errors(exc: RequestValidationError) -> list[dict[str, Any]]:
    """Where and what, never the submitted value (pydantic's `input`)."""
    return [
        {
            "loc": [str(part) for part in error.get("loc", ())],
            "msg": redact(str(error.get("msg", ""))),
            "type": error["type"],
        }
        for error in exc.errors()
    ]


async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    fields = _field_errors(exc)
    summary = "; ".join(f"{'.'.join(f['loc'][1:] or f['loc'])}: {f['msg']}" for f in fields[:5])
    return error_response(422, "invalid_request", summary or "invalid request", fields=fields)


async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
    return error_response(exc.status, exc.error, exc.detail, exc.headers)


def allowed_methods(request: Request) -> list[str]:
    """The methods the OpenAPI document names for this path (Starlette's 405 names only one route's)."""
    for template, operations in request.app.openapi()["paths"].items():
        pattern = re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template))
        if re.fullmatch(pattern, request.url.path):
            return sorted(method.upper() for method in operations)
    return []


async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    detail = exc.detail if isinstance(exc.detail, str) else "request refused"
    headers = dict(exc.headers or {})
    if exc.status_code == 405:
        headers["Allow"] = ", ".join(allowed_methods(request))
    return error_response(exc.status_code, STATUS_CODES.get(exc.status_code, "error"), detail, headers or None)


async def _database_error(request: Request, exc: OperationalError) -> JSONResponse:
    logger.warning("database unavailable", extra={"path": request.url.path, "error": type(exc.orig).__name__})
    return error_response(503, "unavailable", "the database is unavailable; nothing was changed, retry later")


async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    logger.exception("unexpected error", extra={"path": request.url.path})
    return error_response(500, "internal_error", "unexpected error; the service log has the details")


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(OperationalError, _database_error)
    app.add_exception_handler(Exception, _unexpected)
