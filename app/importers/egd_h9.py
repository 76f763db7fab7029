"""Reader of the European Go Database "h9" result table, as OpenGotha and other pairing programs write
it (ASCII, or ISO-8859-1 for accented names): see tests/data/go/README.md for the format.

Header lines start with ``;`` and carry ``CL[]`` class, ``EV[]`` event, ``PC[country,city]``,
``DT[start,end]``, ``HA[]`` handicap rule, ``KM[]`` komi, ``TM[]`` time. Then one line a player:
place (blank when tied), surname and first name (spaces inside a name written as ``_``), rank, country,
club, tie-break columns (named in the ``; Pl Name Rk Co Club MMS SOS`` title line, five characters
each), and one column per round, ``<opponent line><+|-|=></|!><w|b><handicap>``:
``!`` marks a game won or lost by default, ``0+`` / ``0-`` / ``0=`` a round without an opponent.

The place column and the named tie-break columns are the tournament's own standings, stored as the
file gives them (docs/decisions.md 7.33): a blank place is the place of the line above (tied), a
``?`` after a value (estimated) is dropped, and columns the title line does not name are not read.

``read`` gives the same tournament submission the HTTP API takes and every row it leaves out with the
reason: each player line is stored as a player (unless he has no game at all), each round cell is
either half of a stored game, a round without a game, or rejected.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from app.countries import country_code
from app.importers.renju_tsv import RejectedRow
from app.importers.source import decimal_number, whole_number

__all__ = [
    "ASIDE",
    "game_order",
    "ParsedH9",
    "ParsedPlayer",
    "RoundCell",
    "looks_like",
    "parse",
    "player_id",
    "read",
    "read_path",
    "round_order",
    "tournament_id",
]

_HEADER = re.compile(r"^;\s*([A-Z]{2})\[(.*)\]\s*$")
_PLAYER = re.compile(
    r"^\s*(?P<place>\d+)?\s+(?P<name>.+?)\s+(?P<rank>\d{1,2}[kKdDpP])\s+(?P<country>\S+)\s+(?P<club>\S+)\s+(?P<rest>.*)$"
)
# ASCII digits of bounded length: a longer number (or another script's digits) is an unreadable cell.
_ROUND = re.compile(r"^(?P<opponent>[0-9]{1,5})(?P<result>[+\-=])(?:(?P<mark>[/!])(?P<colour>[wb]?)(?P<handicap>[0-9]{1,5}))?$")
_TIE_BREAK = re.compile(r"^-?\d+(?:[.,]\d+)?\??$")
# The table's title line, e.g. "; Pl Name   Rk Co Club  MMS  SOSSOSOS": tie-break names follow "Club".
_TITLES = re.compile(r"^;\s*Pl\s+Name\s.*?\bClub(?P<names>.*)$")
TIE_BREAK_WIDTH = 5  # OpenGotha writes each tie-break's title and values right-aligned in five characters
MAX_HANDICAP = 20  # INTERPRETATIONS 6.3: go handicap 0–20
MAX_READABLE = 99_999  # larger numbers in a header are not read: the file is refused (source.whole_number)


@dataclass(frozen=True)
class RoundCell:
    round: int
    opponent: int  # line number of the opponent in the table (1-based); 0 = no opponent
    result: str  # + - =
    by_default: bool
    colour: str | None  # w / b
    handicap: int | None
    text: str


@dataclass(frozen=True)
class ParsedPlayer:
    number: int  # position in the table, what round cells refer to
    line_number: int
    surname: str
    name: str
    rank: str
    country: str
    club: str
    rounds: tuple[RoundCell, ...]
    place: int | None = None  # the place column; None when blank (tied with the line above)
    tie_breaks: tuple[float, ...] = ()  # the tie-break columns before the rounds, in the file's order


@dataclass
class ParsedH9:
    header: dict[str, str] = field(default_factory=dict)
    tie_break_names: list[str] = field(default_factory=list)
    players: list[ParsedPlayer] = field(default_factory=list)
    rejected: list[RejectedRow] = field(default_factory=list)


def looks_like(head: bytes) -> bool:
    """Whether a file starting with ``head`` is an h9 table: ``;``-comment header lines with EGD keys."""
    lines = head.decode("latin-1").splitlines()[:40]
    keys = {m.group(1) for line in lines if (m := _HEADER.match(line.strip())) is not None}
    return len(keys & {"CL", "EV", "PC", "DT", "HA", "KM", "TM"}) >= 2


def read_path(path: str | Path) -> tuple[list[dict[str, Any]], list[RejectedRow]]:
    return read(Path(path).read_bytes())


def read(data: bytes) -> tuple[list[dict[str, Any]], list[RejectedRow]]:
    """The tournament submission (the body of ``POST /v1/tournaments``) and every row left out."""
    parsed = parse(_decode(data))
    return _to_submissions(parsed)


def parse(text: str) -> ParsedH9:
    parsed = ParsedH9()
    for line_number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith(";"):
            header = _HEADER.match(stripped)
            if header is not None:
                parsed.header[header.group(1)] = header.group(2).strip()
            titles = _TITLES.match(line.rstrip())
            if titles is not None:
                parsed.tie_break_names = tie_break_names(titles.group("names"))
            continue
        player = _parse_player(line, line_number, len(parsed.players) + 1)
        if isinstance(player, RejectedRow):
            parsed.rejected.append(player)
        else:
            parsed.players.append(player)
    return parsed


def tie_break_names(titles: str) -> list[str]:
    """The tie-break names of the title line after "Club": five characters each, as OpenGotha aligns
    them (its "SOSSOSOS" is SOS then SOSOS); split at spaces when the line is not so aligned."""
    titles = titles.rstrip()
    if titles and len(titles) % TIE_BREAK_WIDTH == 0:
        chunks = [titles[i : i + TIE_BREAK_WIDTH].strip() for i in range(0, len(titles), TIE_BREAK_WIDTH)]
        if all(chunks):
            return chunks
    return titles.split()


def player_id(surname: str, name: str) -> str:
    """A stable id from surname and first name: ASCII, lower case, words joined by ``-``
    (``Nemo André`` → ``nemo-andre``); the OpenGotha importer derives the same."""
    folded = unicodedata.normalize("NFKD", f"{surname} {name}").encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", folded.lower()).strip("-")[:64] or "unnamed"


def tournament_id(name: str, start: date) -> str:
    """A stable tournament id from the event's name and start date (both Juvisy files give the same)."""
    slug = player_id(name, "")[:50]
    return f"{slug}-{start.isoformat()}"


# --------------------------------------------------------------------------------------------------


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("iso-8859-1")


def _parse_player(line: str, line_number: int, number: int) -> ParsedPlayer | RejectedRow:
    match = _PLAYER.match(line)
    if match is None:
        return RejectedRow(line_number, "player line without name, rank, country and club")
    names = match.group("name").split()
    columns = match.group("rest").split()
    rounds: list[RoundCell] = []
    tie_breaks: list[float] = []
    for column in columns:
        cell = _ROUND.match(column)
        if cell is None:
            if rounds or not _TIE_BREAK.match(column):
                return RejectedRow(line_number, "unreadable round column", repr(column))
            tie_breaks.append(float(column.rstrip("?").replace(",", ".")))  # "?": an estimate, as the file gives it
            continue
        rounds.append(
            RoundCell(
                round=len(rounds) + 1,
                opponent=int(cell.group("opponent")),
                result=cell.group("result"),
                by_default=cell.group("mark") == "!",
                colour=cell.group("colour") or None,
                handicap=int(cell.group("handicap")) if cell.group("handicap") is not None else None,
                text=column,
            )
        )
    return ParsedPlayer(
        number=number,
        line_number=line_number,
        surname=names[0].replace("_", " "),
        name=" ".join(names[1:]).replace("_", " "),
        rank=match.group("rank").lower(),
        country=match.group("country").upper(),
        club=match.group("club"),
        rounds=tuple(rounds),
        place=_place(match.group("place")),
        tie_breaks=tuple(tie_breaks),
    )


def _place(column: str | None) -> int | None:
    """The place column; a number longer than any place (and than int() reads) as one beyond them."""
    if column is None:
        return None
    return int(column) if len(column) <= 9 else 10**9


_OPPOSITE = {"+": "-", "-": "+", "=": "="}
UNKNOWN_COUNTRY = "unknown country code"
# What each rejected-row reason means, for the import report.
REASONS = {
    "player line without name, rank, country and club": "a line of the table that is not a player: nothing stored from it",
    "unreadable round column": "a round cell that is not <opponent><+|-|=>/<w|b><handicap>: that game is not stored",
    "tournament without readable dates DT[start,end]": "the header gives no dates, so nothing of the table can be dated or stored",
    "round without a game: bye (0+)": "the player had a bye that round: there is no game to store",
    "round without a game: absent (0-)": "the player was absent that round: there is no game to store",
    "round without a game: not paired (0=)": "the player was not paired that round: there is no game to store",
    "round column names a line the table does not have": "the opponent's place is not in the table: that game is not stored",
    "game not written on the opponent's line": "each game is written on both players' lines; this one is on one only, so it is not stored",
    "the two lines of a game give different results": "the two players' lines disagree on the result: the game is not stored",
    "game without the players' colours": "no colour (w/b) is given, so black and white are unknown: the game is not stored",
    "the two lines of a game give different handicaps": "the two players' lines disagree on the handicap: the game is not stored",
    f"handicap above {MAX_HANDICAP}": "more stones than the go category admits: the game is not stored",
    "two players of the table have the same name": "player ids come from names, so the table cannot be stored unambiguously",
    "player without a game in the tournament": "the player played no game, so he is not created",
    "standings the service cannot hold": "a place, tie-break name or value beyond what a standing holds: the file's "
    "standings are not stored, its games and players are",
    UNKNOWN_COUNTRY: "the player's country is no IOC or ISO code (app/countries.py): he is stored without a country",
}
STANDINGS_NOT_STORED = "standings the service cannot hold"
# A round without a game and a player who played none are what the table means: left aside, not
# rejected (SubmissionSource; docs/decisions.md 142).
ASIDE = frozenset(
    {*(reason for reason in REASONS if reason.startswith("round without a game")), "player without a game in the tournament"}
)

_NO_GAME = {
    "+": "round without a game: bye (0+)",
    "-": "round without a game: absent (0-)",
    "=": "round without a game: not paired (0=)",
}


def _to_submissions(parsed: ParsedH9) -> tuple[list[dict[str, Any]], list[RejectedRow]]:
    rejected = list(parsed.rejected)
    header = parsed.header
    try:
        start, end = _dates(header.get("DT", ""))
    except ValueError:
        rejected.extend(RejectedRow(p.line_number, "tournament without readable dates DT[start,end]") for p in parsed.players)
        return [], rejected
    by_number = {p.number: p for p in parsed.players}
    ids = {p.number: player_id(p.surname, p.name) for p in parsed.players}
    games: list[dict[str, Any]] = []
    playing: set[int] = set()
    for player in parsed.players:
        for cell in player.rounds:
            if cell.opponent == 0:
                rejected.append(RejectedRow(player.line_number, _NO_GAME[cell.result]))
                continue
            opponent = by_number.get(cell.opponent)
            if opponent is None:
                rejected.append(RejectedRow(player.line_number, "round column names a line the table does not have"))
                continue
            mirror = opponent.rounds[cell.round - 1] if len(opponent.rounds) >= cell.round else None
            reason = _inconsistency(player, cell, mirror)
            if reason is not None:
                rejected.append(RejectedRow(player.line_number, reason))
                continue
            if player.number > opponent.number:
                continue  # the game is taken once, from the line of the player listed first
            if (cell.handicap or 0) > MAX_HANDICAP:
                rejected.extend(RejectedRow(p.line_number, f"handicap above {MAX_HANDICAP}") for p in (player, opponent))
                continue
            black, white = (player, opponent) if cell.colour == "b" else (opponent, player)
            black_result = cell.result if black is player else _OPPOSITE[cell.result]
            games.append(
                {
                    "round": str(cell.round),
                    "black": ids[black.number],
                    "white": ids[white.number],
                    "result": {"+": "B", "-": "W", "=": "D"}[black_result],
                    "played": not cell.by_default,
                    "handicap": cell.handicap or 0,
                }
            )
            playing.update((player.number, opponent.number))
    duplicates = _duplicate_ids(parsed.players, ids)
    if duplicates:
        rejected.extend(RejectedRow(p.line_number, "two players of the table have the same name") for p in parsed.players)
        return [], rejected
    players = []
    for player in parsed.players:
        if player.number not in playing:
            rejected.append(RejectedRow(player.line_number, "player without a game in the tournament"))
            continue
        country = country_code(player.country)  # the EGD's ISO two-letter codes, stored as IOC codes
        if country is None:
            rejected.append(RejectedRow(player.line_number, UNKNOWN_COUNTRY, repr(player.country)))
        players.append(
            {
                "id": ids[player.number],
                "name": player.name or None,
                "surname": player.surname,
                "country": country,
                "rank": player.rank if re.fullmatch(r"([1-9]|[12][0-9]|30)[kd]", player.rank) else None,
                "club": player.club[:100],
            }
        )
    country, _, city = header.get("PC", "").partition(",")
    name = header.get("EV") or "Unnamed Go tournament"
    submission = {
        "id": tournament_id(name, start),
        "name": name[:300],
        "category": "go",
        "start": start.isoformat(),
        "end": end.isoformat(),
        "country": country_code(country),
        "city": city.strip() or None,
        "time_control_minutes": whole_number(header.get("TM"), "header TM[]", low=0, high=MAX_READABLE),
        "board_size": 19,  # the EGD rates 19×19 games; h9 has no board-size field
        "tournament_class": header.get("CL") or None,
        "handicap_rule": header.get("HA") or None,
        "komi": decimal_number(header.get("KM"), "header KM[]", low=-MAX_READABLE, high=MAX_READABLE),
        "players": players,
        "games": sorted(games, key=game_order),
    }
    standings = _standings(parsed, ids, playing)
    unfit = _unfit_standings(standings)
    if unfit is not None:
        rejected.append(RejectedRow(unfit.line_number, STANDINGS_NOT_STORED, unfit.value))
    submission["standings"] = [standing for _, standing in standings] if unfit is None else []
    return [submission], rejected


def _standings(parsed: ParsedH9, ids: dict[int, str], playing: set[int]) -> list[tuple[int, dict[str, Any]]]:
    """The file's own places and named tie-break values of the players stored, in the file's order,
    each with its line number. None when the table's first line has no place (nothing to tie with)."""
    if not parsed.players or parsed.players[0].place is None:
        return []
    stored = [p for p in parsed.players if p.number in playing]
    # Named columns every stored line has: a shorter line leaves the ones it lacks unread for all.
    named = min([len(parsed.tie_break_names), *(len(p.tie_breaks) for p in stored)])
    standings = []
    place = 0
    for player in parsed.players:
        place = player.place if player.place is not None else place
        if player.number in playing:
            values = zip(parsed.tie_break_names[:named], player.tie_breaks[:named], strict=True)
            tie_breaks = [{"name": n, "value": v} for n, v in values]
            standings.append((player.line_number, {"player": ids[player.number], "place": place, "tie_breaks": tie_breaks}))
    return standings


# What a standing holds (app.schemas.tournaments.StandingIn and TieBreak).
MOST_TIE_BREAKS, TIE_BREAK_NAME_LENGTH, MOST_PLACE, MOST_TIE_BREAK_VALUE = 20, 20, 100_000, 1_000_000


@dataclass(frozen=True)
class _Unfit:
    line_number: int
    value: str


def _unfit_standings(standings: list[tuple[int, dict[str, Any]]]) -> _Unfit | None:
    """The first place, tie-break name or value a standing cannot hold, if any: then the file's
    standings are left out whole (the tournament's games are stored all the same)."""
    for line_number, standing in standings:
        tie_breaks = standing["tie_breaks"]
        if standing["place"] > MOST_PLACE or len(tie_breaks) > MOST_TIE_BREAKS:
            return _Unfit(line_number, f"place {standing['place']}, {len(tie_breaks)} tie-breaks")
        for tie_break in tie_breaks:
            # not <= also catches a value written with so many digits that it reads as infinity
            if len(tie_break["name"]) > TIE_BREAK_NAME_LENGTH or not abs(tie_break["value"]) <= MOST_TIE_BREAK_VALUE:
                return _Unfit(line_number, f"{tie_break['name'][:40]} {tie_break['value']}")
    return None


def _inconsistency(player: ParsedPlayer, cell: RoundCell, mirror: RoundCell | None) -> str | None:
    """Why the two cells of one game disagree, or None (each game is written on both players' lines)."""
    if mirror is None or mirror.opponent != player.number:
        return "game not written on the opponent's line"
    if mirror.result != _OPPOSITE[cell.result] or mirror.by_default != cell.by_default:
        return "the two lines of a game give different results"
    if cell.colour is None or mirror.colour is None or cell.colour == mirror.colour:
        return "game without the players' colours"
    if cell.handicap != mirror.handicap:
        return "the two lines of a game give different handicaps"
    return None


def _duplicate_ids(players: list[ParsedPlayer], ids: dict[int, str]) -> bool:
    return len(set(ids.values())) != len(players)


def _dates(value: str) -> tuple[date, date]:
    parts = [p.strip() for p in value.split(",") if p.strip()]
    if not parts:
        raise ValueError("no dates")
    start = date.fromisoformat(parts[0])
    end = date.fromisoformat(parts[-1])
    return start, max(start, end)


def game_order(game: dict[str, Any]) -> tuple[tuple[int, str], str, str]:
    """Games in round order, and within a round by black's and white's ids: a Go file's games of
    one round have no order of their own (the h9 table writes them by the players' lines, OpenGotha
    by its tables), so both files of one tournament store them in the same order (decision 143)."""
    return round_order(game["round"]), game["black"], game["white"]


def round_order(label: str) -> tuple[int, str]:
    """Games in round order: numbered rounds by number, other labels ("T") after them."""
    if label.isascii() and label.isdigit() and len(label) <= 9:
        return int(label), ""
    return 1 << 30, label
