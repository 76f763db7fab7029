"""The page of two players' games against each other (/players/{a}/vs/{b}), linked from each game of
a player's page: the games, the score and each list's expectation, as the API's head-to-head answers
them, in every language."""

from app.web.i18n import LANGUAGES
from tests.helpers import AUTH, Page, recompute_now, tournament_body


def test_the_page_shows_the_games_score_and_expectations_the_api_answers(client):
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    second = tournament_body("T2", start="2020-06-01", end="2020-06-02")
    second["games"] = [{"black": "p4", "white": "p1", "result": "D"}]
    assert client.post("/v1/tournaments", json=second, headers=AUTH).status_code == 201
    recompute_now(client)
    api = client.get("/v1/players/p1/head-to-head/p4").json()
    answer = client.get("/players/p1/vs/p4", headers={"Accept-Language": "en"})
    assert answer.status_code == 200, answer.text
    page = Page(answer.text)
    assert "Ants Soosõrv against Yusui Nakamura" in page.words
    assert "Score in 2 played games: Ants Soosõrv 0½, Yusui Nakamura 1½." in page.words  # a loss, then a draw
    rows = page.table("games")["rows"]
    assert len(rows) == len(api["games"]) == 2
    latest, first = rows  # the latest first
    assert latest[1][0] == "drawn" and first[1][0] == "lost"  # p1 lost g5 (p4 had black and won)
    [prediction] = api["games"][0]["predictions"]  # the first game: both unrated on the list before it
    assert prediction["a_beats_b"] is None and "no rating yet" in first[5][0]
    [later] = api["games"][1]["predictions"]
    shown = f"{round(later['a_beats_b'] * 100)}%"
    assert shown in latest[5][0] and f"({round(later['a_rating'])} – {round(later['b_rating'])})" in latest[5][0]
    # Linked beside each opponent of his games.
    player = Page(client.get("/players/p1", headers={"Accept-Language": "en"}).text)
    assert "/players/p1/vs/p4" in player.links and "/players/p1/vs/p2" in player.links
    # Cached as the other pages: an ETag, and a 304 for it.
    again = client.get("/players/p1/vs/p4", headers={"Accept-Language": "en", "If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304


def test_the_page_in_every_language_and_its_errors(client):
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    for code in LANGUAGES:
        answer = client.get("/players/p1/vs/p2", headers={"Accept-Language": code})
        assert answer.status_code == 200, (code, answer.text)
    russian = client.get("/players/p1/vs/p2", headers={"Accept-Language": "ru"}).text
    assert "против" in russian and "личные встречи" not in russian
    assert "личные встречи" in client.get("/players/p1", headers={"Accept-Language": "ru"}).text
    empty = client.get("/players/p2/vs/p3", headers={"Accept-Language": "en"}).text  # g6 was not played
    assert "not played" in empty and "Score in 0 played games" in empty
    strangers = client.get("/players/p3/vs/p4", headers={"Accept-Language": "en"})
    assert strangers.status_code == 200 and "Score in 1 played game:" in strangers.text
    assert client.get("/players/p1/vs/nobody").status_code == 404
    assert client.get("/players/p1/vs/p1").status_code == 422
