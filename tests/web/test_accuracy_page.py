"""The accuracy page of a list (/lists/{id}/accuracy, issue 45 item 4): linked from the list's page;
without an evaluation it says none has been run and how an officer runs one; after one its numbers,
calibration table and sweep are the evaluations endpoint's answer as the page rounds them; in the
five languages; cached with an ETag that changes when an evaluation succeeds; an unknown list a 404."""

import datetime as dt

import pytest

from app.recompute.jobs import run_pending_jobs
from app.web import pages
from app.web.i18n import LANGUAGES
from tests.helpers import AUTH, Page, cells, store_three_tournaments

ACCURACY = "/lists/rif-whr/accuracy"
DAY = dt.date(2024, 1, 1)
SWEPT = {"mode": "holdout", "every": 2, "sweep": {"parameter": "w2", "values": [6, 12.9, 25]}}
TWO_PARAMETERS = {
    "mode": "holdout",
    "every": 2,
    "sweep": {"parameter": "w2", "values": [6, 12.9, 25], "and_parameter": {"parameter": "virtual_games", "values": [1, 2]}},
}


def _evaluate(client, body: dict) -> dict:  # type: ignore[no-untyped-def]
    asked = client.post("/v1/rating-lists/rif-whr/evaluations", json=body, headers=AUTH)
    assert asked.status_code == 202, asked.text
    run_pending_jobs(list_date=DAY)
    found = client.get(f"/v1/rating-lists/rif-whr/evaluations/{asked.json()['id']}").json()
    assert found["status"] == "succeeded", found
    return found


def test_without_an_evaluation_the_page_says_so_and_how_to_run_one(client):
    store_three_tournaments(client, DAY)
    listed = client.get("/lists/rif-whr")
    assert f'href="{ACCURACY}"' in listed.text
    page = client.get(ACCURACY)
    assert page.status_code == 200, page.text
    assert "No evaluation of this list has been run yet." in page.text
    assert "/v1/rating-lists/rif-whr/evaluations" in page.text and "python -m app.cli evaluate rif-whr" in page.text
    assert "<svg" not in page.text.split("<main", 1)[1]


def test_the_page_shows_the_latest_evaluation_as_the_api_answers_it(client):
    store_three_tournaments(client, DAY)
    before = client.get(ACCURACY)
    found = _evaluate(client, SWEPT)
    result = found["result"]
    scores = result["scores"]
    english = LANGUAGES["en"]
    page = client.get(ACCURACY)
    assert page.status_code == 200, page.text
    # A new evaluation is a new page: the ETag of the page before it no longer matches.
    assert page.headers["ETag"] != before.headers["ETag"]
    html = page.text
    assert f'<dd class="score-ll">{pages.decimal(scores["mean_log_likelihood"], english)}</dd>' in html
    assert f'<dd class="score-brier">{pages.decimal(scores["brier"], english)}</dd>' in html
    if scores["favourite_won"] is not None:
        assert pages.share(scores["favourite_won"], english) in html
    assert "holdout" in html and result["manifest"]["rule"] in html
    assert '<svg class="chart calibration"' in html and 'class="diagonal"' in html
    parsed = Page(html)
    by_caption = {table["caption"]: table for table in parsed.tables}
    calibration = by_caption["Predicted against observed"]
    rows = cells(calibration)
    with_games = [row for row in scores["calibration"] if row["games"]]
    assert len(rows) == len(with_games) and sum(int(row["Games"]) for row in rows) == scores["games"]
    for shown, row in zip(rows, with_games):
        assert shown["Predicted"] == f"{pages.decimal(row['low'], english, 1)}–{pages.decimal(row['high'], english, 1)}"
        assert shown["Expected"] == pages.decimal(row["mean_expected"], english)
        assert shown["Observed"] == pages.decimal(row["observed"], english)
    years = cells(by_caption["By year"])
    assert [row["Year"] for row in years] == [group["label"] for group in scores["by_year"]]
    # The sweep: its best value marked, a row per value tried, the curve drawn.
    sweep = result["sweep"]
    assert f'<strong class="sweep-best">{pages.parameter_value(sweep["best"], english)}</strong>' in html
    assert [row["Value"] for row in cells(by_caption["Each value tried"])] == ["6", "12.9", "25"]
    assert '<svg class="chart sweep"' in html and 'class="current"' in html
    again = client.get(ACCURACY, headers={"If-None-Match": page.headers["ETag"]})
    assert again.status_code == 304


def test_a_sweep_of_two_parameters_is_a_table_of_its_pairs_with_the_best_and_the_lists_own_said(client):
    store_three_tournaments(client, DAY)
    sweep = _evaluate(client, TWO_PARAMETERS)["result"]["sweep"]
    english = LANGUAGES["en"]
    html = client.get(ACCURACY).text
    [table] = [t for t in Page(html).tables if t["caption"].startswith("Mean log-likelihood of each pair")]
    assert table["headers"] == ["w2 \\ virtual_games", "1", "2"]
    rows = cells(table)
    assert [row["w2 \\ virtual_games"] for row in rows] == ["6", "12.9", "25"]
    best = (sweep["best"], sweep["and_parameter"]["best"])
    for row, w2 in zip(rows, (6.0, 12.9, 25.0), strict=True):
        for column, virtual in (("1", 1.0), ("2", 2.0)):
            [pair] = [c for c in sweep["grid"] if (c["value"], c["second_value"]) == (w2, virtual)]
            shown = pages.decimal(pair["mean_log_likelihood"], english, 4)
            shown += " (best)" if (w2, virtual) == best else ""
            shown += " (the list's)" if (w2, virtual) == (12.9, 2.0) else ""
            assert row[column] == shown, (w2, virtual)
    # Inside its own scrolling container, as the page's other wide tables are (usable at 360 px).
    assert (
        '<div class="table-wrap accuracy" role="region" aria-label="The parameters\' grid" tabindex="0">\n<table class="sweep-grid">'
    ) in html
    first, second = sweep, sweep["and_parameter"]
    assert (
        f'the best pair is <strong class="sweep-best"><span translate="no">w2</span> {pages.parameter_value(best[0], english)}, '
        f'<span translate="no">virtual_games</span> {pages.parameter_value(best[1], english)}</strong>'
    ) in html
    for curve in (first, second):
        low, high = (pages.parameter_value(curve[end], english) for end in ("interval_low", "interval_high"))
        assert (
            f'The values of <span translate="no">{curve["parameter"]}</span> from {low} to {high} predict about as well' in html
        )
    assert 'The list\'s own <span translate="no">virtual_games</span> is 2.' in html
    assert '<svg class="chart sweep"' not in html  # (a grid is its table; no curve is drawn)


def test_the_sweep_stays_when_a_newer_evaluation_has_none(client):
    store_three_tournaments(client, DAY)
    swept = _evaluate(client, SWEPT)
    newer = _evaluate(client, {"mode": "forward"})
    html = client.get(ACCURACY).text
    assert "forward:" in html
    assert f"Evaluation {swept['id']} tried several values" in html
    scores = newer["result"]["scores"]
    assert f'<dd class="score-ll">{pages.decimal(scores["mean_log_likelihood"], LANGUAGES["en"])}</dd>' in html


def test_a_forward_evaluation_says_how_its_system_predicts_going_forward(client):
    """WHR refits its history at each period's start; an Elo list predicts each game from the ratings
    its replay held just before it, and its page does not speak of refits."""
    store_three_tournaments(client, DAY)
    _evaluate(client, {"mode": "forward", "period_months": 2})
    assert "WHR refitted every 2 months" in client.get(ACCURACY).text
    asked = client.post("/v1/rating-lists/rif-elo/evaluations", json={"mode": "forward"}, headers=AUTH)
    assert asked.status_code == 202, asked.text
    run_pending_jobs(list_date=DAY)
    html = client.get("/lists/rif-elo/accuracy").text
    assert "each player's rating just before the game" in html and "refitted" not in html


@pytest.mark.parametrize("code", sorted(set(LANGUAGES) - {"en"}))
def test_the_page_in_every_language(client, code):
    store_three_tournaments(client, DAY)
    _evaluate(client, SWEPT)
    client.cookies.set("lang", code)
    page = client.get(ACCURACY)
    assert page.status_code == 200, page.text
    html = page.text
    assert f'<html lang="{LANGUAGES[code].tag}">' in html
    for english in ("The latest evaluation", "Mean log-likelihood", "Predicted against observed", "By year", "Predicted score"):
        assert english not in html, english
    _evaluate(client, TWO_PARAMETERS)
    html = client.get(ACCURACY).text
    for english in ("The parameters' grid", "every pair of values", "each pair", "(best)", "(the list"):
        assert english not in html, english
    empty = client.get("/lists/rif-elo/accuracy").text
    assert "No evaluation of this list has been run yet." not in empty


def test_an_unknown_list_is_a_404_page(client):
    page = client.get("/lists/no-such-list/accuracy")
    assert page.status_code == 404 and "<html" in page.text


def test_the_other_lists_of_the_category_beside_it_when_asked(client):
    store_three_tournaments(client, DAY)
    found = _evaluate(client, {"mode": "holdout", "every": 2, "side_by_side": True})
    [pair] = found["result"]["side_by_side"]
    html = client.get(ACCURACY).text
    tables = {table["caption"]: table for table in Page(html).tables}
    [row] = cells(tables["This list and each other list on their common games"])
    assert row["Other list"] == pair["other_list_id"] == "rif-elo"
    assert row["Common games"] == str(pair["games"])
    assert row["This list's log-likelihood"] == pages.decimal(pair["this"]["scores"]["mean_log_likelihood"], LANGUAGES["en"])
    assert 'href="/lists/rif-elo/accuracy"' in html
