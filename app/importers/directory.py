"""Readers of player directories (issue 24 item 6): who the players are, not what they played.

Three formats, recognised from the content:

- the renju WHR site's directory, ``ljinfo.tsv`` (tab-separated, no header: renju.net id, Latin name
  surname first, Chinese name or ``*``, country in Chinese, city in Chinese or ``?``, ``+``/``-``,
  the site's rating; see tests/data/renju-players-2022/README.md). ``ljcity.tsv`` beside it, when
  there, gives cities their English names. Each player also gets the external id ``renjunet:<id>``.
- this service's own directory CSV (UTF-8, comma-separated, RFC 4180 quoting), whose first line is
  the header ``id,name,surname,native_name,country,city,gender,external_ids`` (or ``id`` and some of
  the others, in any order): the player's id, Latin
  first name and surname, native name, country (IOC or ISO code, or an English or Chinese name),
  city, gender (``M``/``F``), and his ids in other systems separated by spaces (``egd:13300010
  renjunet:952``). An empty cell leaves that field as it is stored.

- the renju WHR site's list of its women, ``female.tsv`` (tab-separated, no header), which it kept
  before renju.net's export carried a gender: ``tournament`` TAB a tournament id TAB ``*`` (every game
  of it is a women's game) or a comma list of round prefixes (a game whose round, upper-cased, starts
  with one of them is: a women's group inside a mixed event); ``player`` TAB a player id (a woman
  named one by one). Both players of a women's game are women. What it says needs the stored games:
  the file is read into ``WomenList``, and the import finds the players (``app.services.player_directory``).

``read`` gives one ``DirectoryRow`` a player (only the fields the file gives) and every line it
cannot take, by reason."""

import csv
import io
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.countries import country_code
from app.importers.source import FileRefused
from app.names import not_displayed

__all__ = ["CSV_COLUMNS", "FORMAT_NAMES", "DirectoryFile", "DirectoryRow", "WomenList", "looks_like", "read"]

CSV_COLUMNS = ("id", "name", "surname", "native_name", "country", "city", "gender", "external_ids")
WHR_FORMAT = "renju WHR site's player directory (ljinfo.tsv)"
CSV_FORMAT = "player directory (CSV)"
WOMEN_FORMAT = "renju WHR site's list of women (female.tsv)"
# As the message of a file no format knows names them (app.importers.formats).
FORMAT_NAMES = (WHR_FORMAT, f"{CSV_FORMAT[:-1]}, header id and any of {','.join(CSV_COLUMNS[1:])})", WOMEN_FORMAT)
RENJUNET = "renjunet"
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:\-]{0,63}$")
_EXTERNAL_ID = re.compile(r"^[a-z][a-z0-9-]{0,19}:[A-Za-z0-9][A-Za-z0-9._\-]{0,63}$")
_UNKNOWN = {"", "?", "*", "\u3000"}  # what the WHR directory writes where it knows nothing
MAX_NAME = 200

UNKNOWN_COUNTRY = "unknown country"
BAD_ID = "player id that is no id"
BAD_EXTERNAL_ID = "external id that is not scheme:value"
BAD_GENDER = "gender that is neither M nor F"
MALFORMED = "line without the directory's columns"
REPEATED = "player given twice"
TOO_LONG = "name or city longer than 200 characters"
NOT_ONE_LINE = "name or city with a control or bidirectional formatting character"
REASONS = {
    UNKNOWN_COUNTRY: "the country is no IOC or ISO code and no country name the service knows (app/countries.py)",
    BAD_ID: "the id is not 1 to 64 ASCII letters, digits, '.', '_', ':' or '-' (the rule of every id)",
    BAD_EXTERNAL_ID: "an external id must be scheme:value, e.g. egd:13300010 or renjunet:952",
    BAD_GENDER: "gender is M, F or empty",
    MALFORMED: "the line has fewer columns than the format's (in the CSV: other than its header's; in the list of"
    " women: a line that is neither tournament, id, rounds nor player, id)",
    REPEATED: "two lines give the same player id",
    TOO_LONG: "names and cities are stored with at most 200 characters",
    NOT_ONE_LINE: "names and cities are one line of text shown to people: no control characters (TAB, CR and LF among"
    " them), line separators or bidirectional formatting characters such as U+202E (docs/decisions.md 105)",
}


@dataclass(frozen=True)
class DirectoryRow:
    line_number: int
    player_id: str
    fields: dict[str, Any]  # only those the file gives: name, surname, native_name, country, city, gender
    external_ids: tuple[str, ...]


@dataclass
class WomenList:
    """What ``female.tsv`` says: tournaments whose games (all, or those of some rounds) are women's,
    and players named one by one, each with its line."""

    tournaments: list[tuple[int, str, tuple[str, ...] | None]] = field(
        default_factory=list
    )  # (line, id, round prefixes; None: all)
    players: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class DirectoryFile:
    format_name: str
    rows: list[DirectoryRow] = field(default_factory=list)
    women: WomenList | None = None  # (female.tsv: the rows come from the stored games)
    rejected: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)
    player_ids: set[str] = field(default_factory=set)

    def reject(self, reason: str, example: str) -> None:
        self.rejected[reason] += 1
        examples = self.examples.setdefault(reason, [])
        if len(examples) < 3:
            examples.append(example)


def looks_like(head: bytes) -> bool:
    """Whether a file starting with ``head`` is a directory: the CSV's header, or lines of seven
    tab-separated columns whose sixth is ``+`` or ``-``."""
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff")
    first = text.split("\n", 1)[0].strip()
    if _csv_header(first):
        return True
    lines = [line for line in text.split("\n")[:20] if line.strip()]
    if len(text) == len(head) and len(lines) > 1:
        lines = lines[:-1]  # the head may cut the last line short
    return bool(lines) and (
        all(_whr_columns(line) is not None for line in lines) or all(_women_columns(line) is not None for line in lines)
    )


def _csv_header(line: str) -> bool:
    """Whether a first line is the directory CSV's header: some of its columns, in any order (a file
    of ids and countries alone is one), or a header starting with ``id`` whatever else it names (so
    that reading it says which columns it does not know, instead of "no known format")."""
    columns = [column.strip() for column in line.split(",")]
    return len(columns) > 1 and (columns[0] == "id" or all(column in CSV_COLUMNS for column in columns))


def read(path: Path) -> DirectoryFile:
    """Raises ``FileRefused`` for a CSV whose header lacks ``id`` or names a column the format does not have."""
    text = path.read_text(encoding="utf-8-sig")
    if _csv_header(text.split("\n", 1)[0].strip()):
        return _read_csv(text)
    first = next((line for line in text.split("\n") if line.strip()), "")
    if _women_columns(first) is not None:
        return _read_women(text)
    return _read_whr(text, _cities(path.parent / "ljcity.tsv"))


def _whr_columns(line: str) -> list[str] | None:
    columns = line.rstrip("\r\n").split("\t")
    return columns if len(columns) == 7 and columns[5].strip() in ("+", "-") else None


def _women_columns(line: str) -> list[str] | None:
    columns = [column.strip() for column in line.rstrip("\r\n").split("\t")]
    if (columns[0] == "tournament" and len(columns) == 3 and columns[2]) or (columns[0] == "player" and len(columns) == 2):
        return columns if columns[1] else None
    return None


def _read_women(text: str) -> DirectoryFile:
    women = WomenList()
    directory = DirectoryFile(WOMEN_FORMAT, women=women)
    for line_number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        columns = _women_columns(line)
        if columns is None:
            directory.reject(MALFORMED, f"line {line_number}")
        elif not _ID.match(columns[1]):
            directory.reject(BAD_ID, f"line {line_number}: {columns[1]!r}")
        elif columns[0] == "player":
            women.players.append((line_number, columns[1]))
        else:
            prefixes = (
                None if columns[2] == "*" else tuple(prefix.strip().upper() for prefix in columns[2].split(",") if prefix.strip())
            )
            women.tournaments.append((line_number, columns[1], prefixes))
    return directory


def _read_whr(text: str, cities: dict[str, str]) -> DirectoryFile:
    directory = DirectoryFile(WHR_FORMAT)
    for line_number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        columns = _whr_columns(line)
        if columns is None:
            directory.reject(MALFORMED, f"line {line_number}")
            continue
        player_id, latin, native, country, city = (column.strip() for column in columns[:5])
        # Surname first, as the site writes every name ("Soosõrv Ants", "Wang Qingqing").
        surname, _, name = latin.partition(" ")
        fields: dict[str, Any] = {
            "name": name.strip() or None,
            "surname": surname or None,
            "native_name": None if native in _UNKNOWN else native,
            "city": None if city in _UNKNOWN else cities.get(city, city),
        }
        _add_row(directory, line_number, player_id, fields, country, [f"{RENJUNET}:{player_id}"])
    return directory


def _cities(path: Path) -> dict[str, str]:
    """Chinese city name -> English, for the names that stand for one city only (广东 stands for four)."""
    if not path.is_file():
        return {}
    english: dict[str, set[str]] = {}
    for line in path.read_text(encoding="utf-8-sig").split("\n"):
        columns = line.rstrip("\r").split("\t")
        if len(columns) == 3 and columns[2].strip():
            english.setdefault(columns[2].strip(), set()).add(columns[1].strip())
    return {chinese: next(iter(names)) for chinese, names in english.items() if len(names) == 1}


def _read_csv(text: str) -> DirectoryFile:
    """The CSV's rows by its header's columns: a file may give some of them, in any order (a column
    it does not give is an empty cell, which leaves the stored value, decision 144)."""
    directory = DirectoryFile(CSV_FORMAT)
    reader = csv.reader(io.StringIO(text))
    header = [column.strip() for column in next(reader, [])]
    unknown = [column for column in header if column not in CSV_COLUMNS]
    repeated = sorted({column for column in header if header.count(column) > 1})
    if "id" not in header or unknown or repeated:
        problems = [*(["no column id"] if "id" not in header else [])]
        problems += [f"columns it does not know: {', '.join(map(repr, unknown))}"] if unknown else []
        problems += [f"columns given twice: {', '.join(repeated)}"] if repeated else []
        raise FileRefused(
            f"the player directory CSV's header has {'; '.join(problems)}; its columns are {','.join(CSV_COLUMNS)}"
            " (id and any of the others, in any order)"
        )
    for row in reader:
        line_number = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            directory.reject(MALFORMED, f"line {line_number}")
            continue
        cells = dict.fromkeys(CSV_COLUMNS, "") | dict(zip(header, (cell.strip() for cell in row), strict=True))
        fields: dict[str, Any] = {name: cells[name] for name in ("name", "surname", "native_name", "city") if cells[name]}
        if cells["gender"]:
            if cells["gender"].upper() not in ("M", "F"):
                directory.reject(BAD_GENDER, f"line {line_number}: {cells['gender']!r}")
                continue
            fields["gender"] = cells["gender"].upper()
        _add_row(directory, line_number, cells["id"], fields, cells["country"], cells["external_ids"].split())
    return directory


def _add_row(
    directory: DirectoryFile, line_number: int, player_id: str, fields: dict[str, Any], country: str, external_ids: list[str]
) -> None:
    where = f"line {line_number}"
    if not _ID.match(player_id):
        directory.reject(BAD_ID, f"{where}: {player_id!r}")
        return
    if any(len(value) > MAX_NAME for value in fields.values() if isinstance(value, str)):
        directory.reject(TOO_LONG, f"{where}: player {player_id}")
        return
    # The rule of every name a request stores (app/schemas/common.py's DisplayText), on the values stored.
    for name, value in fields.items():
        character = not_displayed(value) if isinstance(value, str) else None
        if character is not None:
            directory.reject(NOT_ONE_LINE, f"{where}: player {player_id}'s {name} holds {character}")
            return
    bad = [external for external in external_ids if not _EXTERNAL_ID.match(external)]
    if bad:
        directory.reject(BAD_EXTERNAL_ID, f"{where}: {bad[0]!r}")
        return
    if country.strip() and country.strip() not in _UNKNOWN:
        code = country_code(country)
        if code is None:
            directory.reject(UNKNOWN_COUNTRY, f"{where}: {country!r}")
            return
        fields["country"] = code
    if player_id in directory.player_ids:
        directory.reject(REPEATED, f"{where}: player {player_id}")
        return
    directory.player_ids.add(player_id)
    directory.rows.append(DirectoryRow(line_number, player_id, fields, tuple(external_ids)))
