"""POST /v1/calc/rivne/tournament: the Rivne engine through HTTP (numbers worked in tests/rating/test_rivne.py)."""

from math import exp

import pytest

from app.rating.rivne.calculator_models import EXAMPLE
from tests.helpers import AUTH, tournament_body

URL = "/v1/calc/rivne/tournament"


def SE(delta_R: float, a: float) -> float:
    return 1 / (exp(delta_R / a) + 1)  # 004 (2)


def by_id(body: dict) -> dict:
    return {p["id"]: p for p in body["players"]}


def test_two_rounds_per_round_changes_and_totals(client):
    body = {
        "players": [{"id": "A", "rating": 1500}, {"id": "B", "rating": 1700}, {"id": "C", "rating": 1600}],
        "games": [
            {"round": 1, "black": "A", "white": "B", "result": "B"},
            {"round": 2, "black": "C", "white": "A", "result": "B"},
        ],
    }
    response = client.post(URL, json=body)
    assert response.status_code == 200, response.text
    players = by_id(response.json())
    A = players["A"]
    # Round 1: 47·(1 − SE(200, 130) + 0.032) = +40.196325; round 2 (hand figures in test_rivne.py) → 1527.357540.
    assert A["rounds"][0]["change"] == pytest.approx(47 * (1 - SE(200, 130) + 0.032))
    assert A["rating_after"] == pytest.approx(1527.357540, abs=1e-6)
    assert A["rating_after_display"] == 1527
    assert A["change"] == pytest.approx(27.357540, abs=1e-6)
    assert [r["round"] for r in A["rounds"]] == [1, 2] and A["games_played"] == 2
    assert [r["round"] for r in players["B"]["rounds"]] == [1]  # B sits out round 2: no full pairing needed
    assert response.json()["anomaly_passes"] == [{"number": 1, "anomalous": []}]


def test_newcomer_starts_from_his_declared_rank(client):
    body = {
        "players": [{"id": "new", "rank": "10k"}, {"id": "old", "rating": 1100, "rank": "10k"}],
        "games": [{"round": 1, "black": "new", "white": "old", "result": "D"}],
    }
    players = by_id(client.post(URL, json=body).json())
    # INTERPRETATIONS 5.11: 1k = 2000, 100 per rank → 10k = 1100; a draw between equals gives each
    # K1(1100)·K2 = 65·(2000/50000) = 2.6.
    assert players["new"]["newcomer"] is True and players["new"]["rating_before"] == 1100
    assert players["new"]["rating_after"] == pytest.approx(1102.6)
    assert players["old"]["newcomer"] is False


def test_anomaly_passes_are_reported(client):
    body = {
        "players": [{"id": "A", "rating": 1000}, {"id": "B", "rating": 2000}],
        "games": [{"round": 1, "black": "A", "white": "B", "result": "B"}],
    }
    result = client.post(URL, json=body).json()
    passes = result["anomaly_passes"]
    assert len(passes) > 2 and passes[-1]["anomalous"] == []
    first = passes[0]["anomalous"][0]
    assert first["id"] == "A" and first["limit"] == pytest.approx(0.45 * 70 * 1.042)  # (8) at 1000
    assert by_id(result)["A"]["start_rating"] == pytest.approx(passes[-2]["anomalous"][0]["restart_rating"])


def test_the_documented_example_is_valid(client):
    response = client.post(URL, json=EXAMPLE)
    assert response.status_code == 200, response.text
    assert response.json()["handicap_games"] is True
    assert by_id(response.json())["novak"]["rating_before"] == 1100


@pytest.mark.parametrize(
    ("game", "pointer"),
    [
        ({"board_size": 15}, "/games/0/board_size"),
        ({"handicap": 21}, "/games/0/handicap"),
        ({"handicap": 3}, "/games/0/handicap"),  # A has no declared rank
        ({"white": "Z"}, "/games/0/white"),
        ({"result": "X"}, "/games/0/result"),
    ],
)
def test_bad_games_are_422_with_a_pointer(client, game, pointer):
    body = {
        "players": [{"id": "A", "rating": 1500}, {"id": "B", "rating": 1700, "rank": "3k"}],
        "games": [{"round": 1, "black": "A", "white": "B", "result": "B", **game}],
    }
    response = client.post(URL, json=body)
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("application/problem+json")
    assert pointer in [e["pointer"] for e in response.json()["errors"]]


def test_a_player_twice_in_one_round_and_a_player_without_rating_or_rank(client):
    body = {
        "players": [{"id": "A", "rating": 1500}, {"id": "B", "rating": 1700}, {"id": "C"}],
        "games": [
            {"round": 1, "black": "A", "white": "B", "result": "B"},
            {"round": 1, "black": "C", "white": "A", "result": "B"},
        ],
    }
    response = client.post(URL, json=body)
    assert response.status_code == 422
    pointers = [e["pointer"] for e in response.json()["errors"]]
    assert "/games/1/white" in pointers and "/players/2/rating" in pointers


def test_an_anomaly_loop_that_does_not_settle_is_a_422(client):
    body = {
        "players": [{"id": "A", "rating": 100}, {"id": "B", "rating": 2700}],
        "games": [{"round": 1, "black": "A", "white": "B", "result": "B"}],
    }
    response = client.post(URL, json=body)
    assert response.status_code == 422 and "50 passes" in response.json()["detail"]


def test_limits(client):
    body = {"players": [{"id": f"p{i}", "rating": 1000} for i in range(2001)], "games": []}
    response = client.post(URL, json=body)
    assert response.status_code == 422 and response.json()["errors"][0]["pointer"] == "/players"


@pytest.mark.parametrize("rank", ["30d", "10d", "0k", "31k"])
def test_a_rank_outside_30k_to_9d_is_a_422_not_a_server_error(client, rank):
    """Found by schemathesis: "30d" matched the rank's pattern and reached the rules, which stop at 9d."""
    body = {"players": [{"id": "A", "rank": rank}, {"id": "B", "rating": 1700}], "games": []}
    response = client.post(URL, json=body)
    assert response.status_code == 422
    assert response.json()["errors"][0]["pointer"] == "/players/0/rank"


def test_a_declared_rank_above_9d_is_refused_on_submission(client):
    body = tournament_body(category="go", board_size=19)
    body["players"][0]["rank"] = "30d"
    response = client.post("/v1/tournaments", json=body, headers=AUTH)
    assert response.status_code == 422
    assert response.json()["errors"][0]["pointer"] == "/players/0/rank"
