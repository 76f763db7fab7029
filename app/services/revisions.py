"""The audit trail: every change of a tournament or of a list's seeds and parameters, recorded in
the change's own transaction with the key that made it, a readable summary and the whole earlier
version (docs/decisions.md 7.13). Services call ``record`` after the change is applied; nothing
here commits."""

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, and_, exists, false, func, insert, or_, select
from sqlalchemy.orm import Session

from app.db import in_lists
from app.models import Game, RatingList, Revision, Tournament, TournamentPlayer, TournamentReview, TournamentStanding
from app.problems import NotFound
from app.schemas.tournaments import FLAT_CONDITIONS, STORED_FIELDS, TOURNAMENT_PLAYER_FIELDS, GameIn, TournamentIn
from app.services.scopes import Scope

TOURNAMENT, RATING_LIST = "tournament", "rating_list"
SUBMITTED, CORRECTED, WITHDRAWN, RESTORED = "submitted", "corrected", "withdrawn", "restored"
SEEDS_CHANGED, PARAMS_CHANGED, SETTINGS_CHANGED = "seeds_changed", "params_changed", "settings_changed"
PUBLISHED = "published"  # a publication of a list (app.services.publications)
CONFIRMED, REJECTED = "confirmed", "rejected"  # an officer's review of a tournament for a list (app.services.reviews)
# A change of a tournament refused because it was made against a version that is no longer the
# latest (If-Match, 412) or that does not allow it (409): written after the refused transaction
# rolled back, in its own, so that the audit shows every attempt (docs/decisions.md 7.32). It
# changes nothing, so it does not count as a version (``latest_version``).
REFUSED = "refused"
# A player's identity (app.services.players, app.services.player_directory).
PLAYER, RENAMED, MERGED, UNMERGED, PLAYER_UPDATED = "player", "renamed", "merged", "unmerged", "player_updated"
# A player created (by a submission, an import or POST /v1/players), and what a submission said of a
# stored player dismissed by an officer (app.services.player_reviews: nothing changed).
PLAYER_CREATED, REVIEW_DISMISSED = "player_created", "review_dismissed"
KINDS: tuple[str, ...] = (SUBMITTED, CORRECTED, WITHDRAWN, RESTORED, CONFIRMED, REJECTED, REFUSED)
KINDS += (SEEDS_CHANGED, PARAMS_CHANGED, SETTINGS_CHANGED, PUBLISHED, RENAMED, MERGED, UNMERGED, PLAYER_UPDATED)
KINDS += (PLAYER_CREATED, REVIEW_DISMISSED)

_TOURNAMENT_FIELDS = list(STORED_FIELDS)
_GAME_FIELDS = {"id": "game_id", "round": "round", "black": "black_id", "white": "white_id", "result": "result"}
_GAME_FIELDS |= {name: name for name in ("played", "date", "handicap", "board_size")}


def record(
    session: Session,
    *,
    subject: str,
    subject_id: str,
    kind: str,
    actor: str,
    summary: str,
    previous: dict[str, Any] | None,
    list_id: str | None = None,
) -> Revision:
    """Append the subject's next revision. Two changes of one subject at once are serialised by the
    subject's own row lock (the tournament's, the list's); the unique (subject, number) is the guard."""
    return record_many(session, [NewRevision(subject, subject_id, kind, actor, summary, previous, list_id)])[0]


@dataclass(frozen=True)
class NewRevision:
    subject: str
    subject_id: str
    kind: str
    actor: str
    summary: str
    previous: dict[str, Any] | None
    list_id: str | None = None


def record_many(session: Session, changes: Sequence[NewRevision]) -> list[Revision]:
    """``record`` for several changes (of one subject each, e.g. a batch of new tournaments): the
    subjects' last numbers read in one query, the revisions written in one flush."""
    last: dict[tuple[str, str], int] = {}
    for subject in sorted({change.subject for change in changes}):
        ids = sorted({change.subject_id for change in changes if change.subject == subject})
        for some in in_lists(ids):
            for subject_id, number in session.execute(
                select(Revision.subject_id, func.max(Revision.number))
                .where(Revision.subject == subject, Revision.subject_id.in_(some))
                .group_by(Revision.subject_id)
            ):
                last[subject, subject_id] = number
    at = dt.datetime.now(dt.UTC)
    recorded = []
    for change in changes:
        number = last.get((change.subject, change.subject_id), 0) + 1
        last[change.subject, change.subject_id] = number
        recorded.append(
            Revision(
                subject=change.subject,
                subject_id=change.subject_id,
                number=number,
                kind=change.kind,
                list_id=change.list_id,
                actor=change.actor,
                at=at,
                summary=change.summary,
                previous=change.previous,
            )
        )
    session.add_all(recorded)
    session.flush()
    return recorded


def record_created(session: Session, subject: str, subject_ids: Sequence[str], *, actor: str, summary: str) -> None:
    """The first revision of each of these new subjects (players an import creates by the
    thousand): one statement, its number 1, since nothing was recorded of a subject before it
    existed. A subject another transaction created at the same time collides on the unique
    (subject, subject_id, number): that transaction runs again (``app.transactions``)."""
    if not subject_ids:
        return
    at = dt.datetime.now(dt.UTC)
    rows = [
        {
            "subject": subject,
            "subject_id": subject_id,
            "number": 1,
            "kind": PLAYER_CREATED if subject == PLAYER else SUBMITTED,
            "list_id": None,
            "actor": actor,
            "at": at,
            "summary": summary,
            "previous": None,
        }
        for subject_id in subject_ids
    ]
    # Core's executemany, not the ORM's bulk insert: a large import creates tens of thousands.
    for start in range(0, len(rows), 1000):
        session.execute(insert(Revision.__table__), rows[start : start + 1000])


def revisions_of(session: Session, subject: str, subject_id: str, limit: int, offset: int) -> tuple[list[Revision], int]:
    """A subject's revisions, oldest first."""
    where = (Revision.subject == subject, Revision.subject_id == subject_id)
    total = session.scalar(select(func.count()).select_from(Revision).where(*where)) or 0
    rows = session.scalars(select(Revision).where(*where).order_by(Revision.number).limit(limit).offset(offset))
    return list(rows), total


def revision_of(session: Session, subject: str, subject_id: str, number: int) -> Revision:
    revision = session.scalar(
        select(Revision).where(Revision.subject == subject, Revision.subject_id == subject_id, Revision.number == number)
    )
    if revision is None:
        raise NotFound(f"The {subject.replace('_', ' ')} {subject_id!r} has no revision {number}.")
    return revision


def audit(
    session: Session,
    *,
    actor: str | None,
    list_id: str | None,
    kind: str | None,
    since: dt.date | None,
    until: dt.date | None,
    limit: int,
    offset: int,
    within: Scope | None = None,
) -> tuple[list[Revision], int]:
    """Every revision, newest first, filtered by key, list, kind and a range of days (UTC, inclusive);
    ``within``: a limited officer's scope (``app.services.scopes.audit_within``)."""
    conditions = []
    if within is not None:
        conditions.append(audit_within(within))
    if actor is not None:
        conditions.append(Revision.actor == actor)
    if list_id is not None:
        conditions.append(Revision.list_id == list_id)
    if kind is not None:
        conditions.append(Revision.kind == kind)
    if since is not None:
        conditions.append(Revision.at >= dt.datetime.combine(since, dt.time(), dt.UTC))
    if until is not None:
        conditions.append(Revision.at < dt.datetime.combine(until + dt.timedelta(days=1), dt.time(), dt.UTC))
    total = session.scalar(select(func.count()).select_from(Revision).where(*conditions)) or 0
    rows = session.scalars(select(Revision).where(*conditions).order_by(Revision.id.desc()).limit(limit).offset(offset))
    return list(rows), total


def audit_within(scope: Scope) -> ColumnElement[bool]:
    """The revisions a limited officer reads (docs/decisions.md 109): of its lists (their seeds, parameters, settings,
    publications and reviews), of the tournaments of its categories, and of the players who played or
    were declared at one of them."""
    categories = sorted(scope.all_categories)
    of_category = select(Tournament.id).where(Tournament.category.in_(categories))
    played = or_(
        exists().where(
            Game.tournament_id.in_(of_category), or_(Game.black_id == Revision.subject_id, Game.white_id == Revision.subject_id)
        ),
        exists().where(TournamentPlayer.tournament_id.in_(of_category), TournamentPlayer.player_id == Revision.subject_id),
    )
    own_lists = sorted(scope.lists) or [""]
    lists_of_category = select(RatingList.id).where(RatingList.category.in_(sorted(scope.categories)))
    return or_(
        Revision.list_id.in_(own_lists),
        Revision.list_id.in_(lists_of_category),
        and_(
            Revision.subject == RATING_LIST, or_(Revision.subject_id.in_(own_lists), Revision.subject_id.in_(lists_of_category))
        ),
        and_(Revision.subject == TOURNAMENT, Revision.subject_id.in_(of_category)),
        and_(Revision.subject == PLAYER, played) if categories else false(),
    )


def tournament_version(session: Session, tournament_id: str) -> dict[str, Any]:
    """The stored tournament whole, as a submission body (what a PUT would send to restore it), with
    its withdrawal: the form every earlier version of a tournament is kept in."""
    tournament = session.get(Tournament, tournament_id)
    if tournament is None:
        raise NotFound(f"Tournament {tournament_id!r} does not exist.")
    declared = session.scalars(
        select(TournamentPlayer).where(TournamentPlayer.tournament_id == tournament_id).order_by(TournamentPlayer.player_id)
    )
    games = session.scalars(select(Game).where(Game.tournament_id == tournament_id).order_by(Game.seq))
    standings = session.scalars(
        select(TournamentStanding).where(TournamentStanding.tournament_id == tournament_id).order_by(TournamentStanding.seq)
    )
    body = TournamentIn.model_validate(
        {
            "id": tournament.id,
            **{name: getattr(tournament, name) for name in _TOURNAMENT_FIELDS},
            "players": [
                {"id": entry.player_id, **{name: getattr(entry, name) for name in TOURNAMENT_PLAYER_FIELDS}} for entry in declared
            ],
            "games": [{name: getattr(game, column) for name, column in _GAME_FIELDS.items()} for game in games],
            "standings": [{"player": s.player_id, "place": s.place, "tie_breaks": s.tie_breaks} for s in standings],
        }
    ).model_dump(mode="json", exclude_none=True, exclude=set(FLAT_CONDITIONS))  # (kept in ``conditions`` alone)
    if not body["standings"]:
        del body["standings"]  # as versions kept before standings existed hold them
    withdrawn_at = tournament.withdrawn_at
    body["withdrawn"] = None if withdrawn_at is None else {"at": withdrawn_at.isoformat(), "reason": tournament.withdrawn_reason}
    reviews = session.execute(
        select(TournamentReview.list_id, TournamentReview.status)
        .where(TournamentReview.tournament_id == tournament_id)
        .order_by(TournamentReview.list_id)
    ).all()
    if reviews:  # only a tournament of a list that requires reviews has any
        body["reviews"] = {list_id: status for list_id, status in reviews}
    return body


def latest_version(session: Session, tournament_id: str) -> int:
    """The number of the tournament's latest revision that changed it (a refused attempt changed
    nothing): the version its ETag names, 0 for a tournament stored before revisions were kept."""
    number = session.scalar(
        select(func.max(Revision.number)).where(
            Revision.subject == TOURNAMENT, Revision.subject_id == tournament_id, Revision.kind != REFUSED
        )
    )
    return number or 0


def describe_submission(submission: TournamentIn) -> str:
    return (
        f"submitted {submission.name!r}, {submission.start}–{submission.end}, "
        f"{len(submission.players)} players, {len(submission.games)} games"
        + (f", standings of {len(submission.standings)} players" if submission.standings else "")
    )


def describe_correction(before: dict[str, Any], after: TournamentIn) -> str:
    """What a correction changed, in words: the fields with their old and new values, and the games
    added, removed or given another result (a game is known by its date, round and pair)."""
    new = after.model_dump(mode="json", exclude_none=True)
    changed = [
        f"{name} {_short(before.get(name))} → {_short(new.get(name))}"
        for name in _TOURNAMENT_FIELDS
        if before.get(name) != new.get(name)
    ]
    old_games = Counter(_game_key(game, str(before["end"])) for game in before.get("games", []))
    new_games = Counter(_game_key(game, str(new["end"])) for game in new.get("games", []))
    old_meetings = Counter(meeting for meeting, _ in old_games.elements())
    new_meetings = Counter(meeting for meeting, _ in new_games.elements())
    added = (new_meetings - old_meetings).total()
    removed = (old_meetings - new_meetings).total()
    other_outcome = (old_meetings & new_meetings).total() - (old_games & new_games).total()
    if added or removed or other_outcome:
        changed.append(f"games: {added} added, {removed} removed, {other_outcome} with another result")
    if before.get("players", []) != _declared(new.get("players", [])):
        changed.append("what was declared for its players")
    if before.get("standings", []) != new.get("standings", []):
        changed.append(f"standings: {len(before.get('standings', []))} → {len(new.get('standings', []))} players")
    return "corrected: " + ("; ".join(changed) if changed else "nothing changed")


def _declared(players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A submission's players as a kept version holds them: those with anything declared for them at
    the tournament, with only that, by id."""
    kept = [
        {"id": player["id"], **{name: player[name] for name in TOURNAMENT_PLAYER_FIELDS if player.get(name) is not None}}
        for player in players
    ]
    return sorted((player for player in kept if len(player) > 1), key=lambda player: player["id"])


def _game_key(game: dict[str, Any], end: str) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """A game's meeting (date, round, pair) and its outcome (result, played)."""
    return (game.get("date") or end, game.get("round"), game["black"], game["white"]), (game["result"], game.get("played", True))


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


assert set(_GAME_FIELDS) == set(GameIn.model_fields), "a game field is missing from the kept version"
