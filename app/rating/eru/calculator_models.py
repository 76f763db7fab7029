"""The Estonian norms and rating calculators (text 003): requests and responses."""

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.rating.calculators import Score
from app.schemas.common import Identifier, Result, StrictModel

MAX_NORM_GAMES = 100
MAX_TOURNAMENT_PLAYERS = 500
MAX_TOURNAMENT_GAMES = 10_000

# The text's own example: a 9k against ten 9k opponents needs 6.5 for 8k, 8.0 for 7k, 3.0 to keep 9k.
NORMS_EXAMPLE: dict[str, Any] = {
    "rank": "9k",
    "games": [{"opponent_rank": "9k", "score": 1}] * 6 + [{"opponent_rank": "9k", "score": 0}] * 4,
    "time_control_minutes": 60,
    "recorded": True,
}
TOURNAMENT_EXAMPLE: dict[str, Any] = {
    "time_control_minutes": 60,
    "recorded": True,
    "eru_calendar": True,
    "players": [
        {"id": "ando", "rank": "3d", "estonian_rating": 2050},
        {"id": "tunnet", "rank": "2d", "estonian_rating": 1980},
        {"id": "maris", "rank": "1k", "rif_rating": 1720},
        {"id": "new", "rank": None, "first_rank": "15k", "rating_bonus": True},
    ],
    "games": [
        {"black": "ando", "white": "tunnet", "result": "B"},
        {"black": "maris", "white": "new", "result": "W"},
        {"black": "tunnet", "white": "maris", "result": "D"},
    ],
}


class EruRank(StrEnum):
    """An Estonian kyu/dan rank: 15k (lowest) … 1k, then 1d … 9d (highest); there is no 0k or 0d."""

    KYU_15 = "15k"
    KYU_14 = "14k"
    KYU_13 = "13k"
    KYU_12 = "12k"
    KYU_11 = "11k"
    KYU_10 = "10k"
    KYU_9 = "9k"
    KYU_8 = "8k"
    KYU_7 = "7k"
    KYU_6 = "6k"
    KYU_5 = "5k"
    KYU_4 = "4k"
    KYU_3 = "3k"
    KYU_2 = "2k"
    KYU_1 = "1k"
    DAN_1 = "1d"
    DAN_2 = "2d"
    DAN_3 = "3d"
    DAN_4 = "4d"
    DAN_5 = "5d"
    DAN_6 = "6d"
    DAN_7 = "7d"
    DAN_8 = "8d"
    DAN_9 = "9d"


class EruChampionship(StrEnum):
    """The championships where 9 dan can be achieved (ERU 4.5)."""

    WORLD_CHAMPIONSHIP_AT = "world-championship-at"
    TEAM_WORLD_CHAMPIONSHIP = "team-world-championship"


class EruConditionsIn(StrictModel):
    """The tournament's conditions (ERU 4.5 for ranks, 4.9 for the rating). Each rank band asks for
    its own: 15k–10k an ERU-calendar or referee-accepted tournament; 9k–4k the ERU calendar or an
    international competition, RIF rules, clocks and 15 minutes; 3k–1k 30 minutes and recorded games;
    1d–4d 60 minutes; 5d–6d 90 minutes or 60 minutes + byo-yomi; 7d–8d 120 minutes and 9 games; 9d only
    the World Championship AT or the Team World Championship. Everyone needs 7 games against ranked
    opponents."""

    time_control_minutes: int | None = Field(
        description="Minutes per player on the clock; null: played without clocks", ge=1, le=10_000, examples=[60]
    )
    recorded: bool = Field(description="The games were recorded (needed from 3 kyu up)", examples=[True])
    eru_calendar: bool = Field(default=True, description="The tournament is in the ERU calendar (default true)")
    referee_accepted: bool = Field(
        default=False, description="An ERU referee accepted the tournament (enough for 15k–10k only; default false)"
    )
    international: bool = Field(
        default=False, description="An international competition (counts like the ERU calendar from 9k up; default false)"
    )
    rif_rules: bool = Field(default=True, description="Played under RIF official rules (needed from 9k up; default true)")
    byo_yomi: bool = Field(
        default=False,
        description="The time control is 60 minutes/30 own moves + byo-yomi 10 minutes/10 moves: with at least 60 "
        "minutes it qualifies for 5d–6d (default false)",
    )
    championship: EruChampionship | None = Field(
        default=None,
        description="The World Championship AT or the Team World Championship: the only places for 9d (default none)",
    )
    face_to_face: bool = Field(
        default=True, description="A real-life tournament: only these count for the Estonian rating (default true)"
    )


class EruNormGame(StrictModel):
    """One game of the player: his opponent's rank and his score."""

    opponent_rank: EruRank | None = Field(
        description="The opponent's rank at the tournament's start, in his own federation's scale; null: unranked "
        "(the game does not enter the norm nor the game count)",
        examples=["9k"],
    )
    score: Score = Field(description="1 win, 0.5 draw, 0 loss", examples=[1])


class EruNormsIn(EruConditionsIn):
    """One player's games in one tournament and the tournament's conditions."""

    rank: EruRank = Field(description="The player's rank at the tournament's start", examples=["9k"])
    games: list[EruNormGame] = Field(max_length=MAX_NORM_GAMES, description="Games actually played (at least one move)")

    model_config = ConfigDict(json_schema_extra={"examples": [NORMS_EXAMPLE]})


class EruNorms(BaseModel):
    """The norms in points against these opponents, each rounded up to the half point (INTERPRETATIONS 4.2)."""

    keep: float = Field(description="Points to keep the rank (30 % against the same rank)")
    up1: float | None = Field(description="Points to rise one rank: +1 kyu (65 %) up to 1k, +1 dan (75 %) from 1k; null at 9d")
    up2: float | None = Field(description="Points to rise two kyu (80 %); null where the target would be above 1k")


class EruNormGameOut(BaseModel):
    """What one game adds to each norm (ERU 4.3): the percentage for the opponent's rank relative to the
    player's, 15 points less per rank the opponent is stronger and 15 more per rank he is weaker, at most
    three ranks (INTERPRETATIONS 4.3). A norm is these percentages summed, divided by 100 and rounded up
    to the half point (INTERPRETATIONS 4.2)."""

    opponent_rank: EruRank | None = Field(description="The opponent's rank; null: unranked")
    score: float = Field(description="The player's score in the game: 1, 0.5 or 0")
    counted: bool = Field(description="false: the opponent is unranked and the game is left out (ERU 4.6, INTERPRETATIONS 4.6)")
    keep: int | None = Field(description="Percentage of the keep norm (30 against the same rank); null when not counted")
    up1: int | None = Field(
        description="Percentage of the +1 norm (+1 kyu 65, +1 dan 75 against the same rank); null at 9d or when not counted"
    )
    up2: int | None = Field(
        description="Percentage of the +2 kyu norm (80 against the same rank); null where the target would be above 1k or when not counted"
    )


class EruNormsOut(BaseModel):
    """The player's norms, score and new rank, and why."""

    games_counted: int = Field(description="Games against ranked opponents")
    score: float = Field(description="Points scored in those games")
    norms: EruNorms = Field(
        description="Each norm: the games' percentages for the opponents' ranks summed and rounded up to the half point"
    )
    new_rank: EruRank = Field(description="The rank after the tournament")
    decision: Literal["promoted", "kept", "demoted", "not-evaluated"] = Field(
        description="not-evaluated: fewer than 7 games against ranked opponents, the rank stays"
    )
    norm_reached: Literal["keep", "up1", "up2"] | None = Field(description="The norm that decided; null when none did")
    reason: str = Field(description="The decision, with the rule paragraphs, as a referee reads it")
    games: list[EruNormGameOut] = Field(description="Each game's percentages of the norms, in the order of the games")


class EruRatingGameOut(BaseModel):
    """One game for the Estonian rating (ERU 4.9): the change the RIF appendix table gives at the two
    start ratings (INTERPRETATIONS 4.9)."""

    opponent: str = Field(description="The opponent's id")
    score: float = Field(description="The player's score in the game: 1, 0.5 or 0")
    opponent_rating: int | None = Field(description="The opponent's start rating; null for a new player (INTERPRETATIONS 4.10)")
    difference: int | None = Field(description="|rating − opponent_rating|: the table's row; null when either has no rating")
    change: int | None = Field(
        description="The table's change for this game; null when it does not count (the tournament does not move ratings, "
        "or the player or his opponent is new, ERU 4.10, INTERPRETATIONS 4.10)"
    )


class EruPlayerIn(StrictModel):
    """A player and his rank and ratings before the tournament."""

    id: Identifier = Field(description="The player's id, as the games name him")
    rank: EruRank | None = Field(
        default=None, description="Rank at the tournament's start; null: unranked (a newcomer, or a foreigner without a rank)"
    )
    first_rank: EruRank = Field(
        default=EruRank.KYU_15,
        description="An unranked newcomer's first rank, from which his norms are evaluated (default 15k); his opponents "
        "count him as unranked",
    )
    estonian_rating: int | None = Field(default=None, ge=0, le=4000, description="Estonian rating before the tournament")
    rif_rating: int | None = Field(
        default=None, ge=0, le=4000, description="RIF rating, adopted as the base when there is no Estonian rating yet"
    )
    rating_bonus: bool = Field(
        default=False,
        description="A new player without any rating: the referee adds 50 points per win over a player rated above 1600 "
        "to his first rating (default false)",
    )


class EruGame(StrictModel):
    """One game of the tournament."""

    black: Identifier = Field(description="Black's player id")
    white: Identifier = Field(description="White's player id")
    result: Result = Field(description="From black's side: B black won, W white won, D draw")
    played: bool = Field(
        default=True, description="false: not played (no move made): counts neither for the norms nor for the rating"
    )


class EruTournamentIn(EruConditionsIn):
    """A whole tournament: its conditions, its players' states before it, its games."""

    players: list[EruPlayerIn] = Field(
        max_length=MAX_TOURNAMENT_PLAYERS, description="Every player with his state before the tournament"
    )
    games: list[EruGame] = Field(max_length=MAX_TOURNAMENT_GAMES, description="The tournament's games")

    model_config = ConfigDict(json_schema_extra={"examples": [TOURNAMENT_EXAMPLE]})


class EruSeedCountersOut(BaseModel):
    """What an Estonian seed carries beside the rating, status and rank."""

    first_rank: EruRank | None = Field(description="An unranked player's first rank (INTERPRETATIONS 4.8); null when ranked")
    rating_bonus: bool = Field(description="A new player's first rating takes the referee's bonus (ERU 4.10)")


class EruSeedOut(BaseModel):
    """A player's standing after the tournament as a seed of an Estonian list, as the list's replay
    would leave him: the rank the evaluation gives (an unranked player not evaluated stays unranked),
    the Estonian rating after it (else his RIF rating, else none yet)."""

    rating: int = Field(description="His Estonian rating; his RIF rating (status rif); 1500 for a new player (status new)")
    status: Literal["estonian", "rif", "new"] = Field(description="What the rating is (ERU 4.10)")
    title: EruRank | None = Field(description="His rank after the tournament; null while unranked")
    counters: EruSeedCountersOut = Field(description="His first rank while unranked, and the referee's bonus while new")


class EruPlayerOut(EruNormsOut):
    """One player's norms and new rank, and his Estonian rating before and after."""

    id: str = Field(description="The player's id")
    rank_before: EruRank | None = Field(description="The rank given (null: unranked, evaluated from first_rank)")
    rating_before: int | None = Field(description="The start rating used for every game: Estonian, else the RIF rating")
    rating_after: int | None = Field(description="Estonian rating after the tournament (a newcomer's first rating)")
    change: int | None = Field(description="Sum of the table's per-game changes; null for a newcomer's first rating")
    rating_games_counted: int = Field(description="Games that counted for the Estonian rating")
    rating_reason: str = Field(description="How the Estonian rating was computed, or why it did not move")
    seed: EruSeedOut = Field(
        description="His standing after the tournament as a list's seed: with an `as_of` added, the body of "
        "PUT /v1/rating-lists/{list_id}/seeds/{player_id}"
    )
    rating_games: list[EruRatingGameOut] = Field(
        description="Each game he played, in the order of the request's games (the order of `games`): its change by the table"
    )


class EruTournamentOut(BaseModel):
    """The tournament rated under the Estonian system."""

    system: Literal["eru"] = Field(default="eru", description="The rule system: the Estonian kyu/dan norms and rating")
    players: list[EruPlayerOut] = Field(description="Every player, in the order of the request")
