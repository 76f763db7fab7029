"""A snapshot's stored per-day points as columns, for reading its list as of any date.

A list ``as_of`` a date needs every player's last point on or before it (and his next one): thousands
of players, each read by an index seek, then a standing computed per player; done in SQL and Python
per request that costs a tenth of a second on a RIF-sized history. A snapshot's points never change
once its recompute is committed, so each process reads them once into sorted columns (one indexed
range read of the snapshot's points) and answers any date from them with numpy: the last point on or
before the day is a binary search per player, the standings are the system's own column formulas.

The players' names and countries are read with the points: a page of the list as of a date shows
them as they were when its snapshot was first read here (docs/decisions.md 7.9). The columns are
kept for the few most recently read snapshots (``CACHED_SNAPSHOTS``), keyed by the
snapshot's id and creation time, so that a snapshot id reused after a deletion can never be served
another snapshot's points."""

from __future__ import annotations

import datetime as dt
import threading
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import Player, RatingPoint, RatingSnapshot
from app.rating.system import NO_DAY, HeldPoints, Point, PointArrays
from app.services.players import full_name

CACHED_SNAPSHOTS = 8

_DAY_BITS = 22  # date(9999, 12, 31).toordinal() < 2 ** 22: a (player, day) pair fits one int64 key


@dataclass(frozen=True)
class Timeline:
    """A snapshot's points sorted by player, then date; players numbered in the order of their ids."""

    player_ids: list[str]  # sorted as Python sorts strings: the list's tie-break on equal ratings
    name: np.ndarray  # per player, as a list shows it (objects: str or None), read with the points
    country: np.ndarray
    player_of_row: np.ndarray
    first_row: np.ndarray  # per player: his first row; his rows end where the next player's begin
    key: np.ndarray  # per row: player << _DAY_BITS | day, ascending
    points: PointArrays  # per row

    def held_on(self, day: dt.date) -> tuple[np.ndarray, HeldPoints]:
        """The players who have a point on or before ``day`` (their numbers, ascending) and, for
        each, that last point with the date, rating and deviation of the one after it."""
        players = np.arange(len(self.player_ids), dtype=np.int64)
        row = np.searchsorted(self.key, (players << _DAY_BITS) | day.toordinal(), side="right") - 1
        has_point = row >= self.first_row
        players, row = players[has_point], row[has_point]
        following = row + 1
        has_next = following < np.append(self.first_row[1:], len(self.key))[players]
        following = np.where(has_next, following, row)
        held = HeldPoints(
            **self.points.columns(row),
            next_day=np.where(has_next, self.points.day[following], NO_DAY),
            next_rating=np.where(has_next, self.points.rating[following], np.nan),
            next_deviation=np.where(has_next, self.points.deviation[following], np.nan),
        )
        return players, held


def timeline_of(session: Session, snapshot: RatingSnapshot) -> Timeline:
    """The snapshot's points as columns: read once per process, then from memory."""
    key = (snapshot.id, snapshot.created_at)
    with _lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return found
    timeline = _read(session, snapshot.id)
    with _lock:
        _cache[key] = timeline
        while len(_cache) > CACHED_SNAPSHOTS:
            _cache.popitem(last=False)
    return timeline


def forget_all() -> None:
    """Drop every cached timeline (tests that rebuild the database between cases)."""
    with _lock:
        _cache.clear()


_lock = threading.Lock()
_cache: OrderedDict[tuple[int, dt.datetime | None], Timeline] = OrderedDict()


def _read(session: Session, snapshot_id: int) -> Timeline:
    rows = session.connection().execute(
        select(
            # Point's own field order
            RatingPoint.player_id, RatingPoint.date, RatingPoint.rating, RatingPoint.deviation, RatingPoint.games,
            RatingPoint.status, RatingPoint.last_played, RatingPoint.title, RatingPoint.counters,
        ).where(RatingPoint.snapshot_id == snapshot_id)
    ).all()
    player_ids = sorted({row[0] for row in rows})
    number = {player_id: i for i, player_id in enumerate(player_ids)}
    name, country = np.full(len(player_ids), None, dtype=object), np.full(len(player_ids), None, dtype=object)
    listed = select(Player.id, Player.name, Player.surname, Player.country).where(
        Player.id.in_(select(RatingPoint.player_id).where(RatingPoint.snapshot_id == snapshot_id))
    )
    for player_id, first_name, surname, player_country in session.connection().execute(listed):
        name[number[player_id]], country[number[player_id]] = full_name(first_name, surname), player_country
    points = [Point(*row) for row in rows]
    player_of_row = np.fromiter((number[point.player_id] for point in points), dtype=np.int64, count=len(points))
    day = np.fromiter((point.date.toordinal() for point in points), dtype=np.int64, count=len(points))
    key = (player_of_row << _DAY_BITS) | day
    order = np.argsort(key, kind="stable")
    player_of_row = player_of_row[order]
    return Timeline(
        player_ids=player_ids,
        name=name,
        country=country,
        player_of_row=player_of_row,
        first_row=np.searchsorted(player_of_row, np.arange(len(player_ids)), side="left"),
        key=key[order],
        points=PointArrays.of([points[i] for i in order.tolist()]),
    )
