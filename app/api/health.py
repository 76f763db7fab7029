import time

from fastapi import APIRouter
from pydantic import BaseModel, Field
from sqlalchemy import Engine, text
from starlette.concurrency import run_in_threadpool

from app.api.examples import HEALTH, responses
from app.db import get_engine
from app.problems import ServiceUnavailable

router = APIRouter(prefix="/v1", tags=["operations"])

# Load balancers and uptime probes poll this many times a second; one query a second answers them all.
CHECK_EVERY_SECONDS = 1.0


class Health(BaseModel):
    """The service answers and its database is reachable."""

    status: str = Field(description="Always `ok` in a 200 answer", examples=["ok"])
    database: str = Field(description="The database's dialect", examples=["postgresql", "sqlite"])


@router.get(
    "/health",
    operation_id="get_health",
    responses={**responses(HEALTH), 503: {"description": "Database unreachable"}},
)
async def health() -> Health:
    """Whether the service and its database answer

    A 200 when the database answered a query, a 503 with `Retry-After` when it did not. The check is
    made at most once a second and shared by every request in between, so the answer is at most a
    second old and probes cost the database nothing more. No key is needed."""
    return await _database_check.current(get_engine())


class _DatabaseCheck:
    """The last `SELECT 1`, on a pooled connection (no ORM session), reused for CHECK_EVERY_SECONDS.
    While one request refreshes it, concurrent ones answer with the previous result rather than
    queue a query each."""

    def __init__(self) -> None:
        self.engine: Engine | None = None
        self.checked_at = float("-inf")
        self.failure: str | None = None
        self.refreshing = False

    async def current(self, engine: Engine) -> Health:
        fresh = engine is self.engine and time.monotonic() - self.checked_at < CHECK_EVERY_SECONDS
        if not fresh and not (self.refreshing and engine is self.engine):
            self.refreshing = True
            try:
                failure = await run_in_threadpool(_failure_of_select_one, engine)
            finally:
                self.refreshing = False
            self.engine, self.checked_at, self.failure = engine, time.monotonic(), failure
        if self.failure is not None:
            raise ServiceUnavailable(f"The database is not reachable: {self.failure}", headers={"Retry-After": "5"})
        return Health(status="ok", database=engine.dialect.name)


def _failure_of_select_one(engine: Engine) -> str | None:
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except Exception as error:  # noqa: BLE001 - any failure means "not reachable"
        return type(error).__name__
    return None


_database_check = _DatabaseCheck()
