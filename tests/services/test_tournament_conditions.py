"""A tournament's conditions: one document per system, under its id, validated by the system's own
model and stored as what differs from its defaults (docs/decisions.md 112). The Estonian fields are
taken and read at the top level too, as the contract had them; the eligibility reads the marks of
the list's system through the registry."""

from app import db
from app.models import Tournament
from tests.helpers import AUTH, tournament_body

WHOLE_DEFAULTS = {
    "eru_calendar": False,
    "referee_accepted": False,
    "international": False,
    "championship": None,
    "games_recorded": False,
    "byo_yomi": False,
}


def _stored_conditions(tournament_id: str) -> dict:  # type: ignore[type-arg]
    with db.session_scope() as session:
        tournament = session.get(Tournament, tournament_id)
        assert tournament is not None
        return dict(tournament.conditions)


def _eru_list(answer: dict) -> dict:  # type: ignore[type-arg]
    return next(item for item in answer["lists"] if item["id"] == "eru")


def test_the_document_is_stored_as_what_it_says_and_read_whole_in_both_spellings(client):
    body = tournament_body(conditions={"eru": {"eru_calendar": True, "games_recorded": True, "byo_yomi": False}})
    submitted = client.post("/v1/tournaments", json=body, headers=AUTH)
    assert submitted.status_code == 201, submitted.text
    assert _eru_list(submitted.json())["rated"] is True
    assert _stored_conditions("T1") == {"eru": {"eru_calendar": True, "games_recorded": True}}
    read = client.get("/v1/tournaments/T1").json()
    assert read["conditions"] == {"eru": {**WHOLE_DEFAULTS, "eru_calendar": True, "games_recorded": True}}
    assert (read["eru_calendar"], read["games_recorded"], read["byo_yomi"]) == (True, True, False)
    listed = client.get("/v1/tournaments").json()["items"][0]
    assert listed["conditions"] == read["conditions"] and listed["eru_calendar"] is True


def test_the_flat_spelling_and_the_document_are_one_and_the_same(client):
    flat = tournament_body(eru_calendar=True, championship="team-world-championship")
    assert client.post("/v1/tournaments", json=flat, headers=AUTH).status_code == 201
    assert _stored_conditions("T1") == {"eru": {"eru_calendar": True, "championship": "team-world-championship"}}
    # Both at once, agreeing: one document; a correction to the same conditions changes nothing.
    both = tournament_body(eru_calendar=True, conditions={"eru": {"championship": "team-world-championship"}})
    corrected = client.put("/v1/tournaments/T1", json=both, headers=AUTH)
    assert corrected.status_code == 200, corrected.text
    revisions = client.get("/v1/tournaments/T1/revisions").json()["items"]
    assert revisions[-1]["summary"].endswith("nothing changed")
    # A version is kept in the new spelling alone: what a PUT takes.
    previous = client.get(f"/v1/tournaments/T1/revisions/{revisions[-1]['number']}").json()["previous"]
    assert previous["conditions"] == {"eru": {"eru_calendar": True, "championship": "team-world-championship"}}
    assert "eru_calendar" not in previous and "championship" not in previous
    # Defaults alone are no document.
    assert client.put("/v1/tournaments/T1", json=tournament_body(eru_calendar=False), headers=AUTH).status_code == 200
    assert _stored_conditions("T1") == {}


def test_what_a_document_cannot_hold_is_a_422_pointing_into_it(client):
    def pointers(**fields: object) -> list[str]:
        response = client.post("/v1/tournaments", json=tournament_body(**fields), headers=AUTH)
        assert response.status_code == 422, response.text
        return [error["pointer"] for error in response.json()["errors"]]

    assert pointers(conditions={"eru": {"championship": "olympics"}}) == ["/conditions/eru/championship"]
    assert pointers(conditions={"eru": {"eru_calendar": 1}}) == ["/conditions/eru/eru_calendar"]
    assert pointers(conditions={"eru": {"calendar": True}}) == ["/conditions/eru/calendar"]
    assert pointers(conditions={"rivne": {}}) == ["/conditions/rivne"]  # a system that asks nothing more
    assert pointers(eru_calendar=False, conditions={"eru": {"eru_calendar": True}}) == ["/eru_calendar"]
    assert client.get("/v1/tournaments/T1").status_code == 404


def test_the_list_rates_only_what_its_systems_marks_recognise(client):
    """eru's `recognised_by` names marks of its own system's document, read in SQL and in words."""
    plain = client.post("/v1/tournaments", json=tournament_body("T1"), headers=AUTH).json()
    assert _eru_list(plain)["rated"] is False
    assert _eru_list(plain)["reason"] == "the tournament is marked none of: eru_calendar, referee_accepted, international"
    accepted = tournament_body("T2", conditions={"eru": {"referee_accepted": True}})
    answer = client.post("/v1/tournaments", json=accepted, headers=AUTH, params={"duplicate": "intended"})
    assert _eru_list(answer.json())["rated"] is True
    from app.models import RatingList
    from app.recompute import compute

    with db.session_scope() as session:
        eru_list = session.get(RatingList, "eru")
        assert eru_list is not None
        rated = compute.stored_tournaments(session, eru_list)
    assert [t.id for t in rated] == ["T2"]
    # The replay reads the document's fields among the tournament's, its defaults filled in.
    assert rated[0].fields["referee_accepted"] is True and rated[0].fields["eru_calendar"] is False
    assert "conditions" not in rated[0].fields
