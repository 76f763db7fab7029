"""Facts about one snapshot of a list that the website shows beside its rows: how many players hold
each status, which countries its players come from (the country filter), and its last game's date.
A snapshot never changes once written, so each is one aggregate over its entries."""

import datetime as dt

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.models import Player, RatingEntry


def status_counts(session: Session, snapshot_id: int) -> dict[str, int]:
    rows = session.execute(
        select(RatingEntry.status, func.count()).where(RatingEntry.snapshot_id == snapshot_id).group_by(RatingEntry.status)
    )
    return {status: count for status, count in rows}


def countries(session: Session, snapshot_id: int) -> list[str]:
    rows = session.scalars(
        select(Player.country)
        .join(RatingEntry, RatingEntry.player_id == Player.id)
        .where(RatingEntry.snapshot_id == snapshot_id, Player.country.is_not(None))
        .distinct()
    )
    return sorted(code for code in rows if code is not None)


def last_game_date(session: Session, snapshot_id: int) -> dt.date | None:
    return session.scalar(select(func.max(RatingEntry.last_played)).where(RatingEntry.snapshot_id == snapshot_id))


def native_names(session: Session, player_ids: list[str]) -> dict[str, str | None]:
    """The players' native spellings (those who have one), for pages that show names in the reader's script."""
    found = session.execute(
        select(Player.id, Player.native_name).where(Player.id.in_(player_ids), Player.native_name.is_not(None))
    )
    return {player_id: native for player_id, native in found}
