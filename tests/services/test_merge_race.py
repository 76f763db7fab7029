"""A merge and the submissions racing it are serialised (issue 42 item 3; docs/decisions.md 108): a
record with 6,000 games is merged into another while 12 submissions naming it arrive within 0.33 s,
against a live server on the suite's database (SQLite, or PostgreSQL when DATABASE_URL names it),
several times over. Every answer is a 2xx, no game is ever stored under the merged record, each
submission's games are the surviving player's, and the WHR list rates one player, not two."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from sqlalchemy import func, or_, select

from app import db
from app.models import Game, Player
from app.recompute.jobs import run_pending_jobs
from app.schemas.tournaments import TournamentIn
from app.services.tournaments import submit_tournament
from tests.helpers import AUTH
from tests.live_server import running_server

pytestmark = pytest.mark.slow

TRIALS = 3
SUBMISSIONS = 12
WITHIN_SECONDS = 0.33
HISTORY_GAMES = 6_000
OPPONENTS = 40


def test_submissions_racing_a_merge_land_on_the_surviving_player() -> None:
    for trial in range(TRIALS):
        _history(trial)
    with running_server() as server, httpx.Client(base_url=server.url, timeout=120) as http:
        for trial in range(TRIALS):
            _race(server.url, trial)
        run_pending_jobs()
        rated = {
            row["player_id"]
            for row in http.get("/v1/rating-lists/rif-whr/ratings", params={"status": "all", "limit": 500}).json()["items"]
        }
    with db.session_scope() as session:
        merged = select(Player.id).where(Player.merged_into.is_not(None))
        under_merged = session.scalar(
            select(func.count()).select_from(Game).where(or_(Game.black_id.in_(merged), Game.white_id.in_(merged)))
        )
        kept_games = {
            trial: session.scalar(
                select(func.count())
                .select_from(Game)
                .where(or_(Game.black_id == f"keep{trial}", Game.white_id == f"keep{trial}"))
            )
            for trial in range(TRIALS)
        }
    assert under_merged == 0
    # Each survivor has the merged record's history, his own game and every racing submission's game.
    assert kept_games == {trial: HISTORY_GAMES + 1 + SUBMISSIONS for trial in range(TRIALS)}
    for trial in range(TRIALS):
        assert f"keep{trial}" in rated and f"dup{trial}" not in rated


def _history(trial: int) -> None:
    """dup<trial>'s 6,000 games in 30 tournaments of 2018, and keep<trial>'s one game, stored in-process."""
    per_tournament = HISTORY_GAMES // 30
    with db.session_scope() as session:
        for n in range(30):
            day = f"2018-{1 + n // 3:02d}-{1 + 9 * (n % 3):02d}"
            opponents = [f"t{trial}-o{i}" for i in range(OPPONENTS)]
            body = {
                "id": f"H{trial}-{n}", "name": f"History {trial}-{n}", "category": "renju", "start": day, "end": day,
                "players": [{"id": f"dup{trial}", "name": "Duplicate", "surname": f"Player{trial}"}, *({"id": o} for o in opponents)],
                "games": [
                    {"black": f"dup{trial}", "white": opponents[g % OPPONENTS], "result": "BWD"[g % 3], "round": str(g)}
                    for g in range(per_tournament)
                ],
            }  # fmt: skip
            submit_tournament(session, TournamentIn.model_validate(body), max_games=20_000, actor="tester", allow_duplicate=True)
        keep = {
            "id": f"K{trial}", "name": f"Keep {trial}", "category": "renju", "start": "2018-12-01", "end": "2018-12-01",
            "players": [{"id": f"keep{trial}", "name": "Kept", "surname": f"Player{trial}"}, {"id": f"t{trial}-o0"}],
            "games": [{"black": f"keep{trial}", "white": f"t{trial}-o0", "result": "B"}],
        }  # fmt: skip
        submit_tournament(session, TournamentIn.model_validate(keep), max_games=20_000, actor="tester")


def _race(url: str, trial: int) -> None:
    start = threading.Barrier(SUBMISSIONS + 1)

    def merge() -> httpx.Response:
        with httpx.Client(base_url=url, timeout=120) as own:
            start.wait()
            return own.post(f"/v1/players/dup{trial}/merge", json={"into": f"keep{trial}"}, headers=AUTH)

    def submit(n: int) -> httpx.Response:
        body = {
            "id": f"R{trial}-{n}", "name": f"Race {trial}-{n}", "category": "renju", "start": "2019-03-02", "end": "2019-03-02",
            "players": [{"id": f"dup{trial}", "name": "Duplicate", "surname": f"Player{trial}"}, {"id": f"r{trial}-{n}"}],
            "games": [{"black": f"dup{trial}", "white": f"r{trial}-{n}", "result": "W"}],
        }  # fmt: skip
        with httpx.Client(base_url=url, timeout=120) as own:
            start.wait()
            time.sleep(WITHIN_SECONDS * n / SUBMISSIONS)
            return own.post("/v1/tournaments", json=body, headers=AUTH)

    with ThreadPoolExecutor(SUBMISSIONS + 1) as pool:
        merged = pool.submit(merge)
        submitted = [pool.submit(submit, n) for n in range(SUBMISSIONS)]
        answers = [merged.result(), *(future.result() for future in submitted)]
    assert [answer.status_code for answer in answers] == [200] + [201] * SUBMISSIONS, [a.text[:300] for a in answers]
    for answer in answers[1:]:
        names = {player["id"] for player in answer.json()["players"]}
        assert f"dup{trial}" not in names or f"keep{trial}" not in names
    for answer in answers[1:]:
        games = answer.json()["games"]
        # Stored under whichever record was his when it committed: never the merged one afterwards.
        assert games[0]["black"] in (f"dup{trial}", f"keep{trial}")
