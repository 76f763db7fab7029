"""`python -m app.cli import` on the real results file, run twice."""

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.helpers import AUTH, GO_DATA, RENJU_CN, ROOT, cli_import_renju_cn


@pytest.mark.slow
def test_import_real_file_twice(client: TestClient):
    first = cli_import_renju_cn()
    assert "tournaments stored: 59" in first
    assert "players stored:     526" in first
    assert "games stored:       4644" in first
    # Games of tournaments the renju.net export defines: nothing wrong with them, nothing to store here.
    assert "left aside:         17510" in first and "17510  game of a tournament the file does not define" in first
    assert "rows rejected:      0" in first

    second = cli_import_renju_cn()
    assert "tournaments stored: 0 (already present, unchanged: 59)" in second
    assert "games stored:       0" in second
    assert "players stored:     0" in second

    page = client.get("/v1/tournaments", params={"category": "renju", "limit": 500}).json()
    assert page["total"] == 59
    assert sum(t["games_count"] for t in page["items"]) == 4644
    # A player the file describes keeps his name; one only named by games exists with his id alone.
    assert client.get("/v1/players/2487").json()["surname"] == "Zha"


@pytest.mark.slow
def test_import_reports_invalid_rows(tmp_path: Path, client: TestClient):
    source = tmp_path / "results.tsv"
    source.write_text(
        "player\t1\tA\tB\t5\t1\n"
        "city\t1\t5\tShanghai\n"
        "tournament\t900\tCup\t5\t1\t2020-01-01\t2020-01-02\t1\n"
        "\n"
        "game\t1\t900\t1\t1\t1\t2\tB\n"
        "game\t2\t900\t1\t1\t2\t1\tX\n"
        "game\t3\t901\t1\t1\t2\t1\tW\n"
        "tournament\t902\tBroken\t5\t1\t2020-13-01\t2020-01-02\t1\n"
        "\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "import", "--no-progress", str(source)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=os.environ.copy(),
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "games stored:       1" in result.stdout
    assert "1  unknown result code\n" in result.stdout
    assert "e.g. line 6: 'X'" in result.stdout
    # What the file means as it is (a city record the WHR site's reader takes, a game of a tournament
    # another file defines) apart from what is wrong (issue 47 item 7).
    assert "left aside:         2 " in result.stdout and "1  game of a tournament the file does not define" in result.stdout
    assert "1  city or rule record" in result.stdout and "e.g. line 2: city" in result.stdout
    assert "rows rejected:      2" in result.stdout and "malformed tournament record" in result.stdout
    # Every reason in the report says what it means.
    reasons = [line for line in result.stdout.splitlines() if line.startswith("    ") and line.strip()[0].isdigit()]
    assert len(reasons) == 4
    assert result.stdout.count("means: ") == 4
    assert "means: the result column is not B (black won), W (white won) or D (draw)" in result.stdout
    assert client.get("/v1/players/2").json() == {
        "id": "2",
        "name": None,
        "surname": None,
        "native_name": None,
        "country": None,
        "city": None,
        "gender": None,
        "birth_year": None,
        "external_ids": [],
        "earlier_names": [],
        "merged_into": None,
    }


def test_submission_command_prints_a_body_the_api_accepts(client: TestClient):
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "submission", str(RENJU_CN), "--tournament", "T0017"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    response = client.post(
        "/v1/tournaments", content=result.stdout.encode(), headers={**AUTH, "Content-Type": "application/json"}
    )
    assert response.status_code == 201, response.text
    read = client.get("/v1/tournaments/T0017").json()
    assert read["games_count"] == 10 and read["start"] == "2017-04-08" and read["end"] == "2017-04-09"
    assert all(game["date"] == "2017-04-09" for game in read["games"])


def test_the_import_returns_once_the_service_worker_has_run_its_recompute(monkeypatch, capsys, client: TestClient):
    """The service's worker claims the import's job first (seen under load): the import waits for
    it to end instead of returning while it runs, and says who ran it (issue 47 item 7)."""
    from app.cli import main
    from app.recompute import jobs

    claim = jobs.claim_next_job
    ran_by_the_service: list[int] = []

    def only_the_service_claims(session, worker):  # type: ignore[no-untyped-def]
        return claim(session, worker) if worker == "the-service:1" else None

    def service_worker() -> None:
        while not ran_by_the_service:
            with jobs.session_scope() as session:
                job_id = claim(session, "the-service:1")
            if job_id is None:
                time.sleep(0.05)
                continue
            time.sleep(0.5)  # still running when the import has queued and looked
            jobs.run_job(job_id)
            ran_by_the_service.append(job_id)

    monkeypatch.setattr(jobs, "claim_next_job", only_the_service_claims)
    worker = threading.Thread(target=service_worker)
    worker.start()
    try:
        status = main(["import", "--no-progress", str(GO_DATA / "juvisy2019.h9")])
    finally:
        ran_by_the_service.append(-1)  # stops the worker if the import failed before queuing
        worker.join()
    out = capsys.readouterr().out
    assert status == 0, out
    assert "recomputes run:     1 of 1 (0 here, 1 by the service's worker)" in out
    job_id = ran_by_the_service[0]
    assert client.get(f"/v1/jobs/{job_id}").json()["status"] == "succeeded"
