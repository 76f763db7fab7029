"""A tournament field is declared once (issue 43 item 5, docs/decisions.md 113): ``venue``, the hall or
club a tournament was played in, declared in ``TournamentDetails`` (and given its column and its
migration), reaches the submission, the stored row, every read, the revisions, the what-if, the
website's tournament page in each language and the contract, with nothing else written for it."""

from sqlalchemy import select

from app import db
from app.models import RatingList, Tournament
from app.recompute import compute
from app.schemas.tournaments import STORED_FIELDS, TournamentDetails, TournamentIn, TournamentSummary
from app.web.pages import TOURNAMENT_FACTS
from tests.helpers import AUTH, recompute_now, tournament_body

VENUE = "Tallinn Chess Club"


def test_every_declared_field_reaches_the_row_the_read_and_the_page():
    """What makes one declaration enough: each field of the declarations has its column, its place
    in the stored fields, the submission and the read, and its label on the page when marked Shown."""
    declared = [name for name in TournamentDetails.model_fields if name != "id"]
    columns = {column.name for column in Tournament.__table__.c}
    assert "venue" in declared and set(declared) <= columns
    assert set(declared) <= set(STORED_FIELDS) and set(declared) <= set(TournamentSummary.model_fields)
    assert set(declared) <= set(TournamentIn.model_fields)
    assert ("venue", "Venue") in TOURNAMENT_FACTS


def test_the_venue_is_stored_read_kept_and_shown(client):
    body = tournament_body(venue=VENUE)
    assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201
    with db.session_scope() as session:
        assert session.scalar(select(Tournament.venue).where(Tournament.id == "T1")) == VENUE
    assert client.get("/v1/tournaments/T1").json()["venue"] == VENUE
    assert client.get("/v1/tournaments").json()["items"][0]["venue"] == VENUE
    # A correction keeps the version it replaced, the venue in it, and says what changed.
    moved = tournament_body(venue="Tartu Renju Club")
    assert client.put("/v1/tournaments/T1", json=moved, headers=AUTH).status_code == 200
    revision = client.get("/v1/tournaments/T1/revisions").json()["items"][-1]
    assert "venue 'Tallinn Chess Club' → 'Tartu Renju Club'" in revision["summary"]
    assert client.get(f"/v1/tournaments/T1/revisions/{revision['number']}").json()["previous"]["venue"] == VENUE
    # The website's tournament page, in English and in Russian.
    assert '<dt>Venue</dt><dd translate="no">Tartu Renju Club</dd>' in client.get("/tournaments/T1").text
    russian = client.get("/tournaments/T1", headers={"Accept-Language": "ru"}).text
    assert '<dt>Место проведения</dt><dd translate="no">Tartu Renju Club</dd>' in russian


def test_a_venue_is_one_line_of_display_text(client):
    for venue, pointer in (("Hall\nB", "/venue"), ("x" * 201, "/venue")):
        refused = client.post("/v1/tournaments", json=tournament_body(venue=venue), headers=AUTH)
        assert refused.status_code == 422 and pointer in [error["pointer"] for error in refused.json()["errors"]]
    assert client.get("/v1/tournaments/T1").status_code == 404
    # Left out, it is null, and the page shows no venue.
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    assert client.get("/v1/tournaments/T1").json()["venue"] is None
    assert "<dt>Venue</dt>" not in client.get("/tournaments/T1").text


def test_the_what_if_takes_it_and_an_unset_field_is_no_input_of_a_recompute(client):
    what_if = client.post("/v1/rating-lists/rif-whr/what-if", json=tournament_body(venue=VENUE))
    assert what_if.status_code == 200, what_if.text
    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    client.post("/v1/tournaments", json=tournament_body("T2", venue=VENUE), headers=AUTH, params={"duplicate": "intended"})
    with db.session_scope() as session:
        whr_list = session.get(RatingList, "rif-whr")
        assert whr_list is not None
        fields = {t.id: t.fields for t in compute.stored_tournaments(session, whr_list)}
    # A field without a value is not handed over, so a column just added changes no snapshot's digest.
    assert "venue" not in fields["T1"] and fields["T2"]["venue"] == VENUE
    assert recompute_now(client)["status"] == "succeeded"
