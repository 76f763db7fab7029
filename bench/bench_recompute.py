"""End to end: a RIF-sized history stored in SQLite, then POST /v1/rating-lists/rif-whr/recompute
until the job succeeds. Target: under 1.5 s including reading the games and writing the snapshot.

    .venv/bin/python bench/bench_recompute.py [--size rif|small] [--compare]

Prints the import time, the cold recompute (no previous snapshot) and the warm one (after one more
tournament is submitted), each with its read / compute / write split, and with --compare the largest
difference to the `whr` package's converged ratings on the same games.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", choices=["rif", "small"], default="rif")
    parser.add_argument("--compare", action="store_true", help="also run the whr package (about 13 s on rif)")
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="bench-recompute-"))
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir / 'bench.sqlite3'}"
    os.environ["RATING_API_KEYS"] = "bench:bench-key"
    os.environ["RUN_WORKER"] = "false"
    os.environ["LOG_LEVEL"] = "WARNING"

    from bench.histories import federation_history, rif_sized
    from bench.results_file import write_results_file

    history = rif_sized() if args.size == "rif" else federation_history(n_players=500, n_games=10_000, years=10)
    source = workdir / "results.tsv"
    write_results_file(history, source)
    print(f"history: {history.n_players} players, {len(history.black)} games, "
          f"{len(set(history.tournament.tolist()))} tournaments -> {source}")

    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "app.cli", "import", "--no-progress", str(source)], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    print(f"import through the submission service (CLI): {time.perf_counter() - started:.1f} s")

    from fastapi.testclient import TestClient

    from app.main import create_app
    from app.services.jobs import run_pending_jobs

    client = TestClient(create_app(start_worker=False))
    auth = {"Authorization": "Bearer bench-key"}

    def recompute(label: str) -> dict:
        started = time.perf_counter()
        job_id = client.post("/v1/rating-lists/rif-whr/recompute", headers=auth).json()["job_id"]
        run_pending_jobs()
        job = client.get(f"/v1/jobs/{job_id}").json()
        total = time.perf_counter() - started
        assert job["status"] == "succeeded", job
        split = job["result"]["timings_s"]
        print(f"{label:<6} recompute: {total:.3f} s (target < 1.5 s, {1.5 / total:.1f}x margin)  "
              f"read {split['read']:.3f}  compute {split['compute']:.3f}  write {split['write']:.3f}  "
              f"[{job['result']['players']} players, {job['result']['games']} games; {'; '.join(job['result']['notes'])}]")
        return job

    recompute("cold")
    last_day = max(history.day.tolist())
    from datetime import date, timedelta

    end = date.fromordinal(last_day) + timedelta(days=7)
    players = [str(p) for p in range(10)]
    games = [{"black": a, "white": b, "result": "BWD"[(i + j) % 3]} for i, a in enumerate(players) for j, b in enumerate(players) if i < j]
    body = {"id": "one-more", "name": "One more", "category": "renju", "start": end.isoformat(), "end": end.isoformat(), "games": games}
    assert client.post("/v1/tournaments", json=body, headers=auth).status_code == 201
    recompute("warm")

    if args.compare:
        import whr

        base = whr.Base(config={"w2": 12.9, "virtual_games": 2})
        from bench.results_file import RESULT_CODE

        for b, w, s, d in zip(history.black.tolist(), history.white.tolist(), history.score.tolist(), history.day.tolist()):
            base.create_game(str(b), str(w), RESULT_CODE[s], d)
        for game in games:
            base.create_game(game["black"], game["white"], game["result"], end.toordinal())
        started = time.perf_counter()
        base.iterate_until_converge(verbose=False)
        reference_time = time.perf_counter() - started
        worst = 0.0
        for p in sorted(set(history.black.tolist()) | set(history.white.tolist())):
            points = client.get(f"/v1/players/{p}/history").json()["points"]
            for point, (_, elo, _) in zip(points, base.ratings_for_player(str(p))):
                worst = max(worst, abs(point["rating"] - (elo + 1900)))
        print(f"whr iterate_until_converge on the same games: {reference_time:.1f} s; largest difference {worst:.2e} Elo")


if __name__ == "__main__":
    main()
