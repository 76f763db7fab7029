"""RIF Elo, the GA 1995 / 1996 tournament system (text 000: GA 1995 #1–#9, GA 1996 #3)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from enum import StrEnum

from app.rating.rif_elo.common import (
    CONTRIBUTION_FACTOR,
    RATING_SCALE,
    Game,
    _check_games,
    _counted_games,
    _games_of,
    _unique,
    win_expectancy,
)
from app.rating.rounding import round_half_away_from_zero

NEW_PLAYER_MINIMUM_GAMES = 3  # RIF 1995 #8.a "at least three games"
FIXED_INTERVAL_FROM_Ra = 2200  # RIF 1995 #8.b "if ... Ra ... is 2200 or higher"
FIXED_INTERVAL = (2000, 2400)  # RIF 1995 #8.b "inside the interval 2000 - 2400"
INTERVAL_HALF_WIDTH = 200  # RIF 1995 #8.b "(Ra - 200) < Ro < Ra + 200"
RATING_BEFORE_1996 = date(1996, 1, 1)  # GA 1996 #3: #8.c not used before 1996
PERIOD_ENDS = ((4, 30), (8, 31), (12, 31))  # RIF 1995 #2/#5: April 30, August 31, December 31


# --------------------------------------------------------------------------------------------------
# GA 1995 / 1996: one tournament
# --------------------------------------------------------------------------------------------------


class Status1995(StrEnum):
    OFFICIAL = "official"
    UNOFFICIAL = "unofficial"  # rated via #8 but not yet on an official list: carries over by #8.a
    NEW = "new"


@dataclass(frozen=True)
class Player1995:
    """A player at the start of a tournament; ``rating`` is his start rating, None iff NEW."""

    id: str
    rating: int | None
    status: Status1995


@dataclass(frozen=True)
class Result1995:
    """One player's outcome. For a NEW player ``rating_before`` is None and ``change`` is relative to R0."""

    id: str
    rating_before: int | None
    rating_after: int | None
    change: int | None
    change_unrounded: float | None
    Et: float
    Ee: float | None
    games_counted: int
    status_after: Status1995
    R0: int | None = None
    R0_reason: str | None = None


def rate_tournament_1995(players: Sequence[Player1995], games: Sequence[Game], *, before_1996: bool) -> list[Result1995]:
    """Rate one tournament under GA 1995 #6-#8; results in the order of ``players``.

    ``before_1996`` switches #8.c off (GA 1996 #3). Raises ValueError on invalid input.
    """
    players = _checked_players_1995(players)
    _check_games(games, {player.id for player in players})
    start_ratings = {player.id: player.rating for player in players if player.rating is not None}
    official = {player.id for player in players if player.status is Status1995.OFFICIAL}
    # RIF 1995 #8.d: "start rating coefficients for these players must be calculated first"
    new_starts = {
        player.id: _new_player_start(player.id, games, start_ratings, official, before_1996=before_1996)
        for player in players
        if player.status is Status1995.NEW
    }
    tournament_ratings = start_ratings | {player_id: start.R0 for player_id, start in new_starts.items() if start.R0 is not None}
    return [
        _new_player_result(player.id, new_starts[player.id])
        if player.status is Status1995.NEW
        else _rated_player_result_1995(player, _counted_games(player.id, games, tournament_ratings))
        for player in players
    ]


# --- the helpers of GA 1995 -------------------------------------------------------------------


@dataclass(frozen=True)
class _NewPlayerStart:
    """The outcome of RIF 1995 #8 for one new player, before contributions."""

    R0: int | None
    reason: str
    counted: tuple[tuple[int, float], ...] = ()
    at_bound: bool = False


@dataclass(frozen=True)
class _Contribution:
    Et: float
    Ee: float
    F_unrounded: float
    F: int


def _checked_players_1995(players: Sequence[Player1995]) -> list[Player1995]:
    _unique(player.id for player in players)
    checked = []
    for player in players:
        status = Status1995(player.status)
        if status is Status1995.NEW and player.rating is not None:
            raise ValueError(f"player {player.id!r} is new and cannot have a rating (RIF 1995 #8)")
        if status is not Status1995.NEW and player.rating is None:
            raise ValueError(f"player {player.id!r} is {status} and needs a start rating (RIF 1995 #5, #8.a)")
        checked.append(replace(player, status=status))
    return checked


def _new_player_start(
    player_id: str,
    games: Sequence[Game],
    start_ratings: dict[str, int],
    official: set[str],
    *,
    before_1996: bool,
) -> _NewPlayerStart:
    # INTERPRETATIONS 1.8: only games against opponents holding a start rating when the tournament began.
    counted_with_ids = [(opponent, score) for opponent, score in _games_of(player_id, games) if opponent in start_ratings]
    # INTERPRETATIONS 1.9 (a): RIF 1995 #8.a first.
    if len(counted_with_ids) < NEW_PLAYER_MINIMUM_GAMES:
        return _NewPlayerStart(None, "fewer than 3 counted games (#8.a)")
    # INTERPRETATIONS 1.9 (b): RIF 1995 #8.c, waived before 1996 by GA 1996 #3. It needs at least one
    # game against an officially rated player: with none there is no "0 points in all matches" to judge.
    scores_against_official = [score for opponent, score in counted_with_ids if opponent in official]
    zero_against_official = bool(scores_against_official) and sum(scores_against_official) == 0
    if zero_against_official and not before_1996:
        return _NewPlayerStart(None, "0 points against officially rated players (#8.c)")
    # INTERPRETATIONS 1.9 (c), 1.6, 1.7: R0 from the #8.d formula, clamped into the #8.b interval, rounded.
    counted = tuple((start_ratings[opponent], score) for opponent, score in counted_with_ids)
    N = len(counted)
    Et = math.fsum(score for _, score in counted)
    Ra = math.fsum(rating for rating, _ in counted) / N
    lower, upper = _start_interval(Ra)
    unclamped = _R0_unclamped(Ra, Et, N)
    R0 = round_half_away_from_zero(min(max(unclamped, lower), upper))
    if unclamped < lower:
        reason = "clamped at interval minimum (#8.b)"
    elif unclamped > upper:
        reason = "clamped at interval maximum (#8.b)"
    else:
        reason = "inside the interval (#8.b)"
    if zero_against_official:
        reason += "; 0 points against officially rated players, #8.c waived before 1996 (GA 1996 #3)"
    return _NewPlayerStart(R0, reason, counted, at_bound=not lower <= unclamped <= upper)


def _start_interval(Ra: float) -> tuple[float, float]:
    """RIF 1995 #8.b, closed (INTERPRETATIONS 1.6): fixed 2000-2400 from Ra 2200 on, else Ra ± 200."""
    if Ra >= FIXED_INTERVAL_FROM_Ra:
        return FIXED_INTERVAL
    return Ra - INTERVAL_HALF_WIDTH, Ra + INTERVAL_HALF_WIDTH


def _R0_unclamped(Ra: float, Et: float, N: int) -> float:
    """RIF 1995 #8.d: R0 = Ra - dR, dR = 120·log2(N/Ee - 1) with Ee = Et; 0 or N points give ∓infinity."""
    if Et == 0:
        return -math.inf
    if Et == N:
        return math.inf
    return Ra - RATING_SCALE * math.log2(N / Et - 1)


def _new_player_result(player_id: str, start: _NewPlayerStart) -> Result1995:
    if start.R0 is None:
        # No start rating: none of his games is rated, for him or for his opponents (#8.a, #8.c).
        return Result1995(
            player_id,
            None,
            None,
            None,
            None,
            Et=0.0,
            Ee=None,
            games_counted=0,
            status_after=Status1995.NEW,
            R0=None,
            R0_reason=start.reason,
        )
    Et = math.fsum(score for _, score in start.counted)
    if not start.at_bound:
        # RIF 1995 #8.d: "the rating contribution ... must be zero" inside the interval; Ee = Et.
        return Result1995(
            player_id,
            None,
            start.R0,
            0,
            0.0,
            Et=Et,
            Ee=Et,
            games_counted=len(start.counted),
            status_after=Status1995.UNOFFICIAL,
            R0=start.R0,
            R0_reason=start.reason,
        )
    # RIF 1995 #8.d: set to a bound, the new player can get a negative or a positive contribution.
    contribution = _tournament_contribution(start.R0, start.counted)
    return Result1995(
        player_id,
        None,
        start.R0 + contribution.F,
        contribution.F,
        contribution.F_unrounded,
        Et=contribution.Et,
        Ee=contribution.Ee,
        games_counted=len(start.counted),
        status_after=Status1995.UNOFFICIAL,
        R0=start.R0,
        R0_reason=start.reason,
    )


def _rated_player_result_1995(player: Player1995, counted: Sequence[tuple[int, float]]) -> Result1995:
    assert player.rating is not None
    contribution = _tournament_contribution(player.rating, counted)
    return Result1995(
        player.id,
        player.rating,
        player.rating + contribution.F,
        contribution.F,
        contribution.F_unrounded,
        Et=contribution.Et,
        Ee=contribution.Ee,
        games_counted=len(counted),
        status_after=player.status,
    )


def _tournament_contribution(R: int, counted: Sequence[tuple[int, float]]) -> _Contribution:
    """RIF 1995 #6/#7: one Ee from the game-weighted average opponent, F rounded once (INTERPRETATIONS 1.1-1.3)."""
    N = len(counted)
    if N == 0:
        return _Contribution(0.0, 0.0, 0.0, 0)
    Et = math.fsum(score for _, score in counted)
    average_opponent = math.fsum(rating for rating, _ in counted) / N
    Ee = N * win_expectancy(R, average_opponent)
    F_unrounded = CONTRIBUTION_FACTOR * (Et - Ee)
    return _Contribution(Et, Ee, F_unrounded, round_half_away_from_zero(F_unrounded))
