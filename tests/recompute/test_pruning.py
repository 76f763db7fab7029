"""Nothing grows without bound (issue 22 item 5): the worker prunes a list's old snapshots, keeping
its latest ones, its current one and every published one."""

from sqlalchemy import func, select

from app import db
from app.cli import main as cli
from app.models import Job, RatingEntry, RatingSnapshot
from app.recompute.jobs import run_pending_jobs
from app.recompute.pruning import prune_snapshots
from app.settings import get_settings
from app.worker import work_once
from tests.helpers import AUTH, go_body, tournament_body


def submit(client, number: int) -> None:  # type: ignore[no-untyped-def]
    start = f"20{10 + number // 12:02d}-{number % 12 + 1:02d}-01"
    games = [{k: v for k, v in game.items() if k != "date"} for game in tournament_body()["games"]]
    body = tournament_body(f"T{number}", start=start, end=start, games=games)
    assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201
    run_pending_jobs()  # rif-whr recomputes itself: one snapshot per submission here


def snapshot_ids() -> list[int]:
    with db.session_scope() as session:
        return list(
            session.scalars(select(RatingSnapshot.id).where(RatingSnapshot.list_id == "rif-whr").order_by(RatingSnapshot.id))
        )


def test_old_snapshots_are_pruned_but_the_current_latest_and_published_ones_stay(client):
    for number in range(2):
        submit(client, number)
    published = client.post(
        "/v1/rating-lists/rif-whr/publications", json={"date": "2011-01-01", "title": "Early"}, headers=AUTH
    ).json()
    page = client.get("/v1/rating-lists/rif-whr/publications/1/ratings", params={"status": "all"}).content
    for number in range(2, 8):
        submit(client, number)
    every = snapshot_ids()
    assert len(every) == 8
    assert prune_snapshots(keep=3) == {"rif-whr": 4}
    assert snapshot_ids() == sorted({published["snapshot_id"], *every[-3:]})
    assert prune_snapshots(keep=3) == {}
    assert client.get("/v1/rating-lists/rif-whr/publications/1/ratings", params={"status": "all"}).content == page
    assert cli(["verify", "rif-whr", "1"]) == 0
    assert client.get("/v1/rating-lists/rif-whr/ratings", params={"snapshot_id": every[2]}).status_code == 404
    assert client.get("/v1/rating-lists/rif-whr/ratings", params={"snapshot_id": every[-1]}).status_code == 200
    with db.session_scope() as session:
        entries = session.scalar(select(func.count()).select_from(RatingEntry).where(RatingEntry.snapshot_id.in_(every)))
    assert entries == 4 * 4  # four players in each snapshot kept, none of the pruned ones' rows


def test_many_submissions_leave_as_many_snapshots_as_the_setting_implies(client):
    counts = []
    for number in range(30):
        submit(client, number)
        prune_snapshots(keep=5)  # what the worker's loop does after each job
        counts.append(len(snapshot_ids()))
    assert counts[:5] == [1, 2, 3, 4, 5] and set(counts[5:]) == {5}
    with db.session_scope() as session:
        assert session.scalar(select(func.count()).select_from(RatingEntry)) == 5 * 4


def test_the_worker_prunes_between_jobs_while_others_are_still_queued(client, monkeypatch):
    """Issue 48: under steady submissions the queue is never empty; a worker that pruned only once it
    was let the snapshots pile up. A round runs one job, then publishes and prunes."""
    for number in range(4):
        submit(client, number)
    monkeypatch.setattr(get_settings(), "keep_snapshots", 2)
    assert (
        client.post(
            "/v1/tournaments",
            json=tournament_body(
                "T9",
                start="2019-01-01",
                end="2019-01-01",
                games=[{k: v for k, v in game.items() if k != "date"} for game in tournament_body()["games"]],
            ),
            headers=AUTH,
        ).status_code
        == 201
    )
    go = go_body()  # a second list's job (the Go list), its players of their own
    go["players"] = [{**player, "id": f"go-{player['id']}"} for player in go["players"]]
    go["games"] = [{**game, "black": f"go-{game['black']}", "white": f"go-{game['white']}"} for game in go["games"]]
    assert client.post("/v1/tournaments", json=go, headers=AUTH).status_code == 201
    with db.session_scope() as session:
        assert session.scalar(select(func.count()).select_from(Job).where(Job.status == "queued")) == 2

    assert work_once("test-worker") is True
    with db.session_scope() as session:
        assert session.scalar(select(func.count()).select_from(Job).where(Job.status == "queued")) == 1
    assert len(snapshot_ids()) == 2  # pruned after the first job, the other still queued
    assert work_once("test-worker") is True and work_once("test-worker") is False
