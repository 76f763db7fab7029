"""Recompute jobs. They live in the database: a trigger queues one (a second trigger while one is
queued coalesces into it), exactly one worker claims it, and the new snapshot, the list's pointer
to it and the job's success are written in one transaction, so readers see the old snapshot until
the new one commits and a failed job leaves it served.

The promise a submission's 201 makes: the job it names reads the stored tournaments only after the
submission committed. A submission that joins a queued job holds a share lock on the job's row
until it commits, and a claim skips a locked job (PostgreSQL; SQLite serialises writers, so the
claim waits for the commit), so a job is never claimed while a submission that joined it is still
open. A job whose worker died (killed process, lost database) is queued again, once."""

import datetime as dt
import logging
import os
import socket
import threading
import time
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from sqlalchemy import CursorResult, Result, exists, func, select, text, update
from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, OperationalError
from sqlalchemy.orm import Session, aliased
from starlette.concurrency import run_in_threadpool

from app import metrics, performance
from app.db import checkpoint, checkpoint_after_commit, dialect_insert, get_engine, insert_rows, session_scope
from app.models import (
    Job,
    RatingEntry,
    RatingList,
    RatingSnapshot,
)
from app.problems import NotFound
from app.recompute import compute, evaluations, job_events, staleness
from app.snapshots import entry_positions, snapshot_preparation
from app.transactions import is_permanent

log = logging.getLogger("app.jobs")

QUEUED, RUNNING, SUCCEEDED, FAILED, CANCELLED = "queued", "running", "succeeded", "failed", "cancelled"
ENDED = (SUCCEEDED, FAILED, CANCELLED)
RECOMPUTE, EVALUATION = "recompute", "evaluation"
QUEUED_PREDICATE = "status = 'queued' AND kind = 'recompute'"  # the partial unique index uq_jobs_list_id_queued
# A running job's worker writes a heartbeat this often, whatever the computation is doing; one that
# has not reported for STALE_AFTER is taken as dead (killed process, lost database connection).
HEARTBEAT_SECONDS = 10.0
STALE_AFTER = dt.timedelta(minutes=1)
# A job is claimed at most this often: once, and once more after its worker died.
MAX_ATTEMPTS = 2
# A request waiting for a job's end looks at it this often (the job may be another process's).
RECHECK_SECONDS = 0.25


# Set when a job is queued, so that an in-process worker (``app.worker``) need not wait for its
# next poll: ``wake_worker`` after the queuing transaction has committed.
queued_jobs_wake_up = threading.Event()


def wake_worker() -> None:
    """Tell an in-process worker that a job was queued (a request's background task, run after its
    response, so after its commit)."""
    queued_jobs_wake_up.set()


def trigger_recompute(session: Session, list_id: str) -> Job:
    """Queue a recompute of the list, or return the one already queued.

    The partial unique index on queued jobs settles races: the insert does nothing when another
    trigger queued one first (committed, or the database waits for its transaction to end), and
    the queued job is read back. No savepoint, so the job commits with the caller's transaction
    (a SQLite savepoint opened outside a transaction would commit on its own)."""
    _rating_list(session, list_id)
    for _ in range(3):  # a worker may claim the queued job between the insert and the read
        session.execute(
            dialect_insert(session)(Job)
            .values(kind=RECOMPUTE, list_id=list_id, status=QUEUED, progress=0.0)
            # The index's own predicate, as a literal: PostgreSQL matches a partial index to the
            # conflict target only when it can prove the WHERE, which a bound parameter defeats.
            .on_conflict_do_nothing(index_elements=[Job.list_id], index_where=text(QUEUED_PREDICATE))
        )
        queued = _queued_job(session, list_id, hold=True)
        if queued is not None:
            return queued
    raise RuntimeError(f"no queued job of list {list_id!r} after three attempts")


def recompute_if_automatic(session: Session, list_id: str, change: str) -> int | None:
    """The list's input changed outside a submission (a seed): its recompute queued, as a submission
    queues it, when the list recomputes itself (``auto_recompute``); None otherwise, and the list is
    stale from this ``change`` on (``app.recompute.staleness``)."""
    if not _rating_list(session, list_id).auto_recompute:
        staleness.mark(session, [list_id], change)
        return None
    return trigger_recompute(session, list_id).id


def get_job(session: Session, job_id: int) -> Job:
    job = session.get(Job, job_id)
    if job is None:
        raise NotFound(f"Job {job_id} does not exist.")
    return job


async def job_when_ended(job_id: int, seconds: float) -> Job:
    """The job once it has succeeded or failed, or as it is after ``seconds`` (long polling); each
    look at it in a short transaction of its own, so that a waiting request holds no connection."""
    deadline = time.monotonic() + seconds
    while True:
        job = await run_in_threadpool(_job_now, job_id)
        left = deadline - time.monotonic()
        if job.status in ENDED or left <= 0:
            return job
        await job_events.ended_or_after(job_id, min(left, RECHECK_SECONDS))


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
    requeue_dead_jobs(session)
    # Recomputes before evaluations: readers wait for the one, an officer asked for the other.
    candidates = select(Job.id).where(Job.status == QUEUED).order_by(Job.kind != RECOMPUTE, Job.id).limit(5)
    if _is_postgresql(session):
        # A queued job still share-locked by an open submission that joined it is skipped: it is
        # claimed once that submission has committed (trigger_recompute).
        candidates = candidates.with_for_update(skip_locked=True)
    for job_id in session.scalars(candidates).all():
        now = _now()
        claimed = _rows_changed(
            session.execute(
                update(Job)
                .where(Job.id == job_id, Job.status == QUEUED)
                .values(status=RUNNING, worker=worker, started_at=now, heartbeat_at=now, progress=0.0, attempts=Job.attempts + 1)
            )
        )
        if claimed == 1:
            return job_id
    return None


def run_job(job_id: int, list_date: dt.date | None = None, *, serves_readers: bool = False) -> None:
    """Run a claimed job to success or failure; never raises for a failure of the computation.

    A failure of the database itself (connection lost, server stopped) is not the job's: the job is
    queued again when the database answers, or found dead by the next claim once it does.
    ``serves_readers``: this process also answers reads (the worker thread of an API process), which
    then find the new snapshot's points and changes read before it is seen
    (``snapshot_preparation.prepared_for_readers``)."""
    claimed = time.perf_counter()
    list_id = "unknown"  # until the job's row is read, inside the try: a lost database is handled below
    try:
        list_id, kind = _log_claimed(job_id)
        if kind == EVALUATION:
            _run_evaluation(job_id, list_id, claimed, list_date or dt.date.today())
            return
        with performance.cyclic_gc_paused(), _heartbeat(job_id):
            with session_scope() as session:
                job = session.get(Job, job_id)
                assert job is not None and job.status == RUNNING, f"job {job_id} is not running"
                rating_list = _rating_list(session, job.list_id)
                data = compute.compute_snapshot(
                    session, rating_list, list_date or dt.date.today(), partial(_report_progress, job_id)
                )
            computed = time.perf_counter()
            with session_scope() as session:
                checkpoint_after_commit(session)  # _checkpoint_after, once the job is seen succeeded
                snapshot = write_snapshot(session, job_id, data, list_date or dt.date.today())
                snapshot_id = snapshot.id
                keep_for_readers = snapshot_preparation.prepared_for_readers(session, snapshot) if serves_readers else None
            if keep_for_readers is not None:
                keep_for_readers()
            written = time.perf_counter()
            # Only these outlive the job: its rows are freed before the collector runs again, which
            # would otherwise scan them all (47,051 entries of the large history: 20 ms) at the next
            # allocation of any thread, often a reader's request.
            timings, players, games = data.timings, len(data.entries), data.games
            del data, snapshot, keep_for_readers
        _record_timings(job_id, {**timings, "write": written - computed})
        job_events.ended(job_id)
        _ended(job_id, list_id, SUCCEEDED, claimed)
        _checkpoint_after(job_id)
        log.info(
            "job finished",
            extra={
                "event": "finished",
                "job_id": job_id,
                "list_id": list_id,
                "snapshot_id": snapshot_id,
                "players": players,
                "games": games,
                "read_s": round(timings.get("read", 0.0), 3),
                "compute_s": round(timings.get("compute", 0.0), 3),
                "write_s": round(written - computed, 3),
                "duration_s": round(time.perf_counter() - claimed, 3),
            },
        )
    except DBAPIError as error:
        if not _database_unavailable(error):
            _fail(job_id, list_id, claimed, error)
            return
        _ended(job_id, list_id, "requeued", claimed)
        log.exception(
            "job interrupted: the database is unavailable",
            extra={
                "event": "interrupted",
                "job_id": job_id,
                "list_id": list_id,
                "duration_s": round(time.perf_counter() - claimed, 3),
            },
        )
        try:
            with session_scope() as session:
                job = session.get(Job, job_id, with_for_update=True)
                if job is not None and job.status == RUNNING:
                    _queue_again_or_fail(session, job, "its database connection was lost")
        except DBAPIError:
            log.warning("the database is still unavailable; the job is queued again once it answers", extra={"job_id": job_id})
    except Exception as error:
        _fail(job_id, list_id, claimed, error)


class EvaluationCancelled(Exception):
    """The evaluation's job was cancelled while it ran: what it computed is dropped."""


def _run_evaluation(job_id: int, list_id: str, claimed: float, list_date: dt.date) -> None:
    """An evaluation's job: the list's games read and predicted (``app.recompute.evaluations``), its
    findings written on the job; nothing else changes. A cancellation while it runs is seen at its
    next progress report, and its findings are not written."""

    def progress(share: float) -> None:
        if not _report_progress(job_id, share):
            raise EvaluationCancelled(f"evaluation {job_id} was cancelled")

    try:
        with performance.cyclic_gc_paused(), _heartbeat(job_id):
            with session_scope() as session:
                job = session.get(Job, job_id)
                assert job is not None and job.status == RUNNING, f"job {job_id} is not running"
                result = evaluations.evaluate(session, _rating_list(session, job.list_id), job.request or {}, list_date, progress)
            with session_scope() as session:
                written = _rows_changed(
                    session.execute(
                        update(Job)
                        .where(Job.id == job_id, Job.status == RUNNING)
                        .values(status=SUCCEEDED, progress=1.0, result=result, finished_at=_now())
                    )
                )
    except EvaluationCancelled:
        written = 0
    job_events.ended(job_id)
    _ended(job_id, list_id, SUCCEEDED if written else CANCELLED, claimed)
    log.info(
        "evaluation finished" if written else "evaluation cancelled",
        extra={"event": "finished", "job_id": job_id, "list_id": list_id, "duration_s": round(time.perf_counter() - claimed, 3)},
    )


def cancel_job(session: Session, job_id: int) -> Job:
    """An evaluation cancelled: at once when queued; while running, its worker stops at its next
    progress report. A job that has ended is left as it is (the caller tells from its status)."""
    session.execute(
        update(Job)
        .where(Job.id == job_id, Job.kind == EVALUATION, Job.status.in_((QUEUED, RUNNING)))
        .values(status=CANCELLED, finished_at=_now())
        .execution_options(synchronize_session=False)
    )
    job = get_job(session, job_id)
    session.refresh(job)
    return job


def write_snapshot(session: Session, job_id: int, data: compute.SnapshotData, list_date: dt.date) -> RatingSnapshot:
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
        players=len(data.entries),
        point_columns=data.points,
        change_columns=data.changes,
        **{column: getattr(data, column) for column in _SNAPSHOT_FIELDS},
    )
    session.add(snapshot)
    session.flush()
    # The entries in bulk on the session's connection, inside this transaction: COPY on PostgreSQL,
    # executemany of tuples on SQLite (app.db.insert_rows).
    insert_rows(
        session,
        RatingEntry.__table__,
        (*compute.ENTRY_COLUMNS, *entry_positions.POSITION_COLUMNS),
        entry_positions.with_positions(data.entries, **_POSITION_FIELDS),
        same={"snapshot_id": snapshot.id},
    )
    # The list's stale mark goes with it, if the recompute read every change that made it stale.
    session.execute(
        update(RatingList)
        .where(RatingList.id == job.list_id)
        .values(current_snapshot_id=snapshot.id, **staleness.cleared_if_read(data.input_changes))
    )
    job.status = SUCCEEDED
    job.progress = 1.0
    job.snapshot_id = snapshot.id
    job.finished_at = _now()
    job.result = {"snapshot_id": snapshot.id, "players": len(data.entries), "games": data.games, "notes": data.notes}
    session.flush()
    return snapshot


# Where an entry tuple (compute.ENTRY_COLUMNS) holds what its positions are computed from.
_POSITION_FIELDS = {name: compute.ENTRY_COLUMNS.index(name) for name in ("rating", "player_id", "status")}


def requeue_dead_jobs(session: Session) -> None:
    """Queue again, once, every running job whose worker is dead: silent for STALE_AFTER, or a
    process of this host that no longer exists (a restarted server need not wait for the timeout).
    A job already retried, or whose list has a newer queued job that will rate everything it would
    have, is marked failed instead (the unique index allows one queued job per list)."""
    running = select(Job).where(Job.status == RUNNING).order_by(Job.id)
    if _is_postgresql(session):
        running = running.with_for_update(skip_locked=True)
    stale_before = _now() - STALE_AFTER
    for job in session.scalars(running).all():
        heartbeat = job.heartbeat_at
        if heartbeat is not None and heartbeat.tzinfo is None:
            heartbeat = heartbeat.replace(tzinfo=dt.UTC)  # SQLite keeps no zone; the column is UTC
        if (heartbeat is not None and heartbeat < stale_before) or _process_gone(job.worker):
            _queue_again_or_fail(session, job, "the worker running it stopped reporting (killed or crashed)")


# What a computation gives a snapshot under the column's own name (SnapshotData and RatingSnapshot).
_SNAPSHOT_FIELDS = (
    *("params", "games", "tournaments", "notes", "warm_start"),
    *("system", "service_version", "seeds", "eligibility", "inputs_digest", "input_tournaments"),
)


def run_pending_jobs(
    worker: str | None = None,
    list_date: dt.date | None = None,
    *,
    serves_readers: bool = False,
    at_most: int | None = None,
) -> int:
    """Claim and run jobs until none is queued, or ``at_most`` have run; the number run
    (``serves_readers``: see ``run_job``)."""
    worker = worker or worker_name()
    ran = 0
    while at_most is None or ran < at_most:
        with session_scope() as session:
            job_id = claim_next_job(session, worker)
        if job_id is None:
            return ran
        run_job(job_id, list_date, serves_readers=serves_readers)
        ran += 1
    return ran


def run_or_await_jobs(
    job_ids: Collection[int], worker: str | None = None, *, poll_seconds: float = RECHECK_SECONDS
) -> "JobsEnded":
    """Run the queued jobs, these and any other, in this process, and wait for those of ``job_ids``
    another process claimed first (the service's worker) until each has ended: an import promises
    that the recomputes it queued have run when it returns, whoever ran them (issue 47 item 7). A
    job whose worker dies is queued again by a claim's check (``requeue_dead_jobs``) and then run
    here. The statuses of ``job_ids`` at their end, and the jobs this process ran."""
    worker = worker or worker_name()
    ended = JobsEnded()
    waiting = set(job_ids)
    while True:
        while True:
            with session_scope() as session:
                claimed = claim_next_job(session, worker)
            if claimed is None:
                break
            run_job(claimed)
            ended.ran_here.add(claimed)
        with session_scope() as session:
            rows = session.execute(select(Job.id, Job.status).where(Job.id.in_(waiting))).all()
        for job_id, status in rows:
            if status in ENDED:
                ended.statuses[job_id] = status
                waiting.discard(job_id)
        waiting &= {job_id for job_id, _ in rows}  # a job no longer stored is not waited for
        if not waiting:
            return ended
        time.sleep(poll_seconds)


@dataclass
class JobsEnded:
    statuses: dict[int, str] = field(default_factory=dict)
    ran_here: set[int] = field(default_factory=set)  # every job this process ran, the promised ones and others


def _record_timings(job_id: int, timings: dict[str, float]) -> None:
    with session_scope() as session:
        job = session.get(Job, job_id)
        if job is not None and job.result is not None:
            job.result = {**job.result, "timings_s": {k: round(v, 4) for k, v in timings.items()}}


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _report_progress(job_id: int, progress: float) -> bool:
    """Whether the job is still running (an evaluation may have been cancelled)."""
    with session_scope() as session:
        return (
            _rows_changed(
                session.execute(
                    update(Job).where(Job.id == job_id, Job.status == RUNNING).values(progress=progress, heartbeat_at=_now())
                )
            )
            == 1
        )


def _queue_again_or_fail(session: Session, job: Job, why: str) -> None:
    log.warning("recompute job lost its worker", extra={"job_id": job.id, "worker": job.worker, "why": why})
    if job.attempts < MAX_ATTEMPTS and _requeue(session, job):
        return
    newer = _queued_job(session, job.list_id)
    if job.attempts >= MAX_ATTEMPTS:
        reason = f"{why}, and had been run {job.attempts} times"
    elif newer is not None:
        reason = f"{why}; job {newer.id}, queued after it, rates everything it would have"
    else:
        reason = why
    session.execute(
        update(Job)
        .where(Job.id == job.id, Job.status == RUNNING)
        .values(status=FAILED, finished_at=_now(), error=f"{reason}; the previous snapshot is still served")
    )


def _requeue(session: Session, job: Job) -> bool:
    """Back to queued, unless another job of the list is queued. On PostgreSQL a submission may be
    inserting that other job right now: the unique index then refuses this one, in a savepoint."""
    other = aliased(Job)
    # One queued recompute per list; evaluations queue side by side.
    alone = (
        []
        if job.kind != RECOMPUTE
        else [~exists().where(other.list_id == job.list_id, other.status == QUEUED, other.kind == RECOMPUTE)]
    )
    statement = (
        update(Job)
        .where(Job.id == job.id, Job.status == RUNNING, *alone)
        .values(status=QUEUED, worker=None, started_at=None, heartbeat_at=None, progress=0.0)
        .execution_options(synchronize_session=False)
    )
    if not _is_postgresql(session):
        return _rows_changed(session.execute(statement)) == 1  # SQLite: no other writer can be inside
    try:
        with session.begin_nested():
            return _rows_changed(session.execute(statement)) == 1
    except IntegrityError:
        return False


def _queued_job(session: Session, list_id: str, *, hold: bool = False) -> Job | None:
    """The list's queued job; ``hold``: share-locked until the caller's transaction ends, so no
    worker claims it before the caller's changes are committed (PostgreSQL; SQLite ignores it)."""
    query = select(Job).where(Job.list_id == list_id, Job.status == QUEUED, Job.kind == RECOMPUTE)
    if hold:
        query = query.with_for_update(read=True)
    return session.scalars(query).first()


@contextmanager
def _heartbeat(job_id: int) -> Iterator[None]:
    """Report the job alive every HEARTBEAT_SECONDS from a thread of its own while it runs, so a long
    computation between two progress reports is never taken for a dead worker."""
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(HEARTBEAT_SECONDS):
            try:
                with session_scope() as session:
                    session.execute(update(Job).where(Job.id == job_id, Job.status == RUNNING).values(heartbeat_at=_now()))
            except Exception:  # noqa: BLE001 - the job itself meets a lasting database failure
                log.warning("heartbeat not written", extra={"job_id": job_id})

    thread = threading.Thread(target=beat, name=f"job-{job_id}-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def _log_claimed(job_id: int) -> tuple[str, str]:
    """Log the claim (with the time the job waited in the queue) and return the job's list and kind."""
    with session_scope() as session:
        job = session.get(Job, job_id)
        assert job is not None, f"job {job_id} does not exist"
        list_id, worker, kind = job.list_id, job.worker, job.kind
        queued_s = (_utc(job.started_at) - _utc(job.created_at)).total_seconds() if job.started_at and job.created_at else 0.0
    metrics.JOB_QUEUED_SECONDS.labels(list_id).observe(max(queued_s, 0.0))
    log.info(
        "job claimed",
        extra={"event": "claimed", "job_id": job_id, "list_id": list_id, "worker": worker, "queued_s": round(queued_s, 3)},
    )
    return list_id, kind


def _ended(job_id: int, list_id: str, outcome: str, claimed: float) -> None:
    metrics.observe_job(list_id, outcome, time.perf_counter() - claimed)


def _job_now(job_id: int) -> Job:
    with session_scope() as session:
        return get_job(session, job_id)


def _utc(moment: dt.datetime) -> dt.datetime:
    return moment.replace(tzinfo=dt.UTC) if moment.tzinfo is None else moment  # SQLite keeps no zone; the column is UTC


def _checkpoint_after(job_id: int) -> None:
    """The snapshot's first readers read it from the database file rather than the log (decisions
    7.71). Only a speed-up: the job has succeeded and its snapshot is the list's, so a checkpoint
    that fails (a database locked for longer than the busy timeout) is logged, never the job's outcome."""
    try:
        checkpoint(get_engine())
    except DBAPIError:
        log.warning("checkpoint after the job failed", extra={"event": "checkpoint_failed", "job_id": job_id}, exc_info=True)


def _fail(job_id: int, list_id: str, claimed: float, error: Exception) -> None:
    _ended(job_id, list_id, FAILED, claimed)
    log.exception(
        "job failed",
        extra={
            "event": "failed",
            "job_id": job_id,
            "list_id": list_id,
            "error": f"{type(error).__name__}: {error}"[:500],
            "duration_s": round(time.perf_counter() - claimed, 3),
        },
    )
    with session_scope() as session:
        session.execute(
            update(Job)
            .where(Job.id == job_id, Job.status != CANCELLED)
            .values(status=FAILED, error=f"{type(error).__name__}: {error}", finished_at=_now())
        )
    job_events.ended(job_id)


def _database_unavailable(error: DBAPIError) -> bool:
    """The server, the connection or the storage failed, not the job's statements or data (those
    raise IntegrityError, DataError, ...): worth running again."""
    return error.connection_invalidated or (isinstance(error, OperationalError | InterfaceError) and not is_permanent(error))


def _process_gone(worker: str | None) -> bool:
    """A worker of this host (``host:pid`` or ``host:pid:thread``) whose process no longer exists."""
    host, _, rest = (worker or "").partition(":")
    pid = rest.split(":", 1)[0]
    if host != socket.gethostname() or not pid.isdigit() or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def _rows_changed(result: Result[Any]) -> int:
    """The row count of an UPDATE (a CursorResult, which the session's execute types as Result)."""
    assert isinstance(result, CursorResult)
    return result.rowcount


def _is_postgresql(session: Session) -> bool:
    return session.get_bind().dialect.name == "postgresql"


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _rating_list(session: Session, list_id: str) -> RatingList:
    rating_list = session.get(RatingList, list_id)
    if rating_list is None:
        raise NotFound(f"Rating list {list_id!r} does not exist; GET /v1/rating-lists shows the lists.")
    return rating_list
