"""Whether a list's current snapshot still shows everything the list would compute now.

A change of a list's inputs that queues no recompute of it leaves its readers the numbers of before:
a tournament it rates submitted, corrected, withdrawn, restored or imported while it does not
recompute itself (the historical ``rif-elo``), its seeds replaced or its parameters changed (which
apply from the next recompute), its reviews no longer required. Such a change marks the list *stale*
in the change's own transaction: ``stale_since`` (the first such change since its snapshot read its
inputs) and ``stale_reason``, which its reads, the tournaments it rates and the website show until a
recompute that read the change commits its snapshot (docs/decisions.md 7.106). A change that queues
the list's recompute marks nothing: the job it names reads it.

A recompute reads the list's count of such changes (``input_changes``) before it reads its inputs,
and its snapshot clears the mark only if the count is the same when the snapshot is written: a change
committed while the recompute ran (whose inputs it may not have read) leaves the list stale. Both
writes are single UPDATEs of the list's row, so they wait for each other's row lock on PostgreSQL,
which evaluates the second on the row as the first committed it; SQLite has one writer at a time."""

import datetime as dt
from collections.abc import Collection
from typing import Any, NamedTuple

from sqlalchemy import ColumnElement, Text, case, literal, null, update
from sqlalchemy.orm import Session

from app.models import RatingList, UtcDateTime


class Stale(NamedTuple):
    """A list's mark: since when and why its current snapshot does not show every change."""

    list_id: str
    since: dt.datetime
    reason: str


def of(rating_list: RatingList) -> Stale | None:
    """The list's mark, None when it shows every change."""
    if rating_list.stale_since is None:
        return None
    return Stale(rating_list.id, rating_list.stale_since, rating_list.stale_reason or "")


def mark(session: Session, list_ids: Collection[str], reason: str) -> None:
    """These lists' inputs changed and no recompute was queued for them (in the caller's transaction):
    stale from now on unless they are already, each change counted. ``reason``: what changed, in a
    few words ("tournament T0017 corrected")."""
    if not list_ids:
        return
    first = RatingList.stale_since.is_(None)
    session.execute(
        update(RatingList)
        .where(RatingList.id.in_(sorted(list_ids)))
        .values(
            stale_since=case((first, literal(dt.datetime.now(dt.UTC), UtcDateTime())), else_=RatingList.stale_since),
            stale_reason=case((first, literal(reason, Text())), else_=RatingList.stale_reason),
            input_changes=RatingList.input_changes + 1,
        )
        # The lists this session holds read their new values again (a change's answer shows them).
        .execution_options(synchronize_session="fetch")
    )


def cleared_if_read(input_changes: int) -> dict[str, ColumnElement[Any]]:
    """The values with which a recompute's snapshot, written into the list's row (``jobs.write_snapshot``),
    clears the list's mark when it read every change that made the list stale: the list's count of
    changes is still ``input_changes``, what the recompute read before its inputs. Evaluated on the
    row as the UPDATE finds it under its lock, so a change committed in between keeps the mark."""
    read_every_change = RatingList.input_changes == input_changes
    return {
        "stale_since": case((read_every_change, null()), else_=RatingList.stale_since),
        "stale_reason": case((read_every_change, null()), else_=RatingList.stale_reason),
    }
