"""Reader of OpenGotha's tournament file (XML, UTF-8; see tests/data/go/README.md and the DTD there).

``Players/Player`` gives each player's name, first name, declared rank, rating and its origin, country,
club and EGF pin; ``Games/Game`` each game's round, colours (``blackPlayer`` / ``whitePlayer`` are keys
made of the upper-cased surname and first name), handicap stones and result. ``…_BYDEF`` results are
games won or lost by default: stored as not played. ``read`` gives the same tournament submission the
HTTP API takes as the h9 reader (same tournament and player ids), and every element left out with the
reason.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from app.countries import country_code
from app.importers.egd_h9 import MAX_HANDICAP, UNKNOWN_COUNTRY, game_order, player_id, tournament_id
from app.importers.renju_tsv import RejectedRow
from app.importers.source import NoDoctypeTreeBuilder, decimal_number, whole_number

__all__ = ["ASIDE", "REASONS", "looks_like", "read", "read_path"]

# OpenGotha result codes -> (result from black's side, played)
RESULTS = {
    "RESULT_BLACKWINS": ("B", True),
    "RESULT_WHITEWINS": ("W", True),
    "RESULT_EQUAL": ("D", True),
    "RESULT_BLACKWINS_BYDEF": ("B", False),
    "RESULT_WHITEWINS_BYDEF": ("W", False),
    "RESULT_EQUAL_BYDEF": ("D", False),
}
_RANK = re.compile(r"^([1-9]|[12][0-9]|30)[kKdD]$")
# Numbers a file may write in its fields: those beyond are not read as numbers at all (the file is
# refused); those within that the contract does not admit (a handicap of 25, a time of 0) are
# reported or refused as the submission service says, like any other.
MAX_READABLE = 99_999


# What each rejected-row reason means, for the import report.
REASONS = {
    "not well-formed XML": "the file is not readable XML: nothing stored",
    "tournament without GeneralParameterSet (name and dates)": "the file names no tournament: nothing stored",
    "tournament without readable beginDate / endDate": "the tournament cannot be dated: nothing stored",
    "player without a name": "a player element without a name: he and his games are not stored",
    "game of a player the file does not list": "a game whose player is not among the file's players: not stored",
    "game without a usable result": "RESULT_UNKNOWN, BOTHWIN or BOTHLOSE: nothing to rate, the game is not stored",
    f"handicap above {MAX_HANDICAP}": "more stones than the go category admits: the game is not stored",
    "round without a game: bye": "the player had a bye that round: there is no game to store",
    "player without a game in the tournament": "the player played no game, so he is not created",
    UNKNOWN_COUNTRY: "the player's country is no IOC or ISO code (app/countries.py): he is stored without a country",
}

# What the file means as it is and holds no game: left aside, not rejected (docs/decisions.md 142).
ASIDE = frozenset({"round without a game: bye", "player without a game in the tournament"})


def looks_like(head: bytes) -> bool:
    """Whether a file starting with ``head`` is an OpenGotha tournament: an XML ``Tournament`` root
    written by Gotha (or with a ``Players`` section)."""
    return b"<Tournament" in head and (b"gothaVersion" in head or b"<Players" in head)


def read_path(path: str | Path) -> tuple[list[dict[str, Any]], list[RejectedRow]]:
    return read(Path(path).read_bytes())


def read(data: bytes) -> tuple[list[dict[str, Any]], list[RejectedRow]]:
    """The tournament submission (the body of ``POST /v1/tournaments``) and every element left out.
    Rejected rows are numbered by position: players 1…, games 1… in their sections. A number that is
    no number, or is outside what its field can hold (``handicap="x"``, ``basicTime="inf"``), refuses
    the file (``FileRefused``), as does a declared document type (DTD, entities)."""
    try:
        parser = ET.XMLParser(target=NoDoctypeTreeBuilder())
        parser.feed(data)
        root = parser.close()
    except ET.ParseError as error:
        return [], [RejectedRow(error.position[0], "not well-formed XML", str(error))]
    rejected: list[RejectedRow] = []
    general = root.find("TournamentParameterSet/GeneralParameterSet")
    handicap = root.find("TournamentParameterSet/HandicapParameterSet")
    players_elements = root.findall("Players/Player")
    games_elements = root.findall("Games/Game")
    if general is None:
        return [], [RejectedRow(0, "tournament without GeneralParameterSet (name and dates)")]
    try:
        start = date.fromisoformat(general.get("beginDate", ""))
        end = max(start, date.fromisoformat(general.get("endDate", "") or start.isoformat()))
    except ValueError:
        return [], [RejectedRow(0, "tournament without readable beginDate / endDate")]

    players: dict[str, dict[str, Any]] = {}  # by OpenGotha key
    for position, element in enumerate(players_elements, start=1):
        surname, first_name = element.get("name", "").strip(), element.get("firstName", "").strip()
        if not surname:
            rejected.append(RejectedRow(position, "player without a name"))
            continue
        key = (surname + first_name).upper().replace(" ", "")
        players[key] = _player(element, surname, first_name, position)
        if element.get("country") and players[key]["country"] is None:
            rejected.append(RejectedRow(position, UNKNOWN_COUNTRY, repr(element.get("country"))))

    games: list[dict[str, Any]] = []
    for position, element in enumerate(games_elements, start=1):
        code = element.get("result", "RESULT_UNKNOWN")
        black, white = players.get(element.get("blackPlayer", "")), players.get(element.get("whitePlayer", ""))
        if black is None or white is None:
            rejected.append(RejectedRow(position, "game of a player the file does not list"))
            continue
        if code not in RESULTS:
            rejected.append(RejectedRow(position, "game without a usable result", code))
            continue
        stones = whole_number(element.get("handicap"), f"game {position}: handicap", low=0, high=MAX_READABLE) or 0
        if stones > MAX_HANDICAP:
            rejected.append(RejectedRow(position, f"handicap above {MAX_HANDICAP}"))
            continue
        result, played = RESULTS[code]
        games.append(
            {
                "round": element.get("roundNumber", ""),
                "black": black["id"],
                "white": white["id"],
                "result": result,
                "played": played,
                "handicap": stones,
            }
        )
    for position, _bye in enumerate(root.findall("ByePlayers/ByePlayer"), start=1):
        rejected.append(RejectedRow(position, "round without a game: bye"))
    stored_ids = {g["black"] for g in games} | {g["white"] for g in games}
    submission_players = []
    for position, player in enumerate(players.values(), start=1):
        if player["id"] in stored_ids:
            submission_players.append(player)
        else:
            rejected.append(RejectedRow(position, "player without a game in the tournament"))
    name = general.get("name") or general.get("shortName") or "Unnamed Go tournament"
    timing = _timing(general)
    submission = {
        "id": tournament_id(name, start),
        "name": name[:300],
        "category": "go",
        "start": start.isoformat(),
        "end": end.isoformat(),
        "country": None,
        "city": general.get("location") or None,
        "time_control_minutes": None if timing is None else timing.adjusted_seconds // 60,
        "board_size": whole_number(general.get("size"), "GeneralParameterSet: size", low=0, high=MAX_READABLE) or 19,
        "tournament_class": None if timing is None else timing.egf_class(),
        "handicap_rule": f"h{handicap.get('hdCorrection')}" if handicap is not None and handicap.get("hdCorrection") else None,
        "komi": decimal_number(general.get("komi"), "GeneralParameterSet: komi", low=-MAX_READABLE, high=MAX_READABLE),
        "players": submission_players,
        "games": sorted(games, key=game_order),
    }
    return [submission], rejected


def _player(element: ET.Element, surname: str, first_name: str, position: int) -> dict[str, Any]:
    rank = element.get("rank", "")
    return {
        "id": player_id(surname, first_name),
        "name": first_name or None,
        "surname": surname,
        "country": country_code(element.get("country", "").upper()),  # ISO two-letter codes, stored as IOC codes
        "rank": rank.lower() if _RANK.match(rank) else None,
        "rating": decimal_number(element.get("rating"), f"player {position}: rating", low=-MAX_READABLE, high=MAX_READABLE),
        "rating_origin": (element.get("ratingOrigin") or "").strip()[:40] or None,
        "club": (element.get("club") or "").strip()[:100] or None,
        "egf_pin": element.get("egfPin") if re.fullmatch(r"[0-9]{1,20}", element.get("egfPin") or "") else None,
    }


@dataclass(frozen=True)
class _Timing:
    """A tournament's clock as OpenGotha's GeneralParameterSet gives it, in seconds."""

    basic_seconds: int
    adjusted_seconds: int
    fischer: bool
    internet: bool

    def egf_class(self) -> str:
        """The EGD's tournament class, by the thresholds OpenGotha writes into the h9 header's CL[]
        (its Tournament.egfClass): A, B, C for games over the board, D on the internet, X below."""
        basic, adjusted = self.basic_seconds, self.adjusted_seconds
        if self.internet:
            return "D" if basic >= (1800 if self.fischer else 2400) and adjusted >= 3000 else "X"
        thresholds = ((2700, 4500), (1800, 3000), (1200, 1800)) if self.fischer else ((3600, 4500), (2400, 3000), (1500, 1800))
        for tournament_class, (least_basic, least_adjusted) in zip("ABC", thresholds, strict=True):
            if basic >= least_basic and adjusted >= least_adjusted:
                return tournament_class
        return "X"


def _timing(general: ET.Element) -> _Timing | None:
    """The time control as the EGD reads it: OpenGotha's basic time plus its complementary time
    weighed as OpenGotha does when it writes the h9 header's TM[] (its Tournament.egfAdjustedTime):
    45 byo-yomi periods, 60 seconds' worth of Canadian byo-yomi moves, 120 Fischer increments. So
    the two files OpenGotha writes of one tournament give the same time and class
    (docs/decisions.md 143); None without a basic time."""
    basic = whole_number(general.get("basicTime"), "GeneralParameterSet: basicTime", low=0, high=MAX_READABLE)
    if basic is None:
        return None
    system = general.get("complementaryTimeSystem", "")

    def seconds(attribute: str, default: int) -> int:
        value = whole_number(general.get(attribute), f"GeneralParameterSet: {attribute}", low=0, high=MAX_READABLE)
        return default if value is None else value

    basic_seconds = basic * 60
    if system == "STDBYOYOMI":
        adjusted = basic_seconds + 45 * seconds("stdByoYomiTime", 30)
    elif system == "CANBYOYOMI":
        adjusted = basic_seconds + 60 * seconds("canByoYomiTime", 300) // max(1, seconds("nbMovesCanTime", 15))
    elif system == "FISCHER":
        adjusted = basic_seconds + 120 * seconds("fischerTime", 10)
    else:  # SUDDENDEATH, or a file without the attribute
        adjusted = basic_seconds
    internet = (general.get("bInternet") or "").strip().lower() == "true"
    return _Timing(basic_seconds, adjusted, system == "FISCHER", internet)
