import datetime as dt
import hashlib
from collections.abc import Callable
from functools import partial
from typing import Annotated, Any

from fastapi import (
    APIRouter,
    BackgroundTasks,
    Body,
    Query,
    Request,
    Response,
    status,
)
from pydantic import BaseModel
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool
from starlette.types import Scope

from app import db
from app.api import examples
from app.api.calculators import BUDGET_RESPONSES, run_within_budget
from app.api.checked_bodies import ReferencesCheckedRoute
from app.api.deps import IfNoneMatch, Limit, ListIdPath, ListOfficer, Offset, PlayerIdPath, SnapshotIdPath
from app.api.examples import responses
from app.http import response_cache
from app.http.caching import (
    ListRead,
    current_snapshot,
    list_read,
    matches,
    not_modified,
    read_validators,
)
from app.http.headers import CACHED_READ, LOCATION, NOT_MODIFIED
from app.http.session import SessionDep
from app.models import RatingList, RatingSnapshot
from app.problems import FieldError, InvalidInput
from app.rating.calculators import MAX_CALC_GAMES
from app.recompute import jobs, staleness
from app.recompute.jobs import wake_worker
from app.schemas.common import MAX_DATABASE_ID, CountryCode, Date, Identifier, Page
from app.schemas.drift import Drift
from app.schemas.jobs import JobAccepted
from app.schemas.predictions import Prediction
from app.schemas.rating_lists import (
    GENDER_FILTER_DESCRIPTION,
    GenderFilter,
    PlayerHistory,
    PlayerSeedIn,
    PlayerSeedWritten,
    PublicationRef,
    RatingListRead,
    RatingListSettingsPatch,
    RatingsPage,
    SeedRead,
    SeedRemoved,
    SeedsIn,
    SeedsRead,
    SnapshotRead,
    StatusFilter,
    WhatIfChange,
    WhatIfRead,
)
from app.schemas.tournaments import TournamentIn
from app.services import drift as drift_service
from app.services import predictions, publications
from app.services import rating_lists as service
from app.services import what_if as what_if_service
from app.settings import get_settings
from app.snapshots.current_snapshots import Current, players_edition

# The conditional reads of a list (app.http.caching.read_validators), answered before routing too
# (app.api.conditional): a list's page, compared with its latest publication, and a history.
RATINGS_READ = ListRead(path_param="list_id", compared=True)
HISTORY_READ = ListRead(query_param="list")
PREDICT_READ = ListRead(path_param="list_id")
# The drift read's ETag also names the list's threshold, which only the database knows: it is not
# declared a list read (``list_read``) and so not answered before routing, but by its endpoint.
DRIFT_READ = ListRead(path_param="list_id")

# (what-if takes a tournament body: its 422 names the unknown players with the schema's errors)
router = APIRouter(tags=["rating lists"], route_class=ReferencesCheckedRoute)


@router.get("/v1/rating-lists", operation_id="list_rating_lists", responses=responses(examples.LIST_RATING_LISTS))
def list_rating_lists(session: SessionDep) -> list[RatingListRead]:
    """List the rating lists

    Every rating list of the service, by id, with its rating system, category, parameters, the rules
    deciding which tournaments it rates, and its current snapshot. A new installation has `rif-whr`
    (renju), `rif-whr-gomoku`, the historical `rif-elo`, `olufsen` (shogi) and `rivne` (go)."""
    return [RatingListRead.model_validate(r) for r in service.list_rating_lists(session)]


@router.get("/v1/rating-lists/{list_id}", operation_id="get_rating_list", responses=responses(examples.GET_RATING_LIST))
def get_rating_list(list_id: ListIdPath, session: SessionDep) -> RatingListRead:
    """Read a rating list's configuration

    Its rating system, category, parameters, the rules deciding which tournaments it rates, whether it
    recomputes itself after each submission, the id of its current snapshot (null until its first
    recompute), and since when that snapshot no longer shows every change of its inputs (`stale_since`,
    with what changed: a list that does not recompute itself, or a change that queued no recompute,
    waits for the next recompute). Its ratings are at `/v1/rating-lists/{list_id}/ratings`."""
    return RatingListRead.model_validate(service.get_rating_list(session, list_id))


@router.patch("/v1/rating-lists/{list_id}", operation_id="update_rating_list", responses=responses(examples.UPDATE_RATING_LIST))
def update_rating_list(
    list_id: ListIdPath,
    body: Annotated[RatingListSettingsPatch, Body(openapi_examples=examples.UPDATE_RATING_LIST_EXAMPLES)],
    session: SessionDep,
    caller: ListOfficer,
) -> RatingListRead:
    """Change a rating list's settings

    `auto_recompute`: whether a submission or correction of a tournament the list rates queues a
    recompute of the list; `publication_days`: the days of the year on which the service publishes
    the list by itself (`POST …/publications` publishes by hand); `requires_review`: whether a tournament
    submitted or corrected from now on counts only once an officer of the list has confirmed it
    (`…/reviews`). Fields left out keep their value; each change is a revision of the list.
    The list's rating parameters are changed at `/v1/rating-lists/{list_id}/params`.

    Needs an officer's key without limits or limited to this list (a 403 says which otherwise)."""
    rating_list = service.update_settings(session, list_id, body.model_dump(exclude_unset=True), actor=caller.name)
    return RatingListRead.model_validate(rating_list)


@router.patch(
    "/v1/rating-lists/{list_id}/params",
    operation_id="update_rating_list_params",
    responses=responses(examples.UPDATE_RATING_LIST_PARAMS),
)
def update_rating_list_params(
    list_id: ListIdPath,
    session: SessionDep,
    caller: ListOfficer,
    body: dict[str, Any] = Body(
        description="Parameters to change, checked by the list's rating system: rif-whr takes w2 (> 0), virtual_games "
        "(1–100), virtual_rating, start_rating (finite numbers); rif-elo takes switch_to_1997, last_day (dates) and "
        "bootstrap_rating (0–4000 or null); rivne takes newcomer_start (rank or declared_rating); eru takes first_rank "
        "(15k … 9d, INTERPRETATIONS 4.8).",
        openapi_examples=examples.PARAMS_EXAMPLES,
    ),
) -> RatingListRead:
    """Change a rating list's parameters

    The parameters given are merged into the list's and checked by its rating system: a parameter
    the system does not take, or a value out of its range, is a 422 pointing at it, and nothing
    changes. They apply from the list's next recompute; the snapshots already computed keep the
    parameters they were computed with.

    The list is stale from a change of its parameters until that recompute (`stale_since`).

    Needs an officer's key without limits or limited to this list (a 403 says which otherwise)."""
    return RatingListRead.model_validate(service.update_params(session, list_id, body, actor=caller.name))


@router.post(
    "/v1/rating-lists/{list_id}/recompute",
    status_code=status.HTTP_202_ACCEPTED,
    operation_id="recompute_rating_list",
    responses=responses(examples.RECOMPUTE_RATING_LIST, status=202, headers=LOCATION),
)
def recompute_rating_list(
    list_id: ListIdPath, session: SessionDep, _: ListOfficer, background: BackgroundTasks, response: Response
) -> JobAccepted:
    """Queue a recompute of a rating list

    The list is computed again from every stored tournament it rates, into a new snapshot that becomes
    current when the job succeeds; until then readers see the previous one. The 202 names the job,
    also in `Location`: follow it at `GET /v1/jobs/{job_id}`. Asking again while a recompute of the
    list is still queued returns that job instead of queueing another. The job's snapshot clears the
    list's `stale_since` when it read every change that made the list stale (one made while it ran
    leaves the list stale).

    Needs an officer's key without limits or limited to this list (a 403 says which otherwise)."""
    job = jobs.trigger_recompute(session, list_id)
    background.add_task(wake_worker)  # runs after the response, when the job is committed
    response.headers["Location"] = f"/v1/jobs/{job.id}"
    # The stored status is text; validating it checks it is one of JobStatus's, as JobRead does.
    return JobAccepted.model_validate({"job_id": job.id, "status": job.status, "list_id": list_id})


@router.get(
    "/v1/rating-lists/{list_id}/ratings",
    operation_id="get_ratings",
    response_model=RatingsPage,
    responses={**responses(examples.GET_RATINGS, headers=CACHED_READ), **NOT_MODIFIED},
)
@list_read(RATINGS_READ)
async def get_ratings(
    list_id: ListIdPath,
    request: Request,
    as_of: Date | None = Query(
        None,
        description="The list as it stood on this date, from the snapshot's stored per-day points. The default list "
        "(status=active, on the snapshot's list date, the day of its recompute) is empty for a history whose last games are more than five years old: "
        "every player is then inactive; ask for status=all, or as_of the data's last date.",
    ),
    country: CountryCode | None = Query(None, description="Only players of this country (code as stored, e.g. EST)"),
    status: StatusFilter = Query(
        "active",
        description="active (default), inactive, provisional or all. A player is active with an established rating "
        "and a rated game within the last five years of the list's date (or as_of), provisional until his rating "
        "is established, inactive otherwise",
    ),
    gender: GenderFilter | None = Query(None, description=GENDER_FILTER_DESCRIPTION),
    played_within_12_months: bool = Query(
        False, description="true: only players with a rated game in the 12 months up to the list's date (or as_of)"
    ),
    snapshot_id: int | None = Query(
        None, ge=1, le=MAX_DATABASE_ID, description="Read an earlier snapshot instead of the current one"
    ),
    limit: Limit = 100,
    offset: Offset = 0,
    if_none_match: IfNoneMatch = None,
) -> Response:
    """Read a rating list, best first

    One page of the list's players, highest rating first (ties by player id), each with his rank
    among all the players the query selects, rating, deviation (WHR), games, last game and status.
    By default the current snapshot as it stood on its list date; `as_of` reads it on any date,
    `snapshot_id` an earlier snapshot. `status` picks active (the default), inactive or provisional
    players, or all of them; the status rules are the list's system's (see `status` below). The
    current list's rows carry each player's rating and place in the list's latest publication and
    the change (or `new`, `returned`), named in `compared_with`; an earlier snapshot's rows do not.

    The current list's `stale_since` says since when it does not show every change of its inputs (the
    list's own, see `GET /v1/rating-lists/{list_id}`). The answer carries an `ETag` and
    `Cache-Control`: sent back in `If-None-Match`, an unchanged page is a 304 without a body, answered
    without reading any rating; the ETag changes with the snapshot, the latest publication and the
    list's going stale or fresh. A page belongs to its snapshot: a player's changed name or country may
    show only from the list's next snapshot on."""
    query = {
        "as_of": as_of,
        "country": country,
        "status": status,
        "gender": gender,
        "played_within_12_months": played_within_12_months,
        "limit": limit,
        "offset": offset,
    }
    current = await current_snapshot(list_id)
    if current is not None:
        etag, cache_control = read_validators(RATINGS_READ, current, request.scope, snapshot_id)
        if matches(if_none_match, etag):
            return not_modified(etag, cache_control)
        body = response_cache.responses.get(("ratings", *current, *query.values())) if snapshot_id is None else None
        if body is not None:
            return Response(body, media_type="application/json", headers={"ETag": etag, "Cache-Control": cache_control})
    return await run_in_threadpool(_ratings_answer, list_id, snapshot_id, query, request.scope, if_none_match)


def _ratings_answer(
    list_id: str, snapshot_id: int | None, query: dict[str, Any], scope: Scope, if_none_match: str | None
) -> Response:
    with db.session_scope() as session:
        rating_list = service.get_rating_list(session, list_id)
        # The current list's rows are compared with its latest publication, and it says whether it is
        # stale; a pinned snapshot's do neither.
        latest = publications.latest_publication(session, list_id) if snapshot_id is None else None
        number = latest.number if latest is not None else None
        stale = staleness.of(rating_list) if snapshot_id is None else None
        stale_since = stale.since if stale is not None else None
        # The list as the database has it now (this process's view of it may be a second old).
        edition = players_edition(session) if snapshot_id is None else None
        current = Current(rating_list.current_snapshot_id, None, number, stale_since, edition)
        etag, cache_control = read_validators(RATINGS_READ, current, scope, snapshot_id)
        if matches(if_none_match, etag):
            return not_modified(etag, cache_control)
        snapshot = service.get_snapshot(session, list_id, snapshot_id)
        key: tuple[object, ...] | None = None
        if snapshot is not None:  # (as in get_ratings: the current list's key names its publication, mark and players)
            key = ("ratings", snapshot.id, snapshot.created_at, number, stale_since, edition, *query.values())
            if snapshot_id is not None:
                key = ("pinned", *key)

        def page() -> bytes:
            rows, total = service.ratings(session, snapshot, system=service.system_of(rating_list), **query)
            rows = publications.compare_rows(session, latest, rows)
            compared_with = PublicationRef(number=latest.number, date=latest.date, title=latest.title) if latest else None
            return (
                RatingsPage(
                    list_id=list_id,
                    snapshot_id=snapshot.id if snapshot else None,
                    list_date=snapshot.list_date if snapshot else None,
                    as_of=query["as_of"],
                    compared_with=compared_with,
                    stale_since=stale_since,
                    stale_reason=stale.reason if stale is not None else None,
                    items=rows,
                    total=total,
                    limit=query["limit"],
                    offset=query["offset"],
                )
                .model_dump_json()
                .encode()
            )

        body = response_cache.responses.kept_or_built(key, page)
    return Response(body, media_type="application/json", headers={"ETag": etag, "Cache-Control": cache_control})


@router.get("/v1/rating-lists/{list_id}/snapshots", operation_id="list_snapshots", responses=responses(examples.LIST_SNAPSHOTS))
def list_snapshots(list_id: ListIdPath, session: SessionDep, limit: Limit = 50, offset: Offset = 0) -> Page[SnapshotRead]:
    """List a rating list's snapshots, the newest first

    Every recompute writes a snapshot: the whole list as computed on its list date, with the
    parameters used and notes from the computation. Earlier snapshots stay readable, since a
    recompute can change the past (INTERPRETATIONS 3.6); `current` marks the one the list shows."""
    snapshots, total = service.list_snapshots(session, list_id, limit, offset)
    current = service.get_rating_list(session, list_id).current_snapshot_id
    items = [SnapshotRead.model_validate(s).model_copy(update={"current": s.id == current}) for s in snapshots]
    return Page(items=items, total=total, limit=limit, offset=offset)


@router.get(
    "/v1/rating-lists/{list_id}/snapshots/{snapshot_id}", operation_id="get_snapshot", responses=responses(examples.GET_SNAPSHOT)
)
def get_snapshot(list_id: ListIdPath, snapshot_id: SnapshotIdPath, session: SessionDep) -> SnapshotRead:
    """Read one snapshot of a rating list

    Its list date, when it was written and by which job, the parameters used, how many players, games
    and tournaments it rated, and the computation's notes. Its ratings are read with
    `GET /v1/rating-lists/{list_id}/ratings?snapshot_id=…`."""
    snapshot = service.get_snapshot(session, list_id, snapshot_id)
    current = service.get_rating_list(session, list_id).current_snapshot_id
    return SnapshotRead.model_validate(snapshot).model_copy(update={"current": snapshot_id == current})


@router.get("/v1/rating-lists/{list_id}/seeds", operation_id="get_seeds", responses=responses(examples.GET_SEEDS))
def get_seeds(list_id: ListIdPath, session: SessionDep) -> SeedsRead:
    """Read a rating list's seed ratings

    The ratings its replay starts from, by player id (see `PUT` on the same path); empty for a list
    without seeds."""
    return SeedsRead(list_id=list_id, seeds=[SeedRead.model_validate(s) for s in service.get_seeds(session, list_id)])


@router.put("/v1/rating-lists/{list_id}/seeds", operation_id="replace_seeds", responses=responses(examples.REPLACE_SEEDS))
def replace_seeds(
    list_id: ListIdPath,
    body: Annotated[SeedsIn, Body(openapi_examples=examples.SEEDS_EXAMPLES)],
    session: SessionDep,
    caller: ListOfficer,
) -> SeedsRead:
    """Replace a rating list's seed ratings

    Seeds are ratings players held on a date, from which the list's replay starts: an Elo list rates
    nobody without them, as RIF itself began from a first official list (INTERPRETATIONS 1.18). For
    `rif-elo` a seed is a rating with its 1995 or 1997 status, read under the rules in force on its
    `as_of` date (INTERPRETATIONS 6.19); for `olufsen` a rating with its category, grade and rated
    games; for `rivne` a rating and declared rank from a date on; for `eru` a rank with an Estonian or
    RIF rating, or a newcomer's first rank and the referee's bonus (ERU 4.8, 4.10). The list's system checks each seed;
    its players must be stored. The body replaces every seed of the list, all or nothing, and applies
    from the next recompute, which it does not queue: the list is stale until then (`stale_since`). A
    list whose system takes no seeds (WHR) answers 422.

    Needs an officer's key without limits or limited to this list (a 403 says which otherwise)."""
    seeds = service.replace_seeds(session, list_id, [s.model_dump(exclude_none=True) for s in body.seeds], actor=caller.name)
    return SeedsRead(list_id=list_id, seeds=[SeedRead.model_validate(s) for s in seeds])


@router.post(
    "/v1/rating-lists/{list_id}/what-if",
    operation_id="what_if",
    responses={
        **BUDGET_RESPONSES,
        **responses(examples.WHAT_IF),
        409: {
            "description": "A player is named as a submission could not name him (another's external id, or a stored id "
            "with another person's name), as `POST /v1/tournaments` would answer"
        },
    },
)
async def what_if(
    list_id: ListIdPath,
    body: Annotated[TournamentIn, Body(openapi_examples=examples.WHAT_IF_EXAMPLES)],
) -> WhatIfRead:
    """What a tournament would do to the list

    A tournament in the format of `POST /v1/tournaments` rated on the list as it is now, nothing
    stored: each player's rating before and after and the change, as the tournament's
    `rating_changes` would show them once submitted and the list recomputed today (the same
    eligibility, seeds, parameters and replay; for WHR the whole fit with the tournament's games
    added). A stored tournament of the same id is replaced, as a correction would replace it. A
    tournament the list would not rate answers `rated: false` and the reason. Its players need not
    be stored: those given inline count as new. They are resolved exactly as a submission resolves
    them: a player given an external id is the stored player holding it, a merged record the
    player it went to, and a stored id given with another person's name is the same 409 a
    submission gets. Open to everyone and bounded like the calculators:
    the calculators' body limit (413), at most 10,000 games (413), `CALC_MAX_CONCURRENT`
    calculations at once (503 with Retry-After), and the calculators' time budget (422)."""
    settings = get_settings()
    answer = await run_within_budget(
        partial(
            what_if_service.what_if_in_own_session,
            list_id,
            body,
            max_games=min(MAX_CALC_GAMES, settings.max_games_per_tournament),
            list_date=dt.date.today(),
        )
    )
    return WhatIfRead(
        list_id=answer.list_id,
        rated=answer.rated,
        reason=answer.reason,
        list_date=answer.list_date,
        players=[WhatIfChange.model_validate(change, from_attributes=True) for change in answer.changes],
        notes=answer.notes,
    )


@router.put(
    "/v1/rating-lists/{list_id}/seeds/{player_id}",
    operation_id="put_seed",
    responses=responses(examples.PUT_SEED),
)
def put_seed(
    list_id: ListIdPath,
    player_id: PlayerIdPath,
    body: Annotated[PlayerSeedIn, Body(openapi_examples=examples.PUT_SEED_EXAMPLES)],
    session: SessionDep,
    caller: ListOfficer,
) -> PlayerSeedWritten:
    """Add or change one player's seed

    The other seeds stay as they are (`PUT /v1/rating-lists/{list_id}/seeds` replaces them all). The
    seed is checked by the list's system as there: at its precision (fractional for `rivne`), with
    its own counters (for `olufsen` the streaks toward a grade and an unrated player's recorded
    results; the `seed` of a player in the answer of `POST /v1/calc/olufsen/tournament` is such a body).
    The change is recorded as a revision with the earlier seed (none when the player had no seed), and
    a list with `auto_recompute` queues its recompute (`job_id`); another is stale until it is
    recomputed (`stale_since`).

    Needs an officer's key without limits or limited to this list (a 403 says which otherwise)."""
    stored = service.put_seed(session, list_id, player_id, body.model_dump(exclude_none=True), actor=caller.name)
    job_id = jobs.recompute_if_automatic(session, list_id, f"seed of {player_id} changed")
    return PlayerSeedWritten.model_validate(stored).model_copy(update={"job_id": job_id})


@router.delete(
    "/v1/rating-lists/{list_id}/seeds/{player_id}",
    operation_id="delete_seed",
    status_code=200,
    responses=responses(examples.DELETE_SEED),
)
def delete_seed(list_id: ListIdPath, player_id: PlayerIdPath, session: SessionDep, caller: ListOfficer) -> SeedRemoved:
    """Remove one player's seed

    The other seeds stay. The removal is recorded as a revision keeping the seed, and a list with
    `auto_recompute` queues its recompute (`job_id`); another is stale until it is recomputed
    (`stale_since`). 404 when the player has no seed on the list.

    Needs an officer's key without limits or limited to this list (a 403 says which otherwise)."""
    service.delete_seed(session, list_id, player_id, actor=caller.name)
    job_id = jobs.recompute_if_automatic(session, list_id, f"seed of {player_id} removed")
    return SeedRemoved(list_id=list_id, player_id=player_id, job_id=job_id)


@router.get(
    "/v1/players/{player_id}/history",
    operation_id="get_player_history",
    tags=["players"],
    response_model=PlayerHistory,
    responses={**responses(examples.GET_PLAYER_HISTORY, headers=CACHED_READ), **NOT_MODIFIED},
)
@list_read(HISTORY_READ)
async def get_player_history(
    player_id: PlayerIdPath,
    request: Request,
    list_id: Annotated[
        Identifier, Query(alias="list", description="The rating list whose history is read (default `rif-whr`)")
    ] = "rif-whr",
    first: Annotated[
        Date | None,
        Query(alias="from", description="Only his points on this rating day or after (the day a point rates, not a snapshot's)"),
    ] = None,
    last: Annotated[Date | None, Query(alias="to", description="Only his points on this rating day or before")] = None,
    if_none_match: IfNoneMatch = None,
) -> Response:
    """Read a player's rating history

    The series a chart draws: one point per day on which the player's rating changed under the list's
    current snapshot, oldest first, each with the tournaments rated into it. Under WHR that is every
    day he played; under the historical Elo list the seeds, the ends of the 1995 rating periods and
    the 1997 events (INTERPRETATIONS 6.21). `from` and `to` are rating days, the days the points
    rate, as the list's `as_of` is (not the days snapshots were computed): the points between them,
    both included, whenever the snapshot that holds them was written. Empty while the list has no
    snapshot; `stale_since` as the list's. `from` after `to` is a 422 at `query:from`. Cached like
    the list's ratings: `ETag`, and a 304 for `If-None-Match`."""
    if first is not None and last is not None and first > last:
        raise InvalidInput(
            f"`from` ({first}) is after `to` ({last}).", [FieldError("query:from", f"{first} is after the `to` day {last}")]
        )
    current = await current_snapshot(list_id)
    days = (first, last)
    if current is not None:
        etag, cache_control = read_validators(HISTORY_READ, current, request.scope)
        if matches(if_none_match, etag):
            return not_modified(etag, cache_control)
        body = response_cache.responses.get(
            _kept_key("history", current.snapshot_id, current.created_at, current.stale_since, player_id, days)
        )
        if body is not None:
            return Response(body, media_type="application/json", headers={"ETag": etag, "Cache-Control": cache_control})
    return await run_in_threadpool(_history_answer, player_id, list_id, days, request.scope, if_none_match)


def _history_answer(
    player_id: str, list_id: str, days: tuple[dt.date | None, dt.date | None], scope: Scope, if_none_match: str | None
) -> Response:
    def history(session: Session, snapshot: RatingSnapshot | None, stale: staleness.Stale | None) -> PlayerHistory:
        first, last = days
        points = [
            point
            for point in service.player_history(session, player_id, snapshot)
            if (first is None or point["date"] >= first) and (last is None or point["date"] <= last)
        ]
        answer = {
            "player_id": player_id,
            "list_id": list_id,
            "snapshot_id": snapshot.id if snapshot else None,
            "stale_since": stale.since if stale is not None else None,
            "stale_reason": stale.reason if stale is not None else None,
            "points": points,
        }
        return PlayerHistory.model_validate(answer)

    return _current_list_answer(HISTORY_READ, "history", list_id, (player_id, days), scope, if_none_match, history)


@router.get(
    "/v1/rating-lists/{list_id}/predict",
    operation_id="predict",
    response_model=Prediction,
    responses={**responses(examples.PREDICT, headers=CACHED_READ), **NOT_MODIFIED},
)
@list_read(PREDICT_READ)
async def predict(
    list_id: ListIdPath,
    request: Request,
    a: Annotated[Identifier, Query(description="The player whose chances are answered (his id)")],
    b: Annotated[Identifier, Query(description="His opponent (an id; not `a`)")],
    if_none_match: IfNoneMatch = None,
) -> Response:
    """Who is favoured between two players

    P(a beats b) on the list's current ratings (its current snapshot, as of its list date), by the
    list's own expected-score rule, cited in `rule`: WHR's Bradley-Terry model on the natural ratings
    (RIF 2021 #1-#7), the historical Elo list's 1/(1 + 2^(dR/120)) (RIF 1995 #7, GA 1997 #8), the
    Rivne Go rating's SE of an even game (004 (1)-(4)), the expectation the Estonian table implies
    (ERU 4.9), the Olufsen shogi formula (001 (1)). A draw counts half: it is a's expected score.

    For a list whose ratings carry a deviation (WHR), `a_above_b` is P(a stands above b on the list)
    from both ratings and deviations, by a normal approximation: Φ((Ra − Rb)/sqrt(σa² + σb²)) on the
    list's scale, the two ratings independent. The other systems' ratings have no deviation, and
    `a_above_b` is null. Both players' ratings (and deviations) used are in the answer, with the
    list's date.

    A player who does not exist, or is not on the list (no line in its current snapshot), is a 404
    naming him (`query:a` or `query:b`); `b` equal to `a` is a 422. Cached like the list's ratings:
    `ETag`, and a 304 for `If-None-Match`."""
    current = await current_snapshot(list_id)
    if current is not None:
        etag, cache_control = read_validators(PREDICT_READ, current, request.scope)
        if matches(if_none_match, etag):
            return not_modified(etag, cache_control)
        body = response_cache.responses.get(
            _kept_key("predict", current.snapshot_id, current.created_at, current.stale_since, a, b)
        )
        if body is not None:
            return Response(body, media_type="application/json", headers={"ETag": etag, "Cache-Control": cache_control})
    return await run_in_threadpool(_prediction_answer, list_id, a, b, request.scope, if_none_match)


def _prediction_answer(list_id: str, a: str, b: str, scope: Scope, if_none_match: str | None) -> Response:
    def prediction(session: Session, snapshot: RatingSnapshot | None, stale: staleness.Stale | None) -> Prediction:
        return predictions.predict(session, list_id, a, b)

    return _current_list_answer(PREDICT_READ, "predict", list_id, (a, b), scope, if_none_match, prediction)


@router.get(
    "/v1/rating-lists/{list_id}/drift",
    operation_id="get_drift",
    response_model=Drift,
    responses={**responses(examples.GET_DRIFT, headers=CACHED_READ), **NOT_MODIFIED},
)
async def get_drift(
    list_id: ListIdPath,
    request: Request,
    cohort_year: Annotated[
        int | None,
        Query(
            ge=1,
            le=9999,
            description="The cohort's base year: its players are those active on one or more of that year's month ends "
            "(none for a year without a month in the series). Default: the year 5 years before the series' last month, "
            "or its first year when the series is shorter",
        ),
    ] = None,
    if_none_match: IfNoneMatch = None,
) -> Response:
    """How the list's ratings drift, month by month

    On each month's end, from the month of the list's first rated day to that of its last (or of its
    list date, when that comes first), what the list's current snapshot says of its active players (by
    the list's own status rule, as its ratings read as of that day answers it): how many, their mean
    and median rating and fixed percentiles (10, 25, 50, 75, 90); and the mean rating of a fixed cohort,
    the players active on one or more month ends of `cohort_year`, over those of them active on the
    month's end. `change_12_months` is the last month's mean, median and cohort mean less those of 12
    months before; `flagged` says whether the change of the mean or of the cohort's mean reaches the
    list's `threshold` either way (`drift_threshold`, set with `PATCH /v1/rating-lists/{list_id}`).

    Cached like the list's ratings: `ETag` (which changes with the snapshot, the stale mark and the
    threshold), and a 304 for `If-None-Match`."""
    return await run_in_threadpool(_drift_answer, list_id, cohort_year, request.scope, if_none_match)


def _drift_answer(list_id: str, cohort_year: int | None, scope: Scope, if_none_match: str | None) -> Response:
    def drift(session: Session, snapshot: RatingSnapshot | None, stale: staleness.Stale | None) -> Drift:
        return drift_service.drift_of(session, list_id, cohort_year)

    # The threshold is a setting the snapshot does not carry: the ETag and the key name it too (DRIFT_READ).
    setting = ("threshold", drift_service.threshold_of)
    return _current_list_answer(DRIFT_READ, "drift", list_id, (cohort_year,), scope, if_none_match, drift, setting)


def _current_list_answer(
    read: ListRead,
    name: str,
    list_id: str,
    parts: tuple[object, ...],
    scope: Scope,
    if_none_match: str | None,
    build: Callable[[Session, RatingSnapshot | None, staleness.Stale | None], BaseModel],
    setting: tuple[str, Callable[[RatingList], object]] | None = None,
) -> Response:
    """A read of the list's current snapshot, its stale mark and (``setting``) one of the list's
    settings: its validators, a 304 for a matching ``If-None-Match``, or its answer as kept under
    ``(name, snapshot, created, stale mark[, setting], *parts)`` or built by ``build``."""
    with db.session_scope() as session:
        rating_list = service.get_rating_list(session, list_id)
        stale = staleness.of(rating_list)
        stale_since = stale.since if stale is not None else None
        etag, cache_control = read_validators(read, Current(rating_list.current_snapshot_id, None, None, stale_since), scope)
        named: tuple[object, ...] = ()
        if setting is not None:
            label, value_of = setting
            value = value_of(rating_list)
            etag = 'W/"' + hashlib.sha256(f"{etag}\n{label} {value!r}".encode()).hexdigest()[:32] + '"'
            named = (value,)
        if matches(if_none_match, etag):
            return not_modified(etag, cache_control)
        snapshot = service.get_snapshot(session, list_id, None)
        key = _kept_key(name, snapshot.id, snapshot.created_at, stale_since, *named, *parts) if snapshot else None
        body = response_cache.responses.kept_or_built(key, lambda: build(session, snapshot, stale).model_dump_json().encode())
    return Response(body, media_type="application/json", headers={"ETag": etag, "Cache-Control": cache_control})


def _kept_key(name: str, snapshot_id: int | None, created_at: object, stale_since: object, *parts: object) -> tuple[object, ...]:
    """The key a list read's answer is kept under: the same whether the route looks it up before it
    leaves the event loop or ``_current_list_answer`` keeps it."""
    return (name, snapshot_id, created_at, stale_since, *parts)
