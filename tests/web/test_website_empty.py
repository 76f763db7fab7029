"""The website before and after a first recompute, when nobody is active on the list's date: the
home page shows the list as it stood on its last game's day, labelled with that day, and only its
established players (none here, and it says so); the list page offers the list on its last game's
day and every status."""

import datetime as dt

from app.recompute.jobs import run_pending_jobs
from tests.helpers import AUTH, Page, cells, tournament_body


def test_a_fresh_service_has_pages_that_say_nothing_is_computed_yet(client):
    home = Page(client.get("/").text).words
    assert home.count("Not computed yet.") == len(client.get("/v1/rating-lists").json())
    assert "This list has not been computed yet." in Page(client.get("/lists/rif-whr").text).words
    assert "No snapshot has been computed yet." in Page(client.get("/lists/rif-whr/snapshots").text).words
    assert "No tournament is stored yet." in Page(client.get("/tournaments").text).words


def test_nobody_active_on_the_list_date(client):
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    client.post("/v1/rating-lists/rif-whr/recompute", headers=AUTH)
    run_pending_jobs(list_date=dt.date(2030, 1, 1))  # three games each: provisional (INTERPRETATIONS 3.5)

    home = Page(client.get("/").text)
    assert "As of May 3, 2020: 4 players, 0 active on its last game's day." in home.words  # not 2030
    assert "Nobody is active on the list's date: it is shown as it stood on its last game's day." in home.words
    assert "No established player is on this list yet." in home.words  # provisional players are not its top ten
    assert not home.tables
    assert "/lists/rif-whr?as_of=2020-05-03" in home.links

    # Nobody active on its last game's day either: the list's own date, empty, with what there is.
    page = Page(client.get("/lists/rif-whr").text)
    assert "No player with the status “active” matches these filters." in page.words and not page.tables
    assert "it is shown as it stood on its last game's day" not in page.words
    assert "/lists/rif-whr?status=all" in page.links
    assert "/lists/rif-whr?as_of=2020-05-03" in page.links  # the last game's day
    on_that_day = Page(client.get("/lists/rif-whr?as_of=2020-05-03&status=provisional").text)
    assert {row["Status"] for row in cells(on_that_day.table())} == {"provisional"}
    # A country filter that matches nobody is not blamed on the date.
    assert "/lists/rif-whr?as_of=" not in " ".join(Page(client.get("/lists/rif-whr?country=ZZ").text).links)
