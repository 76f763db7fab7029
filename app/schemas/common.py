import datetime as dt
from typing import Annotated, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

T = TypeVar("T")

# No NUL characters in any stored or queried string: PostgreSQL's text cannot hold them, and SQLite
# would store a string no other client can read back faithfully.
NO_NUL_PATTERN = r"^[^\x00]*$"
Text = Annotated[str, StringConstraints(pattern=NO_NUL_PATTERN)]

# The one rule for every player, tournament, game and list id, in bodies, paths and queries alike
# (the website's pages too): ASCII letters and digits, then also '.', '_', ':' and '-', up to 64.
# Ids go into URLs and files unescaped, and compare the same on both databases.
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:\-]*$"
ID_MAX_LENGTH = 64
ID_RULE = f"1 to {ID_MAX_LENGTH} ASCII letters, digits, `.`, `_`, `:` or `-`, starting with a letter or digit"
Identifier = Annotated[str, StringConstraints(min_length=1, max_length=ID_MAX_LENGTH, pattern=ID_PATTERN)]
CountryCode = Annotated[str, StringConstraints(min_length=2, max_length=3, pattern=r"^[A-Z]{2,3}$")]
MAX_PAGE_SIZE = 500
# Database integers are 32-bit on PostgreSQL (INTEGER columns, OFFSET within BIGINT): every integer
# a request carries into a query is bounded so that it is a 4xx, never a database error.
MAX_DATABASE_ID = 2**31 - 1
MAX_OFFSET = 2**31 - 1
# Dates a rating service can meaningfully hold; outside, date arithmetic (ordinals, numpy days) and
# some databases misbehave, and no renju tournament was ever played there.
EARLIEST_DATE = dt.date(1900, 1, 1)
LATEST_DATE = dt.date(2199, 12, 31)
Date = Annotated[dt.date, Field(ge=EARLIEST_DATE, le=LATEST_DATE)]


class StrictModel(BaseModel):
    """Request bodies reject unknown fields, so a typo is an error rather than silently ignored, and
    non-finite numbers (NaN, Infinity), which no rule system can rate with."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


PAGE_DESCRIPTION = "One page of a longer result; the next page starts at `offset + limit`."


class Page(BaseModel, Generic[T]):
    """One page of a longer result; ask for the next with ``offset + limit``."""

    # The docstring describes Page itself only; each Page[Item] the contract names needs it said again.
    model_config = ConfigDict(json_schema_extra={"description": PAGE_DESCRIPTION})

    items: list[T] = Field(description="The items of this page")
    total: int = Field(ge=0, description="Items matching the query, over all pages")
    limit: int = Field(ge=1, le=MAX_PAGE_SIZE, description="Page size asked for")
    offset: int = Field(ge=0, description="Items skipped before this page")


class Pagination(BaseModel):
    limit: int = Field(50, ge=1, le=MAX_PAGE_SIZE, description="Page size")
    offset: int = Field(0, ge=0, le=MAX_OFFSET, description="Items to skip")
