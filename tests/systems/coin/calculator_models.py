"""The coin's calculator: a player's rating and his games in, his rating after them out."""

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.rating.calculators import Score
from app.schemas.common import Identifier, StrictModel

EXAMPLE: dict[str, Any] = {
    "rating": 1500,
    "games": [{"opponent": "ann", "score": 1}, {"opponent": "bob", "score": 0.5, "side": "tails"}],
}


class CoinGame(StrictModel):
    """One game of the player, won by a toss."""

    opponent: Identifier = Field(description="The opponent's id")
    score: Score = Field(description="The player's score: 1 heads, 0.5 on its edge, 0 tails")
    side: Literal["heads", "tails"] = Field("heads", description="The side the player called")


class CoinOptions(StrictModel):
    """How the coin is tossed."""

    step: float = Field(10.0, ge=1, le=100, description="Points a whole toss moves a rating")
    fair: bool = Field(True, description="The coin is fair (an unfair one rates nothing)")


class CoinIn(StrictModel):
    """A player's rating and the games he tossed."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [EXAMPLE]})

    rating: float = Field(ge=0, le=4000, description="His rating before the games")
    games: list[CoinGame] = Field(max_length=100, description="His games, in any order")
    options: CoinOptions = Field(default_factory=CoinOptions, description="The toss's options")


class CoinOut(BaseModel):
    """The player's rating after his games."""

    rating_after: float = Field(description="His rating after the games")
    change: float = Field(description="What the games changed")
    games_counted: int = Field(description="The games counted")
