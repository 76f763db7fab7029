"""The `eru` list end to end: Estonian renju tournaments submitted through HTTP with their conditions,
seeds with ranks and ratings, the list recomputed, and the ranks, ratings, histories and each
tournament's norm results read back, checked by hand and against POST /v1/calc/eru/tournament run on
the same tournaments (text 003, INTERPRETATIONS section 4)."""

from itertools import combinations

import pytest

from tests.helpers import AUTH, cli_import_renju_cn, recompute_now, tournament_body

ESTONIANS = [
    ("e1", "Ants", "Soosõrv"),
    ("e2", "Ando", "Meritee"),
    ("e3", "Tunnet", "Taimla"),
    ("e4", "Maris", "Tuvikene"),
    ("e5", "Marek", "Kolk"),
    ("e6", "Ester", "Eggert"),
    ("e7", "Irene", "Karlsson"),
    ("e8", "Evelyn", "Tihkan"),
]
PLAYERS = [{"id": pid, "name": name, "surname": surname, "country": "EST"} for pid, name, surname in ESTONIANS]
GUEST = {"id": "g1", "name": "Guest", "country": "LAT", "rank": "3d"}  # his own federation's rank (ERU 4.1)
SEEDS = [
    *({"player_id": pid, "rating": 2000, "as_of": "2024-01-01", "title": "1d"} for pid, _, _ in ESTONIANS),
    {"player_id": "g1", "rating": 2100, "status": "rif", "as_of": "2024-01-01"},  # his RIF rating, the base (ERU 4.10)
]
RANKED = {"eru_calendar": True, "games_recorded": True, "rule": "RIF", "category": "renju"}


def _round_robin(order: list[str], draws: frozenset[frozenset[str]] = frozenset()) -> list[dict]:
    """Everyone meets everyone; the player earlier in ``order`` wins, except the pairs in ``draws``."""
    return [
        {"round": str(i + 1), "black": black, "white": white, "result": "D" if frozenset((black, white)) in draws else "B"}
        for i, (black, white) in enumerate(combinations(order, 2))
    ]


# 30 minutes: enough for the rating (15, ERU 4.9), not for any dan rank (60, ERU 4.5).
RAPID = tournament_body(
    "tartu-rapid",
    name="Tartu rapid",
    start="2024-02-10",
    end="2024-02-10",
    time_control_minutes=30,
    players=PLAYERS,
    games=_round_robin([pid for pid, _, _ in ESTONIANS]),
    **RANKED,
)
OPEN_ORDER = ["e1", "g1", "e2", "e3", "e4", "e5", "e6", "e7", "e8"]
OPEN = tournament_body(
    "tallinn-open",
    name="Tallinn open",
    start="2024-04-20",
    end="2024-04-21",
    time_control_minutes=60,
    players=[*PLAYERS, GUEST],
    games=_round_robin(OPEN_ORDER, frozenset({frozenset({"e2", "e3"})})),
    **RANKED,
)
# A renju tournament ERU has nothing to do with: not in its calendar, not accepted, not international.
ELSEWHERE = tournament_body(
    "elsewhere", start="2024-03-01", end="2024-03-02", players=PLAYERS[:4], games=_round_robin(["e8", "e7", "e6", "e5"])
)


def _rows(client, **params) -> dict[str, dict]:  # type: ignore[no-untyped-def]
    response = client.get("/v1/rating-lists/eru/ratings", params={"status": "all", **params})
    assert response.status_code == 200, response.text
    return {row["player_id"]: row for row in response.json()["items"]}


def _changes(client, tournament_id: str) -> dict[str, dict]:  # type: ignore[no-untyped-def]
    changes = client.get(f"/v1/tournaments/{tournament_id}").json()["rating_changes"]
    return {c["player_id"]: c for c in changes if c["list_id"] == "eru"}


@pytest.fixture
def stored(client) -> dict:  # type: ignore[no-untyped-def]
    submitted = {}
    for body in (RAPID, OPEN, ELSEWHERE):
        response = client.post("/v1/tournaments", json=body, headers=AUTH)
        assert response.status_code == 201, response.text
        submitted[body["id"]] = {item["id"]: item for item in response.json()["lists"]}
    response = client.put("/v1/rating-lists/eru/seeds", json={"seeds": SEEDS}, headers=AUTH)
    assert response.status_code == 200, response.text
    return {**recompute_now(client, "eru"), "submitted": submitted}


def test_the_list_exists_out_of_the_box(client):
    rating_list = client.get("/v1/rating-lists/eru").json()
    assert (rating_list["system"], rating_list["category"]) == ("eru", "renju")
    assert rating_list["params"] == {"first_rank": "15k"} and rating_list["auto_recompute"] is True
    assert rating_list["eligibility"] == {
        "rated_only": True,
        "recognised_by": ["eru_calendar", "referee_accepted", "international"],
    }
    bad = client.patch("/v1/rating-lists/eru/params", json={"first_rank": "0k"}, headers=AUTH)
    assert bad.status_code == 422 and bad.json()["errors"][0]["pointer"] == "/first_rank"
    assert client.patch("/v1/rating-lists/eru/params", json={"first_rank": "12k"}, headers=AUTH).status_code == 200


def test_a_promotion_in_a_players_history(client, stored):
    # e1 wins all 7 games of the 30-minute rapid: 7 x 75 % = 5.25 -> 5.5 for 2d is reached, but 2d needs
    # 60 minutes (ERU 4.5): he keeps 1d. His rating: 7 wins at equal ratings, 7 x 16 (ERU 4.9).
    # In the 60-minute open he wins all 8: promoted to 2d. His rating, at 2112 against the others' start
    # ratings (g1 2100, e2 2080 ... e8 1888 by 32s): a higher-rated winner gains 32 minus the table's win
    # value: 15 + 15 + 13 + 12 + 10 + 9 + 8 + 7 = 89 (INTERPRETATIONS 4.9).
    history = client.get("/v1/players/e1/history", params={"list": "eru"}).json()["points"]
    assert [(p["date"], p["title"], p["rating"], p["tournament_ids"]) for p in history] == [
        ("2024-01-01", "1d", 2000, []),
        ("2024-02-10", "1d", 2112, ["tartu-rapid"]),
        ("2024-04-21", "2d", 2201, ["tallinn-open"]),
    ]
    rapid = _changes(client, "tartu-rapid")["e1"]
    assert (
        rapid["details"]["decision"] == "kept"
        and "1d–4d needs at least 60 minutes per player, the tournament had 30" in rapid["details"]["reason"]
    )
    opened = _changes(client, "tallinn-open")["e1"]
    assert (opened["details"]["decision"], opened["details"]["norm_reached"], opened["title_after"]) == ("promoted", "up1", "2d")
    assert opened["details"]["rank_before"] == "1d" and opened["details"]["rank_source"] == "list"


def test_a_demotion_only_in_a_tournament_meeting_the_current_ranks_conditions(client, stored):
    # e8 loses everything twice. In the rapid (30 minutes) 1d's conditions are not met: no demotion
    # (INTERPRETATIONS 4.7). In the open they are: one rank down, to 1k.
    rapid, opened = _changes(client, "tartu-rapid")["e8"], _changes(client, "tallinn-open")["e8"]
    assert (rapid["title_after"], rapid["details"]["decision"]) == ("1d", "kept")
    assert "only a tournament meeting the conditions of the current rank can demote" in rapid["details"]["reason"]
    assert (opened["title_after"], opened["details"]["decision"]) == ("1k", "demoted")
    assert opened["details"]["norms"]["keep"] > 0 and opened["details"]["score"] == 0
    assert [p["title"] for p in client.get("/v1/players/e8/history", params={"list": "eru"}).json()["points"]] == [
        "1d",
        "1d",
        "1k",
    ]


def test_the_list_is_the_calculator_run_tournament_after_tournament(client, stored):
    # The same two tournaments through POST /v1/calc/eru/tournament, each player's state carried by hand.
    state = {pid: {"rank": "1d", "estonian_rating": 2000} for pid, _, _ in ESTONIANS}
    state["g1"] = {"rank": "3d", "rif_rating": 2100}
    for body in (RAPID, OPEN):
        ids = list(dict.fromkeys(p for g in body["games"] for p in (g["black"], g["white"])))
        request = {
            "time_control_minutes": body["time_control_minutes"],
            "recorded": True,
            "eru_calendar": True,
            "players": [{"id": pid, **state[pid]} for pid in ids],
            "games": [{k: g[k] for k in ("black", "white", "result")} for g in body["games"]],
        }
        calculated = client.post("/v1/calc/eru/tournament", json=request)
        assert calculated.status_code == 200, calculated.text
        changes = _changes(client, body["id"])
        assert set(changes) == set(ids)
        for player in calculated.json()["players"]:
            change = changes[player["id"]]
            assert change["title_after"] == player["new_rank"]
            assert (change["rating_before"], change["rating_after"], change["change"]) == (
                player["rating_before"],
                player["rating_after"],
                player["change"],
            )
            assert change["details"]["norms"] == player["norms"] and change["details"]["reason"] == player["reason"]
            assert change["details"]["rating_reason"] == player["rating_reason"]
            # Each game's norm percentages and table change are stored as the calculator shows them.
            assert change["details"]["games"] == player["games"] and change["details"]["rating_games"] == player["rating_games"]
            assert sum(g["change"] or 0 for g in change["details"]["rating_games"]) == (change["change"] or 0)
            if player["id"] != "g1":  # the guest's rank is declared at each tournament, not carried
                state[player["id"]] = {"rank": player["new_rank"], "estonian_rating": player["rating_after"]}
            else:
                state["g1"] = {"rank": "3d", "estonian_rating": player["rating_after"]}
    rows = _rows(client)
    assert {pid: (row["title"], row["rating"]) for pid, row in rows.items()} == {
        pid: (s["rank"] if pid != "g1" else "3d", s["estonian_rating"]) for pid, s in state.items()
    }
    assert list(rows) == sorted(rows, key=lambda pid: (-rows[pid]["rating"], pid))  # best first
    assert all(row["status"] == "active" for row in rows.values())


def test_the_guest_counts_at_his_declared_rank_and_his_rif_rating(client, stored):
    changes = _changes(client, "tallinn-open")
    guest = changes["g1"]
    assert guest["details"]["rank_before"] == "3d" and guest["details"]["rank_source"] == "declared"
    assert guest["rating_before"] == 2100 and "RIF rating adopted" in guest["details"]["rating_reason"]
    # e1 beat the 3d guest and seven 1d players: 8 games counted, the guest's at 75 - 2 x 15 = 45 %.
    assert changes["e1"]["details"]["games_counted"] == 8
    assert changes["e1"]["details"]["norms"]["up1"] == 6.0  # (7 x 75 + 45) % = 5.7 -> 6.0
    row = _rows(client)["g1"]
    assert row["title"] == "3d" and row["counters"]["rating_source"] == "estonian"


def test_the_ratings_on_a_date_between_the_tournaments(client, stored):
    as_of = _rows(client, as_of="2024-03-15")
    assert (as_of["e1"]["title"], as_of["e1"]["rating"]) == ("1d", 2112)
    assert (as_of["e8"]["title"], as_of["e8"]["rating"]) == ("1d", 2000 - 112)
    assert as_of["g1"]["rating"] == 2100 and as_of["g1"]["counters"]["rating_source"] == "rif"


def test_a_tournament_outside_eru_rates_nothing_and_the_notes_say_so(client, stored):
    # The list's eligibility leaves it out (ERU 4.5), and the submitter was told so in the 201.
    assert _changes(client, "elsewhere") == {}
    assert stored["submitted"]["elsewhere"]["eru"]["rated"] is False
    assert "eru_calendar, referee_accepted, international" in stored["submitted"]["elsewhere"]["eru"]["reason"]
    assert stored["submitted"]["tallinn-open"]["eru"]["rated"] is True
    assert stored["result"]["notes"][0].startswith("2 of 2 tournaments rated"), stored["result"]["notes"]


@pytest.mark.parametrize(
    ("seed", "pointer"),
    [
        ({"title": "0k"}, "/seeds/0/title"),
        ({"title": "10d"}, "/seeds/0/title"),
        ({"counters": {"first_rank": "0k"}}, "/seeds/0/counters/first_rank"),
        ({"status": "new"}, "/seeds/0/rating"),  # a new player's first rating is normally 1500 (ERU 4.10)
        ({"counters": {"rating_bonus": True}}, "/seeds/0/counters"),  # the bonus is for a first rating
        ({"status": "official"}, "/seeds/0/status"),
    ],
)
def test_bad_seeds_are_a_422_with_a_pointer_and_change_nothing(client, seed, pointer):
    client.post("/v1/players", json={"id": "e1", "name": "Ants"}, headers=AUTH)
    good = {"player_id": "e1", "rating": 2000, "as_of": "2024-01-01", "title": "1d"}
    assert client.put("/v1/rating-lists/eru/seeds", json={"seeds": [good]}, headers=AUTH).status_code == 200
    response = client.put("/v1/rating-lists/eru/seeds", json={"seeds": [{**good, **seed}]}, headers=AUTH)
    assert response.status_code == 422, response.text
    assert pointer in [error["pointer"] for error in response.json()["errors"]], response.json()
    assert client.get("/v1/rating-lists/eru/seeds").json()["seeds"][0]["title"] == "1d"


def test_a_new_players_seed_gives_his_first_rank_and_the_bonus(client):
    # n, new, first rank 10k, the referee's bonus: he beats seven 9k players, two of them rated above 1600.
    opponents = [{"id": f"o{i}", "name": f"O{i}", "country": "EST"} for i in range(7)]
    body = tournament_body(
        "kids-cup",
        start="2024-05-04",
        end="2024-05-04",
        time_control_minutes=20,
        players=[{"id": "n", "name": "N"}, *opponents],
        games=[{"black": "n", "white": f"o{i}", "result": "B"} for i in range(7)],
        **RANKED,
    )
    assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201
    seeds = [
        {
            "player_id": "n",
            "rating": 1500,
            "status": "new",
            "as_of": "2024-01-01",
            "counters": {"first_rank": "10k", "rating_bonus": True},
        },
        *({"player_id": f"o{i}", "rating": 1650 if i < 2 else 1550, "as_of": "2024-01-01", "title": "9k"} for i in range(7)),
    ]
    assert client.put("/v1/rating-lists/eru/seeds", json={"seeds": seeds}, headers=AUTH).status_code == 200
    recompute_now(client, "eru")
    change = _changes(client, "kids-cup")["n"]
    # From 10k against 9k: +2 kyu at 65 % a game, 7 x 65 % = 4.55 -> 5.0; 7 points: 8k, within 9k-4k's
    # conditions (calendar, RIF rules, 15 minutes). First rating 1500 + 2 x 50 (ERU 4.10).
    assert (change["details"]["evaluated_from"], change["title_after"], change["rating_after"]) == ("10k", "8k", 1600)
    assert _rows(client)["n"]["title"] == "8k"
    assert _changes(client, "kids-cup")["o0"]["games_counted"] == 0  # the newcomer's games count for nobody


@pytest.mark.slow
def test_the_real_chinese_results_are_no_eru_tournaments(client):
    # 59 real tournaments of 2009-2019 (tests/data), none of them stated to be in the ERU calendar,
    # accepted by an ERU referee or international: the list's eligibility reads none of them, and no
    # rank and no Estonian rating comes of them (ERU 4.5, INTERPRETATIONS 4.11).
    cli_import_renju_cn()
    job = recompute_now(client, "eru")
    notes = job["result"]["notes"]
    assert notes[0].startswith("0 of 0 tournaments rated"), notes
    assert client.get("/v1/tournaments", params={"category": "renju"}).json()["total"] == 59
    assert job["result"]["players"] == 0
    assert client.get("/v1/rating-lists/eru/ratings").json()["total"] == 0
