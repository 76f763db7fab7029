"""Importing other programs' result files through the same submission service the API uses."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field, replace
from itertools import chain
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from sqlalchemy import func, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from app import performance
from app.db import begin_writing, bulk_session_scope, checkpoint_after_import, in_lists
from app.importers.formats import FileFormat, detect_format
from app.importers.source import FileRefused, ImportOptions, SubmissionSource
from app.models import Game, Player, Tournament, TournamentPlayer, TournamentStanding
from app.problems import Conflict, InvalidInput, PayloadTooLarge, validation_message
from app.schemas.tournaments import STORED_FIELDS, TOURNAMENT_PLAYER_FIELDS, TournamentIn
from app.services import revisions
from app.services.bulk_load import drop_game_player_indexes, finish_import, leaves_for_later
from app.services.player_identity import KnownPlayers, match_go_players
from app.services.player_reviews import describe_review, queue_possible_duplicates
from app.services.reviews import lists_rating
from app.services.tournaments import (
    Changed,
    PendingTournaments,
    RepeatedTournament,
    SubmittedTournament,
    check_new_tournament,
    queue_recomputes_of,
    replace_tournament,
    store_new_tournaments,
    stored_alone,
    stores_same,
    submit_tournament,
)
from app.settings import get_settings

# The name the audit trail gives the command-line importer's changes (an API key's name otherwise).
IMPORT_ACTOR = "import"
TOURNAMENT_REFUSED = "tournament refused by the submission service"
TOURNAMENT_WITHOUT_GAMES = "tournament without a game"
GAME_OF_REFUSED_TOURNAMENT = "game of a tournament the submission service refused"
REPEATED_TOURNAMENT = "tournament whose games repeat a stored tournament's"
AMBIGUOUS_PLAYER = "player whose name several stored players have"
AMBIGUOUS_TOURNAMENT = "tournament with a player the importer cannot tell from another"
SERVICE_REASONS = {
    TOURNAMENT_REFUSED: "the tournament failed the checks every submission passes (POST /v1/tournaments"
    " would answer 4xx): nothing of it is stored; the examples give its first problem and where it is",
    GAME_OF_REFUSED_TOURNAMENT: "the game's tournament was refused (see above), so the game is not stored",
    REPEATED_TOURNAMENT: "most of its played games are a stored tournament's under another id (the same file imported"
    " under other ids, or another file of the same event; a tournament of one or two played games: all of them, and"
    " all the stored one's): it is not stored twice; the examples name the stored one",
    AMBIGUOUS_PLAYER: "a Go player whose name matches several stored players (the examples name them): with an EGF PIN"
    " he is stored as a record of his own (<id>-<PIN>), never merged into one of them by guess; an officer merges"
    " records of one person (POST /v1/players/{id}/merge)",
    AMBIGUOUS_TOURNAMENT: "a player of it has no EGF PIN and a name several stored players have: nothing tells which"
    " he is, so the tournament is not stored; give the players their PINs (or merge the records) and import again",
    TOURNAMENT_WITHOUT_GAMES: "the file gives the tournament no game it can store (none at all, or every one left out"
    " for a reason above): there is nothing to rate, so the tournament is not stored",
}


@dataclass
class ImportReport:
    format_name: str = ""
    tournaments_stored: int = 0
    tournaments_unchanged: int = 0
    players_stored: int = 0
    games_stored: int = 0
    # Of the games stored, those marked not played (a walkover, a game won by default, a game the
    # file marks unrated): stored and never rated, as the contract's ``played: false`` says.
    games_not_rated: int = 0
    # Tournaments already stored that the file gave other facts: corrected (their games replaced).
    tournaments_corrected: int = 0
    rejected: Counter[str] = field(default_factory=Counter)
    # What the file holds that is no error and nothing to store (a bye, a game of a tournament another
    # file defines), by reason: counted apart from what is rejected (docs/decisions.md 142).
    left_aside: Counter[str] = field(default_factory=Counter)
    # The recompute queued for each list that rates a stored or corrected tournament, as a submission queues it.
    jobs_queued: dict[str, int] = field(default_factory=dict)
    # Each list whose ratings the stored or corrected tournaments move and that queued no recompute
    # (it does not recompute itself): why, as a submission's answer says it. It is stale until recomputed.
    not_recomputed: dict[str, str] = field(default_factory=dict)
    examples: dict[str, list[str]] = field(default_factory=dict)
    explanations: dict[str, str] = field(default_factory=dict)
    # What the file said of stored players and did not change, by kind (details, possible_duplicate):
    # queued for an officer (GET /v1/player-reviews), with a few examples each.
    player_reviews: Counter[str] = field(default_factory=Counter)
    player_review_examples: dict[str, list[str]] = field(default_factory=dict)

    def note_review(self, kind: str, example: str) -> None:
        self.player_reviews[kind] += 1
        examples = self.player_review_examples.setdefault(kind, [])
        if len(examples) < MAX_REVIEW_EXAMPLES:
            examples.append(example)


MAX_REVIEW_EXAMPLES = 5
# New tournaments are checked one after the other and stored together, up to this many games (or one
# tournament with more): the statements and the recomputes' queueing are a batch's, not a tournament's
# (docs/decisions.md 7.69). Bounded, so memory is too.
BATCH_GAMES = 5_000
# Batches are committed together, up to this many games: a commit writes every page the transaction
# changed, and a batch's games change pages all over the games' player indexes and the search terms,
# so ten batches a commit write such pages once where they were written ten times (docs/decisions.md
# 7.86). A transaction holds SQLite's write lock for a few seconds; the service's writers wait for it
# (their busy timeout is 30 s).
COMMIT_GAMES = 50_000


def import_results_file(
    path: Path,
    on_progress: Callable[[int, int], None] | None = None,
    *,
    options: ImportOptions | None = None,
    file_format: FileFormat | None = None,
) -> ImportReport:
    """Import a results file of any known format, all or nothing per tournament, as submissions are
    stored: with a revision each, and a recompute queued for every list that rates it and recomputes
    itself. Safe to run twice: a tournament already stored with the same content is left alone, one
    stored with other content is corrected (its games replaced). ``options`` override tournaments'
    rated flags whatever the format. ``on_progress(done, total)`` follows the tournaments committed.

    Tournaments go in batches (``BATCH_GAMES``), and batches are committed together
    (``COMMIT_GAMES``): a tournament the submission service refuses is refused before anything of it
    is written, so the batch's others are stored. Should the database itself refuse a write during a
    batch, on PostgreSQL the batch is rolled back to its savepoint and stored again one tournament a
    savepoint; on SQLite, where no other writer can race the import, the import stops
    (``_store_batch``). A Go tournament (its players matched to stored ones by name) is a batch of its
    own. An import stopped midway (killed, or a failure) has stored the transactions it committed,
    which the progress reported; importing the file again stores the rest.

    On SQLite the new players' search terms, and the games' indexes by player once the import has
    stored as many games as were stored before it, are built when it ends (``app.services.bulk_load``);
    one stopped midway leaves them to the next process's start.

    A tournament without a game is not stored; a file with no tournament to store (a table's header
    without players, every row rejected) is refused with ``FileRefused`` once read, nothing stored."""
    max_games = get_settings().max_games_per_tournament
    options = replace(options or ImportOptions(), max_games_per_tournament=max_games)
    source = (file_format or detect_format(path)).read(path, options)
    report = ImportReport(format_name=source.format_name, explanations={**source.explanations, **SERVICE_REASONS})
    with bulk_session_scope() as session:  # a count reads every row: not through the service's memory map
        players_before = _count(session, Player)
        games_before = _count(session, Game)
        left = _LeftForEnd(leaves_for_later(session))
    done = games_stored = 0
    created: dict[str, str] = {}  # the players the import created, with their tournament, in order
    tally = _Tally()
    batches = _batches(source, options, tally)
    with performance.earlier_objects_frozen():
        # Each pass of this loop is one transaction; its inner loop takes batches from the same
        # iterator until the transaction holds COMMIT_GAMES games (read lazily: memory stays a batch's).
        for first in batches:
            committed: list[tuple[_BatchOutcome, int]] = []
            with bulk_session_scope() as session:
                begin_writing(session)
                if left.deferring and not (left.indexes_dropped or left.indexes_kept) and games_stored >= games_before:
                    drop_game_player_indexes(session)  # built again by finish_import (app.services.bulk_load)
                    left.indexes_dropped = True
                games = 0
                for batch in chain([first], batches):
                    committed.append((_store_batch(session, batch, max_games, left), len(batch)))
                    games += sum(len(raw["games"]) for raw in batch)
                    if games >= COMMIT_GAMES:
                        break
            for outcome, tournaments in committed:
                outcome.apply(report, source, created)
                done += tournaments
                games_stored += outcome.games_stored
            if on_progress:
                on_progress(done, source.tournament_count)
    with bulk_session_scope() as session:
        begin_writing(session)
        finish_import(session)
        # Its new players' namesakes, now that their search terms are written (decisions 108).
        for queued in queue_possible_duplicates(session, created, actor=IMPORT_ACTOR):
            report.note_review(queued.review.kind, f"tournament {queued.review.tournament_id}: {describe_review(queued.review)}")
    checkpoint_after_import()
    if on_progress:
        on_progress(done, source.tournament_count)  # a reader may have rejected the last ones
    if tally.offered == 0:
        reasons = ", ".join(f"{count} {reason}" for reason, count in (source.rejected + source.left_aside).most_common(3))
        raise FileRefused(f"nothing to import: the file holds no tournament with a game{f' ({reasons})' if reasons else ''}")
    with bulk_session_scope() as session:
        report.players_stored = _count(session, Player) - players_before
        report.games_stored = _count(session, Game) - games_before
    report.rejected = source.rejected
    report.left_aside = source.left_aside
    report.examples = source.examples
    return report


@dataclass
class _LeftForEnd:
    """What the import leaves for ``finish_import`` (``app.services.bulk_load``): on SQLite its new
    players' search terms, and the games' indexes by player once dropped. A Go tournament's players
    are matched by what both serve (names through the terms, who played Go through the indexes), so
    both are built before it, and the indexes are kept from then on."""

    deferring: bool  # anything at all (``leaves_for_later``: SQLite)
    indexes_dropped: bool = False
    indexes_kept: bool = False


@dataclass
class _Tally:
    offered: int = 0  # tournaments with a game, handed to the submission service


def _batches(source: SubmissionSource, options: ImportOptions, tally: _Tally) -> Iterator[list[dict[str, Any]]]:
    """The file's tournaments with a game, in batches of up to ``BATCH_GAMES`` games; a Go tournament
    alone. A tournament without a game is rejected here."""
    batch: list[dict[str, Any]] = []
    games = 0
    for raw in source.submissions:
        if not raw.get("games"):
            source.reject(TOURNAMENT_WITHOUT_GAMES, f"tournament {raw.get('id')}")
            source.tournament_count -= 1
            continue
        tally.offered += 1
        raw["rated"] = options.rated(raw["id"], raw.get("rated", True))
        if raw.get("category") == "go":
            if batch:
                yield batch
            batch, games = [], 0
            yield [raw]
            continue
        batch.append(raw)
        games += len(raw["games"])
        if games >= BATCH_GAMES:
            yield batch
            batch, games = [], 0
    if batch:
        yield batch


def _store_batch(session: Session, batch: list[dict[str, Any]], max_games: int, left: _LeftForEnd) -> _BatchOutcome:
    """The batch stored in the session's transaction. Should the database refuse a write, on
    PostgreSQL the batch is rolled back to its savepoint and each tournament stored again under a
    savepoint of its own, as a submission of its own would be; on SQLite the error stands and the
    transaction is rolled back (``_batch_savepoint``)."""
    try:
        return _import_batch(session, batch, max_games, left)
    except SQLAlchemyError:
        if len(batch) == 1 or not _has_savepoints(session):
            raise
    outcome = _BatchOutcome()
    for raw in batch:
        outcome.add(_import_batch(session, [raw], max_games, left))
    return outcome


def _batch_savepoint(session: Session) -> AbstractContextManager[Any]:
    """A savepoint around a batch on PostgreSQL, where another writer (a submission through the API)
    can race the batch's checks and a refused write is stepped over. None on SQLite: the transaction
    holds the write lock (``begin_writing``), so no other writer races it and a refused write is a
    failure of the database; and a savepoint there copies each page the batch changes into a journal
    of its own, which cost as much as the commits saved (docs/decisions.md 7.86)."""
    return session.begin_nested() if _has_savepoints(session) else nullcontext()


def _has_savepoints(session: Session) -> bool:
    return session.connection().dialect.name != "sqlite"


@dataclass
class _BatchOutcome:
    """What a batch's transaction did, applied to the report once it has committed."""

    stored: int = 0
    games_stored: int = 0
    games_not_rated: int = 0
    corrected: int = 0
    unchanged: int = 0
    rejections: list[tuple[str, str, int]] = field(default_factory=list)
    jobs_queued: dict[str, int] = field(default_factory=dict)
    # (kind, example) of each review of a player the batch queued for an officer.
    player_reviews: list[tuple[str, str]] = field(default_factory=list)
    # The players the batch created, each with the tournament that created him, in order.
    created: dict[str, str] = field(default_factory=dict)
    not_recomputed: dict[str, str] = field(default_factory=dict)

    def add(self, other: _BatchOutcome) -> None:
        self.stored += other.stored
        self.games_stored += other.games_stored
        self.games_not_rated += other.games_not_rated
        self.corrected += other.corrected
        self.unchanged += other.unchanged
        self.rejections += other.rejections
        self.jobs_queued |= other.jobs_queued
        self.player_reviews += other.player_reviews
        self.created |= other.created
        self.not_recomputed |= other.not_recomputed

    def note_reviews(self, stored: Sequence[SubmittedTournament]) -> None:
        for one in stored:
            self.created |= dict.fromkeys(one.created, one.tournament.id)
            for queued in one.player_reviews:
                review = queued.review
                self.player_reviews.append((review.kind, f"tournament {one.tournament.id}: {describe_review(review)}"))

    def apply(self, report: ImportReport, source: SubmissionSource, created: dict[str, str]) -> None:
        report.tournaments_stored += self.stored
        report.tournaments_corrected += self.corrected
        report.tournaments_unchanged += self.unchanged
        report.games_not_rated += self.games_not_rated
        report.jobs_queued |= self.jobs_queued
        report.not_recomputed |= self.not_recomputed
        for reason, example, count in self.rejections:
            source.reject(reason, example, count=count)
        for kind, example in self.player_reviews:
            report.note_review(kind, example)
        created |= self.created


def _import_batch(session: Session, batch: list[dict[str, Any]], max_games: int, left: _LeftForEnd) -> _BatchOutcome:
    """Store the batch's tournaments (under a savepoint on PostgreSQL), each through the submission
    service: new ones checked one after the other (each against the stored tournaments and the batch's
    earlier ones) and stored together; a tournament stored already is left alone or corrected, after
    the new ones before it are stored. A tournament the service refuses is left out with the reason.
    ``left``: what the import leaves for its end (``_LeftForEnd``)."""
    outcome = _BatchOutcome()
    with _batch_savepoint(session):
        pending = PendingTournaments()
        queued: list[Changed] = []
        # The ids stored before the batch, read at once; one the batch reaches again (stored by it, or
        # pending) is looked up when it comes.
        seen = _stored_ids(session, [raw["id"] for raw in batch if isinstance(raw.get("id"), str)])
        known = KnownPlayers(session, _player_ids(batch))
        for raw in batch:
            try:
                if raw.get("category") == "go":
                    if left.deferring:
                        finish_import(session)
                        left.indexes_kept = True
                    if not _matched_by_pin_and_name(session, outcome, raw):
                        continue
                if raw.get("id") in seen:
                    _keep_what_the_file_leaves_blank(session, raw)
                submission = TournamentIn.model_validate(raw)
                again = submission.id in seen
                seen.add(submission.id)
                if not again and not stored_alone(submission):
                    pending.append(
                        check_new_tournament(
                            session, submission, max_games=max_games, pending=pending, find_duplicates=False, known=known
                        )
                    )
                    queued.append(Changed(submission))
                    continue
                _store_pending(session, outcome, pending, left)
                known.forget_new()
                pending = PendingTournaments()
                # Looked up once the pending ones are stored: the batch may have stored this id itself.
                stored = again and session.get(Tournament, submission.id) is not None
                if stored and stores_same(session, submission):
                    outcome.unchanged += 1
                    continue
                if not stored:
                    done = submit_tournament(session, submission, max_games=max_games, actor=IMPORT_ACTOR, find_duplicates=False)
                    queued.append(Changed(submission))
                else:
                    rated_before = lists_rating(session, submission.id)
                    done = replace_tournament(
                        session, submission.id, submission, max_games=max_games, actor=IMPORT_ACTOR, find_duplicates=False
                    )
                    queued.append(Changed(submission, rated_before, revisions.CORRECTED))
                    outcome.corrected += 1
                outcome.note_reviews([done])
                known.forget_new()  # the players it created are stored now
                outcome.stored += 1
                outcome.games_stored += len(submission.games)
                if not stored:  # a correction's games replace those stored: the report counts what it adds
                    outcome.games_not_rated += _not_rated(submission)
            except RepeatedTournament as repeat:
                outcome.rejections.append((REPEATED_TOURNAMENT, f"tournament {raw['id']}: {repeat.errors[0].detail}", 1))
            except (InvalidInput, PayloadTooLarge, Conflict) as problem:
                first = f"{problem.errors[0].pointer}: {problem.errors[0].detail}" if problem.errors else problem.detail
                _refuse(outcome, raw, first)
            except ValidationError as error:  # a value outside the contract, as the API's 422 would say
                first_error = error.errors()[0]
                _refuse(
                    outcome,
                    raw,
                    "/" + "/".join(str(part) for part in first_error["loc"]) + ": " + validation_message(first_error),
                )
        if pending:
            _store_pending(session, outcome, pending, left)
        for outcomes in queue_recomputes_of(session, queued):
            for list_outcome in outcomes:
                if list_outcome.job_id is not None:
                    outcome.jobs_queued[list_outcome.list_id] = list_outcome.job_id
                elif list_outcome.went_stale and list_outcome.no_recompute_reason is not None:
                    outcome.not_recomputed[list_outcome.list_id] = list_outcome.no_recompute_reason
    session.expunge_all()  # written: the transaction's later batches do not keep its objects
    return outcome


# What a stored tournament keeps when a file of it leaves the field blank: every stored field but
# the conditions (a system's, given whole or not at all) and the rated flag (always given).
_KEPT_WHEN_BLANK = tuple(name for name in STORED_FIELDS if name not in ("conditions", "rated"))


def _keep_what_the_file_leaves_blank(session: Session, raw: dict[str, Any]) -> None:
    """A stored tournament imported again keeps what this file leaves blank: its fields, what each
    player declared at it, and its standings (docs/decisions.md 143). Two files of one tournament
    carry different parts of it (the EGD's h9 table its class and standings, OpenGotha's file the
    players' ratings and EGF PINs; the renju.net export its cities, the results file none), so
    that importing either again corrected away what only the other carries, each time; a blank in a
    file says nothing about the tournament, a value in it says what the file's program holds."""
    tournament = session.get(Tournament, raw["id"])
    if tournament is None:
        return
    for name in _KEPT_WHEN_BLANK:
        if raw.get(name) is None and getattr(tournament, name) is not None:
            raw[name] = getattr(tournament, name)
    declared = {
        row.player_id: row
        for row in session.scalars(select(TournamentPlayer).where(TournamentPlayer.tournament_id == tournament.id))
    }
    for player in raw.get("players") or []:
        row = declared.get(str(player.get("id"))) if isinstance(player, dict) else None
        if row is None:
            continue
        for name in TOURNAMENT_PLAYER_FIELDS:
            if player.get(name) is None and getattr(row, name) is not None:
                player[name] = getattr(row, name)
    if not raw.get("standings"):
        standings = session.scalars(
            select(TournamentStanding).where(TournamentStanding.tournament_id == tournament.id).order_by(TournamentStanding.seq)
        ).all()
        if standings:
            raw["standings"] = [
                {"player": standing.player_id, "place": standing.place, "tie_breaks": standing.tie_breaks}
                for standing in standings
            ]


def _store_pending(session: Session, outcome: _BatchOutcome, pending: PendingTournaments, left: _LeftForEnd) -> None:
    outcome.note_reviews(store_new_tournaments(session, pending.checked, actor=IMPORT_ACTOR, search_terms_later=left.deferring))
    outcome.stored += len(pending)
    outcome.games_stored += sum(len(checked.submission.games) for checked in pending.checked)
    outcome.games_not_rated += sum(_not_rated(checked.submission) for checked in pending.checked)


def _not_rated(submission: TournamentIn) -> int:
    return sum(1 for game in submission.games if game.played is False)


def _player_ids(batch: list[dict[str, Any]]) -> list[str]:
    """The ids of the players the batch's tournaments give (those of a well-formed player entry)."""
    ids = {player.get("id") for raw in batch for player in raw.get("players") or [] if isinstance(player, dict)}
    return sorted(player_id for player_id in ids if isinstance(player_id, str))


def _stored_ids(session: Session, ids: list[str]) -> set[str]:
    found: set[str] = set()
    for some in in_lists(ids):
        found.update(session.scalars(select(Tournament.id).where(Tournament.id.in_(some))))
    return found


def _matched_by_pin_and_name(session: Session, outcome: _BatchOutcome, raw: dict[str, Any]) -> bool:
    """Match a Go file's players to stored ones (EGF PIN first, then name: app.services.player_identity),
    reporting every ambiguous name; False when one without a PIN leaves the tournament unstorable."""
    matches = match_go_players(session, raw)
    for ambiguous in matches.ambiguous:
        outcome.rejections.append((AMBIGUOUS_PLAYER, f"tournament {raw['id']}: {ambiguous}", 1))
    if matches.unresolved:
        outcome.rejections.append((AMBIGUOUS_TOURNAMENT, f"tournament {raw['id']}", 1))
        return False
    return True


def _refuse(outcome: _BatchOutcome, raw: dict[str, Any], problem: str) -> None:
    outcome.rejections.append((TOURNAMENT_REFUSED, f"tournament {raw['id']}: {problem}", 1))
    if raw["games"]:
        games = len(raw["games"])
        outcome.rejections.append((GAME_OF_REFUSED_TOURNAMENT, f"{games} games of tournament {raw['id']}", games))


def _count(session: Session, model: type) -> int:
    return session.scalar(select(func.count()).select_from(model)) or 0
