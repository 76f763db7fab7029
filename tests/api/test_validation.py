"""Bad input of every kind gets a 4xx problem+json with a pointer, and stores nothing."""

import pytest
from sqlalchemy import func, select

from app import db
from app.models import Game, Player, Tournament
from tests.helpers import AUTH, tournament_body


def _stored() -> tuple[int, int, int]:
    with db.session_scope() as session:
        return tuple(session.scalar(select(func.count()).select_from(m)) for m in (Tournament, Game, Player))  # type: ignore[return-value]


def _game(index: int, **changes: object):  # type: ignore[no-untyped-def]
    def mutate(body: dict) -> None:
        body["games"][index].update(changes)

    return mutate


CASES = [
    ("unknown player", _game(2, white="ghost"), 422, "/games/2/white"),
    ("player against himself", _game(1, white="p3"), 422, "/games/1/white"),
    ("duplicate game id", _game(4, id="g2"), 422, "/games/4/id"),
    ("end before start", lambda b: b.update(end="2020-04-30"), 422, "/end"),
    ("game dated outside", _game(0, date="2020-05-04"), 422, "/games/0/date"),
    ("unknown result code", _game(3, result="X"), 422, "/games/3/result"),
    ("handicap in renju", _game(1, handicap=2), 422, "/games/1/handicap"),
    ("negative handicap", _game(1, handicap=-1), 422, "/games/1/handicap"),
    ("board size for renju", _game(5, board_size=19), 422, "/games/5/board_size"),
    ("tournament board size", lambda b: b.update(board_size=9), 422, "/board_size"),
    ("unknown category", lambda b: b.update(category="chess"), 422, "/category"),
    ("bad date", lambda b: b.update(start="2020-02-30"), 422, "/start"),
    ("unknown field", _game(0, colour="black"), 422, "/games/0/colour"),
    ("player given twice", lambda b: b["players"].append({"id": "p1"}), 422, "/players/4/id"),
    ("bad country code", lambda b: b["players"][0].update(country="Atlantis"), 422, "/players/0/country"),
    ("missing games", lambda b: b.pop("games"), 422, "/games"),
    ("a game's handicap true", _game(1, handicap=True), 422, "/games/1/handicap"),
    ("a game's board size false", _game(1, board_size=False), 422, "/games/1/board_size"),
    ("a game's played 1", _game(1, played=1), 422, "/games/1/played"),
    ("a game's played 'false'", _game(1, played="false"), 422, "/games/1/played"),
]


@pytest.mark.parametrize(("case", "mutate", "status", "pointer"), CASES, ids=[c[0] for c in CASES])
def test_bad_submission_is_a_problem_with_pointer(client, case, mutate, status, pointer):
    body = tournament_body()
    mutate(body)
    response = client.post("/v1/tournaments", json=body, headers=AUTH)
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    problem = response.json()
    assert problem["status"] == status and problem["title"] and problem["detail"] and problem["type"]
    assert pointer in [e["pointer"] for e in problem["errors"]], problem
    assert _stored() == (0, 0, 0)


def test_all_errors_are_reported_at_once(client):
    body = tournament_body()
    body["games"][0]["white"] = "ghost"
    body["games"][1]["date"] = "2021-01-01"
    pointers = {e["pointer"] for e in client.post("/v1/tournaments", json=body, headers=AUTH).json()["errors"]}
    assert {"/games/0/white", "/games/1/date"} <= pointers


def test_go_ranges(client):
    body = tournament_body(category="go", board_size=19)
    body["games"][0].update(handicap=9, board_size=13)
    assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201
    body = tournament_body("T2", category="go")
    body["games"][0].update(handicap=25)
    assert client.post("/v1/tournaments", json=body, headers=AUTH).json()["errors"][0]["pointer"] == "/games/0/handicap"


def test_duplicate_tournament_is_409(client):
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    response = client.post("/v1/tournaments", json=tournament_body(name="Another"), headers=AUTH)
    assert response.status_code == 409
    assert response.json()["errors"][0]["pointer"] == "/id"
    assert client.get("/v1/tournaments/T1").json()["name"] == "Test Open"


def test_too_many_games_is_413(client, app, monkeypatch):
    from app.settings import get_settings

    monkeypatch.setattr(get_settings(), "max_games_per_tournament", 5)
    response = client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    assert response.status_code == 413
    assert response.json()["errors"][0]["pointer"] == "/games"
    assert _stored() == (0, 0, 0)


def test_body_over_the_size_limit_is_413(client):
    from app.settings import get_settings

    limit = get_settings().max_body_bytes
    body = tournament_body(name="x" * 100)
    body["rule"] = "y" * (limit + 10)
    response = client.post("/v1/tournaments", json=body, headers=AUTH)
    assert response.status_code == 413
    assert response.headers["content-type"].startswith("application/problem+json")


def test_malformed_json_is_400_not_500(client):
    """The design's 400 for a body that is not JSON (it was a 422 until issue 23 item 8)."""
    response = client.post("/v1/tournaments", content=b"{not json", headers={**AUTH, "Content-Type": "application/json"})
    assert response.status_code == 400
    assert response.headers["content-type"].startswith("application/problem+json")


def test_unknown_route_is_problem_json(client):
    response = client.get("/v1/nothing-here")
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("application/problem+json")


def _all_subclasses(model: type) -> list[type]:
    return [model, *(sub for direct in model.__subclasses__() for sub in _all_subclasses(direct))]


def test_every_model_checks_the_json_kind_of_its_numbers_and_booleans():
    """A model may narrow StrictModel's JSON-kind check to some fields (json_kinds_checked_on, GameIn):
    every field the check can refuse a value of (a number, a boolean) stays among them."""
    import app.main  # noqa: F401  (every model of the service, the rating systems' included)
    from app.schemas.common import StrictModel, _field_kinds

    for model in _all_subclasses(StrictModel):
        checked = model.__pydantic_decorators__.field_validators["_json_types_as_declared"].info.fields
        if checked == ("*",):
            continue
        for name in model.__pydantic_fields__:
            kinds = _field_kinds(model, name)
            assert kinds is not None
            refusing = kinds == {"boolean"} or ("number" in kinds and not kinds & {"boolean", "other"})
            assert not refusing or name in checked, (model.__name__, name, kinds)


@pytest.mark.parametrize("door", ["submit", "correct", "what-if"])
def test_one_422_names_the_schemas_errors_and_the_unknown_players_together(client, door):
    """Issue 44 item 4: a bad result and an unknown player, a stored player and a player against
    himself in one body: every one in the same 422, on each door a tournament body comes in by."""
    assert client.post("/v1/players", json={"id": "stored", "name": "Jaan", "surname": "Kask"}, headers=AUTH).status_code == 201
    if door == "correct":
        assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    body = tournament_body()
    body["games"][0]["result"] = "X"  # the schema's
    body["games"][1]["white"] = "ghost"  # a reference
    body["games"][2]["white"] = "stored"  # stored: no error
    body["games"][3]["black"] = body["games"][3]["white"]  # against himself
    body["games"][4]["black"] = 7  # not an id: the schema's alone
    send = {
        "submit": lambda: client.post("/v1/tournaments", json=body, headers=AUTH),
        "correct": lambda: client.put("/v1/tournaments/T1", json=body, headers=AUTH),
        "what-if": lambda: client.post("/v1/rating-lists/rif-whr/what-if", json=body, headers=AUTH),
    }[door]
    answer = send()
    assert answer.status_code == 422, answer.text
    errors = answer.json()["errors"]
    assert {e["pointer"] for e in errors} == {"/games/0/result", "/games/1/white", "/games/3/white", "/games/4/black"}, errors
    assert any("unknown player 'ghost'" in e["detail"] for e in errors)
    assert any("against himself" in e["detail"] for e in errors)
    assert _stored()[0] == (1 if door == "correct" else 0)
