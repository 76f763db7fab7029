"""Evaluations through the API (issue 45): asked with an officer's key, run by the worker as a job of
the recompute queue, read back with what they found; the list itself unchanged; a sweep of one
parameter or of two; bad input refused with pointers before anything is queued; cancelled while
queued or while its sweep runs; bounded per list."""

import dataclasses
import datetime as dt
import math

import pytest
from scipy import stats

from app import db
from app.models import Job
from app.rating import evaluation
from app.recompute import compute, jobs
from app.recompute.jobs import run_pending_jobs
from app.services.importing import import_results_file
from app.services.rating_lists import get_rating_list
from tests.helpers import AUTH, RENJU_CN, recompute_now, store_three_tournaments, tournament_body

DAY = dt.date(2024, 1, 1)


def _ask(client, body: dict, list_id: str = "rif-whr"):  # type: ignore[no-untyped-def]
    return client.post(f"/v1/rating-lists/{list_id}/evaluations", json=body, headers=AUTH)


def test_a_forward_evaluation_is_a_job_whose_findings_are_read_back_and_change_nothing(client):
    store_three_tournaments(client, DAY)
    before = client.get("/v1/rating-lists/rif-whr").json()
    asked = _ask(client, {"mode": "forward"})
    assert asked.status_code == 202, asked.text
    evaluation_id = asked.json()["id"]
    assert asked.headers["Location"] == f"/v1/rating-lists/rif-whr/evaluations/{evaluation_id}"
    assert asked.json()["status"] == "queued" and asked.json()["result"] is None
    run_pending_jobs(list_date=DAY)
    found = client.get(f"/v1/rating-lists/rif-whr/evaluations/{evaluation_id}").json()
    assert found["status"] == "succeeded", found
    result = found["result"]
    # 15 played games (g6 of each is unplayed); the first tournament's players have no rating before it.
    assert result["manifest"]["games"] == 15 and result["manifest"]["tournaments"] == 3
    assert result["games_considered"] == 15 and result["games_unscored"] == 5
    assert result["scores"]["games"] == 10
    assert sum(row["games"] for row in result["scores"]["calibration"]) == 10
    assert result["manifest"]["request"] == {
        "mode": "forward",
        "period_months": 1,
        "every": 10,
        "offset": 0,
        "sweep": None,
        "side_by_side": False,
    }
    assert result["manifest"]["rule"] == "RIF 2021 #1-#7"
    # The same as the engine gives on the list's inputs as a recompute reads them.
    with db.session_scope() as session:
        inputs = compute.read_inputs(session, get_rating_list(session, "rif-whr"), DAY, warm=False)
        direct = evaluation.score(evaluation.forecast(inputs.system, inputs.given, evaluation.EvaluationPlan()))
    assert result["scores"]["mean_log_likelihood"] == pytest.approx(direct.mean_log_likelihood, abs=1e-12)
    assert result["scores"]["brier"] == pytest.approx(direct.brier, abs=1e-12)
    # The list is as it was: no snapshot, no change of its row.
    assert client.get("/v1/rating-lists/rif-whr").json() == before
    assert client.get("/v1/jobs", params={"list": "rif-whr"}).json()["items"][0]["kind"] == "evaluation"
    listed = client.get("/v1/rating-lists/rif-whr/evaluations").json()
    assert listed["total"] == 1 and listed["items"][0]["id"] == evaluation_id


def test_side_by_side_evaluates_the_other_list_of_the_category_on_the_same_games(client):
    store_three_tournaments(client, DAY)
    patched = client.patch("/v1/rating-lists/rif-elo/params", json={"bootstrap_rating": 1800}, headers=AUTH)
    assert patched.status_code == 200, patched.text
    recompute_now(client, "rif-elo", DAY)
    asked = _ask(client, {"mode": "forward", "side_by_side": True}).json()
    run_pending_jobs(list_date=DAY)
    result = client.get(f"/v1/rating-lists/rif-whr/evaluations/{asked['id']}").json()["result"]
    [beside] = [entry for entry in result["side_by_side"] if entry["other_list_id"] == "rif-elo"]
    assert beside["tournaments"] == 3 and beside["games"] == 15
    # Both on the games both predicted: the Elo list starts the first tournament's players from its
    # bootstrap rating and predicts all 15, WHR has no rating of them before it and predicts 10, so
    # the two are scored on WHR's 10, which are this list's own evaluation (all its games are common).
    assert beside["this"]["games_unscored"] == 5 and beside["other"]["games_unscored"] == 0
    assert beside["this"]["scores"] == result["scores"]
    assert beside["other"]["rule"] == "GA 1997 #8" and beside["other"]["scores"]["games"] == 10
    # The rank agreement of the four players, from the two lists as the API serves them.
    whr, elo = (
        {
            row["player_id"]: row["rating"]
            for row in client.get(f"/v1/rating-lists/{list_id}/ratings", params={"status": "all"}).json()["items"]
        }
        for list_id in ("rif-whr", "rif-elo")
    )
    common = sorted(whr.keys() & elo.keys())
    assert beside["players"] == len(common) == 4
    assert beside["spearman"] == pytest.approx(stats.spearmanr([whr[p] for p in common], [elo[p] for p in common]).statistic)
    assert beside["kendall"] == pytest.approx(stats.kendalltau([whr[p] for p in common], [elo[p] for p in common]).statistic)


def test_the_same_request_while_one_waits_is_that_one_and_a_list_takes_four_at_once(client):
    first = _ask(client, {"mode": "holdout"}).json()
    assert _ask(client, {"mode": "holdout"}).json()["id"] == first["id"]
    for every in (3, 4, 5):
        assert _ask(client, {"mode": "holdout", "every": every}).status_code == 202
    refused = _ask(client, {"mode": "holdout", "every": 6})
    assert refused.status_code == 409, refused.text
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["errors"][0]["pointer"] == "/path/list_id"
    # Another list's evaluations are its own.
    assert _ask(client, {"mode": "holdout", "every": 6}, "rif-elo").status_code == 202


def test_an_evaluation_queued_beside_a_recompute_neither_blocks_nor_joins_it(client):
    evaluation_id = _ask(client, {}).json()["id"]
    recompute = client.post("/v1/rating-lists/rif-whr/recompute", headers=AUTH).json()
    assert recompute["job_id"] != evaluation_id
    body = tournament_body("T9")
    submitted = client.post("/v1/tournaments", json=body, headers=AUTH).json()
    joined = {entry["id"]: entry["job_id"] for entry in submitted["lists"]}
    assert joined.get("rif-whr") == recompute["job_id"]
    run_pending_jobs(list_date=DAY)
    with db.session_scope() as session:
        kinds = {job.id: (job.kind, job.status) for job in session.query(Job)}
    assert kinds[evaluation_id] == ("evaluation", "succeeded")
    assert kinds[recompute["job_id"]] == ("recompute", "succeeded")


def test_a_queued_evaluation_cancelled_is_never_run(client):
    store_three_tournaments(client, DAY)
    evaluation_id = _ask(client, {"mode": "holdout", "every": 2}).json()["id"]
    assert client.delete(f"/v1/rating-lists/rif-whr/evaluations/{evaluation_id}").status_code == 401
    cancelled = client.delete(f"/v1/rating-lists/rif-whr/evaluations/{evaluation_id}", headers=AUTH)
    assert cancelled.status_code == 200, cancelled.text
    assert cancelled.json()["status"] == "cancelled" and cancelled.json()["finished_at"] is not None
    run_pending_jobs(list_date=DAY)
    found = client.get(f"/v1/rating-lists/rif-whr/evaluations/{evaluation_id}", params={"wait": 1}).json()
    assert found["status"] == "cancelled" and found["result"] is None
    # Cancelling what has ended answers it as it is.
    assert client.delete(f"/v1/rating-lists/rif-whr/evaluations/{evaluation_id}", headers=AUTH).json()["status"] == "cancelled"


TWO_PARAMETERS = {
    "mode": "holdout",
    "every": 2,
    "sweep": {"parameter": "w2", "values": [6, 12.9, 25], "and_parameter": {"parameter": "virtual_games", "values": [1, 2]}},
}


def test_a_sweep_of_two_parameters_answers_every_pair_the_best_and_each_profile(client):
    store_three_tournaments(client, DAY)
    asked = _ask(client, TWO_PARAMETERS)
    assert asked.status_code == 202, asked.text
    run_pending_jobs(list_date=DAY)
    found = client.get(f"/v1/rating-lists/rif-whr/evaluations/{asked.json()['id']}").json()
    assert found["status"] == "succeeded", found
    sweep = found["result"]["sweep"]
    assert found["result"]["manifest"]["request"]["sweep"] == {
        "parameter": "w2",
        "values": [6.0, 12.9, 25.0],
        "and_parameter": {"parameter": "virtual_games", "values": [1.0, 2.0]},
    }
    assert [(cell["value"], cell["second_value"]) for cell in sweep["grid"]] == [
        (w2, virtual) for w2 in (6.0, 12.9, 25.0) for virtual in (1.0, 2.0)
    ]
    # Each pair as the engine scores the list's inputs with it, one evaluation at a time.
    with db.session_scope() as session:
        inputs = compute.read_inputs(session, get_rating_list(session, "rif-whr"), DAY, warm=False)
    plan = evaluation.EvaluationPlan("holdout", every=2)
    totals = {}
    for cell in sweep["grid"]:
        params = inputs.given.params.model_copy(update={"w2": cell["value"], "virtual_games": int(cell["second_value"])})
        direct = evaluation.score(evaluation.forecast(inputs.system, dataclasses.replace(inputs.given, params=params), plan))
        assert cell["mean_log_likelihood"] == pytest.approx(direct.mean_log_likelihood, abs=1e-12)
        assert cell["games"] == direct.games and cell["brier"] == pytest.approx(direct.brier, abs=1e-12)
        totals[cell["value"], cell["second_value"]] = direct.mean_log_likelihood * direct.games
    best = max(totals, key=totals.__getitem__)
    assert (sweep["best"], sweep["and_parameter"]["best"]) == best
    assert (sweep["current"], sweep["and_parameter"]["current"]) == (12.9, 2.0)
    assert sweep["and_parameter"]["parameter"] == "virtual_games" and "grid" not in sweep["and_parameter"]
    # Each parameter's curve is its profile: each value's best total over the other parameter.
    for curve, index in ((sweep, 0), (sweep["and_parameter"], 1)):
        profile = {}
        for pair, total in totals.items():
            profile[pair[index]] = max(profile.get(pair[index], -math.inf), total)
        shown = {point["value"]: point["mean_log_likelihood"] * point["games"] for point in curve["points"]}
        assert shown == pytest.approx(profile, abs=1e-9)
        inside = [value for value, total in profile.items() if total >= max(profile.values()) - evaluation.LIKELIHOOD_INTERVAL]
        assert (curve["interval_low"], curve["interval_high"]) == (min(inside), max(inside))


def test_a_sweep_of_one_parameter_answers_as_it_did(client):
    store_three_tournaments(client, DAY)
    asked = _ask(client, {"mode": "holdout", "every": 2, "sweep": {"parameter": "w2", "values": [6, 12.9, 25]}})
    assert asked.status_code == 202, asked.text
    run_pending_jobs(list_date=DAY)
    sweep = client.get(f"/v1/rating-lists/rif-whr/evaluations/{asked.json()['id']}").json()["result"]["sweep"]
    assert [point["value"] for point in sweep["points"]] == [6.0, 12.9, 25.0]
    assert sweep["and_parameter"] is None and sweep["grid"] is None


def test_a_sweep_cancelled_while_it_runs_stops_at_its_next_pair(client, monkeypatch):
    """The job's progress counts the pairs tried (from a half to 0.7 of the work), and a cancellation
    is seen at the next one: nothing more is tried and nothing is written."""
    store_three_tournaments(client, DAY)
    evaluation_id = _ask(client, TWO_PARAMETERS).json()["id"]
    reported: list[float] = []
    report_progress = jobs._report_progress

    def cancelled_at_the_second_pair(job_id: int, share: float) -> bool:
        reported.append(share)
        if len([r for r in reported if 0.5 < r <= 0.7]) == 2:
            with db.session_scope() as session:
                jobs.cancel_job(session, job_id)
        return report_progress(job_id, share)

    monkeypatch.setattr(jobs, "_report_progress", cancelled_at_the_second_pair)
    run_pending_jobs(list_date=DAY)
    assert reported[-3:] == [0.5, pytest.approx(0.5 + 0.2 / 6), pytest.approx(0.5 + 0.4 / 6)]
    found = client.get(f"/v1/rating-lists/rif-whr/evaluations/{evaluation_id}").json()
    assert found["status"] == "cancelled" and found["result"] is None


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"mode": "backwards"}, "/mode"),
        ({"every": 1}, "/every"),
        ({"every": 5, "offset": 5}, "/offset"),
        ({"period_months": 0}, "/period_months"),
        ({"sweep": {"parameter": "w3", "values": [1, 2]}}, "/sweep/parameter"),
        ({"sweep": {"parameter": "w2", "values": [10, -1]}}, "/sweep/values/1"),
        ({"sweep": {"parameter": "w2", "values": [10]}}, "/sweep/values"),
        (
            {
                "sweep": {
                    "parameter": "w2",
                    "values": list(range(1, 12)),
                    "and_parameter": {"parameter": "virtual_games", "values": list(range(1, 11))},
                }
            },
            "/sweep/and_parameter/values",
        ),
        (
            {"sweep": {"parameter": "w2", "values": [6, 12.9], "and_parameter": {"parameter": "w2", "values": [20, 25]}}},
            "/sweep/and_parameter/parameter",
        ),
        (
            {"sweep": {"parameter": "w2", "values": [6, 12.9], "and_parameter": {"parameter": "w3", "values": [1, 2]}}},
            "/sweep/and_parameter/parameter",
        ),
        (
            {
                "sweep": {
                    "parameter": "w2",
                    "values": [6, 12.9],
                    "and_parameter": {"parameter": "virtual_games", "values": [1, 1.5]},
                }
            },
            "/sweep/and_parameter/values/1",
        ),
        (
            {"sweep": {"parameter": "virtual_games", "values": [1, 2], "and_parameter": {"parameter": "w2", "values": [6, -1]}}},
            "/sweep/and_parameter/values/1",
        ),
        (
            {
                "sweep": {
                    "parameter": "w2",
                    "values": [0, 12.9],
                    "and_parameter": {"parameter": "virtual_games", "values": [1, 2]},
                }
            },
            "/sweep/values/0",
        ),
        (
            {"sweep": {"parameter": "w2", "values": [6, 12.9], "and_parameter": {"parameter": "virtual_games", "values": [1]}}},
            "/sweep/and_parameter/values",
        ),
        ({"surprise": 1}, "/surprise"),
    ],
)
def test_bad_requests_are_refused_with_a_pointer_and_queue_nothing(client, body, pointer):
    answer = _ask(client, body)
    assert answer.status_code == 422, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    assert pointer in [error["pointer"] for error in answer.json()["errors"]]
    assert client.get("/v1/jobs").json()["total"] == 0


def test_unknown_lists_and_evaluations_and_missing_keys(client):
    assert client.post("/v1/rating-lists/rif-whr/evaluations", json={}).status_code == 401
    assert _ask(client, {}, "no-such-list").status_code == 404
    assert client.get("/v1/rating-lists/rif-whr/evaluations/999").status_code == 404
    evaluation_id = _ask(client, {}).json()["id"]
    # An evaluation is its list's: another list's path does not find it, nor a recompute's job id.
    assert client.get(f"/v1/rating-lists/rif-elo/evaluations/{evaluation_id}").status_code == 404
    recompute = client.post("/v1/rating-lists/rif-whr/recompute", headers=AUTH).json()["job_id"]
    assert client.get(f"/v1/rating-lists/rif-whr/evaluations/{recompute}").status_code == 404
    assert client.delete(f"/v1/rating-lists/rif-whr/evaluations/{recompute}", headers=AUTH).status_code == 404


@pytest.mark.slow
def test_the_whr_and_elo_lists_over_the_real_chinese_results(client):
    """The real file imported and the WHR list evaluated forward and by the RIF's holdout, the
    historical Elo list forward (its players rated from a bootstrap rating, since the file holds
    none of theirs): each ends with scores a forecast must have."""
    import_results_file(RENJU_CN)
    patched = client.patch("/v1/rating-lists/rif-elo/params", json={"bootstrap_rating": 1800}, headers=AUTH)
    assert patched.status_code == 200, patched.text
    recompute_now(client, "rif-whr", DAY)
    ids = [_ask(client, body).json()["id"] for body in ({"mode": "forward"}, {"mode": "holdout", "every": 10})]
    elo = _ask(client, {"mode": "forward"}, "rif-elo").json()["id"]
    run_pending_jobs(list_date=DAY)
    forward, holdout = (client.get(f"/v1/rating-lists/rif-whr/evaluations/{n}").json()["result"] for n in ids)
    games = forward["manifest"]["games"]
    assert games > 4000 and forward["games_considered"] == games
    assert holdout["games_considered"] == math.ceil(games / 10)
    for result in (forward, holdout, client.get(f"/v1/rating-lists/rif-elo/evaluations/{elo}").json()["result"]):
        scores = result["scores"]
        assert math.log(0.5) < scores["mean_log_likelihood"] < 0, scores  # better than a coin
        assert 0 < scores["brier"] < 0.25
        assert 0.5 < scores["favourite_won"] < 1
        assert [row["games"] for row in scores["by_year"]] and sum(row["games"] for row in scores["by_year"]) == scores["games"]
