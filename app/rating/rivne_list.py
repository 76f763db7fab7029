"""The Rivne Go club rating (text 004, INTERPRETATIONS section 5) as a stored list: the stored Go
tournaments replayed one after another by ``app.rating.rivne``, each player starting every tournament
from his rating after the previous one.

Where a player's start rating comes from, in this order: his last ``rating_after`` on this list; else
his seed; else what he declared at this tournament, by ``RivneListParams.newcomer_start``
(INTERPRETATIONS 5.11: the first rating is an input). A tournament the rules cannot rate (the anomaly
loop does not settle, a newcomer without a rank, a rank outside 30k..9d in a handicap game, a board size
other than 9 / 13 / 19) is left out with a note naming it and the reason, so one bad file does not
block the list; its players keep the ratings they had.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.rating import rivne
from app.rating.system import (
    Change,
    Entry,
    Point,
    RatingSystem,
    Replay,
    ReplayInput,
    Seed,
    StoredTournament,
    last_point_held,
)

STATUS = "active"  # 004 has no provisional or inactive players: everyone rated is on the list
DEFAULT_BOARD_SIZE = 19


class RivneListParams(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    newcomer_start: Literal["rank", "declared_rating"] = Field(
        "rank",
        description=(
            "INTERPRETATIONS 5.11: a newcomer's first rating. 'rank': the suggested rating of his declared "
            "rank (1d = 2100, 100 a rank, 20k = 100). 'declared_rating': the rating the tournament file "
            "declares for him (EGF scale; below 100 converted as ranks are), his rank's rating when none is declared"
        ),
    )


class RivneSeed(BaseModel):
    """A player's Rivne rating on ``as_of``: tournaments ending after that day start from it."""

    model_config = ConfigDict(extra="forbid")

    player_id: str
    rating: int = Field(ge=0, le=3500)
    status: Literal["active"] = "active"  # the list's only status
    as_of: dt.date
    title: str | None = Field(None, description="his declared rank (5k, 2d)")

    @field_validator("title")
    @classmethod
    def _a_rank(cls, title: str | None) -> str | None:
        if title is not None:
            rivne.rank_index(title)  # ValueError -> 422 with the pointer
        return title


def replay_rivne(given: ReplayInput) -> Replay:
    """Replay the stored tournaments in (end, start, id) order, the seeds at their dates."""
    params: RivneListParams = given.params  # type: ignore[assignment]
    standings: dict[str, _Standing] = {}
    points: dict[tuple[str, dt.date], Point] = {}
    changes: list[Change] = []
    notes: list[str] = []
    entries: list[Entry] | None = None
    for day, seed, tournament in _timeline(given):
        if entries is None and day > given.list_date:
            entries = _entries(standings)  # the list on its date; later tournaments still give histories
        if seed is not None:
            standing = standings.setdefault(seed.player_id, _Standing())
            standing.rating, standing.title = float(seed.rating), seed.title or standing.title
            _record(points, standing.point(seed.player_id, seed.as_of, []))
            continue
        assert tournament is not None
        try:
            rated = _rate(tournament, standings, params)
        except ValueError as error:  # AnomalyNotStable is one
            notes.append(f"tournament {tournament.id!r} ({tournament.start}..{tournament.end}) not rated: {error}")
            continue
        for change, last_played in rated:
            standing = standings.setdefault(change.player_id, _Standing())
            standing.rating = change.rating_after
            standing.games += change.games_counted
            standing.tournaments += 1
            standing.title = change.title_after or standing.title
            standing.last_played = max(last_played, standing.last_played or last_played)
            change.title_after = standing.title
            changes.append(change)
            _record(points, standing.point(change.player_id, tournament.end, [tournament.id]))
    rated_ids = {c.tournament_id for c in changes}
    notes.insert(
        0,
        f"{len(rated_ids)} of {len(given.tournaments)} tournaments rated, newcomers start from their {params.newcomer_start.replace('_', ' ')}",
    )
    return Replay(
        entries=entries if entries is not None else _entries(standings),
        points=sorted(points.values(), key=lambda point: (point.date, point.player_id)),
        changes=changes,
        notes=notes,
        params={"seeds": len(given.seeds)},
    )


# A rating holds from its tournament's end until the next one: the last point held.
rivne_standings_on = last_point_held


SYSTEM = RatingSystem(
    id="rivne",
    params_model=RivneListParams,
    seed_model=RivneSeed,
    replay=replay_rivne,
    standings_on=rivne_standings_on,
    description="Rivne Go club rating (text 004)",
)


# --- one tournament --------------------------------------------------------------------------------


def round_numbers(labels: list[str | None]) -> list[int]:
    """The stored round labels as the engine's round numbers: numeric labels in their order, other
    labels after them (sorted), and a game without a label a round of its own after those, in
    submission order (nothing says it was played at the same time as another)."""
    # INTERPRETATIONS 5.1: the games of one round are simultaneous, so one label is one round.
    numeric = sorted({int(label) for label in labels if label is not None and label.strip().isdecimal()})
    named = sorted({label for label in labels if label is not None and not label.strip().isdecimal()})
    number = {str_label: i for i, str_label in enumerate([*map(str, numeric), *named], start=1)}
    next_free = len(number) + 1
    rounds = []
    for label in labels:
        if label is None:
            rounds.append(next_free)
            next_free += 1
        else:
            rounds.append(number[str(int(label)) if label.strip().isdecimal() else label])
    return rounds


def first_rating(declared: dict[str, Any], newcomer_start: str) -> float:
    """INTERPRETATIONS 5.11: a newcomer's first rating from what he declared at the tournament."""
    rating, rank = declared.get("rating"), declared.get("rank")
    if newcomer_start == "declared_rating" and rating is not None:
        # A declared rating is on the EGF scale, which goes on below 100 by 100 a rank (30k = −900);
        # 004 counts 1 point below 100 as 10 above it, the same conversion as the rank's (5.11).
        return float(rating) if rating >= rivne.LOW_RATING else max(0.0, (float(rating) + 900.0) / rivne.CROSSING_FACTOR)
    if rank is None:
        raise ValueError("a newcomer declared no rank: his first rating (INTERPRETATIONS 5.11) is unknown")
    return rivne.suggested_first_rating(rank)


def _rate(tournament: StoredTournament, standings: dict[str, _Standing], params: RivneListParams) -> list[tuple[Change, dt.date]]:
    order: list[str] = []
    for game in tournament.games:
        for player_id in (game.black, game.white):
            if player_id not in order:
                order.append(player_id)
    players = []
    for player_id in order:
        declared = tournament.participants.get(player_id, {})
        known = standings.get(player_id)
        try:
            rating = (
                known.rating if known is not None and known.rating is not None else first_rating(declared, params.newcomer_start)
            )
        except ValueError as error:
            raise ValueError(f"player {player_id!r}: {error}") from None
        players.append(rivne.Player(player_id, rating, declared.get("rank")))
    labels = [game.round for game in tournament.games]
    board = tournament.board_size or DEFAULT_BOARD_SIZE
    numbers = round_numbers(labels)
    games = [
        rivne.Game(number, g.black, g.white, g.black_score, g.board_size or board, g.handicap or 0)
        for number, g in zip(numbers, tournament.games, strict=True)
    ]
    label_of = dict(zip(numbers, labels, strict=True))
    result = rivne.rate_tournament(players, games)
    last_played: dict[str, dt.date] = {}
    for game in tournament.games:
        for player_id in (game.black, game.white):
            last_played[player_id] = max(game.date, last_played.get(player_id, game.date))
    return [
        (
            Change(
                tournament.id,
                r.id,
                rivne.SYSTEM,
                r.rating_before,
                r.rating_after,
                r.change,
                r.change,
                r.games_played,
                STATUS,
                title_after=tournament.participants.get(r.id, {}).get("rank"),
                details={
                    "start_rating": r.start_rating,
                    "anomaly_passes": len(result.passes),
                    "rounds": [
                        {"round": label_of[c.round], "rating_after": c.rating_after, "change": c.change} for c in r.rounds
                    ],
                },
            ),
            last_played[r.id],
        )
        for r in result.players
    ]


# --- the list's state --------------------------------------------------------------------------------


@dataclass
class _Standing:
    rating: float | None = None
    games: int = 0
    tournaments: int = 0
    title: str | None = None
    last_played: dt.date | None = None

    def counters(self) -> dict[str, Any]:
        return {"tournaments": self.tournaments, "games": self.games}

    def point(self, player_id: str, day: dt.date, tournament_ids: list[str]) -> Point:
        return Point(
            player_id,
            day,
            self.rating,  # type: ignore[arg-type]
            None,
            self.games,
            STATUS,
            self.last_played,
            title=self.title,
            counters=self.counters(),
            tournament_ids=tournament_ids,
        )


def _timeline(given: ReplayInput) -> list[tuple[dt.date, Seed | None, StoredTournament | None]]:
    """Tournaments by (end, start, id) and seeds by date; a seed dated on a tournament's last day
    comes after it (the seed is the rating from that day on)."""
    events: list[tuple[tuple[Any, ...], dt.date, Seed | None, StoredTournament | None]] = [
        ((t.end, 0, t.start, t.id), t.end, None, t) for t in given.tournaments
    ]
    events += [((s.as_of, 1, s.as_of, s.player_id), s.as_of, s, None) for s in given.seeds]
    return [(day, seed, tournament) for _, day, seed, tournament in sorted(events, key=lambda event: event[0])]


def _record(points: dict[tuple[str, dt.date], Point], point: Point) -> None:
    """One point per player and day: the last holds, naming every tournament rated into it."""
    earlier = points.get((point.player_id, point.date))
    if earlier is not None:
        point.tournament_ids = [*earlier.tournament_ids, *(t for t in point.tournament_ids if t not in earlier.tournament_ids)]
    points[(point.player_id, point.date)] = point


def _entries(standings: dict[str, _Standing]) -> list[Entry]:
    return [
        Entry(player_id, s.rating, None, s.games, s.last_played, STATUS, title=s.title, counters=s.counters())
        for player_id, s in sorted(standings.items())
        if s.rating is not None
    ]
