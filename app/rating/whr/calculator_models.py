"""The WHR calculator's request and answer (``POST /v1/calc/whr``): the public contract, class names
as the OpenAPI document's schema names."""

import datetime as dt

from pydantic import BaseModel, Field

from app.schemas.common import Date, Identifier, Result, StrictModel

# Work an anonymous caller may ask for in one request (the endpoint is open).
MAX_WHR_CALC_GAMES = 20_000


class WhrGame(StrictModel):
    """One rated game; players are named by id and need no other declaration."""

    black: Identifier = Field(description="Id of the player with black", examples=["2487"])
    white: Identifier = Field(description="Id of the player with white", examples=["2789"])
    result: Result = Field(description="From black's side: B, W or D")
    date: Date = Field(description="The day the game counts on (a tournament's last day)", examples=["2017-10-22"])


class WhrParamsIn(StrictModel):
    """WHR parameters (RIF 2021 #8); the defaults are the rule text's."""

    w2: float = Field(default=12.9, gt=0, le=10_000, description="Rating variance per day, Elo² (rating drift)")
    virtual_games: int = Field(default=2, ge=1, le=100, description="Virtual draws on a player's first day")
    virtual_rating: float = Field(default=1900.0, ge=0, le=4000, description="Rating of the virtual opponent")


class WhrCalcIn(StrictModel):
    """A whole history of games, rated from nothing but itself."""

    games: list[WhrGame] = Field(max_length=MAX_WHR_CALC_GAMES, description="The games, in any order")
    params: WhrParamsIn = Field(default_factory=WhrParamsIn, description="Parameters; the rule text's when omitted")


class WhrPoint(BaseModel):
    """A player's rating on one day he played."""

    date: dt.date = Field(description="The day")
    rating: float = Field(description="Rating at the optimum, Elo scale")
    deviation: float = Field(description="Its standard deviation, Elo")
    games: int = Field(description="Games on that day")


class WhrPlayerOut(BaseModel):
    """One player's ratings over the days he played."""

    id: str = Field(description="The player's id from the games")
    history: list[WhrPoint] = Field(description="One point per day played, in date order")


class WhrCalcOut(BaseModel):
    """Every player's rating history, fitted to all the games at once."""

    players: list[WhrPlayerOut] = Field(description="Every player of the games")
