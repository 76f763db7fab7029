"""The recompute worker, the service's second kind of process beside the API: a thread inside the
API process (``make run``) or a process of its own (``python -m app.cli worker``) beside several
API replicas. Each pass runs one queued recompute (``app.recompute``), then the lists' scheduled
publications (a use case: ``app.services.publications``), then prunes old snapshots and makes their space reusable (``work_once``)."""

import logging
import threading

from app.recompute.jobs import queued_jobs_wake_up, run_pending_jobs, worker_name
from app.recompute.pruning import prune_snapshots, reclaim_pruned_space
from app.services.publications import publish_scheduled
from app.snapshots.snapshot_preparation import prepare_drifts

log = logging.getLogger("app.worker")


class BackgroundWorker:
    def __init__(self, poll_seconds: float) -> None:
        self.poll_seconds = poll_seconds
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="recompute-worker", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        queued_jobs_wake_up.set()
        self._thread.join(timeout=30)

    def _loop(self) -> None:
        name = f"{worker_name()}:thread"
        load_rating_libraries()
        while not self._stop.is_set():
            try:
                if work_once(name, serves_readers=True):
                    continue  # more may be queued: no wait
            except Exception:  # noqa: BLE001 - a database hiccup must not end the worker
                log.exception("worker loop error")
            queued_jobs_wake_up.wait(self.poll_seconds)
            queued_jobs_wake_up.clear()


def work_once(name: str, *, serves_readers: bool = False) -> bool:
    """One round of a worker: one queued recompute, then the scheduled publications (after it: a
    scheduled day publishes the newest list), then pruning (after the publications, which keep their
    snapshots); whether a recompute ran. One job a round, not the whole queue, because under steady
    submissions the queue is never empty, and the publications and the pruning waited for a lull
    that never came while the snapshots piled up (issue 48's soak). What a pruning deleted is made
    reusable by the next snapshots (``reclaim_pruned_space``)."""
    ran = run_pending_jobs(name, serves_readers=serves_readers, at_most=1)
    if ran and serves_readers:
        # After the job has succeeded: the new snapshot's drift, where this process answers it (decision 128).
        prepare_drifts()
    publish_scheduled()
    if prune_snapshots():
        reclaim_pruned_space()
    return ran > 0


def load_rating_libraries() -> None:
    """Import scipy before the first job: the rating engines import it where a fit uses it (so that
    processes that never rate do not load it), and a worker is a process that will, so its first
    recompute should not pay for the import."""
    import scipy.linalg.lapack
    import scipy.optimize
    import scipy.sparse
    import scipy.special  # noqa: F401


def run_forever(poll_seconds: float = 1.0) -> None:
    stop = threading.Event()
    name = worker_name()
    load_rating_libraries()
    log.info("worker started", extra={"worker": name})
    try:
        while not stop.is_set():
            try:
                if work_once(name):
                    continue
            except Exception:  # noqa: BLE001
                log.exception("worker loop error")
            stop.wait(poll_seconds)
    except KeyboardInterrupt:
        pass
