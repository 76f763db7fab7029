"""The RIF Whole-History Rating list's forecasts of its own games, for an evaluation
(app/rating/evaluation.py, issue 45): ``RatingSystem.forecast`` of the WHR list.

WHR rates the whole history at once: a fit of all games knows every game, so one fit cannot predict
any of them fairly. Two plans:

- forward: periods of ``period_months`` calendar months from the first game's month. At each
  period's start every game before it is fitted (warm-started from the previous period's fit: the
  same player indices, so it only changes the work), and the period's games are predicted from each
  player's rating on the game's day as that fit reads it: after a player's last fitted day his
  rating is held (INTERPRETATIONS 3.6), and every fitted day is before the period. A player with no
  game before the period has no rating: his games are unscored.
- holdout: one fit of every game but the held-out ones, each held-out game predicted from each
  player's rating on its day read as the reference ``whr`` package's ``Evaluate.get_rating`` reads
  it: interpolated linearly between his fitted days around it, his first fitted day's rating before
  that day, his last one's after it; a player with no fitted day is unscored (its
  ``ignore_null_players``).

The expected score is the model's own, Bradley-Terry on the natural ratings (# RIF 2021 #1-#7),
vectorised exactly as ``whr.win_probability`` evaluates it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from app.rating import whr
from app.rating.evaluation import held_out, stated_order, validated_plan
from app.rating.system import EvaluationPlan, Forecasts, GameColumns, ReplayInput
from app.rating.whr.model import _validate_params, _validated_games
from app.rating.whr.solver import NATURAL_PER_ELO, Problem

if TYPE_CHECKING:
    from app.rating.whr.rating_list import WhrListParams

__all__ = ["RULE", "FIT_TOLERANCE", "forecast_whr", "win_probabilities"]

RULE = "RIF 2021 #1-#7"  # the model's P(A beats B), what ``whr_expected_score`` cites
# An evaluation's fits stop when a Newton step moves no rating by 1e-4 Elo (the list's own fit: 1e-6):
# a prediction read from a rating 1e-4 Elo off moves by less than 1e-7 in probability (the mean
# log-likelihood by less than 1e-8), and a fit takes a Newton step less.
FIT_TOLERANCE = 1e-4
# The refits solve each Newton step 10x more loosely than the list's fit (solver._FORCING): an
# eighth fewer conjugate-gradient steps on the RIF-sized history for 2 % more Newton steps; the
# last bits of the ratings, which the list's fit keeps for its revisions, do not matter here.
_FORCING = 10.0
_EPOCH = 719163  # date(1970, 1, 1).toordinal(): day ordinals to numpy's datetime64 days


def forecast_whr(given: ReplayInput[WhrListParams], plan: EvaluationPlan) -> Forecasts:
    """The games ``plan`` asks for, predicted by the WHR list as the module's docstring says."""
    validated_plan(plan)
    games = given.columns if given.columns is not None else GameColumns.from_tournaments(given.tournaments)
    params = given.params.engine()
    order = stated_order(games.day)
    if plan.mode == "holdout":
        return _holdout(games, order, plan, params)
    return _forward(games, order, plan.period_months, params)


def win_probabilities(rating: np.ndarray, opponent_rating: np.ndarray) -> np.ndarray:
    """``whr.win_probability`` of each pair (# RIF 2021 #1-#7), on the weaker side as it is."""
    d = (rating - opponent_rating) * NATURAL_PER_ELO
    weaker = 1.0 / (1.0 + np.exp(-np.minimum(d, 0.0)))
    stronger = 1.0 - 1.0 / (1.0 + np.exp(np.maximum(d, 0.0)))
    result: np.ndarray = np.where(d <= 0, weaker, stronger)
    return result


def _forward(games: GameColumns, order: np.ndarray, period_months: int, params: whr.WhrParams) -> Forecasts:
    n_players = len(games.player_ids)
    # Checked once here as ``whr.fit`` checks them: the refits below skip its checks.
    black, white, score, day = _validated_games(
        games.black[order], games.white[order], games.black_score[order], games.day[order], n_players
    )
    _validate_params(params, FIT_TOLERANCE)
    # Each game's period: calendar months since the first game's month, period_months to a period.
    month = (day - _EPOCH).astype("datetime64[D]").astype("datetime64[M]").astype(np.int64)
    period = (month - month[0]) // period_months if len(month) else month
    starts = np.flatnonzero(np.diff(period, prepend=-1)) if len(period) else period  # (in day order: runs)
    stops = np.append(starts[1:], len(period)) if len(period) else period
    rating = np.full(len(day), np.nan)
    opponent = np.full(len(day), np.nan)
    held = np.full(n_players, np.nan)  # each player's rating held from his last fitted day
    # The whole history's structure, built once: each period's is its games before the period's first
    # day (``Problem.before``, the same arrays a build of that prefix gives, for a fraction of its time).
    whole = Problem(black, white, score, day, params) if len(starts) > 1 else None
    fitted = np.zeros(whole.n if whole is not None else 0)  # each whole row's rating in the latest fit of it (natural)
    fitted_before: int | None = None  # the first day no fit has had yet
    for start, stop in zip(starts.tolist(), stops.tolist(), strict=True):
        if start and whole is not None:  # the games of every period before this one: a prefix in day order
            problem = whole.before(int(day[start]))
            x = problem.initial_ratings(None) if fitted_before is None else _warm(problem, fitted, fitted_before, params)
            x = problem.maximise(x, FIT_TOLERANCE * NATURAL_PER_ELO, shift=True, forcing=_FORCING)[0]
            fitted[problem.rows] = x
            fitted_before = int(day[start])
            last = np.flatnonzero(np.append(problem.row_player[1:] != problem.row_player[:-1], True))
            held[problem.row_player[last]] = x[last] * whr.ELO_PER_NATURAL + params.virtual_rating
        rating[start:stop] = held[black[start:stop]]
        opponent[start:stop] = held[white[start:stop]]
    return _forecasts(rating, opponent, score, day, order)


def _warm(problem: Problem, fitted: np.ndarray, fitted_before: int, params: whr.WhrParams) -> np.ndarray:
    """Where a refit of ``problem`` (a prefix of the whole) starts: the previous fit (``fitted``, of
    the rows before ``fitted_before``) on the rows it had; on a player's newer rows his last fitted
    rating, held (all of them come after his fitted ones: the fits are of prefixes in day order); a
    player no fit had yet at the start rating (# RIF 2021 #8.3) on all his days - as ``whr.fit``'s
    warm start places a new tournament's rows, except that a newcomer is not placed by sweeps over
    the whole problem (``Problem.static_ratings``), an eighth of a monthly refit's time, to save a
    Newton step less often than not. It changes the work, not the result."""
    x: np.ndarray = fitted[problem.rows]
    new = problem.row_day >= fitted_before
    if not new.any():
        return x
    same = np.zeros(problem.n, dtype=bool)  # the row before is the same player's
    same[1:] = problem.row_player[1:] == problem.row_player[:-1]
    x[new & ~same] = (params.start_rating - params.virtual_rating) * NATURAL_PER_ELO  # a newcomer's first day
    # every other new row takes the rating of the last row before it that is not new or a first day
    source = np.where(new & same, 0, np.arange(problem.n))
    np.maximum.accumulate(source, out=source)
    result: np.ndarray = x[source]
    return result


def _fit(
    black: np.ndarray,
    white: np.ndarray,
    score: np.ndarray,
    day: np.ndarray,
    params: whr.WhrParams,
) -> whr.WhrFit:
    """The MAP ratings as ``whr.fit`` finds them (to FIT_TOLERANCE), without the deviations a
    forecast does not read; the caller has checked the games and params as ``whr.fit`` does."""
    problem = Problem(black, white, score, day, params)
    if problem.n == 0:  # no game (a holdout of a list of one game): no rows
        none = np.zeros(0, dtype=np.int64)
        return whr.WhrFit(none, none, np.zeros(0), np.zeros(0), none)
    x, steps, change = problem.maximise(problem.initial_ratings(None), FIT_TOLERANCE * NATURAL_PER_ELO)
    rating = x * whr.ELO_PER_NATURAL + params.virtual_rating
    return whr.WhrFit(problem.row_player, problem.row_day, rating, np.zeros(0), problem.row_games, steps, change)


def _holdout(games: GameColumns, order: np.ndarray, plan: EvaluationPlan, params: whr.WhrParams) -> Forecasts:
    held = held_out(order, plan)
    kept = ~held
    n_players = len(games.player_ids)
    black, white, score, day = _validated_games(
        games.black[kept], games.white[kept], games.black_score[kept], games.day[kept], n_players
    )
    _validate_params(params, FIT_TOLERANCE)
    fitted = _fit(black, white, score, day, params)
    targets = order[held[order]]
    day = games.day[targets]
    rating = _interpolated(fitted, games.black[targets], day)
    opponent = _interpolated(fitted, games.white[targets], day)
    return _forecasts(rating, opponent, games.black_score[targets], day, targets)


def _interpolated(fitted: whr.WhrFit, player: np.ndarray, day: np.ndarray) -> np.ndarray:
    """Each (player, day)'s rating as the reference's ``Evaluate.get_rating`` reads it: linear between
    the fitted days around the day, the first fitted day's before it, the last one's after it; NaN for
    a player with no fitted day."""
    result = np.full(len(player), np.nan)
    if not len(fitted) or not len(player):
        return result
    low = min(int(fitted.day.min()), int(day.min()))
    span = max(int(fitted.day.max()), int(day.max())) - low + 2
    keys = fitted.player * span + (fitted.day - low)  # sorted: the fit's rows are by (player, day)
    i = np.searchsorted(keys, player * span + (day - low), side="right") - 1  # his last row on or before the day
    j = i + 1
    safe_i, safe_j = np.maximum(i, 0), np.minimum(j, len(keys) - 1)
    has_before = (i >= 0) & (fitted.player[safe_i] == player)
    has_after = (j < len(keys)) & (fitted.player[safe_j] == player)
    t1, t2 = fitted.day[safe_i], fitted.day[safe_j]
    r1, r2 = fitted.rating[safe_i], fitted.rating[safe_j]
    between = has_before & has_after
    a = np.where(between, (t2 - day) / np.where(between, t2 - t1, 1), 1.0)
    result = np.where(has_before, a * r1 + (1.0 - a) * np.where(between, r2, r1), result)  # between, or held after
    result = np.where(~has_before & has_after, r2, result)  # before his first day: that day's
    return result


def _forecasts(rating: np.ndarray, opponent: np.ndarray, score: np.ndarray, day: np.ndarray, games: np.ndarray) -> Forecasts:
    """The scored ones of the games predicted (``games``: their positions in the input, in the stated order)."""
    considered = len(games)
    scored = ~(np.isnan(rating) | np.isnan(opponent))
    rating, opponent = rating[scored], opponent[scored]
    return Forecasts(
        expected=win_probabilities(rating, opponent),
        observed=score[scored].astype(np.float64),
        rating=rating,
        opponent_rating=opponent,
        day=day[scored].astype(np.int64),
        considered=considered,
        unscored=int(considered - int(scored.sum())),
        rule=RULE,
        game=games[scored].astype(np.int64),
    )
