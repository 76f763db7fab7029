"""The RIF Whole-History Rating list as a rating system (text 002, INTERPRETATIONS section 3): the
stored games fitted by ``app.rating.whr``, read on the list date, and each tournament's change."""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from datetime import date

import numpy as np
from numpy.lib.npyio import NpzFile
from pydantic import BaseModel, ConfigDict, Field

from app.rating import whr
from app.rating.system import (
    NO_DAY,
    ActiveOnDays,
    ChangeColumns,
    CodedColumn,
    EntryColumns,
    Expectation,
    GameColumns,
    HeldPoints,
    HeldSpans,
    PointColumns,
    RatingSystem,
    RecordColumn,
    Replay,
    ReplayInput,
    Standings,
    lexsort_order,
)
from app.rating.whr import calculator
from app.rating.whr.forecast import RULE, forecast_whr

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
    the entries, points and changes go back as columns, one list per field, with no object per row.
    They come in the order they are stored in (player id; player id, date; tournament id, player id),
    so the recompute's sorts find them sorted."""
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
    n = len(players)
    entries = EntryColumns(
        player_id=list(map(player_ids.__getitem__, players[by_id].tolist())),
        rating=rating[by_id],
        deviation=deviation[by_id],
        games=played[by_id],
        last_played=last_day[by_id],
        status=list(map(str, statuses[by_id].tolist())),
        title=[None] * n,
        counters=[None] * n,
    )
    tournament_ids = [t.id for t in given.tournaments]
    name_rank = _ranks(tournament_ids)
    cumulative = _cumulative_games(fitted)
    played_days = _PlayedDays.of(games, fitted, name_rank)
    points = _points(
        fitted, cumulative, player_ids, id_rank, _tournaments_of_days(played_days, fitted, tournament_ids, name_rank)
    )
    notes = [f"converged in {fitted.newton_steps} Newton steps (largest last change {fitted.max_change:.2e} Elo)"]
    if warm is not None:
        notes.append("warm-started from the previous snapshot")
    return Replay(
        entries=entries,
        points=points,
        changes=_changes(played_days, fitted, cumulative, player_ids, id_rank, tournament_ids, name_rank, params.virtual_rating),
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


def whr_active_on_days(spans: HeldSpans, params: WhrListParams) -> ActiveOnDays:
    """``whr_standings_on``'s active players on each of many days at once, with its ratings. A held
    point is active (RIF 2021 #10) while its player has 10 rated games or more and the point's day is
    no more than 5 years before the day read: from the first day it is held to the last before the
    day whose cutoff passes it (the cutoffs grow with the day), or to his next point. Its rating
    there is INTERPRETATIONS 3.6's, the same steps as ``whr_standings_on``: the point's own on its
    day and after his last point, the bridge's line between two playing days around the day read.
    (No deviation is read: the params' w², which only the deviations grow by, is not needed.)"""
    points, days = spans.points, spans.days
    cutoffs = np.array([whr.active_cutoff(day) for day in days.tolist()], dtype=np.int64)
    end = np.minimum(spans.until, np.searchsorted(cutoffs, points.day, "right"))
    end[points.games < whr.ESTABLISHED_GAMES] = 0
    held = np.flatnonzero(end > spans.first)
    if not len(held):
        return ActiveOnDays(row=held, day=held.astype(np.int64), rating=np.empty(0, dtype=np.float64))
    first, length = spans.first[held], (end - spans.first)[held]
    # Each (point, day) pair, point by point (each point's days one after another: a running sum of
    # steps of 1 that jumps at each point's first day), then put in the order of the days by a
    # stable sort, which keeps the points' order within a day (a radix sort of 16-bit day numbers:
    # the 3,600 months of 1900-2199).
    starts = np.cumsum(length) - length
    narrow = np.int16 if len(days) <= np.iinfo(np.int16).max else np.int64
    day = np.ones(int(length.sum()), dtype=narrow)
    day[starts] = first - np.concatenate(([0], (first + length - 1)[:-1]))
    np.cumsum(day, dtype=narrow, out=day)
    run = np.zeros(len(day), dtype=np.int32)
    run[starts[1:]] = 1
    np.cumsum(run, dtype=np.int32, out=run)
    # The bridge is read where the player has a next point, but not on the point's own day, which
    # can only be its first day held.
    bridge = np.repeat(spans.has_next[held], length)
    bridge[starts[days[first] == points.day[held]]] = False
    order = np.argsort(day, kind="stable")
    day = day[order]
    row = held[run[order]]
    rating = points.rating[row]
    bridged = np.flatnonzero(bridge[order])
    following = row[bridged] + 1
    t = days[day[bridged]]
    t1 = points.day[following - 1]
    t2 = points.day[following]
    a = (t2 - t) / (t2 - t1)
    b = 1.0 - a
    rating[bridged] = a * rating[bridged] + b * points.rating[following]
    return ActiveOnDays(row=row, day=day.astype(np.int64), rating=rating)


SYSTEM = RatingSystem[WhrListParams, BaseModel](
    id="rif-whr",
    params_model=WhrListParams,
    seed_model=None,
    replay=replay_whr,
    standings_on=whr_standings_on,
    active_on_days=whr_active_on_days,
    description="RIF Whole-History Rating (text 002)",
    columnar=True,
    calculators=calculator.ENDPOINTS,
    change_details="deviation_after, day_after (the day of the rating after)",
    expected_score=lambda rating, opponent_rating, day, params: whr_expected_score(rating, opponent_rating),
    has_deviation=True,
    # A fit of all games has seen every game: an evaluation refits before the games it predicts.
    forecast=forecast_whr,
)


def whr_expected_score(rating: float, opponent_rating: float) -> Expectation:
    """The model's P(A beats B): Bradley-Terry on the natural ratings (# RIF 2021 #1-#7)."""
    return Expectation(whr.win_probability(rating, opponent_rating), RULE)


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
    fitted: whr.WhrFit, cumulative: np.ndarray, player_ids: list[str], id_rank: np.ndarray, tournaments: CodedColumn
) -> PointColumns:
    """One point per player-day of the fit, by player id and day; ``games`` counts his games up to
    that day. On his own playing day a player is never five years absent: provisional or active
    (RIF 2021 #10)."""
    order = lexsort_order((fitted.day, id_rank[fitted.player]))
    days = fitted.day[order]
    n = len(order)
    return PointColumns(
        player_id=CodedColumn(fitted.player[order], player_ids, id_rank),
        date=days,
        rating=fitted.rating[order],
        deviation=fitted.deviation[order],
        games=cumulative[order],
        status=_day_statuses(cumulative[order]),
        last_played=days,
        title=_nothing(n),
        counters=_nothing(n),
        tournament_ids=tournaments.taken(order),
    )


def _day_statuses(cumulative: np.ndarray) -> CodedColumn:
    """A player's status on his own playing day: provisional or active (RIF 2021 #10)."""
    return CodedColumn(
        (cumulative >= whr.ESTABLISHED_GAMES).astype(np.int8), [str(whr.Status.PROVISIONAL), str(whr.Status.ACTIVE)]
    )


def _nothing(rows: int) -> CodedColumn:
    """None on every row (a title the list does not give)."""
    return CodedColumn(np.zeros(rows, dtype=np.int8), [None])


@dataclass(frozen=True)
class _PlayedDays:
    """Each (player, day, tournament) of the games, by player, day and tournament id, with the number
    of games the player played in that tournament on that day: what the points' tournaments and the
    changes are read from (a tenth of the games' rows on the large history: 228,046 for 1,000,195)."""

    player: np.ndarray
    day: np.ndarray
    rank: np.ndarray  # the tournament's place in id order (``name_rank``)
    games: np.ndarray
    row: np.ndarray  # the fit's row of the (player, day)

    @classmethod
    def of(cls, games: GameColumns, fitted: whr.WhrFit, name_rank: np.ndarray) -> _PlayedDays:
        """From the fit's player-days (each game's black and white rows): nearly every day is one
        tournament's, and is one row here with the day's games; only the days of several tournaments
        (445 of 227,601 on the large history) are split, by counting their games' (day, tournament)
        pairs. No sort of the games' two million sides (a quarter of the list's work outside the fit)."""
        rows = len(fitted)
        rank = name_rank[games.tournament]
        lowest = np.full(rows, len(name_rank), dtype=np.int64)  # each day's lowest tournament rank
        highest = np.full(rows, -1, dtype=np.int64)
        for side in (fitted.black_row, fitted.white_row):
            np.minimum.at(lowest, side, rank)
            np.maximum.at(highest, side, rank)
        several = lowest != highest
        black, white = several[fitted.black_row], several[fitted.white_row]
        (split_row, split_rank), split_games = _distinct_rows(
            (
                np.concatenate((fitted.black_row[black], fitted.white_row[white])),
                np.concatenate((rank[black], rank[white])),
            )
        )
        one = np.flatnonzero(~several)
        row = np.concatenate((one, split_row))
        rank = np.concatenate((lowest[one], split_rank))
        # Two runs sorted by (row, rank): a stable sort (timsort) merges them in linear time.
        order = np.argsort(row * max(len(name_rank), 1) + rank, kind="stable")
        row = row[order]
        return cls(fitted.player[row], fitted.day[row], rank[order], np.concatenate((fitted.games[one], split_games))[order], row)


def _distinct_rows(columns: tuple[np.ndarray, ...]) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """The distinct rows of integer columns, sorted (the first column first), and how many times each
    occurs: one ``np.unique`` of a combined key (a plain sort: a stable sort of a million rows' order
    costs ten times as much), or a lexicographic sort when the key would not fit in 63 bits."""
    rows = len(columns[0])
    lows = [int(column.min()) if rows else 0 for column in columns]
    spans = [int(column.max()) - low + 1 if rows else 1 for column, low in zip(columns, lows, strict=True)]
    if math.prod(spans) < 2**63:
        combined = np.zeros(rows, dtype=np.int64)
        for column, low, span in zip(columns, lows, spans, strict=True):
            combined *= span
            combined += column - low
        keys, counts = np.unique(combined, return_counts=True)
        distinct = []
        for low, span in zip(reversed(lows), reversed(spans), strict=True):
            keys, column = np.divmod(keys, span)
            distinct.append(column + low)
        return tuple(reversed(distinct)), counts
    order = np.lexsort(columns[::-1])
    ordered = tuple(column[order] for column in columns)
    first = np.ones(rows, dtype=bool)
    first[1:] = np.logical_or.reduce([column[1:] != column[:-1] for column in ordered])
    starts = np.flatnonzero(first)
    return tuple(column[starts] for column in ordered), np.diff(np.append(starts, rows))


def _tournaments_of_days(
    played: _PlayedDays, fitted: whr.WhrFit, tournament_ids: list[str], name_rank: np.ndarray
) -> CodedColumn:
    """Which tournaments each player-day of the fit (its rows, in order) played in, sorted by id: a
    WHR day can hold several. Coded: a day of one tournament by the tournament's place in id order,
    the few days of several (445 of 227,601 on the large history) by codes after those."""
    player, day, rank = played.player, played.day, played.rank
    new_day = np.ones(len(player), dtype=bool)
    new_day[1:] = (player[1:] != player[:-1]) | (day[1:] != day[:-1])
    starts = np.flatnonzero(new_day)
    # The fit has one row per (player, day) with a game, in the same (player, day) order.
    assert (
        len(starts) == len(fitted) and np.array_equal(player[starts], fitted.player) and np.array_equal(day[starts], fitted.day)
    )
    names = [tournament_ids[i] for i in np.argsort(name_rank).tolist()]  # by rank
    days_of: list[list[str]] = [[name] for name in names]
    codes = rank[starts]
    stops = np.append(starts[1:], len(rank))
    several: dict[tuple[int, ...], int] = {}
    for row in np.flatnonzero(stops - starts > 1).tolist():
        ranks = tuple(rank[starts[row] : stops[row]].tolist())
        codes[row] = several.setdefault(ranks, len(names) + len(several))
    days_of.extend([names[r] for r in ranks] for ranks in several)
    return CodedColumn(codes, days_of)


def _changes(
    played: _PlayedDays,
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
    order = lexsort_order((played.day, id_rank[played.player], played.rank))
    player, rank, day_games, row = played.player[order], played.rank[order], played.games[order], played.row[order]
    first = np.ones(len(player), dtype=bool)
    first[1:] = (player[1:] != player[:-1]) | (rank[1:] != rank[:-1])
    starts = np.flatnonzero(first)
    # (No game at all, e.g. every tournament withdrawn or awaiting review: no change, and no last one.)
    stops = np.append(starts[1:], len(player)) if len(starts) else starts
    counted = np.add.reduceat(day_games, starts) if len(starts) else starts
    player, tournament = player[starts], np.argsort(name_rank)[rank[starts]]
    after = row[stops - 1]  # his row of the fit on his last day in it
    previous = row[starts] - 1  # the row before his first day in it (the fit's rows are by player, then day)
    earlier = (previous >= 0) & (fitted.player[np.maximum(previous, 0)] == player)
    before = np.where(earlier, fitted.rating[np.maximum(previous, 0)], virtual_rating)
    rating_after = fitted.rating[after]
    change = rating_after - before
    distinct_days, day_index = _distinct_days(fitted.day[after])
    day_names = (distinct_days - _EPOCH).astype("datetime64[D]").astype(str).tolist()
    n = len(player)
    return ChangeColumns(
        tournament_id=CodedColumn(tournament, tournament_ids, name_rank),
        player_id=CodedColumn(player, player_ids, id_rank),
        system=CodedColumn(np.zeros(n, dtype=np.int8), ["rif-whr"]),
        rating_before=before,
        rating_after=rating_after,
        change=change,
        change_unrounded=change,
        games_counted=counted,
        status_after=_day_statuses(cumulative[after]),
        title_after=_nothing(n),
        details=RecordColumn({"deviation_after": fitted.deviation[after], "day_after": CodedColumn(day_index, day_names)}),
    )


def _distinct_days(days: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(days, return_inverse=True)`` for day ordinals, by marking the days present in their
    span (a few thousand days on a history of a quarter of a million changes) instead of a sort."""
    if not len(days):
        return days, days
    low = int(days.min())
    present = np.bincount(days - low) > 0
    return np.flatnonzero(present) + low, (np.cumsum(present) - 1)[days - low]


def _pack_fit(fitted: whr.WhrFit, player_ids: list[str]) -> bytes:
    """The fitted player-days as a compact .npz blob, so the next recompute can warm-start. Player
    numbers and days as int32 (a third less to write and read than int64); the player ids as their
    UTF-8 bytes joined by newlines (NumPy's text array takes 4 bytes a character, padded to the
    longest id: one long id would multiply it). ``_warm_start`` reads blobs written before either
    way (decision 123)."""
    buffer = io.BytesIO()
    np.savez(
        buffer,
        player_ids_utf8=np.frombuffer("\n".join(player_ids).encode(), dtype=np.uint8),
        player=fitted.player.astype(np.int32),
        day=fitted.day.astype(np.int32),
        rating=fitted.rating,
    )
    return buffer.getvalue()


def _warm_start(blob: bytes | None, index: dict[str, int]) -> whr.WarmStart | None:
    """The previous snapshot's fit, mapped onto this recompute's player indices."""
    if not blob:
        return None
    with np.load(io.BytesIO(blob)) as previous:
        new_index = np.array([index.get(player_id, -1) for player_id in _player_ids_of(previous)], dtype=np.int64)
        player = new_index[previous["player"]] if len(new_index) else np.zeros(0, dtype=np.int64)
        kept = player >= 0  # players whose games are no longer eligible drop out
        if not kept.any():
            return None
        return whr.WarmStart(player=player[kept], day=previous["day"][kept], rating=previous["rating"][kept])


def _player_ids_of(packed: NpzFile) -> list[str]:
    """The player ids of a packed fit: UTF-8 joined by newlines, or (blobs written before decision
    123) a NumPy text array."""
    if "player_ids_utf8" not in packed:
        return [str(player_id) for player_id in packed["player_ids"]]
    joined = packed["player_ids_utf8"].tobytes().decode()
    return joined.split("\n") if joined else []
