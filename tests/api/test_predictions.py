"""Who is favoured (GET /v1/rating-lists/{list_id}/predict) and two players' games against each other
(GET /v1/players/{a}/head-to-head/{b}): each expectation against the system's own formula, computed
here from the ratings the list itself answers; the head-to-head on real games of the Chinese file."""

import datetime as dt
import math

import pytest
from scipy import integrate, stats

from app.importers.renju_tsv import parse_path, to_submissions
from tests.helpers import (
    AUTH,
    RENJU_CN,
    RIF_ELO_SEEDS,
    recompute_now,
    recompute_rif_elo,
    run_pending_jobs,
    store_rif_elo_history,
    tournament_body,
)


def whr(rating: float, opponent: float) -> float:
    return 1 / (1 + 10 ** ((opponent - rating) / 400))  # RIF 2021 #1-#7, on the Elo scale


def rif_elo(rating: float, opponent: float) -> float:
    return 1 / (1 + 2 ** ((opponent - rating) / 120))  # RIF 1995 #7, GA 1997 #8


def above_integrated(ra: float, sa: float, rb: float, sb: float) -> float:
    """P(Ra > Rb), Ra ~ N(ra, sa), Rb ~ N(rb, sb) independent: the density of Ra - Rb integrated over (0, ∞)."""
    a, b = stats.norm(ra, sa), stats.norm(rb, sb)

    def difference_density(d: float) -> float:
        return float(integrate.quad(lambda x: a.pdf(x) * b.pdf(x - d), ra - 12 * sa, ra + 12 * sa, limit=200)[0])

    spread = math.hypot(sa, sb)
    return float(integrate.quad(difference_density, 0, (ra - rb) + 12 * spread, limit=200)[0])


def test_predict_on_whr_is_bradley_terry_and_a_normal_comparison(client):
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    recompute_now(client)
    rows = {
        row["player_id"]: row for row in client.get("/v1/rating-lists/rif-whr/ratings", params={"status": "all"}).json()["items"]
    }
    answer = client.get("/v1/rating-lists/rif-whr/predict", params={"a": "p1", "b": "p4"})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["list_id"] == "rif-whr" and body["system"] == "rif-whr" and body["rule"] == "RIF 2021 #1-#7"
    listed = client.get("/v1/rating-lists/rif-whr").json()
    assert body["snapshot_id"] == listed["current_snapshot_id"]
    assert body["list_date"] == client.get(f"/v1/rating-lists/rif-whr/snapshots/{body['snapshot_id']}").json()["list_date"]
    for side, player in (("a", "p1"), ("b", "p4")):
        assert body[side] == {"player_id": player, "rating": rows[player]["rating"], "deviation": rows[player]["deviation"]}
    a, b = body["a"], body["b"]
    assert body["a_beats_b"] == pytest.approx(whr(a["rating"], b["rating"]), abs=1e-12)
    assert body["a_above_b"] == pytest.approx(
        above_integrated(a["rating"], a["deviation"], b["rating"], b["deviation"]), abs=1e-6
    )
    reverse = client.get("/v1/rating-lists/rif-whr/predict", params={"a": "p4", "b": "p1"}).json()
    assert reverse["a_beats_b"] == pytest.approx(1 - body["a_beats_b"], abs=1e-12)
    assert reverse["a_above_b"] == pytest.approx(1 - body["a_above_b"], abs=1e-12)
    # Cached like the list's reads: the ETag comes back as a 304, before and after routing.
    assert answer.headers["Cache-Control"].startswith("public")
    again = client.get(
        "/v1/rating-lists/rif-whr/predict", params={"a": "p1", "b": "p4"}, headers={"If-None-Match": answer.headers["ETag"]}
    )
    assert again.status_code == 304 and again.headers["ETag"] == answer.headers["ETag"]
    assert client.get("/v1/rating-lists/rif-whr/predict", params={"a": "p1", "b": "p4"}).content == answer.content


def elo_history(client) -> None:  # type: ignore[no-untyped-def]
    """The small RIF Elo history from its seeds, rated under both texts."""
    store_rif_elo_history(client)
    assert client.put("/v1/rating-lists/rif-elo/seeds", json={"seeds": RIF_ELO_SEEDS}, headers=AUTH).status_code == 200
    recompute_rif_elo(client)


def test_predict_on_the_elo_list_has_no_chance_of_standing_above(client):
    elo_history(client)
    rows = {
        row["player_id"]: row for row in client.get("/v1/rating-lists/rif-elo/ratings", params={"status": "all"}).json()["items"]
    }
    body = client.get("/v1/rating-lists/rif-elo/predict", params={"a": "b", "b": "a"}).json()
    assert body["a"]["rating"] == rows["b"]["rating"] and body["b"]["rating"] == rows["a"]["rating"]
    assert body["a"]["deviation"] is None and body["a_above_b"] is None
    assert body["a_beats_b"] == pytest.approx(rif_elo(rows["b"]["rating"], rows["a"]["rating"]), abs=1e-12)
    assert body["rule"] == "GA 1997 #8"  # the list's date is after its switch to the 1997 rules


def test_predict_names_the_player_it_cannot_answer_for(client):
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    created = client.post("/v1/players", json={"id": "newcomer", "name": "New"}, headers=AUTH)
    assert created.status_code == 201, created.text
    recompute_now(client)
    unknown = client.get("/v1/rating-lists/rif-whr/predict", params={"a": "p1", "b": "nobody"})
    assert unknown.status_code == 404 and unknown.headers["Content-Type"] == "application/problem+json"
    assert "'nobody'" in unknown.json()["detail"] and unknown.json()["errors"][0]["pointer"] == "query:b"
    off_list = client.get("/v1/rating-lists/rif-whr/predict", params={"a": "newcomer", "b": "p1"})
    assert off_list.status_code == 404
    assert "'newcomer' is not on rating list 'rif-whr'" in off_list.json()["detail"]
    assert off_list.json()["errors"][0]["pointer"] == "query:a"
    same = client.get("/v1/rating-lists/rif-whr/predict", params={"a": "p1", "b": "p1"})
    assert same.status_code == 422 and same.json()["errors"][0]["pointer"] == "query:b"
    assert client.get("/v1/rating-lists/nowhere/predict", params={"a": "p1", "b": "p2"}).status_code == 404
    missing = client.get("/v1/rating-lists/rif-whr/predict", params={"a": "p1"})
    assert missing.status_code == 422 and missing.json()["errors"][0]["pointer"] == "query:b"


def _history(client, player_id: str, list_id: str) -> list[dict]:  # type: ignore[no-untyped-def]
    answer = client.get(f"/v1/players/{player_id}/history", params={"list": list_id})
    assert answer.status_code == 200, answer.text
    return answer.json()["points"]


def _rating_on(points: list[dict], day: dt.date) -> float | None:
    held = [p["rating"] for p in points if dt.date.fromisoformat(p["date"]) <= day]
    return held[-1] if held else None


# Two players of the Chinese file (renju.net ids) who met eight times, in eight tournaments.
REAL_PAIR = ("952", "1219")


def test_head_to_head_on_real_games_is_the_stored_games_and_the_lists_history(client):
    """Their tournaments of the Chinese file submitted, rated by the WHR list and the historical Elo
    list (from a bootstrap rating): every game between them listed as stored, scored, and each
    prediction what the list's rule gives at both players' history points as of the day before."""
    a, b = REAL_PAIR
    submissions = [
        s for s in to_submissions(parse_path(RENJU_CN))[0] if any({g["black"], g["white"]} == {a, b} for g in s["games"])
    ]
    assert len(submissions) >= 5
    for submission in submissions:
        assert client.post("/v1/tournaments", json=submission, headers=AUTH).status_code == 201
    assert client.patch("/v1/rating-lists/rif-elo/params", json={"bootstrap_rating": 1800}, headers=AUTH).status_code == 200
    assert client.post("/v1/rating-lists/rif-elo/recompute", headers=AUTH).status_code == 202
    run_pending_jobs(list_date=dt.date(2019, 12, 31))

    answer = client.get(f"/v1/players/{a}/head-to-head/{b}")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    stored = []
    for submission in submissions:
        tournament = client.get(f"/v1/tournaments/{submission['id']}").json()
        stored += [
            (game["date"], tournament["id"], tournament["name"], game["black"], game["result"])
            for game in tournament["games"]
            if {game["black"], game["white"]} == {a, b}
        ]
    listed = [(g["date"], g["tournament_id"], g["tournament_name"], g["black"], g["result_as_submitted"]) for g in body["games"]]
    assert listed == sorted(stored, key=lambda game: (game[0], game[1]))
    points = {"win": 1.0, "draw": 0.5, "loss": 0.0}
    for game in body["games"]:
        a_won = {"B": game["black"] == a, "W": game["black"] != a}.get(game["result_as_submitted"])
        assert game["result"] == ("draw" if a_won is None else "win" if a_won else "loss")
    assert body["score"] == {
        "a": sum(points[g["result"]] for g in body["games"]),
        "b": sum(1 - points[g["result"]] for g in body["games"]),
        "games": len(body["games"]),
    }
    histories = {(p, list_id): _history(client, p, list_id) for p in (a, b) for list_id in ("rif-whr", "rif-elo")}
    formulas = {"rif-whr": whr, "rif-elo": rif_elo}
    for game in body["games"]:
        assert [p["list_id"] for p in game["predictions"]] == ["rif-elo", "rif-whr"]
        day_before = dt.date.fromisoformat(game["date"]) - dt.timedelta(days=1)
        for prediction in game["predictions"]:
            list_id = prediction["list_id"]
            assert prediction["as_of"] == day_before.isoformat()
            ratings = [_rating_on(histories[p, list_id], day_before) for p in (a, b)]
            assert [prediction["a_rating"], prediction["b_rating"]] == ratings
            if None in ratings:
                assert prediction["a_beats_b"] is None and prediction["rule"] is None
            else:
                assert prediction["a_beats_b"] == pytest.approx(formulas[list_id](*ratings), abs=1e-12)
    # Most of their games came with both already rated on both lists.
    assert sum(p["a_beats_b"] is not None for g in body["games"] for p in g["predictions"]) >= len(body["games"])
    reverse = client.get(f"/v1/players/{b}/head-to-head/{a}").json()
    assert reverse["score"] == {"a": body["score"]["b"], "b": body["score"]["a"], "games": body["score"]["games"]}
    again = client.get(f"/v1/players/{a}/head-to-head/{b}", headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304


def test_head_to_head_under_both_rif_texts_and_with_a_walkover(client):
    elo_history(client)
    body = client.get("/v1/players/a/head-to-head/b").json()
    by_tournament = {g["tournament_id"]: g for g in body["games"]}
    rules = {tid: [p["rule"] for p in g["predictions"] if p["list_id"] == "rif-elo"] for tid, g in by_tournament.items()}
    assert rules["t1995"] == ["RIF 1995 #7"] and rules["t1998"] == ["GA 1997 #8"]
    # A walkover is listed, neither scored nor predicted.
    walkover = tournament_body("T-walkover")
    assert client.post("/v1/tournaments", json=walkover, headers=AUTH).status_code == 201
    pair = client.get("/v1/players/p2/head-to-head/p3").json()
    assert [(g["played"], g["predictions"]) for g in pair["games"]] == [(False, [])]
    assert pair["score"] == {"a": 0, "b": 0, "games": 0}
    nobody = client.get("/v1/players/a/head-to-head/nobody")
    assert nobody.status_code == 404 and nobody.json()["errors"][0]["pointer"] == "path:opponent_id"
    assert client.get("/v1/players/a/head-to-head/a").status_code == 422
    strangers = client.get("/v1/players/a/head-to-head/p1").json()
    assert strangers["games"] == [] and strangers["score"] == {"a": 0, "b": 0, "games": 0}
