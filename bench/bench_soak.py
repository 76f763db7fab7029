"""Soak benchmark (issue 48 item 3): a day's kind of load for as long as asked, watching whether memory
and storage stay bounded.

    .venv/bin/python bench/bench_soak.py --minutes 60                        # SQLite, a temporary file
    .venv/bin/python bench/bench_soak.py --minutes 60 --database-url postgresql+psycopg://postgres@127.0.0.1:5432/soak

The load: the RIF-sized history (bench/histories.py, 100,167 games, its players numbered from 100000
so that they do not take renju.net's ids) and the real files under tests/data (the Chinese results,
the renju WHR site's player directory, the EGC 2013 h9 table), each imported with `python -m
app.cli import`; one API process (`python -m app.cli serve --no-worker`, uvicorn as `make run` starts
it, `RUN_WORKER=false`) and one worker process (`python -m app.cli worker`); `--clients` threads with
an httpx client each, 85 % reads over many keys (list pages at random offsets and `as_of` dates of
2009-2024, players' histories and pages, tournaments, searches by random prefixes, publications,
calculators, an occasional what-if) and 15 % writes with an organiser's key (small tournaments naming
stored and new players, corrections and withdrawals and restores with `If-Match`, each queuing a
recompute), and an officer's publication of `rif-whr` every `--publish-every` minutes.

Every `--report-every` minutes it prints each process's RSS, the database's size (SQLite: the file
and its WAL; PostgreSQL: pg_database_size), the requests by status, read and write p50/p95/p99, the
queue and the failed jobs (from the API). At the end it lets the queue drain, checks that every
tournament it submitted is rated on every list that should rate it (and a withdrawn one on none),
groups its 4xx answers by what they refused (each problem's title, first pointer and detail, numbers
aside), and prints the verdict against the issue's targets.

PostgreSQL: the database of `--database-url` is emptied first (its `public` schema dropped and
recreated); never point it at a database you care about.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import re
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DATA = ROOT / "tests" / "data"
REAL_FILES = (
    DATA / "renju-cn-2009-2019" / "source.tsv",
    DATA / "renju-players-2022" / "ljinfo.tsv",
    DATA / "go" / "egc2013.h9",
)
PLAYER_ID_OFFSET = 100_000
MB = 1024 * 1024

# The targets.
API_RSS_BELOW = 400 * MB
WORKER_RSS_BELOW = 300 * MB
GROWTH_AT_MOST = 0.05
P99_RATIO_AT_MOST = 1.5
GROWTH_WINDOW_S = 20 * 60
P99_WINDOW_S = 10 * 60


# --- what is measured, and the pure functions that report it (tests/test_bench_soak.py) -------------


@dataclass(frozen=True)
class Request:
    at: float  # seconds since the load started, when the request was sent
    kind: str  # "read" or "write"
    label: str
    status: int  # 0: no answer (connection error, timeout)
    seconds: float
    retry_after: bool = False  # the answer carried Retry-After


@dataclass(frozen=True)
class Sample:
    at: float  # seconds since the load started (negative: before it)
    api_rss: int  # bytes
    worker_rss: int
    db_bytes: int
    queued: int
    running: int
    failed: int
    api_fds: int = 0
    worker_fds: int = 0


@dataclass(frozen=True)
class Check:
    what: str
    measured: str
    target: str
    met: bool


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100), numpy's (linear interpolation between the closest ranks); nan for
    no values."""
    return float(np.percentile(values, q)) if len(values) else float("nan")


def latencies(requests: Iterable[Request], kind: str, start: float = float("-inf"), end: float = float("inf")) -> list[float]:
    """Seconds of the answered requests of a kind sent in [start, end)."""
    return [r.seconds for r in requests if r.kind == kind and r.status and start <= r.at < end]


def status_key(request: Request) -> str:
    if request.status == 0:
        return "no answer"
    if request.status == 503 and request.retry_after:
        return "503+Retry-After"
    return str(request.status)


def status_counts(requests: Iterable[Request]) -> Counter[str]:
    return Counter(status_key(r) for r in requests)


def refusal_reason(label: str, status: int, body: bytes) -> str:
    """What a 4xx answer refused, from its problem details (RFC 9457: the title, and the first
    error's pointer and detail), so that the report tells a refusal the load asked for (a stale
    If-Match, a withdrawn tournament) from one that is the load's own mistake or the service's."""
    try:
        problem = json.loads(body)
    except ValueError:
        return f"{label} {status}: (not problem+json)"
    if not isinstance(problem, dict):
        return f"{label} {status}: (not problem+json)"
    errors = problem.get("errors") or []
    first = errors[0] if errors and isinstance(errors[0], dict) else {}
    where = f" at {first.get('pointer')}" if first.get("pointer") else ""
    detail = str(first.get("detail") or problem.get("detail") or "")
    # Digits vary from request to request (ids, days, counts): one reason whatever they are.
    detail = re.sub(r"\d+", "N", detail)[:90]
    return f"{label} {status}: {problem.get('title', '?')}{where}: {detail}"


def windows(load_seconds: float) -> tuple[float, float]:
    """(growth window, p99 window) in seconds: the issue's last 20 minutes and first/last 10 minutes,
    or a third of the run each when the run is shorter than an hour (so that the first and last p99
    windows do not overlap, and growth is judged on the run's last part, not its warm-up)."""
    return min(GROWTH_WINDOW_S, load_seconds / 3), min(P99_WINDOW_S, load_seconds / 3)


def sample_at(samples: Sequence[Sample], at: float) -> Sample:
    """The last sample taken at or before `at` (the first one if none was)."""
    chosen = samples[0]
    for sample in samples:
        if sample.at <= at:
            chosen = sample
    return chosen


def growth(samples: Sequence[Sample], name: str, start: float, end: float) -> float:
    """Relative change of a sampled figure from the sample at `start` to the one at `end`."""
    before, after = getattr(sample_at(samples, start), name), getattr(sample_at(samples, end), name)
    return (after - before) / before if before else float("inf")


def verdict(
    samples: Sequence[Sample], requests: Sequence[Request], load_seconds: float, failed_jobs: int, unrated: int, checked: int
) -> list[Check]:
    """The issue's targets against what was measured. `samples` during the load (at 0..load_seconds)
    and after it; growth and the windows are judged on the load only."""
    growth_window, p99_window = windows(load_seconds)
    during = [s for s in samples if s.at <= load_seconds + 1]
    window_start = load_seconds - growth_window
    peak_api = max(s.api_rss for s in samples)
    peak_worker = max(s.worker_rss for s in samples)
    checks = [
        Check("API process RSS, peak", f"{peak_api / MB:.0f} MB", f"< {API_RSS_BELOW // MB} MB", peak_api < API_RSS_BELOW),
        Check(
            "worker process RSS, peak",
            f"{peak_worker / MB:.0f} MB",
            f"< {WORKER_RSS_BELOW // MB} MB",
            peak_worker < WORKER_RSS_BELOW,
        ),
    ]
    minutes = f"{growth_window / 60:.0f} min"
    for name, what in (("api_rss", "API RSS"), ("worker_rss", "worker RSS"), ("db_bytes", "database size")):
        change = growth(during, name, window_start, load_seconds)
        before = getattr(sample_at(during, window_start), name) / MB
        after = getattr(sample_at(during, load_seconds), name) / MB
        checks.append(
            Check(
                f"{what}: growth over the last {minutes}",
                f"{change:+.1%} ({before:.0f} -> {after:.0f} MB)",
                f"<= {GROWTH_AT_MOST:.0%}",
                change <= GROWTH_AT_MOST,
            )
        )
    first = latencies(requests, "read", 0, p99_window)
    last = latencies(requests, "read", load_seconds - p99_window, load_seconds + 1)
    p99_first, p99_last = percentile(first, 99), percentile(last, 99)
    ratio = p99_last / p99_first if first and last and p99_first > 0 else float("nan")
    checks.append(
        Check(
            f"read p99, last {p99_window / 60:.0f} min / first {p99_window / 60:.0f} min",
            f"{p99_last * 1000:.0f} / {p99_first * 1000:.0f} ms = {ratio:.2f}",
            f"<= {P99_RATIO_AT_MOST}",
            ratio <= P99_RATIO_AT_MOST,
        )
    )
    counts = status_counts(requests)
    bad = {key: n for key, n in counts.items() if key == "no answer" or (key.isdigit() and int(key) >= 500)}
    checks.append(
        Check(
            "5xx (a 503 with Retry-After excepted) or no answer",
            ", ".join(f"{n} {key}" for key, n in sorted(bad.items()))
            or f"none ({counts.get('503+Retry-After', 0)} 503+Retry-After)",
            "none",
            not bad,
        )
    )
    checks.append(Check("failed jobs", str(failed_jobs), "0", failed_jobs == 0))
    checks.append(Check("submitted tournaments not as rated as they should be", f"{unrated} of {checked}", "0", unrated == 0))
    return checks


# --- the processes --------------------------------------------------------------------------------


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def open_fds(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


class Database:
    """The database under test: its URL for the service, and its size."""

    def __init__(self, url: str | None, workdir: Path) -> None:
        self.sqlite_path = workdir / "soak.sqlite3" if url is None else None
        self.url = f"sqlite:///{self.sqlite_path}" if url is None else url
        self._engine: Any = None

    @property
    def kind(self) -> str:
        return "SQLite" if self.sqlite_path else "PostgreSQL"

    def empty(self) -> None:
        if self.sqlite_path:
            for stale in self.sqlite_path.parent.glob(self.sqlite_path.name + "*"):
                stale.unlink()
            return
        from sqlalchemy import text

        with self.engine().begin() as connection:
            connection.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
            connection.execute(text("CREATE SCHEMA public"))

    def engine(self) -> Any:
        if self._engine is None:
            from sqlalchemy import create_engine

            self._engine = create_engine(self.url, pool_size=1, max_overflow=0)
        return self._engine

    def size(self) -> int:
        if self.sqlite_path:
            return sum(
                path.stat().st_size
                for path in (self.sqlite_path, Path(f"{self.sqlite_path}-wal"))
                if path.exists()  # the -shm file is an index of the WAL, not data
            )
        from sqlalchemy import text

        with self.engine().connect() as connection:
            return int(connection.scalar(text("SELECT pg_database_size(current_database())")))

    def details(self) -> str:
        """Where the space is: SQLite's free pages, PostgreSQL's largest tables (with their TOAST)."""
        if self.sqlite_path:
            with sqlite3.connect(f"file:{self.sqlite_path}?mode=ro", uri=True) as connection:
                pages = connection.execute("PRAGMA page_count").fetchone()[0]
                free = connection.execute("PRAGMA freelist_count").fetchone()[0]
                page_size = connection.execute("PRAGMA page_size").fetchone()[0]
            wal = Path(f"{self.sqlite_path}-wal")
            return (
                f"file {pages * page_size / MB:.1f} MB ({free * page_size / MB:.1f} MB of it free pages), "
                f"WAL {wal.stat().st_size / MB if wal.exists() else 0:.1f} MB"
            )
        from sqlalchemy import text

        query = text(
            "SELECT c.relname, pg_total_relation_size(c.oid), s.n_dead_tup FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid "
            "WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY 2 DESC LIMIT 5"
        )
        with self.engine().connect() as connection:
            rows = connection.execute(query).all()
        return "largest tables: " + ", ".join(f"{name} {size / MB:.1f} MB ({dead or 0} dead rows)" for name, size, dead in rows)

    def close(self) -> None:
        if self._engine is not None:
            self._engine.dispose()


def run_cli(arguments: list[str], environment: dict[str, str], log: Path) -> str:
    with log.open("ab") as log_file:
        done = subprocess.run(
            [sys.executable, "-m", "app.cli", *arguments], cwd=ROOT, env=environment, stdout=subprocess.PIPE, stderr=log_file
        )
    if done.returncode != 0:
        sys.exit(f"python -m app.cli {' '.join(arguments)} failed (exit {done.returncode}); see {log}")
    return done.stdout.decode()


def import_everything(environment: dict[str, str], workdir: Path) -> None:
    from bench.histories import rif_sized
    from bench.results_file import write_results_file

    history = rif_sized()
    source = workdir / "rif-sized.tsv"
    write_results_file(history, source, player_id_offset=PLAYER_ID_OFFSET)
    for path in (source, *REAL_FILES):
        started = time.perf_counter()
        run_cli(["import", "--no-progress", str(path)], environment, workdir / "import.log")
        print(f"  imported {path.name} in {time.perf_counter() - started:.1f} s", flush=True)
    source.unlink()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(arguments: list[str], environment: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as log_file:
        return subprocess.Popen(
            [sys.executable, "-m", "app.cli", *arguments], cwd=ROOT, env=environment, stdout=log_file, stderr=log_file
        )


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# --- the load -------------------------------------------------------------------------------------


@dataclass
class Submitted:
    """A tournament the soak submitted, as its last accepted write left it."""

    body: dict[str, Any]
    etag: str
    withdrawn: bool = False
    lists: list[dict[str, Any]] = field(default_factory=list)
    busy: bool = False


@dataclass
class Keys:
    """What the readers spread over, read from the service before the load."""

    players: list[str]
    renju_players: list[str]
    go_players: list[str]
    tournaments: list[str]
    names: list[str]
    calculations: list[tuple[str, dict[str, Any]]]


class Load:
    def __init__(self, base: str, organiser: str, officer: str, keys: Keys, seed: int, write_share: float, pause: float) -> None:
        self.base = base
        self.organiser = {"Authorization": f"Bearer {organiser}"}
        self.officer = {"Authorization": f"Bearer {officer}"}
        self.keys = keys
        self.seed = seed
        self.write_share = write_share
        self.pause = pause
        self.requests: list[Request] = []
        self.submitted: dict[str, Submitted] = {}
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.started = time.monotonic()
        self.publications = 0
        self.errors: Counter[str] = Counter()
        self.refusals: Counter[str] = Counter()  # 4xx answers by what they refused (refusal_reason)
        self._serial = 0

    # One request, timed and recorded.
    def call(self, client: Any, kind: str, label: str, method: str, path: str, **kwargs: Any) -> Any:
        sent = time.monotonic()
        try:
            answer = client.request(method, path, **kwargs)
        except Exception as error:  # noqa: BLE001 - a timeout or a refused connection is a measured outcome
            with self.lock:
                self.requests.append(Request(sent - self.started, kind, label, 0, time.monotonic() - sent))
                self.errors[f"{label}: {type(error).__name__}"] += 1
            return None
        seconds = time.monotonic() - sent
        with self.lock:
            self.requests.append(
                Request(sent - self.started, kind, label, answer.status_code, seconds, "retry-after" in answer.headers)
            )
            if 400 <= answer.status_code < 500:
                self.refusals[refusal_reason(label, answer.status_code, answer.content)] += 1
        return answer

    def serial(self) -> int:
        with self.lock:
            self._serial += 1
            return self._serial

    def client_loop(self, number: int) -> None:
        import httpx

        rng = random.Random(self.seed * 1000 + number)
        reads = self._reads()
        weights = [weight for weight, _ in reads]
        with httpx.Client(base_url=self.base, timeout=60) as client:
            while not self.stopping.is_set():
                if rng.random() < self.write_share:
                    self._write(client, rng)
                else:
                    rng.choices(reads, weights)[0][1](client, rng)
                if self.pause:
                    self.stopping.wait(rng.uniform(0, 2 * self.pause))

    def publisher_loop(self, every_s: float) -> None:
        import httpx

        with httpx.Client(base_url=self.base, timeout=120) as client:
            while not self.stopping.wait(every_s):
                today = dt.datetime.now(dt.UTC).date().isoformat()
                answer = self.call(
                    client,
                    "write",
                    "publish rif-whr",
                    "POST",
                    "/v1/rating-lists/rif-whr/publications",
                    json={"date": today, "title": f"Soak publication {self.publications + 1}"},
                    headers=self.officer,
                )
                if answer is not None and answer.status_code == 201:
                    self.publications += 1

    # Reads: (weight, request), 100 in all.
    def _reads(self) -> list[tuple[int, Callable[[Any, random.Random], None]]]:
        keys = self.keys

        def day(rng: random.Random) -> str:
            return (dt.date(2009, 1, 1) + dt.timedelta(days=rng.randrange(16 * 365))).isoformat()

        def read(label: str, path: Callable[[random.Random], str]) -> Callable[[Any, random.Random], None]:
            return lambda client, rng: self.call(client, "read", label, "GET", path(rng))

        def changes(rng: random.Random) -> str:
            # Since the latest publication; before the first, between two rating days (without a
            # publication `from` is required: the run's first minutes asked it in vain, a 404 each).
            path = f"/v1/players/{rng.choice(keys.renju_players)}/changes?list=rif-whr"
            if self.publications:
                return path
            first, last = sorted((day(rng), day(rng)))
            return f"{path}&from={first}&to={last}"

        def prefix(rng: random.Random) -> str:
            word = rng.choice(rng.choice(keys.names).split())
            return word[: rng.randint(1, min(5, len(word)))]

        def calculation(client: Any, rng: random.Random) -> None:
            path, body = rng.choice(keys.calculations)
            self.call(client, "read", "calculator", "POST", path, json=body)

        def what_if(client: Any, rng: random.Random) -> None:
            body = self._tournament(rng, f"what-if-{rng.randrange(10**9)}", "renju", stored_share=1.0, players=4)
            self.call(client, "read", "what-if", "POST", "/v1/rating-lists/rif-whr/what-if", json=body)

        def publication_rows(client: Any, rng: random.Random) -> None:
            if not self.publications:  # none yet: the list of them instead of a 404
                self.call(client, "read", "publications", "GET", "/v1/rating-lists/rif-whr/publications")
                return
            number = rng.randint(1, self.publications)
            offset = rng.randrange(0, 4500)
            self.call(
                client,
                "read",
                "publication rows",
                "GET",
                f"/v1/rating-lists/rif-whr/publications/{number}/ratings?offset={offset}",
            )

        def player(rng: random.Random) -> str:
            return rng.choice(keys.players)

        ratings = "/v1/rating-lists/rif-whr/ratings?status=all"
        return [
            (12, read("list page", lambda rng: f"{ratings}&limit={rng.choice((20, 50, 100, 500))}&offset={rng.randrange(4700)}")),
            (12, read("list as_of", lambda rng: f"{ratings}&as_of={day(rng)}&limit=100&offset={rng.randrange(0, 2000, 100)}")),
            (4, read("list page (web)", lambda rng: f"/lists/rif-whr?status=all&per_page=100&page={rng.randint(1, 47)}")),
            (2, read("list as_of (web)", lambda rng: f"/lists/rif-whr?status=all&as_of={day(rng)}")),
            (
                3,
                read(
                    "other lists",
                    lambda rng: f"/v1/rating-lists/{rng.choice(('rivne', 'eru', 'rif-whr-gomoku'))}/ratings?status=all",
                ),
            ),
            (12, read("history", lambda rng: f"/v1/players/{player(rng)}/history?list=rif-whr")),
            (5, read("player", lambda rng: f"/v1/players/{player(rng)}")),
            (5, read("player page (web)", lambda rng: f"/players/{player(rng)}")),
            (3, read("player changes", changes)),
            (7, read("tournament", lambda rng: f"/v1/tournaments/{rng.choice(keys.tournaments)}")),
            (4, read("tournament page (web)", lambda rng: f"/tournaments/{rng.choice(keys.tournaments)}")),
            (2, read("tournaments", lambda rng: f"/v1/tournaments?year={rng.randint(1990, 2024)}")),
            (9, read("search", lambda rng: f"/v1/players?q={prefix(rng)}")),
            (3, read("search (web)", lambda rng: f"/players?q={prefix(rng)}")),
            (2, read("publications", lambda rng: "/v1/rating-lists/rif-whr/publications")),
            (4, publication_rows),
            (10, calculation),
            (1, what_if),
        ]

    def _tournament(
        self, rng: random.Random, tournament_id: str, category: str, stored_share: float, players: int
    ) -> dict[str, Any]:
        """A small round robin: some stored players of the category, the rest new, on a day of 2009-2024."""
        pool = self.keys.go_players if category == "go" else self.keys.renju_players
        stored = sum(rng.random() < stored_share for _ in range(players))
        unique: list[dict[str, Any]] = [{"id": player_id} for player_id in rng.sample(pool, stored)]
        for n in (self.serial() for _ in range(players - stored)):
            unique.append({"id": f"soak-{self.seed}-{n}", "name": f"Soak{n}", "surname": f"Newcomer{n % 997}"})
        if category == "go":
            for p in unique:
                p["rank"] = rng.choice(("10k", "5k", "2k", "1d", "3d"))
        end = dt.date(2009, 1, 1) + dt.timedelta(days=rng.randrange(16 * 365))
        games = [
            {"round": str(r + 1), "black": a["id"], "white": b["id"], "result": rng.choice("BBWWD")}
            for r, (a, b) in enumerate((a, b) for i, a in enumerate(unique) for b in unique[i + 1 :])
        ]
        body: dict[str, Any] = {
            "id": tournament_id,
            "name": f"Soak {tournament_id}",
            "category": category,
            "start": (end - dt.timedelta(days=1)).isoformat(),
            "end": end.isoformat(),
            "time_control_minutes": 60,
            "players": unique,
            "games": games,
        }
        if category == "go":
            body["board_size"] = 19
        else:
            body["rule"] = "RIF"
        return body

    # Writes: half new tournaments, then corrections, withdrawals and restores of the soak's own.
    def _write(self, client: Any, rng: random.Random) -> None:
        choice = rng.random()
        if choice < 0.5 or not self.submitted:
            self._submit(client, rng)
            return
        with self.lock:
            free = [(tid, t) for tid, t in self.submitted.items() if not t.busy]
            if not free:
                target = None
            else:
                withdrawn = [(tid, t) for tid, t in free if t.withdrawn]
                if choice >= 0.875 and withdrawn:
                    target = rng.choice(withdrawn)
                else:
                    standing = [(tid, t) for tid, t in free if not t.withdrawn] or free
                    target = rng.choice(standing)
                target[1].busy = True
        if target is None:
            self._submit(client, rng)
            return
        tournament_id, state = target
        headers = {**self.organiser, "If-Match": state.etag}
        try:
            if state.withdrawn:
                answer = self.call(
                    client, "write", "restore", "POST", f"/v1/tournaments/{tournament_id}/restore", headers=headers
                )
            elif choice < 0.75:
                body = json.loads(json.dumps(state.body))
                game = rng.choice(body["games"])
                game["result"] = {"B": "W", "W": "D", "D": "B"}[game["result"]]
                answer = self.call(
                    client, "write", "correction", "PUT", f"/v1/tournaments/{tournament_id}", json=body, headers=headers
                )
                if answer is not None and answer.status_code == 200:
                    state.body = body
            else:
                answer = self.call(
                    client, "write", "withdrawal", "DELETE", f"/v1/tournaments/{tournament_id}?reason=soak", headers=headers
                )
            if answer is not None and answer.status_code in (200, 201):
                stored = answer.json()
                state.etag = answer.headers.get("etag", state.etag)
                state.withdrawn = stored.get("withdrawn_at") is not None
                state.lists = stored.get("lists", state.lists)
            elif answer is not None and answer.status_code == 412:
                fresh = self.call(client, "read", "tournament (after a 412)", "GET", f"/v1/tournaments/{tournament_id}")
                if fresh is not None and fresh.status_code == 200:
                    state.etag = fresh.headers["etag"]
        finally:
            with self.lock:
                state.busy = False

    def _submit(self, client: Any, rng: random.Random) -> None:
        category = "go" if rng.random() < 0.1 else "renju"
        tournament_id = f"soak-{self.seed}-t{self.serial()}"
        body = self._tournament(rng, tournament_id, category, stored_share=0.6, players=rng.randint(4, 8))
        if category == "renju" and rng.random() < 0.2:
            body["conditions"] = {"eru": {"eru_calendar": True}}
        answer = self.call(
            client, "write", f"submission ({category})", "POST", "/v1/tournaments", json=body, headers=self.organiser
        )
        if answer is not None and answer.status_code == 201:
            with self.lock:
                self.submitted[tournament_id] = Submitted(body, answer.headers["etag"], lists=answer.json().get("lists", []))


def read_keys(base: str) -> Keys:
    """The players, tournaments and names the readers spread over, and every calculator example of the
    contract, from the service itself (before the load; not counted)."""
    import httpx

    with httpx.Client(base_url=base, timeout=120) as client:

        def rows(list_id: str) -> list[dict[str, Any]]:
            found: list[dict[str, Any]] = []
            while True:
                page = client.get(f"/v1/rating-lists/{list_id}/ratings?status=all&limit=500&offset={len(found)}").json()
                found += page["items"]
                if len(found) >= page["total"] or not page["items"]:
                    return found

        renju, go = rows("rif-whr"), rows("rivne")
        tournaments: list[str] = []
        while True:
            page = client.get(f"/v1/tournaments?limit=500&offset={len(tournaments)}").json()
            tournaments += [t["id"] for t in page["items"]]
            if len(tournaments) >= page["total"] or not page["items"]:
                break
    names = [row["name"] for row in renju + go if row.get("name")]
    with (DATA / "renju-players-2022" / "ljinfo.tsv").open(encoding="utf-8") as directory:
        names += [line.split("\t")[2] for line in directory if line.split("\t")[2] not in ("*", "")]
    contract = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))
    calculations = [
        (path, example["value"])
        for path, operations in contract["paths"].items()
        if path.startswith("/v1/calc/") and "post" in operations
        for example in operations["post"]["requestBody"]["content"]["application/json"].get("examples", {}).values()
    ]
    renju_ids = [row["player_id"] for row in renju]
    go_ids = [row["player_id"] for row in go]
    return Keys(renju_ids + go_ids, renju_ids, go_ids, tournaments, names, calculations)


# --- watching -------------------------------------------------------------------------------------


class Watcher:
    def __init__(self, load: Load, database: Database, api_pid: int, worker_pid: int, base: str) -> None:
        import httpx

        self.load, self.database, self.api_pid, self.worker_pid = load, database, api_pid, worker_pid
        self.samples: list[Sample] = []
        self.client = httpx.Client(base_url=base, timeout=60)

    def jobs(self, status: str) -> int:
        answer = self.client.get(f"/v1/jobs?status={status}&limit=1")
        return int(answer.json()["total"]) if answer.status_code == 200 else -1

    def sample(self) -> Sample:
        sample = Sample(
            at=time.monotonic() - self.load.started,
            api_rss=rss_bytes(self.api_pid),
            worker_rss=rss_bytes(self.worker_pid),
            db_bytes=self.database.size(),
            queued=self.jobs("queued"),
            running=self.jobs("running"),
            failed=self.jobs("failed"),
            api_fds=open_fds(self.api_pid),
            worker_fds=open_fds(self.worker_pid),
        )
        self.samples.append(sample)
        return sample

    def cache_metrics(self) -> list[str]:
        """The API's /metrics lines that speak of caches, if it has any (issue 48 item 1)."""
        answer = self.client.get("/metrics")
        if answer.status_code != 200:
            return []
        return [line for line in answer.text.splitlines() if "cache" in line and not line.startswith("#")]

    def close(self) -> None:
        self.client.close()


def print_report(title: str, watcher: Watcher, since: float) -> None:
    load, now = watcher.load, watcher.samples[-1]
    first = watcher.samples[0]
    with load.lock:
        requests = list(load.requests)
    period = [r for r in requests if r.at >= since]
    print(f"\n== {title} ({dt.datetime.now(dt.UTC):%H:%M:%S} UTC)")
    print(
        f"  RSS: API {now.api_rss / MB:.0f} MB (at the start {first.api_rss / MB:.0f}), worker {now.worker_rss / MB:.0f} MB "
        f"(at the start {first.worker_rss / MB:.0f}); open files: API {now.api_fds}, worker {now.worker_fds}"
    )
    print(f"  database: {now.db_bytes / MB:.1f} MB (at the start {first.db_bytes / MB:.1f}); {watcher.database.details()}")
    print(f"  jobs: {now.queued} queued, {now.running} running, {now.failed} failed; publications made: {load.publications}")
    for name, chosen in (("this period", period), ("whole run", requests)):
        counts = status_counts(chosen)
        print(f"  requests, {name}: {len(chosen)}: " + ", ".join(f"{key} {n}" for key, n in sorted(counts.items())))
        for kind in ("read", "write"):
            values = latencies(chosen, kind)
            print(
                f"    {kind:<5} p50 / p95 / p99: {percentile(values, 50) * 1000:7.1f} / {percentile(values, 95) * 1000:7.1f} / "
                f"{percentile(values, 99) * 1000:7.1f} ms  (n={len(values)})"
            )
    for line in watcher.cache_metrics():
        print(f"  metric: {line}")
    sys.stdout.flush()


# --- the end: every submission rated --------------------------------------------------------------


def check_submissions(base: str, submitted: dict[str, Submitted]) -> tuple[int, list[str]]:
    """How many of the soak's tournaments are not as rated as they should be, with examples: one that
    stands is rated by every list whose last answer said it rates it and queued a recompute (its changes
    on the list's current snapshot, for a WHR list one for every player of its games; the list not
    stale for it); a withdrawn one has no changes on any list. Its stored version is the last one the
    soak's writes left."""
    import httpx

    problems: list[str] = []
    with httpx.Client(base_url=base, timeout=60) as client:
        for tournament_id, state in submitted.items():
            answer = client.get(f"/v1/tournaments/{tournament_id}")
            if answer.status_code != 200:
                problems.append(f"{tournament_id}: {answer.status_code}")
                continue
            stored = answer.json()
            problem = submission_problem(state, stored, answer.headers.get("etag"))
            if problem:
                problems.append(f"{tournament_id}: {problem}")
    return len(problems), problems


def submission_problem(state: Submitted, stored: dict[str, Any], etag: str | None) -> str | None:
    if etag != state.etag:
        return f"stored as {etag}, the soak's last write left {state.etag}"
    if (stored.get("withdrawn_at") is not None) != state.withdrawn:
        return (
            "stored withdrawn, the soak's last write restored it"
            if not state.withdrawn
            else "stored standing, the soak withdrew it"
        )
    changes: dict[str, set[str]] = {}
    for change in stored.get("rating_changes", []):
        changes.setdefault(change["list_id"], set()).add(change["player_id"])
    if state.withdrawn:
        return f"withdrawn, but has changes on {sorted(changes)}" if changes else None
    stale = {entry["list_id"] for entry in stored.get("stale_lists", [])}
    players = {game[side] for game in state.body["games"] for side in ("black", "white")}
    for entry in state.lists:
        if not entry.get("rated") or entry.get("job_id") is None:
            continue
        list_id = entry["id"]
        if list_id in stale:
            return f"{list_id} is stale for it"
        if list_id not in changes:
            return f"no changes on {list_id}"
        if list_id.startswith("rif-whr") and not players <= changes[list_id]:
            return f"{list_id}: no change for {sorted(players - changes[list_id])}"
    return None


# --- main -----------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=60, help="minutes of load (default 60)")
    parser.add_argument("--database-url", help="PostgreSQL URL (its public schema is dropped!); default: a temporary SQLite file")
    parser.add_argument("--clients", type=int, default=6, help="concurrent clients, 4-8 (default 6)")
    parser.add_argument("--report-every", type=float, default=5, help="minutes between reports (default 5)")
    parser.add_argument("--publish-every", type=float, default=3, help="minutes between publications of rif-whr (default 3)")
    parser.add_argument("--sample-every", type=float, default=30, help="seconds between samples of RSS, size, queue (default 30)")
    parser.add_argument(
        "--write-share", type=float, default=0.15, help="share of the clients' requests that write (default 0.15)"
    )
    parser.add_argument(
        "--pause", type=float, default=0.05, help="mean seconds a client waits between its requests (default 0.05; 0: none)"
    )
    parser.add_argument("--drain-minutes", type=float, default=10, help="at most this long for the queue to drain (default 10)")
    parser.add_argument("--workdir", type=Path, help="keep the database and logs here (default: a temporary directory)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="bench-soak-"))
    workdir.mkdir(parents=True, exist_ok=True)
    database = Database(args.database_url, workdir)
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        "DATABASE_URL": database.url,
        "RATING_API_KEYS": "",
        "RUN_WORKER": "false",
        "LOG_LEVEL": os.environ.get("LOG_LEVEL", "WARNING"),
    }
    print(f"soak: {database.kind}, {args.minutes:g} min, {args.clients} clients, work directory {workdir}", flush=True)
    database.empty()
    started = time.perf_counter()
    import_everything(environment, workdir)
    organiser = run_cli(["keys", "create", "soak-organiser", "--role", "organiser"], environment, workdir / "import.log").strip()
    officer = run_cli(
        ["keys", "create", "soak-officer", "--role", "officer", "--lists", "rif-whr"], environment, workdir / "import.log"
    )
    officer = officer.strip()
    print(f"  history and real files imported, keys made in {time.perf_counter() - started:.0f} s", flush=True)

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    api = start(["serve", "--no-worker", "--host", "127.0.0.1", "--port", str(port)], environment, workdir / "api.log")
    worker = start(["worker"], environment, workdir / "worker.log")
    exit_status = 1
    try:
        wait_until_up(base, api)
        keys = read_keys(base)
        print(
            f"  spread over {len(keys.players)} players, {len(keys.tournaments)} tournaments, {len(keys.names)} names, "
            f"{len(keys.calculations)} calculations; API pid {api.pid}, worker pid {worker.pid}",
            flush=True,
        )
        exit_status = soak(args, database, keys, base, organiser, officer, api, worker)
    finally:
        stop(api)
        stop(worker)
        database.close()
        if args.workdir is None and database.sqlite_path:
            for path in workdir.glob(database.sqlite_path.name + "*"):
                path.unlink()
        print(f"logs: {workdir}")
    return exit_status


def soak(
    args: argparse.Namespace,
    database: Database,
    keys: Keys,
    base: str,
    organiser: str,
    officer: str,
    api: subprocess.Popen[bytes],
    worker: subprocess.Popen[bytes],
) -> int:
    load = Load(base, organiser, officer, keys, args.seed, args.write_share, args.pause)
    watcher = Watcher(load, database, api.pid, worker.pid, base)
    watcher.sample()
    print_report("before the load", watcher, 0)
    threads = [threading.Thread(target=load.client_loop, args=(n,), daemon=True) for n in range(args.clients)]
    threads.append(threading.Thread(target=load.publisher_loop, args=(args.publish_every * 60,), daemon=True))
    for thread in threads:
        thread.start()
    load_seconds = args.minutes * 60
    next_sample, next_report, last_report = args.sample_every, args.report_every * 60, 0.0
    while (now := time.monotonic() - load.started) < load_seconds:
        for process, name in ((api, "API"), (worker, "worker")):
            if process.poll() is not None:
                load.stopping.set()
                print(f"the {name} process stopped (exit {process.returncode}); see its log")
                return 1
        time.sleep(min(1.0, max(0.0, load_seconds - now)))
        now = time.monotonic() - load.started
        if now >= next_sample:
            watcher.sample()
            next_sample += args.sample_every
        if now >= next_report and now < load_seconds - 5:
            print_report(f"minute {now / 60:.0f} of {args.minutes:g}", watcher, last_report)
            last_report, next_report = now, next_report + args.report_every * 60
    load.stopping.set()
    for thread in threads:
        thread.join(timeout=120)
    load_seconds = time.monotonic() - load.started
    watcher.sample()
    print_report("end of the load", watcher, last_report)

    drain_deadline = time.monotonic() + args.drain_minutes * 60
    while watcher.jobs("queued") + watcher.jobs("running") > 0 and time.monotonic() < drain_deadline:
        time.sleep(1)
    time.sleep(3)  # the API reads the last snapshot within SNAPSHOT_WATCH_SECONDS (1 s)
    drained = watcher.sample()
    print(
        f"\nqueue drained in {drained.at - load_seconds:.0f} s: {drained.queued} queued, {drained.running} running; "
        f"RSS API {drained.api_rss / MB:.0f} MB, worker {drained.worker_rss / MB:.0f} MB; database {drained.db_bytes / MB:.1f} MB"
    )
    unrated, problems = check_submissions(base, load.submitted)
    withdrawn = sum(state.withdrawn for state in load.submitted.values())
    print(
        f"submitted tournaments checked: {len(load.submitted)} ({withdrawn} withdrawn at the end); not rated as they should be: {unrated}"
    )
    for problem in problems[:10]:
        print(f"  {problem}")
    with load.lock:
        requests = list(load.requests)
    by_label = Counter((r.label, status_key(r)) for r in requests)
    print("requests by kind and status:")
    for label in sorted({label for label, _ in by_label}):
        print(f"  {label:<26} " + ", ".join(f"{key} {n}" for (lab, key), n in sorted(by_label.items()) if lab == label))
    for error, n in load.errors.most_common(5):
        print(f"  no answer: {error} x{n}")
    if load.refusals:
        print("4xx answers by what they refused (the 15 most frequent):")
        for reason, n in load.refusals.most_common(15):
            print(f"  {n:6} {reason}")
    growth_window, p99_window = windows(load_seconds)
    print(
        f"\nverdict ({database.kind}, {load_seconds / 60:.1f} min of load; growth over the last {growth_window / 60:.0f} min, "
        f"read p99 of the first and last {p99_window / 60:.0f} min):"
    )
    checks = verdict(watcher.samples, requests, load_seconds, drained.failed, unrated, len(load.submitted))
    width = max(len(check.what) for check in checks)
    for check in checks:
        print(f"  {check.what:<{width}}  {check.measured:<34} target {check.target:<10} {'met' if check.met else 'NOT MET'}")
    print("every target met" if all(check.met for check in checks) else "some targets not met")
    print("\nsamples (minute, API MB, worker MB, database MB, queued, running, failed):")
    for sample in watcher.samples:
        print(
            f"  {sample.at / 60:6.1f} {sample.api_rss / MB:6.0f} {sample.worker_rss / MB:6.0f} {sample.db_bytes / MB:8.1f} "
            f"{sample.queued:4} {sample.running:3} {sample.failed:3}"
        )
    watcher.close()
    return 0 if all(check.met for check in checks) else 1


def wait_until_up(base: str, api: subprocess.Popen[bytes]) -> None:
    import httpx

    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if api.poll() is not None:
            sys.exit(f"the API process stopped (exit {api.returncode}); see its log")
        try:
            if httpx.get(f"{base}/v1/health/ready", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    sys.exit("the API did not become ready within 180 s")


if __name__ == "__main__":
    if not Path("/proc/self/status").exists():
        sys.exit("the soak reads each process's RSS from /proc: it needs Linux")
    sys.exit(main())
