"""The scale of the Go world (issue 27 item 6): the bench's `large` history (1,000,195 games, 47,051
players who played, the size of the European Go Database) written as a renju.net results file,
imported with the CLI into a fresh SQLite file, recomputed through the API, then read uncached.
Prints each figure beside its target.

    .venv/bin/python bench/bench_scale.py [--size large|rif|double] [--reuse DIR] [--skip-import] [--reads 7]
                                          [--reference] [--cold N] [--replica] [--poll] [--import-only]

- import: `python -m app.cli import FILE --no-progress --no-recompute` in a subprocess: wall time,
  games a second, and the process's peak RSS (`wait4`'s `ru_maxrss`). Targets: under 150 MB
  whatever the file's size, at least 30,000 games a second. `--size double` (2,000,040 games among
  94,224 players who played, a 76 MB file) with `--import-only` measures the import alone, on a file
  twice the large one.
- recompute: one uvicorn server (`app.main:app`, its worker in the process, as `make run`), the
  queued jobs the import left removed first; `POST /v1/rating-lists/rif-whr/recompute` until the
  job has succeeded, waited for with `GET /v1/jobs/{id}?wait=30` (with --poll, polled every 25 ms as
  a client without `wait` would), with the job's own read / compute / write split; then once
  more, warm-started from the snapshot the first wrote. Target: under 2.5 s end to end. With --cold N,
  N cold recomputes, each on a new server with the snapshots before it removed: their median is the
  figure (a single one moved by a second from minute to minute on the development VM). With
  --reference, the `whr` package's iterate(100) on the same games (bench_whr.py's reference side,
  in a subprocess) in the same run.
- reads: each kind --reads times, each time a query the server has not answered before (another
  page, date, player, tournament or search text), so nothing is kept; the first and the median.
  Besides the seven players' pages taken from the list, the pages of the --reads players with the
  most games (the longest player pages: a page of his games, and every tournament of his).
  Target: under 30 ms each. The drift's first read of the new snapshot is also a row of its own,
  and so is the process's first drift read, before the second recompute: with nothing asked of the
  list's drift yet, that one builds the month ends (app/snapshots/drift.py, decision 128). Then the same list page again (kept: the
  bytes sent before) and with its ETag in If-None-Match (304), which must stay as fast as on the
  RIF-sized history (bench_http.py).
- after a restart: the server stopped and a new one started on the rated database, as after a deploy
  (it warms up before it serves: app/warm_up.py); each kind of read again, with other queries.
- beside a worker (--replica): the production topology (compose.yaml), an API server with
  RUN_WORKER=false beside `python -m app.cli worker`; a recompute asked of the server and run by the
  worker, then each kind of read, once with the server not watching for new snapshots
  (SNAPSHOT_WATCH_SECONDS=0) and once watching every second (docs/decisions.md 99).

--reuse DIR keeps the history (`.npz`), the results file and the SQLite file; --skip-import reuses
the import in DIR (its snapshots removed, so that the first recompute is cold again). A large run
takes a few minutes and a few GB of disk; run it sparingly on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

API_KEY = "bench-key"
IMPORT_PEAK_MB = 150
IMPORT_GAMES_PER_SECOND = 30_000
RECOMPUTE_S = 2.5
READ_MS = 30
# Runs the command given after it and prints its peak RSS (kilobytes) on stderr; exits with its status.
MEASURED_RUN = (
    "import os, subprocess, sys\n"
    "child = subprocess.Popen(sys.argv[1:])\n"
    "_, status, usage = os.wait4(child.pid, 0)\n"
    "print(f'peak-kb {usage.ru_maxrss}', file=sys.stderr)\n"
    "sys.exit(os.waitstatus_to_exitcode(status))\n"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", choices=["large", "rif", "double"], default="large")
    parser.add_argument("--reuse", type=Path, metavar="DIR")
    parser.add_argument("--skip-import", action="store_true", help="reuse the import already in --reuse DIR")
    parser.add_argument("--reads", type=int, default=7, help="uncached reads of each kind (default 7)")
    parser.add_argument("--reference", action="store_true", help="also time the whr package on the same games")
    parser.add_argument(
        "--cold",
        type=int,
        default=1,
        metavar="N",
        help="cold recomputes, each on a server of its own; their median is the figure (default 1)",
    )
    parser.add_argument(
        "--replica",
        action="store_true",
        help="also: an API process beside a worker process, its first reads after a recompute, watching for new snapshots or not",
    )
    parser.add_argument("--poll", action="store_true", help="poll each recompute's job every 25 ms instead of waiting for it")
    parser.add_argument("--import-only", action="store_true", help="the import alone: no recompute, no reads")
    args = parser.parse_args()

    workdir = args.reuse or Path(tempfile.mkdtemp(prefix="bench-scale-"))
    workdir.mkdir(parents=True, exist_ok=True)
    database = workdir / f"{args.size}.sqlite3"
    environment = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{database}",
        "RATING_API_KEYS": f"bench:{API_KEY}",
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
    }
    rows: list[tuple[str, str, str, bool | None]] = []
    print(f"load average before: {os.getloadavg()}", flush=True)
    if not args.skip_import:
        rows += _import(args.size, workdir, database, environment)
    else:
        _drop_snapshots(database)
    if not args.import_only:
        _drop_queued_jobs(database)
        busiest = _busiest_players(database, 2 * args.reads)
        rows += _serve_and_measure(args, environment, database, busiest)
        if args.replica:
            rows += _beside_a_worker(args, environment, busiest)
    if args.reference:
        rows.append(_reference(args.size, workdir))
    print(f"load average after: {os.getloadavg()}")
    print()
    print(f"| figure ({args.size}, SQLite) | measured | target | met |")
    print("|---|---|---|---|")
    for label, measured, target, met in rows:
        print(f"| {label} | {measured} | {target} | {'-' if met is None else 'yes' if met else '**no**'} |")


def _history(size: str, workdir: Path):  # type: ignore[no-untyped-def]
    from bench.histories import SIZES, History

    saved = workdir / f"{size}.npz"
    if saved.exists():
        return History.load(saved)
    history = SIZES[size]()
    history.save(saved)
    return history


def _import(size: str, workdir: Path, database: Path, environment: dict[str, str]) -> list[tuple[str, str, str, bool | None]]:
    from bench.results_file import write_results_file

    source = workdir / f"{size}.tsv"
    if not source.exists():
        started = time.perf_counter()
        history = _history(size, workdir)
        write_results_file(history, source)
        print(f"history written as a results file in {time.perf_counter() - started:.1f} s: {source.stat().st_size / 1e6:.0f} MB")
    for stale in workdir.glob(f"{database.name}*"):
        stale.unlink()
    subprocess.run([sys.executable, "-m", "app.cli", "migrate"], cwd=ROOT, env=environment, check=True, stdout=subprocess.DEVNULL)
    started = time.perf_counter()
    # The import is started by a small launcher that reports its peak: a child's ru_maxrss counts the
    # pages it shares with its parent between fork and exec, and this process holds the history.
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            MEASURED_RUN,
            sys.executable,
            "-m",
            "app.cli",
            "import",
            "--no-progress",
            "--no-recompute",
            str(source),
        ],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - started
    if result.returncode != 0:
        sys.exit(f"the import failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    output = result.stdout
    games = int(next(line for line in output.splitlines() if "games stored:" in line).split(":")[1].replace(",", ""))
    peak_mb = int(result.stderr.strip().splitlines()[-1].removeprefix("peak-kb ")) / 1024
    print(output)
    print(f"import: {seconds:.1f} s, {games / seconds:,.0f} games/s, peak RSS {peak_mb:.0f} MB", flush=True)
    return [
        ("import: peak RSS", f"{peak_mb:.0f} MB", f"< {IMPORT_PEAK_MB} MB", peak_mb < IMPORT_PEAK_MB),
        (
            "import: games a second",
            f"{games / seconds:,.0f} ({games:,} games in {seconds:.1f} s)",
            f">= {IMPORT_GAMES_PER_SECOND:,}",
            games / seconds >= IMPORT_GAMES_PER_SECOND,
        ),
    ]


def _drop_queued_jobs(database: Path) -> None:
    """The import queued a recompute for each list it rates (--no-recompute leaves them); they are not
    what is measured, so they go before the server's worker would pick them up."""
    with sqlite3.connect(database) as connection:
        connection.execute("DELETE FROM jobs WHERE status IN ('queued', 'running')")


def _drop_snapshots(database: Path) -> None:
    """An earlier run's snapshots go, so that the first recompute is cold, as after an import: it
    would otherwise start from the last one's fit."""
    with sqlite3.connect(database) as connection:
        connection.execute("PRAGMA foreign_keys = ON")  # (their entries go with them)
        connection.execute("UPDATE rating_lists SET current_snapshot_id = NULL")
        connection.execute("DELETE FROM rating_snapshots")


def _busiest_players(database: Path, count: int) -> list[str]:
    """The players with the most games (each game once, whichever colour he had), most first: the
    pages a reader of the list's top finds longest."""
    with sqlite3.connect(database) as connection:
        return [
            player_id
            for (player_id,) in connection.execute(
                "SELECT player FROM (SELECT black_id AS player FROM games UNION ALL SELECT white_id FROM games)"
                " GROUP BY player ORDER BY count(*) DESC, player LIMIT ?",
                (count,),
            )
        ]


def _serve_and_measure(
    args: argparse.Namespace, environment: dict[str, str], database: Path, busiest: list[str]
) -> list[tuple[str, str, str, bool | None]]:
    rows: list[tuple[str, str, str, bool | None]] = []
    # --cold N: the first N - 1 cold recomputes each on a server of its own, the database's snapshots
    # removed after each (as --skip-import does), so that the last one's server is as in a single run.
    colds = []
    for _ in range(args.cold - 1):
        with _server(environment) as base:
            colds.append(_recompute(base, args.poll))
            _print_recompute("WHR recompute through the API", colds[-1])
        _drop_snapshots(database)
    with _server(environment) as base:
        # The first recompute of the database (cold after an import: no snapshot to start from), then
        # the list recomputed again, warm-started from the snapshot the first wrote, as after a submission.
        colds.append(_recompute(base, args.poll))
        _print_recompute("WHR recompute through the API", colds[-1])
        rows.append(_recompute_row("WHR recompute through the API", colds))
        # The list's first drift read in this process: it builds the month ends. From then on the
        # process answers the list's drift, and its worker thread reads each new snapshot's month
        # ends once the job has succeeded (decision 128).
        never_asked = _timed(f"{base}/v1/rating-lists/rif-whr/drift")
        print(f"drift (API), the process's first read of the list's drift: {never_asked:.1f} ms", flush=True)
        rows.append(
            (
                "drift (API), the process's first read of the list's drift (month ends built)",
                f"{never_asked:.1f} ms",
                f"< {READ_MS} ms",
                never_asked < READ_MS,
            )
        )
        warm = _recompute(base, args.poll)
        _print_recompute("the same again, warm-started", warm)
        rows.append(_recompute_row("the same again, warm-started", [warm]))
        rows += _reads(base, args.reads, busiest[: args.reads])
    # A process started on the rated database (as after a deploy or a restart): what its first readers get.
    with _server(environment) as base:
        rows += _reads(base, args.reads, busiest[args.reads :], after_restart=True)
    return rows


def _beside_a_worker(
    args: argparse.Namespace, environment: dict[str, str], busiest: list[str]
) -> list[tuple[str, str, str, bool | None]]:
    """The production topology (compose.yaml): an API process without a worker beside a worker
    process. A recompute asked of the API process, run by the worker; two seconds later (twice the
    default look), each kind of read asked as a reader would, first with the API process not
    watching for new snapshots (SNAPSHOT_WATCH_SECONDS=0, as before decision 99), then watching."""
    rows: list[tuple[str, str, str, bool | None]] = []
    for watch in ("0", "1.0"):
        replica = {**environment, "RUN_WORKER": "false", "SNAPSHOT_WATCH_SECONDS": watch}
        worker = subprocess.Popen([sys.executable, "-m", "app.cli", "worker"], cwd=ROOT, env=environment)
        try:
            with _server(replica) as base:
                _print_recompute("beside a worker process: recompute", _recompute(base, args.poll))
                time.sleep(2.0)
                label = f"beside a worker, {'not watching' if watch == '0' else 'watching every 1 s'}"
                rows += _reads(base, args.reads, busiest[: args.reads], label=label)
        finally:
            worker.terminate()
            worker.wait(timeout=30)
    return rows


def _print_recompute(label: str, recompute: dict) -> None:
    print(f"{label}: {recompute['total']:.2f} s; the job's split: {json.dumps(recompute.get('timings_s', {}))}", flush=True)


def _recompute_row(label: str, recomputes: list[dict]) -> tuple[str, str, str, bool | None]:
    """One recompute's time and split; of several, the median (its verdict) with the range, and the
    median of each part."""
    totals = [r["total"] for r in recomputes]
    parts = {
        part: statistics.median(r.get("timings_s", {}).get(part, 0.0) for r in recomputes)
        for part in ("read", "compute", "write")
    }
    split = f"read {parts['read']:.2f}, compute {parts['compute']:.2f}, write {parts['write']:.2f}"
    median = statistics.median(totals)
    if len(totals) == 1:
        measured = f"{median:.2f} s ({split})"
    else:
        measured = f"median {median:.2f} s of {len(totals)}, {min(totals):.2f}-{max(totals):.2f} (medians: {split})"
    return (label, measured, f"< {RECOMPUTE_S} s", median < RECOMPUTE_S)


@contextmanager
def _server(environment: dict[str, str]) -> Iterator[str]:
    """One uvicorn server of the app, its worker in the process (as `make run`) unless ``environment``
    says RUN_WORKER=false: its base URL once ready."""
    from tests.live_server import free_port

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "app.main:app",
            "--port",
            str(port),
            "--no-access-log",
            "--loop",
            "uvloop",
            "--http",
            "httptools",
        ],
        cwd=ROOT,
        env={"RUN_WORKER": "true", **environment},
    )
    try:
        _wait_until_up(base, server)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=30)


def _reads(
    base: str, count: int, busiest: list[str], *, after_restart: bool = False, label: str | None = None
) -> list[tuple[str, str, str, bool | None]]:
    """Each kind ``count`` times; after a restart, other pages, dates, players, tournaments and texts.
    ``label``: another process's reads of the first queries, named so."""
    page = json.loads(_request(f"{base}/v1/rating-lists/rif-whr/ratings?status=all&limit=500")[2])
    total = page["total"]
    players = [row["player_id"] for row in page["items"]]
    tournaments = [item["id"] for item in json.loads(_request(f"{base}/v1/tournaments?limit=500")[2])["items"]]
    last_played = max(row["last_played"] for row in page["items"] if row.get("last_played"))
    year = int(last_played[:4])
    step = max(1, total // (count + 1) // 500) * 500
    # After a restart, the next players, tournaments and texts, pages half a page on, another day of the year.
    other = count if after_restart else 0
    page_shift = 250 if after_restart else 0
    day = "03-31" if after_restart else "06-30"
    kinds = {
        "list page (500 rows)": [
            f"/v1/rating-lists/rif-whr/ratings?status=all&limit=500&offset={step * (i + 1) + page_shift}" for i in range(count)
        ],
        "as_of page (500 rows)": [
            f"/v1/rating-lists/rif-whr/ratings?status=all&limit=500&as_of={year - 1 - i}-{day}" for i in range(count)
        ],
        "player history": [f"/v1/players/{player}/history?list=rif-whr" for player in players[10 + other : 10 + other + count]],
        "player web page": [f"/players/{player}" for player in players[100 + other : 100 + other + count]],
        "busiest players' web pages": [f"/players/{player}" for player in busiest],
        "tournament web page": [f"/tournaments/{tournament}" for tournament in tournaments[other : other + count]],
        "search (API)": [f"/v1/players?q=Last{1000 + other + i}" for i in range(count)],
        "search (website)": [f"/players?q=First{2000 + other + i}" for i in range(count)],
        # Issue 46: who is favoured between two players of the list, and their meetings (neighbours on
        # the list: players of one strength meet most).
        "who is favoured (predict)": [
            f"/v1/rating-lists/rif-whr/predict?a={players[200 + other + 2 * i]}&b={players[201 + other + 2 * i]}"
            for i in range(count)
        ],
        "head-to-head (API)": [
            f"/v1/players/{players[300 + other + 2 * i]}/head-to-head/{players[301 + other + 2 * i]}" for i in range(count)
        ],
        "head-to-head web page": [
            f"/players/{players[400 + other + 2 * i]}/vs/{players[401 + other + 2 * i]}" for i in range(count)
        ],
        # Issue 46 item 4: the list's drift, each time another cohort (the month ends are the snapshot's:
        # the first read of a process builds them, the others sum them up for their cohort).
        "drift (API)": [f"/v1/rating-lists/rif-whr/drift?cohort_year={year - 5 - other - i}" for i in range(count)],
        "drift web page": [f"/lists/rif-whr/drift?cohort_year={year - 6 - other - i}" for i in range(count)],
    }
    prefix = label or ("after a restart" if after_restart else "uncached")
    rows: list[tuple[str, str, str, bool | None]] = []
    for kind, paths in kinds.items():
        times = [_timed(f"{base}{path}") for path in paths]
        median = statistics.median(times)
        label = f"{prefix}: {kind}"
        print(f"{label}: first {times[0]:.1f} ms, median {median:.1f} ms, max {max(times):.1f} ms", flush=True)
        rows.append(
            (
                label,
                f"{median:.1f} ms (first {times[0]:.1f}, max {max(times):.1f})",
                f"< {READ_MS} ms",
                median < READ_MS and max(times) < READ_MS,
            )
        )
        if kind == "drift (API)":
            # The first drift read of the new snapshot, right after its job: its month ends are being
            # read by the worker thread (the process had answered the list's drift) or, in a restarted
            # process, by nobody yet; the figure on its own beside the kind's median.
            rows.append(
                (
                    f"{label}, first read of the new snapshot",
                    f"{times[0]:.1f} ms",
                    f"< {READ_MS} ms",
                    times[0] < READ_MS,
                )
            )
    if after_restart or prefix != "uncached":
        return rows
    kept_path = f"{base}/v1/rating-lists/rif-whr/ratings?status=all&limit=500"
    status, headers, _ = _request(kept_path)
    kept = statistics.median(_timed(kept_path) for _ in range(21))
    conditional = statistics.median(_timed(kept_path, {"If-None-Match": headers["etag"]}, 304) for _ in range(21))
    rows.append(("kept list page (500 rows)", f"{kept:.1f} ms", "as on RIF-sized (bench_http.py)", None))
    rows.append(("conditional list page (304)", f"{conditional:.1f} ms", "as on RIF-sized (bench_http.py)", None))
    return rows


def _timed(url: str, headers: dict[str, str] | None = None, expect: int = 200) -> float:
    started = time.perf_counter()
    status, _, payload = _request(url, headers)
    elapsed = (time.perf_counter() - started) * 1000
    assert status == expect, (url, status, payload[:300])
    return elapsed


def _reference(size: str, workdir: Path) -> tuple[str, str, str, bool | None]:
    """The whr package's iterate(100) on the same games, as bench_whr.py runs it (a subprocess)."""
    history_path = workdir / f"{size}.npz"
    code = "\n".join(
        [
            "import sys, time",
            f"sys.path.insert(0, {str(ROOT)!r})",
            "import whr",
            "from bench.histories import History",
            f"h = History.load({str(history_path)!r})",
            "code = {1.0: 'B', 0.5: 'D', 0.0: 'W'}",
            "base = whr.Base(config={'w2': 12.9, 'virtual_games': 2})",
            "base.create_games([[str(b), str(w), code[s], int(d)] for b, w, s, d in"
            " zip(h.black.tolist(), h.white.tolist(), h.score.tolist(), h.day.tolist())])",
            "started = time.perf_counter(); base.iterate(100); print(time.perf_counter() - started)",
        ]
    )
    _history(size, workdir)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if result.returncode != 0:
        return ("reference whr iterate(100)", f"not run: {result.stderr.strip().splitlines()[-1]}", "-", None)
    return ("reference whr iterate(100), the fit alone", f"{float(result.stdout.strip().splitlines()[-1]):.1f} s", "-", None)


def _request(url: str, headers: dict[str, str] | None = None, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


def _wait_until_up(base: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"the server stopped (exit {server.returncode})")
        try:
            if _request(f"{base}/v1/health/ready")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    sys.exit("the server was not ready within 120 s")


def _recompute(base: str, poll: bool = False) -> dict:
    """Trigger to the job's success: one request that waits for its end (`?wait=30`), or with
    ``poll`` a request every 25 ms (bench_http.py says why not more often)."""
    started = time.perf_counter()
    status, _, payload = _request(f"{base}/v1/rating-lists/rif-whr/recompute", {"Authorization": f"Bearer {API_KEY}"}, "POST")
    assert status == 202, (status, payload)
    job_id = json.loads(payload)["job_id"]
    while True:
        job = json.loads(_request(f"{base}/v1/jobs/{job_id}" if poll else f"{base}/v1/jobs/{job_id}?wait=30")[2])
        if job["status"] in ("succeeded", "failed"):
            break
        if poll:
            time.sleep(0.025)
    total = time.perf_counter() - started
    assert job["status"] == "succeeded", job
    deadline = time.monotonic() + 5
    while "write" not in (job["result"] or {}).get("timings_s", {}) and time.monotonic() < deadline:
        time.sleep(0.05)
        job = json.loads(_request(f"{base}/v1/jobs/{job_id}")[2])
    return {"total": total, **job["result"]}


if __name__ == "__main__":
    main()
