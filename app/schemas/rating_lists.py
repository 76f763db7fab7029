import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

from app.schemas.common import Date, DisplayText, Identifier, StrictModel
from app.schemas.players import Gender
from app.schemas.systems import described, list_params, seed_counters, seed_rating, seed_status, system_ids
from app.schemas.tournaments import CHANGE_AS_SHOWN, CHANGE_UNROUNDED, change_as_shown_of

StatusFilter = Literal["active", "inactive", "provisional", "all"]
# The women's (f) or men's (m) list as a filter of any list (issue 24 item 5).
GenderFilter = Gender  # either case, as a player's gender is written
GENDER_FILTER_DESCRIPTION = (
    "F (or f): only women (the women's list), M (or m): only men; the gender as the player's record has it now"
)
# A row's change since a publication: a number, or a marker instead of one.
Change = float | Literal["new", "returned"] | None


STALE_SINCE_DESCRIPTION = (
    "When the list's inputs first changed, after its current snapshot read them, by a change that queued no "
    "recompute of it (RFC 3339, UTC): a tournament it rates submitted, corrected, withdrawn, restored or imported while "
    "it does not recompute itself (`auto_recompute` false, the historical `rif-elo`), one of its seeds or all of them, "
    "its parameters, or its reviews no longer required. From then on its ratings, its players' histories and the "
    "`rating_changes` of its tournaments may show the list as it was before that change, until a recompute that read "
    "the change succeeds (`POST /v1/rating-lists/{list_id}/recompute`, or the next one a submission queues for a list "
    "that recomputes itself), which sets it back to null; a change made while a recompute runs leaves it set. Null: "
    "the current snapshot shows every change but those whose own recompute is queued (the job their answer names)"
)
STALE_REASON_DESCRIPTION = (
    "What changed first since the current snapshot, in a few words (e.g. `tournament T0017 corrected`, `seeds "
    "replaced`); null when `stale_since` is"
)

DRIFT_THRESHOLD_DESCRIPTION = (
    "The change over 12 months of the mean rating of the list's active players, or of its cohort's, in rating points "
    "either way, from which its drift is flagged (`GET /v1/rating-lists/{list_id}/drift`); null: its system's "
    "default, 50 on the Elo scales (rif-whr, rif-elo, olufsen, eru) and 30 on the Rivne Go scale"
)


class RatingListRead(BaseModel):
    """A rating list: which rule system rates which tournaments, with which parameters."""

    model_config = ConfigDict(from_attributes=True)

    id: str = Field(description="The list's id, used in its paths", examples=["rif-whr"])
    name: str = Field(description="The list's name for people")
    system: str = Field(description="The rating system", json_schema_extra=described(system_ids))
    category: str = Field(description="The game whose tournaments it rates: renju, gomoku, go or shogi")
    params: dict[str, Any] = Field(description="The rule system's parameters", json_schema_extra=described(list_params))
    eligibility: dict[str, Any] = Field(
        description="Which tournaments count: rated flag, minimum time control, certified rules, formats"
    )
    auto_recompute: bool = Field(
        description="A submission or correction of a tournament the list rates queues a recompute of the list"
    )
    requires_review: bool = Field(
        description="A tournament submitted (or corrected) counts only once an officer of the list has confirmed it "
        "(`POST /v1/rating-lists/{list_id}/reviews/{tournament_id}`); tournaments stored before it was set are not "
        "held back"
    )
    current_snapshot_id: int | None = Field(description="The snapshot the list shows; null until its first recompute")
    publication_days: list[str] | None = Field(
        None,
        description="Days of the year (MM-DD) on which the service publishes the list by itself, as of that day "
        "(`rif-elo`: 04-30, 08-31 and 12-31, the rating periods of text 000 #2); null for none",
    )
    stale_since: dt.datetime | None = Field(None, description=STALE_SINCE_DESCRIPTION)
    stale_reason: str | None = Field(None, description=STALE_REASON_DESCRIPTION)
    drift_threshold: float | None = Field(None, description=DRIFT_THRESHOLD_DESCRIPTION)


# A day every year has, MM-DD: the pattern states each month's length (so 02-29, 04-31 are refused by the contract itself).
PublicationDay = Annotated[
    str,
    StringConstraints(
        pattern=r"^((0[13578]|1[02])-(0[1-9]|[12][0-9]|3[01])|(0[469]|11)-(0[1-9]|[12][0-9]|30)|02-(0[1-9]|1[0-9]|2[0-8]))$"
    ),
]


class RatingListSettingsPatch(StrictModel):
    """The list's settings to change; a field left out keeps its value."""

    # Left out keeps the value; null is not a value the list can have (the column is not nullable).
    auto_recompute: bool = Field(None, description="Recompute the list after each submission it rates (true or false)")  # type: ignore[assignment]
    requires_review: bool = Field(  # type: ignore[assignment]
        None,
        description="Rate a tournament submitted or corrected from now on only once an officer of the list has "
        "confirmed it (true or false); switched off, the pending and rejected ones count again",
    )
    publication_days: list[PublicationDay] | None = Field(
        None,
        max_length=366,
        description="Days of the year (MM-DD, e.g. 04-30) on which the worker publishes the list by itself, as of that "
        "day, from its current snapshot: once each, up to 14 days late; 02-29 is not a day every year (use 02-28). "
        "An empty list or null: no schedule",
    )

    drift_threshold: float | None = Field(
        None,
        gt=0,
        le=10_000,
        allow_inf_nan=False,
        description="Rating points over 12 months from which the list's drift is flagged (more than 0); null: the "
        "default of its system (50 on the Elo scales, 30 on the Rivne Go scale)",
    )

    @field_validator("publication_days")
    @classmethod
    def _real_days(cls, days: list[str] | None) -> list[str] | None:
        if days is None:
            return None
        for day in days:
            try:
                dt.date(2001, int(day[:2]), int(day[3:]))
            except ValueError:
                raise ValueError(f"{day} is not a day of every year") from None
        return sorted(set(days)) or None


class RatingRowRead(BaseModel):
    """One player's line of a rating list."""

    rank: int = Field(description="Position among the players the query selects, 1 for the best (counted over all pages)")
    player_id: str = Field(description="The player's id")
    name: str | None = Field(description="First name and surname; null when the player's record has neither")
    country: str | None = Field(description="The player's country code")
    rating: float = Field(
        description="The rating: unrounded under WHR and Rivne (round it for display), a whole number under Elo and Olufsen"
    )
    deviation: float | None = Field(description="WHR: the rating's standard deviation, Elo points; null for other systems")
    games: int = Field(description="Rated games up to the list's date (or as_of)")
    last_played: dt.date | None = Field(description="Date of the player's last rated game")
    status: str = Field(
        description="active, inactive or provisional on the list's date (or as_of): WHR (RIF 2021 #10) active = "
        "10 or more rated games and the last one no more than 5 years before; Elo (RIF 1995 #9, INTERPRETATIONS 1.17) "
        "active = an official / established rating and a game (or seed) within 5 years; Olufsen shogi (text 001) "
        "active = established, provisional = provisional or unrated (001 (3)), never inactive; Rivne and ERU: everyone "
        "listed is active"
    )
    title: str | None = Field(None, description="Grade or rank, for systems that award them")
    counters: dict[str, Any] | None = Field(
        None,
        description="The system's own counters (e.g. rif_status for the Elo list; rated_games, category and "
        "pending_grade for the Olufsen list; rating_source and tournaments for the eru list)",
    )
    previous_rating: float | None = Field(
        None,
        description="His rating in the publication compared with (the previous one for a publication's rows, the latest "
        "for the live list); null when he had no row there or there is none",
    )
    previous_rank: int | None = Field(
        None,
        description="His place in that publication: his rank among its players of the status he had there (what its "
        "list, status=active by default, showed); null as previous_rating",
    )
    change: Change = Field(
        None,
        description="rating − previous_rating as the list shows them, a whole number (under WHR and Rivne, whose ratings "
        "are unrounded: rating rounded minus previous_rating rounded, half away from zero; `change_unrounded` has the "
        "difference itself); or `new` when he had no row in the publication compared with, `returned` when he was "
        "inactive there and is not now; null when there is no publication to compare with (and on a pinned snapshot's rows)",
    )
    change_unrounded: float | None = Field(
        None,
        description="rating − previous_rating before any rounding; null where `change` is not a number",
    )


class PublicationRef(BaseModel):
    """The publication a list's rows are compared with."""

    number: int = Field(description="Its number among the list's publications, from 1")
    date: dt.date = Field(description="The day it was published as of")
    title: str = Field(description="Its title")


class RatingsPage(BaseModel):
    """One page of a rating list."""

    list_id: str = Field(description="The rating list")
    snapshot_id: int | None = Field(description="The snapshot read; null while the list has never been recomputed")
    list_date: dt.date | None = Field(
        description="The snapshot's list date: the day of its recompute, on which statuses are stored"
    )
    as_of: dt.date | None = Field(description="The date asked for, if any: ratings and statuses are read on it")
    compared_with: PublicationRef | None = Field(
        None,
        description="The list's latest publication, which the rows' previous_rating, previous_rank and change are "
        "against; null when the list has none, or a snapshot was asked for (`snapshot_id`)",
    )
    stale_since: dt.datetime | None = Field(
        None,
        description="The list's `stale_since` (see `GET /v1/rating-lists/{list_id}`): since then the current list does "
        "not show every change of its inputs; null when it does, and for a snapshot asked for (`snapshot_id`)",
    )
    stale_reason: str | None = Field(None, description=STALE_REASON_DESCRIPTION)
    items: list[RatingRowRead] = Field(description="The page's players, best first")
    total: int = Field(description="Players the query selects, over all pages")
    limit: int = Field(description="Page size asked for")
    offset: int = Field(description="Players skipped before this page")


class SnapshotRead(BaseModel):
    """One computation of a rating list: the list as it stood on its list date."""

    model_config = ConfigDict(from_attributes=True)

    id: int = Field(description="The snapshot's id")
    list_id: str = Field(description="The rating list")
    list_date: dt.date = Field(
        description="The day of the recompute; stored statuses are those of that day (INTERPRETATIONS 6.4)"
    )
    created_at: dt.datetime = Field(description="When the snapshot was written (RFC 3339, UTC)")
    job_id: int | None = Field(description="The recompute job that wrote it")
    params: dict[str, Any] = Field(
        description="The list's parameters it was computed with, and what the system adds (Elo, Olufsen, Rivne: the number of seeds)"
    )
    players: int = Field(description="Players on the list")
    games: int = Field(description="Games rated")
    tournaments: int = Field(description="Tournaments rated")
    notes: list[Any] = Field(description="What the computation reports, e.g. its convergence or what it could not rate")
    current: bool = Field(False, description="The list shows this snapshot")
    system: str | None = Field(None, description="The rating system that computed it; null for snapshots older than this record")
    service_version: str | None = Field(None, description="The version of the service that computed it")
    seeds: int | None = Field(None, description="Seed ratings it started from")
    eligibility: dict[str, Any] | None = Field(None, description="The list's eligibility rules it was computed under")
    inputs_digest: str | None = Field(
        None,
        description="SHA-256 (hex) of its inputs: the eligible tournaments, their games and the seeds in a canonical order. "
        "`python -m app.cli verify` compares it with the stored data's",
    )


class HistoryPoint(BaseModel):
    """A player's standing from one day on."""

    date: dt.date = Field(description="The day from which this rating holds")
    rating: float = Field(description="The rating on that day (unrounded under WHR and Rivne)")
    deviation: float | None = Field(description="WHR: its standard deviation, Elo points; null for other systems")
    games: int = Field(description="Rated games up to and including this point")
    status: str = Field(description="The player's status on that day (active, inactive or provisional)")
    title: str | None = Field(None, description="Grade or rank held from that day, for systems that award them")
    counters: dict[str, Any] | None = Field(None, description="The system's own counters on that day, as on the list's rows")
    tournament_ids: list[str] = Field(description="The tournaments rated into this point (a WHR day can hold several)")


class PlayerHistory(BaseModel):
    """A player's rating series under one list, for a chart."""

    player_id: str = Field(description="The player")
    list_id: str = Field(description="The rating list")
    snapshot_id: int | None = Field(description="The list's current snapshot; null while it has none")
    stale_since: dt.datetime | None = Field(
        None,
        description="The list's `stale_since` (see `GET /v1/rating-lists/{list_id}`): since then the snapshot the "
        "points come from does not show every change of the list's inputs; null when it does",
    )
    stale_reason: str | None = Field(None, description=STALE_REASON_DESCRIPTION)
    points: list[HistoryPoint] = Field(description="One point per day his rating changed, oldest first")


class PlayerSeedIn(StrictModel):
    """A rating a player held on a date, from which a list's replay starts (the player named by the path)."""

    rating: float = Field(
        ge=0,
        le=4000,
        description="His rating on `as_of`, at the precision of the list's system",
        json_schema_extra=described(seed_rating),
        examples=[2300],
    )
    status: DisplayText | None = Field(
        None,
        max_length=20,
        description="The list's system's own status, checked by it",
        json_schema_extra=described(seed_status),
    )
    as_of: Date = Field(
        description="The day the rating held: the replay starts the player from it for the tournaments after that day "
        "(rif-elo: those starting on or after it, INTERPRETATIONS 6.19)",
        examples=["2009-11-01"],
    )
    title: DisplayText | None = Field(
        None, max_length=20, description="A grade or rank the player starts from (systems with titles)"
    )
    counters: dict[str, Any] | None = Field(
        None,
        description="The system's own counters",
        json_schema_extra=described(seed_counters),
    )


class SeedIn(PlayerSeedIn):
    """A rating a player held on a date, from which a list's replay starts."""

    player_id: Identifier = Field(description="A stored player's id", examples=["1193"])


class SeedsIn(StrictModel):
    """Every seed of the list: the body replaces all of them."""

    seeds: list[SeedIn] = Field(
        description="One seed per player; an empty list removes every seed. As many as the request body limit admits "
        "(MAX_BODY_BYTES, 10 MiB by default: some 120,000 seeds); a larger body is a 413"
    )


class SeedRead(BaseModel):
    """A stored seed, with the defaults of the list's system filled in."""

    model_config = ConfigDict(from_attributes=True)

    player_id: str = Field(description="The player")
    rating: float = Field(description="His rating on `as_of`, at the precision of the list's system (fractional for rivne)")
    status: str = Field(description="His status in the list's system")
    as_of: dt.date = Field(description="The day the rating held")
    title: str | None = Field(None, description="Grade or rank, for systems with titles")
    counters: dict[str, Any] | None = Field(None, description="The system's own counters")


class PlayerSeedWritten(SeedRead):
    """One player's seed as stored, and the recompute its change queued."""

    model_config = ConfigDict(from_attributes=True)

    job_id: int | None = Field(
        None, description="The recompute queued for the list (`GET /v1/jobs/{job_id}`); null when the list has no auto_recompute"
    )


class SeedRemoved(BaseModel):
    """One player's seed was removed, and the recompute its removal queued."""

    list_id: str = Field(description="The rating list")
    player_id: str = Field(description="The player whose seed was removed")
    job_id: int | None = Field(
        description="The recompute queued for the list (`GET /v1/jobs/{job_id}`); null when the list has no auto_recompute"
    )


class SeedsRead(BaseModel):
    """A rating list's seeds."""

    list_id: str = Field(description="The rating list")
    seeds: list[SeedRead] = Field(description="Every seed, by player id")


class WhatIfChange(BaseModel):
    """What the tournament would do to one player on this list, as its `rating_changes` would show it
    once submitted and the list recomputed the same day."""

    @model_validator(mode="after")
    def _change_as_shown(self) -> "WhatIfChange":
        change_as_shown_of(self)
        return self

    player_id: str = Field(description="The player")
    system: str = Field(description="The rule system that would rate it")
    rating_before: float | None = Field(description="His rating before the tournament; null when he has none")
    rating_after: float | None = Field(description="His rating after it; null when he would still have none")
    change: float | None = Field(description=CHANGE_AS_SHOWN)
    change_unrounded: float | None = Field(description=CHANGE_UNROUNDED)
    games_counted: int = Field(description="His games of the tournament that the system would count")
    status_after: str | None = Field(description="His status after it, in the system's terms")
    title_after: str | None = Field(description="Grade or rank after it, for systems that award them")
    details: dict[str, Any] | None = Field(
        description="The system's own figures, as the tournament's rating_changes give them (see GET /v1/tournaments/{id})"
    )


class WhatIfRead(BaseModel):
    """What a tournament would do to a rating list if it were submitted now; nothing is stored."""

    list_id: str = Field(description="The rating list")
    rated: bool = Field(description="The list would rate the tournament")
    reason: str | None = Field(description="Why the list would not rate it; null when it would")
    list_date: dt.date = Field(description="The day the list is computed for: today, as a recompute now would")
    players: list[WhatIfChange] = Field(description="Each player the tournament would rate, by player id; empty when not rated")
    notes: list[str] = Field(description="What the rules said about this tournament (e.g. why they could not rate it)")
