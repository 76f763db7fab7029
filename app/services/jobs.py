"""Recompute jobs. They live in the database: a trigger queues one (a second trigger while one is
queued coalesces into it), exactly one worker claims it, and the new snapshot, the list's pointer
to it and the job's success are written in one transaction, so readers see the old snapshot until
the new one commits and a failed job leaves it served."""

import datetime as dt
import gc
import logging
import os
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import func, select, text, update
from sqlalchemy.orm import Session

from app.db import dialect_insert, insert_rows, session_scope
from app.models import (
    Job,
    RatingEntry,
    RatingList,
    RatingSnapshot,
)
from app.problems import NotFound
from app.services import recompute
from app.services.rating_lists import get_rating_list

log = logging.getLogger("app.jobs")

QUEUED, RUNNING, SUCCEEDED, FAILED = "queued", "running", "succeeded", "failed"
QUEUED_PREDICATE = "status = 'queued'"  # the partial unique index uq_jobs_list_id_queued
# A running job whose worker has not reported for this long is taken as dead (killed process).
STALE_AFTER = dt.timedelta(minutes=2)


def trigger_recompute(session: Session, list_id: str) -> Job:
    """Queue a recompute of the list, or return the one already queued.

    The partial unique index on queued jobs settles races: the insert does nothing when another
    trigger queued one first (committed, or the database waits for its transaction to end), and
    the queued job is read back. No savepoint, so the job commits with the caller's transaction
    (a SQLite savepoint opened outside a transaction would commit on its own)."""
    get_rating_list(session, list_id)
    for _ in range(3):  # a worker may claim the queued job between the insert and the read
        session.execute(
            dialect_insert(session)(Job)
            .values(kind="recompute", list_id=list_id, status=QUEUED, progress=0.0)
            # The index's own predicate, as a literal: PostgreSQL matches a partial index to the
            # conflict target only when it can prove the WHERE, which a bound parameter defeats.
            .on_conflict_do_nothing(index_elements=[Job.list_id], index_where=text(QUEUED_PREDICATE))
        )
        queued = _queued_job(session, list_id)
        if queued is not None:
            return queued
    raise RuntimeError(f"no queued job of list {list_id!r} after three attempts")


def get_job(session: Session, job_id: int) -> Job:
    job = session.get(Job, job_id)
    if job is None:
        raise NotFound(f"Job {job_id} does not exist.")
    return job


def list_jobs(session: Session, *, list_id: str | None, status: str | None, limit: int, offset: int) -> tuple[list[Job], int]:
    """Jobs newest first, optionally of one list and in one state."""
    conditions = []
    if list_id is not None:
        conditions.append(Job.list_id == list_id)
    if status is not None:
        conditions.append(Job.status == status)
    total = session.scalar(select(func.count()).select_from(Job).where(*conditions)) or 0
    jobs = session.scalars(select(Job).where(*conditions).order_by(Job.id.desc()).limit(limit).offset(offset))
    return list(jobs), total


def claim_next_job(session: Session, worker: str) -> int | None:
    """Take the oldest queued job for this worker; None when there is none.

    The conditional UPDATE is the claim: of several workers racing for one job, exactly one sees a
    row count of 1. On PostgreSQL, SKIP LOCKED lets the others move on to the next job at once.
    """
    _fail_stale_jobs(session)
    candidates = select(Job.id).where(Job.status == QUEUED).order_by(Job.id).limit(5)
    if session.get_bind().dialect.name == "postgresql":
        candidates = candidates.with_for_update(skip_locked=True)
    for job_id in session.scalars(candidates).all():
        now = _now()
        claimed = session.execute(
            update(Job)
            .where(Job.id == job_id, Job.status == QUEUED)
            .values(status=RUNNING, worker=worker, started_at=now, heartbeat_at=now, progress=0.0)
        ).rowcount
        if claimed == 1:
            return job_id
    return None


def run_job(job_id: int, list_date: dt.date | None = None) -> None:
    """Run a claimed job to success or failure; never raises for a failure of the computation."""
    try:
        with _cyclic_gc_paused():
            with session_scope() as session:
                job = session.get(Job, job_id)
                assert job is not None and job.status == RUNNING, f"job {job_id} is not running"
                rating_list = get_rating_list(session, job.list_id)
                data = recompute.compute_snapshot(
                    session, rating_list, list_date or dt.date.today(), lambda p: _report_progress(job_id, p)
                )
            computed = time.perf_counter()
            with session_scope() as session:
                snapshot_id = write_snapshot(session, job_id, data, list_date or dt.date.today())
            written = time.perf_counter()
        _record_timings(job_id, {**data.timings, "write": written - computed})
        log.info(
            "recompute finished",
            extra={
                "job_id": job_id,
                "snapshot_id": snapshot_id,
                "read_s": round(data.timings.get("read", 0.0), 3),
                "compute_s": round(data.timings.get("compute", 0.0), 3),
                "write_s": round(written - computed, 3),
            },
        )
    except Exception as error:
        log.exception("recompute failed", extra={"job_id": job_id})
        with session_scope() as session:
            session.execute(
                update(Job)
                .where(Job.id == job_id)
                .values(status=FAILED, error=f"{type(error).__name__}: {error}", finished_at=_now())
            )


def write_snapshot(session: Session, job_id: int, data: recompute.SnapshotData, list_date: dt.date) -> int:
    """Insert the snapshot and its rows, point the list at it and mark the job succeeded: one
    transaction (the caller's), so all of it or none of it is seen."""
    job = session.get(Job, job_id, with_for_update=True)
    assert job is not None
    if job.status != RUNNING:
        raise RuntimeError(f"job {job_id} is {job.status}, no longer running; its snapshot is discarded")
    snapshot = RatingSnapshot(
        list_id=job.list_id,
        list_date=list_date,
        job_id=job_id,
        params=data.params,
        players=len(data.entries),
        games=data.games,
        tournaments=data.tournaments,
        notes=data.notes,
        warm_start=data.warm_start,
        point_columns=data.points,
        change_columns=data.changes,
    )
    session.add(snapshot)
    session.flush()
    # The entries in bulk on the session's connection, inside this transaction: COPY on PostgreSQL,
    # executemany of tuples on SQLite (app.db.insert_rows).
    insert_rows(session, RatingEntry.__table__, recompute.ENTRY_COLUMNS, data.entries, same={"snapshot_id": snapshot.id})
    session.execute(update(RatingList).where(RatingList.id == job.list_id).values(current_snapshot_id=snapshot.id))
    job.status = SUCCEEDED
    job.progress = 1.0
    job.snapshot_id = snapshot.id
    job.finished_at = _now()
    job.result = {"snapshot_id": snapshot.id, "players": len(data.entries), "games": data.games, "notes": data.notes}
    session.flush()
    return snapshot.id


def run_pending_jobs(worker: str | None = None, list_date: dt.date | None = None) -> int:
    """Claim and run jobs until none is queued; the number run."""
    worker = worker or worker_name()
    ran = 0
    while True:
        with session_scope() as session:
            job_id = claim_next_job(session, worker)
        if job_id is None:
            return ran
        run_job(job_id, list_date)
        ran += 1


@contextmanager
def _cyclic_gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while a recompute builds its rows: it allocates a few hundred
    thousand container objects (rows, points, changes) and holds them all, so the collector's passes
    only re-scan live objects (measured: a quarter of the WHR replay's time). Reference counting still
    frees everything; the collector runs again afterwards. Process-wide, but only for the job's
    duration, and left as found when a caller had it off already."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _record_timings(job_id: int, timings: dict[str, float]) -> None:
    with session_scope() as session:
        job = session.get(Job, job_id)
        if job is not None and job.result is not None:
            job.result = {**job.result, "timings_s": {k: round(v, 4) for k, v in timings.items()}}


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _report_progress(job_id: int, progress: float) -> None:
    with session_scope() as session:
        session.execute(update(Job).where(Job.id == job_id, Job.status == RUNNING).values(progress=progress, heartbeat_at=_now()))


def _fail_stale_jobs(session: Session) -> None:
    limit = _now() - STALE_AFTER
    session.execute(
        update(Job)
        .where(Job.status == RUNNING, Job.heartbeat_at < limit)
        .values(
            status=FAILED,
            finished_at=_now(),
            error="the worker running this job stopped reporting (killed or crashed); the previous snapshot is still served",
        )
    )


def _queued_job(session: Session, list_id: str) -> Job | None:
    return session.scalars(select(Job).where(Job.list_id == list_id, Job.status == QUEUED)).first()


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)
