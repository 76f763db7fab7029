"""Benchmark: the WHR engine (app/rating/whr.py) against the reference `whr` package.

    .venv/bin/python bench/bench_whr.py                      # RIF-sized, everything
    .venv/bin/python bench/bench_whr.py --size both          # also the large history (minutes)
    .venv/bin/python bench/bench_whr.py --size large --skip-reference

On the same generated games (bench/histories.py, seeded) it runs, each side in its own subprocess
(so that its peak RSS is its own, read from getrusage ru_maxrss), one after the other:

  engine cold             fit() from 1900 for everyone
  engine warm             fit() warm-started from the fit of all games but the last tournament
  reference iterate(100)  whr.Base(config={"w2": 12.9, "virtual_games": 2}).iterate(100), the
                          RIF list's own call
  reference converge      the same, iterate_until_converge()

The engine's times come from one more subprocess that alternates cold and warm fits, --repeat of
each, and reports the medians (separate processes differed by 10-20 % in speed, too much for a
warm/cold ratio), with the part spent in Newton steps and conjugate gradients; the reference runs
once. The reference's create_games() is timed apart and left out of its time (the engine's time
includes everything: validation, building the sparse structure, Newton, deviations). It also reports
how far each result is from the engine's optimum. Every subprocess runs with one BLAS/OpenMP thread.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.histories import SIZES, History  # noqa: E402

SIDES = ["engine-cold", "engine-warm", "ref-iterate100", "ref-converge"]
LABELS = {
    "engine-cold": "engine, cold",
    "engine-warm": "engine, warm (+1 tournament)",
    "ref-iterate100": "reference iterate(100)",
    "ref-converge": "reference iterate_until_converge",
}


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # Linux: kilobytes


def _hwm_mb() -> float:
    """Peak RSS so far (VmHWM), to tell what the data and imports took before the measured work."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return _peak_rss_mb()


# ------------------------------------------------------------------------------------------------
# workers (run in a subprocess each)


def timing_worker(history_path: str, repeat: int) -> dict:
    """The engine's cold and warm fits, alternated in one process (`repeat` of each).

    Alternating makes the warm/cold ratio fair: the two sides see the same process state (heap,
    page cache), which otherwise differs between subprocesses by 10-20 %. The time inside
    `_Problem.maximise` (Newton steps and conjugate gradients) is recorded apart; the rest of a
    fit - validation, the sparse structure, the starting point, the deviations - is the fixed cost
    that a warm start cannot shrink.
    """
    from app.rating import whr as W

    history = History.load(history_path)
    args = (history.black, history.white, history.score, history.day, history.n_players)
    previous = history.without_last_tournament()
    before = W.fit(previous.black, previous.white, previous.score, previous.day, previous.n_players)
    warm = W.WarmStart.from_fit(before)
    del before
    newton = []
    maximise = W._Problem.maximise

    def timed_maximise(self, *a, **k):
        start = time.perf_counter()
        try:
            return maximise(self, *a, **k)
        finally:
            newton.append(time.perf_counter() - start)

    W._Problem.maximise = timed_maximise
    report = {}
    times = {"cold": [], "warm": []}
    newtons = {"cold": [], "warm": []}
    for _ in range(repeat):
        for side, start_from in (("cold", None), ("warm", warm)):
            start = time.perf_counter()
            result = W.fit(*args, warm_start=start_from)
            times[side].append(time.perf_counter() - start)
            newtons[side].append(newton.pop())
            report[side] = {"steps": result.newton_steps, "cg": result.cg_iterations, "max_change": result.max_change}
    for side in times:
        report[side].update(
            seconds=statistics.median(times[side]),
            seconds_min=min(times[side]),
            newton_seconds=statistics.median(newtons[side]),
        )
    return report


def worker(side: str, history_path: str, out_path: str, repeat: int) -> dict:
    if side == "engine-timing":
        return timing_worker(history_path, repeat)
    history = History.load(history_path)
    if side.startswith("engine"):
        from app.rating import whr as W

        args = (history.black, history.white, history.score, history.day, history.n_players)
        warm = None
        if side == "engine-warm":
            previous = history.without_last_tournament()
            before = W.fit(previous.black, previous.white, previous.score, previous.day, previous.n_players)
            warm = W.WarmStart.from_fit(before)
            del before
        baseline = _hwm_mb()
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            result = W.fit(*args, warm_start=warm)
            times.append(time.perf_counter() - start)
        np.savez(out_path, player=result.player, day=result.day, rating=result.rating, deviation=result.deviation)
        return {
            "seconds": statistics.median(times),
            "seconds_min": min(times),
            "steps": result.newton_steps,
            "cg": result.cg_iterations,
            "max_change": result.max_change,
            "baseline_mb": baseline,
            "peak_mb": _peak_rss_mb(),
        }

    import whr

    code = {1.0: "B", 0.5: "D", 0.0: "W"}
    games = [
        [str(b), str(w), code[s], int(d)]
        for b, w, s, d in zip(history.black.tolist(), history.white.tolist(), history.score.tolist(), history.day.tolist())
    ]
    base = whr.Base(config={"w2": 12.9, "virtual_games": 2})
    start = time.perf_counter()
    base.create_games(games)
    create = time.perf_counter() - start
    del games
    baseline = _hwm_mb()
    start = time.perf_counter()
    if side == "ref-iterate100":
        base.iterate(100)
        steps = 100
    else:
        steps = base.iterate_until_converge(False)
    seconds = time.perf_counter() - start
    peak = _peak_rss_mb()
    players, days, ratings, deviations = [], [], [], []
    for name, rows in base.get_ordered_ratings():
        for day, elo, deviation in rows:
            players.append(int(name))
            days.append(day)
            ratings.append(elo + 1900.0)
            deviations.append(deviation)
    order = np.lexsort((np.array(days), np.array(players)))
    np.savez(
        out_path,
        player=np.array(players)[order],
        day=np.array(days)[order],
        rating=np.array(ratings)[order],
        deviation=np.array(deviations)[order],
    )
    return {"seconds": seconds, "create_seconds": create, "steps": steps, "baseline_mb": baseline, "peak_mb": peak}


# ------------------------------------------------------------------------------------------------
# driver


def run_side(side: str, history_path: Path, out_path: Path, repeat: int) -> dict:
    env = dict(os.environ)
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = "1"
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        side,
        "--history",
        str(history_path),
        "--out",
        str(out_path),
        "--repeat",
        str(repeat),
    ]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{side} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def differences(a_path: Path, b_path: Path) -> tuple[float, float]:
    with np.load(a_path) as a, np.load(b_path) as b:
        if not (np.array_equal(a["player"], b["player"]) and np.array_equal(a["day"], b["day"])):
            return float("nan"), float("nan")
        return float(np.max(np.abs(a["rating"] - b["rating"]))), float(np.max(np.abs(a["deviation"] - b["deviation"])))


def bench_size(size: str, skip_reference: bool, repeat: int, workdir: Path) -> None:
    history = SIZES[size]()
    path = workdir / f"{size}.npz"
    history.save(path)
    print(f"\n== {size}: {history.summary()}", flush=True)
    sides = SIDES[:2] if skip_reference else SIDES
    results = {}
    for side in sides:  # the engine's sides once each, for their peak RSS and results
        out = workdir / f"{size}-{side}.npz"
        results[side] = run_side(side, path, out, 1)
        results[side]["out"] = out
        if not side.startswith("engine"):
            print(f"   {LABELS[side]}: {results[side]['seconds']:.3f} s", flush=True)
    timing = run_side("engine-timing", path, workdir / "unused.npz", repeat)
    for side in ("cold", "warm"):
        results[f"engine-{side}"].update(timing[side])
        print(f"   engine, {side}: {timing[side]['seconds']:.3f} s", flush=True)

    cold = results["engine-cold"]["seconds"]
    print()
    header = f"{'side':<34}{'time [s]':>10}{'ratio':>18}{'steps':>16}{'peak RSS [MB]':>15}{'data+imports [MB]':>19}"
    print(header)
    print("-" * len(header))
    for side in sides:
        r = results[side]
        if side == "engine-cold":
            ratio = "1.0 (baseline)"
            steps = f"{r['steps']} Newton/{r['cg']} CG"
        elif side == "engine-warm":
            ratio = f"{cold / r['seconds']:.1f}x faster"
            steps = f"{r['steps']} Newton/{r['cg']} CG"
        else:
            ratio = f"{r['seconds'] / cold:.0f}x slower"
            steps = f"{r['steps']} sweeps"
        print(f"{LABELS[side]:<34}{r['seconds']:>10.3f}{ratio:>18}{steps:>16}{r['peak_mb']:>15.0f}{r['baseline_mb']:>19.0f}")
    warm = results["engine-warm"]
    engine_cold = results["engine-cold"]
    print(
        f"\nengine cold and warm alternated in one process, median of {repeat} each: cold min "
        f"{engine_cold['seconds_min']:.3f} s, warm min {warm['seconds_min']:.3f} s; "
        f"last step moved at most {engine_cold['max_change']:.1e} Elo"
    )
    cold_newton, warm_newton = engine_cold["newton_seconds"], warm["newton_seconds"]
    cold_fixed = engine_cold["seconds"] - cold_newton
    warm_fixed = warm["seconds"] - warm_newton
    print(
        f"Newton + conjugate gradients: cold {cold_newton:.3f} s, warm {warm_newton:.3f} s "
        f"(ratio {cold_newton / warm_newton:.2f}); the rest (validation, structure, start, deviations): "
        f"cold {cold_fixed:.3f} s, warm {warm_fixed:.3f} s ({warm_fixed / warm['seconds']:.0%} of warm)"
    )
    dr, dd = differences(results["engine-cold"]["out"], warm["out"])
    print(f"engine warm vs cold: max |rating| difference {dr:.2e} Elo, |deviation| {dd:.2e} Elo")
    for side in sides[2:]:
        r = results[side]
        dr, dd = differences(results["engine-cold"]["out"], r["out"])
        print(
            f"{LABELS[side]} vs engine: max |rating| difference {dr:.2e} Elo, |deviation| {dd:.2e} Elo "
            f"(its create_games took {r['create_seconds']:.2f} s, not counted)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", choices=["rif", "large", "both"], default="rif")
    parser.add_argument("--skip-reference", action="store_true", help="time the engine only")
    parser.add_argument("--repeat", type=int, default=None, help="engine runs per side (default 9 rif, 3 large)")
    parser.add_argument("--worker", choices=[*SIDES, "engine-timing"], help=argparse.SUPPRESS)
    parser.add_argument("--history", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.worker:
        print(json.dumps(worker(args.worker, args.history, args.out, args.repeat or 1)))
        return

    sizes = ["rif", "large"] if args.size == "both" else [args.size]
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, {os.cpu_count()} CPUs; one side at a time")
    with tempfile.TemporaryDirectory(prefix="bench_whr_") as tmp:
        for size in sizes:
            repeat = args.repeat or (9 if size == "rif" else 3)
            bench_size(size, args.skip_reference, repeat, Path(tmp))


if __name__ == "__main__":
    main()
