"""Wakes the requests waiting for a job's end (``GET /v1/jobs/{id}?wait=``) the moment this process's
worker thread ends it. A job another process runs (a worker process beside API replicas) is seen by
the waiting request's own look at the database every ``jobs.RECHECK_SECONDS``."""

from __future__ import annotations

import asyncio
import contextlib
import threading

_lock = threading.Lock()
_waiting: dict[int, list[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}


def ended(job_id: int) -> None:
    """Called by the worker once the job's end is committed (from the worker's thread)."""
    with _lock:
        waiters = _waiting.pop(job_id, [])
    for loop, event in waiters:
        with contextlib.suppress(RuntimeError):  # its event loop has closed: nobody waits any more
            loop.call_soon_threadsafe(event.set)


async def ended_or_after(job_id: int, seconds: float) -> None:
    """Return when ``ended(job_id)`` is called or ``seconds`` have passed, whichever comes first."""
    waiter = (asyncio.get_running_loop(), asyncio.Event())
    with _lock:
        _waiting.setdefault(job_id, []).append(waiter)
    try:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(waiter[1].wait(), seconds)
    finally:
        with _lock:
            waiters = _waiting.get(job_id)
            if waiters is not None and waiter in waiters:
                waiters.remove(waiter)
                if not waiters:
                    del _waiting[job_id]
