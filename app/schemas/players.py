from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.schemas.common import CountryCode, Identifier, StrictModel

Gender = Literal["M", "F"]


class PlayerFields(StrictModel):
    name: str | None = Field(None, max_length=200, description="First name, Latin script")
    surname: str | None = Field(None, max_length=200)
    native_name: str | None = Field(None, max_length=200, description="Full name in the player's own script")
    country: CountryCode | None = Field(None, description="Country code, e.g. CHN, EST")
    city: str | None = Field(None, max_length=200)
    gender: Gender | None = None
    birth_year: int | None = Field(None, ge=1850, le=2100)


class PlayerCreate(PlayerFields):
    id: Identifier = Field(description="Chosen by the submitter, e.g. the renju.net player id")


class PlayerPatch(PlayerFields):
    """Only the fields present in the body change; ``null`` clears a field."""


class PlayerRead(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    name: str | None
    surname: str | None
    native_name: str | None
    country: str | None
    city: str | None
    gender: str | None
    birth_year: int | None
