"""Players: created by submissions (inline) or directly, searched by name."""

from collections.abc import Sequence
from itertools import groupby

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from app.db import dialect_insert
from app.models import Player
from app.problems import Conflict, FieldError, NotFound
from app.schemas.players import PlayerCreate, PlayerPatch

UPSERT_BATCH = 500


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


def search_players(session: Session, *, q: str | None, country: str | None, limit: int, offset: int) -> tuple[list[Player], int]:
    conditions = []
    if q:
        # The text is searched for as written: % and _ are escaped, never LIKE's wildcards.
        text = q.strip().lower()
        full_name = func.lower(func.coalesce(Player.name, "") + " " + func.coalesce(Player.surname, ""))
        reversed_name = func.lower(func.coalesce(Player.surname, "") + " " + func.coalesce(Player.name, ""))
        conditions.append(
            or_(
                full_name.contains(text, autoescape=True),
                reversed_name.contains(text, autoescape=True),
                func.lower(func.coalesce(Player.native_name, "")).contains(text, autoescape=True),
                Player.id == q.strip(),
            )
        )
    if country:
        conditions.append(Player.country == country)
    total = session.scalar(select(func.count()).select_from(Player).where(*conditions)) or 0
    players = session.scalars(
        select(Player).where(*conditions).order_by(Player.surname, Player.name, Player.id).limit(limit).offset(offset)
    )
    return list(players), total


def upsert_players(session: Session, players: Sequence[PlayerCreate]) -> None:
    """Create the players a submission describes, and update existing ones with the fields it gives.

    One insert-on-conflict-update of the database itself, so two submissions naming the same new
    player both succeed (no look-up-then-insert race). Rows go in sorted id order: every
    transaction takes the players' row locks in the same order, so two never deadlock. A run of
    players giving the same fields is one statement; only the fields a player gives are updated.
    """
    ordered = sorted(players, key=lambda player: player.id)
    table = Player.__table__
    for given_fields, run in groupby(ordered, key=lambda player: frozenset(player.model_fields_set - {"id"})):
        rows = [player.model_dump() for player in run]
        # One statement executed for many rows (the driver's executemany; SQLAlchemy batches it into
        # multi-row VALUES where the database allows): compiled once per set of fields and cached,
        # where a statement with the rows as literal VALUES was compiled again for every submission.
        statement = dialect_insert(session)(table)
        if given_fields:
            statement = statement.on_conflict_do_update(
                index_elements=[table.c.id],
                set_={**{field: statement.excluded[field] for field in sorted(given_fields)}, "updated_at": func.now()},
            )
        else:
            statement = statement.on_conflict_do_nothing(index_elements=[table.c.id])
        for start in range(0, len(rows), UPSERT_BATCH):
            session.execute(statement, rows[start : start + UPSERT_BATCH])
    # The ORM's identity map may hold players loaded before the upsert: read them afresh.
    session.expire_all()


def full_name(name: str | None, surname: str | None) -> str | None:
    """First name and surname as a list shows them; None when the record has neither."""
    return " ".join(part for part in (name, surname) if part) or None
