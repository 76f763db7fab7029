from typing import Annotated

from fastapi import APIRouter, BackgroundTasks, Body, Depends, Query

from app.api import examples
from app.api.deps import Limit, ListIdPath, ListOfficer, Offset, TournamentIdPath
from app.http.session import SessionDep
from app.recompute.jobs import wake_worker
from app.schemas.common import Page
from app.schemas.reviews import ReviewDecided, ReviewDecision, ReviewRead, ReviewStatus
from app.services import reviews
from app.settings import Settings, get_settings
from app.transactions import run_in_transaction

router = APIRouter(prefix="/v1/rating-lists/{list_id}/reviews", tags=["rating lists"])


@router.get("", operation_id="list_reviews", responses=examples.responses(examples.LIST_REVIEWS))
def list_reviews(
    list_id: ListIdPath,
    session: SessionDep,
    status: Annotated[ReviewStatus | None, Query(description="Only reviews in this state (e.g. `pending`)")] = None,
    limit: Limit = 50,
    offset: Offset = 0,
) -> Page[ReviewRead]:
    """List a rating list's reviews of submitted tournaments

    For a list that requires an officer's confirmation (`requires_review`), every tournament
    submitted to it since, the earliest submitted (or corrected) first: what an officer of the list
    works through with `status=pending`. Empty for a list that does not review."""
    rows, total = reviews.reviews_of_list(session, list_id, status, limit, offset)
    return Page(items=[ReviewRead.model_validate(r) for r in rows], total=total, limit=limit, offset=offset)


@router.post("/{tournament_id}", operation_id="review_tournament", responses=examples.responses(examples.REVIEW_TOURNAMENT))
def review_tournament(
    list_id: ListIdPath,
    tournament_id: TournamentIdPath,
    body: Annotated[ReviewDecision, Body(openapi_examples=examples.REVIEW_EXAMPLES)],
    session: SessionDep,
    caller: ListOfficer,
    background: BackgroundTasks,
    settings: Settings = Depends(get_settings),
) -> ReviewDecided:
    """Confirm or reject a tournament for a list

    The list rates a tournament under review only once confirmed: a confirmation queues the list's
    recompute (its `job_id`), and so does a rejection of a tournament confirmed before; a rejection of
    a pending one changes no rating. A decision may be changed later, not repeated (the same one again
    is a 409); a correction of the tournament puts it back to `pending` (docs/decisions.md 7.30). Each
    decision is a revision of the tournament (kind `confirmed` or `rejected`, with the list and the
    reason). A tournament the list has no review of is a 404.

    Needs an officer's key without limits or limited to this list (a 403 says which otherwise)."""

    def decide() -> ReviewDecided:
        decided = reviews.decide(session, list_id, tournament_id, body.decision, body.reason, actor=caller.name)
        return ReviewDecided(**ReviewRead.model_validate(decided.review).model_dump(), job_id=decided.job_id)

    answer = run_in_transaction(session, decide, attempts=settings.transaction_attempts)
    background.add_task(wake_worker)  # after the response, so after the commit too
    return answer
