"""The RIF Whole-History Rating list as a rating system (text 002, INTERPRETATIONS section 3): the
stored games fitted by ``app.rating.whr``, read on the list date, and each tournament's change."""

from __future__ import annotations

import io
from datetime import date

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from app.rating import whr
from app.rating.system import (
    NO_DAY,
    ChangeColumns,
    Entry,
    GameColumns,
    HeldPoints,
    PointColumns,
    RatingSystem,
    Replay,
    ReplayInput,
    Standings,
    lexsort_order,
)
from app.rating.whr import calculator

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


def replay_whr(given: ReplayInput[WhrListParams]) -> Replay:
    """Fit every eligible game and read the fit on the list date (INTERPRETATIONS 3.6).

    The games come as arrays (the system is columnar) and everything after the fit is array work too:
    the points and changes go back as columns, one list per field, with no object per row. Entries,
    points and changes come in the order they are stored in (player id, date; tournament id, player
    id), so the recompute's sorts find them sorted."""
    params = given.params
    games = given.columns if given.columns is not None else GameColumns.from_tournaments(given.tournaments)
    player_ids = games.player_ids
    warm = _warm_start(given.warm_start, {player_id: i for i, player_id in enumerate(player_ids)})
    fitted = whr.fit(games.black, games.white, games.black_score, games.day, len(player_ids), params.engine(), warm_start=warm)

    id_rank = _ranks(player_ids)
    list_day = given.list_date.toordinal()
    players, rating, deviation = whr.ratings_on(fitted, list_day, params.w2)
    _, played, last_day = whr.games_on(fitted, list_day)
    statuses = whr.statuses_on(played, last_day, list_day)
    by_id = np.argsort(id_rank[players], kind="stable")
    entries = [
        Entry(player_ids[p], r, s, n, date.fromordinal(last), str(status))
        for p, r, s, n, last, status in zip(
            players[by_id].tolist(),
            rating[by_id].tolist(),
            deviation[by_id].tolist(),
            played[by_id].tolist(),
            last_day[by_id].tolist(),
            statuses[by_id].tolist(),
        )
    ]
    tournament_ids = [t.id for t in given.tournaments]
    name_rank = _ranks(tournament_ids)
    cumulative = _cumulative_games(fitted)
    points = _points(fitted, cumulative, player_ids, id_rank, _tournaments_of_days(games, fitted, tournament_ids, name_rank))
    notes = [f"converged in {fitted.newton_steps} Newton steps (largest last change {fitted.max_change:.2e} Elo)"]
    if warm is not None:
        notes.append("warm-started from the previous snapshot")
    return Replay(
        entries=entries,
        points=points,
        changes=_changes(games, fitted, cumulative, player_ids, id_rank, tournament_ids, name_rank, params.virtual_rating),
        notes=notes,
        warm_start=_pack_fit(fitted, player_ids),
    )


def whr_standings_on(held: HeldPoints, day: date, params: WhrListParams) -> Standings:
    """INTERPRETATIONS 3.6 on stored points: the rating interpolated between the two playing days
    around ``day`` (a Brownian bridge for the deviation), held after the last one with its variance
    growing by w2 a day; the status of # RIF 2021 #10 on ``day``; the last game the point's day."""
    w2 = params.w2
    t = day.toordinal()
    t1, r1, s1 = held.day, held.rating, np.nan_to_num(held.deviation)
    between = (held.next_day != NO_DAY) & (t1 != t)
    t2 = np.where(between, held.next_day, t1 + 1)  # (t1 + 1: any day but t1, where nothing is between)
    r2, s2 = np.nan_to_num(held.next_rating), np.nan_to_num(held.next_deviation)
    a = (t2 - t) / (t2 - t1)
    b = 1.0 - a
    rating = np.where(between, a * r1 + b * r2, r1)
    variance = np.where(between, w2 * (t - t1) * (t2 - t) / (t2 - t1) + (a * s1 + b * s2) ** 2, s1 * s1 + w2 * (t - t1))
    status = whr.statuses_on(held.games, held.day, day)
    return Standings(rating, np.sqrt(variance), held.games, held.day, status, held.title, held.counters)


SYSTEM = RatingSystem[WhrListParams, BaseModel](
    id="rif-whr",
    params_model=WhrListParams,
    seed_model=None,
    replay=replay_whr,
    standings_on=whr_standings_on,
    description="RIF Whole-History Rating (text 002)",
    columnar=True,
    calculators=calculator.ENDPOINTS,
)


# --- the pieces -----------------------------------------------------------------------------------


def _cumulative_games(fitted: whr.WhrFit) -> np.ndarray:
    """Each player-day's count of the player's rated games up to and including that day: a running
    sum restarting at each player's first row."""
    running = np.cumsum(fitted.games)
    first_row = np.searchsorted(fitted.player, fitted.player, side="left")
    return running - np.where(first_row > 0, running[first_row - 1], 0)


def _ranks(names: list[str]) -> np.ndarray:
    """Each name's position in sorted (string) order."""
    rank = np.empty(len(names), dtype=np.int64)
    rank[sorted(range(len(names)), key=names.__getitem__)] = np.arange(len(names))
    return rank


def _points(
    fitted: whr.WhrFit, cumulative: np.ndarray, player_ids: list[str], id_rank: np.ndarray, tournaments: list[list[str]]
) -> PointColumns:
    """One point per player-day of the fit, by player id and day; ``games`` counts his games up to
    that day. On his own playing day a player is never five years absent: provisional or active
    (RIF 2021 #10)."""
    order = lexsort_order((fitted.day, id_rank[fitted.player]))
    days = (fitted.day[order] - _EPOCH).astype("datetime64[D]").tolist()
    n = len(order)
    return PointColumns(
        player_id=list(map(player_ids.__getitem__, fitted.player[order].tolist())),
        date=days,
        rating=fitted.rating[order].tolist(),
        deviation=fitted.deviation[order].tolist(),
        games=cumulative[order].tolist(),
        status=_day_statuses(cumulative[order]),
        last_played=list(days),
        title=[None] * n,
        counters=[None] * n,
        tournament_ids=list(map(tournaments.__getitem__, order.tolist())),
    )


def _day_statuses(cumulative: np.ndarray) -> list[str]:
    """A player's status on his own playing day: provisional or active (RIF 2021 #10)."""
    provisional, active = str(whr.Status.PROVISIONAL), str(whr.Status.ACTIVE)
    return [provisional if n < whr.ESTABLISHED_GAMES else active for n in cumulative.tolist()]


def _tournaments_of_days(
    games: GameColumns, fitted: whr.WhrFit, tournament_ids: list[str], name_rank: np.ndarray
) -> list[list[str]]:
    """Which tournaments each player-day of the fit (its rows, in order) played in, sorted by id: a
    WHR day can hold several."""
    by_name = np.argsort(name_rank)
    player = np.concatenate((games.black, games.white))
    day = np.concatenate((games.day, games.day))
    rank = name_rank[np.concatenate((games.tournament, games.tournament))]
    order = lexsort_order((rank, day, player))
    player, day, rank = player[order], day[order], rank[order]
    distinct = np.ones(len(player), dtype=bool)  # first of each (player, day, tournament)
    distinct[1:] = (player[1:] != player[:-1]) | (day[1:] != day[:-1]) | (rank[1:] != rank[:-1])
    player, day, rank = player[distinct], day[distinct], rank[distinct]
    new_day = np.ones(len(player), dtype=bool)
    new_day[1:] = (player[1:] != player[:-1]) | (day[1:] != day[:-1])
    starts = np.flatnonzero(new_day)
    # The fit has one row per (player, day) with a game, in the same (player, day) order.
    assert (
        len(starts) == len(fitted) and np.array_equal(player[starts], fitted.player) and np.array_equal(day[starts], fitted.day)
    )
    names = list(map(tournament_ids.__getitem__, by_name[rank].tolist()))
    bounds = [*starts.tolist(), len(names)]
    return [names[a:b] for a, b in zip(bounds[:-1], bounds[1:])]


def _changes(
    games: GameColumns,
    fitted: whr.WhrFit,
    cumulative: np.ndarray,
    player_ids: list[str],
    id_rank: np.ndarray,
    tournament_ids: list[str],
    name_rank: np.ndarray,
    virtual_rating: float,
) -> ChangeColumns:
    """Issue 7 #4 for WHR: "before" is the player's rating on his last playing day before the
    tournament's first game of his (the virtual rating for a newcomer), "after" his rating on the
    day of his last game in it, both from this fit. One change per (tournament, player), by
    tournament id and player id."""
    player = np.concatenate((games.black, games.white))
    day = np.concatenate((games.day, games.day))
    tournament = np.concatenate((games.tournament, games.tournament))
    order = lexsort_order((day, id_rank[player], name_rank[tournament]))
    player, day, tournament = player[order], day[order], tournament[order]
    first = np.ones(len(player), dtype=bool)
    first[1:] = (player[1:] != player[:-1]) | (tournament[1:] != tournament[:-1])
    starts = np.flatnonzero(first)
    # (No game at all, e.g. every tournament withdrawn or awaiting review: no change, and no last one.)
    stops = np.append(starts[1:], len(player)) if len(starts) else starts
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
    change = (rating_after - before).tolist()
    distinct_days, day_index = np.unique(last_day, return_inverse=True)
    day_names = (distinct_days - _EPOCH).astype("datetime64[D]").astype(str).tolist()
    n = len(player)
    return ChangeColumns(
        tournament_id=list(map(tournament_ids.__getitem__, tournament.tolist())),
        player_id=list(map(player_ids.__getitem__, player.tolist())),
        system=["rif-whr"] * n,
        rating_before=before.tolist(),
        rating_after=rating_after.tolist(),
        change=change,
        change_unrounded=list(change),
        games_counted=counted.tolist(),
        status_after=_day_statuses(cumulative[after]),
        title_after=[None] * n,
        details=[
            {"deviation_after": s, "day_after": on}
            for s, on in zip(fitted.deviation[after].tolist(), map(day_names.__getitem__, day_index.tolist()))
        ],
    )


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
