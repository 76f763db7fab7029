"""A system is its folder (issue 43 item 4): the throwaway "coin" system, tests/systems/coin/, a folder
shaped as app/rating/<system>/ is and touching nothing else, is given its one registry line here
(monkeypatched), and a freshly created service then has its calculator endpoint, its form on the
website's calculators page, its tournament conditions validated by its own model, its list pages
and its entries in the contract. The default list a migration would insert is inserted here."""

import ast

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert

from app import db
from app.main import create_app
from app.models import RatingList
from app.rating import registry
from tests.helpers import AUTH, ROOT, recompute_now, tournament_body
from tests.systems.coin import rating_list as coin

FOLDER = ROOT / "tests" / "systems" / "coin"


@pytest.fixture
def service(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """A fresh service with the coin in the registry (its one line), and its default list."""
    monkeypatch.setitem(registry._SYSTEMS, coin.SYSTEM.id, coin.SYSTEM)
    with db.session_scope() as session:
        session.execute(
            insert(RatingList).values(
                id="coin",
                name="Coin list",
                system="coin",
                category="renju",
                params={},
                eligibility={"rated_only": True, "recognised_by": ["tossed_in_public"]},
                auto_recompute=True,
            )
        )
    with TestClient(create_app(start_worker=False)) as client:
        yield client


def test_the_folder_is_a_pure_system_folder():
    """What app/rating/system.py asks of a system's folder: no web framework, ORM, settings or I/O."""
    imported = set()
    for path in FOLDER.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
    assert not [name for name in imported if name.split(".")[0] in ("fastapi", "sqlalchemy", "starlette", "os", "io")]
    assert not [
        name for name in imported if name.startswith("app.") and not name.startswith(("app.rating", "app.schemas.common"))
    ]


def test_its_calculator_answers_and_refuses_as_every_calculator_does(service):
    answer = service.post("/v1/calc/coin/toss", json=coin.calculator.REQUESTS["two"]["value"])
    assert answer.status_code == 200 and answer.json() == {"rating_after": 1505.0, "change": 5.0, "games_counted": 2}
    refused = service.post("/v1/calc/coin/toss", json={"rating": 1500, "games": [], "options": {"fair": False}})
    assert refused.status_code == 422 and refused.json()["errors"] == [
        {"pointer": "/options/fair", "detail": "an unfair coin rates nothing"}
    ]


def test_its_form_is_drawn_from_its_request_model(service):
    page = service.get("/calculators").text
    assert 'action="/calculators/coin-toss#result"' in page and "Coin: a player's tosses" in page
    # Its fields as their kinds, labelled by their descriptions, showing the first example.
    assert 'name="rating" value="1500" type="number" min="0" max="4000" step="any"' in page
    assert "<legend>The toss's options</legend>" in page
    assert 'name="options_step" value="10" type="number" min="1" max="100" step="any"' in page
    assert '<input type="checkbox" name="options_fair" checked>' in page
    assert '<textarea id="coin-toss-games" name="games"' in page and ">ann 1\nbob 0.5 tails</textarea>" in page
    assert "<li>The opponent's id</li>" in page and "The side the player called (may be left out)" in page
    # Sent back, it is read into the request by the same description and calculated.
    query = {"rating": "1500", "games": "ann 1\nbob 1 tails\ncid 0 -", "options_step": "20", "options_fair": "on"}
    answer = service.get("/calculators/coin-toss", params=query).text
    assert "cannot be made" not in answer and "<dd>1510</dd>" in answer  # 1500 + 20 × (0.5 + 0.5 − 0.5)
    # "-" leaves out a word the record may do without (the side), not one it needs (the score).
    needed = service.get("/calculators/coin-toss", params={**query, "games": "cid - tails"}).text
    assert "<code>/games/0/score</code>: a value is needed" in needed
    # A word of a line no field takes, a score that is none, an unfair coin: each said where.
    assert "/games/0/score" in service.get("/calculators/coin-toss", params={**query, "games": "ann 2"}).text
    assert "/games/0/side" in service.get("/calculators/coin-toss", params={**query, "games": "ann 1 edge"}).text
    assert "/options/fair" in service.get("/calculators/coin-toss", params={**query, "options_fair": ""}).text


def test_its_conditions_are_its_own_document_and_its_list_rates_by_them(service):
    body = tournament_body(conditions={"coin": {"tossed_in_public": True, "coin": "euro"}})
    submitted = service.post("/v1/tournaments", json=body, headers=AUTH)
    assert submitted.status_code == 201, submitted.text
    coin_list = next(item for item in submitted.json()["lists"] if item["id"] == "coin")
    assert coin_list["rated"] is True and coin_list["job_id"] is not None
    read = service.get("/v1/tournaments/T1").json()
    assert read["conditions"]["coin"] == {"tossed_in_public": True, "coin": "euro"}
    assert read["conditions"]["eru"]["eru_calendar"] is False  # every system's document, whole
    private = tournament_body("T2")
    answer = service.post("/v1/tournaments", json=private, headers=AUTH, params={"duplicate": "intended"}).json()
    assert (
        next(item for item in answer["lists"] if item["id"] == "coin")["reason"]
        == "the tournament is marked none of: tossed_in_public"
    )
    bad = service.post("/v1/tournaments", json=tournament_body("T3", conditions={"coin": {"coin": "yen"}}), headers=AUTH)
    assert bad.status_code == 422 and [e["pointer"] for e in bad.json()["errors"]] == ["/conditions/coin/coin"]
    # Its list, rated from the public tosses only, through the API and on the website.
    job = recompute_now(service, "coin")
    assert job["result"]["notes"] == ["1 tournaments tossed"]
    rows = {row["player_id"]: row["rating"] for row in service.get("/v1/rating-lists/coin/ratings").json()["items"]}
    # By hand, a whole toss 10: p1 won, drew, lost; p2 lost twice; p3 lost and drew; p4 won thrice.
    assert rows == {"p1": 1500.0, "p2": 1490.0, "p3": 1495.0, "p4": 1515.0}
    assert service.get("/lists/coin").status_code == 200 and "Coin list" in service.get("/lists/coin").text
    assert "Coin list" in service.get("/").text
    history = service.get("/v1/players/p4/history", params={"list": "coin"}).json()["points"]
    assert [(point["date"], point["rating"]) for point in history] == [("2020-05-03", 1515.0)]
    # Its conditions the tournament's page shows, under the label its model gives.
    assert '<dt>Coin</dt><dd translate="no">euro</dd>' in service.get("/tournaments/T1").text


def test_its_contract_entries_appear(service):
    contract = service.get("/openapi.json").json()
    operation = contract["paths"]["/v1/calc/coin/toss"]["post"]
    assert operation["operationId"] == "calc_coin_toss" and operation["summary"] == "Rate a player's tosses"
    schemas = contract["components"]["schemas"]
    conditions = schemas["TournamentIn"]["properties"]["conditions"]["properties"]
    assert conditions["coin"]["$ref"] == "#/components/schemas/CoinConditions"
    assert set(schemas["CoinConditions"]["properties"]) == {"tossed_in_public", "coin"}
    assert "coin" in schemas["RatingListRead"]["properties"]["system"]["description"]
    assert "coin: start, step" in schemas["RatingListRead"]["properties"]["params"]["description"]
    assert "coin: none: a toss has no figures" in schemas["RatingChangeRead"]["properties"]["details"]["description"]
    assert "coin" in schemas["RatingChangeRead"]["properties"]["system"]["description"]
