"""How well a list's ratings predict its own games (issue 45): evaluations asked, followed, listed
and cancelled. The views check and delegate (app/services/evaluations.py)."""

from typing import Annotated

from fastapi import APIRouter, BackgroundTasks, Body, Path, Response, status
from starlette.concurrency import run_in_threadpool

from app import db
from app.api import examples
from app.api.deps import JobWait, Limit, ListIdPath, ListOfficer, Offset
from app.api.examples import responses
from app.http.headers import LOCATION
from app.http.session import SessionDep
from app.recompute import jobs
from app.recompute.jobs import wake_worker
from app.schemas.common import MAX_DATABASE_ID, Page
from app.schemas.evaluations import EvaluationRead, EvaluationRequest
from app.services import evaluations as service

router = APIRouter(tags=["evaluations"])

EvaluationIdPath = Annotated[
    int, Path(ge=1, le=MAX_DATABASE_ID, description="The evaluation's id, from its 202 answer or its `Location` header")
]


@router.post(
    "/v1/rating-lists/{list_id}/evaluations",
    status_code=status.HTTP_202_ACCEPTED,
    operation_id="request_evaluation",
    responses={
        **responses(examples.REQUEST_EVALUATION, status=202, headers=LOCATION),
        409: {"description": "The list has as many evaluations queued or running as it takes at once"},
    },
)
def request_evaluation(
    list_id: ListIdPath,
    session: SessionDep,
    _: ListOfficer,
    background: BackgroundTasks,
    response: Response,
    body: Annotated[EvaluationRequest, Body(openapi_examples=examples.REQUEST_EVALUATION_EXAMPLES)],
) -> EvaluationRead:
    """Evaluate how well a list's ratings predict its games

    Queues an evaluation of the list as it is now (its eligible games, seeds and parameters), which
    changes nothing: every game is predicted by the list's own expected-score rule from ratings that
    did not see it (`forward`: only earlier days; `holdout`: a fit without the held-out games), and the
    predictions are scored against the results: mean log-likelihood, Brier score, the favourite's share
    of decisive games, and a calibration table, also by rating band, rating gap and year, with a
    manifest to run it again. A `sweep` also evaluates the list with each value of one parameter and
    answers the curve and its best value; with an `and_parameter`, with every pair of values of two
    parameters (at most 100 pairs), and answers every pair, the best one and each parameter's interval
    from its profile likelihood. The 202 names the evaluation, also in `Location`: follow it
    at `GET /v1/rating-lists/{list_id}/evaluations/{evaluation_id}`. The same request while one like it
    is queued or running returns that one; a list takes 4 at once (a 409 otherwise).

    Needs an officer's key without limits or limited to this list (a 403 says which otherwise)."""
    job, _new = service.request_evaluation(session, list_id, body)
    background.add_task(wake_worker)  # after the response, when the job is committed
    response.headers["Location"] = f"/v1/rating-lists/{list_id}/evaluations/{job.id}"
    return service.evaluation_read(job)


@router.get(
    "/v1/rating-lists/{list_id}/evaluations", operation_id="list_evaluations", responses=responses(examples.LIST_EVALUATIONS)
)
def list_evaluations(list_id: ListIdPath, session: SessionDep, limit: Limit = 50, offset: Offset = 0) -> Page[EvaluationRead]:
    """List a rating list's evaluations, the newest first

    Each with what it was asked, its status and, once it has succeeded, what it found."""
    found, total = service.list_evaluations(session, list_id, limit=limit, offset=offset)
    return Page(items=[service.evaluation_read(job) for job in found], total=total, limit=limit, offset=offset)


@router.get(
    "/v1/rating-lists/{list_id}/evaluations/{evaluation_id}",
    operation_id="get_evaluation",
    responses=responses(examples.GET_EVALUATION),
)
async def get_evaluation(list_id: ListIdPath, evaluation_id: EvaluationIdPath, wait: JobWait = 0) -> EvaluationRead:
    """Follow an evaluation, and read what it found

    Its status (queued, running, succeeded, failed or cancelled), its progress from 0 to 1 and, once it
    has succeeded, its `result`. With `wait`, the answer comes once it has ended, or after that many
    seconds, whichever is first."""
    await run_in_threadpool(_get, list_id, evaluation_id)
    return service.evaluation_read(await jobs.job_when_ended(evaluation_id, wait))


@router.delete(
    "/v1/rating-lists/{list_id}/evaluations/{evaluation_id}",
    operation_id="cancel_evaluation",
    responses=responses(examples.CANCEL_EVALUATION),
)
def cancel_evaluation(
    list_id: ListIdPath, evaluation_id: EvaluationIdPath, session: SessionDep, _: ListOfficer
) -> EvaluationRead:
    """Cancel an evaluation

    A queued evaluation is cancelled at once; a running one stops at its next progress report and
    writes no result. One that has ended is answered as it is (its status says so).

    Needs an officer's key without limits or limited to this list (a 403 says which otherwise)."""
    return service.evaluation_read(service.cancel_evaluation(session, list_id, evaluation_id))


def _get(list_id: str, evaluation_id: int) -> None:
    """The evaluation exists and is the list's (a 404 otherwise), checked before any wait."""
    with db.session_scope() as session:
        service.get_evaluation(session, list_id, evaluation_id)
