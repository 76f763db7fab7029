import datetime as dt

from pydantic import BaseModel, ConfigDict, Field

from app.schemas.common import MAX_DATABASE_ID, Date, DisplayText, StrictModel
from app.schemas.rating_lists import RatingRowRead


class PublicationIn(StrictModel):
    """A list to publish: as of which day, under which title, from which snapshot."""

    date: Date = Field(
        description="The day the list is published as of (its ratings and statuses are read on that day from the snapshot's "
        "history); not in the future, and not before the list's latest publication",
        examples=["2019-12-31"],
    )
    title: DisplayText = Field(
        min_length=1, max_length=200, description="Its title for people", examples=["RIF rating list, July 2026"]
    )
    snapshot_id: int | None = Field(
        None,
        ge=1,
        le=MAX_DATABASE_ID,
        description="The list's snapshot to publish (`GET /v1/rating-lists/{list_id}/snapshots`); by default its current one",
    )


class WithdrawnTournament(BaseModel):
    """A withdrawn tournament a departure names."""

    tournament_id: str = Field(description="The tournament")
    name: str = Field(description="Its name")
    withdrawn_reason: str | None = Field(description="Why it was withdrawn, as the withdrawal said")


class Departure(BaseModel):
    """A player of the previous publication who is not on this one, or no longer active, and why."""

    player_id: str = Field(description="The player")
    name: str | None = Field(description="His name as the previous publication showed it")
    country: str | None = Field(description="His country as the previous publication showed it")
    previous_rating: float = Field(description="His rating in the previous publication")
    previous_rank: int = Field(description="His place in the previous publication, among its players of his status there")
    previous_status: str = Field(description="His status in the previous publication")
    reason: str = Field(
        description="Why, as a code from an open set (a client shows an unknown one by its `detail`): "
        "`tournament_withdrawn` (no row any more: his only rated games in the previous publication were in tournaments "
        "withdrawn since, named in `tournaments`), `not_on_list` (no row any more: none of his rated games counts now), "
        "`became_inactive` (on this publication as inactive)"
    )
    detail: str = Field(description="The reason in words")
    tournaments: list[WithdrawnTournament] = Field(
        [], description="The withdrawn tournaments of `tournament_withdrawn` (empty for the other reasons)"
    )


class PublicationRead(BaseModel):
    """A publication of a rating list: its rows as of a day, numbered, never changed."""

    model_config = ConfigDict(from_attributes=True)

    list_id: str = Field(description="The rating list")
    number: int = Field(description="Its number among the list's publications, from 1")
    date: dt.date = Field(description="The day the list was published as of")
    title: str = Field(description="Its title")
    snapshot_id: int = Field(description="The snapshot it was read from (kept for as long as the publication)")
    previous_number: int | None = Field(description="The publication its changes are against; null for the first")
    scheduled_for: dt.date | None = Field(
        description="The list's scheduled day the service published it for by itself; null when published by hand"
    )
    published_by: str = Field(description="The name of the API key that published it (`schedule` for the service itself)")
    created_at: dt.datetime = Field(description="When it was published")
    players: int = Field(description="Its rows: every player with a rating on its day, whatever his status")
    left: list[Departure] = Field(description="Who left the list since the previous publication, and why")


class PublicationRatingsPage(BaseModel):
    """One page of a publication's rows, each with the player's standing in the previous publication."""

    list_id: str = Field(description="The rating list")
    number: int = Field(description="The publication")
    date: dt.date = Field(description="The day it was published as of")
    title: str = Field(description="Its title")
    previous_number: int | None = Field(description="The publication the rows are compared with; null for the first")
    items: list[RatingRowRead] = Field(description="The page's players, best first")
    total: int = Field(description="Players the query selects, over all pages")
    limit: int = Field(description="Page size asked for")
    offset: int = Field(description="Players skipped before this page")
