"""The rating-system registry end to end: a throwaway system rated through HTTP, the stored per-day
rows against the engines' own answers, every list's change per tournament, parameter checks."""

import datetime as dt

import numpy as np
import pytest
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import event, insert, select, update

from app import db
from app.models import Player, RatingList
from app.rating import registry, rif_elo, whr
from app.rating.calculators import CalculationRefused, Calculator, Pointer, answers
from app.rating.rounding import round_half_away_from_zero
from app.rating.system import Entry, Point, RatingSystem, Replay, ReplayInput, last_point_held
from app.recompute import compute
from app.snapshots.current_snapshots import current_snapshots
from tests.helpers import (
    AUTH,
    RIF_ELO_SEEDS,
    RIF_ELO_TOURNAMENTS,
    cli_import_renju_cn,
    ratings,
    recompute_now,
    recompute_rif_elo,
    round_robin,
    store_rif_elo_history,
    tournament_body,
)

# --- a throwaway system: everyone's rating is base + points_per_win x wins --------------------------


class WinsParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    base: float = 1000.0
    points_per_win: float = Field(10.0, gt=0)


def replay_wins(given: ReplayInput) -> Replay:
    wins: dict[str, int] = {}
    games: dict[str, int] = {}
    last: dict[str, dt.date] = {}
    points: list[Point] = []
    for tournament in given.tournaments:
        for game in tournament.games:
            for player, won in ((game.black, game.black_score == 1.0), (game.white, game.black_score == 0.0)):
                wins[player] = wins.get(player, 0) + int(won)
                games[player] = games.get(player, 0) + 1
                last[player] = max(last.get(player, game.date), game.date)
        for player in sorted({p for g in tournament.games for p in (g.black, g.white)}):
            rating = given.params.base + given.params.points_per_win * wins[player]  # type: ignore[attr-defined]
            points.append(
                Point(
                    player,
                    tournament.end,
                    rating,
                    None,
                    games[player],
                    "active",
                    last[player],
                    title=f"{wins[player]} wins",
                    counters={"wins": wins[player]},
                    tournament_ids=[tournament.id],
                )
            )
    entries = [
        Entry(
            p,
            given.params.base + given.params.points_per_win * wins[p],
            None,
            games[p],
            last[p],
            "active",  # type: ignore[attr-defined]
            title=f"{wins[p]} wins",
            counters={"wins": wins[p]},
        )
        for p in wins
    ]
    return Replay(entries=entries, points=points, notes=["wins counted"])


class WinsIn(BaseModel):
    """A player's wins."""

    model_config = ConfigDict(extra="forbid")
    wins: int = Field(ge=0, description="Games won")
    params: WinsParams = Field(default_factory=WinsParams, description="The list's parameters")


class WinsOut(BaseModel):
    """A player's rating."""

    rating: float = Field(description="base + points_per_win x wins")


def rating_of_wins(body: WinsIn) -> WinsOut:
    if body.wins > 1000:
        raise CalculationRefused("The request has 1 invalid field(s).", [Pointer("/wins", "more wins than games")])
    return WinsOut(rating=body.params.base + body.params.points_per_win * body.wins)


WINS_REQUESTS = {"three": {"summary": "Three wins", "value": {"wins": 3}}}
WINS_CALCULATOR = Calculator(
    path="/test-wins/rating",
    operation_id="calc_test_wins_rating",
    doc="""Rate a number of wins

    The rating the throwaway system gives a player with these wins.""",
    request_model=WinsIn,
    response_model=WinsOut,
    function=rating_of_wins,
    request_examples=WINS_REQUESTS,
    response_examples=answers(WINS_REQUESTS, {"three": {"rating": 1030.0}}),
    within_budget=False,
)


@pytest.fixture
def wins_system():
    system = RatingSystem(
        id="test-wins",
        params_model=WinsParams,
        seed_model=None,
        replay=replay_wins,
        standings_on=last_point_held,
        calculators=(WINS_CALCULATOR,),
    )
    registry.register(system)
    yield system
    registry.unregister(system.id)


def test_a_throwaway_system_rates_a_stored_list_end_to_end(client, wins_system):
    with db.session_scope() as session:
        session.execute(
            insert(RatingList).values(
                id="wins",
                name="Wins",
                system="test-wins",
                category="renju",
                params={"points_per_win": 25.0},
                eligibility={"rated_only": True},
            )
        )
    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    job = recompute_now(client, "wins")
    assert job["result"]["notes"] == ["wins counted"]
    # p1: won g1, drew g3, lost g5 -> 1 win; p4: won g2, g4, g5 -> 3 wins (g6 not played)
    rows = {r["player_id"]: r for r in client.get("/v1/rating-lists/wins/ratings", params={"status": "all"}).json()["items"]}
    assert rows["p4"]["rating"] == 1075.0 and rows["p4"]["title"] == "3 wins" and rows["p4"]["counters"] == {"wins": 3}
    assert rows["p1"]["rating"] == 1025.0 and rows["p1"]["last_played"] == "2020-05-03"
    history = client.get("/v1/players/p4/history", params={"list": "wins"}).json()["points"]
    assert history == [
        {
            "date": "2020-05-03",
            "rating": 1075.0,
            "deviation": None,
            "games": 3,
            "status": "active",
            "title": "3 wins",
            "counters": {"wins": 3},
            "tournament_ids": ["T1"],
        }
    ]
    assert client.patch("/v1/rating-lists/wins/params", json={"points_per_win": -1}, headers=AUTH).status_code == 422
    assert client.put("/v1/rating-lists/wins/seeds", json={"seeds": []}, headers=AUTH).status_code == 422


def test_a_throwaway_systems_calculator_is_served_from_the_registry(wins_system):
    """One folder plus one registry line: the system's calculator is mounted by a freshly created
    app, documented in its OpenAPI document, and refuses input as every calculator does."""
    from fastapi.testclient import TestClient

    from app.main import create_app

    with TestClient(create_app(start_worker=False)) as fresh:
        answer = fresh.post("/v1/calc/test-wins/rating", json={"wins": 3})
        assert answer.status_code == 200 and answer.json() == {"rating": 1030.0}
        refused = fresh.post("/v1/calc/test-wins/rating", json={"wins": 5000})
        assert refused.status_code == 422
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert refused.json()["errors"] == [{"pointer": "/wins", "detail": "more wins than games"}]
        assert fresh.post("/v1/calc/test-wins/rating", json={"wins": -1}).status_code == 422
        operation = fresh.get("/openapi.json").json()["paths"]["/v1/calc/test-wins/rating"]["post"]
    assert operation["operationId"] == "calc_test_wins_rating" and operation["summary"] == "Rate a number of wins"
    assert operation["tags"] == ["calc"]
    assert operation["requestBody"]["content"]["application/json"]["examples"] == WINS_REQUESTS
    assert operation["responses"]["200"]["content"]["application/json"]["examples"]["three"]["value"] == {"rating": 1030.0}


def test_an_unknown_system_is_an_error_not_a_fallback(client):
    with pytest.raises(registry.UnknownSystem, match="not registered"):
        registry.get_system("no-such-system")
    with db.session_scope() as session:
        session.execute(
            insert(RatingList).values(id="odd", name="Odd", system="no-such-system", category="renju", params={}, eligibility={})
        )
    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    job_id = client.post("/v1/rating-lists/odd/recompute", headers=AUTH).json()["job_id"]
    from app.recompute.jobs import run_pending_jobs

    run_pending_jobs()
    job = client.get(f"/v1/jobs/{job_id}").json()
    assert job["status"] == "failed" and "no-such-system" in job["error"]
    assert client.patch("/v1/rating-lists/odd/params", json={}, headers=AUTH).status_code == 409


# --- the stored rows answer as the engines do ---------------------------------------------------------


@pytest.mark.slow
def test_whr_as_of_equals_the_rebuilt_fit_for_every_player(client):
    cli_import_renju_cn()
    recompute_now(client)
    with db.session_scope() as session:
        rating_list = session.get(RatingList, "rif-whr")
        tournaments = compute.stored_tournaments(session, rating_list)
    index: dict[str, int] = {}
    games = [g for t in tournaments for g in t.games]
    black = np.array([index.setdefault(g.black, len(index)) for g in games])
    white = np.array([index.setdefault(g.white, len(index)) for g in games])
    fitted = whr.fit(
        black, white, np.array([g.black_score for g in games]), np.array([g.date.toordinal() for g in games]), len(index)
    )
    ids = list(index)
    first, last = int(fitted.day.min()), int(fitted.day.max())
    for day in [first - 1, first, *np.linspace(first, last + 400, 7).astype(int).tolist()[1:], last]:
        players, rating, deviation = whr.ratings_on(fitted, day, 12.9)
        _, played, last_day = whr.games_on(fitted, day)
        statuses = whr.statuses_on(played, last_day, day)
        on = dt.date.fromordinal(day).isoformat()
        stored = {**ratings(client, as_of=on), **ratings(client, as_of=on, offset=500)}
        assert set(stored) == {ids[p] for p in players}
        for p, r, s, n, lp, status in zip(
            players.tolist(), rating.tolist(), deviation.tolist(), played.tolist(), last_day.tolist(), statuses.tolist()
        ):
            row = stored[ids[p]]
            assert row["rating"] == pytest.approx(r, abs=1e-6) and row["deviation"] == pytest.approx(s, abs=1e-6)
            assert (row["games"], row["last_played"], row["status"]) == (n, dt.date.fromordinal(lp).isoformat(), str(status))


@pytest.mark.slow
def test_as_of_pages_filters_and_ranks_like_the_whole_list_on_that_date(client):
    cli_import_renju_cn()
    with db.session_scope() as session:  # the Chinese file names no country: give every seventh player one
        marked = session.scalars(select(Player.id).order_by(Player.id)).all()[::7]
        session.execute(update(Player).where(Player.id.in_(marked)).values(country="CHN"))
    recompute_now(client)
    rows = _every_row(client, status="all")
    assert 100 < len(rows) < 1000 and [r["rank"] for r in rows] == list(range(1, len(rows) + 1))
    assert [(-r["rating"], r["player_id"]) for r in rows] == sorted((-r["rating"], r["player_id"]) for r in rows)
    pages = [
        client.get(
            "/v1/rating-lists/rif-whr/ratings", params={"as_of": "2016-06-01", "status": "all", "limit": 37, "offset": o}
        ).json()
        for o in range(0, len(rows), 37)
    ]
    assert [r for page in pages for r in page["items"]] == rows and {page["total"] for page in pages} == {len(rows)}
    for status in ("active", "provisional", "inactive"):
        wanted = [r for r in rows if r["status"] == status]
        got = _every_row(client, status=status)
        assert [r["player_id"] for r in got] == [r["player_id"] for r in wanted]
        assert [r["rank"] for r in got] == list(range(1, len(wanted) + 1))
    got = _every_row(client, status="all", country="CHN")
    assert [r["player_id"] for r in got] == [r["player_id"] for r in rows if r["country"] == "CHN"]
    assert len(got) > 10 and {r["player_id"] for r in got} <= set(marked)


def _every_row(client, **params):  # type: ignore[no-untyped-def]
    pages = [
        client.get("/v1/rating-lists/rif-whr/ratings", params={"as_of": "2016-06-01", "limit": 500, "offset": o, **params}).json()
        for o in (0, 500)
    ]
    assert pages[0]["total"] == pages[1]["total"] == len(pages[0]["items"]) + len(pages[1]["items"])
    return pages[0]["items"] + pages[1]["items"]


def test_as_of_reads_each_snapshot_of_its_own_even_after_a_new_one(client):
    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    first = recompute_now(client)["snapshot_id"]
    before = client.get("/v1/rating-lists/rif-whr/ratings", params={"as_of": "2021-01-01", "status": "all"}).json()["items"]
    later = {"black": "p1", "white": "p2", "result": "W"}
    client.post("/v1/tournaments", json=tournament_body("T2", start="2020-12-01", end="2020-12-01", games=[later]), headers=AUTH)
    second = recompute_now(client)["snapshot_id"]
    after = client.get("/v1/rating-lists/rif-whr/ratings", params={"as_of": "2021-01-01", "status": "all"}).json()["items"]
    assert (
        second != first
        and {r["player_id"]: r["games"] for r in after}["p1"] == {r["player_id"]: r["games"] for r in before}["p1"] + 1
    )
    pinned = client.get(
        "/v1/rating-lists/rif-whr/ratings", params={"as_of": "2021-01-01", "status": "all", "snapshot_id": first}
    ).json()
    assert pinned["items"] == before


def test_elo_as_of_equals_the_replay_for_every_player(client):
    store_rif_elo_history(client)
    client.put("/v1/rating-lists/rif-elo/seeds", json={"seeds": RIF_ELO_SEEDS}, headers=AUTH)
    recompute_rif_elo(client)
    expected = rif_elo.replay(
        [
            rif_elo.Tournament(
                t,
                dt.date.fromisoformat(s),
                dt.date.fromisoformat(e),
                [rif_elo.Game(g["black"], g["white"], {"B": 1.0, "W": 0.0, "D": 0.5}[g["result"]]) for g in games],
            )
            for t, s, e, games in _stored_bodies()
        ],
        [rif_elo.Seed(s["player_id"], s["rating"], s["status"], dt.date.fromisoformat(s["as_of"])) for s in RIF_ELO_SEEDS],
    )
    for day in (
        "1994-12-30",
        "1994-12-31",
        "1995-03-05",
        "1995-04-30",
        "1995-05-01",
        "1996-06-01",
        "1998-07-03",
        "2004-01-01",
        "2021-08-07",
    ):
        wanted = {}
        for point in expected.history:  # sorted by date: the last on or before the day wins
            if point.date <= dt.date.fromisoformat(day):
                wanted[point.player_id] = (point.rating, point.games)
        listed = client.get("/v1/rating-lists/rif-elo/ratings", params={"status": "all", "as_of": day}).json()["items"]
        assert {r["player_id"]: (r["rating"], r["games"]) for r in listed} == wanted, day


def _stored_bodies():  # type: ignore[no-untyped-def]
    return [(tid, start, end, round_robin(ids, results)) for tid, start, end, ids, results in RIF_ELO_TOURNAMENTS]


def test_last_played_is_the_last_games_date_never_a_period_end(client):
    players = [{"id": p} for p in ("a", "b", "c")]
    games = [
        {"black": "a", "white": "b", "result": "B", "date": "1995-01-11"},
        {"black": "b", "white": "c", "result": "D", "date": "1995-01-12"},
        {"black": "c", "white": "a", "result": "W", "date": "1995-01-12"},
    ]
    body = {
        "id": "jan",
        "name": "January",
        "category": "renju",
        "start": "1995-01-10",
        "end": "1995-01-14",
        "players": players,
        "games": games,
    }
    assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201
    seeds = [{"player_id": p, "rating": 2000 + 50 * i, "as_of": "1994-12-31"} for i, p in enumerate(("a", "b", "c"))]
    client.put("/v1/rating-lists/rif-elo/seeds", json={"seeds": seeds}, headers=AUTH)
    recompute_rif_elo(client)
    listed = {
        r["player_id"]: r
        for r in client.get("/v1/rating-lists/rif-elo/ratings", params={"status": "all", "as_of": "1995-06-01"}).json()["items"]
    }
    assert listed["a"]["last_played"] == "1995-01-12" and listed["b"]["last_played"] == "1995-01-12"
    current = {
        r["player_id"]: r for r in client.get("/v1/rating-lists/rif-elo/ratings", params={"status": "all"}).json()["items"]
    }
    assert current["a"]["last_played"] == "1995-01-12"
    points = client.get("/v1/players/a/history", params={"list": "rif-elo"}).json()["points"]
    assert points[-1]["date"] == "1995-04-30" and points[-1]["tournament_ids"] == ["jan"]


# --- every list's change per tournament --------------------------------------------------------------


def test_whr_change_per_tournament_and_history_names_tournaments(client):
    first = tournament_body("A", start="2020-01-01", end="2020-01-01", games=[{"black": "p1", "white": "p2", "result": "B"}])
    second = tournament_body("B", start="2020-01-21", end="2020-01-21", games=[{"black": "p1", "white": "p3", "result": "B"}])
    same_day = tournament_body("C", start="2020-01-21", end="2020-01-21", games=[{"black": "p4", "white": "p1", "result": "D"}])
    for body in (first, second, same_day):
        assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201
    recompute_now(client)
    points = client.get("/v1/players/p1/history", params={"list": "rif-whr"}).json()["points"]
    assert [p["tournament_ids"] for p in points] == [["A"], ["B", "C"]]
    assert [p["games"] for p in points] == [1, 3]  # rated games up to and including the day
    changes = {c["player_id"]: c for c in client.get("/v1/tournaments/B").json()["rating_changes"] if c["list_id"] == "rif-whr"}
    assert set(changes) == {"p1", "p3"}
    assert changes["p1"]["rating_before"] == pytest.approx(points[0]["rating"]) and changes["p1"][
        "rating_after"
    ] == pytest.approx(points[1]["rating"])
    assert changes["p1"]["change_unrounded"] == pytest.approx(points[1]["rating"] - points[0]["rating"])
    # As the list shows it, whole ratings that add up (decision 145): not the unrounded difference.
    shown = round_half_away_from_zero(points[1]["rating"]) - round_half_away_from_zero(points[0]["rating"])
    assert changes["p1"]["change"] == shown and changes["p1"]["change"] != changes["p1"]["change_unrounded"]
    assert changes["p3"]["rating_before"] == 1900.0  # a newcomer starts from the virtual rating
    assert changes["p3"]["system"] == "rif-whr" and changes["p3"]["title_after"] is None and changes["p3"]["games_counted"] == 1


def test_params_are_checked_by_the_engines_own_rules(client):
    for body, pointer in (({"virtual_games": 0}, "/virtual_games"), ({"w2": 0}, "/w2"), ({"colour": 1}, "/colour")):
        response = client.patch("/v1/rating-lists/rif-whr/params", json=body, headers=AUTH)
        assert response.status_code == 422 and response.json()["errors"][0]["pointer"] == pointer, response.text
    nan = client.patch(
        "/v1/rating-lists/rif-whr/params", content='{"virtual_rating": NaN}', headers={**AUTH, "Content-Type": "application/json"}
    )
    assert nan.status_code == 422
    assert client.patch("/v1/rating-lists/rif-elo/params", json={"w2": 10}, headers=AUTH).status_code == 422
    assert client.patch("/v1/rating-lists/rif-whr/params", json={"w2": 20}, headers=AUTH).json()["params"]["w2"] == 20


def test_cache_headers_and_a_304_for_list_and_history(client):
    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    snapshot = recompute_now(client)["snapshot_id"]
    page = client.get("/v1/rating-lists/rif-whr/ratings")
    assert "max-age" in page.headers["cache-control"] and page.headers["cache-control"].startswith("public")
    pinned = client.get("/v1/rating-lists/rif-whr/ratings", params={"snapshot_id": snapshot})
    assert "immutable" in pinned.headers["cache-control"]
    history = client.get("/v1/players/p1/history")
    assert "max-age" in history.headers["cache-control"] and history.json()["points"]
    statements: list[str] = []

    def record(conn, cursor, statement, *args):  # type: ignore[no-untyped-def]
        statements.append(statement)

    event.listen(db.get_engine(), "before_cursor_execute", record)
    try:
        current_snapshots.forget()  # as after another process's write: the lists' current snapshots are read again
        assert client.get("/v1/rating-lists/rif-whr/ratings", headers={"If-None-Match": page.headers["etag"]}).status_code == 304
        assert len(statements) == 1 and "rating_entries" not in statements[0] and "point_columns" not in statements[0]
        assert client.get("/v1/rating-lists/rif-whr/ratings", headers={"If-None-Match": page.headers["etag"]}).status_code == 304
        assert client.get("/v1/players/p1/history", headers={"If-None-Match": history.headers["etag"]}).status_code == 304
        assert len(statements) == 1  # within the second, neither reads the database again
    finally:
        event.remove(db.get_engine(), "before_cursor_execute", record)
    assert client.get("/v1/players/p1/history", headers={"If-None-Match": history.headers["etag"]}).status_code == 304


@pytest.mark.slow
def test_the_readmes_elo_example_lists_players_on_the_datas_last_day(client):
    """README, "The historical Elo list": the seeds of its example, then the list as of 2019-12-15."""
    cli_import_renju_cn()
    seeds = [
        {"player_id": p, "rating": r, "status": "established", "as_of": "2009-11-01"}
        for p, r in (("1193", 2300), ("2223", 2250), ("1168", 2200), ("487", 2150))
    ]
    assert client.put("/v1/rating-lists/rif-elo/seeds", json={"seeds": seeds}, headers=AUTH).status_code == 200
    recompute_now(client, "rif-elo")
    listed = client.get("/v1/rating-lists/rif-elo/ratings", params={"as_of": "2019-12-15"}).json()
    assert listed["total"] >= 4 and {r["status"] for r in listed["items"]} == {"active"}
    assert client.get("/v1/rating-lists/rif-elo/ratings").json()["total"] == 0  # read today: all inactive
