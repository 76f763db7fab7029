from typing import Annotated

from fastapi import APIRouter, Query

from app.api import examples
from app.api.deps import Limit, Officer, Offset
from app.http.session import SessionDep
from app.schemas.common import Date, Identifier, Page, Text
from app.schemas.revisions import RevisionKind, RevisionRead
from app.services import revisions

router = APIRouter(prefix="/v1/audit", tags=["audit"])


@router.get("", operation_id="list_audit", responses=examples.responses(examples.LIST_AUDIT))
def list_audit(
    session: SessionDep,
    caller: Officer,
    actor: Annotated[
        Text | None, Query(alias="key", max_length=100, description="Only changes made with this key (its name)")
    ] = None,
    list_id: Annotated[Identifier | None, Query(alias="list", description="Only changes of this rating list")] = None,
    kind: Annotated[RevisionKind | None, Query(description="Only changes of this kind")] = None,
    since: Annotated[Date | None, Query(alias="from", description="Only changes made on or after this day (UTC)")] = None,
    until: Annotated[Date | None, Query(alias="to", description="Only changes made on or before this day (UTC)")] = None,
    limit: Limit = 50,
    offset: Offset = 0,
) -> Page[RevisionRead]:
    """Read the audit trail, the newest change first

    Every recorded change of the stored data: tournaments submitted, corrected, withdrawn,
    restored, and confirmed or rejected by a list's officer, refused changes of tournaments (a stale
    `If-Match`, or a change the tournament's state does not allow), lists' seeds, parameters and
    settings changed and lists published, each with the key that made it,
    when and a summary; filtered by key, list, kind and a range of days. The version a tournament's
    change replaced is at `GET /v1/tournaments/{tournament_id}/revisions/{number}`.

    Needs an officer's key; one with limits reads the trail of its lists and of the tournaments and
    players of their categories (or of its categories); an organiser's is a 403. A tournament's own revisions are open at `GET /v1/tournaments/{tournament_id}/revisions`."""
    rows, total = revisions.audit(
        session,
        actor=actor,
        list_id=list_id,
        kind=kind,
        since=since,
        until=until,
        limit=limit,
        offset=offset,
        within=caller.scope,
    )
    return Page(items=[RevisionRead.model_validate(r) for r in rows], total=total, limit=limit, offset=offset)
