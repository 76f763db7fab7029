"""The read path's memory (issue 10): pages kept as bytes per snapshot and query, the lists' current
snapshots read at most once a second, and what a client sees when a new snapshot arrives, from this
process, from another one, and from a live server's own worker."""

import sqlite3
import time

import httpx
import pytest
from sqlalchemy import update
from sqlalchemy.engine import make_url

from app import db
from app.http import response_cache
from app.models import RatingList
from app.services import rating_lists as service
from app.snapshots import current_snapshots as current_module
from app.snapshots import snapshot_changes, timelines
from tests.helpers import AUTH, ratings, recompute_now, tournament_body
from tests.live_server import running_server

LATER = {"black": "p1", "white": "p2", "result": "W"}


def test_a_page_and_a_history_are_built_once_per_snapshot_and_query(client, monkeypatch):
    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    recompute_now(client)
    built = {"ratings": 0, "history": 0}
    ratings, history = service.ratings, service.player_history

    def counting_ratings(*args, **kwargs):  # type: ignore[no-untyped-def]
        built["ratings"] += 1
        return ratings(*args, **kwargs)

    def counting_history(*args, **kwargs):  # type: ignore[no-untyped-def]
        built["history"] += 1
        return history(*args, **kwargs)

    monkeypatch.setattr(service, "ratings", counting_ratings)
    monkeypatch.setattr(service, "player_history", counting_history)
    first = client.get("/v1/rating-lists/rif-whr/ratings", params={"status": "all"})
    again = client.get("/v1/rating-lists/rif-whr/ratings", params={"status": "all"})
    assert first.status_code == again.status_code == 200 and again.content == first.content
    assert again.headers["etag"] == first.headers["etag"] and again.headers["content-type"] == "application/json"
    assert built["ratings"] == 1
    on_a_day = client.get("/v1/rating-lists/rif-whr/ratings", params={"status": "all", "as_of": "2020-05-02"})
    assert on_a_day.json()["as_of"] == "2020-05-02" and built["ratings"] == 2  # another query, another page
    assert client.get("/v1/players/p1/history").content == client.get("/v1/players/p1/history").content
    assert built["history"] == 1
    assert client.get("/v1/players/nobody/history").status_code == 404


def test_a_recompute_in_this_process_shows_at_once(client, monkeypatch):
    monkeypatch.setattr(current_module, "REFRESH_SECONDS", 600.0)  # only this process's own commit can tell
    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    first = recompute_now(client)["snapshot_id"]
    before = client.get("/v1/rating-lists/rif-whr/ratings", params={"status": "all"})
    history = client.get("/v1/players/p1/history")
    assert before.json()["snapshot_id"] == first
    client.post("/v1/tournaments", json=tournament_body("T2", start="2020-06-01", end="2020-06-01", games=[LATER]), headers=AUTH)
    second = recompute_now(client)["snapshot_id"]
    after = client.get(
        "/v1/rating-lists/rif-whr/ratings", params={"status": "all"}, headers={"If-None-Match": before.headers["etag"]}
    )
    assert after.status_code == 200 and after.json()["snapshot_id"] == second != first
    newer = client.get("/v1/players/p1/history", headers={"If-None-Match": history.headers["etag"]})
    assert newer.status_code == 200 and len(newer.json()["points"]) == len(history.json()["points"]) + 1


def test_a_tournaments_and_a_players_changes_follow_the_current_snapshot(client):
    """The changes are decoded once per snapshot and kept: a new snapshot's are read, not the kept ones."""
    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    first = recompute_now(client)["snapshot_id"]
    before = [c for c in client.get("/v1/tournaments/T1").json()["rating_changes"] if c["list_id"] == "rif-whr"]
    assert {c["snapshot_id"] for c in before} == {first} and {c["player_id"] for c in before} == {"p1", "p2", "p3", "p4"}
    client.post("/v1/tournaments", json=tournament_body("T2", start="2020-06-01", end="2020-06-01", games=[LATER]), headers=AUTH)
    second = recompute_now(client)["snapshot_id"]
    after = {c["player_id"]: c for c in client.get("/v1/tournaments/T1").json()["rating_changes"] if c["list_id"] == "rif-whr"}
    assert {c["snapshot_id"] for c in after.values()} == {second} != {first}
    # The whole history is refitted: T1's result reads differently once p2 has beaten p1 later.
    assert after["p1"]["rating_after"] != next(c for c in before if c["player_id"] == "p1")["rating_after"]
    page = client.get("/players/p1?list=rif-whr")
    assert page.status_code == 200 and "T2" in page.text


def test_another_processs_change_shows_within_the_refresh_interval(client, monkeypatch):
    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    first = recompute_now(client)["snapshot_id"]
    client.post("/v1/tournaments", json=tournament_body("T2", start="2020-06-01", end="2020-06-01", games=[LATER]), headers=AUTH)
    second = recompute_now(client)["snapshot_id"]
    monkeypatch.setattr(current_module, "REFRESH_SECONDS", 0.3)
    shown = client.get("/v1/rating-lists/rif-whr/ratings")
    assert shown.json()["snapshot_id"] == second
    # Another process points the list back at its first snapshot: a plain connection, which no
    # session hook of this process sees.
    with db.get_engine().begin() as connection:
        connection.execute(update(RatingList).where(RatingList.id == "rif-whr").values(current_snapshot_id=first))
    time.sleep(0.35)
    again = client.get("/v1/rating-lists/rif-whr/ratings", headers={"If-None-Match": shown.headers["etag"]})
    assert again.status_code == 200 and again.json()["snapshot_id"] == first


@pytest.mark.slow
def test_a_live_server_shows_its_workers_new_snapshot_to_a_conditional_read():
    with running_server(RUN_WORKER="true", WORKER_POLL_SECONDS="30") as server:
        first = _submit_and_wait(server.url, tournament_body())
        page = httpx.get(f"{server.url}/v1/rating-lists/rif-whr/ratings", params={"status": "all"})
        etag = page.headers["etag"]
        assert page.json()["snapshot_id"] == first
        assert (
            httpx.get(
                f"{server.url}/v1/rating-lists/rif-whr/ratings", params={"status": "all"}, headers={"If-None-Match": etag}
            ).status_code
            == 304
        )
        second = _submit_and_wait(server.url, tournament_body("T2", start="2020-06-01", end="2020-06-01", games=[LATER]))
        changed = httpx.get(
            f"{server.url}/v1/rating-lists/rif-whr/ratings", params={"status": "all"}, headers={"If-None-Match": etag}
        )
        assert changed.status_code == 200 and changed.json()["snapshot_id"] == second != first
        assert changed.headers["etag"] != etag


def _submit_and_wait(url: str, body: dict) -> int:
    created = httpx.post(f"{url}/v1/tournaments", json=body, headers=AUTH, timeout=30)
    assert created.status_code == 201, created.text
    job_id = next(item["job_id"] for item in created.json()["lists"] if item["id"] == "rif-whr")
    deadline = time.monotonic() + 20
    while (job := httpx.get(f"{url}/v1/jobs/{job_id}").json())["status"] in ("queued", "running"):
        assert time.monotonic() < deadline, job
        time.sleep(0.05)
    assert job["status"] == "succeeded", job
    return job["snapshot_id"]


def test_the_current_lists_web_page_is_rendered_once_per_snapshot_and_query(client, monkeypatch):
    from app.web import pages

    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    recompute_now(client)
    rendered = []
    build = pages.rating_list_page

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        rendered.append(args[-1])
        return build(*args, **kwargs)

    monkeypatch.setattr(pages, "rating_list_page", counting)
    first = client.get("/lists/rif-whr?status=all")
    assert first.status_code == 200 and "p1" in first.text
    assert client.get("/lists/rif-whr?status=all").content == first.content and len(rendered) == 1
    client.get("/lists/rif-whr?status=provisional")
    assert len(rendered) == 2
    client.post("/v1/tournaments", json=tournament_body("T2", start="2020-06-01", end="2020-06-01", games=[LATER]), headers=AUTH)
    recompute_now(client)
    assert client.get("/lists/rif-whr?status=all").content != first.content and len(rendered) == 3


def test_conditional_reads_match_the_query_as_sent_and_the_snapshot_read(client):
    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    snapshot = recompute_now(client)["snapshot_id"]
    url = "/v1/rating-lists/rif-whr/ratings"
    page = client.get(f"{url}?status=all&limit=3")
    etag = page.headers["etag"]
    same = client.get(f"{url}?status=all&limit=3", headers={"If-None-Match": f'W/"other", {etag}'})
    assert same.status_code == 304 and same.headers["etag"] == etag and same.content == b""
    assert same.headers["cache-control"] == page.headers["cache-control"]
    # The same query written another way has an ETag of its own: a full answer, never a wrong 304.
    reordered = client.get(f"{url}?limit=3&status=all", headers={"If-None-Match": etag})
    assert reordered.status_code == 200 and reordered.json()["items"] == page.json()["items"]
    pinned = client.get(f"{url}?status=all&snapshot_id={snapshot}")
    again = client.get(f"{url}?status=all&snapshot_id={snapshot}", headers={"If-None-Match": pinned.headers["etag"]})
    assert again.status_code == 304 and "immutable" in again.headers["cache-control"]
    for history in ("/v1/players/p1/history", "/v1/players/p1/history?list=rif-whr", "/v1/players/p1/history?list=rif-elo"):
        first = client.get(history)
        assert first.status_code == 200
        assert client.get(history, headers={"If-None-Match": first.headers["etag"]}).status_code == 304
    assert (
        client.get("/v1/players/p1/history?list=rif-elo").headers["etag"] != client.get("/v1/players/p1/history").headers["etag"]
    )
    assert client.get("/v1/rating-lists/nope/ratings", headers={"If-None-Match": etag}).status_code == 404


def test_a_snapshot_just_written_is_read_right_by_a_process_that_never_read_it(client, database_url):
    """Right after the recompute, read as another process would (nothing of the snapshot kept): the
    list as of its last day is the list, each history ends at the player's row, each tournament's
    changes are the snapshot's. On SQLite the worker has checkpointed the write-ahead log: the
    database file alone (opened ``immutable``, which reads no log) holds the snapshot."""
    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    client.post("/v1/tournaments", json=tournament_body("T2", start="2020-06-01", end="2020-06-01", games=[LATER]), headers=AUTH)
    snapshot_id = recompute_now(client)["snapshot_id"]
    timelines.forget_all()
    snapshot_changes.forget_all()
    response_cache.responses.clear()
    as_of = ratings(client, as_of="2020-06-01")
    current = ratings(client)
    assert as_of.keys() == current.keys() == {"p1", "p2", "p3", "p4"}
    for player_id, row in current.items():
        assert as_of[player_id]["rating"] == row["rating"]
        last = client.get(f"/v1/players/{player_id}/history").json()["points"][-1]
        assert last["rating"] == row["rating"]
        assert last["date"] == ("2020-06-01" if player_id in ("p1", "p2") else "2020-05-03")
    changes = [c for c in client.get("/v1/tournaments/T2").json()["rating_changes"] if c["list_id"] == "rif-whr"]
    assert {c["snapshot_id"] for c in changes} == {snapshot_id}
    assert {c["player_id"]: c["rating_after"] for c in changes} == {p: current[p]["rating"] for p in ("p1", "p2")}
    if make_url(database_url).get_backend_name() == "sqlite":
        file_alone = sqlite3.connect(f"file:{make_url(database_url).database}?immutable=1", uri=True)
        try:
            assert file_alone.execute("SELECT id FROM rating_snapshots WHERE id = ?", (snapshot_id,)).fetchall() == [
                (snapshot_id,)
            ]
        finally:
            file_alone.close()


def test_a_checkpoint_that_fails_leaves_the_job_succeeded_and_its_snapshot_current(client, monkeypatch):
    """The checkpoint after a snapshot is only a speed-up for its first readers (decisions 7.71): the
    job has succeeded once the snapshot is the list's, whatever the checkpoint then meets."""
    from sqlalchemy.exc import OperationalError

    from app.recompute import jobs

    def locked(engine):
        raise OperationalError("PRAGMA wal_checkpoint(PASSIVE)", {}, Exception("database is locked"))

    monkeypatch.setattr(jobs, "checkpoint", locked)
    assert client.post("/v1/tournaments", json=tournament_body("T1"), headers=AUTH).status_code == 201
    job_id = client.post("/v1/rating-lists/rif-whr/recompute", headers=AUTH).json()["job_id"]
    jobs.run_pending_jobs()
    job = client.get(f"/v1/jobs/{job_id}").json()
    assert job["status"] == "succeeded", job
    assert client.get("/v1/rating-lists/rif-whr").json()["current_snapshot_id"] == job["result"]["snapshot_id"]
