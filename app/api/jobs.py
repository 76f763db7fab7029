from typing import Annotated

from fastapi import APIRouter, Query

from app.api.deps import DatabaseId, Limit, Offset, SessionDep
from app.schemas.common import Identifier, Page
from app.schemas.jobs import JobRead, JobStatus
from app.services import jobs as service

router = APIRouter(prefix="/v1/jobs", tags=["jobs"])


@router.get("", operation_id="list_jobs")
def list_jobs(
    session: SessionDep,
    list_id: Annotated[Identifier | None, Query(alias="list", description="Only this rating list's jobs")] = None,
    status: JobStatus | None = Query(None, description="Only jobs in this state"),
    limit: Limit = 50,
    offset: Offset = 0,
) -> Page[JobRead]:
    """Recent jobs, newest first."""
    jobs, total = service.list_jobs(session, list_id=list_id, status=status, limit=limit, offset=offset)
    return Page(items=[JobRead.model_validate(job) for job in jobs], total=total, limit=limit, offset=offset)


@router.get("/{job_id}", operation_id="get_job")
def get_job(job_id: DatabaseId, session: SessionDep) -> JobRead:
    """A recompute job: its status (queued, running, succeeded, failed), progress and outcome."""
    return JobRead.model_validate(service.get_job(session, job_id))
