"""Anonymous calc requests are bounded (issue 8): players and games per request (maxItems in the
contract), the body size under /v1/calc/ (413, also for a chunked body), a time budget and a cap
on calculations at once; /v1/health stays responsive meanwhile."""

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from app.rating.calculators import MAX_CALC_GAMES, MAX_CALC_PLAYERS
from app.rating.whr.calculator_models import MAX_WHR_CALC_GAMES
from tests.live_server import live_server, running_server  # noqa: F401 - the fixture


def _elo_tournament(players: int, games: int) -> dict:
    return {
        "end": "1998-01-01",
        "players": [{"id": f"p{i}", "rating": 1500 + i % 900, "status": "official"} for i in range(players)],
        "games": [
            {
                "black": f"p{g % players}",
                "white": f"p{(g * 7 + 1) % players}" if (g * 7 + 1) % players != g % players else f"p{(g + 1) % players}",
                "result": "BWD"[g % 3],
            }
            for g in range(games)
        ],
    }


def test_the_contract_documents_the_limits(app):
    schemas = app.openapi()["components"]["schemas"]
    for name in ("Rif1995TournamentIn", "Rif1997TournamentIn"):
        assert schemas[name]["properties"]["players"]["maxItems"] == MAX_CALC_PLAYERS
        assert schemas[name]["properties"]["games"]["maxItems"] == MAX_CALC_GAMES
    assert schemas["WhrCalcIn"]["properties"]["games"]["maxItems"] == MAX_WHR_CALC_GAMES


@pytest.mark.parametrize(
    ("path", "body", "pointer"),
    [
        ("/v1/calc/rif-1995/tournament", _elo_tournament(MAX_CALC_PLAYERS + 1, 1), "/players"),
        ("/v1/calc/rif-1995/tournament", _elo_tournament(10, MAX_CALC_GAMES + 1), "/games"),
        (
            "/v1/calc/rif-1997/tournament",
            {"players": [], "games": [{"black": "a", "white": "b", "result": "B"}] * (MAX_CALC_GAMES + 1)},
            "/games",
        ),
        (
            "/v1/calc/whr",
            {"games": [{"black": "a", "white": "b", "result": "B", "date": "2020-01-01"}] * (MAX_WHR_CALC_GAMES + 1)},
            "/games",
        ),
    ],
)
def test_too_many_players_or_games_is_422_with_a_pointer(client, path, body, pointer):
    response = client.post(path, json=body)
    assert response.status_code == 422
    assert pointer in [error["pointer"] for error in response.json()["errors"]]


@pytest.mark.slow
def test_a_body_over_the_calc_limit_is_413_declared_or_chunked(live_server):  # noqa: F811
    from app.settings import get_settings

    limit = get_settings().max_calc_body_bytes
    oversized = json.dumps(
        {"games": [{"black": "a", "white": "b", "result": "B", "date": "2020-01-01"}] * (limit // 50 + 10)}
    ).encode()
    assert len(oversized) > limit
    declared = httpx.post(f"{live_server.url}/v1/calc/whr", content=oversized, headers={"Content-Type": "application/json"})
    assert declared.status_code == 413
    assert declared.headers["content-type"].startswith("application/problem+json")

    def chunks():  # no Content-Length: Transfer-Encoding: chunked
        for start in range(0, len(oversized), 65536):
            yield oversized[start : start + 65536]

    chunked = httpx.post(f"{live_server.url}/v1/calc/whr", content=chunks(), headers={"Content-Type": "application/json"})
    assert chunked.status_code == 413, chunked.text[:300]
    assert chunked.json()["status"] == 413
    # A chunked body within the limit is read as usual.
    small = json.dumps({"games": [{"black": "a", "white": "b", "result": "B", "date": "2020-01-01"}]}).encode()
    assert (
        httpx.post(
            f"{live_server.url}/v1/calc/whr", content=iter([small[:10], small[10:]]), headers={"Content-Type": "application/json"}
        ).status_code
        == 200
    )


@pytest.mark.slow
def test_a_calculation_past_the_time_budget_is_answered_and_others_wait_their_turn():
    body = _elo_tournament(MAX_CALC_PLAYERS, MAX_CALC_GAMES)
    with running_server(CALC_TIME_BUDGET_SECONDS="0.05", CALC_MAX_CONCURRENT="1", CALC_QUEUE_SECONDS="0.01") as server:
        started = time.monotonic()
        slow = httpx.post(f"{server.url}/v1/calc/rif-1995/tournament", json=body, timeout=60)
        assert slow.status_code == 422, slow.text[:300]
        assert slow.json()["errors"][0]["pointer"] == "/games"
        assert "time budget" in slow.json()["detail"]
        assert time.monotonic() - started < 5
        # The abandoned calculation still holds the only slot: the next caller is told to retry.
        busy = httpx.post(f"{server.url}/v1/calc/rif-1995/tournament", json=_elo_tournament(4, 4), timeout=60)
        assert busy.status_code == 503 and int(busy.headers["retry-after"]) > 0


@pytest.mark.slow
def test_calculations_beyond_the_cap_are_told_to_retry():
    body = _elo_tournament(MAX_CALC_PLAYERS, MAX_CALC_GAMES)
    with running_server(CALC_MAX_CONCURRENT="1", CALC_QUEUE_SECONDS="0.01") as server:
        barrier = threading.Barrier(3)

        def post(_: int) -> httpx.Response:
            with httpx.Client(timeout=120) as client:
                barrier.wait()
                return client.post(f"{server.url}/v1/calc/rif-1995/tournament", json=body)

        with ThreadPoolExecutor(3) as pool:
            responses = list(pool.map(post, range(3)))
        statuses = sorted(r.status_code for r in responses)
        assert statuses[0] == 200 and 503 in statuses, statuses
        busy = next(r for r in responses if r.status_code == 503)
        assert int(busy.headers["retry-after"]) > 0
        assert busy.headers["content-type"].startswith("application/problem+json")


@pytest.mark.slow
def test_health_answers_while_calc_requests_pour_in(live_server):  # noqa: F811
    body = _elo_tournament(500, 5000)
    stop = threading.Event()

    def hammer() -> None:
        with httpx.Client(timeout=60) as client:
            while not stop.is_set():
                response = client.post(f"{live_server.url}/v1/calc/rif-1995/tournament", json=body)
                assert response.status_code in (200, 503), response.text[:300]

    with ThreadPoolExecutor(12) as pool:
        futures = [pool.submit(hammer) for _ in range(12)]
        time.sleep(1.0)
        timings = []
        for _ in range(10):
            started = time.monotonic()
            assert httpx.get(f"{live_server.url}/v1/health", timeout=30).status_code == 200
            timings.append(time.monotonic() - started)
            time.sleep(0.1)
        stop.set()
        for future in futures:
            future.result()
    timings.sort()
    # One calculation at a time shares the process with the health check (its interpreter lock):
    # a bounded slowdown, not the starvation of twelve calculations at once.
    assert timings[len(timings) // 2] < 5.0, timings
