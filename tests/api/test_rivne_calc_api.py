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
    (only_pass,) = response.json()["anomaly_passes"]
    assert only_pass["number"] == 1 and only_pass["anomalous"] == []
    # (8) for every player, K1 and K2 at his start: A 0.45·2·47·(1 + 0.032), B 0.45·1·39·(1 + 0.028).
    limits = {p["id"]: p["limit"] for p in only_pass["players"]}
    assert limits == {
        "A": pytest.approx(0.45 * 2 * 47 * 1.032),
        "B": pytest.approx(0.45 * 39 * 1.028),
        "C": pytest.approx(0.45 * 43 * 1.030),
    }
    assert [p["rating_after"] for p in only_pass["players"]] == [players[i]["rating_after"] for i in "ABC"]
    # The figures of A's first game (hand figures above): SE(A), a = 130, K1 = 47, K2 = 0.032, bonus K1·K2.
    first = A["games"][0]
    assert (first["round"], first["game"], first["opponent"], first["colour"], first["player_A"]) == (1, 0, "B", "black", True)
    assert first["delta_R"] == 200 and first["a"] == 130 and first["K1"] == 47 and first["K2"] == pytest.approx(0.032)
    assert first["SE"] == pytest.approx(SE(200, 130)) and first["bonus"] == pytest.approx(47 * 0.032)
    assert first["change"] == pytest.approx(A["rounds"][0]["change"])
    # Round 2 against C (1600): A is still player A, and a comes from his current rating (4).
    second = A["games"][1]
    assert second["Rc"] == pytest.approx(A["rounds"][0]["rating_after"]) and second["player_A"] is True
    assert second["a"] == pytest.approx(205 - second["Rc"] / 20) and second["delta_R"] == 100


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
    # Every player of every pass with his limit, the normal one too: B's (8) at 2000, 0.45·27·(1 + 0.022).
    for each in passes:
        assert [p["id"] for p in each["players"]] == ["A", "B"]
        assert each["players"][1]["limit"] == pytest.approx(0.45 * 27 * 1.022) and each["players"][1]["anomalous"] is False
    last = passes[-1]["players"][0]
    assert last["anomalous"] is False and last["rating_after"] - last["start_rating"] <= last["limit"]
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


GAME_URL = "/v1/calc/rivne/game"


def test_one_game_what_a_1500_player_gains_for_beating_a_1600(client):
    response = client.post(GAME_URL, json={"black": {"rating": 1500}, "white": {"rating": 1600}, "result": "B"})
    assert response.status_code == 200, response.text
    black, white = response.json()["black"], response.json()["white"]
    # By hand: (1) ΔR = 100; (4) a = 205 − 1500/20 = 130; (2) SE(A) = 1/(e^(100/130) + 1) = 0.316646;
    # Table I K1(1500) = 47, K1(1600) = 43; (6) K2 = 1600/50000 = 0.032 and 1500/50000 = 0.030.
    se_A = 1 / (exp(100 / 130) + 1)
    assert se_A == pytest.approx(0.316646, abs=1e-6)
    assert (black["delta_R"], black["a"], black["K1"], black["Kf"], black["Kd"]) == (100, 130, 47, 1, 1)
    assert black["SE"] == pytest.approx(se_A) and white["SE"] == pytest.approx(1 - se_A)  # (3)
    assert black["K2"] == pytest.approx(0.032) and white["K2"] == pytest.approx(0.030)
    assert black["bonus"] == pytest.approx(47 * 0.032) and white["bonus"] == pytest.approx(43 * 0.030)
    # (5) Rn = Rc + K1·(R − SE + K2): +33.62 for the winner, −28.09 for the loser; no anomaly check (8).
    assert black["change"] == pytest.approx(47 * (1 - se_A + 0.032)) == pytest.approx(33.6217, abs=1e-4)
    assert white["change"] == pytest.approx(43 * (0 - (1 - se_A) + 0.030)) == pytest.approx(-28.0942, abs=1e-4)
    assert black["rating_after"] == pytest.approx(1500 + black["change"]) and black["rating_after_display"] == 1534
    assert white["rating_after_display"] == 1572 and black["player_A"] is True and white["player_A"] is False


def test_one_handicap_game_shows_the_correction_and_Kf(client):
    body = {
        "black": {"rating": 1800, "rank": "3k"},
        "white": {"rating": 2100, "rank": "1d"},
        "result": "W",
        "board_size": 13,
        "handicap": 3,
    }
    black, white = (client.post(GAME_URL, json=body).json()[side] for side in ("black", "white"))
    # (7) RA# = 1800 + (3·100 − 50) = 2050, ΔR = 2100 − 2050 = 50; a = 205 − 90 = 115; Kd = 1/2;
    # Kf of the higher-rated white: 1d − 3k is 3 ranks → 0.7; black, the lower-rated, keeps Kf = 1.
    se_A = 1 / (exp(50 / 115) + 1)
    assert black["correction"] == 250 and white["correction"] == 0 and black["delta_R"] == 50 and black["a"] == 115
    assert (black["Kf"], white["Kf"], white["Kd"]) == (1, pytest.approx(0.7), 0.5)
    assert black["change"] == pytest.approx(0.5 * 35 * (0 - se_A + 0.026))
    assert white["change"] == pytest.approx(0.5 * 0.7 * 24 * (1 - (1 - se_A) + 0.020))
    assert white["bonus"] == pytest.approx(0.5 * 0.7 * 24 * 0.020)


def test_one_game_below_100_has_no_formula_5_figures(client):
    body = {"black": {"rating": 50}, "white": {"rating": 300}, "result": "B", "board_size": 9}
    black, white = (client.post(GAME_URL, json=body).json()[side] for side in ("black", "white"))
    # 004 below 100: black wins as against an equal (+2 on 9×9) plus Table III 200–399 on 9×9 = 2.
    assert black["SE"] is None and black["K1"] is None and black["table_III"] == 2 and black["change"] == 4
    assert black["rating_after"] == 54
    # White plays (5) with ΔR from 50×10 = 500 against 300 + 900 = 1200: ΔR = 700, a from black's 50.
    assert white["delta_R"] == 700 and white["a"] == pytest.approx(205 - 50 / 20) and white["K1"] == 105


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"black": {"rating": 1500}, "white": {"rating": 1600, "rank": "1d"}, "result": "B", "handicap": 2}, "/black/rank"),
        ({"black": {"rating": 1500}, "white": {"rating": 1600}, "result": "B", "board_size": 15}, "/board_size"),
        ({"black": {"rating": -1}, "white": {"rating": 1600}, "result": "B"}, "/black/rating"),
        ({"black": {"rating": 1500}, "result": "B"}, "/white"),
    ],
)
def test_bad_games_alone_are_422_with_a_pointer(client, body, pointer):
    response = client.post(GAME_URL, json=body)
    assert response.status_code == 422 and response.headers["content-type"].startswith("application/problem+json")
    assert pointer in [e["pointer"] for e in response.json()["errors"]]


# --- the single game in the RIF Elo game calculator's words (issue 44 item 5) ------------------------


def test_one_game_in_todays_form_answers_as_the_older_form(client):
    older = client.post(GAME_URL, json={"black": {"rating": 1500}, "white": {"rating": 1600}, "result": "B"})
    today = client.post(GAME_URL, json={"rating": 1500, "opponent_rating": 1600, "score": 1})
    assert older.status_code == today.status_code == 200, today.text
    assert today.json() == older.json()
    assert today.json()["black"]["rating_before"] == 1500  # in an even game the player is black unless he says


def test_the_players_colour_and_score_in_todays_form(client):
    # The 1600 player had white and lost: the game above seen from the loser's side.
    seen_from_white = client.post(GAME_URL, json={"rating": 1600, "opponent_rating": 1500, "score": 0, "colour": "white"})
    older = client.post(GAME_URL, json={"black": {"rating": 1500}, "white": {"rating": 1600}, "result": "B"})
    assert seen_from_white.json() == older.json()
    draw = client.post(GAME_URL, json={"rating": 1600, "opponent_rating": 1500, "score": 0.5, "colour": "white"}).json()
    older_draw = client.post(GAME_URL, json={"black": {"rating": 1500}, "white": {"rating": 1600}, "result": "D"}).json()
    assert draw == older_draw


def test_a_handicap_game_in_todays_form_equals_the_older_form(client):
    older = {"black": {"rating": 1800, "rank": "3k"}, "white": {"rating": 2100, "rank": "1d"}, "result": "W"}
    today = {"rating": 1800, "rank": "3k", "opponent_rating": 2100, "opponent_rank": "1d", "score": 0, "colour": "black"}
    board = {"board_size": 13, "handicap": 3}
    assert client.post(GAME_URL, json={**today, **board}).json() == client.post(GAME_URL, json={**older, **board}).json()
    as_white = {"rating": 2100, "rank": "1d", "opponent_rating": 1800, "opponent_rank": "3k", "score": 1, "colour": "white"}
    assert client.post(GAME_URL, json={**as_white, **board}).json() == client.post(GAME_URL, json={**older, **board}).json()


@pytest.mark.parametrize(
    ("body", "pointers"),
    [
        ({"rating": 1500, "score": 1}, ["/opponent_rating"]),
        ({}, ["/rating", "/opponent_rating", "/score"]),
        ({"rating": 1500, "opponent_rating": 1600, "score": 1, "result": "B"}, ["/opponent_rating", "/rating", "/score"]),
        ({"black": {"rating": 1500}, "result": "B"}, ["/white"]),
        ({"rating": 1500, "opponent_rating": 1600, "score": 1, "handicap": 2}, ["/rank", "/opponent_rank", "/colour"]),
        ({"rating": 1500, "opponent_rating": 1600, "score": 0.7}, ["/score"]),
        ({"rating": 1500, "opponent_rating": 1600, "score": 1, "colour": "red"}, ["/colour"]),
    ],
)
def test_a_body_without_one_form_whole_is_422_naming_each_field(client, body, pointers):
    response = client.post(GAME_URL, json=body)
    assert response.status_code == 422 and response.headers["content-type"].startswith("application/problem+json")
    assert sorted(e["pointer"] for e in response.json()["errors"]) == sorted(pointers), response.json()


def test_the_contract_marks_the_older_form_deprecated_and_states_one_form_whole():
    from app.main import app

    schema = app.openapi()["components"]["schemas"]["RivneSingleGameIn"]
    assert all(schema["properties"][name].get("deprecated") is True for name in ("black", "white", "result"))
    assert not any(schema["properties"][name].get("deprecated") for name in ("rating", "opponent_rating", "score"))
    forms = [form["required"] for form in schema["oneOf"]]
    assert forms == [["rating", "opponent_rating", "score"], ["black", "white", "result"]]


@pytest.mark.parametrize(
    "body",
    [
        {"black": None, "white": None, "result": "D"},
        {"rating": 1500, "opponent_rating": 1600, "score": 1, "result": None},
    ],
)
def test_a_null_where_the_contract_takes_none_is_refused_not_read_as_absent(client, body):
    response = client.post(GAME_URL, json=body)
    assert response.status_code == 422, response.text
    nulls = {name for name, value in body.items() if value is None}
    assert nulls <= {e["pointer"].lstrip("/") for e in response.json()["errors"]}
