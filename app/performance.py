"""The service's process-wide performance settings, in one place: each says what it buys and where
it was measured (bench/README.md, docs/decisions.md); README "Performance knobs" lists them.

None of them changes an answer: a rating, a page or a report is the same with any of them off. They
govern the Python runtime (the cyclic collector), NumPy's memory advice and SQLite's reads; the
warm-up a process does before it serves is app/warm_up.py (``WARM_UP``), and the bounded caches are
app/snapshots/ and app/http/response_cache.py. Importing this module imports neither NumPy nor the
database drivers, so that ``app/__init__.py`` can apply what must come before them."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager

# NumPy advises the kernel to back every array of 4 MB or more with transparent huge pages (where the
# system's policy is "madvise", Debian's default). The first WHR fit of a process then spent 0.1-0.3 s
# of kernel time zeroing 2 MB pages for arrays that live milliseconds, and the fits after it gained
# nothing from them: the cold recompute's median went from 2.50-2.55 s to 2.28-2.30 s without the
# advice (docs/decisions.md 103). NumPy reads the setting once, when it is first imported.
NUMPY_MADVISE_HUGEPAGE = "0"

# SQLite reads through a memory map, not a read() call per page: a snapshot's archives are megabytes
# (12 MB of points at the size of the Go world, 3,000 pages), fetched whole by the first read of a
# snapshot in each process; mapped, that fetch is a few milliseconds instead of 15-20. Address space
# only: pages are read when touched and shared with the OS cache.
SQLITE_MMAP_BYTES = 1 << 30


def before_numpy() -> None:
    """What must be set before NumPy is first imported (``app/__init__.py``); a value the
    environment sets wins."""
    os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", NUMPY_MADVISE_HUGEPAGE)


_frozen = False


def freeze_what_lives_as_long_as_the_process() -> None:
    """Leave the objects built so far (modules, routes, templates, catalogues: some 160,000) out of
    the cyclic collector's full passes, which otherwise scan them all again: one such pass fell on a
    reader's request after a recompute and took it 70 ms (``gc.freeze``, docs/decisions.md 7.70).
    Once per process, after a collection, so that no garbage is frozen with them (tests start many
    applications in one process). The modules the process imports later are scanned by every full
    pass, at some half a microsecond an object: so what it is known to import (the readiness check's
    Alembic, a worker's scipy) is imported before. Imported after, they were 50,000 objects and each
    full pass 20-30 ms."""
    global _frozen
    if not _frozen:
        gc.collect()
        gc.freeze()
        _frozen = True


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
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


@contextmanager
def earlier_objects_frozen() -> Iterator[None]:
    """Every object the process holds before an import's batches (the modules, the reader's index of
    the file) out of the collector's reach while they are stored: a large import's 50-odd full
    collections each scanned them all again, about a tenth of its time (4-5 s of 50). A process that
    froze its objects already (the service's) is left as it is."""
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
