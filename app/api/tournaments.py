from collections.abc import Callable
from functools import partial
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, BackgroundTasks, Body, Depends, Header, Query, Response, status
from fastapi.responses import JSONResponse
from sqlalchemy.orm import Session

from app.api import examples
from app.api.checked_bodies import ReferencesCheckedRoute
from app.api.deps import IfMatch, Limit, Offset, Organiser, RevisionNumberPath, TournamentIdPath
from app.api.examples import CORRECT_TOURNAMENT_EXAMPLES, SUBMIT_TOURNAMENT_EXAMPLES
from app.http.headers import LOCATION, TOURNAMENT_VERSION
from app.http.session import SessionDep
from app.problems import Conflict, PreconditionFailed
from app.recompute.jobs import wake_worker
from app.schemas.common import CountryCode, DisplayText, Page, Text
from app.schemas.revisions import RevisionDetail, RevisionRead
from app.schemas.tournaments import (
    Category,
    TournamentIn,
    TournamentRead,
    TournamentSubmitted,
    TournamentSummary,
)
from app.security import Caller, authorise_submission, authorise_tournament_change
from app.services import idempotency, revisions
from app.services import tournament_reads as reads
from app.services import tournaments as service
from app.settings import Settings, get_settings
from app.transactions import run_in_transaction

router = APIRouter(prefix="/v1/tournaments", tags=["tournaments"], route_class=ReferencesCheckedRoute)
T = TypeVar("T")

_STALE: dict[int | str, dict[str, Any]] = {
    412: {"description": "`If-Match` names another version than the tournament's latest: nothing changed"}
}


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    operation_id="submit_tournament",
    response_model=TournamentSubmitted,
    responses={
        **examples.responses(examples.SUBMIT_TOURNAMENT, status=201, headers={**LOCATION, **TOURNAMENT_VERSION}),
        409: {
            "description": "A tournament with this id exists, its games repeat a stored tournament's, or a request with "
            "the same Idempotency-Key is in progress"
        },
        413: {"description": "Too many games"},
    },
)
def submit_tournament(
    body: Annotated[TournamentIn, Body(openapi_examples=SUBMIT_TOURNAMENT_EXAMPLES)],
    session: SessionDep,
    caller: Organiser,
    background: BackgroundTasks,
    settings: Settings = Depends(get_settings),
    duplicate: Literal["refused", "intended"] = Query(
        "refused",
        description="`intended`: store it even if its games repeat a stored tournament's (by default a 409 names that "
        "tournament: at least 3 of its played games, and at least half, on the same day between the same players "
        "with the same result)",
    ),
    idempotency_key: Text | None = Header(
        None,
        max_length=200,
        description="Any string of up to 200 characters that the client chooses per submission: a request "
        "sent again with the same key and the same body receives the first answer instead of storing twice; "
        "the same key with a different body is a 422, and one sent while the first is still in progress a 409. "
        "A key belongs to the API key that used it.",
    ),
) -> JSONResponse:
    """Submit a tournament with its games

    Stores the tournament, its games and its players in one transaction: all of it, or nothing with a
    4xx that points at every invalid field. A game may name only players given in `players` or stored
    already. A game without a `date` counts on the tournament's last day (`end`). At most 20,000 games
    by default (413 beyond).

    The new players in `players` are created with the fields given. A stored player's games are his,
    and nothing else of him changes: only an officer changes who a player is. Where the submission
    gives him other details (a country, a city, a spelling, an external id), they are listed in the
    201's `player_reviews` and wait for an officer (`GET /v1/player-reviews`); so does a new player
    whose name (and country, where both have one) is a stored player's, as a possible duplicate. A
    stored player's id given with another person's name (neither his Latin nor his native name, in
    any spelling he has had) is a 409 pointing at it: a player of the submitter's own numbering needs
    an id of his own. A record merged into another player is that player.

    The 201 is sent once the transaction has committed, with `Location: /v1/tournaments/{id}`. Its
    `lists` say, for every rating list of the tournament's category, whether that list rates the
    tournament (and why not) and which recompute it queued, or why it queued none
    (`no_recompute_reason`): a list with `auto_recompute` recomputes itself after the submission; one
    without (the historical `rif-elo`) does not, and is stale from then until an officer recomputes it
    (`stale_lists`, and the list's `stale_since`). An id that is stored already is a 409: a correction is
    `PUT /v1/tournaments/{tournament_id}`. So is a tournament whose games repeat a stored one's (the
    problem names it), unless `duplicate=intended` says both are real.

    `standings`, when the tournament gives its own (each player's place and tie-break values, e.g.
    MMS, SOS, SOSOS for Go), are stored as given, never computed: each names a player of the
    tournament (in `players` or in a game) at most once, and all name the same tie-breaks in the same
    order (a 422 points at each one that does not).

    Needs an organiser's key, or an officer's without limits or whose limits include every list that
    would rate the tournament (of its categories, when none would; a 403 names the list beyond them)."""
    fingerprint = idempotency.request_fingerprint(body.model_dump(mode="json"))
    key = idempotency.scoped_key(caller.name, idempotency_key) if idempotency_key else None
    location = f"/v1/tournaments/{body.id}"

    def store() -> idempotency.StoredResponse:
        authorise_submission(session, caller, body)
        if key is not None:
            replay = idempotency.claim(session, key, fingerprint)
            if replay is not None:
                return replay
        answer = service.submit(
            session,
            body,
            actor=caller.name,
            max_games=settings.max_games_per_tournament,
            allow_duplicate=duplicate == "intended",
        )
        stored = idempotency.StoredResponse(201, answer.model_dump(mode="json"), location)
        if key is not None:
            idempotency.complete(session, key, stored)
        return stored

    stored = run_in_transaction(session, store, attempts=settings.transaction_attempts)
    background.add_task(wake_worker)  # after the response, so after the commit too
    headers = {"Location": stored.location} if stored.location else {}
    if stored.status_code == status.HTTP_201_CREATED:
        # Its first version (its submission), which a replay answers too: the ETag a client sends in
        # If-Match with its first correction, without reading the tournament first.
        headers["ETag"] = service.version_etag(1)
    return JSONResponse(stored.body, status_code=stored.status_code, headers=headers)


@router.put(
    "/{tournament_id}",
    operation_id="replace_tournament",
    responses={**examples.responses(examples.REPLACE_TOURNAMENT, headers=TOURNAMENT_VERSION), **_STALE},
)
def replace_tournament(
    tournament_id: TournamentIdPath,
    body: Annotated[TournamentIn, Body(openapi_examples=CORRECT_TOURNAMENT_EXAMPLES)],
    session: SessionDep,
    caller: Organiser,
    background: BackgroundTasks,
    response: Response,
    if_match: IfMatch = None,
    settings: Settings = Depends(get_settings),
) -> TournamentSubmitted:
    """Correct a stored tournament

    The body is the whole tournament as it should be (the same shape as a submission, with the path's
    id): its fields, its games and what was declared for its players are replaced; players are
    resolved, created and reviewed as in a submission. A tournament that does not exist is a 404 (submit it with
    `POST /v1/tournaments`), a body whose `id` differs from the path's a 422. Every list that rated
    the tournament before or rates it now, and recomputes itself, queues a recompute; the answer's
    `lists` say which, and why each other queued none (`no_recompute_reason`): one that does not
    recompute itself (the historical `rif-elo`) shows the tournament as it was, and says it is stale
    (`stale_lists`), until an officer recomputes it. The version it replaces is kept in the
    tournament's revisions. A withdrawn tournament stays withdrawn.

    Needs the key of the organiser that submitted the tournament, or an officer's without limits or
    whose limits include every list that rates the tournament as it is and as the body makes it
    (or would once restored or confirmed; a 403 names the list beyond them).

    With `If-Match` (the tournament's `ETag`), the correction is made only if the tournament is still
    at that version: otherwise a 412, and the refused attempt is recorded in the audit (kind `refused`)."""

    def correct() -> TournamentSubmitted:
        authorise_tournament_change(session, caller, tournament_id, "Correcting", new=body)
        return service.correct(
            session,
            tournament_id,
            body,
            actor=caller.name,
            max_games=settings.max_games_per_tournament,
            if_match=service.versions_of(if_match),
        )

    return _changed(session, tournament_id, "correction", caller, settings, correct, response, background)


@router.delete(
    "/{tournament_id}",
    operation_id="withdraw_tournament",
    responses={**examples.responses(examples.WITHDRAW_TOURNAMENT, headers=TOURNAMENT_VERSION), **_STALE},
)
def withdraw_tournament(
    tournament_id: TournamentIdPath,
    reason: Annotated[
        DisplayText,
        Query(min_length=1, max_length=500, description="Why it is withdrawn, in words; kept with it and in its revisions"),
    ],
    session: SessionDep,
    caller: Organiser,
    background: BackgroundTasks,
    response: Response,
    if_match: IfMatch = None,
    settings: Settings = Depends(get_settings),
) -> TournamentSubmitted:
    """Withdraw a tournament from every list

    The tournament stays stored and readable, marked with when and why it was withdrawn
    (`withdrawn_at`, `withdrawn_reason`); no list rates it from the recompute this queues on (the
    answer's `lists` name each job). `POST /v1/tournaments/{tournament_id}/restore` undoes it. A
    tournament withdrawn already is a 409.

    Needs the key of the organiser that submitted the tournament, or an officer's without limits or
    whose limits include every list that rates the tournament, or would once restored or confirmed
    (a 403 names the list beyond them).

    With `If-Match` (the tournament's `ETag`), it is withdrawn only if it is still at that version:
    otherwise a 412. A refused withdrawal (409, 412) is recorded in the audit (kind `refused`)."""

    def withdraw() -> TournamentSubmitted:
        authorise_tournament_change(session, caller, tournament_id, "Withdrawing")
        return service.withdraw(session, tournament_id, reason, actor=caller.name, if_match=service.versions_of(if_match))

    return _changed(session, tournament_id, "withdrawal", caller, settings, withdraw, response, background)


@router.post(
    "/{tournament_id}/restore",
    operation_id="restore_tournament",
    responses={**examples.responses(examples.RESTORE_TOURNAMENT, headers=TOURNAMENT_VERSION), **_STALE},
)
def restore_tournament(
    tournament_id: TournamentIdPath,
    session: SessionDep,
    caller: Organiser,
    background: BackgroundTasks,
    response: Response,
    if_match: IfMatch = None,
    settings: Settings = Depends(get_settings),
) -> TournamentSubmitted:
    """Restore a withdrawn tournament

    The lists that rate it do so again from the recompute this queues on (the answer's `lists`). A
    tournament that is not withdrawn is a 409.

    Needs the key of the organiser that submitted the tournament, or an officer's without limits or
    whose limits include every list that rates the tournament, or would once restored or confirmed
    (a 403 names the list beyond them).

    With `If-Match` (the tournament's `ETag`), it is restored only if it is still at that version:
    otherwise a 412. A refused restore (409, 412) is recorded in the audit (kind `refused`)."""

    def restore() -> TournamentSubmitted:
        authorise_tournament_change(session, caller, tournament_id, "Restoring")
        return service.restore(session, tournament_id, actor=caller.name, if_match=service.versions_of(if_match))

    return _changed(session, tournament_id, "restore", caller, settings, restore, response, background)


@router.get(
    "/{tournament_id}/revisions",
    operation_id="list_tournament_revisions",
    responses=examples.responses(examples.LIST_TOURNAMENT_REVISIONS),
)
def list_tournament_revisions(
    tournament_id: TournamentIdPath, session: SessionDep, limit: Limit = 50, offset: Offset = 0
) -> Page[RevisionRead]:
    """List a tournament's revisions, the oldest first

    Every recorded change of the tournament: its submission, corrections, withdrawals and restores,
    each with the key that made it, when, and a summary of what changed. The version a change
    replaced is at `GET /v1/tournaments/{tournament_id}/revisions/{number}`."""
    reads.get_tournament_row(session, tournament_id)
    rows, total = revisions.revisions_of(session, revisions.TOURNAMENT, tournament_id, limit, offset)
    return Page(items=[RevisionRead.model_validate(r) for r in rows], total=total, limit=limit, offset=offset)


@router.get(
    "/{tournament_id}/revisions/{number}",
    operation_id="get_tournament_revision",
    responses=examples.responses(examples.GET_TOURNAMENT_REVISION),
)
def get_tournament_revision(tournament_id: TournamentIdPath, number: RevisionNumberPath, session: SessionDep) -> RevisionDetail:
    """Read a revision of a tournament and the version it replaced

    `previous` is the whole tournament as it stood before this change, in the form of a submission
    body (what `PUT /v1/tournaments/{tournament_id}` would take to put it back), with its withdrawal;
    null for the submission that created it."""
    return RevisionDetail.model_validate(revisions.revision_of(session, revisions.TOURNAMENT, tournament_id, number))


@router.get(
    "/{tournament_id}",
    operation_id="get_tournament",
    responses=examples.responses(examples.GET_TOURNAMENT, headers=TOURNAMENT_VERSION),
)
def get_tournament(tournament_id: TournamentIdPath, session: SessionDep, response: Response) -> TournamentRead:
    """Read a tournament with its games and rating changes

    The stored tournament as submitted (defaults filled in), every player of its games with what was
    declared for him there, its games in submission order, and each player's rating change under
    the current snapshot of every list that rates it (empty until a list has been recomputed).
    `stale_lists` names each list rating it (or showing its changes) whose current snapshot does not
    show every change since a moment (`stale_since`, and what changed): its changes here are those of
    before, until the list is recomputed.

    The `ETag` header names the tournament's version (its latest revision): sent back in `If-Match`
    with a correction, withdrawal or restore, it makes the change only if nobody changed the
    tournament in between (a 412 otherwise). It names what was submitted and changed, not the rating
    changes, which follow the lists' recomputes."""
    read = reads.read_tournament(session, tournament_id)
    response.headers["ETag"] = service.current_etag(session, tournament_id)
    return read


@router.get("", operation_id="list_tournaments", responses=examples.responses(examples.LIST_TOURNAMENTS))
def list_tournaments(
    session: SessionDep,
    category: Category | None = Query(None, description="Only tournaments of this game"),
    year: int | None = Query(
        None,
        ge=1900,
        le=2200,
        description="Only tournaments played in this year, at least in part (one spanning New Year belongs to both years)",
    ),
    country: CountryCode | None = Query(None, description="Only tournaments held in this country (code as submitted, e.g. CHN)"),
    limit: Limit = 50,
    offset: Offset = 0,
) -> Page[TournamentSummary]:
    """List tournaments, the latest first

    Tournaments without their games and players, ordered by last day, latest first (then by id),
    filtered by category, year and country when asked; `games_count` says how many games each has."""
    rows, total = reads.list_tournaments(session, category=category, year=year, country=country, limit=limit, offset=offset)
    items = [TournamentSummary.model_validate(t).model_copy(update={"games_count": n}) for t, n in rows]
    return Page(items=items, total=total, limit=limit, offset=offset)


def _changed(
    session: Session,
    tournament_id: str,
    attempt: str,
    caller: Caller,
    settings: Settings,
    change: Callable[[], TournamentSubmitted],
    response: Response,
    background: BackgroundTasks,
) -> TournamentSubmitted:
    """A correction, withdrawal or restore settled (``_settled``), its answer carrying the
    tournament's new version, the worker woken once the answer has left (after the commit)."""

    def store() -> TournamentSubmitted:
        answer = change()
        response.headers["ETag"] = service.current_etag(session, tournament_id)
        return answer

    changed = _settled(session, tournament_id, attempt, caller, settings, store)
    background.add_task(wake_worker)
    return changed


def _settled(
    session: Session, tournament_id: str, attempt: str, caller: Caller, settings: Settings, change: Callable[[], T]
) -> T:
    """Run a change of the tournament to its commit; when it is refused as stale (412) or as not
    allowed by the tournament's state (409), record the refused attempt in a transaction of its own
    (the change's rolled back) before answering the refusal (docs/decisions.md 7.32)."""
    try:
        return run_in_transaction(session, change, attempts=settings.transaction_attempts)
    except (PreconditionFailed, Conflict) as refusal:
        run_in_transaction(
            session,
            partial(service.record_refused, session, tournament_id, attempt, refusal, actor=caller.name),
            attempts=settings.transaction_attempts,
        )
        raise
