"""Nothing grows without bound: a list's old snapshots are pruned by the worker.

Every recompute writes a snapshot, and lists that recompute themselves write one per burst of
submissions: without pruning the database grows with every submission. A list keeps its latest
``KEEP_SNAPSHOTS`` snapshots (20 by default), its current one and every snapshot a publication was
read from (a foreign key refuses to delete those: a publication's ``verify`` and explanations need
them); older ones are deleted with their entries. A pinned read (``snapshot_id=``) of a pruned
snapshot is a 404, as for any snapshot that does not exist (docs/decisions.md 7.27).

Each list is pruned under its row lock, so a publication (which takes the same lock) never picks a
snapshot being deleted.

What a pruning deletes is made reusable soon after (``reclaim_pruned_space``), so that a database
under steady submissions stops growing once its lists hold their ``KEEP_SNAPSHOTS`` (issue 48): on
PostgreSQL a plain ``VACUUM`` of the two tables, at most once a minute; on SQLite the write-ahead log
copied and emptied if no reader is in the way (docs/decisions.md 110, 111)."""

import logging
import threading
import time

from sqlalchemy import Engine, delete, func, select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from app.db import checkpoint, get_engine, locked_row, session_scope
from app.models import Publication, RatingEntry, RatingList, RatingSnapshot
from app.settings import get_settings

log = logging.getLogger("app.pruning")
_CHUNK = 200  # snapshot ids per DELETE (the drivers' limits on parameters)

# PostgreSQL: the least time between two VACUUMs of the pruned tables by one process. A VACUUM reads
# every index of the tables whole, whatever it finds dead, so not after every pruning; a minute's
# dead rows (100-200 MB under issue 48's soak) is the slack the tables keep (bench/README.md,
# "Storage (issue 48 item 2)").
VACUUM_EVERY_SECONDS = 60.0
# SQLite: how long the checkpoint after a pruning waits for readers of older pages before giving up
# (the next pruning tries again); writers wait for it meanwhile.
CHECKPOINT_WAIT_MS = 200
_PRUNED_TABLES = (RatingEntry.__tablename__, RatingSnapshot.__tablename__)
_last_vacuum: float | None = None  # time.monotonic() of this process's last VACUUM
_vacuum_lock = threading.Lock()


def prune_snapshots(keep: int | None = None) -> dict[str, int]:
    """Prune every list beyond ``keep`` snapshots (the setting by default): list id -> snapshots deleted."""
    keep = get_settings().keep_snapshots if keep is None else keep
    with session_scope() as session:
        # Cheap enough for every loop of the worker: one grouped count of the unpublished snapshots.
        over = session.scalars(
            select(RatingSnapshot.list_id)
            .where(RatingSnapshot.id.not_in(select(Publication.snapshot_id)))
            .group_by(RatingSnapshot.list_id)
            .having(func.count() > keep)
        ).all()
    pruned = {}
    for list_id in over:
        with session_scope() as session:
            deleted = _prune_list(session, list_id, keep)
        if deleted:
            log.info("snapshots pruned", extra={"list_id": list_id, "deleted": deleted, "kept": keep})
            pruned[list_id] = deleted
    return pruned


def _prune_list(session: Session, list_id: str, keep: int) -> int:
    rating_list = locked_row(session, RatingList, list_id)
    if rating_list is None:
        return 0
    newest_first = session.scalars(
        select(RatingSnapshot.id).where(RatingSnapshot.list_id == list_id).order_by(RatingSnapshot.id.desc())
    ).all()
    published = set(session.scalars(select(Publication.snapshot_id).where(Publication.list_id == list_id)))
    kept = {*newest_first[:keep], *published, rating_list.current_snapshot_id}
    victims = [snapshot_id for snapshot_id in newest_first[keep:] if snapshot_id not in kept]
    for start in range(0, len(victims), _CHUNK):
        chunk = victims[start : start + _CHUNK]
        session.execute(delete(RatingEntry).where(RatingEntry.snapshot_id.in_(chunk)))
        session.execute(delete(RatingSnapshot).where(RatingSnapshot.id.in_(chunk)))
    return len(victims)


def reclaim_pruned_space(engine: Engine | None = None) -> bool:
    """After a pruning that deleted snapshots: make their space reusable by the next ones; whether
    it was done now (False: too soon after the last time, or blocked, and left to the next pruning).

    PostgreSQL: ``VACUUM (ANALYZE)`` of the entries and the snapshots (with its TOAST table, where the
    archives are), outside a transaction (VACUUM refuses to run in one), at most every
    ``VACUUM_EVERY_SECONDS``. A plain VACUUM marks the dead rows' space free for new rows; it returns
    nothing to the operating system (VACUUM FULL would, under a lock that stops every reader), and
    needs not: the next snapshots fill it. Autovacuum alone fell behind (issue 48's soak: 608,362
    dead entry rows after 10 minutes): it waits for a fifth of a table to be dead, checks once a
    minute, and is throttled. SQLite reuses a deleted row's pages by itself; what grows there is the
    write-ahead log, which a checkpoint copies into the file and empties unless a reader still reads
    it (``checkpoint``: then it gives up after ``CHECKPOINT_WAIT_MS``). A failure is logged, never
    raised: the pruning is done, and the next one tries again."""
    global _last_vacuum
    engine = engine or get_engine()
    try:
        if engine.dialect.name == "sqlite":
            return checkpoint(engine, truncate=True, wait_ms=CHECKPOINT_WAIT_MS)
        if engine.dialect.name != "postgresql":
            return False
        with _vacuum_lock:
            now = time.monotonic()
            if _last_vacuum is not None and now - _last_vacuum < VACUUM_EVERY_SECONDS:
                return False
            _last_vacuum = now
        started = time.perf_counter()
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            quote = connection.dialect.identifier_preparer.quote
            connection.exec_driver_sql(f"VACUUM (ANALYZE) {', '.join(quote(table) for table in _PRUNED_TABLES)}")
        log.info("pruned tables vacuumed", extra={"seconds": round(time.perf_counter() - started, 3)})
        return True
    except DBAPIError:
        log.warning("reclaiming the pruned snapshots' space failed", exc_info=True)
        return False
