import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.schemas.common import DisplayText, StrictModel

ReviewStatus = Literal["pending", "confirmed", "rejected"]


class ReviewDecision(StrictModel):
    """An officer's decision on a tournament submitted to a list that requires one."""

    decision: Literal["confirm", "reject"] = Field(
        description="`confirm`: the list rates the tournament from the recompute this queues; `reject`: it does not"
    )
    reason: DisplayText = Field(
        min_length=1,
        max_length=500,
        description="Why, in words: kept with the review and in the tournament's revisions",
        examples=["crosstable checked against the organiser's report"],
    )


class ReviewRead(BaseModel):
    """A tournament's review by a list: its status and the decision that gave it."""

    model_config = ConfigDict(from_attributes=True)

    list_id: str = Field(description="The rating list that reviews the tournament")
    tournament_id: str = Field(description="The tournament under review (`GET /v1/tournaments/{tournament_id}`)")
    status: ReviewStatus = Field(
        description="`pending` until an officer of the list decides; the list rates the tournament only once `confirmed`"
    )
    submitted_at: dt.datetime = Field(description="When the version under review was stored: its submission or latest correction")
    reason: str | None = Field(description="The officer's reason for the decision; null while pending")
    decided_by: str | None = Field(description="The name of the officer's key that decided; null while pending")
    decided_at: dt.datetime | None = Field(description="When the decision was made (UTC); null while pending")


class ReviewDecided(ReviewRead):
    """The review as the decision left it, and the recompute it queued."""

    job_id: int | None = Field(
        description="The recompute of the list the decision queued (GET /v1/jobs/{job_id}); null when the list's ratings "
        "do not change (a pending tournament rejected)"
    )
