"""Which snapshot each rating list shows, as this process last read it: what reads of the current
list are answered from without a database session.

A website behind a CDN revalidates its pages many times a second, and almost always nothing has
changed; the answer (a 304, or the same bytes again) depends only on the list's current snapshot.
The lists' current snapshots are read in one query at most once per ``REFRESH_SECONDS``, and again
at once after this process commits a write (a recompute, a correction, a changed setting): an
answer is never stale after this process wrote, and at most ``REFRESH_SECONDS`` old after another
process did (one uvicorn worker runs the recompute worker too, so by default there is no other).
A list that goes stale (``app.recompute.staleness``) changes what its reads say without a new
snapshot: its mark is read with the snapshot, and is part of their ETags and kept answers too. So is
the latest change of what a list shows of its players (a name, a country, a gender: an officer's
rename, change or merge, a directory import; ``players_edition``): a list page names its players as
they are stored now.
"""

from __future__ import annotations

import threading
import time
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import Engine, event, func, select
from sqlalchemy.orm import ORMExecuteState, Session

from app.models import Publication, RatingList, RatingSnapshot, Revision

REFRESH_SECONDS = 1.0


class Current(NamedTuple):
    """A list's current snapshot: its id and creation time (together they name it for good), or
    None and None before the list's first recompute; the number of its latest publication, which
    the live list's rows are compared with (None before the first); and since when the list is stale
    (``app.recompute.staleness``), which its reads say: a list goes stale without a new snapshot; and
    the latest revision that changed what a list shows of a player (``players_edition``)."""

    snapshot_id: int | None
    created_at: datetime | None
    publication: int | None = None
    stale_since: datetime | None = None
    players_edition: int | None = None


NONE = Current(None, None)


class CurrentSnapshots:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._engine: Engine | None = None
        self._read_at = float("-inf")
        self._current: dict[str, Current] = {}

    def known(self, engine: Engine, list_id: str) -> tuple[bool, Current]:
        """(True, the list's current snapshot) when this process read it less than
        ``REFRESH_SECONDS`` ago from the same database; (False, NONE) when it must be read."""
        with self._lock:
            if engine is not self._engine or time.monotonic() - self._read_at >= REFRESH_SECONDS or list_id not in self._current:
                return False, NONE
            return True, self._current[list_id]

    def read(self, engine: Engine) -> None:
        """Read every list's current snapshot (one query; call it off the event loop)."""
        latest = select(func.max(Publication.number)).where(Publication.list_id == RatingList.id).scalar_subquery()
        query = select(
            RatingList.id,
            RatingList.current_snapshot_id,
            RatingSnapshot.created_at,
            latest,
            RatingList.stale_since,
            _PLAYERS_EDITION.scalar_subquery(),
        ).outerjoin(RatingSnapshot, RatingSnapshot.id == RatingList.current_snapshot_id)
        with engine.connect() as connection:
            current = {list_id: Current(*state) for list_id, *state in connection.execute(query)}
        with self._lock:
            self._engine, self._read_at, self._current = engine, time.monotonic(), current

    def forget(self) -> None:
        with self._lock:
            self._read_at = float("-inf")


current_snapshots = CurrentSnapshots()


def players_edition(session: Session) -> int | None:
    """The latest revision that changed what a list shows of a player (None before the first)."""
    return session.scalar(_PLAYERS_EDITION)


# The revisions of a player that change what a list shows of him (app.services.revisions names them):
# not his creation (no snapshot holds a new player) nor a dismissed review (nothing changed).
PLAYER_SHOWN_CHANGES = ("renamed", "merged", "unmerged", "player_updated")
_PLAYERS_EDITION = select(func.max(Revision.id)).where(Revision.subject == "player", Revision.kind.in_(PLAYER_SHOWN_CHANGES))


# Every commit of a session that wrote something forgets what was read: listeners on the Session
# class, so the request sessions, the recompute worker's and the command line's all count.


@event.listens_for(Session, "after_flush")
def _flushed(session: Session, _context: object) -> None:
    session.info["wrote"] = True


@event.listens_for(Session, "do_orm_execute")
def _executed(state: ORMExecuteState) -> None:
    if state.is_insert or state.is_update or state.is_delete:
        state.session.info["wrote"] = True


@event.listens_for(Session, "after_commit")
def _committed(session: Session) -> None:
    if session.info.pop("wrote", False):
        current_snapshots.forget()


@event.listens_for(Session, "after_rollback")
def _rolled_back(session: Session) -> None:
    session.info.pop("wrote", None)
