from fastapi import APIRouter, Query, Response, status

from app.api.deps import Limit, Offset, SessionDep, Writer
from app.schemas.common import CountryCode, Page
from app.schemas.players import PlayerCreate, PlayerPatch, PlayerRead
from app.services import players as service

router = APIRouter(prefix="/v1/players", tags=["players"])


@router.post("", status_code=status.HTTP_201_CREATED, operation_id="create_player")
def create_player(body: PlayerCreate, session: SessionDep, _: Writer, response: Response) -> PlayerRead:
    """Create a player with an id of the submitter's choice; 409 if the id exists. Needs a write key."""
    player = service.create_player(session, body)
    response.headers["Location"] = f"/v1/players/{player.id}"
    return PlayerRead.model_validate(player)


@router.patch("/{player_id}", operation_id="update_player")
def update_player(player_id: str, body: PlayerPatch, session: SessionDep, _: Writer) -> PlayerRead:
    """Change the fields present in the body (``null`` clears one); others keep their value."""
    return PlayerRead.model_validate(service.update_player(session, player_id, body))


@router.get("/{player_id}", operation_id="get_player")
def get_player(player_id: str, session: SessionDep) -> PlayerRead:
    """One player by id."""
    return PlayerRead.model_validate(service.get_player(session, player_id))


@router.get("", operation_id="search_players")
def search_players(
    session: SessionDep,
    q: str | None = Query(None, max_length=200, description="Part of the name, surname or native name, or the id"),
    country: CountryCode | None = Query(None, description="Only players of this country code, e.g. CHN"),
    limit: Limit = 50,
    offset: Offset = 0,
) -> Page[PlayerRead]:
    """Players matching a part of their name or id and/or a country, ordered by id."""
    players, total = service.search_players(session, q=q, country=country, limit=limit, offset=offset)
    return Page(items=[PlayerRead.model_validate(p) for p in players], total=total, limit=limit, offset=offset)
