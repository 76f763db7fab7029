"""The Estonian calculators and the tournament conditions through HTTP (text 003, INTERPRETATIONS 4).
Expected values are worked by hand from the text."""

import pytest

from tests.helpers import AUTH, tournament_body

NORMS = "/v1/calc/eru/norms"
TOURNAMENT = "/v1/calc/eru/tournament"


def games(opponent_rank: str | None, wins: int, draws: int, losses: int) -> list[dict]:
    return (
        [{"opponent_rank": opponent_rank, "score": 1}] * wins
        + [{"opponent_rank": opponent_rank, "score": 0.5}] * draws
        + [{"opponent_rank": opponent_rank, "score": 0}] * losses
    )


def norms_body(rank: str, game_list: list[dict], **conditions: object) -> dict:
    return {"rank": rank, "games": game_list, "time_control_minutes": 60, "recorded": True, **conditions}


def test_norms_as_design_fixes_them(client):
    response = client.post(NORMS, json=norms_body("9k", games("9k", 6, 0, 4)))
    assert response.status_code == 200
    body = response.json()
    assert body["games_counted"] == 10 and body["score"] == 6.0
    assert body["norms"] == {"keep": 3.0, "up1": 6.5, "up2": 8.0}  # 10 × 30 %, 65 %, 80 %
    # The text's own example (ERU 4.3): against ten 9 kyu each game adds 65 % to the 8 kyu norm and 80 %
    # to the 7 kyu norm, 30 % to keeping 9 kyu.
    assert [(g["keep"], g["up1"], g["up2"]) for g in body["games"]] == [(30, 65, 80)] * 10
    assert body["new_rank"] == "9k" and body["decision"] == "kept"
    assert "6.5" in body["reason"] and "ERU 4.3" in body["reason"]


@pytest.mark.parametrize(
    ("wins", "draws", "new_rank"),
    [(6, 1, "8k"), (8, 0, "7k"), (7, 1, "8k"), (3, 0, "9k"), (2, 1, "10k")],  # 6.5, 8.0, 7.5, 3.0, 2.5
)
def test_norms_decide_the_new_rank(client, wins, draws, new_rank):
    body = client.post(NORMS, json=norms_body("9k", games("9k", wins, draws, 10 - wins - draws))).json()
    assert body["new_rank"] == new_rank


def test_norms_that_cannot_apply_are_null(client):
    one_kyu = client.post(NORMS, json=norms_body("1k", games("1k", 6, 0, 1))).json()
    assert one_kyu["norms"] == {"keep": 2.5, "up1": 5.5, "up2": None}  # 7 × 30 % = 2.1, 7 × 75 % = 5.25
    assert one_kyu["new_rank"] == "1d"
    nine_dan = client.post(
        NORMS, json=norms_body("9d", games("9d", 9, 0, 0), championship="world-championship-at", time_control_minutes=120)
    ).json()
    assert nine_dan["norms"]["up1"] is None and nine_dan["norms"]["up2"] is None and nine_dan["new_rank"] == "9d"


def test_unranked_opponents_are_left_out(client):
    body = client.post(NORMS, json=norms_body("9k", games("9k", 5, 0, 2) + games(None, 0, 0, 3))).json()
    assert body["games_counted"] == 7 and body["score"] == 5.0
    assert body["norms"]["up1"] == 5.0 and body["new_rank"] == "8k"  # 7 × 65 % = 4.55 → 5.0


def test_fewer_than_seven_counted_games_are_not_evaluated(client):
    body = client.post(NORMS, json=norms_body("9k", games("9k", 0, 0, 6))).json()
    assert body["decision"] == "not-evaluated" and body["new_rank"] == "9k"


def test_the_other_conditions_are_optional_fields(client):
    # 5d, nine games, 7.5 points: up1 = 9 × 75 % = 6.75 → 7.0; 6d needs 90 minutes or 60 + byo-yomi.
    five_dan = games("5d", 7, 1, 1)
    assert client.post(NORMS, json=norms_body("5d", five_dan)).json()["new_rank"] == "5d"
    assert client.post(NORMS, json=norms_body("5d", five_dan, byo_yomi=True)).json()["new_rank"] == "6d"
    assert client.post(NORMS, json=norms_body("5d", five_dan, time_control_minutes=90)).json()["new_rank"] == "6d"
    assert (
        client.post(NORMS, json=norms_body("5d", five_dan, time_control_minutes=90, eru_calendar=False)).json()["new_rank"]
        == "5d"
    )
    assert (
        client.post(
            NORMS, json=norms_body("5d", five_dan, time_control_minutes=90, eru_calendar=False, international=True)
        ).json()["new_rank"]
        == "6d"
    )
    # 12k, seven wins in a referee-accepted club tournament without clocks: 10k (up2 = 5.6 → 6.0)
    club = norms_body(
        "12k", games("12k", 7, 0, 0), time_control_minutes=None, recorded=False, eru_calendar=False, referee_accepted=True
    )
    assert client.post(NORMS, json=club).json()["new_rank"] == "10k"


@pytest.mark.parametrize(
    ("change", "pointer"),
    [
        ({"rank": "0k"}, "/rank"),
        ({"rank": "16k"}, "/rank"),
        ({"rank": "10d"}, "/rank"),
        ({"rank": "0d"}, "/rank"),
        ({"games": [{"opponent_rank": "9k", "score": 0.7}]}, "/games/0/score"),
        ({"games": [{"opponent_rank": "0k", "score": 1}]}, "/games/0/opponent_rank"),
        ({"games": [{"opponent_rank": "9k", "score": 1}] * 101}, "/games"),
        ({"championship": "european-championship"}, "/championship"),
        ({"time_control_minutes": 0}, "/time_control_minutes"),
        ({"colour": "black"}, "/colour"),
    ],
)
def test_bad_norms_input_is_a_422_with_a_pointer(client, change, pointer):
    response = client.post(NORMS, json={**norms_body("9k", games("9k", 7, 0, 0)), **change})
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("application/problem+json")
    assert pointer in [error["pointer"] for error in response.json()["errors"]]


def test_a_missing_rank_is_a_422(client):
    body = norms_body("9k", [])
    del body["rank"]
    response = client.post(NORMS, json=body)
    assert response.status_code == 422 and response.json()["errors"][0]["pointer"] == "/rank"


def round_robin() -> dict:
    """Eight 9k players: a beats everyone, h loses to everyone, every other game is a draw."""
    ids = list("abcdefgh")
    players = [{"id": "a", "rank": "9k", "estonian_rating": 1600}] + [
        {"id": player, "rank": "9k", "estonian_rating": 1500} for player in ids[1:]
    ]
    game_list = []
    for i, black in enumerate(ids):
        for white in ids[i + 1 :]:
            result = "B" if black == "a" else "W" if white == "a" else "B" if white == "h" else "D"
            game_list.append({"black": black, "white": white, "result": result})
    return {"time_control_minutes": 60, "recorded": True, "eru_calendar": True, "players": players, "games": game_list}


def test_a_whole_tournament(client):
    response = client.post(TOURNAMENT, json=round_robin())
    assert response.status_code == 200
    body = response.json()
    assert body["system"] == "eru"
    players = {p["id"]: p for p in body["players"]}
    a, b, h = players["a"], players["b"], players["h"]
    # a: 7/7 against seven 9k: up2 = 7 × 80 % = 5.6 → 6.0 → 7k.
    assert (a["games_counted"], a["score"], a["new_rank"], a["decision"]) == (7, 7.0, "7k", "promoted")
    assert a["norms"] == {"keep": 2.5, "up1": 5.0, "up2": 6.0}
    # b: loses to a, beats h, five draws: 3.5 ≥ 2.5 keeps, < 5.0.
    assert (b["score"], b["new_rank"], b["decision"]) == (3.5, "9k", "kept")
    # h: 0 < 2.5 → one rank down.
    assert (h["score"], h["new_rank"], h["decision"], h["rank_before"]) == (0.0, "10k", "demoted", "9k")
    # Ratings at the start rating all tournament: a (1600) beats 1500 seven times, +12 each (row 77–100).
    assert (a["rating_before"], a["change"], a["rating_after"], a["rating_games_counted"]) == (1600, 84, 1684, 7)
    # h: −12 against a (the higher-rated winner gains 32 − 20), −16 against each 1500.
    assert (h["change"], h["rating_after"]) == (-12 - 6 * 16, 1392)
    # b: −12 against a, +16 against h, five draws at equal ratings 0.
    assert (b["change"], b["rating_after"]) == (4, 1504)
    # The table's change of every game (ERU 4.9), in the order of the games, each at the start ratings.
    assert [(g["opponent"], g["score"], g["difference"], g["change"]) for g in b["rating_games"]] == [
        ("a", 0.0, 100, -12),
        *((other, 0.5, 0, 0) for other in "cdefg"),
        ("h", 1.0, 0, 16),
    ]
    assert sum(g["change"] for g in h["rating_games"]) == h["change"] and h["rating_games"][0]["opponent_rating"] == 1600
    # Each game's percentages: the same rank, so 30 / 65 / 80 % each (ERU 4.3), summing to the norms.
    assert {(g["keep"], g["up1"], g["up2"], g["counted"]) for g in a["games"]} == {(30, 65, 80, True)}
    assert [g["score"] for g in b["games"]] == [g["score"] for g in b["rating_games"]]


def test_each_games_norm_percentages_against_other_ranks(client):
    # A 9k against 8k (one rank stronger: 15 less), 10k (weaker: 15 more), 4k (five stronger, held at
    # three: 45 less) and an unranked player (left out, ERU 4.6), hand-worked from ERU 4.3.
    game_list = [
        {"opponent_rank": "8k", "score": 1},
        {"opponent_rank": "10k", "score": 1},
        {"opponent_rank": "4k", "score": 0},
        {"opponent_rank": None, "score": 1},
    ] + games("9k", 4, 0, 0)
    body = client.post(NORMS, json=norms_body("9k", game_list)).json()
    percentages = [(g["opponent_rank"], g["counted"], g["keep"], g["up1"], g["up2"]) for g in body["games"]]
    assert percentages[:4] == [
        ("8k", True, 15, 50, 65),
        ("10k", True, 45, 80, 95),
        ("4k", True, -15, 20, 35),
        (None, False, None, None, None),
    ]
    # The norm is the sum of the percentages rounded up to the half point (INTERPRETATIONS 4.2):
    # up1 (50 + 80 + 20 + 4 × 65)/100 = 4.1 → 4.5; keep (15 + 45 − 15 + 120)/100 = 1.65 → 2.0.
    counted = [g for g in body["games"] if g["counted"]]
    assert sum(g["up1"] for g in counted) == 410 and body["norms"]["up1"] == 4.5
    assert sum(g["keep"] for g in counted) == 165 and body["norms"]["keep"] == 2.0


def test_a_newcomer_in_a_tournament(client):
    body = round_robin()
    body["players"][7] = {"id": "h", "rank": None, "first_rank": "15k", "rating_bonus": True}
    players = {p["id"]: p for p in client.post(TOURNAMENT, json=body).json()["players"]}
    h = players["h"]
    assert h["rank_before"] is None and h["new_rank"] == "15k"  # evaluated from 15k, cannot go lower
    assert h["rating_before"] is None and h["rating_after"] == 1500 and h["change"] is None  # no wins, no bonus
    # The others played six ranked opponents: not evaluated; their games against h do not count.
    b = players["b"]
    assert b["games_counted"] == 6 and b["decision"] == "not-evaluated"
    assert (b["change"], b["rating_games_counted"]) == (-12, 6)


def test_a_tournament_outside_the_calendar_does_not_move_ratings(client):
    body = {**round_robin(), "eru_calendar": False, "international": True}
    players = {p["id"]: p for p in client.post(TOURNAMENT, json=body).json()["players"]}
    assert players["a"]["new_rank"] == "7k"  # international counts for ranks
    assert players["a"]["rating_after"] == 1600 and players["a"]["change"] == 0  # not for the rating
    assert "ERU calendar" in players["a"]["rating_reason"]


@pytest.mark.parametrize(
    ("mutate", "pointer"),
    [
        (lambda b: b["players"].append({"id": "a", "rank": "9k"}), "/players/8/id"),
        (lambda b: b["games"].append({"black": "a", "white": "zz", "result": "B"}), "/games/28/white"),
        (lambda b: b["games"].append({"black": "a", "white": "a", "result": "B"}), "/games/28/white"),
        (lambda b: b["games"][0].update(result="X"), "/games/0/result"),
        (lambda b: b["players"][0].update(rank="0k"), "/players/0/rank"),
        (lambda b: b["players"][0].update(rating_bonus=True), "/players/0/rating_bonus"),
        (lambda b: b.update(players=[{"id": f"p{i}"} for i in range(501)]), "/players"),
    ],
)
def test_bad_tournament_input_is_a_422_with_a_pointer(client, mutate, pointer):
    body = round_robin()
    mutate(body)
    response = client.post(TOURNAMENT, json=body)
    assert response.status_code == 422
    assert pointer in [error["pointer"] for error in response.json()["errors"]]


def test_the_contract_names_the_ranks_and_limits_the_lists(app):
    schemas = app.openapi()["components"]["schemas"]
    assert schemas["EruRank"]["enum"][0] == "15k" and schemas["EruRank"]["enum"][-1] == "9d"
    assert len(schemas["EruRank"]["enum"]) == 24 and "0k" not in schemas["EruRank"]["enum"]
    assert schemas["EruNormsIn"]["properties"]["games"]["maxItems"] == 100
    assert schemas["EruTournamentIn"]["properties"]["players"]["maxItems"] == 500
    paths = app.openapi()["paths"]
    assert paths["/v1/calc/eru/norms"]["post"]["description"] and paths["/v1/calc/eru/tournament"]["post"]["description"]


# --- the tournament fields the conditions need ---------------------------------------------------------


def test_eru_conditions_are_stored_and_read_back(client):
    body = tournament_body(
        eru_calendar=True,
        referee_accepted=True,
        international=True,
        championship="team-world-championship",
        games_recorded=True,
        byo_yomi=True,
    )
    assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201
    read = client.get("/v1/tournaments/T1").json()
    assert (read["eru_calendar"], read["referee_accepted"], read["international"]) == (True, True, True)
    assert (read["championship"], read["games_recorded"], read["byo_yomi"]) == ("team-world-championship", True, True)
    listed = client.get("/v1/tournaments").json()["items"][0]
    assert listed["championship"] == "team-world-championship" and listed["games_recorded"] is True


def test_eru_conditions_default_to_not_stated(client):
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    read = client.get("/v1/tournaments/T1").json()
    assert [read[f] for f in ("eru_calendar", "referee_accepted", "international", "games_recorded", "byo_yomi")] == [False] * 5
    assert read["championship"] is None


def test_a_correction_changes_the_conditions(client):
    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    corrected = tournament_body(eru_calendar=True, games_recorded=True)
    assert client.put("/v1/tournaments/T1", json=corrected, headers=AUTH).status_code == 200
    read = client.get("/v1/tournaments/T1").json()
    assert read["eru_calendar"] is True and read["games_recorded"] is True


def test_a_bad_championship_is_a_422_and_stores_nothing(client):
    response = client.post("/v1/tournaments", json=tournament_body(championship="olympics"), headers=AUTH)
    assert response.status_code == 422
    assert "/championship" in [error["pointer"] for error in response.json()["errors"]]
    assert client.get("/v1/tournaments/T1").status_code == 404


def test_a_stored_tournaments_conditions_as_the_engine_reads_them(client):
    from app import db
    from app.models import Tournament
    from app.rating import eru
    from app.rating.registry import get_system

    def tournament_conditions(tournament: Tournament) -> eru.Conditions:
        # As a recompute of the eru list hands the stored row to its replay (StoredTournament.fields).
        stored = {column.name: getattr(tournament, column.key) for column in Tournament.__table__.c}
        return eru.conditions_of_tournament(get_system("eru").tournament_fields(stored))

    body = tournament_body(eru_calendar=True, championship="world-championship-at", games_recorded=True, byo_yomi=True)
    client.post("/v1/tournaments", json=body, headers=AUTH)
    client.post(
        "/v1/tournaments",
        json=tournament_body("T2", rule="Gomoku free", format="supervised-online"),
        headers=AUTH,
        params={"duplicate": "intended"},
    )
    with db.get_sessionmaker()() as session:
        stored = tournament_conditions(session.get(Tournament, "T1"))
        other = tournament_conditions(session.get(Tournament, "T2"))
    assert stored == eru.Conditions(
        eru_calendar=True,
        rif_rules=True,
        time_control_minutes=60,
        byo_yomi=True,
        recorded=True,
        championship=eru.Championship.WORLD_CHAMPIONSHIP_AT,
        face_to_face=True,
    )
    assert other.rif_rules is False and other.face_to_face is False and other.eru_calendar is False
