import datetime as dt
import functools
import operator
import re
import types
from collections.abc import Collection, Hashable
from dataclasses import dataclass
from typing import Annotated, Any, Generic, Literal, TypeVar, Union, cast, get_args, get_origin

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationInfo,
    WithJsonSchema,
    create_model,
    field_validator,
)

from app.countries import ACCEPTED_CODES, country_code
from app.names import DISPLAY_TEXT_PATTERN

T = TypeVar("T")

# No NUL characters in any stored or queried string: PostgreSQL's text cannot hold them, and SQLite
# would store a string no other client can read back faithfully.
NO_NUL_PATTERN = r"^[^\x00]*$"
Text = Annotated[str, StringConstraints(pattern=NO_NUL_PATTERN)]
# Text people read on one line, as it was stored: every name, title, label and reason a request stores
# (docs/decisions.md 105). No control characters (NUL, TAB, CR and LF among them), line separators or
# bidirectional formatting characters (app/names.py): the contract states it as this pattern, which
# is also what checks it (pydantic's regex engine, once per value, as fast as Text's).
DisplayText = Annotated[str, StringConstraints(pattern=DISPLAY_TEXT_PATTERN)]
DISPLAY_TEXT_RULE = (
    "one line of text in any script, without control characters (U+0000-U+001F, U+007F-U+009F: TAB, CR and LF "
    "among them), line or paragraph separators (U+2028, U+2029) or bidirectional formatting characters (U+061C, "
    "U+200E, U+200F, U+202A-U+202E, U+2066-U+2069)"
)

# The one rule for every player, tournament, game and list id, in bodies, paths and queries alike
# (the website's pages too): ASCII letters and digits, then also '.', '_', ':' and '-', up to 64.
# Ids go into URLs and files unescaped, and compare the same on both databases.
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:\-]*$"
ID_MAX_LENGTH = 64
ID_RULE = f"1 to {ID_MAX_LENGTH} ASCII letters, digits, `.`, `_`, `:` or `-`, starting with a letter or digit"
Identifier = Annotated[str, StringConstraints(min_length=1, max_length=ID_MAX_LENGTH, pattern=ID_PATTERN)]


def _ioc_country(value: str) -> str:
    """The IOC code every country is stored under (app/countries.py): an IOC or ISO code in either
    case (fra, FR), or a name the tables know (France, 中国), as files give them; the read answers
    the code, which the same field takes back (issue 44 item 3)."""
    text = value.strip()
    as_code = text.upper() if text.isascii() and text.isalpha() and len(text) in (2, 3) else None
    code = country_code(as_code) if as_code in ACCEPTED_CODES_SET else country_code(text) if as_code is None else None
    if code is None:
        raise ValueError(
            f"unknown country {value!r}: give the IOC code (EST, GER), the ISO one (EE, DE), in either case, or its name"
        )
    return code


ACCEPTED_CODES_SET = frozenset(ACCEPTED_CODES)
# A country: an IOC code or an ISO 3166-1 two- or three-letter code in either case, or the country's
# name, stored as the IOC code (FR, fr, France -> FRA; DEU -> GER).
CountryCode = Annotated[
    str,
    AfterValidator(_ioc_country),
    # The contract lists the codes, so that what it declares valid is taken (schemathesis' positive data)
    # and a typed client sends a code; the lower-case codes and the names are a leniency for files'
    # spellings, said in the description, as JSON Schema has no case-insensitive enum.
    WithJsonSchema(
        {
            "type": "string",
            "enum": list(ACCEPTED_CODES),
            "description": "A country: its IOC code (EST, GER) or its ISO 3166-1 code (EE, DE); stored and answered "
            "as the IOC code. The service also takes the codes in lower case and the country's name (France, 中国)",
            "examples": ["EST"],
        }
    ),
]
# A game's result, from black's side: B black won, W white won, D draw. Here rather than with the
# tournaments' schemas, so that the systems' calculator models (app/rating/) can share it while the
# tournaments' schemas read the registry of those systems.
Result = Literal["B", "W", "D"]
MAX_PAGE_SIZE = 500
# Database integers are 32-bit on PostgreSQL (INTEGER columns, OFFSET within BIGINT): every integer
# a request carries into a query is bounded so that it is a 4xx, never a database error.
MAX_DATABASE_ID = 2**31 - 1
MAX_OFFSET = 2**31 - 1
# Dates a rating service can meaningfully hold; outside, date arithmetic (ordinals, numpy days) and
# some databases misbehave, and no renju tournament was ever played there.
EARLIEST_DATE = dt.date(1900, 1, 1)
LATEST_DATE = dt.date(2199, 12, 31)
# The same bounds as a pattern, so that the contract states them (JSON Schema has no date minimum):
# YYYY-MM-DD with a year from 1900 to 2199, the days between them checked as dates.
DATE_PATTERN = r"^(19|20|21)[0-9]{2}-[0-9]{2}-[0-9]{2}$"
_ISO_DATE = re.compile(DATE_PATTERN)


def _iso_date_only(value: Any) -> Any:
    """A date is written YYYY-MM-DD, 1900 to 2199, and nothing else: pydantic alone would also take a
    number of seconds since 1970 (`as_of=0`) or a date-time, which the contract (format: date) does not
    allow."""
    if isinstance(value, bool | int | float) or (isinstance(value, str) and not _ISO_DATE.fullmatch(value)):
        raise ValueError("Input should be a date written YYYY-MM-DD, from 1900-01-01 to 2199-12-31")
    return value


Date = Annotated[
    dt.date,
    Field(ge=EARLIEST_DATE, le=LATEST_DATE, json_schema_extra={"pattern": DATE_PATTERN}),
    BeforeValidator(_iso_date_only),
]


class StrictModel(BaseModel):
    """Request bodies reject unknown fields, so a typo is an error rather than silently ignored, and
    non-finite numbers (NaN, Infinity), which no rule system can rate with."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    @field_validator("*", mode="before")
    @classmethod
    def _json_types_as_declared(cls, value: Any, info: ValidationInfo) -> Any:
        """true and false are booleans, not the numbers 1 and 0, and a boolean is only true or false:
        pydantic's lax mode would take `"score": false` as 0 and `"rated": 0` as false, which the
        contract (type: number, type: boolean) refuses."""
        return _as_declared(cls, value, info)


def json_kinds_checked_on(*fields: str) -> Any:
    """StrictModel's JSON-kind check (``_json_types_as_declared``) on these fields only, for a model
    whose other fields take neither a number nor a boolean (where the check does nothing): set as the
    model's ``_json_types_as_declared``, it replaces the check of every field. For models validated a
    million times in an import (``GameIn``); a test checks every model's fields are covered."""
    return field_validator(*fields, mode="before")(classmethod(_as_declared))


def _as_declared(cls: type[BaseModel], value: Any, info: ValidationInfo) -> Any:
    kinds = _field_kinds(cls, info.field_name)
    if kinds is None:
        return value
    if isinstance(value, bool):
        if "boolean" not in kinds and "other" not in kinds and "number" in kinds:
            raise ValueError("Input should be a number, not true or false")
    elif value is not None and kinds == {"boolean"}:
        raise ValueError("Input should be true or false")
    return value


@functools.cache
def _field_kinds(model: type[BaseModel], field_name: str | None) -> frozenset[str] | None:
    """The JSON kinds of the model's field, None for no field of its own: looked up once per field, as
    this check runs for every field of every submitted game (a million in a large import)."""
    field = model.__pydantic_fields__.get(field_name) if field_name is not None else None
    return None if field is None else _json_kinds(cast(Hashable, field.annotation))


@functools.cache
def _json_kinds(annotation: Any) -> frozenset[str]:
    """The JSON kinds a field's annotation takes besides null: boolean, number or other (anything else)."""
    origin = get_origin(annotation)
    if origin is Union or origin is types.UnionType:
        return frozenset().union(*(_json_kinds(argument) for argument in get_args(annotation)))
    if origin is Annotated:
        return _json_kinds(get_args(annotation)[0])
    if annotation is type(None):
        return frozenset()  # null is let through before this is asked
    if annotation is bool:
        return frozenset({"boolean"})
    if annotation is int or annotation is float:
        return frozenset({"number"})
    return frozenset({"other"})


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


# --- a field declared once -----------------------------------------------------------------------


@dataclass(frozen=True)
class Shown:
    """Marks a field the website shows on the page of what the model describes, under this label:
    ``name: Annotated[DisplayText | None, Shown("Venue")] = Field(...)``. The label is the website's
    word, translated in its catalogues (``app/web/declared_words.py`` finds it for Babel)."""

    label: str


class ReadModel(BaseModel):
    """The base of a read derived from a request model (``read_of``): built from a stored row's attributes."""

    model_config = ConfigDict(from_attributes=True)


def read_of(model: type[BaseModel], name: str, *, leave_out: Collection[str] = ()) -> type[ReadModel]:
    """A read of what ``model`` submits, field by field: the same names, descriptions, titles and
    ``Shown`` labels, each always present, with the type stripped of the submission's checks, so
    that a field declared once in a request model is read back too. The checks stay out because
    text stored before a check was added reads as it was (docs/decisions.md 105): a read that
    checked it again would fail on it."""
    fields: dict[str, Any] = {}
    for field_name, field in model.model_fields.items():
        if field_name in leave_out:
            continue
        shown = [marker for marker in field.metadata if isinstance(marker, Shown)]
        annotation = _unchecked(field.annotation)
        fields[field_name] = (
            Annotated[annotation, *shown] if shown else annotation,
            Field(description=field.description, title=field.title),
        )
    read: type[ReadModel] = create_model(name, __base__=ReadModel, **fields)
    return read


def _unchecked(annotation: Any) -> Any:
    """A field's type without its constraints and validators (``Annotated`` metadata), kept where it
    says what the value is (a ``Literal``'s values, a union's members)."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _unchecked(get_args(annotation)[0])
    if origin is Union or origin is types.UnionType:
        return functools.reduce(operator.or_, (_unchecked(argument) for argument in get_args(annotation)))
    return annotation


def shown_fields(model: type[BaseModel]) -> tuple[tuple[str, str], ...]:
    """The model's fields marked ``Shown``, as (name, label), in their order."""
    return tuple(
        (name, marker.label)
        for name, field in model.model_fields.items()
        for marker in field.metadata
        if isinstance(marker, Shown)
    )
