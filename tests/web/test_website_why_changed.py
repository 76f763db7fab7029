"""Why his rating changed, on the player's page (issue 47 item 1): since the latest publication by
default and between any two publications or days picked in the form, the numbers, steps and
tournaments of the section equal those of `GET /v1/players/{id}/changes`, with WHR's revision of
his past told apart from his new games; in every language (the real Chinese results are checked in
tests/web/test_website.py)."""

import re

from app.web.i18n import LANGUAGES
from tests.helpers import Page, cells
from tests.rating_changes_scenario import (
    history_with_a_correction,
    shown,
    shown_difference,
    why_section,
)

EN = {"Accept-Language": "en"}


def figures(section: str) -> dict[str, str]:
    return dict(re.findall(r'data-why="(\w+)">(?:<strong>)?([^<]*)', section))


def test_the_section_between_two_publications_is_the_apis_answer_with_the_past_revised_apart(client):
    first, second = history_with_a_correction(client)
    asked = {"list": "rif-whr", "from": f"publication:{first}", "to": f"publication:{second}"}
    api = client.get("/v1/players/p1/changes", params=asked).json()
    section = why_section(client.get("/players/p1", params=asked, headers=EN).text, "rif-whr")
    shown_figures = figures(section)
    assert shown_figures == {
        "from": shown(api["from"]["rating"]),
        "to": shown(api["to"]["rating"]),
        "change": shown_difference(api["to"]["rating"], api["from"]["rating"]),
        "past_revised": shown_difference(api["past_rating_now"], api["from"]["rating"]),
        "new_games": shown_difference(api["to"]["rating"], api["past_rating_now"]),
    }
    assert shown_figures["past_revised"] != "0"  # T1 corrected and T0 withdrawn before the first publication's day
    page = Page(section)
    assert f"The later reading rates him {shown(api['past_rating_now'])} on Jun 1, 2020, where the earlier said" in page.words
    assert "From publication 1 of Jun 1, 2020 to publication 2 of Jun 1, 2021." in page.words
    # The steps: his days of T2, between the two publications.
    steps = cells(page.table("day by day"))
    assert [(row["Before"], row["After"], row["Change"]) for row in steps] == [
        (shown(s["rating_before"]), shown(s["rating_after"]), shown_difference(s["rating_after"], s["rating_before"]))
        for s in api["steps"]
    ]
    causes = {
        "games": "his games that day",
        "later_games": "his games after the later day, which Whole-History Rating already counts on it",
    }
    assert steps and [row["Why"] for row in steps] == [causes[s["cause"]] for s in api["steps"]]
    assert [row["Date"] for row in steps] == ["Mar 1, 2021", "Mar 2, 2021", "Mar 3, 2021"]  # T2's three days
    # What changed on the list in between, each tournament's own before and after (its page's, a what-if's).
    moves = {move["tournament_id"]: move for move in api["tournaments"]}
    changed = cells(page.table("Tournaments added, corrected or withdrawn"))
    assert [(row["Tournament"], row["What happened"]) for row in changed] == [
        (moves[t]["name"], how) for t, how in (("T0", "withdrawn"), ("T1", "corrected"), ("T2", "added"))
    ]
    for row, tournament_id in zip(changed, ("T0", "T1", "T2")):
        move = moves[tournament_id]
        assert (row["Games"], row["Before"], row["After"]) == (
            str(len(move["games"])),
            shown(move["rating_before"]),
            shown(move["rating_after"]),
        )
    assert "so it can differ from the rating the list showed before the tournament" in page.words
    api_link = next(link for link in page.links if link.startswith("/v1/players/"))
    assert client.get(api_link).json() == api


def test_by_default_since_the_latest_publication_and_the_form_offers_the_publications(client):
    first, second = history_with_a_correction(client)
    html = client.get("/players/p1", headers=EN).text
    section = why_section(html, "rif-whr")
    api = client.get("/v1/players/p1/changes").json()
    assert api["from"]["reference"] == f"publication:{second}" and api["to"]["reference"] == "current"
    assert figures(section)["change"] == shown_difference(api["to"]["rating"], api["from"]["rating"])
    assert "Both readings are of the same computation of the list" in Page(section).words
    options = re.findall(r'<option value="([^"]*)"', section)
    assert options == ["", f"publication:{second}", f"publication:{first}", "", f"publication:{second}", f"publication:{first}"]
    assert 'name="from_day" type="date"' in section and 'name="to_day" type="date"' in section
    # A day typed wins over the publication chosen beside it.
    typed = client.get(
        "/players/p1", params={"list": "rif-whr", "from": f"publication:{first}", "from_day": "2020-12-31"}, headers=EN
    ).text
    assert figures(why_section(typed, "rif-whr"))["from"] == shown(
        client.get("/v1/players/p1/changes", params={"from": "2020-12-31"}).json()["from"]["rating"]
    )


def test_the_section_in_every_language(client):
    history_with_a_correction(client)
    for code in LANGUAGES:
        answer = client.get("/players/p1", params={"list": "rif-whr", "from": "publication:1"}, headers={"Accept-Language": code})
        assert answer.status_code == 200, (code, answer.text[:300])
        assert 'id="why-rif-whr"' in answer.text and 'data-why="past_revised"' in answer.text
