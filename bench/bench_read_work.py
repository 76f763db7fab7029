"""The work an uncached read does, counted rather than timed: Python function calls and SQL statements
per request, in-process, for the read kinds of bench_scale.py. Counts do not move with the load of a
shared machine, so two commits can be compared on it where their times cannot (bench/README.md,
"The wings' reads, counted"):

    .venv/bin/python bench/bench_read_work.py --database DIR/rif.sqlite3 [--reads 40] [--kind player-page ...]

DATABASE is a SQLite file a recompute has rated (`bench_scale.py --size rif --reuse DIR` leaves one
in DIR). The service is created in this process without its worker (``RUN_WORKER=false``); each
sync endpoint runs on the event loop's thread instead of the thread pool, so that one profiler sees
the whole request. Each kind is read ``--reads`` times to warm up and then ``--reads`` times more with
queries not answered before (other players, tournaments, offsets, texts), the latter counted: calls
(``cProfile``'s total), SQL statements (SQLAlchemy's ``before_cursor_execute``), and the median
time, for what it is worth on the machine of the moment. ``--profile KIND`` prints that kind's
functions by their own time as well."""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", type=Path, required=True, help="a rated SQLite file (bench_scale.py --reuse DIR)")
    parser.add_argument("--reads", type=int, default=40, help="reads of each kind, warm-up and counted alike")
    parser.add_argument("--kind", action="append", choices=sorted(KINDS), help="only these kinds (repeatable)")
    parser.add_argument("--profile", choices=sorted(KINDS), help="also print this kind's 25 costliest functions")
    args = parser.parse_args()
    os.environ |= {"DATABASE_URL": f"sqlite:///{args.database}", "RUN_WORKER": "false", "LOG_LEVEL": "WARNING"}
    print(f"{'read':<16} {'calls':>8} {'SQL':>5} {'median ms':>10}")
    for kind, row in measure(args.kind or sorted(KINDS), args.reads, args.profile).items():
        print(f"{kind:<16} {row['calls']:>8.0f} {row['statements']:>5.1f} {row['median_ms']:>10.2f}")


def measure(kinds: list[str], reads: int, profiled_kind: str | None) -> dict[str, dict[str, float]]:
    """Each kind's calls and statements per request, and its median time."""
    import anyio.to_thread
    from fastapi.testclient import TestClient
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    from app.main import create_app

    async def on_the_loop(function: Callable[..., Any], *args: Any, **_: Any) -> Any:
        return function(*args)

    anyio.to_thread.run_sync = on_the_loop  # type: ignore[assignment]  # (one thread: one profiler sees it all)
    app = create_app()
    state: dict[str, Any] = {"profiler": None, "statements": 0}

    async def counted(scope: Any, receive: Any, send: Any) -> None:
        profiler = state["profiler"]
        if profiler is None or scope["type"] != "http":
            await app(scope, receive, send)
            return
        profiler.enable()
        try:
            await app(scope, receive, send)
        finally:
            profiler.disable()

    @event.listens_for(Engine, "before_cursor_execute")
    def _statement(*_: Any) -> None:
        if state["profiler"] is not None:
            state["statements"] += 1

    rows: dict[str, dict[str, float]] = {}
    with TestClient(counted) as client:
        paths = _paths(client, 2 * reads)
        for kind in kinds:
            warm_up, counted_paths = paths[kind][:reads], paths[kind][reads:]
            for path in warm_up:
                _read(client, path)
            state["profiler"], state["statements"] = cProfile.Profile(), 0
            times = []
            for path in counted_paths:
                start = time.perf_counter()
                _read(client, path)
                times.append(time.perf_counter() - start)
            stats = pstats.Stats(state["profiler"])
            state["profiler"] = None
            rows[kind] = {
                "calls": stats.total_calls / len(counted_paths),  # type: ignore[attr-defined]
                "statements": state["statements"] / len(counted_paths),
                "median_ms": 1000 * statistics.median(times),
            }
            if kind == profiled_kind:
                stats.sort_stats("tottime").print_stats(25)
    return rows


def _read(client: Any, path: str) -> None:
    answer = client.get(path)
    if answer.status_code != 200:
        raise SystemExit(f"GET {path}: {answer.status_code} {answer.text[:200]}")


def _paths(client: Any, count: int) -> dict[str, list[str]]:
    """``count`` queries of each kind, none repeated, from the list and the tournaments stored."""
    page = client.get("/v1/rating-lists/rif-whr/ratings", params={"status": "all", "limit": 500}).json()
    players = [row["player_id"] for row in page["items"]]
    tournaments = [t["id"] for t in client.get("/v1/tournaments", params={"limit": 500}).json()["items"]]
    total = page["total"]
    return {kind: [build(i, players, tournaments, total) for i in range(count)] for kind, build in KINDS.items()}


KINDS: dict[str, Callable[[int, list[str], list[str], int], str]] = {
    "list-page": lambda i, _p, _t, total: (
        f"/v1/rating-lists/rif-whr/ratings?status=all&limit=100&offset={(7 * i) % max(1, total - 100)}"
    ),
    "list-web-page": lambda i, _p, _t, total: f"/lists/rif-whr?offset={(11 * i) % max(1, total - 100)}",
    "history": lambda i, players, _t, _n: f"/v1/players/{players[i % len(players)]}/history?list=rif-whr",
    "player-page": lambda i, players, _t, _n: f"/players/{players[(50 + i) % len(players)]}",
    "tournament-page": lambda i, _p, tournaments, _n: f"/tournaments/{tournaments[i % len(tournaments)]}",
    "search-api": lambda i, _p, _t, _n: f"/v1/players?q=Last{1000 + i}",
    "search-web": lambda i, _p, _t, _n: f"/players?q=First{2000 + i}",
}


if __name__ == "__main__":
    main()
