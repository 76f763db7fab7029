from typing import Annotated

from fastapi import APIRouter, Body, Depends, Header, Query, status
from fastapi.responses import JSONResponse

from app.api.deps import Limit, Offset, SessionDep, Writer
from app.api.examples import SUBMIT_TOURNAMENT_EXAMPLES
from app.schemas.common import CountryCode, Page
from app.schemas.players import PlayerRead
from app.schemas.tournaments import (
    Category,
    GameRead,
    RatingChangeRead,
    TournamentIn,
    TournamentPlayerRead,
    TournamentRead,
    TournamentSummary,
)
from app.services import idempotency
from app.services import tournaments as service
from app.settings import Settings, get_settings

router = APIRouter(prefix="/v1/tournaments", tags=["tournaments"])


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    operation_id="submit_tournament",
    responses={409: {"description": "A tournament with this id exists"}, 413: {"description": "Too many games"}},
)
def submit_tournament(
    body: Annotated[TournamentIn, Body(openapi_examples=SUBMIT_TOURNAMENT_EXAMPLES)],
    session: SessionDep,
    caller: Writer,
    settings: Settings = Depends(get_settings),
    idempotency_key: str | None = Header(None, max_length=200, description="Replays get the first response"),
) -> TournamentRead:
    fingerprint = idempotency.request_fingerprint(body.model_dump(mode="json"))
    if idempotency_key:
        key = idempotency.scoped_key(caller, idempotency_key)
        replay = idempotency.find_replay(session, key, fingerprint)
        if replay is not None:
            headers = {"Location": replay.location} if replay.location else {}
            return JSONResponse(replay.body, status_code=replay.status_code, headers=headers)  # type: ignore[return-value]
    service.submit_tournament(session, body, max_games=settings.max_games_per_tournament)
    read = _read(session, body.id)
    location = f"/v1/tournaments/{body.id}"
    if idempotency_key:
        idempotency.remember(
            session, key, fingerprint, idempotency.StoredResponse(201, read.model_dump(mode="json"), location)
        )
    return JSONResponse(read.model_dump(mode="json"), status_code=201, headers={"Location": location})  # type: ignore[return-value]


@router.put("/{tournament_id}", operation_id="replace_tournament")
def replace_tournament(
    tournament_id: str, body: TournamentIn, session: SessionDep, _: Writer, settings: Settings = Depends(get_settings)
) -> TournamentRead:
    service.replace_tournament(session, tournament_id, body, max_games=settings.max_games_per_tournament)
    return _read(session, tournament_id)


@router.get("/{tournament_id}", operation_id="get_tournament")
def get_tournament(tournament_id: str, session: SessionDep) -> TournamentRead:
    return _read(session, tournament_id)


@router.get("", operation_id="list_tournaments")
def list_tournaments(
    session: SessionDep,
    category: Category | None = None,
    year: int | None = Query(None, ge=1900, le=2200),
    country: CountryCode | None = None,
    limit: Limit = 50,
    offset: Offset = 0,
) -> Page[TournamentSummary]:
    rows, total = service.list_tournaments(
        session, category=category, year=year, country=country, limit=limit, offset=offset
    )
    items = [TournamentSummary.model_validate(t).model_copy(update={"games_count": n}) for t, n in rows]
    return Page(items=items, total=total, limit=limit, offset=offset)


def _read(session, tournament_id: str) -> TournamentRead:  # type: ignore[no-untyped-def]
    tournament, games, players, changes = service.get_tournament(session, tournament_id)
    summary = TournamentSummary.model_validate(tournament).model_dump()
    summary["games_count"] = len(games)
    return TournamentRead(
        **summary,
        players=[
            TournamentPlayerRead(
                **PlayerRead.model_validate(p).model_dump(),
                rank=entry.rank if entry else None,
                rating=entry.rating if entry else None,
                club=entry.club if entry else None,
                egf_pin=entry.egf_pin if entry else None,
                rating_origin=entry.rating_origin if entry else None,
            )
            for p, entry in players
        ],
        games=[
            GameRead(
                id=g.game_id,
                round=g.round,
                black=g.black_id,
                white=g.white_id,
                result=g.result,  # type: ignore[arg-type]
                played=g.played,
                date=g.date,
                handicap=g.handicap,
                board_size=g.board_size,
            )
            for g in games
        ],
        rating_changes=[
            RatingChangeRead(
                list_id=list_id,
                snapshot_id=c.snapshot_id,
                player_id=c.player_id,
                system=c.system,
                rating_before=c.rating_before,
                rating_after=c.rating_after,
                change=c.change,
                change_unrounded=c.change_unrounded,
                games_counted=c.games_counted,
                status_after=c.status_after,
                title_after=c.title_after,
                details=c.details,
            )
            for list_id, c in changes
        ],
    )
