"""The historical RIF Elo list as a rating system (text 000, INTERPRETATIONS section 1): the stored
tournaments replayed by ``app.rating.rif_elo``, with the list's statuses (RIF 1995 #9,
INTERPRETATIONS 1.17)."""

from __future__ import annotations

import datetime as dt
from bisect import bisect_right
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from app.rating import rif_elo
from app.rating.rif_elo import calculator
from app.rating.rif_elo.statuses import inactive_cutoff, list_status
from app.rating.system import (
    NO_DAY,
    Change,
    Entry,
    Expectation,
    HeldPoints,
    Point,
    RatingSystem,
    Replay,
    ReplayInput,
    Standings,
)


class EloListParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    switch_to_1997: dt.date = Field(dt.date(1997, 1, 1), description="first day the GA 1997 rules apply")
    last_day: dt.date = Field(dt.date(2021, 8, 7), description="tournaments ending after it are not replayed")
    bootstrap_rating: int | None = Field(
        None,
        ge=0,
        le=4000,
        description="INTERPRETATIONS 1.18 option: a rating given to every player of the earliest tournaments nobody holds a rating in",
    )

    def engine(self) -> rif_elo.ReplayOptions:
        return rif_elo.ReplayOptions(self.switch_to_1997, self.last_day, self.bootstrap_rating)


class EloSeed(BaseModel):
    model_config = ConfigDict(extra="forbid")

    player_id: str
    rating: int = Field(ge=0, le=4000)
    status: Literal["established", "official", "provisional", "unofficial"] = "established"
    as_of: dt.date


def replay_rif_elo(given: ReplayInput[EloListParams]) -> Replay:
    """Replay the stored tournaments from the seeds (INTERPRETATIONS 1.11–1.18)."""
    params = given.params
    replayed = rif_elo.replay(
        [
            rif_elo.Tournament(t.id, t.start, t.end, [rif_elo.Game(g.black, g.white, g.black_score) for g in t.games])
            for t in given.tournaments
        ],
        [rif_elo.Seed(s.player_id, round(s.rating), s.status, s.as_of) for s in given.seeds],  # whole: EloSeed
        params.engine(),
    )
    last_game = _last_game_dates(given, params.last_day)
    cutoff = inactive_cutoff(given.list_date)
    entries = []
    for final in replayed.ratings:
        last_played = last_game.played_by(final.player_id, params.last_day)
        entries.append(
            Entry(
                final.player_id,
                float(final.rating),
                None,
                final.games,
                last_played,
                # A seeded player who never played counts as seen on the seed's date (as the engine does).
                list_status(final.status, last_played or final.last_played, cutoff),
                counters={"rif_status": final.status},
            )
        )
    points = _one_per_day(
        [
            Point(
                point.player_id,
                point.date,
                float(point.rating),
                None,
                point.games,
                # On its own date a point's holder is never five years absent: provisional or active.
                list_status(point.status, None, inactive_cutoff(point.date)),
                last_played=last_game.played_by(point.player_id, point.date),
                counters={"rif_status": point.status},
                tournament_ids=last_game.tournaments_closed(point.player_id, point.date),
            )
            for point in replayed.history
        ]
    )
    changes = [
        Change(
            c.tournament_id,
            c.player_id,
            c.system,
            c.rating_before,
            c.rating_after,
            c.change,
            c.change_unrounded,
            c.games_counted,
            c.status_after,
            details={"R0": c.R0} if c.R0 is not None else None,
        )
        for c in replayed.changes
    ]
    return Replay(entries=entries, points=points, changes=changes, notes=replayed.notes, params={"seeds": len(given.seeds)})


def elo_standings_on(held: HeldPoints, day: dt.date, params: BaseModel) -> Standings:
    """A rating holds from its point's date on; the status is read on ``day`` (RIF 1995 #9)."""
    cutoff = inactive_cutoff(day)
    last_seen = np.where(held.last_played != NO_DAY, held.last_played, held.day)
    status = np.empty(len(held.day), dtype=object)
    status[:] = [
        list_status((counters or {}).get("rif_status", "established"), dt.date.fromordinal(seen), cutoff)
        for counters, seen in zip(held.counters, last_seen.tolist())
    ]
    return Standings(held.rating, held.deviation, held.games, held.last_played, status, held.title, held.counters)


SYSTEM = RatingSystem[EloListParams, EloSeed](
    id="rif-elo",
    params_model=EloListParams,
    seed_model=EloSeed,
    replay=replay_rif_elo,
    standings_on=elo_standings_on,
    description="Historical RIF Elo (text 000: GA 1995 and GA 1997)",
    calculators=calculator.ENDPOINTS,
    rule_sets=("rif-1995", "rif-1997"),
    change_details="R0 (a new player's start rating under the 1995 rules)",
    expected_score=lambda rating, opponent_rating, day, params: elo_expected_score(rating, opponent_rating, day, params),
)


def elo_expected_score(rating: float, opponent_rating: float, day: dt.date, params: EloListParams) -> Expectation:
    """We = 1/(1 + 2^(dR/120)) of the rule set in force on ``day``: the 1995 text's #7 before the
    list's switch to the 1997 rules, GA 1997 #8 from it on (the same formula, each text's own)."""
    rule = "RIF 1995 #7" if day < params.switch_to_1997 else "GA 1997 #8"
    return Expectation(rif_elo.win_expectancy(rating, opponent_rating), rule)


def _one_per_day(points: list[Point]) -> list[Point]:
    """The last point of each player's day is the rating that holds from it on (a seed, a period's
    close and an event can fall on one day); the day names every tournament rated into it."""
    kept: dict[tuple[str, dt.date], Point] = {}
    for point in points:  # in date order, each day's points in the order they were recorded
        earlier = kept.pop((point.player_id, point.date), None)
        if earlier is not None:
            point.tournament_ids = sorted(set(earlier.tournament_ids) | set(point.tournament_ids))
        kept[(point.player_id, point.date)] = point
    return sorted(kept.values(), key=lambda point: point.date)


class _GameDates:
    """Each player's replayed tournaments in (end) order with his last game's date in each, so a
    rating dated at a period's end can say when its holder last played."""

    def __init__(self, ends: dict[str, list[dt.date]], last: dict[str, list[dt.date]], ids: dict[str, list[str]]):
        self.ends, self.last, self.ids = ends, last, ids

    def played_by(self, player_id: str, day: dt.date | None) -> dt.date | None:
        """His last game's date in the tournaments ending on or before ``day``."""
        ends = self.ends.get(player_id)
        if not ends or day is None:
            return None
        position = bisect_right(ends, day)
        return self.last[player_id][position - 1] if position else None

    def tournaments_closed(self, player_id: str, day: dt.date) -> list[str]:
        """The tournaments rated into the point dated ``day``: those ending on it (a 1997 event), or
        in the 1995 period it closes (ending after his previous point)."""
        ends = self.ends.get(player_id, [])
        stop = bisect_right(ends, day)
        start = stop
        while start > 0 and ends[start - 1] == day:
            start -= 1
        if start == stop:  # a period's end: every tournament since the period began
            period_start = _period_start(day)
            start = bisect_right(ends, period_start - dt.timedelta(days=1))
        return self.ids.get(player_id, [])[start:stop]


def _period_start(day: dt.date) -> dt.date:
    """RIF 1995 #5: the first day of the period ``day`` closes (Jan 1, May 1, Sep 1)."""
    for month_start, (month_end, day_end) in ((1, (4, 30)), (5, (8, 31)), (9, (12, 31))):
        if (day.month, day.day) <= (month_end, day_end):
            return dt.date(day.year, month_start, 1)
    return dt.date(day.year, 9, 1)


def _last_game_dates(given: ReplayInput[EloListParams], last_day: dt.date) -> _GameDates:
    ends: dict[str, list[dt.date]] = {}
    last: dict[str, list[dt.date]] = {}
    ids: dict[str, list[str]] = {}
    for tournament in given.tournaments:  # sorted by (end, start, id)
        if tournament.end > last_day:
            continue
        latest: dict[str, dt.date] = {}
        for game in tournament.games:
            for player_id in (game.black, game.white):
                if player_id not in latest or latest[player_id] < game.date:
                    latest[player_id] = game.date
        for player_id, played in latest.items():
            ends.setdefault(player_id, []).append(tournament.end)
            previous = last.get(player_id)
            last.setdefault(player_id, []).append(max(played, previous[-1]) if previous else played)
            ids.setdefault(player_id, []).append(tournament.id)
    return _GameDates(ends, last, ids)
