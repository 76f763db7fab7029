import datetime as dt

from fastapi import APIRouter, BackgroundTasks, Header, Query, Request, Response, status
from fastapi.responses import JSONResponse

from app.api.deps import Limit, Offset, SessionDep, Writer
from app.problems import FieldError, InvalidInput
from app.schemas.common import CountryCode, Page, RowId
from app.schemas.jobs import JobAccepted
from app.schemas.rating_lists import (
    EloParamsPatch,
    PlayerHistory,
    RatingListRead,
    RatingsPage,
    SeedRead,
    SeedsIn,
    SeedsRead,
    SnapshotRead,
    StatusFilter,
    WhrParamsPatch,
)
from app.services import jobs, worker
from app.services import rating_lists as service

router = APIRouter(tags=["rating lists"])


@router.get("/v1/rating-lists", operation_id="list_rating_lists")
def list_rating_lists(session: SessionDep) -> list[RatingListRead]:
    return [RatingListRead.model_validate(r) for r in service.list_rating_lists(session)]


@router.get("/v1/rating-lists/{list_id}", operation_id="get_rating_list")
def get_rating_list(list_id: str, session: SessionDep) -> RatingListRead:
    return RatingListRead.model_validate(service.get_rating_list(session, list_id))


@router.patch("/v1/rating-lists/{list_id}/params", operation_id="update_rating_list_params")
def update_rating_list_params(
    list_id: str, body: WhrParamsPatch | EloParamsPatch, session: SessionDep, _: Writer
) -> RatingListRead:
    """Change the list's parameters; they apply from the next recompute."""
    rating_list = service.get_rating_list(session, list_id)
    expected = WhrParamsPatch if rating_list.system == "rif-whr" else EloParamsPatch
    if not isinstance(body, expected):
        raise InvalidInput(
            f"Rating list {list_id!r} ({rating_list.system}) takes the parameters {sorted(expected.model_fields)}.",
            [FieldError("/", "parameters of another rule system")],
        )
    changes = body.model_dump(mode="json", exclude_unset=True)
    return RatingListRead.model_validate(service.update_params(session, list_id, changes))


@router.post(
    "/v1/rating-lists/{list_id}/recompute",
    status_code=status.HTTP_202_ACCEPTED,
    operation_id="recompute_rating_list",
)
def recompute_rating_list(
    list_id: str, session: SessionDep, _: Writer, background: BackgroundTasks, response: Response
) -> JobAccepted:
    """Queue a recompute (a second trigger while one is queued returns the same job)."""
    job = jobs.trigger_recompute(session, list_id)
    background.add_task(worker.wake)  # runs after the response, when the job is committed
    response.headers["Location"] = f"/v1/jobs/{job.id}"
    return JobAccepted(job_id=job.id, status=job.status, list_id=list_id)  # type: ignore[arg-type]


@router.get(
    "/v1/rating-lists/{list_id}/ratings",
    operation_id="get_ratings",
    responses={304: {"description": "Not modified (If-None-Match)"}},
)
def get_ratings(
    list_id: str,
    session: SessionDep,
    request: Request,
    as_of: dt.date | None = Query(None, description="The list as it stood on this date, from the snapshot's whole history"),
    country: CountryCode | None = None,
    status: StatusFilter = Query("active", description="active (default), inactive, provisional or all"),
    snapshot_id: RowId | None = Query(None, description="Read an earlier snapshot instead of the current one"),
    limit: Limit = 100,
    offset: Offset = 0,
    if_none_match: str | None = Header(None),
) -> RatingsPage:
    rating_list = service.get_rating_list(session, list_id)
    snapshot = service.get_snapshot(session, list_id, snapshot_id)
    query = {"as_of": as_of, "country": country, "status": status, "limit": limit, "offset": offset}
    etag = service.list_etag(snapshot, query)
    if if_none_match and etag in [tag.strip() for tag in if_none_match.split(",")]:
        return Response(status_code=304, headers={"ETag": etag})  # type: ignore[return-value]
    rows, total = service.ratings(
        session,
        snapshot,
        system=rating_list.system,
        w2=(rating_list.params or {}).get("w2") if snapshot is None else snapshot.params.get("w2"),
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
    return JSONResponse(page.model_dump(mode="json"), headers={"ETag": etag, "Cache-Control": "no-cache"})  # type: ignore[return-value]


@router.get("/v1/rating-lists/{list_id}/snapshots", operation_id="list_snapshots")
def list_snapshots(list_id: str, session: SessionDep, limit: Limit = 50, offset: Offset = 0) -> Page[SnapshotRead]:
    snapshots, total = service.list_snapshots(session, list_id, limit, offset)
    current = service.get_rating_list(session, list_id).current_snapshot_id
    items = [SnapshotRead.model_validate(s).model_copy(update={"current": s.id == current}) for s in snapshots]
    return Page(items=items, total=total, limit=limit, offset=offset)


@router.get("/v1/rating-lists/{list_id}/snapshots/{snapshot_id}", operation_id="get_snapshot")
def get_snapshot(list_id: str, snapshot_id: RowId, session: SessionDep) -> SnapshotRead:
    snapshot = service.get_snapshot(session, list_id, snapshot_id)
    current = service.get_rating_list(session, list_id).current_snapshot_id
    return SnapshotRead.model_validate(snapshot).model_copy(update={"current": snapshot_id == current})


@router.get("/v1/rating-lists/{list_id}/seeds", operation_id="get_seeds")
def get_seeds(list_id: str, session: SessionDep) -> SeedsRead:
    return SeedsRead(list_id=list_id, seeds=[SeedRead.model_validate(s) for s in service.get_seeds(session, list_id)])


@router.put("/v1/rating-lists/{list_id}/seeds", operation_id="replace_seeds")
def replace_seeds(list_id: str, body: SeedsIn, session: SessionDep, _: Writer) -> SeedsRead:
    """The starting official list an Elo replay begins from (INTERPRETATIONS 1.18); replaces all."""
    seeds = service.replace_seeds(session, list_id, [s.model_dump() for s in body.seeds])
    return SeedsRead(list_id=list_id, seeds=[SeedRead.model_validate(s) for s in seeds])


@router.get("/v1/players/{player_id}/history", operation_id="get_player_history", tags=["players"])
def get_player_history(
    player_id: str, session: SessionDep, list_id: str = Query("rif-whr", alias="list", description="Rating list id")
) -> PlayerHistory:
    snapshot = service.get_snapshot(session, list_id, None)
    points = service.player_history(session, player_id, list_id)
    return PlayerHistory(player_id=player_id, list_id=list_id, snapshot_id=snapshot.id if snapshot else None, points=points)  # type: ignore[arg-type]
