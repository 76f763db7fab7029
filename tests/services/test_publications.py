"""Publications of rating lists (issue 22 items 1-3): published through HTTP, read the same forever,
compared with the previous publication; the live list compared with the latest; the schedule
published once by racing workers; and `verify` reproducing a publication."""

import datetime as dt
import threading
import time

from sqlalchemy import func, select, text

from app import db
from app.cli import main as cli
from app.models import Publication, Revision
from app.rating.rounding import round_half_away_from_zero
from app.recompute.jobs import run_pending_jobs
from app.services import publications
from app.version import VERSION
from tests.helpers import AUTH, tournament_body
from tests.rating_changes_scenario import PLAYERS, RESULTS


def long_tournament(tournament_id: str, start: str, players: list[dict] = PLAYERS, results: str = RESULTS) -> dict:
    """Four players, each playing each other four times: 12 rated games each (WHR active from 10)."""
    ids = [p["id"] for p in players]
    pairs = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1 :]]
    games = []
    for round_ in range(4):
        for k, (a, b) in enumerate(pairs):
            black, white = (a, b) if round_ % 2 == 0 else (b, a)
            result = results[(round_ * len(pairs) + k) % len(results)]
            games.append(
                {
                    "id": f"{tournament_id}-g{len(games)}",
                    "round": str(round_ + 1),
                    "black": black,
                    "white": white,
                    "result": result,
                }
            )
    day = dt.date.fromisoformat(start)
    return tournament_body(tournament_id, start=start, end=str(day + dt.timedelta(days=2)), players=players, games=games)


def submit(client, body: dict) -> None:  # type: ignore[no-untyped-def]
    answer = client.post("/v1/tournaments", json=body, headers=AUTH)
    assert answer.status_code == 201, answer.text
    run_pending_jobs()


def publish(client, date: str, title: str = "Test list", list_id: str = "rif-whr", **extra: object):  # type: ignore[no-untyped-def]
    return client.post(f"/v1/rating-lists/{list_id}/publications", json={"date": date, "title": title, **extra}, headers=AUTH)


def rows(client, number: int, **params: object) -> dict:  # type: ignore[no-untyped-def]
    answer = client.get(f"/v1/rating-lists/rif-whr/publications/{number}/ratings", params={"status": "all", **params})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_publication_is_numbered_stored_and_reads_the_same_whatever_changes_later(client):
    submit(client, long_tournament("T1", "2020-05-01"))
    first = publish(client, "2020-06-01", "RIF rating list, June 2020")
    assert first.status_code == 201, first.text
    assert first.headers["location"] == "/v1/rating-lists/rif-whr/publications/1"
    body = first.json()
    assert (body["number"], body["date"], body["previous_number"], body["published_by"], body["players"]) == (
        1,
        "2020-06-01",
        None,
        "tester",
        4,
    )
    page = client.get("/v1/rating-lists/rif-whr/publications/1/ratings", params={"status": "all"})
    assert page.status_code == 200 and page.headers["cache-control"].endswith("immutable")
    before = page.content
    items = page.json()["items"]
    assert [row["rank"] for row in items] == [1, 2, 3, 4]
    assert all(row["change"] is None and row["previous_rating"] is None for row in items)  # nothing to compare with
    assert client.get(page.request.url, headers={"If-None-Match": page.headers["etag"]}).status_code == 304

    # A correction, a new tournament, a renamed player, a recompute: the publication stays as it was.
    corrected = long_tournament("T1", "2020-05-01", results=RESULTS[::-1])
    assert client.put("/v1/tournaments/T1", json=corrected, headers=AUTH).status_code == 200
    submit(client, long_tournament("T2", "2021-03-01", [*PLAYERS[:3], {"id": "p5", "name": "New", "country": "LAT"}]))
    assert client.patch("/v1/players/p1", json={"name": "Renamed"}, headers=AUTH).status_code == 200
    assert client.post("/v1/rating-lists/rif-whr/recompute", headers=AUTH).status_code == 202
    run_pending_jobs()
    again = client.get("/v1/rating-lists/rif-whr/publications/1/ratings", params={"status": "all"})
    assert again.content == before

    # The live list: compared with publication 1.
    live = client.get("/v1/rating-lists/rif-whr/ratings", params={"status": "all", "limit": 500}).json()
    assert live["compared_with"] == {"number": 1, "date": "2020-06-01", "title": "RIF rating list, June 2020"}
    published = {row["player_id"]: row for row in items}
    by_id = {row["player_id"]: row for row in live["items"]}
    assert by_id["p5"]["change"] == "new" and by_id["p5"]["previous_rating"] is None
    for player_id in ("p1", "p2", "p3", "p4"):
        row = by_id[player_id]
        assert row["previous_rating"] == published[player_id]["rating"]
        assert row["previous_rank"] == published[player_id]["rank"]  # all of them were active on 1
        # The change as the list shows it (whole ratings, decision 145), the difference itself beside it.
        assert row["change_unrounded"] == row["rating"] - published[player_id]["rating"]
        assert row["change"] == round_half_away_from_zero(row["rating"]) - round_half_away_from_zero(
            published[player_id]["rating"]
        )

    # Publication 2 compares with 1, and the live list follows the latest publication.
    second = publish(client, "2021-06-01", "RIF rating list, June 2021")
    assert second.status_code == 201 and second.json()["number"] == 2 and second.json()["previous_number"] == 1
    two = {row["player_id"]: row for row in rows(client, 2)["items"]}
    assert two["p5"]["change"] == "new"
    assert two["p1"]["change_unrounded"] == two["p1"]["rating"] - published["p1"]["rating"]
    assert two["p1"]["change"] == round_half_away_from_zero(two["p1"]["rating"]) - round_half_away_from_zero(
        published["p1"]["rating"]
    )
    assert two["p1"]["name"] == "Renamed Soosõrv"
    live = client.get("/v1/rating-lists/rif-whr/ratings", params={"status": "all", "as_of": "2021-06-01"}).json()
    assert live["compared_with"]["number"] == 2
    # The same snapshot on the same day: 0, and no float noise either way (issue 47 item 6).
    assert all(row["change"] == 0 and row["change_unrounded"] == 0 for row in live["items"])
    listed = client.get("/v1/rating-lists/rif-whr/publications").json()
    assert [p["number"] for p in listed["items"]] == [2, 1] and listed["total"] == 2
    assert client.get("/v1/rating-lists/rif-whr/publications/2").json()["title"] == "RIF rating list, June 2021"
    audit = client.get("/v1/audit", params={"kind": "published"}, headers=AUTH).json()
    assert [r["actor"] for r in audit["items"]] == ["tester", "tester"]
    # A pinned snapshot is read as it was: no comparison.
    pinned = client.get("/v1/rating-lists/rif-whr/ratings", params={"snapshot_id": live["snapshot_id"], "status": "all"}).json()
    assert pinned["compared_with"] is None and all(row["change"] is None for row in pinned["items"])


def test_the_live_lists_etag_changes_with_a_publication(client):
    submit(client, long_tournament("T1", "2020-05-01"))
    first = client.get("/v1/rating-lists/rif-whr/ratings", params={"status": "all"})
    assert first.json()["compared_with"] is None
    assert client.get(first.request.url, headers={"If-None-Match": first.headers["etag"]}).status_code == 304
    assert publish(client, "2020-06-01").status_code == 201
    after = client.get(first.request.url, headers={"If-None-Match": first.headers["etag"]})
    assert after.status_code == 200 and after.json()["compared_with"]["number"] == 1
    assert all(row["change"] is not None for row in after.json()["items"])


def test_who_left_and_who_returned(client):
    submit(client, long_tournament("T1", "2015-05-01"))
    submit(client, long_tournament("T2", "2015-09-01", [{"id": "q1"}, {"id": "q2"}, {"id": "q3"}, {"id": "q4"}]))
    assert publish(client, "2016-01-01").status_code == 201
    assert client.request("DELETE", "/v1/tournaments/T2", params={"reason": "entered twice"}, headers=AUTH).status_code == 200
    run_pending_jobs()
    second = publish(client, "2021-01-01")  # more than five years after T1: its players became inactive
    assert second.status_code == 201, second.text
    left = {d["player_id"]: d for d in second.json()["left"]}
    assert {p: d["reason"] for p, d in left.items()} == {
        **{p: "became_inactive" for p in ("p1", "p2", "p3", "p4")},
        # Their only rated games were T2's, withdrawn since publication 1.
        **{q: "tournament_withdrawn" for q in ("q1", "q2", "q3", "q4")},
    }
    assert left["q1"]["tournaments"] == [{"tournament_id": "T2", "name": "Test Open", "withdrawn_reason": "entered twice"}]
    assert left["p1"]["tournaments"] == []
    assert left["q1"]["previous_status"] == "active" and left["q1"]["previous_rank"] >= 1
    submit(client, long_tournament("T3", "2021-02-01"))
    assert publish(client, "2021-03-01").status_code == 201
    third = rows(client, 3)["items"]
    assert {row["player_id"]: row["change"] for row in third} == {p: "returned" for p in ("p1", "p2", "p3", "p4")}
    assert all(row["previous_rating"] is not None for row in third)


def test_bad_publications_are_4xx_with_a_pointer_and_store_nothing(client):
    assert publish(client, "2020-06-01").status_code == 409  # never computed: nothing to publish
    submit(client, long_tournament("T1", "2020-05-01"))
    future = publish(client, str(dt.date.today() + dt.timedelta(days=2)))
    assert future.status_code == 422 and future.headers["content-type"] == "application/problem+json"
    assert future.json()["errors"][0]["pointer"] == "/date"
    other = client.get("/v1/rating-lists/rif-whr").json()["current_snapshot_id"]
    foreign = publish(client, "2020-06-01", list_id="rif-whr-gomoku", snapshot_id=other)
    assert foreign.status_code == 422 and foreign.json()["errors"][0]["pointer"] == "/snapshot_id"
    missing = publish(client, "2020-06-01", snapshot_id=999999)
    assert missing.status_code == 422 and missing.json()["errors"][0]["pointer"] == "/snapshot_id"
    assert publish(client, "2020-06-01", title="").json()["errors"][0]["pointer"] == "/title"
    assert client.post("/v1/rating-lists/rif-whr/publications", json={"date": "2020-06-01", "title": "x"}).status_code == 401
    unknown = client.get("/v1/rating-lists/rif-whr/publications/1")
    assert unknown.status_code == 404 and unknown.json()["errors"][0]["pointer"] == "path:number"
    assert client.get("/v1/rating-lists/rif-whr/publications/1/ratings").status_code == 404
    assert client.get("/v1/rating-lists/nope/publications").status_code == 404
    with db.session_scope() as session:
        assert session.scalar(select(func.count()).select_from(Publication)) == 0
        assert session.scalar(select(func.count()).select_from(Revision).where(Revision.kind == "published")) == 0
    assert publish(client, "2020-06-01").status_code == 201
    earlier = publish(client, "2020-05-31")
    assert earlier.status_code == 422 and earlier.json()["errors"][0]["pointer"] == "/date"


def test_the_schedule_is_a_setting_and_publishes_once_with_racing_workers(client):
    assert client.get("/v1/rating-lists/rif-elo").json()["publication_days"] == ["04-30", "08-31", "12-31"]
    bad = client.patch("/v1/rating-lists/rif-whr", json={"publication_days": ["02-30"]}, headers=AUTH)
    assert bad.status_code == 422 and bad.json()["errors"][0]["pointer"].startswith("/publication_days")
    changed = client.patch("/v1/rating-lists/rif-whr", json={"publication_days": ["12-31", "06-30"]}, headers=AUTH)
    assert changed.status_code == 200 and changed.json()["publication_days"] == ["06-30", "12-31"]
    submit(client, long_tournament("T1", "2020-05-01"))
    assert publications.publish_scheduled(on=dt.date(2020, 6, 29)) == []  # not yet
    assert publications.publish_scheduled(on=dt.date(2020, 8, 1)) == []  # too late to catch up

    barrier = threading.Barrier(4)
    made: list[list[tuple[str, int]]] = []

    def worker() -> None:
        barrier.wait()
        made.append(publications.publish_scheduled(on=dt.date(2020, 7, 2)))

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(made, key=len) == [[], [], [], [("rif-whr", 1)]]
    assert publications.publish_scheduled(on=dt.date(2020, 7, 3)) == []
    published = client.get("/v1/rating-lists/rif-whr/publications/1").json()
    assert (published["date"], published["scheduled_for"], published["published_by"]) == ("2020-06-30", "2020-06-30", "schedule")
    assert published["title"].endswith(", 30 June 2020")
    assert publications.publish_scheduled(on=dt.date(2020, 12, 31)) == [("rif-whr", 2)]


def test_verify_is_identical_until_a_stored_game_changes_behind_the_services_back(client, capsys):
    submit(client, long_tournament("T1", "2020-05-01"))
    submit(client, long_tournament("T2", "2020-05-01", [{"id": "q1"}, {"id": "q2"}, {"id": "q3"}, {"id": "q4"}]))
    snapshot = client.get("/v1/rating-lists/rif-whr/snapshots").json()["items"][0]
    assert snapshot["system"] == "rif-whr" and len(snapshot["inputs_digest"]) == 64 and snapshot["service_version"]
    assert (snapshot["tournaments"], snapshot["games"], snapshot["seeds"]) == (2, 48, 0)
    assert publish(client, "2020-06-01").status_code == 201
    assert cli(["verify", "rif-whr", "1"]) == 0
    out = capsys.readouterr().out
    assert "identical" in out and "inputs: unchanged" in out
    # The service's one version, the snapshot's and this one's (issue 47 item 6: it printed 0.1.0).
    assert f"computed by service {VERSION}), computed again by service {VERSION} from" in out
    # A tournament stored later is no input of the publication's snapshot: still identical.
    submit(client, long_tournament("T3", "2020-07-01"))
    assert cli(["verify", "rif-whr", "1"]) == 0, capsys.readouterr().out
    capsys.readouterr()

    with db.get_engine().begin() as connection:  # behind the service's back
        connection.execute(text("UPDATE games SET result = 'W' WHERE game_id = 'T1-g0'"))
    assert cli(["verify", "rif-whr", "1"]) == 1
    out = capsys.readouterr().out
    named = {line.split(":")[0].strip() for line in out.splitlines() if line.startswith("  ")}
    assert {"p1", "p2"} <= named <= {"p1", "p2", "p3", "p4"}, out
    assert "inputs: changed since" in out
    assert cli(["verify", "rif-whr", "7"]) == 2


def test_two_running_workers_publish_todays_scheduled_list_once(client):
    today = publications.today()
    if (today.month, today.day) == (2, 29):
        today -= dt.timedelta(days=1)  # not a day of every year: the nearest scheduled day before it
    day = f"{today:%m-%d}"
    assert client.patch("/v1/rating-lists/rif-whr", json={"publication_days": [day]}, headers=AUTH).status_code == 200
    submit(client, long_tournament("T1", "2020-05-01"))
    from app.worker import BackgroundWorker

    workers = [BackgroundWorker(poll_seconds=0.05) for _ in range(2)]
    for worker in workers:
        worker.start()
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and client.get("/v1/rating-lists/rif-whr/publications").json()["total"] == 0:
            time.sleep(0.1)
        time.sleep(0.5)  # a few more loops of both workers
    finally:
        for worker in workers:
            worker.stop()
    listed = client.get("/v1/rating-lists/rif-whr/publications").json()
    assert listed["total"] == 1, listed
    assert (listed["items"][0]["scheduled_for"], listed["items"][0]["published_by"]) == (str(today), "schedule")


def test_the_historical_elo_list_is_published_on_its_schedule_and_verifies(client, capsys):
    from tests.helpers import RIF_ELO_SEEDS, recompute_rif_elo, store_rif_elo_history

    store_rif_elo_history(client)
    assert client.put("/v1/rating-lists/rif-elo/seeds", json={"seeds": RIF_ELO_SEEDS}, headers=AUTH).status_code == 200
    recompute_rif_elo(client)
    # Text 000 #2: the list of 31 August 1998, published by the schedule a day late.
    assert publications.publish_scheduled(on=dt.date(1998, 9, 1)) == [("rif-elo", 1)]
    published = client.get("/v1/rating-lists/rif-elo/publications/1/ratings", params={"status": "all"}).json()
    as_of = client.get("/v1/rating-lists/rif-elo/ratings", params={"status": "all", "as_of": "1998-08-31"}).json()
    assert [(r["player_id"], r["rating"], r["status"]) for r in published["items"]] == [
        (r["player_id"], r["rating"], r["status"]) for r in as_of["items"]
    ]
    assert all(r["change"] == 0 for r in as_of["items"])  # the live list against publication 1, the same day
    assert cli(["verify", "rif-elo", "1"]) == 0, capsys.readouterr().out
