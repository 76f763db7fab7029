from typing import Annotated

from fastapi import APIRouter, BackgroundTasks, Body, Depends, Path, Query

from app.api import examples
from app.api.deps import Limit, Officer, Offset
from app.http.session import SessionDep
from app.recompute.jobs import wake_worker
from app.schemas.common import MAX_DATABASE_ID, Identifier, Page
from app.schemas.players import PlayerReviewDecided, PlayerReviewDecision, PlayerReviewKind, PlayerReviewRead, PlayerReviewStatus
from app.security import authorise_player_change
from app.services import player_reviews
from app.settings import Settings, get_settings
from app.transactions import run_in_transaction

router = APIRouter(prefix="/v1/player-reviews", tags=["players"])

ReviewIdPath = Annotated[
    int,
    Path(ge=1, le=MAX_DATABASE_ID, description="The review's id (`GET /v1/player-reviews`, or a submission's `player_reviews`)"),
]


@router.get("", operation_id="list_player_reviews", responses=examples.responses(examples.LIST_PLAYER_REVIEWS))
def list_player_reviews(
    session: SessionDep,
    caller: Officer,
    status: Annotated[PlayerReviewStatus | None, Query(description="Only reviews in this state (e.g. `pending`)")] = None,
    kind: Annotated[PlayerReviewKind | None, Query(description="Only reviews of this kind")] = None,
    player_id: Annotated[Identifier | None, Query(alias="player", description="Only reviews of this player")] = None,
    limit: Limit = 50,
    offset: Offset = 0,
) -> Page[PlayerReviewRead]:
    """List what submissions said of players, for an officer

    Only an officer changes who a player is. A submission or an import that names a stored player
    attaches its games to him and changes nothing else: where it gives other details (a country, a
    spelling, an external id), they wait here (kind `details`); a new player whose name (and country,
    where both have one) is a stored player's waits here as a `possible_duplicate` with the
    candidates. The oldest first: what an officer works through with `status=pending`.

    Needs an officer's key; one with limits sees the reviews of the players within them (every
    game of his in a tournament it may change)."""
    rows, total = player_reviews.list_reviews(
        session, status=status, kind=kind, player_id=player_id, limit=limit, offset=offset, within=caller.scope
    )
    return Page(items=[PlayerReviewRead.model_validate(r) for r in rows], total=total, limit=limit, offset=offset)


@router.get("/{review_id}", operation_id="get_player_review", responses=examples.responses(examples.GET_PLAYER_REVIEW))
def get_player_review(review_id: ReviewIdPath, session: SessionDep, caller: Officer) -> PlayerReviewRead:
    """Read a review of a player

    Needs an officer's key; one with limits reads the reviews of the players within them."""
    review = player_reviews.get_review(session, review_id)
    authorise_player_change(session, caller, review.player_id, "Reading a review of")
    return PlayerReviewRead.model_validate(review)


@router.post("/{review_id}", operation_id="decide_player_review", responses=examples.responses(examples.DECIDE_PLAYER_REVIEW))
def decide_player_review(
    review_id: ReviewIdPath,
    body: Annotated[PlayerReviewDecision, Body(openapi_examples=examples.PLAYER_REVIEW_EXAMPLES)],
    session: SessionDep,
    caller: Officer,
    background: BackgroundTasks,
    settings: Settings = Depends(get_settings),
) -> PlayerReviewDecided:
    """Accept or dismiss what a submission said of a player

    `accept` of `details` makes them the player's: a name given anew is a rename from today (the
    spelling it replaces is kept and still found), the other fields are set, external ids added.
    `accept` of a `possible_duplicate` merges the new record `into` one of the `candidates`, as
    `POST /v1/players/{player_id}/merge` does (its lists recompute: `lists_recomputing`). `dismiss`
    changes nothing. Each decision is a revision of the player, in the audit trail and on his page.
    A review decided already is a 409; `into` given with any other decision, or naming no
    candidate, a 422.

    Needs an officer's key; one with limits decides for the players within them (for a merge, both)."""

    def decide() -> PlayerReviewDecided:
        review = player_reviews.get_review(session, review_id)
        authorise_player_change(session, caller, review.player_id, "Deciding a review of")
        if body.into is not None:
            authorise_player_change(session, caller, body.into, "Merging into")
        decided, lists = player_reviews.decide(
            session, review_id, body.decision, reason=body.reason, into=body.into, actor=caller.name
        )
        return PlayerReviewDecided(**PlayerReviewRead.model_validate(decided).model_dump(), lists_recomputing=lists)

    answer = run_in_transaction(session, decide, attempts=settings.transaction_attempts)
    background.add_task(wake_worker)  # a merge's recomputes, after the commit
    return answer
