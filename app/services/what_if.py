"""What a tournament would do to a rating list, without storing anything
(``POST /v1/rating-lists/{list_id}/what-if``).

The list's replay runs as a recompute runs it (``app.recompute.compute``: the same eligible
tournaments and games, seeds, parameters and warm start, read the same way) with the submitted
tournament added in memory, in its place in (end, start, id) order, as storing it would add it; a
stored tournament of the same id is replaced, as a correction would replace it. For WHR this is the
whole fit with the tournament's games added to the arrays. The answer is each player's change in that
tournament, as ``rating_changes`` would show it once the tournament is submitted and the list
recomputed on the same day. Nothing is written: the caller's transaction only reads.
"""

import datetime as dt
from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session

from app import db
from app.models import RatingSeed, RatingSnapshot, Tournament, TournamentPlayer
from app.rating.registry import get_system
from app.rating.system import (
    SCORE_OF_RESULT,
    Change,
    ChangeColumns,
    GameColumns,
    RatingSystem,
    ReplayInput,
    Seed,
    StoredGame,
    StoredTournament,
    object_column,
    values_at,
)
from app.recompute import compute
from app.recompute.eligibility import reasons_not_rated
from app.schemas.tournaments import TournamentIn
from app.services.rating_lists import get_rating_list
from app.services.tournaments import check_what_if, stored_rows

__all__ = ["WhatIf", "what_if", "what_if_in_own_session"]

_NOT_FIELDS = {"id", "start", "end", "created_at", "updated_at", "withdrawn_at", "withdrawn_reason"}


@dataclass
class WhatIf:
    """The list's answer: whether it would rate the tournament (and why not), on which day, and the
    changes it would make, one per player rated, by player id."""

    list_id: str
    rated: bool
    reason: str | None
    list_date: dt.date
    changes: list[Change]
    notes: list[str]


def what_if(session: Session, list_id: str, submission: TournamentIn, *, max_games: int, list_date: dt.date) -> WhatIf:
    """The changes ``submission`` would make on the list as recomputed on ``list_date``."""
    rating_list = get_rating_list(session, list_id)
    # Its players named as a submission names them (external ids, merged records): the same checks.
    submission = check_what_if(session, submission, max_games=max_games)
    reasons = reasons_not_rated(rating_list, submission)
    if reasons:
        return WhatIf(list_id, False, "; ".join(reasons), list_date, [], [])
    system = get_system(rating_list.system)
    params = system.params(rating_list.params)
    added = _as_stored(submission, system)
    columns: GameColumns | None = None
    if system.columnar:
        stored, columns = compute.eligible_games(session, rating_list)
        tournaments, columns = _with_tournament_in_columns(stored, columns, added)
    else:
        tournaments = _with_tournament(compute.stored_tournaments(session, rating_list), added)
    seeds = (
        [
            Seed(s.player_id, compute.stored_rating(s.rating), s.status, s.as_of, s.title, s.counters)
            for s in session.scalars(select(RatingSeed).where(RatingSeed.list_id == list_id).order_by(RatingSeed.player_id))
        ]
        if system.seed_model is not None
        else []
    )
    warm_start = None
    if rating_list.current_snapshot_id is not None:
        warm_start = session.scalar(select(RatingSnapshot.warm_start).where(RatingSnapshot.id == rating_list.current_snapshot_id))
    replayed = system.replay(ReplayInput(tournaments, seeds, params, list_date, warm_start, columns))
    changes = sorted(_changes_of(replayed.changes, submission.id), key=lambda change: change.player_id)
    return WhatIf(list_id, True, None, list_date, changes, [note for note in replayed.notes if repr(submission.id) in note])


def what_if_in_own_session(list_id: str, submission: TournamentIn, *, max_games: int, list_date: dt.date) -> WhatIf:
    """``what_if`` in a session of its own, for a calculation run in a thread of its own within the
    calculators' budget (app/api/calculators.py); it only reads, so its end commits nothing."""
    with db.session_scope() as session:
        return what_if(session, list_id, submission, max_games=max_games, list_date=list_date)


def _as_stored(submission: TournamentIn, system: RatingSystem[Any, Any]) -> StoredTournament:
    """The submission as a recompute of a list of this system would read it back once stored: its
    fields, what its players declared, and its played games (a walkover is stored, never rated) with
    their defaults filled in."""
    fields, declared_rows, game_rows = stored_rows(submission)
    names = [c.name for c in Tournament.__table__.c if c.name not in _NOT_FIELDS]
    stored_fields = {name: fields.get(name) for name in names}
    declared_names = [c.name for c in TournamentPlayer.__table__.c if c.name not in ("tournament_id", "player_id")]
    participants = {row["player_id"]: {name: row.get(name) for name in declared_names} for row in declared_rows}
    games = [
        StoredGame(
            row["game_id"],
            row["date"],
            row["black_id"],
            row["white_id"],
            SCORE_OF_RESULT[row["result"]],
            row["round"],
            row["handicap"],
            row["board_size"],
        )
        for row in game_rows
        if row["played"]
    ]
    return StoredTournament(
        submission.id,
        submission.start,
        submission.end,
        games,
        stored_fields["time_control_minutes"],
        stored_fields["board_size"],
        fields=system.tournament_fields(stored_fields),
        participants=participants,
    )


def _order(tournament: StoredTournament) -> tuple[dt.date, dt.date, str]:
    return (tournament.end, tournament.start, tournament.id)  # a recompute reads them in this order


def _with_tournament(tournaments: list[StoredTournament], added: StoredTournament) -> list[StoredTournament]:
    kept = [t for t in tournaments if t.id != added.id]
    if not added.games:
        return kept  # a tournament without a played game is not rated
    return sorted([*kept, added], key=_order)


def _with_tournament_in_columns(
    tournaments: list[StoredTournament], columns: GameColumns, added: StoredTournament
) -> tuple[list[StoredTournament], GameColumns]:
    """The games of ``added`` put into the arrays where a recompute would read them: tournament by
    tournament in (end, start, id) order, each in submission order; a stored tournament of the same
    id left out; the players numbered again by first appearance, black before white."""
    tournament = np.asarray(columns.tournament, dtype=np.int64)
    keep = np.ones(len(tournament), dtype=bool)
    kept_tournaments = list(tournaments)
    replaced = next((i for i, t in enumerate(tournaments) if t.id == added.id), None)
    if replaced is not None:
        keep = tournament != replaced
        tournament = np.where(tournament > replaced, tournament - 1, tournament)
        del kept_tournaments[replaced]
    ids = list(columns.player_ids)
    black = np.asarray(columns.black, dtype=np.int64)[keep]
    white = np.asarray(columns.white, dtype=np.int64)[keep]
    score = np.asarray(columns.black_score, dtype=np.float64)[keep]
    day = np.asarray(columns.day, dtype=np.int64)[keep]
    tournament = tournament[keep]
    if added.games:
        position = sum(1 for t in kept_tournaments if _order(t) < _order(added))
        kept_tournaments.insert(position, added)
        tournament = np.where(tournament >= position, tournament + 1, tournament)
        at = int(np.searchsorted(tournament, position, side="left"))
        code = {player_id: i for i, player_id in enumerate(ids)}
        for game in added.games:
            for player_id in (game.black, game.white):
                if player_id not in code:
                    code[player_id] = len(ids)
                    ids.append(player_id)
        black = np.insert(black, at, [code[g.black] for g in added.games])
        white = np.insert(white, at, [code[g.white] for g in added.games])
        score = np.insert(score, at, [g.black_score for g in added.games])
        day = np.insert(day, at, [g.date.toordinal() for g in added.games])
        tournament = np.insert(tournament, at, np.full(len(added.games), position, dtype=np.int64))
    # Renumbered as eligible_games numbers them: by first appearance, black before white; and only the
    # tournaments that keep a game.
    both = np.empty(2 * len(black), dtype=np.int64)
    both[0::2], both[1::2] = black, white
    codes, first_seen, numbered = np.unique(both, return_index=True, return_inverse=True)
    by_appearance = np.argsort(first_seen, kind="stable")
    renumber = np.empty(len(codes), dtype=np.int64)
    renumber[by_appearance] = np.arange(len(codes))
    both = renumber[numbered]
    player_ids = [ids[c] for c in codes[by_appearance].tolist()]
    present, tournament = np.unique(tournament, return_inverse=True)
    return [kept_tournaments[i] for i in present.tolist()], GameColumns(
        player_ids=player_ids,
        black=both[0::2].copy(),
        white=both[1::2].copy(),
        black_score=score,
        day=day,
        tournament=tournament.astype(np.int64, copy=False),
    )


def _changes_of(changes: list[Change] | ChangeColumns, tournament_id: str) -> list[Change]:
    if isinstance(changes, list):
        return [change for change in changes if change.tournament_id == tournament_id]
    names = list(ChangeColumns.__dataclass_fields__)
    rows = np.flatnonzero(object_column(values_at(changes.tournament_id, np.arange(len(changes)))) == tournament_id)
    columns = [values_at(getattr(changes, name), rows) for name in names]
    return [Change(**_plain(dict(zip(names, row, strict=True)))) for row in zip(*columns, strict=True)]


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    """numpy scalars as Python numbers, NaN as None (a missing rating in the columns)."""
    plain = {}
    for name, value in row.items():
        if isinstance(value, np.generic):
            value = value.item()
        if isinstance(value, float) and value != value:
            value = None
        plain[name] = value
    return plain
