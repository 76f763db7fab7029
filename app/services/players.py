"""Players: created by submissions (inline) or directly, searched by name."""

from collections.abc import Sequence

from sqlalchemy import func, insert, or_, select
from sqlalchemy.orm import Session

from app.models import Player
from app.problems import Conflict, FieldError, NotFound
from app.schemas.players import PlayerCreate, PlayerPatch


def create_player(session: Session, player: PlayerCreate) -> Player:
    if session.get(Player, player.id) is not None:
        raise Conflict(f"Player {player.id!r} already exists.", [FieldError("/id", "a player with this id already exists")])
    created = Player(**player.model_dump())
    session.add(created)
    session.flush()
    return created


def update_player(session: Session, player_id: str, patch: PlayerPatch) -> Player:
    player = get_player(session, player_id)
    for field, value in patch.model_dump(exclude_unset=True).items():
        setattr(player, field, value)
    session.flush()
    return player


def get_player(session: Session, player_id: str) -> Player:
    player = session.get(Player, player_id)
    if player is None:
        raise NotFound(f"Player {player_id!r} does not exist.")
    return player


def search_players(
    session: Session, *, q: str | None, country: str | None, limit: int, offset: int
) -> tuple[list[Player], int]:
    conditions = []
    if q:
        pattern = f"%{q.strip().lower()}%"
        full_name = func.lower(func.coalesce(Player.name, "") + " " + func.coalesce(Player.surname, ""))
        reversed_name = func.lower(func.coalesce(Player.surname, "") + " " + func.coalesce(Player.name, ""))
        conditions.append(
            or_(full_name.like(pattern), reversed_name.like(pattern), func.lower(func.coalesce(Player.native_name, "")).like(pattern), Player.id == q.strip())
        )
    if country:
        conditions.append(Player.country == country)
    total = session.scalar(select(func.count()).select_from(Player).where(*conditions)) or 0
    players = session.scalars(
        select(Player).where(*conditions).order_by(Player.surname, Player.name, Player.id).limit(limit).offset(offset)
    )
    return list(players), total


def upsert_players(session: Session, players: Sequence[PlayerCreate]) -> None:
    """Create the players a submission describes, and update existing ones with the fields it gives."""
    if not players:
        return
    ids = [p.id for p in players]
    existing = {p.id: p for p in session.scalars(select(Player).where(Player.id.in_(ids)))}
    new_rows = [p.model_dump() for p in players if p.id not in existing]
    if new_rows:
        session.execute(insert(Player), new_rows)
    for player in players:
        if player.id in existing:
            for field, value in player.model_dump(exclude_unset=True, exclude={"id"}).items():
                setattr(existing[player.id], field, value)
    session.flush()
