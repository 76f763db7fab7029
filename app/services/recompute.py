"""Recomputing a rating list: read the eligible games in bulk, hand them to the list's rating system
(``app.rating.registry``) and turn what it returns into one snapshot's rows. Nothing here commits;
``app.services.jobs`` writes the snapshot in one transaction."""

import datetime as dt
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from sqlalchemy import String, and_, cast, select
from sqlalchemy.orm import Session

from app.models import Game, RatingList, RatingSeed, RatingSnapshot, Tournament, TournamentPlayer
from app.rating.registry import get_system
from app.rating.system import Replay, ReplayInput, Seed, StoredGame, StoredTournament
from app.services.eligibility import eligibility_conditions

Progress = Callable[[float], None]
SCORE_OF_RESULT = {"B": 1.0, "W": 0.0, "D": 0.5}


@dataclass
class SnapshotData:
    """Everything one new snapshot holds, as plain rows ready for bulk inserts."""

    params: dict
    entries: list[dict]
    points: list[dict] = field(default_factory=list)
    changes: list[dict] = field(default_factory=list)
    games: int = 0
    tournaments: int = 0
    notes: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)  # seconds: read, compute
    warm_start: bytes | None = None


def compute_snapshot(session: Session, rating_list: RatingList, list_date: dt.date, progress: Progress) -> SnapshotData:
    """Read the list's eligible games and seeds, and replay them with the list's system."""
    system = get_system(rating_list.system)
    params = system.params(rating_list.params)
    started = time.perf_counter()
    tournaments = stored_tournaments(session, rating_list)
    seeds = [
        Seed(s.player_id, s.rating, s.status, s.as_of, s.title, s.counters)
        for s in session.scalars(select(RatingSeed).where(RatingSeed.list_id == rating_list.id).order_by(RatingSeed.player_id))
    ] if system.seed_model is not None else []
    warm_start = None
    if rating_list.current_snapshot_id is not None:
        warm_start = session.scalar(select(RatingSnapshot.warm_start).where(RatingSnapshot.id == rating_list.current_snapshot_id))
    progress(0.2)
    read = time.perf_counter()
    replayed = system.replay(ReplayInput(tournaments, seeds, params, list_date, warm_start))
    progress(0.7)
    return SnapshotData(
        params={**(rating_list.params or {}), **replayed.params},
        entries=entry_rows(replayed),
        points=point_rows(replayed),
        changes=change_rows(replayed),
        games=sum(len(t.games) for t in tournaments),
        tournaments=len(tournaments),
        notes=replayed.notes,
        timings={"read": read - started, "compute": time.perf_counter() - read},
        warm_start=replayed.warm_start,
    )


def stored_tournaments(session: Session, rating_list: RatingList) -> list[StoredTournament]:
    """The list's eligible tournaments with their played games, in (end, start, id) order."""
    # A plain Core select on the session's connection: the ORM's row loading is not needed here.
    # Dates are read as ISO text and parsed by date.fromisoformat, cheaper than the drivers' own.
    rows = session.connection().execute(
        select(
            Tournament.id, cast(Tournament.start, String), cast(Tournament.end, String), Tournament.time_control_minutes,
            Tournament.board_size, Game.game_id, cast(Game.date, String), Game.black_id, Game.white_id, Game.result,
            Game.round, Game.handicap, Game.board_size,
        )
        .join(Game, Game.tournament_id == Tournament.id)
        .where(and_(*eligibility_conditions(rating_list)))
        .order_by(Tournament.end, Tournament.start, Tournament.id, Game.seq)
    ).all()
    tournaments: list[StoredTournament] = []
    current: StoredTournament | None = None
    parse = dt.date.fromisoformat
    days: dict[str, dt.date] = {}
    for tid, start, end, minutes, board, game_id, day, black, white, result, round_, handicap, game_board in rows:
        if current is None or current.id != tid:
            current = StoredTournament(tid, parse(start[:10]), parse(end[:10]), [], minutes, board)
            tournaments.append(current)
        game_day = days.get(day) or days.setdefault(day, parse(day[:10]))
        current.games.append(StoredGame(game_id, game_day, black, white, SCORE_OF_RESULT[result], round_, handicap, game_board))
    _attach_fields(session, rating_list, tournaments)
    return tournaments


_NOT_FIELDS = {"id", "start", "end", "created_at", "updated_at"}


def _attach_fields(session: Session, rating_list: RatingList, tournaments: list[StoredTournament]) -> None:
    """Every other column of the eligible tournaments, for the rules that read them (one query)."""
    if not tournaments:
        return
    columns = [c for c in Tournament.__table__.c if c.name not in _NOT_FIELDS]
    eligible = (
        select(Tournament.id).join(Game, Game.tournament_id == Tournament.id).where(and_(*eligibility_conditions(rating_list)))
    )
    rows = session.connection().execute(select(Tournament.id, *columns).where(Tournament.id.in_(eligible))).all()
    by_id = {row[0]: dict(zip((c.name for c in columns), row[1:], strict=True)) for row in rows}
    declared_columns = [c for c in TournamentPlayer.__table__.c if c.name not in ("tournament_id", "player_id")]
    declared: dict[str, dict[str, dict]] = {}
    for row in session.connection().execute(
        select(TournamentPlayer.tournament_id, TournamentPlayer.player_id, *declared_columns).where(
            TournamentPlayer.tournament_id.in_(eligible)
        )
    ):
        declared.setdefault(row[0], {})[row[1]] = dict(zip((c.name for c in declared_columns), row[2:], strict=True))
    for tournament in tournaments:
        tournament.fields = by_id.get(tournament.id, {})
        tournament.participants = declared.get(tournament.id, {})


def entry_rows(replayed: Replay) -> list[dict]:
    return [
        {
            "player_id": e.player_id, "rating": e.rating, "deviation": e.deviation, "games": e.games,
            "last_played": e.last_played, "status": e.status, "title": e.title, "counters": e.counters,
        }
        for e in replayed.entries
    ]


def point_rows(replayed: Replay) -> list[dict]:
    return [
        {
            "player_id": p.player_id, "date": p.date, "rating": p.rating, "deviation": p.deviation, "games": p.games,
            "status": p.status, "last_played": p.last_played, "title": p.title, "counters": p.counters,
            "tournament_ids": p.tournament_ids,
        }
        for p in replayed.points
    ]


def change_rows(replayed: Replay) -> list[dict]:
    return [
        {
            "tournament_id": c.tournament_id, "player_id": c.player_id, "system": c.system,
            "rating_before": c.rating_before, "rating_after": c.rating_after, "change": c.change,
            "change_unrounded": c.change_unrounded, "games_counted": c.games_counted,
            "status_after": c.status_after, "title_after": c.title_after, "details": c.details,
        }
        for c in replayed.changes
    ]
