"""RIF Elo, the GA 1997 per-event system (text 000: GA 1997 #3–#9)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from app.rating.rif_elo.common import (
    Game,
    _check_games,
    _counted_games,
    _unique,
    game_change,
    win_expectancy,
)
from app.rating.rounding import round_half_away_from_zero

ESTABLISHED_MINIMUM_GAMES = 10  # GA 1997 #5
ESTABLISHED_MINIMUM_POINTS = 3.0  # GA 1997 #5
PROVISIONAL_GAME_WEIGHT = 400  # GA 1997 #7 "Rp = Ra + (400 (W - L)) / N"
PROVISIONAL_CAP_ABOVE_Ra = 300  # GA 1997 #7 "Rp is maximized to Ra+300"


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
        player.id: player.rating for player in players if player.status is Status1997.ESTABLISHED and player.rating is not None
    }
    # GA 1997 #6 for established players, INTERPRETATIONS 1.13 for provisional ones: only games
    # against established opponents count, so games between two provisional players count for neither.
    return [
        _established_result(player, _counted_games(player.id, games, established))
        if player.status is Status1997.ESTABLISHED
        else _provisional_result(player, _counted_games(player.id, games, established))
        for player in players
    ]


# --- the helpers of GA 1997 -------------------------------------------------------------------


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
    if record.points != record.wins + draws / 2:  # exactly: a point is a win or two draws
        raise ValueError(f"player {player_id!r}: record points must be wins + draws/2")


def _established_result(player: Player1997, counted: Sequence[tuple[int, float]]) -> Result1997:
    assert player.rating is not None
    per_game = [game_change(player.rating, opponent_rating, score) for opponent_rating, score in counted]
    # GA 1997 #8: "The rating changes Rc added up from each game are added after the event and rounded."
    Rc_sum = math.fsum(change.change_unrounded for change in per_game)
    change = round_half_away_from_zero(Rc_sum)
    return Result1997(
        player.id,
        player.rating,
        player.rating + change,
        change,
        Rc_sum,
        Et=math.fsum(score for _, score in counted),
        Ee=math.fsum(change.expected for change in per_game),
        games_counted=len(counted),
        status_after=Status1997.ESTABLISHED,
        record_after=player.record,
    )


def _provisional_result(player: Player1997, counted: Sequence[tuple[int, float]]) -> Result1997:
    Et = math.fsum(score for _, score in counted)
    Ee = (
        math.fsum(win_expectancy(player.rating, opponent_rating) for opponent_rating, _ in counted)
        if player.rating is not None
        else Et
    )
    if not counted:
        unchanged = player.rating is not None
        return Result1997(
            player.id,
            player.rating,
            player.rating,
            0 if unchanged else None,
            0.0 if unchanged else None,
            Et=Et,
            Ee=Ee,
            games_counted=0,
            status_after=Status1997.PROVISIONAL,
            record_after=player.record,
        )
    record = _extended_record(player.record, counted)
    Rp = _provisional_rating(record)
    rating_after = round_half_away_from_zero(Rp)  # INTERPRETATIONS 1.13: Rp is rounded
    # GA 1997 #9: status changes only after the event, on the whole record (GA 1997 #5).
    established = record.games >= ESTABLISHED_MINIMUM_GAMES and record.points >= ESTABLISHED_MINIMUM_POINTS
    return Result1997(
        player.id,
        player.rating,
        rating_after,
        rating_after - player.rating if player.rating is not None else None,
        Rp - player.rating if player.rating is not None else None,
        Et=Et,
        Ee=Ee,
        games_counted=len(counted),
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
