"""Importers of the Go tournament files (EGD h9, OpenGotha XML) through the same submission service as
the API: the two Juvisy files give the same tournament, the EGC 2013 table is stored whole with every
row accounted for, and a stored Go tournament is rated under the Rivne rules from its declared ranks."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.importers import egd_h9, opengotha
from app.services.importing import import_results_file
from tests.helpers import GO_DATA, ROOT

EGC = GO_DATA / "egc2013.h9"
JUVISY_H9 = GO_DATA / "juvisy2019.h9"
JUVISY_XML = GO_DATA / "juvisy2019.xml"
EGC_ID = "egc2013main-2013-07-28"
JUVISY_ID = "tournoi-de-juvisy-2019-10-26"


def _game_key(game: dict) -> tuple:
    return (int(game["round"]), game["black"], game["white"], game["result"], game["played"], game["handicap"])


def test_the_files_are_recognised_by_their_content():
    heads = {path.name: path.read_bytes()[:4096] for path in (EGC, JUVISY_H9, JUVISY_XML)}
    assert [name for name, head in heads.items() if egd_h9.looks_like(head)] == ["egc2013.h9", "juvisy2019.h9"]
    assert [name for name, head in heads.items() if opengotha.looks_like(head)] == ["juvisy2019.xml"]
    assert not egd_h9.looks_like(b"country\t1\tChina\tCHN\n") and not opengotha.looks_like(b"country\t1\tChina\tCHN\n")


def test_both_juvisy_files_give_the_same_tournament_field_by_field():
    [h9], h9_rejected = egd_h9.read_path(JUVISY_H9)
    [xml], xml_rejected = opengotha.read_path(JUVISY_XML)
    for field in ("id", "name", "category", "start", "end", "city", "country", "board_size", "komi", "handicap_rule"):
        assert h9[field] == xml[field], field
    assert (h9["id"], h9["komi"], h9["handicap_rule"]) == (JUVISY_ID, 7.5, "h1")
    # The h9 header's TM[82] and CL[A] are what OpenGotha computes from the XML's clock (basicTime 60,
    # 30 s byo-yomi: 60 + 45 × 30 s = 82.5 minutes, class A from 60 and 82): the reader computes the same.
    assert (h9["tournament_class"], xml["tournament_class"]) == ("A", "A")
    assert (h9["time_control_minutes"], xml["time_control_minutes"]) == (82, 82)
    # The two files list a round's games in other orders; both readers store them in one.
    assert [_game_key(game) for game in h9["games"]] == [_game_key(game) for game in xml["games"]]

    h9_players = {p["id"]: p for p in h9["players"]}
    xml_players = {p["id"]: p for p in xml["players"]}
    assert set(h9_players) == set(xml_players) and len(h9_players) == 19
    for player_id, player in h9_players.items():
        for field in ("name", "surname", "country", "rank", "club"):
            assert player[field] == xml_players[player_id][field], (player_id, field)
    assert h9_players["nemo-andre"]["name"] == "André"  # ISO-8859-1 decoded
    # What only the XML carries: rating, its origin, the EGF pin.
    nicita = xml_players["nicita-giovanni"]
    assert (nicita["rank"], nicita["rating"], nicita["rating_origin"], nicita["egf_pin"]) == (
        "10k",
        1114.0,
        "EGF : 1114",
        "17033126",
    )
    assert xml_players["rebelo-manuela"]["rating"] == 276.0

    assert sorted(map(_game_key, h9["games"])) == sorted(map(_game_key, xml["games"]))
    assert len(h9["games"]) == 36
    # Round 4: Rebelo (18k) took 9 stones from Ravera (5k) and lost; Minieri gave Pinchard 4 stones.
    assert (4, "rebelo-manuela", "ravera-sylvain", "W", True, 9) in map(_game_key, h9["games"])
    assert (4, "pinchard-alexandre", "minieri-davide", "W", True, 4) in map(_game_key, h9["games"])
    # Daguenet left after round 1 and Vargas came in round 2: four rounds without a game in the h9.
    assert [r.reason for r in h9_rejected] == ["round without a game: not paired (0=)"] * 4
    assert xml_rejected == []


def test_juvisy_imported_from_both_files_through_the_submission_service(client: TestClient):
    report = import_results_file(JUVISY_H9)
    assert (report.tournaments_stored, report.players_stored, report.games_stored) == (1, 19, 36)
    from_h9 = client.get(f"/v1/tournaments/{JUVISY_ID}").json()
    # The XML describes the same tournament: it corrects it (ratings, pins) without a new game or player.
    report = import_results_file(JUVISY_XML)
    assert (report.tournaments_stored, report.players_stored, report.games_stored) == (1, 0, 0)
    from_xml = client.get(f"/v1/tournaments/{JUVISY_ID}").json()
    key = lambda g: (g["round"], g["black"], g["white"], g["result"], g["played"], g["handicap"], g["board_size"])  # noqa: E731
    assert sorted(map(key, from_h9["games"])) == sorted(map(key, from_xml["games"]))
    assert [(p["id"], p["rank"], p["club"]) for p in from_h9["players"]] == [
        (p["id"], p["rank"], p["club"]) for p in from_xml["players"]
    ]
    nicita = next(p for p in from_xml["players"] if p["id"] == "nicita-giovanni")
    assert (nicita["rating"], nicita["egf_pin"]) == (1114.0, "17033126")
    # Run again: unchanged.
    again = import_results_file(JUVISY_XML)
    assert (again.tournaments_stored, again.tournaments_unchanged) == (0, 1)


@pytest.mark.parametrize("first, second", [(JUVISY_H9, JUVISY_XML), (JUVISY_XML, JUVISY_H9)])
def test_both_juvisy_files_imported_again_change_nothing_in_either_order(client: TestClient, first: Path, second: Path):
    """Each file carries a part of the tournament the other lacks (the h9 its standings, the XML the
    players' ratings and PINs): the second file adds its part once, and importing either again finds
    the tournament unchanged, instead of correcting away the other's part each time (issue 47 item 7)."""
    assert import_results_file(first).tournaments_stored == 1
    added = import_results_file(second)
    assert (added.tournaments_stored, added.tournaments_corrected, added.games_stored) == (1, 1, 0)
    stored = client.get(f"/v1/tournaments/{JUVISY_ID}").json()
    for path in (first, second, first):
        again = import_results_file(path)
        assert (again.tournaments_stored, again.tournaments_unchanged, again.jobs_queued) == (0, 1, {}), path.name
    assert client.get(f"/v1/tournaments/{JUVISY_ID}").json() == stored
    assert (stored["time_control_minutes"], stored["tournament_class"], len(stored["standings"])) == (82, "A", 19)
    nicita = next(p for p in stored["players"] if p["id"] == "nicita-giovanni")
    assert (nicita["rating"], nicita["rating_origin"], nicita["egf_pin"]) == (1114.0, "EGF : 1114", "17033126")
    revisions = client.get(f"/v1/tournaments/{JUVISY_ID}/revisions").json()
    assert revisions["total"] == 2  # stored, then the second file's part added: nothing since


def _import(path: Path) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "import", "--no-progress", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=os.environ.copy(),
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.slow  # the CLI imports the EGC 2013 file (2,259 games) twice
def test_egc_2013_imported_end_to_end_with_every_row_accounted_for(client: TestClient):
    first = _import(EGC)
    assert "tournaments stored: 1 (already present, unchanged: 0)" in first
    assert "players stored:     594" in first
    assert "games stored:       2259" in first
    assert "1418  round without a game: not paired (0=)" in first
    assert "2  round without a game: bye (0+)" in first
    assert "2  round without a game: absent (0-)" in first
    assert "left aside:         1422" in first and "rows rejected:      0" in first
    # Every player line is a stored player, and every one of the 594 × 10 round cells is half of a
    # stored game or a round without a game: 2 × 2259 + 1422 = 5940.
    assert 2 * 2259 + 1422 == 594 * 10

    tournament = client.get(f"/v1/tournaments/{EGC_ID}").json()
    assert (tournament["games_count"], len(tournament["players"])) == (2259, 594)
    assert (tournament["start"], tournament["end"], tournament["city"]) == ("2013-07-28", "2013-08-10", "Olsztyn")
    assert (
        tournament["tournament_class"],
        tournament["handicap_rule"],
        tournament["komi"],
        tournament["time_control_minutes"],
    ) == ("A", "h3", 6.5, 195)
    players = {p["id"]: p for p in tournament["players"]}
    assert (players["fan-hui"]["rank"], players["fan-hui"]["country"], players["fan-hui"]["club"]) == ("7d", "FRA", "75Op")
    assert players["schramm-christina"]["rank"] == "30k"
    assert players["groot-aya-de"]["name"] == "Aya de"  # `_` is a space inside a name
    games = tournament["games"]
    assert sum(not g["played"] for g in games) == 33  # the `!` games: stored, not played
    # Fan Hui's first line: "26+/w0 14+/b0 …": round 1 white against line 26 (Kraemer), won.
    assert {"round": "1", "black": "kraemer-lukas", "white": "fan-hui", "result": "W", "played": True}.items() <= next(
        g for g in games if g["round"] == "1" and g["white"] == "fan-hui"
    ).items()
    # Line 22 (Vashurov) round 8: "6-!b0": lost by default as black to Silt, not played.
    assert any(
        g["round"] == "8"
        and g["black"] == "vashurov-alexandr"
        and g["white"] == "silt-ondrej"
        and g["result"] == "W"
        and not g["played"]
        for g in games
    )

    second = _import(EGC)
    assert "tournaments stored: 0 (already present, unchanged: 1)" in second
    assert "games stored:       0" in second and "players stored:     0" in second

    # The stored tournament, read back, rated under the Rivne rules: newcomers from their declared ranks.
    body = {
        "players": [{"id": p["id"], "rank": p["rank"]} for p in tournament["players"]],
        "games": [
            {
                "round": int(g["round"]),
                "black": g["black"],
                "white": g["white"],
                "result": g["result"],
                "board_size": g["board_size"],
                "handicap": g["handicap"],
                "played": g["played"],
            }
            for g in games
        ],
    }
    rated = client.post("/v1/calc/rivne/tournament", json=body)
    assert rated.status_code == 200, rated.text
    result = rated.json()
    assert result["handicap_games"] is False
    assert len(result["anomaly_passes"]) > 1 and result["anomaly_passes"][-1]["anomalous"] == []
    fan = next(p for p in result["players"] if p["id"] == "fan-hui")
    assert fan["rating_before"] == 2700 and fan["games_played"] == 10 and len(fan["rounds"]) == 10


H9_WITH_PROBLEMS = """; CL[B]
; EV[Club evening]
; PC[UA,Rivne]
; DT[2024-03-02,2024-03-02]
; KM[6.5]
;
; Pl Name              Rk Co Club  MMS
   1 Kravets Andrii    4D UA Rivn   3   2+/w0    3+/w2    0+
   2 Melnyk Ivan       1D UA Rivn   2   1-/b0    4-/w0    3+!w0
   3 Bondar Olena      3K UA Rivn   1   4+/w0    1-/b2    2-!b0
   4 Novak Petro      10K UA Rivn   1   3-/b0    2+/b0    0-
   5 Shevchenko Taras  5K UA Rivn   0   0=       0=       0=
   6 Broken line
"""


def test_h9_rows_are_stored_or_rejected_with_a_reason():
    [submission], rejected = egd_h9.read(H9_WITH_PROBLEMS.encode("ascii"))
    reasons = {(r.line_number, r.reason) for r in rejected}
    # File lines: 8 Kravets, 9 Melnyk, 10 Bondar, 11 Novak, 12 Shevchenko (no game), 13 unreadable.
    assert (12, "player without a game in the tournament") in reasons
    assert (13, "player line without name, rank, country and club") in reasons
    assert (8, "round without a game: bye (0+)") in reasons and (11, "round without a game: absent (0-)") in reasons
    assert sum(1 for r in rejected if r.reason.startswith("round without a game: not paired")) == 3
    games = sorted(map(_game_key, submission["games"]))
    assert games == [
        (1, "melnyk-ivan", "kravets-andrii", "W", True, 0),
        (1, "novak-petro", "bondar-olena", "W", True, 0),
        (2, "bondar-olena", "kravets-andrii", "W", True, 2),
        (2, "novak-petro", "melnyk-ivan", "B", True, 0),
        (3, "bondar-olena", "melnyk-ivan", "W", False, 0),
    ]
    assert (submission["country"], submission["city"], submission["tournament_class"]) == ("UKR", "Rivne", "B")
    assert [p["id"] for p in submission["players"]] == ["kravets-andrii", "melnyk-ivan", "bondar-olena", "novak-petro"]


def test_h9_cells_that_disagree_are_rejected_from_both_lines():
    text = "; EV[Cup]\n; DT[2024-01-01]\n   1 A Aa 1D UA Rivn 1  2+/w0\n   2 B Bb 1D UA Rivn 0  1+/b0\n"
    [submission], rejected = egd_h9.read(text.encode())
    assert submission["games"] == []
    assert [r.reason for r in rejected if "different results" in r.reason] == [
        "the two lines of a game give different results"
    ] * 2


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        ("RESULT_BLACKWINS_BYDEF", ("B", False)),
        ("RESULT_EQUAL", ("D", True)),
        ("RESULT_UNKNOWN", None),
        ("RESULT_BOTHLOSE", None),
    ],
)
def test_opengotha_results(result, expected):
    xml = f"""<?xml version="1.0" encoding="UTF-8"?>
<Tournament gothaVersion="348"><Players>
<Player name="Kravets" firstName="Andrii" rank="4D" rating="2350" ratingOrigin="EGF : 2350" country="UA" club="Rivn" egfPin="13219100"/>
<Player name="Melnyk" firstName="Ivan" rank="1D" rating="2080" ratingOrigin="" country="UA" club="Rivn" egfPin=""/>
</Players><Games>
<Game blackPlayer="MELNYKIVAN" whitePlayer="KRAVETSANDRII" handicap="3" result="{result}" roundNumber="1" knownColor="true"/>
</Games><TournamentParameterSet><GeneralParameterSet name="Cup" beginDate="2024-01-01" endDate="2024-01-02" komi="0.5" size="13" basicTime="30"/>
<HandicapParameterSet hdCorrection="0"/></TournamentParameterSet></Tournament>""".encode()
    [submission], rejected = opengotha.read(xml)
    assert submission["board_size"] == 13 and submission["handicap_rule"] == "h0"
    if expected is None:
        assert submission["games"] == [] and rejected[0].reason.startswith("game without a usable result")
        assert {r.reason for r in rejected[1:]} == {"player without a game in the tournament"}
    else:
        [game] = submission["games"]
        assert (game["result"], game["played"], game["handicap"], game["black"]) == (*expected, 3, "melnyk-ivan")
        kravets = next(p for p in submission["players"] if p["id"] == "kravets-andrii")
        assert (kravets["egf_pin"], kravets["rating"], kravets["rank"]) == ("13219100", 2350.0, "4d")
