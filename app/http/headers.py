"""The response headers the service sends, as the contract declares them (issue 44 item 2): a
generated client reads ``Location`` to follow what a write made, ``ETag`` to send back in
``If-Match`` or ``If-None-Match``, ``Cache-Control`` for how long a copy keeps, ``Retry-After`` for
when to try a 503 again. Routers put them in their ``responses``; ``app.contract`` adds
``Retry-After`` to every 503."""

from typing import Any

_TEXT = {"type": "string"}

LOCATION: dict[str, Any] = {
    "Location": {"description": "The path of the resource the request made, to read it at", "schema": _TEXT},
}
TOURNAMENT_VERSION: dict[str, Any] = {
    "ETag": {
        "description": "The tournament's version (e.g. `\"v3\"`, its latest revision's number): send it back in "
        "`If-Match` to change the tournament only if nobody has changed it since",
        "schema": _TEXT,
    }
}
CACHED_READ: dict[str, Any] = {
    "ETag": {
        "description": "Names this answer (its snapshot, the query, the latest publication and the stale mark where "
        "they matter): send it back in `If-None-Match`, and an unchanged answer is a 304 without a body",
        "schema": _TEXT,
    },
    "Cache-Control": {
        "description": "How long a copy may be kept: a minute for the current list (served stale while it is "
        "revalidated), a year for a pinned snapshot or a publication, which never change",
        "schema": _TEXT,
    },
}
RETRY_AFTER: dict[str, Any] = {
    "Retry-After": {
        "description": "Seconds to wait before trying again (the condition is transient)",
        "schema": {"type": "integer"},
    },
}

# The 304 of a conditional read, with the headers it carries (RFC 9110 15.4.5).
NOT_MODIFIED: dict[int | str, dict[str, Any]] = {
    304: {"description": "Not modified (If-None-Match names the current answer): no body", "headers": CACHED_READ}
}
