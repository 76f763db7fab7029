"""Who is favoured between two players on a list, and two players' games against each other with what
each list that rated them predicted then (issue 46 items 2 and 3).

Every expectation is the list's system's own (``RatingSystem.expected_score``: its formula or table,
cited); this module names no system. A prediction on the current list reads the two players' lines of
its current snapshot; a head-to-head reads their games from the stored tournaments and, for each list
whose current snapshot rated a game's tournament for both, their history points as of the day before
the game (``app.snapshots.timelines``: the same points as ``GET /v1/players/{id}/history``)."""

from __future__ import annotations

import datetime as dt
from bisect import bisect_right
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from app.models import Game, Player, RatingEntry, RatingSnapshot, Tournament
from app.names import full_name
from app.problems import FieldError, InvalidInput, NotFound
from app.rating.system import RatingSystem, above_probability
from app.recompute import staleness
from app.schemas.predictions import (
    HeadToHead,
    HeadToHeadGame,
    HeadToHeadScore,
    ListPrediction,
    PredictedPlayer,
    Prediction,
)
from app.services.rating_lists import get_rating_list, get_snapshot, system_of
from app.snapshots import snapshot_changes, timelines

_RESULT_OF_A: dict[tuple[str, bool], Literal["win", "loss"]] = {
    ("B", True): "win",
    ("W", True): "loss",
    ("B", False): "loss",
    ("W", False): "win",
}
_POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def predict(session: Session, list_id: str, a: str, b: str) -> Prediction:
    """P(a beats b) on the list's current ratings by its system's rule, and, for a system with
    deviations, P(a stands above b). A 404 names the player who does not exist or is not on the list."""
    rating_list = get_rating_list(session, list_id)
    system = system_of(rating_list)
    expected_score = _expected_score_of(system, list_id)
    _players_exist(session, {"query:a": a, "query:b": b})
    if a == b:
        raise InvalidInput("A player is not favoured against himself.", [FieldError("query:b", "the same player as `a`")])
    snapshot = get_snapshot(session, list_id, None)
    if snapshot is None:
        raise NotFound(
            f"Rating list {list_id!r} has no snapshot yet: nobody is on it.",
            [FieldError("query:a", f"not on {list_id!r}"), FieldError("query:b", f"not on {list_id!r}")],
        )
    entries = {}
    for name, player_id in (("a", a), ("b", b)):
        entry = session.get(RatingEntry, (snapshot.id, player_id))
        if entry is None:
            raise NotFound(
                f"Player {player_id!r} is not on rating list {list_id!r} (no line in its current snapshot {snapshot.id}).",
                [FieldError(f"query:{name}", f"{player_id!r} is not on {list_id!r}")],
            )
        entries[name] = entry
    first, second = entries["a"], entries["b"]
    expectation = expected_score(first.rating, second.rating, snapshot.list_date, system.params(snapshot.params))
    above = None
    if system.has_deviation and first.deviation is not None and second.deviation is not None:
        above = above_probability(first.rating, first.deviation, second.rating, second.deviation)
    stale = staleness.of(rating_list)
    return Prediction(
        list_id=list_id,
        system=system.id,
        snapshot_id=snapshot.id,
        list_date=snapshot.list_date,
        stale_since=stale.since if stale is not None else None,
        a=PredictedPlayer(player_id=a, rating=first.rating, deviation=first.deviation),
        b=PredictedPlayer(player_id=b, rating=second.rating, deviation=second.deviation),
        a_beats_b=expectation.score,
        rule=expectation.rule,
        a_above_b=above,
    )


@dataclass(frozen=True)
class _ListHistory:
    list_id: str
    system: RatingSystem[Any, Any]
    snapshot: RatingSnapshot
    tournaments: frozenset[str]  # those the snapshot rated for both players
    points: tuple[list[tuple[dt.date, float]], list[tuple[dt.date, float]]]  # a's and b's (date, rating), oldest first


def head_to_head(session: Session, a: str, b: str) -> HeadToHead:
    """Their games, oldest first, the played games' score, and each list's prediction of each game."""
    players = _players_exist(session, {"path:player_id": a, "path:opponent_id": b})
    if a == b:
        raise InvalidInput("A player plays no games against himself.", [FieldError("path:opponent_id", "the same player")])
    rows = session.execute(
        select(Game.date, Game.tournament_id, Tournament.name, Game.round, Game.black_id, Game.result, Game.played, Game.seq)
        .join(Tournament, Tournament.id == Game.tournament_id)
        .where(or_(and_(Game.black_id == a, Game.white_id == b), and_(Game.black_id == b, Game.white_id == a)))
        .order_by(Game.date, Game.tournament_id, Game.seq)
    ).all()
    histories = _histories(session, a, b, {row.tournament_id for row in rows if row.played})
    games: list[HeadToHeadGame] = []
    points_a, points_b, played = 0.0, 0.0, 0
    for row in rows:
        result: Literal["win", "loss", "draw"] = "draw" if row.result == "D" else _RESULT_OF_A[(row.result, row.black_id == a)]
        predictions = []
        if row.played:
            played += 1
            points_a += _POINTS[result]
            points_b += 1.0 - _POINTS[result]
            predictions = [_prediction(history, row.date) for history in histories if row.tournament_id in history.tournaments]
        games.append(
            HeadToHeadGame(
                date=row.date,
                tournament_id=row.tournament_id,
                tournament_name=row.name,
                round=row.round,
                black=row.black_id,
                result=result,
                result_as_submitted=row.result,
                played=row.played,
                predictions=predictions,
            )
        )
    return HeadToHead(
        a=a, b=b, a_name=players[a], b_name=players[b], score=HeadToHeadScore(a=points_a, b=points_b, games=played), games=games
    )


def _histories(session: Session, a: str, b: str, tournament_ids: set[str]) -> list[_ListHistory]:
    """The lists whose current snapshot rated one of these tournaments for both players, by list id,
    with both players' points under it."""
    if not tournament_ids:
        return []
    found = []
    for list_id, snapshot, changes in snapshot_changes.current_changes(session):
        rated = tournament_ids & {c.tournament_id for c in changes.of_player(a)} & {c.tournament_id for c in changes.of_player(b)}
        if not rated:
            continue
        timeline = timelines.timeline_of(session, snapshot)
        points = tuple([(p["date"], p["rating"]) for p in timeline.history(player_id)] for player_id in (a, b))
        system = system_of(get_rating_list(session, list_id))
        if system.expected_score is None:
            continue  # a system whose rules expect nothing of a game predicts nothing
        found.append(_ListHistory(list_id, system, snapshot, frozenset(rated), (points[0], points[1])))
    return found


def _prediction(history: _ListHistory, day: dt.date) -> ListPrediction:
    """What the list predicted of a game on ``day``: both players' ratings as of the day before."""
    as_of = day - dt.timedelta(days=1)
    ratings = [_rating_on(points, as_of) for points in history.points]
    score = rule = None
    if ratings[0] is not None and ratings[1] is not None:
        assert history.system.expected_score is not None  # (lists without one are left out)
        expectation = history.system.expected_score(ratings[0], ratings[1], day, history.system.params(history.snapshot.params))
        score, rule = expectation.score, expectation.rule
    return ListPrediction(
        list_id=history.list_id,
        system=history.system.id,
        as_of=as_of,
        a_rating=ratings[0],
        b_rating=ratings[1],
        a_beats_b=score,
        rule=rule,
    )


def _rating_on(points: list[tuple[dt.date, float]], day: dt.date) -> float | None:
    """The rating of the last point on or before ``day`` (None before the first)."""
    at = bisect_right(points, day, key=lambda point: point[0])
    return points[at - 1][1] if at else None


def _expected_score_of(system: RatingSystem[Any, Any], list_id: str) -> Any:
    if system.expected_score is None:
        raise InvalidInput(
            f"The rules of rating list {list_id!r} ({system.id}) give no expected score of a game.",
            [FieldError("path:list_id", f"{system.id!r} declares no expected-score rule")],
        )
    return system.expected_score


def _players_exist(session: Session, named: dict[str, str]) -> dict[str, str | None]:
    """Each player's name as lists show it, by id; a 404 naming the first one that does not exist."""
    found = {
        row.id: full_name(row.name, row.surname)
        for row in session.execute(select(Player.id, Player.name, Player.surname).where(Player.id.in_(set(named.values()))))
    }
    for pointer, player_id in named.items():
        if player_id not in found:
            raise NotFound(f"Player {player_id!r} does not exist.", [FieldError(pointer, f"no player {player_id!r}")])
    return found
