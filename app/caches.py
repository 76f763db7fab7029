"""The per-process caches of data read from the database, each bounded in bytes by a setting.

A process keeps what it built from a committed snapshot (its timelines and change tables, ``app/snapshots``)
and the bytes of answers that cannot change (``app/http/response_cache.py``): each is rebuilt from the
database when asked again, so the only cost of a smaller limit is the rebuilding. Each cache drops its
least recently used entries once the bytes it holds pass its limit (``CACHE_*_BYTES``, README
"Configuration"), and reports what it holds, its limit, its hits, misses and evictions at ``/metrics``
(``app.metrics``).

The entries of a snapshot's cache grow after they are kept: a timeline reads its archive's columns as
readers first need them. So the cache measures again (``size_of``) at each look-up the entries it
handed out since they last stopped growing, and every entry at each scrape, and drops the least
recently used until it is within its limit: what a request reads into an entry is counted by the next
look-up after it (measuring every entry at every look-up cost some 7 microseconds an entry). (This is why the cache is not cachetools'
``LRUCache``: that measures an entry once, when it is stored, and measuring it again by storing it
again would make it the most recently used.)

The small memo caches of pure functions (a folded name, a date as a language writes it) are
``functools.lru_cache``s bounded by entries, each entry a short text; their bytes are bounded with
them (README "Configuration"), and ``/metrics`` reports their entries and hits (``MEMOS``)."""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from app.settings import get_settings

_Value = TypeVar("_Value")


@dataclass(frozen=True)
class CacheStatistics:
    name: str
    bytes: int
    limit_bytes: int
    entries: int
    hits: int
    misses: int
    evictions: int


class BoundedCache(Generic[_Value]):
    """Values by key, the least recently used dropped once their bytes (``size_of``) pass the limit the
    setting ``limit_setting`` names (read when the cache is first used and at ``clear``). A value larger
    than the whole limit is not kept. Values that ``grow`` after they are kept are measured again at
    each look-up and scrape; the others once."""

    def __init__(self, name: str, limit_setting: str, size_of: Callable[[_Value], int], *, grow: bool = False) -> None:
        self.name = name
        self.limit_setting = limit_setting
        self._size_of = size_of
        self._grow = grow
        self._lock = threading.Lock()
        self._entries: OrderedDict[Hashable, tuple[_Value, int]] = OrderedDict()
        self._bytes = 0
        self._limit: int | None = None
        self._hits = self._misses = self._evictions = 0
        self._lent: set[Hashable] = set()  # (values that grow) handed out, perhaps read into since
        ALL.append(self)

    @property
    def limit_bytes(self) -> int:
        if self._limit is None:
            self._limit = int(getattr(get_settings(), self.limit_setting))
        return self._limit

    def get(self, key: Hashable) -> _Value | None:
        """The value kept under ``key`` (None when none is), now the most recently used; every entry
        measured again first when they grow, so that what readers read into them counts against the limit."""
        with self._lock:
            self._measure_again(self._lent)
            found = self._entries.get(key)
            if found is None:
                self._misses += 1
                return None
            self._hits += 1
            self._entries.move_to_end(key)
            if self._grow:
                self._lent.add(key)
            return found[0]

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._entries

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def put(self, key: Hashable, value: _Value) -> None:
        size = self._size_of(value)
        with self._lock:
            previous = self._entries.pop(key, None)
            if previous is not None:
                self._bytes -= previous[1]
            if size > self.limit_bytes:
                return
            self._entries[key] = (value, size)
            self._bytes += size
            if self._grow:
                self._lent.add(key)  # (its first readers read into it next)
            self._measure_again(self._lent)

    def statistics(self) -> CacheStatistics:
        """What the cache holds now (measured again: a scrape sees it within its limit)."""
        with self._lock:
            self._measure_again(set(self._entries))
            return CacheStatistics(
                self.name, self._bytes, self.limit_bytes, len(self._entries), self._hits, self._misses, self._evictions
            )

    def clear(self) -> None:
        """Drop every entry and read the limit again (tests that change the setting or rebuild the database)."""
        with self._lock:
            self._entries.clear()
            self._lent.clear()
            self._bytes = 0
            self._limit = None

    def _measure_again(self, keys: set[Hashable]) -> None:
        """Measure those entries again (those that grow), keep lent only those that grew, and drop the
        least recently used while over the limit."""
        if self._grow:
            for key in list(keys):
                entry = self._entries.get(key)
                now = None if entry is None else self._size_of(entry[0])
                if entry is None or now == entry[1]:
                    self._lent.discard(key)
                elif now is not None:
                    self._entries[key] = (entry[0], now)  # (an existing key keeps its place)
                    self._bytes += now - entry[1]
        limit = self.limit_bytes
        while self._bytes > limit and self._entries:
            dropped, (_, size) = self._entries.popitem(last=False)
            self._lent.discard(dropped)
            self._bytes -= size
            self._evictions += 1


ALL: list[BoundedCache[Any]] = []

# The memo caches (functools.lru_cache) by name, for /metrics; each module registers its own.
MEMOS: dict[str, Any] = {}


def memo(name: str, cached: Callable[..., Any]) -> None:
    """Report ``cached`` (a ``functools.lru_cache`` function) at ``/metrics`` as ``name``."""
    MEMOS[name] = cached


# How many of a column's values ``nested_bytes`` measures to the bottom: at most this many, evenly spaced.
NESTED_SAMPLE = 64


def nested_bytes(values: Sequence[Any]) -> int:
    """The memory of a sequence of decoded JSON values nested to any depth (a change's details: a dict
    of lists of dicts of numbers), each object counted once however often it is referred to: measured
    to the bottom for an evenly spaced sample of ``NESTED_SAMPLE`` of them and scaled to all. Measured
    one level deep (``python_bytes``), a RIF Elo list's details counted 0.8 MB of the 15 MB they
    hold (tracemalloc), so a change table cache of 32 MiB held some 100 MB."""
    count = len(values)
    if not count:
        return 0
    sample = values if count <= NESTED_SAMPLE else [values[i * count // NESTED_SAMPLE] for i in range(NESTED_SAMPLE)]
    seen: set[int] = set()
    pending = list(sample)
    total = 0
    while pending:
        value = pending.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        total += sys.getsizeof(value)
        if isinstance(value, dict):
            pending.extend(value.keys())
            pending.extend(value.values())
        elif isinstance(value, list | tuple):
            pending.extend(value)
    return 8 * count + total * count // len(sample)


def python_bytes(values: Iterable[Any]) -> int:
    """The memory of a sequence of Python objects (str, None, numbers, or lists or dicts of them): its
    references and each object by ``sys.getsizeof``, one level into lists and dicts. An estimate made
    once when the objects are built, for a cache's accounting: shared objects are counted each time."""
    total = 0
    for value in values:
        total += 8 + sys.getsizeof(value)
        if isinstance(value, list):
            total += sum(map(sys.getsizeof, value))
        elif isinstance(value, dict):
            total += sum(map(sys.getsizeof, value.values()))
    return total
