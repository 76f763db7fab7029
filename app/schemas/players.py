import datetime as dt
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from app.schemas.common import CountryCode, Date, DisplayText, Identifier, StrictModel

Gender = Literal["M", "F"]
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
    gender: str | None = Field(description="M or F")
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
