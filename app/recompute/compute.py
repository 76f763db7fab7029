"""Recomputing a rating list: read the eligible games in bulk, hand them to the list's rating system
(``app.rating.registry``) and turn what it returns into one snapshot's rows. Nothing here commits;
``app.recompute.jobs`` writes the snapshot in one transaction.

A system declared ``columnar`` (the WHR list) gets its games read straight into arrays
(``eligible_games``): one query whose rows are transposed column by column, with no Python object per
game. The others get ``StoredTournament`` objects with ``StoredGame`` objects (``stored_tournaments``).
Either way every eligible tournament comes with its other fields and what its participants declared.
The snapshot's entries come back as tuples in their table's column order (``ENTRY_COLUMNS``), their
values in storage form (dates as ISO text, JSON as text), ready for the driver's bulk paths; its
points and changes as archives of columns (``point_archive``, ``change_archive``)."""

import datetime as dt
import time
import typing
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from itertools import chain, repeat
from operator import attrgetter, itemgetter
from typing import Any

import numpy as np
from sqlalchemy import ColumnElement, String, and_, cast, select
from sqlalchemy.orm import Session

from app.db import fetch_all
from app.models import Game, PlayedGames, RatingList, RatingSeed, RatingSnapshot, Tournament, TournamentPlayer
from app.rating.registry import get_system
from app.rating.system import (
    NO_DAY,
    SCORE_OF_RESULT,
    ChangeColumns,
    CodedColumn,
    EntryColumns,
    GameColumns,
    PointColumns,
    RatingSystem,
    RecordColumn,
    Replay,
    ReplayInput,
    Seed,
    StoredGame,
    StoredTournament,
    float_column,
    lexsort_order,
    object_column,
)
from app.recompute import provenance
from app.recompute.eligibility import eligibility_conditions, tournament_conditions
from app.snapshots import played_games, stored_columns

Progress = Callable[[float], object]  # (what it returns is not read)

# The entries table's columns (snapshot_id first, then these), in the order the row tuples hold them;
# a point's and a change's fields, as ``Point``/``PointColumns`` and ``Change``/``ChangeColumns`` name them.
ENTRY_COLUMNS = ("player_id", "rating", "deviation", "games", "last_played", "status", "title", "counters")
POINT_COLUMNS = (
    "player_id",
    "date",
    "rating",
    "deviation",
    "games",
    "status",
    "last_played",
    "title",
    "counters",
    "tournament_ids",
)
CHANGE_COLUMNS = (
    "tournament_id",
    "player_id",
    "system",
    "rating_before",
    "rating_after",
    "change",
    "change_unrounded",
    "games_counted",
    "status_after",
    "title_after",
    "details",
)


@dataclass
class SnapshotData:
    """Everything one new snapshot holds, as plain rows ready for bulk inserts."""

    params: dict[str, Any]
    entries: list[tuple[Any, ...]]  # ENTRY_COLUMNS
    points: bytes = b""  # point_archive
    changes: bytes = b""  # change_archive
    games: int = 0
    tournaments: int = 0
    notes: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)  # seconds: read, compute
    warm_start: bytes | None = None
    # What produced it (app.recompute.provenance): recorded on the snapshot.
    system: str | None = None
    seeds: int = 0
    eligibility: dict[str, Any] = field(default_factory=dict)
    inputs_digest: str | None = None
    service_version: str | None = None
    input_tournaments: list[str] = field(default_factory=list)
    # The list's count of changes that made it stale, as read before its inputs
    # (app.recompute.staleness): its snapshot clears the mark only if the count is still this.
    input_changes: int = 0


def compute_snapshot(
    session: Session,
    rating_list: RatingList,
    list_date: dt.date,
    progress: Progress,
    only: Collection[str] | None = None,
    *,
    from_rows: bool = False,
) -> SnapshotData:
    """Read the list's eligible games and seeds, and replay them with the list's system. ``only``:
    of the eligible tournaments, just these (``verify`` reproducing a snapshot without what came
    later); ``from_rows``: a columnar system's games read from the games' rows, not the stored values
    (``verify``)."""
    # Read with the list's row, before any input: a change counted after it may be missing from them.
    input_changes = rating_list.input_changes
    started = time.perf_counter()
    inputs = read_inputs(session, rating_list, list_date, only, from_rows=from_rows)
    tournaments = inputs.given.tournaments
    progress(0.2)
    read = time.perf_counter()
    replayed = inputs.system.replay(inputs.given)
    progress(0.7)
    return SnapshotData(
        params={**(rating_list.params or {}), **replayed.params},
        entries=entry_rows(replayed),
        points=point_archive(replayed),
        changes=change_archive(replayed),
        games=inputs.games,
        tournaments=len(tournaments),
        notes=replayed.notes,
        timings={"read": read - started, "compute": time.perf_counter() - read},
        warm_start=replayed.warm_start,
        system=rating_list.system,
        seeds=len(inputs.given.seeds),
        eligibility=dict(rating_list.eligibility or {}),
        inputs_digest=inputs.digest,
        service_version=provenance.service_version(),
        input_tournaments=[t.id for t in tournaments],
        input_changes=input_changes,
    )


@dataclass
class Inputs:
    """What a list's system is handed: its eligible games, seeds and parameters as one ``ReplayInput``,
    with the digest of those inputs (``app.recompute.provenance``) and the number of games."""

    system: RatingSystem[Any, Any]
    given: ReplayInput[Any]
    digest: str
    games: int


def read_inputs(
    session: Session,
    rating_list: RatingList,
    list_date: dt.date,
    only: Collection[str] | None = None,
    *,
    from_rows: bool = False,
    warm: bool = True,
) -> Inputs:
    """The list's eligible games and seeds read for its system (a recompute's, an evaluation's);
    ``warm``: with the current snapshot's warm start, which a replay of the same games may begin from."""
    system = get_system(rating_list.system)
    params = system.params(rating_list.params)
    columns: GameColumns | None = None
    if system.columnar:
        read_games = eligible_games_from_rows if from_rows else eligible_games
        tournaments, columns = read_games(session, rating_list, only)
        games = len(columns)
    else:
        tournaments = stored_tournaments(session, rating_list, only)
        games = sum(len(t.games) for t in tournaments)
    seeds = (
        [
            Seed(s.player_id, stored_rating(s.rating), s.status, s.as_of, s.title, s.counters)
            for s in session.scalars(
                select(RatingSeed).where(RatingSeed.list_id == rating_list.id).order_by(RatingSeed.player_id)
            )
        ]
        if system.seed_model is not None
        else []
    )
    warm_start = None
    if warm and rating_list.current_snapshot_id is not None:
        warm_start = session.scalar(select(RatingSnapshot.warm_start).where(RatingSnapshot.id == rating_list.current_snapshot_id))
    digest = provenance.inputs_digest(tournaments, columns, seeds)
    return Inputs(system, ReplayInput(tournaments, seeds, params, list_date, warm_start, columns), digest, games)


def stored_tournaments(session: Session, rating_list: RatingList, only: Collection[str] | None = None) -> list[StoredTournament]:
    """The list's eligible tournaments with their played games, in (end, start, id) order."""
    tournaments = _only(_eligible_tournaments(session, rating_list), only)
    # Dates are read as ISO text and parsed by date.fromisoformat, cheaper than the drivers' own.
    rows = fetch_all(
        session,
        select(
            Game.tournament_id,
            Game.game_id,
            cast(Game.date, String),
            Game.black_id,
            Game.white_id,
            Game.result,
            Game.round,
            Game.handicap,
            Game.board_size,
        )
        .join(Tournament, Game.tournament_id == Tournament.id)
        .where(and_(*eligibility_conditions(rating_list)))
        .order_by(Tournament.end, Tournament.start, Tournament.id, Game.seq),
    )
    current: StoredTournament | None = None
    current_id = None
    parse = dt.date.fromisoformat
    days: dict[str, dt.date] = {}
    for tid, game_id, day, black, white, result, round_, handicap, game_board in rows:
        if current_id != tid:
            current_id, current = tid, tournaments.get(tid)
        if current is None:
            continue  # stored after the tournaments were read (two statements): the next recompute rates it
        game_day = days.get(day) or days.setdefault(day, parse(day[:10]))
        current.games.append(StoredGame(game_id, game_day, black, white, SCORE_OF_RESULT[result], round_, handicap, game_board))
    return [t for t in tournaments.values() if t.games]


def eligible_games(
    session: Session, rating_list: RatingList, only: Collection[str] | None = None
) -> tuple[list[StoredTournament], GameColumns]:
    """The list's eligible games as arrays, in the order ``stored_tournaments`` gives them, and their
    tournaments in (end, start, id) order without game objects (``GameColumns.tournament`` indexes them).

    Read from each eligible tournament's played games kept as one value (``app.snapshots.played_games``):
    some 9,500 values for a million games, put in the tournaments' order here."""
    tournaments = _only(_eligible_tournaments(session, rating_list), only)
    position = {tid: i for i, tid in enumerate(tournaments)}
    rows = fetch_all(
        session,
        select(PlayedGames.tournament_id, PlayedGames.players, PlayedGames.games)
        .join(Tournament, PlayedGames.tournament_id == Tournament.id)
        .where(and_(*tournament_conditions(rating_list))),
    )
    # A tournament stored after the tournaments were read (two statements) waits for the next recompute.
    found = sorted(((position[tid], players, games) for tid, players, games in rows if tid in position), key=itemgetter(0))
    listed = list(tournaments.values())
    return [listed[i] for i, _, _ in found], played_games.columns([(players, games) for _, players, games in found])


def eligible_games_from_rows(
    session: Session, rating_list: RatingList, only: Collection[str] | None = None
) -> tuple[list[StoredTournament], GameColumns]:
    """What ``eligible_games`` gives, read from the games' rows (a million rows on the largest
    history, several times slower): ``verify`` reads the stored games themselves, so that a game
    changed behind the service's back shows in the digest; a test compares the two reads."""
    tournaments = _only(_eligible_tournaments(session, rating_list), only)
    rows = (
        session.connection()
        .execute(
            select(Game.tournament_id, Game.seq, Game.black_id, Game.white_id, Game.result, cast(Game.date, String))
            .join(Tournament, Game.tournament_id == Tournament.id)
            .where(and_(*eligibility_conditions(rating_list)))
        )
        .all()
    )
    n = len(rows)
    tournament_ids, seqs, blacks, whites, results, dates = (
        (list(column) for column in zip(*rows, strict=True)) if rows else ([],) * 6
    )
    position = {tid: i for i, tid in enumerate(tournaments)}
    tournament = np.fromiter(map(position.get, tournament_ids, repeat(-1)), np.int64, n)
    order = np.lexsort((np.fromiter(seqs, np.int64, n), tournament))
    order = order[tournament[order] >= 0]
    n = len(order)
    code = {player_id: i for i, player_id in enumerate(dict.fromkeys(chain(blacks, whites)))}
    both = np.empty(2 * n, dtype=np.int64)
    both[0::2] = np.fromiter(map(code.__getitem__, blacks), np.int64, len(blacks))[order]
    both[1::2] = np.fromiter(map(code.__getitem__, whites), np.int64, len(whites))[order]
    codes, first_seen, numbered = np.unique(both, return_index=True, return_inverse=True)
    renumber = np.empty(len(codes), dtype=np.int64)
    renumber[np.argsort(first_seen, kind="stable")] = np.arange(len(codes))
    both = renumber[numbered]
    by_code = list(code)
    player_ids = [by_code[c] for c in codes[np.argsort(first_seen, kind="stable")].tolist()]
    ordinal = {d: dt.date.fromisoformat(d[:10]).toordinal() for d in set(dates)}
    present, tournament = np.unique(tournament[order], return_inverse=True)
    listed = list(tournaments.values())
    return [listed[i] for i in present.tolist()], GameColumns(
        player_ids=player_ids,
        black=both[0::2].copy(),
        white=both[1::2].copy(),
        black_score=np.fromiter(map(SCORE_OF_RESULT.__getitem__, results), np.float64, len(results))[order],
        day=np.fromiter(map(ordinal.__getitem__, dates), np.int64, len(dates))[order],
        tournament=tournament.astype(np.int64, copy=False),
    )


_NOT_FIELDS = {"id", "start", "end", "created_at", "updated_at", "withdrawn_at", "withdrawn_reason"}


def _only(tournaments: dict[str, StoredTournament], only: Collection[str] | None) -> dict[str, StoredTournament]:
    """Just the tournaments ``only`` names (all when None): the games of the others are then skipped as
    those of a tournament stored after the tournaments were read."""
    if only is None:
        return tournaments
    wanted = set(only)
    return {tid: tournament for tid, tournament in tournaments.items() if tid in wanted}


def _eligible_tournaments(session: Session, rating_list: RatingList) -> dict[str, StoredTournament]:
    """Every tournament meeting the list's conditions on tournaments, by id in (end, start, id) order,
    with its other columns (``fields``) and what its participants declared (``participants``), for the
    rules that read them; no games yet. Two queries that never touch the games table: the callers keep
    those with an eligible played game."""
    conditions: list[ColumnElement[bool]] = tournament_conditions(rating_list)
    system = get_system(rating_list.system)
    columns = [c for c in Tournament.__table__.c if c.name not in _NOT_FIELDS]
    names = [c.name for c in columns]
    tournaments: dict[str, StoredTournament] = {}
    for tid, start, end, *values in session.connection().execute(
        select(Tournament.id, Tournament.start, Tournament.end, *columns)
        .where(and_(*conditions))
        .order_by(Tournament.end, Tournament.start, Tournament.id)
    ):
        stored = dict(zip(names, values, strict=True))
        tournaments[tid] = StoredTournament(
            tid,
            start,
            end,
            [],
            stored["time_control_minutes"],
            stored["board_size"],
            fields=system.tournament_fields(stored),
        )
    declared_columns = [c for c in TournamentPlayer.__table__.c if c.name not in ("tournament_id", "player_id")]
    declared_names = [c.name for c in declared_columns]
    for tid, player_id, *values in session.connection().execute(
        select(TournamentPlayer.tournament_id, TournamentPlayer.player_id, *declared_columns)
        .join(Tournament, Tournament.id == TournamentPlayer.tournament_id)
        .where(and_(*conditions))
    ):
        tournament = tournaments.get(tid)
        if tournament is not None:  # else stored after the first query: left for the next recompute
            tournament.participants[player_id] = dict(zip(declared_names, values, strict=True))
    return tournaments


def entry_rows(replayed: Replay) -> list[tuple[Any, ...]]:
    """The list's entries as ENTRY_COLUMNS tuples, in primary-key order (an index filled in key order
    is written sequentially, faster than in a system's own order): from ``Entry`` objects or from a
    columnar system's ``EntryColumns`` (zipped, no object per entry on the way)."""
    entries = replayed.entries
    if isinstance(entries, EntryColumns):
        iso = {
            day: None if day == NO_DAY else dt.date.fromordinal(day).isoformat()
            for day in np.unique(entries.last_played).tolist()
        }
        rows = list(
            zip(
                entries.player_id,
                _python_values(entries.rating),
                _python_values(entries.deviation),
                _python_values(entries.games),
                map(iso.__getitem__, entries.last_played.tolist()),
                entries.status,
                entries.title,
                map(_json_value, entries.counters),
                strict=True,
            )
        )
    else:
        iso_dates = _IsoDates()
        rows = [
            (player_id, rating, deviation, games, iso_dates[last_played], status, title, _json_value(counters))
            for player_id, rating, deviation, games, last_played, status, title, counters in map(_ENTRY_FIELDS, entries)
        ]
    rows.sort(key=itemgetter(0))
    return rows


def point_archive(replayed: Replay) -> bytes:
    """The per-day points as one archive of columns (``app.snapshots.stored_columns``), sorted by
    player id, then date: from ``Point`` objects or from a columnar system's ``PointColumns`` alike.
    Dates are ``date.toordinal()`` numbers (``NO_DAY`` for none), a missing deviation NaN."""
    fields = dict(zip(POINT_COLUMNS, _columns(replayed.points, POINT_COLUMNS), strict=True))
    days = _day_numbers(fields["date"])
    order = lexsort_order((days, _sorted_codes(fields["player_id"])))
    return stored_columns.pack(
        {
            "player_id": _taken(fields["player_id"], order),
            "day": days[order],
            "rating": np.asarray(fields["rating"], dtype=np.float64)[order],
            "deviation": float_column(fields["deviation"])[order],
            # A count of games: 4 bytes, as the days (readers widen).
            "games": np.asarray(fields["games"], dtype=np.int32)[order],
            "status": _taken(fields["status"], order),
            "last_played": _day_numbers(fields["last_played"])[order],
            "title": _taken(fields["title"], order),
            "counters": _taken(fields["counters"], order),
            "tournament_ids": _taken(fields["tournament_ids"], order),
        }
    )


def change_archive(replayed: Replay) -> bytes:
    """The per-tournament changes as one archive of columns, sorted by tournament id, then player id,
    from ``Change`` objects or ``ChangeColumns``; a missing rating or change is NaN."""
    fields = dict(zip(CHANGE_COLUMNS, _columns(replayed.changes, CHANGE_COLUMNS), strict=True))
    order = lexsort_order((_sorted_codes(fields["player_id"]), _sorted_codes(fields["tournament_id"])))
    return stored_columns.pack(
        {
            name: float_column(values)[order]
            if name in _CHANGE_NUMBERS
            else np.asarray(values, dtype=np.int64)[order]
            if name == "games_counted"
            else _taken(values, order)
            for name, values in fields.items()
        }
    )


_CHANGE_NUMBERS = ("rating_before", "rating_after", "change", "change_unrounded")


def _sorted_codes(names: Sequence[str] | CodedColumn) -> np.ndarray:
    """Each name's position among the distinct names in sorted order: a key numpy sorts by."""
    if isinstance(names, CodedColumn):
        if names.value_order is not None:
            known: np.ndarray = names.value_order[names.codes]
            return known
        values = typing.cast(list[str], list(names.values))  # ids: strings
        rank = np.empty(len(values), dtype=np.int64)
        rank[sorted(range(len(values)), key=values.__getitem__)] = np.arange(len(values))
        ranks: np.ndarray = rank[names.codes]
        return ranks
    code = {name: i for i, name in enumerate(sorted(set(names)))}
    return np.fromiter(map(code.__getitem__, names), np.int64, len(names))


def _day_numbers(days: Sequence[dt.date | None] | np.ndarray) -> np.ndarray:
    """A column of dates as ``int32`` ordinals (``NO_DAY`` for none); a columnar system's are already."""
    if isinstance(days, np.ndarray) and days.dtype.kind in "iu":
        return days.astype(np.int32)
    return np.fromiter(map(_Ordinals().__getitem__, days), np.int32, len(days))


def _taken(values: Sequence[Any] | CodedColumn | RecordColumn, order: np.ndarray) -> np.ndarray | CodedColumn | RecordColumn:
    """A column of objects in the stored order: coded columns stay coded (``stored_columns.pack``)."""
    if isinstance(values, CodedColumn | RecordColumn):
        return values.taken(order)
    taken: np.ndarray = object_column(values)[order]
    return taken


def _python_values(values: Sequence[Any] | np.ndarray) -> Sequence[Any]:
    """An array's values as Python numbers (what the driver binds), a sequence as it is."""
    return values.tolist() if isinstance(values, np.ndarray) else values


def _columns(records: Sequence[Any] | PointColumns | ChangeColumns, names: tuple[str, ...]) -> list[Any]:
    """One sequence per field, in ``names`` order: a columnar system's own (some as arrays or coded
    columns), or the objects' fields (named as the columns) transposed."""
    if isinstance(records, PointColumns | ChangeColumns):
        return [getattr(records, name) for name in names]
    return list(zip(*map(attrgetter(*names), records), strict=True)) or [()] * len(names)


# An entry's fields are named as the columns: read in column order, one C call per object.
_ENTRY_FIELDS = attrgetter(*ENTRY_COLUMNS)


class _IsoDates(dict[dt.date | None, str | None]):
    """ISO text of dates, each computed once (a snapshot's rows share a few thousand dates)."""

    def __missing__(self, day: dt.date | None) -> str | None:
        text = self[day] = None if day is None else day.isoformat()
        return text


class _Ordinals(dict[dt.date | None, int]):
    """``date.toordinal()`` of dates (``NO_DAY`` for none), each computed once."""

    def __missing__(self, day: dt.date | None) -> int:
        ordinal = self[day] = NO_DAY if day is None else day.toordinal()
        return ordinal


def _json_value(value: Any) -> str:
    return "null" if value is None else _json(value)


_json = stored_columns.json_text


def stored_rating(rating: float) -> float:
    """A seed's rating as its system wrote it: a whole number read back as the integer it was (the Elo
    systems' seeds are whole; the digest of a snapshot's inputs stays what it was), a fraction as is."""
    return int(rating) if float(rating).is_integer() else float(rating)
