import datetime as dt
from typing import Annotated, Any

from fastapi import (
    APIRouter,
    BackgroundTasks,
    Body,
    Header,
    Query,
    Request,
    Response,
    status,
)
from fastapi.responses import JSONResponse

from app.api.deps import DatabaseId, IdentifierPath, Limit, Offset, SessionDep, Writer
from app.schemas.common import EARLIEST_DATE, LATEST_DATE, MAX_DATABASE_ID, CountryCode, Identifier, Page
from app.schemas.jobs import JobAccepted
from app.schemas.rating_lists import (
    PlayerHistory,
    RatingListRead,
    RatingListSettingsPatch,
    RatingsPage,
    SeedRead,
    SeedsIn,
    SeedsRead,
    SnapshotRead,
    StatusFilter,
)
from app.services import jobs, worker
from app.services import rating_lists as service

router = APIRouter(tags=["rating lists"])


@router.get("/v1/rating-lists", operation_id="list_rating_lists")
def list_rating_lists(session: SessionDep) -> list[RatingListRead]:
    return [RatingListRead.model_validate(r) for r in service.list_rating_lists(session)]


@router.get("/v1/rating-lists/{list_id}", operation_id="get_rating_list")
def get_rating_list(list_id: IdentifierPath, session: SessionDep) -> RatingListRead:
    return RatingListRead.model_validate(service.get_rating_list(session, list_id))


@router.patch("/v1/rating-lists/{list_id}", operation_id="update_rating_list")
def update_rating_list(list_id: IdentifierPath, body: RatingListSettingsPatch, session: SessionDep, _: Writer) -> RatingListRead:
    """Change the list's own settings (``auto_recompute``); its parameters are under ``/params``."""
    rating_list = service.get_rating_list(session, list_id)
    for field, value in body.model_dump(exclude_unset=True).items():
        setattr(rating_list, field, value)
    session.flush()
    return RatingListRead.model_validate(rating_list)


@router.patch("/v1/rating-lists/{list_id}/params", operation_id="update_rating_list_params")
def update_rating_list_params(
    list_id: IdentifierPath,
    session: SessionDep,
    _: Writer,
    body: dict[str, Any] = Body(
        description="Parameters to change, checked by the list's rating system: rif-whr takes w2 (> 0), virtual_games "
        "(1–100), virtual_rating, start_rating (finite numbers); rif-elo takes switch_to_1997, last_day (dates) and "
        "bootstrap_rating (0–4000 or null); rivne takes newcomer_start (rank or declared_rating); eru takes first_rank "
        "(15k … 9d, INTERPRETATIONS 4.8).",
        openapi_examples={
            "whr": {"value": {"w2": 12.9, "virtual_games": 2}},
            "elo": {"value": {"bootstrap_rating": 1800}},
            "rivne": {"value": {"newcomer_start": "declared_rating"}},
            "eru": {"value": {"first_rank": "15k"}},
        },
    ),
) -> RatingListRead:
    """Change the list's parameters; they apply from the next recompute."""
    return RatingListRead.model_validate(service.update_params(session, list_id, body))


@router.post(
    "/v1/rating-lists/{list_id}/recompute",
    status_code=status.HTTP_202_ACCEPTED,
    operation_id="recompute_rating_list",
)
def recompute_rating_list(
    list_id: IdentifierPath, session: SessionDep, _: Writer, background: BackgroundTasks, response: Response
) -> JobAccepted:
    """Queue a recompute (a second trigger while one is queued returns the same job)."""
    job = jobs.trigger_recompute(session, list_id)
    background.add_task(worker.wake)  # runs after the response, when the job is committed
    response.headers["Location"] = f"/v1/jobs/{job.id}"
    return JobAccepted(job_id=job.id, status=job.status, list_id=list_id)  # type: ignore[arg-type]


# A website behind a CDN: the current list may be cached briefly and served stale while the CDN
# revalidates it (ETag, cheap 304); a pinned snapshot never changes.
CURRENT_CACHE = "public, max-age=60, stale-while-revalidate=600"
PINNED_CACHE = "public, max-age=31536000, immutable"


@router.get(
    "/v1/rating-lists/{list_id}/ratings",
    operation_id="get_ratings",
    responses={304: {"description": "Not modified (If-None-Match)"}},
)
def get_ratings(
    list_id: IdentifierPath,
    session: SessionDep,
    request: Request,
    as_of: dt.date | None = Query(
        None,
        ge=EARLIEST_DATE,
        le=LATEST_DATE,
        description="The list as it stood on this date, from the snapshot's stored per-day rows. The default list "
        "(status=active, read on today's date) is empty for a history whose last games are more than five years old: "
        "every player is then inactive; ask for status=all, or as_of the data's last date.",
    ),
    country: CountryCode | None = None,
    status: StatusFilter = Query(
        "active",
        description="active (default), inactive, provisional or all. A player is active with an established rating "
        "and a rated game within the last five years of the list's date (or as_of), provisional until his rating "
        "is established, inactive otherwise",
    ),
    snapshot_id: int | None = Query(None, ge=1, le=MAX_DATABASE_ID, description="Read an earlier snapshot instead of the current one"),
    limit: Limit = 100,
    offset: Offset = 0,
    if_none_match: str | None = Header(None),
) -> RatingsPage:
    """The list's page, best first. Cached responses revalidate with If-None-Match: a 304 reads no rows."""
    rating_list = service.get_rating_list(session, list_id)
    wanted = snapshot_id if snapshot_id is not None else rating_list.current_snapshot_id
    query = {"as_of": as_of, "country": country, "status": status, "limit": limit, "offset": offset}
    headers = {"ETag": service.list_etag(wanted, query), "Cache-Control": PINNED_CACHE if snapshot_id is not None else CURRENT_CACHE}
    if _matches(if_none_match, headers["ETag"]):
        return Response(status_code=304, headers=headers)  # type: ignore[return-value]
    snapshot = service.get_snapshot(session, list_id, snapshot_id)
    rows, total = service.ratings(
        session,
        snapshot,
        system=service.system_of(rating_list),
        as_of=as_of,
        country=country,
        status=status,
        limit=limit,
        offset=offset,
    )
    page = RatingsPage(
        list_id=list_id,
        snapshot_id=snapshot.id if snapshot else None,
        list_date=snapshot.list_date if snapshot else None,
        as_of=as_of,
        items=rows,
        total=total,
        limit=limit,
        offset=offset,
    )
    return JSONResponse(page.model_dump(mode="json"), headers=headers)  # type: ignore[return-value]


def _matches(if_none_match: str | None, etag: str) -> bool:
    return bool(if_none_match) and (if_none_match.strip() == "*" or etag in [tag.strip() for tag in if_none_match.split(",")])


@router.get("/v1/rating-lists/{list_id}/snapshots", operation_id="list_snapshots")
def list_snapshots(list_id: IdentifierPath, session: SessionDep, limit: Limit = 50, offset: Offset = 0) -> Page[SnapshotRead]:
    snapshots, total = service.list_snapshots(session, list_id, limit, offset)
    current = service.get_rating_list(session, list_id).current_snapshot_id
    items = [SnapshotRead.model_validate(s).model_copy(update={"current": s.id == current}) for s in snapshots]
    return Page(items=items, total=total, limit=limit, offset=offset)


@router.get("/v1/rating-lists/{list_id}/snapshots/{snapshot_id}", operation_id="get_snapshot")
def get_snapshot(list_id: IdentifierPath, snapshot_id: DatabaseId, session: SessionDep) -> SnapshotRead:
    snapshot = service.get_snapshot(session, list_id, snapshot_id)
    current = service.get_rating_list(session, list_id).current_snapshot_id
    return SnapshotRead.model_validate(snapshot).model_copy(update={"current": snapshot_id == current})


@router.get("/v1/rating-lists/{list_id}/seeds", operation_id="get_seeds")
def get_seeds(list_id: IdentifierPath, session: SessionDep) -> SeedsRead:
    return SeedsRead(list_id=list_id, seeds=[SeedRead.model_validate(s) for s in service.get_seeds(session, list_id)])


@router.put("/v1/rating-lists/{list_id}/seeds", operation_id="replace_seeds")
def replace_seeds(list_id: IdentifierPath, body: SeedsIn, session: SessionDep, _: Writer) -> SeedsRead:
    """The ratings a replay begins from (rif-elo: the starting official list, INTERPRETATIONS 1.18; rivne: a
    player's rating and rank from a date on; eru: a player's rank and Estonian or RIF rating, or a newcomer's
    first rank and the referee's bonus, ERU 4.8, 4.10); replaces all."""
    seeds = service.replace_seeds(session, list_id, [s.model_dump(exclude_none=True) for s in body.seeds])
    return SeedsRead(list_id=list_id, seeds=[SeedRead.model_validate(s) for s in seeds])


@router.get(
    "/v1/players/{player_id}/history",
    operation_id="get_player_history",
    tags=["players"],
    responses={304: {"description": "Not modified (If-None-Match)"}},
)
def get_player_history(
    player_id: IdentifierPath,
    session: SessionDep,
    list_id: Annotated[Identifier, Query(alias="list", description="Rating list id")] = "rif-whr",
    if_none_match: str | None = Header(None),
) -> PlayerHistory:
    """The player's series under the list's current snapshot, oldest first (a chart)."""
    rating_list = service.get_rating_list(session, list_id)
    headers = {
        "ETag": service.list_etag(rating_list.current_snapshot_id, {"history": player_id}),
        "Cache-Control": CURRENT_CACHE,
    }
    if _matches(if_none_match, headers["ETag"]):
        return Response(status_code=304, headers=headers)  # type: ignore[return-value]
    snapshot = service.get_snapshot(session, list_id, None)
    points = service.player_history(session, player_id, snapshot)
    history = PlayerHistory(player_id=player_id, list_id=list_id, snapshot_id=snapshot.id if snapshot else None, points=points)  # type: ignore[arg-type]
    return JSONResponse(history.model_dump(mode="json"), headers=headers)  # type: ignore[return-value]
