"""The Estonian kyu/dan ranks and rating (text 003, INTERPRETATIONS section 4) as a stored list: the
stored renju tournaments replayed in date order through ``app.rating.eru.rate_tournament``, each
player's rank and Estonian rating carried from tournament to tournament, from the list's seeds or as
a newcomer. The list's own decisions are INTERPRETATIONS 4.11-4.16.

Where a player's rank at a tournament's start comes from (ERU 4.1 "the opponent's rank is adopted
according the kyu/dan system of renju federation of opponent's country", INTERPRETATIONS 4.6, 4.8):
the rank declared for him in that tournament's submission (his own federation's rank at its start);
else his rank on this list (his seed's, or the one his last evaluation gave him); else none: his
opponents leave him out of their norms, and he is evaluated from his seed's first rank or the list's
``first_rank`` (15k). A newcomer holds a rank from the first tournament that evaluates him.

Which tournaments count: one neither in the ERU calendar, nor accepted by an ERU referee, nor
international can give or take no rank (every band of ERU 4.5 asks for one of the three, and a
demotion needs the current rank's conditions, INTERPRETATIONS 4.7), nor move the Estonian rating (ERU
4.9 "The tournament must be listed in the calendar of ERU"): it is left out, and the notes name it.
Referee-accepted or international tournaments outside the calendar evaluate ranks and leave the
Estonian rating as it was (the tournament's changes say why).

The list's rows are the players holding an Estonian rating (or a RIF rating adopted as its base, ERU
4.10), all "active": text 003 has no provisional or inactive players. The rank is the row's ``title``;
a player who holds only a rank has no row and no history point, and his evaluations are in the
tournaments' changes.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from app.rating.eru import calculator
from app.rating.eru import rules as eru
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
from app.schemas.common import Shown, StrictModel

__all__ = [
    "SYSTEM",
    "EruListParams",
    "EruSeed",
    "EruSeedCounters",
    "EruTournamentConditions",
    "eru_standings_on",
    "replay_eru",
]

STATUS = "active"  # text 003 has no provisional or inactive players: everyone rated is on the list
SKIPPED_IDS_SHOWN = 20  # the note on tournaments left out names this many of them


def _a_rank(value: str) -> str:
    eru.parse_rank(value)  # a ValueError: a 422 with the pointer, naming the ranks
    return value


# ERU 4.1: "15k" … "1k", "1d" … "9d" (no 0k, no 10d).
RankName = Annotated[str, AfterValidator(_a_rank)]


class EruListParams(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    first_rank: RankName = Field(
        "15k",
        description="INTERPRETATIONS 4.8: the rank an unranked newcomer is evaluated from when his seed gives none "
        "(15k … 1k, 1d … 9d)",
    )


class EruTournamentConditions(StrictModel):
    """What the Estonian ranks and rating ask of a tournament beside the fields every system reads
    (ERU 4.5, 4.9): the tournament's `conditions.eru`. A tournament that states none of them meets
    none: it is outside the ERU calendar, not accepted by a referee, not international, no
    championship, its games not recorded, no byo-yomi."""

    eru_calendar: bool = Field(False, description="In the calendar of the Estonian Renju Union (ERU 4.5, 4.9; default false)")
    referee_accepted: bool = Field(
        False, description="Accepted by an ERU referee: counts for the ranks 15k–10k (ERU 4.5; default false)"
    )
    international: bool = Field(
        False,
        description="An international competition: counts like the ERU calendar for ranks from 9k up (ERU 4.5; default false)",
    )
    championship: Annotated[Literal["world-championship-at", "team-world-championship"] | None, Shown("Championship")] = Field(
        None,
        description="The World Championship AT or the Team World Championship, the only places for 9 dan (ERU 4.5; default none)",
    )
    games_recorded: bool = Field(
        False, description="The games were recorded (moves written down), needed for ranks from 3k up (ERU 4.5; default false)"
    )
    byo_yomi: bool = Field(
        False,
        description="The time control is 60 minutes/30 own moves + byo-yomi 10 minutes/10 moves (time_control_minutes "
        "is then the base time); qualifies for 5–6 dan with at least 60 minutes (ERU 4.5; default false)",
    )


class EruSeedCounters(BaseModel):
    model_config = ConfigDict(extra="forbid")

    first_rank: RankName | None = Field(
        None, description="An unranked player's first rank, from which his first evaluation starts (INTERPRETATIONS 4.8)"
    )
    rating_bonus: bool = Field(
        False,
        description="A new player: the referee adds 50 points per win over a player rated above 1600 to his first "
        "Estonian rating (ERU 4.10)",
    )


class EruSeed(BaseModel):
    """A player's standing at the end of ``as_of`` as ERU's records hold it: his rank and his rating. It
    replaces whatever the replay made of him up to that day."""

    model_config = ConfigDict(extra="forbid")

    player_id: str
    status: Literal["estonian", "rif", "new"] = Field(
        "estonian",
        description="What the rating is (ERU 4.10): estonian, his Estonian rating; rif, his RIF rating, adopted as the "
        "base of his Estonian rating; new, no rating yet: give 1500, the first rating he normally gets after his "
        "first ERU-calendar tournament",
    )
    rating: int = Field(ge=0, le=4000)
    as_of: dt.date
    title: RankName | None = Field(None, description='His rank (ERU 4.1): "15k" … "1k", "1d" … "9d"; none: unranked')
    counters: EruSeedCounters | None = Field(None, validate_default=True)

    @field_validator("rating")
    @classmethod
    def _new_means_1500(cls, rating: int, info: ValidationInfo) -> int:
        if info.data.get("status") == "new" and rating != eru.FIRST_RATING:
            raise ValueError(
                f"a new player has no rating yet; his first is normally {eru.FIRST_RATING} (ERU 4.10): give {eru.FIRST_RATING}"
            )
        return rating

    @field_validator("counters")
    @classmethod
    def _fit_the_status(cls, counters: EruSeedCounters | None, info: ValidationInfo) -> EruSeedCounters | None:
        if counters is None:
            return counters
        if counters.first_rank is not None and info.data.get("title") is not None:
            raise ValueError(
                "a first rank is for an unranked player (INTERPRETATIONS 4.8): give either title or counters.first_rank"
            )
        if counters.rating_bonus and info.data.get("status") != "new":
            raise ValueError("the referee's bonus is added to a first rating only (ERU 4.10): it needs status new")
        return counters


def replay_eru(given: ReplayInput[EruListParams]) -> Replay:
    """Replay the stored tournaments in (end, start, id) order, the seeds at their dates."""
    rules = _EruRules(eru.parse_rank(given.params.first_rank))
    replayed = replay_tournaments(given, rules)
    notes = [
        f"{rules.rated} of {len(given.tournaments)} tournaments rated; unranked newcomers start from "
        f"{given.params.first_rank} (INTERPRETATIONS 4.8)",
        *replayed.notes,
    ]
    if rules.skipped:
        shown = ", ".join(repr(tid) for tid in rules.skipped[:SKIPPED_IDS_SHOWN])
        more = f" and {len(rules.skipped) - SKIPPED_IDS_SHOWN} more" if len(rules.skipped) > SKIPPED_IDS_SHOWN else ""
        notes.append(
            f"{len(rules.skipped)} tournament(s) neither in the ERU calendar, nor accepted by an ERU referee, nor international "
            f"count for no rank (ERU 4.5) and not for the Estonian rating (ERU 4.9): {shown}{more}"
        )
    return Replay(
        entries=replayed.entries,
        points=replayed.points,
        changes=replayed.changes,
        notes=notes,
        params={"seeds": len(given.seeds)},
    )


# A rank and a rating hold from their tournament's end until the next one (ERU 4.9 "The rating will
# change after every tournament"): the last point held.
eru_standings_on = last_point_held


SYSTEM = RatingSystem[EruListParams, EruSeed](
    id="eru",
    params_model=EruListParams,
    seed_model=EruSeed,
    replay=replay_eru,
    standings_on=eru_standings_on,
    description="Estonian kyu/dan ranks and rating (text 003)",
    calculators=calculator.ENDPOINTS,
    change_details="the norm evaluation, with games (each game's percentages of the keep, up1 and up2 norms, ERU "
    "4.3) and rating_games (each game's change by the table at the start ratings, ERU 4.9), as POST "
    "/v1/calc/eru/tournament answers them",
    conditions_model=EruTournamentConditions,
    flat_conditions=True,  # the tournament's own fields until decision 112
    expected_score=lambda rating, opponent_rating, day, params: eru_expected_score(rating, opponent_rating),
)


def eru_expected_score(rating: float, opponent_rating: float) -> Expectation:
    """The expectation the ERU 4.9 table implies between two Estonian ratings (whole numbers)."""
    return Expectation(float(eru.table_expectancy(round(rating), round(opponent_rating))), "ERU 4.9")


# --- one tournament -------------------------------------------------------------------------------


RankSource = Literal["declared", "list", "unranked"]


class _EruRules(TournamentRules["_State"]):
    """How an ERU tournament moves a player's rank and rating (ERU 4.2-4.10)."""

    def __init__(self, first_rank: int) -> None:
        self.first_rank = first_rank
        self.rated = 0
        self.skipped: list[str] = []

    def seeded(self, seed: Seed, state: _State | None) -> _State:
        state = state or _State()
        state.seed(seed)
        return state

    def rate(self, tournament: StoredTournament, states: dict[str, _State]) -> list[Change]:
        conditions = eru.conditions_of_tournament({"time_control_minutes": tournament.time_control_minutes, **tournament.fields})
        if not (conditions.eru_calendar or conditions.referee_accepted or conditions.international):
            # INTERPRETATIONS 4.11: no band of ERU 4.5 and not the rating of ERU 4.9 can count it.
            self.skipped.append(tournament.id)
            return []
        changes = _rate(tournament, conditions, states, self.first_rank)
        self.rated += 1
        return changes

    def point(self, player_id: str, day: dt.date, state: _State, tournament_ids: list[str]) -> Point | None:
        return state.point(player_id, day, tournament_ids)

    def entry(self, player_id: str, state: _State) -> Entry | None:
        rating = state.listed_rating
        if rating is None:
            return None  # a rank alone has no row (INTERPRETATIONS 4.15)
        return Entry(
            player_id,
            float(rating),
            None,
            state.games,
            state.last_played,
            STATUS,
            title=_name(state.rank),
            counters=state.counters(),
        )


def _rate(tournament: StoredTournament, conditions: eru.Conditions, states: dict[str, _State], first_rank: int) -> list[Change]:
    order = list(dict.fromkeys(player_id for game in tournament.games for player_id in (game.black, game.white)))
    starts: dict[str, tuple[int | None, RankSource, str | None]] = {}
    players = []
    for player_id in order:
        state = states.get(player_id) or _State()
        rank, source, remark = _rank_at_start(tournament.participants.get(player_id, {}).get("rank"), state)
        starts[player_id] = (rank, source, remark)
        players.append(
            eru.Player(
                player_id,
                rank,
                rating=state.rating,
                rif_rating=state.rif_rating,
                first_rank=state.first_rank or first_rank,
                rating_bonus=state.rating_bonus,
            )
        )
    # Scores are 1, 0.5 or 0 as stored: exact as fractions.
    games = [eru.Game(game.black, game.white, Fraction(game.black_score)) for game in tournament.games]
    results = eru.rate_tournament(players, games, conditions)
    last_played: dict[str, dt.date] = {}
    for game in tournament.games:
        for player_id in (game.black, game.white):
            last_played[player_id] = max(game.date, last_played.get(player_id, game.date))
    changes = []
    for result in results:
        state = states.setdefault(result.id, _State())
        rank_before = state.rank
        state.after(result, last_played[result.id])
        rank, source, remark = starts[result.id]
        changes.append(_change(tournament.id, result, state, rank_before, source, remark))
    return changes


def _rank_at_start(declared: str | None, state: _State) -> tuple[int | None, RankSource, str | None]:
    """(rank, where it comes from, a remark): the declared rank, else the list's, else none (INTERPRETATIONS 4.6, 4.12)."""
    remark = None
    if declared is not None:
        try:
            rank = eru.parse_rank(declared)
        except ValueError:
            # A 16k-30k of another federation's scale has no place on ERU's 24 ranks: not read.
            remark = f"the declared rank {declared} is not on ERU's scale (15k … 9d) and is not read"
        else:
            if state.rank is not None and state.rank != rank:
                remark = f"declared {eru.rank_name(rank)}, {eru.rank_name(state.rank)} on this list: the declared rank is used (ERU 4.1)"
            return rank, "declared", remark
    if state.rank is not None:
        return state.rank, "list", remark
    return None, "unranked", remark


def _change(
    tournament_id: str, result: eru.PlayerResult, state: _State, rank_on_list: int | None, source: RankSource, remark: str | None
) -> Change:
    norms, rating = result.norms, result.rating
    return Change(
        tournament_id,
        result.id,
        eru.SYSTEM,
        rating.rating_before,
        rating.rating_after,
        rating.change,
        rating.change,
        rating.games_counted,
        STATUS if state.listed_rating is not None else None,
        title_after=_name(state.rank),
        details={
            # The norm result as POST /v1/calc/eru/tournament answers it (ERU 4.2-4.7).
            "rank_before": _name(result.rank_before),
            "rank_source": source,
            "rank_on_list": _name(rank_on_list),
            "rank_remark": remark,
            "evaluated_from": eru.rank_name(norms.rank),
            "games_counted": norms.games_counted,
            "score": float(norms.score),
            "norms": {"keep": float(norms.norms.keep), "up1": _points(norms.norms.up1), "up2": _points(norms.norms.up2)},
            "new_rank": eru.rank_name(norms.new_rank),
            "decision": norms.decision.value,
            "norm_reached": norms.norm_reached,
            "reason": norms.reason,
            "rating_reason": rating.reason,
            # Each game's norm percentages (ERU 4.3) and table change (ERU 4.9), as the calculator answers them.
            "games": [calculator.norm_game_out(game).model_dump(mode="json") for game in norms.games],
            "rating_games": [calculator.rating_game_out(game).model_dump(mode="json") for game in rating.games],
        },
    )


# --- the list's state -------------------------------------------------------------------------------


@dataclass
class _State:
    """A player between tournaments: his rank and rating on this list and what a newcomer needs."""

    rank: int | None = None
    first_rank: int | None = None  # an unranked player's first rank from his seed (INTERPRETATIONS 4.8)
    rating: int | None = None  # his Estonian rating
    rif_rating: int | None = None  # his RIF rating, the base of his Estonian rating until it moves (ERU 4.10)
    rating_bonus: bool = False  # the referee's bonus for his first rating (ERU 4.10)
    games: int = 0  # games counted for his Estonian rating on this list
    tournaments: int = 0
    last_played: dt.date | None = None

    @property
    def listed_rating(self) -> int | None:
        return self.rating if self.rating is not None else self.rif_rating

    def seed(self, seed: Seed) -> None:
        # INTERPRETATIONS 4.14: the seed replaces his rank and rating; his games and last game stay.
        counters = seed.counters or {}
        self.rank = None if seed.title is None else eru.parse_rank(seed.title)
        first = counters.get("first_rank")
        self.first_rank = None if first is None else eru.parse_rank(first)
        self.rating = round(seed.rating) if seed.status == "estonian" else None
        self.rif_rating = round(seed.rating) if seed.status == "rif" else None
        self.rating_bonus = seed.status == "new" and bool(counters.get("rating_bonus"))

    def after(self, result: eru.PlayerResult, last_played: dt.date) -> None:
        # A newcomer holds a rank once a tournament evaluates him; until then he stays unranked
        # (INTERPRETATIONS 4.6, 4.8, 4.13). A ranked player holds the rank the evaluation leaves him.
        if result.rank_before is not None or result.norms.decision is not eru.Decision.NOT_EVALUATED:
            self.rank = result.rank_after
            self.first_rank = None
        if result.rating.rating_after is not None:
            self.rating = result.rating.rating_after
            self.rating_bonus = False
        self.games += result.rating.games_counted
        self.tournaments += 1
        self.last_played = max(last_played, self.last_played or last_played)

    def counters(self) -> dict[str, Any]:
        return {"rating_source": "estonian" if self.rating is not None else "rif", "tournaments": self.tournaments}

    def point(self, player_id: str, day: dt.date, tournament_ids: list[str]) -> Point | None:
        if self.listed_rating is None:
            return None  # a rank alone has no row: the list's rows carry a rating (INTERPRETATIONS 4.15)
        return Point(
            player_id,
            day,
            float(self.listed_rating),
            None,
            self.games,
            STATUS,
            self.last_played,
            title=_name(self.rank),
            counters=self.counters(),
            tournament_ids=tournament_ids,
        )


def _name(rank: int | None) -> str | None:
    return None if rank is None else eru.rank_name(rank)


def _points(value: Fraction | None) -> float | None:
    return None if value is None else float(value)
