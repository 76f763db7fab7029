"""A renju or gomoku tournament's rule is one of the known opening rules, whatever case or spelling
it is written in; an unknown one is refused, never stored and left unrated without a word."""

import pytest

from tests.helpers import AUTH, tournament_body


def _whr(response) -> dict:  # type: ignore[no-untyped-def]
    return next(outcome for outcome in response.json()["lists"] if outcome["id"] == "rif-whr")


@pytest.mark.parametrize(
    ("written", "stored"),
    [("rif", "RIF"), ("Renju", "RIF"), ("yamaguchi", "Yamaguchi"), ("Soosõrv 8", "Soosyrv-8"), ("taraguchi-10", "Taraguchi-10")],
)
def test_a_certified_rule_in_any_spelling_is_stored_by_its_name_and_rated(client, written, stored):
    response = client.post("/v1/tournaments", json=tournament_body(rule=written), headers=AUTH)
    assert response.status_code == 201, response.text
    assert response.json()["rule"] == stored
    assert _whr(response)["rated"] is True, _whr(response)


def test_a_gomoku_rule_on_the_renju_list_is_stored_and_said_to_be_uncertified(client):
    response = client.post("/v1/tournaments", json=tournament_body(rule="Swap 2"), headers=AUTH)
    assert response.status_code == 201 and response.json()["rule"] == "Swap2"
    assert "rule 'Swap2' is not one of the list's certified rules" in _whr(response)["reason"]


@pytest.mark.parametrize("written", ["Bogus", "RIF rule 9", "Soosyrv-N", "renju.net rule 4"])
def test_an_unknown_rule_is_a_422_naming_the_known_ones(client, written):
    response = client.post("/v1/tournaments", json=tournament_body(rule=written), headers=AUTH)
    assert response.status_code == 422
    problem = response.json()
    error = next(e for e in problem["errors"] if e["pointer"] == "/rule")
    assert "RIF, Yamaguchi, Soosyrv-N" in error["detail"] and "Swap2" in error["detail"]
    assert client.get("/v1/tournaments/T1").status_code == 404


def test_go_and_shogi_rules_stay_free_text(client):
    body = tournament_body("G1", category="go", rule="Japanese, 6.5 komi", board_size=19)
    response = client.post("/v1/tournaments", json=body, headers=AUTH)
    assert response.status_code == 201 and response.json()["rule"] == "Japanese, 6.5 komi"


def test_a_correction_canonicalises_the_rule_too(client):
    assert client.post("/v1/tournaments", json=tournament_body(rule="Yamaguchi"), headers=AUTH).status_code == 201
    response = client.put("/v1/tournaments/T1", json=tournament_body(rule="sakata"), headers=AUTH)
    assert response.status_code == 200 and response.json()["rule"] == "Sakata"


def test_migration_0018_gives_stored_rules_their_canonical_names(migration_database):  # type: ignore[no-untyped-def]
    from sqlalchemy import text

    engine, run = migration_database
    run("upgrade", "0017")
    rows = [
        ("a", "renju", "rif"),
        ("b", "renju", "soosyrv-8"),
        ("c", "gomoku", "swap2"),
        ("d", "renju", "Bogus"),
        ("e", "go", "rif"),
    ]
    with engine.begin() as connection:
        for tournament_id, category, rule in rows:
            connection.execute(
                text(
                    'INSERT INTO tournaments (id, name, category, rule, start, "end", rated, format, complete_records, '
                    "created_at, updated_at) VALUES (:id, 'T', :category, :rule, '2020-01-01', '2020-01-02', true, "
                    "'face-to-face', true, '2020-01-01', '2020-01-01')"
                ),
                {"id": tournament_id, "category": category, "rule": rule},
            )
    run("upgrade", "0018")
    with engine.connect() as connection:
        stored = dict(connection.execute(text("SELECT id, rule FROM tournaments")).all())
    assert stored == {"a": "RIF", "b": "Soosyrv-8", "c": "Swap2", "d": "Bogus", "e": "rif"}
