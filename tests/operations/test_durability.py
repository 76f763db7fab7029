"""Probes of issue 8 against a live server (uvicorn in a subprocess) on the test database: a 201
means stored, also when the server is killed right after it; parallel submissions sharing new
players, the same new tournament twice at once and the same Idempotency-Key many times at once end
without a 5xx and store everything exactly once."""

import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from sqlalchemy import func, select

from app import db
from app.models import Game, IdempotencyRecord, Player, Tournament
from tests.helpers import AUTH, tournament_body
from tests.live_server import live_server, running_server  # noqa: F401 - the fixture

pytestmark = pytest.mark.slow

SHARED_PLAYERS = [f"new{i:02d}" for i in range(12)]


def _tournament_sharing_players(number: int) -> dict:
    """A round robin of five players taken from the shared pool, in an order of its own, so that
    parallel submissions create and update the same new players in different orders."""
    chosen = [SHARED_PLAYERS[(number * 7 + k * 5) % len(SHARED_PLAYERS)] for k in range(5)]
    if number % 2:
        chosen.reverse()
    players = [{"id": p, "name": f"Name {p}", "country": "EST"} for p in chosen]
    games = [
        {"black": a, "white": b, "result": "BWD"[(i + j) % 3]}
        for i, a in enumerate(chosen)
        for j, b in enumerate(chosen)
        if i < j
    ]
    return tournament_body(f"P{number:03d}", players=players, games=games)


def _tournament_with_own_players(tournament_id: str) -> dict:
    body = tournament_body(tournament_id)
    own = {player["id"]: f"{tournament_id}-{player['id']}" for player in body["players"]}
    body["players"] = [{**player, "id": own[player["id"]]} for player in body["players"]]
    body["games"] = [{**game, "black": own[game["black"]], "white": own[game["white"]]} for game in body["games"]]
    return body


def _post_all(url: str, bodies: list[dict], headers_of=lambda i: AUTH) -> list[httpx.Response]:  # type: ignore[no-untyped-def]
    """POST every body at once: the threads start together behind a barrier. Their games may repeat
    each other's on purpose (a load, not a federation's data): duplicates are intended."""
    barrier = threading.Barrier(len(bodies))

    def post(index: int) -> httpx.Response:
        with httpx.Client(timeout=120) as client:
            barrier.wait()
            return client.post(
                f"{url}/v1/tournaments", json=bodies[index], headers=headers_of(index), params={"duplicate": "intended"}
            )

    with ThreadPoolExecutor(len(bodies)) as pool:
        return list(pool.map(post, range(len(bodies))))


def _count(statement) -> int:  # type: ignore[no-untyped-def]
    with db.get_engine().connect() as connection:
        return connection.execute(statement).scalar_one()


def test_fifty_parallel_submissions_sharing_new_players(live_server):  # noqa: F811
    bodies = [_tournament_sharing_players(n) for n in range(50)]
    responses = _post_all(live_server.url, bodies)
    statuses = Counter(r.status_code for r in responses)
    assert statuses == {201: 50}, {r.status_code: r.text[:300] for r in responses if r.status_code != 201}
    assert _count(select(func.count()).select_from(Tournament)) == 50
    assert _count(select(func.count()).select_from(Game)) == 50 * 10
    assert _count(select(func.count()).select_from(Player)) == len(SHARED_PLAYERS)
    assert _count(select(func.count(func.distinct(Player.id)))) == len(SHARED_PLAYERS)


def test_same_new_tournament_twice_at_once_is_201_and_409(live_server):  # noqa: F811
    for attempt in range(5):
        body = tournament_body(f"SAME{attempt}")
        responses = _post_all(live_server.url, [body, body])
        assert sorted(r.status_code for r in responses) == [201, 409], [r.text[:300] for r in responses]
        conflict = next(r for r in responses if r.status_code == 409)
        assert conflict.headers["content-type"].startswith("application/problem+json")
        assert conflict.json()["errors"][0]["pointer"] == "/id"
    assert _count(select(func.count()).select_from(Tournament)) == 5


def test_same_idempotency_key_twenty_times_at_once_stores_once(live_server):  # noqa: F811
    body = tournament_body("IDEM", players=[{"id": p, "name": p} for p in ("p1", "p2", "p3", "p4")])
    responses = _post_all(live_server.url, [body] * 20, headers_of=lambda i: {**AUTH, "Idempotency-Key": "burst-1"})
    statuses = Counter(r.status_code for r in responses)
    assert set(statuses) <= {201, 409}, {r.status_code: r.text[:300] for r in responses}
    assert statuses[201] >= 1
    created = [r.json() for r in responses if r.status_code == 201]
    assert all(body == created[0] for body in created), "every 201 is the first response's replay"
    for conflict in (r for r in responses if r.status_code == 409):
        assert "in progress" in conflict.json()["detail"] and conflict.headers["retry-after"]
    assert _count(select(func.count()).select_from(Tournament)) == 1
    assert _count(select(func.count()).select_from(Game).where(Game.tournament_id == "IDEM")) == 6
    assert _count(select(func.count()).select_from(IdempotencyRecord)) == 1


def test_a_201_is_readable_at_once_from_another_connection(live_server):  # noqa: F811
    with httpx.Client(timeout=30) as writer, httpx.Client(timeout=30) as reader:
        for number in range(30):
            created = writer.post(
                f"{live_server.url}/v1/tournaments",
                json=tournament_body(f"R{number}"),
                headers=AUTH,
                params={"duplicate": "intended"},
            )
            assert created.status_code == 201
            assert reader.get(f"{live_server.url}{created.headers['Location']}").status_code == 200


def test_killed_right_after_201_loses_nothing():
    """SIGKILL as soon as the 201s arrive: every tournament whose 201 reached the client is stored."""
    with running_server() as server:
        bodies = [_tournament_with_own_players(f"K{n:02d}") for n in range(20)]
        confirmed: list[str] = []
        lock = threading.Lock()
        enough = threading.Event()

        def post(body: dict) -> None:
            try:
                with httpx.Client(timeout=60) as client:
                    response = client.post(f"{server.url}/v1/tournaments", json=body, headers=AUTH)
            except httpx.TransportError:
                return  # the server died first: no promise was made
            if response.status_code == 201:
                with lock:
                    confirmed.append(body["id"])
                    if len(confirmed) >= 5:
                        enough.set()

        threads = [threading.Thread(target=post, args=(body,)) for body in bodies]
        for thread in threads:
            thread.start()
        assert enough.wait(60), "no 201 arrived"
        server.kill()
        for thread in threads:
            thread.join(60)
        with lock:
            promised = list(confirmed)
    assert len(promised) >= 5
    with db.get_engine().connect() as connection:
        stored = set(connection.scalars(select(Tournament.id).where(Tournament.id.in_(promised))))
        games = connection.scalar(select(func.count()).select_from(Game).where(Game.tournament_id.in_(promised)))
    assert stored == set(promised)
    assert games == 6 * len(promised)


def test_database_down_is_503_with_retry_after(tmp_path, database_url):
    if database_url.startswith("postgresql"):
        unreachable = "postgresql+psycopg://postgres@127.0.0.1:1/nowhere"
    else:
        unreachable = f"sqlite:///{tmp_path}"  # a directory: SQLite cannot open it
    with running_server(DATABASE_URL=unreachable) as server:
        for method, path, body in (
            ("GET", "/v1/tournaments", None),
            ("GET", "/v1/rating-lists", None),
            ("POST", "/v1/tournaments", tournament_body()),
            ("GET", "/v1/health", None),
            ("GET", "/v1/rating-lists/rif-whr/ratings", None),  # a conditional read meets the database first
            ("GET", "/v1/players/p1/history", None),
        ):
            headers = {**AUTH, "If-None-Match": 'W/"0"'}
            response = httpx.request(method, f"{server.url}{path}", json=body, headers=headers, timeout=30)
            assert response.status_code == 503, (path, response.text[:300])
            assert response.headers["content-type"].startswith("application/problem+json")
            assert int(response.headers["retry-after"]) > 0


def test_documented_cors_form_starts_the_server():
    with running_server(CORS_ORIGINS="https://renju.example,https://other.example") as server:
        response = httpx.options(
            f"{server.url}/v1/tournaments",
            headers={"Origin": "https://other.example", "Access-Control-Request-Method": "POST"},
        )
        assert response.headers["access-control-allow-origin"] == "https://other.example"


def test_same_new_player_at_once_is_one_201_and_409s_with_a_pointer(live_server):  # noqa: F811
    barrier = threading.Barrier(10)

    def create(_: int) -> httpx.Response:
        with httpx.Client(timeout=60) as client:
            barrier.wait()
            return client.post(f"{live_server.url}/v1/players", json={"id": "twin", "name": "Twin"}, headers=AUTH)

    with ThreadPoolExecutor(10) as pool:
        responses = list(pool.map(create, range(10)))
    assert sorted(r.status_code for r in responses) == [201] + [409] * 9, [r.text[:200] for r in responses]
    assert all(r.json()["errors"][0]["pointer"] == "/id" for r in responses if r.status_code == 409)
