"""Withdrawals, restores and the audit trail: every change of a tournament or of a list's seeds,
parameters and settings is recorded with its key, time, summary and the whole version it replaced,
in the change's own transaction."""

import threading
import time

import httpx
import pytest

from app.recompute.jobs import run_pending_jobs
from tests.helpers import AUTH, RENJU_CN, tournament_body
from tests.live_server import running_server

OTHER = {"Authorization": "Bearer second-secret"}  # the key named "other" in the test environment


def _ratings(client) -> dict[str, float]:  # type: ignore[no-untyped-def]
    run_pending_jobs()
    page = client.get("/v1/rating-lists/rif-whr/ratings", params={"status": "all", "limit": 500}).json()
    return {row["player_id"]: row["rating"] for row in page["items"]}


def _second() -> dict:
    return tournament_body(
        "T2",
        start="2021-03-01",
        end="2021-03-02",
        players=[{"id": "p1"}, {"id": "p5"}],
        games=[{"black": "p1", "white": "p5", "result": "W"}, {"black": "p5", "white": "p1", "result": "B"}],
    )


def test_a_withdrawn_tournament_leaves_the_list_as_if_never_submitted_and_a_restore_brings_it_back(client):
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    without = _ratings(client)
    assert client.post("/v1/tournaments", json=_second(), headers=AUTH).status_code == 201
    with_both = _ratings(client)
    assert with_both != without and "p5" in with_both

    withdrawn = client.delete("/v1/tournaments/T2", params={"reason": "entered twice"}, headers=AUTH)
    assert withdrawn.status_code == 200, withdrawn.text
    whr = next(outcome for outcome in withdrawn.json()["lists"] if outcome["id"] == "rif-whr")
    assert whr["rated"] is False and "withdrawn: entered twice" in whr["reason"] and whr["job_id"] is not None
    assert _ratings(client) == without

    stored = client.get("/v1/tournaments/T2").json()
    assert stored["withdrawn_reason"] == "entered twice" and stored["withdrawn_at"] is not None
    assert stored["games_count"] == 2
    again = client.delete("/v1/tournaments/T2", params={"reason": "twice"}, headers=AUTH)
    assert again.status_code == 409 and again.headers["content-type"].startswith("application/problem+json")

    restored = client.post("/v1/tournaments/T2/restore", headers=AUTH)
    assert restored.status_code == 200 and restored.json()["withdrawn_at"] is None
    assert _ratings(client) == with_both
    assert client.post("/v1/tournaments/T2/restore", headers=AUTH).status_code == 409


@pytest.mark.parametrize(
    ("method", "path", "params"),
    [
        ("DELETE", "/v1/tournaments/T9", {"reason": "x"}),
        ("DELETE", "/v1/tournaments/T1", {}),
        ("DELETE", "/v1/tournaments/T1", {"reason": ""}),
        ("POST", "/v1/tournaments/T9/restore", {}),
        ("GET", "/v1/tournaments/T9/revisions", {}),
        ("GET", "/v1/tournaments/T1/revisions/3", {}),
        ("GET", "/v1/tournaments/T1/revisions/0", {}),
        ("GET", "/v1/audit", {"kind": "deleted"}),
        ("GET", "/v1/audit", {"from": "0001-01-01"}),
    ],
)
def test_bad_withdrawals_and_reads_are_problems_and_change_nothing(client, method, path, params):
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    response = client.request(method, path, params=params, headers=AUTH)
    assert 400 <= response.status_code < 500, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert client.get("/v1/tournaments/T1").json()["withdrawn_at"] is None
    assert client.get("/v1/tournaments/T1/revisions").json()["total"] == 1


def test_writes_need_a_key(client):
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    assert client.delete("/v1/tournaments/T1", params={"reason": "x"}).status_code == 401
    assert client.post("/v1/tournaments/T1/restore").status_code == 401
    assert client.get("/v1/audit").status_code == 401


def test_every_version_of_a_tournament_can_be_read_back_whole_and_put_back(client):
    original = tournament_body()
    assert client.post("/v1/tournaments", json=original, headers=AUTH).status_code == 201
    stored_first = client.get("/v1/tournaments/T1").json()
    corrected = {
        **original,
        "name": "Corrected name",
        "games": [*original["games"][:-1], {**original["games"][-1], "result": "D"}],
    }
    assert client.put("/v1/tournaments/T1", json=corrected, headers=OTHER).status_code == 200
    assert client.delete("/v1/tournaments/T1", params={"reason": "wrong event"}, headers=AUTH).status_code == 200

    revisions = client.get("/v1/tournaments/T1/revisions").json()
    assert [(r["number"], r["kind"], r["actor"]) for r in revisions["items"]] == [
        (1, "submitted", "tester"),
        (2, "corrected", "other"),
        (3, "withdrawn", "tester"),
    ]
    summary = revisions["items"][1]["summary"]
    assert "name 'Test Open' → 'Corrected name'" in summary and "0 added, 0 removed, 1 with another result" in summary
    assert revisions["items"][2]["summary"] == "withdrawn: wrong event"

    first = client.get("/v1/tournaments/T1/revisions/1").json()
    assert first["previous"] is None
    before_correction = client.get("/v1/tournaments/T1/revisions/2").json()["previous"]
    assert before_correction["name"] == original["name"] and before_correction["withdrawn"] is None
    assert [g["result"] for g in before_correction["games"]] == [g["result"] for g in original["games"]]
    before_withdrawal = client.get("/v1/tournaments/T1/revisions/3").json()["previous"]
    assert before_withdrawal["name"] == "Corrected name"

    # The first version, sent back as a correction, is stored as it was (the withdrawal stays).
    body = {key: value for key, value in before_correction.items() if key != "withdrawn"}
    assert client.put("/v1/tournaments/T1", json=body, headers=AUTH).status_code == 200
    again = client.get("/v1/tournaments/T1").json()
    for key in ("name", "start", "end", "rule", "games_count"):
        assert again[key] == stored_first[key]
    assert [(g["black"], g["white"], g["result"]) for g in again["games"]] == [
        (g["black"], g["white"], g["result"]) for g in stored_first["games"]
    ]
    assert again["withdrawn_reason"] == "wrong event"


def test_the_audit_trail_filters_by_key_list_kind_and_days(client):
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    assert client.patch("/v1/rating-lists/rif-whr/params", json={"w2": 14.0}, headers=OTHER).status_code == 200
    assert client.patch("/v1/rating-lists/rif-whr", json={"auto_recompute": False}, headers=AUTH).status_code == 200
    seeds = {"seeds": [{"player_id": "p1", "rating": 2100, "as_of": "2019-01-01", "status": "established"}]}
    assert client.put("/v1/rating-lists/rif-elo/seeds", json=seeds, headers=OTHER).status_code == 200

    everything = client.get("/v1/audit", headers=AUTH).json()
    # The submission created its four players: each creation is their first revision (decisions 108).
    assert [r["kind"] for r in everything["items"]] == [
        "seeds_changed",
        "settings_changed",
        "params_changed",
        "submitted",
        *["player_created"] * 4,
    ]
    by_other = client.get("/v1/audit", params={"key": "other"}, headers=AUTH).json()
    assert [r["kind"] for r in by_other["items"]] == ["seeds_changed", "params_changed"]
    whr = client.get("/v1/audit", params={"list": "rif-whr"}, headers=AUTH).json()
    assert [r["summary"] for r in whr["items"]] == ["settings: auto_recompute True → False", "params: w2 12.9 → 14.0"]
    assert client.get("/v1/audit", params={"kind": "submitted"}, headers=AUTH).json()["total"] == 1
    today = everything["items"][0]["at"][:10]
    assert client.get("/v1/audit", params={"from": today, "to": today}, headers=AUTH).json()["total"] == 8
    assert client.get("/v1/audit", params={"to": "2020-01-01"}, headers=AUTH).json()["total"] == 0
    page = client.get("/v1/audit", params={"limit": 1, "offset": 1}, headers=AUTH).json()
    assert page["total"] == 8 and [r["kind"] for r in page["items"]] == ["settings_changed"]
    assert "1 added" in everything["items"][0]["summary"]


def test_a_refused_change_records_no_revision(client):
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    bad = {**tournament_body(), "end": "2019-12-31"}  # ends before it starts
    assert client.put("/v1/tournaments/T1", json=bad, headers=AUTH).status_code == 422
    assert client.patch("/v1/rating-lists/rif-whr/params", json={"w2": -1}, headers=AUTH).status_code == 422
    assert client.get("/v1/audit", params={"kind": "submitted"}, headers=AUTH).json()["total"] == 1
    assert client.get("/v1/audit", headers=AUTH).json()["total"] == 1 + 4  # and its players' creations


@pytest.mark.slow
def test_the_importer_records_revisions_and_leaves_the_lists_computed(tmp_path):
    """The README's import: no other command, and the WHR list is computed; the importer's changes
    are in the trail under its own name."""
    import subprocess
    import sys

    from tests.live_server import ROOT

    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "import", "--no-progress", str(RENJU_CN)], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "recomputes queued:  rif-whr" in done.stdout
    with running_server() as server:
        whr = httpx.get(f"{server.url}/v1/rating-lists/rif-whr").json()
        assert whr["current_snapshot_id"] is not None
        trail = httpx.get(f"{server.url}/v1/audit", params={"key": "import", "limit": 1}, headers=AUTH).json()
        assert trail["items"][0]["kind"] == "submitted"
        kinds = {
            kind: httpx.get(f"{server.url}/v1/audit", params={"key": "import", "kind": kind}, headers=AUTH).json()["total"]
            for kind in ("submitted", "player_created")
        }
        players = httpx.get(f"{server.url}/v1/players", params={"limit": 1}).json()["total"]
        assert kinds == {"submitted": 59, "player_created": players} and trail["total"] == 59 + players


@pytest.mark.slow
def test_a_correction_and_a_withdrawal_at_once_while_a_recompute_runs_through_a_live_server():
    """Both are refused or applied whole, never a 5xx; the trail records each in the order they
    committed, and each revision keeps the version the other left."""
    with (
        running_server(RUN_WORKER="true", WORKER_POLL_SECONDS="0.1") as server,
        httpx.Client(base_url=server.url, timeout=30) as http,
    ):
        assert http.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
        corrected = {**tournament_body(), "name": "Renamed"}
        answers: dict[str, int] = {}
        start = threading.Barrier(2)

        def correct() -> None:
            start.wait()
            answers["correct"] = http.put("/v1/tournaments/T1", json=corrected, headers=AUTH).status_code

        def withdraw() -> None:
            start.wait()
            answers["withdraw"] = http.delete("/v1/tournaments/T1", params={"reason": "duplicate"}, headers=OTHER).status_code

        threads = [threading.Thread(target=correct), threading.Thread(target=withdraw)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert answers == {"correct": 200, "withdraw": 200}
        revisions = http.get("/v1/tournaments/T1/revisions").json()["items"]
        assert [r["number"] for r in revisions] == [1, 2, 3]
        second, third = revisions[1], revisions[2]
        previous_of_third = http.get(f"/v1/tournaments/T1/revisions/{third['number']}").json()["previous"]
        if second["kind"] == "corrected":
            assert previous_of_third["name"] == "Renamed" and previous_of_third["withdrawn"] is None
        else:
            assert previous_of_third["withdrawn"]["reason"] == "duplicate"
        final = http.get("/v1/tournaments/T1").json()
        assert final["name"] == "Renamed" and final["withdrawn_reason"] == "duplicate"
        deadline = time.monotonic() + 30
        while http.get("/v1/jobs", params={"status": "queued"}).json()["total"]:
            assert time.monotonic() < deadline
            time.sleep(0.1)


def test_the_tournament_page_says_it_was_withdrawn_and_why(client):
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    assert "Withdrawn" not in client.get("/tournaments/T1").text
    assert (
        client.delete("/v1/tournaments/T1", params={"reason": "played online, not face-to-face"}, headers=AUTH).status_code == 200
    )
    page = client.get("/tournaments/T1")
    assert page.status_code == 200
    assert "<strong>Withdrawn</strong>" in page.text and "played online, not face-to-face" in page.text
