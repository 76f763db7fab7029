"""Conditional reads of the current lists, answered before routing.

A CDN or a browser revalidating a list page or a player's history sends its copy's ETag in
`If-None-Match`; nearly always nothing has changed, and the answer is a bodiless 304. Routing and
FastAPI's checking of the query's parameters cost more than everything else in such a request, so
this middleware answers it first, for every route whose endpoint declares itself a read of a list
(``app.http.caching.list_read``), with the decision the endpoint itself makes
(``read_validators``). Which routes those are, and where each names its list, is read from the
routes themselves: their compiled paths and the declared parameter's default. Anything else (no
ETag, a changed list, a pinned snapshot, a list this process does not know) goes on to the endpoint.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qs

from fastapi.routing import APIRoute, iter_route_contexts
from starlette.routing import compile_path
from starlette.types import ASGIApp, Receive, Scope, Send

from app.http.caching import PINNING_QUERY, ListRead, current_snapshot, matches, read_validators


@dataclass(frozen=True)
class _DeclaredRead:
    path: re.Pattern[str]
    template: str
    read: ListRead
    default_list: str | None


class ConditionalReads:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._reads: list[_DeclaredRead] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        answered = await self._unchanged(scope) if scope["type"] == "http" and scope["method"] in ("GET", "HEAD") else None
        if answered is not None:
            template, etag, cache_control = answered
            scope["metrics_route"] = template
            headers = [(b"etag", etag.encode()), (b"cache-control", cache_control.encode())]
            await send({"type": "http.response.start", "status": 304, "headers": headers})
            await send({"type": "http.response.body", "body": b""})
            return
        await self.app(scope, receive, send)

    async def _unchanged(self, scope: Scope) -> tuple[str, str, str] | None:
        """(the route's template, the ETag, Cache-Control) when the request's copy is still current."""
        if_none_match: bytes | None = next((value for name, value in scope["headers"] if name == b"if-none-match"), None)
        if if_none_match is None:
            return None
        found = self._list_of(scope)
        if found is None:
            return None
        declared, list_id = found
        try:
            current = await current_snapshot(list_id)
        except Exception:  # noqa: BLE001 - the endpoint meets the same failure and answers it properly
            return None
        if current is None:
            return None
        etag, cache_control = read_validators(declared.read, current, scope)
        return (declared.template, etag, cache_control) if matches(if_none_match.decode("latin-1"), etag) else None

    def _list_of(self, scope: Scope) -> tuple[_DeclaredRead, str] | None:
        """The declared read the request's path is, and the list it names; None for any other
        request, and for a pinned snapshot (its id and time are read by the endpoint)."""
        query: bytes = scope["query_string"]
        if PINNING_QUERY.encode() in query:
            return None
        for declared in self._declared(scope):
            matched = declared.path.match(scope["path"])
            if matched is None:
                continue
            if declared.read.path_param is not None:
                return declared, matched.group(declared.read.path_param)
            if declared.read.query_param is not None:
                named = parse_qs(query.decode("latin-1")).get(declared.read.query_param, [])
                list_id = named[-1] if named else declared.default_list
                return (declared, list_id) if list_id is not None else None
        return None

    def _declared(self, scope: Scope) -> list[_DeclaredRead]:
        """The application's routes that declare a list read, found once (the routes never change)."""
        if self._reads is None:
            reads = []
            for context in iter_route_contexts(scope["app"].routes):
                route, template = context.original_route, context.path_format
                read = getattr(getattr(route, "endpoint", None), "list_read", None)
                if isinstance(route, APIRoute) and isinstance(read, ListRead) and template:
                    default = None
                    if read.query_param is not None:
                        parameter = next(p for p in route.dependant.query_params if p.alias == read.query_param)
                        default = parameter.default if isinstance(parameter.default, str) else None
                    reads.append(_DeclaredRead(compile_path(template)[0], template, read, default))
            self._reads = reads
        return self._reads
