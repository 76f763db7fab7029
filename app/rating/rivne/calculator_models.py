"""The calc envelope of the Rivne Go club rating (text 004): ``POST /v1/calc/rivne/tournament``."""

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from app.schemas.common import Identifier, StrictModel
from app.schemas.tournaments import Result

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


class RivneRoundOut(BaseModel):
    """The player's rating after one round he played."""

    round: int = Field(description="The round number")
    rating_after: float = Field(description="His rating after the round, unrounded")
    change: float = Field(description="What the round changed, unrounded")


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


class RivneAnomalousOut(BaseModel):
    """A player whose result the pass found anomalous (004 (8))."""

    id: str = Field(description="The player's id")
    start_rating: float = Field(description="His start rating in this pass")
    rating_after: float = Field(description="His rating after this pass")
    limit: float | None = Field(description="ΔRmax of (8); null when the below-100 check (extra points) found it")
    extra_points: float = Field(description="Table III points collected while below 100 in this pass")
    restart_rating: float = Field(description="The start rating of this player in the next pass")


class RivneAnomalyPassOut(BaseModel):
    """One computation of the whole tournament and the anomalous results it found."""

    number: int = Field(description="1 for the first pass")
    anomalous: list[RivneAnomalousOut] = Field(description="Empty in the final pass")


class RivneTournamentOut(BaseModel):
    """The tournament rated under the Rivne club rating."""

    system: Literal["rivne"] = Field(default="rivne", description="The rule system: the Rivne Go club rating")
    handicap_games: bool = Field(description="The tournament has handicap games: the check (8) is not made (004)")
    anomaly_passes: list[RivneAnomalyPassOut] = Field(description="Every pass that ran; the last is the result")
    players: list[RivnePlayerOut] = Field(description="Every player, in the order of the request")
