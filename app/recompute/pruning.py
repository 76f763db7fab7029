"""Nothing grows without bound: a list's old snapshots are pruned by the worker.

Every recompute writes a snapshot, and lists that recompute themselves write one per burst of
submissions: without pruning the database grows with every submission. A list keeps its latest
``KEEP_SNAPSHOTS`` snapshots (20 by default), its current one and every snapshot a publication was
read from (a foreign key refuses to delete those: a publication's ``verify`` and explanations need
them); older ones are deleted with their entries. A pinned read (``snapshot_id=``) of a pruned
snapshot is a 404, as for any snapshot that does not exist (docs/decisions.md 7.27).

Each list is pruned under its row lock, so a publication (which takes the same lock) never picks a
snapshot being deleted."""

import logging

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from app.db import locked_row, session_scope
from app.models import Publication, RatingEntry, RatingList, RatingSnapshot
from app.settings import get_settings

log = logging.getLogger("app.pruning")
_CHUNK = 200  # snapshot ids per DELETE (the drivers' limits on parameters)


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
