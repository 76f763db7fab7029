from typing import Annotated

from fastapi import APIRouter, Body, Depends, Query, Response, status

from app.api import examples
from app.api.deps import Limit, Offset, Organiser, PlayerIdPath
from app.api.examples import responses
from app.http.session import SessionDep
from app.schemas.common import CountryCode, Identifier, Page, Text
from app.schemas.players import PlayerCreate, PlayerPatch, PlayerRead
from app.schemas.rating_changes import READING_PATTERN, PlayerChanges
from app.services import players as service
from app.services import rating_changes
from app.settings import Settings, get_settings
from app.transactions import run_in_transaction

router = APIRouter(prefix="/v1/players", tags=["players"])


@router.post(
    "", status_code=status.HTTP_201_CREATED, operation_id="create_player", responses=responses(examples.CREATE_PLAYER, status=201)
)
def create_player(
    body: Annotated[PlayerCreate, Body(openapi_examples=examples.CREATE_PLAYER_EXAMPLES)],
    session: SessionDep,
    _: Organiser,
    response: Response,
    settings: Settings = Depends(get_settings),
) -> PlayerRead:
    """Create a player

    The id is the submitter's choice (for example renju.net's player id) and names the player in
    tournaments and games from then on. An id that exists is a 409; change a player with `PATCH`.
    Submitting a tournament creates its players too, so this is needed only for players known before
    their first tournament. The 201 carries `Location: /v1/players/{player_id}`.

    Needs any valid key, an organiser's or an officer's: organisers create and update the players of
    their submissions too."""
    # Re-run on a unique violation: the same id created at once by another request is then the
    # service's own 409 with its pointer.
    player = run_in_transaction(session, lambda: service.create_player(session, body), attempts=settings.transaction_attempts)
    response.headers["Location"] = f"/v1/players/{player.id}"
    return PlayerRead.model_validate(player)


@router.patch("/{player_id}", operation_id="update_player", responses=responses(examples.UPDATE_PLAYER))
def update_player(
    player_id: PlayerIdPath,
    body: Annotated[PlayerPatch, Body(openapi_examples=examples.UPDATE_PLAYER_EXAMPLES)],
    session: SessionDep,
    _: Organiser,
) -> PlayerRead:
    """Change a player

    Only the fields present in the body change; `null` clears one, and the others keep their value.
    The id cannot change.

    Needs any valid key, an organiser's or an officer's: organisers create and update the players of
    their submissions too."""
    return PlayerRead.model_validate(service.update_player(session, player_id, body))


@router.get("/{player_id}", operation_id="get_player", responses=responses(examples.GET_PLAYER))
def get_player(player_id: PlayerIdPath, session: SessionDep) -> PlayerRead:
    """Read a player

    The stored player by id; his ratings are on the lists and his history at
    `/v1/players/{player_id}/history`."""
    return PlayerRead.model_validate(service.get_player(session, player_id))


@router.get("", operation_id="search_players", responses=responses(examples.SEARCH_PLAYERS))
def search_players(
    session: SessionDep,
    q: Text | None = Query(
        None,
        max_length=200,
        description="Part of the name: first name and surname in either order, or the native name, in any case; or the whole id",
    ),
    country: CountryCode | None = Query(None, description="Only players of this country code, e.g. CHN"),
    limit: Limit = 50,
    offset: Offset = 0,
) -> Page[PlayerRead]:
    """Search players

    Players whose name contains `q` (or whose id is `q`), of the given country, or both; without
    either, every player. Ordered by surname, first name, then id."""
    players, total = service.search_players(session, q=q, country=country, limit=limit, offset=offset)
    return Page(items=[PlayerRead.model_validate(p) for p in players], total=total, limit=limit, offset=offset)


@router.get("/{player_id}/changes", operation_id="get_player_changes", responses=responses(examples.GET_PLAYER_CHANGES))
def get_player_changes(
    player_id: PlayerIdPath,
    session: SessionDep,
    list_id: Annotated[Identifier, Query(alias="list", description="The rating list (default `rif-whr`)")] = "rif-whr",
    earlier: Annotated[
        str | None,
        Query(
            alias="from",
            pattern=READING_PATTERN,
            description="The earlier reading: `publication:N` (its snapshot as of its day: its rows), `snapshot:N` (as of its "
            "list date) or a day `YYYY-MM-DD` (the snapshot current at the end of that day, UTC, as of that day); by default "
            "the list's latest publication",
        ),
    ] = None,
    later: Annotated[
        str | None,
        Query(
            alias="to",
            pattern=READING_PATTERN,
            description="The later reading, written as `from`; by default the list's current snapshot as of today (the live list)",
        ),
    ] = None,
) -> PlayerChanges:
    """Explain why a player's rating changed

    His rating in the earlier reading (`from`) and in the later (`to`), and what moved it, in parts
    that add up: `change` = `past_revised` + `new_games`. `past_revised` is the past read again: his
    rating on the `from` day as the later snapshot reads it (`past_rating_now`) minus the earlier
    reading's (under WHR every new or corrected game re-estimates the past; under Elo only the
    tournaments before that day changed since do). `new_games` is the sum of `steps`: the later
    snapshot's moves of his rating from the `from` day to the `to` day, each one of his playing days
    with its tournaments (under WHR, a `to` day between two playing days adds a step `later_games`,
    the interpolation towards the next). Every number can be read back: the readings' rows
    (`…/publications/{n}/ratings`, `…/ratings?snapshot_id=…&as_of=…`) and his points under the later
    snapshot (`/v1/players/{player_id}/history`). `tournaments` names the list's tournaments added,
    corrected or withdrawn between the two snapshots (their inputs and the audit trail between
    them) and those of the steps, each with his games in it as stored now and the change it brought
    him; `list_changes` the list's own changes (parameters, seeds, settings) in between.

    A pruned snapshot is a 404 saying so (publications keep theirs for good). An unknown list,
    publication or snapshot, a snapshot of another list, or a day before the list's first snapshot
    is a 404 pointing at `query:list`, `query:from` or `query:to` (a day to come reads the current
    snapshot); a player without a rating in either reading a 404 at `path:player_id`; `from` after
    `to` (its day or its snapshot) a 422 at `query:from`."""
    return PlayerChanges.model_validate(rating_changes.explain(session, player_id, list_id, earlier, later))
