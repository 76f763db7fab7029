"""What submissions and imports said of stored players, waiting for an officer (docs/decisions.md 108).

Only an officer changes who a player is. A submission that names a stored player attaches its games
to him and changes nothing else; where it gives other details (a country, a spelling, an external
id), the difference is queued here, and a new player whose name is a stored player's is queued as a
possible duplicate. An officer accepts (the change is made and recorded as the player's revision,
or the duplicate is merged into the stored player) or dismisses (recorded too: nothing changed). A
difference said again while one like it waits is not queued twice."""

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db import in_lists, locked_row
from app.models import Player, PlayerReview
from app.problems import Conflict, FieldError, InvalidInput, NotFound
from app.schemas.players import PlayerCreate
from app.services import players, revisions
from app.services.player_identity import PlayerFindings, PossibleDuplicate, namesakes_of_created, possible_duplicates_of
from app.services.player_merge import merge_player
from app.services.players import keep_spelling, player_version, refresh_search_keys, refuse_merged, set_external_ids
from app.services.scopes import Scope, reviews_within

DETAILS, POSSIBLE_DUPLICATE = "details", "possible_duplicate"
PENDING, ACCEPTED, DISMISSED = "pending", "accepted", "dismissed"
Decision = Literal["accept", "dismiss"]


@dataclass(frozen=True)
class Queued:
    """A review a submission queued or found waiting already, with the pointer of the player it is about."""

    review: PlayerReview
    pointer: str


def queue_findings(session: Session, findings: PlayerFindings, *, tournament_id: str | None, actor: str) -> list[Queued]:
    """Queue what ``findings`` say of stored players and of possible duplicates; the reviews, each once
    (one waiting already with the same proposal is the one answered)."""
    wanted: list[tuple[str, str, str, dict[str, Any], dict[str, Any]]] = [
        (DETAILS, difference.player_id, difference.pointer, difference.stored, difference.given)
        for difference in findings.differing
    ]
    wanted += [
        (POSSIBLE_DUPLICATE, duplicate.player_id, duplicate.pointer, {}, {"candidates": list(duplicate.candidates)})
        for duplicate in findings.possible_duplicates
    ]
    if not wanted:
        return []
    waiting = _pending_of(session, sorted({player_id for _, player_id, *_ in wanted}))
    now = dt.datetime.now(dt.UTC)
    queued = []
    for kind, player_id, pointer, stored, proposed in wanted:
        review = next((r for r in waiting.get(player_id, []) if r.kind == kind and r.proposed == proposed), None)
        if review is None:
            review = PlayerReview(
                player_id=player_id,
                kind=kind,
                status=PENDING,
                tournament_id=tournament_id,
                actor=actor,
                stored=stored,
                proposed=proposed,
                created_at=now,
            )
            session.add(review)
            waiting.setdefault(player_id, []).append(review)
        queued.append(Queued(review, pointer))
    session.flush()
    return queued


def create_player(session: Session, player: PlayerCreate, *, actor: str) -> tuple[Player, list[Queued]]:
    """``POST /v1/players``: the new player, and the review queued when his name is a stored player's
    (a possible duplicate, as a submission's new player is)."""
    created = players.create_player(session, player, actor=actor)
    findings = possible_duplicates_of(session, player)
    return created, queue_findings(session, findings, tournament_id=None, actor=actor)


def queue_possible_duplicates(session: Session, created: dict[str, str], *, actor: str) -> list[Queued]:
    """The possible duplicates among the players an import created (``created``: each player's
    creating tournament, in the order of creation), queued once its search terms are written."""
    namesakes = namesakes_of_created(session, list(created))
    queued: list[Queued] = []
    for player_id, candidates in namesakes.items():
        findings = PlayerFindings(possible_duplicates=(PossibleDuplicate(player_id, "/", candidates),))
        queued += queue_findings(session, findings, tournament_id=created[player_id], actor=actor)
    return queued


def list_reviews(
    session: Session,
    *,
    status: str | None,
    kind: str | None,
    player_id: str | None,
    limit: int,
    offset: int,
    within: Scope | None = None,
) -> tuple[list[PlayerReview], int]:
    """The reviews, the oldest first (the order an officer works through them); ``within``: those a
    limited officer sees (``app.services.scopes.reviews_within``)."""
    conditions = [] if within is None else [reviews_within(within)]
    if status is not None:
        conditions.append(PlayerReview.status == status)
    if kind is not None:
        conditions.append(PlayerReview.kind == kind)
    if player_id is not None:
        conditions.append(PlayerReview.player_id == player_id)
    total = session.scalar(select(func.count()).select_from(PlayerReview).where(*conditions)) or 0
    rows = session.scalars(select(PlayerReview).where(*conditions).order_by(PlayerReview.id).limit(limit).offset(offset))
    return list(rows), total


def get_review(session: Session, review_id: int, *, lock: bool = False) -> PlayerReview:
    review = locked_row(session, PlayerReview, review_id) if lock else session.get(PlayerReview, review_id)
    if review is None:
        raise NotFound(f"Player review {review_id} does not exist.")
    return review


def decide(
    session: Session, review_id: int, decision: Decision, *, reason: str | None, into: str | None, actor: str
) -> tuple[PlayerReview, list[str]]:
    """An officer's decision on a waiting review, and the lists a merge queued. ``accept`` of a
    difference makes the change (a name given differently is a rename from today, the spelling it
    replaces kept), of a possible duplicate merges the new record ``into`` one of the candidates;
    ``dismiss`` changes nothing. Each is recorded as the player's revision."""
    review = get_review(session, review_id, lock=True)
    if review.status != PENDING:
        raise Conflict(
            f"Player review {review_id} was {review.status} by {review.decided_by!r} already.",
            [FieldError("/decision", f"the review is {review.status}")],
        )
    player = locked_row(session, Player, review.player_id)
    assert player is not None  # a review's player is never deleted
    lists: list[str] = []
    if decision == "dismiss":
        if into is not None:
            raise InvalidInput(
                "A dismissal merges nobody.", [FieldError("/into", "only an accepted possible duplicate takes `into`")]
            )
        revisions.record(
            session,
            subject=revisions.PLAYER,
            subject_id=player.id,
            kind=revisions.REVIEW_DISMISSED,
            actor=actor,
            summary=f"{_described(review)} dismissed" + (f": {reason}" if reason else ""),
            previous=player_version(session, player),
        )
    elif review.kind == DETAILS:
        if into is not None:
            raise InvalidInput(
                "Accepting details merges nobody.", [FieldError("/into", "only a possible duplicate takes `into`")]
            )
        refuse_merged(player, "/")
        _apply(session, player, review, reason, actor)
    else:
        candidates = review.proposed["candidates"]
        if into is None or into not in candidates:
            raise InvalidInput(
                f"Accepting a possible duplicate merges the record into one of the candidates ({', '.join(candidates)}).",
                [FieldError("/into", f"give one of {', '.join(candidates)}")],
            )
        _, lists = merge_player(session, review.player_id, into, actor=actor)
    review.status = ACCEPTED if decision == "accept" else DISMISSED
    review.decided_by, review.decided_at, review.reason = actor, dt.datetime.now(dt.UTC), reason
    session.flush()
    return review, lists


def _apply(session: Session, player: Player, review: PlayerReview, reason: str | None, actor: str) -> None:
    """The accepted details, as the player's revision: a spelling given anew starts today and the
    one it replaces is kept (search still finds it); external ids are added to his."""
    before = player_version(session, player)
    proposed = review.proposed
    if any(field in proposed for field in ("name", "surname", "native_name")):
        keep_spelling(session, player, until=dt.datetime.now(dt.UTC).date() - dt.timedelta(days=1))
    for field, value in proposed.items():
        if field != "external_ids":
            setattr(player, field, value)
    session.flush()
    if "external_ids" in proposed:
        held = before["external_ids"]
        set_external_ids(session, player.id, sorted({*held, *proposed["external_ids"]}), "/")
    refresh_search_keys(session, [player.id])
    changed = ", ".join(f"{field} {before.get(field)!r} -> {value!r}" for field, value in proposed.items())
    revisions.record(
        session,
        subject=revisions.PLAYER,
        subject_id=player.id,
        kind=revisions.PLAYER_UPDATED,
        actor=actor,
        summary=f"{_described(review)} accepted: {changed}" + (f" ({reason})" if reason else ""),
        previous=before,
    )


def describe_review(review: PlayerReview) -> str:
    """What the review is about, in words: ``player 952: country CHN -> EST`` or ``player p9 may be 952``."""
    if review.kind == DETAILS:
        changes = "; ".join(f"{d['field']} {d['stored']!r} -> {d['given']!r}" for d in review.differences)
        return f"player {review.player_id}: {changes}"
    return f"player {review.player_id} may be {' or '.join(review.candidates)}"


def _described(review: PlayerReview) -> str:
    source = f"tournament {review.tournament_id}" if review.tournament_id else "a new player"
    what = "details" if review.kind == DETAILS else "possible duplicate of " + ", ".join(review.proposed["candidates"])
    return f"review {review.id} ({what}, from {source} by {review.actor!r})"


def _pending_of(session: Session, player_ids: Sequence[str]) -> dict[str, list[PlayerReview]]:
    waiting: dict[str, list[PlayerReview]] = {}
    for some in in_lists(list(player_ids)):
        for review in session.scalars(
            select(PlayerReview).where(PlayerReview.player_id.in_(some), PlayerReview.status == PENDING).order_by(PlayerReview.id)
        ):
            waiting.setdefault(review.player_id, []).append(review)
    return waiting


__all__ = ["decide", "describe_review", "get_review", "list_reviews", "queue_findings", "queue_possible_duplicates"]
