"""Whole-History Rating, the model (RIF rules of 2021, text 002 #1-#10; docs/decisions.md section 3).

The model (# RIF 2021 #1-#7, INTERPRETATIONS 3.1): every player has one rating per day he played.
A game between A and B on day t is won by A with probability 1 / (1 + 10^((RB(t) - RA(t)) / 400)),
a draw has likelihood sqrt(pA * pB); between two of a player's consecutive playing days t1 < t2 his
rating follows a Wiener process, R(t2) ~ N(R(t1), w2 * (t2 - t1)), w2 in Elo^2 per day.
On his first day every player also draws `virtual_games` virtual games against a player rated
`virtual_rating` (# RIF 2021 #8.2). The ratings are the maximum a-posteriori (MAP) estimate of all
player-days at once (# RIF 2021 #7, INTERPRETATIONS 3.3), found by ``app.rating.whr.solver``.
Ratings on any date (INTERPRETATIONS 3.6) and statuses (# RIF 2021 #10) are read from the fit.

Pure: numpy only, no I/O.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum

import numpy as np
from numpy.typing import ArrayLike, NDArray

from app.rating.whr.solver import ELO_PER_NATURAL, NATURAL_PER_ELO, Problem

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

__all__ = [
    "ACTIVE_YEARS",
    "ESTABLISHED_GAMES",
    "Status",
    "WarmStart",
    "WhrFit",
    "WhrParams",
    "active_cutoff",
    "fit",
    "games_on",
    "rating_on",
    "ratings_on",
    "status_on",
    "statuses_on",
    "win_probability",
]

ESTABLISHED_GAMES = 10  # RIF 2021 #10: "at least 10 rated games"
ACTIVE_YEARS = 5  # RIF 2021 #10: "the last game was played no more than 5 years ago"


@dataclass(frozen=True)
class WhrParams:
    """Parameters of a WHR rating list (INTERPRETATIONS 3.2; defaults are RIF 2021 #8)."""

    w2: float = 12.9  # Elo^2 per day (# RIF 2021 #8.1)
    virtual_games: int = 2  # virtual draws on a player's first day (# RIF 2021 #8.2)
    virtual_rating: float = 1900.0  # rating of the virtual opponent (# RIF 2021 #8.2)
    start_rating: float = 1900.0  # where the iteration starts (# RIF 2021 #8.3); not in the optimum


@dataclass(frozen=True, eq=False)
class WarmStart:
    """Ratings of a previous fit, in the same player index space as the new call (Elo scale)."""

    player: np.ndarray
    day: np.ndarray
    rating: np.ndarray

    @classmethod
    def from_fit(cls, previous: WhrFit) -> WarmStart:
        return cls(player=previous.player, day=previous.day, rating=previous.rating)


@dataclass(frozen=True, eq=False)
class WhrFit:
    """One row per player-day on which the player played, sorted by (player, day)."""

    player: np.ndarray  # int64
    day: np.ndarray  # int64
    rating: np.ndarray  # Elo; the virtual opponent is `virtual_rating` (1900)
    deviation: np.ndarray  # Elo
    games: np.ndarray  # rated games of the player on that day (virtual games excluded)
    newton_steps: int = 0
    max_change: float = 0.0  # Elo, largest change of the last Newton step
    cg_iterations: int = 0  # conjugate-gradient iterations over all Newton steps (diagnostics)
    # The row of each game's black player and of its white player, in the games' order (what `fit`
    # grouped the games by; empty in a fit built by hand): a caller that groups the games by
    # player-day again (the rating list's tournaments of a day) starts from these.
    black_row: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    white_row: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    def history(self, player: int) -> slice:
        """Rows of one player: ``fit.day[fit.history(p)]`` etc. An empty slice if he never played."""
        start = int(np.searchsorted(self.player, player, side="left"))
        stop = int(np.searchsorted(self.player, player, side="right"))
        return slice(start, stop)

    def __len__(self) -> int:
        return len(self.player)


# ---------------------------------------------------------------------------------------------
# Fitting


def fit(
    black: np.ndarray,
    white: np.ndarray,
    black_score: np.ndarray,
    day: np.ndarray,
    n_players: int,
    params: WhrParams = WhrParams(),
    warm_start: WarmStart | None = None,
    tolerance: float = 1e-6,
) -> WhrFit:
    """MAP ratings of every player on every day he played.

    black, white: player indices in [0, n_players); black_score: 1, 0.5 or 0 (black's score);
    day: integer day of each game (any fixed epoch, e.g. ``date.toordinal()``; the status
    functions below need ordinals). Players without a game get no rows.
    warm_start: ratings of an earlier fit to start from (rows it does not know are interpolated
    between, or held from, the player's known days; players it does not know start where a cold
    fit starts them: `Problem.static_ratings`). It changes the work, not the result.
    tolerance: stop when a full Newton step moves no rating by this many Elo or more.

    Raises ValueError for invalid input (a player against himself, a score not in {0, 0.5, 1},
    arrays of different lengths, indices outside [0, n_players), non-integer days, bad params).
    """
    black, white, score, day = _validated_games(black, white, black_score, day, n_players)
    _validate_params(params, tolerance)
    problem = Problem(black, white, score, day, params)
    if problem.n == 0:
        empty_i = np.zeros(0, dtype=np.int64)
        empty_f = np.zeros(0, dtype=np.float64)
        return WhrFit(empty_i, empty_i, empty_f, empty_f, empty_i, 0, 0.0)

    x = problem.initial_ratings(warm_start)
    x, steps, change = problem.maximise(x, tolerance * NATURAL_PER_ELO)
    cg_iterations = problem.cg_iterations
    deviation = problem.deviations(x) * ELO_PER_NATURAL
    return WhrFit(
        player=problem.row_player,
        day=problem.row_day,
        rating=x * ELO_PER_NATURAL + params.virtual_rating,
        deviation=deviation,
        games=problem.row_games,
        newton_steps=steps,
        max_change=change * ELO_PER_NATURAL,
        cg_iterations=cg_iterations,
        black_row=problem.black_row,
        white_row=problem.white_row,
    )


def _validated_games(
    black: ArrayLike, white: ArrayLike, black_score: ArrayLike, day: ArrayLike, n_players: int
) -> tuple[IntArray, IntArray, FloatArray, IntArray]:
    if int(n_players) != n_players or n_players < 0:
        raise ValueError(f"n_players must be a non-negative integer, got {n_players!r}")
    black = np.asarray(black)
    white = np.asarray(white)
    score = np.asarray(black_score, dtype=np.float64)
    day = np.asarray(day)
    for name, array in (("black", black), ("white", white), ("black_score", score), ("day", day)):
        if array.ndim != 1:
            raise ValueError(f"{name} must be one-dimensional")
    lengths = {len(black), len(white), len(score), len(day)}
    if len(lengths) != 1:
        raise ValueError(
            f"black, white, black_score and day must have the same length, got "
            f"{len(black)}, {len(white)}, {len(score)}, {len(day)}"
        )
    ints = []
    for name, array in (("black", black), ("white", white), ("day", day)):
        if array.size and not np.issubdtype(array.dtype, np.integer):
            as_float = np.asarray(array, dtype=np.float64)
            if not np.all(np.isfinite(as_float)) or np.any(as_float != np.round(as_float)):
                raise ValueError(f"{name} must hold integers")
        ints.append(np.asarray(array, dtype=np.int64))
    black, white, day = ints
    if black.size:
        bad = np.flatnonzero((black < 0) | (black >= n_players) | (white < 0) | (white >= n_players))
        if bad.size:
            raise ValueError(f"game {bad[0]}: player index outside [0, {n_players})")
        bad = np.flatnonzero(black == white)
        if bad.size:
            raise ValueError(f"game {bad[0]}: player {black[bad[0]]} plays against himself")
        bad = np.flatnonzero((score != 0.0) & (score != 0.5) & (score != 1.0))
        if bad.size:
            raise ValueError(f"game {bad[0]}: score {score[bad[0]]!r} is not 1, 0.5 or 0")
    return black, white, score, day


def _validate_params(params: WhrParams, tolerance: float) -> None:
    if not (math.isfinite(params.w2) and params.w2 > 0):
        raise ValueError(f"w2 must be positive, got {params.w2!r}")
    if int(params.virtual_games) != params.virtual_games or params.virtual_games < 1:
        # Without virtual games the posterior has no maximum (a player who only won goes to +inf,
        # and the whole pool may shift freely): the regularisation of # RIF 2021 #8.2 is required.
        raise ValueError(f"virtual_games must be a positive integer, got {params.virtual_games!r}")
    if not (math.isfinite(params.virtual_rating) and math.isfinite(params.start_rating)):
        raise ValueError("virtual_rating and start_rating must be finite")
    if not (tolerance > 0):
        raise ValueError(f"tolerance must be positive, got {tolerance!r}")


# ---------------------------------------------------------------------------------------------
# One game's expectation


def win_probability(rating: float, opponent_rating: float) -> float:
    """P(A beats B) of the model (# RIF 2021 #1-#7, INTERPRETATIONS 3.1): Bradley-Terry on the natural
    ratings r = R ln(10)/400, 1/(1 + e^(rB - rA)) = 1/(1 + 10^((RB - RA)/400)); a draw counts half.
    Evaluated on the weaker side, as the solver's sigmoid, so that P(A, B) + P(B, A) == 1 exactly."""
    d = (rating - opponent_rating) * NATURAL_PER_ELO
    if d <= 0:
        return 1.0 / (1.0 + math.exp(-d))
    return 1.0 - 1.0 / (1.0 + math.exp(d))


# ---------------------------------------------------------------------------------------------
# Ratings on a date (INTERPRETATIONS 3.6)


def rating_on(fit: WhrFit, player: int, day: int, w2: float) -> tuple[float, float] | None:
    """(rating, deviation) of one player on a day, or None before his first playing day.

    On a playing day: that day's values. Between two playing days t1 < t < t2: the rating is
    interpolated linearly; the deviation is that of a Brownian bridge between the two days plus the
    linearly interpolated deviation, sqrt(w2 (t - t1)(t2 - t)/(t2 - t1) + (a s1 + b s2)^2) with
    a = (t2 - t)/(t2 - t1), b = 1 - a, as the public renju WHR site computes it (whr_renju,
    game_base.py). After the last playing day the rating is held and its variance grows by w2 per
    day: sqrt(s^2 + w2 (t - t_last)).
    """
    rows = fit.history(player)
    days = fit.day[rows]
    if len(days) == 0 or day < days[0]:
        return None
    i = int(np.searchsorted(days, day, side="right")) - 1
    start = rows.start
    r1, s1, t1 = float(fit.rating[start + i]), float(fit.deviation[start + i]), int(days[i])
    if t1 == day:
        return r1, s1
    if i == len(days) - 1:
        return r1, math.sqrt(s1 * s1 + w2 * (day - t1))
    r2, s2, t2 = float(fit.rating[start + i + 1]), float(fit.deviation[start + i + 1]), int(days[i + 1])
    a = (t2 - day) / (t2 - t1)
    b = 1.0 - a
    bridge = w2 * (day - t1) * (t2 - day) / (t2 - t1)
    return a * r1 + b * r2, math.sqrt(bridge + (a * s1 + b * s2) ** 2)


def ratings_on(fit: WhrFit, day: int, w2: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(players, rating, deviation) of every player who had played on or before `day`.

    Vectorised `rating_on`; players in increasing index order.
    """
    players, last, has_next = _last_rows_on(fit, day)
    t1 = fit.day[last]
    r1 = fit.rating[last]
    s1 = fit.deviation[last]
    nxt = np.where(has_next, last + 1, last)
    t2 = fit.day[nxt]
    r2 = fit.rating[nxt]
    s2 = fit.deviation[nxt]
    between = has_next & (t1 != day)
    gap = np.where(between, t2 - t1, 1)
    a = np.where(between, (t2 - day) / gap, 1.0)
    b = 1.0 - a
    rating = a * r1 + b * r2
    variance = np.where(
        between,
        w2 * (day - t1) * (t2 - day) / gap + (a * s1 + b * s2) ** 2,
        s1 * s1 + w2 * (day - t1),  # on the day itself, day - t1 = 0
    )
    return players, rating, np.sqrt(variance)


def games_on(fit: WhrFit, day: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(players, rated games up to and including `day`, last playing day on or before `day`)."""
    mask = fit.day <= day
    if mask.any():
        counts = np.bincount(fit.player[mask], weights=fit.games[mask]).astype(np.int64)
    else:
        counts = np.zeros(0, np.int64)
    players, last, _ = _last_rows_on(fit, day)
    return players, counts[players], fit.day[last]


def _last_rows_on(fit: WhrFit, day: int) -> tuple[IntArray, IntArray, BoolArray]:
    """For each player with a row on or before `day`: his last such row, and whether a later row exists."""
    if len(fit.player) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0, dtype=bool)
    players, start, count = np.unique(fit.player, return_index=True, return_counts=True)
    mask = fit.day <= day
    upto = np.bincount(fit.player[mask], minlength=int(players[-1]) + 1)[players]
    keep = upto > 0
    last = (start + upto - 1)[keep]
    has_next = (upto < count)[keep]
    return players[keep].astype(np.int64), last, has_next


# ---------------------------------------------------------------------------------------------
# Status on a list date (# RIF 2021 #10, INTERPRETATIONS 3.5)


class Status(StrEnum):
    ACTIVE = "active"
    INACTIVE = "inactive"
    PROVISIONAL = "provisional"


def _as_date(day: int | date) -> date:
    return day if isinstance(day, date) else date.fromordinal(int(day))


def active_cutoff(list_day: int | date) -> int:
    """The earliest last-game day (a ``date.toordinal()``) that is still "no more than 5 years ago".

    "5 years" is calendar years: the same month and day five years before the list date is still
    within 5 years, the day before it is not. For a list dated 29 February the cutoff is 28 February
    five years earlier (that year has no 29 February).
    """
    d = _as_date(list_day)
    year = d.year - ACTIVE_YEARS
    try:
        cutoff = d.replace(year=year)
    except ValueError:  # 29 February -> 28 February
        cutoff = date(year, 2, 28)
    return cutoff.toordinal()


def status_on(rated_games: int, last_played_day: int | date, list_day: int | date) -> Status:
    """Status of a player on a list date (# RIF 2021 #10).

    rated_games: rated games up to the list date (virtual games not counted, INTERPRETATIONS 3.2);
    days are ``date.toordinal()`` numbers (or dates). <= 9 games: provisional; >= 10 games and the
    last game on or after `active_cutoff(list_day)`: active; otherwise inactive.
    """
    if rated_games < ESTABLISHED_GAMES:
        return Status.PROVISIONAL
    last = _as_date(last_played_day).toordinal()
    return Status.ACTIVE if last >= active_cutoff(list_day) else Status.INACTIVE


def statuses_on(rated_games: np.ndarray, last_played_day: np.ndarray, list_day: int | date) -> np.ndarray:
    """Vectorised `status_on`: an array of `Status` values (object dtype)."""
    games = np.asarray(rated_games)
    last = np.asarray(last_played_day, dtype=np.int64)
    if games.shape != last.shape:
        raise ValueError("rated_games and last_played_day must have the same shape")
    out = np.empty(games.shape, dtype=object)
    out[...] = Status.INACTIVE  # (np.full would store a plain str)
    out[last >= active_cutoff(list_day)] = Status.ACTIVE
    out[games < ESTABLISHED_GAMES] = Status.PROVISIONAL
    return out
