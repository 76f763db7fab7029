"""How sure a rating is, on the website (issue 46 item 1), and who is favoured (item 2's form).

WHR's deviation stands beside every rating that has one, as ± on the list, publication and player
pages and in the CSV downloads as its own column, equal to what the API answers from the snapshot;
each page explains ± once. An Elo list's provisional ratings, which have no deviation, are marked ≈
and explained. The form of /lists/{id}/predict answers what GET /v1/rating-lists/{id}/predict does."""

import csv
import datetime as dt
import io
import re

from app.web.i18n import LANGUAGES, shown_date
from tests.helpers import (
    AUTH,
    RIF_ELO_SEEDS,
    Page,
    cells,
    recompute_now,
    recompute_rif_elo,
    store_rif_elo_history,
    tournament_body,
)

PUBLISHED = "2020-12-31"
ENGLISH = {"Accept-Language": "en"}


def shown(value: float) -> str:
    """A rating or deviation as the pages show it (rounded half away from zero)."""
    return str(int(abs(value) + 0.5) * (1 if value >= 0 else -1))


def plus_minus(deviation: float) -> str:
    return f"±\u202f{shown(deviation)}"


def page(client, url: str) -> Page:  # type: ignore[no-untyped-def]
    answer = client.get(url, headers=ENGLISH)
    assert answer.status_code == 200, (url, answer.text[:500])
    return Page(answer.text)


def csv_rows(client, url: str) -> list[dict[str, str]]:  # type: ignore[no-untyped-def]
    answer = client.get(url)
    assert answer.status_code == 200, answer.text
    return list(csv.DictReader(io.StringIO(answer.text)))


def api_rows(client, url: str, **params: object) -> list[dict]:  # type: ignore[no-untyped-def]
    answer = client.get(url, params={"status": "all", "limit": 500, **params})
    assert answer.status_code == 200, answer.text
    return answer.json()["items"]


def whr_list_published(client) -> None:  # type: ignore[no-untyped-def]
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    recompute_now(client)
    published = client.post(
        "/v1/rating-lists/rif-whr/publications", json={"date": PUBLISHED, "title": "RIF list, 2020"}, headers=AUTH
    )
    assert published.status_code == 201, published.text


def explanation(words: str, rating: float, deviation: float) -> bool:
    r, d = shown(rating), shown(deviation)
    return (
        f"A rating shown as {r} ± {d} is the list's estimate from the games it rates: the player's true strength lies "
        f"within {d} points of {r} either side about two times in three, and within {2 * int(d)} points about 19 times "
        "in 20 (± is one standard deviation)." in words
    )


def test_the_csvs_hold_the_deviation_as_a_numeric_column_of_its_own(client):
    whr_list_published(client)
    published = api_rows(client, "/v1/rating-lists/rif-whr/publications/1/ratings")
    assert len(published) == 4 and all(row["deviation"] for row in published)  # (tests/api/test_publication_rows.py)
    # The shown deviation, equal to the API's rows', a whole number a spreadsheet reads.
    for url, rows in (
        ("/lists/rif-whr/publications/1/ratings.csv?status=all", published),
        ("/lists/rif-whr/ratings.csv?status=all", api_rows(client, "/v1/rating-lists/rif-whr/ratings")),
    ):
        downloaded = csv_rows(client, url)
        assert [line["ID"] for line in downloaded] == [row["player_id"] for row in rows]
        assert [line["Deviation"] for line in downloaded] == [shown(row["deviation"]) for row in rows]
        assert all(line["Deviation"].isdigit() and line["Rating"].isdigit() for line in downloaded)


def test_list_publication_and_player_pages_show_plus_minus_the_apis_deviation_and_say_what_it_means(client):
    whr_list_published(client)
    for url, api in (
        ("/lists/rif-whr?status=all", "/v1/rating-lists/rif-whr/ratings"),
        ("/lists/rif-whr/publications/1?status=all", "/v1/rating-lists/rif-whr/publications/1/ratings"),
    ):
        shown_page = page(client, url)
        rows = api_rows(client, api)
        table = cells(shown_page.table())
        assert [(c["Rating"], c["Deviation"]) for c in table] == [(shown(r["rating"]), plus_minus(r["deviation"])) for r in rows]
        assert explanation(shown_page.words, rows[0]["rating"], rows[0]["deviation"]), url  # told with its first row
        assert shown_page.words.count("± is one standard deviation") == 1 and "≈" not in shown_page.words
    row = next(r for r in api_rows(client, "/v1/rating-lists/rif-whr/ratings") if r["player_id"] == "p1")
    player = page(client, "/players/p1")
    assert f"rating {shown(row['rating'])} ± {shown(row['deviation'])}." in player.words  # (words: every space one)
    assert explanation(player.words, row["rating"], row["deviation"])
    # The chart's points, named as a reader hovers them: day and rating ± deviation, as the history has them.
    history = client.get("/v1/players/p1/history", params={"list": "rif-whr"}).json()["points"]
    html = client.get("/players/p1", headers=ENGLISH).text
    titles = re.findall(r'<circle class="dot"[^>]*><title>([^<]*)</title>', html)
    assert titles and titles == [
        f"{shown_date(dt.date.fromisoformat(p['date']), 'en')}: {shown(p['rating'])}\u00a0{plus_minus(p['deviation'])}"
        for p in history
    ]


def elo_list(client) -> None:  # type: ignore[no-untyped-def]
    """The small RIF Elo history from its seeds, and a newcomer of two games in 2000."""
    store_rif_elo_history(client)
    newcomer = {
        "id": "t2000",
        "name": "t2000",
        "category": "renju",
        "start": "2000-06-01",
        "end": "2000-06-02",
        "players": [{"id": "z", "name": "Z"}],
        "games": [{"black": "z", "white": "a", "result": "W"}, {"black": "b", "white": "z", "result": "W"}],
    }  # two games: provisional under GA 1997 #5-#7 (established after ten)
    assert client.post("/v1/tournaments", json=newcomer, headers=AUTH).status_code == 201
    assert client.put("/v1/rating-lists/rif-elo/seeds", json={"seeds": RIF_ELO_SEEDS}, headers=AUTH).status_code == 200
    recompute_rif_elo(client)


def test_an_elo_lists_provisional_ratings_are_marked_and_explained(client):
    elo_list(client)
    rows = api_rows(client, "/v1/rating-lists/rif-elo/ratings")
    assert rows and all(r["deviation"] is None for r in rows)
    provisional = [r for r in rows if r["status"] == "provisional"]
    assert provisional, rows
    shown_page = page(client, "/lists/rif-elo?status=all")
    table = shown_page.table()
    assert "Deviation" not in table["headers"]
    marked = {r["player_id"] for r in provisional}
    assert [c["Rating"] for c in cells(table)] == [
        f"≈\u202f{shown(r['rating'])}" if r["player_id"] in marked else shown(r["rating"]) for r in rows
    ]
    assert shown_page.words.count("≈ before a rating marks a provisional one") == 1 and "±" not in shown_page.words
    # The CSV keeps the rating a number: the status column says provisional.
    assert [line["Rating"] for line in csv_rows(client, "/lists/rif-elo/ratings.csv?status=all")] == [
        shown(r["rating"]) for r in rows
    ]
    first = provisional[0]
    player = page(client, f"/players/{first['player_id']}")
    assert f"rating ≈ {shown(first['rating'])}." in player.words and "≈ before a rating marks" in player.words
    # The established players alone (the list's default, status=active): no mark, nothing to explain.
    assert "≈" not in page(client, "/lists/rif-elo").words


def test_the_form_answers_what_the_predict_endpoint_answers(client):
    whr_list_published(client)
    api = client.get("/v1/rating-lists/rif-whr/predict", params={"a": "p1", "b": "p4"}).json()
    answer = client.get("/lists/rif-whr/predict", params={"a": "p1", "b": "Nakamura"}, headers=ENGLISH)  # an id, a name
    assert answer.status_code == 200, answer.text
    words = Page(answer.text).words
    beats, above = f"{api['a_beats_b'] * 100:.1f}%", f"{api['a_above_b'] * 100:.1f}%"
    assert f"The chance that Ants Soosõrv beats Yusui Nakamura in a game: {beats}" in words
    assert f"by the list's rule {api['rule']}" in words
    assert (
        f"The chance that Ants Soosõrv stands above Yusui Nakamura on the list, from both ratings and their deviations: {above}."
        in words
    )
    for side, name in (("a", "Ants Soosõrv"), ("b", "Yusui Nakamura")):
        player = api[side]
        assert f"{name} {shown(player['rating'])} ± {shown(player['deviation'])}" in words
    assert "/players/p1/vs/p4" in Page(answer.text).links
    # Linked from the list's page; cached as it is.
    assert "/lists/rif-whr/predict" in page(client, "/lists/rif-whr").links
    again = client.get(
        "/lists/rif-whr/predict",
        params={"a": "p1", "b": "Nakamura"},
        headers={**ENGLISH, "If-None-Match": answer.headers["ETag"]},
    )
    assert again.status_code == 304
    # Under Elo: its own rule, and no chance of standing above (no deviations).
    elo_list(client)
    elo = client.get("/v1/rating-lists/rif-elo/predict", params={"a": "b", "b": "a"}).json()
    elo_words = page(client, "/lists/rif-elo/predict?a=b&b=a").words
    assert f"in a game: {elo['a_beats_b'] * 100:.1f}%" in elo_words and elo["rule"] in elo_words
    assert "stands above" not in elo_words


def test_the_form_offers_a_choice_and_says_what_it_cannot_answer(client):
    whr_list_published(client)
    assert (
        client.post("/v1/players", json={"id": "newcomer", "name": "Ants", "surname": "Newman"}, headers=AUTH).status_code == 201
    )
    several = page(client, "/lists/rif-whr/predict?a=Ants&b=p4")
    assert "Several players match “Ants”: choose one." in several.words
    assert "/lists/rif-whr/predict?a=p1&b=p4" in several.links and "/lists/rif-whr/predict?a=newcomer&b=p4" in several.links
    assert "No player matches “nobody at all”." in page(client, "/lists/rif-whr/predict?a=p1&b=nobody+at+all").words
    refused = page(client, "/lists/rif-whr/predict?a=newcomer&b=p4")
    assert "The list cannot answer: Player 'newcomer' is not on rating list 'rif-whr'" in refused.words
    assert (
        "The list cannot answer: A player is not favoured against himself."
        in page(client, "/lists/rif-whr/predict?a=p1&b=p1").words
    )
    assert client.get("/lists/no-such-list/predict").status_code == 404
    for code in LANGUAGES:
        answer = client.get("/lists/rif-whr/predict?a=p1&b=p4", headers={"Accept-Language": code})
        assert answer.status_code == 200 and "p4" in answer.text, code
