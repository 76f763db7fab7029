"""RIF Elo, a replay of a whole history into the historical list: GA 1995 periods until the switch,
GA 1997 events after it (INTERPRETATIONS 1.11–1.18)."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta

from app.rating.rif_elo.common import SYSTEM_1995, SYSTEM_1997, Game
from app.rating.rif_elo.ga1995 import (
    PERIOD_ENDS,
    RATING_BEFORE_1996,
    Player1995,
    Status1995,
    rate_tournament_1995,
)
from app.rating.rif_elo.ga1997 import (
    Player1997,
    ProvisionalRecord,
    Status1997,
    rate_event_1997,
)

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


def replay(tournaments: Sequence[Tournament], seeds: Sequence[Seed], options: ReplayOptions = ReplayOptions()) -> Replay:
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
    pending_seeds = deque(sorted((seed for seed in seeds if seed.as_of <= options.last_day), key=lambda seed: seed.as_of))
    # INTERPRETATIONS 1.11: end date, then start date, then tournament id.
    for tournament in sorted(tournaments, key=lambda each: (each.end, each.start, each.id)):
        if tournament.end > options.last_day:
            ledger.notes.append(
                f"tournament {tournament.id} ends {tournament.end}, after the last day {options.last_day}: ignored"
            )
            continue
        while pending_seeds and pending_seeds[0].as_of <= tournament.start:
            ledger.apply_seed(pending_seeds.popleft())
        ledger.rate(tournament)
    while pending_seeds:
        ledger.apply_seed(pending_seeds.popleft())
    ledger.finish()
    return ledger.result()


# --- the helpers of the replay ----------------------------------------------------------------

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
                f"seed of {seed.player_id!r}: status must be one of {', '.join(_SEED_STATUSES)}, got {seed.status!r}"
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
            self.notes.append(f"the 1995 period open at the switch was closed on {day}, the day before the 1997 rules apply")
        for player_id in sorted(self.standings):
            standing = self.standings[player_id]
            if standing.status is Status1995.OFFICIAL and player_id in self.period_players:
                assert standing.rating is not None  # an official player holds a rating (RIF 1995 #5)
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
            self.standings[player_id] = replace(
                standing, status=_STATUS_AT_SWITCH[Status1995(standing.status)], pending=0, record=ProvisionalRecord()
            )
        established = sum(1 for standing in self.standings.values() if standing.status is Status1997.ESTABLISHED)
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
            seed.player_id,
            seed.as_of,
            rating=seed.rating,
            status=status_1995 if self.system == SYSTEM_1995 else status_1997,
            pending=0,
            record=ProvisionalRecord(),
            last_played=standing.last_played or seed.as_of,
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
        results = rate_tournament_1995(players, tournament.games, before_1996=tournament.end < RATING_BEFORE_1996)
        self.open_period_end = min(_period_end(tournament.end), self.options.switch_to_1997 - timedelta(days=1))
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
            self.standings[result.id] = replace(standing, games=standing.games + result.games_counted, last_played=tournament.end)
            self.changes.append(
                TournamentChange(
                    tournament.id,
                    result.id,
                    SYSTEM_1995,
                    result.rating_before,
                    result.rating_after,
                    result.change,
                    result.change_unrounded,
                    result.games_counted,
                    str(result.status_after),
                    R0=result.R0,
                )
            )

    def rate_1997(self, tournament: Tournament, participants: list[str]) -> None:
        standings = [(player_id, self.standings[player_id]) for player_id in participants]
        players = [
            Player1997(player_id, standing.rating, Status1997(standing.status), standing.record)
            for player_id, standing in standings
        ]
        for result in rate_event_1997(players, tournament.games):
            standing = self.standings[result.id]
            self.standings[result.id] = replace(standing, games=standing.games + result.games_counted, last_played=tournament.end)
            self.update(
                result.id,
                tournament.end,
                rating=result.rating_after,
                status=result.status_after,
                record=result.record_after,
                record_history=result.games_counted > 0 or result.status_after is not standing.status,
            )
            self.changes.append(
                TournamentChange(
                    tournament.id,
                    result.id,
                    SYSTEM_1997,
                    result.rating_before,
                    result.rating_after,
                    result.change,
                    result.change_unrounded,
                    result.games_counted,
                    str(result.status_after),
                )
            )

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
        standing = replace(self.standings.get(player_id, _Standing()), **changes)  # type: ignore[arg-type]  # changes: _Standing fields by name
        self.standings[player_id] = standing
        if record_history and standing.rating is not None:
            self.history.append(HistoryPoint(player_id, day, standing.rating, standing.games, str(standing.status)))

    def result(self) -> Replay:
        ratings = [
            FinalRating(player_id, standing.rating, str(standing.status), standing.games, standing.last_played)
            for player_id, standing in self.standings.items()
            if standing.rating is not None and standing.last_played is not None
        ]
        ratings.sort(key=lambda final: (-final.rating, final.player_id))
        history = sorted(self.history, key=lambda point: point.date)
        return Replay(self.changes, history, ratings, self.notes)
