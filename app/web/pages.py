"""What each page shows, read through the services: plain values the templates lay out.

Columns follow what a list's rows carry, never the system's name: a deviation column where rows
have a deviation (WHR), a grade-or-rank column where they have a title (Olufsen grades, Rivne
ranks), a country column where players have a country. The CSV download is built from the same
columns and cells as the table, so it holds exactly what the page shows."""

from __future__ import annotations

import datetime as dt
import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from html import escape as _escape
from typing import Any, get_args

from babel.numbers import format_decimal, format_percent
from markupsafe import Markup
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.countries import country_code
from app.models import Job, Player, Publication, RatingList, RatingSnapshot
from app.problems import FieldError, InvalidInput, Problem
from app.rating.registry import UnknownSystem, get_system
from app.recompute import jobs as recompute_jobs
from app.recompute import staleness
from app.schemas.common import EARLIEST_DATE, ID_MAX_LENGTH, ID_PATTERN, ID_RULE, LATEST_DATE, shown_fields
from app.schemas.conditions import conditioned_systems, whole_documents
from app.schemas.drift import DriftMonth
from app.schemas.evaluations import EvaluationRead, ScoreGroup, Scores, SweepResult
from app.schemas.rating_changes import READING_PATTERN
from app.schemas.rating_lists import RatingRowRead
from app.schemas.tournaments import Category, TournamentDetails
from app.services import drift as drift_service
from app.services import evaluations as evaluations_service
from app.services import player_record, players, predictions, publications, revisions, tournament_reads
from app.services import rating_lists as lists_service
from app.settings import get_settings
from app.snapshots import snapshot_facts
from app.web import display, i18n, service_words
from app.web.charts import (
    CalibrationPoint,
    ChartPoint,
    DriftPoint,
    SweepValue,
    calibration_chart,
    drift_chart,
    rating_chart,
    sweep_chart,
)
from app.web.crosstable import CrossGame, Crosstable, Standing, crosstable
from app.web.why_changed import WhyChanged, WhyQuery, why_changed

STATUSES = ("active", "inactive", "provisional", "all")
PAGE_SIZES = (50, 100, 200, 500)
DEFAULT_PAGE_SIZE = 100
SEARCH_PAGE_SIZE = 50
GAMES_PAGE_SIZE = 100  # a player's games, newest first: the Go world's busiest players have thousands
TOURNAMENTS_PAGE_SIZE = 50
SNAPSHOTS_PAGE_SIZE = 50
TOP = 10


class PageInputError(InvalidInput):
    """A query parameter a page cannot use; the page answers 422 naming it."""

    @classmethod
    def of(cls, errors: list[FieldError]) -> PageInputError:
        return cls("; ".join(f"{e.pointer}: {e.detail}" for e in errors) + ".", errors)


def check_id(name: str, value: str) -> None:
    """A player's, tournament's or list's id in a page's path follows the API's one id rule
    (``app.schemas.common.ID_PATTERN``): anything else is a 422 naming it, as the API answers."""
    if not (len(value) <= ID_MAX_LENGTH and _ID.fullmatch(value)):
        raise PageInputError.of([FieldError(f"path:{name}", f"an id is {ID_RULE}, not {value[:100]!r}")])


_ID = re.compile(ID_PATTERN)


# --- parameters ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ListQuery:
    """A list page's filters; the defaults are the API's (status=active, INTERPRETATIONS 6.4)."""

    status: str = "active"
    country: str | None = None
    as_of: dt.date | None = None
    snapshot: int | None = None
    page: int = 1
    per_page: int = DEFAULT_PAGE_SIZE
    gender: str | None = None  # "f" or "m" (the API's filter)
    played_within_12_months: bool = False
    # Chosen in the query (the form sends it): only an unchosen status may show an old history as it
    # stood on its last game's day (``rating_list_page``), so a chosen one stays in the page's links.
    status_chosen: bool = False

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.per_page

    def params(self, **changes: object) -> dict[str, Any]:
        """The query string's parameters (defaults left out), with ``changes``."""
        values: dict[str, Any] = {
            "status": self.status if self.status != "active" or self.status_chosen else None,
            "country": self.country,
            "as_of": self.as_of.isoformat() if self.as_of else None,
            "snapshot": self.snapshot,
            "per_page": self.per_page if self.per_page != DEFAULT_PAGE_SIZE else None,
            "page": self.page if self.page != 1 else None,
            "gender": self.gender,
            "played_within_12_months": "true" if self.played_within_12_months else None,
        }
        values.update(changes)
        return values


def parse_list_query(raw: Mapping[str, str]) -> ListQuery:
    errors: list[FieldError] = []
    status = raw.get("status") or "active"
    if status not in STATUSES:
        errors.append(FieldError("query:status", f"status must be one of {', '.join(STATUSES)}, not {status!r}"))
    given_country = (raw.get("country") or "").strip().upper() or None
    country = country_code(given_country) if given_country is not None else None  # stored as IOC codes (FR: FRA)
    if given_country is not None and country is None:
        errors.append(FieldError("query:country", f"country must be an IOC or ISO country code, not {given_country!r}"))
    as_of = None
    if raw.get("as_of"):
        # The API's dates (app.schemas.common): outside them, a date's arithmetic (five years
        # before it) leaves the calendar.
        try:
            as_of = dt.date.fromisoformat(raw["as_of"])
        except ValueError:
            errors.append(FieldError("query:as_of", f"as_of must be a date (YYYY-MM-DD), not {raw['as_of']!r}"))
        else:
            if not EARLIEST_DATE <= as_of <= LATEST_DATE:
                errors.append(
                    FieldError("query:as_of", f"as_of must be a date from {EARLIEST_DATE} to {LATEST_DATE}, not {as_of}")
                )
                as_of = None
    snapshot = _positive(raw, "snapshot", None, errors, most=2**31 - 1)
    page = _positive(raw, "page", 1, errors, most=10**9)
    per_page = _positive(raw, "per_page", DEFAULT_PAGE_SIZE, errors, most=max(PAGE_SIZES))
    gender = (raw.get("gender") or "").strip().lower() or None
    if gender not in (None, "f", "m"):
        errors.append(FieldError("query:gender", f"gender must be f or m, not {gender!r}"))
    recent = (raw.get("played_within_12_months") or "").strip().lower()
    if recent not in ("", "true", "false"):
        errors.append(
            FieldError("query:played_within_12_months", f"played_within_12_months must be true or false, not {recent!r}")
        )
    if errors:
        raise PageInputError.of(errors)
    return ListQuery(
        status,
        country,
        as_of,
        snapshot,
        page or 1,
        per_page or DEFAULT_PAGE_SIZE,
        gender,
        played_within_12_months=recent == "true",
        status_chosen=bool(raw.get("status")),
    )


def parse_page(raw: Mapping[str, str]) -> int:
    errors: list[FieldError] = []
    page = _positive(raw, "page", 1, errors, most=10**9)
    if errors:
        raise PageInputError.of(errors)
    return page or 1


@dataclass(frozen=True)
class TournamentQuery:
    """The tournaments page's filters, those of ``GET /v1/tournaments``: category, country, year."""

    category: str | None = None
    country: str | None = None
    year: int | None = None
    page: int = 1

    def params(self, **changes: object) -> dict[str, Any]:
        values: dict[str, Any] = {"category": self.category, "country": self.country, "year": self.year}
        values["page"] = self.page if self.page != 1 else None
        values.update(changes)
        return values


CATEGORIES = get_args(Category)
YEARS = (1900, 2200)  # the API's bounds of `year`


def parse_tournament_query(raw: Mapping[str, str]) -> TournamentQuery:
    """The filters as the API reads them, a 422 naming each one it cannot use; empty ones are unset
    (what a plain form sends for "all")."""
    errors: list[FieldError] = []
    category = raw.get("category") or None
    if category is not None and category not in CATEGORIES:
        errors.append(FieldError("query:category", f"category must be one of {', '.join(CATEGORIES)}, not {category[:40]!r}"))
    country = (raw.get("country") or "").strip().upper() or None
    if country is not None and not re.fullmatch(r"[A-Z]{2,3}", country):
        errors.append(FieldError("query:country", f"country must be a code of two or three letters, not {country[:40]!r}"))
    year = _positive(raw, "year", None, errors, most=YEARS[1])
    if year is not None and year < YEARS[0]:
        errors.append(FieldError("query:year", f"year must be from {YEARS[0]} to {YEARS[1]}, not {year}"))
    page = _positive(raw, "page", 1, errors, most=10**9)
    if errors:
        raise PageInputError.of(errors)
    return TournamentQuery(category, country, year, page or 1)


def parse_number(value: str) -> int:
    """A publication's number in a page's path: a whole number from 1, else a 422 naming it."""
    errors: list[FieldError] = []
    number = _positive({"number": value}, "number", None, errors, most=2**31 - 1)
    if errors or number is None:
        raise PageInputError.of(
            [FieldError("path:number", f"a publication's number is a whole number from 1, not {value[:20]!r}")]
        )
    return number


def parse_search(raw: Mapping[str, str]) -> str:
    """The search text, up to 200 characters; a NUL character (which no stored text holds, and
    PostgreSQL cannot compare) is a 422, as the API's ``q`` answers."""
    q = (raw.get("q") or "").strip()[:200]
    if "\x00" in q:
        raise PageInputError.of([FieldError("query:q", "q must not contain NUL characters")])
    return q


# The why-changed form's ends (app/web/why_changed.py), checked as the API's `from` and `to` are.
_WHY_READING = re.compile(READING_PATTERN)
_WHY_DAY = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")


def parse_why_query(raw: Mapping[str, str]) -> WhyQuery:
    """The form's fields: `list`, `from` and `to` (a publication chosen, or any reference the API
    takes, as a link may carry), `from_day` and `to_day` (a day typed). A value the API's pattern
    refuses is a 422 naming it, as the API answers; empty fields are unset."""
    errors: list[FieldError] = []
    ends: list[str | None] = []
    for name in ("from", "to"):
        typed = (raw.get(f"{name}_day") or "").strip()
        chosen = (raw.get(name) or "").strip()
        value, given = (typed, f"{name}_day") if typed else (chosen, name)
        if value and not _WHY_READING.fullmatch(value):
            day_given = given.endswith("_day") or _WHY_DAY.fullmatch(value)
            expected = "a day YYYY-MM-DD from 1900 to 2199" if day_given else "publication:N, snapshot:N or a day YYYY-MM-DD"
            errors.append(FieldError(f"query:{given}", f"{given} must be {expected}, not {value[:40]!r}"))
        ends.append(value or None)
    list_id = raw.get("list") or None
    if list_id is not None and not (len(list_id) <= ID_MAX_LENGTH and _ID.fullmatch(list_id)):
        errors.append(FieldError("query:list", f"list is a list's id, {ID_RULE}, not {list_id[:100]!r}"))
    if errors:
        raise PageInputError.of(errors)
    return WhyQuery(list_id, ends[0], ends[1])


def _positive(raw: Mapping[str, str], name: str, default: int | None, errors: list[FieldError], *, most: int) -> int | None:
    value = raw.get(name)
    if not value:
        return default
    if not (value.isascii() and value.isdigit()) or len(value) > 10 or not 1 <= int(value) <= most:  # "²" is a digit to isdigit()
        errors.append(FieldError(f"query:{name}", f"{name} must be a whole number from 1 to {most}, not {value!r}"))
        return default
    return int(value)


# --- list rows as shown ----------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    key: str
    header: str
    numeric: bool = False

    @property
    def css(self) -> str:
        """The header cell's classes: the place and the name are the columns that stay while the
        rest scroll (``lead``, ``name``: site.css)."""
        return {"rank": "num lead", "player": "name"}.get(self.key, "num" if self.numeric else "")


def N_(message: str) -> str:
    """Marks a message for the catalogues (Babel extracts ``N_``); the template translates it."""
    return message


# The columns a reader comes for first (place, name, rating, change: issue 26), so that they stay on
# a phone's screen; the others follow and scroll inside the table's box.
ALL_COLUMNS = (
    Column("rank", "#", numeric=True),
    Column("player", N_("Player")),
    Column("rating", N_("Rating"), numeric=True),
    Column("change", N_("Change"), numeric=True),
    Column("deviation", N_("Deviation"), numeric=True),
    Column("status", N_("Status")),
    Column("title", N_("Grade or rank")),
    Column("games", N_("Games"), numeric=True),
    Column("last_played", N_("Last played")),
    Column("country", N_("Country")),
    Column("id", N_("ID")),
)
# Marked in the header (``data-key``): the browser test checks that they stay on a phone's screen.
KEY_COLUMNS = frozenset({"rank", "player", "rating", "change"})
OPTIONAL = {"country": "country", "deviation": "deviation", "title": "title", "change": "change"}  # column -> row field
STATUS_LABELS = {"active": N_("active"), "inactive": N_("inactive"), "provisional": N_("provisional"), "all": N_("all")}
CATEGORY_LABELS = {"renju": N_("Renju"), "gomoku": N_("Gomoku"), "go": N_("Go"), "shogi": N_("Shogi")}
OUTCOME_LABELS = {"won": N_("won"), "lost": N_("lost"), "drawn": N_("drawn")}
COLOUR_LABELS = {"black": N_("black"), "white": N_("white")}
MARKER_LABELS = {"new": N_("new"), "returned": N_("returned")}
# The values of a fixed vocabulary that a tournament's page shows among its facts (the contract's
# literals: ``TournamentFormat``, the Estonian list's championships), in words of the reader's
# language; what a submitter wrote freely (a rule's name, a venue) is data, shown as written.
FACT_VALUE_LABELS = {
    "face-to-face": N_("face to face"),
    "supervised-online": N_("online, supervised"),
    "world-championship-at": N_("the World Championship AT"),
    "team-world-championship": N_("the Team World Championship"),
    # A player's colour, a choice of the calculators' forms (the Go game, the shogi table).
    "black": N_("black"),
    "white": N_("white"),
}


@dataclass(frozen=True)
class ShownRow:
    player_id: str
    href: str
    cells: dict[str, str]


def shown_columns(rows: list[RatingRowRead], keys: tuple[str, ...] | None = None) -> list[Column]:
    """The columns of ``keys`` (all by default), less the optional ones no row fills."""
    chosen = [c for c in ALL_COLUMNS if keys is None or c.key in keys]
    return [c for c in chosen if c.key not in OPTIONAL or any(getattr(r, OPTIONAL[c.key]) is not None for r in rows)]


def rows_html(columns: list[Column], rows: list[ShownRow], language: i18n.Language, *, anchors: bool = True) -> Markup:
    """The table body, built here rather than in the template: a 500-row page is 5,000 cells, and a
    template loop over them costs more than the page's database reads (issue 14: under 30 ms).
    The cells are data (ISO dates, status codes, the CSV's); here they are shown in the reader's
    language, each distinct date, status or marker written once a page. Numbers are digits and
    signs; the text cells are escaped."""
    shown_cell = _ShownCells(language)
    lines = []
    for row in rows:
        cells = []
        for column in columns:
            key, value = column.key, row.cells[column.key]
            if key == "player":
                cells.append(f'<th scope="row"><a href="{_escape(row.href)}" translate="no">{_escape(value)}</a></th>')
            elif key == "rating" and is_marked_provisional(row.cells["deviation"] or None, row.cells["status"]):
                cells.append(shown_cell("provisional", value))
            elif key == "deviation":
                cells.append(f'<td class="num">{value and display.PLUS_MINUS + display.NARROW_SPACE + value}</td>')
            elif key in ("last_played", "status", "change"):
                cells.append(shown_cell(key, value))
            elif key == "rank":
                cells.append(f'<td class="num lead">{value}</td>')
            elif column.numeric:
                cells.append(f'<td class="num">{value}</td>')
            else:  # a country, a grade or rank, an id: data
                cells.append(f'<td translate="no">{_escape(value)}</td>')
        anchor = f' id="p-{_escape(row.player_id)}"' if anchors else ""
        lines.append(f"<tr{anchor}>{''.join(cells)}</tr>")
    return Markup("\n".join(lines))


class _ShownCells(dict[tuple[str, str], str]):
    """A page's cells of days, statuses and changes in the reader's language, each written once."""

    def __init__(self, language: i18n.Language) -> None:
        super().__init__()
        self.language = language
        self.gettext = i18n.translations(language.code).gettext

    def __call__(self, key: str, value: str) -> str:
        cell = self.get((key, value))
        if cell is None:
            cell = self[key, value] = self._written(key, value)
        return cell

    def _written(self, key: str, value: str) -> str:
        if key == "last_played":
            return f"<td>{_escape(i18n.shown_date(dt.date.fromisoformat(value), self.language.locale)) if value else ''}</td>"
        if key == "status":
            return f"<td>{_escape(shown_status(value, self.gettext))}</td>"
        if key == "provisional":
            word = _escape(self.gettext(STATUS_LABELS["provisional"]))
            return f'<td class="num"><abbr class="provisional" title="{word}">{PROVISIONAL_MARK}</abbr>{display.NARROW_SPACE}{value}</td>'
        shown = self.gettext(MARKER_LABELS[value]) if value in MARKER_LABELS else value
        return f'<td class="num">{_escape(shown)}</td>'


# --- how sure a rating is (issue 46 item 1) ------------------------------------------------------

PROVISIONAL_MARK = "\u2248"  # ≈: "about", before the rating of a provisional player without a deviation


def is_marked_provisional(deviation: object, status: str | None) -> bool:
    """A rating a page marks ≈: a provisional one with no deviation to say how unsure it is (the Elo
    lists' provisional and unofficial ratings, RIF 1995 #8 and GA 1997 #7; Olufsen's provisional and
    unrated players, 001 (3)). A WHR rating's deviation says it instead, whatever its status."""
    return deviation is None and status == "provisional"


def rating_with_certainty(rating: float, deviation: float | None, status: str | None) -> str:
    """A rating in a sentence: 2513 ± 40 with a deviation, ≈ 1850 when marked provisional."""
    if deviation is not None:
        return display.with_deviation(rating, deviation)
    if is_marked_provisional(deviation, status):
        return f"{PROVISIONAL_MARK}{display.NARROW_SPACE}{display.number(rating)}"
    return display.number(rating)


@dataclass(frozen=True)
class Certainty:
    """What a page says once of the ratings it shows: what ± means, told with the first of them that
    has one (WHR's deviation: one standard deviation of a normal approximation of the fit, RIF 2021
    #1-#7), and what ≈ means, when a rating on it is marked so."""

    rating: str = ""  # the example's rating, deviation and twice the deviation, as shown; "" for none
    deviation: str = ""
    twice: str = ""
    provisional: bool = False


def certainty(ratings: Iterable[tuple[float, float | None, str | None]]) -> Certainty:
    """The page's ``Certainty`` from its (rating, deviation, status) in the order shown."""
    example: tuple[float, float] | None = None
    provisional = False
    for rating, deviation, status in ratings:
        if example is None and deviation is not None:
            example = rating, deviation
        provisional = provisional or is_marked_provisional(deviation, status)
    if example is None:
        return Certainty(provisional=provisional)
    rating, deviation = example
    return Certainty(display.number(rating), display.number(deviation), str(2 * int(display.number(deviation))), provisional)


def shown_status(status: str | None, gettext: Callable[[str], str]) -> str:
    """A status as a page shows it in the reader's language ("" for none): the list's statuses by
    their labels, a system's others as they are named."""
    return gettext(STATUS_LABELS.get(status, status)) if status else ""


def shown_rows(rows: list[RatingRowRead], natives: Mapping[str, str | None], language: i18n.Language) -> list[ShownRow]:
    """The rows' cells as data; a player's name in the reader's script where he has it (``natives``)."""
    return [
        ShownRow(
            row.player_id,
            display.player_path(row.player_id),
            {
                "rank": str(row.rank),
                "player": i18n.shown_name(row.name or row.player_id, natives.get(row.player_id), language),
                "change": _change_cell(row),
                "id": row.player_id,
                "country": row.country or "",
                "rating": display.number(row.rating),
                "deviation": display.number(row.deviation),
                "games": str(row.games),
                "last_played": display.day(row.last_played),
                "status": row.status,
                "title": row.title or "",
            },
        )
        for row in rows
    ]


def _change_cell(row: RatingRowRead) -> str:
    """The change since the publication compared with, as data: a signed whole number (the shown
    rating minus the shown previous one, so that the row adds up), a marker, or empty."""
    if row.change is None or isinstance(row.change, str):
        return row.change or ""
    return display.shown_change(row.previous_rating, row.rating, row.change)


def native_names(session: Session, player_ids: list[str], language: i18n.Language) -> dict[str, str | None]:
    """The native spellings of the players shown, read only for a language whose readers may have one."""
    if not language.scripts or not player_ids:
        return {}
    return snapshot_facts.native_names(session, player_ids)


# --- home ------------------------------------------------------------------------------------------


@dataclass
class ListSummary:
    rating_list: RatingList
    snapshot: RatingSnapshot | None
    main: bool = False
    as_of: dt.date | None = None
    active: int = 0  # the players active on the day shown (the list's, or its last game's)
    columns: list[Column] = field(default_factory=list)
    rows: list[ShownRow] = field(default_factory=list)


def home(session: Session, language: i18n.Language) -> dict[str, Any]:
    """Each discipline's main list first (docs/decisions.md 7.48), then the others; each with its
    top ten *established* players (status active: INTERPRETATIONS 6.4), their status shown, and the
    date the list is as of. A list whose history ended long ago (nobody active on its date: an old
    history, INTERPRETATIONS 3.5, 1.17) is shown as it stood on its last game's day, so labelled:
    never as today's."""
    summaries = []
    for rating_list in lists_service.list_rating_lists(session):
        snapshot = lists_service.get_snapshot(session, rating_list.id, None)
        summary = ListSummary(rating_list, snapshot)
        if snapshot is not None:
            summary.as_of = snapshot.list_date
            as_of = None
            if not snapshot_facts.status_counts(session, snapshot.id).get("active"):
                as_of = snapshot_facts.last_game_date(session, snapshot.id)
                summary.as_of = as_of or snapshot.list_date
            # The count of the day the card shows, as its top ten are (issue 47 item 4: not "0 active"
            # above ten players marked active).
            rows, summary.active = lists_service.ratings(
                session,
                snapshot,
                system=lists_service.system_of(rating_list),
                as_of=as_of,
                country=None,
                status="active",
                limit=TOP,
                offset=0,
            )
            summary.columns = shown_columns(rows, ("rank", "player", "rating", "status", "title"))
            summary.rows = shown_rows(rows, native_names(session, [r.player_id for r in rows], language), language)
        summaries.append(summary)
    mains = main_list_ids((summary.rating_list, summary.snapshot) for summary in summaries)
    for summary in summaries:
        summary.main = summary.rating_list.id in mains
    # The main lists first, then the others; the lists that rate someone first; each part by
    # discipline, the service's own first of all; else by id.
    summaries.sort(key=lambda summary: (not summary.main, not summary.rows, discipline_order(summary.rating_list.category)))
    return {"summaries": summaries}


def main_list_ids(lists: Iterable[tuple[RatingList, RatingSnapshot | None]]) -> set[str]:
    """Each discipline's main list (docs/decisions.md 7.48, 135): the one kept current (automatic
    recompute) that rates players, the most players among several."""
    best: dict[str, tuple[tuple[bool, bool, int], str]] = {}
    for rating_list, snapshot in lists:
        players = snapshot.players if snapshot is not None else 0
        key = (rating_list.auto_recompute, players > 0, players)
        if rating_list.category not in best or key > best[rating_list.category][0]:
            best[rating_list.category] = key, rating_list.id
    return {list_id for _, list_id in best.values()}


def ordered_lists(session: Session) -> list[tuple[RatingList, RatingSnapshot | None]]:
    """Every list with its current snapshot, in the order a player's page and the search show them:
    each discipline's main list first, the service's own discipline's first of all, then the other
    lists by discipline in the same order (issue 47 item 4)."""
    lists = [
        (rating_list, lists_service.get_snapshot(session, rating_list.id, None))
        for rating_list in lists_service.list_rating_lists(session)
    ]
    mains = main_list_ids(lists)
    return sorted(lists, key=lambda pair: (pair[0].id not in mains, discipline_order(pair[0].category)))


def discipline_order(category: str) -> tuple[bool, int]:
    """The service's own discipline first (``MAIN_DISCIPLINE``: a renju service does not open on
    shogi, issue 47 item 4), then the others in the contract's order."""
    return category != get_settings().main_discipline, CATEGORIES.index(category) if category in CATEGORIES else len(CATEGORIES)


# --- a rating list -------------------------------------------------------------------------------


def rating_list_page(session: Session, list_id: str, query: ListQuery, language: i18n.Language) -> dict[str, Any]:
    """A page of the live list (compared with the list's latest publication, as the API's is: the
    change column) or of a pinned snapshot (read as it was, without comparison)."""
    rating_list = lists_service.get_rating_list(session, list_id)
    snapshot = lists_service.get_snapshot(session, list_id, query.snapshot)

    def read(as_of: dt.date | None) -> tuple[list[RatingRowRead], int]:
        return lists_service.ratings(
            session,
            snapshot,
            system=lists_service.system_of(rating_list),
            as_of=as_of,
            country=query.country,
            status=query.status,
            limit=query.per_page,
            offset=query.offset,
            gender=query.gender.upper() if query.gender else None,
            played_within_12_months=query.played_within_12_months,
        )

    rows, total = read(query.as_of)
    # A list page shows its players by default (issue 47 item 4, docs/decisions.md 136): when nobody
    # is active on the list's date (an old history: INTERPRETATIONS 3.5, 1.17) and the reader chose
    # neither a status nor a date, the list is shown as it stood on its last game's day, as the home
    # page's card shows it, and says so; a chosen status=active still shows the list's own date.
    last_game_view = None
    if total == 0 and snapshot is not None and not query.status_chosen and query.as_of is None:
        last_game_view = snapshot_facts.last_game_date(session, snapshot.id)
        shown_then = read(last_game_view) if last_game_view is not None and last_game_view < snapshot.list_date else ([], 0)
        if shown_then[1]:
            rows, total = shown_then
        else:  # nobody active then either (provisional players only): the empty page offers the others
            last_game_view = None
    latest = publications.latest_publication(session, list_id)
    if query.snapshot is None and query.as_of is None and last_game_view is None:
        rows = publications.compare_rows(session, latest, rows)
    pages = max(1, math.ceil(total / query.per_page))
    pinned = query.snapshot is not None and snapshot is not None and snapshot.id != rating_list.current_snapshot_id
    context: dict[str, Any] = {
        "rating_list": rating_list,
        "snapshot": snapshot,
        "pinned": pinned,
        # The current snapshot's page says when the list stopped showing every change (a pinned one's is as computed).
        "stale": staleness.of(rating_list) if snapshot is not None and not pinned else None,
        "query": query,
        "latest": latest,
        "last_game_view": last_game_view,
        "columns": shown_columns(rows),
        "rows": shown_rows(rows, native_names(session, [r.player_id for r in rows], language), language),
        "certainty": certainty((r.rating, r.deviation, r.status) for r in rows),
        "total": total,
        "pages": pages,
        "countries": snapshot_facts.countries(session, snapshot.id) if snapshot else [],
        "statuses": STATUSES,
        "page_sizes": sorted({*PAGE_SIZES, query.per_page}),
        "last_game": None,
        "page_link": lambda n: display.with_query(display.list_path(list_id), **query.params(page=n if n != 1 else None)),
    }
    if total == 0 and snapshot is not None and query.status == "active" and query.as_of is None and query.country is None:
        # An old history has nobody active on the list's date (five years without a rated game:
        # INTERPRETATIONS 3.5, 1.17): offer the list as it stood on its last game's day.
        context["last_game"] = snapshot_facts.last_game_date(session, snapshot.id)
    return context


def publications_page(session: Session, list_id: str, page: int) -> dict[str, Any]:
    rating_list = lists_service.get_rating_list(session, list_id)
    found, total = publications.list_publications(session, list_id, SNAPSHOTS_PAGE_SIZE, (page - 1) * SNAPSHOTS_PAGE_SIZE)
    return {
        "rating_list": rating_list,
        "publications": found,
        "total": total,
        "page": page,
        "pages": max(1, math.ceil(total / SNAPSHOTS_PAGE_SIZE)),
        "page_link": lambda n: display.with_query(display.list_path(list_id) + "/publications", page=n if n != 1 else None),
    }


def publication_page(session: Session, list_id: str, number: int, query: ListQuery, language: i18n.Language) -> dict[str, Any]:
    """A publication as it was published, forever: its rows with the change since the previous
    publication ("new", "returned" instead of a number), and who left since and why."""
    rating_list = lists_service.get_rating_list(session, list_id)
    publication = publications.get_publication(session, list_id, number)
    rows, total = publications.publication_rows(
        session, publication, country=query.country, status=query.status, limit=query.per_page, offset=query.offset
    )
    base = f"{display.list_path(list_id)}/publications/{number}"
    departures = publication.departures if query.page == 1 else []
    natives = native_names(session, [d["player_id"] for d in departures], language)
    return {
        "rating_list": rating_list,
        "publication": publication,
        "query": query,
        "columns": shown_columns(rows),
        "rows": shown_rows(rows, native_names(session, [r.player_id for r in rows], language), language),
        "certainty": certainty((r.rating, r.deviation, r.status) for r in rows),
        "total": total,
        "pages": max(1, math.ceil(total / query.per_page)),
        "statuses": STATUSES,
        "page_sizes": sorted({*PAGE_SIZES, query.per_page}),
        "departures": departures,
        "departed_names": {
            d["player_id"]: i18n.shown_name(d["name"] or d["player_id"], natives.get(d["player_id"]), language)
            for d in departures
        },
        "reasons": DEPARTURE_REASONS,
        "page_link": lambda n: display.with_query(base, **query.params(page=n if n != 1 else None)),
    }


DEPARTURE_REASONS = {
    "became_inactive": N_("became inactive: no rated game in the period the list's rules allow"),
    "not_on_list": N_("no longer on the list: none of his rated games counts any more"),
}


def csv_rows(context: dict[str, Any]) -> list[list[str]]:
    """The table of a list page as CSV rows: its header, then each row's cells as shown, a number as
    a number a spreadsheet reads (a change shown +45 or −51 written 45 or -51, issue 47 item 6). A
    text cell that a spreadsheet would run as a formula (a name submitted as "=..."; OWASP's CSV
    injection) gets a leading apostrophe, which spreadsheets show as text and do not display."""
    columns: list[Column] = context["columns"]
    return [[c.header for c in columns]] + [[_as_data(row.cells[c.key]) for c in columns] for row in context["rows"]]


_SHOWN_SIGNED_NUMBER = re.compile(f"^[+{display.MINUS}][0-9]+$")


def _as_data(cell: str) -> str:
    if _SHOWN_SIGNED_NUMBER.match(cell):
        return cell.replace(display.MINUS, "-").removeprefix("+")
    return "'" + cell if cell[:1] in ("=", "+", "-", "@", "\t", "\r") else cell


def snapshots_page(session: Session, list_id: str, page: int) -> dict[str, Any]:
    rating_list = lists_service.get_rating_list(session, list_id)
    snapshots, total = lists_service.list_snapshots(session, list_id, SNAPSHOTS_PAGE_SIZE, (page - 1) * SNAPSHOTS_PAGE_SIZE)
    return {
        "rating_list": rating_list,
        "snapshots": snapshots,
        "total": total,
        "page": page,
        "pages": max(1, math.ceil(total / SNAPSHOTS_PAGE_SIZE)),
        "page_link": lambda n: display.with_query(display.list_path(list_id) + "/snapshots", page=n if n != 1 else None),
    }


# --- a player --------------------------------------------------------------------------------------


@dataclass
class PlayerList:
    """The player under one list: his line, his move since the list's latest publication, his chart
    and his tournaments' changes."""

    rating_list: RatingList
    snapshot: RatingSnapshot
    standing: player_record.ListStanding | None
    since: Since | None
    chart: str
    points: int
    changes: list[player_record.TournamentChange]
    has_titles: bool
    stale: staleness.Stale | None = None  # the list does not show every change since (its notice)
    why: WhyChanged | None = None  # why his rating changed (issue 47 item 1)


@dataclass(frozen=True)
class Since:
    """His row in the list's latest publication against his live row (docs/decisions.md 7.23)."""

    publication: Publication
    previous_rating: float | None
    previous_place: int | None
    change: str  # signed, as shown, or the marker "new" / "returned"


def merged_into(session: Session, player_id: str) -> str | None:
    """The player a merged record went to (its page redirects there), or None."""
    player = session.get(Player, player_id)
    return player.merged_into if player is not None else None


def player_page(
    session: Session, player_id: str, language: i18n.Language, page: int = 1, why: WhyQuery | None = None
) -> dict[str, Any]:
    player = players.get_player(session, player_id)
    latin = display.full_name(player.name, player.surname) or player.id
    name = i18n.shown_name(latin, player.native_name, language)
    translations = i18n.translations(language.code)
    changes_by_list: dict[str, list[player_record.TournamentChange]] = defaultdict(list)
    for change in player_record.tournament_changes(session, player_id):
        changes_by_list[change.list_id].append(change)
    sections = []
    for rating_list, snapshot in ordered_lists(session):
        if snapshot is None:
            continue
        points = lists_service.player_history(session, player_id, snapshot)
        standing = player_record.standing(session, snapshot.id, player_id)
        changes = changes_by_list.get(rating_list.id, [])
        if not points and standing is None and not changes:
            continue
        chart_points = [ChartPoint(p["date"], p["rating"], p["deviation"], p["title"]) for p in points]
        chart = rating_chart(
            chart_points,
            chart_id=f"chart-{rating_list.id}",
            subject=f"{name}: {rating_list.name}",
            translations=translations,
            format_day=lambda day: i18n.shown_date(day, language.locale),
        )
        sections.append(
            PlayerList(
                rating_list,
                snapshot,
                standing,
                _since(session, rating_list.id, standing),
                chart,
                len(points),
                changes,
                has_titles=any(c.change.title_after for c in changes),
                stale=staleness.of(rating_list),
                why=why_changed(session, player_id, rating_list, why or WhyQuery()),
            )
        )
    games_total = player_record.game_count(session, player_id)
    games = player_record.games(session, player_id, limit=GAMES_PAGE_SIZE, offset=(page - 1) * GAMES_PAGE_SIZE)
    natives = native_names(session, sorted({game.opponent_id for game in games}), language)
    opponents = {
        game.opponent_id: i18n.shown_name(game.opponent_name or game.opponent_id, natives.get(game.opponent_id), language)
        for game in games
    }
    path = display.player_path(player_id)
    standings = [s.standing.entry for s in sections if s.standing is not None]
    changes_of_record, changes_total = revisions.revisions_of(session, revisions.PLAYER, player_id, RECORD_CHANGES_SHOWN, 0)
    return {
        "player": player,
        "name": name,
        "declared": player_record.declared(session, player_id),
        "record_changes": changes_of_record,
        "record_changes_total": changes_total,
        "record_change_kinds": RECORD_CHANGE_KINDS,
        "sections": sections,
        "certainty": certainty((e.rating, e.deviation, e.status) for e in standings),
        "games": games,
        "games_total": games_total,
        "opponents": opponents,
        "page": page,
        "pages": max(1, math.ceil(games_total / GAMES_PAGE_SIZE)),
        "page_link": lambda n: display.with_query(path, page=n if n != 1 else None) + "#games",
    }


# Who the player is, as each change of his record made him (docs/decisions.md 108): the kinds named
# in words; the latest changes shown (a record changes a few times in its life).
RECORD_CHANGES_SHOWN = 50
RECORD_CHANGE_KINDS = {
    "player_created": N_("created"),
    "player_updated": N_("changed"),
    "renamed": N_("renamed"),
    "merged": N_("merged"),
    "unmerged": N_("unmerged"),
    "review_dismissed": N_("proposal dismissed"),
}


def tournament_rows_html(section: PlayerList, player_id: str, language: i18n.Language) -> Markup:
    """The rows of his tournaments on a list, built here as the list pages' rows are (``rows_html``):
    a busy player has hundreds, and a template loop over their cells was a third of his page."""
    gettext = i18n.translations(language.code).gettext
    figures_title = _escape(gettext("The figures behind this change"))
    statuses = _ShownCells(language)
    list_part = _escape(section.rating_list.id)
    player_part = _escape(player_id)
    lines = []
    for t in section.changes:
        c = t.change
        path = _escape(display.tournament_path(t.tournament_id))
        title = f'<td translate="no">{_escape(c.title_after or "")}</td>' if section.has_titles else ""
        lines.append(
            f'<tr><th scope="row"><a href="{path}" translate="no">{_escape(t.tournament_name)}</a></th>'
            f'<td class="num">{display.number(c.rating_after)}</td>'
            f'<td class="num"><a href="{path}/lists/{list_part}/figures#player-{player_part}" title="{figures_title}">'
            f"{display.shown_change(c.rating_before, c.rating_after, c.change)}</a></td>"
            f'<td class="num">{display.number(c.rating_before)}</td>'
            f"<td>{_escape(i18n.shown_date(t.end, language.locale))}</td>"
            f'<td class="num">{c.games_counted}</td>'
            f"{statuses('status', c.status_after or '')}{title}</tr>"
        )
    return Markup("\n".join(lines))


def game_rows_html(
    games: list[player_record.PlayedGame], opponents: Mapping[str, str], language: i18n.Language, player_id: str
) -> Markup:
    """The rows of a page of his games, built here for the same reason (a hundred rows of six cells);
    in the last cell, a link to the games against each other (``head_to_head_page``)."""
    gettext = i18n.translations(language.code).gettext
    words = {key: _escape(gettext(label)) for key, label in (OUTCOME_LABELS | COLOUR_LABELS).items()}
    versus = _escape(gettext("head to head"))
    not_played = " (" + _escape(gettext("not played")) + ")"
    handicap_stones = gettext("handicap %(stones)s")
    lines = []
    for g in games:
        handicap = " (" + _escape(handicap_stones % {"stones": g.handicap}) + ")" if g.handicap else ""
        lines.append(
            f'<tr><th scope="row"><a href="{_escape(display.player_path(g.opponent_id))}" translate="no">{_escape(opponents[g.opponent_id])}</a></th>'
            f"<td>{words[g.outcome]}{'' if g.played else not_played}</td>"
            f"<td>{words[g.colour]}{handicap}</td>"
            f"<td>{_escape(i18n.shown_date(g.date, language.locale))}</td>"
            f'<td><a href="{_escape(display.tournament_path(g.tournament_id))}" translate="no">{_escape(g.tournament_name)}</a></td>'
            f'<td translate="no">{_escape(g.round or "")}</td>'
            f'<td><a class="versus" href="{_escape(display.versus_path(player_id, g.opponent_id))}">{versus}</a></td></tr>'
        )
    return Markup("\n".join(lines))


@dataclass(frozen=True)
class VersusPrediction:
    list_name: str
    list_id: str
    a_rating: str
    b_rating: str
    chance: str  # a's chance as a percentage, or "" when the list held no rating of one of them


def head_to_head_page(session: Session, player_id: str, opponent_id: str, language: i18n.Language) -> dict[str, Any]:
    """Two players' games against each other, the score, and what each list that rated a game
    predicted of it the day before (``app.services.predictions.head_to_head``)."""
    answer = predictions.head_to_head(session, player_id, opponent_id)
    natives = native_names(session, [player_id, opponent_id], language)
    names = {
        pid: i18n.shown_name(name or pid, natives.get(pid), language)
        for name, pid in ((answer.a_name, player_id), (answer.b_name, opponent_id))
    }
    list_names = {rating_list.id: rating_list.name for rating_list in lists_service.list_rating_lists(session)}
    games = [
        {
            **game.model_dump(exclude={"predictions"}),
            "outcome": OUTCOME_LABELS[{"win": "won", "loss": "lost", "draw": "drawn"}[game.result]],
            "colour": COLOUR_LABELS["black" if game.black == player_id else "white"],
            "shown_predictions": [
                VersusPrediction(
                    list_names.get(p.list_id, p.list_id),
                    p.list_id,
                    display.number(p.a_rating),
                    display.number(p.b_rating),
                    format_percent(p.a_beats_b, locale=language.locale) if p.a_beats_b is not None else "",
                )
                for p in game.predictions
            ],
        }
        for game in reversed(answer.games)  # the latest first, as his games are listed
    ]
    return {"a": player_id, "b": opponent_id, "names": names, "tally": answer.score, "games": games}


# --- who is favoured (issue 46 item 2) -----------------------------------------------------------

CANDIDATES_SHOWN = 10  # a name that several players share: the best matches offered to choose from


@dataclass(frozen=True)
class ChosenPlayer:
    """What a reader typed for one of the two players, and whom it names: a player's id, else the
    name of exactly one player (the search's, ``app.services.players.search_players``); several
    players matching are offered to choose from."""

    typed: str
    player_id: str | None = None
    candidates: tuple[tuple[str, str], ...] = ()  # (player id, name as shown), the best match first
    more: bool = False  # more players match than are offered


def parse_prediction_query(raw: Mapping[str, str]) -> tuple[str, str]:
    """The two players typed (an id or a name each, up to 200 characters, as the search reads ``q``)."""
    return parse_search({"q": raw.get("a") or ""}), parse_search({"q": raw.get("b") or ""})


def prediction_page(session: Session, list_id: str, typed_a: str, typed_b: str, language: i18n.Language) -> dict[str, Any]:
    """The calculator of who is favoured between two players of a list: the list's own answer,
    ``app.services.predictions.predict`` (that of ``GET /v1/rating-lists/{list_id}/predict``), for the
    two players the reader named; what it cannot answer (a player not on the list, the same player
    twice) said beside the form in the service's words."""
    rating_list = lists_service.get_rating_list(session, list_id)
    a, b = _chosen(session, typed_a, language), _chosen(session, typed_b, language)
    context: dict[str, Any] = {"rating_list": rating_list, "a": a, "b": b, "answer": None, "refusal": None}
    if a.player_id is None or b.player_id is None:
        return context
    try:
        answer = predictions.predict(session, list_id, a.player_id, b.player_id)
    except Problem as problem:
        context["refusal"] = service_words.shown_detail(problem.detail, language)
        return context
    natives = native_names(session, [a.player_id, b.player_id], language)
    names = {
        row.id: i18n.shown_name(display.full_name(row.name, row.surname) or row.id, natives.get(row.id), language)
        for row in (players.get_player(session, a.player_id), players.get_player(session, b.player_id))
    }
    context["answer"] = {
        **answer.model_dump(),
        "names": {"a": names[a.player_id], "b": names[b.player_id]},
        "versus": display.versus_path(a.player_id, b.player_id),
        "ratings": {
            "a": display.with_deviation(answer.a.rating, answer.a.deviation),
            "b": display.with_deviation(answer.b.rating, answer.b.deviation),
        },
        "beats": _chance(answer.a_beats_b, language),
        "above": _chance(answer.a_above_b, language) if answer.a_above_b is not None else None,
    }
    context["certainty"] = certainty((player.rating, player.deviation, None) for player in (answer.a, answer.b))
    return context


def _chance(probability: float, language: i18n.Language) -> str:
    """A chance as a percentage to a tenth (64.1%), in the language's digits and separators."""
    return format_percent(probability, "#,##0.0%", locale=language.locale)


def _chosen(session: Session, typed: str, language: i18n.Language) -> ChosenPlayer:
    if not typed:
        return ChosenPlayer(typed)
    hits, total = players.search_players(session, q=typed, country=None, external=None, limit=CANDIDATES_SHOWN, offset=0)
    if hits and hits[0][0].id == typed:  # an id, found first (the search's own order)
        return ChosenPlayer(typed, typed)
    if total == 1:
        return ChosenPlayer(typed, hits[0][0].id)
    shown = tuple((p.id, i18n.shown_name(display.full_name(p.name, p.surname) or p.id, p.native_name, language)) for p, _ in hits)
    return ChosenPlayer(typed, None, shown, total > len(shown))


def _since(session: Session, list_id: str, standing: player_record.ListStanding | None) -> Since | None:
    latest = publications.latest_publication(session, list_id)
    if latest is None or standing is None:
        return None
    entry = standing.entry
    fields = publications.comparison(
        entry.rating, entry.status, publications.published_row(session, latest, entry.player_id), True
    )
    if fields["marker"]:
        change = fields["marker"]
    else:
        change = display.shown_change(fields["previous_rating"], entry.rating, fields["change"])
    return Since(latest, fields["previous_rating"], fields["previous_place"], change)


# --- a tournament ----------------------------------------------------------------------------------


@dataclass
class ListChanges:
    rating_list: RatingList
    rows: list[Any]
    has_titles: bool


# What the tournament's page lists of its fields: those its declarations mark ``Shown``, in their
# order, under their labels (app/web/declared_words.py gives the labels to the catalogues), then
# those of each system's conditions (``condition_facts``).
TOURNAMENT_FACTS = shown_fields(TournamentDetails)


def condition_facts() -> list[tuple[str, str, str]]:
    """(system, field, label) of each system's conditions that the tournament's page shows: those its
    model marks ``Shown``, system by system in registry order."""
    return [
        (system.id, name, label)
        for system in conditioned_systems()
        if system.conditions_model is not None
        for name, label in shown_fields(system.conditions_model)
    ]


def tournament_page(session: Session, tournament_id: str, language: i18n.Language) -> dict[str, Any]:
    tournament, games, entrants, changes = tournament_reads.get_tournament(session, tournament_id)
    latin = {p.id: display.full_name(p.name, p.surname) or p.id for p, _ in entrants}
    names = {p.id: i18n.shown_name(latin[p.id], p.native_name, language) for p, _ in entrants}
    declared_rank = {p.id: entry.rank for p, entry in entrants if entry is not None and entry.rank}
    stored_standings = tournament_reads.get_standings(session, tournament_id)
    table = crosstable(
        [p.id for p, _ in entrants],
        [CrossGame(g.round, g.black_id, g.white_id, g.result, g.played) for g in games],
        order_key=lambda pid: latin.get(pid, pid).lower(),
        standings=[Standing(s.player_id, s.place, tuple(t["value"] for t in s.tie_breaks)) for s in stored_standings],
        tie_break_names=[t["name"] for t in stored_standings[0].tie_breaks] if stored_standings else [],
    )
    number = {row.player_id: row.number for row in table.rows}
    lists = {rl.id: rl for rl in lists_service.list_rating_lists(session)}
    by_list: dict[str, list[Any]] = defaultdict(list)
    for list_id, _, change in changes:
        by_list[list_id].append(change)
    list_changes = [
        ListChanges(lists[list_id], sorted(rows, key=lambda c: number.get(c.player_id, 0)), any(c.title_after for c in rows))
        for list_id, rows in sorted(by_list.items())
    ]
    facts = [(label, getattr(tournament, key)) for key, label in TOURNAMENT_FACTS]
    documents = whole_documents(tournament.conditions)
    facts += [(label, documents[system_id][name]) for system_id, name, label in condition_facts()]
    facts = [(label, value) for label, value in facts if value not in (None, "")]
    stale = tournament_reads.stale_lists_of(session, tournament, set(by_list))
    return {
        # The lists rating it that do not show every change since (``stale_lists`` of its API read).
        "stale_lists": [(lists[mark.list_id], mark) for mark in stale],
        "tournament": tournament,
        "facts": facts,
        "table": table,
        "names": names,
        "declared_rank": declared_rank,
        "entrants": crosstable_entrants(entrants, list_changes),
        "games_count": len(games),
        "unplayed": sum(1 for g in games if not g.played),
        "list_changes": list_changes,
    }


def crosstable_rows_html(table: Crosstable, names: Mapping[str, str], entrants: CrosstableEntrants) -> Markup:
    """The crosstable's rows, built here as a list page's are (``rows_html``): a tournament of a few
    dozen players over several rounds is thousands of cells, and a template loop over them was the
    larger part of its page's rendering."""
    lines = []
    for row in table.rows:
        player = row.player_id
        cells = [
            f'<tr><td class="num lead">{row.number}</td><td>{_escape(row.place)}</td>'
            f'<th scope="row"><a href="{_escape(display.player_path(player))}" translate="no">{_escape(names.get(player, player))}</a></th>'
        ]
        if entrants.country:
            cells.append(f'<td translate="no">{_escape(entrants.country.get(player, ""))}</td>')
        if entrants.rank:
            cells.append(f'<td translate="no">{_escape(entrants.rank.get(player, ""))}</td>')
        cells += [f'<td class="num">{display.number(before.get(player))}</td>' for _, before in entrants.ratings_before]
        cells += [
            f'<td class="cell">{_escape(" ".join(cell.text for cell in row.cells.get(label, ())))}</td>' for label in table.rounds
        ]
        cells.append(f'<td class="num">{display.score(row.score)}</td>')
        tie_breaks = (
            [display.tie_break(value) for _, value in zip(table.tie_break_names, row.tie_breaks, strict=True)]
            if row.tie_breaks
            else [""] * len(table.tie_break_names)
        )
        cells += [f'<td class="num">{_escape(value)}</td>' for value in tie_breaks]
        lines.append("".join(cells) + "</tr>")
    return Markup("\n".join(lines))


def change_rows_html(changes: ListChanges, names: Mapping[str, str], language: i18n.Language) -> Markup:
    """Each player's change on one list, rows built here as the crosstable's are."""
    statuses = _ShownCells(language)
    lines = []
    for c in changes.rows:
        title = f'<td translate="no">{_escape(c.title_after or "")}</td>' if changes.has_titles else ""
        lines.append(
            f'<tr><th scope="row"><a href="{_escape(display.player_path(c.player_id))}" translate="no">'
            f"{_escape(names.get(c.player_id, c.player_id))}</a></th>"
            f'<td class="num">{display.number(c.rating_after)}</td>'
            f'<td class="num">{display.shown_change(c.rating_before, c.rating_after, c.change)}</td>'
            f'<td class="num">{display.number(c.rating_before)}</td>'
            f'<td class="num">{c.games_counted}</td>'
            f"{statuses('status', c.status_after or '')}{title}</tr>"
        )
    return Markup("\n".join(lines))


@dataclass
class CrosstableEntrants:
    """What the crosstable shows of each player besides his games: country, rank or grade, and his
    rating before the tournament on each list that rates it (docs/decisions.md 7.35)."""

    country: dict[str, str]
    rank: dict[str, str]  # declared at the tournament, else the grade or rank a list gave him after it
    rank_from_lists: bool  # some shown ranks are a list's grade after the tournament, not declared ones
    ratings_before: list[tuple[RatingList, dict[str, float | None]]]


def crosstable_entrants(entrants: list[tuple[Player, Any]], list_changes: list[ListChanges]) -> CrosstableEntrants:
    rank = {p.id: entry.rank for p, entry in entrants if entry is not None and entry.rank}
    declared = set(rank)
    for changes in list_changes:
        for change in changes.rows:
            if change.title_after and change.player_id not in rank:
                rank[change.player_id] = change.title_after
    return CrosstableEntrants(
        country={p.id: p.country for p, _ in entrants if p.country},
        rank=rank,
        rank_from_lists=set(rank) != declared,
        ratings_before=[(c.rating_list, {change.player_id: change.rating_before for change in c.rows}) for c in list_changes],
    )


def figures_page(session: Session, tournament_id: str, list_id: str) -> dict[str, Any]:
    """One list's changes of the tournament with their details, players in the crosstable's order."""
    tournament, games, entrants, changes = tournament_reads.get_tournament(session, tournament_id)
    rating_list = lists_service.get_rating_list(session, list_id)
    names = {p.id: display.full_name(p.name, p.surname) or p.id for p, _ in entrants}
    rows = sorted(
        (change for changed_list, _, change in changes if changed_list == list_id),
        key=lambda c: names.get(c.player_id, c.player_id).lower(),
    )
    return {"tournament": tournament, "rating_list": rating_list, "names": names, "changes": rows}


# --- search and index ------------------------------------------------------------------------------


def player_search(session: Session, q: str | None, page: int, language: i18n.Language) -> dict[str, Any]:
    found: list[Player] = []
    total = 0
    if q:
        hits, total = players.search_players(
            session, q=q, country=None, external=None, limit=SEARCH_PAGE_SIZE, offset=(page - 1) * SEARCH_PAGE_SIZE
        )
        found = [player for player, _ in hits]
    # Issue 24 item 3: each hit with his disciplines and his rating on every list that rates him now,
    # each named by its list (issue 47 item 4: a phone has no hover), in the order of a player's page.
    details = players.hit_details(session, [p.id for p in found]) if found else {}
    order = {rating_list.id: place for place, (rating_list, _) in enumerate(ordered_lists(session))} if found else {}
    return {
        "q": q or "",
        "players": found,
        "details": details,
        "ratings": {
            player_id: sorted(hit["ratings"], key=lambda rating: order.get(rating["list_id"], len(order)))
            for player_id, hit in details.items()
        },
        "list_names": {rating_list.id: rating_list.name for rating_list in lists_service.list_rating_lists(session)}
        if found
        else {},
        "names": {p.id: i18n.shown_name(display.full_name(p.name, p.surname) or p.id, p.native_name, language) for p in found},
        "total": total,
        "page": page,
        "pages": max(1, math.ceil(total / SEARCH_PAGE_SIZE)),
        "page_link": lambda n: display.with_query("/players", q=q, page=n if n != 1 else None),
    }


def tournament_index(session: Session, query: TournamentQuery) -> dict[str, Any]:
    rows, total = tournament_reads.list_tournaments(
        session,
        category=query.category,
        year=query.year,
        country=query.country,
        limit=TOURNAMENTS_PAGE_SIZE,
        offset=(query.page - 1) * TOURNAMENTS_PAGE_SIZE,
    )
    countries, years = tournament_reads.tournament_filters(session)
    return {
        "rows": rows,
        "total": total,
        "query": query,
        "filtered": any(value is not None for value in (query.category, query.country, query.year)),
        "category_choices": CATEGORIES,
        "countries": countries,
        "years": years,
        "page": query.page,
        "pages": max(1, math.ceil(total / TOURNAMENTS_PAGE_SIZE)),
        "page_link": lambda n: display.with_query("/tournaments", **query.params(page=n if n != 1 else None)),
    }


def parse_drift_query(raw: Mapping[str, str]) -> int | None:
    """The cohort's base year, as the drift endpoint's ``cohort_year`` takes it (1-9999; empty: the default)."""
    typed = (raw.get("cohort_year") or "").strip()
    if not typed:
        return None
    if not (typed.isascii() and typed.isdigit() and 1 <= int(typed) <= 9999):
        raise PageInputError.of([FieldError("query:cohort_year", f"a year is a whole number 1-9999, not {typed[:20]!r}")])
    return int(typed)


def drift_page(session: Session, list_id: str, cohort_year: int | None, language: i18n.Language) -> dict[str, Any]:
    """How the list's ratings drift (issue 46 item 4): the drift endpoint's own answer
    (``app.services.drift.drift_of``) as a chart and a table, newest month first in the table."""
    rating_list = lists_service.get_rating_list(session, list_id)
    answer = drift_service.drift_of(session, list_id, cohort_year)
    points = [
        DriftPoint(
            month.date,
            month.mean,
            month.median,
            month.percentiles.p25 if month.percentiles else None,
            month.percentiles.p75 if month.percentiles else None,
            month.cohort_mean,
        )
        for month in answer.months
    ]
    chart = drift_chart(
        points,
        chart_id=f"drift-{rating_list.id}",
        subject=f"{rating_list.name}: {i18n.translations(language.code).gettext('Drift')}",
        translations=i18n.translations(language.code),
        format_day=lambda day: i18n.shown_date(day, language.locale),
    )
    years = sorted({month.date.year for month in answer.months})
    return {
        "rating_list": rating_list,
        "answer": answer,
        "chart": chart,
        "years": years,
        "stale": staleness.of(rating_list) if answer.snapshot_id is not None else None,
        "rows_html": _drift_rows_html(answer.months, language),
    }


def _drift_rows_html(months: list[DriftMonth], language: i18n.Language) -> Markup:
    """The drift table's body, newest month first, built here as a list page's is (``rows_html``): a
    RIF-sized series is 418 rows of ten cells, which a template loop renders in more time than the
    series takes to compute. Every cell is digits, signs and an ISO month."""
    lines = []
    for month in reversed(months):
        p = month.percentiles
        numbers = [month.mean, month.median, month.cohort_mean]
        quantiles = [p.p10, p.p25, p.p75, p.p90] if p is not None else [None] * 4
        cells = [
            *(display.number(value) for value in numbers),
            i18n.shown_count(month.active_players, language.locale),
            *(display.number(value) for value in quantiles),
            i18n.shown_count(month.cohort_active, language.locale),
        ]
        lines.append(
            f'<tr><th scope="row"><time datetime="{month.date.isoformat()}">{month.month}</time></th>'
            + "".join(f'<td class="num">{cell}</td>' for cell in cells)
            + "</tr>"
        )
    return Markup("\n".join(lines))


# The evaluations the accuracy page reads at most to find the latest that succeeded and the latest
# with a sweep (newest first, a page of them at a time).
_EVALUATIONS_PAGE = 20
_EVALUATIONS_READ = 200


def evaluations_state(session: Session, list_id: str) -> tuple[int, int | None]:
    """What the accuracy page of a list depends on besides the list: its succeeded evaluations, as
    their count and the newest id (a job's result never changes once it has succeeded, and jobs are
    never renumbered, so the two change with every evaluation that succeeds). Read without its rows."""
    count, newest = session.execute(
        select(func.count(), func.max(Job.id)).where(
            Job.list_id == list_id, Job.kind == recompute_jobs.EVALUATION, Job.status == recompute_jobs.SUCCEEDED
        )
    ).one()
    return int(count or 0), newest


def _latest_evaluations(session: Session, list_id: str) -> tuple[EvaluationRead | None, EvaluationRead | None]:
    """The list's newest succeeded evaluation and its newest succeeded one with a sweep, through the
    evaluations' own service (the API's answers), newest first."""
    latest: EvaluationRead | None = None
    swept: EvaluationRead | None = None
    for offset in range(0, _EVALUATIONS_READ, _EVALUATIONS_PAGE):
        found, total = evaluations_service.list_evaluations(session, list_id, limit=_EVALUATIONS_PAGE, offset=offset)
        for job in found:
            if job.status != recompute_jobs.SUCCEEDED:
                continue
            read = evaluations_service.evaluation_read(job)
            if read.result is None:
                continue
            latest = latest or read
            if read.result.sweep is not None:
                swept = read
                return latest, swept
        if offset + _EVALUATIONS_PAGE >= total:
            break
    return latest, swept


def decimal(value: float | None, language: i18n.Language, digits: int = 3) -> str:
    """A score as the accuracy page writes it: ``digits`` decimals in the language's own signs."""
    if value is None:
        return ""
    return format_decimal(value, "0." + "0" * digits, locale=language.locale)


def parameter_value(value: float, language: i18n.Language) -> str:
    """A parameter's value as its officer typed it: 12.9, 25 (no trailing zeros)."""
    return format_decimal(value, "#,##0.####", locale=language.locale)


def share(value: float | None, language: i18n.Language) -> str:
    return "" if value is None else format_percent(value, "#,##0.0%", locale=language.locale)


def _refits_each_period(system_id: str) -> bool:
    """Whether a forward evaluation of the system refits its whole history at each period's start
    (a system with a forecast of its own: WHR) rather than reading each game's ratings from one replay."""
    try:
        return get_system(system_id).forecast is not None
    except UnknownSystem:
        return False


def accuracy_page(session: Session, list_id: str, language: i18n.Language) -> dict[str, Any]:
    """How well the list predicts its own games (issue 45 item 4): its newest succeeded evaluation's
    scores, calibration plot and tables by year, rating band and gap, the parameter's curve of its
    newest evaluation with a sweep (of a sweep of two parameters, the table of its pairs), and the
    other lists beside it when asked."""
    rating_list = lists_service.get_rating_list(session, list_id)
    latest, swept = _latest_evaluations(session, list_id)
    translations = i18n.translations(language.code)
    context: dict[str, Any] = {
        "rating_list": rating_list,
        "evaluation": latest,
        "swept": swept,
        "refitted": _refits_each_period(rating_list.system),
        "decimal": lambda value, digits=3: decimal(value, language, digits),
        "share": lambda value: share(value, language),
        "parameter_value": lambda value: parameter_value(value, language),
        "ninety_five": format_percent(0.95, locale=language.locale),
        "calibration": None,
        "sweep_chart": None,
        "sweep_grid": None,
        "groups": [],
    }
    if latest is None or latest.result is None:
        return context
    scores = latest.result.scores
    points = [
        CalibrationPoint(row.low, row.high, row.games, row.mean_expected, row.observed, row.interval_low, row.interval_high)
        for row in scores.calibration
        if row.games
        and row.mean_expected is not None
        and row.observed is not None
        and row.interval_low is not None
        and row.interval_high is not None
    ]
    context["calibration"] = calibration_chart(
        points,
        chart_id=f"calibration-{rating_list.id}",
        subject=f"{rating_list.name}: {translations.gettext('Calibration')}",
        translations=translations,
        format_share=lambda value: decimal(value, language, 2),
        format_count=lambda value: i18n.shown_count(value, language.locale),
    )
    context["groups"] = _score_groups(scores, translations)
    if swept is not None and swept.result is not None and swept.result.sweep is not None:
        sweep = swept.result.sweep
        if sweep.and_parameter is not None:
            context["sweep_grid"] = sweep_grid_rows(sweep)
            return context  # (a sweep of two parameters is its table of pairs: no curve is drawn)
        interval = (
            (sweep.interval_low, sweep.interval_high)
            if sweep.interval_low is not None and sweep.interval_high is not None
            else None
        )
        context["sweep_chart"] = sweep_chart(
            [SweepValue(p.value, p.mean_log_likelihood) for p in sweep.points if p.mean_log_likelihood is not None],
            current=sweep.current,
            best=sweep.best,
            interval=interval,
            chart_id=f"sweep-{rating_list.id}",
            subject=f"{rating_list.name}: {sweep.parameter}",
            translations=translations,
            format_value=lambda value: parameter_value(value, language),
            format_score=lambda value, digits: decimal(value, language, digits),
        )
    return context


@dataclass(frozen=True)
class GridCell:
    """One pair of a sweep of two parameters as the accuracy page shows it."""

    mean_log_likelihood: float | None
    best: bool  # the pair with the highest total log-likelihood
    current: bool  # the list's own pair


def sweep_grid_rows(sweep: SweepResult) -> list[tuple[float, list[GridCell]]]:
    """A sweep of two parameters as the accuracy page's table: a row per value of the first parameter
    (in the order asked), in each a cell per value of the second (``sweep.and_parameter.points``'
    order), each marked when it is the best pair or the list's own."""
    second = sweep.and_parameter
    assert second is not None and sweep.grid is not None
    cell_of = {(cell.value, cell.second_value): cell for cell in sweep.grid}
    rows = []
    for point in sweep.points:
        cells = []
        for column in second.points:
            cell = cell_of.get((point.value, column.value))
            cells.append(
                GridCell(
                    cell.mean_log_likelihood if cell is not None else None,
                    (point.value, column.value) == (sweep.best, second.best),
                    (point.value, column.value) == (sweep.current, second.current),
                )
            )
        rows.append((point.value, cells))
    return rows


def _score_groups(scores: Scores, translations: Any) -> list[tuple[str, str, str, list[ScoreGroup]]]:
    """The three tables of the scores by group: (an id, its caption, its first column's heading, rows)."""
    gettext = translations.gettext
    return [
        (key, caption, heading, rows)
        for key, caption, heading, rows in (
            ("year", gettext("By year"), gettext("Year"), scores.by_year),
            ("band", gettext("By rating band (the mean of the two ratings)"), gettext("Ratings"), scores.by_band),
            ("gap", gettext("By rating gap (the difference of the two ratings)"), gettext("Gap"), scores.by_gap),
        )
        if rows
    ]
