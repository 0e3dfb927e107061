"""The service itself: /healthz (the process), /readyz (its backing services), /v1/status (the pipeline)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Query
from fastapi.responses import JSONResponse

from memory_tasks.http.deps import SettingsDep, admin_role, reject_unknown_query, whole_number
from memory_tasks.http.errors import ADMIN_RESPONSES, COMMON_RESPONSES
from memory_tasks.http.schemas import Health, Readiness, StatusOut
from memory_tasks.readiness import check_services, readiness_json
from memory_tasks.status import collect_status

router = APIRouter(tags=["service"])


@router.get("/healthz", dependencies=[Depends(reject_unknown_query)])
def healthz() -> Health:
    """The process answers (a liveness probe: it checks nothing else)."""
    return Health(status="ok")


@router.get(
    "/readyz",
    response_model=Readiness,
    dependencies=[Depends(reject_unknown_query)],
    responses={503: {"model": Readiness, "description": "A backing service is unreachable."}},
)
def readyz(settings: SettingsDep) -> JSONResponse:
    """PostgreSQL, the broker and Milvus (when enabled) each answered, with their round-trip times."""
    body = readiness_json(check_services(settings))
    return JSONResponse(Readiness(**body).model_dump(), status_code=200 if body["ready"] else 503)


# The caller is checked before the parameters: an unknown caller learns nothing about them.
@router.get(
    "/v1/status",
    dependencies=[Depends(admin_role), Depends(reject_unknown_query)],
    responses={**COMMON_RESPONSES, **ADMIN_RESPONSES},
)
def status(errors: whole_number(Query(ge=1, le=100)) = 10) -> StatusOut:
    """Messages per memory state, memories per vector state, and the latest `errors` failures."""
    return StatusOut(**collect_status(errors=errors))
