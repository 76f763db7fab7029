"""Only an officer changes who a player is (issue 42 items 1, 2, 6, 9; docs/decisions.md 108-109),
through HTTP on the real player directory of the renju WHR site: a submission attaches games to a
stored player and changes nothing else, a club's own numbering never lands on another federation's
players, possible duplicates are flagged for a merge, what-if resolves players as a submission does,
and a limited officer's powers end at its lists."""

import html

import pytest
from fastapi.testclient import TestClient

from app import db
from app.services import api_keys
from app.services.importing import import_results_file
from app.services.player_directory import import_directory_file
from tests.helpers import AUTH, DATA, RENJU_CN, recompute_now, tournament_body, with_player_ids

LJINFO = DATA / "renju-players-2022" / "ljinfo.tsv"
# 952 is Wang Qingqing (汪清清) of China in the directory; 498 Yang Yanxi, 676 Li Yi.
TOP = "952"


def _key(name: str, role: str, **limits: list[str]) -> dict[str, str]:
    with db.session_scope() as session:
        return {"Authorization": f"Bearer {api_keys.create_key(session, name, role, **limits).secret}"}


def _club_tournament(tournament_id: str, first: dict, **overrides: object) -> dict:
    """The sample tournament with its first player replaced by ``first`` (his games follow him)."""
    body = tournament_body(tournament_id, **overrides)
    old = body["players"][0]["id"]
    body["players"][0] = first
    for game in body["games"]:
        for side in ("black", "white"):
            if game[side] == old:
                game[side] = first["id"]
    return body


def _directory(client: TestClient) -> dict:
    import_directory_file(LJINFO)
    stored = client.get(f"/v1/players/{TOP}").json()
    assert (stored["name"], stored["surname"], stored["native_name"], stored["country"]) == ("Qingqing", "Wang", "汪清清", "CHN")
    return stored


def test_an_organiser_cannot_rename_or_move_a_stored_player(client: TestClient) -> None:
    stored = _directory(client)
    club = _key("club", "organiser")
    spoof = _club_tournament("T1", {"id": TOP, "name": "Qinqing", "surname": "Wagn", "country": "EST"})
    refused = client.post("/v1/tournaments", json=spoof, headers=club)
    assert refused.status_code == 409, refused.text
    [error] = refused.json()["errors"]
    assert error["pointer"] == "/players/0/name" and "stored as Qingqing Wang (汪清清, CHN)" in error["detail"]
    assert "an id of his own" in refused.json()["detail"]
    assert client.get(f"/v1/players/{TOP}").json() == stored
    assert client.get("/v1/tournaments/T1").status_code == 404
    assert TOP in [hit["id"] for hit in client.get("/v1/players", params={"q": "qingqing wang"}).json()["items"]]

    # His name as stored (or in the other order, or his native name alone) is him: the games are his,
    # the other country waits for an officer.
    for given in ({"name": "Qingqing", "surname": "Wang"}, {"name": "Wang", "surname": "Qingqing"}, {"native_name": "汪清清"}):
        body = _club_tournament(f"T-{len(given)}-{given.get('name', 'n')}", {"id": TOP, **given, "country": "EST"})
        submitted = client.post("/v1/tournaments", json=body, headers=club, params={"duplicate": "intended"})
        assert submitted.status_code == 201, submitted.text
        [review] = submitted.json()["player_reviews"]
        assert (review["player_id"], review["kind"], review["pointer"]) == (TOP, "details", "/players/0")
        assert review["differences"] == [{"field": "country", "stored": "CHN", "given": "EST"}]
    assert client.get(f"/v1/players/{TOP}").json() == stored
    # The same proposal three times is one review.
    pending = client.get("/v1/player-reviews", params={"status": "pending", "player": TOP}, headers=AUTH).json()
    assert pending["total"] == 1
    assert client.get("/v1/player-reviews", headers=club).status_code == 403
    assert client.patch(f"/v1/players/{TOP}", json={"country": "EST"}, headers=club).status_code == 403

    # The officer accepts: the change is made and recorded with its actor, on his page and in the audit.
    accepted = client.post(f"/v1/player-reviews/{pending['items'][0]['id']}", json={"decision": "accept"}, headers=AUTH)
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted", accepted.text
    assert client.get(f"/v1/players/{TOP}").json()["country"] == "EST"
    again = client.post(f"/v1/player-reviews/{pending['items'][0]['id']}", json={"decision": "dismiss"}, headers=AUTH)
    assert again.status_code == 409
    history = client.get(f"/v1/players/{TOP}/revisions").json()["items"]
    assert [(r["kind"], r["actor"]) for r in history] == [("player_updated", "import"), ("player_updated", "tester")]
    assert "country 'CHN' -> 'EST'" in history[-1]["summary"] and "'club'" in history[-1]["summary"]
    audit = client.get("/v1/audit", params={"kind": "player_updated", "key": "tester"}, headers=AUTH).json()
    assert [r["subject_id"] for r in audit["items"]] == [TOP]
    # His page shows who changed his record, and how.
    page = client.get(f"/players/{TOP}")
    assert page.status_code == 200 and "Changes of this record" in page.text
    assert history[-1]["summary"] in html.unescape(page.text) and ">tester<" in page.text


def test_an_officer_patch_is_a_revision_and_a_dismissal_is_recorded(client: TestClient) -> None:
    _directory(client)
    patched = client.patch(f"/v1/players/{TOP}", json={"city": "Wuhan"}, headers=AUTH)
    assert patched.status_code == 200 and patched.json()["city"] == "Wuhan"
    body = _club_tournament("T1", {"id": TOP, "name": "Qingqing", "surname": "Wang", "city": "Beijing"})
    [review] = client.post("/v1/tournaments", json=body, headers=AUTH).json()["player_reviews"]
    dismissed = client.post(
        f"/v1/player-reviews/{review['id']}", json={"decision": "dismiss", "reason": "he lives in Wuhan"}, headers=AUTH
    )
    assert dismissed.status_code == 200 and dismissed.json()["status"] == "dismissed"
    assert client.get(f"/v1/players/{TOP}").json()["city"] == "Wuhan"
    kinds = [(r["kind"], r["actor"]) for r in client.get(f"/v1/players/{TOP}/revisions").json()["items"]]
    assert kinds == [("player_updated", "import"), ("player_updated", "tester"), ("review_dismissed", "tester")]


def test_a_new_player_named_as_a_stored_one_is_flagged_and_merged_on_acceptance(client: TestClient) -> None:
    _directory(client)
    body = _club_tournament("T1", {"id": "club-7", "name": "Qingqing", "surname": "Wang", "country": "CHN"})
    submitted = client.post("/v1/tournaments", json=body, headers=AUTH)
    assert submitted.status_code == 201, submitted.text
    [review] = submitted.json()["player_reviews"]
    assert (review["kind"], review["player_id"], review["candidates"], review["pointer"]) == (
        "possible_duplicate",
        "club-7",
        [TOP],
        "/players/0",
    )
    assert client.get("/v1/players/club-7").status_code == 200  # created: flagged, not refused
    # Of another country, or by POST /v1/players: the same rule.
    elsewhere = _club_tournament("T2", {"id": "club-8", "name": "Qingqing", "surname": "Wang", "country": "EST"})
    assert (
        client.post("/v1/tournaments", json=elsewhere, headers=AUTH, params={"duplicate": "intended"}).json()["player_reviews"]
        == []
    )
    created = client.post("/v1/players", json={"id": "club-9", "surname": "Wang", "name": "Qingqing"}, headers=AUTH)
    # (the club's two records are stored players of that name now too)
    assert [r["candidates"] for r in created.json()["player_reviews"]] == [[TOP, "club-7", "club-8"]]

    refused = client.post(f"/v1/player-reviews/{review['id']}", json={"decision": "accept", "into": "498"}, headers=AUTH)
    assert refused.status_code == 422 and refused.json()["errors"][0]["pointer"] == "/into"
    merged = client.post(f"/v1/player-reviews/{review['id']}", json={"decision": "accept", "into": TOP}, headers=AUTH)
    assert merged.status_code == 200 and merged.json()["status"] == "accepted", merged.text
    assert client.get("/v1/players/club-7").json()["merged_into"] == TOP
    games = client.get("/v1/tournaments/T1").json()["games"]
    assert TOP in {g["black"] for g in games} | {g["white"] for g in games}
    assert "club-7" not in {g["black"] for g in games} | {g["white"] for g in games}


def test_what_if_resolves_players_as_a_submission_does(client: TestClient) -> None:
    _directory(client)
    rated = tournament_body("T0", start="2019-05-01", end="2019-05-03")
    rated["games"] = [{"black": TOP, "white": p["id"], "result": "B"} for p in rated["players"]]
    assert client.post("/v1/tournaments", json=rated, headers=AUTH).status_code == 201
    recompute_now(client)
    rating = {
        row["player_id"]: row["rating"]
        for row in client.get("/v1/rating-lists/rif-whr/ratings", params={"status": "all"}).json()["items"]
    }

    body = _club_tournament("T1", {"id": "file-1", "external_ids": [f"renjunet:{TOP}"]})
    answer = client.post("/v1/rating-lists/rif-whr/what-if", json=body)
    assert answer.status_code == 200, answer.text
    changes = {change["player_id"]: change for change in answer.json()["players"]}
    assert TOP in changes and "file-1" not in changes
    assert changes[TOP]["rating_before"] != 1900.0
    assert abs(changes[TOP]["rating_before"] - rating[TOP]) < 200
    submitted = client.post("/v1/tournaments", json=body, headers=AUTH)
    assert TOP in {p["id"] for p in submitted.json()["players"]}
    # A stored id with another person's name is the same 409 in both.
    spoof = _club_tournament("T2", {"id": TOP, "name": "Qinqing", "surname": "Wagn"})
    assert client.post("/v1/rating-lists/rif-whr/what-if", json=spoof).status_code == 409
    assert client.post("/v1/tournaments", json=spoof, headers=AUTH).status_code == 409


def test_a_limited_officers_powers_end_at_its_lists(client: TestClient) -> None:
    """An officer of the Estonian list changes a tournament only it rates (its time control is below
    WHR's minimum, and it is of 2022, after the historical Elo list's end) and that tournament's players, not one the WHR list rates, nor its players; it
    reads the audit of its scope: not the Go tournament's."""
    estonian = _key("est-officer", "officer", lists=["eru"])
    only_eru = tournament_body("E1", time_control_minutes=15, eru_calendar=True, start="2022-05-01", end="2022-05-03")
    for game in only_eru["games"]:
        game.pop("date", None)
    shared = with_player_ids(tournament_body("W1", start="2021-05-01", end="2021-05-03"), "w")
    for game in shared["games"]:
        game.pop("date", None)
    go = with_player_ids(tournament_body("G1", category="go", rule=None, board_size=19), "g")
    rated = {}
    for body in (only_eru, shared, go):
        submitted = client.post("/v1/tournaments", json=body, headers=AUTH)
        assert submitted.status_code == 201, submitted.text
        rated[body["id"]] = {item["id"] for item in submitted.json()["lists"] if item["rated"]}
    assert "eru" in rated["E1"] and not rated["E1"] & {"rif-whr", "rif-elo"}, rated
    assert "rif-whr" in rated["W1"]

    corrected = client.put("/v1/tournaments/E1", json={**only_eru, "name": "Tallinn Open"}, headers=estonian)
    assert corrected.status_code == 200, corrected.text
    # Made rated by WHR, it would leave the officer's scope: refused.
    moved = client.put("/v1/tournaments/E1", json={**only_eru, "time_control_minutes": 60}, headers=estonian)
    assert moved.status_code == 403 and "rif-whr" in moved.json()["detail"]
    for refused in (
        client.put("/v1/tournaments/W1", json={**shared, "name": "Renamed"}, headers=estonian),
        client.delete("/v1/tournaments/W1", params={"reason": "test"}, headers=estonian),
        client.post("/v1/players/wp1/rename", json={"surname": "X", "since": "2024-01-01"}, headers=estonian),
        client.patch("/v1/players/wp1", json={"city": "Tartu"}, headers=estonian),
        client.post("/v1/players/p1/merge", json={"into": "wp1"}, headers=estonian),
    ):
        assert refused.status_code == 403, refused.text
    assert client.patch("/v1/players/p1", json={"city": "Tartu"}, headers=estonian).status_code == 200
    subjects = {
        (r["subject"], r["subject_id"]) for r in client.get("/v1/audit", params={"limit": 500}, headers=estonian).json()["items"]
    }
    assert ("tournament", "E1") in subjects and ("tournament", "W1") in subjects  # renju: its lists' category
    assert ("player", "p1") in subjects
    assert ("tournament", "G1") not in subjects and ("player", "gp1") not in subjects


@pytest.mark.slow
def test_the_real_results_file_flags_its_two_he_juns_once_and_the_directory_tells_them_apart(client: TestClient) -> None:
    """The Chinese results file names two players He Jun (2357 and 3715, of one country, no other
    detail): the import stores both and reports the second as a possible duplicate of the first,
    once, however often it runs; the directory gives them different native names (何骏, 何俊), and
    a new He Jun of the directory's kind is then told apart from both."""
    first = import_results_file(RENJU_CN)
    assert first.player_reviews == {"possible_duplicate": 1}, first.player_review_examples
    [example] = first.player_review_examples["possible_duplicate"]
    assert "player 3715 may be 2357" in example or "player 2357 may be 3715" in example
    again = import_results_file(RENJU_CN)
    assert (again.tournaments_stored, sum(again.player_reviews.values())) == (0, 0)
    pending = client.get("/v1/player-reviews", params={"status": "pending"}, headers=AUTH).json()
    assert pending["total"] == 1 and {pending["items"][0]["player_id"], *pending["items"][0]["candidates"]} == {"2357", "3715"}

    import_directory_file(LJINFO)
    assert {client.get(f"/v1/players/{p}").json()["native_name"] for p in ("2357", "3715")} == {"何骏", "何俊"}
    created = client.post(
        "/v1/players", json={"id": "he-jun", "name": "Jun", "surname": "He", "native_name": "何军"}, headers=AUTH
    )
    assert created.status_code == 201 and created.json()["player_reviews"] == []
    same = client.post(
        "/v1/players", json={"id": "he-jun-2", "name": "Jun", "surname": "He", "native_name": "何俊"}, headers=AUTH
    )
    assert [review["candidates"] for review in same.json()["player_reviews"]] == [["3715"]]
