from fastapi import APIRouter

from app.api.deps import SessionDep
from app.schemas.common import RowId
from app.schemas.jobs import JobRead
from app.services import jobs as service

router = APIRouter(prefix="/v1/jobs", tags=["jobs"])


@router.get("/{job_id}", operation_id="get_job")
def get_job(job_id: RowId, session: SessionDep) -> JobRead:
    """A recompute job: its status (queued, running, succeeded, failed), progress and outcome."""
    return JobRead.model_validate(service.get_job(session, job_id))
