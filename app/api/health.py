from fastapi import APIRouter
from pydantic import BaseModel, Field
from sqlalchemy import text

from app.api.deps import SessionDep
from app.problems import ServiceUnavailable

router = APIRouter(prefix="/v1", tags=["operations"])


class Health(BaseModel):
    """The service answers and its database is reachable."""

    status: str = Field(description="Always `ok` in a 200 answer", examples=["ok"])
    database: str = Field(description="The database's dialect", examples=["postgresql", "sqlite"])


@router.get("/health", operation_id="get_health", responses={503: {"description": "Database unreachable"}})
def health(session: SessionDep) -> Health:
    """Liveness and readiness: 200 when the database answers a query, 503 otherwise."""
    try:
        session.execute(text("SELECT 1"))
    except Exception as error:  # noqa: BLE001 - any failure means "not reachable"
        raise ServiceUnavailable(f"The database is not reachable: {type(error).__name__}") from error
    return Health(status="ok", database=session.get_bind().dialect.name)
