import hashlib
from typing import Annotated

from fastapi import APIRouter, BackgroundTasks, Body, Depends, Path, Query, Response, status

from app.api import examples
from app.api.deps import IfNoneMatch, Limit, Officer, Offset, Organiser, PlayerIdPath
from app.api.examples import responses
from app.http.caching import CURRENT_CACHE, matches, not_modified
from app.http.headers import CACHED_READ, LOCATION, NOT_MODIFIED
from app.http.session import SessionDep
from app.models import Player
from app.recompute.jobs import wake_worker
from app.schemas.common import CountryCode, Identifier, Page, Text
from app.schemas.players import (
    EXTERNAL_ID_PATTERN,
    PlayerCreate,
    PlayerCreated,
    PlayerDetail,
    PlayerHit,
    PlayerMerge,
    PlayerMerged,
    PlayerPatch,
    PlayerRename,
    PlayerReviewRead,
    QueuedPlayerReview,
)
from app.schemas.predictions import HeadToHead
from app.schemas.rating_changes import READING_PATTERN, PlayerChanges
from app.schemas.revisions import RevisionRead
from app.security import authorise_player_change
from app.services import player_merge, player_reviews, predictions, rating_changes, revisions
from app.services import players as service
from app.services.player_reviews import Queued
from app.settings import Settings, get_settings
from app.transactions import run_in_transaction

router = APIRouter(prefix="/v1/players", tags=["players"])


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    operation_id="create_player",
    responses=responses(examples.CREATE_PLAYER, status=201, headers=LOCATION),
)
def create_player(
    body: Annotated[PlayerCreate, Body(openapi_examples=examples.CREATE_PLAYER_EXAMPLES)],
    session: SessionDep,
    caller: Organiser,
    response: Response,
    settings: Settings = Depends(get_settings),
) -> PlayerCreated:
    """Create a player

    The id is the submitter's choice (for example renju.net's player id) and names the player in
    tournaments and games from then on. An id that exists is a 409. Submitting a tournament creates
    its new players too, so this is needed only for players known before their first tournament.
    The 201 carries `Location: /v1/players/{player_id}`; the creation is the player's first
    revision. A player whose name (and country, where both have one) is a stored player's is
    created, and listed in `player_reviews` as a possible duplicate for an officer.

    Needs any valid key, an organiser's or an officer's. Once created, only an officer changes who
    he is (`PATCH`, rename, merge)."""

    def create() -> tuple[Player, list[Queued]]:
        return player_reviews.create_player(session, body, actor=caller.name)

    # Re-run on a unique violation: the same id created at once by another request is then the
    # service's own 409 with its pointer.
    player, queued = run_in_transaction(session, create, attempts=settings.transaction_attempts)
    response.headers["Location"] = f"/v1/players/{player.id}"
    return PlayerCreated(
        **PlayerDetail.model_validate(service.player_detail(session, player)).model_dump(),
        player_reviews=[
            QueuedPlayerReview(**PlayerReviewRead.model_validate(one.review).model_dump(), pointer=one.pointer) for one in queued
        ],
    )


@router.patch("/{player_id}", operation_id="update_player", responses=responses(examples.UPDATE_PLAYER))
def update_player(
    player_id: PlayerIdPath,
    body: Annotated[PlayerPatch, Body(openapi_examples=examples.UPDATE_PLAYER_EXAMPLES)],
    session: SessionDep,
    caller: Officer,
    settings: Settings = Depends(get_settings),
) -> PlayerDetail:
    """Change a player

    Only the fields present in the body change; `null` clears one, and the others keep their value.
    The id cannot change. `external_ids`, when given, replace his ids in other systems; one another
    player holds is a 409 naming him. To change the spelling of a name and keep the old one, rename
    him (`POST /v1/players/{player_id}/rename`). The change is a revision of the player (kind
    `player_updated`, with the player as he was), in the audit trail and on his page. A merged
    record is a 409: change the player it was merged into.

    Needs an officer's key: only an officer changes who a player is (what a submission says
    otherwise of a stored player waits for one at `GET /v1/player-reviews`)."""

    def update() -> PlayerDetail:
        authorise_player_change(session, caller, player_id, "Changing")
        player = service.update_player(session, player_id, body, actor=caller.name)
        return PlayerDetail.model_validate(service.player_detail(session, player))

    return run_in_transaction(session, update, attempts=settings.transaction_attempts)


@router.get("/{player_id}/revisions", operation_id="list_player_revisions", responses=responses(examples.LIST_PLAYER_REVISIONS))
def list_player_revisions(
    player_id: PlayerIdPath, session: SessionDep, limit: Limit = 50, offset: Offset = 0
) -> Page[RevisionRead]:
    """List a player's revisions, the oldest first

    Every recorded change of who the player is: his creation (by a submission, an import or
    `POST /v1/players`), each change an officer made or accepted (`PATCH`, a rename, an accepted
    review of what a submission said of him, a directory import), merges and unmerges, and what a
    submission said of him that an officer dismissed; each with the key that made it, when, and a
    summary. The player as he was before a change is the revision's `previous` in the audit trail."""
    service.get_player(session, player_id)
    rows, total = revisions.revisions_of(session, revisions.PLAYER, player_id, limit, offset)
    return Page(items=[RevisionRead.model_validate(r) for r in rows], total=total, limit=limit, offset=offset)


@router.post("/{player_id}/rename", operation_id="rename_player", responses=responses(examples.RENAME_PLAYER))
def rename_player(
    player_id: PlayerIdPath,
    body: Annotated[PlayerRename, Body(openapi_examples=examples.RENAME_PLAYER_EXAMPLES)],
    session: SessionDep,
    caller: Officer,
    settings: Settings = Depends(get_settings),
) -> PlayerDetail:
    """Rename a player, keeping the old spelling

    The fields given (Latin first name and surname, native name) become his spelling from `since`
    on; the spelling they replace is kept in `earlier_names` until the day before, and search still
    finds him by it. Recorded in the audit trail (`renamed`) with the player as he was.

    Needs an officer's key, without limits or limited to every list that rates a tournament of his
    or holds his seed."""

    def rename() -> PlayerDetail:
        authorise_player_change(session, caller, player_id, "Renaming")
        player = service.rename_player(session, player_id, body, actor=caller.name)
        return PlayerDetail.model_validate(service.player_detail(session, player))

    return run_in_transaction(session, rename, attempts=settings.transaction_attempts)


@router.post("/{player_id}/merge", operation_id="merge_player", responses=responses(examples.MERGE_PLAYER))
def merge_player(
    player_id: PlayerIdPath,
    body: Annotated[PlayerMerge, Body(openapi_examples=examples.MERGE_PLAYER_EXAMPLES)],
    session: SessionDep,
    caller: Officer,
    background: BackgroundTasks,
    settings: Settings = Depends(get_settings),
) -> PlayerMerged:
    """Merge a player into another

    Two records of one person become one: every game, declaration at a tournament, seed and external
    id of this record moves to `into`, which keeps his id. This record stays, answering
    `merged_into`; submissions naming it reach `into`; search finds `into` only. Every list that rates
    a moved game or holds a moved seed queues a recompute (`lists_recomputing`). The audit records
    the merge on both players, with what moved, so that `POST /v1/players/{player_id}/unmerge`
    restores both exactly.

    Refused, with nothing changed: into himself or an unknown player (422), a record merged already or
    into a merged player, two who played each other, were declared at one tournament, are seeded on
    one list or hold ids of one scheme (409, each with its pointer).

    Needs an officer's key, without limits or limited to every list that rates a tournament of
    either player or holds a seed of either."""

    def merge() -> PlayerMerged:
        authorise_player_change(session, caller, player_id, "Merging")
        authorise_player_change(session, caller, body.into, "Merging into")
        merged, lists = player_merge.merge_player(session, player_id, body.into, actor=caller.name)
        return _merged(session, merged.id, body.into, lists)

    answer = run_in_transaction(session, merge, attempts=settings.transaction_attempts)
    background.add_task(wake_worker)
    return answer


@router.post("/{player_id}/unmerge", operation_id="unmerge_player", responses=responses(examples.UNMERGE_PLAYER))
def unmerge_player(
    player_id: PlayerIdPath,
    session: SessionDep,
    caller: Officer,
    background: BackgroundTasks,
    settings: Settings = Depends(get_settings),
) -> PlayerMerged:
    """Undo a merge

    What moved with the merge of this record (recorded in its `merged` revision) moves back: the
    games, declarations, seeds and external ids are his again, and both players are as they were
    before the merge. The lists concerned queue a recompute. A record that is not merged is a 409.

    Needs an officer's key, without limits or limited to every list that rates a tournament of
    either player or holds a seed of either."""

    def unmerge() -> PlayerMerged:
        into = service.get_player(session, player_id).merged_into
        authorise_player_change(session, caller, player_id, "Unmerging")
        if into is not None:
            authorise_player_change(session, caller, into, "Unmerging from")
        unmerged, lists = player_merge.unmerge_player(session, player_id, actor=caller.name)
        return _merged(session, unmerged.id, into or "", lists)

    answer = run_in_transaction(session, unmerge, attempts=settings.transaction_attempts)
    background.add_task(wake_worker)
    return answer


def _merged(session: SessionDep, player_id: str, into: str, lists: list[str]) -> PlayerMerged:
    return PlayerMerged(
        player=PlayerDetail.model_validate(service.player_detail(session, service.get_player(session, player_id))),
        into=PlayerDetail.model_validate(service.player_detail(session, service.get_player(session, into))),
        lists_recomputing=lists,
    )


@router.get("/{player_id}", operation_id="get_player", responses=responses(examples.GET_PLAYER))
def get_player(player_id: PlayerIdPath, session: SessionDep) -> PlayerDetail:
    """Read a player

    The stored player by id, with his ids in other systems and earlier spellings; his ratings are on
    the lists and his history at `/v1/players/{player_id}/history`. A record merged into another
    player answers with `merged_into` naming him."""
    return PlayerDetail.model_validate(service.player_detail(session, service.get_player(session, player_id)))


@router.get("", operation_id="search_players", responses=responses(examples.SEARCH_PLAYERS))
def search_players(
    session: SessionDep,
    q: Text | None = Query(
        None,
        max_length=200,
        description="Part of a name: first name and surname in either order, or the native name, current or earlier;"
        " case and diacritics do not matter (Soosorv finds Soosõrv), % and _ are plain characters; or the whole id",
    ),
    country: CountryCode | None = Query(None, description="Only players of this country (IOC code, or the ISO code of it)"),
    external: str | None = Query(
        None,
        max_length=84,
        pattern=EXTERNAL_ID_PATTERN,
        description="Only the player holding this id in another system, `scheme:value` (egd:13300010, renjunet:952)",
    ),
    limit: Limit = 50,
    offset: Offset = 0,
) -> Page[PlayerHit]:
    """Search players

    Players whose name contains `q` (or whose id is `q`), of the given country, holding the given
    external id, or all of these; without any, every player. Best match first: the id, the whole
    name, the name's start, a word's start, anywhere (each hit's `match`); then by surname, first
    name and id. Each hit carries his disciplines and his rating on every list that rates him now.
    Records merged into another player are not listed."""
    found, total = service.search_players(session, q=q, country=country, external=external, limit=limit, offset=offset)
    details = service.hit_details(session, [player.id for player, _ in found])
    items = [
        PlayerHit.model_validate(
            {
                **{field: getattr(player, field) for field in ("id", *service.PLAYER_FIELDS, "merged_into")},
                **details[player.id],
                "match": match,
            }
        )
        for player, match in found
    ]
    return Page(items=items, total=total, limit=limit, offset=offset)


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
            "list date) or a day `YYYY-MM-DD` (the snapshot current at the end of that day, UTC, as of that day; a day before "
            "the list's first snapshot is a rating day, read from the `to` reading's snapshot); by default the list's latest "
            "publication",
        ),
    ] = None,
    later: Annotated[
        str | None,
        Query(
            alias="to",
            pattern=READING_PATTERN,
            description="The later reading, written as `from` (a day before the list's first snapshot reads the current "
            "snapshot as of that day); by default the list's current snapshot as of today (the live list)",
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

    A day names what the list said of him on that day: the snapshot current at the end of it, or,
    on a day before the list's first snapshot (a history rated after the fact, such as an imported
    decade of results), a rating day read from the `to` reading's snapshot (for `to`, the current
    one), so that `from=2018-01-01&to=2019-12-31` reads the list's history between those days;
    each reading's `source` says which. A day to come reads the current snapshot.

    A pruned snapshot is a 404 saying so (publications keep theirs for good). An unknown list,
    publication or snapshot, a snapshot of another list, or a list never computed is a 404 pointing
    at `query:list`, `query:from` or `query:to`; a player without a rating in either reading a 404 at `path:player_id`; `from` after
    `to` (its day or its snapshot) a 422 at `query:from`."""
    return PlayerChanges.model_validate(rating_changes.explain(session, player_id, list_id, earlier, later))


@router.get(
    "/{player_id}/head-to-head/{opponent_id}",
    operation_id="get_head_to_head",
    response_model=HeadToHead,
    responses={**responses(examples.GET_HEAD_TO_HEAD, headers=CACHED_READ), **NOT_MODIFIED},
)
def get_head_to_head(
    player_id: PlayerIdPath,
    opponent_id: Annotated[Identifier, Path(description="His opponent's id (not the player's own)")],
    session: SessionDep,
    if_none_match: IfNoneMatch = None,
) -> Response:
    """Read two players' games against each other

    Every stored game between the player (`a`) and his opponent (`b`), oldest first: its date,
    tournament (id and name), round, who had black and the result from a's side; the score of the
    played games (a's points, b's points, games); and, for each played game and each list whose
    current snapshot rated its tournament for both, what the list predicted then: P(a beats b) by the
    list's own expected-score rule (as `GET /v1/rating-lists/{list_id}/predict` computes it) from both
    players' ratings in the list's history (`GET /v1/players/{player_id}/history`) as of the day
    before the game, null when either had no rating yet. A walkover is listed, not scored.

    A player who does not exist is a 404 naming him. The answer carries an `ETag` (of its content)
    and `Cache-Control`: sent back in `If-None-Match`, an unchanged answer is a 304 without a body."""
    answer = predictions.head_to_head(session, player_id, opponent_id).model_dump_json().encode()
    etag = 'W/"' + hashlib.sha256(answer).hexdigest()[:32] + '"'
    if matches(if_none_match, etag):
        return not_modified(etag, CURRENT_CACHE)
    return Response(answer, media_type="application/json", headers={"ETag": etag, "Cache-Control": CURRENT_CACHE})
