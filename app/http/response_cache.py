"""Answers that cannot change, kept as the bytes sent.

A page of a snapshot's list, or a player's history under a snapshot, is fixed by the snapshot and
the query: a snapshot is written once by its recompute and never altered (the ETag says the same
thing to clients and CDNs). Building a 500-row page costs tens of milliseconds of Python; sending it
again costs nearly nothing. Keys name the snapshot by id *and* creation time, so an id reused after
a deletion never meets another snapshot's bytes. The least recently used answers are dropped beyond
``CACHE_RESPONSES_BYTES`` per process (``app.caches``)."""

from __future__ import annotations

from collections.abc import Callable, Hashable

from app.caches import BoundedCache


class ResponseCache:
    def __init__(self) -> None:
        self._bodies: BoundedCache[bytes] = BoundedCache("responses", "cache_responses_bytes", len)

    def kept_or_built(self, key: Hashable | None, build: Callable[[], bytes]) -> bytes:
        """The bytes kept under ``key``, else ``build()``'s, kept (nothing is kept for a None key)."""
        body = self.get(key) if key is not None else None
        if body is None:
            body = build()
            if key is not None:
                self.put(key, body)
        return body

    def get(self, key: Hashable) -> bytes | None:
        return self._bodies.get(key)

    def put(self, key: Hashable, body: bytes) -> None:
        self._bodies.put(key, body)

    def clear(self) -> None:
        self._bodies.clear()


responses = ResponseCache()
