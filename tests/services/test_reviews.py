"""Review when a list wants it (issue 23 item 6, docs/decisions.md 7.29–7.31): a list that requires
an officer's confirmation rates a submitted tournament only once one of its officers confirmed it;
through HTTP, on the suite's database (SQLite, or PostgreSQL when DATABASE_URL names it)."""

from fastapi.testclient import TestClient

from app import db
from app.services import api_keys
from tests.helpers import AUTH, ratings, recompute_now, tournament_body

CONFIRM = {"decision": "confirm", "reason": "crosstable checked against the organiser's report"}
REJECT = {"decision": "reject", "reason": "not an open tournament"}


def _require_review(client: TestClient, list_id: str = "rif-whr") -> None:
    changed = client.patch(f"/v1/rating-lists/{list_id}", json={"requires_review": True}, headers=AUTH)
    assert changed.status_code == 200 and changed.json()["requires_review"] is True


def _whr(response) -> dict:  # type: ignore[no-untyped-def]
    assert response.is_success, response.text
    return next(rating for rating in response.json()["lists"] if rating["id"] == "rif-whr")


def _run_jobs(client: TestClient) -> None:
    from app.recompute.jobs import run_pending_jobs

    while run_pending_jobs():
        pass


def test_a_submission_waits_for_the_officer_and_counts_once_confirmed(client: TestClient) -> None:
    _require_review(client)
    whr = _whr(client.post("/v1/tournaments", json=tournament_body("T1"), headers=AUTH))
    assert whr["review"] == "pending" and whr["rated"] is False and whr["job_id"] is None
    assert "not confirmed it yet" in whr["reason"]
    recompute_now(client)
    assert ratings(client) == {}, "a pending tournament is not rated"

    pending = client.get("/v1/rating-lists/rif-whr/reviews", params={"status": "pending"}).json()
    assert [(r["tournament_id"], r["status"], r["decided_by"]) for r in pending["items"]] == [("T1", "pending", None)]

    confirmed = client.post("/v1/rating-lists/rif-whr/reviews/T1", json=CONFIRM, headers=AUTH)
    assert confirmed.status_code == 200, confirmed.text
    decision = confirmed.json()
    assert decision["status"] == "confirmed" and decision["decided_by"] == "tester" and decision["reason"] == CONFIRM["reason"]
    assert client.get(f"/v1/jobs/{decision['job_id']}").json()["status"] == "queued", "a confirmation queues the recompute"
    _run_jobs(client)
    assert set(ratings(client)) == {"p1", "p2", "p3", "p4"}
    assert client.get("/v1/rating-lists/rif-whr/reviews", params={"status": "pending"}).json()["total"] == 0

    revisions = client.get("/v1/tournaments/T1/revisions").json()["items"]
    assert [(r["kind"], r["list_id"]) for r in revisions] == [("submitted", None), ("confirmed", "rif-whr")]
    assert "awaiting review by rif-whr" in revisions[0]["summary"]
    kept = client.get("/v1/tournaments/T1/revisions/2").json()["previous"]
    assert kept["reviews"] == {"rif-whr": "pending"}, "the revision keeps the review it replaced"
    assert client.post("/v1/rating-lists/rif-whr/reviews/T1", json=CONFIRM, headers=AUTH).status_code == 409


def test_a_correction_of_a_confirmed_tournament_waits_for_the_officer_again(client: TestClient) -> None:
    _require_review(client)
    client.post("/v1/tournaments", json=tournament_body("T1"), headers=AUTH)
    client.post("/v1/rating-lists/rif-whr/reviews/T1", json=CONFIRM, headers=AUTH)
    _run_jobs(client)
    assert set(ratings(client)) == {"p1", "p2", "p3", "p4"}

    corrected = _whr(client.put("/v1/tournaments/T1", json=tournament_body("T1", name="Corrected Open"), headers=AUTH))
    assert corrected["review"] == "pending" and corrected["rated"] is False
    assert corrected["job_id"] is not None, "the list that rated it queues a recompute that drops it"
    _run_jobs(client)
    assert ratings(client) == {}

    rejected = client.post("/v1/rating-lists/rif-whr/reviews/T1", json=REJECT, headers=AUTH).json()
    assert rejected["status"] == "rejected" and rejected["job_id"] is None, "rejecting a pending one changes no rating"
    assert client.get("/v1/rating-lists/rif-whr/reviews", params={"status": "rejected"}).json()["total"] == 1
    assert _whr(client.put("/v1/tournaments/T1", json=tournament_body("T1"), headers=AUTH))["review"] == "pending"
    assert client.get("/v1/rating-lists/rif-whr/reviews").json()["items"][0]["status"] == "pending"


def test_a_confirmed_tournament_rejected_later_leaves_the_list(client: TestClient) -> None:
    _require_review(client)
    client.post("/v1/tournaments", json=tournament_body("T1"), headers=AUTH)
    client.post("/v1/rating-lists/rif-whr/reviews/T1", json=CONFIRM, headers=AUTH)
    _run_jobs(client)
    rejected = client.post("/v1/rating-lists/rif-whr/reviews/T1", json=REJECT, headers=AUTH).json()
    assert rejected["status"] == "rejected" and rejected["job_id"] is not None
    _run_jobs(client)
    assert ratings(client) == {}
    read = client.get("/v1/tournaments/T1").json()
    assert read["rating_changes"] == []
    audit = client.get("/v1/audit", params={"kind": "rejected"}, headers=AUTH).json()["items"]
    assert [(r["subject_id"], r["list_id"], r["actor"]) for r in audit] == [("T1", "rif-whr", "tester")]
    assert "rejected for the list rif-whr (was confirmed): not an open tournament" == audit[0]["summary"]


def test_a_tournament_stored_before_the_list_required_reviews_is_still_rated(client: TestClient) -> None:
    client.post("/v1/tournaments", json=tournament_body("OLD"), headers=AUTH)
    _require_review(client)
    other = tournament_body("NEW", start="2021-01-01", end="2021-01-01", games=[{"black": "p1", "white": "p4", "result": "B"}])
    assert _whr(client.post("/v1/tournaments", json=other, headers=AUTH))["review"] == "pending"
    recompute_now(client)
    assert ratings(client)["p1"]["games"] == 3, "his three games at OLD count, his one at NEW does not"
    assert client.post("/v1/rating-lists/rif-whr/reviews/OLD", json=CONFIRM, headers=AUTH).status_code == 404
    # Switched off, the list rates what waited.
    assert client.patch("/v1/rating-lists/rif-whr", json={"requires_review": False}, headers=AUTH).status_code == 200
    recompute_now(client)
    assert ratings(client)["p1"]["games"] == 4
    kinds = [r["summary"] for r in client.get("/v1/audit", params={"kind": "settings_changed"}, headers=AUTH).json()["items"]]
    assert kinds == ["settings: requires_review True → False", "settings: requires_review False → True"]


def test_only_an_officer_of_the_list_decides(client: TestClient) -> None:
    _require_review(client)
    client.post("/v1/tournaments", json=tournament_body("T1"), headers=AUTH)
    with db.session_scope() as session:
        other = api_keys.create_key(session, "eru-officer", "officer", lists=["eru"], categories=[]).secret
        own = api_keys.create_key(session, "whr-officer", "officer", lists=["rif-whr"], categories=[]).secret
    refused = client.post("/v1/rating-lists/rif-whr/reviews/T1", json=CONFIRM, headers={"Authorization": f"Bearer {other}"})
    assert refused.status_code == 403 and "rif-whr" in refused.json()["detail"]
    decided = client.post("/v1/rating-lists/rif-whr/reviews/T1", json=CONFIRM, headers={"Authorization": f"Bearer {own}"})
    assert decided.status_code == 200 and decided.json()["decided_by"] == "whr-officer"


def test_a_decision_needs_a_reason_and_a_known_decision(client: TestClient) -> None:
    _require_review(client)
    client.post("/v1/tournaments", json=tournament_body("T1"), headers=AUTH)
    for body, pointer in (({"decision": "confirm"}, "/reason"), ({"decision": "accept", "reason": "ok"}, "/decision")):
        refused = client.post("/v1/rating-lists/rif-whr/reviews/T1", json=body, headers=AUTH)
        assert refused.status_code == 422 and pointer in [e["pointer"] for e in refused.json()["errors"]]
    assert client.post("/v1/rating-lists/rif-whr/reviews/NOPE", json=CONFIRM, headers=AUTH).status_code == 404
    assert client.get("/v1/rating-lists/nope/reviews").status_code == 404


def test_an_imported_tournament_waits_for_the_officer_as_a_submission_does(client: TestClient, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from app.services.importing import import_results_file

    _require_review(client)
    source = tmp_path / "results.tsv"
    source.write_text(
        "player\t1\tA\tB\t5\t1\nplayer\t2\tC\tD\t5\t1\n"
        "tournament\t900\tCup\t5\t1\t2020-01-01\t2020-01-02\t1\n\n"
        "game\t1\t900\t1\t1\t1\t2\tB\ngame\t2\t900\t1\t1\t2\t1\tW\n",
        encoding="utf-8",
    )
    report = import_results_file(source)
    assert report.tournaments_stored == 1 and "rif-whr" not in report.jobs_queued
    pending = client.get("/v1/rating-lists/rif-whr/reviews", params={"status": "pending"}).json()["items"]
    assert [review["tournament_id"] for review in pending] == ["900"]
    summary = client.get("/v1/tournaments/900/revisions").json()["items"][0]["summary"]
    assert summary.endswith("awaiting review by rif-whr")
