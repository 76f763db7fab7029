"""Why a rating changed (issue 22 item 4): GET /v1/players/{id}/changes through HTTP, every part
checked against the two snapshots' own numbers (the publications' rows, the live list, the list as
of a day, the player's history), for a WHR and an Elo player with a correction and a withdrawal in
between; its 4xx answers; and the departure reason `tournament_withdrawn` of a publication."""

import datetime as dt
import math

import pytest

from app.recompute.pruning import prune_snapshots
from tests.helpers import AUTH, recompute_now
from tests.rating_changes_scenario import OTHERS, PLAYERS, RESULTS, round_robin


class ListSteps:
    """Submissions and publications of one list, recomputed as that list is (rif-elo by hand)."""

    def __init__(self, client, list_id: str) -> None:  # type: ignore[no-untyped-def]
        self.client, self.list_id = client, list_id
        if list_id == "rif-elo":  # the historical list rates players without seeds from a bootstrap rating
            answer = client.patch("/v1/rating-lists/rif-elo/params", json={"bootstrap_rating": 1800}, headers=AUTH)
            assert answer.status_code == 200, answer.text

    def settle(self) -> None:
        recompute_now(self.client, self.list_id)

    def submit(self, body: dict) -> None:
        answer = self.client.post("/v1/tournaments", json=body, headers=AUTH)
        assert answer.status_code == 201, answer.text
        self.settle()

    def publish(self, day: str) -> int:
        answer = self.client.post(
            f"/v1/rating-lists/{self.list_id}/publications", json={"date": day, "title": f"List of {day}"}, headers=AUTH
        )
        assert answer.status_code == 201, answer.text
        return int(answer.json()["number"])

    def published(self, number: int) -> dict[str, dict]:
        answer = self.client.get(
            f"/v1/rating-lists/{self.list_id}/publications/{number}/ratings", params={"status": "all", "limit": 500}
        )
        assert answer.status_code == 200, answer.text
        return {row["player_id"]: row for row in answer.json()["items"]}

    def live(self, **params: str) -> dict[str, dict]:
        answer = self.client.get(f"/v1/rating-lists/{self.list_id}/ratings", params={"status": "all", "limit": 500, **params})
        assert answer.status_code == 200, answer.text
        return {row["player_id"]: row for row in answer.json()["items"]}

    def changes(self, player_id: str, **params: str) -> dict:
        answer = self.client.get(f"/v1/players/{player_id}/changes", params={"list": self.list_id, **params})
        assert answer.status_code == 200, answer.text
        return answer.json()


def assert_adds_up(explained: dict) -> None:
    """The parts add up to the difference of the two readings, and the steps are a chain of the
    later snapshot's numbers from its reading of the earlier day to its reading of the later."""
    assert explained["change"] == explained["to"]["rating"] - explained["from"]["rating"]
    assert explained["past_revised"] == explained["past_rating_now"] - explained["from"]["rating"]
    assert explained["new_games"] == explained["to"]["rating"] - explained["past_rating_now"]
    assert explained["past_revised"] + explained["new_games"] == pytest.approx(explained["change"], abs=1e-9)
    chain = [explained["past_rating_now"]]
    for step in explained["steps"]:
        assert step["rating_before"] == chain[-1]
        assert step["change"] == step["rating_after"] - step["rating_before"]
        chain.append(step["rating_after"])
    assert chain[-1] == explained["to"]["rating"]
    assert math.fsum(step["change"] for step in explained["steps"]) == pytest.approx(explained["new_games"], abs=1e-9)


@pytest.mark.parametrize("list_id", ["rif-whr", "rif-elo"])
def test_a_change_is_explained_in_parts_that_add_up_to_the_two_snapshots_numbers(client, list_id):
    steps = ListSteps(client, list_id)
    steps.submit(round_robin("T0", "2020-04-01", OTHERS))
    steps.submit(round_robin("T1", "2020-05-01"))
    first = steps.publish("2020-06-01")
    # In between: T1 corrected (its results reversed), T0 withdrawn, T2 added after the publication's day.
    corrected = round_robin("T1", "2020-05-01", results=RESULTS[::-1])
    assert client.put("/v1/tournaments/T1", json=corrected, headers=AUTH).status_code == 200
    withdrawn = client.request("DELETE", "/v1/tournaments/T0", params={"reason": "entered twice"}, headers=AUTH)
    assert withdrawn.status_code == 200, withdrawn.text
    steps.submit(round_robin("T2", "2021-03-01", [*PLAYERS[:3], {"id": "p5", "name": "Uus"}]))

    explained = steps.changes("p1", **{"from": f"publication:{first}"})
    assert (explained["player_id"], explained["list_id"], explained["from"]["publication"]) == ("p1", list_id, 1)
    assert explained["to"]["reference"] == "current" and explained["to"]["date"] == str(dt.date.today())
    # Each end is what the list shows: the publication's row, the live list's row; the past as the
    # later snapshot reads it is the live list as of the publication's day.
    assert explained["from"]["rating"] == steps.published(first)["p1"]["rating"]
    assert explained["to"]["rating"] == steps.live()["p1"]["rating"]
    assert explained["past_rating_now"] == steps.live(as_of="2020-06-01")["p1"]["rating"]
    assert_adds_up(explained)
    assert explained["past_revised"] != 0  # a withdrawn and a corrected tournament before the day
    assert [step["tournament_ids"] for step in explained["steps"]] and {
        i for step in explained["steps"] for i in step["tournament_ids"]
    } == {"T2"}
    history = client.get("/v1/players/p1/history", params={"list": list_id}).json()["points"]
    by_day = {point["date"]: point["rating"] for point in history}
    assert all(by_day[step["date"]] == step["rating_after"] for step in explained["steps"])

    moves = {move["tournament_id"]: move for move in explained["tournaments"]}
    assert {t: move["how"] for t, move in moves.items()} == {"T0": "withdrawn", "T1": "corrected", "T2": "added"}
    assert [r["kind"] for r in moves["T1"]["revisions"]] == ["corrected"]
    assert [r["kind"] for r in moves["T0"]["revisions"]] == ["withdrawn"]
    assert [r["kind"] for r in moves["T2"]["revisions"]] == ["submitted"]
    assert len(moves["T2"]["games"]) == 12 and {g["opponent_id"] for g in moves["T2"]["games"]} == {"p2", "p3", "p5"}
    assert moves["T1"]["games"][0] == {
        "date": "2020-05-01",
        "round": "1",
        "colour": "black",
        "opponent_id": "p2",
        "opponent_name": "Ando Meritee",
        "outcome": "won" if RESULTS[::-1][0] == "B" else "lost" if RESULTS[::-1][0] == "W" else "drawn",
        "played": True,
    }
    # What each tournament did to him: the later snapshot's change, the earlier's for the withdrawn one.
    assert moves["T2"]["change"] is not None and moves["T0"]["change"] is not None
    assert [move["tournament_id"] for move in explained["tournaments"]] == ["T0", "T1", "T2"]

    # The default: since the latest publication, to the live list.
    second = steps.publish("2021-01-01")
    default = steps.changes("p1")
    assert default["from"]["reference"] == f"publication:{second}" and default["to"]["reference"] == "current"
    assert default["past_revised"] == 0  # the same snapshot on the same day
    assert {move["tournament_id"]: move["how"] for move in default["tournaments"]} == {"T2": "rated"}
    assert_adds_up(default)
    # Between the two publications: the second's day lies before T2, so WHR's reading of it is
    # already pulled by T2's games (a `later_games` step); Elo's is not moved at all.
    between = steps.changes("p1", **{"from": f"publication:{first}", "to": f"publication:{second}"})
    assert between["to"]["rating"] == steps.published(second)["p1"]["rating"]
    assert_adds_up(between)
    causes = [step["cause"] for step in between["steps"]]
    assert causes == (["later_games"] if list_id == "rif-whr" else [])


def test_a_day_names_the_snapshot_current_then_and_snapshots_name_themselves(client):
    steps = ListSteps(client, "rif-whr")
    steps.submit(round_robin("T1", "2020-05-01"))
    first_snapshot = client.get("/v1/rating-lists/rif-whr").json()["current_snapshot_id"]
    steps.submit(round_robin("T2", "2021-03-01"))
    today = str(dt.date.today())
    explained = steps.changes("p1", **{"from": f"snapshot:{first_snapshot}", "to": today})
    current = client.get("/v1/rating-lists/rif-whr").json()["current_snapshot_id"]
    assert explained["to"]["snapshot_id"] == current and explained["to"]["date"] == today
    assert explained["from"]["snapshot_id"] == first_snapshot
    pinned = client.get(
        "/v1/rating-lists/rif-whr/ratings",
        params={"snapshot_id": first_snapshot, "status": "all", "as_of": explained["from"]["date"]},
    ).json()
    assert explained["from"]["rating"] == {row["player_id"]: row for row in pinned["items"]}["p1"]["rating"]
    assert_adds_up(explained)
    assert {move["tournament_id"]: move["how"] for move in explained["tournaments"]} == {"T2": "added"}
    # A day to come reads the current snapshot, the latest known, as of that day.
    later = str(dt.date.today() + dt.timedelta(days=3))
    ahead = steps.changes("p1", **{"from": today, "to": later})
    assert (ahead["from"]["snapshot_id"], ahead["to"]["snapshot_id"], ahead["to"]["date"]) == (current, current, later)
    assert ahead["change"] == 0 and ahead["steps"] == [] and ahead["tournaments"] == []


def problem(client, path: str, **params: str):  # type: ignore[no-untyped-def]
    answer = client.get(path, params=params)
    assert answer.headers["content-type"] == "application/problem+json", answer.text
    return answer.status_code, [e["pointer"] for e in answer.json().get("errors", [])]


def test_bad_references_are_4xx_with_a_pointer(client):
    steps = ListSteps(client, "rif-whr")
    path = "/v1/players/p1/changes"
    assert problem(client, path) == (404, ["path:player_id"])  # no such player yet
    steps.submit(round_robin("T1", "2020-05-01"))
    assert problem(client, path) == (404, ["query:from"])  # no publication yet to default to
    steps.publish("2020-06-01")
    assert problem(client, path, list="nope") == (404, ["query:list"])
    assert problem(client, path, **{"from": "publication:7"}) == (404, ["query:from"])
    assert problem(client, path, to="snapshot:999999") == (404, ["query:to"])
    # A day before the list's first snapshot is a rating day now (decision 130), on which p1 had no rating yet.
    assert client.get(path, params={"from": "2019-01-01"}).json()["from"]["source"] == "rating_day"
    assert problem(client, path, **{"from": "2020-02-30"}) == (422, ["query:from"])
    assert problem(client, path, **{"from": "yesterday"})[0] == 422
    recompute_now(client, "rif-elo")
    foreign = client.get("/v1/rating-lists/rif-elo").json()["current_snapshot_id"]
    assert problem(client, path, to=f"snapshot:{foreign}") == (404, ["query:to"])  # not one of rif-whr's
    steps.submit(round_robin("T2", "2021-03-01"))
    assert steps.publish("2021-06-01") == 2
    backwards = problem(client, path, **{"from": "publication:2", "to": "publication:1"})
    assert backwards == (422, ["query:from", "query:from"])  # its day and its snapshot are both after `to`'s
    assert client.post("/v1/players", json={"id": "idle"}, headers=AUTH).status_code == 201
    assert problem(client, "/v1/players/idle/changes") == (404, ["path:player_id"])
    assert problem(client, path, extra="1") == (422, ["query:extra"])


def test_a_pruned_snapshot_is_a_404_saying_so_and_a_published_one_is_kept(client):
    steps = ListSteps(client, "rif-whr")
    steps.submit(round_robin("T1", "2020-05-01"))
    published = client.get("/v1/rating-lists/rif-whr").json()["current_snapshot_id"]
    steps.publish("2020-06-01")
    steps.submit(round_robin("T2", "2020-07-01"))
    pruned = client.get("/v1/rating-lists/rif-whr").json()["current_snapshot_id"]
    steps.submit(round_robin("T3", "2020-08-01"))
    assert prune_snapshots(keep=1) == {"rif-whr": 1}
    answer = client.get("/v1/players/p1/changes", params={"from": f"snapshot:{pruned}"})
    assert answer.status_code == 404 and answer.json()["errors"][0]["pointer"] == "query:from"
    assert "not kept" in answer.json()["detail"] and "publication" in answer.json()["detail"]
    kept = steps.changes("p1", **{"from": f"snapshot:{published}"})
    assert kept["from"]["snapshot_id"] == published
    assert_adds_up(kept)
    assert steps.changes("p1")["from"]["reference"] == "publication:1"


def test_a_publication_names_who_left_because_his_tournaments_were_withdrawn(client):
    steps = ListSteps(client, "rif-whr")
    steps.submit(round_robin("T1", "2020-05-01"))
    steps.submit(round_robin("T2", "2020-06-01", OTHERS))
    alone = [{"id": r, "name": r.upper()} for r in ("r1", "r2", "r3", "r4")]
    steps.submit(round_robin("T3", "2020-07-01", alone))
    assert steps.publish("2020-10-01") == 1
    # T2 withdrawn: q1 and q2 played only there (p1 and p2 also in T1); T3 corrected: r4 replaced by r5.
    withdrawn = client.request("DELETE", "/v1/tournaments/T2", params={"reason": "not a rated event"}, headers=AUTH)
    assert withdrawn.status_code == 200, withdrawn.text
    corrected = round_robin("T3", "2020-07-01", [*alone[:3], {"id": "r5", "name": "R5"}])
    assert client.put("/v1/tournaments/T3", json=corrected, headers=AUTH).status_code == 200
    steps.settle()
    second = client.post("/v1/rating-lists/rif-whr/publications", json={"date": "2020-11-01", "title": "November"}, headers=AUTH)
    assert second.status_code == 201, second.text
    left = {d["player_id"]: d for d in second.json()["left"]}
    assert {p: d["reason"] for p, d in left.items()} == {
        "q1": "tournament_withdrawn",
        "q2": "tournament_withdrawn",
        "r4": "not_on_list",
    }
    assert left["q1"]["tournaments"] == [{"tournament_id": "T2", "name": "Test Open", "withdrawn_reason": "not a rated event"}]
    assert "T2 (Test Open)" in left["q2"]["detail"] and left["r4"]["tournaments"] == []
    assert client.get("/v1/rating-lists/rif-whr/publications/2").json()["left"] == second.json()["left"]


def test_a_publication_names_who_left_because_he_was_merged_into_another_player(client):
    steps = ListSteps(client, "rif-whr")
    steps.submit(round_robin("T1", "2020-05-01"))
    steps.submit(round_robin("T2", "2020-06-01", OTHERS))
    assert steps.publish("2020-10-01") == 1
    # q2 (T2 only) turns out to be p3 (T1 only) entered twice: the officer merges the record into p3.
    merged = client.post("/v1/players/q2/merge", json={"into": "p3"}, headers=AUTH)
    assert merged.status_code == 200, merged.text
    steps.settle()
    second = client.post("/v1/rating-lists/rif-whr/publications", json={"date": "2020-11-01", "title": "November"}, headers=AUTH)
    assert second.status_code == 201, second.text
    left = {d["player_id"]: d for d in second.json()["left"]}
    assert {p: d["reason"] for p, d in left.items()} == {"q2": "merged"}
    assert "merged into player p3" in left["q2"]["detail"] and left["q2"]["tournaments"] == []


def test_a_tournament_no_longer_eligible_and_a_change_of_parameters_are_named(client):
    steps = ListSteps(client, "rif-whr")
    steps.submit(round_robin("T1", "2020-05-01"))
    steps.submit(round_robin("T2", "2020-06-01"))
    earlier = client.get("/v1/rating-lists/rif-whr").json()["current_snapshot_id"]
    unrated = client.put("/v1/tournaments/T2", json={**round_robin("T2", "2020-06-01"), "rated": False}, headers=AUTH)
    assert unrated.status_code == 200, unrated.text
    params = client.patch("/v1/rating-lists/rif-whr/params", json={"w2": 20.0}, headers=AUTH)
    assert params.status_code == 200, params.text
    steps.settle()
    explained = steps.changes("p1", **{"from": f"snapshot:{earlier}"})
    moves = {move["tournament_id"]: move for move in explained["tournaments"]}
    assert {t: move["how"] for t, move in moves.items()} == {"T2": "no_longer_rated"}
    assert [r["kind"] for r in moves["T2"]["revisions"]] == ["corrected"]
    assert moves["T2"]["change"] is not None and len(moves["T2"]["games"]) == 12  # what it did under the earlier snapshot
    assert [r["kind"] for r in explained["list_changes"]] == ["params_changed"]
    assert "w2" in explained["list_changes"][0]["summary"]
    assert_adds_up(explained)
    assert explained["past_revised"] != 0 and explained["steps"] == []
