"""Rating dates (issue 47 item 2): `/v1/players/{id}/changes` and the history read a day on which
the list had no snapshot yet (a decade of real results rated today) as what the list says of the
player that day, and keep reading a day on which it had one as the snapshot current then
(docs/decisions.md 130); checked on the real Chinese results against the list's own history and
its rows as of each day."""

import datetime as dt
import math

import pytest

from tests.helpers import AUTH, cli_import_renju_cn, recompute_now, tournament_body

WANG = "952"  # Wang Qingqing, whose games in the Chinese results end in 2017
PLAYED = "498"  # who played T0015 in July 2018


def ratings_on(client, day: str, **params: object) -> dict[str, dict]:  # type: ignore[no-untyped-def]
    answer = client.get("/v1/rating-lists/rif-whr/ratings", params={"status": "all", "limit": 500, "as_of": day, **params})
    assert answer.status_code == 200, answer.text
    return {row["player_id"]: row for row in answer.json()["items"]}


def history(client, player_id: str, **params: str) -> list[dict]:  # type: ignore[no-untyped-def]
    answer = client.get(f"/v1/players/{player_id}/history", params={"list": "rif-whr", **params})
    assert answer.status_code == 200, answer.text
    return answer.json()["points"]


def changes(client, player_id: str, earlier: str, later: str) -> dict:  # type: ignore[no-untyped-def]
    answer = client.get(f"/v1/players/{player_id}/changes", params={"from": earlier, "to": later})
    assert answer.status_code == 200, answer.text
    return answer.json()


@pytest.mark.slow
def test_a_players_change_between_two_rating_dates_is_the_lists_history_between_them(client):
    cli_import_renju_cn()
    snapshot_id = recompute_now(client)["snapshot_id"]
    # The question: Wang Qingqing between 2018 and 2019, whose last games were in October 2017.
    explained = changes(client, WANG, "2018-01-01", "2019-12-31")
    # The list was computed today: both days are rating days, read from its one snapshot, as the
    # list as of each day shows her; she played in neither year, so her last point holds on both.
    last = history(client, WANG, to="2018-01-01")[-1]
    assert last["date"] == "2017-10-03" and history(client, WANG, **{"from": "2018-01-01"}) == []
    for end, day in (("from", "2018-01-01"), ("to", "2019-12-31")):
        reading = explained[end]
        assert (reading["source"], reading["snapshot_id"], reading["date"], reading["reference"]) == (
            "rating_day",
            snapshot_id,
            day,
            day,
        )
        row = ratings_on(client, day)[WANG]
        assert (reading["rating"], reading["status"], reading["games"]) == (row["rating"], row["status"], row["games"])
        assert reading["rating"] == last["rating"] and reading["games"] == last["games"]
    assert (explained["change"], explained["past_revised"], explained["new_games"], explained["steps"]) == (0, 0, 0, [])

    # A player who played in between (T0015, July 2018): his steps are his history's points of those days.
    explained = changes(client, PLAYED, "2018-01-01", "2019-12-31")
    assert explained["past_revised"] == 0 and explained["past_rating_now"] == explained["from"]["rating"]
    for end, day in (("from", "2018-01-01"), ("to", "2019-12-31")):
        assert explained[end]["rating"] == ratings_on(client, day)[PLAYED]["rating"]
    points = history(client, PLAYED, **{"from": "2018-01-02", "to": "2019-12-31"})
    steps = explained["steps"]
    assert [(s["date"], s["rating_after"], s["tournament_ids"], s["cause"]) for s in steps] == [
        (p["date"], p["rating"], p["tournament_ids"], "games") for p in points
    ]
    assert [s["date"] for s in steps] == ["2018-07-16"]  # (a game is dated on its tournament's last day, RIF 2021)
    assert steps[0]["rating_before"] == explained["from"]["rating"]
    assert math.fsum(step["change"] for step in steps) == pytest.approx(explained["change"], abs=1e-9)
    assert explained["change"] == explained["to"]["rating"] - explained["from"]["rating"] != 0
    assert [(move["tournament_id"], move["how"]) for move in explained["tournaments"]] == [("T0015", "rated")]


@pytest.mark.slow
def test_the_history_takes_rating_dates_and_keeps_its_whole_series_without_them(client):
    cli_import_renju_cn()
    recompute_now(client)
    whole = history(client, WANG)
    assert whole and whole[0]["date"] < "2015-01-01" < whole[-1]["date"]
    assert history(client, WANG, **{"from": "2015-01-01"}) == [p for p in whole if p["date"] >= "2015-01-01"]
    assert history(client, WANG, to="2014-12-31") == [p for p in whole if p["date"] <= "2014-12-31"]
    first = whole[3]["date"]
    assert history(client, WANG, **{"from": first, "to": first}) == [whole[3]]  # both days included
    assert history(client, WANG, **{"from": "2030-01-01"}) == []
    # Another window of the same snapshot is another answer, not the kept one of the first.
    assert history(client, WANG, **{"from": "2016-01-01"}) == [p for p in whole if p["date"] >= "2016-01-01"]
    for params, pointer in (
        ({"from": "2019-01-01", "to": "2015-01-01"}, "query:from"),
        ({"from": "2019-02-30"}, "query:from"),
        ({"to": "yesterday"}, "query:to"),
        ({"from": "1899-12-31"}, "query:from"),
    ):
        answer = client.get(f"/v1/players/{WANG}/history", params={"list": "rif-whr", **params})
        assert answer.status_code == 422, (params, answer.text)
        assert answer.headers["content-type"] == "application/problem+json"
        assert [e["pointer"] for e in answer.json()["errors"]] == [pointer], params


def test_a_day_the_list_had_a_snapshot_still_names_the_snapshot_current_then(client):
    """A day on or after the list's first snapshot reads what it did before rating dates: the
    snapshot current at the end of that day; a day before it, the later reading's snapshot."""
    players = [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]
    games = [{"black": "a", "white": "b", "result": "B"}, {"black": "b", "white": "a", "result": "D"}]
    body = tournament_body("T1", start="2020-05-01", end="2020-05-02", players=players, games=games)
    assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201
    first = recompute_now(client)["snapshot_id"]
    later = tournament_body("T2", start="2021-05-01", end="2021-05-02", players=players, games=games[:1])
    assert client.post("/v1/tournaments", json=later, headers=AUTH).status_code == 201
    second = recompute_now(client)["snapshot_id"]
    today = str(dt.date.today())

    since_today = client.get("/v1/players/a/changes", params={"from": today}).json()
    assert (since_today["from"]["source"], since_today["from"]["snapshot_id"]) == ("current_that_day", second)
    assert since_today["to"]["source"] == "current"
    # A rating day read against an earlier snapshot reads that snapshot: nothing of the past revised.
    pinned = client.get("/v1/players/a/changes", params={"from": "2020-04-30", "to": f"snapshot:{first}"}).json()
    assert (pinned["from"]["source"], pinned["from"]["snapshot_id"], pinned["from"]["rating"]) == ("rating_day", first, None)
    assert pinned["to"]["rating"] == ratings_on(client, pinned["to"]["date"], snapshot_id=first)["a"]["rating"]
    # Before the first snapshot, against the live list: its reading of 2020-12-31, the past not revised.
    between = client.get("/v1/players/a/changes", params={"from": "2020-12-31"}).json()
    assert (between["from"]["snapshot_id"], between["past_revised"]) == (second, 0)
    assert between["from"]["rating"] == ratings_on(client, "2020-12-31")["a"]["rating"]
    assert [step["tournament_ids"] for step in between["steps"]] == [["T2"]]
