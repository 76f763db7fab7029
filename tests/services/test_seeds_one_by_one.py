"""Seeds at each system's precision, with the whole state its rules need, added, changed and removed
one player at a time (issue 25 item 3): PUT and DELETE /v1/rating-lists/{list_id}/seeds/{player_id}."""

import pytest
from sqlalchemy import select

from app import db
from app.models import Revision
from tests.helpers import AUTH, recompute_now

SEED = "/v1/rating-lists/{list_id}/seeds/{player_id}"


def store_players(client, *ids: str) -> None:  # type: ignore[no-untyped-def]
    for player_id in ids:
        response = client.post("/v1/players", json={"id": player_id, "name": player_id.upper()}, headers=AUTH)
        assert response.status_code == 201, response.text


def seeds_of(client, list_id: str) -> dict:  # type: ignore[no-untyped-def]
    return {s["player_id"]: s for s in client.get(f"/v1/rating-lists/{list_id}/seeds").json()["seeds"]}


def test_a_fractional_go_club_seed_is_kept_to_its_decimals_and_rated_from(client):
    store_players(client, "a", "b")
    response = client.put(
        SEED.format(list_id="rivne", player_id="a"), json={"rating": 1533.62, "as_of": "2021-01-01", "title": "2k"}, headers=AUTH
    )
    assert response.status_code == 200, response.text
    seed = response.json()
    assert (seed["player_id"], seed["rating"], seed["status"], seed["title"]) == ("a", 1533.62, "active", "2k")
    assert seed["job_id"] is not None  # the rivne list recomputes itself: the seed queued its recompute
    assert seeds_of(client, "rivne")["a"]["rating"] == 1533.62
    # A tournament after the seed starts a from 1533.62, to the decimals (004 keeps fractions).
    body = {
        "id": "after",
        "name": "After the seed",
        "category": "go",
        "start": "2021-03-01",
        "end": "2021-03-01",
        "players": [{"id": "a", "rank": "2k"}, {"id": "b", "rank": "2k"}],
        "games": [{"id": "g1", "round": "1", "black": "a", "white": "b", "result": "B"}],
    }
    assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201
    recompute_now(client, "rivne")
    changes = {c["player_id"]: c for c in client.get("/v1/tournaments/after").json()["rating_changes"] if c["list_id"] == "rivne"}
    assert changes["a"]["rating_before"] == 1533.62
    # The first pass of the anomaly check (8) starts from it; a lone win restarts it later (004).
    assert changes["a"]["details"]["passes"][0]["start_rating"] == 1533.62


def test_one_seed_at_a_time_leaves_the_others_and_records_each_change(client):
    store_players(client, "p1", "p2", "p3")
    whole = {
        "seeds": [
            {"player_id": "p1", "rating": 2000, "as_of": "2020-01-01"},
            {"player_id": "p2", "rating": 2100, "as_of": "2020-01-01"},
        ]
    }
    assert client.put("/v1/rating-lists/rif-elo/seeds", json=whole, headers=AUTH).status_code == 200
    added = client.put(SEED.format(list_id="rif-elo", player_id="p3"), json={"rating": 2200, "as_of": "2020-02-01"}, headers=AUTH)
    assert added.status_code == 200 and added.json()["status"] == "established"  # the system's default
    assert added.json()["job_id"] is None  # rif-elo is recomputed by hand only
    changed = client.put(
        SEED.format(list_id="rif-elo", player_id="p1"), json={"rating": 2050, "as_of": "2020-02-01"}, headers=AUTH
    )
    assert changed.status_code == 200
    seeds = seeds_of(client, "rif-elo")
    assert {p: s["rating"] for p, s in seeds.items()} == {"p1": 2050, "p2": 2100, "p3": 2200}
    removed = client.delete(SEED.format(list_id="rif-elo", player_id="p2"), headers=AUTH)
    assert removed.status_code == 200 and removed.json() == {"list_id": "rif-elo", "player_id": "p2", "job_id": None}
    assert set(seeds_of(client, "rif-elo")) == {"p1", "p3"}
    again = client.delete(SEED.format(list_id="rif-elo", player_id="p2"), headers=AUTH)
    assert again.status_code == 404 and again.headers["content-type"] == "application/problem+json"
    # Each write is a revision naming the seed, with the earlier version.
    audit = client.get("/v1/audit", params={"list": "rif-elo", "limit": 3}, headers=AUTH).json()["items"]
    assert [item["summary"] for item in audit] == [
        "seed of p2 removed: it was rating 2100 as of 2020-01-01",
        "seed of p1 changed: rating 2050 as of 2020-02-01",
        "seed of p3 added: rating 2200 as of 2020-02-01",
    ]
    with db.session_scope() as session:
        previous = {r.summary: r.previous for r in session.scalars(select(Revision).where(Revision.list_id == "rif-elo"))}
    assert previous["seed of p1 changed: rating 2050 as of 2020-02-01"]["seeds"][0]["rating"] == 2000
    assert previous["seed of p3 added: rating 2200 as of 2020-02-01"] == {"seeds": []}


@pytest.mark.parametrize(
    ("list_id", "player_id", "body", "status", "pointer"),
    [
        ("rif-elo", "p1", {"rating": 2300.5, "as_of": "2020-01-01"}, 422, "/rating"),  # Elo ratings are whole
        ("rivne", "p1", {"rating": 3600, "as_of": "2020-01-01"}, 422, "/rating"),  # 004 list bound
        ("rivne", "p1", {"rating": 1500, "as_of": "2020-01-01", "title": "40k"}, 422, "/title"),
        ("rivne", "p1", {"rating": 1500}, 422, "/as_of"),
        ("rif-whr", "p1", {"rating": 1500, "as_of": "2020-01-01"}, 422, ""),  # WHR takes no seeds
        ("rivne", "nobody", {"rating": 1500, "as_of": "2020-01-01"}, 404, None),
        ("olufsen", "p1", {"rating": 1500, "status": "provisional", "as_of": "2020-01-01"}, 422, "/counters"),
    ],
)
def test_bad_single_seeds_are_refused_with_a_pointer_and_store_nothing(client, list_id, player_id, body, status, pointer):
    store_players(client, "p1")
    response = client.put(SEED.format(list_id=list_id, player_id=player_id), json=body, headers=AUTH)
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    if pointer is not None:
        assert pointer in [e["pointer"] for e in response.json()["errors"]]
    assert client.get(f"/v1/rating-lists/{list_id}/seeds").json()["seeds"] == []


def test_a_shogi_calculators_state_is_a_seed_with_its_streaks_and_recorded_results(client):
    # Table 1 through the calculator: x, an established 4 kyu at 1415 with 4 games above 3 kyu's MP
    # (1410, #MP 6), draws y; n, unrated with his first three results, draws y too.
    x = {
        "id": "x",
        "rating": 1415,
        "rated_games": 40,
        "category": "established",
        "grade": "4k",
        "streaks": [
            {"grade": "3k", "games_above_lower_bound": 4, "games_above_midpoint": 4, "midpoint_in_lower_bound_run": True}
        ],
    }
    y = {"id": "y", "rating": 1415, "rated_games": 40, "category": "established", "grade": "4k"}
    n = {
        "id": "n",
        "rated_games": 2,
        "category": "unrated",
        "prior_results": [{"opponent_rating": 1400, "score": 1}, {"opponent_rating": 1500, "score": 0}],
    }
    table = {
        "players": [x, y, n],
        "games": [{"black": "x", "white": "y", "result": "D"}, {"black": "n", "white": "y", "result": "D"}],
    }
    first = {p["id"]: p for p in client.post("/v1/calc/olufsen/tournament", json=table).json()["players"]}
    assert first["x"]["seed"]["counters"]["streaks"][0]["games_above_midpoint"] == 5
    assert len(first["n"]["seed"]["counters"]["prior_results"]) == 3 and first["n"]["seed"]["status"] == "unrated"
    # Their states after it become the olufsen list's seeds, as the calculator gave them, with a date.
    store_players(client, "x", "y", "n")
    for player_id in ("x", "y", "n"):
        response = client.put(
            SEED.format(list_id="olufsen", player_id=player_id),
            json={**first[player_id]["seed"], "as_of": "2024-01-01"},
            headers=AUTH,
        )
        assert response.status_code == 200, response.text
    assert seeds_of(client, "olufsen")["n"]["counters"]["prior_results"] == first["n"]["seed"]["counters"]["prior_results"]
    # Table 2 stored and rated by the list equals table 2 through the calculator from the states.
    games = [{"black": "x", "white": "y", "result": "D"}, {"black": "n", "white": "y", "result": "W"}]
    stored = {
        "id": "table-2",
        "name": "Table 2",
        "category": "shogi",
        "start": "2024-02-01",
        "end": "2024-02-01",
        "board_size": 9,
        "players": [{"id": p, "name": p.upper()} for p in ("x", "y", "n")],
        "games": games,
    }
    assert client.post("/v1/tournaments", json=stored, headers=AUTH).status_code == 201
    recompute_now(client, "olufsen")
    second = client.post(
        "/v1/calc/olufsen/tournament", json={"players": [first[p]["state"] for p in ("x", "y", "n")], "games": games}
    ).json()
    changes = {
        c["player_id"]: c for c in client.get("/v1/tournaments/table-2").json()["rating_changes"] if c["list_id"] == "olufsen"
    }
    for player in second["players"]:
        change = changes[player["id"]]
        assert (change["rating_before"], change["rating_after"]) == (player["rating_before"], player["rating_after"])
        assert change["title_after"] == player["grade_after"]
    # x's sixth game above MP ends his streak in a promotion: the seed carried the first four.
    assert changes["x"]["details"]["promotions"] == [{"grade": "3k", "route": "MP", "pending_approval": False}]


def test_a_go_club_calculators_answer_is_a_seed_to_its_decimals(client):
    body = {
        "players": [{"id": "a", "rating": 1500, "rank": "2k"}, {"id": "b", "rating": 1600, "rank": "1k"}],
        "games": [
            {"round": 1, "black": "a", "white": "b", "result": "B"},
            {"round": 2, "black": "b", "white": "a", "result": "B"},
        ],
    }
    players = {p["id"]: p for p in client.post("/v1/calc/rivne/tournament", json=body).json()["players"]}
    store_players(client, "a")
    seed = {**players["a"]["seed"], "as_of": "2021-01-01"}
    response = client.put(SEED.format(list_id="rivne", player_id="a"), json=seed, headers=AUTH)
    assert response.status_code == 200, response.text
    stored = seeds_of(client, "rivne")["a"]
    assert stored["rating"] == players["a"]["rating_after"] and not float(stored["rating"]).is_integer()
    assert (stored["title"], stored["status"]) == ("2k", "active")


def test_an_estonian_calculators_answer_is_a_seed_the_list_starts_from(client):
    body = {
        "time_control_minutes": 60,
        "recorded": True,
        "eru_calendar": True,
        "players": [
            {"id": "e1", "rank": "1d", "estonian_rating": 2000},
            {"id": "e2", "rank": "1k", "rif_rating": 1900},
            {"id": "e3", "rank": None, "first_rank": "12k", "rating_bonus": True},
        ],
        "games": [
            {"black": "e1", "white": "e2", "result": "B"},
            {"black": "e2", "white": "e3", "result": "D"},
            {"black": "e3", "white": "e1", "result": "W"},
        ],
    }
    response = client.post("/v1/calc/eru/tournament", json=body)
    assert response.status_code == 200, response.text
    players = {p["id"]: p for p in response.json()["players"]}
    # Too few games to evaluate: the ranked keep their ranks, the unranked e3 stays unranked with his
    # first rank; every rating moved by the table (ERU 4.9) or is a first one (ERU 4.10).
    assert players["e1"]["seed"] == {
        "rating": players["e1"]["rating_after"],
        "status": "estonian",
        "title": "1d",
        "counters": {"first_rank": None, "rating_bonus": False},
    }
    assert players["e3"]["seed"]["title"] is None and players["e3"]["seed"]["counters"]["first_rank"] == "12k"
    store_players(client, "e1", "e2", "e3")
    for player_id, player in players.items():
        sent = client.put(
            SEED.format(list_id="eru", player_id=player_id), json={**player["seed"], "as_of": "2024-01-01"}, headers=AUTH
        )
        assert sent.status_code == 200, sent.text
    recompute_now(client, "eru")
    rows = {r["player_id"]: r for r in client.get("/v1/rating-lists/eru/ratings", params={"status": "all"}).json()["items"]}
    for player_id, player in players.items():
        assert (rows[player_id]["rating"], rows[player_id]["title"]) == (player["rating_after"], player["seed"]["title"])
