"""Where a limited officer's powers end (docs/decisions.md 109).

An officer made with ``--lists`` or ``--categories`` answers for those lists, or for the lists of
those categories. It changes a tournament only when every list that rates it (or would, once
confirmed and not withdrawn, before and after a correction) is one of its lists, and a tournament no
list rates only within its categories; it changes a player only when every tournament he played or
was declared at is one it may change and every list holding a seed of his is its own; and it reads
the audit trail of its lists and of the tournaments and players of their categories
(``app.services.revisions.audit_within``). Nothing here knows keys: ``app.security`` asks it with the key's ``Scope``."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import ColumnElement, select, union
from sqlalchemy.orm import Session

from app.db import in_lists
from app.models import Game, PlayerReview, RatingList, RatingSeed, Tournament, TournamentPlayer
from app.recompute.eligibility import TournamentFields, reasons_not_met, requirements


@dataclass(frozen=True)
class Scope:
    """A limited officer's lists and categories (``list_categories``: the categories of its lists)."""

    lists: frozenset[str]
    categories: frozenset[str]
    list_categories: frozenset[str]

    def has_list(self, rating_list: RatingList) -> bool:
        return rating_list.id in self.lists or rating_list.category in self.categories

    @property
    def all_categories(self) -> frozenset[str]:
        return self.categories | self.list_categories


def lists_outside(session: Session, scope: Scope, tournaments: Sequence[TournamentFields]) -> list[str]:
    """The lists that rate one of these tournaments (or would, once confirmed and restored) and are
    not the scope's; a tournament no list rates is outside when its category is not the scope's
    (named ``category:<name>``)."""
    lists = list(session.scalars(select(RatingList).order_by(RatingList.id)))
    outside: dict[str, None] = {}
    for tournament in tournaments:
        rating = [rating_list for rating_list in lists if _would_rate(rating_list, tournament)]
        for rating_list in rating:
            if not scope.has_list(rating_list):
                outside[rating_list.id] = None
        if not rating and tournament.category not in scope.all_categories:
            outside[f"category:{tournament.category}"] = None
    return list(outside)


def player_outside(session: Session, scope: Scope, player_id: str) -> list[str]:
    """What puts the player beyond the scope: the lists of ``lists_outside`` for his tournaments
    (those of his games and of his declarations), and the lists holding a seed of his not its own."""
    tournament_ids = session.scalars(
        union(
            select(Game.tournament_id).where(Game.black_id == player_id),
            select(Game.tournament_id).where(Game.white_id == player_id),
            select(TournamentPlayer.tournament_id).where(TournamentPlayer.player_id == player_id),
        )
    ).all()
    tournaments: list[Tournament] = []
    for some in in_lists(sorted(tournament_ids)):
        tournaments += session.scalars(select(Tournament).where(Tournament.id.in_(some)))
    outside = dict.fromkeys(lists_outside(session, scope, tournaments))
    for rating_list in session.scalars(
        select(RatingList).join(RatingSeed, RatingSeed.list_id == RatingList.id).where(RatingSeed.player_id == player_id)
    ):
        if not scope.has_list(rating_list):
            outside[rating_list.id] = None
    return list(outside)


def reviews_within(scope: Scope) -> ColumnElement[bool]:
    """The reviews of players a limited officer sees: those said by a tournament of its categories."""
    of_category = select(Tournament.id).where(Tournament.category.in_(sorted(scope.all_categories)))
    return PlayerReview.tournament_id.in_(of_category)


def _would_rate(rating_list: RatingList, tournament: TournamentFields) -> bool:
    """Whether the list rates the tournament once an officer of the list confirms it, withdrawn or
    not: what a correction, a withdrawal or a restore of it may change."""
    if rating_list.category != tournament.category:
        return False
    return not reasons_not_met(requirements(rating_list, "confirmed"), cast(TournamentFields, _NotWithdrawn(tournament)))


class _NotWithdrawn:
    """A tournament read as if it were not withdrawn."""

    def __init__(self, tournament: TournamentFields) -> None:
        self._tournament = tournament

    withdrawn_at = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._tournament, name)


__all__ = ["Scope", "lists_outside", "player_outside", "reviews_within"]
