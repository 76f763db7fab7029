"""An evaluation of a rating list (issue 45): its eligible games read as a recompute reads them
(``app.recompute.compute.read_inputs``), predicted and scored by ``app.rating.evaluation`` under the
list's own system and parameters, and answered as the job's result. Nothing is written but the
job's row (``app.recompute.jobs``), and nothing here commits."""

import dataclasses
import datetime as dt
import math
from collections.abc import Callable
from typing import Any

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import RatingEntry, RatingList
from app.rating import evaluation
from app.rating.registry import get_system
from app.recompute import compute, provenance

Progress = Callable[[float], None]


def evaluate(
    session: Session, rating_list: RatingList, request: dict[str, Any], list_date: dt.date, progress: Progress
) -> dict[str, Any]:
    """The evaluation ``request`` asks (``app.schemas.evaluations.EvaluationRequest`` as stored) of the
    list as it is now: its findings as JSON, the manifest first. Raises ValueError for what the list's
    rules refuse (a swept parameter it has not, a value it does not take)."""
    # No warm start: an evaluation fits histories that are not the current snapshot's.
    inputs = compute.read_inputs(session, rating_list, list_date, warm=False)
    progress(0.1)
    plan = evaluation.EvaluationPlan(
        mode=request.get("mode", "forward"),
        period_months=request.get("period_months", 1),
        every=request.get("every", 10),
        offset=request.get("offset", 0),
    )
    forecasts = evaluation.forecast(inputs.system, inputs.given, plan)
    scores = evaluation.score(forecasts)
    progress(0.5)
    sweep = None
    if request.get("sweep"):
        # Each value (or pair of values) tried is a report: the job's progress counts them, and a
        # cancellation stops the sweep at the next one.
        sweep = _sweep(inputs, plan, request["sweep"], lambda done, cells: progress(0.5 + 0.2 * done / cells))
    progress(0.7)
    side_by_side = _side_by_side(session, rating_list, inputs, plan, list_date) if request.get("side_by_side") else None
    return {
        "manifest": {
            "list_id": rating_list.id,
            "system": rating_list.system,
            "params": inputs.given.params.model_dump(mode="json"),
            "request": request,
            "rule": forecasts.rule,
            "games": inputs.games,
            "tournaments": len(inputs.given.tournaments),
            "inputs_digest": inputs.digest,
            "service_version": provenance.service_version(),
        },
        "games_considered": forecasts.considered,
        "games_unscored": forecasts.unscored,
        "scores": dataclasses.asdict(scores),
        "sweep": _sweep_json(sweep),
        "side_by_side": side_by_side,
    }


def _side_by_side(
    session: Session, rating_list: RatingList, inputs: compute.Inputs, plan: evaluation.EvaluationPlan, list_date: dt.date
) -> list[dict[str, Any]]:
    """Every other list of the category that rates some of the same games, evaluated as this one on
    the games both rate (the tournaments both lists' eligibility takes), each beside this list on
    those same games, with how alike the two current snapshots rank their common players (Spearman's
    ρ and Kendall's τ-b)."""
    others = session.scalars(
        select(RatingList)
        .where(RatingList.category == rating_list.category, RatingList.id != rating_list.id)
        .order_by(RatingList.id)
    )
    found = []
    for other in others:
        if get_system(other.system).expected_score is None:
            continue
        theirs = compute.read_inputs(session, other, list_date, warm=False)
        common = {t.id for t in inputs.given.tournaments} & {t.id for t in theirs.given.tournaments}
        if not common:
            continue  # (a list of the category that rates none of these tournaments, e.g. a national one)
        mine_on_common = evaluation.only_tournaments(inputs.given, common)
        theirs_on_common = evaluation.only_tournaments(theirs.given, common)
        players, spearman, kendall = _rank_agreement(session, rating_list, other)
        mine = evaluation.forecast(inputs.system, mine_on_common, plan)
        their = evaluation.forecast(theirs.system, theirs_on_common, plan)
        # Both inputs hold the common tournaments' games in the same order (the tournaments' order,
        # then each one's): a position is the same game in both, and both are scored on those both predicted.
        both = np.intersect1d(mine.game, their.game)
        found.append(
            {
                "other_list_id": other.id,
                "tournaments": len(common),
                "games": _games(mine_on_common),
                "this": _list_scores(rating_list, mine, both),
                "other": _list_scores(other, their, both),
                "players": players,
                "spearman": spearman,
                "kendall": kendall,
            }
        )
    return found


def _list_scores(rating_list: RatingList, forecasts: evaluation.Forecasts, both: np.ndarray) -> dict[str, Any]:
    return {
        "list_id": rating_list.id,
        "system": rating_list.system,
        "rule": forecasts.rule,
        "games_unscored": forecasts.unscored,
        "scores": dataclasses.asdict(evaluation.score(evaluation.on_games(forecasts, both))),
    }


def _games(given: Any) -> int:
    return len(given.columns) if given.columns is not None else sum(len(t.games) for t in given.tournaments)


def _rank_agreement(session: Session, first: RatingList, second: RatingList) -> tuple[int, float | None, float | None]:
    """(players on both current snapshots, Spearman's ρ, Kendall's τ-b of their two ratings)."""
    from scipy import stats  # (here: an API process that runs no evaluation never loads scipy.stats)

    if first.current_snapshot_id is None or second.current_snapshot_id is None:
        return 0, None, None
    mine, theirs = (
        {
            player: rating
            for player, rating in session.execute(
                select(RatingEntry.player_id, RatingEntry.rating).where(RatingEntry.snapshot_id == snapshot_id)
            )
        }
        for snapshot_id in (first.current_snapshot_id, second.current_snapshot_id)
    )
    common = sorted(mine.keys() & theirs.keys())
    if len(common) < 3:
        return len(common), None, None
    x = [mine[player] for player in common]
    y = [theirs[player] for player in common]
    spearman = float(stats.spearmanr(x, y).statistic)
    kendall = float(stats.kendalltau(x, y).statistic)
    return len(common), (None if math.isnan(spearman) else spearman), (None if math.isnan(kendall) else kendall)


def _sweep(
    inputs: compute.Inputs, plan: evaluation.EvaluationPlan, asked: dict[str, Any], progress: evaluation.SweepProgress
) -> evaluation.Sweep:
    """The sweep asked (``app.schemas.evaluations.ParameterSweep`` as stored): of one parameter, or of
    every pair of two when it names an ``and_parameter``."""
    second = asked.get("and_parameter")
    if second:
        return evaluation.sweep_grid(
            inputs.system,
            inputs.given,
            plan,
            asked["parameter"],
            asked["values"],
            second["parameter"],
            second["values"],
            progress=progress,
        )
    return evaluation.sweep(inputs.system, inputs.given, plan, asked["parameter"], asked["values"], progress=progress)


def _sweep_json(sweep: Any) -> dict[str, Any] | None:
    if sweep is None:
        return None
    found = dataclasses.asdict(sweep)
    found["points"] = [
        point if isinstance(point, dict) else dict(zip(("value", "mean_log_likelihood", "brier", "games"), point))
        for point in found["points"]
    ]
    if found["and_parameter"] is not None:
        # The second parameter's curve is a curve only (``app.schemas.evaluations.ParameterCurve``),
        # with no second parameter or grid of its own.
        found["and_parameter"] = {k: v for k, v in found["and_parameter"].items() if k not in ("and_parameter", "grid")}
    return found
