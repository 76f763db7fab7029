"""Per-tournament player data (rank, rating, club, EGF pin as declared at a tournament)."""

from tests.helpers import AUTH, go_body, tournament_body


def test_declared_rank_rating_club_and_pin_are_stored_per_tournament(client):
    response = client.post("/v1/tournaments", json=go_body(), headers=AUTH)
    assert response.status_code == 201, response.text
    players = {p["id"]: p for p in client.get("/v1/tournaments/G1").json()["players"]}
    assert (players["p1"]["rank"], players["p1"]["rating"], players["p1"]["club"], players["p1"]["egf_pin"]) == (
        "6d",
        2650.5,
        "Rivn",
        "13219100",
    )
    assert (players["p2"]["rank"], players["p2"]["rating"]) == ("6d", None)
    assert players["p3"]["rank"] is None and players["p3"]["name"] == "Ants"
    assert players["p4"]["rating"] == -900
    # They belong to the tournament, not to the player: the player resource has none of them.
    assert "rank" not in client.get("/v1/players/p1").json()


def test_a_correction_replaces_the_declared_data(client):
    client.post("/v1/tournaments", json=go_body(), headers=AUTH)
    corrected = go_body()
    corrected["players"][0]["rank"] = "5d"
    del corrected["players"][1]["rank"], corrected["players"][1]["club"]
    assert client.put("/v1/tournaments/G1", json=corrected, headers=AUTH).status_code == 200
    players = {p["id"]: p for p in client.get("/v1/tournaments/G1").json()["players"]}
    assert players["p1"]["rank"] == "5d" and players["p2"]["rank"] is None and players["p2"]["club"] is None
    assert players["p2"]["surname"] == "Kravets"


def test_bad_declared_rank_is_a_422_with_a_pointer(client):
    body = go_body()
    body["players"][1]["rank"] = "31k"
    response = client.post("/v1/tournaments", json=body, headers=AUTH)
    assert response.status_code == 422
    assert response.json()["errors"][0]["pointer"] == "/players/1/rank"
    assert client.get("/v1/tournaments/G1").status_code == 404


def test_submissions_without_declared_data_are_unchanged(client):
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    players = client.get("/v1/tournaments/T1").json()["players"]
    assert len(players) == 4 and all(p["rank"] is None and p["club"] is None for p in players)
