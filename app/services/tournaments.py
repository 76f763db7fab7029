"""Submitting, correcting and reading tournaments. Services never commit: the caller's unit of
work (the request's session dependency, or the CLI's session scope) commits or rolls back, so a
rejected submission stores nothing."""

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import delete, func, insert, select
from sqlalchemy.orm import Session

from app.db import locked_row
from app.models import Game, Player, RatingList, Tournament, TournamentPlayer
from app.problems import Conflict, FieldError, InvalidInput, NotFound, PayloadTooLarge
from app.rating.system import Change
from app.schemas.players import PlayerCreate
from app.schemas.tournaments import TOURNAMENT_PLAYER_FIELDS, TournamentIn, TournamentPlayerIn
from app.services import revisions, snapshot_changes
from app.services.eligibility import TournamentFields, reasons_not_rated
from app.services.jobs import trigger_recompute
from app.services.players import upsert_players


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


def submit_tournament(
    session: Session, submission: TournamentIn, *, max_games: int, actor: str, allow_duplicate: bool = False
) -> Tournament:
    """Store a new tournament with its players and games, all or nothing, and its first revision.
    One whose games repeat a stored tournament's is refused unless the submitter says it is intended."""
    if session.get(Tournament, submission.id) is not None:
        raise Conflict(
            f"Tournament {submission.id!r} already exists; use PUT /v1/tournaments/{submission.id} to correct it.",
            [FieldError("/id", "a tournament with this id already exists")],
        )
    _validate(session, submission, max_games=max_games)
    if not allow_duplicate:
        _refuse_a_repeat(session, submission)
    upsert_players(session, _player_records(submission.players))
    tournament = Tournament(id=submission.id, **_tournament_fields(submission))
    session.add(tournament)
    session.flush()
    _insert_games(session, submission)
    _insert_tournament_players(session, submission)
    revisions.record(
        session,
        subject=revisions.TOURNAMENT,
        subject_id=submission.id,
        kind=revisions.SUBMITTED,
        actor=actor,
        summary=revisions.describe_submission(submission),
        previous=None,
    )
    return tournament


def replace_tournament(
    session: Session, tournament_id: str, submission: TournamentIn, *, max_games: int, actor: str
) -> Tournament:
    """A correction: the tournament's fields and its whole list of games are replaced; the revision
    keeps the version it replaced. A withdrawn tournament stays withdrawn."""
    if submission.id != tournament_id:
        raise InvalidInput(
            "The body's id must be the id in the path.",
            [FieldError("/id", f"expected {tournament_id!r}, got {submission.id!r}")],
        )
    tournament = locked_row(session, Tournament, tournament_id)
    if tournament is None:
        raise NotFound(f"Tournament {tournament_id!r} does not exist; submit it with POST /v1/tournaments.")
    _validate(session, submission, max_games=max_games)
    previous = revisions.tournament_version(session, tournament_id)
    upsert_players(session, _player_records(submission.players))
    for field, value in _tournament_fields(submission).items():
        setattr(tournament, field, value)
    session.execute(delete(Game).where(Game.tournament_id == tournament_id))
    session.execute(delete(TournamentPlayer).where(TournamentPlayer.tournament_id == tournament_id))
    _insert_games(session, submission)
    _insert_tournament_players(session, submission)
    session.flush()
    revisions.record(
        session,
        subject=revisions.TOURNAMENT,
        subject_id=tournament_id,
        kind=revisions.CORRECTED,
        actor=actor,
        summary=revisions.describe_correction(previous, submission),
        previous=previous,
    )
    return tournament


def withdraw_tournament(session: Session, tournament_id: str, reason: str, *, actor: str) -> Tournament:
    """Withdraw a stored tournament: it stays stored and readable, marked with when and why, and no
    list rates it from its next recompute on."""
    tournament = _locked(session, tournament_id)
    if tournament.withdrawn_at is not None:
        raise Conflict(
            f"Tournament {tournament_id!r} was withdrawn already on {tournament.withdrawn_at:%Y-%m-%d}: {tournament.withdrawn_reason}"
        )
    _set_withdrawal(session, tournament, datetime.now(UTC), reason, actor=actor)
    return tournament


def restore_tournament(session: Session, tournament_id: str, *, actor: str) -> Tournament:
    """Undo a withdrawal: the lists rate the tournament again from their next recompute on."""
    tournament = _locked(session, tournament_id)
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


def get_tournament_row(session: Session, tournament_id: str, *, lock: bool = False) -> Tournament:
    """The stored tournament alone; ``lock``: row-locked until the transaction ends."""
    tournament = locked_row(session, Tournament, tournament_id) if lock else session.get(Tournament, tournament_id)
    if tournament is None:
        raise NotFound(f"Tournament {tournament_id!r} does not exist.")
    return tournament


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


def queue_recomputes(
    session: Session, submission: TournamentFields, *, also_for: frozenset[str] = frozenset()
) -> list[ListOutcome]:
    """Say, for every list of the submission's category, whether it rates the tournament, and queue
    a recompute of each one that does and recomputes itself (``auto_recompute``), in the caller's
    transaction: the job exists exactly when the tournament does. A queued job of the list absorbs
    the request (the partial unique index on queued jobs), so a burst of submissions is one job.
    ``also_for``: lists that rated the tournament before a correction and must drop it now."""
    outcomes = []
    lists = session.scalars(select(RatingList).where(RatingList.category == submission.category).order_by(RatingList.id))
    for rating_list in lists:
        reasons = reasons_not_rated(rating_list, submission)
        job_id = None
        if rating_list.auto_recompute and (not reasons or rating_list.id in also_for):
            job_id = trigger_recompute(session, rating_list.id).id
        outcomes.append(ListOutcome(rating_list.id, not reasons, "; ".join(reasons) or None, job_id))
    return outcomes


def lists_rating(session: Session, tournament_id: str) -> frozenset[str]:
    """The lists that rate the stored tournament as it is now."""
    tournament = session.get(Tournament, tournament_id)
    if tournament is None:
        return frozenset()
    lists = session.scalars(select(RatingList).where(RatingList.category == tournament.category))
    return frozenset(r.id for r in lists if not reasons_not_rated(r, tournament))


def get_tournament(
    session: Session, tournament_id: str
) -> tuple[Tournament, list[Game], list[tuple[Player, TournamentPlayer | None]], list[tuple[str, int, Change]]]:
    """The tournament, its games, its players (each with what was declared for him there, if
    anything) and every list's rating changes under its current snapshot (list id, snapshot id,
    change; by list, then player)."""
    tournament = session.get(Tournament, tournament_id)
    if tournament is None:
        raise NotFound(f"Tournament {tournament_id!r} does not exist.")
    games = list(session.scalars(select(Game).where(Game.tournament_id == tournament_id).order_by(Game.seq)))
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


def stores_same(session: Session, submission: TournamentIn) -> bool:
    """Whether the stored tournament already has exactly this submission's fields and games."""
    tournament = session.get(Tournament, submission.id)
    if tournament is None:
        return False
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
    return [tuple(row) for row in stored_entries] == given_entries


# A submission repeats a stored tournament when at least this many of its played games, and at least
# this share of them, are the stored one's: same day, same black and white players, same result
# (docs/decisions.md 7.17). Two real tournaments of the same players on the same days (a team event
# beside an individual one) share few games; a file imported twice under two ids shares all.
REPEAT_MIN_GAMES = 3
REPEAT_MIN_SHARE = 0.5


class RepeatedTournament(Conflict):
    """The submission's games repeat a stored tournament's."""


def _refuse_a_repeat(session: Session, submission: TournamentIn) -> None:
    played = Counter(
        (game.date or submission.end, game.black, game.white, game.result) for game in submission.games if game.played
    )
    if sum(played.values()) < REPEAT_MIN_GAMES:
        return
    rows = session.execute(
        select(Game.tournament_id, Game.date, Game.black_id, Game.white_id, Game.result)
        .join(Tournament, Tournament.id == Game.tournament_id)
        .where(
            Tournament.category == submission.category,
            Tournament.start <= submission.end,
            Tournament.end >= submission.start,
            Tournament.withdrawn_at.is_(None),
            Game.played.is_(True),
        )
    ).all()
    stored: dict[str, Counter[tuple[Any, ...]]] = {}
    for tournament_id, *game in rows:
        stored.setdefault(tournament_id, Counter())[tuple(game)] += 1
    total = sum(played.values())
    for tournament_id, games in sorted(stored.items()):
        repeated = (played & games).total()
        if repeated >= REPEAT_MIN_GAMES and repeated >= REPEAT_MIN_SHARE * total:
            raise RepeatedTournament(
                f"{repeated} of the submission's {total} played games repeat stored tournament {tournament_id!r} "
                f"(same day, players and result): it looks submitted already. Correct that one with "
                f"PUT /v1/tournaments/{tournament_id}, or send ?duplicate=intended if both are real.",
                [FieldError("/games", f"{repeated} of {total} played games are tournament {tournament_id!r}'s")],
            )


def _player_records(players: Sequence[TournamentPlayerIn]) -> list[PlayerCreate]:
    """The players' own fields (the per-tournament ones go to tournament_players), keeping which
    fields were given so that an update changes only those."""
    return [
        PlayerCreate.model_validate(
            player.model_dump(exclude_unset=True, exclude=set(TOURNAMENT_PLAYER_FIELDS)) | {"id": player.id}
        )
        for player in players
    ]


def _insert_tournament_players(session: Session, submission: TournamentIn) -> None:
    rows = _tournament_player_rows(submission)
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


def _tournament_fields(submission: TournamentIn) -> dict[str, Any]:
    return submission.model_dump(exclude={"id", "players", "games"})


def _insert_games(session: Session, submission: TournamentIn) -> None:
    if submission.games:
        # The table's own INSERT, executed for all rows (no ORM objects or per-row attribute mapping:
        # the rows are already the columns' values).
        session.execute(insert(Game.__table__), _game_rows(submission))


def _game_rows(submission: TournamentIn) -> list[dict[str, Any]]:
    return [
        {
            "tournament_id": submission.id,
            "seq": seq,
            "game_id": game.id,
            "round": game.round,
            "black_id": game.black,
            "white_id": game.white,
            "result": game.result,
            "played": game.played,
            "date": game.date or submission.end,
            "handicap": game.handicap,
            "board_size": game.board_size if game.board_size is not None else submission.board_size,
        }
        for seq, game in enumerate(submission.games)
    ]


def _validate(session: Session, submission: TournamentIn, *, max_games: int) -> None:
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

    known = set(inline_ids) | _existing_player_ids(session, submission)
    game_ids = Counter(game.id for game in submission.games if game.id is not None)
    seen_game_ids: set[str] = set()
    for index, game in enumerate(submission.games):
        where = f"/games/{index}"
        for side in ("black", "white"):
            player_id = getattr(game, side)
            if player_id not in known:
                errors.append(
                    FieldError(f"{where}/{side}", f"unknown player {player_id!r}: give him in players or create him first")
                )
        if game.black == game.white:
            errors.append(FieldError(f"{where}/white", f"player {game.white!r} cannot play against himself"))
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
    if errors:
        raise InvalidInput(f"The tournament {submission.id!r} has {len(errors)} invalid field(s); nothing was stored.", errors)


def _existing_player_ids(session: Session, submission: TournamentIn) -> set[str]:
    named = {game.black for game in submission.games} | {game.white for game in submission.games}
    if not named:
        return set()
    found: set[str] = set()
    names = sorted(named)
    for start in range(0, len(names), 500):  # keep the IN list within every database's limits
        found.update(session.scalars(select(Player.id).where(Player.id.in_(names[start : start + 500]))))
    return found


def _board_message(category: str, size: int) -> str:
    allowed = ", ".join(str(s) for s in sorted(CATEGORY_RANGES[category].board_sizes))
    return f"board size {size} is not one of {allowed} for {category}"
