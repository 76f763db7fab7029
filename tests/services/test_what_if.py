"""POST /v1/rating-lists/{list_id}/what-if (issue 25 item 4): what a tournament would do to each list,
nothing stored, equal to what the same tournament shows once really submitted and the list recomputed,
for every list that rates it and every system; bad input a 4xx problem with pointers; bounded like the
calculators."""

import pytest
from sqlalchemy import func, select

from app import db
from app.api import calculators
from app.models import Job, Player, Revision, Tournament
from app.rating.calculators import MAX_CALC_GAMES
from app.settings import get_settings
from tests.helpers import (
    AUTH,
    RIF_ELO_SEEDS,
    SHOGI_SEEDS,
    SHOGI_TOURNAMENTS,
    recompute_now,
    round_robin,
    shogi_body,
    store_rif_elo_history,
    submit_shogi,
)

WHAT_IF = "/v1/rating-lists/{list_id}/what-if"
COMPARED = (
    "system",
    "rating_before",
    "rating_after",
    "change",
    "change_unrounded",
    "games_counted",
    "status_after",
    "title_after",
)


def lists_of(client, category: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [item["id"] for item in client.get("/v1/rating-lists").json() if item["category"] == category]


def assert_what_if_is_what_the_submission_does(client, body: dict) -> set[str]:  # type: ignore[no-untyped-def]
    """Ask every list of the tournament's category, then submit it, recompute each list that rates it,
    and compare every player's change; the ids of the lists that rate it."""
    asked = {}
    for list_id in lists_of(client, body["category"]):
        response = client.post(WHAT_IF.format(list_id=list_id), json=body)
        assert response.status_code == 200, response.text
        asked[list_id] = response.json()
    submitted = client.post("/v1/tournaments", json=body, headers=AUTH, params={"duplicate": "intended"})
    assert submitted.status_code == 201, submitted.text
    rating = {item["id"] for item in submitted.json()["lists"] if item["rated"]}
    assert {list_id for list_id, answer in asked.items() if answer["rated"]} == rating
    for list_id in rating:
        recompute_now(client, list_id)
    changes = client.get(f"/v1/tournaments/{body['id']}").json()["rating_changes"]
    for list_id, answer in asked.items():
        stored = {c["player_id"]: c for c in changes if c["list_id"] == list_id}
        predicted = {p["player_id"]: p for p in answer["players"]}
        assert set(predicted) == set(stored), list_id
        assert stored or list_id not in rating, f"{list_id} rates the tournament but its rules changed nobody"
        assert list(predicted) == sorted(predicted)
        for player_id, change in stored.items():
            for name in COMPARED:
                expected, got = change[name], predicted[player_id][name]
                if isinstance(expected, float):
                    assert got == pytest.approx(expected, rel=1e-9, abs=1e-9), (list_id, player_id, name)
                else:
                    assert got == expected, (list_id, player_id, name)
            assert _close(predicted[player_id]["details"], change["details"]), (list_id, player_id)
    return rating


def _close(a, b) -> bool:  # type: ignore[no-untyped-def]
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) or isinstance(b, float):
        return a == pytest.approx(b, rel=1e-9, abs=1e-9)
    return bool(a == b)


def test_renju_on_whr_elo_and_the_estonian_list(client):
    store_rif_elo_history(client)
    assert client.put("/v1/rating-lists/rif-elo/seeds", json={"seeds": RIF_ELO_SEEDS}, headers=AUTH).status_code == 200
    estonians = [{"id": p, "name": p.upper(), "country": "EST"} for p in ("e1", "e2", "e3")]
    first = {
        "id": "tartu",
        "name": "Tartu",
        "category": "renju",
        "rule": "RIF",
        "start": "2020-02-10",
        "end": "2020-02-11",
        "time_control_minutes": 60,
        "eru_calendar": True,
        "games_recorded": True,
        "players": estonians,
        "games": round_robin(["e1", "e2", "e3", "a"], "BWDBWD"),
    }
    assert client.post("/v1/tournaments", json=first, headers=AUTH).status_code == 201
    seeds = [{"player_id": p, "rating": 1900 + 50 * i, "as_of": "2020-01-01", "title": "1k"} for i, p in enumerate(("e1", "e2"))]
    assert client.put("/v1/rating-lists/eru/seeds", json={"seeds": seeds}, headers=AUTH).status_code == 200
    for list_id in lists_of(client, "renju"):
        recompute_now(client, list_id)
    # A later ranked tournament with a newcomer given inline, before the historical Elo list's last day
    # (2021-08-07): every renju list rates it.
    body = {
        **first,
        "id": "tallinn",
        "name": "Tallinn",
        "start": "2021-06-01",
        "end": "2021-06-02",
        "players": [*estonians, {"id": "new1", "name": "New", "country": "EST"}],
        "games": round_robin(["e1", "a", "e2", "b", "new1", "e3"], "BWDBWDBBWDWBDWB"),
    }
    assert assert_what_if_is_what_the_submission_does(client, body) >= {"rif-whr", "rif-elo", "eru"}


def test_a_correction_asked_before_it_is_made_and_a_tournament_in_the_middle_of_the_history(client):
    # WHR: the what-if of a tournament dated between stored ones, then of one replacing a stored id.
    store_rif_elo_history(client)
    recompute_now(client, "rif-whr")
    middle = {
        "id": "t1997",
        "name": "Between",
        "category": "renju",
        "start": "1997-02-01",
        "end": "1997-02-02",
        "players": [],
        "games": round_robin(["c", "d", "n2"], "BWD"),
    }
    assert "rif-whr" in assert_what_if_is_what_the_submission_does(client, middle)
    corrected = {**middle, "games": round_robin(["c", "d", "n2"], "WWB")}
    before = client.post(WHAT_IF.format(list_id="rif-whr"), json=corrected).json()
    assert client.put("/v1/tournaments/t1997", json=corrected, headers=AUTH).status_code == 200
    recompute_now(client, "rif-whr")
    stored = {
        c["player_id"]: c for c in client.get("/v1/tournaments/t1997").json()["rating_changes"] if c["list_id"] == "rif-whr"
    }
    for player in before["players"]:
        assert player["rating_after"] == pytest.approx(stored[player["player_id"]]["rating_after"], rel=1e-9)


GO_PLAYERS = [{"id": f"g{i}", "name": f"G{i}", "rank": rank} for i, rank in enumerate(("2k", "1d", "5k", "3d"))]


def test_go_on_the_club_rating(client):
    first = {
        "id": "G1",
        "name": "Club evening",
        "category": "go",
        "start": "2020-05-01",
        "end": "2020-05-01",
        "board_size": 19,
        "players": GO_PLAYERS,
        "games": [
            {"round": "1", "black": "g0", "white": "g1", "result": "B"},
            {"round": "1", "black": "g2", "white": "g3", "result": "W"},
        ],
    }
    assert client.post("/v1/tournaments", json=first, headers=AUTH).status_code == 201
    recompute_now(client, "rivne")
    # Two rounds with a handicap game and a newcomer declaring his rank (5.11).
    body = {
        **first,
        "id": "G2",
        "start": "2020-06-01",
        "end": "2020-06-02",
        "players": [*GO_PLAYERS, {"id": "g9", "name": "New", "rank": "10k"}],
        "games": [
            {"round": "1", "black": "g0", "white": "g3", "result": "B", "handicap": 4},
            {"round": "1", "black": "g9", "white": "g2", "result": "W", "handicap": 5},
            {"round": "2", "black": "g1", "white": "g0", "result": "D"},
            {"round": "2", "black": "g9", "white": "g3", "result": "W", "board_size": 13, "handicap": 9},
        ],
    }
    assert "rivne" in assert_what_if_is_what_the_submission_does(client, body)
    changes = [c for c in client.get("/v1/tournaments/G2").json()["rating_changes"] if c["list_id"] == "rivne"]
    assert len(changes) == 5 and changes[0]["details"]["games"]


def test_shogi_on_the_olufsen_list(client):
    for tid, start, end, games, handicap_games in SHOGI_TOURNAMENTS[:2]:
        submit_shogi(client, tid, start, end, games, handicap_games)
    assert client.put("/v1/rating-lists/olufsen/seeds", json={"seeds": SHOGI_SEEDS}, headers=AUTH).status_code == 200
    recompute_now(client, "olufsen")
    tid, start, end, games, _ = SHOGI_TOURNAMENTS[2]
    body = shogi_body(tid, start, end, games, [], players=[])
    assert "olufsen" in assert_what_if_is_what_the_submission_does(client, body)


def _counts() -> tuple[int, int, int, int]:
    with db.session_scope() as session:
        return tuple(session.scalar(select(func.count()).select_from(t)) or 0 for t in (Tournament, Player, Revision, Job))  # type: ignore[return-value]


def test_nothing_is_stored_and_a_list_that_would_not_rate_it_says_why(client):
    body = {
        "id": "nowhere",
        "name": "Nowhere",
        "category": "renju",
        "start": "2024-01-01",
        "end": "2024-01-01",
        "players": [{"id": "x1"}, {"id": "x2"}],
        "games": [{"black": "x1", "white": "x2", "result": "B"}],
    }
    before = _counts()
    answer = client.post(WHAT_IF.format(list_id="rif-whr"), json=body)
    assert answer.status_code == 200 and answer.json()["rated"] is True and len(answer.json()["players"]) == 2
    eru = client.post(WHAT_IF.format(list_id="eru"), json=body).json()
    assert eru["rated"] is False and "eru_calendar" in eru["reason"] and eru["players"] == []
    assert _counts() == before
    assert client.get("/v1/tournaments/nowhere").status_code == 404


@pytest.mark.parametrize(
    ("change", "status", "pointer"),
    [
        ({"games": [{"black": "x1", "white": "ghost", "result": "B"}]}, 422, "/games/0/white"),
        ({"end": "2023-12-31"}, 422, "/end"),
        ({"games": [{"black": "x1", "white": "x2", "result": "X"}]}, 422, "/games/0/result"),
        ({"category": "chess"}, 422, "/category"),
    ],
)
def test_bad_input_is_a_4xx_problem_with_a_pointer(client, change, status, pointer):
    body = {
        "id": "bad",
        "name": "Bad",
        "category": "renju",
        "start": "2024-01-01",
        "end": "2024-01-01",
        "players": [{"id": "x1"}, {"id": "x2"}],
        "games": [{"black": "x1", "white": "x2", "result": "B"}],
        **change,
    }
    response = client.post(WHAT_IF.format(list_id="rif-whr"), json=body)
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert pointer in [e["pointer"] for e in response.json()["errors"]]


def test_an_unknown_list_is_a_404(client):
    body = {"id": "t", "name": "T", "category": "renju", "start": "2024-01-01", "end": "2024-01-01", "players": [], "games": []}
    response = client.post(WHAT_IF.format(list_id="no-such-list"), json=body)
    assert response.status_code == 404 and response.headers["content-type"] == "application/problem+json"


def test_bounded_like_the_calculators(client):
    players = [{"id": f"p{i}"} for i in range(200)]
    games = [{"black": f"p{i % 200}", "white": f"p{(i + 1) % 200}", "result": "B"} for i in range(MAX_CALC_GAMES + 1)]
    body = {"id": "big", "name": "Big", "category": "renju", "start": "2024-01-01", "end": "2024-01-01", "players": players}
    too_many = client.post(WHAT_IF.format(list_id="rif-whr"), json={**body, "games": games})
    assert too_many.status_code == 413 and too_many.json()["errors"][0]["pointer"] == "/games"
    limit = get_settings().max_calc_body_bytes
    oversized = client.post(
        WHAT_IF.format(list_id="rif-whr"), content=b"{" + b" " * limit + b"}", headers={"Content-Type": "application/json"}
    )
    assert oversized.status_code == 413
    # Every calculation slot taken: the caller is told to come back (503 with Retry-After), not served a 500.
    slots = calculators._calculation_slots(get_settings().calc_max_concurrent)
    taken = [slots.acquire(blocking=False) for _ in range(get_settings().calc_max_concurrent)]
    try:
        busy = client.post(WHAT_IF.format(list_id="rif-whr"), json={**body, "games": games[:3]})
    finally:
        for held in taken:
            if held:
                slots.release()
    assert busy.status_code == 503 and int(busy.headers["retry-after"]) > 0
