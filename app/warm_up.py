"""The reads a process answers itself before it serves, so that its first readers do not pay what
every first request of a kind costs a process once.

A new process's first list as of a date, player page, tournament page or search took 5-12 ms more
than the ones after it on the large history (bench/README.md, "Ninth pass"): SQLAlchemy compiling
the statements, the first pooled connections reading the pages they need, the first decoding of
the current snapshot's archives. After every deploy or restart, those were some reader's. So the
lifespan asks one page of each kind of the stored data through the application itself, before
uvicorn accepts a connection (and so before ``/v1/health/ready`` answers a client), once that
check finds the database at this version's schema: the rating lists, each
list's current page and its page as of its date, the first player of the first list (his record,
history and web page, and a search for his name), the latest tournament (its record and web page)
and the website's home page. The answers are thrown away; they are not logged as requests nor
counted in ``/metrics`` (``WARM_UP`` in the scope's extensions tells the request middleware).

A failure here never stops the process: it is logged, and the readiness check reports the database."""

from __future__ import annotations

import json
import logging
import time
from typing import Any
from urllib.parse import quote, urlencode

from starlette.types import ASGIApp, Message, Scope

log = logging.getLogger("app.warm_up")

WARM_UP = "app.warm_up"  # the scope extension that marks a warm-up request


async def warm_up(app: ASGIApp) -> None:
    """Ask ``app`` one read of each kind of what the database holds; log how many and how long."""
    started = time.perf_counter()
    asked = _Asking(app)
    try:
        if await asked.json("/v1/health/ready") is None:
            # Unreachable, or not migrated (yet): nothing to read, and each read would log its error.
            log.info("no warm-up: the service is not ready", extra={"event": "warm_up_skipped", "failed": asked.failed})
            return
        lists = await asked.json("/v1/rating-lists") or []
        first_row: dict[str, Any] | None = None
        for rating_list in lists:
            if rating_list.get("current_snapshot_id") is None:
                continue
            list_id = quote(rating_list["id"], safe="")
            page = await asked.json(f"/v1/rating-lists/{list_id}/ratings", status="all", limit=1)
            if page and page.get("items"):
                first_row = first_row or {**page["items"][0], "list_id": rating_list["id"]}
                await asked.json(f"/v1/rating-lists/{list_id}/ratings", status="all", limit=1, as_of=page["list_date"])
        if lists:
            await asked.body(f"/lists/{quote(first_row['list_id'] if first_row else lists[0]['id'], safe='')}")
        if first_row is not None:
            player = quote(first_row["player_id"], safe="")
            await asked.json(f"/v1/players/{player}")
            await asked.json(f"/v1/players/{player}/history", list=first_row["list_id"])
            await asked.body(f"/players/{player}")
            searched = (first_row.get("name") or "")[:3] or first_row["player_id"]  # (a search finds a whole id too)
            await asked.json("/v1/players", q=searched)
            await asked.body("/players", q=searched)
        tournaments = await asked.json("/v1/tournaments", limit=1)
        if tournaments and tournaments.get("items"):
            tournament = quote(tournaments["items"][0]["id"], safe="")
            await asked.json(f"/v1/tournaments/{tournament}")
            await asked.body(f"/tournaments/{tournament}")
        await asked.body("/")
    except Exception:  # noqa: BLE001 - a warm-up is never a reason not to serve
        log.warning("warm-up stopped", exc_info=True, extra={"event": "warm_up_stopped", "requests": asked.count})
    log.info(
        "warmed up",
        extra={
            "event": "warmed_up",
            "requests": asked.count,
            "failed": asked.failed,
            "duration_s": round(time.perf_counter() - started, 3),
        },
    )


class _Asking:
    """GET requests to an ASGI application, in process, as a client's would be made."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.count = 0
        self.failed: list[str] = []

    async def json(self, path: str, **query: object) -> Any:
        """The JSON answer to ``path`` (None for an answer not 200)."""
        body = await self.body(path, **query)
        return json.loads(body) if body is not None else None

    async def body(self, path: str, **query: object) -> bytes | None:
        """The answer's body (None for an answer not 200: noted in ``failed``)."""
        self.count += 1
        scope: Scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "root_path": "",
            "query_string": urlencode(query).encode(),
            "headers": [(b"host", b"localhost")],
            "client": None,
            "server": None,
            "extensions": {WARM_UP: {}},
        }
        status, chunks = 0, []

        async def receive() -> Message:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, send)
        if status != 200:
            self.failed.append(f"{path} {status}")
            return None
        return b"".join(chunks)
