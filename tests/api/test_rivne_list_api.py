"""The `rivne` list end to end: Go tournament files imported through the submission service, the list
recomputed through HTTP, and the list, the histories and each tournament's changes read back against
the engine run directly on the same tournaments."""

from math import exp

import pytest

from app.rating import rivne
from app.rating.rivne.rating_list import first_rating, round_numbers
from app.rating.rounding import round_half_away_from_zero
from app.services.importing import import_results_file
from tests.helpers import AUTH, GO_DATA, recompute_now

EGC = GO_DATA / "egc2013.h9"
JUVISY_H9 = GO_DATA / "juvisy2019.h9"
JUVISY_XML = GO_DATA / "juvisy2019.xml"
EGC_ID = "egc2013main-2013-07-28"
JUVISY_ID = "tournoi-de-juvisy-2019-10-26"
SCORE = {"B": 1.0, "W": 0.0, "D": 0.5}


def rivne_rows(client) -> dict[str, dict]:  # type: ignore[no-untyped-def]
    rows: dict[str, dict] = {}
    offset = 0
    while True:
        page = client.get("/v1/rating-lists/rivne/ratings", params={"status": "all", "limit": 500, "offset": offset}).json()
        rows.update({row["player_id"]: row for row in page["items"]})
        offset += 500
        if offset >= page["total"]:
            return rows


def engine_result(tournament: dict, starts: dict[str, float] | None = None) -> dict[str, rivne.PlayerResult]:
    """The engine on a stored tournament as read from the API: each player from ``starts`` or his
    declared rank's suggested rating (INTERPRETATIONS 5.11)."""
    starts = starts or {}
    played = [g for g in tournament["games"] if g["played"]]
    ids = list(dict.fromkeys(p for g in played for p in (g["black"], g["white"])))
    rank = {p["id"]: p["rank"] for p in tournament["players"]}
    players = [rivne.Player(i, starts[i] if i in starts else rivne.suggested_first_rating(rank[i]), rank[i]) for i in ids]
    games = [
        rivne.Game(int(g["round"]), g["black"], g["white"], SCORE[g["result"]], g["board_size"] or 19, g["handicap"] or 0)
        for g in played
    ]
    return {r.id: r for r in rivne.rate_tournament(players, games).players}


def changes_of(client, tournament_id: str) -> dict[str, dict]:  # type: ignore[no-untyped-def]
    changes = client.get(f"/v1/tournaments/{tournament_id}").json()["rating_changes"]
    return {c["player_id"]: c for c in changes if c["list_id"] == "rivne"}


def test_the_list_exists_with_the_params_defaults(client):
    rating_list = client.get("/v1/rating-lists/rivne").json()
    assert (rating_list["system"], rating_list["category"], rating_list["name"]) == ("rivne", "go", "Go club rating (Rivne)")
    assert rating_list["params"] == {"newcomer_start": "rank"} and rating_list["eligibility"] == {"rated_only": True}
    bad = client.patch("/v1/rating-lists/rivne/params", json={"newcomer_start": "guess"}, headers=AUTH)
    assert bad.status_code == 422 and bad.json()["errors"][0]["pointer"] == "/newcomer_start"
    assert client.patch("/v1/rating-lists/rivne/params", json={"k": 1}, headers=AUTH).status_code == 422


@pytest.mark.slow
def test_egc_2013_rated_on_the_list_and_read_back(client):
    report = import_results_file(EGC)
    assert (report.tournaments_stored, report.players_stored, report.games_stored) == (1, 594, 2259)
    job = recompute_now(client, "rivne")
    assert job["result"]["notes"][0] == "1 of 1 tournaments rated, newcomers start from their rank"

    tournament = client.get(f"/v1/tournaments/{EGC_ID}").json()
    expected = engine_result(tournament)
    rows = rivne_rows(client)
    # 594 players declared, 589 of them with a played game: a player who played none is not rated.
    assert len(tournament["players"]) == 594 and set(rows) == set(expected) and len(rows) == 589
    ranks = {p["id"]: p["rank"] for p in tournament["players"]}
    for player_id, result in expected.items():
        row = rows[player_id]
        assert row["rating"] == pytest.approx(result.rating_after, abs=1e-9), player_id
        assert row["title"] == ranks[player_id] and row["status"] == "active"
        assert row["counters"] == {"tournaments": 1, "games": result.games_played} and row["games"] == result.games_played
    # Fan Hui (7d) starts at 2700; his ten rounds are his history inside the tournament.
    fan = expected["fan-hui"]
    assert fan.rating_before == 2700 and len(fan.rounds) == 10

    history = client.get("/v1/players/fan-hui/history", params={"list": "rivne"}).json()["points"]
    assert [(p["date"], p["tournament_ids"], p["title"], p["games"]) for p in history] == [("2013-08-10", [EGC_ID], "7d", 10)]
    assert history[0]["rating"] == pytest.approx(fan.rating_after, abs=1e-9)

    changes = changes_of(client, EGC_ID)
    assert set(changes) == set(expected)
    change = changes["fan-hui"]
    assert (change["system"], change["rating_before"], change["games_counted"], change["title_after"]) == (
        "rivne",
        2700,
        10,
        "7d",
    )
    assert change["rating_after"] == pytest.approx(fan.rating_after, abs=1e-9)
    assert change["change_unrounded"] == pytest.approx(fan.rating_after - 2700, abs=1e-9)
    assert change["change"] == round_half_away_from_zero(fan.rating_after) - 2700  # as the list shows it (decision 145)
    details = change["details"]
    assert details["start_rating"] == pytest.approx(fan.start_rating, abs=1e-9) and details["anomaly_passes"] > 1
    assert [r["round"] for r in details["rounds"]] == [str(n) for n in range(1, 11)]
    assert [r["rating_after"] for r in details["rounds"]] == pytest.approx([r.rating_after for r in fan.rounds], abs=1e-9)
    assert details["rounds"][-1]["rating_after"] == pytest.approx(change["rating_after"], abs=1e-9)
    # A player the anomaly loop restarted shows the restart in his start rating.
    restarted = [c for c in changes.values() if c["details"]["start_rating"] != c["rating_before"]]
    assert restarted and all(c["details"]["start_rating"] > c["rating_before"] for c in restarted)
    # Each game's figures, by hand from the text: (2) SE(A) = 1/(e^(ΔR/a) + 1), (4) a from the lower
    # player's current rating, (6) K2, (5) the change; and the check (8) of every pass with its limit.
    games = details["games"]
    assert [g["round"] for g in games] == [str(n) for n in range(1, 11)]
    assert [g["opponent"] for g in games] == [r.opponent for r in fan.games]
    for figures in games:
        SE_A = 1 / (exp(figures["delta_R"] / figures["a"]) + 1)
        assert figures["SE"] == pytest.approx(SE_A if figures["player_A"] else 1 - SE_A)
        assert figures["K2"] == pytest.approx((3100 - figures["Rc"]) / 50000)
        assert figures["change"] == pytest.approx(
            figures["Kd"] * figures["Kf"] * figures["K1"] * (figures["R"] - figures["SE"] + figures["K2"])
        )
    passes = details["passes"]
    assert [p["number"] for p in passes] == list(range(1, details["anomaly_passes"] + 1))
    assert passes[-1]["start_rating"] == pytest.approx(details["start_rating"]) and passes[-1]["anomalous"] is False
    assert passes[0]["start_rating"] == 2700 and passes[0]["limit"] == pytest.approx(0.45 * 10 * 10 * (1 + 400 / 50000))


def test_juvisy_imported_twice_then_a_second_tournament_rated_from_the_first(client):
    import_results_file(JUVISY_H9)
    import_results_file(JUVISY_XML)  # the same tournament: a correction, nothing new
    import_results_file(JUVISY_XML)
    recompute_now(client, "rivne")
    juvisy = client.get(f"/v1/tournaments/{JUVISY_ID}").json()
    expected = engine_result(juvisy)
    rows = rivne_rows(client)
    assert set(rows) == set(expected) and len(rows) == 19
    assert all(row["counters"]["tournaments"] == 1 for row in rows.values())
    assert sum(row["games"] for row in rows.values()) == 2 * 36
    for player_id, result in expected.items():
        assert rows[player_id]["rating"] == pytest.approx(result.rating_after, abs=1e-9)
    # A handicap tournament: no anomaly check (004 (8)), one pass.
    assert {c["details"]["anomaly_passes"] for c in changes_of(client, JUVISY_ID).values()} == {1}

    # A club evening a month later: two Juvisy players and a newcomer (3k, from his rank).
    body = {
        "id": "rivne-evening",
        "name": "Club evening",
        "category": "go",
        "board_size": 19,
        "start": "2019-11-30",
        "end": "2019-11-30",
        "players": [
            {"id": "nicita-giovanni", "rank": "9k"},
            {"id": "ravera-sylvain", "rank": "4k"},
            {"id": "newcomer", "name": "New", "rank": "3k"},
        ],
        "games": [
            {"id": "e1", "round": "1", "black": "nicita-giovanni", "white": "ravera-sylvain", "result": "B", "handicap": 5},
            {"id": "e2", "round": "2", "black": "newcomer", "white": "ravera-sylvain", "result": "W", "board_size": 13},
            {"id": "e3", "round": "final", "black": "nicita-giovanni", "white": "newcomer", "result": "D", "handicap": 6},
        ],
    }
    assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201
    recompute_now(client, "rivne")
    evening = client.get("/v1/tournaments/rivne-evening").json()
    for game in evening["games"]:  # the engine's round numbers: "final" after the numeric rounds
        game["round"] = {"1": "1", "2": "2", "final": "3"}[game["round"]]
    starts = {p: expected[p].rating_after for p in ("nicita-giovanni", "ravera-sylvain")}
    second = engine_result(evening, starts)
    changes = changes_of(client, "rivne-evening")
    rows = rivne_rows(client)
    for player_id in ("nicita-giovanni", "ravera-sylvain"):
        assert changes[player_id]["rating_before"] == pytest.approx(expected[player_id].rating_after, abs=1e-9)
        assert rows[player_id]["rating"] == pytest.approx(second[player_id].rating_after, abs=1e-9)
        assert rows[player_id]["counters"]["tournaments"] == 2
        history = client.get(f"/v1/players/{player_id}/history", params={"list": "rivne"}).json()["points"]
        assert [(p["date"], p["tournament_ids"]) for p in history] == [
            (juvisy["end"], [JUVISY_ID]),
            ("2019-11-30", ["rivne-evening"]),
        ]
    assert rows["nicita-giovanni"]["title"] == "9k"  # declared 10k at Juvisy, 9k now
    assert changes["newcomer"]["rating_before"] == rivne.suggested_first_rating("3k") == 1800
    assert [r["round"] for r in changes["newcomer"]["details"]["rounds"]] == ["2", "final"]
    # The list read on a day between the two tournaments holds the Juvisy rating.
    between = client.get("/v1/rating-lists/rivne/ratings", params={"status": "all", "as_of": "2019-11-15"}).json()["items"]
    nicita = next(r for r in between if r["player_id"] == "nicita-giovanni")
    assert nicita["rating"] == pytest.approx(expected["nicita-giovanni"].rating_after, abs=1e-9) and nicita["title"] == "10k"

    # Newcomers from their declared rating instead: Nicita's EGF 1114 from the OpenGotha file.
    assert (
        client.patch("/v1/rating-lists/rivne/params", json={"newcomer_start": "declared_rating"}, headers=AUTH).status_code == 200
    )
    recompute_now(client, "rivne")
    assert changes_of(client, JUVISY_ID)["nicita-giovanni"]["rating_before"] == 1114.0


def test_a_tournament_the_rules_cannot_rate_is_left_out_with_a_note(client):
    good = {
        "id": "good",
        "name": "Good",
        "category": "go",
        "start": "2020-01-01",
        "end": "2020-01-01",
        "players": [{"id": "a", "rank": "1d"}, {"id": "b", "rank": "2k"}],
        "games": [{"id": "g1", "round": "1", "black": "b", "white": "a", "result": "B"}],
    }
    bad = {  # c declared no rank and has no rating on the list yet
        "id": "bad",
        "name": "Bad",
        "category": "go",
        "start": "2020-02-01",
        "end": "2020-02-01",
        "players": [{"id": "a"}, {"id": "c"}],
        "games": [{"id": "g1", "round": "1", "black": "c", "white": "a", "result": "W"}],
    }
    for body in (good, bad):
        assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201
    job = recompute_now(client, "rivne")
    notes = job["result"]["notes"]
    assert notes[0] == "1 of 2 tournaments rated, newcomers start from their rank"
    assert "'bad'" in notes[1] and "'c'" in notes[1] and "no rank" in notes[1]
    rows = rivne_rows(client)
    assert set(rows) == {"a", "b"} and rows["a"]["counters"] == {"tournaments": 1, "games": 1}
    assert changes_of(client, "bad") == {}


def test_a_seed_is_the_rating_from_its_date_on(client):
    body = {
        "id": "s1",
        "name": "After the seed",
        "category": "go",
        "start": "2021-03-01",
        "end": "2021-03-02",
        "players": [{"id": "a", "rank": "1d"}, {"id": "b", "rank": "1d"}],
        "games": [{"id": "g1", "round": "1", "black": "a", "white": "b", "result": "B"}],
    }
    assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201
    seeds = {"seeds": [{"player_id": "a", "rating": 1500, "status": "active", "as_of": "2021-01-01", "title": "5k"}]}
    assert client.put("/v1/rating-lists/rivne/seeds", json=seeds, headers=AUTH).status_code == 200
    bad = {"seeds": [{"player_id": "a", "rating": 1500, "status": "active", "as_of": "2021-01-01", "title": "40k"}]}
    response = client.put("/v1/rating-lists/rivne/seeds", json=bad, headers=AUTH)
    assert response.status_code == 422 and response.json()["errors"][0]["pointer"] == "/seeds/0/title"
    recompute_now(client, "rivne")
    changes = changes_of(client, "s1")
    assert changes["a"]["rating_before"] == 1500 and changes["b"]["rating_before"] == 2100
    history = client.get("/v1/players/a/history", params={"list": "rivne"}).json()["points"]
    first = history[0]
    assert (first["date"], first["rating"], first["tournament_ids"], first["games"], first["title"]) == (
        "2021-01-01",
        1500,
        [],
        0,
        "5k",
    )
    assert history[1]["date"] == "2021-03-02" and history[1]["title"] == "1d"


def test_round_labels_become_round_numbers():
    # numeric labels in their order ("02" is round 2), named ones after them ("³" is a name, not a number),
    # a game without a label a round of its own
    assert round_numbers(["2", "10", "1", "final", None, "A", "02", None, "³"]) == [2, 3, 1, 5, 7, 4, 2, 8, 6]


def test_a_newcomers_first_rating():
    assert first_rating({"rank": "1d", "rating": 2000.0}, "rank") == 2100
    assert first_rating({"rank": "1d", "rating": 2000.0}, "declared_rating") == 2000
    assert first_rating({"rank": "25k"}, "declared_rating") == rivne.suggested_first_rating("25k") == 50
    # an EGF rating below 100 is converted as ranks are: −400 (25k) → 50
    assert first_rating({"rank": "1d", "rating": -400.0}, "declared_rating") == 50
    with pytest.raises(ValueError, match="no rank"):
        first_rating({"rating": 1500.0}, "rank")


def _small(tournament_id: str, start: str, end: str, result: str) -> dict:
    return {
        "id": tournament_id,
        "name": tournament_id,
        "category": "go",
        "start": start,
        "end": end,
        "players": [{"id": "a", "rank": "1d"}, {"id": "b", "rank": "1d"}],
        "games": [{"id": "g1", "round": "1", "black": "a", "white": "b", "result": result}],
    }


def test_the_list_on_its_date_and_one_point_a_day(client):
    import datetime as dt

    for body in (
        _small("t1", "2022-05-01", "2022-05-01", "B"),
        _small("t2", "2022-04-30", "2022-05-01", "B"),  # ends the same day, started earlier: rated first
        _small("t3", "2022-06-01", "2022-06-01", "W"),  # after the list's date
    ):
        # (t2's one game is t1's: two events of their own, not a repeat, decision 107)
        assert client.post("/v1/tournaments", json=body, headers=AUTH, params={"duplicate": "intended"}).status_code == 201
    recompute_now(client, "rivne", list_date=dt.date(2022, 5, 15))
    history = client.get("/v1/players/a/history", params={"list": "rivne"}).json()["points"]
    assert [(p["date"], p["tournament_ids"], p["games"]) for p in history] == [
        ("2022-05-01", ["t2", "t1"], 2),
        ("2022-06-01", ["t3"], 3),
    ]
    first = changes_of(client, "t2")["a"]
    second = changes_of(client, "t1")["a"]
    assert first["rating_before"] == 2100 and second["rating_before"] == pytest.approx(first["rating_after"], abs=1e-9)
    # The list on 2022-05-15 holds both May tournaments and not June's.
    row = rivne_rows(client)["a"]
    assert row["rating"] == pytest.approx(second["rating_after"], abs=1e-9) and row["counters"] == {"tournaments": 2, "games": 2}
    assert history[0]["rating"] == row["rating"] and history[1]["rating"] < row["rating"]
