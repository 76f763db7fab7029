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
from app.models import Player, PlayerExternalId, Revision
from tests.helpers import AUTH, DATA, ROOT, cli_import_renju_cn

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
