"""Recomputing a rating list: read the eligible games in bulk, run the list's rule engine, and
build one snapshot's rows. Nothing here commits; ``app.services.jobs`` writes the snapshot in one
transaction."""

import datetime as dt
import io
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from sqlalchemy import String, and_, cast, or_, select
from sqlalchemy.orm import Session

from app.models import Game, RatingList, RatingSeed, RatingSnapshot, Tournament
from app.rating import rif_elo, whr

Progress = Callable[[float], None]
SCORE_OF_RESULT = {"B": 1.0, "W": 0.0, "D": 0.5}
_EPOCH = dt.date(1970, 1, 1).toordinal()


@dataclass
class SnapshotData:
    """Everything one new snapshot holds, as plain rows ready for bulk inserts."""

    params: dict
    entries: list[dict]
    changes: list[dict] = field(default_factory=list)
    games: int = 0
    tournaments: int = 0
    notes: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)  # seconds: read, compute
    warm_start: bytes | None = None


def compute_snapshot(session: Session, rating_list: RatingList, list_date: dt.date, progress: Progress) -> SnapshotData:
    """Read the list's eligible games and compute its new snapshot."""
    if rating_list.system == "rif-whr":
        return _compute_whr(session, rating_list, list_date, progress)
    if rating_list.system == "rif-elo":
        return _compute_rif_elo(session, rating_list, list_date, progress)
    raise ValueError(f"rating list {rating_list.id!r} uses system {rating_list.system!r}, which has no recompute")


def eligibility_conditions(rating_list: RatingList) -> list:
    """SQL conditions a tournament must meet to count for the list (text 002 #9, INTERPRETATIONS 3.7).

    A field the submitter left unknown (no time control, no rule) does not exclude the tournament:
    the filter rejects only what is known to fail it.
    """
    rules = rating_list.eligibility or {}
    conditions = [Tournament.category == rating_list.category, Game.played.is_(True)]
    if rules.get("rated_only", True):
        conditions.append(Tournament.rated.is_(True))
    if rules.get("min_time_control_minutes"):
        conditions.append(
            or_(Tournament.time_control_minutes.is_(None), Tournament.time_control_minutes >= rules["min_time_control_minutes"])
        )
    if rules.get("certified_rules"):
        conditions.append(or_(Tournament.rule.is_(None), Tournament.rule.in_(rules["certified_rules"])))
    if rules.get("formats"):
        conditions.append(Tournament.format.in_(rules["formats"]))
    if rules.get("complete_records"):
        conditions.append(Tournament.complete_records.is_(True))
    return conditions


def iso_dates(days: np.ndarray) -> list[str]:
    """``date.toordinal()`` numbers as ISO strings, vectorised."""
    return (np.asarray(days, dtype=np.int64) - _EPOCH).astype("datetime64[D]").astype(str).tolist()


def ordinal_days(iso: list[str]) -> np.ndarray:
    return np.array(iso, dtype="datetime64[D]").astype(np.int64) + _EPOCH


# --- WHR (text 002) -----------------------------------------------------------------------------


def whr_params(rating_list: RatingList) -> whr.WhrParams:
    return whr.WhrParams(**rating_list.params)


def _compute_whr(session: Session, rating_list: RatingList, list_date: dt.date, progress: Progress) -> SnapshotData:
    params = whr_params(rating_list)
    started = time.perf_counter()
    # Dates are read as their ISO text and converted in one vectorised step: building 100,000
    # date objects row by row was a third of the read.
    # A plain Core select on the session's connection: the ORM's row loading is not needed here.
    rows = session.connection().execute(
        select(Game.black_id, Game.white_id, Game.result, cast(Game.date, String), Game.tournament_id)
        .join(Tournament, Tournament.id == Game.tournament_id)
        .where(and_(*eligibility_conditions(rating_list)))
    ).all()
    progress(0.2)
    black_ids, white_ids, results, iso_days, tournament_ids = zip(*rows) if rows else ((), (), (), (), ())
    index: dict[str, int] = {}
    black = np.fromiter((index.setdefault(p, len(index)) for p in black_ids), dtype=np.int64, count=len(rows))
    white = np.fromiter((index.setdefault(p, len(index)) for p in white_ids), dtype=np.int64, count=len(rows))
    score = np.fromiter((SCORE_OF_RESULT[r] for r in results), dtype=np.float64, count=len(rows))
    day = ordinal_days(list(iso_days)) if rows else np.zeros(0, dtype=np.int64)
    tournaments = len(set(tournament_ids))
    player_ids = list(index)

    warm_start = _warm_start(session, rating_list, index)
    read = time.perf_counter()
    fitted = whr.fit(black, white, score, day, len(player_ids), params, warm_start=warm_start)
    progress(0.7)

    list_day = list_date.toordinal()
    players, rating, deviation = whr.ratings_on(fitted, list_day, params.w2)
    _, games, last_day = whr.games_on(fitted, list_day)
    statuses = whr.statuses_on(games, last_day, list_day)
    dates = iso_dates(fitted.day)
    # Each player's rows, found once for all players (fit rows are sorted by player).
    starts = np.searchsorted(fitted.player, players, side="left").tolist()
    stops = np.searchsorted(fitted.player, players, side="right").tolist()
    fitted_rating, fitted_deviation, fitted_games = fitted.rating.tolist(), fitted.deviation.tolist(), fitted.games.tolist()
    entries = []
    for p, r, s, n, last, status, start, stop in zip(
        players.tolist(), rating.tolist(), deviation.tolist(), games.tolist(), last_day.tolist(), statuses.tolist(), starts, stops
    ):
        entries.append(
            {
                "player_id": player_ids[p],
                "rating": r,
                "deviation": s,
                "games": n,
                "last_played": dt.date.fromordinal(last),
                "status": str(status),
                "history": {
                    "date": dates[start:stop],
                    "rating": fitted_rating[start:stop],
                    "deviation": fitted_deviation[start:stop],
                    "games": fitted_games[start:stop],
                },
            }
        )
    notes = [f"converged in {fitted.newton_steps} Newton steps (largest last change {fitted.max_change:.2e} Elo)"]
    if warm_start is not None:
        notes.append("warm-started from the previous snapshot")
    return SnapshotData(
        params=rating_list.params,
        entries=entries,
        games=len(rows),
        tournaments=tournaments,
        notes=notes,
        timings={"read": read - started, "compute": time.perf_counter() - read},
        warm_start=_pack_fit(fitted, player_ids),
    )


def _pack_fit(fitted: whr.WhrFit, player_ids: list[str]) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, player_ids=np.array(player_ids, dtype=str), player=fitted.player, day=fitted.day, rating=fitted.rating)
    return buffer.getvalue()


def _warm_start(session: Session, rating_list: RatingList, index: dict[str, int]) -> whr.WarmStart | None:
    """The previous snapshot's fit, mapped onto this recompute's player indices."""
    if rating_list.current_snapshot_id is None:
        return None
    blob = session.scalar(select(RatingSnapshot.warm_start).where(RatingSnapshot.id == rating_list.current_snapshot_id))
    if not blob:
        return None
    with np.load(io.BytesIO(blob)) as previous:
        new_index = np.array([index.get(str(p), -1) for p in previous["player_ids"]], dtype=np.int64)
        player = new_index[previous["player"]]
        kept = player >= 0  # players whose games are no longer eligible drop out
        if not kept.any():
            return None
        return whr.WarmStart(player=player[kept], day=previous["day"][kept], rating=previous["rating"][kept])


# --- Historical RIF Elo (text 000) ------------------------------------------------------------


def rif_elo_options(rating_list: RatingList) -> rif_elo.ReplayOptions:
    params = rating_list.params or {}
    defaults = rif_elo.ReplayOptions()
    return rif_elo.ReplayOptions(
        switch_to_1997=dt.date.fromisoformat(params["switch_to_1997"]) if params.get("switch_to_1997") else defaults.switch_to_1997,
        last_day=dt.date.fromisoformat(params["last_day"]) if params.get("last_day") else defaults.last_day,
        bootstrap_rating=params.get("bootstrap_rating"),
    )


def _compute_rif_elo(session: Session, rating_list: RatingList, list_date: dt.date, progress: Progress) -> SnapshotData:
    options = rif_elo_options(rating_list)
    started = time.perf_counter()
    rows = session.connection().execute(
        select(Tournament.id, Tournament.start, Tournament.end, Game.black_id, Game.white_id, Game.result)
        .join(Game, Game.tournament_id == Tournament.id)
        .where(and_(*eligibility_conditions(rating_list)))
        .order_by(Tournament.end, Tournament.start, Tournament.id, Game.seq)
    ).all()
    grouped: dict[str, tuple[dt.date, dt.date, list[rif_elo.Game]]] = {}
    for tournament_id, start, end, black, white, result in rows:
        grouped.setdefault(tournament_id, (start, end, []))[2].append(rif_elo.Game(black, white, SCORE_OF_RESULT[result]))
    tournaments = [rif_elo.Tournament(tid, start, end, games) for tid, (start, end, games) in grouped.items()]
    seeds = [
        rif_elo.Seed(player_id=s.player_id, rating=s.rating, status=s.status, as_of=s.as_of)
        for s in session.scalars(select(RatingSeed).where(RatingSeed.list_id == rating_list.id))
    ]
    progress(0.2)
    read = time.perf_counter()
    replayed = rif_elo.replay(tournaments, seeds, options)
    progress(0.7)

    histories: dict[str, list[rif_elo.HistoryPoint]] = {}
    for point in replayed.history:
        histories.setdefault(point.player_id, []).append(point)
    cutoff = whr.active_cutoff(list_date)
    entries = []
    for final in replayed.ratings:
        points = histories.get(final.player_id, [])
        entries.append(
            {
                "player_id": final.player_id,
                "rating": float(final.rating),
                "deviation": None,
                "games": final.games,
                "last_played": final.last_played,
                "status": elo_list_status(final.status, final.last_played, cutoff),
                "history": {
                    "date": [p.date.isoformat() for p in points],
                    "rating": [p.rating for p in points],
                    "deviation": [None for _ in points],
                    "games": [p.games for p in points],
                    "status": [p.status for p in points],
                },
            }
        )
    changes = [
        {
            "tournament_id": c.tournament_id,
            "player_id": c.player_id,
            "system": c.system,
            "rating_before": c.rating_before,
            "rating_after": c.rating_after,
            "change": c.change,
            "change_unrounded": c.change_unrounded,
            "games_counted": c.games_counted,
            "status_after": c.status_after,
        }
        for c in replayed.changes
    ]
    params = {**(rating_list.params or {}), "seeds": len(seeds)}
    return SnapshotData(
        params=params,
        entries=entries,
        changes=changes,
        games=len(rows),
        tournaments=len(tournaments),
        notes=replayed.notes,
        timings={"read": read - started, "compute": time.perf_counter() - read},
    )


def elo_list_status(engine_status: str, last_played: dt.date | None, active_cutoff: int) -> str:
    """The website's statuses for an Elo list: provisional / unofficial ratings are "provisional";
    established / official ones are "active", or "inactive" after five years absent (RIF 1995 #9:
    kept but not published; INTERPRETATIONS 1.17)."""
    if engine_status in ("provisional", "unofficial", "new"):
        return "provisional"
    if last_played is not None and last_played.toordinal() < active_cutoff:
        return "inactive"
    return "active"
