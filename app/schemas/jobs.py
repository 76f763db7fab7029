import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class JobAccepted(BaseModel):
    job_id: int
    status: Literal["queued", "running", "succeeded", "failed"]
    list_id: str


class JobRead(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    kind: str
    list_id: str
    status: Literal["queued", "running", "succeeded", "failed"]
    progress: float = Field(ge=0, le=1)
    error: str | None
    result: dict | None
    snapshot_id: int | None
    created_at: dt.datetime
    started_at: dt.datetime | None
    finished_at: dt.datetime | None
