"""Submitting, correcting and reading tournaments. Services never commit: the caller's unit of
work (the request's session dependency, or the CLI's session scope) commits or rolls back, so a
rejected submission stores nothing."""

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, NamedTuple, overload

from sqlalchemy import Select, bindparam, delete, func, insert, select
from sqlalchemy.orm import Session

from app.db import in_lists, insert_rows, locked_row
from app.models import (
    Game,
    PlayedGames,
    Player,
    RatingList,
    Revision,
    Tournament,
    TournamentPlayer,
    TournamentReview,
    TournamentStanding,
)
from app.problems import Conflict, FieldError, InvalidInput, NotFound, PayloadTooLarge, PreconditionFailed, Problem
from app.recompute import staleness
from app.recompute.eligibility import Requirement, TournamentFields, reasons_not_met, requirements
from app.recompute.jobs import trigger_recompute
from app.schemas.common import Result
from app.schemas.tournaments import STORED_FIELDS, TOURNAMENT_PLAYER_FIELDS, TournamentIn, TournamentSubmitted
from app.services import reviews, revisions
from app.services.player_identity import (
    KnownPlayers,
    PlayerFindings,
    attach_external_ids,
    gives_external_ids,
    resolve_players,
)
from app.services.player_reviews import Queued, queue_findings
from app.services.players import create_players
from app.services.reviews import lists_rating
from app.services.tournament_reads import get_tournament_row, submitted_tournament
from app.snapshots import played_games


@dataclass(frozen=True)
class CategoryRange:
    board_sizes: frozenset[int]
    max_handicap: int


# Board sizes and handicaps each category admits. Go: 9/13/19 (Rivne Kd), stones beyond 9 exist in
# the Rivne text ("a handicap greater than 9"); shogi: 9x9, handicap levels up to ten pieces;
# renju and gomoku have no handicap, renju is played on 15x15, gomoku on 15x15 or 19x19.
CATEGORY_RANGES = {
    "renju": CategoryRange(frozenset({15}), 0),
    "gomoku": CategoryRange(frozenset({15, 19}), 0),
    "go": CategoryRange(frozenset({9, 13, 19}), 20),
    "shogi": CategoryRange(frozenset({9}), 10),
}


@dataclass(frozen=True)
class CheckedTournament:
    """A new tournament or a correction that passed every check (``check_new_tournament``): the
    submission with its players named as stored, and what it says of them (new players to create,
    other details of stored ones, possible duplicates)."""

    submission: TournamentIn
    players: PlayerFindings


@dataclass(frozen=True)
class SubmittedTournament:
    """A tournament stored by a submission or a correction, and the reviews of players it queued
    (or found waiting with the same proposal) for an officer."""

    tournament: Tournament
    player_reviews: list[Queued]
    # The players it created, in id order (a batch's: each by the first tournament naming him).
    created: tuple[str, ...] = ()


def submit(
    session: Session, submission: TournamentIn, *, actor: str, max_games: int, allow_duplicate: bool = False
) -> TournamentSubmitted:
    """``POST /v1/tournaments``: the tournament stored, the recomputes of the lists that rate it
    queued (or those lists marked stale), and the answer: the one use case the API calls."""
    stored = submit_tournament(session, submission, max_games=max_games, actor=actor, allow_duplicate=allow_duplicate)
    outcomes = queue_recomputes(session, submission)
    return submitted_tournament(session, submission.id, outcomes, stored.player_reviews)


def correct(
    session: Session,
    tournament_id: str,
    submission: TournamentIn,
    *,
    actor: str,
    max_games: int,
    if_match: frozenset[int] | None = None,
) -> TournamentSubmitted:
    """``PUT /v1/tournaments/{id}``: the tournament replaced, every list that rated it before or
    rates it now queued (or marked stale), and the answer."""
    rated_before = lists_rating(session, tournament_id)
    corrected = replace_tournament(session, tournament_id, submission, max_games=max_games, actor=actor, if_match=if_match)
    outcomes = queue_recomputes(session, submission, also_for=rated_before, change=revisions.CORRECTED)
    return submitted_tournament(session, tournament_id, outcomes, corrected.player_reviews)


def withdraw(
    session: Session, tournament_id: str, reason: str, *, actor: str, if_match: frozenset[int] | None = None
) -> TournamentSubmitted:
    """``DELETE /v1/tournaments/{id}``: withdrawn from every list that rated it, and the answer."""
    rated_before = lists_rating(session, tournament_id)
    tournament = withdraw_tournament(session, tournament_id, reason, actor=actor, if_match=if_match)
    outcomes = queue_recomputes(session, tournament, also_for=rated_before, change=revisions.WITHDRAWN)
    return submitted_tournament(session, tournament_id, outcomes)


def restore(session: Session, tournament_id: str, *, actor: str, if_match: frozenset[int] | None = None) -> TournamentSubmitted:
    """``POST /v1/tournaments/{id}/restore``: rated again by the lists that rate it, and the answer."""
    tournament = restore_tournament(session, tournament_id, actor=actor, if_match=if_match)
    outcomes = queue_recomputes(session, tournament, change=revisions.RESTORED)
    return submitted_tournament(session, tournament_id, outcomes)


def current_etag(session: Session, tournament_id: str) -> str:
    """The ETag of the tournament's version now (its latest revision), for If-Match."""
    return version_etag(revisions.latest_version(session, tournament_id))


def submit_tournament(
    session: Session,
    submission: TournamentIn,
    *,
    max_games: int,
    actor: str,
    allow_duplicate: bool = False,
    find_duplicates: bool = True,
) -> SubmittedTournament:
    """Store a new tournament with its players and games, all or nothing, and its first revision.
    One whose games repeat a stored tournament's is refused unless the submitter says it is intended.
    The two steps a batch of new tournaments takes (the import's), with a batch of one."""
    if session.get(Tournament, submission.id) is not None:
        raise Conflict(
            f"Tournament {submission.id!r} already exists; use PUT /v1/tournaments/{submission.id} to correct it.",
            [FieldError("/id", "a tournament with this id already exists")],
        )
    checked = check_new_tournament(
        session, submission, max_games=max_games, allow_duplicate=allow_duplicate, find_duplicates=find_duplicates
    )
    return store_new_tournaments(session, [checked], actor=actor)[0]


def check_new_tournament(
    session: Session,
    submission: TournamentIn,
    *,
    max_games: int,
    allow_duplicate: bool = False,
    pending: Sequence[TournamentIn] = (),
    find_duplicates: bool = True,
    known: KnownPlayers | None = None,
) -> CheckedTournament:
    """The checks a new tournament passes before anything of it is stored (a Problem otherwise); the
    submission with its players named as stored, holding them against a merge until the transaction
    ends. ``pending``: new tournaments checked before it in the same batch and not stored yet, whose
    players count as stored and whose games as stored games (a batch holds no tournament matched by
    external id or name: see ``stored_alone``); as a ``PendingTournaments``, a small tournament's
    repeat among them is found by one look-up. ``find_duplicates`` False: its new players' namesakes
    are not looked up (an import looks up all its new players' at its end); ``known``: its batch's
    players' identity fields, read at once."""
    resolved = resolve_players(session, submission, hold=True, pending=pending, find_duplicates=find_duplicates, known=known)
    _validate(session, resolved.submission, max_games=max_games, pending=pending)
    if not allow_duplicate:
        _refuse_a_repeat(session, resolved.submission, pending)
    return CheckedTournament(resolved.submission, resolved.players)


def check_what_if(session: Session, submission: TournamentIn, *, max_games: int) -> TournamentIn:
    """A tournament rated in memory (``app.services.what_if``) passes the checks a submission or a
    correction passes, with its players resolved the same way (external ids, merged records, ids
    whose stored name is another's), and is returned as a submission would store it; nothing is
    held, since nothing is stored."""
    resolved = resolve_players(session, submission)
    _validate(session, resolved.submission, max_games=max_games)
    return resolved.submission


def stored_alone(submission: TournamentIn) -> bool:
    """Whether a new tournament must be stored before the next one is checked, never batched with
    others: one whose players are matched to stored ones by external id (an EGF PIN), which a
    tournament stored before it in the same batch could hold."""
    return gives_external_ids(submission)


def store_new_tournaments(
    session: Session, checked: Sequence[CheckedTournament], *, actor: str, search_terms_later: bool = False
) -> list[SubmittedTournament]:
    """Store checked new tournaments (``check_new_tournament``, in this order): their new players
    (one insert, later tournaments' fields last) with their external ids, games, declared entries
    and standings, each tournament's reviews, its first revision and the reviews of players it
    queues; a statement of each kind for the whole batch. ``search_terms_later``: an import's
    (``create_players``)."""
    submissions = [one.submission for one in checked]
    new = frozenset().union(*(one.players.new for one in checked))
    create_players(
        session,
        [player for submission in submissions for player in submission.players],
        new,
        actor=actor,
        summary=f"created by the submission of tournament {submissions[0].id}"
        if len(submissions) == 1
        else "created by an import",
        search_terms_later=search_terms_later,
    )
    for one in checked:
        attach_external_ids(session, one.submission, one.players.new)
    tournaments = [Tournament(id=submission.id, **_tournament_fields(submission)) for submission in submissions]
    session.add_all(tournaments)
    session.flush()
    _insert_games_of(session, submissions)
    _insert_tournament_players(session, submissions)
    _insert_standings(session, submissions)
    under_review = reviews.open_reviews_of(session, tournaments)
    revisions.record_many(
        session,
        [
            revisions.NewRevision(
                subject=revisions.TOURNAMENT,
                subject_id=submission.id,
                kind=revisions.SUBMITTED,
                actor=actor,
                summary=revisions.describe_submission(submission) + _awaiting(under_review[submission.id]),
                previous=None,
            )
            for submission in submissions
        ],
    )
    created_by: dict[str, list[str]] = {}
    for one in checked:
        for player_id in sorted(one.players.new):
            if player_id in new:
                created_by.setdefault(one.submission.id, []).append(player_id)
                new -= {player_id}
    return [
        SubmittedTournament(
            tournament,
            queue_findings(session, one.players, tournament_id=tournament.id, actor=actor),
            tuple(created_by.get(tournament.id, ())),
        )
        for tournament, one in zip(tournaments, checked, strict=True)
    ]


def replace_tournament(
    session: Session,
    tournament_id: str,
    submission: TournamentIn,
    *,
    max_games: int,
    actor: str,
    if_match: frozenset[int] | None = None,
    find_duplicates: bool = True,
) -> SubmittedTournament:
    """A correction: the tournament's fields and its whole list of games are replaced; the revision
    keeps the version it replaced. A withdrawn tournament stays withdrawn. Its players are resolved,
    created and reviewed as a submission's (``find_duplicates``: ``submit_tournament``'s)."""
    if submission.id != tournament_id:
        raise InvalidInput(
            "The body's id must be the id in the path.",
            [FieldError("/id", f"expected {tournament_id!r}, got {submission.id!r}")],
        )
    tournament = locked_row(session, Tournament, tournament_id)
    if tournament is None:
        raise NotFound(f"Tournament {tournament_id!r} does not exist; submit it with POST /v1/tournaments.")
    check_version(session, tournament_id, if_match)
    resolved = resolve_players(session, submission, hold=True, find_duplicates=find_duplicates)
    submission = resolved.submission
    _validate(session, submission, max_games=max_games)
    previous = revisions.tournament_version(session, tournament_id)
    create_players(
        session,
        submission.players,
        resolved.players.new,
        actor=actor,
        summary=f"created by the correction of tournament {tournament_id}",
    )
    attach_external_ids(session, submission, resolved.players.new)
    for field, value in _tournament_fields(submission).items():
        setattr(tournament, field, value)
    session.execute(delete(Game).where(Game.tournament_id == tournament_id))
    session.execute(delete(PlayedGames).where(PlayedGames.tournament_id == tournament_id))
    session.execute(delete(TournamentPlayer).where(TournamentPlayer.tournament_id == tournament_id))
    session.execute(delete(TournamentStanding).where(TournamentStanding.tournament_id == tournament_id))
    _insert_games(session, submission)
    _insert_tournament_players(session, [submission])
    _insert_standings(session, [submission])
    session.flush()
    # A corrected tournament is a version no officer has seen: under review again (decisions 7.30).
    under_review = reviews.open_reviews(session, tournament)
    revisions.record(
        session,
        subject=revisions.TOURNAMENT,
        subject_id=tournament_id,
        kind=revisions.CORRECTED,
        actor=actor,
        summary=revisions.describe_correction(previous, submission) + _awaiting(under_review),
        previous=previous,
    )
    return SubmittedTournament(
        tournament,
        queue_findings(session, resolved.players, tournament_id=tournament_id, actor=actor),
        tuple(sorted(resolved.players.new)),
    )


def _awaiting(under_review: dict[str, str]) -> str:
    return f"; awaiting review by {', '.join(sorted(under_review))}" if under_review else ""


def check_version(session: Session, tournament_id: str, expected: frozenset[int] | None) -> None:
    """Refuse a change made against another version than the tournament's latest (RFC 9110 13.1.1,
    If-Match: a 412), once the change holds the tournament's row lock, so that of two changes sent
    against the same version exactly one is made. ``expected``: the versions If-Match names (None:
    no If-Match, or ``*``; a tournament that does not exist is the service's 404)."""
    if expected is None or session.get(Tournament, tournament_id) is None:
        return
    current = revisions.latest_version(session, tournament_id)
    if current not in expected:
        latest = session.scalar(
            select(Revision).where(
                Revision.subject == revisions.TOURNAMENT, Revision.subject_id == tournament_id, Revision.number == current
            )
        )
        since = f": {latest.kind} by {latest.actor!r} at {latest.at:%Y-%m-%d %H:%M:%S} UTC ({latest.summary})" if latest else ""
        raise PreconditionFailed(
            f"Tournament {tournament_id!r} has changed since the version If-Match names; its version now is "
            f"{version_etag(current)}{since}. Read it again (GET /v1/tournaments/{tournament_id}) and decide anew.",
            [FieldError("header:If-Match", f"the tournament's version is {version_etag(current)}")],
        )


def version_etag(number: int) -> str:
    """The strong ETag of a tournament's version (its latest revision's number)."""
    return f'"v{number}"'


def versions_of(if_match: str | None) -> frozenset[int] | None:
    """The versions an If-Match header names (None: no header, or ``*``, any version). A weak tag
    never matches (RFC 9110 13.1.1 compares strongly) and an unreadable one matches nothing."""
    if if_match is None or if_match.strip() == "*":
        return None
    found = set()
    for tag in if_match.split(","):
        tag = tag.strip()
        if tag.startswith('"v') and tag.endswith('"') and tag[2:-1].isdigit() and len(tag) < 20:
            found.add(int(tag[2:-1]))
    return frozenset(found)


def withdraw_tournament(
    session: Session, tournament_id: str, reason: str, *, actor: str, if_match: frozenset[int] | None = None
) -> Tournament:
    """Withdraw a stored tournament: it stays stored and readable, marked with when and why, and no
    list rates it from its next recompute on."""
    tournament = _locked(session, tournament_id)
    check_version(session, tournament_id, if_match)
    if tournament.withdrawn_at is not None:
        raise Conflict(
            f"Tournament {tournament_id!r} was withdrawn already on {tournament.withdrawn_at:%Y-%m-%d}: {tournament.withdrawn_reason}"
        )
    _set_withdrawal(session, tournament, datetime.now(UTC), reason, actor=actor)
    return tournament


def restore_tournament(session: Session, tournament_id: str, *, actor: str, if_match: frozenset[int] | None = None) -> Tournament:
    """Undo a withdrawal: the lists rate the tournament again from their next recompute on."""
    tournament = _locked(session, tournament_id)
    check_version(session, tournament_id, if_match)
    if tournament.withdrawn_at is None:
        raise Conflict(f"Tournament {tournament_id!r} is not withdrawn; there is nothing to restore.")
    _set_withdrawal(session, tournament, None, None, actor=actor)
    return tournament


def _set_withdrawal(session: Session, tournament: Tournament, at: datetime | None, reason: str | None, *, actor: str) -> None:
    """Withdraw (a time and a reason) or restore (none) the locked tournament, and record the
    revision with the version it replaced."""
    previous = revisions.tournament_version(session, tournament.id)
    tournament.withdrawn_at, tournament.withdrawn_reason = at, reason
    session.flush()
    if at is not None:
        kind, summary = revisions.WITHDRAWN, f"withdrawn: {reason}"
    else:
        withdrawn = previous["withdrawn"]
        kind, summary = revisions.RESTORED, f"restored (withdrawn on {withdrawn['at'][:10]}: {withdrawn['reason']})"
    revisions.record(
        session,
        subject=revisions.TOURNAMENT,
        subject_id=tournament.id,
        kind=kind,
        actor=actor,
        summary=summary,
        previous=previous,
    )


def record_refused(session: Session, tournament_id: str, attempt: str, refusal: Problem, *, actor: str) -> None:
    """Record a refused change of the tournament (a 409 or 412) as a ``refused`` revision, in a
    transaction of its own after the refused one rolled back (docs/decisions.md 7.32): the audit
    shows every attempt, in the order each was settled. ``attempt``: "correction", "withdrawal"…"""
    tournament = locked_row(session, Tournament, tournament_id)
    if tournament is None:
        return
    revisions.record(
        session,
        subject=revisions.TOURNAMENT,
        subject_id=tournament_id,
        kind=revisions.REFUSED,
        actor=actor,
        summary=f"{attempt} refused ({refusal.status}): {refusal.detail}",
        previous=revisions.tournament_version(session, tournament_id),
    )


def _locked(session: Session, tournament_id: str) -> Tournament:
    """A correction, withdrawal or restore of one tournament at once wait for each other (the row
    lock), so each reads the version the other left and records it as the one it replaced."""
    return get_tournament_row(session, tournament_id, lock=True)


@dataclass(frozen=True)
class ListOutcome:
    """What one rating list of the tournament's category does with it."""

    list_id: str
    rated: bool
    reason: str | None
    job_id: int | None
    review: str | None = None  # the status of the tournament's review by the list, if it requires one
    no_recompute_reason: str | None = None  # why ``job_id`` is None (one of the sentences below)
    went_stale: bool = False  # its ratings change, no recompute was queued: marked stale (NOT_AUTOMATIC)


# Why a list queued no recompute for a change of a tournament, in the answer's words (ListRating).
NOT_RATED = "the list does not rate the tournament, and did not before the change: its ratings do not change"
AWAITING_REVIEW = (
    "the tournament waits for the review of an officer of the list, whose confirmation queues its recompute "
    "(POST /v1/rating-lists/{list_id}/reviews/{tournament_id})"
)
NOT_AUTOMATIC = (
    "the list does not recompute itself (auto_recompute false): it shows the tournament as it was until an "
    "officer recomputes it (POST /v1/rating-lists/{list_id}/recompute), and is stale until then (its stale_since)"
)


class Changed(NamedTuple):
    """A stored tournament whose change the lists are told of (``queue_recomputes_of``): the lists
    that rated it before the change (a correction, a withdrawal), and the change in a word, as its
    revision names it ("submitted", "corrected", ...)."""

    tournament: TournamentFields
    rated_before: frozenset[str] = frozenset()
    change: str = revisions.SUBMITTED


def queue_recomputes(
    session: Session,
    submission: TournamentFields,
    *,
    also_for: frozenset[str] = frozenset(),
    change: str = revisions.SUBMITTED,
) -> list[ListOutcome]:
    """Say, for every list of the submission's category, whether it rates the tournament, and queue
    a recompute of each one that does and recomputes itself (``auto_recompute``), in the caller's
    transaction: the job exists exactly when the tournament does. A queued job of the list absorbs
    the request (the partial unique index on queued jobs), so a burst of submissions is one job. A
    list whose ratings the change moves and that does not recompute itself is marked stale instead
    (``app.recompute.staleness``); each outcome says why no job was queued, when none was.
    ``also_for``: lists that rated the tournament before a correction and must drop it now;
    ``change``: what happened to it, in a word ("corrected")."""
    return queue_recomputes_of(session, [Changed(submission, also_for, change)])[0]


def queue_recomputes_of(session: Session, submissions: Sequence[Changed]) -> list[list[ListOutcome]]:
    """``queue_recomputes`` for several stored tournaments at once: the lists and the reviews read
    once, each list's recompute queued once (the queue coalesces them), each list that goes stale
    marked once, from the first of them that moves it."""
    under_review: dict[str, dict[str, str]] = {}
    for some in in_lists(sorted({changed.tournament.id for changed in submissions})):
        for tournament_id, list_id, status in session.execute(
            select(TournamentReview.tournament_id, TournamentReview.list_id, TournamentReview.status).where(
                TournamentReview.tournament_id.in_(some)
            )
        ):
            under_review.setdefault(tournament_id, {})[list_id] = status
    categories = sorted({changed.tournament.category for changed in submissions})
    lists = list(session.scalars(select(RatingList).where(RatingList.category.in_(categories)).order_by(RatingList.id)))
    jobs: dict[str, int] = {}
    stale: dict[str, list[Changed]] = {}  # by list: the changes that move it with no job queued
    # Each list's requirements under each review status, built once for the batch (they are SQL too).
    rules: dict[tuple[str, str | None], list[Requirement]] = {}
    outcomes = []
    for changed in submissions:
        submission, also_for = changed.tournament, changed.rated_before
        reviewed = under_review.get(submission.id, {})
        of_submission = []
        for rating_list in lists:
            if rating_list.category != submission.category:
                continue
            review = reviewed.get(rating_list.id)
            if (rating_list.id, review) not in rules:
                rules[rating_list.id, review] = requirements(rating_list, review)
            reasons = reasons_not_met(rules[rating_list.id, review], submission)
            job_id, why_not, went_stale = None, None, False
            if not reasons or rating_list.id in also_for:  # its ratings change
                if rating_list.auto_recompute:
                    if rating_list.id not in jobs:
                        jobs[rating_list.id] = trigger_recompute(session, rating_list.id).id
                    job_id = jobs[rating_list.id]
                else:
                    stale.setdefault(rating_list.id, []).append(changed)
                    why_not, went_stale = NOT_AUTOMATIC.format(list_id=rating_list.id), True
            elif review == reviews.PENDING:
                why_not = AWAITING_REVIEW.format(list_id=rating_list.id, tournament_id=submission.id)
            else:
                why_not = NOT_RATED
            of_submission.append(
                ListOutcome(rating_list.id, not reasons, "; ".join(reasons) or None, job_id, review, why_not, went_stale)
            )
        outcomes.append(of_submission)
    for list_id, changes in sorted(stale.items()):  # (in id order: the rows are locked in one order)
        staleness.mark(session, [list_id], _changed_words(changes))
    return outcomes


def _changed_words(changes: Sequence[Changed]) -> str:
    """What made a list stale, in a few words: the first change, and how many came with it."""
    first = changes[0]
    words = f"tournament {first.tournament.id} {first.change}"
    return words + (f", and {len(changes) - 1} more tournaments" if len(changes) > 1 else "")


def stores_same(session: Session, submission: TournamentIn) -> bool:
    """Whether the stored tournament already has exactly this submission's fields and games."""
    tournament = session.get(Tournament, submission.id)
    if tournament is None:
        return False
    submission = resolve_players(session, submission).submission
    stored_fields = {field: getattr(tournament, field) for field in _tournament_fields(submission)}
    if stored_fields != _tournament_fields(submission):
        return False
    columns = ("seq", "game_id", "round", "black_id", "white_id", "result", "played", "date", "handicap", "board_size")
    stored_games = session.execute(
        select(*(getattr(Game, c) for c in columns)).where(Game.tournament_id == submission.id).order_by(Game.seq)
    ).all()
    if [tuple(row) for row in stored_games] != [tuple(row[c] for c in columns) for row in _game_rows(submission)]:
        return False
    entry_columns = ("player_id", *TOURNAMENT_PLAYER_FIELDS)
    stored_entries = session.execute(
        select(*(getattr(TournamentPlayer, c) for c in entry_columns))
        .where(TournamentPlayer.tournament_id == submission.id)
        .order_by(TournamentPlayer.player_id)
    ).all()
    given_entries = sorted(tuple(row[c] for c in entry_columns) for row in _tournament_player_rows(submission))
    if [tuple(row) for row in stored_entries] != given_entries:
        return False
    standing_columns = ("seq", "player_id", "place", "tie_breaks")
    stored_standings = session.execute(
        select(*(getattr(TournamentStanding, c) for c in standing_columns))
        .where(TournamentStanding.tournament_id == submission.id)
        .order_by(TournamentStanding.seq)
    ).all()
    return [tuple(row) for row in stored_standings] == [
        tuple(row[c] for c in standing_columns) for row in _standing_rows(submission)
    ]


# A submission repeats a stored tournament when at least this many of its played games, and at least
# this share of them, are the stored one's: same day, same black and white players, same result
# (docs/decisions.md 7.17). Two real tournaments of the same players on the same days (a team event
# beside an individual one) share few games; a file imported twice under two ids shares all.
# A smaller one (one or two played games) repeats a stored tournament whose played games are exactly
# its own (decision 107): a share of two games tells nothing, the same whole tournament does.
REPEAT_MIN_GAMES = 3
REPEAT_MIN_SHARE = 0.5


class RepeatedTournament(Conflict):
    """The submission's games repeat a stored tournament's."""


class PendingTournaments(Sequence[TournamentIn]):
    """New tournaments checked and not stored yet (an import's batch), in the order checked: what the
    checks of the next one count as stored (``check_new_tournament``). The small ones are also kept by
    their played games, so that each small tournament of a batch of thousands is compared with the
    others by one look-up (``_small_repeat``), not a pass over all of them."""

    def __init__(self) -> None:
        self.checked: list[CheckedTournament] = []
        self._checked: list[TournamentIn] = []
        self._small: dict[tuple[str, tuple[tuple[tuple[Any, ...], int], ...]], str] = {}

    def append(self, checked: CheckedTournament) -> None:
        """One more checked tournament, with what it says of its players (stored with it)."""
        submission = checked.submission
        self.checked.append(checked)
        self._checked.append(submission)
        key = _small_key(submission)
        if key is not None:
            self._small.setdefault(key, submission.id)

    def small_repeated(self, submission: TournamentIn) -> str | None:
        """The id of a pending tournament whose played games are exactly the small submission's."""
        key = _small_key(submission)
        return self._small.get(key) if key is not None else None

    @overload
    def __getitem__(self, index: int) -> TournamentIn: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[TournamentIn]: ...

    def __getitem__(self, index: int | slice) -> TournamentIn | Sequence[TournamentIn]:
        return self._checked[index]

    def __len__(self) -> int:
        return len(self._checked)


def _small_key(submission: TournamentIn) -> tuple[str, tuple[tuple[tuple[Any, ...], int], ...]] | None:
    """A small tournament's category and played games in a canonical order (None for another):
    equal exactly when both are of one category and their played games are the same multiset, which
    puts them on overlapping days (each game's day is within its tournament's)."""
    played = submission.played_games
    if not 0 < played.total() < REPEAT_MIN_GAMES:
        return None
    return submission.category, tuple(sorted(played.items()))


def _refuse_a_repeat(session: Session, submission: TournamentIn, pending: Sequence[TournamentIn] = ()) -> None:
    played = submission.played_games
    total = sum(played.values())
    if total == 0:
        return  # nothing played, nothing to repeat
    if total < REPEAT_MIN_GAMES:
        _refuse_a_small_repeat(session, submission, pending)
        return
    least = max(REPEAT_MIN_GAMES, REPEAT_MIN_SHARE * total)
    stored: dict[str, Counter[tuple[Any, ...]]] = {}
    # Without the ORM's execution (see merged_among): games are written by Core statements, and the
    # tournaments a batch adds are flushed when stored (store_new_tournaments).
    for tournament_id, *game in session.connection().execute(
        _OVERLAPPING_STORED, {"category": submission.category, "start": submission.start, "end": submission.end}
    ):
        stored.setdefault(tournament_id, Counter())[tuple(game)] += 1
    for earlier in pending:
        if earlier.category == submission.category and earlier.start <= submission.end and earlier.end >= submission.start:
            stored[earlier.id] = earlier.played_games
    for tournament_id, games in sorted(stored.items()):
        # A tournament with fewer played games than ``least`` cannot share that many.
        if games.total() < least:
            continue
        repeated = _shared_games(played, games)
        if repeated >= least:
            raise _repeat_of(tournament_id, repeated, total)


def _refuse_a_small_repeat(session: Session, submission: TournamentIn, pending: Sequence[TournamentIn]) -> None:
    """A submission of one or two played games repeats a stored (or pending) tournament of its
    category whose played games are exactly its own. The stored candidates are those of overlapping
    days with as many played games, which the length of their stored value says without decoding it
    (13 bytes a game: ``app.snapshots.played_games``); each is then compared game by game."""
    played = submission.played_games
    total = played.total()
    if isinstance(pending, PendingTournaments):
        earlier = pending.small_repeated(submission)
    else:
        key = _small_key(submission)
        earlier = next((other.id for other in pending if _small_key(other) == key), None)
    if earlier is not None:
        raise _repeat_of(earlier, total, total)
    for tournament_id, players, games in session.connection().execute(
        _SAME_SIZED_STORED,
        {
            "category": submission.category,
            "start": submission.start,
            "end": submission.end,
            "size": total * played_games.RECORD.itemsize,
        },
    ):
        if Counter(played_games.games_of(players, games)) == played:
            raise _repeat_of(tournament_id, total, total)


def _repeat_of(tournament_id: str, repeated: int, total: int) -> RepeatedTournament:
    return RepeatedTournament(
        f"{repeated} of the submission's {total} played games repeat stored tournament {tournament_id!r} "
        f"(same day, players and result): it looks submitted already. Correct that one with "
        f"PUT /v1/tournaments/{tournament_id}, or send ?duplicate=intended if both are real.",
        [FieldError("/games", f"{repeated} of {total} played games are those of tournament {tournament_id!r}")],
    )


def _shared_games(one: Counter[tuple[Any, ...]], other: Counter[tuple[Any, ...]]) -> int:
    """How many games the two have in common, each as often as both have it (``(one & other).total()``
    without building that Counter: an import compares each tournament with those of the same days)."""
    smaller, larger = (one, other) if len(one) <= len(other) else (other, one)
    return sum(min(count, larger[game]) for game, count in smaller.items() if game in larger)


def overlapping_stored(category: str, start: date, end: date) -> Select[str, date, str, str, Result]:
    """The played games (tournament, day, black, white, result) of the stored tournaments of the
    category that overlap the days from ``start`` to ``end``: a range of the (category, end) index
    (migration 0027), those ending on or after ``start``, filtered by their own start."""
    return _OVERLAPPING_STORED.params(category=category, start=start, end=end)


# ``overlapping_stored`` with its values as parameters: built once, not for each tournament checked
# (an import checks thousands), so SQLAlchemy finds its compiled form without building it again.
_OVERLAPPING_STORED = (
    select(Game.tournament_id, Game.date, Game.black_id, Game.white_id, Game.result)
    .join(Tournament, Tournament.id == Game.tournament_id)
    .where(
        Tournament.category == bindparam("category"),
        Tournament.end >= bindparam("start"),
        Tournament.start <= bindparam("end"),
        Tournament.withdrawn_at.is_(None),
        Game.played.is_(True),
    )
)
# The played games' stored values of the category's tournaments of overlapping days that hold
# ``size`` bytes of them: the candidates a small submission may repeat (``_refuse_a_small_repeat``).
_SAME_SIZED_STORED = (
    select(PlayedGames.tournament_id, PlayedGames.players, PlayedGames.games)
    .join(Tournament, Tournament.id == PlayedGames.tournament_id)
    .where(
        Tournament.category == bindparam("category"),
        Tournament.end >= bindparam("start"),
        Tournament.start <= bindparam("end"),
        Tournament.withdrawn_at.is_(None),
        func.length(PlayedGames.games) == bindparam("size"),
    )
    .order_by(PlayedGames.tournament_id)
)


def _insert_tournament_players(session: Session, submissions: Sequence[TournamentIn]) -> None:
    rows = [row for submission in submissions for row in _tournament_player_rows(submission)]
    if rows:
        session.execute(insert(TournamentPlayer), rows)


def _tournament_player_rows(submission: TournamentIn) -> list[dict[str, Any]]:
    """A row for each player with anything declared for him at this tournament."""
    rows = []
    for player in submission.players:
        declared = {field: getattr(player, field) for field in TOURNAMENT_PLAYER_FIELDS}
        if any(value is not None for value in declared.values()):
            rows.append({"tournament_id": submission.id, "player_id": player.id, **declared})
    return rows


def _insert_standings(session: Session, submissions: Sequence[TournamentIn]) -> None:
    rows = [row for submission in submissions for row in _standing_rows(submission)]
    if rows:
        session.execute(insert(TournamentStanding), rows)


def _standing_rows(submission: TournamentIn) -> list[dict[str, Any]]:
    return [
        {
            "tournament_id": submission.id,
            "player_id": standing.player,
            "seq": seq,
            "place": standing.place,
            "tie_breaks": [tie_break.model_dump() for tie_break in standing.tie_breaks],
        }
        for seq, standing in enumerate(submission.standings)
    ]


def _tournament_fields(submission: TournamentIn) -> dict[str, Any]:
    return submission.model_dump(include=set(STORED_FIELDS))


def _insert_games(session: Session, submission: TournamentIn) -> None:
    _insert_games_of(session, [submission])


# The date last: the bulk path takes it as ISO text, the rest as the rows hold them.
GAME_COLUMNS = (
    "tournament_id",
    "seq",
    "game_id",
    "round",
    "black_id",
    "white_id",
    "result",
    "played",
    "handicap",
    "board_size",
    "date",
)


def _insert_games_of(session: Session, submissions: Sequence[TournamentIn]) -> None:
    """The tournaments' game rows (``_game_tuples``) by the driver's bulk path (COPY on
    PostgreSQL), the dates as ISO text, which a million games' parameters go through faster than
    SQLAlchemy's per-value processing; and the same games as each tournament's one value the
    recompute reads (``app.snapshots.played_games``): written together, so that a value never differs
    from its rows."""
    rows: list[tuple[Any, ...]] = []
    values: list[dict[str, Any]] = []
    for submission in submissions:
        start = len(rows)
        rows += _game_tuples(submission)
        value = played_games.value_of_columns(submission.id, rows[start:], black=4, white=5, result=6, played=7, day=10)
        if value is not None:
            values.append(value)
    insert_rows(session, Game.__table__, GAME_COLUMNS, rows)
    played_games.store_values(session, values)


def _game_tuples(submission: TournamentIn) -> list[tuple[Any, ...]]:
    """The tournament's game rows as stored, in ``GAME_COLUMNS`` order, the date as ISO text: a game
    without a board size has the tournament's, one without a date its end (RIF 2021 #8.4)."""
    end = submission.end.isoformat()
    return [
        (
            submission.id,
            seq,
            game.id,
            game.round,
            game.black,
            game.white,
            game.result,
            game.played,
            game.handicap,
            game.board_size if game.board_size is not None else submission.board_size,
            end if game.date is None else game.date.isoformat(),
        )
        for seq, game in enumerate(submission.games)
    ]


def _game_rows(submission: TournamentIn) -> list[dict[str, Any]]:
    """``_game_tuples`` by column name, the date as a date (as the ORM reads a stored game)."""
    return [dict(zip(GAME_COLUMNS, (*row[:-1], date.fromisoformat(row[-1])), strict=True)) for row in _game_tuples(submission)]


def stored_rows(submission: TournamentIn) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """What storing the submission would write, without writing it: the tournament's fields, the rows
    of what its players declared, and its game rows (POST /v1/rating-lists/{list_id}/what-if)."""
    return _tournament_fields(submission), _tournament_player_rows(submission), _game_rows(submission)


def _validate(session: Session, submission: TournamentIn, *, max_games: int, pending: Sequence[TournamentIn] = ()) -> None:
    if len(submission.games) > max_games:
        raise PayloadTooLarge(
            f"The tournament has {len(submission.games)} games; at most {max_games} are accepted in one submission.",
            [FieldError("/games", f"more than {max_games} games")],
        )
    errors: list[FieldError] = []
    if submission.end < submission.start:
        errors.append(FieldError("/end", f"end {submission.end} is before start {submission.start}"))

    category = CATEGORY_RANGES[submission.category]
    if submission.board_size is not None and submission.board_size not in category.board_sizes:
        errors.append(FieldError("/board_size", _board_message(submission.category, submission.board_size)))

    inline_ids = Counter(player.id for player in submission.players)
    for index, player in enumerate(submission.players):
        if inline_ids[player.id] > 1:
            errors.append(FieldError(f"/players/{index}/id", f"player {player.id!r} is given more than once"))

    known = _known_players(session, submission, set(inline_ids), pending)
    errors.extend(_player_reference_errors(known, [(game.black, game.white) for game in submission.games]))
    game_ids = Counter(game.id for game in submission.games if game.id is not None)
    seen_game_ids: set[str] = set()
    for index, game in enumerate(submission.games):
        where = f"/games/{index}"
        if game.id is not None and game_ids[game.id] > 1:
            if game.id in seen_game_ids:
                errors.append(FieldError(f"{where}/id", f"game id {game.id!r} is used by another game of this tournament"))
            seen_game_ids.add(game.id)
        if game.date is not None and not submission.start <= game.date <= submission.end:
            errors.append(
                FieldError(f"{where}/date", f"{game.date} is outside the tournament ({submission.start} to {submission.end})")
            )
        if game.handicap is not None and game.handicap > category.max_handicap:
            errors.append(
                FieldError(
                    f"{where}/handicap",
                    f"handicap {game.handicap} is outside 0..{category.max_handicap} for {submission.category}",
                )
            )
        if game.board_size is not None and game.board_size not in category.board_sizes:
            errors.append(FieldError(f"{where}/board_size", _board_message(submission.category, game.board_size)))
    errors.extend(_standings_errors(submission))
    if errors:
        raise InvalidInput(f"The tournament {submission.id!r} has {len(errors)} invalid field(s); nothing was stored.", errors)


def reference_errors_of_refused_body(session: Session, body: Any, *, max_games: int) -> list[FieldError]:
    """The players a tournament body's games name that are neither in its players nor stored, and a
    player against himself, read from the body as sent when its schema refused it, so that one 422
    names every error of the body (issue 44 item 4): what the schema refused is said by its own
    errors, and a side that is not an id is left to them. A body of more games than a submission may
    hold is refused for that alone."""
    if not isinstance(body, Mapping) or not isinstance(body.get("games"), list) or len(body["games"]) > max_games:
        return []
    players = body.get("players")
    given = players if isinstance(players, list) else []
    inline = {player["id"] for player in given if isinstance(player, Mapping) and isinstance(player.get("id"), str)}
    sides = [(game.get("black"), game.get("white")) if isinstance(game, Mapping) else (None, None) for game in body["games"]]
    named = {player_id for pair in sides for player_id in pair if isinstance(player_id, str)} - inline
    return _player_reference_errors(inline | _stored_player_ids(session, named), sides)


def _player_reference_errors(known: set[str], sides: Sequence[tuple[Any, Any]]) -> list[FieldError]:
    """Each game's black and white (in the games' order) a player the submission may name, and two
    players; a side that is no id (a refused body's) is not looked at."""
    errors = []
    for index, (black, white) in enumerate(sides):
        for side, player_id in (("black", black), ("white", white)):
            if isinstance(player_id, str) and player_id not in known:
                errors.append(
                    FieldError(f"/games/{index}/{side}", f"unknown player {player_id!r}: give him in players or create him first")
                )
        if isinstance(black, str) and black == white:
            errors.append(FieldError(f"/games/{index}/white", f"player {white!r} cannot play against himself"))
    return errors


def _standings_errors(submission: TournamentIn) -> list[FieldError]:
    """The tournament's own standings name each of its players (given in `players` or playing a
    game) at most once, and every standing names the same tie-breaks in the same order."""
    errors = []
    of_tournament = {player.id for player in submission.players}
    of_tournament |= {game.black for game in submission.games} | {game.white for game in submission.games}
    seen: set[str] = set()
    names = [tie_break.name for tie_break in submission.standings[0].tie_breaks] if submission.standings else []
    for index, standing in enumerate(submission.standings):
        where = f"/standings/{index}"
        if standing.player not in of_tournament:
            errors.append(
                FieldError(
                    f"{where}/player", f"player {standing.player!r} is neither in players nor in a game of this tournament"
                )
            )
        elif standing.player in seen:
            errors.append(FieldError(f"{where}/player", f"player {standing.player!r} has a standing already"))
        seen.add(standing.player)
        own = [tie_break.name for tie_break in standing.tie_breaks]
        if own != names:
            errors.append(
                FieldError(
                    f"{where}/tie_breaks",
                    f"tie-breaks {', '.join(own) or 'none'} differ from the first standing's ({', '.join(names) or 'none'}): "
                    "every player's are the same, in the same order",
                )
            )
    return errors


def _known_players(session: Session, submission: TournamentIn, inline: set[str], pending: Sequence[TournamentIn]) -> set[str]:
    """``inline`` and those of the players the games name that a pending tournament gives or that are
    stored: the players a game may name. The pending ones are looked through only for players the
    submission does not give itself (an import's submissions give all theirs: a batch's later
    tournaments then never go through the earlier ones' players)."""
    named = ({game.black for game in submission.games} | {game.white for game in submission.games}) - inline
    for earlier in pending:
        if not named:
            break
        given = named & {player.id for player in earlier.players}
        inline |= given
        named -= given
    return inline | _stored_player_ids(session, named)


def _stored_player_ids(session: Session, named: set[str]) -> set[str]:
    """The stored players among ``named``."""
    if not named:
        return set()
    found: set[str] = set()
    names = sorted(named)
    for some in in_lists(names):
        found.update(session.scalars(_STORED_PLAYER_IDS, {"ids": some}))
    return found


# Built once (an import asks this for each tournament): SQLAlchemy renders the IN list from the
# values given each time, and finds the rest compiled.
_STORED_PLAYER_IDS = select(Player.id).where(Player.id.in_(bindparam("ids", expanding=True)))


def _board_message(category: str, size: int) -> str:
    allowed = ", ".join(str(s) for s in sorted(CATEGORY_RANGES[category].board_sizes))
    return f"board size {size} is not one of {allowed} for {category}"
