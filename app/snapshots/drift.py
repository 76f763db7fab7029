"""How a list's ratings drift (issue 46 item 4): from a snapshot's timeline, each month's end as the
list stood on it, its active players' ratings summed up (mean, median, fixed percentiles) and the
mean of a fixed cohort, the players active in a base year (docs/decisions.md 125-128).

Who is active on a month's end is what the list's ratings read as of that day answers
(``GET /v1/rating-lists/{id}/ratings?as_of=…&status=active``): each player's last point on or before
the day read by the system's own ``standings_on``, his status there ``active``. The month ends are
read once per snapshot into ``MonthEnds`` (the active players' numbers and ratings, month by month,
with each month's summary), kept per process in a cache bounded in bytes (``app.caches``): by its
first reader, or, for a list whose drift the process has answered before, by the new snapshot's
preparation (``app.snapshots.snapshot_preparation.prepare_drift``); a series for a cohort is then a
few array operations over it.

The series, its cohort and its last 12 months' change are pure functions of a ``MonthEnds``
(``series``, ``change_over_12_months``), which a test builds from a history of its own."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlalchemy.orm import Session

from app import caches
from app.models import RatingSnapshot
from app.rating.system import NO_DAY, ActiveOnDays, HeldPoints, HeldSpans, PointArrays, RatingSystem, Standings
from app.snapshots import timelines

PERCENTILES = (10, 25, 50, 75, 90)
MONTHS_COMPARED = 12  # the change is over the last 12 months (issue 46 item 4)
_EPOCH = dt.date(1970, 1, 1).toordinal()  # (NumPy's days count from it)
COHORT_YEARS_BACK = 5  # the default cohort: the year 5 years before the series' last month (decision 126)


@dataclass(frozen=True)
class MonthEnds:
    """The list on each month's end, from the month of its first rated day to that of its last (the
    last one read on the list's date when that comes before its end): month ``k``'s active players are
    ``player[offsets[k]:offsets[k + 1]]`` (numbers of the timeline's sorted ids), with their ratings."""

    days: np.ndarray  # int64 ordinals: each month's last day (or the list's date, for a month not over)
    offsets: np.ndarray  # int64, len(days) + 1
    player: np.ndarray  # int32
    rating: np.ndarray  # float64
    month: np.ndarray  # int16: each row's month (a game is dated 1900-2199: 3,600 months)
    # Each month's summary of its active players (what does not depend on a cohort): NaN for a month
    # without any.
    mean: np.ndarray
    percentiles: np.ndarray  # (months, len(PERCENTILES))

    def nbytes(self) -> int:
        arrays = (self.days, self.offsets, self.player, self.rating, self.month, self.mean, self.percentiles)
        return sum(a.nbytes for a in arrays)

    @property
    def counts(self) -> np.ndarray:
        return np.diff(self.offsets)

    def years(self) -> np.ndarray:
        """Each month's year."""
        return (self.days - _EPOCH).astype("datetime64[D]").astype("datetime64[Y]").astype(np.int64) + 1970


@dataclass(frozen=True)
class Series:
    """The drift series for one cohort, one element per month of ``MonthEnds``."""

    days: np.ndarray
    active: np.ndarray  # int64: active players
    mean: np.ndarray  # NaN for a month without an active player
    percentiles: np.ndarray  # (months, len(PERCENTILES)); the median is the 50th
    cohort_year: int | None
    cohort_size: int  # the players active on a month's end of the cohort year
    cohort_active: np.ndarray  # int64: of them, those active on the month's end
    cohort_mean: np.ndarray  # their mean rating; NaN for none


@dataclass(frozen=True)
class Reading:
    """How a list reads a day, its params bound: its system's ``standings_on``, and its
    ``active_on_days`` where it has one (every month end at once: RatingSystem)."""

    standings_on: Callable[[HeldPoints, dt.date], Standings]
    active_on_days: Callable[[HeldSpans], ActiveOnDays] | None = None

    @classmethod
    def of(cls, system: RatingSystem[Any, Any], params: Any) -> Reading:
        at_once = system.active_on_days
        return cls(
            standings_on=lambda held, day: system.standings_on(held, day, params),
            active_on_days=None if at_once is None else lambda spans: at_once(spans, params),
        )


def month_end_days(first_day: int, last_day: int) -> np.ndarray:
    """Every month's last day from ``first_day``'s month to ``last_day``'s, none after ``last_day``:
    the last one is ``last_day`` itself when it is not its month's end (ordinals)."""
    first, last = dt.date.fromordinal(first_day), dt.date.fromordinal(last_day)
    months = np.arange(np.datetime64(f"{first.year:04d}-{first.month:02d}", "M"), np.datetime64(last, "M") + 1)
    ends = (months + 1).astype("datetime64[D]") - np.timedelta64(1, "D")
    days = ends.astype(np.int64) + _EPOCH
    days[-1] = min(int(days[-1]), last_day)
    return days


def month_ends(
    points: PointArrays,
    first_row: np.ndarray,
    standings_on: Callable[[HeldPoints, dt.date], Standings],
    days: np.ndarray,
    active_on_days: Callable[[HeldSpans], ActiveOnDays] | None = None,
) -> MonthEnds:
    """Each day's active players and ratings, as the list's ratings read as of that day answers them:
    each player with a point on or before the day read from his last one (and the next one's date,
    rating and deviation), as ``Timeline.held_on`` finds them, by the system's own ``standings_on``
    on the day, with its status. ``points`` are sorted by player, then day, player ``p``'s rows
    ``first_row[p]:first_row[p + 1]`` (every player has one); ``days`` ascending.

    The points each day holds are not searched for day by day (a running sum over every point for
    each of a RIF-sized history's 418 month ends was half their cost): from one month end to the next
    only the players who played in between change their point, so the held points are kept in place,
    those few rows overwritten, and each day's ``standings_on`` reads a prefix of them (the players in
    the order of their first month, ties by number), its active players put back in the order of
    their numbers (the list's, which the sums of a month's ratings follow). The order they are handed
    in changes no standing: a system reads each player's from his own points alone, and answers them
    in the order it was given them (app/rating/system.py).

    A system with ``active_on_days`` reads all month ends in one call instead (its active players
    and ratings, every month at once: a RIF-sized history's 418 month ends in a third of the time),
    which must answer what its ``standings_on`` answers month by month."""
    months = len(days)
    players = len(first_row) - 1
    if months == 0 or players == 0:
        return summarised(days, [np.empty(0, dtype=np.int32)] * months, [np.empty(0, dtype=np.float64)] * months)
    rows = len(points.day)
    player_of_row = np.repeat(np.arange(players, dtype=np.int64), np.diff(first_row))
    is_last = np.zeros(rows, dtype=bool)
    is_last[first_row[1:] - 1] = True
    # A point is its player's last on the month ends from the first on or after its day to the one
    # before the first on or after his next point's day: none, when his next point is in the same month.
    start = np.searchsorted(days, points.day, "left")
    until = np.append(start[1:], months)
    until[is_last] = months
    if active_on_days is not None:
        at_once = active_on_days(HeldSpans(points, ~is_last, start, until, days))
        bounds = np.searchsorted(at_once.day, np.arange(months + 1), "left").astype(np.int64)
        return summarised_rows(days, bounds, player_of_row[at_once.row].astype(np.int32), at_once.rating)
    by_start = np.argsort(start, kind="stable")
    changes = by_start[(start < until)[by_start]]  # the held points, in the order they take hold
    bounds = np.searchsorted(start[changes], np.arange(months + 1), "left")
    # The players in the order in which they first hold a point: those on a month end are a prefix.
    first_month = start[first_row[:-1]]
    order = np.argsort(first_month, kind="stable")
    position = np.empty(players, dtype=np.int64)
    position[order] = np.arange(players)
    held_counts = np.searchsorted(first_month[order], np.arange(months), "right")
    following = np.where(is_last[changes], changes, changes + 1)
    has_next = ~is_last[changes]
    taking_hold = points.columns(changes) | {
        "next_day": np.where(has_next, points.day[following], NO_DAY),
        "next_rating": np.where(has_next, points.rating[following], np.nan),
        "next_deviation": np.where(has_next, points.deviation[following], np.nan),
    }
    held = {name: np.empty(players, dtype=column.dtype) for name, column in taking_hold.items()}
    at = position[player_of_row[changes]]
    month_players: list[np.ndarray] = []
    month_ratings: list[np.ndarray] = []
    for month, day in enumerate(days.tolist()):
        first, last = int(bounds[month]), int(bounds[month + 1])
        if last > first:
            for name, column in held.items():
                column[at[first:last]] = taking_hold[name][first:last]
        count = int(held_counts[month])
        standings = standings_on(HeldPoints(**{name: column[:count] for name, column in held.items()}), dt.date.fromordinal(day))
        # (copied out before the next month overwrites the held points a system's standings may share)
        active = np.flatnonzero(standings.status == "active")
        numbers = order[active]
        by_number = np.argsort(numbers)
        month_players.append(numbers[by_number].astype(np.int32))
        month_ratings.append(np.asarray(standings.rating, dtype=np.float64)[active[by_number]])
    return summarised(days, month_players, month_ratings)


def summarised(days: np.ndarray, players: list[np.ndarray], ratings: list[np.ndarray]) -> MonthEnds:
    """A ``MonthEnds`` of each month's active players and their ratings, with each month's summary."""
    counts = np.array([len(r) for r in ratings], dtype=np.int64)
    return summarised_rows(
        days,
        np.concatenate(([0], np.cumsum(counts))).astype(np.int64),
        np.concatenate(players) if players else np.empty(0, dtype=np.int32),
        np.concatenate(ratings) if ratings else np.empty(0, dtype=np.float64),
    )


def summarised_rows(days: np.ndarray, offsets: np.ndarray, player: np.ndarray, rating: np.ndarray) -> MonthEnds:
    """The same of the months' players and ratings one after another, month ``k``'s the rows
    ``offsets[k]:offsets[k + 1]``."""
    months = len(days)
    mean = np.full(months, np.nan)
    # Each month's ratings sorted on their own (a few microseconds each, where np.percentile's own
    # steps cost fifty): the percentiles of all months are then read at once.
    in_order = np.empty_like(rating)
    for month, (first, last) in enumerate(zip(offsets[:-1].tolist(), offsets[1:].tolist(), strict=True)):
        if last > first:
            month_ratings = rating[first:last]
            mean[month] = month_ratings.mean()
            in_order[first:last] = np.sort(month_ratings)
    return MonthEnds(
        days=np.asarray(days, dtype=np.int64),
        offsets=offsets,
        player=player,
        rating=rating,
        month=np.repeat(np.arange(months, dtype=np.int16), np.diff(offsets)),
        mean=mean,
        percentiles=sorted_percentiles(in_order, offsets, PERCENTILES),
    )


def sorted_percentiles(in_order: np.ndarray, offsets: np.ndarray, percentiles: tuple[int, ...]) -> np.ndarray:
    """Each group's percentiles, ``in_order[offsets[k]:offsets[k + 1]]`` being group ``k``'s values sorted
    (NaN last, as np.sort puts them): numpy's default, linear between the two nearest ranks (the R and
    spreadsheet percentile), computed as ``np.percentile`` computes it step by step so that every
    figure is the same to the last bit; NaN for an empty group or one with a NaN, as there."""
    counts = np.diff(offsets)
    groups = len(counts)
    if groups == 0:
        return np.full((0, len(percentiles)), np.nan)
    fractions = np.true_divide(np.asarray(percentiles), 100)
    # (np.percentile's "linear": the virtual index (n - 1)·q, its floor and the next one, both held
    # to the last value at the top, the weight the index less the floor)
    virtual = (counts[:, None] - 1) * fractions[None, :]
    below = np.floor(virtual)
    above = below + 1
    at_top = virtual >= (counts - 1)[:, None]
    below[at_top], above[at_top] = -1, -1
    below[virtual < 0], above[virtual < 0] = 0, 0
    below_index, above_index = below.astype(np.intp), above.astype(np.intp)
    weight = virtual - below_index
    # (index -1 is a group's last value, as in np.percentile's own slice; an empty group reads any
    # value, its figures NaN below)
    empty = counts == 0
    first, last = offsets[:-1, None], offsets[1:, None] - 1
    values = in_order if len(in_order) else np.zeros(1)
    lower = values[np.where(empty[:, None], 0, np.where(below_index < 0, last, first + below_index))]
    upper = values[np.where(empty[:, None], 0, np.where(above_index < 0, last, first + above_index))]
    difference = upper - lower
    result: np.ndarray = lower + difference * weight
    high = weight >= 0.5
    result[high] = (upper - difference * (1 - weight))[high]
    has_nan = ~empty & np.isnan(values[np.where(empty, 0, offsets[1:] - 1)])
    result[empty | has_nan] = np.nan
    return result


def default_cohort_year(ends: MonthEnds) -> int | None:
    """The year 5 years before the last month's (or the first month's year, when the series is shorter)."""
    if len(ends.days) == 0:
        return None
    years = ends.years()
    return int(max(years[0], years[-1] - COHORT_YEARS_BACK))


def series(ends: MonthEnds, cohort_year: int | None) -> Series:
    """The series with the cohort of ``cohort_year``: every player active on one or more of that
    year's month ends, followed through every month in which he is active (decision 126)."""
    months = len(ends.days)
    cohort_size = 0
    cohort_active = np.zeros(months, dtype=np.int64)
    cohort_mean = np.full(months, np.nan)
    if cohort_year is not None and months:
        # A month's rows are contiguous, and so are a year's months: its members are one slice's players.
        in_year = np.flatnonzero(ends.years() == cohort_year)
        member = np.zeros(int(ends.player.max(initial=-1)) + 1, dtype=bool)
        if len(in_year):
            member[ends.player[ends.offsets[in_year[0]] : ends.offsets[in_year[-1] + 1]]] = True
        cohort_size = int(member.sum())
        of_cohort = member[ends.player]
        # Each month's count and sum of its members' ratings, counted over their rows alone.
        month = ends.month[of_cohort]
        cohort_active = np.bincount(month, minlength=months).astype(np.int64)
        sums = np.bincount(month, weights=ends.rating[of_cohort], minlength=months)
        cohort_mean = np.divide(sums, cohort_active, out=np.full(months, np.nan), where=cohort_active > 0)
    return Series(
        days=ends.days,
        active=ends.counts,
        mean=ends.mean,
        percentiles=ends.percentiles,
        cohort_year=cohort_year,
        cohort_size=cohort_size,
        cohort_active=cohort_active,
        cohort_mean=cohort_mean,
    )


def change_over_12_months(values: np.ndarray) -> float | None:
    """The last month's value less that of 12 months before it; None when either is missing."""
    if len(values) <= MONTHS_COMPARED:
        return None
    change = float(values[-1] - values[-1 - MONTHS_COMPARED])
    return None if np.isnan(change) else change


def passes(change: float | None, threshold: float) -> bool:
    """Whether a change reaches the threshold either way (decision 127)."""
    return change is not None and abs(change) >= threshold


# --- per snapshot ---------------------------------------------------------------------------------


def of_snapshot(session: Session, snapshot: RatingSnapshot, reading: Reading) -> MonthEnds:
    """The snapshot's month ends, built once per process and kept (``prepared`` builds them first);
    its list is noted as one whose drift this process answers (``asked``)."""
    _asked.add(snapshot.list_id)
    key = (snapshot.id, snapshot.created_at)
    found = _kept.get(key)
    if found is not None:
        return found
    built = prepared(session, snapshot, reading)
    _kept.put(key, built)
    return built


def prepared(session: Session, snapshot: RatingSnapshot, reading: Reading) -> MonthEnds:
    """The snapshot's month ends, read through ``session`` (which may not have committed it yet), not kept."""
    timeline = timelines.timeline_of(session, snapshot)
    if not timeline.player_ids or timeline.archive is None:
        return summarised(np.empty(0, dtype=np.int64), [], [])
    points = timeline.points(slice(None))
    # The month of the last rated day, read on its end (or on the list's date, when that comes first).
    last_rated = dt.date.fromordinal(int(points.day.max()))
    month_end = dt.date(last_rated.year + last_rated.month // 12, last_rated.month % 12 + 1, 1) - dt.timedelta(days=1)
    last = min(month_end, snapshot.list_date).toordinal()
    days = month_end_days(int(points.day.min()), last)
    return month_ends(points, timeline.first_row, reading.standings_on, days, reading.active_on_days)


def asked(list_id: str) -> bool:
    """Whether this process has answered the list's drift: then its next snapshot's month ends are read
    before its readers ask (``app.snapshots.snapshot_preparation.prepare_drift``, decision 128)."""
    return list_id in _asked


def keep(snapshot: RatingSnapshot, built: MonthEnds) -> None:
    _kept.put((snapshot.id, snapshot.created_at), built)


def is_kept(snapshot: RatingSnapshot) -> bool:
    return (snapshot.id, snapshot.created_at) in _kept


def forget_all() -> None:
    _kept.clear()
    _asked.clear()


_asked: set[str] = set()
_kept: caches.BoundedCache[MonthEnds] = caches.BoundedCache("drift", "cache_drift_bytes", MonthEnds.nbytes)
