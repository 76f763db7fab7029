"""Officers' reviews of submitted tournaments, for the lists that require one (docs/decisions.md
7.29–7.31; the European Go Database accepts a tournament only once its officer has checked it).

A list with ``requires_review`` holds back every tournament submitted to it until an officer of the
list confirms it: the submission (and each later correction) leaves a ``pending`` review, an officer
confirms or rejects it with a reason, and the list rates the tournament only while it is
``confirmed`` (app/recompute/eligibility.py reads the status). A tournament without a review was
stored before the list required reviews, and is rated as before. Every decision is a revision of the
tournament, written in the decision's transaction with the version it replaced."""

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db import in_lists, locked_row
from app.models import RatingList, Tournament, TournamentReview
from app.problems import Conflict, NotFound
from app.recompute.eligibility import reasons_not_rated
from app.recompute.jobs import trigger_recompute
from app.services import revisions

PENDING, CONFIRMED, REJECTED = "pending", "confirmed", "rejected"
STATUSES = (PENDING, CONFIRMED, REJECTED)
# A decision and the status it gives.
DECISIONS = {"confirm": CONFIRMED, "reject": REJECTED}


@dataclass(frozen=True)
class Decided:
    review: TournamentReview
    job_id: int | None  # the recompute the decision queued; None when the list's ratings do not change


def open_reviews(session: Session, tournament: Tournament) -> dict[str, str]:
    """Put the stored tournament's version under review by every list of its category that requires
    one: a pending review from now, whatever an earlier version's was (a correction is a new version
    no officer has seen, decisions 7.30). The lists under review, by id, with their status."""
    now = dt.datetime.now(dt.UTC)
    lists = session.scalars(
        select(RatingList.id).where(RatingList.category == tournament.category, RatingList.requires_review.is_(True))
    )
    for list_id in lists:
        review = session.get(TournamentReview, (list_id, tournament.id))
        if review is None:
            session.add(TournamentReview(list_id=list_id, tournament_id=tournament.id, status=PENDING, submitted_at=now))
        else:
            review.status, review.submitted_at = PENDING, now
            review.reason = review.decided_by = review.decided_at = None
    session.flush()
    return statuses(session, tournament.id)


def open_reviews_of(session: Session, tournaments: Sequence[Tournament]) -> dict[str, dict[str, str]]:
    """``open_reviews`` for several stored tournaments, by id: the lists that require reviews read
    once, and the reviews of the tournaments no such list reviews in one query."""
    reviewing = set(
        session.scalars(
            select(RatingList.category)
            .where(RatingList.category.in_(sorted({t.category for t in tournaments})), RatingList.requires_review.is_(True))
            .distinct()
        )
    )
    opened = {t.id: open_reviews(session, t) for t in tournaments if t.category in reviewing}
    others = sorted(t.id for t in tournaments if t.category not in reviewing)
    found: dict[str, dict[str, str]] = {tournament_id: {} for tournament_id in others}
    for some in in_lists(others):
        for tournament_id, list_id, status in session.execute(
            select(TournamentReview.tournament_id, TournamentReview.list_id, TournamentReview.status).where(
                TournamentReview.tournament_id.in_(some)
            )
        ):
            found[tournament_id][list_id] = status
    return opened | found


def statuses(session: Session, tournament_id: str) -> dict[str, str]:
    """The tournament's reviews: list id -> status."""
    rows = session.execute(
        select(TournamentReview.list_id, TournamentReview.status).where(TournamentReview.tournament_id == tournament_id)
    )
    return {list_id: status for list_id, status in rows}


def decide(session: Session, list_id: str, tournament_id: str, decision: str, reason: str, *, actor: str) -> Decided:
    """An officer's decision on the tournament's review by the list: ``confirm`` (the list rates it
    from the recompute this queues) or ``reject``. A decision may be changed later (a confirmed
    tournament rejected, or a rejected one confirmed), not repeated: the same status again is a 409.
    The tournament's row lock orders it with a correction or withdrawal of the same tournament."""
    rating_list = session.get(RatingList, list_id)
    if rating_list is None:
        raise NotFound(f"Rating list {list_id!r} does not exist.")
    tournament = locked_row(session, Tournament, tournament_id)
    if tournament is None:
        raise NotFound(f"Tournament {tournament_id!r} does not exist.")
    review = session.get(TournamentReview, (list_id, tournament_id), populate_existing=True)
    if review is None:
        raise NotFound(
            f"Tournament {tournament_id!r} has no review by the list {list_id!r}: it was submitted while the list did "
            f"not require reviews{'' if rating_list.requires_review else ' (it does not now either)'}, or the list rates "
            f"{rating_list.category} tournaments and it is {tournament.category}."
        )
    status = DECISIONS[decision]
    if review.status == status:
        raise Conflict(
            f"Tournament {tournament_id!r} is {status} already for the list {list_id!r} "
            f"(by {review.decided_by!r}: {review.reason})."
        )
    previous = revisions.tournament_version(session, tournament_id)
    rated_before = review.status == CONFIRMED
    review.status, review.reason, review.decided_by = status, reason, actor
    review.decided_at = dt.datetime.now(dt.UTC)
    session.flush()
    revisions.record(
        session,
        subject=revisions.TOURNAMENT,
        subject_id=tournament_id,
        kind=revisions.CONFIRMED if status == CONFIRMED else revisions.REJECTED,
        actor=actor,
        summary=f"{status} for the list {list_id} (was {previous['reviews'][list_id]}): {reason}",
        previous=previous,
        list_id=list_id,
    )
    # The list's ratings change when it starts or stops rating the tournament (a rejection of a
    # pending one changes nothing).
    job_id = trigger_recompute(session, list_id).id if status == CONFIRMED or rated_before else None
    return Decided(review, job_id)


def reviews_of_list(
    session: Session, list_id: str, status: str | None, limit: int, offset: int
) -> tuple[list[TournamentReview], int]:
    """The list's reviews, the earliest submitted first (the order an officer works through them)."""
    if session.get(RatingList, list_id) is None:
        raise NotFound(f"Rating list {list_id!r} does not exist.")
    conditions = [TournamentReview.list_id == list_id]
    if status is not None:
        conditions.append(TournamentReview.status == status)
    total = session.scalar(select(func.count()).select_from(TournamentReview).where(*conditions)) or 0
    rows = session.scalars(
        select(TournamentReview)
        .where(*conditions)
        .order_by(TournamentReview.submitted_at, TournamentReview.tournament_id)
        .limit(limit)
        .offset(offset)
    )
    return list(rows), total


def lists_rating(session: Session, tournament_id: str) -> frozenset[str]:
    """The lists that rate the stored tournament as it is now."""
    tournament = session.get(Tournament, tournament_id)
    if tournament is None:
        return frozenset()
    under_review = statuses(session, tournament_id)
    lists = session.scalars(select(RatingList).where(RatingList.category == tournament.category))
    return frozenset(r.id for r in lists if not reasons_not_rated(r, tournament, under_review.get(r.id)))
