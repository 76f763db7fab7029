"""How a list's ratings drift, month by month (issue 46 item 4; app/services/drift.py)."""

import datetime as dt

from pydantic import BaseModel, Field

ACTIVE_DESCRIPTION = (
    "active on the month's end by the list's own status rule, as `GET /v1/rating-lists/{list_id}/ratings"
    "?as_of=…&status=active` reads it on that day"
)


class DriftPercentiles(BaseModel):
    """Fixed percentiles of the active players' ratings on a month's end (linear between the two nearest
    ranks, NumPy's and R's default)."""

    p10: float = Field(description="The 10th percentile")
    p25: float = Field(description="The 25th percentile (lower quartile)")
    p50: float = Field(description="The 50th percentile: the median")
    p75: float = Field(description="The 75th percentile (upper quartile)")
    p90: float = Field(description="The 90th percentile")


class DriftMonth(BaseModel):
    """The list on one month's end."""

    month: str = Field(description="The month, YYYY-MM", pattern=r"^\d{4}-(0[1-9]|1[0-2])$", examples=["2017-06"])
    date: dt.date = Field(
        description="The day the list is read on: the month's last day, or the series' last day (the list's last "
        "rated day or its list date) in its last month"
    )
    active_players: int = Field(ge=0, description="The players " + ACTIVE_DESCRIPTION)
    mean: float | None = Field(description="Their mean rating; null for a month without an active player")
    median: float | None = Field(description="Their median rating (the 50th percentile); null as `mean`")
    percentiles: DriftPercentiles | None = Field(description="Their ratings' percentiles; null as `mean`")
    cohort_active: int = Field(ge=0, description="The cohort's players active on the month's end")
    cohort_mean: float | None = Field(description="Their mean rating; null when none of the cohort is active")


class DriftChange(BaseModel):
    """The change over the last 12 months: the last month's value less that of 12 months before it."""

    mean: float | None = Field(
        description="The change of the active players' mean rating; null when the series is shorter than 13 months "
        "or either month has no active player"
    )
    median: float | None = Field(description="The change of their median; null as `mean`")
    cohort_mean: float | None = Field(description="The change of the cohort's mean rating; null as `mean`")


class Drift(BaseModel):
    """A list's ratings month by month, with a fixed cohort's, and whether the last 12 months moved them
    by the list's threshold."""

    list_id: str = Field(description="The rating list")
    system: str = Field(description="The list's rating system, whose status rule says who is active")
    snapshot_id: int | None = Field(description="The list's current snapshot, read; null before its first recompute")
    list_date: dt.date | None = Field(description="The snapshot's list date; null with `snapshot_id`")
    stale_since: dt.datetime | None = Field(
        description="The list's `stale_since` (see `GET /v1/rating-lists/{list_id}`); null when its snapshot shows "
        "every change of its inputs"
    )
    cohort_year: int | None = Field(
        description="The cohort's base year: the query's `cohort_year`, by default the year 5 years before the "
        "series' last month (its first year for a shorter series); null for an empty series asked for none"
    )
    cohort_size: int = Field(ge=0, description="The cohort: the players active on one or more month ends of `cohort_year`")
    months: list[DriftMonth] = Field(
        description="Every month from that of the list's first rated day to that of its last (or of its list date, "
        "when that comes first), oldest first; empty before the first recompute"
    )
    change_12_months: DriftChange = Field(description="The change over the last 12 months of the series")
    threshold: float = Field(
        gt=0,
        description="The list's `drift_threshold` (rating points over 12 months), or its system's default: 50 on the "
        "Elo scales, 30 on the Rivne Go scale",
    )
    flagged: bool = Field(
        description="true when the 12 months' change of the mean or of the cohort's mean reaches `threshold` either way"
    )
