"""What each tournament did to each player's rating under a snapshot, read a tournament or a player
at a time.

A snapshot's changes are stored as one archive of columns (``RatingSnapshot.change_columns``, see
``app.snapshots.stored_columns``), sorted by tournament id, then player id. Each process keeps a
snapshot's table (``stored_columns.PerSnapshot``) and reads its columns as readers first need them: a
tournament's changes are a binary search over the tournament codes away, a player's a comparison
over the player codes; only their rows of the other columns are read (until a column is asked for
often enough to be read whole)."""

from __future__ import annotations

import math
from bisect import bisect_left
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session

from app import caches
from app.models import RatingList, RatingSnapshot
from app.rating.system import Change
from app.snapshots import stored_columns


@dataclass
class _Kept:
    """What a table builds when first asked, shared by its copies bound to readers' sessions."""

    by_tournament: tuple[np.ndarray, list[str]] | None = None
    stored_tournament_codes: tuple[np.ndarray | None, bool] | None = None  # (the codes, or None: not usable; known)
    player_codes: np.ndarray | None = None
    tournaments_bytes: int = 0  # the sorted tournament ids' (by_tournament), once built


@dataclass(frozen=True)
class ChangeTable:
    """A snapshot's changes, rows sorted by (tournament, player), read in place from its archive
    (``stored_columns.Archive``): a tournament's or a player's rows are found by their codes, and
    only those rows are read and decoded. The codes of the tournaments (or the players) are read when
    a tournament's (a player's) changes are first asked for, through the session of the copy the reader
    got (``changes_of``): a player's page reads the player codes and his rows, not the whole archive."""

    archive: stored_columns.Archive | None
    snapshot_id: int
    session: Session | None = None  # the session the archive's columns are read through
    _kept: _Kept = field(default_factory=_Kept, compare=False, repr=False)

    def reading_through(self, session: Session) -> ChangeTable:
        """The same table, its columns read through ``session`` when first needed."""
        return replace(self, session=session)

    def nbytes(self) -> int:
        """What the table holds now, its archive's columns read so far with it (``app.caches``)."""
        kept = self._kept
        arrays = [
            *([] if kept.by_tournament is None else [kept.by_tournament[0]]),
            *(
                []
                if kept.stored_tournament_codes is None or kept.stored_tournament_codes[0] is None
                else [kept.stored_tournament_codes[0]]
            ),
            *([] if kept.player_codes is None else [kept.player_codes]),
        ]
        return (
            (0 if self.archive is None else self.archive.nbytes()) + stored_columns.owned_bytes(arrays) + kept.tournaments_bytes
        )

    def tournaments(self) -> list[str]:
        """The distinct tournament ids, sorted."""
        return self._by_tournament()[1]

    def of_tournament(self, tournament_id: str) -> list[Change]:
        """The tournament's changes, by player id. Rows stored by tournament (as the recompute writes
        them) give its code by a search of the stored ids' text and its rows as one range of the codes,
        no id decoded; otherwise the ids are decoded and numbered as sorted."""
        if self.archive is None:
            return []
        stored_codes = self._stored_tournament_codes()
        if stored_codes is not None:
            tournament_codes, code = stored_codes, self.archive.code_of(self.session, "tournament_id", tournament_id)
            if code is None:
                return []
        else:
            tournament_codes, tournaments = self._by_tournament()
            code = bisect_left(tournaments, tournament_id)
            if code == len(tournaments) or tournaments[code] != tournament_id:
                return []
        return self._changes(
            slice(
                int(np.searchsorted(tournament_codes, code, side="left")),
                int(np.searchsorted(tournament_codes, code, side="right")),
            )
        )

    def of_player(self, player_id: str) -> list[Change]:
        """The player's changes, by tournament id, without their details (``details`` None): what his
        page and an explanation of his changes show. Neither the details' columns nor the rows'
        player ids are read (the first reads of a snapshot's changes on a player's page were a third
        of it, decoding every player's id); a tournament's figures read the details (``of_tournament``)."""
        if self.archive is None:
            return []
        player_codes, code = self._player_codes(), self._player_code(player_id)
        if code is None:
            return []
        rows = np.flatnonzero(player_codes == code)
        columns = [column.tolist() for column in self.archive.rows_of(self.session, _PLAYER_FIELDS, rows)]
        return [
            Change(player_id=player_id, **dict(zip(_PLAYER_FIELDS, _stored_values(_PLAYER_FIELDS, values), strict=True)))
            for values in zip(*columns, strict=True)
        ]

    def _changes(self, rows: slice | np.ndarray) -> list[Change]:
        if self.archive is None:
            return []
        fields = [column.tolist() for column in self.archive.rows_of(self.session, _FIELDS, rows)]
        return [Change(*_stored_values(_FIELDS, values)) for values in zip(*fields, strict=True)]

    def _by_tournament(self) -> tuple[np.ndarray, list[str]]:
        """Per row its tournament's number in the distinct tournament ids, sorted; and those ids."""
        if self._kept.by_tournament is None:
            if self.archive is None:
                return np.empty(0, dtype=np.int64), []
            tournament_codes, tournaments = _codes(self.session, self.archive, "tournament_id")
            order = sorted(range(len(tournaments)), key=tournaments.__getitem__)
            if order != list(range(len(tournaments))) or not bool(np.all(tournament_codes[:-1] <= tournament_codes[1:])):
                # Numbered as sorted, so that a tournament's rows are one range (they are stored so already).
                number = np.empty(len(order), dtype=np.int64)
                number[order] = np.arange(len(order))
                tournament_codes = number[tournament_codes]
                tournaments = [tournaments[i] for i in order]
                if not bool(np.all(tournament_codes[:-1] <= tournament_codes[1:])):
                    raise ValueError(f"snapshot {self.snapshot_id}: its changes are not stored by tournament")
            self._kept.by_tournament = (tournament_codes, tournaments)
            self._kept.tournaments_bytes = caches.python_bytes(tournaments)
        return self._kept.by_tournament

    def _stored_tournament_codes(self) -> np.ndarray | None:
        """The tournament codes as stored when they are dictionary-encoded and ascending along the rows
        (each tournament's rows one range); else None."""
        if self._kept.stored_tournament_codes is None:
            assert self.archive is not None
            try:
                codes = self.archive.code_column(self.session, "tournament_id")
            except ValueError:  # not dictionary-encoded (a layout this service does not write)
                codes = None
            ascending = codes is not None and bool(np.all(codes[:-1] <= codes[1:]))
            self._kept.stored_tournament_codes = (codes if ascending else None, True)
        return self._kept.stored_tournament_codes[0]

    def _player_codes(self) -> np.ndarray:
        """Per row its player's number in the distinct player ids (in the order of their first rows)."""
        if self._kept.player_codes is None:
            assert self.archive is not None
            try:
                self._kept.player_codes = self.archive.code_column(self.session, "player_id")
            except ValueError:  # not dictionary-encoded (a layout this service does not write)
                self._kept.player_codes = _codes(self.session, self.archive, "player_id")[0]
        return self._kept.player_codes

    def _player_code(self, player_id: str) -> int | None:
        """His number (None: no change of his): looked up in the stored text of the ids, not decoded."""
        assert self.archive is not None
        try:
            return self.archive.code_of(self.session, "player_id", player_id)
        except ValueError:  # not dictionary-encoded (a layout this service does not write)
            players = _codes(self.session, self.archive, "player_id")[1]
            return players.index(player_id) if player_id in players else None


def _stored_values(names: tuple[str, ...], values: tuple[Any, ...]) -> list[Any]:
    """A row of the stored columns ``names`` as Change's fields: NaN in a number column is None."""
    return [None if name in _NUMBERS and math.isnan(value) else value for name, value in zip(names, values, strict=True)]


def changes_of(session: Session, snapshot: RatingSnapshot) -> ChangeTable:
    """The snapshot's changes, read through ``session``: each part read once per process, then from memory."""
    return _tables.of(session, snapshot).reading_through(session)


def current_changes(session: Session) -> list[tuple[str, RatingSnapshot, ChangeTable]]:
    """Every list's current snapshot (by list id) with its changes."""
    current = session.execute(
        select(RatingList.id, RatingSnapshot)
        .join(RatingSnapshot, RatingSnapshot.id == RatingList.current_snapshot_id)
        .order_by(RatingList.id)
    ).all()
    return [(list_id, snapshot, changes_of(session, snapshot)) for list_id, snapshot in current]


def prepared(session: Session, snapshot: RatingSnapshot) -> ChangeTable:
    """The snapshot's changes with the codes a player's or a tournament's changes are found by
    already read, through ``session`` (``timelines.prepared``, for ``keep``)."""
    table = _tables.build(session, snapshot)
    if table.archive is not None:
        reading = table.reading_through(session)  # (its copies share what it reads)
        reading._player_codes()
        reading._stored_tournament_codes()
    return table


def keep(snapshot: RatingSnapshot, table: ChangeTable) -> None:
    """Keep ``table`` (``prepared``) as the snapshot's, once the snapshot is committed."""
    _tables.keep(snapshot, table)


def is_kept(snapshot: RatingSnapshot) -> bool:
    """Whether this process keeps the snapshot's changes already (a reader's or ``keep``'s)."""
    return _tables.is_kept(snapshot)


def forget_all() -> None:
    """Drop every kept table (tests that rebuild the database between cases)."""
    _tables.forget_all()


_FIELDS = tuple(Change.__dataclass_fields__)
_PLAYER_FIELDS = tuple(name for name in _FIELDS if name not in ("player_id", "details"))
_NUMBERS = frozenset(("rating_before", "rating_after", "change", "change_unrounded"))


def _read(session: Session, snapshot_id: int) -> ChangeTable:
    return ChangeTable(stored_columns.Archive.stored(session, RatingSnapshot.change_columns, snapshot_id), snapshot_id)


def _codes(session: Session | None, archive: stored_columns.Archive, name: str) -> tuple[np.ndarray, list[str]]:
    """A column of ids as a number per row and the ids those numbers stand for."""
    coded = archive.codes(session, name)
    if coded is not None:
        return coded
    ids = archive.column(session, name).tolist()
    distinct = list(dict.fromkeys(ids))
    number = {value: i for i, value in enumerate(distinct)}
    return np.fromiter(map(number.__getitem__, ids), dtype=np.int64, count=len(ids)), distinct


_tables = stored_columns.PerSnapshot(_read, "change_tables", "cache_changes_bytes")
