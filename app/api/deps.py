"""The API's parameters as its endpoints declare them (the request's session is ``app.http.session``)."""

from typing import Annotated

from fastapi import Depends, Header, Path, Query, Request
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from app.problems import FieldError, InvalidInput
from app.schemas.common import MAX_DATABASE_ID, MAX_OFFSET, MAX_PAGE_SIZE, Identifier
from app.security import Caller, authenticate, authorise_list_change, require_officer, require_writer

# Who may write (app.security, docs/decisions.md 7.19): ``Organiser`` any valid key (an organiser's or
# an officer's), ``Officer`` an officer's (limited or not), ``ListOfficer`` an officer's whose limits
# include the path's list. ``Writer`` (the key's name) needs an officer without limits: the safe
# default for a write that has not said which role it needs.
Organiser = Annotated[Caller, Depends(authenticate)]
Officer = Annotated[Caller, Depends(require_officer)]
Writer = Annotated[str, Depends(require_writer)]
Limit = Annotated[int, Query(ge=1, le=MAX_PAGE_SIZE, description=f"Items per page, 1 to {MAX_PAGE_SIZE}")]
Offset = Annotated[
    int, Query(ge=0, le=MAX_OFFSET, description="Items to skip before the page: 0 for the first page, then offset + limit")
]
# Integer ids in paths and queries fit the database's 32-bit keys, so a larger one is a 422, not a
# database error; string ids in paths follow the submitted ids' own pattern. Each is described for
# the operations whose path names it.
OptionalDatabaseId = Annotated[int | None, Query(ge=1, le=MAX_DATABASE_ID)]
ListIdPath = Annotated[
    Identifier, Path(description="The rating list's id, e.g. `rif-whr` (`GET /v1/rating-lists` names every list)")
]
TournamentIdPath = Annotated[Identifier, Path(description="The tournament's id, as its submitter chose it")]
PlayerIdPath = Annotated[Identifier, Path(description="The player's id, as his submitter chose it (e.g. renju.net's)")]
JobIdPath = Annotated[
    int, Path(ge=1, le=MAX_DATABASE_ID, description="The job's id, from a recompute's 202 answer or its `Location` header")
]
MAX_JOB_WAIT_SECONDS = 30
JobWait = Annotated[
    float,
    Query(
        ge=0,
        le=MAX_JOB_WAIT_SECONDS,
        description="Answer once the job has succeeded or failed, or after this many seconds, whichever is first"
        " (long polling; 0, the default: at once)",
        examples=[10],
    ),
]
SnapshotIdPath = Annotated[
    int, Path(ge=1, le=MAX_DATABASE_ID, description="The snapshot's id (`GET /v1/rating-lists/{list_id}/snapshots`)")
]
RevisionNumberPath = Annotated[
    int, Path(ge=1, le=MAX_DATABASE_ID, description="The revision's number among its subject's, from 1 (the submission)")
]
IfNoneMatch = Annotated[
    str | None,
    Header(
        description="The `ETag` of an earlier answer: when the list has not changed since, the answer is a 304 without a body"
    ),
]

# Conditional changes of a tournament (RFC 9110 13.1.1; docs/decisions.md 7.32).
IfMatch = Annotated[
    str | None,
    Header(
        max_length=1000,
        description="The `ETag` of the tournament as read (`GET /v1/tournaments/{tournament_id}` sends it, e.g. "
        '`"v3"`): the change is made only if the tournament is still at that version, otherwise the answer is a '
        "412 naming the version it is at and the change that made it (and nothing changes). Without it, or with "
        "`*`, the change is made whatever the version; two changes sent at once are then both made, one after the "
        "other",
    ),
]


def require_list_officer(list_id: ListIdPath, caller: Caller = Depends(authenticate)) -> Caller:
    """An officer's key without limits or limited to the path's list."""
    return authorise_list_change(caller, list_id)


ListOfficer = Annotated[Caller, Depends(require_list_officer)]


async def reject_undeclared_query_parameters(request: Request) -> None:
    """A 422 naming each query parameter the operation does not declare (every `/v1` operation; the
    website's pages are outside the contract): the same rule as a body's unknown field."""
    route = request.scope.get("route")
    if not request.url.path.startswith("/v1/") or not isinstance(route, APIRoute):
        return
    declared = _declared_query_parameters(route)
    unknown = sorted({name for name in request.query_params if name not in declared})
    if unknown:
        raise InvalidInput(
            f"Unknown query parameter(s): {', '.join(unknown)}.",
            [FieldError(f"query:{name}", "Not a parameter of this operation") for name in unknown],
        )


def _declared_query_parameters(route: APIRoute) -> frozenset[str]:
    """The route's query parameters, its dependencies' included, computed once per route and kept
    on it (an attribute, so it lives and dies with its app)."""
    declared: frozenset[str] | None = getattr(route, "declared_query_parameters", None)
    if declared is None:
        declared = frozenset(_query_parameters(route.dependant))
        setattr(route, "declared_query_parameters", declared)  # noqa: B010 - an attribute APIRoute does not declare
    return declared


def _query_parameters(dependant: Dependant) -> set[str]:
    names = {parameter.alias for parameter in dependant.query_params}
    for dependency in dependant.dependencies:
        names |= _query_parameters(dependency)
    return names
