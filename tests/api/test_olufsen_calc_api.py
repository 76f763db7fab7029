"""The Olufsen shogi calc endpoints and the performance endpoint through HTTP (text 001)."""

import math

import pytest

from app.rating.olufsen.calculator_models import OlufsenTournamentIn

TOURNAMENT = "/v1/calc/olufsen/tournament"
PERFORMANCE = "/v1/calc/performance"


def E(tr: float, opponent: float) -> float:
    """001 (1): 1/(1 + 10^((or - tr)/400))."""
    return 1 / (1 + 10 ** ((opponent - tr) / 400))


def established(player_id: str, rating: int, grade: str | None = None, **more: object) -> dict:
    return {"id": player_id, "rating": rating, "rated_games": 40, "category": "established", "grade": grade, **more}


def by_id(response) -> dict:  # type: ignore[no-untyped-def]
    assert response.status_code == 200, response.text
    return {p["id"]: p for p in response.json()["players"]}


def test_the_documented_example_rates_a_realistic_table(client):
    example = OlufsenTournamentIn.model_json_schema()["examples"][0]
    players = by_id(client.post(TOURNAMENT, json=example))
    assert list(players) == ["andersen", "berg", "dahl", "eriksen"]
    # eriksen: a newcomer with a prior grade (4 kyu, MP 1320): unrated, keeps his grade, his state carries
    # the two dummies and his three results at the opponents' post-event ratings.
    eriksen = players["eriksen"]
    assert eriksen["category"] == "unrated" and eriksen["grade_after"] == "4k" and eriksen["promotions"] == []
    recorded = eriksen["state"]["prior_results"]
    assert [(r["opponent_rating"], r["score"], r["dummy"]) for r in recorded[:2]] == [(1320, 1, True), (1320, 0, True)]
    assert sorted(r["opponent_rating"] for r in recorded[2:]) == sorted(
        players[p]["rating_after"] for p in ("andersen", "berg", "dahl")
    )
    # His rating is the performance over all five results (001 (6), (7)): the root of Σ E = 1.5. It was
    # solved on unrounded post-event ratings and the results record them rounded: each is off by at most
    # 0.5, and dE/dR <= ln(10)/1600 = 0.00144, so three of them move the sum by at most 0.0022.
    assert sum(E(eriksen["rating_after_unrounded"], r["opponent_rating"]) for r in recorded) == pytest.approx(1.5, abs=0.0022)
    for player in players.values():
        if player["change"] is not None:
            assert player["rating_after"] == player["rating_before"] + player["change"]
            assert player["change"] == round(player["change_unrounded"])
    # The states are valid input for the next table.
    again = {"players": [p["state"] for p in players.values()], "games": example["games"][:2]}
    assert client.post(TOURNAMENT, json=again).status_code == 200


def test_a_midpoint_streak_across_two_tables_ends_in_a_promotion(client):
    # X: established 4 kyu at 1415; 3 kyu's MP is 1410 and #MP 6; he has 4 games above it so far.
    # Two draws against an equal player keep him at 1415: run 5 after table 1, 6 after table 2.
    x = established(
        "x",
        1415,
        "4k",
        streaks=[{"grade": "3k", "games_above_lower_bound": 4, "games_above_midpoint": 4, "midpoint_in_lower_bound_run": True}],
    )
    y = established("y", 1415, "4k")
    draw = [{"black": "x", "white": "y", "result": "D"}]
    first = by_id(client.post(TOURNAMENT, json={"players": [x, y], "games": draw}))
    assert first["x"]["change"] == 0 and first["x"]["promotions"] == []
    assert first["x"]["state"]["streaks"][0]["games_above_midpoint"] == 5
    second = by_id(client.post(TOURNAMENT, json={"players": [first["x"]["state"], first["y"]["state"]], "games": draw}))
    assert second["x"]["promotions"] == [{"grade": "3k", "route": "MP", "pending_approval": False}]
    assert second["x"]["grade_after"] == "3k" and second["x"]["state"]["grade"] == "3k"


def test_five_dan_is_pending_approval(client):
    # 4 dan at 2430 (k 16) beats a 2430: about +8 -> 2438 < 2440; beats two: T = 26 not passed, about
    # +16 -> 2446 >= 2440, the UB of 5 dan.
    players = [established("a", 2430, "4d"), established("b", 2430), established("c", 2430)]
    games = [{"black": "a", "white": "b", "result": "B"}, {"black": "c", "white": "a", "result": "W"}]
    a = by_id(client.post(TOURNAMENT, json={"players": players, "games": games}))["a"]
    assert a["rating_after"] >= 2440
    assert a["promotions"] == [{"grade": "5d", "route": "UB", "pending_approval": True}]
    assert a["grade_after"] == "4d" and a["pending_grade_after"] == "5d"


def test_unplayed_and_unrated_handicap_games_are_not_rated(client):
    players = [established("a", 1500), established("b", 1500)]
    games = [
        {"black": "a", "white": "b", "result": "B", "played": False},
        {"black": "a", "white": "b", "result": "B", "handicap": 2, "rated": False},
    ]
    result = by_id(client.post(TOURNAMENT, json={"players": players, "games": games}))
    assert result["a"]["games"] == 0 and result["a"]["change"] == 0 and result["a"]["rating_after"] == 1500


def test_fesa_option_changes_an_upset(client):
    # tr 1000 (k 36) beats or 1800 (k 24, loses about 24 * 0.99 = 23.8, so or' is about 1776).
    # Plain: d = 36 (1 - E(1000, or')) = 36 * 0.9887 = 35.6 > T = 20 + 3 = 23, so with the bonus
    # 2 * 35.6 - 23 = 48.2; the performance (a win and the dummy draw against or') is or' + 400 log10 3,
    # far above: no cap. FESA: d' = 36 (or' - 1000)/160 = 174.6 is larger, with the bonus 326.
    players = [established("low", 1000), established("high", 1800)]
    games = [{"black": "low", "white": "high", "result": "B"}]
    plain = by_id(client.post(TOURNAMENT, json={"players": players, "games": games}))
    opponent = plain["high"]["rating_after_unrounded"]
    assert plain["low"]["change_unrounded"] == pytest.approx(2 * 36 * (1 - E(1000, opponent)) - 23, abs=1e-9)
    assert plain["low"]["change"] == 48
    fesa = by_id(client.post(TOURNAMENT, json={"players": players, "games": games, "options": {"fesa": True}}))
    opponent = fesa["high"]["rating_after_unrounded"]
    assert fesa["low"]["change_unrounded"] == pytest.approx(2 * 36 * (opponent - 1000) / 160 - 23, abs=1e-9)
    assert 320 < fesa["low"]["change"] < 330


def test_performance_endpoint_states_its_precision(client):
    body = {"results": [{"opponent_rating": 1500, "score": s} for s in (1, 1, 1, 0)]}
    result = client.post(PERFORMANCE, json=body).json()
    # P = r + 400 log10(s/(n - s)) = 1500 + 400 log10(3)
    assert result["performance_rating"] == pytest.approx(1500 + 400 * math.log10(3), abs=1e-9)
    assert result["rounded"] == 1691 and result["precision"] == 1e-9 and result["games"] == 4 and result["score"] == 3
    rif = client.post(PERFORMANCE, json={**body, "base": 2, "scale": 120}).json()
    assert rif["performance_rating"] == pytest.approx(1500 + 120 * math.log2(3), abs=1e-9)


@pytest.mark.parametrize("score", [0, 1])
def test_performance_is_a_422_at_0_and_100_percent(client, score):
    response = client.post(PERFORMANCE, json={"results": [{"opponent_rating": 1500, "score": score}] * 3})
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["errors"][0]["pointer"] == "/results"
    assert "100 %" in response.json()["detail"]


A = established("a", 1500)
B = established("b", 1500)
GAME = {"black": "a", "white": "b", "result": "B"}


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"players": [A, B, {**A, "rating": 1600}], "games": [GAME]}, "/players/2/id"),
        ({"players": [A, {**B, "grade": "7d"}], "games": [GAME]}, "/players/1/grade"),
        ({"players": [A, B], "games": [{**GAME, "handicap": 3}]}, "/games/0/handicap"),
        ({"players": [A, B], "games": [GAME] * 17}, "/players/0"),
        ({"players": [A, B], "games": [{**GAME, "white": "z"}]}, "/games/0/white"),
        ({"players": [A, B], "games": [{**GAME, "white": "a"}]}, "/games/0/white"),
        (
            {
                "players": [
                    A,
                    {"id": "b", "rating": 1500, "rated_games": 12, "category": "provisional", "prior_results": []},
                ],
                "games": [],
            },
            None,
        ),
        ({"players": [A, {"id": "b", "rated_games": 12, "category": "provisional"}], "games": []}, "/players/1/rating"),
        (
            {"players": [A, {"id": "b", "rating": 1500, "rated_games": 5, "category": "established"}], "games": []},
            "/players/1/rated_games",
        ),
        ({"players": [A, {"id": "b", "rated_games": 2}], "games": []}, "/players/1/prior_results"),
        ({"players": [{"id": "n1"}, {"id": "n2"}], "games": [{"black": "n1", "white": "n2", "result": "D"}]}, "/players/0"),
        (
            {
                "players": [
                    {
                        **A,
                        "grade": "2d",
                        "pending_grade": "5d",
                        "streaks": [
                            {
                                "grade": "3d",
                                "games_above_lower_bound": 1,
                                "games_above_midpoint": 0,
                                "midpoint_in_lower_bound_run": False,
                            }
                        ],
                    },
                    B,
                ],
                "games": [],
            },
            "/players/0/streaks/0/grade",
        ),
        ({"players": [A, B], "games": [GAME], "options": {"fesa": True, "typo": 1}}, "/options/typo"),
    ],
)
def test_bad_input_is_a_422_with_a_pointer(client, body, pointer):
    response = client.post(TOURNAMENT, json=body)
    if pointer is None:  # a valid provisional player, for contrast
        assert response.status_code == 200, response.text
        return
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert pointer in [e["pointer"] for e in response.json()["errors"]], response.json()


def test_seventeen_games_says_to_split_the_table(client):
    response = client.post(TOURNAMENT, json={"players": [A, B], "games": [GAME] * 17})
    assert response.status_code == 422
    assert "split" in response.json()["errors"][0]["detail"]


def test_list_limits_are_in_the_contract(app):
    schema = app.openapi()["components"]["schemas"]["OlufsenTournamentIn"]["properties"]
    assert schema["players"]["maxItems"] == 2000 and schema["games"]["maxItems"] == 20000
    operations = app.openapi()["paths"]
    assert operations["/v1/calc/olufsen/tournament"]["post"]["operationId"] == "calc_olufsen_tournament"
    assert operations["/v1/calc/performance"]["post"]["operationId"] == "calc_performance"


def test_every_factor_of_each_game_and_the_capped_bonus(client):
    # S: provisional 700 (k 40), one prior game (a draw), 8 games now: n = 9, (9) 18/9 = 2. Eight
    # established opponents at 700 with 40 games: (10) is 1 for S; for them S, with 9 < 18 games,
    # weighs (1 + 9/18)/2 = 0.75. S scores 6 of 8: the normal change is far above T = 20 + 3·8 = 44,
    # and the doubled one passes his performance, which caps it (INTERPRETATIONS 2.10).
    opponents = [f"o{i}" for i in range(8)]
    players = [
        {
            "id": "S",
            "rating": 700,
            "rated_games": 1,
            "category": "unrated",
            "prior_results": [{"opponent_rating": 700, "score": 0.5}],
        }
    ] + [established(o, 700) for o in opponents]
    games = [{"round": "1", "black": "S", "white": o, "result": "B" if i < 6 else "W"} for i, o in enumerate(opponents)]
    result = by_id(client.post(TOURNAMENT, json={"players": players, "games": games}))
    s = result["S"]
    assert s["category"] == "provisional" and s["bonus_capped"] is True and s["bonus_threshold"] == 44
    figures = s["game_figures"]
    assert [g["opponent"] for g in figures] == opponents and [g["score"] for g in figures] == [1] * 6 + [0] * 2
    for game in figures:
        # (1) with the opponent's post-event rating (8), by hand.
        assert game["opponent_rating"] == pytest.approx(result[game["opponent"]]["rating_after_unrounded"])
        assert game["k"] == 40 and game["expected"] == pytest.approx(E(700, game["opponent_rating"]))
        assert game["d"] == pytest.approx(40 * (game["score"] - game["expected"]))
        assert (game["opponent_factor"], game["provisional_factor"]) == (1, 2)
        assert game["change"] == pytest.approx(2 * game["d"])
    normal = sum(g["change"] for g in figures)
    assert s["change_before_bonus"] == pytest.approx(normal) and s["change_with_uncapped_bonus"] == pytest.approx(2 * normal - 44)
    # The uncapped change is kept though the cap held him at his performance: 700 + normal < P < 700 + uncapped.
    assert 700 + normal < s["performance_rating"] < 700 + s["change_with_uncapped_bonus"]
    assert s["change_unrounded"] == pytest.approx(s["performance_rating"] - 700) and s["bonus_applied"] == pytest.approx(
        s["change_unrounded"] - normal
    )
    # An opponent: against S (provisional, 9 games) his game weighs (1 + 9/18)/2 = 0.75 (001 (10)).
    (against_S,) = result["o0"]["game_figures"]
    assert against_S["opponent_factor"] == 0.75 and against_S["provisional_factor"] == 1
    assert against_S["change"] == pytest.approx(0.75 * 40 * (0 - E(700, s["rating_after_unrounded"])))
    assert result["o0"]["change_with_uncapped_bonus"] is None


def test_a_category_that_does_not_fit_the_games_says_which_category_it_means(client):
    # 10 rated games with the category "established": the input category is the one after his last
    # table (001 (3) without this table), and the 422 says so.
    player = {"id": "p", "rating": 1500, "rated_games": 10, "category": "established"}
    body = {"players": [player, established("q", 1500)], "games": [{"black": "p", "white": "q", "result": "B"}]}
    response = client.post(TOURNAMENT, json=body)
    assert response.status_code == 422
    (error,) = [e for e in response.json()["errors"] if e["pointer"] == "/players/0/rated_games"]
    assert "at least 18 rated games" in error["detail"] and "after his last table" in error["detail"]
