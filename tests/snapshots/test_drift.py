"""The drift series of a list (app/snapshots/drift.py, issue 46 item 4): on the real Chinese results,
each month's active players, mean, percentiles and cohort against a computation here from the list's
own ratings read as of each month's end (the ratings endpoint's reading, with Python's statistics);
a planted shift of every rating by +50 from one month moves the 12 months' change by 50 and is
flagged, a flat history is not. The month ends read at once are each day's reading of its own (each
player's last point and the next one, the system's standings on the day) on a history of players who
appear, go inactive and return, under each kind of status rule; the percentiles read at once are
np.percentile's to the last bit."""

import datetime as dt
import statistics

import numpy as np
import pytest

from app import db
from app.importers.renju_tsv import parse_path, to_submissions
from app.rating.rif_elo.rating_list import elo_standings_on
from app.rating.system import ActiveOnDays, HeldPoints, HeldSpans, Point, PointArrays, Standings, last_point_held
from app.rating.whr.rating_list import WhrListParams, whr_active_on_days, whr_standings_on
from app.services import drift as drift_service
from app.services import rating_lists as lists_service
from app.snapshots import drift, snapshot_preparation
from tests.helpers import AUTH, RENJU_CN, recompute_now, tournament_body

LIST_DATE = dt.date(2020, 3, 15)  # after the file's last games (2019): the series ends with their month


def _store_chinese_results(client) -> None:  # type: ignore[no-untyped-def]
    for submission in to_submissions(parse_path(RENJU_CN))[0]:
        assert client.post("/v1/tournaments", json=submission, headers=AUTH).status_code == 201
    recompute_now(client, list_date=LIST_DATE)


def _active_on(client, day: dt.date) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """The list's active players on ``day`` and their ratings, as its ratings endpoint reads them."""
    found: dict[str, float] = {}
    offset = 0
    while True:
        page = client.get(
            "/v1/rating-lists/rif-whr/ratings",
            params={"as_of": day.isoformat(), "status": "active", "limit": 500, "offset": offset},
        ).json()
        found |= {row["player_id"]: row["rating"] for row in page["items"]}
        offset += 500
        if offset >= page["total"]:
            return found


def _month_end(year: int, month: int) -> dt.date:
    return dt.date(year + month // 12, month % 12 + 1, 1) - dt.timedelta(days=1)


@pytest.mark.slow  # the Chinese file's 59 tournaments submitted and rated
def test_the_series_is_the_lists_own_ratings_on_each_months_end(client):
    _store_chinese_results(client)
    with db.session_scope() as session:
        snapshot = lists_service.get_snapshot(session, "rif-whr", None)
        assert snapshot is not None
        system = lists_service.system_of(lists_service.get_rating_list(session, "rif-whr"))
        params = system.params(snapshot.params)
        ends = drift.of_snapshot(session, snapshot, drift.Reading.of(system, params))
    days = [dt.date.fromordinal(day) for day in ends.days.tolist()]
    # From the month of the first rated day (the file's first tournament, 2009) to that of the last (2019).
    first_game = min(dt.date.fromisoformat(s["end"]) for s in to_submissions(parse_path(RENJU_CN))[0])
    assert (days[0].year, days[0].month) == (first_game.year, first_game.month)
    assert days[-1].year == 2019 and days[-1] < LIST_DATE
    assert all(day == _month_end(day.year, day.month) for day in days)
    assert len(days) == (days[-1].year - days[0].year) * 12 + days[-1].month - days[0].month + 1
    cohort_year = days[-1].year - 5
    series = drift.series(ends, cohort_year)
    active_by_month = [_active_on(client, day) for day in days]
    cohort = {player for day, active in zip(days, active_by_month, strict=True) if day.year == cohort_year for player in active}
    assert series.cohort_size == len(cohort) > 20
    checked = 0
    for month, active in enumerate(active_by_month):
        assert series.active[month] == len(active)
        in_cohort = [rating for player, rating in active.items() if player in cohort]
        assert series.cohort_active[month] == len(in_cohort)
        if in_cohort:
            assert series.cohort_mean[month] == pytest.approx(statistics.fmean(in_cohort), abs=1e-9)
        else:
            assert np.isnan(series.cohort_mean[month])
        if not active:
            assert np.isnan(series.mean[month]) and np.isnan(series.percentiles[month]).all()
            continue
        ratings = list(active.values())
        assert series.mean[month] == pytest.approx(statistics.fmean(ratings), abs=1e-9)
        if len(ratings) >= 2:
            # (the inclusive method is the linear interpolation between closest ranks)
            cuts = statistics.quantiles(ratings, n=100, method="inclusive")
            assert series.percentiles[month].tolist() == pytest.approx([cuts[p - 1] for p in drift.PERCENTILES], abs=1e-9)
        assert series.percentiles[month][2] == pytest.approx(statistics.median(ratings), abs=1e-9)
        checked += 1
    assert checked > 60  # most months of the eleven years have active players

    # The whole answer through the service, with the list's default threshold, the change over 12 months.
    with db.session_scope() as session:
        answer = drift_service.drift_of(session, "rif-whr", None)
    assert answer.cohort_year == cohort_year and answer.threshold == 50.0
    means = [statistics.fmean(active.values()) if active else None for active in active_by_month]
    if means[-1] is not None and means[-13] is not None:
        assert answer.change_12_months.mean == pytest.approx(means[-1] - means[-13], abs=1e-9)

    # Every rating shifted by +50 from one month within the last 12: both changes move by exactly 50.
    shift_from = len(days) - 6
    players = [ends.player[ends.offsets[k] : ends.offsets[k + 1]] for k in range(len(days))]
    shifted = [ends.rating[ends.offsets[k] : ends.offsets[k + 1]] + (50.0 if k >= shift_from else 0.0) for k in range(len(days))]
    planted = drift.series(drift.summarised(ends.days, players, shifted), cohort_year)
    for before, after in ((series.mean, planted.mean), (series.cohort_mean, planted.cohort_mean)):
        change, moved = drift.change_over_12_months(before), drift.change_over_12_months(after)
        assert change is not None and moved is not None
        assert moved == pytest.approx(change + 50.0, abs=1e-9)
        assert drift.passes(moved, 50.0) == (abs(change + 50.0) >= 50.0)


def _flat_history(months: int = 36, players: int = 40) -> drift.MonthEnds:
    """Players of fixed ratings, all active every month: nothing drifts."""
    days = drift.month_end_days(
        dt.date(2018, 1, 15).toordinal(), _month_end(2018 + (months - 1) // 12, (months - 1) % 12 + 1).toordinal()
    )
    ratings = np.linspace(1500.0, 2500.0, players)
    numbers = np.arange(players, dtype=np.int32)
    return drift.summarised(days, [numbers] * len(days), [ratings.copy() for _ in days])


def test_a_flat_history_is_not_flagged_and_a_planted_shift_of_50_is():
    flat = _flat_history()
    series = drift.series(flat, 2018)
    assert series.cohort_size == 40 and (series.cohort_active == 40).all()
    assert drift.change_over_12_months(series.mean) == 0.0
    assert drift.change_over_12_months(series.cohort_mean) == 0.0
    assert not drift.passes(drift.change_over_12_months(series.mean), 50.0)
    for shift_from in (len(flat.days) - 12, len(flat.days) - 1):  # the first and the last month that counts
        ratings = [
            flat.rating[flat.offsets[k] : flat.offsets[k + 1]] + (50.0 if k >= shift_from else 0.0) for k in range(len(flat.days))
        ]
        players = [flat.player[flat.offsets[k] : flat.offsets[k + 1]] for k in range(len(flat.days))]
        shifted = drift.series(drift.summarised(flat.days, players, ratings), 2018)
        assert drift.change_over_12_months(shifted.mean) == pytest.approx(50.0)
        assert drift.change_over_12_months(shifted.cohort_mean) == pytest.approx(50.0)
        assert drift.passes(drift.change_over_12_months(shifted.mean), 50.0)
        assert np.allclose(shifted.percentiles[-1] - series.percentiles[-1], 50.0)
    # A shift before the last 12 months is no change within them.
    ratings = [flat.rating[flat.offsets[k] : flat.offsets[k + 1]] + (50.0 if k >= 3 else 0.0) for k in range(len(flat.days))]
    players = [flat.player[flat.offsets[k] : flat.offsets[k + 1]] for k in range(len(flat.days))]
    early = drift.series(drift.summarised(flat.days, players, ratings), 2018)
    assert drift.change_over_12_months(early.mean) == 0.0


def test_month_ends_run_from_the_first_month_to_the_last_day():
    days = drift.month_end_days(dt.date(2019, 11, 20).toordinal(), dt.date(2020, 3, 15).toordinal())
    assert [dt.date.fromordinal(day) for day in days.tolist()] == [
        dt.date(2019, 11, 30),
        dt.date(2019, 12, 31),
        dt.date(2020, 1, 31),
        dt.date(2020, 2, 29),
        dt.date(2020, 3, 15),
    ]
    assert drift.change_over_12_months(np.arange(12.0)) is None  # fewer than 13 months: no change to tell
    assert drift.change_over_12_months(np.arange(13.0)) == 12.0


def test_a_new_snapshots_month_ends_are_read_before_its_readers_where_the_drift_was_read(client):
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    recompute_now(client)
    with db.session_scope() as session:
        assert not snapshot_preparation.prepare_drift(session, "rif-whr")  # nobody asked: nothing read
    assert client.get("/v1/rating-lists/rif-whr/drift").status_code == 200
    assert (
        client.post(
            "/v1/tournaments",
            json=tournament_body(
                "T2", start="2020-07-01", end="2020-07-02", games=[{"black": "p1", "white": "p2", "result": "W"}]
            ),
            headers=AUTH,
        ).status_code
        == 201
    )
    recompute_now(client)
    with db.session_scope() as session:
        snapshot = lists_service.get_snapshot(session, "rif-whr", None)
        assert snapshot is not None and not drift.is_kept(snapshot)
        assert snapshot_preparation.prepare_drift(session, "rif-whr")
        assert drift.is_kept(snapshot)
        assert not snapshot_preparation.prepare_drift(session, "rif-whr")  # kept already
        assert not snapshot_preparation.prepare_drift(session, "rif-whr-gomoku")  # never asked, no snapshot
    answer = client.get("/v1/rating-lists/rif-whr/drift").json()
    drift.forget_all()
    assert client.get("/v1/rating-lists/rif-whr/drift").json() == answer  # what a reader builds himself


def _history() -> list[Point]:
    """Players sorted by id, each one's points by date: some who appear late, some with two points in one
    month (the first one no month end holds), some whose last game is more than five years before a month
    end (inactive then) who come back, some provisional before they are established, one whose point
    falls on a month's last day, and a crowd of random ones."""
    rng = np.random.default_rng(46)
    day = dt.date(2005, 1, 10).toordinal()
    chosen: dict[str, list[tuple[int, int, str]]] = {
        "a-early": [(day, 12, "established"), (day + 5, 14, "established"), (day + 2200, 20, "established")],
        "b-month-end": [(dt.date(2006, 3, 31).toordinal(), 11, "established")],
        "c-provisional": [(day + 40, 4, "provisional"), (day + 400, 9, "provisional"), (day + 900, 15, "established")],
        "d-late": [(dt.date(2012, 6, 30).toordinal(), 30, "established"), (dt.date(2012, 7, 1).toordinal(), 31, "established")],
    }
    for player in range(40):
        days = np.unique(rng.integers(day, dt.date(2012, 7, 15).toordinal(), size=int(rng.integers(1, 8))))
        # (one player in four plays in bursts years apart: inactive between them)
        if player % 4 == 0:
            days = np.unique(np.concatenate([days[:2], days[:2] + 2000]))
        games = np.cumsum(rng.integers(1, 9, size=len(days)))
        chosen[f"r{player:02d}"] = [
            (int(d), int(g), "established" if g >= 10 else "provisional") for d, g in zip(days, games, strict=True)
        ]
    points = []
    for player_id in sorted(chosen):
        for point_day, games, rif_status in chosen[player_id]:
            rating = float(rng.normal(1900.0, 200.0))
            points.append(
                Point(
                    player_id=player_id,
                    date=dt.date.fromordinal(point_day),
                    rating=rating,
                    deviation=float(rng.uniform(30.0, 200.0)),
                    games=games,
                    status="active" if rif_status == "established" else "provisional",
                    last_played=dt.date.fromordinal(point_day),
                    counters={"rif_status": rif_status},
                )
            )
    return points


def _read_day_by_day(points: list[Point], standings_on, days: np.ndarray) -> drift.MonthEnds:  # type: ignore[no-untyped-def]
    """Each day read on its own, as the ratings endpoint reads a list as of a date: each player's last
    point on or before the day and the one after it, the system's standings on the day."""
    ids = sorted({p.player_id for p in points})
    players: list[np.ndarray] = []
    ratings: list[np.ndarray] = []
    for ordinal in days.tolist():
        day = dt.date.fromordinal(ordinal)
        numbers, held, following = [], [], []
        for number, player_id in enumerate(ids):
            his = [p for p in points if p.player_id == player_id]
            before = [p for p in his if p.date <= day]
            if before:
                numbers.append(number)
                held.append(before[-1])
                after = [p for p in his if p.date > day]
                following.append(after[0] if after else None)
        standings = standings_on(HeldPoints.around(held, following), day)
        active = np.array([str(s) == "active" for s in standings.status], dtype=bool)
        players.append(np.array(numbers, dtype=np.int32)[active])
        ratings.append(np.asarray(standings.rating, dtype=np.float64)[active])
    return drift.summarised(days, players, ratings)


def _last_point_read_as_elo(held: HeldPoints, day: dt.date) -> Standings:
    return elo_standings_on(held, day, WhrListParams())


def _whr_at_once(spans: HeldSpans) -> ActiveOnDays:
    return whr_active_on_days(spans, WhrListParams())


@pytest.mark.parametrize(
    ("standings_on", "at_once", "lapses"),
    [
        (lambda held, day: whr_standings_on(held, day, WhrListParams()), None, True),  # rating between points, status on the day
        (lambda held, day: whr_standings_on(held, day, WhrListParams()), _whr_at_once, True),  # the same, every month in one call
        (_last_point_read_as_elo, None, True),  # the point's rating, the status on the day from the last appearance
        (lambda held, day: last_point_held(held, day, WhrListParams()), None, False),  # the point as it is
    ],
    ids=["whr", "whr-every-month-at-once", "rif-elo", "last-point-held"],
)
def test_the_month_ends_read_at_once_are_each_days_own_reading(standings_on, at_once, lapses):  # type: ignore[no-untyped-def]
    points = _history()
    arrays = PointArrays.of(points)
    ids = [p.player_id for p in points]
    first_row = np.array([ids.index(i) for i in sorted(set(ids))] + [len(ids)], dtype=np.int64)
    # To a month's end, and to a list date within a month (the last day is then no month's end).
    for last in (dt.date(2012, 7, 31), dt.date(2012, 7, 14), dt.date(2012, 6, 30)):
        days = drift.month_end_days(int(arrays.day.min()), last.toordinal())
        ends = drift.month_ends(arrays, first_row, standings_on, days, at_once)
        expected = _read_day_by_day(points, standings_on, days)
        assert ends.counts[0] < ends.counts.max()  # players join as the years go
        for name in ("days", "offsets", "player", "rating", "month", "mean", "percentiles"):
            got, want = getattr(ends, name), getattr(expected, name)
            assert got.dtype == want.dtype and np.array_equal(got, want, equal_nan=True), name
    # Under the rules of a status read on the day, some players leave the active ones and come back.
    months_active = {int(p): set() for p in np.unique(ends.player)}
    for month in range(len(ends.days)):
        for player in ends.player[ends.offsets[month] : ends.offsets[month + 1]].tolist():
            months_active[player].add(month)
    assert any(max(months) - min(months) + 1 > len(months) for months in months_active.values()) == lapses


def test_a_month_without_any_point_held_has_no_active_player():
    points = [Point("p", dt.date(2020, 3, 10), 1900.0, 50.0, 12, "active", dt.date(2020, 3, 10))]
    days = drift.month_end_days(dt.date(2020, 1, 5).toordinal(), dt.date(2020, 4, 30).toordinal())
    ends = drift.month_ends(
        PointArrays.of(points), np.array([0, 1]), lambda held, day: last_point_held(held, day, WhrListParams()), days
    )
    assert ends.counts.tolist() == [0, 0, 1, 1]
    assert np.isnan(ends.mean[:2]).all() and ends.mean[2:].tolist() == [1900.0, 1900.0]


def test_the_percentiles_read_at_once_are_np_percentiles_to_the_last_bit():
    rng = np.random.default_rng(128)
    groups = [rng.normal(1900.0, 250.0, n) for n in (0, 1, 2, 3, 4, 5, 9, 10, 11, 99, 100, 101, 2000, 0)]
    groups += [np.round(rng.normal(1900.0, 250.0, n)) for n in range(1, 40)]  # ties, as whole ratings have
    groups += [np.array([1.0, np.nan, 3.0]), np.array([np.nan])]
    offsets = np.concatenate(([0], np.cumsum([len(g) for g in groups]))).astype(np.int64)
    got = drift.sorted_percentiles(np.concatenate([np.sort(g) for g in groups]), offsets, drift.PERCENTILES)
    for group, row in zip(groups, got, strict=True):
        expected = np.percentile(group, drift.PERCENTILES) if len(group) else np.full(len(drift.PERCENTILES), np.nan)
        assert np.array_equal(row, expected, equal_nan=True), group


def test_months_without_an_active_player_read_at_once_are_empty_as_each_days_own():
    # One provisional player (4 games): held on every month end, active on none.
    points = [Point("p", dt.date(2020, 3, 10), 1900.0, 50.0, 4, "provisional", dt.date(2020, 3, 10))]
    days = drift.month_end_days(dt.date(2020, 1, 5).toordinal(), dt.date(2020, 6, 30).toordinal())
    standings_on = lambda held, day: whr_standings_on(held, day, WhrListParams())  # noqa: E731
    ends = drift.month_ends(PointArrays.of(points), np.array([0, 1]), standings_on, days, _whr_at_once)
    assert ends.counts.tolist() == [0] * 6 and np.isnan(ends.mean).all()
    expected = _read_day_by_day(points, standings_on, days)
    assert np.array_equal(ends.offsets, expected.offsets) and ends.player.dtype == expected.player.dtype
