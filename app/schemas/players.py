import datetime as dt
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints, WithJsonSchema

from app.schemas.common import CountryCode, Date, DisplayText, Identifier, StrictModel

# M or F in either case on the way in, M or F on the way out (issue 44 item 3). Declared as a pattern,
# not an enum of four: a generated client names an enum's members by their upper-cased values, and M and m
# would be one name twice (openapi-python-client refuses the contract).
GENDER_JSON_SCHEMA = {"type": "string", "pattern": "^[MFmf]$", "description": "M or F (either case)"}
Gender = Annotated[
    Literal["M", "F"],
    BeforeValidator(lambda value: value.upper() if isinstance(value, str) else value),
    WithJsonSchema(GENDER_JSON_SCHEMA),
]
# A player's id in another system: a scheme of lower-case letters (renjunet, egd, a federation's own),
# a colon and the id there, e.g. renjunet:952, egd:13300010. Unique per scheme.
EXTERNAL_ID_PATTERN = r"^[a-z][a-z0-9-]{0,19}:[A-Za-z0-9][A-Za-z0-9._\-]{0,63}$"
ExternalId = Annotated[str, StringConstraints(max_length=84, pattern=EXTERNAL_ID_PATTERN)]


class PlayerFields(StrictModel):
    """A player's descriptive fields, all optional."""

    name: DisplayText | None = Field(None, max_length=200, description="First name, Latin script", examples=["Shicheng"])
    surname: DisplayText | None = Field(None, max_length=200, description="Surname, Latin script", examples=["Zha"])
    native_name: DisplayText | None = Field(None, max_length=200, description="Full name in the player's own script")
    country: CountryCode | None = Field(None, description="Country code, e.g. CHN, EST", examples=["CHN"])
    city: DisplayText | None = Field(None, max_length=200, description="Home city")
    gender: Gender | None = Field(None, description="M or F (women's lists)")
    birth_year: int | None = Field(None, ge=1850, le=2100, description="Year of birth (junior lists)")
    external_ids: list[ExternalId] | None = Field(
        None,
        max_length=20,
        description="His ids in other systems, `scheme:value` (renjunet:952, egd:13300010), each held by one player at"
        " most (409 when another holds it); when given, they replace the ones stored",
        examples=[["renjunet:3578"]],
    )


class PlayerCreate(PlayerFields):
    """A new player: his id and whatever else is known of him."""

    id: Identifier = Field(description="Chosen by the submitter, e.g. the renju.net player id", examples=["2487"])


class PlayerPatch(PlayerFields):
    """Only the fields present in the body change; `null` clears a field."""


class PlayerRead(BaseModel):
    """A stored player."""

    model_config = ConfigDict(from_attributes=True)

    id: str = Field(description="The player's id", examples=["2487"])
    name: str | None = Field(description="First name, Latin script", examples=["Shicheng"])
    surname: str | None = Field(description="Surname, Latin script", examples=["Zha"])
    native_name: str | None = Field(description="Full name in the player's own script")
    country: str | None = Field(description="Country code", examples=["CHN"])
    city: str | None = Field(description="Home city")
    gender: Literal["M", "F"] | None = Field(description="M or F")
    birth_year: int | None = Field(description="Year of birth")


class EarlierName(BaseModel):
    """A spelling of the player's name used until a day (kept when he is renamed)."""

    name: str | None = Field(description="First name, Latin script")
    surname: str | None = Field(description="Surname, Latin script")
    native_name: str | None = Field(description="Full name in the player's own script")
    until: dt.date = Field(description="The last day this spelling was his")


class PlayerDetail(PlayerRead):
    """A stored player with his ids in other systems, earlier spellings, and where he went if merged."""

    external_ids: list[str] = Field(description="His ids in other systems, `scheme:value`, sorted")
    earlier_names: list[EarlierName] = Field(description="Earlier spellings of his name, oldest first")
    merged_into: str | None = Field(
        description="The player this record was merged into (POST /v1/players/{id}/merge); null for a player of his own"
    )


class PlayerRating(BaseModel):
    """A player's standing on one rating list's current snapshot."""

    list_id: str = Field(description="The rating list")
    category: str = Field(description="Its discipline: renju, gomoku, go or shogi")
    rating: float = Field(description="His rating there")
    status: str = Field(description="His status there")


class PlayerHit(PlayerDetail):
    """A player a search found: who he is, how well his name matched, his disciplines and ratings."""

    match: Literal["exact", "prefix", "word-prefix", "substring", "id", "external-id", "any"] = Field(
        description="How the name matched `q`: the whole name, its start, the start of a word, anywhere (the order of"
        " the results); or `id`, `external-id`, or `any` without a `q`"
    )
    disciplines: list[str] = Field(description="The categories he played in (of his tournaments), sorted")
    ratings: list[PlayerRating] = Field(description="His standing on each list that rates him now, by list id")


class PlayerRename(StrictModel):
    """A new spelling of a player's name, with `since` and at least one of `name`, `surname` and
    `native_name` (null clears one); the spelling it replaces is kept with the day before `since`."""

    model_config = ConfigDict(json_schema_extra={"minProperties": 2})

    name: DisplayText | None = Field(None, max_length=200, description="First name, Latin script", examples=["Ants"])
    surname: DisplayText | None = Field(None, max_length=200, description="Surname, Latin script", examples=["Soosõrv"])
    native_name: DisplayText | None = Field(None, max_length=200, description="Full name in the player's own script")
    since: Date = Field(description="The first day of the new spelling", examples=["2020-01-01"])


class PlayerMerge(StrictModel):
    """Which player a record is merged into."""

    into: Identifier = Field(description="The player the record is merged into: he keeps his id", examples=["3578"])


class PlayerMerged(BaseModel):
    """A merge or an unmerge done: both records as they are now, and the lists recomputing."""

    player: PlayerDetail = Field(description="The record merged (its `merged_into` set) or unmerged (null again)")
    into: PlayerDetail = Field(description="The player it was merged into")
    lists_recomputing: list[str] = Field(
        description="The rating lists that rate a game or hold a seed that moved: each has a recompute queued"
    )


PlayerReviewKind = Literal["details", "possible_duplicate"]
PlayerReviewStatus = Literal["pending", "accepted", "dismissed"]
DetailValue = str | int | list[str] | None


class DetailDifference(BaseModel):
    """One of the player's details as stored and as a submission gave it."""

    field: Literal["name", "surname", "native_name", "country", "city", "gender", "birth_year", "external_ids"] = Field(
        description="The detail (`external_ids`: the ids given that he does not hold, beside those he holds)"
    )
    stored: DetailValue = Field(description="Its stored value when the submission came")
    given: DetailValue = Field(description="The value the submission gave")


class PlayerReviewRead(BaseModel):
    """What a submission or an import said of a player and did not change: an officer's to accept or
    dismiss (`POST /v1/player-reviews/{review_id}`)."""

    model_config = ConfigDict(from_attributes=True)

    id: int = Field(description="The review's id")
    player_id: str = Field(description="The player it is about")
    kind: PlayerReviewKind = Field(
        description="`details`: the submission gave a stored player other details than his stored ones (never "
        "written: accepted, they are); `possible_duplicate`: a new player whose name (and country, where both "
        "have one) is a stored player's, who may be the same person under another id (accepted, he is merged "
        "into one of the `candidates`)"
    )
    status: PlayerReviewStatus = Field(description="`pending` until an officer accepts or dismisses it")
    tournament_id: str | None = Field(description="The tournament whose submission or correction said it")
    actor: str = Field(description="The key that sent it (`import` for the command-line importer)")
    differences: list[DetailDifference] = Field(description="Each detail that differs (kind `details`); empty otherwise")
    candidates: list[str] = Field(description="The stored players he may be, by id (kind `possible_duplicate`); empty otherwise")
    created_at: dt.datetime = Field(description="When it was queued (UTC)")
    decided_by: str | None = Field(description="The officer's key that decided it; null while pending")
    decided_at: dt.datetime | None = Field(description="When it was decided (UTC); null while pending")
    reason: str | None = Field(description="The reason the officer gave, if any")


class QueuedPlayerReview(PlayerReviewRead):
    """A review a submission queued, or found waiting with the same proposal, for one of its players."""

    pointer: str = Field(description="The player of the submission it is about, as a JSON pointer (`/players/3`)")


class PlayerReviewDecision(StrictModel):
    """An officer's decision on a pending review."""

    decision: Literal["accept", "dismiss"] = Field(
        description="`accept`: the details are made his (a name given anew is a rename from today, the spelling it "
        "replaces kept), or the possible duplicate is merged `into` one of the candidates; `dismiss`: nothing changes"
    )
    into: Identifier | None = Field(
        None, description="For an accepted possible duplicate: the candidate he is (he is merged into that player)"
    )
    reason: DisplayText | None = Field(None, max_length=500, description="Why, in words; kept with the decision and in the audit")


class PlayerReviewDecided(PlayerReviewRead):
    """The decided review, and the lists a merge set recomputing."""

    lists_recomputing: list[str] = Field(
        description="For an accepted possible duplicate: the rating lists that rate a game or hold a seed that moved"
    )


class PlayerCreated(PlayerDetail):
    """A player created, and the review queued when his name is a stored player's."""

    player_reviews: list[QueuedPlayerReview] = Field(
        description="A possible duplicate queued for an officer (`GET /v1/player-reviews`) when his name (and country, "
        "where both have one) is a stored player's; empty otherwise"
    )
