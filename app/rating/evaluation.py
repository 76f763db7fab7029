"""How well a rating list predicts its games (issue 45, "Ratings that prove themselves").

A rating is a forecast: each system's rules say what score a player should expect against another
(``RatingSystem.expected_score``, cited by its rule), so a list can be judged by how well that
expectation met the games it had not yet seen. Three steps:

- ``forecast(system, given, plan)``: every game the plan asks for, predicted by the system's own rule
  from ratings that did not see it (``Forecasts``);
- ``score(forecasts)``: how good those predictions were (``Scores``: log-likelihood, Brier score,
  calibration, the same by rating band, by rating gap and by year);
- ``sweep(system, given, plan, parameter, values)``: the same for several values of one parameter,
  with the values the games support (``Sweep``); ``sweep_grid`` the same for every pair of values
  of two parameters, each with the values its profile likelihood supports.

The stated order of the games, in which a holdout numbers them and the forecasts list them: by date,
then by tournament in the order ``ReplayInput.tournaments`` gives them (end, start, id), then in
submission order within a tournament (``stated_order``).

Two plans (``EvaluationPlan``):

- forward: each game is predicted as a reader of the list would have predicted it the day before it
  was played. A system whose ratings move game by game or tournament by tournament is replayed once
  over all games, and each game read from each player's last point dated strictly before the game's
  day: a system that dates a tournament's ratings at its end never feeds a tournament's own games
  into their predictions. A whole-history system (WHR) gives its own ``RatingSystem.forecast``: it
  refits at each period's end (app/rating/whr/forecast.py).
- holdout: the games numbered ``offset``, ``offset + every``, … in the stated order are held out, the
  list is computed from the others, and the held-out games are predicted from it (for a system read
  from points, from the last point before the game's day, as forward does).

A game is unscored when one of its players has no rating to predict it from yet (his first
tournament); those are counted, not predicted. Pure: numpy, no I/O.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

import numpy as np
from pydantic import BaseModel, ValidationError

from app.rating.system import (
    Change,
    ChangeColumns,
    CodedColumn,
    EvaluationPlan,
    Forecasts,
    GameColumns,
    Point,
    PointColumns,
    RatingSystem,
    ReplayInput,
    StoredTournament,
)

__all__ = [
    "CALIBRATION_BINS",
    "CalibrationBin",
    "EvaluationPlan",
    "Forecasts",
    "GridPoint",
    "Group",
    "LIKELIHOOD_INTERVAL",
    "PROBABILITY_FLOOR",
    "Scores",
    "Sweep",
    "SweepPoint",
    "SweepProgress",
    "best_pair",
    "forecast",
    "held_out",
    "on_games",
    "only_tournaments",
    "score",
    "stated_order",
    "sweep",
    "sweep_grid",
    "validated_plan",
]

# An Elo table can give a game an expected score of exactly 0 or 1 (a gap beyond its last row), and
# a result against it would be an infinite log-likelihood: the probability is clipped into
# [1e-6, 1 - 1e-6] for the log-likelihood alone (a surprise of ln 1e-6 = -13.8 at most).
PROBABILITY_FLOOR = 1e-6
CALIBRATION_BINS = 10  # deciles of the expected score: [0, 0.1), ..., [0.9, 1.0]
WILSON_Z = 1.959963984540054  # the normal quantile of a two-sided 95 % interval
# Values of a parameter whose total log-likelihood is within chi^2_1(95 %) / 2 = 1.92 of the best's
# are not rejected against it by a likelihood-ratio test at 5 %: the sweep's interval.
LIKELIHOOD_INTERVAL = 1.92
_EPOCH = date(1970, 1, 1).toordinal()  # day ordinals to NumPy's datetime64 days


# --- forecasts ---------------------------------------------------------------------------------------


def forecast(system: RatingSystem[Any, Any], given: ReplayInput[Any], plan: EvaluationPlan) -> Forecasts:
    """The games ``plan`` asks for, each predicted by the system's own expected score from ratings
    that did not see it (see the module's docstring). Raises ValueError for a bad plan or a system
    whose rules give no expectation of one game."""
    validated_plan(plan)
    if system.expected_score is None:
        raise ValueError(f"rating system {system.id!r} gives no expected score of a game: it cannot be evaluated")
    if system.forecast is not None:
        return system.forecast(given, plan)
    return _sequential_forecast(system, given, plan)


def validated_plan(plan: EvaluationPlan) -> EvaluationPlan:
    """The plan, or ValueError saying what is wrong with it."""
    if plan.mode not in ("forward", "holdout"):
        raise ValueError(f"mode must be 'forward' or 'holdout', got {plan.mode!r}")
    if int(plan.period_months) != plan.period_months or plan.period_months < 1:
        raise ValueError(f"period_months must be a whole number of months, at least 1, got {plan.period_months!r}")
    if int(plan.every) != plan.every or plan.every < 2:
        # every = 1 would hold out every game and leave nothing to rate from.
        raise ValueError(f"every must be a whole number, at least 2, got {plan.every!r}")
    if int(plan.offset) != plan.offset or not 0 <= plan.offset < plan.every:
        raise ValueError(f"offset must be a whole number from 0 to every - 1 = {plan.every - 1}, got {plan.offset!r}")
    return plan


def stated_order(day: np.ndarray) -> np.ndarray:
    """The games' stated order, from their days in the order a ``ReplayInput`` holds them
    (tournament by tournament, each in submission order: ``GameColumns``): by day, ties kept in that
    order (a stable sort)."""
    order: np.ndarray = np.argsort(np.asarray(day, dtype=np.int64), kind="stable")
    return order


def held_out(order: np.ndarray, plan: EvaluationPlan) -> np.ndarray:
    """A holdout's held-out games as a mask over the games (in their ``ReplayInput`` order): those
    whose number in the stated order ``order`` is ``offset`` modulo ``every``."""
    mask = np.zeros(len(order), dtype=bool)
    mask[order[plan.offset :: plan.every]] = True
    return mask


def _sequential_forecast(system: RatingSystem[Any, Any], given: ReplayInput[Any], plan: EvaluationPlan) -> Forecasts:
    """A system read from its points: one replay (of all games, or of those not held out), each game
    predicted from each player's last point dated strictly before its day."""
    games = given.columns if given.columns is not None else GameColumns.from_tournaments(given.tournaments)
    order = stated_order(games.day)
    if plan.mode == "holdout":
        held = held_out(order, plan)
        targets = order[held[order]]
        replayed = system.replay(_without(given, held))
    else:
        targets = order
        replayed = system.replay(given)
    player, point_day, point_rating = _point_table(replayed.points, games.player_ids)
    day = games.day[targets]
    rating = _rating_before(player, point_day, point_rating, games.black[targets], day)
    opponent_rating = _rating_before(player, point_day, point_rating, games.white[targets], day)
    # What the system itself rated the game's tournament from, where it says: a Go player's rating
    # declared at his first tournament (004 (5)), an Elo player's before the tournament.
    before = _ratings_before_tournaments(replayed.changes)
    if before:
        tournament_ids = [given.tournaments[i].id for i in games.tournament[targets].tolist()]
        for side, players in ((rating, games.black[targets]), (opponent_rating, games.white[targets])):
            for i, (tournament_id, p) in enumerate(zip(tournament_ids, players.tolist(), strict=True)):
                declared = before.get((tournament_id, games.player_ids[p]))
                if declared is not None:
                    side[i] = declared
    scored = ~(np.isnan(rating) | np.isnan(opponent_rating))
    stones = _handicaps(given)[targets][scored]
    rating, opponent_rating, day = rating[scored], opponent_rating[scored], day[scored]
    expected_score = system.expected_score
    assert expected_score is not None  # (forecast checked it)
    params = given.params
    dates: dict[int, date] = {}
    expected = np.empty(len(day), dtype=np.float64)
    rules: dict[str, None] = {}  # the rules cited, in the order they were first used
    correction = system.handicap_correction
    for i, (r, o, d, n) in enumerate(zip(rating.tolist(), opponent_rating.tolist(), day.tolist(), stones.tolist(), strict=True)):
        on = dates.get(d) or dates.setdefault(d, date.fromordinal(d))
        # A handicap game's expectation is the system's with the stones' worth on black's side.
        expectation = expected_score(r + (correction(n) if correction is not None and n else 0.0), o, on, params)
        expected[i] = expectation.score
        rules[expectation.rule] = None
    if not rules:  # nothing scored: the rule the list date would cite
        rules[expected_score(0.0, 0.0, given.list_date, params).rule] = None
    return Forecasts(
        expected=expected,
        observed=games.black_score[targets][scored].astype(np.float64),
        rating=rating,
        opponent_rating=opponent_rating,
        day=day,
        considered=len(targets),
        unscored=int(len(targets) - int(scored.sum())),
        game=targets[scored].astype(np.int64),
        # A system whose rule changes over time (RIF Elo: the 1995 text, then GA 1997) cites each.
        rule="; ".join(rules),
    )


def on_games(forecasts: Forecasts, games: np.ndarray) -> Forecasts:
    """The forecasts of these games only (positions in the input, as ``Forecasts.game``), for comparing
    two lists on the games both predicted; ``considered`` and ``unscored`` are left as they were."""
    keep = np.isin(forecasts.game, games)
    return dataclasses.replace(
        forecasts,
        expected=forecasts.expected[keep],
        observed=forecasts.observed[keep],
        rating=forecasts.rating[keep],
        opponent_rating=forecasts.opponent_rating[keep],
        day=forecasts.day[keep],
        game=forecasts.game[keep],
    )


def only_tournaments(given: ReplayInput[Any], tournament_ids: set[str]) -> ReplayInput[Any]:
    """The input with only the games of these tournaments: two lists evaluated side by side are
    evaluated on the games both rate (issue 45 item 3)."""
    if given.columns is not None:
        kept_tournament = np.array([t.id in tournament_ids for t in given.tournaments], dtype=bool)
        outside = ~kept_tournament[given.columns.tournament] if len(given.tournaments) else np.zeros(0, dtype=bool)
    else:
        outside = np.array([t.id not in tournament_ids for t in given.tournaments for _ in t.games], dtype=bool)
    return _without(given, outside)


def _without(given: ReplayInput[Any], held: np.ndarray) -> ReplayInput[Any]:
    """The input without the held-out games (``held``: a mask in ``GameColumns`` order). A tournament
    whose games were all held out is left out (a system would see a tournament of no games); a
    columnar input keeps every tournament (its games point at them by position)."""
    kept = ~held
    if given.columns is not None:
        c = given.columns
        columns = GameColumns(c.player_ids, c.black[kept], c.white[kept], c.black_score[kept], c.day[kept], c.tournament[kept])
        return dataclasses.replace(given, columns=columns)
    tournaments: list[StoredTournament] = []
    start = 0
    for tournament in given.tournaments:
        stop = start + len(tournament.games)
        keep = kept[start:stop].tolist()
        games = [game for game, k in zip(tournament.games, keep, strict=True) if k]
        if games:
            tournaments.append(dataclasses.replace(tournament, games=games))
        start = stop
    return dataclasses.replace(given, tournaments=tournaments)


def _handicaps(given: ReplayInput[Any]) -> np.ndarray:
    """Each game's handicap stones (0: even), in ``GameColumns`` order; a columnar input holds none."""
    if given.columns is not None:
        return np.zeros(len(given.columns), dtype=np.int64)
    return np.array([game.handicap or 0 for t in given.tournaments for game in t.games], dtype=np.int64)


def _ratings_before_tournaments(changes: list[Change] | ChangeColumns) -> dict[tuple[str, str], float]:
    """Each (tournament, player)'s ``rating_before`` as the system's change rows give it (those that
    give one): the rating it rated him from at that tournament, the state just before its games."""
    if isinstance(changes, ChangeColumns):
        tournaments, players = _strings(changes.tournament_id), _strings(changes.player_id)
        ratings = np.asarray(changes.rating_before, dtype=np.float64).tolist() if len(changes) else []
    else:
        tournaments = [c.tournament_id for c in changes]
        players = [c.player_id for c in changes]
        ratings = [math.nan if c.rating_before is None else float(c.rating_before) for c in changes]
    return {
        (tournament, player): rating
        for tournament, player, rating in zip(tournaments, players, ratings, strict=True)
        if rating is not None and not math.isnan(rating)
    }


def _strings(column: Sequence[str] | CodedColumn) -> list[str]:
    if isinstance(column, CodedColumn):
        values = [str(value) for value in column.values]
        return [values[code] for code in np.asarray(column.codes, dtype=np.int64).tolist()]
    return [str(value) for value in column]


def _point_table(points: list[Point] | PointColumns, player_ids: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(player index, day ordinal, rating) of every point, whether the system gave ``Point`` objects
    or ``PointColumns`` (any of their forms); the index is the games' (``GameColumns.player_ids``),
    -1 for a player who played none of them (a seed only)."""
    index = {player_id: i for i, player_id in enumerate(player_ids)}
    if isinstance(points, PointColumns):
        ids = points.player_id
        if isinstance(ids, CodedColumn):
            of_code = np.array([index.get(str(v), -1) for v in ids.values], dtype=np.int64)
            player = of_code[np.asarray(ids.codes, dtype=np.int64)] if len(of_code) else np.zeros(0, dtype=np.int64)
        else:
            player = np.array([index.get(p, -1) for p in ids], dtype=np.int64)
        dates = points.date
        if isinstance(dates, np.ndarray):
            day = dates.astype(np.int64)
        else:
            day = np.array([d.toordinal() for d in dates], dtype=np.int64)
        rating = np.asarray(points.rating, dtype=np.float64)
    else:
        player = np.array([index.get(p.player_id, -1) for p in points], dtype=np.int64)
        day = np.array([p.date.toordinal() for p in points], dtype=np.int64)
        rating = np.array([p.rating for p in points], dtype=np.float64)
    known = player >= 0
    return player[known], day[known], rating[known]


def _rating_before(
    point_player: np.ndarray, point_day: np.ndarray, point_rating: np.ndarray, player: np.ndarray, day: np.ndarray
) -> np.ndarray:
    """Each (player, day)'s rating of his last point dated strictly before the day: the standing he
    held as the day began (NaN when he had none). One sort of the points by (player, day) and one
    binary search per game."""
    result = np.full(len(player), np.nan)
    if not len(point_player) or not len(player):
        return result
    low = min(int(point_day.min()), int(day.min()))
    span = max(int(point_day.max()), int(day.max())) - low + 2
    keys = point_player * span + (point_day - low)
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    # the first point at or after (player, day), less one: his last point before the day, if his
    i = np.searchsorted(keys, player * span + (day - low), side="left") - 1
    safe = np.maximum(i, 0)
    found = (i >= 0) & (point_player[order][safe] == player)
    result[found] = point_rating[order][safe[found]]
    return result


# --- scores ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CalibrationBin:
    """The games whose expected score fell in [low, high) (the last bin: [0.9, 1.0]): their mean
    expected and observed scores, and the Wilson 95 % score interval on the observed mean (a draw
    counting half). None where the bin holds no game."""

    low: float
    high: float
    games: int
    mean_expected: float | None
    observed: float | None
    interval_low: float | None
    interval_high: float | None


@dataclass(frozen=True)
class Group:
    """The scores of one group of games (a rating band, a rating gap, a year)."""

    label: str
    games: int
    mean_log_likelihood: float
    brier: float
    mean_expected: float
    observed: float


@dataclass(frozen=True)
class Scores:
    """How good a list's forecasts were. Plain Python numbers throughout (they become JSON); the
    means are None when no game was scored."""

    games: int  # scored games
    mean_log_likelihood: float | None  # per game, s ln p + (1 - s) ln(1 - p): higher is better, 0 is perfect
    brier: float | None  # mean (p - s)^2: lower is better; 0.25 is a coin's
    decisive_games: int  # scored games that were not drawn
    favourite_won: float | None  # of the decisive games with p != 0.5, the share the favourite won
    calibration: list[CalibrationBin]  # always 10 bins
    by_band: list[Group]  # by the mean of the two ratings
    by_gap: list[Group]  # by |rating - opponent_rating|
    by_year: list[Group]  # by the game's calendar year


def score(forecasts: Forecasts, *, band_width: float = 200.0, gap_width: float = 100.0) -> Scores:
    """The forecasts' log-likelihood, Brier score, favourite's share and calibration, overall and by
    rating band (``band_width`` points of the mean of the two ratings), by rating gap (``gap_width``
    points) and by year. Groups without a game are left out; the calibration keeps all its bins."""
    if not (band_width > 0 and gap_width > 0):
        raise ValueError(f"band_width and gap_width must be positive, got {band_width!r} and {gap_width!r}")
    p = np.asarray(forecasts.expected, dtype=np.float64)
    s = np.asarray(forecasts.observed, dtype=np.float64)
    n = len(p)
    log_likelihood = _log_likelihood(p, s)
    squared = (p - s) ** 2
    decisive = s != 0.5
    with_favourite = decisive & (p != 0.5)
    favourite_won = (p > 0.5) == (s == 1.0)
    rating = np.asarray(forecasts.rating, dtype=np.float64)
    opponent = np.asarray(forecasts.opponent_rating, dtype=np.float64)
    years = (np.asarray(forecasts.day, dtype=np.int64) - _EPOCH).astype("datetime64[D]").astype("datetime64[Y]").astype(
        np.int64
    ) + 1970
    return Scores(
        games=n,
        mean_log_likelihood=float(log_likelihood.mean()) if n else None,
        brier=float(squared.mean()) if n else None,
        decisive_games=int(decisive.sum()),
        favourite_won=float(favourite_won[with_favourite].mean()) if with_favourite.any() else None,
        calibration=_calibration(p, s),
        by_band=_banded((rating + opponent) / 2.0, band_width, p, s, log_likelihood, squared),
        by_gap=_banded(np.abs(rating - opponent), gap_width, p, s, log_likelihood, squared),
        by_year=_groups(years, [str(y) for y in np.unique(years).tolist()], p, s, log_likelihood, squared),
    )


def _log_likelihood(p: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Each game's s ln p + (1 - s) ln(1 - p), p clipped (PROBABILITY_FLOOR): a draw is half a win and
    half a loss, as the WHR model's draw likelihood sqrt(pA pB) is (# RIF 2021 #2)."""
    clipped = np.clip(p, PROBABILITY_FLOOR, 1.0 - PROBABILITY_FLOOR)
    result: np.ndarray = s * np.log(clipped) + (1.0 - s) * np.log1p(-clipped)
    return result


def _calibration(p: np.ndarray, s: np.ndarray) -> list[CalibrationBin]:
    """Ten bins of the expected score; 1.0 itself falls in the last."""
    bins = np.minimum(np.floor(p * CALIBRATION_BINS), CALIBRATION_BINS - 1).astype(np.int64)
    result = []
    for k in range(CALIBRATION_BINS):
        inside = bins == k
        games = int(inside.sum())
        low, high = k / CALIBRATION_BINS, (k + 1) / CALIBRATION_BINS
        if not games:
            result.append(CalibrationBin(low, high, 0, None, None, None, None))
            continue
        observed = float(s[inside].mean())
        interval_low, interval_high = wilson_interval(observed, games)
        result.append(CalibrationBin(low, high, games, float(p[inside].mean()), observed, interval_low, interval_high))
    return result


def wilson_interval(observed: float, games: int, z: float = WILSON_Z) -> tuple[float, float]:
    """The Wilson score interval of a share ``observed`` of ``games`` trials (a draw counting half a
    success): (p + z^2/2n +- z sqrt(p(1 - p)/n + z^2/4n^2)) / (1 + z^2/n). Unlike p +- z sqrt(p(1-p)/n)
    it stays inside [0, 1] and is not empty at a share of 0 or 1, as a bin of lopsided games often has."""
    z2n = z * z / games
    centre = (observed + z2n / 2.0) / (1.0 + z2n)
    half = z / (1.0 + z2n) * math.sqrt(observed * (1.0 - observed) / games + z2n / (4.0 * games))
    return max(0.0, centre - half), min(1.0, centre + half)


def _banded(
    value: np.ndarray, width: float, p: np.ndarray, s: np.ndarray, log_likelihood: np.ndarray, squared: np.ndarray
) -> list[Group]:
    """Groups of [k width, (k + 1) width), labelled "1800–2000"."""
    band = np.floor(value / width).astype(np.int64)
    labels = [f"{_number(k * width)}–{_number((k + 1) * width)}" for k in np.unique(band).tolist()]
    return _groups(band, labels, p, s, log_likelihood, squared)


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _groups(
    key: np.ndarray, labels: list[str], p: np.ndarray, s: np.ndarray, log_likelihood: np.ndarray, squared: np.ndarray
) -> list[Group]:
    """One group per distinct key, in increasing order (``labels``: the distinct keys' labels)."""
    distinct, inverse, counts = np.unique(key, return_inverse=True, return_counts=True)
    if not len(distinct):
        return []

    def mean(values: np.ndarray) -> list[float]:
        means: list[float] = (np.bincount(inverse, weights=values, minlength=len(distinct)) / counts).tolist()
        return means

    return [
        Group(label, int(games), ll, brier, expected, observed)
        for label, games, ll, brier, expected, observed in zip(
            labels, counts.tolist(), mean(log_likelihood), mean(squared), mean(p), mean(s), strict=True
        )
    ]


# --- a parameter's sweep ------------------------------------------------------------------------------

# (cells done, cells in all): told after each evaluation of a sweep, so that a job can report its
# progress and stop there when it is cancelled.
SweepProgress = Callable[[int, int], None]


@dataclass(frozen=True)
class SweepPoint:
    value: float
    mean_log_likelihood: float | None
    brier: float | None
    games: int


@dataclass(frozen=True)
class GridPoint:
    """The evaluation with one pair of values of a two-parameter sweep."""

    value: float  # of the sweep's first parameter
    second_value: float  # of its second (``Sweep.and_parameter``)
    mean_log_likelihood: float | None
    brier: float | None
    games: int


@dataclass(frozen=True)
class Sweep:
    """A parameter's values against how well the list predicted with each. ``best`` has the highest
    total log-likelihood; ``interval_low`` … ``interval_high`` spans the values whose total is within
    1.92 of the best's (LIKELIHOOD_INTERVAL: a likelihood-ratio 95 % interval on the values tried).

    A sweep of two parameters (``sweep_grid``) also holds ``grid``, every pair of values tried, and
    ``and_parameter``, the second parameter's own curve; each parameter's ``points`` are then its
    profile (each value's best pair over the other parameter), and its interval the profile's."""

    parameter: str
    current: float | None  # the value in the given params
    points: list[SweepPoint]
    best: float | None  # None when no value scored any game
    interval_low: float | None
    interval_high: float | None
    and_parameter: Sweep | None = None  # the second parameter's profile, in a two-parameter sweep
    grid: list[GridPoint] | None = None  # every pair, the first parameter's values outermost


def sweep(
    system: RatingSystem[Any, Any],
    given: ReplayInput[Any],
    plan: EvaluationPlan,
    parameter: str,
    values: Sequence[float],
    *,
    evaluate: Callable[[RatingSystem[Any, Any], ReplayInput[Any], EvaluationPlan], Forecasts] = forecast,
    progress: SweepProgress | None = None,
) -> Sweep:
    """``forecast`` and ``score`` with ``parameter`` set to each of ``values`` in turn (the other
    params as given, each set validated by the system's params model). ValueError for a parameter the
    model does not have, a value it rejects, or no value at all."""
    validated_plan(plan)
    _check_parameter(system, parameter, values)
    stored = given.params.model_dump()
    points = []
    for done, value in enumerate(values, start=1):
        found = _evaluated(system, given, plan, stored, {parameter: value}, evaluate)
        points.append(SweepPoint(float(value), found.mean_log_likelihood, found.brier, found.games))
        if progress is not None:
            progress(done, len(values))
    return _curve(parameter, stored.get(parameter), points)


def sweep_grid(
    system: RatingSystem[Any, Any],
    given: ReplayInput[Any],
    plan: EvaluationPlan,
    parameter: str,
    values: Sequence[float],
    second_parameter: str,
    second_values: Sequence[float],
    *,
    evaluate: Callable[[RatingSystem[Any, Any], ReplayInput[Any], EvaluationPlan], Forecasts] = forecast,
    progress: SweepProgress | None = None,
) -> Sweep:
    """``forecast`` and ``score`` with every pair of ``values`` of ``parameter`` and ``second_values``
    of ``second_parameter`` (the other params as given), the best pair, and each parameter's curve and
    interval from its profile likelihood.

    Why profiles: with two parameters free, the question "which values of w² does the history
    support?" is answered by the profile likelihood, each w²'s highest total log-likelihood over the
    other parameter (Pawitan, *In All Likelihood*, 2001, §3.4 and §9.7; Venzon and Moolgavkar, Applied
    Statistics 37, 1988). By Wilks's theorem (Annals of Mathematical Statistics 9, 1938) twice the gap
    between the best total and a value's profile is asymptotically chi-square with one degree of
    freedom, one parameter being fixed, so the 95 % interval keeps the values whose profile is within
    chi^2_1(95 %) / 2 = 1.92 of the best: LIKELIHOOD_INTERVAL, the one-parameter sweep's own cutoff,
    and a profile's curve is found by the very code that finds a one-parameter sweep's. (A joint
    region of the pair would use chi^2_2 / 2 = 3.00; the grid answers each parameter's interval.)
    ValueError as ``sweep`` gives, and for the same parameter twice."""
    validated_plan(plan)
    if parameter == second_parameter:
        raise ValueError(f"a sweep of two parameters needs two different ones, got {parameter!r} twice")
    _check_parameter(system, parameter, values)
    _check_parameter(system, second_parameter, second_values)
    stored = given.params.model_dump()
    grid = []
    cells = len(values) * len(second_values)
    for value in values:
        for second_value in second_values:
            found = _evaluated(system, given, plan, stored, {parameter: value, second_parameter: second_value}, evaluate)
            grid.append(GridPoint(float(value), float(second_value), found.mean_log_likelihood, found.brier, found.games))
            if progress is not None:
                progress(len(grid), cells)
    first = _curve(parameter, stored.get(parameter), [_profile_point(value, grid, lambda p: p.value) for value in values])
    second = _curve(
        second_parameter,
        stored.get(second_parameter),
        [_profile_point(value, grid, lambda p: p.second_value) for value in second_values],
    )
    return dataclasses.replace(first, and_parameter=second, grid=grid)


def best_pair(grid: Sequence[GridPoint]) -> GridPoint | None:
    """The pair of a two-parameter sweep with the highest total log-likelihood (the first in the grid's
    order among equals; None when no pair scored a game)."""
    scored = [p for p in grid if p.mean_log_likelihood is not None]
    return max(scored, key=_total) if scored else None


def _check_parameter(system: RatingSystem[Any, Any], parameter: str, values: Sequence[float]) -> None:
    model: type[BaseModel] = system.params_model
    if parameter not in model.model_fields:
        raise ValueError(f"rating system {system.id!r} has no parameter {parameter!r} (it has: {', '.join(model.model_fields)})")
    if not len(values):
        raise ValueError("a sweep needs at least one value")


def _evaluated(
    system: RatingSystem[Any, Any],
    given: ReplayInput[Any],
    plan: EvaluationPlan,
    stored: dict[str, Any],
    changed: dict[str, float],
    evaluate: Callable[[RatingSystem[Any, Any], ReplayInput[Any], EvaluationPlan], Forecasts],
) -> Scores:
    """The scores with the stored params changed as ``changed`` says (validated by the system's
    params model, the changes together: a pair is judged as a pair)."""
    try:
        params = system.params_model.model_validate({**stored, **changed})
    except ValidationError as error:
        message = "; ".join(e["msg"] for e in error.errors())
        asked = ", ".join(f"{name} = {value!r}" for name, value in changed.items())
        raise ValueError(f"{asked} is not a valid value: {message}") from None
    return score(evaluate(system, dataclasses.replace(given, params=params), plan))


def _profile_point(value: float, grid: Sequence[GridPoint], of: Callable[[GridPoint], float]) -> SweepPoint:
    """One value's point of a parameter's profile: the pair with that value (``of`` reads the
    parameter's value of a pair) whose total log-likelihood is highest over the other parameter."""
    pairs = [p for p in grid if of(p) == float(value)]
    best = best_pair(pairs) or pairs[0]
    return SweepPoint(float(value), best.mean_log_likelihood, best.brier, best.games)


def _total(point: SweepPoint | GridPoint) -> float:
    """The total log-likelihood of the games a point scored: the likelihood-ratio comparison is
    between totals, not means."""
    assert point.mean_log_likelihood is not None
    return point.mean_log_likelihood * point.games


def _curve(parameter: str, current: Any, points: list[SweepPoint]) -> Sweep:
    """The values' points with the best of them and the values within LIKELIHOOD_INTERVAL of its
    total. (A parameter that changes which games are scored, e.g. a bootstrap rating, compares totals
    over different games: read its interval with care.)"""
    totals = [(_total(p), p) for p in points if p.mean_log_likelihood is not None]
    if not totals:
        return Sweep(parameter, _plain(current), points, None, None, None)
    best_total, best = max(totals, key=lambda total: total[0])
    supported = [p.value for total, p in totals if total >= best_total - LIKELIHOOD_INTERVAL]
    return Sweep(parameter, _plain(current), points, best.value, min(supported), max(supported))


def _plain(value: Any) -> float | None:
    """The given params' value as a number (None for one that is not: a date, a choice)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)
