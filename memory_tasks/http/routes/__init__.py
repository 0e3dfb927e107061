"""One APIRouter per resource of the /v1 API."""
