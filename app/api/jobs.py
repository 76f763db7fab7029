from typing import Annotated

from fastapi import APIRouter, Query

from app.api import examples
from app.api.deps import JobIdPath, JobWait, Limit, Offset
from app.api.examples import responses
from app.http.session import SessionDep
from app.recompute import jobs as service
from app.schemas.common import Identifier, Page
from app.schemas.jobs import JobRead, JobStatus

router = APIRouter(prefix="/v1/jobs", tags=["jobs"])


@router.get("", operation_id="list_jobs", responses=responses(examples.LIST_JOBS))
def list_jobs(
    session: SessionDep,
    list_id: Annotated[Identifier | None, Query(alias="list", description="Only this rating list's jobs")] = None,
    status: JobStatus | None = Query(None, description="Only jobs in this state"),
    limit: Limit = 50,
    offset: Offset = 0,
) -> Page[JobRead]:
    """List recompute jobs, the newest first

    Every recompute job, queued by hand or by a submission, optionally of one list or in one state."""
    jobs, total = service.list_jobs(session, list_id=list_id, status=status, limit=limit, offset=offset)
    return Page(items=[JobRead.model_validate(job) for job in jobs], total=total, limit=limit, offset=offset)


@router.get("/{job_id}", operation_id="get_job", responses=responses(examples.GET_JOB))
async def get_job(job_id: JobIdPath, wait: JobWait = 0) -> JobRead:
    """Follow a recompute job

    Its status (queued, running, succeeded or failed), its progress from 0 to 1, and its outcome: the
    snapshot it wrote and a summary, or why it failed. With `wait`, the answer comes once the job
    has succeeded or failed, or after that many seconds, whichever is first: one request instead of
    polling. Without it, poll until the job has succeeded or failed. A job whose worker died (stopped
    answering for a minute, or lost its database) is queued and run again once, then failed rather
    than left running."""
    return JobRead.model_validate(await service.job_when_ended(job_id, wait))
