"""The service's process-wide performance settings, in one place: each says what it buys and where
it was measured (bench/README.md, docs/decisions.md); README "Performance knobs" lists them.

None of them changes an answer: a rating, a page or a report is the same with any of them off. They
govern the Python runtime (the cyclic collector), the C allocator, NumPy's memory advice and SQLite's reads; the
warm-up a process does before it serves is app/warm_up.py (``WARM_UP``), and the bounded caches are
app/snapshots/ and app/http/response_cache.py. Importing this module imports neither NumPy nor the
database drivers, so that ``app/__init__.py`` can apply what must come before them."""

from __future__ import annotations

import ctypes
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


# glibc's allocator, bounded (decision 124). By default each thread that allocates gets an arena of
# its own (up to 8 a core: 16 here), and a freed block of 128 KB or more that was memory-mapped raises
# the threshold under which later blocks come from those arenas, up to 32 MB: NumPy's arrays of a
# page or a history (22,000 points: 176 KB) then land in 16 heaps that return memory only from
# their tops. Under the soak's load (bench/README "Soak") the API process's anonymous memory was
# 454 MB after 3 minutes with 72 MB of it cached, and 292 MB with 84 MB cached once arenas are 2 and
# the threshold fixed at 128 KB (so that an array is mapped and returned to the system when freed).
# Each is set only where the environment does not set glibc's own variable (MALLOC_ARENA_MAX,
# MALLOC_MMAP_THRESHOLD_, MALLOC_TRIM_THRESHOLD_), which glibc reads at the process's start.
MALLOC_ARENAS = 2
MALLOC_MMAP_THRESHOLD_BYTES = 128 * 1024
MALLOC_TRIM_THRESHOLD_BYTES = 128 * 1024
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD, _M_ARENA_MAX = -1, -3, -8  # glibc's malloc.h


def before_numpy() -> None:
    """What must be set before NumPy is first imported (``app/__init__.py``), and before the process
    starts its threads; a value the environment sets wins."""
    os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", NUMPY_MADVISE_HUGEPAGE)
    bound_the_allocator()


def bound_the_allocator() -> dict[str, int]:
    """Few arenas and a fixed mapping threshold for glibc's malloc (``mallopt``), each unless the
    environment sets it; nothing on a C library without ``mallopt`` (musl, macOS). Answers what it
    set, by glibc's environment variable's name."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (AttributeError, OSError):
        return {}
    chosen = {
        "MALLOC_ARENA_MAX": (_M_ARENA_MAX, MALLOC_ARENAS),
        "MALLOC_MMAP_THRESHOLD_": (_M_MMAP_THRESHOLD, MALLOC_MMAP_THRESHOLD_BYTES),
        "MALLOC_TRIM_THRESHOLD_": (_M_TRIM_THRESHOLD, MALLOC_TRIM_THRESHOLD_BYTES),
    }
    done = {}
    for variable, (parameter, value) in chosen.items():
        if variable not in os.environ and mallopt(parameter, value) == 1:
            done[variable] = value
    return done


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
