"""The rif-whr list end to end: stored tournaments -> recompute job -> snapshot -> reads."""

import datetime as dt
import threading
import time

import pytest
import whr as reference
from sqlalchemy import func, select, update

from app import db
from app.importers.renju_tsv import parse_path
from app.models import Job, RatingEntry, RatingList, RatingSnapshot
from app.rating.registry import system_ids
from app.recompute import compute, jobs
from app.recompute.jobs import run_pending_jobs
from tests.helpers import AUTH, RENJU_CN, cli_import_renju_cn, ratings, recompute_now, tournament_body


def test_lists_exist_out_of_the_box(client):
    lists = {item["id"]: item for item in client.get("/v1/rating-lists").json()}
    assert {"rif-whr", "rif-whr-gomoku", "rif-elo"} <= set(lists)
    assert all(item["system"] in system_ids() for item in lists.values()), "every default list names a registered system"
    assert lists["rif-whr"]["params"] == {"w2": 12.9, "virtual_games": 2, "virtual_rating": 1900.0, "start_rating": 1900.0}
    assert lists["rif-whr"]["category"] == "renju" and lists["rif-whr-gomoku"]["category"] == "gomoku"
    eligibility = lists["rif-whr"]["eligibility"]
    assert eligibility["min_time_control_minutes"] == 30 and "Yamaguchi" in eligibility["certified_rules"]
    assert client.get("/v1/rating-lists/nope").status_code == 404


@pytest.mark.slow
def test_real_data_matches_the_reference_package(client):
    """All 526 players of the self-contained games, every player-day within 0.01 Elo of whr's
    converged ratings and deviations within 0.1 Elo."""
    cli_import_renju_cn()
    job = recompute_now(client)
    assert job["result"]["players"] == 526 and job["result"]["games"] == 4644
    assert client.get("/v1/rating-lists/rif-whr/ratings", params={"status": "all"}).json()["total"] == 526

    parsed = parse_path(RENJU_CN)
    base = reference.Base(config={"w2": 12.9, "virtual_games": 2})
    for game in parsed.games:
        tournament = parsed.tournaments.get(game.tournament_id)
        if tournament is not None:
            base.create_game(game.black, game.white, game.result, tournament.end.toordinal())
    base.iterate_until_converge(verbose=False)

    worst_rating = worst_deviation = 0.0
    players = {g.black for g in parsed.games if g.tournament_id in parsed.tournaments}
    players |= {g.white for g in parsed.games if g.tournament_id in parsed.tournaments}
    for player_id in players:
        expected = base.ratings_for_player(player_id)
        points = client.get(f"/v1/players/{player_id}/history", params={"list": "rif-whr"}).json()["points"]
        assert [dt.date.fromisoformat(p["date"]).toordinal() for p in points] == [int(day) for day, _, _ in expected]
        for point, (_, elo, uncertainty) in zip(points, expected):
            worst_rating = max(worst_rating, abs(point["rating"] - (elo + 1900.0)))
            worst_deviation = max(worst_deviation, abs(point["deviation"] - uncertainty))
    assert worst_rating < 0.01, worst_rating
    assert worst_deviation < 0.1, worst_deviation


def test_in_process_worker_runs_the_job(database_url):
    from fastapi.testclient import TestClient

    from app.main import create_app

    with TestClient(create_app(start_worker=True)) as client:
        client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
        job_id = client.post("/v1/rating-lists/rif-whr/recompute", headers=AUTH).json()["job_id"]
        deadline = time.monotonic() + 30
        while (job := client.get(f"/v1/jobs/{job_id}").json())["status"] in ("queued", "running"):
            assert time.monotonic() < deadline, job
            time.sleep(0.05)
        assert job["status"] == "succeeded" and job["progress"] == 1.0
        assert len(ratings(client)) == 4


def test_second_trigger_coalesces_into_the_queued_job(client):
    first = client.post("/v1/rating-lists/rif-whr/recompute", headers=AUTH).json()
    second = client.post("/v1/rating-lists/rif-whr/recompute", headers=AUTH).json()
    assert first["job_id"] == second["job_id"]
    other_list = client.post("/v1/rating-lists/rif-whr-gomoku/recompute", headers=AUTH).json()
    assert other_list["job_id"] != first["job_id"]
    assert client.post("/v1/rating-lists/rif-whr/recompute").status_code == 401
    assert client.post("/v1/rating-lists/nope/recompute", headers=AUTH).status_code == 404


def test_triggers_at_once_make_at_most_one_queued_job(client):
    barrier = threading.Barrier(4)
    ids: list[int] = []

    def trigger() -> None:
        barrier.wait()
        for _ in range(20):  # SQLite may answer "database is locked" under contention: retry
            try:
                with db.session_scope() as session:
                    ids.append(jobs.trigger_recompute(session, "rif-whr").id)
                return
            except Exception:  # noqa: BLE001
                time.sleep(0.05)

    threads = [threading.Thread(target=trigger) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(ids) == 4 and len(set(ids)) == 1
    with db.session_scope() as session:
        assert session.scalar(select(func.count()).select_from(Job).where(Job.status == "queued")) == 1


def test_a_job_is_claimed_by_exactly_one_worker(client):
    client.post("/v1/rating-lists/rif-whr/recompute", headers=AUTH)
    barrier = threading.Barrier(3)
    claims: list[int | None] = []

    def claim(name: str) -> None:
        barrier.wait()
        for _ in range(20):
            try:
                with db.session_scope() as session:
                    claims.append(jobs.claim_next_job(session, name))
                return
            except Exception:  # noqa: BLE001 - SQLite lock contention: retry
                time.sleep(0.05)

    threads = [threading.Thread(target=claim, args=(f"w{i}",)) for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(claims) == 3
    assert len([c for c in claims if c is not None]) == 1


def test_reads_see_the_old_snapshot_until_the_new_commits(client, monkeypatch):
    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    first_snapshot = recompute_now(client)["snapshot_id"]
    before = ratings(client)
    client.post(
        "/v1/tournaments",
        json=tournament_body("T2", start="2021-01-01", end="2021-01-01", games=[{"black": "p1", "white": "p4", "result": "B"}]),
        headers=AUTH,
    )

    written = threading.Event()
    release = threading.Event()
    original = jobs.write_snapshot

    def slow_write(session, job_id, data, list_date):  # type: ignore[no-untyped-def]
        snapshot_id = original(session, job_id, data, list_date)
        written.set()  # rows inserted, transaction still open
        assert release.wait(30)
        return snapshot_id

    monkeypatch.setattr(jobs, "write_snapshot", slow_write)
    client.post("/v1/rating-lists/rif-whr/recompute", headers=AUTH)
    worker = threading.Thread(target=run_pending_jobs)
    worker.start()
    try:
        assert written.wait(30)
        during = ratings(client)
        assert during == before
        assert client.get("/v1/rating-lists/rif-whr/ratings").json()["snapshot_id"] == first_snapshot
    finally:
        release.set()
        worker.join()
    after = ratings(client)
    assert after != before and after["p1"]["games"] == before["p1"]["games"] + 1


def test_a_job_failing_half_way_leaves_the_previous_snapshot(client, monkeypatch):
    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    first = recompute_now(client)
    original = compute.compute_snapshot

    def broken(session, rating_list, list_date, progress):  # type: ignore[no-untyped-def]
        data = original(session, rating_list, list_date, progress)
        status = compute.ENTRY_COLUMNS.index("status")
        data.entries[-1] = (
            *data.entries[-1][:status],
            None,
            *data.entries[-1][status + 1 :],
        )  # violates NOT NULL after the other rows went in
        return data

    monkeypatch.setattr(compute, "compute_snapshot", broken)
    job_id = client.post("/v1/rating-lists/rif-whr/recompute", headers=AUTH).json()["job_id"]
    run_pending_jobs()
    job = client.get(f"/v1/jobs/{job_id}").json()
    assert job["status"] == "failed"
    assert "IntegrityError" in job["error"]
    with db.session_scope() as session:
        assert session.get(RatingList, "rif-whr").current_snapshot_id == first["snapshot_id"]
        assert session.scalar(select(func.count()).select_from(RatingSnapshot)) == 1
        assert session.scalar(select(func.count()).select_from(RatingEntry)) == 4
    assert len(ratings(client)) == 4


def test_a_killed_job_is_run_again_once_and_the_list_still_served(client):
    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    recompute_now(client)
    job_id = client.post("/v1/rating-lists/rif-whr/recompute", headers=AUTH).json()["job_id"]

    def claim_and_die() -> None:
        with db.session_scope() as session:
            assert jobs.claim_next_job(session, "doomed-worker") == job_id
            long_ago = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=10)
            session.execute(update(Job).where(Job.id == job_id).values(heartbeat_at=long_ago))

    claim_and_die()
    # The worker process died here. The next worker to look for work queues the job again and runs it.
    assert run_pending_jobs() == 1
    job = client.get(f"/v1/jobs/{job_id}").json()
    assert job["status"] == "succeeded", job
    with db.session_scope() as session:
        assert session.get(Job, job_id).attempts == 2
    assert len(ratings(client)) == 4

    # A job whose worker dies a second time is not run a third time.
    job_id = client.post("/v1/rating-lists/rif-whr/recompute", headers=AUTH).json()["job_id"]
    claim_and_die()
    with db.session_scope() as session:
        jobs.requeue_dead_jobs(session)
    claim_and_die()
    assert run_pending_jobs() == 0
    job = client.get(f"/v1/jobs/{job_id}").json()
    assert job["status"] == "failed" and "stopped reporting" in job["error"] and "run 2 times" in job["error"]
    assert len(ratings(client)) == 4


def _games_between(a: str, b: str, count: int, first_day: dt.date) -> list[dict]:
    return [
        {"black": a, "white": b, "result": "BWD"[i % 3], "date": (first_day + dt.timedelta(days=i)).isoformat()}
        for i in range(count)
    ]


def test_status_boundaries_nine_ten_games_and_five_years(client):
    players = [{"id": pid} for pid in ("nine", "ten", "opp")]
    games = _games_between("nine", "opp", 9, dt.date(2015, 3, 1)) + _games_between("ten", "opp", 10, dt.date(2015, 3, 1))
    body = tournament_body("long", start="2015-03-01", end="2015-03-10", players=players, games=games)
    assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201, body
    recompute_now(client, list_date=dt.date(2016, 1, 1))
    stored = ratings(client)
    assert stored["nine"]["status"] == "provisional" and stored["nine"]["games"] == 9
    assert stored["ten"]["status"] == "active" and stored["ten"]["games"] == 10
    # "ten" last played on 2015-03-10: exactly five years later he is still active, a day later not.
    assert ratings(client, as_of="2020-03-10")["ten"]["status"] == "active"
    assert ratings(client, as_of="2020-03-11")["ten"]["status"] == "inactive"
    assert client.get("/v1/rating-lists/rif-whr/ratings", params={"as_of": "2020-03-11"}).json()["total"] == 0
    assert (
        client.get("/v1/rating-lists/rif-whr/ratings", params={"as_of": "2020-03-11", "status": "inactive"}).json()["items"][0][
            "player_id"
        ]
        == "ten"
    )
    # Before his tenth game he was provisional.
    assert ratings(client, as_of="2015-03-09")["ten"]["status"] == "provisional"


def test_as_of_interpolates_between_playing_days_and_holds_after(client):
    first = tournament_body("A", start="2020-01-01", end="2020-01-01", games=[{"black": "p1", "white": "p2", "result": "B"}])
    second = tournament_body("B", start="2020-01-21", end="2020-01-21", games=[{"black": "p1", "white": "p3", "result": "B"}])
    client.post("/v1/tournaments", json=first, headers=AUTH)
    client.post("/v1/tournaments", json=second, headers=AUTH)
    recompute_now(client)
    points = client.get("/v1/players/p1/history", params={"list": "rif-whr"}).json()["points"]
    assert [p["date"] for p in points] == ["2020-01-01", "2020-01-21"]
    between = ratings(client, as_of="2020-01-11")["p1"]
    assert between["rating"] == pytest.approx((points[0]["rating"] + points[1]["rating"]) / 2, abs=1e-9)
    after = ratings(client, as_of="2020-02-20")["p1"]
    assert after["rating"] == pytest.approx(points[1]["rating"], abs=1e-9)
    assert after["deviation"] == pytest.approx((points[1]["deviation"] ** 2 + 12.9 * 30) ** 0.5, abs=1e-9)
    assert "p3" not in ratings(client, as_of="2020-01-11")  # not yet played
    assert ratings(client, as_of="2019-12-31") == {}


def test_etag_and_if_none_match(client):
    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    recompute_now(client)
    first = client.get("/v1/rating-lists/rif-whr/ratings")
    etag = first.headers["etag"]
    assert client.get("/v1/rating-lists/rif-whr/ratings", headers={"If-None-Match": etag}).status_code == 304
    assert (
        client.get("/v1/rating-lists/rif-whr/ratings", params={"status": "all"}, headers={"If-None-Match": etag}).status_code
        == 200
    )
    recompute_now(client)
    again = client.get("/v1/rating-lists/rif-whr/ratings", headers={"If-None-Match": etag})
    assert again.status_code == 200 and again.headers["etag"] != etag


def test_snapshots_stay_readable(client):
    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    one = recompute_now(client)["snapshot_id"]
    client.post(
        "/v1/tournaments",
        json=tournament_body("T2", start="2021-01-01", end="2021-01-02", games=[{"black": "p1", "white": "p2", "result": "W"}]),
        headers=AUTH,
    )
    two = recompute_now(client)["snapshot_id"]
    page = client.get("/v1/rating-lists/rif-whr/snapshots").json()
    assert page["total"] == 2 and [s["id"] for s in page["items"]] == [two, one]
    assert [s["current"] for s in page["items"]] == [True, False]
    assert client.get(f"/v1/rating-lists/rif-whr/snapshots/{one}").json()["games"] == 5
    old = client.get("/v1/rating-lists/rif-whr/ratings", params={"snapshot_id": one, "status": "all"}).json()
    new = client.get("/v1/rating-lists/rif-whr/ratings", params={"status": "all"}).json()
    assert old["snapshot_id"] == one and new["snapshot_id"] == two
    assert {r["player_id"]: r["games"] for r in old["items"]}["p1"] == 3
    assert {r["player_id"]: r["games"] for r in new["items"]}["p1"] == 4
    assert client.get("/v1/rating-lists/rif-elo/snapshots/1").status_code == 404


def test_eligibility_filter_and_separate_gomoku_list(client):
    client.post("/v1/tournaments", json=tournament_body("rated"), headers=AUTH)
    games = [{"black": "p1", "white": "p2", "result": "B"}]
    # The same one game in each: events of their own, not repeats of each other (decision 107).
    intended = {"headers": AUTH, "params": {"duplicate": "intended"}}
    client.post("/v1/tournaments", json=tournament_body("blitz", time_control_minutes=10, games=games), **intended)
    client.post("/v1/tournaments", json=tournament_body("friendly", rated=False, games=games), **intended)
    client.post("/v1/tournaments", json=tournament_body("freestyle", rule="Freestyle", games=games), **intended)
    client.post("/v1/tournaments", json=tournament_body("online", format="supervised-online", games=games), **intended)
    client.post("/v1/tournaments", json=tournament_body("gomoku", category="gomoku", rule=None, games=games), **intended)
    job = recompute_now(client)
    # 5 played games of "rated" (one is a walkover) + the supervised online one.
    assert job["result"]["games"] == 6
    gomoku = recompute_now(client, "rif-whr-gomoku")
    assert gomoku["result"]["games"] == 1


def test_list_parameters_apply_from_the_next_recompute(client):
    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    response = client.patch("/v1/rating-lists/rif-whr/params", json={"w2": 19.3}, headers=AUTH)
    assert response.status_code == 200 and response.json()["params"]["w2"] == 19.3
    snapshot = recompute_now(client)["snapshot_id"]
    assert client.get(f"/v1/rating-lists/rif-whr/snapshots/{snapshot}").json()["params"]["w2"] == 19.3
    assert client.patch("/v1/rating-lists/rif-whr/params", json={"w2": -1}, headers=AUTH).status_code == 422
    assert client.patch("/v1/rating-lists/rif-whr/params", json={"bootstrap_rating": 1500}, headers=AUTH).status_code == 422


def test_history_and_ratings_errors(client):
    assert client.get("/v1/players/ghost/history", params={"list": "rif-whr"}).status_code == 404
    client.post("/v1/players", json={"id": "lonely"}, headers=AUTH)
    assert client.get("/v1/players/lonely/history", params={"list": "nope"}).status_code == 404
    assert client.get("/v1/players/lonely/history").json() == {
        "player_id": "lonely",
        "list_id": "rif-whr",
        "snapshot_id": None,
        "stale_since": None,
        "stale_reason": None,
        "points": [],
    }
    empty = client.get("/v1/rating-lists/rif-whr/ratings").json()
    assert empty["items"] == [] and empty["snapshot_id"] is None
    assert client.get("/v1/rating-lists/rif-whr/ratings", params={"status": "gone"}).status_code == 422
    assert client.get("/v1/rating-lists/rif-whr/ratings", params={"as_of": "2020-13-01"}).status_code == 422
    assert client.get("/v1/jobs/999").status_code == 404


@pytest.mark.slow
def test_recompute_warm_starts_from_the_previous_snapshot(client):
    cli_import_renju_cn()
    cold = recompute_now(client)["result"]
    client.post(
        "/v1/tournaments",
        json=tournament_body(
            "late",
            start="2020-01-01",
            end="2020-01-02",
            players=[{"id": "2487"}, {"id": "2789"}],
            games=[{"black": "2487", "white": "2789", "result": "D"}],
        ),
        headers=AUTH,
    )
    warm = recompute_now(client)["result"]
    assert not any("warm-started" in note for note in cold["notes"])
    assert any("warm-started" in note for note in warm["notes"])
    steps = [int(note.split(" ")[2]) for note in (cold["notes"][0], warm["notes"][0])]
    assert steps[1] < steps[0]
    assert set(warm["timings_s"]) == {"read", "compute", "write"}
