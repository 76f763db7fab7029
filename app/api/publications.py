"""Publications of rating lists: POST one, list them, read one and its rows (app.services.publications)."""

from typing import Annotated

from fastapi import APIRouter, Body, Path, Query, Request, Response, status

from app.api import examples
from app.api.deps import IfNoneMatch, Limit, ListIdPath, ListOfficer, Offset
from app.api.examples import responses
from app.http import response_cache
from app.http.caching import PINNED_CACHE, matches
from app.http.headers import CACHED_READ, LOCATION, NOT_MODIFIED
from app.http.session import SessionDep
from app.models import Publication
from app.schemas.common import MAX_DATABASE_ID, CountryCode, Page
from app.schemas.publications import Departure, PublicationIn, PublicationRatingsPage, PublicationRead
from app.schemas.rating_lists import GENDER_FILTER_DESCRIPTION, GenderFilter, StatusFilter
from app.services import publications as service
from app.services.publication_filters import filtered_publication_rows

router = APIRouter(tags=["publications"])

NumberPath = Annotated[int, Path(ge=1, le=MAX_DATABASE_ID, description="The publication's number among the list's, from 1")]


def _read(publication: Publication) -> PublicationRead:
    return PublicationRead(
        list_id=publication.list_id,
        number=publication.number,
        date=publication.date,
        title=publication.title,
        snapshot_id=publication.snapshot_id,
        previous_number=publication.previous_number,
        scheduled_for=publication.scheduled_for,
        published_by=publication.actor,
        created_at=publication.created_at,
        players=publication.players,
        left=[Departure(**{**d, "previous_rank": d["previous_place"]}) for d in publication.departures],
    )


@router.post(
    "/v1/rating-lists/{list_id}/publications",
    status_code=status.HTTP_201_CREATED,
    operation_id="publish_rating_list",
    responses=responses(examples.PUBLISH_RATING_LIST, status=201, headers=LOCATION),
)
def publish_rating_list(
    list_id: ListIdPath,
    body: Annotated[PublicationIn, Body(openapi_examples=examples.PUBLISH_EXAMPLES)],
    session: SessionDep,
    caller: ListOfficer,
    response: Response,
) -> PublicationRead:
    """Publish a rating list as of a day

    The list's current snapshot (or `snapshot_id`, one of its snapshots) read as of `date`, every
    player with his rating, status and place, is stored as the list's next publication, numbered
    from 1, and never changes: its rows read the same whatever is corrected or recomputed later.
    Each row carries the player's rating and place in the previous publication and the change (or
    `new`, `returned`); the publication names who left since the previous one and why. The `date`
    may not be in the future nor before the latest publication's; a snapshot of another list is a
    422 pointing at `snapshot_id`; a list never computed is a 409. Recorded in the audit trail
    (kind `published`).

    Needs an officer's key without limits or limited to this list (a 403 says which otherwise)."""
    publication = service.publish(
        session, list_id, date=body.date, title=body.title, snapshot_id=body.snapshot_id, actor=caller.name
    )
    assert publication is not None
    response.headers["Location"] = f"/v1/rating-lists/{list_id}/publications/{publication.number}"
    return _read(publication)


@router.get(
    "/v1/rating-lists/{list_id}/publications",
    operation_id="list_publications",
    responses=responses(examples.LIST_PUBLICATIONS),
)
def list_publications(list_id: ListIdPath, session: SessionDep, limit: Limit = 50, offset: Offset = 0) -> Page[PublicationRead]:
    """List a rating list's publications, the latest first

    Each with its day, title, snapshot, the publication it is compared with, who published it
    (`schedule` when the list's schedule did) and who left the list since the previous one."""
    rows, total = service.list_publications(session, list_id, limit, offset)
    return Page(items=[_read(p) for p in rows], total=total, limit=limit, offset=offset)


@router.get(
    "/v1/rating-lists/{list_id}/publications/{number}",
    operation_id="get_publication",
    responses=responses(examples.GET_PUBLICATION),
)
def get_publication(list_id: ListIdPath, number: NumberPath, session: SessionDep) -> PublicationRead:
    """Read one publication of a rating list

    Its day, title, snapshot, the publication it is compared with and who left the list since
    then, and why. Its rows are at `…/publications/{number}/ratings`."""
    return _read(service.get_publication(session, list_id, number))


@router.get(
    "/v1/rating-lists/{list_id}/publications/{number}/ratings",
    operation_id="get_publication_ratings",
    response_model=PublicationRatingsPage,
    responses={**responses(examples.GET_PUBLICATION_RATINGS, headers=CACHED_READ), **NOT_MODIFIED},
)
def get_publication_ratings(
    list_id: ListIdPath,
    number: NumberPath,
    request: Request,
    session: SessionDep,
    country: CountryCode | None = Query(None, description="Only players of this country (as the publication shows it)"),
    status: StatusFilter = Query(
        "active", description="active (default), inactive, provisional or all: the players' status on the publication's day"
    ),
    gender: GenderFilter | None = Query(None, description=GENDER_FILTER_DESCRIPTION),
    played_within_12_months: bool = Query(
        False, description="true: only players with a rated game in the 12 months up to the publication's day"
    ),
    limit: Limit = 100,
    offset: Offset = 0,
    if_none_match: IfNoneMatch = None,
) -> Response:
    """Read a publication's rows, best first

    As the live list's ratings, with the same filters and paging, from the rows stored when it was
    published: they never change. Each row carries the player's rating and place in the previous
    publication and the change, or `new` (not on the previous publication) or `returned` (inactive
    there). The `ETag` never changes either: an `If-None-Match` with it is a 304."""
    publication = service.get_publication(session, list_id, number)
    etag = service.publication_etag(publication, request.scope["path"], request.scope["query_string"])
    headers = {"ETag": etag, "Cache-Control": PINNED_CACHE}
    if matches(if_none_match, etag):
        return Response(status_code=304, headers=headers)
    key = ("publication", publication.id, publication.created_at, country, status, gender, played_within_12_months, limit, offset)

    def page() -> bytes:
        rows, total = filtered_publication_rows(
            session,
            publication,
            country=country,
            status=status,
            gender=gender,
            played_within_12_months=played_within_12_months,
            limit=limit,
            offset=offset,
        )
        return (
            PublicationRatingsPage(
                list_id=list_id,
                number=publication.number,
                date=publication.date,
                title=publication.title,
                previous_number=publication.previous_number,
                items=rows,
                total=total,
                limit=limit,
                offset=offset,
            )
            .model_dump_json()
            .encode()
        )

    body = response_cache.responses.kept_or_built(key, page)
    return Response(body, media_type="application/json", headers=headers)
