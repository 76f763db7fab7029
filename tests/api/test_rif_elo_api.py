"""RIF Elo through HTTP: the calc endpoints, the seeds, and the historical rif-elo list replayed
from stored tournaments."""

import datetime as dt

import pytest

from app.rating import rif_elo
from tests.helpers import (
    AUTH,
    RIF_ELO_SEEDS,
    RIF_ELO_TOURNAMENTS,
    recompute_rif_elo,
    round_robin,
    store_rif_elo_history,
)


def test_game_endpoint_matches_design_example(client):
    body = client.post("/v1/calc/rif-elo/game", json={"rating": 2300, "opponent_rating": 2200, "score": 1}).json()
    assert body["expected"] == pytest.approx(0.6405, abs=1e-4)
    assert body["change"] == 12
    assert body["change_unrounded"] == pytest.approx(11.503, abs=1e-3)
    loss = client.post("/v1/calc/rif-elo/game", json={"rating": 2200, "opponent_rating": 2300, "score": 0}).json()
    assert loss["change_unrounded"] == pytest.approx(-body["change_unrounded"], abs=1e-9)  # zero-sum
    assert loss["change"] == -12


def test_table_endpoint_has_the_printed_rows_and_the_718_split(client):
    rows = client.get("/v1/calc/rif-elo/table").json()["rows"]
    as_tuples = [(r["difference_from"], r["difference_to"], r["r1_wins"], r["r2_wins"], r["draw"]) for r in rows]
    assert as_tuples[0] == (0, 10, 16, 16, 0)
    assert as_tuples[1] == (11, 32, 15, 17, 1)
    assert (428, 521, 2, 30, 14) in as_tuples
    assert (522, 717, 1, 31, 15) in as_tuples and (718, 724, 0, 32, 16) in as_tuples
    assert as_tuples[-1] == (725, 2000, 0, 32, 16)


def test_1995_new_player_inside_the_interval(client):
    # Ra = 2100 < 2200: interval [1900, 2300]; 1.5 of 3 gives dR = 120 log2(3/1.5 - 1) = 0, R0 = Ra.
    body = {
        "end": "1995-06-01",
        "players": [
            {"id": "a", "rating": 2000, "status": "official"},
            {"id": "b", "rating": 2100, "status": "official"},
            {"id": "c", "rating": 2200, "status": "official"},
            {"id": "n", "status": "new"},
        ],
        "games": [
            {"black": "n", "white": "a", "result": "B"},
            {"black": "b", "white": "n", "result": "D"},
            {"black": "n", "white": "c", "result": "W"},
        ],
    }
    result = client.post("/v1/calc/rif-1995/tournament", json=body).json()
    assert result["before_1996"] is True
    new = {p["id"]: p for p in result["players"]}["n"]
    assert new["R0"] == 2100 and new["change"] == 0 and new["rating_after"] == 2100 and new["Et"] == 1.5
    a = {p["id"]: p for p in result["players"]}["a"]
    # a lost to a player rated 2100: F = 32(0 - 1/(1 + 2^(100/120))) rounded.
    expected_a = 1 / (1 + 2 ** (100 / 120))
    assert a["Ee"] == pytest.approx(expected_a) and a["change"] == round(-32 * expected_a)


def test_1997_provisional_player_becomes_established(client):
    body = {
        "players": [
            {"id": "e", "rating": 2000, "status": "established"},
            {
                "id": "p",
                "status": "provisional",
                "rating": 2100,
                "record": {"games": 9, "wins": 5, "losses": 2, "points": 6, "opponent_rating_sum": 18000},
            },
        ],
        "games": [{"black": "p", "white": "e", "result": "B"}],
    }
    players = {p["id"]: p for p in client.post("/v1/calc/rif-1997/tournament", json=body).json()["players"]}
    # Rp = Ra + 400(W - L)/N = 2000 + 400 (6 - 2) / 10 = 2160; 10 games and 7 points: established (GA 1997 #5, #7).
    assert players["p"]["rating_after"] == 2160 and players["p"]["status_after"] == "established"
    assert players["p"]["record_after"]["games"] == 10
    # GA 1997 #6: an established player is not rated in games against provisional players.
    assert players["e"]["change"] == 0 and players["e"]["games_counted"] == 0


@pytest.mark.parametrize(
    ("path", "body", "pointer"),
    [
        ("/v1/calc/rif-elo/game", {"rating": 2300, "opponent_rating": 2200, "score": 0.7}, "/score"),
        (
            "/v1/calc/rif-1995/tournament",
            {
                "end": "1998-01-01",
                "players": [{"id": "a", "rating": 2000, "status": "official"}],
                "games": [{"black": "a", "white": "z", "result": "B"}],
            },
            "/games/0/white",
        ),
        (
            "/v1/calc/rif-1995/tournament",
            {
                "end": "1998-01-01",
                "players": [{"id": "a", "rating": 2000, "status": "official"}, {"id": "n", "rating": 2100, "status": "new"}],
                "games": [],
            },
            "/players/1/rating",
        ),
        ("/v1/calc/rif-1995/tournament", {"players": [], "games": []}, "/end"),
        ("/v1/calc/rif-1997/tournament", {"players": [{"id": "a", "status": "established"}], "games": []}, "/players/0/rating"),
        (
            "/v1/calc/rif-1997/tournament",
            {
                "players": [{"id": "a", "rating": 1, "status": "established"}],
                "games": [{"black": "a", "white": "a", "result": "D"}],
            },
            "/games/0/white",
        ),
        ("/v1/calc/whr", {"games": [{"black": "a", "white": "b", "result": "B"}]}, "/games/0/date"),
    ],
)
def test_invalid_calc_requests_point_at_the_field(client, path, body, pointer):
    response = client.post(path, json=body)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert pointer in [e["pointer"] for e in response.json()["errors"]]


def test_whr_calc_matches_the_design_example(client):
    body = {"games": [{"black": "A", "white": "B", "result": "W", "date": "2021-08-07"}]}
    players = {p["id"]: p for p in client.post("/v1/calc/whr", json=body).json()["players"]}
    assert players["A"]["history"][0]["rating"] == pytest.approx(1808.27, abs=0.005)
    assert players["A"]["history"][0]["rating"] + players["B"]["history"][0]["rating"] == pytest.approx(3800)


# --- the stored historical list ---------------------------------------------------------------


def test_without_seeds_the_replay_rates_nobody_and_says_why(client):
    store_rif_elo_history(client)
    job = recompute_rif_elo(client)
    assert job["result"]["players"] == 0
    assert any("no seed ratings" in note for note in job["result"]["notes"])
    assert client.get("/v1/rating-lists/rif-elo/ratings", params={"status": "all"}).json()["total"] == 0


def test_seeds_are_replaced_and_read_back(client):
    store_rif_elo_history(client)
    assert client.put("/v1/rating-lists/rif-elo/seeds", json={"seeds": RIF_ELO_SEEDS}).status_code == 401
    stored = client.put("/v1/rating-lists/rif-elo/seeds", json={"seeds": RIF_ELO_SEEDS}, headers=AUTH)
    assert stored.status_code == 200
    assert [s["player_id"] for s in client.get("/v1/rating-lists/rif-elo/seeds").json()["seeds"]] == ["a", "b", "c", "d"]
    bad = client.put(
        "/v1/rating-lists/rif-elo/seeds",
        json={"seeds": [*RIF_ELO_SEEDS, {"player_id": "ghost", "rating": 2000, "as_of": "1994-01-01"}]},
        headers=AUTH,
    )
    assert bad.status_code == 422 and bad.json()["errors"][0]["pointer"] == "/seeds/4/player_id"
    assert len(client.get("/v1/rating-lists/rif-elo/seeds").json()["seeds"]) == 4
    assert client.put("/v1/rating-lists/rif-whr/seeds", json={"seeds": RIF_ELO_SEEDS}, headers=AUTH).status_code == 422


def test_replay_of_stored_tournaments_matches_the_engine(client):
    store_rif_elo_history(client)
    client.put("/v1/rating-lists/rif-elo/seeds", json={"seeds": RIF_ELO_SEEDS}, headers=AUTH)
    job = recompute_rif_elo(client)

    expected = rif_elo.replay(
        [
            rif_elo.Tournament(
                tid,
                dt.date.fromisoformat(start),
                dt.date.fromisoformat(end),
                [
                    rif_elo.Game(g["black"], g["white"], {"B": 1.0, "W": 0.0, "D": 0.5}[g["result"]])
                    for g in round_robin(ids, results)
                ],
            )
            for tid, start, end, ids, results in RIF_ELO_TOURNAMENTS
        ],
        [rif_elo.Seed(s["player_id"], s["rating"], s["status"], dt.date.fromisoformat(s["as_of"])) for s in RIF_ELO_SEEDS],
    )
    listed = {r["player_id"]: r for r in client.get("/v1/rating-lists/rif-elo/ratings", params={"status": "all"}).json()["items"]}
    assert {pid: r["rating"] for pid, r in listed.items()} == {f.player_id: f.rating for f in expected.ratings}
    assert job["result"]["players"] == len(expected.ratings) >= 5
    # The 2022 tournament is after the WHR switch: not part of this list.
    assert any("t2022" in note for note in job["result"]["notes"])

    # The WHR list, which recomputes itself after each submission, rates the same tournaments.
    t1995 = [c for c in client.get("/v1/tournaments/t1995").json()["rating_changes"] if c["list_id"] == "rif-elo"]
    assert {c["system"] for c in t1995} == {"rif-1995"}
    assert {c["player_id"] for c in t1995} >= {"a", "b", "c"}
    t1998 = [c for c in client.get("/v1/tournaments/t1998").json()["rating_changes"] if c["list_id"] == "rif-elo"]
    assert {c["system"] for c in t1998} == {"rif-1997"}
    by_player = {c["player_id"]: c for c in t1998}
    engine = {(c.tournament_id, c.player_id): c for c in expected.changes}
    assert by_player["a"]["change"] == engine[("t1998", "a")].change
    assert by_player["a"]["rating_after"] == engine[("t1998", "a")].rating_after

    history = client.get("/v1/players/a/history", params={"list": "rif-elo"}).json()["points"]
    assert history and history[-1]["rating"] == listed["a"]["rating"]
    assert [p["date"] for p in history] == sorted(p["date"] for p in history)
    # The list as it stood in mid-1996 is answered from the snapshot's history.
    mid_1996 = client.get("/v1/rating-lists/rif-elo/ratings", params={"status": "all", "as_of": "1996-06-01"}).json()["items"]
    assert {r["player_id"] for r in mid_1996} >= {"a", "b", "c", "d"}


def test_bootstrap_option_rates_players_without_seeds(client):
    store_rif_elo_history(client)
    response = client.patch("/v1/rating-lists/rif-elo/params", json={"bootstrap_rating": 1800}, headers=AUTH)
    assert response.status_code == 200 and response.json()["params"]["bootstrap_rating"] == 1800
    job = recompute_rif_elo(client)
    assert job["result"]["players"] > 0
