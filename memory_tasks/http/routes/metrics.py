"""GET /metrics: the project's Prometheus series (README "Metrics and alerts").

This process's own series (retrieval latency and fallbacks, embedding calls of the chat
path) and the pipeline's state read at scrape time (`backlog.read_snapshot`: queue depths,
backlog counts, the oldest PENDING turn, the breaker). The workers serve their own series
(MEMORY_WORKER_METRICS_PORT). Prometheus authenticates with `Authorization: Bearer
<MEMORY_METRICS_TOKEN>` (a read-only token: the admin token works too but can delete data).
"""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.security import HTTPAuthorizationCredentials
from starlette.responses import Response

from memory_tasks import metrics
from memory_tasks.backlog import read_snapshot
from memory_tasks.http.auth import Role
from memory_tasks.http.deps import app_settings, auth_config, bearer, reject_unknown_query, require_loopback_host
from memory_tasks.http.errors import ApiError

router = APIRouter(tags=["service"])
_pipeline = metrics.PipelineCollector(read_snapshot)


def metrics_reader(
    request: Request, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
) -> None:
    """Let through the metrics token or the admin token (or anyone local in insecure mode); 401 otherwise."""
    config = auth_config(request)
    if config.insecure_local:
        require_loopback_host(request)
    token = credentials.credentials if credentials else None
    expected = app_settings(request).MEMORY_METRICS_TOKEN.get_secret_value().strip().encode("utf-8")
    is_reader = bool(token and expected) and hmac.compare_digest(token.encode("utf-8"), expected)
    if not is_reader and config.role_of(token) is not Role.ADMIN:
        raise ApiError(
            401,
            "unauthorized",
            "the metrics token is required: Authorization: Bearer <MEMORY_METRICS_TOKEN>",
            headers={"WWW-Authenticate": "Bearer"},
        )


@router.get("/metrics", dependencies=[Depends(metrics_reader), Depends(reject_unknown_query)], include_in_schema=False)
def prometheus_metrics() -> Response:
    """The text exposition format, read now."""
    return Response(metrics.render(_pipeline), media_type=metrics.CONTENT_TYPE)
