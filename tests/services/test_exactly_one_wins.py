"""Exactly one wins (issue 23, "How it is checked"; docs/decisions.md 7.32): a correction (PUT) and a
withdrawal (DELETE) of the same tournament sent at once, both against the version read, while the
worker of a live server recomputes the list over and over: no 5xx, exactly one is made (2xx) and the
other refused as stale (412), the tournament is as the winner left it, and its revisions (and the
audit) show both attempts in the order they were settled. Real threads against a real server, on
the suite's database (SQLite, or PostgreSQL when DATABASE_URL names it), many times over."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.helpers import AUTH, tournament_body
from tests.live_server import running_server

pytestmark = pytest.mark.slow

OTHER = {"Authorization": "Bearer second-secret"}  # RATING_API_KEYS' second key, "other"
REPETITIONS = 30

# A tournament large enough that the WHR list's recompute takes a while (60 players, ~770 games).
BIG_PLAYERS = [{"id": f"b{i}"} for i in range(60)]
BIG_GAMES = [
    {"black": f"b{i}", "white": f"b{j}", "result": "BWD"[(i + j) % 3]}
    for round_ in range(3)
    for i in range(60)
    for j in range(i + 1, 60)
    if (i + j + round_) % 7 == 0
]


def test_a_correction_and_a_withdrawal_at_once_while_a_recompute_runs_exactly_one_wins() -> None:
    with running_server(RUN_WORKER="true", WORKER_POLL_SECONDS="0.05") as server:
        with httpx.Client(base_url=server.url, timeout=60) as http:
            big = tournament_body("BIG", players=BIG_PLAYERS, games=BIG_GAMES, start="2019-06-01", end="2019-06-03")
            assert http.post("/v1/tournaments", json=big, headers=AUTH).status_code == 201
            stop = threading.Event()
            recomputing = threading.Thread(target=_keep_recomputing, args=(server.url, stop))
            recomputing.start()
            try:
                races = [_race(server.url, http, n) for n in range(REPETITIONS)]
            finally:
                stop.set()
                recomputing.join(60)
            succeeded = http.get("/v1/jobs", params={"list": "rif-whr", "status": "succeeded"}).json()["total"]
            failed = http.get("/v1/jobs", params={"list": "rif-whr", "status": "failed"}).json()["total"]
    assert all(running for _, running in races), "each race started while a recompute was running"
    assert succeeded >= 3 and failed == 0


def _race(url: str, http: httpx.Client, n: int) -> tuple[str, bool]:
    """One race over a new tournament: (which attempt won, whether a recompute was running)."""
    tournament_id = f"R{n}"
    body = tournament_body(tournament_id, start="2020-05-01", end="2020-05-03")
    assert http.post("/v1/tournaments", json=body, headers=AUTH, params={"duplicate": "intended"}).status_code == 201
    read = http.get(f"/v1/tournaments/{tournament_id}")
    etag = read.headers["ETag"]
    barrier = threading.Barrier(2)
    corrected = {**body, "name": f"Corrected {n}"}

    def correct() -> httpx.Response:
        with httpx.Client(base_url=url, timeout=60) as own:
            barrier.wait()
            return own.put(f"/v1/tournaments/{tournament_id}", json=corrected, headers={**AUTH, "If-Match": etag})

    def withdraw() -> httpx.Response:
        with httpx.Client(base_url=url, timeout=60) as own:
            barrier.wait()
            return own.delete(
                f"/v1/tournaments/{tournament_id}", params={"reason": "entered twice"}, headers={**OTHER, "If-Match": etag}
            )

    running = _wait_for_a_running_recompute(http)
    with ThreadPoolExecutor(2) as pool:
        correction, withdrawal = pool.submit(correct), pool.submit(withdraw)
        answers = {"correction": correction.result(), "withdrawal": withdrawal.result()}
    statuses = {attempt: answer.status_code for attempt, answer in answers.items()}
    assert all(status < 500 for status in statuses.values()), {a: r.text[:300] for a, r in answers.items()}
    assert sorted(statuses.values()) == [200, 412], statuses
    winner = next(attempt for attempt, status in statuses.items() if status == 200)
    loser = next(attempt for attempt in answers if attempt != winner)
    assert answers[loser].headers["content-type"] == "application/problem+json"

    stored = http.get(f"/v1/tournaments/{tournament_id}").json()
    if winner == "correction":
        assert stored["name"] == f"Corrected {n}" and stored["withdrawn_at"] is None
    else:
        assert stored["name"] == body["name"] and stored["withdrawn_reason"] == "entered twice"

    # Both attempts, in the order they were settled: the winner's change, then the loser's refusal.
    revisions = http.get(f"/v1/tournaments/{tournament_id}/revisions").json()["items"]
    kinds = {"correction": "corrected", "withdrawal": "withdrawn"}
    actors = {"correction": "tester", "withdrawal": "other"}
    assert [(r["kind"], r["actor"]) for r in revisions] == [
        ("submitted", "tester"),
        (kinds[winner], actors[winner]),
        ("refused", actors[loser]),
    ]
    assert revisions[2]["summary"].startswith(f"{loser} refused (412)")
    assert revisions[1]["id"] < revisions[2]["id"]
    audit = http.get("/v1/audit", params={"key": actors[loser], "kind": "refused", "limit": 1}, headers=AUTH).json()
    assert audit["items"][0]["subject_id"] == tournament_id
    return winner, running


def _wait_for_a_running_recompute(http: httpx.Client) -> bool:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if http.get("/v1/jobs", params={"list": "rif-whr", "status": "running"}).json()["total"] > 0:
            return True
        time.sleep(0.005)
    return False


def _keep_recomputing(url: str, stop: threading.Event) -> None:
    """Queue a recompute of the WHR list whenever none is queued, so that one is nearly always running."""
    with httpx.Client(base_url=url, timeout=60) as http:
        while not stop.is_set():
            if http.get("/v1/jobs", params={"list": "rif-whr", "status": "queued"}).json()["total"] == 0:
                assert http.post("/v1/rating-lists/rif-whr/recompute", headers=AUTH).status_code == 202
            time.sleep(0.02)
