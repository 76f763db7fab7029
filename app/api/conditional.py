"""Conditional reads of the current lists, answered before routing.

A CDN or a browser revalidating a list page or a player's history sends its copy's ETag in
`If-None-Match`; nearly always nothing has changed, and the answer is a bodiless 304. Routing and
FastAPI's checking of the query's parameters cost more than everything else in such a request, so
this middleware answers it first: the ETag of these reads depends only on the path, the query as
sent and the list's current snapshot (``reads_etag``), which this process knows without a database
session (``app.services.current_snapshots``). Anything else (no ETag, a changed list, a pinned
snapshot, a list this process does not know) goes on to the endpoint, which computes the same ETag.
"""

from __future__ import annotations

import hashlib
import re
from urllib.parse import parse_qs

from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Receive, Scope, Send

from app import db
from app.services.current_snapshots import Current, current_snapshots

# A website behind a CDN: the current list may be cached briefly and served stale while the CDN
# revalidates it (ETag, cheap 304); a pinned snapshot never changes.
CURRENT_CACHE = "public, max-age=60, stale-while-revalidate=600"
PINNED_CACHE = "public, max-age=31536000, immutable"

_RATINGS = re.compile(r"^/v1/rating-lists/([^/]+)/ratings$")
_HISTORY = re.compile(r"^/v1/players/[^/]+/history$")
DEFAULT_HISTORY_LIST = "rif-whr"


def reads_etag(snapshot_id: int | None, scope: Scope, publication: int | None = None) -> str:
    """The ETag of a list page or a history: the snapshot it is read from, the path and the query
    as sent (the same query written another way is another ETag, and only that); for the current
    list, also its latest publication, which its rows are compared with."""
    key = f"{snapshot_id}\n{scope['path']}\n{scope['query_string'].decode('latin-1')}"
    if publication is not None:
        key += f"\npublication {publication}"
    return 'W/"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'


def matches(if_none_match: str | None, etag: str) -> bool:
    """RFC 9110 13.1.2: If-None-Match compares weakly, so W/"x" matches "x"."""
    if not if_none_match:
        return False
    if if_none_match.strip() == "*":
        return True
    bare = etag.removeprefix("W/")
    return any(tag.strip().removeprefix("W/") == bare for tag in if_none_match.split(","))


async def current_snapshot(list_id: str) -> Current | None:
    """The list's current snapshot as this process last read it (None for no such list)."""
    engine = db.get_engine()
    known, current = current_snapshots.known(engine, list_id)
    if not known:
        await run_in_threadpool(current_snapshots.read, engine)
        known, current = current_snapshots.known(engine, list_id)
    return current if known else None


class ConditionalReads:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        etag = await self._unchanged(scope) if scope["type"] == "http" and scope["method"] in ("GET", "HEAD") else None
        if etag is not None:
            headers = [(b"etag", etag.encode()), (b"cache-control", CURRENT_CACHE.encode())]
            await send({"type": "http.response.start", "status": 304, "headers": headers})
            await send({"type": "http.response.body", "body": b""})
            return
        await self.app(scope, receive, send)

    async def _unchanged(self, scope: Scope) -> str | None:
        """The ETag, when the request's copy is still current; else None."""
        if_none_match = next((value for name, value in scope["headers"] if name == b"if-none-match"), None)
        list_id = self._list_of(scope) if if_none_match is not None else None
        if list_id is None:
            return None
        try:
            current = await current_snapshot(list_id)
        except Exception:  # noqa: BLE001 - the endpoint meets the same failure and answers it properly
            return None
        if current is None:
            return None
        publication = current.publication if _RATINGS.match(scope["path"]) else None
        etag = reads_etag(current.snapshot_id, scope, publication)
        return etag if matches(if_none_match.decode("latin-1"), etag) else None  # type: ignore[union-attr]

    @staticmethod
    def _list_of(scope: Scope) -> str | None:
        path = scope["path"]
        query = scope["query_string"]
        if b"snapshot_id" in query:
            return None  # a pinned snapshot: its id and time are read by the endpoint
        found = _RATINGS.match(path)
        if found:
            return found.group(1)
        if _HISTORY.match(path):
            return parse_qs(query.decode("latin-1")).get("list", [DEFAULT_HISTORY_LIST])[-1]
        return None
