"""The RIF Whole-History Rating list as a rating system (text 002, INTERPRETATIONS section 3): the
stored games fitted by ``app.rating.whr``, read on the list date, and each tournament's change."""

from __future__ import annotations

import io
import math
from bisect import bisect_left
from datetime import date

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from app.rating import whr
from app.rating.system import (
    Change,
    Entry,
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
    """Fit every eligible game and read the fit on the list date (INTERPRETATIONS 3.6)."""
    params: WhrListParams = given.params  # type: ignore[assignment]
    index: dict[str, int] = {}
    black, white, score, day, tournament_of = [], [], [], [], []
    for tournament in given.tournaments:
        for game in tournament.games:
            black.append(index.setdefault(game.black, len(index)))
            white.append(index.setdefault(game.white, len(index)))
            score.append(game.black_score)
            day.append(game.date.toordinal())
            tournament_of.append(tournament.id)
    player_ids = list(index)
    black_array, white_array = np.array(black, dtype=np.int64), np.array(white, dtype=np.int64)
    day_array = np.array(day, dtype=np.int64)
    warm = _warm_start(given.warm_start, index)
    fitted = whr.fit(black_array, white_array, np.array(score, dtype=np.float64), day_array, len(player_ids), params.engine(), warm_start=warm)

    list_day = given.list_date.toordinal()
    players, rating, deviation = whr.ratings_on(fitted, list_day, params.w2)
    _, games, last_day = whr.games_on(fitted, list_day)
    statuses = whr.statuses_on(games, last_day, list_day)
    entries = [
        Entry(player_ids[p], r, s, n, date.fromordinal(last), str(status))
        for p, r, s, n, last, status in zip(
            players.tolist(), rating.tolist(), deviation.tolist(), games.tolist(), last_day.tolist(), statuses.tolist()
        )
    ]
    points = _points(fitted, player_ids, _tournaments_of_days(black, white, day, tournament_of))
    notes = [f"converged in {fitted.newton_steps} Newton steps (largest last change {fitted.max_change:.2e} Elo)"]
    if warm is not None:
        notes.append("warm-started from the previous snapshot")
    return Replay(
        entries=entries,
        points=points,
        changes=_changes(given, points, params.virtual_rating),
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
)


# --- the pieces -----------------------------------------------------------------------------------


def _points(fitted: whr.WhrFit, player_ids: list[str], tournaments: dict[tuple[int, int], list[str]]) -> list[Point]:
    """One point per player-day of the fit; ``games`` counts his games up to that day."""
    player, days = fitted.player, fitted.day
    # Cumulative games per player: a running sum restarting at each player's first row.
    running = np.cumsum(fitted.games)
    first_row = np.searchsorted(player, player, side="left")
    before_first = np.where(first_row > 0, running[first_row - 1], 0)
    cumulative = (running - before_first).tolist()
    iso = (days - _EPOCH).astype("datetime64[D]").tolist()
    points = []
    for p, d, on, r, s, n in zip(player.tolist(), days.tolist(), iso, fitted.rating.tolist(), fitted.deviation.tolist(), cumulative):
        # On his own playing day a player is never five years absent: provisional or active.
        status = whr.Status.PROVISIONAL if n < whr.ESTABLISHED_GAMES else whr.Status.ACTIVE
        points.append(Point(player_ids[p], on, r, s, n, str(status), last_played=on, tournament_ids=tournaments.get((p, d), [])))
    return points


def _tournaments_of_days(black: list[int], white: list[int], day: list[int], tournament_of: list[str]) -> dict[tuple[int, int], list[str]]:
    """Which tournaments each player played in on each day (a WHR day can hold several)."""
    found: dict[tuple[int, int], set[str]] = {}
    for b, w, d, t in zip(black, white, day, tournament_of):
        found.setdefault((b, d), set()).add(t)
        found.setdefault((w, d), set()).add(t)
    return {key: sorted(ids) for key, ids in found.items()}


def _changes(given: ReplayInput, points: list[Point], virtual_rating: float) -> list[Change]:
    """Issue 7 #4 for WHR: "before" is the player's rating on his last playing day before the
    tournament's first game of his (the virtual rating for a newcomer), "after" his rating on the
    day of his last game in it, both from this fit."""
    by_player: dict[str, list[Point]] = {}
    for point in points:
        by_player.setdefault(point.player_id, []).append(point)
    days_of = {player_id: [p.date for p in series] for player_id, series in by_player.items()}
    changes = []
    for tournament in given.tournaments:
        days: dict[str, list[date]] = {}
        for game in tournament.games:
            days.setdefault(game.black, []).append(game.date)
            days.setdefault(game.white, []).append(game.date)
        for player_id in sorted(days):
            series, dates = by_player[player_id], days_of[player_id]
            first, last = min(days[player_id]), max(days[player_id])
            after = series[bisect_left(dates, last)]
            previous = bisect_left(dates, first) - 1
            before = series[previous].rating if previous >= 0 else virtual_rating
            change = after.rating - before
            changes.append(
                Change(
                    tournament.id, player_id, "rif-whr", before, after.rating, change, change,
                    len(days[player_id]), after.status,
                    details={"deviation_after": after.deviation, "day_after": last.isoformat()},
                )
            )
    return changes


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
