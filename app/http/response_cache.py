"""Answers that cannot change, kept as the bytes sent.

A page of a snapshot's list, or a player's history under a snapshot, is fixed by the snapshot and
the query: a snapshot is written once by its recompute and never altered (the ETag says the same
thing to clients and CDNs). Building a 500-row page costs tens of milliseconds of Python; sending it
again costs nearly nothing. Keys name the snapshot by id *and* creation time, so an id reused after
a deletion never meets another snapshot's bytes. The least recently used answers are dropped beyond
``MAX_BYTES`` per process."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

MAX_BYTES = 64 * 1024 * 1024


class ResponseCache:
    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._bodies: OrderedDict[Hashable, bytes] = OrderedDict()
        self._size = 0

    def kept_or_built(self, key: Hashable | None, build: Callable[[], bytes]) -> bytes:
        """The bytes kept under ``key``, else ``build()``'s, kept (nothing is kept for a None key)."""
        body = self.get(key) if key is not None else None
        if body is None:
            body = build()
            if key is not None:
                self.put(key, body)
        return body

    def get(self, key: Hashable) -> bytes | None:
        with self._lock:
            body = self._bodies.get(key)
            if body is not None:
                self._bodies.move_to_end(key)
            return body

    def put(self, key: Hashable, body: bytes) -> None:
        if len(body) > self.max_bytes:
            return
        with self._lock:
            previous = self._bodies.pop(key, None)
            self._size += len(body) - (len(previous) if previous is not None else 0)
            self._bodies[key] = body
            while self._size > self.max_bytes:
                _, dropped = self._bodies.popitem(last=False)
                self._size -= len(dropped)

    def clear(self) -> None:
        with self._lock:
            self._bodies.clear()
            self._size = 0


responses = ResponseCache()
