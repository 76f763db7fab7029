"""The reads of a list as of a date and of a snapshot's archives, as the large history needs them
fast (issue 27 item 6): a page ranked without sorting every player, archives read in one copy."""

import numpy as np
import pytest
from sqlalchemy import select

from app import db
from app.models import RatingSnapshot
from app.recompute import jobs
from app.services.rating_lists import _best_first
from app.snapshots import snapshot_changes, stored_columns, timelines
from tests.helpers import AUTH, cli_import_renju_cn, recompute_now, tournament_body
from tests.helpers import ratings as ratings_of


@pytest.mark.parametrize("count", [0, 1, 7, 50, 199, 200, 260])
def test_a_pages_rows_are_those_a_full_stable_sort_puts_first(count):
    values = np.random.default_rng(count).integers(0, 12, 200).astype(np.float64)  # many equal values
    values[::17] = np.nan  # no rating: last, as a sort puts them
    values[::23] = -0.0
    expected = np.lexsort((np.arange(len(values)), values))[:count]
    assert _best_first(values, count).tolist() == expected.tolist()


def test_equal_ratings_on_a_date_are_paged_by_player_id_across_page_ends(client):
    # Six players in three drawn pairs of one tournament: one rating for all six on its last day.
    ids = ["b", "B", "a1", "A", "a.x", "Z9"]
    players = [{"id": player_id, "name": "N", "surname": player_id} for player_id in ids]
    games = [{"id": f"g{i}", "round": "1", "black": ids[2 * i], "white": ids[2 * i + 1], "result": "D"} for i in range(3)]
    created = client.post("/v1/tournaments", json=tournament_body(players=players, games=games), headers=AUTH)
    assert created.status_code == 201, created.text
    recompute_now(client)
    params = {"status": "all", "as_of": "2020-05-03"}
    whole = client.get("/v1/rating-lists/rif-whr/ratings", params=params).json()["items"]
    assert len({row["rating"] for row in whole}) == 1
    assert [row["player_id"] for row in whole] == sorted(ids)  # by code point: "A" < "B" < "Z9" < "a.x" < "a1" < "b"
    for limit in (1, 2, 4):
        paged = [
            row
            for offset in range(0, len(ids), limit)
            for row in client.get("/v1/rating-lists/rif-whr/ratings", params={**params, "limit": limit, "offset": offset}).json()[
                "items"
            ]
        ]
        assert paged == whole


def test_a_snapshots_archives_read_as_stored(client):
    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    snapshot_id = recompute_now(client)["snapshot_id"]
    with db.session_scope() as session:
        for column in (RatingSnapshot.point_columns, RatingSnapshot.change_columns):
            stored = session.scalar(select(column).where(RatingSnapshot.id == snapshot_id))
            archive = stored_columns.Archive.stored(session, column, snapshot_id)
            assert stored and archive is not None
            wanted = stored_columns.unpack(stored)
            assert archive.names == list(wanted)
            for name, values in wanted.items():
                assert str(archive.column(session, name).tolist()) == str(values.tolist()), name  # (NaN too)
            assert stored_columns.Archive.stored(session, column, snapshot_id + 1000) is None
        session.get(RatingSnapshot, snapshot_id).change_columns = None  # type: ignore[union-attr]
        session.flush()  # (read through this session: its own transaction's row)
        assert stored_columns.Archive.stored(session, RatingSnapshot.change_columns, snapshot_id) is None


@pytest.mark.slow
def test_reads_of_archives_read_member_by_member_answer_as_whole_ones(client, monkeypatch):
    cli_import_renju_cn()  # 59 real tournaments: players with many points and changes
    recompute_now(client)
    rows = client.get("/v1/rating-lists/rif-whr/ratings", params={"status": "all", "limit": 500}).json()["items"]
    players = [row["player_id"] for row in rows[:: max(1, len(rows) // 6)]]
    tournaments = [item["id"] for item in client.get("/v1/tournaments", params={"limit": 500}).json()["items"]][::10]
    paths = [
        "/v1/rating-lists/rif-whr/ratings?status=all&limit=50&as_of=2015-06-30",
        "/v1/rating-lists/rif-whr/ratings?status=all&limit=50&offset=20&as_of=2019-01-01",
        *[f"/v1/players/{player}/history?list=rif-whr" for player in players],
        *[f"/players/{player}" for player in players],
        *[f"/tournaments/{tournament}" for tournament in tournaments],
    ]

    def answers() -> list[str]:
        timelines.forget_all()
        snapshot_changes.forget_all()
        answered = [client.get(path) for _ in range(3) for path in paths]  # (members read in part, then whole)
        assert {answer.status_code for answer in answered} == {200}
        return [answer.text for answer in answered]

    whole = answers()
    monkeypatch.setattr(stored_columns, "_READ_WHOLE_BELOW", 0)  # these small archives read as large ones are
    assert answers() == whole


def test_what_a_process_keeps_of_a_snapshot_holds_no_readers_session(client):
    """A timeline and a table of changes are kept per process and shared by every reader, each
    reader given a copy bound to his own session: the kept ones hold none (the first reader's would
    be read through after his request ended, from another thread)."""
    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    snapshot_id = recompute_now(client)["snapshot_id"]
    timelines.forget_all()
    snapshot_changes.forget_all()
    with db.session_scope() as session:
        snapshot = session.get(RatingSnapshot, snapshot_id)
        assert snapshot is not None
        assert timelines.timeline_of(session, snapshot).session is session
        assert snapshot_changes.changes_of(session, snapshot).session is session
        assert timelines._timelines.of(session, snapshot).session is None
        assert snapshot_changes._tables.of(session, snapshot).session is None


@pytest.mark.slow
def test_a_recompute_in_a_serving_process_leaves_its_snapshot_read_for_the_first_readers(client, monkeypatch):
    """The worker thread of an API process reads the new snapshot's timeline and its changes' codes
    before committing it: the first reads after the recompute read no archive again and answer as
    reads from storage do. A worker that serves no reads (its own process) keeps nothing."""
    monkeypatch.setattr(stored_columns, "_READ_WHOLE_BELOW", 0)  # read member by member, as a large history's are
    cli_import_renju_cn()
    players = list(ratings_of(client))[::40]
    tournaments = [item["id"] for item in client.get("/v1/tournaments", params={"limit": 500}).json()["items"]][::15]
    paths = [
        "/v1/rating-lists/rif-whr/ratings?status=all&limit=50&as_of=2016-06-30",
        *[f"/players/{player}" for player in players],
        *[f"/tournaments/{tournament}" for tournament in tournaments],
    ]
    assert client.post("/v1/rating-lists/rif-whr/recompute", headers=AUTH).status_code == 202
    jobs.run_pending_jobs()
    assert not timelines._timelines._kept and not snapshot_changes._tables._kept  # (a worker process's)

    timelines.forget_all()
    snapshot_changes.forget_all()
    assert client.post("/v1/rating-lists/rif-whr/recompute", headers=AUTH).status_code == 202
    jobs.run_pending_jobs(serves_readers=True)
    with db.session_scope() as session:
        current = session.get(RatingSnapshot, client.get("/v1/rating-lists/rif-whr").json()["current_snapshot_id"])
        assert current is not None
        assert (current.id, current.created_at) in timelines._timelines._kept
        assert (current.id, current.created_at) in snapshot_changes._tables._kept

    def never(*_: object) -> None:
        raise AssertionError("read again")

    with monkeypatch.context() as patched:
        patched.setattr(timelines._timelines, "_read", never)
        patched.setattr(snapshot_changes._tables, "_read", never)
        patched.setattr(stored_columns._StoredBlob, "open", never)  # (a list as of a date reads no member)
        as_of = client.get(paths[0])
        assert as_of.status_code == 200
    with monkeypatch.context() as patched:
        patched.setattr(timelines._timelines, "_read", never)
        patched.setattr(snapshot_changes._tables, "_read", never)
        prepared = [as_of.text, *[client.get(path).text for path in paths[1:]]]
    timelines.forget_all()
    snapshot_changes.forget_all()
    assert [client.get(path).text for path in paths] == prepared


def test_a_snapshot_whose_archives_cannot_be_read_is_not_made_current(client, monkeypatch):
    """The readers' reads of the new snapshot run in the job's transaction: when they fail, the job
    fails, the list keeps its snapshot and the process keeps nothing of the new one."""
    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    before = recompute_now(client)["snapshot_id"]
    timelines.forget_all()
    snapshot_changes.forget_all()

    def unreadable(*_: object) -> None:
        raise ValueError("unreadable archive")

    monkeypatch.setattr(snapshot_changes, "prepared", unreadable)
    accepted = client.post("/v1/rating-lists/rif-whr/recompute", headers=AUTH).json()
    jobs.run_pending_jobs(serves_readers=True)
    assert client.get(f"/v1/jobs/{accepted['job_id']}").json()["status"] == "failed"
    assert client.get("/v1/rating-lists/rif-whr").json()["current_snapshot_id"] == before
    assert not timelines._timelines._kept and not snapshot_changes._tables._kept
