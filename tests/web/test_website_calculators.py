"""The calculators on the website and the figures behind a tournament's changes (issue 25 item 5):
a form per system sent with GET, no JavaScript; the answer shows the rule's figures."""

import math
import re

import pytest
from markupsafe import escape

from app.web.calculators import forms
from tests.helpers import AUTH, recompute_now

FORMS = forms()  # the forms of the registered calculators, each drawn from its request model

GO = {
    "id": "G1",
    "name": "Club evening",
    "category": "go",
    "start": "2020-05-01",
    "end": "2020-05-01",
    "board_size": 19,
    "players": [
        {"id": "g1", "name": "A", "rank": "2k"},
        {"id": "g2", "name": "B", "rank": "1d"},
        {"id": "g3", "name": "C", "rank": "5k"},
    ],
    "games": [
        {"round": "1", "black": "g1", "white": "g2", "result": "B", "handicap": 3},
        {"round": "2", "black": "g3", "white": "g1", "result": "W"},
    ],
}


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_calculators_page_has_a_form_per_system_and_no_script(client):
    response = client.get("/calculators")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    page = response.text
    assert "<script" not in page
    for form in FORMS:
        assert f'action="/calculators/{form.slug}#result"' in page and 'method="get"' in page


@pytest.mark.parametrize("form", FORMS, ids=lambda form: form.slug)
def test_each_forms_example_calculates(client, form):
    query = {field.name: field.default for field in form.fields if field.kind != "checkbox" or field.default == "on"}
    page = client.get(f"/calculators/{form.slug}", params=query).text
    assert "cannot be made" not in page, text(page)[:2000]
    assert f'id="result">{form.title}' in page


def test_one_go_game_shows_the_rules_figures(client):
    query = {"rating": "1500", "opponent_rating": "1600", "score": "1", "board_size": "19", "handicap": "0"}
    words = text(client.get("/calculators/rivne-game", params=query).text)
    # By hand: a = 205 − 1500/20 = 130, SE(A) = 1/(e^(100/130) + 1), K1(1500) = 47, K2 = 0.032;
    # the change 47(1 − SE + 0.032), shown to six decimals.
    se = 1 / (math.exp(100 / 130) + 1)
    assert f"SE {se:.6f}" in words and "a 130" in words and "K1 47" in words and "K2 0.032" in words
    assert f"change {47 * (1 - se + 0.032):.6f}".rstrip("0") in words
    # What was typed stays in the form.
    assert 'name="rating" value="1500"' in client.get("/calculators/rivne-game", params=query).text


def test_a_form_the_rules_refuse_says_where(client):
    query = {"rating": "1500", "opponent_rating": "1600", "score": "1", "board_size": "19", "handicap": "3"}
    page = client.get("/calculators/rivne-game", params=query).text
    assert "cannot be made" in page and "/rank" in page and "/colour" in page
    assert "cannot be made" in client.get("/calculators/whr", params={"games": "a b B"}).text  # a date is missing
    assert client.get("/calculators/no-such").status_code == 404
    # Numbers that are no figure (nan, inf) never make a server error; where the form reads one, the
    # field is named (a board is 19, 13 or 9 whatever else is sent).
    game = {"rating": "1500", "opponent_rating": "1600", "score": "1", "board_size": "19", "handicap": "0"}
    for value in ("inf", "nan"):
        assert client.get("/calculators/rivne-game", params={**game, "board_size": value}).status_code == 200
        handicap = client.get("/calculators/rivne-game", params={**game, "handicap": value}).text
        assert "cannot be made" in handicap and "/handicap" in handicap
        norms = client.get("/calculators/eru-norms", params={"rank": "9k", "games": "9k 1", "time_control_minutes": value}).text
        assert "cannot be made" in norms and "/time_control_minutes" in norms


def test_a_tournaments_figures_are_a_page_of_their_own(client):
    assert client.post("/v1/tournaments", json=GO, headers=AUTH).status_code == 201
    recompute_now(client, "rivne")
    page = client.get("/tournaments/G1").text
    assert 'href="/tournaments/G1/lists/rivne/figures"' in page
    figures = client.get("/tournaments/G1/lists/rivne/figures")
    assert figures.status_code == 200
    changes = [c for c in client.get("/v1/tournaments/G1").json()["rating_changes"] if c["list_id"] == "rivne"]
    assert len(changes) == 3
    words = text(figures.text)
    for change in changes:
        for game in change["details"]["games"]:
            if game["SE"] is not None:
                assert f"{game['SE']:.6f}".rstrip("0") in words
    assert 'href="/tournaments/G1/lists/rivne/figures#player-g1"' in client.get("/players/g1").text
    assert 'id="player-g1"' in figures.text
    assert '<th scope="col">SE</th>' in figures.text and '<th scope="col">limit</th>' in figures.text


# Issue 26 item 5: the calculators and the figures read in the reader's language, rule symbols kept.
READERS = {
    "ru": {"heading": "Калькуляторы", "refused": "Расчёт невозможен:", "change": "изменение", "back": "Назад к турниру"},
    "zh": {"heading": "计算器", "refused": "无法计算：", "change": "变化", "back": "返回赛事"},
}


def english_words_shown(page: str) -> list[str]:
    """The forms' English titles, sentences, labels, hints and choices (those with words: a board's
    19×19 has none) that the page shows as an element's whole text, escaped or not."""
    elements = page.replace("> ", ">").replace(" <", "<")
    shown = []
    for form in FORMS:
        texts = [form.title, form.rule]
        for field in form.fields:
            texts += [field.label, field.hint, *(text for _, text in field.choices)]
        shown += [
            text
            for text in texts
            if any(c.isalpha() for c in text) and (f">{text}<" in elements or f">{escape(text)}<" in elements)
        ]
    return shown


@pytest.mark.parametrize("language", READERS)
def test_the_calculators_page_reads_in_russian_and_chinese(client, language):
    words = READERS[language]
    headers = {"Accept-Language": language}
    page = client.get("/calculators", headers=headers).text
    assert f"<h1>{words['heading']}</h1>" in page
    assert english_words_shown(page) == []
    assert "Calculate" not in page and "Each rule system" not in page
    # An answer: the figures' names in words translated, the rule text's symbols as they are.
    query = {"rating": "1500", "opponent_rating": "1600", "score": "1", "board_size": "19", "handicap": "0"}
    answer = client.get("/calculators/rivne-game", params=query, headers=headers).text
    assert english_words_shown(answer) == []
    assert f"<dt>{words['change']}</dt>" in answer and "<dt>change</dt>" not in answer
    assert "<dt>SE</dt>" in answer and "<dt>K1</dt>" in answer and "<dt>ΔR</dt>" in answer
    assert "<dt>rating_before</dt>" not in answer and "<dt>start_rating</dt>" not in answer
    # What the form cannot read is said in the reader's language too.
    refused = client.get("/calculators/whr", params={"games": "a b B"}, headers=headers).text
    assert words["refused"] in refused and "cannot be made" not in refused and "as the example shows" not in refused
    not_a_number = client.get(
        "/calculators/rif-elo-game", params={"rating": "x", "opponent_rating": "2200", "score": "1"}, headers=headers
    )
    assert "/rating" in not_a_number.text and "Input should be" not in not_a_number.text


@pytest.mark.parametrize("language", READERS)
def test_a_figures_page_reads_in_russian_and_chinese(client, language):
    assert client.post("/v1/tournaments", json=GO, headers=AUTH).status_code == 201
    recompute_now(client, "rivne")
    words = READERS[language]
    page = client.get("/tournaments/G1/lists/rivne/figures", headers={"Accept-Language": language}).text
    assert words["back"] in page and "Back to the tournament" not in page
    assert '<th scope="col">SE</th>' in page and '<th scope="col">limit</th>' not in page
    assert f'<th scope="col">{words["change"]}</th>' in page
    for english in ("<dt>Before</dt>", "<dt>After</dt>", "<dt>Change</dt>", "<dt>start_rating</dt>", "Figures of"):
        assert english not in page
