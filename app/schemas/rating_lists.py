import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.schemas.common import Date, Identifier, StrictModel, Text

StatusFilter = Literal["active", "inactive", "provisional", "all"]


class RatingListRead(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    name: str
    system: str = Field(description="The rating system (rif-whr, rif-elo, …)")
    category: str
    params: dict = Field(description="The rule system's parameters (WHR: w2, virtual_games, virtual_rating, start_rating)")
    eligibility: dict = Field(description="Which tournaments count: rated flag, minimum time control, certified rules, formats")
    auto_recompute: bool = Field(
        description="A submission or correction of a tournament the list rates queues a recompute of the list"
    )
    current_snapshot_id: int | None


class RatingListSettingsPatch(StrictModel):
    auto_recompute: bool | None = Field(None, description="Recompute the list after each submission it rates")


class RatingRowRead(BaseModel):
    rank: int
    player_id: str
    name: str | None
    country: str | None
    rating: float
    deviation: float | None
    games: int
    last_played: dt.date | None = Field(description="Date of the player's last rated game")
    status: str = Field(
        description="active, inactive or provisional on the list's date (or as_of): WHR (RIF 2021 #10) active = "
        "10 or more rated games and the last one no more than 5 years before; Elo (RIF 1995 #9, INTERPRETATIONS 1.17) "
        "active = an official / established rating and a game (or seed) within 5 years; Olufsen shogi (text 001) "
        "active = established, provisional = provisional or unrated (001 (3)), never inactive; Rivne and ERU: everyone "
        "listed is active"
    )
    title: str | None = Field(None, description="Grade or rank, for systems that award them")
    counters: dict | None = Field(
        None,
        description="The system's own counters (e.g. rif_status for the Elo list; rated_games, category and "
        "pending_grade for the Olufsen list; rating_source and tournaments for the eru list)",
    )


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
    games: int = Field(description="Rated games up to and including this point")
    status: str
    title: str | None = None
    counters: dict | None = None
    tournament_ids: list[str] = Field(description="The tournaments rated into this point (a WHR day can hold several)")


class PlayerHistory(BaseModel):
    player_id: str
    list_id: str
    snapshot_id: int | None
    points: list[HistoryPoint]


class SeedIn(StrictModel):
    player_id: Identifier
    rating: int = Field(ge=0, le=4000)
    status: Text | None = Field(
        None, max_length=20,
        description="The list's system's own status, checked by it (rif-elo: established, official, provisional or unofficial, "
        "by default established; olufsen: established, provisional or unrated (001 (7)); rivne: active; eru: estonian, "
        "rif or new (ERU 4.10), by default estonian)",
    )
    as_of: Date
    title: Text | None = Field(None, max_length=20, description="A grade or rank the player starts from (systems with titles)")
    counters: dict | None = Field(
        None, description="The system's own counters, e.g. rated games so far (olufsen); first_rank and rating_bonus (eru)"
    )


class SeedsIn(StrictModel):
    seeds: list[SeedIn]


class SeedRead(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    player_id: str
    rating: int
    status: str
    as_of: dt.date
    title: str | None = None
    counters: dict | None = None


class SeedsRead(BaseModel):
    list_id: str
    seeds: list[SeedRead]
