"""RIF Elo: the 1995/1996 tournament system, the 1997 per-game system, and a replay of a whole history.

Rule text: the RIF General Assembly decisions of 1995 (#1–#9 with its appendix), 1996 and 1997
(#3–#9), see docs/rules.md. Decisions on what the text leaves open: docs/decisions.md sections 0
and 1, cited as ``INTERPRETATIONS 1.n``. Pure: plain values in, plain values out, no I/O.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from enum import StrEnum

from app.rating.rounding import round_half_away_from_zero

__all__ = [
    "AppendixRow",
    "FinalRating",
    "Game",
    "GameChange",
    "HistoryPoint",
    "Player1995",
    "Player1997",
    "ProvisionalRecord",
    "Replay",
    "ReplayOptions",
    "Result1995",
    "Result1997",
    "Score",
    "Seed",
    "Status1995",
    "Status1997",
    "SYSTEM_1995",
    "SYSTEM_1997",
    "Tournament",
    "TournamentChange",
    "appendix_table",
    "game_change",
    "rate_event_1997",
    "rate_tournament_1995",
    "replay",
    "win_expectancy",
]

Score = float  # win 1, draw 0.5, loss 0 (INTERPRETATIONS 0)
SCORES: frozenset[float] = frozenset({0.0, 0.5, 1.0})

CONTRIBUTION_FACTOR = 32  # RIF 1995 #6 "F = 32 x (Et - Ee)"; GA 1997 #8 "Rc = 32 (W - We)"
RATING_SCALE = 120  # RIF 1995 #7 "2^{dR/120}"
NEW_PLAYER_MINIMUM_GAMES = 3  # RIF 1995 #8.a "at least three games"
FIXED_INTERVAL_FROM_Ra = 2200  # RIF 1995 #8.b "if ... Ra ... is 2200 or higher"
FIXED_INTERVAL = (2000, 2400)  # RIF 1995 #8.b "inside the interval 2000 - 2400"
INTERVAL_HALF_WIDTH = 200  # RIF 1995 #8.b "(Ra - 200) < Ro < Ra + 200"
RATING_BEFORE_1996 = date(1996, 1, 1)  # GA 1996 #3: #8.c not used before 1996
PERIOD_ENDS = ((4, 30), (8, 31), (12, 31))  # RIF 1995 #2/#5: April 30, August 31, December 31
ESTABLISHED_MINIMUM_GAMES = 10  # GA 1997 #5
ESTABLISHED_MINIMUM_POINTS = 3.0  # GA 1997 #5
PROVISIONAL_GAME_WEIGHT = 400  # GA 1997 #7 "Rp = Ra + (400 (W - L)) / N"
PROVISIONAL_CAP_ABOVE_Ra = 300  # GA 1997 #7 "Rp is maximized to Ra+300"

APPENDIX_ROW_STARTS = (0, 11, 33, 55, 77, 101, 125, 150, 177, 205, 237, 273, 314, 364, 428, 522, 725)
APPENDIX_LAST_DIFFERENCE = 2000

SYSTEM_1995 = "rif-1995"
SYSTEM_1997 = "rif-1997"


# --------------------------------------------------------------------------------------------------
# One game
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """One played game, seen from player ``a``'s side (``b`` scores ``1 - score_a``)."""

    a: str
    b: str
    score_a: Score


def win_expectancy(rating: float, opponent_rating: float) -> float:
    """We = 1/(1 + 2^(dR/120)) with dR = opponent rating - own rating (RIF 1995 #7, GA 1997 #8)."""
    dR = opponent_rating - rating
    # The formula is evaluated on the weaker side (dR >= 0) and the stronger side takes the complement,
    # so that We(a, b) + We(b, a) == 1 holds exactly in floating point, not just nearly.
    if dR >= 0:
        return 1 / (1 + 2 ** (dR / RATING_SCALE))
    return 1 - 1 / (1 + 2 ** (-dR / RATING_SCALE))


@dataclass(frozen=True)
class GameChange:
    expected: float
    change: int
    change_unrounded: float


def game_change(rating: float, opponent_rating: float, score: Score) -> GameChange:
    """32(W - We) for one game, rounded once (RIF 1995 #6/#7 with N = 1, GA 1997 #8)."""
    _check_score(score, "score")
    expected = win_expectancy(rating, opponent_rating)
    change_unrounded = CONTRIBUTION_FACTOR * (score - expected)
    return GameChange(expected, round_half_away_from_zero(change_unrounded), change_unrounded)


# --------------------------------------------------------------------------------------------------
# The appendix of GA 1995
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AppendixRow:
    """Rating differences ``difference_from``..``difference_to`` (inclusive) and the rounded gains:
    ``higher_wins`` is the higher-rated R1's gain when he wins, ``lower_wins`` and ``draw`` are the
    lower-rated R2's gains; the opponent loses what the other gains (INTERPRETATIONS 1.5)."""

    difference_from: int
    difference_to: int
    higher_wins: int
    lower_wins: int
    draw: int


def appendix_table() -> list[AppendixRow]:
    """The appendix table computed from the formulas of #6/#7 (which are normative, INTERPRETATIONS 1.4).

    Rows keep the boundaries the text prints (0-10, 11-32, ... 725-2000); a printed row is split where
    the rounded formula changes inside it. That happens once: the printed 522-724 row (+1/+31/+15)
    becomes 522-717 (+1/+31/+15) and 718-724 (+0/+32/+16), because 32/(1 + 2^(d/120)) falls below
    0.5 at d = 120·log2(63) ≈ 717.3.
    """
    rows: list[AppendixRow] = []
    for difference in range(APPENDIX_LAST_DIFFERENCE + 1):
        gains = _appendix_gains(difference)
        previous = rows[-1] if rows else None
        if (
            previous is not None
            and difference not in APPENDIX_ROW_STARTS
            and (previous.higher_wins, previous.lower_wins, previous.draw) == gains
        ):
            rows[-1] = replace(previous, difference_to=difference)
        else:
            rows.append(AppendixRow(difference, difference, *gains))
    return rows


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


def rate_tournament_1995(
    players: Sequence[Player1995], games: Sequence[Game], *, before_1996: bool
) -> list[Result1995]:
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
    tournament_ratings = start_ratings | {
        player_id: start.R0 for player_id, start in new_starts.items() if start.R0 is not None
    }
    return [
        _new_player_result(player.id, new_starts[player.id])
        if player.status is Status1995.NEW
        else _rated_player_result_1995(player, _counted_games(player.id, games, tournament_ratings))
        for player in players
    ]


# --------------------------------------------------------------------------------------------------
# GA 1997: one event
# --------------------------------------------------------------------------------------------------


class Status1997(StrEnum):
    ESTABLISHED = "established"
    PROVISIONAL = "provisional"


@dataclass(frozen=True)
class ProvisionalRecord:
    """Running totals over all of a provisional player's games against established opponents so far
    (INTERPRETATIONS 1.12, 1.13); ``opponent_rating_sum`` adds each opponent's rating at that game."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    points: float = 0.0
    opponent_rating_sum: float = 0.0


@dataclass(frozen=True)
class Player1997:
    """A player at the start of an event. Established players have a rating; a provisional player
    may have none yet."""

    id: str
    rating: int | None
    status: Status1997
    record: ProvisionalRecord = ProvisionalRecord()


@dataclass(frozen=True)
class Result1997:
    """One player's outcome. For a provisional player ``Ee`` is his expected score at his rating
    before the event (Rp does not use it), or Et when he has no rating yet (as RIF 1995 #8.d does)."""

    id: str
    rating_before: int | None
    rating_after: int | None
    change: int | None
    change_unrounded: float | None
    Et: float
    Ee: float
    games_counted: int
    status_after: Status1997
    record_after: ProvisionalRecord


def rate_event_1997(players: Sequence[Player1997], games: Sequence[Game]) -> list[Result1997]:
    """Rate one event under GA 1997 #5-#9; results in the order of ``players``.

    Every game uses the ratings and statuses held at the event's start (GA 1997 #9, INTERPRETATIONS
    1.15). Raises ValueError on invalid input.
    """
    players = _checked_players_1997(players)
    _check_games(games, {player.id for player in players})
    established = {
        player.id: player.rating
        for player in players
        if player.status is Status1997.ESTABLISHED and player.rating is not None
    }
    # GA 1997 #6 for established players, INTERPRETATIONS 1.13 for provisional ones: only games
    # against established opponents count, so games between two provisional players count for neither.
    return [
        _established_result(player, _counted_games(player.id, games, established))
        if player.status is Status1997.ESTABLISHED
        else _provisional_result(player, _counted_games(player.id, games, established))
        for player in players
    ]


# --------------------------------------------------------------------------------------------------
# Replay of a whole history: the historical RIF Elo list
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tournament:
    id: str
    start: date
    end: date
    games: Sequence[Game]


@dataclass(frozen=True)
class Seed:
    """A rating the replay starts from (INTERPRETATIONS 1.18). ``status``: "official" or "established"
    (an official, published rating), "provisional" or "unofficial" (a rating not yet official)."""

    player_id: str
    rating: int
    status: str
    as_of: date


@dataclass(frozen=True)
class ReplayOptions:
    switch_to_1997: date = date(1997, 1, 1)
    last_day: date = date(2021, 8, 7)
    bootstrap_rating: int | None = None  # INTERPRETATIONS 1.18 option, off by default


@dataclass(frozen=True)
class TournamentChange:
    """One participant of one tournament. Under 1995 rules an official player's ``rating_after`` is
    his start rating plus this tournament's F; his official rating moves only at the period's end."""

    tournament_id: str
    player_id: str
    system: str
    rating_before: int | None
    rating_after: int | None
    change: int | None
    change_unrounded: float | None
    games_counted: int
    status_after: str
    R0: int | None = None


@dataclass(frozen=True)
class HistoryPoint:
    """A rating a player holds from ``date`` on: after a seed, a bootstrap, a 1995 period's end or a
    1997 event. ``games`` is the cumulative number of rated games."""

    player_id: str
    date: date
    rating: int
    games: int
    status: str


@dataclass(frozen=True)
class FinalRating:
    player_id: str
    rating: int
    status: str
    games: int
    last_played: date


@dataclass(frozen=True)
class Replay:
    changes: list[TournamentChange]
    history: list[HistoryPoint]
    ratings: list[FinalRating]  # best first
    notes: list[str]


def replay(
    tournaments: Sequence[Tournament], seeds: Sequence[Seed], options: ReplayOptions = ReplayOptions()
) -> Replay:
    """Replay a history into the historical RIF Elo list.

    Tournaments run in (end, start, id) order (INTERPRETATIONS 1.11): those ending before
    ``options.switch_to_1997`` under GA 1995 with its periods, the rest event by event under GA 1997
    (INTERPRETATIONS 1.16); those ending after ``options.last_day`` are ignored. A seed applies from
    the first tournament starting on or after its ``as_of``. Raises ValueError on invalid input.
    """
    _check_tournaments(tournaments)
    _check_seeds(seeds)
    ledger = _Ledger(options)
    if not seeds and options.bootstrap_rating is None:
        ledger.notes.append("no seed ratings and bootstrap off: nobody can be rated (INTERPRETATIONS 1.18)")
    for seed in seeds:
        if seed.as_of > options.last_day:
            ledger.notes.append(f"seed of {seed.player_id} as of {seed.as_of} is after the last day: ignored")
    pending_seeds = deque(
        sorted((seed for seed in seeds if seed.as_of <= options.last_day), key=lambda seed: seed.as_of)
    )
    # INTERPRETATIONS 1.11: end date, then start date, then tournament id.
    for tournament in sorted(tournaments, key=lambda each: (each.end, each.start, each.id)):
        if tournament.end > options.last_day:
            ledger.notes.append(
                f"tournament {tournament.id} ends {tournament.end}, after the last day "
                f"{options.last_day}: ignored"
            )
            continue
        while pending_seeds and pending_seeds[0].as_of <= tournament.start:
            ledger.apply_seed(pending_seeds.popleft())
        ledger.rate(tournament)
    while pending_seeds:
        ledger.apply_seed(pending_seeds.popleft())
    ledger.finish()
    return ledger.result()


# ==================================================================================================
# Internals
# ==================================================================================================


def _check_score(score: float, where: str) -> None:
    if score not in SCORES:
        raise ValueError(f"{where}: score must be 1, 0.5 or 0, got {score!r}")


def _appendix_gains(difference: int) -> tuple[int, int, int]:
    """R1 (higher by ``difference``) winning, R2 winning, R2 drawing (INTERPRETATIONS 1.5)."""
    return (
        game_change(difference, 0, 1).change,
        game_change(0, difference, 1).change,
        game_change(0, difference, 0.5).change,
    )


def _check_games(games: Sequence[Game], player_ids: set[str]) -> None:
    for index, game in enumerate(games):
        where = f"game {index} ({game.a} vs {game.b})"
        for player_id in (game.a, game.b):
            if player_id not in player_ids:
                raise ValueError(f"{where}: unknown player {player_id!r}")
        if game.a == game.b:
            raise ValueError(f"{where}: a player cannot play against himself")
        _check_score(game.score_a, where)


def _games_of(player_id: str, games: Iterable[Game]) -> list[tuple[str, float]]:
    """(opponent, score) for each of the player's games, from his side."""
    return [
        (game.b, game.score_a) if game.a == player_id else (game.a, 1 - game.score_a)
        for game in games
        if player_id in (game.a, game.b)
    ]


def _counted_games(
    player_id: str, games: Iterable[Game], opponent_ratings: dict[str, int]
) -> list[tuple[int, float]]:
    """(opponent rating, score) for the player's games against opponents in ``opponent_ratings``."""
    return [
        (opponent_ratings[opponent], score)
        for opponent, score in _games_of(player_id, games)
        if opponent in opponent_ratings
    ]


def _unique(ids: Iterable[str]) -> None:
    seen: set[str] = set()
    for player_id in ids:
        if player_id in seen:
            raise ValueError(f"player {player_id!r} is listed twice")
        seen.add(player_id)


# --- 1995 ------------------------------------------------------------------------------------------


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
    counted_with_ids = [(opponent, score) for opponent, score in _games_of(player_id, games)
                        if opponent in start_ratings]
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
            player_id, None, None, None, None, Et=0.0, Ee=None, games_counted=0,
            status_after=Status1995.NEW, R0=None, R0_reason=start.reason,
        )
    Et = math.fsum(score for _, score in start.counted)
    if not start.at_bound:
        # RIF 1995 #8.d: "the rating contribution ... must be zero" inside the interval; Ee = Et.
        return Result1995(
            player_id, None, start.R0, 0, 0.0, Et=Et, Ee=Et, games_counted=len(start.counted),
            status_after=Status1995.UNOFFICIAL, R0=start.R0, R0_reason=start.reason,
        )
    # RIF 1995 #8.d: set to a bound, the new player can get a negative or a positive contribution.
    contribution = _tournament_contribution(start.R0, start.counted)
    return Result1995(
        player_id, None, start.R0 + contribution.F, contribution.F, contribution.F_unrounded,
        Et=contribution.Et, Ee=contribution.Ee, games_counted=len(start.counted),
        status_after=Status1995.UNOFFICIAL, R0=start.R0, R0_reason=start.reason,
    )


def _rated_player_result_1995(player: Player1995, counted: Sequence[tuple[int, float]]) -> Result1995:
    assert player.rating is not None
    contribution = _tournament_contribution(player.rating, counted)
    return Result1995(
        player.id, player.rating, player.rating + contribution.F, contribution.F, contribution.F_unrounded,
        Et=contribution.Et, Ee=contribution.Ee, games_counted=len(counted), status_after=player.status,
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


# --- 1997 ------------------------------------------------------------------------------------------


def _checked_players_1997(players: Sequence[Player1997]) -> list[Player1997]:
    _unique(player.id for player in players)
    checked = []
    for player in players:
        status = Status1997(player.status)
        if status is Status1997.ESTABLISHED and player.rating is None:
            raise ValueError(f"player {player.id!r} is established and needs a rating (GA 1997 #5)")
        _check_record(player.id, player.record)
        checked.append(replace(player, status=status))
    return checked


def _check_record(player_id: str, record: ProvisionalRecord) -> None:
    draws = record.games - record.wins - record.losses
    if min(record.games, record.wins, record.losses, draws) < 0:
        raise ValueError(f"player {player_id!r}: record has more wins and losses than games")
    if not math.isclose(record.points, record.wins + draws / 2):
        raise ValueError(f"player {player_id!r}: record points must be wins + draws/2")


def _established_result(player: Player1997, counted: Sequence[tuple[int, float]]) -> Result1997:
    assert player.rating is not None
    per_game = [game_change(player.rating, opponent_rating, score) for opponent_rating, score in counted]
    # GA 1997 #8: "The rating changes Rc added up from each game are added after the event and rounded."
    Rc_sum = math.fsum(change.change_unrounded for change in per_game)
    change = round_half_away_from_zero(Rc_sum)
    return Result1997(
        player.id, player.rating, player.rating + change, change, Rc_sum,
        Et=math.fsum(score for _, score in counted),
        Ee=math.fsum(change.expected for change in per_game),
        games_counted=len(counted), status_after=Status1997.ESTABLISHED, record_after=player.record,
    )


def _provisional_result(player: Player1997, counted: Sequence[tuple[int, float]]) -> Result1997:
    Et = math.fsum(score for _, score in counted)
    Ee = (math.fsum(win_expectancy(player.rating, opponent_rating) for opponent_rating, _ in counted)
          if player.rating is not None else Et)
    if not counted:
        unchanged = player.rating is not None
        return Result1997(
            player.id, player.rating, player.rating, 0 if unchanged else None, 0.0 if unchanged else None,
            Et=Et, Ee=Ee, games_counted=0, status_after=Status1997.PROVISIONAL, record_after=player.record,
        )
    record = _extended_record(player.record, counted)
    Rp = _provisional_rating(record)
    rating_after = round_half_away_from_zero(Rp)  # INTERPRETATIONS 1.13: Rp is rounded
    # GA 1997 #9: status changes only after the event, on the whole record (GA 1997 #5).
    established = (record.games >= ESTABLISHED_MINIMUM_GAMES
                   and record.points >= ESTABLISHED_MINIMUM_POINTS)
    return Result1997(
        player.id, player.rating, rating_after,
        rating_after - player.rating if player.rating is not None else None,
        Rp - player.rating if player.rating is not None else None,
        Et=Et, Ee=Ee, games_counted=len(counted),
        status_after=Status1997.ESTABLISHED if established else Status1997.PROVISIONAL,
        record_after=record,
    )


def _extended_record(record: ProvisionalRecord, counted: Sequence[tuple[int, float]]) -> ProvisionalRecord:
    return ProvisionalRecord(
        games=record.games + len(counted),
        wins=record.wins + sum(1 for _, score in counted if score == 1),
        losses=record.losses + sum(1 for _, score in counted if score == 0),
        points=record.points + math.fsum(score for _, score in counted),
        opponent_rating_sum=record.opponent_rating_sum + sum(rating for rating, _ in counted),
    )


def _provisional_rating(record: ProvisionalRecord) -> float:
    """GA 1997 #7: Rp = Ra + 400(W - L)/N, at most Ra + 300, no floor (INTERPRETATIONS 1.13)."""
    Ra = record.opponent_rating_sum / record.games
    Rp = Ra + PROVISIONAL_GAME_WEIGHT * (record.wins - record.losses) / record.games
    return min(Rp, Ra + PROVISIONAL_CAP_ABOVE_Ra)


# --- replay ----------------------------------------------------------------------------------------

_SEED_STATUSES = {
    "official": (Status1995.OFFICIAL, Status1997.ESTABLISHED),
    "established": (Status1995.OFFICIAL, Status1997.ESTABLISHED),
    "provisional": (Status1995.UNOFFICIAL, Status1997.PROVISIONAL),
    "unofficial": (Status1995.UNOFFICIAL, Status1997.PROVISIONAL),
}

# INTERPRETATIONS 1.12: a published rating at the switch makes a player established. Closing the last
# 1995 period first makes every rated player official, so UNOFFICIAL only maps for completeness.
_STATUS_AT_SWITCH = {
    Status1995.OFFICIAL: Status1997.ESTABLISHED,
    Status1995.UNOFFICIAL: Status1997.PROVISIONAL,
    Status1995.NEW: Status1997.PROVISIONAL,
}


@dataclass(frozen=True)
class _Standing:
    """What the replay knows about a player between tournaments."""

    rating: int | None = None
    status: Status1995 | Status1997 = Status1995.NEW
    pending: int = 0  # RIF 1995 #5: the open period's contributions of an official player
    record: ProvisionalRecord = ProvisionalRecord()
    games: int = 0
    last_played: date | None = None


def _check_tournaments(tournaments: Sequence[Tournament]) -> None:
    seen: set[str] = set()
    for tournament in tournaments:
        if tournament.id in seen:
            raise ValueError(f"tournament {tournament.id!r} is listed twice")
        seen.add(tournament.id)
        if tournament.start > tournament.end:
            raise ValueError(f"tournament {tournament.id!r} starts after it ends")


def _check_seeds(seeds: Sequence[Seed]) -> None:
    for seed in seeds:
        if seed.status not in _SEED_STATUSES:
            raise ValueError(
                f"seed of {seed.player_id!r}: status must be one of {', '.join(_SEED_STATUSES)}, "
                f"got {seed.status!r}"
            )


def _period_end(day: date) -> date:
    """RIF 1995 #5: the official date (Apr 30, Aug 31, Dec 31) closing the period ``day`` falls in."""
    month, day_of_month = next(end for end in PERIOD_ENDS if (day.month, day.day) <= end)
    return date(day.year, month, day_of_month)


class _Ledger:
    """The replay's running state; the only mutable thing in this module, private to ``replay``."""

    def __init__(self, options: ReplayOptions) -> None:
        self.options = options
        self.system = SYSTEM_1995
        self.standings: dict[str, _Standing] = {}
        self.open_period_end: date | None = None
        self.period_players: set[str] = set()
        self.bootstrapping = options.bootstrap_rating is not None
        self.changes: list[TournamentChange] = []
        self.history: list[HistoryPoint] = []
        self.notes: list[str] = []

    # -- time -------------------------------------------------------------------------------------

    def advance_to(self, day: date) -> None:
        """Close a 1995 period that ended before ``day``; switch to 1997 rules once ``day`` is reached."""
        if self.open_period_end is not None and self.open_period_end < day:
            self.close_period()
        if self.system == SYSTEM_1995 and day >= self.options.switch_to_1997:
            self.enter_1997()

    def close_period(self) -> None:
        """RIF 1995 #5: the period's rounded contributions are added; rated players become official."""
        assert self.open_period_end is not None
        day = self.open_period_end
        if day != _period_end(day):
            self.notes.append(
                f"the 1995 period open at the switch was closed on {day}, the day before the 1997 rules apply"
            )
        for player_id in sorted(self.standings):
            standing = self.standings[player_id]
            if standing.status is Status1995.OFFICIAL and player_id in self.period_players:
                assert standing.rating is not None  # an official player always has his rating
                self.update(player_id, day, rating=standing.rating + standing.pending, pending=0)
            elif standing.status is Status1995.UNOFFICIAL:
                # #8.a carry-over ends: his start rating plus contributions becomes official.
                self.update(player_id, day, status=Status1995.OFFICIAL)
        self.open_period_end = None
        self.period_players = set()

    def enter_1997(self) -> None:
        """GA 1997 #3 replaces the periods; INTERPRETATIONS 1.12 maps the statuses."""
        switch = self.options.switch_to_1997
        if self.open_period_end is not None:
            self.close_period()
        self.system = SYSTEM_1997
        for player_id, standing in self.standings.items():
            assert isinstance(standing.status, Status1995)  # everyone still stands under the 1995 rules here
            self.standings[player_id] = replace(
                standing, status=_STATUS_AT_SWITCH[standing.status], pending=0, record=ProvisionalRecord()
            )
        established = sum(
            1 for standing in self.standings.values() if standing.status is Status1997.ESTABLISHED
        )
        self.notes.append(
            f"from {switch} the 1997 rules apply (GA 1997 #3): {established} players holding an official "
            f"rating are established (INTERPRETATIONS 1.12)"
        )

    # -- inputs -----------------------------------------------------------------------------------

    def apply_seed(self, seed: Seed) -> None:
        self.advance_to(seed.as_of)
        status_1995, status_1997 = _SEED_STATUSES[seed.status]
        standing = self.standings.get(seed.player_id, _Standing())
        # A seed replaces what the replay had: pending 1995 contributions and a 1997 provisional record.
        # A seeded player who has not played yet counts as last seen on the seed's date.
        self.update(
            seed.player_id, seed.as_of, rating=seed.rating,
            status=status_1995 if self.system == SYSTEM_1995 else status_1997,
            pending=0, record=ProvisionalRecord(), last_played=standing.last_played or seed.as_of,
        )

    def rate(self, tournament: Tournament) -> None:
        self.advance_to(tournament.end)
        participants = sorted({player_id for game in tournament.games for player_id in (game.a, game.b)})
        newcomer = _Standing(status=Status1995.NEW if self.system == SYSTEM_1995 else Status1997.PROVISIONAL)
        for player_id in participants:
            self.standings.setdefault(player_id, newcomer)
        if self.bootstrapping:
            self.bootstrap(tournament, participants)
        try:
            if self.system == SYSTEM_1995:
                self.rate_1995(tournament, participants)
            else:
                self.rate_1997(tournament, participants)
        except ValueError as error:
            raise ValueError(f"tournament {tournament.id!r}: {error}") from error

    def bootstrap(self, tournament: Tournament, participants: list[str]) -> None:
        """INTERPRETATIONS 1.18 option: the leading run of tournaments in which nobody holds a rating."""
        if any(self.standings[player_id].rating is not None for player_id in participants):
            self.bootstrapping = False
            return
        rating = self.options.bootstrap_rating
        status = Status1995.OFFICIAL if self.system == SYSTEM_1995 else Status1997.ESTABLISHED
        for player_id in participants:
            self.update(player_id, tournament.start, rating=rating, status=status)
        self.notes.append(
            f"bootstrap rating {rating} given to the {len(participants)} players of tournament "
            f"{tournament.id}, in which nobody held a rating (INTERPRETATIONS 1.18 option)"
        )

    def rate_1995(self, tournament: Tournament, participants: list[str]) -> None:
        players = [
            Player1995(player_id, self.standings[player_id].rating, Status1995(self.standings[player_id].status))
            for player_id in participants
        ]
        results = rate_tournament_1995(
            players, tournament.games, before_1996=tournament.end < RATING_BEFORE_1996
        )
        self.open_period_end = min(
            _period_end(tournament.end), self.options.switch_to_1997 - timedelta(days=1)
        )
        for result in results:
            standing = self.standings[result.id]
            if standing.status is Status1995.OFFICIAL:
                # RIF 1995 #5: the official rating holds for the whole period; contributions wait.
                assert result.change is not None
                standing = replace(standing, pending=standing.pending + result.change)
            elif result.rating_after is not None:
                # RIF 1995 #8.a: the next start rating is this start rating plus the contribution.
                standing = replace(standing, rating=result.rating_after, status=Status1995.UNOFFICIAL)
            if result.games_counted:
                self.period_players.add(result.id)
            self.standings[result.id] = replace(
                standing, games=standing.games + result.games_counted, last_played=tournament.end
            )
            self.changes.append(TournamentChange(
                tournament.id, result.id, SYSTEM_1995, result.rating_before, result.rating_after,
                result.change, result.change_unrounded, result.games_counted, str(result.status_after),
                R0=result.R0,
            ))

    def rate_1997(self, tournament: Tournament, participants: list[str]) -> None:
        standings = [(player_id, self.standings[player_id]) for player_id in participants]
        players = [
            Player1997(player_id, standing.rating, Status1997(standing.status), standing.record)
            for player_id, standing in standings
        ]
        for result in rate_event_1997(players, tournament.games):
            standing = self.standings[result.id]
            self.standings[result.id] = replace(
                standing, games=standing.games + result.games_counted, last_played=tournament.end
            )
            self.update(
                result.id, tournament.end, rating=result.rating_after, status=result.status_after,
                record=result.record_after,
                record_history=result.games_counted > 0 or result.status_after is not standing.status,
            )
            self.changes.append(TournamentChange(
                tournament.id, result.id, SYSTEM_1997, result.rating_before, result.rating_after,
                result.change, result.change_unrounded, result.games_counted, str(result.status_after),
            ))

    def finish(self) -> None:
        self.advance_to(self.options.last_day)
        if self.open_period_end is not None:
            if self.open_period_end > self.options.last_day:
                self.notes.append(
                    f"the period ending {self.open_period_end} was still open on the last day: "
                    f"its contributions are included in the final ratings"
                )
            self.close_period()

    # -- state ------------------------------------------------------------------------------------

    def update(self, player_id: str, day: date, *, record_history: bool = True, **changes: object) -> None:
        """Replace fields of a standing and record a history point when it holds a rating."""
        standing = replace(self.standings.get(player_id, _Standing()), **changes)  # type: ignore[arg-type]
        self.standings[player_id] = standing
        if record_history and standing.rating is not None:
            self.history.append(
                HistoryPoint(player_id, day, standing.rating, standing.games, str(standing.status))
            )

    def result(self) -> Replay:
        ratings = [
            FinalRating(player_id, standing.rating, str(standing.status), standing.games, standing.last_played)
            for player_id, standing in self.standings.items()
            if standing.rating is not None and standing.last_played is not None
        ]
        ratings.sort(key=lambda final: (-final.rating, final.player_id))
        history = sorted(self.history, key=lambda point: point.date)
        return Replay(self.changes, history, ratings, self.notes)
