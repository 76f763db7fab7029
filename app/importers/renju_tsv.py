"""Reader of the renju.net results export (tab-separated records), as kept beside the public
renju WHR site's code: see tests/data/renju-cn-2009-2019/README.md for the format.

Records: ``country``, ``player``, ``tournament``, ``game``; blank lines are skipped. Parsing is
separate from submitting: ``to_submissions`` turns a parsed file into the same tournament
submissions the HTTP API accepts, and lists every row it cannot use with the reason (a fixed phrase
of ``REASONS``; the row's own value is in ``detail``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, BinaryIO

from app.countries import country_code
from app.importers.source import ImportOptions, SubmissionSource
from app.importers.staging import rows_for_ids, temporary_database

__all__ = [
    "ASIDE",
    "REASONS",
    "ParsedFile",
    "ParsedGame",
    "ParsedPlayer",
    "ParsedTournament",
    "RejectedRow",
    "looks_like",
    "parse",
    "parse_path",
    "read",
    "to_submissions",
]

# renju.net rule ids: both were rated in the renju category by the source (data README).
RENJU_RULE_IDS = {"1": "RIF", "5": "RIF"}
RECORD_TYPES = ("country", "player", "tournament", "game")
GAME_COLUMNS = 8  # game, id, tournament, round, rule, black, white, result

UNKNOWN_RECORD = "unknown record type"
UNUSED_RECORD = "city or rule record"
# Records the renju WHR site's reader of this file also takes (its cities and rules, by renju.net id)
# and that this reader has no use for: a tournament's city and rule come from the tournament record.
UNUSED_RECORD_TYPES = ("city", "rule")
UNKNOWN_TOURNAMENT = "game of a tournament the file does not define"
UNKNOWN_RESULT = "unknown result code"
UNKNOWN_COUNTRY = "unknown country code"
REASONS = {
    UNKNOWN_COUNTRY: "a country record whose code is no IOC or ISO code (app/countries.py): its players and"
    " tournaments are stored without a country",
    UNKNOWN_RECORD: "the line's first column is not country, player, tournament or game (nor city or rule); the line is skipped",
    UNUSED_RECORD: "a city or rule record, which the renju WHR site's reader takes too: the tournaments' rules are"
    " known by their ids (1 and 5: RIF) and their cities are not stored from this file, so the line is not used",
    UNKNOWN_TOURNAMENT: "the game names a tournament with no tournament record in this file: the renju WHR site"
    " keeps such games beside the renju.net database export, which defines their tournaments (and their"
    " dates and rated flags), and uses them only with it; here the game has no date, so it is not stored"
    " (a game is never dated by guess)",
    UNKNOWN_RESULT: "the result column is not B (black won), W (white won) or D (draw); the game is not stored",
    **{
        f"malformed {kind} record": f"the {kind} line has too few columns or a value that cannot be read"
        " (e.g. a date that is not YYYY-MM-DD); the line is skipped"
        + ("" if kind != "tournament" else ", and its games are reported as games of an undefined tournament")
        for kind in RECORD_TYPES
    },
}


# Rows the file means as they are and that hold nothing to store here: left aside, not rejected
# (SubmissionSource; docs/decisions.md 142).
ASIDE = frozenset({UNKNOWN_TOURNAMENT, UNUSED_RECORD})


@dataclass(frozen=True, slots=True)
class ParsedPlayer:
    id: str
    name: str
    surname: str
    country_id: str | None
    city_id: str | None


@dataclass(frozen=True, slots=True)
class ParsedTournament:
    id: str
    name: str
    country_id: str | None
    city_id: str | None
    start: date
    end: date
    rule_id: str


@dataclass(frozen=True, slots=True)
class ParsedGame:
    id: str
    tournament_id: str
    round: str
    rule_id: str
    black: str
    white: str
    result: str
    line_number: int


@dataclass(frozen=True, slots=True)
class RejectedRow:
    line_number: int
    reason: str
    detail: str = ""


@dataclass
class ParsedFile:
    countries: dict[str, tuple[str, str]] = field(default_factory=dict)  # id -> (name, abbreviation)
    players: dict[str, ParsedPlayer] = field(default_factory=dict)
    tournaments: dict[str, ParsedTournament] = field(default_factory=dict)
    games: list[ParsedGame] = field(default_factory=list)
    rejected: list[RejectedRow] = field(default_factory=list)

    def rejected_reasons(self) -> Counter[str]:
        return Counter(row.reason for row in self.rejected)


def looks_like(head: bytes) -> bool:
    """The first line that is not blank is a record of one of the four types (tab-separated).
    Bytes that are not UTF-8 do not matter here: reading the file says so."""
    for line in head.decode("utf-8", errors="replace").splitlines():
        if line.strip():
            return line.split("\t", 1)[0].strip() in (*RECORD_TYPES, *UNUSED_RECORD_TYPES) and "\t" in line
    return False


def read(path: Path, options: ImportOptions) -> SubmissionSource:
    """The file's submissions for the import, streamed: memory stays flat whatever the file's size.

    Two passes. The first reads every record but the games' contents: the countries are kept, the
    players and tournaments go to a temporary SQLite file (``_Records``) with where each tournament's
    valid games are, as runs of consecutive game lines (one run per tournament in a file that groups
    them, as renju.net's export does). The second reads one tournament's games at a time from its runs,
    in the order of the tournament records, with the players they name, and builds its submission: the
    same submissions and rejected rows as ``to_submissions(parse_path(path))``, which holds the whole
    file."""
    index = _index(path)
    source = SubmissionSource(
        "renju.net results (tab-separated)", index.records.tournament_count(), iter(()), dict(REASONS), aside_reasons=ASIDE
    )
    for row in index.parsed.rejected:
        source.note(row.reason, f"line {row.line_number}: {row.detail}" if row.detail else f"line {row.line_number}")
    source.submissions = _streamed_submissions(path, index)
    return source


def parse_path(path: str | Path) -> ParsedFile:
    with open(path, encoding="utf-8") as lines:
        return parse(lines)


def parse(lines: Iterable[str]) -> ParsedFile:
    parsed = ParsedFile()
    for line_number, columns in _records(lines):
        game = _parse_record(parsed, line_number, columns)
        if game is not None:
            parsed.games.append(game)
    return parsed


def _parse_record(parsed: ParsedFile, line_number: int, columns: list[str]) -> ParsedGame | None:
    """Keep a country, player or tournament record in ``parsed``, or a malformed or unknown line in
    its ``rejected``; a game record is returned (the caller keeps it or notes where it is)."""
    kind, values = columns[0], columns[1:]
    try:
        if kind == "country":
            parsed.countries[values[0]] = (values[1], values[2])
            if country_code(values[2]) is None and country_code(values[1]) is None:
                parsed.rejected.append(RejectedRow(line_number, UNKNOWN_COUNTRY, repr(values[2])))
        elif kind == "player":
            parsed.players[values[0]] = ParsedPlayer(
                id=values[0],
                name=values[1],
                surname=values[2],
                country_id=values[3] or None,
                city_id=values[4] or None,
            )
        elif kind == "tournament":
            parsed.tournaments[values[0]] = ParsedTournament(
                id=values[0],
                name=values[1],
                country_id=values[2] or None,
                city_id=values[3] or None,
                start=date.fromisoformat(values[4]),
                end=date.fromisoformat(values[5]),
                rule_id=values[6],
            )
        elif kind == "game":
            return ParsedGame(
                id=values[0],
                tournament_id=values[1],
                round=values[2],
                rule_id=values[3],
                black=values[4],
                white=values[5],
                result=values[6],
                line_number=line_number,
            )
        elif kind in UNUSED_RECORD_TYPES:
            parsed.rejected.append(RejectedRow(line_number, UNUSED_RECORD, kind))
        else:
            parsed.rejected.append(RejectedRow(line_number, UNKNOWN_RECORD, repr(kind)))
    except (IndexError, ValueError) as error:
        parsed.rejected.append(RejectedRow(line_number, f"malformed {kind} record", str(error)))
    return None


def _records(lines: Iterable[str]) -> Iterator[tuple[int, list[str]]]:
    for line_number, line in enumerate(lines, start=1):
        stripped = line.rstrip("\r\n")
        if stripped.strip():
            yield line_number, [column.strip() for column in stripped.split("\t")]


def to_submissions(parsed: ParsedFile) -> tuple[list[dict[str, Any]], list[RejectedRow]]:
    """Tournament submissions (the body of ``POST /v1/tournaments``) and the game rows left out.

    A game of a tournament the file does not define is rejected, never dated by guess (data README).
    Players named by games but not described by the file are created with their id alone.
    """
    rejected = list(parsed.rejected)
    games_by_tournament: dict[str, list[ParsedGame]] = {tid: [] for tid in parsed.tournaments}
    for game in parsed.games:
        if game.tournament_id not in games_by_tournament:
            rejected.append(RejectedRow(game.line_number, UNKNOWN_TOURNAMENT, repr(game.tournament_id)))
            continue
        if game.result not in ("B", "W", "D"):
            rejected.append(RejectedRow(game.line_number, UNKNOWN_RESULT, repr(game.result)))
            continue
        games_by_tournament[game.tournament_id].append(game)

    countries = _country_abbreviations(parsed)
    submissions = [
        _submission(
            tournament,
            [_game_submission(game) for game in games_by_tournament[tournament.id]],
            lambda _named: parsed.players,
            countries,
        )
        for tournament in parsed.tournaments.values()
    ]
    return submissions, rejected


def _country_abbreviations(parsed: ParsedFile) -> dict[str, str | None]:
    # Stored under the IOC code (app/countries.py); a code it does not know is reported while parsing.
    return {cid: country_code(abbreviation) or country_code(name) for cid, (name, abbreviation) in parsed.countries.items()}


def _submission(
    tournament: ParsedTournament,
    games: list[dict[str, str]],
    described: Callable[[set[str]], Mapping[str, ParsedPlayer]],
    countries: dict[str, str | None],
) -> dict[str, Any]:
    """The tournament's submission with its games (``_game_submission``); ``described`` gives the
    file's records of the players they name (a player it does not describe goes by his id alone)."""
    named = {g["black"] for g in games} | {g["white"] for g in games}
    players = described(named)
    player_ids = sorted(named, key=_natural)
    return {
        "id": tournament.id,
        "name": tournament.name,
        "category": "renju",
        "rule": RENJU_RULE_IDS.get(tournament.rule_id, f"renju.net rule {tournament.rule_id}"),
        "start": tournament.start.isoformat(),
        "end": tournament.end.isoformat(),
        "country": countries.get(tournament.country_id or ""),
        "rated": True,
        "players": [_player_submission(players.get(pid), pid, countries) for pid in player_ids],
        "games": games,
    }


def _game_submission(game: ParsedGame) -> dict[str, str]:
    return {"id": game.id, "round": game.round, "black": game.black, "white": game.white, "result": game.result}


@dataclass
class _Index:
    """The first pass of a streamed read: the countries and the rejected rows (``parsed``; it keeps no
    player, tournament or game) and the players, tournaments and runs of valid game lines
    (``records``)."""

    parsed: ParsedFile
    records: _Records


# The first pass hands the players and tournaments it has parsed to the temporary file this many at a time.
_RECORDS_AT_ONCE = 10_000


def _index(path: Path) -> _Index:
    records = _Records()
    try:
        return _first_pass(path, records)
    except BaseException:
        records.close()  # a file refused while read (not UTF-8, say): its temporary database goes now
        raise


def _first_pass(path: Path, records: _Records) -> _Index:
    parsed = ParsedFile()
    bad_results: list[ParsedGame] = []  # few: kept whole, judged once the tournaments are known
    run: list[Any] | None = None  # the run the line before continued: [tournament, offset, first line, games, end]
    offset = 0
    with open(path, "rb") as stream:
        for line_number, raw in enumerate(stream, start=1):
            line = raw.decode("utf-8").rstrip("\r\n")  # strict: a file that is not UTF-8 is refused before anything is stored
            start, offset = offset, offset + len(raw)
            if not line.strip():
                continue  # a blank line does not end a run: the second pass skips it too
            columns = list(map(str.strip, line.split("\t")))
            # A valid game's line (most of the file) needs only its tournament here: no ParsedGame.
            valid_game = columns[0] == "game" and len(columns) >= GAME_COLUMNS and columns[7] in ("B", "W", "D")
            if run is not None and not (valid_game and run[0] == columns[2]):
                records.add_run(*run)  # any other line ends the run
                run = None
            if not valid_game:
                game = _parse_record(parsed, line_number, columns)
                if game is not None:
                    bad_results.append(game)
                if len(parsed.players) + len(parsed.tournaments) >= _RECORDS_AT_ONCE:
                    records.keep(parsed)
                continue
            if run is None:
                run = [columns[2], start, line_number, 0, offset]
            run[3] += 1
            run[4] = offset
    if run is not None:
        records.add_run(*run)
    records.keep(parsed)
    records.runs_complete()
    # Known only once the whole file is read: which games name a tournament no record defines (that
    # reason first, as to_submissions judges them), and which games of known ones have no result.
    left_out = [game for game in bad_results if records.has_tournament(game.tournament_id)]
    rejected = [RejectedRow(game.line_number, UNKNOWN_RESULT, repr(game.result)) for game in left_out]
    undefined = [game for game in bad_results if not records.has_tournament(game.tournament_id)]
    for tournament_id in records.undefined_tournaments():
        undefined += _parsed_games_of(path, records.runs_of(tournament_id))
    rejected += [RejectedRow(game.line_number, UNKNOWN_TOURNAMENT, repr(game.tournament_id)) for game in undefined]
    parsed.rejected += sorted(rejected, key=lambda row: row.line_number)
    return _Index(parsed, records)


def _streamed_submissions(path: Path, index: _Index) -> Iterator[dict[str, Any]]:
    countries = _country_abbreviations(index.parsed)
    records = index.records
    try:
        with open(path, "rb") as stream:
            for tournament in records.tournaments():
                games = [
                    {"id": columns[1], "round": columns[3], "black": columns[5], "white": columns[6], "result": columns[7]}
                    for columns in _game_columns(stream, records.runs_of(tournament.id))
                ]
                yield _submission(tournament, games, records.players, countries)
    finally:
        records.close()


class _Records:
    """The players and tournaments of a file being read, and the runs of its valid game lines, kept in
    a private temporary SQLite database (deleted when closed) rather than in memory: a file of two
    million games and 94,000 players held them in some 40 MB of objects (bench/README.md). Duplicate
    ids are kept as ``ParsedFile``'s dictionaries keep them: the last record's values, the first
    record's place."""

    def __init__(self) -> None:
        self._db = temporary_database(
            {
                "players": "id TEXT PRIMARY KEY, name TEXT, surname TEXT, country_id TEXT, city_id TEXT",
                "tournaments": 'place INTEGER PRIMARY KEY, id TEXT UNIQUE, name TEXT, country_id TEXT, city_id TEXT, start TEXT, "end" TEXT, rule_id TEXT',
                "runs": 'tournament_id TEXT, "offset" INTEGER, first_line INTEGER, games INTEGER, "end" INTEGER',
            },
            cache_kib=2048,
        )
        self._runs: list[tuple[str, int, int, int, int]] = []

    def keep(self, parsed: ParsedFile) -> None:
        """Move ``parsed``'s players and tournaments into the database (``parsed`` keeps neither)."""
        self._db.executemany(
            "INSERT OR REPLACE INTO players VALUES (?, ?, ?, ?, ?)",
            [(p.id, p.name, p.surname, p.country_id, p.city_id) for p in parsed.players.values()],
        )
        self._db.executemany(
            'INSERT INTO tournaments (id, name, country_id, city_id, start, "end", rule_id) VALUES (?, ?, ?, ?, ?, ?, ?)'
            " ON CONFLICT (id) DO UPDATE SET name = excluded.name, country_id = excluded.country_id,"
            ' city_id = excluded.city_id, start = excluded.start, "end" = excluded."end", rule_id = excluded.rule_id',
            [
                (t.id, t.name, t.country_id, t.city_id, t.start.isoformat(), t.end.isoformat(), t.rule_id)
                for t in parsed.tournaments.values()
            ],
        )
        parsed.players.clear()
        parsed.tournaments.clear()

    def add_run(self, tournament_id: str, offset: int, first_line: int, games: int, end: int) -> None:
        self._runs.append((tournament_id, offset, first_line, games, end))
        if len(self._runs) >= _RECORDS_AT_ONCE:
            self._write_runs()

    def runs_complete(self) -> None:
        self._write_runs()
        self._db.execute("CREATE INDEX runs_of_tournament ON runs (tournament_id)")

    def _write_runs(self) -> None:
        self._db.executemany("INSERT INTO runs VALUES (?, ?, ?, ?, ?)", self._runs)
        self._runs.clear()

    def tournament_count(self) -> int:
        count: int = self._db.execute("SELECT count(*) FROM tournaments").fetchone()[0]
        return count

    def has_tournament(self, tournament_id: str) -> bool:
        return self._db.execute("SELECT 1 FROM tournaments WHERE id = ?", (tournament_id,)).fetchone() is not None

    def undefined_tournaments(self) -> list[str]:
        """The tournaments games name that no record defines (few)."""
        return [
            row[0]
            for row in self._db.execute(
                "SELECT DISTINCT tournament_id FROM runs WHERE tournament_id NOT IN (SELECT id FROM tournaments)"
            )
        ]

    def runs_of(self, tournament_id: str) -> list[tuple[int, int, int, int]]:
        """(byte offset, first line number, games, byte offset after its last line), in the file's order."""
        return self._db.execute(
            'SELECT "offset", first_line, games, "end" FROM runs WHERE tournament_id = ? ORDER BY rowid', (tournament_id,)
        ).fetchall()

    def tournaments(self) -> Iterator[ParsedTournament]:
        """In the order of their first records, read as they are used."""
        for tid, name, country_id, city_id, start, end, rule_id in self._db.execute(
            'SELECT id, name, country_id, city_id, start, "end", rule_id FROM tournaments ORDER BY place'
        ):
            yield ParsedTournament(tid, name, country_id, city_id, date.fromisoformat(start), date.fromisoformat(end), rule_id)

    def players(self, ids: Collection[str]) -> dict[str, ParsedPlayer]:
        """Those of ``ids`` the file describes."""
        query = "SELECT id, name, surname, country_id, city_id FROM players WHERE id IN ({marks})"
        return {row[0]: ParsedPlayer(*row) for row in rows_for_ids(self._db, query, ids)}

    def close(self) -> None:
        self._db.close()


def _game_columns(stream: BinaryIO, runs: list[tuple[int, int, int, int]]) -> Iterator[list[str]]:
    """The stripped columns of the game lines the runs locate, as ``_game_lines`` gives them, each run
    read and decoded in one piece rather than a line at a time (a million lines in a large file)."""
    for offset, line_number, count, end in runs:
        stream.seek(offset)
        lines = [line for line in stream.read(end - offset).decode("utf-8").split("\n") if line.strip()]
        assert len(lines) == count, f"line {line_number} changed since the first pass"
        for line in lines:
            columns = list(map(str.strip, line.split("\t")))
            assert columns[0] == "game" and len(columns) >= GAME_COLUMNS, (
                f"a line from {line_number} changed since the first pass"
            )
            yield columns


def _parsed_games_of(path: Path, runs: list[tuple[int, int, int, int]]) -> Iterator[ParsedGame]:
    scratch = ParsedFile()
    for line_number, columns in _game_lines(path, runs):
        game = _parse_record(scratch, line_number, columns)
        assert game is not None, f"line {line_number} changed since the first pass"
        yield game


def _game_lines(path: Path, runs: list[tuple[int, int, int, int]]) -> Iterator[tuple[int, list[str]]]:
    """The game lines the runs locate (line number, stripped columns), read again from the file: the
    first pass checked them (a game record of at least ``GAME_COLUMNS`` columns)."""
    with open(path, "rb") as stream:
        for offset, line_number, count, _ in runs:
            stream.seek(offset)
            read = 0
            while read < count:
                line = stream.readline().decode("utf-8").rstrip("\r\n")
                if line.strip():
                    columns = list(map(str.strip, line.split("\t")))
                    assert columns[0] == "game" and len(columns) >= GAME_COLUMNS, (
                        f"line {line_number} changed since the first pass"
                    )
                    yield line_number, columns
                    read += 1
                line_number += 1


def _player_submission(player: ParsedPlayer | None, player_id: str, countries: dict[str, str | None]) -> dict[str, Any]:
    if player is None:
        return {"id": player_id}
    return {
        "id": player.id,
        "name": player.name,
        "surname": player.surname,
        "country": countries.get(player.country_id or ""),
    }


def _natural(identifier: str) -> tuple[int, str]:
    return (
        (int(identifier), "")
        if identifier.isascii() and identifier.isdigit() and len(identifier) <= 18
        else (1 << 62, identifier)
    )
