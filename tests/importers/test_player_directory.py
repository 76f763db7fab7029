"""`python -m app.cli import` of a player directory (issue 24 item 6): the renju WHR site's directory
gives the Chinese results' players their names, countries and renju.net ids; the directory CSV creates
and updates players; a file with a line it cannot take stores nothing; a second run changes nothing."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app import db
from app.importers import directory
from app.importers.formats import UnknownFormat, detect_format
from app.importers.source import FileRefused
from app.models import Player, PlayerExternalId, Revision
from app.services.player_directory import DirectoryRefused, import_directory_file
from tests.helpers import AUTH, DATA, ROOT, cli_import_renju_cn, recompute_now, tournament_body

DIRECTORY = DATA / "renju-players-2022" / "ljinfo.tsv"
CSV_HEADER = "id,name,surname,native_name,country,city,gender,external_ids\n"


def _import(path: Path, *, status: int = 0) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "import", "--no-progress", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=os.environ.copy(),
        timeout=300,
    )
    assert result.returncode == status, result.stdout + result.stderr
    return result.stdout + result.stderr


def _stored() -> tuple[int, int, int, list[tuple]]:
    with db.session_scope() as session:
        return (
            session.scalar(select(func.count()).select_from(Player)) or 0,
            session.scalar(select(func.count()).select_from(PlayerExternalId)) or 0,
            session.scalar(select(func.count()).select_from(Revision)) or 0,
            [tuple(row) for row in session.execute(select(Player.id, Player.name, Player.surname, Player.country, Player.city))],
        )


def _all_players(client: TestClient) -> list[dict]:
    pages = [client.get("/v1/players", params={"limit": 500, "offset": offset}).json() for offset in (0, 500)]
    assert pages[0]["total"] < 1000
    return pages[0]["items"] + pages[1]["items"]


@pytest.mark.slow
def test_the_directory_names_every_player_of_the_chinese_results(client: TestClient) -> None:
    cli_import_renju_cn()
    unnamed = [hit for hit in _all_players(client) if hit["surname"] is None]
    assert len(unnamed) == 246  # the results file describes 280 of its 526 players

    first = _import(DIRECTORY)
    assert "players in the file: 526" in first and "players updated:     526" in first
    assert "external ids added:  526" in first and "lines refused:       0" in first
    players = _all_players(client)
    assert len(players) == 526 and all(hit["surname"] and hit["country"] for hit in players)
    assert {hit["country"] for hit in players} == {"CHN", "TPE", "MAC", "HKG"}
    wang = client.get("/v1/players/952").json()
    assert (wang["name"], wang["surname"], wang["native_name"], wang["external_ids"]) == (
        "Qingqing",
        "Wang",
        "汪清清",
        ["renjunet:952"],
    )
    assert client.get("/v1/players/20").status_code == 404  # the directory's rows beyond the file's players are not in it

    before = _stored()
    second = _import(DIRECTORY)
    assert "players unchanged:   526" in second and "players updated:     0" in second
    assert _stored() == before

    [hit] = client.get("/v1/players", params={"q": "汪清清"}).json()["items"]
    assert hit["id"] == "952" and hit["disciplines"] == ["renju"]


@pytest.mark.slow
def test_the_directory_csv_creates_and_updates_players(tmp_path: Path, client: TestClient) -> None:
    assert client.post("/v1/players", json={"id": "37", "name": "Ants", "city": "Tallinn"}, headers=AUTH).status_code == 201
    directory = tmp_path / "players.csv"
    directory.write_text(
        CSV_HEADER + '37,Ants,Soosõrv,,EE,,M,renjunet:37 egd:11111111\n"k1","Kwang Hun",Kim,김광훈,South Korea,"Seoul",,\n',
        encoding="utf-8",
    )
    output = _import(directory)
    assert "players created:     1" in output and "players updated:     1" in output
    ants = client.get("/v1/players/37").json()
    assert (ants["surname"], ants["country"], ants["city"], ants["gender"]) == ("Soosõrv", "EST", "Tallinn", "M")
    assert ants["external_ids"] == ["egd:11111111", "renjunet:37"]
    kim = client.get("/v1/players/k1").json()
    assert (kim["name"], kim["native_name"], kim["country"], kim["city"]) == ("Kwang Hun", "김광훈", "KOR", "Seoul")
    audit = client.get("/v1/audit", params={"kind": "player_updated"}, headers=AUTH).json()["items"]
    assert sorted((r["subject"], r["subject_id"]) for r in audit) == [("player", "37"), ("player", "k1")]
    before = _stored()
    assert "players unchanged:   2" in _import(directory)
    assert _stored() == before


@pytest.mark.slow
def test_a_directory_with_a_line_it_cannot_take_stores_nothing(tmp_path: Path, client: TestClient) -> None:
    assert client.post("/v1/players", json={"id": "9", "external_ids": ["renjunet:9"]}, headers=AUTH).status_code == 201
    before = _stored()
    unknown_country = tmp_path / "unknown.csv"
    unknown_country.write_text(CSV_HEADER + "1,A,B,,EST,,,\n2,C,D,,Atlantis,,,\n3,E,F,,QQ,,,\n", encoding="utf-8")
    output = _import(unknown_country, status=1)
    assert "2  unknown country" in output and "nothing was stored" in output
    assert "line 3: 'Atlantis'" in output
    taken = tmp_path / "taken.csv"
    taken.write_text(CSV_HEADER + "1,A,B,,EST,,,\n2,C,D,,,,,renjunet:9\n", encoding="utf-8")
    output = _import(taken, status=1)
    assert "1  external id another player holds" in output and "renjunet:9 is player 9's" in output
    assert _stored() == before


def test_a_directory_csv_with_some_columns_in_any_order_is_taken_with_those(tmp_path: Path, client: TestClient) -> None:
    """A federation's export of ids and countries alone is a directory (issue 47 item 7): what it does
    not give is kept as stored, as an empty cell is."""
    assert client.post("/v1/players", json={"id": "37", "name": "Ants", "city": "Tallinn"}, headers=AUTH).status_code == 201
    partial = tmp_path / "countries.csv"
    partial.write_text("country,id\nEE,37\nJapan,j1\n", encoding="utf-8")
    report = import_directory_file(partial)
    assert (report.rows, report.created, report.updated) == (2, 1, 1)
    ants = client.get("/v1/players/37").json()
    assert (ants["name"], ants["city"], ants["country"]) == ("Ants", "Tallinn", "EST")
    assert client.get("/v1/players/j1").json()["country"] == "JPN"
    assert import_directory_file(partial).unchanged == 2


@pytest.mark.parametrize(
    "header, said",
    [
        ("id,country,rating", "columns it does not know: 'rating'"),
        ("name,country", "no column id"),
        ("id,country,country", "columns given twice: country"),
    ],
)
def test_a_directory_csv_header_the_format_lacks_says_which_columns(tmp_path: Path, header: str, said: str) -> None:
    path = tmp_path / "players.csv"
    path.write_text(f"{header}\n1,EE,3\n", encoding="utf-8")
    assert directory.looks_like(path.read_bytes())  # the directory's refusal, not "no known format"
    with pytest.raises(FileRefused, match=said) as refused:
        import_directory_file(path)
    assert "its columns are id,name,surname,native_name,country,city,gender,external_ids" in str(refused.value)


def test_a_refused_line_counts_among_the_players_of_the_file(tmp_path: Path, client: TestClient) -> None:
    path = tmp_path / "players.csv"
    path.write_text(CSV_HEADER + "1,A,B,,EST,,,\n2,C,D,,Atlantis,,,\n", encoding="utf-8")
    with pytest.raises(DirectoryRefused) as refused:
        import_directory_file(path)
    assert (refused.value.report.rows, refused.value.report.rejected.total()) == (2, 1)


def test_a_file_of_no_format_lists_the_directories_among_the_formats(tmp_path: Path) -> None:
    path = tmp_path / "other.txt"
    path.write_text("foo;bar\n1;2\n", encoding="utf-8")
    with pytest.raises(UnknownFormat) as unknown:
        detect_format(path)
    for name in directory.FORMAT_NAMES:
        assert name in str(unknown.value)


WOMEN = DATA / "renju-players-2022" / "female.tsv"


def _women_by_the_sites_rule() -> set[str]:
    """The players of the Chinese results that female.tsv marks, read from the two raw files as the
    site's reader did: both players of each game of a tournament marked `*`, or of a round starting
    with a marked prefix, and each player named."""
    marks = [line.rstrip("\n").split("\t") for line in WOMEN.read_text(encoding="utf-8").splitlines() if line.strip()]
    rounds = {mark[1]: mark[2] for mark in marks if mark[0] == "tournament"}
    named = {mark[1] for mark in marks if mark[0] == "player"}
    women = set()
    for line in (DATA / "renju-cn-2009-2019" / "source.tsv").read_text(encoding="utf-8").splitlines():
        columns = line.split("\t")
        if columns[0] != "game":
            continue
        tournament, round_name, black, white = columns[2], columns[3], columns[5], columns[6]
        if tournament in rounds and (
            rounds[tournament] == "*" or round_name.upper().startswith(tuple(rounds[tournament].upper().split(",")))
        ):
            women |= {black, white}
        women |= {black, white} & named
    return women


@pytest.mark.slow
def test_the_list_of_women_makes_the_womens_list_of_the_chinese_results(client: TestClient) -> None:
    women = _women_by_the_sites_rule()
    assert len(women) == 253  # as the data's README counts them over the whole file
    cli_import_renju_cn()
    stored = {player_id for _, _, _, rows in [_stored()] for player_id, *_ in rows}
    first = _import(WOMEN)
    marked = women & stored  # the file's unrated games are not stored, nor the players who play only those
    assert f"players in the file: {len(marked)}" in first and f"players updated:     {len(marked)}" in first
    assert "tournament not stored" in first and "player not stored" in first and "lines refused:       0" in first
    recompute_now(client)
    rated = {row["player_id"] for row in _rows(client, {})}
    on_the_womens_list = {row["player_id"] for row in _rows(client, {"gender": "f"})}
    assert on_the_womens_list == marked & rated and len(on_the_womens_list) > 100
    assert {row["player_id"] for row in _rows(client, {"gender": "m"})} == set()  # the file tells nobody a man
    [revision] = [r for r in client.get("/v1/players/952/revisions").json()["items"] if "gender" in r["summary"]]
    assert revision["actor"] == "import" and client.get("/v1/players/952").json()["gender"] == "F"

    before = _stored()
    again = _import(WOMEN)
    assert f"players unchanged:   {len(marked)}" in again and "players updated:     0" in again
    assert _stored() == before


@pytest.mark.slow
def test_the_list_of_women_marks_a_womens_group_of_a_mixed_event_and_players_named(tmp_path: Path, client: TestClient) -> None:
    body = tournament_body("MIX1")
    for game in body["games"]:
        game["round"] = f"W{game['round']}" if {game["black"], game["white"]} <= {"p1", "p3"} else game["round"]
    assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201
    women = tmp_path / "female.tsv"
    women.write_text("tournament\tMIX1\tw,X\ntournament\tNOWHERE\t*\nplayer\tp4\nplayer\tnobody\n", encoding="utf-8")
    report = _import(women)
    assert "players in the file: 3" in report and "players updated:     3" in report
    assert "      1  tournament not stored" in report and "      1  player not stored" in report
    genders = {player_id: client.get(f"/v1/players/{player_id}").json()["gender"] for player_id in ("p1", "p2", "p3", "p4")}
    assert genders == {"p1": "F", "p2": None, "p3": "F", "p4": "F"}
    assert client.get("/v1/players/nobody").status_code == 404  # a list of women creates nobody


def _rows(client: TestClient, params: dict) -> list[dict]:
    """Every row of the rif-whr list with the filters, page after page."""
    rows: list[dict] = []
    while True:
        page = client.get(
            "/v1/rating-lists/rif-whr/ratings", params={"status": "all", "limit": 500, "offset": len(rows), **params}
        )
        assert page.status_code == 200, page.text
        rows += page.json()["items"]
        if len(rows) >= page.json()["total"]:
            return rows
