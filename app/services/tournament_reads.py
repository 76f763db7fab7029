"""Reading stored tournaments: the tournament whole as the contract shows it (``TournamentRead``,
``TournamentSubmitted``, built here once for the API and the CLI), its parts as the website's pages
read them, the list of tournaments and its filters, and which stale lists show it."""

from collections.abc import Collection, Sequence
from datetime import date
from typing import Any

from sqlalchemy import Row, func, select
from sqlalchemy.orm import Session

from app.db import locked_row
from app.models import Game, Player, RatingList, Tournament, TournamentPlayer, TournamentStanding
from app.problems import NotFound
from app.rating.system import Change
from app.recompute import staleness
from app.recompute.eligibility import reasons_not_rated
from app.schemas.players import PlayerRead, PlayerReviewRead, QueuedPlayerReview
from app.schemas.tournaments import (
    GameRead,
    ListRating,
    RatingChangeRead,
    StaleList,
    StandingRead,
    TieBreakRead,
    TournamentPlayerRead,
    TournamentRead,
    TournamentSubmitted,
    TournamentSummary,
)
from app.services import reviews
from app.services.player_reviews import Queued
from app.snapshots import snapshot_changes


def read_tournament(session: Session, tournament_id: str) -> TournamentRead:
    """The stored tournament as ``GET /v1/tournaments/{id}`` answers it: its fields, players with
    what was declared for them, games, standings, every list's changes under its current snapshot,
    and the stale lists that show it."""
    tournament, games, players, changes = get_tournament(session, tournament_id)
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
                result=g.result,
                played=g.played,
                date=g.date,
                handicap=g.handicap,
                board_size=g.board_size,
            )
            for g in games
        ],
        standings=[
            StandingRead(player=s.player_id, place=s.place, tie_breaks=[TieBreakRead(**t) for t in s.tie_breaks])
            for s in get_standings(session, tournament_id)
        ],
        rating_changes=[
            RatingChangeRead(list_id=list_id, snapshot_id=snapshot_id, **{name: getattr(c, name) for name in _CHANGE_FIELDS})
            for list_id, snapshot_id, c in changes
        ],
        stale_lists=[
            StaleList(list_id=mark.list_id, stale_since=mark.since, stale_reason=mark.reason)
            for mark in stale_lists_of(session, tournament, {list_id for list_id, _, _ in changes})
        ],
    )


def submitted_tournament(
    session: Session, tournament_id: str, lists: Sequence[Any], player_reviews: Sequence[Queued] = ()
) -> TournamentSubmitted:
    """The answer to a change of the tournament: it as it is now, what each list of its category does
    with it (``ListOutcome``s), and the reviews of players the change queued."""
    return TournamentSubmitted(
        **read_tournament(session, tournament_id).model_dump(),
        lists=[ListRating.model_validate(vars(outcome) | {"id": outcome.list_id}) for outcome in lists],
        player_reviews=[
            QueuedPlayerReview(**PlayerReviewRead.model_validate(one.review).model_dump(), pointer=one.pointer)
            for one in player_reviews
        ],
    )


# A rating change as the rules report it (app.rating.system.Change), field by field.
_CHANGE_FIELDS = [name for name in RatingChangeRead.model_fields if name not in ("list_id", "snapshot_id")]


def get_tournament_row(session: Session, tournament_id: str, *, lock: bool = False) -> Tournament:
    """The stored tournament alone; ``lock``: row-locked until the transaction ends."""
    tournament = locked_row(session, Tournament, tournament_id) if lock else session.get(Tournament, tournament_id)
    if tournament is None:
        raise NotFound(f"Tournament {tournament_id!r} does not exist.")
    return tournament


def stale_lists_of(session: Session, tournament: Tournament, shown: Collection[str]) -> list[staleness.Stale]:
    """The marks of the stale lists (``app.recompute.staleness``) that rate the tournament as it is
    now, or whose current snapshot shows changes of it (``shown``): what they show of it may be of
    before the change that made them stale. By list id; one query when no list is stale."""
    stale = list(session.scalars(select(RatingList).where(RatingList.stale_since.is_not(None)).order_by(RatingList.id)))
    if not stale:
        return []
    under_review = reviews.statuses(session, tournament.id)
    return [
        mark
        for rating_list in stale
        if (mark := staleness.of(rating_list)) is not None
        and (
            rating_list.id in shown
            or (
                rating_list.category == tournament.category
                and not reasons_not_rated(rating_list, tournament, under_review.get(rating_list.id))
            )
        )
    ]


STORED_GAME_COLUMNS = ("game_id", "round", "black_id", "white_id", "result", "played", "date", "handicap", "board_size")


def get_tournament(
    session: Session, tournament_id: str
) -> tuple[Tournament, Sequence[Row[Any]], list[tuple[Player, TournamentPlayer | None]], list[tuple[str, int, Change]]]:
    """The tournament, its games in submission order (rows of ``STORED_GAME_COLUMNS``), its players
    (each with what was declared for him there, if anything) and every list's rating changes under
    its current snapshot (list id, snapshot id, change; by list, then player)."""
    tournament = session.get(Tournament, tournament_id)
    if tournament is None:
        raise NotFound(f"Tournament {tournament_id!r} does not exist.")
    # The games as rows of the columns readers show, not as entities: a few hundred entities
    # cost a tournament's page a fifth of its time to build (decision 95).
    games = session.execute(
        select(*(Game.__table__.c[name] for name in STORED_GAME_COLUMNS))
        .where(Game.tournament_id == tournament_id)
        .order_by(Game.seq)
    ).all()
    declared = {
        entry.player_id: entry
        for entry in session.scalars(select(TournamentPlayer).where(TournamentPlayer.tournament_id == tournament_id))
    }
    player_ids = {g.black_id for g in games} | {g.white_id for g in games} | set(declared)
    players = list(session.scalars(select(Player).where(Player.id.in_(player_ids)).order_by(Player.id))) if player_ids else []
    return (
        tournament,
        games,
        [(player, declared.get(player.id)) for player in players],
        [
            (list_id, snapshot.id, change)
            for list_id, snapshot, changes in snapshot_changes.current_changes(session)
            for change in changes.of_tournament(tournament_id)
        ],
    )


def get_standings(session: Session, tournament_id: str) -> list[TournamentStanding]:
    """The tournament's own standings, by place (equal places in the order submitted); empty when it
    gave none."""
    return list(
        session.scalars(
            select(TournamentStanding)
            .where(TournamentStanding.tournament_id == tournament_id)
            .order_by(TournamentStanding.place, TournamentStanding.seq)
        )
    )


def list_tournaments(
    session: Session,
    *,
    category: str | None,
    year: int | None,
    country: str | None,
    limit: int,
    offset: int,
) -> tuple[list[tuple[Tournament, int]], int]:
    conditions = []
    if category:
        conditions.append(Tournament.category == category)
    if country:
        conditions.append(Tournament.country == country)
    if year:
        # A tournament belongs to every year it touches.
        conditions.append(Tournament.start <= date(year, 12, 31))
        conditions.append(Tournament.end >= date(year, 1, 1))
    total = session.scalar(select(func.count()).select_from(Tournament).where(*conditions)) or 0
    games_count = select(func.count()).where(Game.tournament_id == Tournament.id).correlate(Tournament).scalar_subquery()
    rows = session.execute(
        select(Tournament, games_count)
        .where(*conditions)
        .order_by(Tournament.end.desc(), Tournament.id)
        .limit(limit)
        .offset(offset)
    ).all()
    return [(t, n) for t, n in rows], total


def tournament_filters(session: Session) -> tuple[list[str], list[int]]:
    """What the tournaments' filters can choose from: the countries tournaments were held in, and
    the years they were played in (latest first)."""
    countries = session.scalars(select(Tournament.country).where(Tournament.country.is_not(None)).distinct())
    first, last = session.execute(select(func.min(Tournament.start), func.max(Tournament.end))).one()
    years = list(range(last.year, first.year - 1, -1)) if first is not None and last is not None else []
    return sorted(c for c in countries if c), years
