"""A list's kept answers follow what it shows of its players: an officer's change of a player's
country (or name, or gender) shows on the current list's API page, website page and CSV at once, with
a new ETag, though the snapshot is the same; a change that shows nothing (a new player) keeps them."""

from app.services import revisions
from app.snapshots.current_snapshots import PLAYER_SHOWN_CHANGES
from tests.helpers import AUTH, recompute_now, tournament_body, with_player_ids

LIST = "/v1/rating-lists/rif-whr/ratings"


def test_an_officers_change_of_a_player_shows_on_the_kept_list_pages_at_once(client):
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    recompute_now(client)
    api, page, csv = _reads(client)
    assert _country(api, "p1") == "EST" and "FIN" not in csv.text

    assert client.patch("/v1/players/p1", json={"country": "FIN"}, headers=AUTH).status_code == 200
    api_after, page_after, csv_after = _reads(client)
    assert _country(api_after, "p1") == "FIN" and "FIN" in csv_after.text and "FIN" in page_after.text
    for before, after in ((api, api_after), (page, page_after), (csv, csv_after)):
        assert after.headers["etag"] != before.headers["etag"]
        stale_copy = client.get(str(after.request.url), headers={"If-None-Match": before.headers["etag"]})
        assert stale_copy.status_code == 200  # the copy from before the change is not current

    # New players (created, not yet on the list) change nothing the list shows: the copy stays current.
    assert client.post("/v1/tournaments", json=with_player_ids(tournament_body("T2"), "n"), headers=AUTH).status_code == 201
    again = client.get(LIST, params={"status": "all"}, headers={"If-None-Match": api_after.headers["etag"]})
    assert again.status_code == 304


def test_the_kinds_that_change_what_a_list_shows_of_a_player_are_the_revisions_of_his_identity():
    assert set(PLAYER_SHOWN_CHANGES) == {revisions.RENAMED, revisions.MERGED, revisions.UNMERGED, revisions.PLAYER_UPDATED}
    assert revisions.PLAYER == "player"


def _reads(client):  # type: ignore[no-untyped-def]
    api = client.get(LIST, params={"status": "all"})
    page = client.get("/lists/rif-whr", params={"status": "all"})
    csv = client.get("/lists/rif-whr/ratings.csv", params={"status": "all"})
    assert api.status_code == page.status_code == csv.status_code == 200
    return api, page, csv


def _country(answer, player_id: str) -> str:  # type: ignore[no-untyped-def]
    [row] = [row for row in answer.json()["items"] if row["player_id"] == player_id]
    return str(row["country"])
