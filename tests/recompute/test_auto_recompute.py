"""A list recomputes itself after a submission it rates (issue 7 item 5): the submission's response
says, for every list of the category, whether it rates the tournament and which job it queued;
jobs coalesce; GET /v1/jobs lists them; a live server's worker runs them after the commit."""

import time

import httpx
import pytest

from app.recompute.eligibility import reasons_not_rated
from app.recompute.jobs import run_pending_jobs
from tests.helpers import AUTH, tournament_body
from tests.live_server import running_server


def _lists(response: httpx.Response) -> dict[str, dict]:
    return {item["id"]: item for item in response.json()["lists"]}


def test_lists_say_whether_they_rate_the_submission(client):
    response = client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    assert response.status_code == 201
    lists = _lists(response)
    assert set(lists) == {"rif-whr", "rif-elo", "eru"}  # the renju lists; the gomoku list is not named
    assert lists["rif-whr"]["rated"] is True and lists["rif-whr"]["reason"] is None
    assert isinstance(lists["rif-whr"]["job_id"], int)
    assert lists["rif-whr"]["no_recompute_reason"] is None
    # The Elo list rates it (2020 is before its last day) but does not recompute itself by default: it
    # says so, and is stale from this submission on (docs/decisions.md 7.106).
    assert lists["rif-elo"] == {
        "id": "rif-elo",
        "rated": True,
        "reason": None,
        "job_id": None,
        "review": None,
        "no_recompute_reason": "the list does not recompute itself (auto_recompute false): it shows the tournament as it "
        "was until an officer recomputes it (POST /v1/rating-lists/rif-elo/recompute), and is stale until then (its "
        "stale_since)",
    }
    assert response.json()["stale_lists"][0]["list_id"] == "rif-elo"
    # The Estonian list counts only tournaments in the ERU calendar, accepted by a referee, or international.
    assert lists["eru"] == {
        "id": "eru",
        "rated": False,
        "reason": "the tournament is marked none of: eru_calendar, referee_accepted, international",
        "job_id": None,
        "review": None,
        "no_recompute_reason": "the list does not rate the tournament, and did not before the change: its ratings do not change",
    }
    estonian = _lists(
        client.post(
            "/v1/tournaments", json=tournament_body("EST", eru_calendar=True), headers=AUTH, params={"duplicate": "intended"}
        )
    )["eru"]
    assert estonian["rated"] is True and isinstance(estonian["job_id"], int)
    job = client.get(f"/v1/jobs/{lists['rif-whr']['job_id']}").json()
    assert job["status"] == "queued" and job["list_id"] == "rif-whr"


def test_a_blitz_is_not_rated_by_the_whr_list_and_says_why(client):
    response = client.post("/v1/tournaments", json=tournament_body("BLITZ", time_control_minutes=5), headers=AUTH)
    assert response.status_code == 201
    whr = _lists(response)["rif-whr"]
    assert whr == {
        "id": "rif-whr",
        "rated": False,
        "reason": "time control 5 min is below the list's minimum 30 min",
        "job_id": None,
        "review": None,
        "no_recompute_reason": "the list does not rate the tournament, and did not before the change: its ratings do not change",
    }
    assert client.get("/v1/jobs", params={"list": "rif-whr"}).json()["total"] == 0


def test_reasons_name_every_rule_the_tournament_fails(client):
    body = tournament_body("LATE", start="2022-01-01", end="2022-01-02", rule="Gomoku-free", rated=False)
    body["games"] = [{k: v for k, v in game.items() if k != "date"} for game in body["games"]]
    lists = _lists(client.post("/v1/tournaments", json=body, headers=AUTH))
    assert lists["rif-whr"]["reason"] == (
        "the tournament is marked not rated; rule 'Freestyle' is not one of the list's certified rules "
        "(RIF, Yamaguchi, Soosyrv-N, Taraguchi-N, Yamasyrv-N, Sakata)"
    )
    assert lists["rif-elo"]["reason"] == (
        "the tournament is marked not rated; the tournament ends on 2022-01-02, after the list's last day 2021-08-07"
    )


def test_the_same_rules_select_the_games_a_recompute_rates(client):
    from sqlalchemy import and_, select

    from app import db
    from app.models import Game, RatingList, Tournament
    from app.recompute.eligibility import eligibility_conditions

    client.post("/v1/tournaments", json=tournament_body("OK"), headers=AUTH)
    client.post("/v1/tournaments", json=tournament_body("BLITZ", time_control_minutes=5), headers=AUTH)
    client.post("/v1/tournaments", json=tournament_body("ONLINE", format="supervised-online", rule="Swap2"), headers=AUTH)
    with db.session_scope() as session:
        for rating_list in session.scalars(select(RatingList)):
            selected = set(
                session.scalars(
                    select(Tournament.id)
                    .join(Game, Game.tournament_id == Tournament.id)
                    .where(and_(*eligibility_conditions(rating_list)))
                )
            )
            for tournament in session.scalars(select(Tournament)):
                rated_by_sql = tournament.id in selected
                if rating_list.system == "rif-elo":
                    continue  # its last day is applied by the replay, not by the query
                assert rated_by_sql == (not reasons_not_rated(rating_list, tournament)), (rating_list.id, tournament.id)


def test_submissions_coalesce_into_one_queued_job_and_jobs_are_listed(client):
    first = _lists(client.post("/v1/tournaments", json=tournament_body("A"), headers=AUTH))["rif-whr"]["job_id"]
    second = _lists(client.post("/v1/tournaments", json=tournament_body("B"), headers=AUTH, params={"duplicate": "intended"}))[
        "rif-whr"
    ]["job_id"]
    assert first == second
    gomoku = tournament_body("G", category="gomoku", rule=None)
    gomoku_job = _lists(client.post("/v1/tournaments", json=gomoku, headers=AUTH))["rif-whr-gomoku"]["job_id"]
    assert gomoku_job != first
    page = client.get("/v1/jobs").json()
    assert page["total"] == 2 and [job["id"] for job in page["items"]] == [gomoku_job, first]  # newest first
    assert client.get("/v1/jobs", params={"list": "rif-whr", "status": "queued"}).json()["total"] == 1
    assert client.get("/v1/jobs", params={"status": "succeeded"}).json()["total"] == 0
    assert client.get("/v1/jobs", params={"limit": 1, "offset": 1}).json()["items"][0]["id"] == first
    assert client.get("/v1/jobs", params={"status": "nope"}).status_code == 422
    run_pending_jobs()
    assert client.get("/v1/jobs", params={"status": "succeeded"}).json()["total"] == 2
    # After the job ran, a new submission queues a new job.
    third = _lists(client.post("/v1/tournaments", json=tournament_body("C"), headers=AUTH, params={"duplicate": "intended"}))[
        "rif-whr"
    ]["job_id"]
    assert third not in (first, gomoku_job)


def test_auto_recompute_is_a_list_setting(client):
    lists = {item["id"]: item for item in client.get("/v1/rating-lists").json()}
    # Only the historical Elo list (it ends in 2017) waits for an explicit recompute.
    assert {key: item["auto_recompute"] for key, item in lists.items()} == {key: key != "rif-elo" for key in lists}
    assert {"rif-whr", "rif-whr-gomoku", "rif-elo", "olufsen", "rivne"} <= set(lists)
    assert client.patch("/v1/rating-lists/rif-elo", json={"auto_recompute": True}).status_code == 401
    changed = client.patch("/v1/rating-lists/rif-elo", json={"auto_recompute": True}, headers=AUTH)
    assert changed.status_code == 200 and changed.json()["auto_recompute"] is True
    assert client.patch("/v1/rating-lists/rif-whr", json={"auto_recompute": False}, headers=AUTH).status_code == 200
    assert client.patch("/v1/rating-lists/rif-whr", json={"auto_recompute": "maybe"}, headers=AUTH).status_code == 422
    lists = _lists(client.post("/v1/tournaments", json=tournament_body(), headers=AUTH))
    assert lists["rif-whr"]["rated"] is True and lists["rif-whr"]["job_id"] is None
    assert isinstance(lists["rif-elo"]["job_id"], int)


def test_a_correction_recomputes_the_lists_that_rated_the_tournament_before(client):
    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    run_pending_jobs()
    corrected = client.put("/v1/tournaments/T1", json=tournament_body(time_control_minutes=5), headers=AUTH)
    assert corrected.status_code == 200
    whr = _lists(corrected)["rif-whr"]
    assert whr["rated"] is False and isinstance(whr["job_id"], int)  # the list must drop its games


@pytest.mark.slow
def test_a_live_servers_worker_recomputes_after_a_submission():
    with running_server(RUN_WORKER="true", WORKER_POLL_SECONDS="30") as server:
        # A long poll: the job is run because the submission wakes the worker after its commit.
        created = httpx.post(f"{server.url}/v1/tournaments", json=tournament_body(), headers=AUTH, timeout=30)
        assert created.status_code == 201
        job_id = _lists(created)["rif-whr"]["job_id"]
        deadline = time.monotonic() + 20
        while (job := httpx.get(f"{server.url}/v1/jobs/{job_id}").json())["status"] in ("queued", "running"):
            assert time.monotonic() < deadline, job
            time.sleep(0.1)
        assert job["status"] == "succeeded"
        ratings = httpx.get(f"{server.url}/v1/rating-lists/rif-whr/ratings", params={"status": "all"}).json()
        assert {row["player_id"] for row in ratings["items"]} == {"p1", "p2", "p3", "p4"}
