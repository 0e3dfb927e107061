"""The dependencies every route states in its signature: who calls, a read session, ids, headers."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Annotated, Any

from fastapi import Depends, Header, Path, Query, Request
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BeforeValidator
from sqlalchemy.orm import Session

from config.settings import Settings
from memory_tasks.db.session import session_scope
from memory_tasks.http.auth import LOOPBACK_NAMES, AuthConfig, Role
from memory_tasks.http.errors import ApiError
from memory_tasks.http.schemas import MAX_ROW_ID
from memory_tasks.text import MAX_USER_ID

bearer = HTTPBearer(
    auto_error=False,
    scheme_name="bearer",
    description="A chat server's token (MEMORY_API_TOKENS) or the admin token (MEMORY_API_ADMIN_TOKEN).",
)


def auth_config(request: Request) -> AuthConfig:
    return request.app.state.auth


def app_settings(request: Request) -> Settings:
    return request.app.state.settings


def require_loopback_host(request: Request) -> None:
    """Without auth, only requests addressed to a loopback name: a page cannot reach us by DNS rebinding."""
    if request.url.hostname not in LOOPBACK_NAMES:
        raise ApiError(403, "forbidden", "without API tokens the service only answers requests to 127.0.0.1")


def caller_role(request: Request, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> Role:
    """The caller's role from `Authorization: Bearer <token>`; 401 when missing or unknown."""
    config = auth_config(request)
    if config.insecure_local:
        require_loopback_host(request)
    role = config.role_of(credentials.credentials if credentials else None)
    if role is None:
        raise ApiError(
            401,
            "unauthorized",
            "a valid bearer token is required: Authorization: Bearer <token>",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return role


def admin_role(role: Annotated[Role, Depends(caller_role)]) -> Role:
    """The admin role, or 403 for a chat server's token."""
    if role is not Role.ADMIN:
        raise ApiError(403, "forbidden", "this needs the admin token (MEMORY_API_ADMIN_TOKEN)")
    return role


def _query_names(dependant: Dependant) -> frozenset[str]:
    names = {param.alias for param in dependant.query_params}
    for sub in dependant.dependencies:
        names |= _query_names(sub)
    return frozenset(names)


def reject_unknown_query(request: Request) -> None:
    """422 for a query parameter the route does not take: `?usr_id=` must not silently mean "no filter"."""
    route = request.scope.get("route")
    if not isinstance(route, APIRoute):
        return
    unknown = sorted(set(request.query_params) - _query_names(route.dependant))
    if unknown:
        shown = ", ".join(name[:40] for name in unknown[:5])
        raise ApiError(422, "invalid_request", f"unknown query parameter(s): {shown}")


def read_session() -> Iterator[Session]:
    """A session for the route's reads (the writes of the plain functions open their own)."""
    with session_scope() as session:
        yield session


ChatCaller = Annotated[Role, Depends(caller_role)]
AdminCaller = Annotated[Role, Depends(admin_role)]
SettingsDep = Annotated[Settings, Depends(app_settings)]
ReadSession = Annotated[Session, Depends(read_session)]


def _digits_only(value: Any) -> Any:
    """A path or query integer arrives as text, and only ASCII digits are one: pydantic alone reads
    "1\r", " 1", "+1", "1.0" and "1_0" (as 10) as numbers, which the OpenAPI document's `integer`
    does not allow."""
    if isinstance(value, str) and not re.fullmatch(r"[0-9]+", value):
        raise ValueError("must be a whole number written in digits 0-9")
    return value


def whole_number(parameter: Any) -> Any:
    """The type of an integer path or query `parameter` (`Path(ge=1)`, `Query(le=100)`), digits only."""
    return Annotated[int, parameter, BeforeValidator(_digits_only)]


UserIdPath = whole_number(Path(ge=1, le=MAX_USER_ID, description="The chat server's own user id."))
RowIdPath = whole_number(Path(ge=1, le=MAX_ROW_ID))
ScopeUserId = whole_number(
    Query(ge=1, le=MAX_USER_ID, description="The user the id belongs to; an id of another user's row answers 404.")
)
IdempotencyKeyHeader = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        min_length=1,
        max_length=200,
        pattern=r"^[\x21-\x7e]+$",
        description="Any unique string (a UUID); a retry with the same key and body returns the first turn.",
    ),
]
