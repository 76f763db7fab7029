"""An API process without a worker (a replica beside a worker process) reads a list's new snapshot,
written by another process, before its readers ask (app.snapshots.snapshot_preparation, decision 99):
the snapshots current when it starts are left to the warm-up, a changed one is read once and kept,
and what is kept answers as what a reader would have read."""

import time

import httpx
import pytest

from app import db, metrics
from app.models import RatingSnapshot
from app.snapshots import snapshot_changes, snapshot_preparation, timelines
from tests.helpers import AUTH, cli_import_renju_cn, metric_sum, recompute_now, tournament_body
from tests.live_server import running_server

pytestmark = pytest.mark.slow


def test_a_snapshot_another_process_wrote_is_read_at_the_next_look_and_kept_once(client):
    cli_import_renju_cn()
    first = recompute_now(client)["snapshot_id"]  # run here as by a worker process: nothing kept
    seen = snapshot_preparation.prepare_new_snapshots(None)
    assert seen["rif-whr"] == first
    assert not _kept(first)  # the first look only notes what is current
    assert snapshot_preparation.prepare_new_snapshots(seen) == seen and not _kept(first)

    assert client.post("/v1/tournaments", json=tournament_body("NEW"), headers=AUTH).status_code == 201
    second = recompute_now(client)["snapshot_id"]
    before = _prepared_here("rif-whr")
    seen = snapshot_preparation.prepare_new_snapshots(seen)
    assert seen["rif-whr"] == second and _kept(second) and not _kept(first)
    assert _prepared_here("rif-whr") == before + 1
    assert snapshot_preparation.prepare_new_snapshots(seen) == seen and _prepared_here("rif-whr") == before + 1

    # What readers now get from the kept timeline and changes is what a process reading them itself gets.
    from_kept = _player_reads(client)
    timelines.forget_all()
    snapshot_changes.forget_all()
    assert _player_reads(client) == from_kept and from_kept[0]["points"] and from_kept[1]


def test_a_replica_reads_a_new_snapshot_of_the_worker_process_before_its_readers(client):
    cli_import_renju_cn()
    recompute_now(client)
    with running_server(SNAPSHOT_WATCH_SECONDS="0.2") as replica:
        assert _prepared_by(replica.url, "rif-whr") == 0  # what it started with is the warm-up's
        assert client.post("/v1/tournaments", json=tournament_body("NEW"), headers=AUTH).status_code == 201
        recompute_now(client)  # by this process: the replica learns of it from the database alone
        deadline = time.monotonic() + 20
        while _prepared_by(replica.url, "rif-whr") < 1 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _prepared_by(replica.url, "rif-whr") == 1
        player = _top_player(client)
        history = httpx.get(f"{replica.url}/v1/players/{player}/history", params={"list": "rif-whr"}, timeout=10)
        assert history.status_code == 200
        assert history.json() == client.get(f"/v1/players/{player}/history", params={"list": "rif-whr"}).json()


def _kept(snapshot_id: int) -> bool:
    with db.session_scope() as session:
        snapshot = session.get(RatingSnapshot, snapshot_id)
        assert snapshot is not None
        return timelines.is_kept(snapshot) and snapshot_changes.is_kept(snapshot)


def _prepared_here(list_id: str) -> float:
    return metrics.REGISTRY.get_sample_value("rating_snapshot_preparation_seconds_count", {"list": list_id}) or 0.0


def _prepared_by(url: str, list_id: str) -> float:
    return metric_sum(url, "rating_snapshot_preparation_seconds_count", list=list_id)


def _top_player(client) -> str:  # type: ignore[no-untyped-def]
    return client.get("/v1/rating-lists/rif-whr/ratings", params={"limit": 1, "status": "all"}).json()["items"][0]["player_id"]


def _player_reads(client) -> tuple[dict, str]:  # type: ignore[no-untyped-def]
    player = _top_player(client)
    history = client.get(f"/v1/players/{player}/history", params={"list": "rif-whr"})
    page = client.get(f"/players/{player}")
    assert history.status_code == page.status_code == 200
    return history.json(), page.text
