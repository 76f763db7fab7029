"""How a list's ratings drift (issue 46 item 4): its current snapshot's month ends
(``app.snapshots.drift``, kept per process) summed up for a cohort, with the last 12 months' change
beside the list's threshold. Names no system: who is active is the system's ``standings_on``."""

from __future__ import annotations

import datetime as dt
import math

from sqlalchemy.orm import Session

from app.models import RatingList
from app.recompute import staleness
from app.schemas.drift import Drift, DriftChange
from app.services.rating_lists import get_rating_list, get_snapshot, system_of
from app.snapshots import drift


def threshold_of(rating_list: RatingList) -> float:
    """The list's own threshold, or its system's default (docs/decisions.md 127)."""
    if rating_list.drift_threshold is not None:
        return float(rating_list.drift_threshold)
    return system_of(rating_list).drift_threshold


def drift_of(session: Session, list_id: str, cohort_year: int | None) -> Drift:
    """The list's drift series on its current snapshot. A cohort year without a month in the series has
    no members (decision 126): what the contract takes is answered."""
    rating_list = get_rating_list(session, list_id)
    system = system_of(rating_list)
    snapshot = get_snapshot(session, list_id, None)
    stale = staleness.of(rating_list)
    threshold = threshold_of(rating_list)
    if snapshot is None:
        empty = DriftChange(mean=None, median=None, cohort_mean=None)
        return Drift(
            list_id=list_id,
            system=system.id,
            snapshot_id=None,
            list_date=None,
            stale_since=stale.since if stale is not None else None,
            cohort_year=cohort_year,
            cohort_size=0,
            months=[],
            change_12_months=empty,
            threshold=threshold,
            flagged=False,
        )
    params = system.params(snapshot.params)
    ends = drift.of_snapshot(session, snapshot, drift.Reading.of(system, params))
    series = drift.series(ends, cohort_year if cohort_year is not None else drift.default_cohort_year(ends))
    median = series.percentiles[:, drift.PERCENTILES.index(50)] if len(series.days) else series.mean
    change = DriftChange(
        mean=drift.change_over_12_months(series.mean),
        median=drift.change_over_12_months(median),
        cohort_mean=drift.change_over_12_months(series.cohort_mean),
    )
    return Drift.model_validate(
        {
            "list_id": list_id,
            "system": system.id,
            "snapshot_id": snapshot.id,
            "list_date": snapshot.list_date,
            "stale_since": stale.since if stale is not None else None,
            "cohort_year": series.cohort_year,
            "cohort_size": series.cohort_size,
            "months": _months(series),
            "change_12_months": change,
            "threshold": threshold,
            "flagged": drift.passes(change.mean, threshold) or drift.passes(change.cohort_mean, threshold),
        }
    )


def _months(series: drift.Series) -> list[dict[str, object]]:
    """Each month as the fields of a ``DriftMonth``: validated with the whole answer in one call of
    pydantic-core (a model built a month took most of a RIF-sized series' read)."""
    months: list[dict[str, object]] = []
    for day, active, mean, percentiles, cohort_active, cohort_mean in zip(
        series.days.tolist(),
        series.active.tolist(),
        series.mean.tolist(),
        series.percentiles.tolist(),
        series.cohort_active.tolist(),
        series.cohort_mean.tolist(),
        strict=True,
    ):
        date = dt.date.fromordinal(day)
        known = not math.isnan(mean)
        months.append(
            {
                "month": f"{date.year:04d}-{date.month:02d}",
                "date": date,
                "active_players": active,
                "mean": mean if known else None,
                "median": percentiles[_MEDIAN] if known else None,
                "percentiles": dict(zip(_PERCENTILE_FIELDS, percentiles, strict=True)) if known else None,
                "cohort_active": cohort_active,
                "cohort_mean": None if math.isnan(cohort_mean) else cohort_mean,
            }
        )
    return months


_MEDIAN = drift.PERCENTILES.index(50)
_PERCENTILE_FIELDS = tuple(f"p{p}" for p in drift.PERCENTILES)
