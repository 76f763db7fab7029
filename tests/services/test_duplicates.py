"""A tournament submitted a second time under another id is refused with a 409 naming the stored one,
unless the submitter says both are real; the importer reports such tournaments instead of storing
them twice (docs/decisions.md 7.17; a tournament of one or two played games, decision 107)."""

import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.services import importing
from app.services.importing import import_results_file
from app.services.tournaments import _shared_games
from tests.helpers import AUTH, RENJU_CN, tournament_body
from tests.live_server import ROOT


def test_the_same_games_under_another_id_are_a_409_naming_the_stored_tournament(client):
    assert client.post("/v1/tournaments", json=tournament_body("T1"), headers=AUTH).status_code == 201
    again = client.post("/v1/tournaments", json=tournament_body("COPY", name="Test Open (again)"), headers=AUTH)
    assert again.status_code == 409 and again.headers["content-type"].startswith("application/problem+json")
    problem = again.json()
    assert "'T1'" in problem["detail"] and "5 of the submission's 5 played games" in problem["detail"]
    assert problem["errors"] == [{"pointer": "/games", "detail": "5 of 5 played games are those of tournament 'T1'"}]
    assert client.get("/v1/tournaments/COPY").status_code == 404

    intended = client.post("/v1/tournaments", json=tournament_body("COPY"), headers=AUTH, params={"duplicate": "intended"})
    assert intended.status_code == 201
    assert (
        client.post("/v1/tournaments", json=tournament_body("X"), params={"duplicate": "perhaps"}, headers=AUTH).status_code
        == 422
    )


def test_what_is_not_a_repeat(client):
    assert client.post("/v1/tournaments", json=tournament_body("T1"), headers=AUTH).status_code == 201
    games = tournament_body()["games"]
    # two of five played games in common: below the threshold
    shared = {**tournament_body("FEW"), "games": [games[0], games[1], {**games[2], "result": "B"}, {**games[3], "result": "B"}]}
    assert client.post("/v1/tournaments", json=shared, headers=AUTH).status_code == 201
    # the same games a year later, or in another game's category
    later = tournament_body("LATER", start="2021-05-01", end="2021-05-03", games=[{**g, "date": None} for g in games])
    assert client.post("/v1/tournaments", json=later, headers=AUTH).status_code == 201
    gomoku = tournament_body("GOMOKU", category="gomoku", rule="Freestyle")
    assert client.post("/v1/tournaments", json=gomoku, headers=AUTH).status_code == 201
    # a withdrawn tournament is no longer there to repeat
    assert client.delete("/v1/tournaments/T1", params={"reason": "entered under the wrong id"}, headers=AUTH).status_code == 200
    assert client.post("/v1/tournaments", json=tournament_body("T1-RIGHT"), headers=AUTH).status_code == 201


@pytest.mark.slow  # seconds: a large body or a CLI subprocess over real data
def test_the_real_file_imported_again_under_other_ids_is_reported_not_stored(client, tmp_path):
    renamed = tmp_path / "renamed.tsv"
    lines = []
    for line in RENJU_CN.read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        if fields[0] == "tournament":
            fields[1] = "X" + fields[1]
        elif fields[0] == "game" and len(fields) > 2:
            fields[2] = "X" + fields[2]
        lines.append("\t".join(fields))
    renamed.write_text("\n".join(lines) + "\n", encoding="utf-8")

    def run(path) -> str:  # type: ignore[no-untyped-def]
        done = subprocess.run(
            [sys.executable, "-m", "app.cli", "import", "--no-progress", "--no-recompute", str(path)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    assert "tournaments stored: 59" in run(RENJU_CN)
    report = run(renamed)
    assert "tournaments stored: 0" in report and "games stored:       0" in report
    assert "tournament whose games repeat a stored tournament's" in report
    assert "tournament XT0017: " in report or "tournament XT00" in report
    assert client.get("/v1/tournaments", params={"limit": 1}).json()["total"] == 59


@given(
    st.lists(st.sampled_from("abcdef"), max_size=12).map(Counter),
    st.lists(st.sampled_from("abcdefgh"), max_size=12).map(Counter),
)
def test_the_games_two_tournaments_share_are_counted_as_often_as_both_have_them(one: Counter, other: Counter):
    assert _shared_games(one, other) == _shared_games(other, one) == (one & other).total()


def test_a_repeat_is_half_the_played_games_or_more_and_at_least_three(client):
    """The threshold at its edges: three of six played games shared repeat the stored tournament, two
    of four do not (fewer than three); a stored tournament with fewer games than half is no repeat."""
    games = tournament_body()["games"]
    played = [game for game in games if game.get("played", True)]  # five
    assert client.post("/v1/tournaments", json=tournament_body("T1"), headers=AUTH).status_code == 201
    other = [{**game, "id": "x" + game["id"], "result": "D" if game["result"] != "D" else "B"} for game in played]
    three_of_six = {**tournament_body("SIX"), "games": [*played[:3], *other[:3]]}
    response = client.post("/v1/tournaments", json=three_of_six, headers=AUTH)
    assert response.status_code == 409 and "3 of the submission's 6 played games" in response.json()["detail"]
    two_of_four = {**tournament_body("FOUR"), "games": [*played[:2], *other[3:5]]}
    assert client.post("/v1/tournaments", json=two_of_four, headers=AUTH).status_code == 201
    three_of_seven = {**tournament_body("SEVEN"), "games": [*played[:3], *other[:4]]}
    assert client.post("/v1/tournaments", json=three_of_seven, headers=AUTH).status_code == 201


# The README's own tournament ("Try it"): two games, below the share rule's three.
DEMO = {
    "id": "demo-2024",
    "name": "Demo Open",
    "category": "renju",
    "rule": "RIF",
    "start": "2024-05-01",
    "end": "2024-05-02",
    "time_control_minutes": 60,
    "players": [
        {"id": "p1", "name": "Ants", "surname": "Soosõrv", "country": "EST"},
        {"id": "p2", "name": "Ando", "surname": "Meritee", "country": "EST"},
    ],
    "games": [
        {"round": "1", "black": "p1", "white": "p2", "result": "B"},
        {"round": "2", "black": "p2", "white": "p1", "result": "D"},
    ],
}


def test_a_small_tournament_repeated_under_another_id_is_a_409_naming_the_stored_one(client):
    assert client.post("/v1/tournaments", json=DEMO, headers=AUTH).status_code == 201
    # The same two games under another id and name, on other days that overlap (the games count on
    # the end, 2024-05-02, in both), in another order: the same multiset.
    copy = {**DEMO, "id": "demo-copy", "name": "Demo Open (again)", "start": "2024-05-02", "games": DEMO["games"][::-1]}
    again = client.post("/v1/tournaments", json=copy, headers=AUTH)
    assert again.status_code == 409, again.text
    assert "'demo-2024'" in again.json()["detail"] and "2 of the submission's 2 played games" in again.json()["detail"]
    assert again.json()["errors"] == [{"pointer": "/games", "detail": "2 of 2 played games are those of tournament 'demo-2024'"}]
    assert client.get("/v1/tournaments/demo-copy").status_code == 404

    one_game = {**DEMO, "id": "one", "start": "2024-06-01", "end": "2024-06-01", "games": DEMO["games"][:1]}
    assert client.post("/v1/tournaments", json=one_game, headers=AUTH).status_code == 201
    repeated = client.post("/v1/tournaments", json={**one_game, "id": "one-again"}, headers=AUTH)
    assert repeated.status_code == 409 and "stored tournament 'one'" in repeated.json()["detail"]

    intended = client.post("/v1/tournaments", json=copy, headers=AUTH, params={"duplicate": "intended"})
    assert intended.status_code == 201, intended.text
    assert client.get("/v1/tournaments/demo-copy").json()["games_count"] == 2


def test_what_is_not_a_small_repeat(client):
    assert client.post("/v1/tournaments", json=DEMO, headers=AUTH).status_code == 201
    games = DEMO["games"]
    # the same players on the same day with another result
    other_result = {**DEMO, "id": "other-result", "games": [games[0], {**games[1], "result": "W"}]}
    assert client.post("/v1/tournaments", json=other_result, headers=AUTH).status_code == 201
    # one more game: three played games, two of them the stored one's (the share rule: fewer than three)
    one_more = {**DEMO, "id": "one-more", "games": [*games, {"round": "3", "black": "p1", "white": "p2", "result": "W"}]}
    assert client.post("/v1/tournaments", json=one_more, headers=AUTH).status_code == 201
    # one of the two games only: not the whole stored tournament
    assert client.post("/v1/tournaments", json={**DEMO, "id": "half", "games": games[:1]}, headers=AUTH).status_code == 201
    # the same games a day later, a walkover beside them, or in another category
    later = {**DEMO, "id": "later", "start": "2024-05-03", "end": "2024-05-03"}
    assert client.post("/v1/tournaments", json=later, headers=AUTH).status_code == 201
    gomoku = {**DEMO, "id": "gomoku", "category": "gomoku", "rule": "Freestyle"}
    assert client.post("/v1/tournaments", json=gomoku, headers=AUTH).status_code == 201


def test_a_small_repeat_counts_played_games_only(client):
    """A walkover is no played game: the played games alone are compared, as in the share rule."""
    assert client.post("/v1/tournaments", json=DEMO, headers=AUTH).status_code == 201
    walkover = {"round": "3", "black": "p1", "white": "p2", "result": "B", "played": False}
    with_walkover = {**DEMO, "id": "with-walkover", "games": [*DEMO["games"], walkover]}
    response = client.post("/v1/tournaments", json=with_walkover, headers=AUTH)
    assert response.status_code == 409 and "'demo-2024'" in response.json()["detail"]


# Two tournaments of two games each in one file, the second the first's games under another id (one
# batch: the second is checked before the first is stored), and a third with one game of them only.
SMALL_RESULTS = (
    "player\t1\tAnts\tSoosorv\t5\t1\n"
    "player\t2\tAndo\tMeritee\t5\t1\n"
    "tournament\t910\tDemo\t5\t1\t2024-05-01\t2024-05-02\t1\n"
    "tournament\t911\tDemo again\t5\t1\t2024-05-01\t2024-05-02\t1\n"
    "tournament\t912\tDemo, one game\t5\t1\t2024-05-01\t2024-05-02\t1\n"
    "game\t1\t910\t1\t1\t1\t2\tB\n"
    "game\t2\t910\t2\t1\t2\t1\tD\n"
    "game\t3\t911\t1\t1\t2\t1\tD\n"
    "game\t4\t911\t2\t1\t1\t2\tB\n"
    "game\t5\t912\t1\t1\t1\t2\tB\n"
)


def test_an_import_of_small_tournaments_repeating_each_other_stores_the_first(client, tmp_path):
    path = tmp_path / "small.tsv"
    path.write_text(SMALL_RESULTS, encoding="utf-8")
    report = import_results_file(path)
    assert report.tournaments_stored == 2 and report.rejected[importing.REPEATED_TOURNAMENT] == 1
    assert report.examples[importing.REPEATED_TOURNAMENT] == ["tournament 911: 2 of 2 played games are those of tournament '910'"]
    assert client.get("/v1/tournaments/911").status_code == 404
    assert client.get("/v1/tournaments/912").status_code == 200
    # imported again: 910 and 912 are found unchanged, 911 repeats the stored 910
    again = import_results_file(path)
    assert (again.tournaments_stored, again.tournaments_unchanged) == (0, 2)
    assert again.rejected[importing.REPEATED_TOURNAMENT] == 1
