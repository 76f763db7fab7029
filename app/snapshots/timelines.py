"""A snapshot's stored per-day points as columns, for reading its list as of any date and a
player's history.

A list ``as_of`` a date needs every player's last point on or before it (and his next one): thousands
of players, each read by an index seek, then a standing computed per player; done in SQL and Python
per request that costs a tenth of a second on a RIF-sized history. A snapshot's points never change
once its recompute is committed, so each process reads them once into sorted columns (the snapshot's
one archive of columns, ``RatingSnapshot.point_columns``) and answers any date from them with numpy:
the last point on or before the day is a binary search per player, the standings are the system's own
column formulas. A player's history is his slice of the same columns.

The archive is read and decoded only as far as a reader needs (``stored_columns.Archive``): a
timeline is built from the player codes, ids and days; a date reads the other columns but the
tournaments, a history his rows alone; the players' names and countries are read when a reader asks
for them (``people``). The timelines are kept for the few most recently read snapshots
(``stored_columns.PerSnapshot``), each reader given a copy reading through his session."""

from __future__ import annotations

import datetime as dt
import math
from bisect import bisect_left
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session

from app import caches
from app.models import Player, RatingSnapshot
from app.names import full_name
from app.rating.system import NO_DAY, HeldPoints, PointArrays
from app.snapshots import stored_columns

_DAY_BITS = 22  # date(9999, 12, 31).toordinal() < 2 ** 22: a (player, day) pair fits one int64 key


@dataclass
class _Kept:
    """What a timeline builds when first asked, shared by its copies bound to readers' sessions."""

    people: dict[str, np.ndarray] = field(default_factory=dict)
    numbers: dict[str, np.ndarray] = field(default_factory=dict)  # (only for an archive not stored in order)
    python_bytes: dict[str, int] = field(default_factory=dict)  # the player ids' and the people's, once built


@dataclass(frozen=True)
class Timeline:
    """A snapshot's points sorted by player, then date; players numbered in the order of their ids.

    The numbers are kept as stored (``int32`` days, say) and widened for the rows a read takes; the
    statuses, titles and counters are decoded from the archive for those rows only: a list as of a
    date reads one row per player, a fifth of a large history's rows, and a history one player's.
    The archive's columns are read when a reader first needs them (``stored_columns.Archive``), through
    the session of the copy the reader got (``timeline_of``): a history reads its player's rows alone."""

    player_ids: list[str]  # sorted as Python sorts strings: the list's tie-break on equal ratings
    first_row: np.ndarray  # per player (and one past the last): his first row; his rows end where the next player's begin
    archive: stored_columns.Archive | None  # the points' columns (None: no points)
    stored_row: np.ndarray | None  # per row, its row in the archive (None: the same)
    session: Session | None = None  # the session the archive's columns are read through
    _kept: _Kept = field(default_factory=_Kept, compare=False, repr=False)

    def reading_through(self, session: Session) -> Timeline:
        """The same timeline, its columns read through ``session`` when first needed."""
        return replace(self, session=session)

    def nbytes(self) -> int:
        """What the timeline holds now, its archive's columns read so far with it (``app.caches``)."""
        kept = self._kept
        if "player_ids" not in kept.python_bytes:
            kept.python_bytes["player_ids"] = caches.python_bytes(self.player_ids)
        arrays = [self.first_row, *([] if self.stored_row is None else [self.stored_row]), *kept.numbers.values()]
        return (
            (0 if self.archive is None else self.archive.nbytes())
            + stored_columns.owned_bytes(arrays)
            + sum(kept.python_bytes.values())
        )

    def people(self, session: Session) -> tuple[np.ndarray, np.ndarray]:
        """Per player, his name as a list shows it and his country (objects: str or None), as stored
        when first asked here: for a publication of the whole list (a page reads its own players')."""
        people = self._kept.people
        if not people:
            name, country = np.full(len(self.player_ids), None, dtype=object), np.full(len(self.player_ids), None, dtype=object)
            number = {player_id: i for i, player_id in enumerate(self.player_ids)}
            # Every player, not an IN list of thousands of ids (the drivers' limits on parameters).
            for player_id, first_name, surname, player_country in session.connection().execute(
                select(Player.id, Player.name, Player.surname, Player.country)
            ):
                i = number.get(player_id)
                if i is not None:
                    name[i], country[i] = full_name(first_name, surname), player_country
            people.update(name=name, country=country)
            self._kept.python_bytes["people"] = caches.python_bytes(name) + caches.python_bytes(country)
        return people["name"], people["country"]

    def history(self, player_id: str) -> list[dict[str, Any]]:
        """The player's points, oldest first, as the history endpoint shows them (none when the
        snapshot has no point of his)."""
        player = bisect_left(self.player_ids, player_id)
        if player == len(self.player_ids) or self.player_ids[player] != player_id:
            return []
        rows = slice(int(self.first_row[player]), int(self.first_row[player + 1]))
        points = self._columns((*_NUMBER_COLUMNS, *_OBJECT_COLUMNS, "tournament_ids"), rows)
        return [
            {
                "date": dt.date.fromordinal(day),
                "rating": rating,
                "deviation": None if math.isnan(deviation) else deviation,
                "games": games,
                "status": status,
                "title": title,
                "counters": counters,
                "tournament_ids": tournament_ids,
            }
            for day, rating, deviation, games, status, title, counters, tournament_ids in zip(
                *(
                    points[name].tolist()
                    for name in ("day", "rating", "deviation", "games", "status", "title", "counters", "tournament_ids")
                ),
                strict=True,
            )
        ]

    def points(self, rows: np.ndarray | slice) -> PointArrays:
        """The points at ``rows`` (ascending row numbers), numbers widened, objects decoded."""
        columns = self._columns((*_NUMBER_COLUMNS, *_OBJECT_COLUMNS), rows)
        return PointArrays(
            **{name: columns[name].astype(dtype, copy=False) for name, dtype in _NUMBER_COLUMNS.items()},
            **{name: columns[name] for name in _OBJECT_COLUMNS},
        )

    def held_on(self, day: dt.date, players: np.ndarray | None = None) -> tuple[np.ndarray, HeldPoints]:
        """The players who have a point on or before ``day`` (their numbers, ascending) and, for
        each, that last point with the date, rating and deviation of the one after it. ``players``:
        only these (their numbers, ascending), not every player."""
        first_row = self.first_row
        if players is None:
            if self.archive is not None:
                # Every column a standing needs, whole: read in one pass over the stored archive.
                self.archive.load(self.session, (*_NUMBER_COLUMNS, *_OBJECT_COLUMNS))
            # Every player: a player's rows are by date, so his rows on or before the day are the first
            # few; counted for all at once with one running sum over the rows (no search per player).
            players = np.arange(len(self.player_ids), dtype=np.int64)
            on_or_before = self._column("day", slice(None)) <= day.toordinal()
            up_to = np.cumsum(on_or_before, dtype=np.int32)
            # His rows' count: up to his last row, less up to his first, plus his first (every player has a row).
            starts, ends = first_row[:-1], first_row[1:] - 1
            row = starts + (up_to[ends] - up_to[starts] + on_or_before[starts]) - 1
        else:
            # A few players: each one's days alone, searched.
            row = np.array(
                [
                    first_row[p]
                    + np.searchsorted(self._column("day", slice(first_row[p], first_row[p + 1])), day.toordinal(), "right")
                    - 1
                    for p in players.tolist()
                ],
                dtype=np.int64,
            )
        has_point = row >= first_row[players]
        players, row = players[has_point], row[has_point]
        following = row + 1
        has_next = following < first_row[players + 1]
        following = np.where(has_next, following, row)
        held = HeldPoints(
            **self.points(row).columns(),
            next_day=np.where(has_next, self._column("day", following).astype(np.int64), NO_DAY),
            next_rating=np.where(has_next, self._column("rating", following), np.nan),
            next_deviation=np.where(has_next, self._column("deviation", following), np.nan),
        )
        return players, held

    def _columns(self, names: tuple[str, ...], rows: np.ndarray | slice) -> dict[str, np.ndarray]:
        """Columns' values at ``rows`` (numbers as stored): what is not read yet read in one pass."""
        if self.archive is not None and self.stored_row is None:
            return dict(zip(names, self.archive.rows_of(self.session, names, rows), strict=True))
        return {name: self._column(name, rows) for name in names}

    def _column(self, name: str, rows: np.ndarray | slice) -> np.ndarray:
        """A column's values at ``rows`` (numbers as stored)."""
        if self.archive is None:
            return _NO_POINTS[name][rows]
        if self.stored_row is None:
            return self.archive.rows(self.session, name, rows)
        if name in _NUMBER_COLUMNS:
            numbers = self._kept.numbers
            if name not in numbers:
                numbers[name] = self.archive.column(self.session, name)[self.stored_row]
            return numbers[name][rows]
        return self.archive.rows(self.session, name, self.stored_row[rows])


def timeline_of(session: Session, snapshot: RatingSnapshot) -> Timeline:
    """The snapshot's points as columns, read through ``session``: read once per process, then from memory."""
    return _timelines.of(session, snapshot).reading_through(session)


def prepared(session: Session, snapshot: RatingSnapshot) -> Timeline:
    """The snapshot's timeline with every column a list as of a date reads already read, through
    ``session``: the recompute that writes the snapshot builds it before committing, for the readers
    of its own process (``keep``), who would otherwise each pay for it on their first read."""
    timeline = _timelines.build(session, snapshot)
    if timeline.archive is not None:
        timeline.archive.load(session, (*_NUMBER_COLUMNS, *_OBJECT_COLUMNS))
    return timeline


def keep(snapshot: RatingSnapshot, timeline: Timeline) -> None:
    """Keep ``timeline`` (``prepared``) as the snapshot's, once the snapshot is committed."""
    _timelines.keep(snapshot, timeline)


def is_kept(snapshot: RatingSnapshot) -> bool:
    """Whether this process keeps the snapshot's timeline already (a reader's or ``keep``'s)."""
    return _timelines.is_kept(snapshot)


def forget_all() -> None:
    """Drop every cached timeline (tests that rebuild the database between cases)."""
    _timelines.forget_all()


def _read(session: Session, snapshot_id: int) -> Timeline:
    archive = stored_columns.Archive.stored(session, RatingSnapshot.point_columns, snapshot_id, load=("player_id", "day"))
    # Kept for every reader, so bound to none: each reads through his own copy (``timeline_of``), never
    # through this first reader's session once his request has ended.
    return replace(_timeline(session, archive), session=None)


def timeline_from_archive(session: Session, archive: bytes | None) -> Timeline:
    """A timeline of points not (or not yet) stored as a snapshot's: a recompute's archive
    (``compute.point_archive``, app.recompute), as ``python -m app.cli verify`` reproduces one."""
    return _timeline(session, stored_columns.Archive(archive) if archive else None)


def _timeline(session: Session, archive: stored_columns.Archive | None) -> Timeline:
    if archive is None:
        return Timeline([], np.zeros(1, dtype=np.int64), None, None, session)
    coded = archive.codes(session, "player_id")
    codes, row_ids = coded if coded is not None else _as_codes(archive.column(session, "player_id"))
    day = archive.column(session, "day")
    player_ids = sorted(row_ids)
    # The archive lists its ids in the order of their first rows, which is sorted when its rows are;
    # each player's rows are then one run of his code, by date (checked: not relied on).
    if player_ids == row_ids and _by_player_then_day(codes, day):
        first_row = np.concatenate(([0], np.flatnonzero(codes[1:] != codes[:-1]) + 1, [len(codes)]))
        if len(first_row) == len(player_ids) + 1:
            return Timeline(player_ids, first_row, archive, None, session)
    player_of_row = _numbers(row_ids, player_ids)[codes]
    order = np.argsort((player_of_row << _DAY_BITS) | day, kind="stable")
    # Each player's rows are as many as his codes, and follow the previous player's.
    first_row = np.concatenate(([0], np.cumsum(np.bincount(player_of_row, minlength=len(player_ids)))))
    return Timeline(player_ids, first_row, archive, order, session)


def _by_player_then_day(codes: np.ndarray, day: np.ndarray) -> bool:
    """Whether the rows are sorted by code, then day (compared as stored: no wider copies made)."""
    later_player = codes[1:] > codes[:-1]
    return bool(np.all(later_player | (codes[1:] == codes[:-1]))) and bool(np.all(later_player | (day[1:] >= day[:-1])))


def _as_codes(column: np.ndarray) -> tuple[np.ndarray, list[str]]:
    distinct = list(dict.fromkeys(column.tolist()))
    code = {value: i for i, value in enumerate(distinct)}
    return np.fromiter(map(code.__getitem__, column.tolist()), dtype=np.int64, count=len(column)), distinct


def _numbers(ids: list[str], player_ids: list[str]) -> np.ndarray:
    number = {player_id: i for i, player_id in enumerate(player_ids)}
    return np.fromiter(map(number.__getitem__, ids), dtype=np.int64, count=len(ids))


# The point columns read as numbers, each with the type a reader gets; the others are objects.
_NUMBER_COLUMNS = {"day": np.int64, "rating": np.float64, "deviation": np.float64, "games": np.int64, "last_played": np.int64}
_OBJECT_COLUMNS = ("status", "title", "counters")
_NO_POINTS = {
    **{name: np.empty(0, dtype=object) for name in ("player_id", *_OBJECT_COLUMNS, "tournament_ids")},
    **{name: np.empty(0, dtype=np.int64) for name in ("day", "games", "last_played")},
    **{name: np.empty(0, dtype=np.float64) for name in ("rating", "deviation")},
}


_timelines = stored_columns.PerSnapshot(_read, "timelines", "cache_timelines_bytes")
