"""A snapshot's stored per-day points as columns, for reading its list as of any date and a
player's history.

A list ``as_of`` a date needs every player's last point on or before it (and his next one): thousands
of players, each read by an index seek, then a standing computed per player; done in SQL and Python
per request that costs a tenth of a second on a RIF-sized history. A snapshot's points never change
once its recompute is committed, so each process reads them once into sorted columns (the snapshot's
one archive of columns, ``RatingSnapshot.point_columns``) and answers any date from them with numpy:
the last point on or before the day is a binary search per player, the standings are the system's own
column formulas. A player's history is his slice of the same columns.

The archive is read in place and decoded only as far as a reader needs (``stored_columns.Archive``):
the numeric columns and the statuses for any date, a player's tournaments for his rows alone; the
players' names and countries are read when a reader asks for them (``people``). So the first read of
a snapshot in a process costs little more than fetching its archive. The timelines are kept for the
few most recently read snapshots (``stored_columns.PerSnapshot``)."""

from __future__ import annotations

import datetime as dt
import math
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import Player, RatingSnapshot
from app.rating.system import NO_DAY, HeldPoints, PointArrays, object_column
from app.services import stored_columns
from app.services.players import full_name

_DAY_BITS = 22  # date(9999, 12, 31).toordinal() < 2 ** 22: a (player, day) pair fits one int64 key


@dataclass(frozen=True)
class Timeline:
    """A snapshot's points sorted by player, then date; players numbered in the order of their ids.

    The numbers are kept as stored (``int32`` days, say) and widened for the rows a read takes; the
    statuses, titles and counters are decoded from the archive for those rows only: a list as of a
    date reads one row per player, a fifth of a large history's rows, and a history one player's."""

    player_ids: list[str]  # sorted as Python sorts strings: the list's tie-break on equal ratings
    first_row: np.ndarray  # per player (and one past the last): his first row; his rows end where the next player's begin
    key: np.ndarray  # per row: player << _DAY_BITS | day, ascending
    numbers: dict[str, np.ndarray]  # per row: each of _NUMBER_COLUMNS as stored
    archive: stored_columns.Archive | None  # where each row's objects (status, title, counters, tournaments) are read from
    stored_row: np.ndarray | None  # per row, its row in the archive (None: the same)
    _people: dict[str, np.ndarray] = field(default_factory=dict, compare=False, repr=False)

    def people(self, session: Session) -> tuple[np.ndarray, np.ndarray]:
        """Per player, his name as a list shows it and his country (objects: str or None), as stored
        when first asked here: for a publication of the whole list (a page reads its own players')."""
        if not self._people:
            name, country = np.full(len(self.player_ids), None, dtype=object), np.full(len(self.player_ids), None, dtype=object)
            number = {player_id: i for i, player_id in enumerate(self.player_ids)}
            # Every player, not an IN list of thousands of ids (the drivers' limits on parameters).
            for player_id, first_name, surname, player_country in session.connection().execute(
                select(Player.id, Player.name, Player.surname, Player.country)
            ):
                i = number.get(player_id)
                if i is not None:
                    name[i], country[i] = full_name(first_name, surname), player_country
            self._people.update(name=name, country=country)
        return self._people["name"], self._people["country"]

    def history(self, player_id: str) -> list[dict[str, Any]]:
        """The player's points, oldest first, as the history endpoint shows them (none when the
        snapshot has no point of his)."""
        player = bisect_left(self.player_ids, player_id)
        if player == len(self.player_ids) or self.player_ids[player] != player_id:
            return []
        rows = np.arange(self.first_row[player], self.first_row[player + 1])
        points = self.points(rows)
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
                points.day.tolist(),
                points.rating.tolist(),
                points.deviation.tolist(),
                points.games.tolist(),
                points.status.tolist(),
                points.title.tolist(),
                points.counters.tolist(),
                self._objects("tournament_ids", rows).tolist(),
                strict=True,
            )
        ]

    def points(self, rows: np.ndarray) -> PointArrays:
        """The points at ``rows`` (ascending row numbers), numbers widened, objects decoded."""
        return PointArrays(
            **{name: self.numbers[name][rows].astype(dtype, copy=False) for name, dtype in _NUMBER_COLUMNS.items()},
            **{name: self._objects(name, rows) for name in _OBJECT_COLUMNS},
        )

    def _objects(self, name: str, rows: np.ndarray) -> np.ndarray:
        if self.archive is None:
            return np.empty(0, dtype=object)
        return self.archive.rows(name, rows if self.stored_row is None else self.stored_row[rows])

    def held_on(self, day: dt.date, players: np.ndarray | None = None) -> tuple[np.ndarray, HeldPoints]:
        """The players who have a point on or before ``day`` (their numbers, ascending) and, for
        each, that last point with the date, rating and deviation of the one after it. ``players``:
        only these (their numbers, ascending), not every player."""
        if players is None:
            # Every player: a player's rows are by date, so his rows on or before the day are the first
            # few; counted for all at once with one running sum over the rows (no search per player).
            players = np.arange(len(self.player_ids), dtype=np.int64)
            up_to = np.concatenate(([0], np.cumsum(self.numbers["day"] <= day.toordinal(), dtype=np.int32)))
            row = self.first_row[:-1] + (up_to[self.first_row[1:]] - up_to[self.first_row[:-1]]) - 1
        else:
            row = np.searchsorted(self.key, (players << _DAY_BITS) | day.toordinal(), side="right") - 1
        has_point = row >= self.first_row[players]
        players, row = players[has_point], row[has_point]
        following = row + 1
        has_next = following < self.first_row[players + 1]
        following = np.where(has_next, following, row)
        numbers = self.numbers
        held = HeldPoints(
            **self.points(row).columns(),
            next_day=np.where(has_next, numbers["day"][following].astype(np.int64), NO_DAY),
            next_rating=np.where(has_next, numbers["rating"][following], np.nan),
            next_deviation=np.where(has_next, numbers["deviation"][following], np.nan),
        )
        return players, held


def timeline_of(session: Session, snapshot: RatingSnapshot) -> Timeline:
    """The snapshot's points as columns: read once per process, then from memory."""
    return _timelines.of(session, snapshot)


def forget_all() -> None:
    """Drop every cached timeline (tests that rebuild the database between cases)."""
    _timelines.forget_all()


def _read(session: Session, snapshot_id: int) -> Timeline:
    return timeline_from_archive(session, stored_columns.stored_archive(session, RatingSnapshot.point_columns, snapshot_id))


def timeline_from_archive(session: Session, archive: bytes | None) -> Timeline:
    """A timeline of points not (or not yet) stored as a snapshot's: a recompute's archive
    (``recompute.point_archive``), as ``python -m app.cli verify`` reproduces one."""
    del session  # the players' names are read when asked for (Timeline.people)
    if not archive:
        return _timeline(None, [], np.empty(0, dtype=np.int64), _NO_POINTS)
    columns = stored_columns.Archive(archive)
    coded = columns.codes("player_id")
    codes, ids = coded if coded is not None else _as_codes(columns.column("player_id"))
    row_ids = ids.tolist()
    player_ids = sorted(row_ids)
    # The archive lists its ids in the order of their first rows, which is sorted when its rows are.
    number = np.arange(len(player_ids)) if player_ids == row_ids else _numbers(row_ids, player_ids)
    return _timeline(columns, player_ids, number[codes], columns)


def _as_codes(column: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    distinct = list(dict.fromkeys(column.tolist()))
    code = {value: i for i, value in enumerate(distinct)}
    return np.fromiter(map(code.__getitem__, column.tolist()), dtype=np.int64, count=len(column)), object_column(distinct)


def _numbers(ids: list[str], player_ids: list[str]) -> np.ndarray:
    number = {player_id: i for i, player_id in enumerate(player_ids)}
    return np.fromiter(map(number.__getitem__, ids), dtype=np.int64, count=len(ids))


def _timeline(archive: stored_columns.Archive | None, player_ids: list[str], player_of_row: np.ndarray, columns: Any) -> Timeline:
    """``columns``: the archive, or the columns of an empty one (``_NO_POINTS``)."""

    def column(name: str) -> np.ndarray:
        return columns.column(name) if isinstance(columns, stored_columns.Archive) else columns[name]

    key = (player_of_row.astype(np.int64) << _DAY_BITS) | column("day")
    # Stored in this order already; not relied on.
    order = None if bool(np.all(key[:-1] <= key[1:])) else np.argsort(key, kind="stable")
    rows = slice(None) if order is None else order
    key = key[rows]
    return Timeline(
        player_ids=player_ids,
        first_row=np.searchsorted(key, np.arange(len(player_ids) + 1, dtype=np.int64) << _DAY_BITS, side="left"),
        key=key,
        numbers={name: column(name)[rows] for name in _NUMBER_COLUMNS},
        archive=archive,
        stored_row=order,
    )


# The point columns read as numbers, each with the type a reader gets; the others are objects.
_NUMBER_COLUMNS = {"day": np.int64, "rating": np.float64, "deviation": np.float64, "games": np.int64, "last_played": np.int64}
_OBJECT_COLUMNS = ("status", "title", "counters")
_NO_POINTS = {
    **{name: np.empty(0, dtype=object) for name in ("player_id", *_OBJECT_COLUMNS, "tournament_ids")},
    **{name: np.empty(0, dtype=np.int64) for name in ("day", "games", "last_played")},
    **{name: np.empty(0, dtype=np.float64) for name in ("rating", "deviation")},
}


_timelines = stored_columns.PerSnapshot(_read)
