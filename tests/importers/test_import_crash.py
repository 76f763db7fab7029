"""An import's committed batches survive a crash of the import process (kill -9), also on SQLite,
where the import's connection checkpoints the WAL only every 256 MB (app.db.SQLITE_BULK_*): what
the import reported stored is stored, whole, what it left for its end is built when the next process
starts, and a second run stores the rest."""

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect

from app.cli import migrate
from app.db import get_engine
from app.services import importing
from app.services.bulk_load import GAME_PLAYER_INDEXES
from app.services.importing import import_results_file
from tests.helpers import ROOT

TOURNAMENTS = 6
GAMES_EACH = 40
# Imports the file with batches of one tournament, committed COMMIT_GAMES games a transaction, and
# stops for good once three or more tournaments are reported stored, printing how many: the test kills
# it there, its last transaction committed only.
STOPPED_IMPORT = """
import sys, time
from pathlib import Path
from app.services import importing
importing.BATCH_GAMES = 1
importing.COMMIT_GAMES = int(sys.argv[2])
def reported(done, total):
    if done >= 3:
        print(done, flush=True)
        time.sleep(600)
importing.import_results_file(Path(sys.argv[1]), on_progress=reported)
"""


def _results_file(path: Path) -> Path:
    lines = [f"player\t{p}\tName{p}\tSurname{p}\t\t\n" for p in range(1, 11)]
    for t in range(TOURNAMENTS):
        lines.append(f"tournament\tK{t}\tCup {t}\t\t\t2020-0{t + 1}-01\t2020-0{t + 1}-02\t1\n")
    for t in range(TOURNAMENTS):
        for g in range(GAMES_EACH):
            black, white = 1 + (g + t) % 10, 1 + (g + t + 1 + g // 10) % 10
            if black == white:
                white = 1 + white % 10
            lines.append(f"game\tK{t}-{g}\tK{t}\t{g}\t1\t{black}\t{white}\t{'BWD'[g % 3]}\n")
    path.write_text("".join(lines), encoding="utf-8")
    return path


@pytest.mark.slow
@pytest.mark.parametrize("commit_games", [1, 2 * GAMES_EACH])
def test_batches_reported_stored_survive_a_killed_import(client: TestClient, tmp_path: Path, commit_games: int):
    """One batch a transaction, then two: the progress reports a transaction's tournaments once it
    has committed, and no sooner."""
    source = _results_file(tmp_path / "results.tsv")
    process = subprocess.Popen(
        [sys.executable, "-c", STOPPED_IMPORT, str(source), str(commit_games)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        reported = int(process.stdout.readline())
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    assert reported == (3 if commit_games == 1 else 4)
    page = client.get("/v1/tournaments", params={"category": "renju", "limit": 100}).json()
    assert sorted((t["id"], t["games_count"]) for t in page["items"]) == [(f"K{t}", GAMES_EACH) for t in range(reported)]
    # What the import left for its end on SQLite (app.services.bulk_load) is built when the next
    # process starts: its players are found, the games have their indexes by player.
    left_for_later = get_engine().dialect.name == "sqlite"
    assert _found("Name1 Surname1", client) == ([] if left_for_later else ["1"])
    migrate()
    assert _found("Name1 Surname1", client) == ["1"]
    assert {str(index.name) for index in GAME_PLAYER_INDEXES} <= {
        index["name"] for index in inspect(get_engine()).get_indexes("games")
    }

    report = import_results_file(source)
    assert (report.tournaments_stored, report.tournaments_unchanged) == (TOURNAMENTS - reported, reported)
    assert report.rejected[importing.REPEATED_TOURNAMENT] == 0
    page = client.get("/v1/tournaments", params={"category": "renju", "limit": 100}).json()
    assert sorted((t["id"], t["games_count"]) for t in page["items"]) == [(f"K{t}", GAMES_EACH) for t in range(TOURNAMENTS)]


def _found(query: str, client: TestClient) -> list[str]:
    return [player["id"] for player in client.get("/v1/players", params={"q": query}).json()["items"]]
