"""Evaluations of a rating list (issue 45): asked, followed, listed and cancelled. An evaluation is a
job of kind ``evaluation`` in the recompute queue (``app.recompute.jobs``), which the workers run
(``app.recompute.evaluations``); it changes nothing but its own row. What the list's rules would
refuse (a parameter its system has not, a value it does not take) is refused here, before it is
queued, with a pointer to the field."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.models import Job
from app.problems import Conflict, FieldError, InvalidInput, NotFound
from app.recompute import jobs
from app.schemas.evaluations import MAX_GRID, EvaluationRead, EvaluationRequest, SweepResult
from app.services.rating_lists import get_rating_list, system_of

# Evaluations of one list queued or running at once: each is a replay of the list's whole history
# (a sweep one per value, or one per pair of values, at most MAX_GRID), so a client cannot fill the
# queue ahead of the recomputes.
MAX_OPEN_PER_LIST = 4


def request_evaluation(session: Session, list_id: str, request: EvaluationRequest) -> tuple[Job, bool]:
    """Queue an evaluation of the list, or return the one queued or running that was asked the same;
    (the job, whether it is new)."""
    system = system_of(get_rating_list(session, list_id))
    if system.expected_score is None:
        raise InvalidInput(
            f"Rating list {list_id!r}'s system {system.id!r} gives no expected score of a game: there is nothing to evaluate.",
            [FieldError("/path/list_id", f"{system.id!r} predicts no game")],
        )
    if request.sweep is not None:
        _check_sweep(system.params_model, get_rating_list(session, list_id).params or {}, request)
    asked = request.model_dump(mode="json")
    open_jobs = list(
        session.scalars(
            select(Job).where(Job.list_id == list_id, Job.kind == jobs.EVALUATION, Job.status.in_((jobs.QUEUED, jobs.RUNNING)))
        )
    )
    for job in open_jobs:
        if job.request == asked:
            return job, False
    if len(open_jobs) >= MAX_OPEN_PER_LIST:
        raise Conflict(
            f"Rating list {list_id!r} has {len(open_jobs)} evaluations queued or running, the most it takes at once: "
            f"follow or cancel one (evaluations {', '.join(str(job.id) for job in open_jobs)}).",
            [FieldError("/path/list_id", f"{len(open_jobs)} evaluations of {list_id!r} not ended")],
        )
    job = Job(kind=jobs.EVALUATION, list_id=list_id, status=jobs.QUEUED, progress=0.0, request=asked)
    session.add(job)
    session.flush()
    return job, True


def get_evaluation(session: Session, list_id: str, evaluation_id: int) -> Job:
    get_rating_list(session, list_id)
    job = session.get(Job, evaluation_id)
    if job is None or job.kind != jobs.EVALUATION or job.list_id != list_id:
        raise NotFound(
            f"Rating list {list_id!r} has no evaluation {evaluation_id}.",
            [FieldError("/path/evaluation_id", f"no evaluation {evaluation_id} of {list_id!r}")],
        )
    return job


def list_evaluations(session: Session, list_id: str, *, limit: int, offset: int) -> tuple[list[Job], int]:
    """The list's evaluations, the newest first."""
    get_rating_list(session, list_id)
    conditions = (Job.list_id == list_id, Job.kind == jobs.EVALUATION)
    total = session.scalar(select(func.count()).select_from(Job).where(*conditions)) or 0
    found = session.scalars(select(Job).where(*conditions).order_by(Job.id.desc()).limit(limit).offset(offset))
    return list(found), total


def cancel_evaluation(session: Session, list_id: str, evaluation_id: int) -> Job:
    """Cancelled if it had not ended (a running one stops at its next progress report); an ended one is
    answered as it is."""
    get_evaluation(session, list_id, evaluation_id)
    return jobs.cancel_job(session, evaluation_id)


def evaluation_read(job: Job) -> EvaluationRead:
    return EvaluationRead.model_validate(
        {
            "id": job.id,
            "list_id": job.list_id,
            "status": job.status,
            "progress": job.progress,
            "request": job.request or {},
            "result": job.result,
            "error": job.error,
            "created_at": job.created_at,
            "started_at": job.started_at,
            "finished_at": job.finished_at,
        }
    )


def _check_sweep(params_model: Any, stored: dict[str, Any], request: EvaluationRequest) -> None:
    sweep = request.sweep
    assert sweep is not None
    fields = params_model.model_fields
    _check_parameter_name(fields, sweep.parameter, "/sweep/parameter")
    current = {name: value for name, value in stored.items() if name in fields}
    second = sweep.and_parameter
    if second is None:
        errors = []
        for index, value in enumerate(sweep.values):
            try:
                params_model.model_validate({**current, sweep.parameter: value})
            except ValidationError as error:
                errors.append(FieldError(f"/sweep/values/{index}", error.errors()[0]["msg"]))
        if errors:
            raise InvalidInput(f"The list's rules do not take every value of {sweep.parameter!r} asked.", errors)
        return
    _check_parameter_name(fields, second.parameter, "/sweep/and_parameter/parameter")
    if second.parameter == sweep.parameter:
        raise InvalidInput(
            f"A sweep of two parameters sweeps two different ones: {sweep.parameter!r} is asked twice.",
            [FieldError("/sweep/and_parameter/parameter", f"the same as /sweep/parameter ({sweep.parameter!r})")],
        )
    pairs = len(sweep.values) * len(second.values)
    if pairs > MAX_GRID:
        raise InvalidInput(
            f"A sweep of two parameters tries at most {MAX_GRID} pairs of values: "
            f"{len(sweep.values)} values of {sweep.parameter!r} by {len(second.values)} of {second.parameter!r} are {pairs}.",
            [FieldError("/sweep/and_parameter/values", f"{len(second.values)} values make {pairs} pairs, more than {MAX_GRID}")],
        )
    errors = _refused_pairs(params_model, current, sweep.parameter, sweep.values, second.parameter, second.values)
    if errors:
        raise InvalidInput(
            f"The list's rules do not take every pair of values of {sweep.parameter!r} and {second.parameter!r} asked.", errors
        )


def _check_parameter_name(fields: dict[str, Any], parameter: str, pointer: str) -> None:
    if parameter not in fields:
        raise InvalidInput(
            f"The list's system has no parameter {parameter!r}: it has {', '.join(sorted(fields))}.",
            [FieldError(pointer, f"not one of {', '.join(sorted(fields))}")],
        )


def _refused_pairs(
    params_model: Any,
    current: dict[str, Any],
    parameter: str,
    values: list[float],
    second_parameter: str,
    second_values: list[float],
) -> list[FieldError]:
    """Each value the list's rules refuse in some pair, once, at its own pointer: the second
    parameter's value when the rules name that parameter, the first's otherwise."""
    found: dict[str, FieldError] = {}
    for index, value in enumerate(values):
        for second_index, second_value in enumerate(second_values):
            try:
                params_model.model_validate({**current, parameter: value, second_parameter: second_value})
            except ValidationError as error:
                first_error = error.errors()[0]
                if first_error["loc"][:1] == (second_parameter,):
                    pointer = f"/sweep/and_parameter/values/{second_index}"
                    detail = f"{first_error['msg']} (with {parameter} = {value:g})"
                else:
                    pointer = f"/sweep/values/{index}"
                    detail = f"{first_error['msg']} (with {second_parameter} = {second_value:g})"
                found.setdefault(pointer, FieldError(pointer, detail))
    return list(found.values())


def report(evaluation: EvaluationRead) -> list[str]:
    """An evaluation in lines a rating officer reads (``python -m app.cli evaluate``)."""
    lines = [f"evaluation {evaluation.id} of {evaluation.list_id}: {evaluation.status}"]
    if evaluation.result is None:
        return lines + ([f"  {evaluation.error}"] if evaluation.error else [])
    result = evaluation.result
    manifest, scores = result.manifest, result.scores
    asked = manifest.request
    how = (
        f"forward, refits every {asked.period_months} month(s)"
        if asked.mode == "forward"
        else f"holdout, 1 game in {asked.every} (offset {asked.offset})"
    )
    favourite = "-" if scores.favourite_won is None else f"{scores.favourite_won:.2%}"
    lines += [
        f"  {manifest.system}, {how}; rule {manifest.rule}; inputs {manifest.inputs_digest[:12]}, service {manifest.service_version}",
        f"  games {manifest.games} in {manifest.tournaments} tournaments; considered {result.games_considered}, "
        f"scored {scores.games}, unscored {result.games_unscored}",
        f"  mean log-likelihood {_figure(scores.mean_log_likelihood)}   Brier {_figure(scores.brier)}   favourite won {favourite} "
        f"of {scores.decisive_games} decisive",
        "  predicted      games  expected  observed  95 % interval",
    ]
    for row in scores.calibration:
        if row.games:
            lines.append(
                f"  {row.low:.1f}-{row.high:.1f}  {row.games:>10}  {row.mean_expected:8.3f}  {row.observed:8.3f}  "
                f"{row.interval_low:.3f}-{row.interval_high:.3f}"
            )
    if result.sweep is not None and result.sweep.and_parameter is not None:
        lines += _grid_report(result.sweep)
    elif result.sweep is not None:
        sweep = result.sweep
        lines.append(f"  sweep of {sweep.parameter} (the list's {sweep.current}):")
        lines += [
            f"    {point.value:>10g}  mean log-likelihood {_figure(point.mean_log_likelihood)}  Brier {_figure(point.brier)}"
            for point in sweep.points
        ]
        lines.append(f"  best {sweep.best}, 95 % interval {sweep.interval_low} to {sweep.interval_high}")
    for beside in result.side_by_side or []:
        lines.append(
            f"  beside {beside.other_list_id} on the {beside.games} games of the {beside.tournaments} tournaments both rate "
            f"({beside.players} players on both; rank agreement Spearman {_figure(beside.spearman)}, Kendall {_figure(beside.kendall)}):"
        )
        for side in (beside.this, beside.other):
            lines.append(
                f"    {side.list_id:<16} scored {side.scores.games:>6}  mean log-likelihood {_figure(side.scores.mean_log_likelihood)}"
                f"  Brier {_figure(side.scores.brier)}"
            )
    return lines


def _grid_report(sweep: SweepResult) -> list[str]:
    """A sweep of two parameters as a table, a row per value of the first and a column per value of
    the second, each cell the mean log-likelihood of the pair; the best pair marked *, the list's own
    pair (when it was tried) marked =; then each parameter's best value and profile interval."""
    second = sweep.and_parameter
    assert second is not None and sweep.grid is not None
    columns = [point.value for point in second.points]
    corner = f"{sweep.parameter} / {second.parameter}"
    lines = [
        f"  sweep of {sweep.parameter} (the list's {sweep.current}) and {second.parameter} (the list's {second.current}), "
        "mean log-likelihood of each pair (* the best, = the list's own):",
        f"    {corner:>24}" + "".join(f"{value:>12g}" for value in columns),
    ]
    for value in [point.value for point in sweep.points]:
        row = [cell for cell in sweep.grid if cell.value == value]
        marks = [
            ("*" if (cell.value, cell.second_value) == (sweep.best, second.best) else "")
            + ("=" if (cell.value, cell.second_value) == (sweep.current, second.current) else "")
            for cell in row
        ]
        lines.append(
            f"    {value:>24g}"
            + "".join(f"{_figure(cell.mean_log_likelihood) + mark:>12}" for cell, mark in zip(row, marks, strict=True))
        )
    lines.append(f"  best pair {sweep.parameter} = {sweep.best}, {second.parameter} = {second.best}")
    for curve in (sweep, second):
        lines.append(
            f"  {curve.parameter}: best {curve.best}, 95 % interval {curve.interval_low} to {curve.interval_high} "
            "(its profile: each value's best over the other parameter)"
        )
    return lines


def _figure(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"
