"""A process answers one read of each kind of the stored data before it serves (``app.warm_up``):
its first readers after a start do not pay each kind's first-request costs. The suite's processes
start without it (conftest); these tests turn it on."""

import asyncio
import json
import logging
import time

import httpx
import pytest
from fastapi.testclient import TestClient

from app import warm_up as app_warm_up
from app.main import create_app
from app.settings import Settings
from app.warm_up import warm_up
from tests.helpers import cli_import_renju_cn, metric_sum, ratings, recompute_now
from tests.live_server import running_server


@pytest.mark.slow
def test_a_server_reads_each_kind_of_page_of_its_data_before_it_serves_and_counts_none_of_it(client):
    """On the real Chinese results, rated: the server's log says it asked every kind of read and
    none failed; ``/metrics`` counts no request until a client's, and then counts the client's."""
    cli_import_renju_cn()
    recompute_now(client)
    player = next(iter(ratings(client)))
    with running_server(WARM_UP="true", LOG_LEVEL="INFO") as server:
        warmed = _logged(server, "warmed_up")
        assert warmed["failed"] == [], warmed
        # Readiness, the lists, each rated list's page and its page as of its date, the first list's web page, the
        # first player's record, history, page and two searches, the latest tournament's record and page, the home page.
        assert warmed["requests"] == 1 + 1 + 2 + 1 + 5 + 3 + 1, warmed
        assert metric_sum(server.url, "rating_http_requests_total", route="/players/{player_id}") == 0
        assert httpx.get(f"{server.url}/players/{player}", timeout=30).status_code == 200
        assert metric_sum(server.url, "rating_http_requests_total", route="/players/{player_id}") == 1


def test_on_an_empty_database_the_warm_up_asks_what_there_is(client, caplog):
    """No rated list, no tournament: readiness, the lists, the first list's web page, the tournaments
    and the home page, every answer a 200."""
    with caplog.at_level(logging.INFO, logger="app.warm_up"), client:
        asyncio.run(warm_up(client.app))
    (warmed,) = [record for record in caplog.records if getattr(record, "event", None) == "warmed_up"]
    assert (warmed.requests, warmed.failed) == (5, [])  # type: ignore[attr-defined]


def test_a_warm_up_that_fails_is_logged_and_the_process_serves(caplog, monkeypatch):
    """A warm-up whose reads raise (the database gone, say) stops, says so, and the process starts
    and answers all the same."""

    async def failing(*_: object, **__: object) -> bytes:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(app_warm_up._Asking, "body", failing)
    app = create_app(Settings(warm_up=True), start_worker=False)
    monkeypatch.setattr(logging.getLogger("app"), "propagate", True)  # (to caplog's handler)
    with caplog.at_level(logging.INFO, logger="app.warm_up"), TestClient(app) as started:
        assert started.get("/v1/health").status_code == 200
    stopped = [record for record in caplog.records if getattr(record, "event", None) == "warm_up_stopped"]
    assert len(stopped) == 1 and stopped[0].exc_info is not None


@pytest.mark.slow
def test_a_process_on_a_database_not_migrated_yet_skips_its_warm_up(tmp_path):
    """Before ``migrate`` has run (a replica started beside the migration), the warm-up asks the
    readiness check alone and reads nothing, so that no read logs the missing tables' errors."""
    with running_server(DATABASE_URL=f"sqlite:///{tmp_path / 'new.sqlite3'}", WARM_UP="true", LOG_LEVEL="INFO") as server:
        skipped = _logged(server, "warm_up_skipped")
        assert skipped["failed"] == ["/v1/health/ready 503"], skipped
        assert httpx.get(f"{server.url}/v1/health/ready", timeout=10).status_code == 503
        assert "unexpected error" not in server.log()


def _logged(server, event: str) -> dict:  # type: ignore[no-untyped-def]
    """The server's JSON log line of ``event`` (written before it served)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        for line in server.log().splitlines():
            if line.startswith("{") and json.loads(line).get("event") == event:
                return json.loads(line)
        time.sleep(0.05)
    raise AssertionError(f"no {event} in the server's log: {server.log()[-2000:]}")
