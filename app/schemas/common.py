from typing import Annotated, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

T = TypeVar("T")

Identifier = Annotated[
    str,
    StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9._:\-]*$"),
]
CountryCode = Annotated[str, StringConstraints(min_length=2, max_length=3, pattern=r"^[A-Z]{2,3}$")]
MAX_PAGE_SIZE = 500
# Ids the database assigns (jobs, snapshots): its INTEGER columns, 1 to 2³¹ − 1 on PostgreSQL.
# Bounding them in the contract turns an out-of-range id into a 422 instead of a driver overflow (a
# 500) before any query runs.
RowId = Annotated[int, Field(ge=1, le=2**31 - 1)]


class StrictModel(BaseModel):
    """Request bodies reject unknown fields, so a typo is an error rather than silently ignored."""

    model_config = ConfigDict(extra="forbid")


class Page(BaseModel, Generic[T]):
    """One page of a longer result; ask for the next with ``offset + limit``."""

    items: list[T] = Field(description="The items of this page")
    total: int = Field(ge=0, description="Items matching the query, over all pages")
    limit: int = Field(ge=1, le=MAX_PAGE_SIZE, description="Page size asked for")
    offset: int = Field(ge=0, description="Items skipped before this page")


class Pagination(BaseModel):
    limit: int = Field(50, ge=1, le=MAX_PAGE_SIZE, description="Page size")
    offset: int = Field(0, ge=0, description="Items to skip")
