"""What a process reads of a new snapshot before its readers ask: the snapshot's timeline (a list as
of a date, a player's history) and its changes' codes (a player's and a tournament's pages). The
first reader of each after a recompute of the large history otherwise paid 10-20 ms for them, in
every process once (bench/README.md, "Ninth pass").

Two ways a process learns of a new snapshot:
- its own worker thread wrote it (``prepared_for_readers``, called by the job before it commits);
- another process wrote it: an API replica beside a worker process (compose.yaml, RUN_WORKER=false),
  or a second API process on the same database. ``SnapshotWatcher`` looks at the lists' current
  snapshots every ``snapshot_watch_seconds`` and prepares each one that changed since its last look
  and that the process does not keep yet (docs/decisions.md 99)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from sqlalchemy import select
from sqlalchemy.orm import Session

from app import metrics
from app.db import session_scope
from app.models import RatingList, RatingSnapshot
from app.rating.registry import UnknownSystem, get_system
from app.snapshots import drift, snapshot_changes, timelines

log = logging.getLogger("app.snapshot_preparation")

Seen = dict[str, int | None]  # each list's current snapshot id at a look


def prepared_for_readers(session: Session, snapshot: RatingSnapshot) -> Callable[[], None]:
    """Read what a reader reads first of ``snapshot`` through ``session`` (which may not have
    committed it yet: the recompute writing it); the returned function keeps it for this process's
    readers, to be called once the snapshot is committed (one rolled back is never kept)."""
    timeline = None if timelines.is_kept(snapshot) else timelines.prepared(session, snapshot)
    changes = None if snapshot_changes.is_kept(snapshot) else snapshot_changes.prepared(session, snapshot)

    def keep() -> None:
        if timeline is not None:
            timelines.keep(snapshot, timeline)
        if changes is not None:
            snapshot_changes.keep(snapshot, changes)

    return keep


def prepare_drift(session: Session, list_id: str) -> bool:
    """The month ends of the list's current snapshot (``app.snapshots.drift``), read now when this
    process has answered the list's drift before and does not keep them yet: 60-90 ms of a RIF-sized
    history's, which its next drift reader would otherwise wait for (decision 128). Whether they
    were read."""
    rating_list = session.get(RatingList, list_id)
    if not drift.asked(list_id) or rating_list is None or rating_list.current_snapshot_id is None:
        return False
    snapshot = session.get(RatingSnapshot, rating_list.current_snapshot_id)
    if snapshot is None or drift.is_kept(snapshot):
        return False
    try:
        system = get_system(rating_list.system)
    except UnknownSystem:
        return False  # (its readers are told so)
    params = system.params(snapshot.params)
    drift.of_snapshot(session, snapshot, drift.Reading.of(system, params))
    return True


def prepare_drifts() -> None:
    """``prepare_drift`` of every list (the in-process worker, after a recompute it ran)."""
    with session_scope() as session:
        for list_id in sorted(session.scalars(select(RatingList.id))):
            prepare_drift(session, list_id)


def prepare_new_snapshots(seen: Seen | None) -> Seen:
    """One look at the lists' current snapshots: each that differs from ``seen`` is prepared and kept.
    ``seen`` None is the process's first look, which only notes them: the warm-up (app.warm_up)
    has read the current ones, and a list nobody read since the start is not prepared for nobody."""
    with session_scope() as session:
        current: Seen = {
            list_id: snapshot_id
            for list_id, snapshot_id in session.execute(select(RatingList.id, RatingList.current_snapshot_id))
        }
        if seen is None:
            return current
        for list_id, snapshot_id in sorted(current.items()):
            if snapshot_id is None or snapshot_id == seen.get(list_id):
                continue
            snapshot = session.get(RatingSnapshot, snapshot_id)
            if snapshot is None:  # pruned between the two reads
                continue
            started = time.perf_counter()
            prepared_for_readers(session, snapshot)()
            prepare_drift(session, list_id)
            seconds = time.perf_counter() - started
            metrics.observe_snapshot_preparation(list_id, seconds)
            log.info(
                "snapshot prepared",
                extra={
                    "event": "snapshot_prepared",
                    "list_id": list_id,
                    "snapshot_id": snapshot_id,
                    "duration_s": round(seconds, 3),
                },
            )
    return current


class SnapshotWatcher:
    """A daemon thread of an API process: ``prepare_new_snapshots`` every ``poll_seconds``."""

    def __init__(self, poll_seconds: float) -> None:
        self.poll_seconds = poll_seconds
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="snapshot-watcher", daemon=True)
        self._seen: Seen | None = None

    def start(self) -> None:
        """Note the lists' current snapshots (those the process starts with are the warm-up's), then
        look again every ``poll_seconds`` in a thread of its own."""
        try:
            self._seen = prepare_new_snapshots(None)
        except Exception:  # noqa: BLE001 - not migrated yet, say: the thread's first look notes them
            log.warning("snapshot watcher: the lists could not be read yet", exc_info=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=30)

    def _loop(self) -> None:
        while not self._stop.wait(self.poll_seconds):
            try:
                self._seen = prepare_new_snapshots(self._seen)
            except Exception:  # noqa: BLE001 - a database hiccup must not end the thread; the readers read as before
                log.exception("snapshot watcher error")
