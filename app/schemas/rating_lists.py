import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.schemas.common import Identifier, StrictModel

StatusFilter = Literal["active", "inactive", "provisional", "all"]


class RatingListRead(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    name: str
    system: str = Field(description="rif-whr or rif-elo")
    category: str
    params: dict = Field(description="The rule system's parameters (WHR: w2, virtual_games, virtual_rating, start_rating)")
    eligibility: dict = Field(description="Which tournaments count: rated flag, minimum time control, certified rules, formats")
    current_snapshot_id: int | None


class WhrParamsPatch(StrictModel):
    w2: float | None = Field(None, gt=0, description="Elo² per day (RIF: 12.9)")
    virtual_games: int | None = Field(None, ge=0, le=100)
    virtual_rating: float | None = None
    start_rating: float | None = None


class EloParamsPatch(StrictModel):
    bootstrap_rating: int | None = Field(
        None, ge=0, le=4000, description="INTERPRETATIONS 1.18 option: a rating given to every player of the earliest tournaments nobody holds a rating in"
    )
    switch_to_1997: dt.date | None = None
    last_day: dt.date | None = None


class RatingRowRead(BaseModel):
    rank: int
    player_id: str
    name: str | None
    country: str | None
    rating: float
    deviation: float | None
    games: int
    last_played: dt.date | None
    status: str


class RatingsPage(BaseModel):
    list_id: str
    snapshot_id: int | None
    list_date: dt.date | None
    as_of: dt.date | None
    items: list[RatingRowRead]
    total: int
    limit: int
    offset: int


class SnapshotRead(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    list_id: str
    list_date: dt.date
    created_at: dt.datetime
    job_id: int | None
    params: dict
    players: int
    games: int
    tournaments: int
    notes: list
    current: bool = False


class HistoryPoint(BaseModel):
    date: dt.date
    rating: float
    deviation: float | None
    games: int


class PlayerHistory(BaseModel):
    player_id: str
    list_id: str
    snapshot_id: int | None
    points: list[HistoryPoint]


class SeedIn(StrictModel):
    player_id: Identifier
    rating: int = Field(ge=0, le=4000)
    status: Literal["established", "official", "provisional", "unofficial"] = "established"
    as_of: dt.date


class SeedsIn(StrictModel):
    seeds: list[SeedIn]


class SeedRead(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    player_id: str
    rating: int
    status: str
    as_of: dt.date


class SeedsRead(BaseModel):
    list_id: str
    seeds: list[SeedRead]
