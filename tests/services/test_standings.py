"""A tournament's own standings (issue 26 item 1): submitted with it, validated, stored, read back,
corrected with a revision; the Go importers store what the files give, and the website's crosstable
says which order it shows."""

from fastapi.testclient import TestClient

from app.importers import egd_h9
from app.services.importing import import_results_file
from tests.helpers import AUTH, GO_DATA, tournament_body

JUVISY_ID = "tournoi-de-juvisy-2019-10-26"


def standing(player: str, place: int, **tie_breaks: float) -> dict:
    return {"player": player, "place": place, "tie_breaks": [{"name": n, "value": v} for n, v in tie_breaks.items()]}


# p4 won all three games, p1 scored 1½; the tournament placed them by its own tie-breaks.
STANDINGS = [
    standing("p4", 1, WINS=3, SB=2.5),
    standing("p1", 2, WINS=1, SB=1.0),
    standing("p3", 3, WINS=0, SB=0.5),
    standing("p2", 3, WINS=0, SB=0.5),
]


def test_standings_are_stored_and_read_back_by_place(client: TestClient):
    response = client.post("/v1/tournaments", json=tournament_body(standings=STANDINGS), headers=AUTH)
    assert response.status_code == 201, response.text
    read = client.get("/v1/tournaments/T1").json()
    # By place; equal places in the order given.
    assert [(s["player"], s["place"]) for s in read["standings"]] == [("p4", 1), ("p1", 2), ("p3", 3), ("p2", 3)]
    assert read["standings"][0]["tie_breaks"] == [{"name": "WINS", "value": 3.0}, {"name": "SB", "value": 2.5}]
    assert response.json()["standings"] == read["standings"]
    summary = client.get("/v1/tournaments/T1/revisions/1").json()["summary"]
    assert summary.endswith("4 players, 6 games, standings of 4 players")


def test_a_tournament_without_standings_reads_an_empty_list(client: TestClient):
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    assert client.get("/v1/tournaments/T1").json()["standings"] == []


def test_invalid_standings_are_422s_pointing_at_each_and_store_nothing(client: TestClient):
    standings = [
        standing("p4", 1, WINS=3, SB=2.5),
        standing("nobody", 2, WINS=1, SB=1.0),  # not a player of the tournament
        standing("p4", 3, WINS=0, SB=0.5),  # twice
        standing("p2", 3, SB=0.5, WINS=0),  # the tie-breaks in another order
        standing("p3", 4, WINS=0),  # one missing
    ]
    response = client.post("/v1/tournaments", json=tournament_body(standings=standings), headers=AUTH)
    assert response.status_code == 422, response.text
    pointers = [error["pointer"] for error in response.json()["errors"]]
    assert pointers == ["/standings/1/player", "/standings/2/player", "/standings/3/tie_breaks", "/standings/4/tie_breaks"]
    assert client.get("/v1/tournaments/T1").status_code == 404
    assert client.get("/v1/players/p1").status_code == 404


def test_a_place_below_one_is_a_422_with_its_pointer(client: TestClient):
    body = tournament_body(standings=[standing("p1", 0)])
    response = client.post("/v1/tournaments", json=body, headers=AUTH)
    assert response.status_code == 422
    assert [error["pointer"] for error in response.json()["errors"]] == ["/standings/0/place"]


def test_a_correction_of_the_standings_is_a_revision_keeping_the_earlier_ones(client: TestClient):
    assert client.post("/v1/tournaments", json=tournament_body(standings=STANDINGS), headers=AUTH).status_code == 201
    corrected = [standing("p4", 1, WINS=3, SB=2.5), standing("p1", 2, WINS=1, SB=1.0)]
    response = client.put("/v1/tournaments/T1", json=tournament_body(standings=corrected), headers=AUTH)
    assert response.status_code == 200, response.text
    assert [s["player"] for s in response.json()["standings"]] == ["p4", "p1"]
    revision = client.get("/v1/tournaments/T1/revisions/2").json()
    assert "standings: 4 → 2 players" in revision["summary"]
    assert revision["previous"]["standings"] == STANDINGS
    # The kept version is a body PUT takes: putting it back restores the standings.
    previous = {k: v for k, v in revision["previous"].items() if k != "withdrawn"}
    assert client.put("/v1/tournaments/T1", json=previous, headers=AUTH).status_code == 200
    assert [s["player"] for s in client.get("/v1/tournaments/T1").json()["standings"]] == ["p4", "p1", "p3", "p2"]
    # Removing them is a correction too.
    assert client.put("/v1/tournaments/T1", json=tournament_body(), headers=AUTH).status_code == 200
    assert client.get("/v1/tournaments/T1").json()["standings"] == []
    assert "standings: 4 → 0 players" in client.get("/v1/tournaments/T1/revisions/4").json()["summary"]


def test_the_h9_file_places_are_stored_and_a_second_import_changes_nothing(client: TestClient):
    report = import_results_file(GO_DATA / "juvisy2019.h9")
    assert report.tournaments_stored == 1
    standings = client.get(f"/v1/tournaments/{JUVISY_ID}").json()["standings"]
    assert len(standings) == 19 and [s["place"] for s in standings] == list(range(1, 20))
    # Pinchard won his four games (with handicap) and is 15th on McMahon score, as the file says.
    pinchard = next(s for s in standings if s["player"] == "pinchard-alexandre")
    assert pinchard == standing("pinchard-alexandre", 15, MMS=25, SOS=115, SOSOS=496)
    again = import_results_file(GO_DATA / "juvisy2019.h9")
    assert (again.tournaments_stored, again.tournaments_unchanged) == (0, 1)


def test_the_opengotha_file_gives_no_standings_and_none_are_made_up(client: TestClient):
    """OpenGotha's XML names its placement criteria (MMS, SOSM, SOSOSM) but holds no computed
    values or places: the service computes none."""
    report = import_results_file(GO_DATA / "juvisy2019.xml")
    assert report.tournaments_stored == 1
    assert client.get(f"/v1/tournaments/{JUVISY_ID}").json()["standings"] == []
    page = client.get(f"/tournaments/{JUVISY_ID}").text
    assert "The tournament gave no standings of its own: players are placed by score alone" in page


def test_the_crosstable_shows_a_submitted_tournaments_places_and_tie_breaks(client: TestClient):
    assert client.post("/v1/tournaments", json=tournament_body(standings=STANDINGS), headers=AUTH).status_code == 201
    page = client.get("/tournaments/T1").text
    assert 'Places as the tournament decided them, with its tie-breaks (<span translate="no">WINS, SB</span>)' in page
    body = page[page.index("<tbody>", page.index("Crosstable of")) : page.index("</tbody>", page.index("Crosstable of"))]
    rows = body.split("<tr>")[1:]
    assert ["Yusui" in rows[0], "Ants" in rows[1], "Tunnet" in rows[2], "Ando" in rows[3]] == [True] * 4
    assert '<td class="num lead">1</td><td>1</td>' in rows[0] and '<td class="num">2.5</td>' in rows[0]
    assert '<td class="num lead">4</td><td>3</td>' in rows[3]


def test_an_h9_file_with_standings_beyond_what_a_standing_holds_stores_its_games_without_them():
    text = (GO_DATA / "juvisy2019.h9").read_bytes().decode("iso-8859-1")
    for old, new, detail in (
        ("   1 Minieri", "9" * 5000 + " Minieri", "place 1000000000, 3 tie-breaks"),  # longer than int() reads
        ("  36  128  503 0", "  36 " + "9" * 400 + "  503 0", "SOS inf"),  # reads as infinity
        ("  36  128  503 0", "  36 1000001  503 0", "SOS 1000001.0"),
    ):
        submissions, rejected = egd_h9.read(text.replace(old, new, 1).encode("iso-8859-1"))
        assert len(submissions[0]["games"]) == 36 and submissions[0]["standings"] == []
        assert [(r.reason, r.detail) for r in rejected if r.reason == egd_h9.STANDINGS_NOT_STORED] == [
            (egd_h9.STANDINGS_NOT_STORED, detail)
        ]
