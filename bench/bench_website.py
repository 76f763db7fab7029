"""The website's 500-row list page rendered uncached in each of its languages (issue 26: under 30 ms on
the RIF-sized history, in every language).

A RIF-sized history is imported with the CLI into a fresh SQLite file (or the one a --reuse directory
kept), rif-whr recomputed, then the page `/lists/rif-whr?status=all&per_page=500` (and page 5) asked
through the ASGI app in this process with each language's Accept-Language, the kept pages emptied
before every request (``app.http.response_cache``): each figure is a full build (the rows' reads,
the table and the template), as the first reader of a new snapshot's page pays it. Prints the median
and 90th percentile of the wall time per language, and the median CPU time of this process per
request (less moved by the machine's other work than the wall time, on a shared machine).

    .venv/bin/python bench/bench_website.py [--repeat 30] [--reuse DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PATHS = ("/lists/rif-whr?status=all&per_page=500", "/lists/rif-whr?status=all&per_page=500&page=5")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=30, help="requests per language and page (default 30)")
    parser.add_argument("--reuse", type=Path, help="a directory whose imported history to reuse (kept between runs)")
    args = parser.parse_args()

    workdir = args.reuse or Path(tempfile.mkdtemp(prefix="bench-website-"))
    workdir.mkdir(parents=True, exist_ok=True)
    database_url = f"sqlite:///{workdir / 'bench.sqlite3'}"
    os.environ["DATABASE_URL"] = database_url
    marker = workdir / "imported-rif"
    if not marker.exists():
        from bench.histories import rif_sized
        from bench.results_file import write_results_file

        for stale in workdir.glob("bench.sqlite3*"):
            stale.unlink()
        history = rif_sized()
        source = workdir / "results.tsv"
        write_results_file(history, source)
        subprocess.run(
            [sys.executable, "-m", "app.cli", "import", "--no-progress", str(source)],
            cwd=ROOT,
            env={**os.environ, "DATABASE_URL": database_url},
            check=True,
            stdout=subprocess.DEVNULL,
        )
        marker.write_text(database_url + "\n")

    from fastapi.testclient import TestClient

    from app.http import response_cache
    from app.main import create_app
    from app.recompute.jobs import run_pending_jobs
    from app.web.i18n import LANGUAGES

    keys = "bench:bench-key"
    os.environ["RATING_API_KEYS"] = keys
    with TestClient(create_app(start_worker=False)) as client:
        if client.get("/v1/rating-lists/rif-whr").json().get("current_snapshot_id") is None:
            answer = client.post("/v1/rating-lists/rif-whr/recompute", headers={"Authorization": "Bearer bench-key"})
            assert answer.status_code == 202, answer.text
            run_pending_jobs()
        print(f"history in {workdir}; load average {os.getloadavg()[0]:.2f}")
        print(f"{'language':<10} {'page':<48} {'median':>8} {'p90':>8} {'cpu':>8}   target < 30 ms")
        for code in LANGUAGES:
            for path in PATHS:
                headers = {"Accept-Language": code}
                assert client.get(path, headers=headers).status_code == 200  # warm the process, not the page
                times, cpu = [], []
                for _ in range(args.repeat):
                    response_cache.responses.clear()
                    started, cpu_started = time.perf_counter(), time.process_time()
                    answer = client.get(path, headers=headers)
                    times.append((time.perf_counter() - started) * 1000)
                    cpu.append((time.process_time() - cpu_started) * 1000)
                    assert answer.status_code == 200 and f'lang="{LANGUAGES[code].tag}"' in answer.text
                times.sort()
                median, p90 = statistics.median(times), times[int(len(times) * 0.9) - 1]
                print(
                    f"{code:<10} {path:<48} {median:>6.1f} ms {p90:>6.1f} ms {statistics.median(cpu):>5.1f} ms"
                    f"   {'yes' if median < 30 else 'NO'}"
                )
        print(f"load average after {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
