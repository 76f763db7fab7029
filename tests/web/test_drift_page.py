"""The drift page of a list (/lists/{id}/drift, issue 46 item 4): linked from the list's page, its
chart and its table the drift endpoint's answer, in the five languages, readable on a 360 px phone
(the month, the means and the median are the columns it keeps in view), cached with an ETag, and a
cohort year that is not a year a 422 page."""

import re

import pytest

from app.web.i18n import LANGUAGES
from tests.helpers import AUTH, Page, cells, recompute_now, round_robin, tournament_body

DRIFT = "/lists/rif-whr/drift"


def _rated_history(client) -> None:  # type: ignore[no-untyped-def]
    """Ten players meeting in four tournaments of 2019-2022: from the second on, each has the rated games
    of WHR's active players, and the last 12 months are of active players at both ends."""
    ids = [f"p{i}" for i in range(10)]
    players = [{"id": player_id, "name": "Player", "surname": player_id.upper()} for player_id in ids]
    for number, (start, results) in enumerate(
        (("2019-05-04", "BWD"), ("2020-06-06", "WBB"), ("2021-03-13", "DWB"), ("2022-02-05", "BBW"))
    ):
        games = round_robin(ids, results * 15)
        body = tournament_body(f"T{number}", start=start, end=start, players=players, games=games)
        assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201, number
    recompute_now(client)


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_the_drift_page_in_every_language(client, code):
    _rated_history(client)
    api = client.get("/v1/rating-lists/rif-whr/drift", params={"cohort_year": 2020}).json()
    assert api["cohort_size"] == 10 and api["change_12_months"]["mean"] is not None
    client.cookies.set("lang", code)
    listed = client.get("/lists/rif-whr")
    assert listed.status_code == 200 and f'href="{DRIFT}"' in listed.text
    page = client.get(DRIFT, params={"cohort_year": 2020})
    assert page.status_code == 200, page.text
    html = page.text
    assert f'<html lang="{LANGUAGES[code].tag}">' in html
    assert '<svg class="chart drift"' in html and 'class="line median"' in html and 'class="line cohort"' in html
    parsed = Page(html)
    [table] = parsed.tables
    rows = cells(table)
    # One row a month, the newest first, each the endpoint's month, its means rounded as the site shows ratings.
    assert [row[table["headers"][0]] for row in rows] == [month["month"] for month in reversed(api["months"])]
    newest = api["months"][-1]
    assert rows[0][table["headers"][1]] == str(round(newest["mean"]))
    assert rows[0][table["headers"][2]] == str(round(newest["median"]))
    # On a phone the month, both means and the median are the columns kept in view (data-key).
    assert len(re.findall(r"<th scope=\"col\"[^>]*data-key>", html)) == 4
    if code != "en":  # translated: the page's own words are not English
        assert "The last 12 months" not in html and "Cohort mean" not in html
    # Cached as the list's page: the ETag answers 304.
    again = client.get(DRIFT, params={"cohort_year": 2020}, headers={"If-None-Match": page.headers["ETag"]})
    assert again.status_code == 304


def test_a_bad_cohort_year_is_a_422_page_and_a_good_one_is_chosen(client):
    _rated_history(client)
    assert client.get(DRIFT, params={"cohort_year": "twenty"}).status_code == 422
    assert client.get(DRIFT, params={"cohort_year": "0"}).status_code == 422
    chosen = client.get(DRIFT, params={"cohort_year": "2020"})
    assert chosen.status_code == 200 and '<option value="2020" selected>' in chosen.text
    assert client.get("/lists/no-such-list/drift").status_code == 404
