"""A publication's rows carry WHR's deviation (issue 46 item 1): each row's, read from the snapshot
it was published from on its day, equal to the snapshot's own (its stored line on the snapshot's
list date, its history on an earlier day); null under the systems without deviations."""

import datetime as dt

from sqlalchemy import select

from app import db
from app.models import RatingEntry
from tests.helpers import AUTH, recompute_now, tournament_body

EARLIER = "2020-12-31"


def published_rows(client, number: int) -> dict[str, dict]:  # type: ignore[no-untyped-def]
    answer = client.get(f"/v1/rating-lists/rif-whr/publications/{number}/ratings", params={"status": "all"})
    assert answer.status_code == 200, answer.text
    return {row["player_id"]: row for row in answer.json()["items"]}


def test_publication_rows_carry_the_snapshots_deviation(client):
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    recompute_now(client)
    listed = client.get("/v1/rating-lists/rif-whr").json()
    snapshot = client.get(f"/v1/rating-lists/rif-whr/snapshots/{listed['current_snapshot_id']}").json()
    for day, title in ((EARLIER, "2020"), (snapshot["list_date"], "today")):
        answer = client.post("/v1/rating-lists/rif-whr/publications", json={"date": day, "title": title}, headers=AUTH)
        assert answer.status_code == 201, answer.text
    # On the snapshot's list date: its stored lines.
    with db.get_sessionmaker()() as session:
        stored = {
            player_id: deviation
            for player_id, deviation in session.execute(
                select(RatingEntry.player_id, RatingEntry.deviation).where(RatingEntry.snapshot_id == snapshot["id"])
            )
        }
    today = published_rows(client, 2)
    assert set(today) == set(stored) == {"p1", "p2", "p3", "p4"}
    assert {pid: row["deviation"] for pid, row in today.items()} == stored
    assert all(deviation is not None and deviation > 0 for deviation in stored.values())
    # On an earlier day: the snapshot's history on that day, as the live list reads it as of then.
    as_of = client.get("/v1/rating-lists/rif-whr/ratings", params={"status": "all", "as_of": EARLIER}).json()["items"]
    earlier = published_rows(client, 1)
    assert {pid: row["deviation"] for pid, row in earlier.items()} == {row["player_id"]: row["deviation"] for row in as_of}
    assert dt.date.fromisoformat(EARLIER) < dt.date.fromisoformat(snapshot["list_date"])
