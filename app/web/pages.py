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
from collections.abc import Mapping
from dataclasses import dataclass, field
from html import escape as _escape
from typing import Any

from markupsafe import Markup
from sqlalchemy.orm import Session

from app.countries import country_code
from app.models import Player, RatingList, RatingSnapshot
from app.problems import FieldError, InvalidInput
from app.schemas.common import EARLIEST_DATE, ID_MAX_LENGTH, ID_PATTERN, ID_RULE, LATEST_DATE
from app.schemas.rating_lists import RatingRowRead
from app.services import player_record, players, snapshot_facts, tournaments
from app.services import rating_lists as lists_service
from app.web import display
from app.web.charts import ChartPoint, rating_chart
from app.web.crosstable import CrossGame, crosstable

STATUSES = ("active", "inactive", "provisional", "all")
PAGE_SIZES = (50, 100, 200, 500)
DEFAULT_PAGE_SIZE = 100
SEARCH_PAGE_SIZE = 50
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

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.per_page

    def params(self, **changes: object) -> dict[str, Any]:
        """The query string's parameters (defaults left out), with ``changes``."""
        values: dict[str, Any] = {
            "status": self.status if self.status != "active" else None,
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
    )


def parse_page(raw: Mapping[str, str]) -> int:
    errors: list[FieldError] = []
    page = _positive(raw, "page", 1, errors, most=10**9)
    if errors:
        raise PageInputError.of(errors)
    return page or 1


def parse_search(raw: Mapping[str, str]) -> str:
    """The search text, up to 200 characters; a NUL character (which no stored text holds, and
    PostgreSQL cannot compare) is a 422, as the API's ``q`` answers."""
    q = (raw.get("q") or "").strip()[:200]
    if "\x00" in q:
        raise PageInputError.of([FieldError("query:q", "q must not contain NUL characters")])
    return q


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


ALL_COLUMNS = (
    Column("rank", "#", numeric=True),
    Column("player", "Player"),
    Column("id", "ID"),
    Column("country", "Country"),
    Column("rating", "Rating", numeric=True),
    Column("deviation", "Deviation", numeric=True),
    Column("games", "Games", numeric=True),
    Column("last_played", "Last played"),
    Column("status", "Status"),
    Column("title", "Grade or rank"),
)
OPTIONAL = {"country": "country", "deviation": "deviation", "title": "title"}  # column -> row field


@dataclass(frozen=True)
class ShownRow:
    player_id: str
    href: str
    cells: dict[str, str]


def shown_columns(rows: list[RatingRowRead], keys: tuple[str, ...] | None = None) -> list[Column]:
    """The columns of ``keys`` (all by default), less the optional ones no row fills."""
    chosen = [c for c in ALL_COLUMNS if keys is None or c.key in keys]
    return [c for c in chosen if c.key not in OPTIONAL or any(getattr(r, OPTIONAL[c.key]) is not None for r in rows)]


def rows_html(columns: list[Column], rows: list[ShownRow], *, anchors: bool = True) -> Markup:
    """The table body, built here rather than in the template: a 500-row page is 5,000 cells, and a
    template loop over them costs more than the page's database reads (issue 14: under 30 ms).
    Numbers and dates are digits and dashes; only the text cells need escaping."""
    lines = []
    for row in rows:
        cells = []
        for column in columns:
            value = row.cells[column.key]
            if column.key == "player":
                cells.append(f'<th scope="row"><a href="{_escape(row.href)}">{_escape(value)}</a></th>')
            elif column.numeric:
                cells.append(f'<td class="num">{value}</td>')
            else:
                cells.append(f"<td>{value if column.key == 'last_played' else _escape(value)}</td>")
        anchor = f' id="p-{_escape(row.player_id)}"' if anchors else ""
        lines.append(f"<tr{anchor}>{''.join(cells)}</tr>")
    return Markup("\n".join(lines))


def shown_rows(rows: list[RatingRowRead]) -> list[ShownRow]:
    return [
        ShownRow(
            row.player_id,
            display.player_path(row.player_id),
            {
                "rank": str(row.rank),
                "player": row.name or row.player_id,
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


# --- home ------------------------------------------------------------------------------------------


@dataclass
class ListSummary:
    rating_list: RatingList
    snapshot: RatingSnapshot | None
    counts: dict[str, int] = field(default_factory=dict)
    top_status: str = "active"
    columns: list[Column] = field(default_factory=list)
    rows: list[ShownRow] = field(default_factory=list)


def home(session: Session) -> dict[str, Any]:
    """Every list with its current snapshot's date, player count and top ten: the active players
    (INTERPRETATIONS 6.4), or all players when nobody is active on the list's date (an old
    history's list: INTERPRETATIONS 3.5, 1.17), and the page says so."""
    summaries = []
    for rating_list in lists_service.list_rating_lists(session):
        snapshot = lists_service.get_snapshot(session, rating_list.id, None)
        summary = ListSummary(rating_list, snapshot)
        if snapshot is not None:
            summary.counts = snapshot_facts.status_counts(session, snapshot.id)
            summary.top_status = "active" if summary.counts.get("active") else "all"
            rows, _ = lists_service.ratings(
                session,
                snapshot,
                system=lists_service.system_of(rating_list),
                as_of=None,
                country=None,
                status=summary.top_status,
                limit=TOP,
                offset=0,
            )
            summary.columns = shown_columns(rows, ("rank", "player", "country", "rating", "title"))
            summary.rows = shown_rows(rows)
        summaries.append(summary)
    # The lists that rate someone first; each group in the lists' id order.
    summaries.sort(key=lambda summary: not summary.rows)
    return {"summaries": summaries}


# --- a rating list -------------------------------------------------------------------------------


def rating_list_page(session: Session, list_id: str, query: ListQuery) -> dict[str, Any]:
    rating_list = lists_service.get_rating_list(session, list_id)
    snapshot = lists_service.get_snapshot(session, list_id, query.snapshot)
    rows, total = lists_service.ratings(
        session,
        snapshot,
        system=lists_service.system_of(rating_list),
        as_of=query.as_of,
        country=query.country,
        status=query.status,
        limit=query.per_page,
        offset=query.offset,
        gender=query.gender.upper() if query.gender else None,
        played_within_12_months=query.played_within_12_months,
    )
    pages = max(1, math.ceil(total / query.per_page))
    context: dict[str, Any] = {
        "rating_list": rating_list,
        "snapshot": snapshot,
        "pinned": query.snapshot is not None and snapshot is not None and snapshot.id != rating_list.current_snapshot_id,
        "query": query,
        "columns": shown_columns(rows),
        "rows": shown_rows(rows),
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


def csv_rows(context: dict[str, Any]) -> list[list[str]]:
    """The table of a list page as CSV rows: its header, then each row's cells as shown. A text cell
    that a spreadsheet would run as a formula (a name submitted as "=..."; OWASP's CSV injection)
    gets a leading apostrophe, which spreadsheets show as text and do not display."""
    columns: list[Column] = context["columns"]
    return [[c.header for c in columns]] + [[_inert(row.cells[c.key]) for c in columns] for row in context["rows"]]


def _inert(cell: str) -> str:
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
    """The player under one list: his line, his chart and his tournaments' changes."""

    rating_list: RatingList
    snapshot: RatingSnapshot
    standing: player_record.ListStanding | None
    chart: str
    points: int
    changes: list[player_record.TournamentChange]
    has_titles: bool


def merged_into(session: Session, player_id: str) -> str | None:
    """The player a merged record went to (its page redirects there), or None."""
    player = session.get(Player, player_id)
    return player.merged_into if player is not None else None


def player_page(session: Session, player_id: str) -> dict[str, Any]:
    player = players.get_player(session, player_id)
    name = display.full_name(player.name, player.surname) or player.id
    changes_by_list: dict[str, list[player_record.TournamentChange]] = defaultdict(list)
    for change in player_record.tournament_changes(session, player_id):
        changes_by_list[change.list_id].append(change)
    sections = []
    for rating_list in lists_service.list_rating_lists(session):
        snapshot = lists_service.get_snapshot(session, rating_list.id, None)
        if snapshot is None:
            continue
        points = lists_service.player_history(session, player_id, snapshot)
        standing = player_record.standing(session, snapshot.id, player_id)
        changes = changes_by_list.get(rating_list.id, [])
        if not points and standing is None and not changes:
            continue
        chart_points = [ChartPoint(p["date"], p["rating"], p["deviation"], p["title"]) for p in points]
        chart = rating_chart(chart_points, chart_id=f"chart-{rating_list.id}", subject=f"{name}: {rating_list.name}")
        sections.append(
            PlayerList(
                rating_list,
                snapshot,
                standing,
                chart,
                len(points),
                changes,
                has_titles=any(c.change.title_after for c in changes),
            )
        )
    return {"player": player, "name": name, "sections": sections, "games": player_record.games(session, player_id)}


# --- a tournament ----------------------------------------------------------------------------------


@dataclass
class ListChanges:
    rating_list: RatingList
    rows: list[Any]
    has_titles: bool


TOURNAMENT_FACTS = (
    ("category", "Category"),
    ("rule", "Rule"),
    ("country", "Country"),
    ("city", "City"),
    ("time_control_minutes", "Time control (minutes)"),
    ("format", "Format"),
    ("board_size", "Board size"),
    ("tournament_class", "Class"),
    ("handicap_rule", "Handicap rule"),
    ("komi", "Komi"),
    ("championship", "Championship"),
)


def tournament_page(session: Session, tournament_id: str) -> dict[str, Any]:
    tournament, games, entrants, changes = tournaments.get_tournament(session, tournament_id)
    names = {p.id: display.full_name(p.name, p.surname) or p.id for p, _ in entrants}
    declared_rank = {p.id: entry.rank for p, entry in entrants if entry is not None and entry.rank}
    table = crosstable(
        [p.id for p, _ in entrants],
        [CrossGame(g.round, g.black_id, g.white_id, g.result, g.played) for g in games],
        order_key=lambda pid: names.get(pid, pid).lower(),
    )
    number = {row.player_id: row.number for row in table.rows}
    lists = {rl.id: rl for rl in lists_service.list_rating_lists(session)}
    by_list: dict[str, list[Any]] = defaultdict(list)
    for list_id, _, change in changes:
        by_list[list_id].append(change)
    list_changes = [
        ListChanges(lists[list_id], sorted(rows, key=lambda c: number.get(c.player_id, 0)), any(c.title_after for c in rows))
        for list_id, rows in by_list.items()
    ]
    facts = [(label, getattr(tournament, key)) for key, label in TOURNAMENT_FACTS if getattr(tournament, key) not in (None, "")]
    return {
        "tournament": tournament,
        "facts": facts,
        "table": table,
        "names": names,
        "declared_rank": declared_rank,
        "games_count": len(games),
        "unplayed": sum(1 for g in games if not g.played),
        "list_changes": list_changes,
    }


# --- search and index ------------------------------------------------------------------------------


def player_search(session: Session, q: str | None, page: int) -> dict[str, Any]:
    found: list[Player] = []
    total = 0
    if q:
        hits, total = players.search_players(
            session, q=q, country=None, external=None, limit=SEARCH_PAGE_SIZE, offset=(page - 1) * SEARCH_PAGE_SIZE
        )
        found = [player for player, _ in hits]
    return {
        "q": q or "",
        "players": found,
        "total": total,
        "page": page,
        "pages": max(1, math.ceil(total / SEARCH_PAGE_SIZE)),
        "page_link": lambda n: display.with_query("/players", q=q, page=n if n != 1 else None),
    }


def tournament_index(session: Session, page: int) -> dict[str, Any]:
    rows, total = tournaments.list_tournaments(
        session, category=None, year=None, country=None, limit=TOURNAMENTS_PAGE_SIZE, offset=(page - 1) * TOURNAMENTS_PAGE_SIZE
    )
    return {
        "rows": rows,
        "total": total,
        "page": page,
        "pages": max(1, math.ceil(total / TOURNAMENTS_PAGE_SIZE)),
        "page_link": lambda n: display.with_query("/tournaments", page=n if n != 1 else None),
    }
