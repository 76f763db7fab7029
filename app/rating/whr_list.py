"""The RIF Whole-History Rating list as a rating system (text 002, INTERPRETATIONS section 3): the
stored games fitted by ``app.rating.whr``, read on the list date, and each tournament's change."""

from __future__ import annotations

import io
import math
from datetime import date

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from app.rating import whr
from app.rating.system import (
    Change,
    Entry,
    GameColumns,
    Point,
    RatingSystem,
    Replay,
    ReplayInput,
    Standing,
)

_EPOCH = date(1970, 1, 1).toordinal()


class WhrListParams(BaseModel):
    """INTERPRETATIONS 3.2; defaults are RIF 2021 #8. The bounds are the engine's own checks."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    w2: float = Field(12.9, gt=0, description="Elo² per day (RIF 2021 #8.1: 12.9)")
    # Without virtual games the posterior has no maximum (RIF 2021 #8.2 regularisation is required).
    virtual_games: int = Field(2, ge=1, le=100, description="virtual draws on a player's first day (RIF 2021 #8.2)")
    virtual_rating: float = Field(1900.0, description="rating of the virtual opponent (RIF 2021 #8.2)")
    start_rating: float = Field(1900.0, description="where the iteration starts (RIF 2021 #8.3)")

    def engine(self) -> whr.WhrParams:
        return whr.WhrParams(self.w2, self.virtual_games, self.virtual_rating, self.start_rating)


def replay_whr(given: ReplayInput) -> Replay:
    """Fit every eligible game and read the fit on the list date (INTERPRETATIONS 3.6). The games
    come as arrays (the system is columnar); everything after the fit is array work too, with one
    Python object per player-day and per (tournament, player) only where the Replay holds one."""
    params: WhrListParams = given.params  # type: ignore[assignment]
    games = given.columns if given.columns is not None else GameColumns.from_tournaments(given.tournaments)
    player_ids = games.player_ids
    warm = _warm_start(given.warm_start, {player_id: i for i, player_id in enumerate(player_ids)})
    fitted = whr.fit(games.black, games.white, games.black_score, games.day, len(player_ids), params.engine(), warm_start=warm)

    list_day = given.list_date.toordinal()
    players, rating, deviation = whr.ratings_on(fitted, list_day, params.w2)
    _, played, last_day = whr.games_on(fitted, list_day)
    statuses = whr.statuses_on(played, last_day, list_day)
    entries = [
        Entry(player_ids[p], r, s, n, date.fromordinal(last), str(status))
        for p, r, s, n, last, status in zip(
            players.tolist(), rating.tolist(), deviation.tolist(), played.tolist(), last_day.tolist(), statuses.tolist()
        )
    ]
    tournament_ids = [t.id for t in given.tournaments]
    cumulative = _cumulative_games(fitted)
    points = _points(fitted, cumulative, player_ids, _tournaments_of_days(games, fitted, tournament_ids))
    notes = [f"converged in {fitted.newton_steps} Newton steps (largest last change {fitted.max_change:.2e} Elo)"]
    if warm is not None:
        notes.append("warm-started from the previous snapshot")
    return Replay(
        entries=entries,
        points=points,
        changes=_changes(games, fitted, cumulative, player_ids, tournament_ids, params.virtual_rating),
        notes=notes,
        warm_start=_pack_fit(fitted, player_ids),
    )


def whr_standing_on(before: Point, after: Point | None, day: date, params: BaseModel) -> Standing:
    """INTERPRETATIONS 3.6 on stored points: the rating interpolated between the two playing days
    around ``day`` (a Brownian bridge for the deviation), held after the last one with its variance
    growing by w2 a day; the status of # RIF 2021 #10 on ``day``."""
    w2 = params.w2  # type: ignore[attr-defined]
    t = day.toordinal()
    t1, r1, s1 = before.date.toordinal(), before.rating, before.deviation or 0.0
    if after is not None and t1 != t:
        t2, r2, s2 = after.date.toordinal(), after.rating, after.deviation or 0.0
        a = (t2 - t) / (t2 - t1)
        b = 1.0 - a
        rating, variance = a * r1 + b * r2, w2 * (t - t1) * (t2 - t) / (t2 - t1) + (a * s1 + b * s2) ** 2
    else:
        rating, variance = r1, s1 * s1 + w2 * (t - t1)
    status = whr.status_on(before.games, before.date, day)
    return Standing(rating, math.sqrt(variance), before.games, before.date, str(status))


SYSTEM = RatingSystem(
    id="rif-whr",
    params_model=WhrListParams,
    seed_model=None,
    replay=replay_whr,
    standing_on=whr_standing_on,
    description="RIF Whole-History Rating (text 002)",
    columnar=True,
)


# --- the pieces -----------------------------------------------------------------------------------


def _cumulative_games(fitted: whr.WhrFit) -> np.ndarray:
    """Each player-day's count of the player's rated games up to and including that day: a running
    sum restarting at each player's first row."""
    running = np.cumsum(fitted.games)
    first_row = np.searchsorted(fitted.player, fitted.player, side="left")
    return running - np.where(first_row > 0, running[first_row - 1], 0)


def _points(fitted: whr.WhrFit, cumulative: np.ndarray, player_ids: list[str], tournaments: list[list[str]]) -> list[Point]:
    """One point per player-day of the fit; ``games`` counts his games up to that day."""
    iso = (fitted.day - _EPOCH).astype("datetime64[D]").tolist()
    statuses = _day_statuses(cumulative).tolist()
    return [
        Point(player_ids[p], on, r, s, n, status, last_played=on, tournament_ids=ids)
        for p, on, r, s, n, status, ids in zip(
            fitted.player.tolist(), iso, fitted.rating.tolist(), fitted.deviation.tolist(), cumulative.tolist(), statuses, tournaments
        )
    ]


def _day_statuses(cumulative: np.ndarray) -> np.ndarray:
    """On his own playing day a player is never five years absent: provisional or active (RIF 2021 #10)."""
    return np.where(cumulative < whr.ESTABLISHED_GAMES, str(whr.Status.PROVISIONAL), str(whr.Status.ACTIVE)).astype(object)


def _tournaments_of_days(games: GameColumns, fitted: whr.WhrFit, tournament_ids: list[str]) -> list[list[str]]:
    """Which tournaments each player-day of the fit (its rows, in order) played in, sorted by id: a
    WHR day can hold several."""
    by_name = sorted(range(len(tournament_ids)), key=tournament_ids.__getitem__)
    name_rank = np.empty(len(tournament_ids), dtype=np.int64)
    name_rank[by_name] = np.arange(len(tournament_ids))
    player = np.concatenate((games.black, games.white))
    day = np.concatenate((games.day, games.day))
    rank = name_rank[np.concatenate((games.tournament, games.tournament))]
    order = np.lexsort((rank, day, player))
    player, day, rank = player[order], day[order], rank[order]
    distinct = np.ones(len(player), dtype=bool)  # first of each (player, day, tournament)
    distinct[1:] = (player[1:] != player[:-1]) | (day[1:] != day[:-1]) | (rank[1:] != rank[:-1])
    player, day, rank = player[distinct], day[distinct], rank[distinct]
    new_day = np.ones(len(player), dtype=bool)
    new_day[1:] = (player[1:] != player[:-1]) | (day[1:] != day[:-1])
    starts = np.flatnonzero(new_day)
    # The fit has one row per (player, day) with a game, in the same (player, day) order.
    assert len(starts) == len(fitted) and np.array_equal(player[starts], fitted.player) and np.array_equal(day[starts], fitted.day)
    names = [tournament_ids[by_name[r]] for r in rank.tolist()]
    bounds = [*starts.tolist(), len(names)]
    return [names[a:b] for a, b in zip(bounds[:-1], bounds[1:])]


def _changes(
    games: GameColumns,
    fitted: whr.WhrFit,
    cumulative: np.ndarray,
    player_ids: list[str],
    tournament_ids: list[str],
    virtual_rating: float,
) -> list[Change]:
    """Issue 7 #4 for WHR: "before" is the player's rating on his last playing day before the
    tournament's first game of his (the virtual rating for a newcomer), "after" his rating on the
    day of his last game in it, both from this fit. One change per (tournament, player), tournaments
    in their order, players by id."""
    id_rank = np.empty(len(player_ids), dtype=np.int64)
    id_rank[sorted(range(len(player_ids)), key=player_ids.__getitem__)] = np.arange(len(player_ids))
    player = np.concatenate((games.black, games.white))
    day = np.concatenate((games.day, games.day))
    tournament = np.concatenate((games.tournament, games.tournament))
    order = np.lexsort((day, id_rank[player], tournament))
    player, day, tournament = player[order], day[order], tournament[order]
    first = np.ones(len(player), dtype=bool)
    first[1:] = (player[1:] != player[:-1]) | (tournament[1:] != tournament[:-1])
    starts = np.flatnonzero(first)
    stops = np.append(starts[1:], len(player))
    player, tournament = player[starts], tournament[starts]
    first_day, last_day, counted = day[starts], day[stops - 1], stops - starts
    # Rows of the fit (sorted by player, then day) found by one key per player-day.
    span = int(fitted.day.max()) + 1 if len(fitted) else 1
    keys = fitted.player * span + fitted.day
    after = np.searchsorted(keys, player * span + last_day)  # his row on his last day in it
    previous = np.searchsorted(keys, player * span + first_day) - 1  # the row before his first day in it
    earlier = (previous >= 0) & (fitted.player[np.maximum(previous, 0)] == player)
    before = np.where(earlier, fitted.rating[np.maximum(previous, 0)], virtual_rating)
    rating_after = fitted.rating[after]
    change = rating_after - before
    day_after = (last_day - _EPOCH).astype("datetime64[D]").astype(str).tolist()
    return [
        Change(
            tournament_ids[t], player_ids[p], "rif-whr", b, a, c, c, n, status,
            details={"deviation_after": s, "day_after": on},
        )
        for t, p, b, a, c, n, status, s, on in zip(
            tournament.tolist(), player.tolist(), before.tolist(), rating_after.tolist(), change.tolist(), counted.tolist(),
            _day_statuses(cumulative[after]).tolist(), fitted.deviation[after].tolist(), day_after,
        )
    ]


def _pack_fit(fitted: whr.WhrFit, player_ids: list[str]) -> bytes:
    """The fitted player-days as a compact .npz blob, so the next recompute can warm-start."""
    buffer = io.BytesIO()
    np.savez(buffer, player_ids=np.array(player_ids, dtype=str), player=fitted.player, day=fitted.day, rating=fitted.rating)
    return buffer.getvalue()


def _warm_start(blob: bytes | None, index: dict[str, int]) -> whr.WarmStart | None:
    """The previous snapshot's fit, mapped onto this recompute's player indices."""
    if not blob:
        return None
    with np.load(io.BytesIO(blob)) as previous:
        new_index = np.array([index.get(str(p), -1) for p in previous["player_ids"]], dtype=np.int64)
        player = new_index[previous["player"]] if len(new_index) else np.zeros(0, dtype=np.int64)
        kept = player >= 0  # players whose games are no longer eligible drop out
        if not kept.any():
            return None
        return whr.WarmStart(player=player[kept], day=previous["day"][kept], rating=previous["rating"][kept])
