"""An evaluation of a rating list (issue 45): its eligible games read as a recompute reads them
(``app.recompute.compute.read_inputs``), predicted and scored by ``app.rating.evaluation`` under the
list's own system and parameters, and answered as the job's result. Nothing is written but the
job's row (``app.recompute.jobs``), and nothing here commits."""

import dataclasses
import datetime as dt
from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session

from app.models import RatingList
from app.rating import evaluation
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
        asked = request["sweep"]
        sweep = evaluation.sweep(inputs.system, inputs.given, plan, asked["parameter"], asked["values"])
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
    }


def _sweep_json(sweep: Any) -> dict[str, Any] | None:
    if sweep is None:
        return None
    found = dataclasses.asdict(sweep)
    found["points"] = [
        point if isinstance(point, dict) else dict(zip(("value", "mean_log_likelihood", "brier", "games"), point))
        for point in found["points"]
    ]
    return found
