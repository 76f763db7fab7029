from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.schemas.common import CountryCode, Identifier, StrictModel, Text

Gender = Literal["M", "F"]


class PlayerFields(StrictModel):
    """A player's descriptive fields, all optional."""

    name: Text | None = Field(None, max_length=200, description="First name, Latin script", examples=["Shicheng"])
    surname: Text | None = Field(None, max_length=200, description="Surname, Latin script", examples=["Zha"])
    native_name: Text | None = Field(None, max_length=200, description="Full name in the player's own script")
    country: CountryCode | None = Field(None, description="Country code, e.g. CHN, EST", examples=["CHN"])
    city: Text | None = Field(None, max_length=200, description="Home city")
    gender: Gender | None = Field(None, description="M or F (women's lists)")
    birth_year: int | None = Field(None, ge=1850, le=2100, description="Year of birth (junior lists)")


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
