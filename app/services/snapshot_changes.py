"""What each tournament did to each player's rating under a snapshot, read a tournament or a player
at a time.

A snapshot's changes are stored as one archive of columns (``RatingSnapshot.change_columns``, see
``app.services.stored_columns``), sorted by tournament id, then player id. Each process decodes a
snapshot's archive once and keeps the columns (``stored_columns.PerSnapshot``): a tournament's changes
are then a binary search away, a player's a comparison over one column."""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import RatingList, RatingSnapshot
from app.rating.system import Change
from app.services import stored_columns


@dataclass(frozen=True)
class ChangeTable:
    columns: dict[str, np.ndarray]  # Change's fields, one array each, rows sorted by (tournament, player)
    tournament_ids: list[str]  # the tournament_id column as a list, for bisect

    def of_tournament(self, tournament_id: str) -> list[Change]:
        """The tournament's changes, by player id."""
        return self._changes(
            slice(bisect_left(self.tournament_ids, tournament_id), bisect_right(self.tournament_ids, tournament_id))
        )

    def of_player(self, player_id: str) -> list[Change]:
        """The player's changes, by tournament id."""
        return self._changes(np.flatnonzero(self.columns["player_id"] == player_id))

    def _changes(self, rows: slice | np.ndarray) -> list[Change]:
        fields = [self.columns[name][rows].tolist() for name in _FIELDS]
        return [Change(*_stored_values(values)) for values in zip(*fields, strict=True)]


def _stored_values(values: tuple[Any, ...]) -> list[Any]:
    """A row of the stored columns as Change's fields: NaN in a number column is None."""
    return [None if name in _NUMBERS and math.isnan(value) else value for name, value in zip(_FIELDS, values, strict=True)]


def changes_of(session: Session, snapshot: RatingSnapshot) -> ChangeTable:
    """The snapshot's changes: decoded once per process, then from memory."""
    return _tables.of(session, snapshot)


def current_changes(session: Session) -> list[tuple[str, RatingSnapshot, ChangeTable]]:
    """Every list's current snapshot (by list id) with its changes."""
    current = session.execute(
        select(RatingList.id, RatingSnapshot)
        .join(RatingSnapshot, RatingSnapshot.id == RatingList.current_snapshot_id)
        .order_by(RatingList.id)
    ).all()
    return [(list_id, snapshot, changes_of(session, snapshot)) for list_id, snapshot in current]


def forget_all() -> None:
    """Drop every kept table (tests that rebuild the database between cases)."""
    _tables.forget_all()


_FIELDS = tuple(Change.__dataclass_fields__)
_NUMBERS = frozenset(("rating_before", "rating_after", "change", "change_unrounded"))


def _read(session: Session, snapshot_id: int) -> ChangeTable:
    archive = session.scalar(select(RatingSnapshot.change_columns).where(RatingSnapshot.id == snapshot_id))
    columns = (
        stored_columns.unpack(archive)
        if archive
        else {
            name: np.empty(0, dtype=np.float64 if name in _NUMBERS else np.int64 if name == "games_counted" else object)
            for name in _FIELDS
        }
    )
    return ChangeTable(columns, columns["tournament_id"].tolist())


_tables = stored_columns.PerSnapshot(_read)
