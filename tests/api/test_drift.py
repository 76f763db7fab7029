"""GET /v1/rating-lists/{list_id}/drift through the HTTP API (issue 46 item 4), on the real Chinese
results stored and rated: each month is the list's own ratings read as of its end, the cohort the
players active in its year; cached with an ETag (304) that follows the list's threshold, which an
officer sets with PATCH; 404 for an unknown list, 422 for a cohort year that is not a year, an empty
cohort for one without a month in the series."""

import datetime as dt
import statistics

import pytest

from app.importers.renju_tsv import parse_path, to_submissions
from tests.helpers import AUTH, RENJU_CN, recompute_now, round_robin, tournament_body

LIST_DATE = dt.date(2020, 3, 15)
DRIFT = "/v1/rating-lists/rif-whr/drift"


def _active_ratings(client, day: str) -> list[float]:  # type: ignore[no-untyped-def]
    page = client.get("/v1/rating-lists/rif-whr/ratings", params={"as_of": day, "status": "active", "limit": 500}).json()
    assert page["total"] <= 500
    return [row["rating"] for row in page["items"]]


@pytest.mark.slow  # the Chinese file's 59 tournaments submitted and rated
def test_drift_of_the_real_results_through_the_api(client):
    for submission in to_submissions(parse_path(RENJU_CN))[0]:
        assert client.post("/v1/tournaments", json=submission, headers=AUTH).status_code == 201
    recompute_now(client, list_date=LIST_DATE)

    answer = client.get(DRIFT)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    months = body["months"]
    assert body["list_id"] == "rif-whr" and body["system"] == "rif-whr" and body["list_date"] == LIST_DATE.isoformat()
    assert months[0]["month"].startswith("2009-")
    assert months[-1]["month"].startswith("2019-")
    assert body["cohort_year"] == 2014 and body["cohort_size"] > 0
    assert body["threshold"] == 50.0  # the Elo scale's default (decision 127)
    # Three months against the list's own ratings as of their ends.
    for month in (months[len(months) // 3], months[-13], months[-1]):
        ratings = _active_ratings(client, month["date"])
        assert month["active_players"] == len(ratings)
        if ratings:
            assert month["mean"] == pytest.approx(statistics.fmean(ratings), abs=1e-9)
            assert month["median"] == pytest.approx(statistics.median(ratings), abs=1e-9)
            assert month["percentiles"]["p50"] == month["median"]
    change = body["change_12_months"]
    if months[-1]["mean"] is not None and months[-13]["mean"] is not None:
        assert change["mean"] == pytest.approx(months[-1]["mean"] - months[-13]["mean"], abs=1e-9)
    if months[-1]["cohort_mean"] is not None and months[-13]["cohort_mean"] is not None:
        assert change["cohort_mean"] == pytest.approx(months[-1]["cohort_mean"] - months[-13]["cohort_mean"], abs=1e-9)
    moved = [abs(c) for c in (change["mean"], change["cohort_mean"]) if c is not None]
    assert body["flagged"] == any(c >= 50.0 for c in moved)

    # Another cohort: its own members, the same active players.
    other = client.get(DRIFT, params={"cohort_year": 2010}).json()
    assert other["cohort_year"] == 2010 and [m["active_players"] for m in other["months"]] == [
        m["active_players"] for m in months
    ]
    assert other["cohort_size"] != body["cohort_size"] or other["months"] != months

    # Cached: the ETag comes back as a 304; the same bytes again.
    assert answer.headers["Cache-Control"].startswith("public")
    again = client.get(DRIFT, headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304 and again.headers["ETag"] == answer.headers["ETag"]
    assert client.get(DRIFT).content == answer.content

    # A threshold below the change flags it, and the copy before is no longer current.
    smallest = min(moved) if moved else None
    if smallest is not None and smallest > 0:
        patched = client.patch("/v1/rating-lists/rif-whr", json={"drift_threshold": smallest / 2}, headers=AUTH)
        assert patched.status_code == 200, patched.text
        assert patched.json()["drift_threshold"] == smallest / 2
        changed = client.get(DRIFT, headers={"If-None-Match": answer.headers["ETag"]})
        assert changed.status_code == 200 and changed.headers["ETag"] != answer.headers["ETag"]
        assert changed.json()["threshold"] == smallest / 2 and changed.json()["flagged"] is True
    # null: back to the system's default.
    reset = client.patch("/v1/rating-lists/rif-whr", json={"drift_threshold": None}, headers=AUTH)
    assert reset.status_code == 200 and reset.json()["drift_threshold"] is None
    assert client.get(DRIFT).json()["threshold"] == 50.0


def test_drift_refusals_are_problems(client):
    unknown = client.get("/v1/rating-lists/no-such-list/drift")
    assert unknown.status_code == 404 and unknown.headers["content-type"].startswith("application/problem+json")
    # Before any recompute the series is empty.
    empty = client.get(DRIFT)
    assert empty.status_code == 200 and empty.json()["months"] == [] and empty.json()["flagged"] is False
    for bad in ("nineteen", "0", "10000", "2014.5", ""):
        refused = client.get(DRIFT, params={"cohort_year": bad})
        assert refused.status_code == 422, (bad, refused.text)
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert any(error["pointer"] == "query:cohort_year" for error in refused.json()["errors"]), refused.json()
    for threshold in (0, -5, "fifty", 1e6):
        patched = client.patch("/v1/rating-lists/rif-whr", json={"drift_threshold": threshold}, headers=AUTH)
        assert patched.status_code == 422, (threshold, patched.text)
    # Only an officer sets it.
    assert client.patch("/v1/rating-lists/rif-whr", json={"drift_threshold": 40}).status_code == 401


def test_a_cohort_year_outside_the_series_has_no_members(client):
    # Ten players in two round robins of 2020 and 2021: 18 rated games each, active from the second.
    ids = [f"p{i}" for i in range(10)]
    players = [{"id": player_id, "name": "Player", "surname": player_id.upper()} for player_id in ids]
    for number, (day, results) in enumerate((("2020-06-06", "BWD"), ("2021-03-13", "WDB"))):
        body = tournament_body(f"T{number}", start=day, end=day, players=players, games=round_robin(ids, results * 15))
        assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201
    recompute_now(client)
    body = client.get(DRIFT).json()
    years = {int(month["month"][:4]) for month in body["months"]}
    assert body["cohort_year"] == min(years)  # a series shorter than 5 years: its first year
    inside = client.get(DRIFT, params={"cohort_year": max(years)}).json()
    assert inside["cohort_size"] > 0
    outside = client.get(DRIFT, params={"cohort_year": min(years) - 1})
    assert outside.status_code == 200
    answer = outside.json()
    assert answer["cohort_year"] == min(years) - 1 and answer["cohort_size"] == 0
    assert all(month["cohort_active"] == 0 and month["cohort_mean"] is None for month in answer["months"])
    assert [month["mean"] for month in answer["months"]] == [month["mean"] for month in body["months"]]
