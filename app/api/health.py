"""Liveness and readiness: `/v1/health` says the process answers and reaches its database (a load
balancer's or an orchestrator's liveness probe); `/v1/health/ready` says it may be sent traffic: the
database answers and its schema is at the revision this code expects (after an upgrade, a replica of
the new version is not ready until `python -m app.cli migrate` has run)."""

import time
from collections.abc import Callable

from fastapi import APIRouter
from pydantic import BaseModel, Field
from sqlalchemy import Engine, text
from starlette.concurrency import run_in_threadpool

from app.api.examples import HEALTH, READINESS, responses
from app.db import get_engine
from app.problems import ServiceUnavailable
from app.schema_migrations import current_revisions, head_revisions

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
    failure = await _database_check.current(get_engine())
    if failure is not None:
        raise ServiceUnavailable(f"The database is not reachable: {failure}", headers={"Retry-After": "5"})
    return Health(status="ok", database=get_engine().dialect.name)


class Readiness(BaseModel):
    """The service may be sent traffic: its database answers and is at the schema this code expects."""

    status: str = Field(description="Always `ready` in a 200 answer", examples=["ready"])
    database: str = Field(description="The database's dialect", examples=["postgresql", "sqlite"])
    revision: str = Field(
        description="The database's migration revision (Alembic), the head of the migrations this version ships",
        examples=["0020"],
    )


@router.get(
    "/health/ready",
    operation_id="get_readiness",
    responses={**responses(READINESS), 503: {"description": "Database unreachable, or not migrated to this version's schema"}},
)
async def readiness() -> Readiness:
    """Whether the service may be sent traffic

    A 200 when the database answered and its schema is at the head revision of the migrations this
    version of the service ships; a 503 with `Retry-After` otherwise: the database is unreachable,
    or it has not been migrated yet (run `python -m app.cli migrate`; the compose file's `migrate`
    service does it before the replicas start), or it was migrated by a newer version. `/v1/health`
    is the liveness check: it stays 200 while the schema is behind, so that an orchestrator does not
    restart a replica that only waits for the migration. Checked at most once a second; no key."""
    engine = get_engine()
    failure = await _readiness_check.current(engine)
    if failure is not None:
        raise ServiceUnavailable(f"The service is not ready: {failure}", headers={"Retry-After": "5"})
    return Readiness(status="ready", database=engine.dialect.name, revision=", ".join(head_revisions()))


class _SharedCheck:
    """The last result of a check on a pooled connection (no ORM session), reused for
    CHECK_EVERY_SECONDS. While one request refreshes it, concurrent ones answer with the previous
    result rather than queue a query each."""

    def __init__(self, check: Callable[[Engine], str | None]) -> None:
        self.check = check
        self.engine: Engine | None = None
        self.checked_at = float("-inf")
        self.failure: str | None = None
        self.refreshing = False

    async def current(self, engine: Engine) -> str | None:
        """What is wrong, or None when the check passed."""
        fresh = engine is self.engine and time.monotonic() - self.checked_at < CHECK_EVERY_SECONDS
        if not fresh and not (self.refreshing and engine is self.engine):
            self.refreshing = True
            try:
                failure = await run_in_threadpool(self.check, engine)
            finally:
                self.refreshing = False
            self.engine, self.checked_at, self.failure = engine, time.monotonic(), failure
        return self.failure


def _failure_of_select_one(engine: Engine) -> str | None:
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except Exception as error:  # noqa: BLE001 - any failure means "not reachable"
        return type(error).__name__
    return None


def _failure_of_schema(engine: Engine) -> str | None:
    try:
        with engine.connect() as connection:
            current = current_revisions(connection)
    except Exception as error:  # noqa: BLE001 - any failure means "not reachable"
        return f"the database is not reachable ({type(error).__name__})"
    expected = head_revisions()
    if current != expected:
        found = ", ".join(current) or "no revision (an empty database)"
        return f"the database is at {found}, this version expects {', '.join(expected)}: run python -m app.cli migrate"
    return None


_database_check = _SharedCheck(_failure_of_select_one)
_readiness_check = _SharedCheck(_failure_of_schema)
