"""Reader of the renju.net database export (XML), the file the RIF's published WHR list is computed
from (issue 15 describes its structure).

One root element with six sections, each a list of empty-bodied records whose fields are attributes:
``countries/country``, ``cities/city``, ``rules/rule``, ``players/player``, ``tournaments/tournament``
and ``games/game``; a game also carries its moves (``move`` children and a few attributes) that a
rating does not need.

The export holds every game ever recorded, with moves, and a tournament's games are not together in
it; yet the import submits one whole tournament at a time. So the file is read in one streaming
pass into a staging database on disk (SQLite, a temporary file): the XML parser (expat, through
ElementTree's ``XMLParser`` with a target) calls back with each element's attributes and never builds
an element, and it is given no handler for text, so move data is not even handed to Python (iterparse
would build every element, its moves included, before it could be cleared). Then each tournament is dated, its games are read back from the
staging database, and its submission is built. Memory holds one tournament, whatever the file's size.

Decisions beyond the issue's text (the official computation's conventions where it has one):
- a game with ``unrated="1"`` is stored as ``played: false`` (the contract's "stored, never rated");
  a game without a result, with an unknown result, or of a player against himself is left out and
  reported, and the rest of its tournament is stored;
- a tournament's rule decides its category (renju or gomoku, written 1 / 2 or by name); a game's own
  ``rule`` attribute is not used; renju.net rules 1 and 5 are "RIF" (INTERPRETATIONS 6.2), others keep
  their name; a rule of another category, or one the file does not define, rejects the tournament;
- a date with a month of 00, or one that is not a date, makes the tournament undatable like a year
  of 0; tournaments dated in the future are imported (the official computation skips them);
- gender 1 is M, 2 is F, anything else unknown; an empty native name is none; cities are stored by
  name; a round attribute is kept as written (absent: none);
- a record given twice: the later one stands.
"""

import calendar
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any, ClassVar
from xml.etree.ElementTree import XMLParser

from app.countries import country_code as ioc_country_code
from app.importers.renju_tsv import RENJU_RULE_IDS
from app.importers.source import FileRefused, ImportOptions, SubmissionSource, refuse_doctype, xml_element_names
from app.importers.staging import rows_for_ids, temporary_database

__all__ = ["REASONS", "SECTIONS", "Undatable", "looks_like", "read", "tournament_dates"]

FORMAT_NAME = "renju.net database export (XML)"
SECTIONS = ("countries", "cities", "rules", "players", "tournaments", "games")
UNKNOWN_DATE = "0000-00-00"
CHUNK_BYTES = 1 << 20
BATCH_ROWS = 5000

# The rule's category decides the list (issue 15). The export writes it as 1 / 2 (the official
# computation's renju / gomoku); the names are accepted too.
RULE_CATEGORIES = {"1": "renju", "renju": "renju", "2": "gomoku", "gomoku": "gomoku"}
# renju.net's gender field: 2 is female (issue 15); 1 is male.
GENDERS = {"1": "M", "2": "F"}
BLACK_SCORES = {"1": "B", "1.0": "B", "0.5": "D", "0": "W", "0.0": "W"}

MALFORMED = "malformed {kind} record"
TOURNAMENT_UNDATABLE = "tournament that cannot be dated"
TOURNAMENT_UNKNOWN_RULE = "tournament of a rule the file does not define"
TOURNAMENT_OTHER_CATEGORY = "tournament of a rule of neither the renju nor the gomoku category"
GAME_UNKNOWN_TOURNAMENT = "game of a tournament the file does not define"
GAME_OF_REJECTED_TOURNAMENT = "game of a tournament rejected by the import"
GAME_WITHOUT_RESULT = "game without a result"
GAME_UNKNOWN_RESULT = "unknown result code"
GAME_SAME_PLAYER = "game of a player against himself"
TOURNAMENT_TOO_LARGE = "tournament with more games than a submission may have"
UNKNOWN_COUNTRY = "unknown country code"
# The largest run of the file without an element starting or ending: one element's attributes (or
# text) beyond it would be held whole in memory, so the file is refused instead.
MAX_CONSTRUCT_BYTES = 64 * 1024 * 1024

REQUIRED = {
    "country": ("id", "abbr"),
    "city": ("id",),
    "rule": ("id", "category"),
    "player": ("id",),
    "tournament": ("id", "name", "start", "end", "rule", "rated"),
    "game": ("id", "tournament", "black", "white"),
}

REASONS = {
    UNKNOWN_COUNTRY: "a country whose code is no IOC or ISO code (app/countries.py): its players and tournaments are"
    " stored without a country",
    **{
        MALFORMED.format(kind=kind): f"a {kind} element lacks one of the attributes "
        + ", ".join(attributes)
        + "; it is skipped"
        + (", and its games are reported as games of an undefined tournament" if kind == "tournament" else "")
        for kind, attributes in REQUIRED.items()
    },
    TOURNAMENT_UNDATABLE: "the tournament's dates are 0000-00-00 with a year of 0 (or a month of 0), or are"
    " not dates at all; it is not stored",
    TOURNAMENT_UNKNOWN_RULE: "the tournament names a rule id with no rule element, so its list (renju or"
    " gomoku) is unknown; it is not stored",
    TOURNAMENT_OTHER_CATEGORY: "the tournament's rule has a category other than renju (1) or gomoku (2); it is not stored",
    GAME_UNKNOWN_TOURNAMENT: "the game names a tournament with no tournament element, so it has no date;"
    " it is not stored (a game is never dated by guess)",
    GAME_OF_REJECTED_TOURNAMENT: "the game's tournament is not stored (see its own reason above), so neither is the game",
    GAME_WITHOUT_RESULT: "bresult is empty: the result is not known, so there is nothing to store or rate",
    GAME_UNKNOWN_RESULT: "bresult is not 1 (black won), 0.5 (draw) or 0 (white won); the game is not stored",
    TOURNAMENT_TOO_LARGE: "the tournament has more games than MAX_GAMES_PER_TOURNAMENT (the submission"
    " limit, 20,000 by default); it is not read into memory nor stored",
    GAME_SAME_PLAYER: "black and white are the same player; such a game cannot be rated and the"
    " submission service refuses it, so it is left out and the rest of its tournament is stored",
}


class Undatable(ValueError):
    """The tournament's dates give no day to date its games on."""


def looks_like(head: bytes) -> bool:
    """An XML document whose root's first child is one of the export's six sections. (The root's
    own name is not relied on; OpenGotha's files, for one, have a ``Tournament`` root.)"""
    names = xml_element_names(head, 2)
    return len(names) == 2 and names[1] in SECTIONS


def read(path: Path, options: ImportOptions) -> SubmissionSource:
    """Stream the file into the staging database; the submissions are built as they are read."""
    staging = _Staging()
    try:
        source = SubmissionSource(FORMAT_NAME, 0, iter(()), dict(REASONS))
        staging.load(path, source)
        source.tournament_count = staging.count("tournaments")
        source.submissions = _submissions(staging, source, options)
        return source
    except BaseException:
        staging.close()
        raise


def tournament_dates(start: str, end: str, year: str | None, month: str | None) -> tuple[date, date]:
    """The first and last day of a tournament from the export's fields (the rules of issue 15)."""
    if start == UNKNOWN_DATE and end == UNKNOWN_DATE:
        # Both unknown: the tournament's year and month give the first and last day of that month.
        year_number, month_number = _number(year), _number(month)
        if year_number == 0 or not 1 <= month_number <= 12:
            raise Undatable(f"dates unknown and year {_short(year)}, month {_short(month)}")
        if not 1 <= year_number <= 9999:
            raise Undatable(f"dates unknown and year {_short(year)} outside 1-9999")
        last_day = calendar.monthrange(year_number, month_number)[1]
        return date(year_number, month_number, 1), date(year_number, month_number, last_day)
    # One unknown: the other.
    if start == UNKNOWN_DATE:
        start = end
    elif end == UNKNOWN_DATE:
        end = start
    first, last = _day(start), _day(end)
    # A start after the end: the end.
    return min(first, last), last


def _day(text: str) -> date:
    """``YYYY-MM-DD``; a day of 00 is the 1st; a year of 0 cannot be dated."""
    try:
        if len(text) > 10 or not text.isascii():
            raise ValueError(text)
        year, month, day = (int(part) for part in text.split("-"))
        if year == 0 or month == 0:
            raise Undatable(f"date {_short(text)}")
        return date(year, month, day or 1)
    except ValueError as error:
        raise Undatable(f"date {_short(text)}") from error


def _number(text: str | None) -> int:
    if text is None or not (text.strip().isascii() and text.strip().isdigit() and len(text.strip()) <= 9):
        raise Undatable(f"not a number: {_short(text)}")
    return int(text)


def _short(text: str | None) -> str:
    """A value for a message: a long one (a 5,000-digit year) is cut."""
    return repr(text) if text is None or len(text) <= 24 else f"{text[:20]!r}... ({len(text):,} characters)"


def _submissions(staging: "_Staging", source: SubmissionSource, options: ImportOptions) -> Iterator[dict[str, Any]]:
    try:
        _reject_games_of_undefined_tournaments(staging, source)
        rules = {rule_id: (name, category) for rule_id, name, category in staging.rows("SELECT id, name, category FROM rules")}
        tournaments = staging.rows(
            "SELECT id, name, country, city, start, end_, year, month, rule, rated FROM tournaments ORDER BY seq"
        )
        for tournament_id, name, country_id, city_id, start, end, year, month, rule_id, rated in tournaments:
            try:
                first, last = tournament_dates(start, end, year, month)
            except Undatable as error:
                _reject_tournament(staging, source, tournament_id, TOURNAMENT_UNDATABLE, str(error))
                continue
            if rule_id not in rules:
                _reject_tournament(staging, source, tournament_id, TOURNAMENT_UNKNOWN_RULE, f"rule {rule_id!r}")
                continue
            rule_name, rule_category = rules[rule_id]
            category = RULE_CATEGORIES.get(rule_category.strip().lower())
            if category is None:
                _reject_tournament(
                    staging, source, tournament_id, TOURNAMENT_OTHER_CATEGORY, f"rule {rule_id!r}, category {rule_category!r}"
                )
                continue
            count = staging.count("games WHERE tournament = ?", (tournament_id,))
            if count > options.max_games_per_tournament:
                _reject_tournament(
                    staging,
                    source,
                    tournament_id,
                    TOURNAMENT_TOO_LARGE,
                    f"{count:,} games (at most {options.max_games_per_tournament:,})",
                )
                continue
            games = _games(staging, source, tournament_id)
            yield {
                "id": tournament_id,
                "name": name,
                "category": category,
                # INTERPRETATIONS 6.2: renju.net rule ids 1 and 5 are RIF; other rules keep their name.
                "rule": RENJU_RULE_IDS.get(rule_id, rule_name or f"renju.net rule {rule_id}"),
                "start": first.isoformat(),
                "end": last.isoformat(),
                "country": staging.country_code(country_id),
                "city": staging.city_name(city_id),
                "rated": options.rated(tournament_id, rated == "1"),
                "players": _players(staging, games),
                "games": games,
            }
        for unknown in staging.unknown_countries:
            source.reject(UNKNOWN_COUNTRY, unknown)
    finally:
        staging.close()


def _reject_games_of_undefined_tournaments(staging: "_Staging", source: SubmissionSource) -> None:
    orphans = staging.rows("SELECT id, tournament FROM games WHERE tournament NOT IN (SELECT id FROM tournaments) ORDER BY seq")
    for game_id, tournament_id in orphans:
        source.reject(GAME_UNKNOWN_TOURNAMENT, f"game {game_id}: tournament {tournament_id!r}")


def _reject_tournament(staging: "_Staging", source: SubmissionSource, tournament_id: str, reason: str, detail: str) -> None:
    source.reject(reason, f"tournament {tournament_id}: {detail}")
    source.tournament_count -= 1
    games = staging.count("games WHERE tournament = ?", (tournament_id,))
    if games:
        source.reject(GAME_OF_REJECTED_TOURNAMENT, f"{games} games of tournament {tournament_id}", count=games)


def _games(staging: "_Staging", source: SubmissionSource, tournament_id: str) -> list[dict[str, Any]]:
    """The tournament's games in the file's order. Unrated games are stored as not played (the
    contract's flag for a game that is stored and never rated); games that cannot be stored are
    counted by reason."""
    games = []
    rows = staging.rows(
        "SELECT id, round, unrated, black, white, bresult FROM games WHERE tournament = ? ORDER BY seq", (tournament_id,)
    )
    for game_id, round_label, unrated, black, white, black_score in rows:
        where = f"game {game_id}"
        if black == white:
            source.reject(GAME_SAME_PLAYER, f"{where}: player {black!r}")
            continue
        black_score = (black_score or "").strip()
        if not black_score:
            source.reject(GAME_WITHOUT_RESULT, where)
            continue
        result = BLACK_SCORES.get(black_score)
        if result is None:
            source.reject(GAME_UNKNOWN_RESULT, f"{where}: bresult {black_score!r}")
            continue
        game = {"id": game_id, "round": round_label, "black": black, "white": white, "result": result}
        if (unrated or "").strip() == "1":
            game["played"] = False
        games.append(game)
    return games


def _players(staging: "_Staging", games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The players of the tournament's games (INTERPRETATIONS 6.9), as the file describes them;
    one it does not describe is given by his id alone."""
    player_ids = sorted({g["black"] for g in games} | {g["white"] for g in games}, key=_natural)
    described = staging.players(player_ids)
    return [described.get(player_id, {"id": player_id}) for player_id in player_ids]


def _natural(identifier: str) -> tuple[int, str]:
    return (
        (int(identifier), "")
        if identifier.isascii() and identifier.isdigit() and len(identifier) <= 18
        else (1 << 62, identifier)
    )


class _Staging:
    """The export's records in a temporary SQLite file, read back one tournament at a time."""

    TABLES: ClassVar[dict[str, str]] = {
        "countries": "id TEXT PRIMARY KEY, name TEXT, abbr TEXT",
        "cities": "id TEXT PRIMARY KEY, country TEXT, name TEXT",
        "rules": "id TEXT PRIMARY KEY, name TEXT, category TEXT",
        "players": "id TEXT PRIMARY KEY, name TEXT, surname TEXT, country TEXT, city TEXT, gender TEXT, native_name TEXT",
        "tournaments": "seq INTEGER PRIMARY KEY, id TEXT UNIQUE, name TEXT, country TEXT, city TEXT, start TEXT,"
        " end_ TEXT, year TEXT, month TEXT, rule TEXT, rated TEXT",
        "games": "seq INTEGER PRIMARY KEY, id TEXT, tournament TEXT, round TEXT, unrated TEXT, black TEXT,"
        " white TEXT, bresult TEXT",
    }
    # Which attributes of each record are kept, in the table's column order (the first is the id).
    COLUMNS: ClassVar[dict[str, tuple[str, tuple[str, ...]]]] = {
        "country": ("countries", ("id", "name", "abbr")),
        "city": ("cities", ("id", "country", "name")),
        "rule": ("rules", ("id", "name", "category")),
        "player": ("players", ("id", "name", "surname", "country", "city", "gender", "native_name")),
        "tournament": ("tournaments", ("id", "name", "country", "city", "start", "end", "year", "month", "rule", "rated")),
        "game": ("games", ("id", "tournament", "round", "unrated", "black", "white", "bresult")),
    }

    def __init__(self) -> None:
        self.connection = temporary_database(self.TABLES, cache_kib=8000)  # 8 MB of page cache, whatever the file
        self.closed = False
        self._cities: dict[str, str | None] = {}
        self._countries: dict[str, str | None] = {}
        self.unknown_countries: list[str] = []  # reported once the submissions are read

    def load(self, path: Path, source: SubmissionSource) -> None:
        target = _RecordTarget(self, source)
        parser = XMLParser(target=target)
        quiet = 0  # bytes fed since the last chunk in which an element started or ended
        with open(path, "rb") as stream:
            while chunk := stream.read(CHUNK_BYTES):
                events = target.events
                parser.feed(chunk)
                quiet = 0 if target.events != events else quiet + len(chunk)
                if quiet > MAX_CONSTRUCT_BYTES:
                    raise FileRefused(
                        f"more than {MAX_CONSTRUCT_BYTES:,} bytes without an element starting or ending, near byte"
                        f" {stream.tell():,}: one element or text that large is not read into memory"
                    )
        parser.close()
        target.flush()
        self.connection.execute("CREATE INDEX games_by_tournament ON games (tournament, seq)")
        self.connection.commit()

    def insert(self, kind: str, rows: list[tuple[Any, ...]]) -> None:
        table, columns = self.COLUMNS[kind]
        names = ", ".join("end_" if c == "end" else c for c in columns)
        marks = ", ".join("?" for _ in columns)
        # A record given twice: the later one stands, as a later line does in the tab-separated file.
        verb = "INSERT" if table == "games" else "INSERT OR REPLACE"
        self.connection.executemany(f"{verb} INTO {table} ({names}) VALUES ({marks})", rows)

    def rows(self, query: str, parameters: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
        return iter(self.connection.execute(query, parameters))

    def count(self, table_and_condition: str, parameters: tuple[Any, ...] = ()) -> int:
        return int(self.connection.execute(f"SELECT count(*) FROM {table_and_condition}", parameters).fetchone()[0])

    def country_code(self, country_id: str) -> str | None:
        if country_id not in self._countries:
            row = self.connection.execute("SELECT abbr FROM countries WHERE id = ?", (country_id,)).fetchone()
            # Stored under the IOC code (app/countries.py); a code it does not know leaves the player without one.
            self._countries[country_id] = ioc_country_code(row[0]) if row and row[0] else None
            if row and row[0] and self._countries[country_id] is None:
                self.unknown_countries.append(f"country {country_id}: {row[0]!r}")
        return self._countries[country_id]

    def city_name(self, city_id: str) -> str | None:
        if city_id not in self._cities:
            row = self.connection.execute("SELECT name FROM cities WHERE id = ?", (city_id,)).fetchone()
            self._cities[city_id] = (row[0] or None) if row else None
        return self._cities[city_id]

    def players(self, player_ids: list[str]) -> dict[str, dict[str, Any]]:
        described: dict[str, dict[str, Any]] = {}
        query = "SELECT id, name, surname, country, city, gender, native_name FROM players WHERE id IN ({marks})"
        for player_id, name, surname, country_id, city_id, gender, native_name in rows_for_ids(
            self.connection, query, player_ids
        ):
            described[player_id] = {
                "id": player_id,
                "name": name,
                "surname": surname,
                "native_name": native_name or None,
                "country": self.country_code(country_id),
                "city": self.city_name(city_id),
                "gender": GENDERS.get((gender or "").strip()),
            }
        return described

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.connection.close()  # which deletes its file


class _RecordTarget:
    """Receives the parser's start and end tags (no ``data`` method: text, i.e. the moves, is never
    handed over) and stages each record in batches."""

    def __init__(self, staging: _Staging, source: SubmissionSource) -> None:
        self.staging = staging
        self.source = source
        self.depth = 0
        self.events = 0
        self.batches: dict[str, list[tuple[Any, ...]]] = {kind: [] for kind in _Staging.COLUMNS}

    # A declared document type (entities, an external DTD) refuses the file before anything is read.
    doctype = staticmethod(refuse_doctype)

    def start(self, tag: str, attributes: dict[str, str]) -> None:
        self.events += 1
        self.depth += 1
        if self.depth != 3 or tag not in self.batches:  # records are the sections' children
            return
        missing = [name for name in REQUIRED[tag] if not attributes.get(name, "").strip()]
        if missing:
            self.source.reject(MALFORMED.format(kind=tag), f"{tag} {attributes.get('id', '?')}: no {', '.join(missing)}")
            return
        _, columns = _Staging.COLUMNS[tag]
        batch = self.batches[tag]
        batch.append(tuple(attributes.get(name) for name in columns))
        if len(batch) >= BATCH_ROWS:
            self.staging.insert(tag, batch)
            batch.clear()

    def end(self, tag: str) -> None:
        self.events += 1
        self.depth -= 1

    def flush(self) -> None:
        for kind, batch in self.batches.items():
            if batch:
                self.staging.insert(kind, batch)
                batch.clear()

    def close(self) -> None:
        """Called by the parser at the end of the document."""
