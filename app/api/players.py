from fastapi import APIRouter, Depends, Query, Response, status

from app.api.deps import IdentifierPath, Limit, Offset, SessionDep, Writer
from app.schemas.common import CountryCode, Page, Text
from app.schemas.players import PlayerCreate, PlayerPatch, PlayerRead
from app.services import players as service
from app.settings import Settings, get_settings
from app.transactions import run_in_transaction

router = APIRouter(prefix="/v1/players", tags=["players"])


@router.post("", status_code=status.HTTP_201_CREATED, operation_id="create_player")
def create_player(
    body: PlayerCreate, session: SessionDep, _: Writer, response: Response, settings: Settings = Depends(get_settings)
) -> PlayerRead:
    """Create a player with an id of the submitter's choice; 409 if the id exists. Needs a write key."""
    # Re-run on a unique violation: the same id created at once by another request is then the
    # service's own 409 with its pointer.
    player = run_in_transaction(session, lambda: service.create_player(session, body), attempts=settings.transaction_attempts)
    response.headers["Location"] = f"/v1/players/{player.id}"
    return PlayerRead.model_validate(player)


@router.patch("/{player_id}", operation_id="update_player")
def update_player(player_id: IdentifierPath, body: PlayerPatch, session: SessionDep, _: Writer) -> PlayerRead:
    """Change the fields present in the body (``null`` clears one); others keep their value."""
    return PlayerRead.model_validate(service.update_player(session, player_id, body))


@router.get("/{player_id}", operation_id="get_player")
def get_player(player_id: IdentifierPath, session: SessionDep) -> PlayerRead:
    """One player by id."""
    return PlayerRead.model_validate(service.get_player(session, player_id))


@router.get("", operation_id="search_players")
def search_players(
    session: SessionDep,
    q: Text | None = Query(None, max_length=200, description="Part of the name, surname or native name, or the id"),
    country: CountryCode | None = Query(None, description="Only players of this country code, e.g. CHN"),
    limit: Limit = 50,
    offset: Offset = 0,
) -> Page[PlayerRead]:
    """Players matching a part of their name or id and/or a country, ordered by id."""
    players, total = service.search_players(session, q=q, country=country, limit=limit, offset=offset)
    return Page(items=[PlayerRead.model_validate(p) for p in players], total=total, limit=limit, offset=offset)
