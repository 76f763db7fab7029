"""Benchmark: evaluations of the WHR list (app/rating/evaluation.py, app/rating/whr/forecast.py;
issue 45) on a generated history (bench/histories.py, seeded).

    .venv/bin/python bench/bench_evaluate.py                   # RIF-sized (100,167 games), everything
    .venv/bin/python bench/bench_evaluate.py --size large      # 1,000,195 games (the reference: minutes)
    .venv/bin/python bench/bench_evaluate.py --skip-reference --skip-forward
    .venv/bin/python bench/bench_evaluate.py --only-forward    # the forward plan alone

It prints each figure beside its target:

  holdout          every 10th game held out (offset 0): the engine's forecast + score, and the
                   reference `whr` package on the same split, Base(config={"w2": 12.9,
                   "virtual_games": 2}).iterate(100) (the RIF list's own call) and
                   Evaluate.evaluate_ave_log_likelihood_games; the mean log-likelihoods, their
                   difference and the speed ratio (target: the engine at least 20x faster). The
                   reference's create_games() is timed apart and left out of its time.
  forward          monthly refits (period_months=1) over the whole history (target: under 5 s
                   RIF-sized, under 60 s large)
  sweep            ten values of w2 in holdout mode (target: under 10 s)

One process, one BLAS/OpenMP thread (set before NumPy is imported); a small evaluation runs first so
that no figure includes the first call's imports.
"""

from __future__ import annotations

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import argparse  # noqa: E402
import datetime as dt  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.rating.evaluation import EvaluationPlan, forecast, score, sweep  # noqa: E402
from app.rating.registry import get_system  # noqa: E402
from app.rating.system import GameColumns, ReplayInput, StoredTournament  # noqa: E402
from app.rating.whr.rating_list import WhrListParams  # noqa: E402
from bench.histories import SIZES, History  # noqa: E402

RESULT_CODE = {1.0: "B", 0.5: "D", 0.0: "W"}
TARGETS = {"rif": {"forward": 5.0}, "large": {"forward": 60.0}, "double": {"forward": 120.0}}
SPEED_RATIO_TARGET = 20.0
SWEEP_TARGET = 10.0
SWEEP_VALUES = [3.0, 6.0, 9.0, 12.9, 16.0, 20.0, 30.0, 50.0, 80.0, 120.0]


def whr_input(history: History) -> ReplayInput[WhrListParams]:
    """The history as the recompute hands it to the WHR list: columns, one tournament per index."""
    tournaments = [StoredTournament(f"T{i}", dt.date(2000, 1, 1), dt.date(2000, 1, 1), []) for i in range(history.n_tournaments)]
    columns = GameColumns(
        [str(p) for p in range(history.n_players)], history.black, history.white, history.score, history.day, history.tournament
    )
    return ReplayInput(tournaments, [], WhrListParams(), dt.date(2030, 1, 1), None, columns)


def timed(call):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = call()
    return result, time.perf_counter() - start


def line(label: str, value: str, target: str = "") -> None:
    print(f"  {label:<44} {value:>18}   {target}")


def bench_holdout(history: History, given: ReplayInput[WhrListParams], skip_reference: bool) -> None:
    system = get_system("rif-whr")
    plan = EvaluationPlan("holdout", every=10, offset=0)
    forecasts, engine_seconds = timed(lambda: forecast(system, given, plan))
    scores, score_seconds = timed(lambda: score(forecasts))
    engine_seconds += score_seconds
    print(f"holdout (every 10th of {history.n_games:,} games held out: {forecasts.considered:,}, {len(forecasts):,} scored)")
    line("engine forecast + score [s]", f"{engine_seconds:.3f}")
    line("engine mean log-likelihood", f"{scores.mean_log_likelihood:.9f}")
    line("engine Brier score", f"{scores.brier:.6f}")
    if skip_reference:
        return
    import whr as reference

    order = np.argsort(history.day, kind="stable")
    held = np.zeros(history.n_games, dtype=bool)
    held[order[plan.offset :: plan.every]] = True
    games = [
        [str(b), str(w), RESULT_CODE[s], int(d)]
        for b, w, s, d in zip(history.black.tolist(), history.white.tolist(), history.score.tolist(), history.day.tolist())
    ]
    train = [g for g, h in zip(games, held.tolist()) if not h]
    test = [g for g, h in zip(games, held.tolist()) if h]
    base = reference.Base(config={"w2": 12.9, "virtual_games": 2})
    _, create_seconds = timed(lambda: base.create_games(train))
    _, iterate_seconds = timed(lambda: base.iterate(100))
    expected, evaluate_seconds = timed(lambda: reference.Evaluate(base).evaluate_ave_log_likelihood_games(test))
    reference_seconds = iterate_seconds + evaluate_seconds
    line("reference iterate(100) + Evaluate [s]", f"{reference_seconds:.3f}", f"(create_games {create_seconds:.2f} s apart)")
    line("reference mean log-likelihood", f"{expected:.9f}")
    line(
        "difference (engine - reference)",
        f"{scores.mean_log_likelihood - expected:+.2e}",
        "(iterate(100) is not fully converged)",
    )
    ratio = reference_seconds / engine_seconds
    line(
        "speed ratio",
        f"{ratio:.1f}x",
        f"target >= {SPEED_RATIO_TARGET:.0f}x: {'met' if ratio >= SPEED_RATIO_TARGET else 'NOT met'}",
    )


def bench_forward(size: str, given: ReplayInput[WhrListParams]) -> None:
    system = get_system("rif-whr")
    forecasts, seconds = timed(lambda: forecast(system, given, EvaluationPlan("forward", period_months=1)))
    scores = score(forecasts)
    target = TARGETS[size]["forward"]
    print(f"forward (monthly refits; {forecasts.considered:,} games, {len(forecasts):,} scored, {forecasts.unscored:,} unscored)")
    line("forecast [s]", f"{seconds:.2f}", f"target < {target:.0f} s: {'met' if seconds < target else 'NOT met'}")
    line("mean log-likelihood", f"{scores.mean_log_likelihood:.6f}")
    line("Brier score", f"{scores.brier:.6f}")


def bench_sweep(given: ReplayInput[WhrListParams]) -> None:
    system = get_system("rif-whr")
    result, seconds = timed(lambda: sweep(system, given, EvaluationPlan("holdout", every=10), "w2", SWEEP_VALUES))
    print(f"sweep of w2 in holdout mode ({len(SWEEP_VALUES)} values)")
    line("sweep [s]", f"{seconds:.2f}", f"target < {SWEEP_TARGET:.0f} s: {'met' if seconds < SWEEP_TARGET else 'NOT met'}")
    for point in result.points:
        line(f"  w2 = {point.value:g}", f"{point.mean_log_likelihood:.6f}")
    line("best w2 (likelihood-ratio interval)", f"{result.best:g} ({result.interval_low:g}-{result.interval_high:g})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", choices=sorted(SIZES), default="rif")
    parser.add_argument("--skip-reference", action="store_true", help="leave out the reference whr package")
    parser.add_argument("--skip-forward", action="store_true", help="leave out the forward plan's monthly refits")
    parser.add_argument("--skip-sweep", action="store_true")
    parser.add_argument("--only-forward", action="store_true", help="the forward plan alone: no holdout, no sweep")
    args = parser.parse_args()
    history, generate_seconds = timed(SIZES[args.size])
    print(
        f"history {args.size}: {history.n_games:,} games, {history.n_players:,} players (generated in {generate_seconds:.1f} s)"
    )
    given = whr_input(history)
    # One small evaluation first, so that no figure below includes the first call's imports (SciPy's
    # LAPACK, the pydantic models).
    small = whr_input(history.head(20))
    forecast(get_system("rif-whr"), small, EvaluationPlan("holdout"))
    forecast(get_system("rif-whr"), small, EvaluationPlan("forward"))
    if not args.only_forward:
        bench_holdout(history, given, args.skip_reference)
    if not args.skip_forward:
        bench_forward(args.size, given)
    if not args.skip_sweep and not args.only_forward:
        bench_sweep(given)


if __name__ == "__main__":
    main()
