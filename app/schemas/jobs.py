import datetime as dt
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

JobStatus = Literal["queued", "running", "succeeded", "failed", "cancelled"]


class JobAccepted(BaseModel):
    """A recompute was queued (or one already queued for the list is returned)."""

    job_id: int = Field(description="Follow it at `GET /v1/jobs/{job_id}` (also the `Location` header)", examples=[1])
    status: JobStatus = Field(description="The job's status at the time of the answer", examples=["queued"])
    list_id: str = Field(description="The rating list being recomputed", examples=["rif-whr"])


class JobRead(BaseModel):
    """A background job: a recompute of one rating list, or an evaluation of it."""

    model_config = ConfigDict(from_attributes=True)

    id: int = Field(description="The job's id", examples=[1])
    kind: str = Field(
        description="What the job does: `recompute`, or `evaluation` (`GET /v1/rating-lists/{list_id}/evaluations/{evaluation_id}` shows its findings)",
        examples=["recompute"],
    )
    list_id: str = Field(description="The rating list it works on", examples=["rif-whr"])
    status: JobStatus = Field(
        description="queued, running, succeeded, failed, or cancelled (an evaluation only)", examples=["succeeded"]
    )
    progress: float = Field(ge=0, le=1, description="Share of the work done, 0 to 1")
    error: str | None = Field(description="Why it failed (failed jobs only)")
    result: dict[str, Any] | None = Field(description="A summary of what it produced (succeeded jobs)")
    snapshot_id: int | None = Field(description="The snapshot it wrote, once succeeded", examples=[1])
    created_at: dt.datetime = Field(description="When it was queued (RFC 3339, in UTC, as every time the service sends)")
    started_at: dt.datetime | None = Field(description="When a worker claimed it (UTC)")
    finished_at: dt.datetime | None = Field(description="When it succeeded or failed (UTC)")
