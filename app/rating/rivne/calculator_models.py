"""The calc envelopes of the Rivne Go club rating (text 004): ``POST /v1/calc/rivne/tournament`` and
``POST /v1/calc/rivne/game``, and the figures of one game they both answer with."""

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from pydantic.config import JsonDict

from app.rating.calculators import Score
from app.schemas.common import Identifier, Result, StrictModel

MAX_PLAYERS = 2_000
MAX_GAMES = 20_000
# Declared Go ranks: 30k … 1k, 1d … 9d (either case, as tournament programs write them).
GoRank = Annotated[str, StringConstraints(pattern=r"^([1-9]|[12][0-9]|30)[kK]$|^[1-9][dD]$")]


class RivnePlayerIn(StrictModel):
    """A player and what was declared for him before the tournament."""

    id: Identifier = Field(description="The player's id, as the games name him", examples=["kravets"])
    rating: float | None = Field(
        default=None,
        ge=0,
        le=3500,
        description="Rating declared at the start of the tournament (fractional). Absent for a newcomer: "
        "his first rating is then suggested from his declared rank (INTERPRETATIONS 5.11).",
    )
    rank: GoRank | None = Field(
        default=None,
        description="Declared rank (30k…1k, 1d…9d): needed in handicap games (Kf, fairness of a handicap above 9) "
        "and for a newcomer without a rating",
    )


class RivneGameIn(StrictModel):
    """One game: its round, players, result, board and handicap."""

    round: int = Field(ge=1, le=1000, description="Round number; games of one round are simultaneous")
    black: Identifier = Field(description="Id of the player who had black (who received the handicap stones)")
    white: Identifier = Field(description="Id of the player who had white")
    result: Result = Field(description="From black's side: B black won, W white won, D draw")
    board_size: Literal[9, 13, 19] = Field(default=19, description="Kd: 19×19 → 1, 13×13 → 1/2, 9×9 → 1/3")
    handicap: int = Field(default=0, ge=0, le=20, description="Stones black received: 0 even, 1 no komi, N ≥ 2 stones")
    played: bool = Field(default=True, description="false: won or lost by default; never rated")


EXAMPLE: dict[str, Any] = {
    "players": [
        {"id": "kravets", "rating": 2380, "rank": "4d"},
        {"id": "melnyk", "rating": 2150, "rank": "1d"},
        {"id": "bondar", "rating": 1720, "rank": "4k"},
        {"id": "novak", "rank": "10k"},
    ],
    "games": [
        {"round": 1, "black": "melnyk", "white": "kravets", "result": "W", "handicap": 3},
        {"round": 1, "black": "novak", "white": "bondar", "result": "B", "handicap": 6},
        {"round": 2, "black": "bondar", "white": "melnyk", "result": "W", "handicap": 4},
        {"round": 2, "black": "novak", "white": "kravets", "result": "W", "board_size": 13, "handicap": 9},
    ],
}


class RivneTournamentIn(StrictModel):
    """Each player with his rating declared before the tournament (or his declared rank alone for a
    newcomer); each game with its round, board size and handicap. A player need not play every round."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [EXAMPLE]})

    players: list[RivnePlayerIn] = Field(
        min_length=1, max_length=MAX_PLAYERS, description="Every player of the games, with his declared rating or rank"
    )
    games: list[RivneGameIn] = Field(max_length=MAX_GAMES, description="The tournament's games, in any order")


class RivneGameFiguresOut(BaseModel):
    """One player's figures in one game, named as text 004 names them: what formula (5) computed.

    Where the rule for players below 100 replaces (5) for this player (INTERPRETATIONS 5.8), `SE`, `a`,
    `delta_R`, `K1`, `K2`, `Kf` and `bonus` are null and `change` is the points of that rule."""

    round: int = Field(description="The round of the game (1 in the single-game calculator)")
    game: int = Field(description="The game's index in the request's `games` (0 in the single-game calculator)")
    opponent: str = Field(description="The opponent's id (`black` or `white` in the single-game calculator)")
    colour: Literal["black", "white"] = Field(description="black received the handicap stones")
    player_A: bool = Field(description="He is player A of (1), the lower-rated by start rating (INTERPRETATIONS 5.2)")
    R: Score = Field(description="R of (5): the result, 1 win, 0.5 draw, 0 loss")
    start_rating: float = Field(description="His rating declared before the tournament: what (1) uses (004)")
    Rc: float = Field(description="Rc of (5): his current rating before the round, which (4), (5), (6) and Table I use")
    correction: float = Field(
        description="(7) N·100 − 50 added to his start rating in (1) when he received N ≥ 1 handicap stones; 0 otherwise"
    )
    delta_R: float | None = Field(
        description="(1) ΔR = RB − RA of the game, RA# of (7) for black; on one scale when a player is below 100 "
        "(below 100 ×10, else +900, 004); null when a fair handicap above 9 fixes SE at 0.5 (7)"
    )
    a: float | None = Field(
        description="(4) a = 205 − RA′/20, RA′ the lower-rated player's current rating, held at 2700 (INTERPRETATIONS 5.3)"
    )
    SE: float | None = Field(description="His win expectancy: SE(A) of (2) for player A, SE(B) = 1 − SE(A) of (3)")
    K1: float | None = Field(description="Development coefficient: Table I at Rc, linear between rows (INTERPRETATIONS 5.3)")
    K2: float | None = Field(description="(6) K2 = (3100 − Rc)/50000: the bonus points of a game played")
    Kf: float | None = Field(
        description="Handicap coefficient of (5): 1, or for the higher-rated player of a handicap game 1 − 0.1 per rank of difference, at least 0.1 (INTERPRETATIONS 5.5)"
    )
    Kd: float = Field(description="Board size coefficient of (5): 19×19 → 1, 13×13 → 1/2, 9×9 → 1/3")
    bonus: float | None = Field(description="Kd·Kf·K1·K2: the part of his change that K2 gives (INTERPRETATIONS 5.4)")
    table_III: float = Field(description="Table III extra points of a win by a player below 100; 0 otherwise")
    change: float = Field(
        description="(5) Kd·Kf·K1·(R − SE + K2), unrounded, or the points of a player below 100 (004), before the "
        "round's crossing of 100 is counted ×10 (INTERPRETATIONS 5.10)"
    )


class RivneRoundOut(BaseModel):
    """The player's rating after one round he played."""

    round: int = Field(description="The round number")
    rating_after: float = Field(description="His rating after the round, unrounded")
    change: float = Field(description="What the round changed, unrounded")


class RivneSeedOut(BaseModel):
    """The player's rating after the tournament as a seed of a Rivne list."""

    rating: float = Field(description="rating_after, unrounded (the list keeps fractions, INTERPRETATIONS 5.10)")
    status: Literal["active"] = Field(default="active", description="The list's only status")
    title: str | None = Field(description="His declared rank, as given")


class RivnePlayerOut(BaseModel):
    """What the tournament did to one player."""

    id: str = Field(description="The player's id from the request")
    newcomer: bool = Field(description="No rating was given: rating_before is suggested from the declared rank")
    rank: str | None = Field(description="His declared rank, as given")
    rating_before: float = Field(description="The declared start rating (or a newcomer's suggested first rating)")
    start_rating: float = Field(description="Start of the final pass: differs from rating_before after an anomaly restart")
    rating_after: float = Field(description="Unrounded (INTERPRETATIONS 5.10: ratings stay fractional)")
    rating_after_display: int = Field(description="rating_after rounded half away from zero, for display")
    change: float = Field(description="rating_after − rating_before")
    games_played: int = Field(description="Games he played (games not played are left out)")
    extra_points: float = Field(description="Table III points collected while below 100")
    rounds: list[RivneRoundOut] = Field(description="The rounds the player played, each with its change")
    games: list[RivneGameFiguresOut] = Field(description="His games of the final pass, by round, with every figure of (1)–(7)")
    seed: RivneSeedOut = Field(
        description="His standing after the tournament as a list's seed: with an `as_of` added, the body of "
        "PUT /v1/rating-lists/{list_id}/seeds/{player_id}"
    )


class RivneAnomalousOut(BaseModel):
    """A player whose result the pass found anomalous (004 (8))."""

    id: str = Field(description="The player's id")
    start_rating: float = Field(description="His start rating in this pass")
    rating_after: float = Field(description="His rating after this pass")
    limit: float | None = Field(description="ΔRmax of (8); null when the below-100 check (extra points) found it")
    extra_points: float = Field(description="Table III points collected while below 100 in this pass")
    restart_rating: float = Field(description="The start rating of this player in the next pass")


class RivnePassStandingOut(BaseModel):
    """One player in one pass, with the check (8) made on him."""

    id: str = Field(description="The player's id")
    start_rating: float = Field(description="His start rating in this pass")
    rating_after: float = Field(description="His rating after this pass, unrounded")
    games_played: int = Field(description="n of (8): the games he played")
    limit: float | None = Field(
        description="ΔRmax = 0.45·n·K1·(1 + K2) of (8), K1 and K2 at his start rating; null when (8) is not made on him "
        "(a tournament with handicap games, a start below 100, no game played)"
    )
    extra_points: float = Field(description="Table III points he collected while below 100 in this pass")
    anomalous: bool = Field(
        description="His result is anomalous: rating_after − start_rating > limit, or the extra points of 004"
    )


class RivneAnomalyPassOut(BaseModel):
    """One computation of the whole tournament and the anomalous results it found."""

    number: int = Field(description="1 for the first pass")
    anomalous: list[RivneAnomalousOut] = Field(description="Empty in the final pass")
    players: list[RivnePassStandingOut] = Field(
        description="Every player of this pass with the limit (8), in the order of the request"
    )


class RivneTournamentOut(BaseModel):
    """The tournament rated under the Rivne club rating."""

    system: Literal["rivne"] = Field(default="rivne", description="The rule system: the Rivne Go club rating")
    handicap_games: bool = Field(description="The tournament has handicap games: the check (8) is not made (004)")
    anomaly_passes: list[RivneAnomalyPassOut] = Field(description="Every pass that ran; the last is the result")
    players: list[RivnePlayerOut] = Field(description="Every player, in the order of the request")


class RivneGamePlayerIn(StrictModel):
    """One player of the game: his rating (and rank, needed in a handicap game)."""

    rating: float = Field(
        ge=0, le=3500, description="His rating before the game, fractional; it is both his start and current rating"
    )
    rank: GoRank | None = Field(
        default=None, description="Declared rank (30k…1k, 1d…9d): needed when the handicap is 1 or more (Kf, 004)"
    )


GAME_EXAMPLE: dict[str, Any] = {"rating": 1500, "opponent_rating": 1600, "score": 1}

# The single game's older form (black, white, result), taken still and marked deprecated in the contract;
# a body gives one form or the other, whole (issue 44 item 5).
FORM_NOW = ("rating", "opponent_rating", "score")
FORM_NOW_OPTIONAL = ("rank", "opponent_rank", "colour")
FORM_DEPRECATED = ("black", "white", "result")
SingleGameRating = Annotated[float, Field(ge=0, le=3500)]


# The fields a form requires take no null in the contract, and the service refuses one (rivne.calculator),
# so that a body the schema allows is one the service takes. Not
# pydantic's SkipJsonSchema[None]: it makes the field a union, whose errors name each member tried.
def _null_left_out(schema: JsonDict) -> None:
    members = schema.pop("anyOf", None)
    if isinstance(members, list):
        kept = [member for member in members if member != {"type": "null"}]
        if len(kept) == 1 and isinstance(kept[0], dict):
            schema.update(kept[0])
        else:
            schema["anyOf"] = kept


def _deprecated_null_left_out(schema: JsonDict) -> None:
    # Deprecated in the schema only: pydantic's Field(deprecated=...) would also warn each time the
    # service itself reads the field to turn the older form into today's.
    _null_left_out(schema)
    schema["deprecated"] = True


def _single_game_schema(schema: JsonDict) -> None:
    """Its example, and JSON Schema's statement of what the service checks: today's form or the older
    one, whole, not both."""
    schema["examples"] = [GAME_EXAMPLE]
    schema["oneOf"] = [
        {"required": list(FORM_NOW), "not": {"anyOf": [{"required": [name]} for name in FORM_DEPRECATED]}},
        {
            "required": list(FORM_DEPRECATED),
            "not": {"anyOf": [{"required": [name]} for name in FORM_NOW + FORM_NOW_OPTIONAL]},
        },
    ]


class RivneSingleGameIn(StrictModel):
    """One game alone under formula (5): no tournament around it, so no anomaly check (8). Given as the
    RIF Elo game calculator takes one: the player's rating, his opponent's and his score, and here his
    colour (black receives the handicap stones) and both declared ranks. The older form, black's and
    white's ratings with the result from black's side, is still taken (deprecated); not both in one body."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_single_game_schema)

    rating: SingleGameRating | None = Field(
        default=None,
        description="The player's rating before the game, fractional (his start and current rating)",
        json_schema_extra=_null_left_out,
    )
    opponent_rating: SingleGameRating | None = Field(
        default=None,
        description="The opponent's rating before the game, fractional",
        json_schema_extra=_null_left_out,
    )
    score: Score | None = Field(
        default=None, description="The player's score: 1 win, 0.5 draw (jigo), 0 loss", json_schema_extra=_null_left_out
    )
    colour: Literal["black", "white"] | None = Field(
        default=None,
        description="The player's colour; black receives the handicap stones. Needed when the handicap is 1 or more "
        "(default black in an even game, where colour changes nothing)",
    )
    rank: GoRank | None = Field(
        default=None, description="The player's declared rank (30k…1k, 1d…9d): needed when the handicap is 1 or more (Kf, 004)"
    )
    opponent_rank: GoRank | None = Field(
        default=None, description="The opponent's declared rank: needed when the handicap is 1 or more (Kf, 004)"
    )
    board_size: Literal[9, 13, 19] = Field(default=19, description="Kd: 19×19 → 1, 13×13 → 1/2, 9×9 → 1/3")
    handicap: int = Field(default=0, ge=0, le=20, description="Stones black received: 0 even, 1 no komi, N ≥ 2 stones")
    black: RivneGamePlayerIn | None = Field(
        default=None,
        description="Deprecated (use rating, rank and colour): the player who had black",
        json_schema_extra=_deprecated_null_left_out,
    )
    white: RivneGamePlayerIn | None = Field(
        default=None,
        description="Deprecated (use opponent_rating and opponent_rank): the player who had white",
        json_schema_extra=_deprecated_null_left_out,
    )
    result: Result | None = Field(
        default=None,
        description="Deprecated (use score): from black's side, B black won, W white won, D draw",
        json_schema_extra=_deprecated_null_left_out,
    )


class RivneSingleGameSideOut(RivneGameFiguresOut):
    """One player of the game: his figures and his rating after it."""

    rating_before: float = Field(description="His rating before the game, as given")
    rating_after: float = Field(description="Rn of (5), unrounded (INTERPRETATIONS 5.10: ratings stay fractional)")
    rating_after_display: int = Field(description="rating_after rounded half away from zero, for display")


class RivneSingleGameOut(BaseModel):
    """One game rated under the Rivne club rating, every intermediate of text 004 shown."""

    system: Literal["rivne"] = Field(default="rivne", description="The rule system: the Rivne Go club rating")
    black: RivneSingleGameSideOut = Field(description="Black's figures and rating after the game")
    white: RivneSingleGameSideOut = Field(description="White's figures and rating after the game")
