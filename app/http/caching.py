"""Conditional reads: how long a copy may be kept, the ETag of a list's page, and whether the copy a
request names in ``If-None-Match`` is still current.

The ETag of a read of a list depends only on the path, the query as sent and the list's current
snapshot and stale mark (``reads_etag``), which this process knows without a database session
(``current_snapshot``, from ``app.snapshots.current_snapshots``); so an unchanged page is a 304
answered before any row is read."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.responses import Response
from starlette.types import Scope

from app import db
from app.snapshots.current_snapshots import Current, current_snapshots

# A website behind a CDN: the current list may be cached briefly and served stale while the CDN
# revalidates it (ETag, cheap 304); a pinned snapshot never changes.
CURRENT_CACHE = "public, max-age=60, stale-while-revalidate=600"
PINNED_CACHE = "public, max-age=31536000, immutable"
PINNING_QUERY = "snapshot_id"  # the query parameter that reads an earlier snapshot of a list

Endpoint = TypeVar("Endpoint", bound=Callable[..., object])


@dataclass(frozen=True)
class ListRead:
    """A read of one list's current snapshot, declared on its endpoint (``list_read``): where the
    request names the list (a path parameter, or a query parameter and its default) and whether the
    answer is compared with the list's latest publication. What it declares is all the conditional
    decision needs (``read_validators``), before routing (``app.api.conditional``) and in the
    endpoint alike."""

    path_param: str | None = None
    query_param: str | None = None
    compared: bool = False


def list_read(read: ListRead) -> Callable[[Endpoint], Endpoint]:
    """Declare an endpoint a conditional read of a list (an attribute its route carries)."""

    def declared(endpoint: Endpoint) -> Endpoint:
        setattr(endpoint, "list_read", read)  # noqa: B010 - an attribute the function does not declare
        return endpoint

    return declared


def read_validators(read: ListRead, current: Current, scope: Scope, pinned: int | None = None) -> tuple[str, str]:
    """The one conditional decision of every list read: its ETag and Cache-Control. A pinned snapshot
    never changes; the current one's answer also changes with the latest publication (a compared
    read), with the list's stale mark and with the players' names, countries and genders."""
    if pinned is not None:
        return reads_etag(pinned, scope), PINNED_CACHE
    publication = current.publication if read.compared else None
    return reads_etag(current.snapshot_id, scope, publication, current.stale_since, current.players_edition), CURRENT_CACHE


def reads_etag(
    snapshot_id: int | None,
    scope: Scope,
    publication: int | None = None,
    stale_since: datetime | None = None,
    players_edition: int | None = None,
) -> str:
    """The ETag of a list page or a history: the snapshot it is read from, the path and the query
    as sent (the same query written another way is another ETag, and only that); for the current
    list, also its latest publication, which its rows are compared with, and since when it is stale
    (the answer says so: a list goes stale without a new snapshot, and a copy from before must not
    be answered 304), and the latest change of what it shows of its players (their names as stored now)."""
    key = f"{snapshot_id}\n{scope['path']}\n{scope['query_string'].decode('latin-1')}"
    if publication is not None:
        key += f"\npublication {publication}"
    if stale_since is not None:
        key += f"\nstale since {stale_since.isoformat()}"
    if players_edition is not None:
        key += f"\nplayers {players_edition}"
    return 'W/"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'


def matches(if_none_match: str | None, etag: str) -> bool:
    """RFC 9110 13.1.2: If-None-Match compares weakly, so W/"x" matches "x"."""
    if not if_none_match:
        return False
    if if_none_match.strip() == "*":
        return True
    bare = etag.removeprefix("W/")
    return any(tag.strip().removeprefix("W/") == bare for tag in if_none_match.split(","))


def not_modified(etag: str, cache_control: str) -> Response:
    """The bodiless 304 to a copy that is still current (RFC 9110 15.4.5: with its ETag and Cache-Control)."""
    return Response(status_code=304, headers={"ETag": etag, "Cache-Control": cache_control})


async def current_snapshot(list_id: str) -> Current | None:
    """The list's current snapshot as this process last read it (None for no such list)."""
    engine = db.get_engine()
    known, current = current_snapshots.known(engine, list_id)
    if not known:
        await run_in_threadpool(current_snapshots.read, engine)
        known, current = current_snapshots.known(engine, list_id)
    return current if known else None
