"""Request and response models of the Olufsen shogi calc endpoints (text 001) and of the general
performance-rating calculation."""

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.rating.calculators import Score
from app.schemas.common import Identifier, Result, StrictModel

GradeName = Literal[
    "15k", "14k", "13k", "12k", "11k", "10k", "9k", "8k", "7k", "6k", "5k", "4k", "3k", "2k", "1k",
    "1d", "2d", "3d", "4d", "5d", "6d",
]  # fmt: skip
CategoryName = Literal["unrated", "provisional", "established"]
RouteName = Literal["UB", "LB", "MP", "bound-to-get-it"]

MAX_PLAYERS = 2_000
MAX_GAMES = 20_000
MAX_RECORDED_RESULTS = 1_000


class RecordedResultIO(StrictModel):
    """One recorded result of an unrated player (001 (6)): whom he met and what he scored."""

    opponent_rating: float = Field(
        ge=0, le=4000, description="The opponent's post-event rating of that table, as published (001 (6))"
    )
    score: Score = Field(description="1 win, 0.5 draw, 0 loss")
    dummy: bool = Field(
        default=False, description="One of the two prior-grade results of 001 (7): enters the performance, is not a rated game"
    )


class StreakIO(StrictModel):
    """The player's current runs of games above one higher grade's bounds (001 (12), (13))."""

    grade: GradeName = Field(description="The grade whose LB and MP these runs are counted against")
    games_above_lower_bound: int = Field(
        ge=0, le=100_000, description="Consecutive games, up to the last one, strictly above the grade's LB"
    )
    games_above_midpoint: int = Field(
        ge=0, le=100_000, description="Consecutive games, up to the last one, strictly above the grade's MP"
    )
    midpoint_in_lower_bound_run: bool = Field(description="The LB run holds at least one game above MP (001 (12) LB route)")


class OlufsenPlayerIn(StrictModel):
    """A player's state before the table. Send back the `state` of the previous response unchanged."""

    id: Identifier = Field(description="The player's id, unique in the request")
    rating: int | None = Field(default=None, ge=0, le=4000, description="Published rating; none before the first table")
    rated_games: int = Field(default=0, ge=0, le=100_000, description="Rated games before this table (dummy results excluded)")
    category: CategoryName = Field(
        default="unrated",
        description="Category after the player's last table (001 (3) counted without a next table): "
        "provisional needs 9-17 rated games, established 18 or more",
    )
    prior_results: list[RecordedResultIO] = Field(
        default_factory=list,
        max_length=MAX_RECORDED_RESULTS,
        description="An unrated player's recorded results (001 (6)); empty for provisional and established "
        "players. A newcomer (no rated games, no results) with a `grade` gets the two prior-grade "
        "dummy results of 001 (7) added",
    )
    grade: GradeName | None = Field(default=None, description="Grade held (15k ... 1k, 1d ... 6d); grades are never lost")
    pending_grade: Literal["5d", "6d"] | None = Field(
        default=None, description="A 5 or 6 dan earned and awaiting Nihon Shogi Renmei's approval (001 (12))"
    )
    streaks: list[StreakIO] = Field(
        default_factory=list,
        max_length=21,
        description="Runs of games above the LB and MP of grades above the one held (001 (12), (13))",
    )


class OlufsenGameIn(StrictModel):
    """One game of the table."""

    id: Identifier | None = Field(default=None, description="The submitter's game id")
    black: Identifier = Field(description="Black's (sente's) player id")
    white: Identifier = Field(description="White's (gote's) player id")
    result: Result = Field(description="From black's side: B black won, W white won, D draw")
    round: str | None = Field(default=None, max_length=20, description='Round label: "1", "2", … or "T" for a play-off')
    played: bool = Field(default=True, description="false: a walkover or a game not played; never rated (001 (4))")
    handicap: int | None = Field(default=None, ge=0, le=10, description="Shogi handicap level; 0 or none is an even game")
    rated: bool = Field(
        default=True, description="false: listed but not rated. Handicap games must say false (001 has no rules for them)"
    )


class OlufsenOptionsIn(StrictModel):
    """The choices the rule text leaves open (INTERPRETATIONS 2.15, 2.17); both off by default."""

    provisional_highest_grade: bool = Field(
        default=False,
        description="INTERPRETATIONS 2.15 option: a provisional player gets the highest grade whose UB he "
        "reached instead of one grade per table",
    )
    fesa: bool = Field(
        default=False,
        description="INTERPRETATIONS 2.17 option: FESA additions, opponents below 400 count as 400 and a win "
        "gives k(or - tr)/160 when that is larger",
    )


TOURNAMENT_EXAMPLE: dict[str, Any] = {
    "players": [
        {"id": "andersen", "rating": 1843, "rated_games": 61, "category": "established", "grade": "2d"},
        {"id": "berg", "rating": 1604, "rated_games": 12, "category": "provisional", "grade": "2k"},
        {
            "id": "dahl",
            "rating": 1388,
            "rated_games": 33,
            "category": "established",
            "grade": "4k",
            "streaks": [
                {
                    "grade": "3k",
                    "games_above_lower_bound": 4,
                    "games_above_midpoint": 0,
                    "midpoint_in_lower_bound_run": False,
                }
            ],
        },
        {"id": "eriksen", "grade": "4k"},
    ],
    "games": [
        {"round": "1", "black": "andersen", "white": "eriksen", "result": "B"},
        {"round": "1", "black": "berg", "white": "dahl", "result": "W"},
        {"round": "2", "black": "dahl", "white": "andersen", "result": "W"},
        {"round": "2", "black": "eriksen", "white": "berg", "result": "D"},
        {"round": "3", "black": "andersen", "white": "berg", "result": "B"},
        {"round": "3", "black": "dahl", "white": "eriksen", "result": "B"},
    ],
}


class OlufsenTournamentIn(StrictModel):
    """One table: every player with his state before it, and its games."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [TOURNAMENT_EXAMPLE]},
    )

    players: list[OlufsenPlayerIn] = Field(
        max_length=MAX_PLAYERS, description="Every player of the table with his state before it"
    )
    games: list[OlufsenGameIn] = Field(
        max_length=MAX_GAMES, description="The table's games; at most 16 rated games per player (001 (13))"
    )
    options: OlufsenOptionsIn = Field(default_factory=OlufsenOptionsIn, description="The options INTERPRETATIONS 2 leaves open")


class PromotionOut(BaseModel):
    """A grade earned in this table, and by which route of 001 (12)."""

    grade: GradeName = Field(description="The grade earned")
    route: RouteName = Field(description="UB reached, MP or LB streak, or bound to get it (001 (12))")
    pending_approval: bool = Field(description="5 and 6 dan wait for Nihon Shogi Renmei's approval")


class OlufsenGameFiguresOut(BaseModel):
    """One game of the player in the table, with every factor of 001 (1), (8), (9) and (10). For a
    player rated by his performance (unrated, 001 (6)) the factors are null."""

    opponent: str = Field(description="The opponent's id")
    score: float = Field(description="res of (1): 1 win, 0.5 draw, 0 loss")
    opponent_rating: float = Field(
        description="or of (1): the opponent's post-event rating (001 (8)), unrounded; at least 400 with the FESA option"
    )
    k: int | None = Field(description="k(tr) of (1): the K band of the player's pre-table rating (INTERPRETATIONS 2.2)")
    expected: float | None = Field(description="The expected score 1/(1 + 10^((or − tr)/400)) of (1)")
    d: float | None = Field(
        description="d = k(res − expected) of (1), unrounded; with the FESA option the upset formula k(or − tr)/160 when larger"
    )
    opponent_factor: float | None = Field(
        description="(10): (1 + n/18)/2 when the opponent has n < 18 rated games including this table, else 1"
    )
    provisional_factor: float | None = Field(
        description="(9): 18/n for a provisional player, n his games including this table; else 1"
    )
    change: float | None = Field(description="d × (10) × (9): this game's share of the change before the bonus of (11)")


class OlufsenSeedCountersOut(BaseModel):
    """What an Olufsen seed carries beside the rating, status and grade."""

    rated_games: int = Field(description="Rated games so far (001 (3))")
    pending_grade: Literal["5d", "6d"] | None = Field(description="A grade awaiting Nihon Shogi Renmei's approval (001 (12))")
    streaks: list[StreakIO] = Field(description="The runs toward a grade (001 (12))")
    prior_results: list[RecordedResultIO] = Field(description="An unrated player's recorded results (001 (6))")


class OlufsenSeedOut(BaseModel):
    """A player's state after the table as a seed of an Olufsen list."""

    rating: int = Field(description="His rating after the table")
    status: CategoryName = Field(description="His category after the table (001 (3))")
    title: GradeName | None = Field(description="His grade after the table")
    counters: OlufsenSeedCountersOut = Field(description="His counters after the table")


class OlufsenPlayerOut(BaseModel):
    """What the table did to one player, and his state for the next table."""

    id: str = Field(description="The player's id")
    category: CategoryName = Field(description="The category this table rated him in (001 (3), this table's games counted)")
    games: int = Field(description="Rated games in this table")
    score: float = Field(description="Points in those games")
    rating_before: int | None = Field(description="Rating before the table")
    rating_after: int | None = Field(description="Rating after the table: rounded once (INTERPRETATIONS 2.1)")
    change: int | None = Field(description="rating_after − rating_before; none for a first rating")
    change_unrounded: float | None = Field(description="The change after (9), (10) and (11), before rounding")
    rating_after_unrounded: float | None = Field(description="The post-event rating the table's equations converged to")
    category_after: CategoryName = Field(description="The category held after the table (send it next time)")
    performance_rating: float | None = Field(
        description="This table's performance against post-event ratings as (11) uses it; at 100 % with the "
        "dummy draw of (6); none at 0 %"
    )
    bonus_applied: float = Field(description="Points added by the bonus of (11) after its cap")
    bonus_capped: bool = Field(description="The bonus stopped at the performance rating")
    change_before_bonus: float | None = Field(
        description='The sum of the games\' changes: the change "in the normal way" of (11); null for an unrated player'
    )
    bonus_threshold: float | None = Field(description="T = 20 + 3n of (11), n his games in the table; null for an unrated player")
    change_with_uncapped_bonus: float | None = Field(
        description="(11) 2·change − T when the change exceeds T, before the cap at the performance rating "
        "(INTERPRETATIONS 2.10); null when no bonus applies"
    )
    game_figures: list[OlufsenGameFiguresOut] = Field(
        description="His games in the order of the request's games, each with its factors"
    )
    grade_before: GradeName | None = Field(description="Grade held before the table")
    grade_after: GradeName | None = Field(description="Grade held after the table")
    pending_grade_after: GradeName | None = Field(description="5 or 6 dan awaiting approval")
    promotions: list[PromotionOut] = Field(description="Grades earned in this table")
    state: OlufsenPlayerIn = Field(description="The exact object to send as this player's input for his next table")
    seed: OlufsenSeedOut | None = Field(
        description="The same state as a list's seed: with an `as_of` added, the body of "
        "PUT /v1/rating-lists/{list_id}/seeds/{player_id}; null while he has no rating"
    )


class OlufsenTournamentOut(BaseModel):
    """The table rated under the Olufsen rules."""

    system: Literal["olufsen"] = Field(default="olufsen", description="The rule system")
    precision: float = Field(description="The table's equations were iterated until the largest change was below this")
    players: list[OlufsenPlayerOut] = Field(description="One entry per player, in the request's order")


class PerformanceResultIn(StrictModel):
    """One result: the opponent's rating and the score."""

    opponent_rating: float = Field(ge=-10_000, le=10_000, description="The opponent's rating")
    score: Score = Field(description="1 win, 0.5 draw, 0 loss")


PERFORMANCE_EXAMPLE: dict[str, Any] = {
    "results": [
        {"opponent_rating": 1843, "score": 0},
        {"opponent_rating": 1604, "score": 1},
        {"opponent_rating": 1388, "score": 0.5},
    ]
}


class PerformanceIn(StrictModel):
    """The results rated together, and the Elo scale to rate them on."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [PERFORMANCE_EXAMPLE]},
    )

    results: list[PerformanceResultIn] = Field(min_length=1, max_length=10_000, description="The results rated together")
    base: float = Field(default=10.0, ge=2, le=100, description="Base of the expectation: 10 for 001 (and FIDE), 2 for RIF Elo")
    scale: float = Field(
        default=400.0, ge=10, le=10_000, description="Rating difference per power of the base: 400 for 001, 120 for RIF Elo"
    )


class PerformanceOut(BaseModel):
    """The performance rating of the results."""

    performance_rating: float = Field(description="The unique P with Σ 1/(1 + base^((or − P)/scale)) = score (001 (5))")
    rounded: int = Field(description="performance_rating rounded half away from zero")
    games: int = Field(description="Number of results")
    score: float = Field(description="Points scored")
    precision: float = Field(description="performance_rating is within this of the exact root")
    method: str = Field(description="How the root was found")
