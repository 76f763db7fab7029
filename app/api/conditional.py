"""Conditional reads of the current lists, answered before routing.

A CDN or a browser revalidating a list page or a player's history sends its copy's ETag in
`If-None-Match`; nearly always nothing has changed, and the answer is a bodiless 304. Routing and
FastAPI's checking of the query's parameters cost more than everything else in such a request, so
this middleware answers it first, for the API's two paths that read a list
(``GET /v1/rating-lists/{list_id}/ratings`` and ``GET /v1/players/{player_id}/history``), with the
ETag the endpoint would compute (``app.http.caching.reads_etag``). Anything else (no ETag, a changed
list, a pinned snapshot, a list this process does not know) goes on to the endpoint.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs

from starlette.types import ASGIApp, Receive, Scope, Send

from app.http.caching import CURRENT_CACHE, current_snapshot, matches, reads_etag

_RATINGS = re.compile(r"^/v1/rating-lists/([^/]+)/ratings$")
_HISTORY = re.compile(r"^/v1/players/[^/]+/history$")
DEFAULT_HISTORY_LIST = "rif-whr"


class ConditionalReads:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        etag = await self._unchanged(scope) if scope["type"] == "http" and scope["method"] in ("GET", "HEAD") else None
        if etag is not None:
            scope["metrics_route"] = (
                "/v1/rating-lists/{list_id}/ratings" if _RATINGS.match(scope["path"]) else "/v1/players/{player_id}/history"
            )
            headers = [(b"etag", etag.encode()), (b"cache-control", CURRENT_CACHE.encode())]
            await send({"type": "http.response.start", "status": 304, "headers": headers})
            await send({"type": "http.response.body", "body": b""})
            return
        await self.app(scope, receive, send)

    async def _unchanged(self, scope: Scope) -> str | None:
        """The ETag, when the request's copy is still current; else None."""
        if_none_match: bytes | None = next((value for name, value in scope["headers"] if name == b"if-none-match"), None)
        list_id = self._list_of(scope) if if_none_match is not None else None
        if if_none_match is None or list_id is None:
            return None
        try:
            current = await current_snapshot(list_id)
        except Exception:  # noqa: BLE001 - the endpoint meets the same failure and answers it properly
            return None
        if current is None:
            return None
        publication = current.publication if _RATINGS.match(scope["path"]) else None
        etag = reads_etag(current.snapshot_id, scope, publication, current.stale_since)
        return etag if matches(if_none_match.decode("latin-1"), etag) else None

    @staticmethod
    def _list_of(scope: Scope) -> str | None:
        path: str = scope["path"]
        query: bytes = scope["query_string"]
        if b"snapshot_id" in query:
            return None  # a pinned snapshot: its id and time are read by the endpoint
        found = _RATINGS.match(path)
        if found:
            return found.group(1)
        if _HISTORY.match(path):
            return parse_qs(query.decode("latin-1")).get("list", [DEFAULT_HISTORY_LIST])[-1]
        return None
