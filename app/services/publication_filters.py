"""A publication's rows filtered by gender and by a game in its last 12 months (issue 24 item 5),
beside the country and status filters of ``app.services.publications.publication_rows``. The gender
is the player's as stored now (a publication keeps names and countries, not genders)."""

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.models import Player, Publication, PublicationEntry
from app.schemas.rating_lists import RatingRowRead
from app.services import publications
from app.services.rating_lists import year_before


def filtered_publication_rows(
    session: Session,
    publication: Publication,
    *,
    country: str | None,
    status: str,
    gender: str | None,
    played_within_12_months: bool,
    limit: int,
    offset: int,
) -> tuple[list[RatingRowRead], int]:
    if gender is None and not played_within_12_months:
        return publications.publication_rows(session, publication, country=country, status=status, limit=limit, offset=offset)
    conditions = [PublicationEntry.publication_id == publication.id]
    if status != "all":
        conditions.append(PublicationEntry.status == status)
    if country:
        conditions.append(PublicationEntry.country == country)
    if played_within_12_months:
        conditions.append(PublicationEntry.last_played > year_before(publication.date))
    if gender:
        conditions.append(PublicationEntry.player_id.in_(select(Player.id).where(Player.gender == gender)))
    total = session.scalar(select(func.count()).select_from(PublicationEntry).where(*conditions)) or 0
    entries = session.scalars(
        select(PublicationEntry).where(*conditions).order_by(PublicationEntry.position).limit(limit).offset(offset)
    )
    return [publications.row_read(rank, entry) for rank, entry in enumerate(entries, start=offset + 1)], total
