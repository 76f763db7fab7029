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

from app.rating.rivne import calculator
from app.rating.rivne import rules as rivne
from app.rating.system import (
    Change,
    Entry,
    Expectation,
    Point,
    RatingSystem,
    Replay,
    ReplayInput,
    Seed,
    StoredTournament,
    last_point_held,
)
from app.rating.tournament_replay import TournamentRules, replay_tournaments

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
    rating: float = Field(ge=0, le=3500, description="Fractional, as 004 keeps ratings (INTERPRETATIONS 5.10)")
    status: Literal["active"] = "active"  # the list's only status
    as_of: dt.date
    title: str | None = Field(None, description="his declared rank (5k, 2d)")

    @field_validator("title")
    @classmethod
    def _a_rank(cls, title: str | None) -> str | None:
        if title is not None:
            rivne.rank_index(title)  # ValueError -> 422 with the pointer
        return title


def replay_rivne(given: ReplayInput[RivneListParams]) -> Replay:
    """Replay the stored tournaments in (end, start, id) order, the seeds at their dates."""
    replayed = replay_tournaments(given, _RivneRules(given.params))
    rated_ids = {c.tournament_id for c in replayed.changes}
    newcomers = given.params.newcomer_start.replace("_", " ")
    return Replay(
        entries=replayed.entries,
        points=replayed.points,
        changes=replayed.changes,
        notes=[
            f"{len(rated_ids)} of {len(given.tournaments)} tournaments rated, newcomers start from their {newcomers}",
            *replayed.notes,
        ],
        params={"seeds": len(given.seeds)},
    )


# A rating holds from its tournament's end until the next one: the last point held.
rivne_standings_on = last_point_held


SYSTEM = RatingSystem[RivneListParams, RivneSeed](
    id="rivne",
    params_model=RivneListParams,
    seed_model=RivneSeed,
    replay=replay_rivne,
    standings_on=rivne_standings_on,
    description="Rivne Go club rating (text 004)",
    calculators=calculator.ENDPOINTS,
    change_details="start_rating, anomaly_passes (their number), rounds (round, rating_after, change), games (each "
    "game's figures named as the text names them, as in the answer of POST /v1/calc/rivne/game: round, game (its "
    "index in the tournament's games), opponent, colour, player_A, R, start_rating, Rc, correction, delta_R, a, SE, "
    "K1, K2, Kf, Kd, bonus, table_III, change) and passes (each anomaly pass: number, start_rating, rating_after, "
    "games_played, limit ΔRmax of (8), extra_points, anomalous)",
    expected_score=lambda rating, opponent_rating, day, params: rivne_expected_score(rating, opponent_rating),
    handicap_correction=rivne.handicap_correction,
    # The expected score 50 Elo points give, at a strong club player's 2000, where the scale a of
    # 004 (4) is 105 points against Elo's 400/ln 10 = 174: 50 · 105/174 ≈ 30 (docs/decisions.md 127).
    drift_threshold=30.0,
)


def rivne_expected_score(rating: float, opponent_rating: float) -> Expectation:
    """SE of an even game between the two ratings (004 (1)-(4))."""
    return Expectation(rivne.even_game_expectancy(rating, opponent_rating), "004 (1)-(4)")


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


class _RivneRules(TournamentRules["_Standing"]):
    """Each player starts a tournament from his rating after the previous one (004)."""

    def __init__(self, params: RivneListParams) -> None:
        self.params = params

    def seeded(self, seed: Seed, state: _Standing | None) -> _Standing:
        state = state or _Standing()
        state.rating, state.title = float(seed.rating), seed.title or state.title
        return state

    def rate(self, tournament: StoredTournament, states: dict[str, _Standing]) -> list[Change]:
        rated = _rate(tournament, states, self.params)  # AnomalyNotStable is a ValueError
        for change, last_played in rated:
            standing = states.setdefault(change.player_id, _Standing())
            standing.rating = change.rating_after
            standing.games += change.games_counted
            standing.tournaments += 1
            standing.title = change.title_after or standing.title
            standing.last_played = max(last_played, standing.last_played or last_played)
            change.title_after = standing.title
        return [change for change, _ in rated]

    def point(self, player_id: str, day: dt.date, state: _Standing, tournament_ids: list[str]) -> Point | None:
        return state.point(player_id, day, tournament_ids)

    def entry(self, player_id: str, state: _Standing) -> Entry | None:
        if state.rating is None:
            return None
        return Entry(
            player_id, state.rating, None, state.games, state.last_played, STATUS, title=state.title, counters=state.counters()
        )


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
                    # Every figure of (1)–(7) in each of his games, the game by its index in the
                    # tournament's games and its round by its label; the check (8) of every pass.
                    "games": [
                        {**{k: v for k, v in figures.__dict__.items() if k != "id"}, "round": label_of[figures.round]}
                        for figures in r.games
                    ],
                    "passes": [
                        {
                            "number": each.number,
                            **{key: value for key, value in standing.__dict__.items() if key != "id"},
                        }
                        for each in result.passes
                        for standing in each.players
                        if standing.id == r.id
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
        assert self.rating is not None  # a seed and a rated tournament both leave a rating
        return Point(
            player_id,
            day,
            self.rating,
            None,
            self.games,
            STATUS,
            self.last_played,
            title=self.title,
            counters=self.counters(),
            tournament_ids=tournament_ids,
        )
