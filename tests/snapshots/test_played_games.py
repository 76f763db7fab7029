"""The played games a recompute reads (table ``played_games``, one value per tournament,
docs/decisions.md 7.67) are what the games' rows say after every kind of change: after each
submission, correction, withdrawal, restore, review decision, merge, unmerge and CLI import, the
columnar read equals the read of the rows (``compute.eligible_games_from_rows``, the reader of
the rows, which ``verify`` uses) and the snapshot written through HTTP records the digest of the rows' inputs. On the
suite's database (SQLite, or PostgreSQL when DATABASE_URL names it)."""

import numpy as np
import pytest
from fastapi.testclient import TestClient

from app import db
from app.models import RatingList
from app.recompute import compute, provenance
from tests.helpers import AUTH, cli_import_renju_cn, recompute_now, tournament_body

CONFIRM = {"decision": "confirm", "reason": "crosstable checked"}
REJECT = {"decision": "reject", "reason": "not an open tournament"}


def assert_the_values_give_the_rows(client: TestClient, rated: int) -> None:
    """The columnar read equals the rows' read, and a recompute through HTTP records their digest."""
    with db.session_scope() as session:
        rating_list = session.get(RatingList, "rif-whr")
        assert rating_list is not None
        expected_tournaments, expected = compute.eligible_games_from_rows(session, rating_list)
        tournaments, columns = compute.eligible_games(session, rating_list)
    assert [t.id for t in tournaments] == [t.id for t in expected_tournaments] and len(tournaments) == rated
    assert [(t.fields, t.participants) for t in tournaments] == [(t.fields, t.participants) for t in expected_tournaments]
    assert columns.player_ids == expected.player_ids
    for name in ("black", "white", "black_score", "day", "tournament"):
        np.testing.assert_array_equal(getattr(columns, name), getattr(expected, name), err_msg=name)
        assert getattr(columns, name).dtype == getattr(expected, name).dtype, name
    job = recompute_now(client)
    snapshot = client.get(f"/v1/rating-lists/rif-whr/snapshots/{job['result']['snapshot_id']}").json()
    assert snapshot["tournaments"] == rated and snapshot["games"] == len(expected)
    assert snapshot["inputs_digest"] == provenance.inputs_digest(expected_tournaments, expected, [])


def _body(tournament_id: str, start: str, **overrides: object) -> dict:
    body = tournament_body(tournament_id, start=start, end=start, **overrides)
    for game in body["games"]:
        game.pop("date", None)  # on the tournament's last day
    return body


@pytest.mark.slow
def test_the_stored_values_follow_every_change_of_the_games(client: TestClient) -> None:
    cli_import_renju_cn()  # 59 tournaments through the importer
    assert_the_values_give_the_rows(client, 59)

    body = _body("NEW", "2021-02-01")
    body["games"][0]["played"] = False  # a walkover: stored, never in the value
    assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201
    assert_the_values_give_the_rows(client, 60)

    corrected = _body("NEW", "2021-02-01")
    corrected["games"] = [{**game, "result": "W"} for game in reversed(corrected["games"])][:-1]
    corrected["games"].append({"round": "9", "black": "p4", "white": "p3", "result": "D"})
    assert client.put("/v1/tournaments/NEW", json=corrected, headers=AUTH).status_code == 200
    assert_the_values_give_the_rows(client, 60)

    walkovers = _body("NEW", "2021-02-01")
    for game in walkovers["games"]:
        game["played"] = False  # no played game left: the tournament has no value and is not rated
    assert client.put("/v1/tournaments/NEW", json=walkovers, headers=AUTH).status_code == 200
    assert_the_values_give_the_rows(client, 59)
    assert client.put("/v1/tournaments/NEW", json=corrected, headers=AUTH).status_code == 200

    assert client.delete("/v1/tournaments/NEW", params={"reason": "a test"}, headers=AUTH).status_code == 200
    assert_the_values_give_the_rows(client, 59)
    assert client.post("/v1/tournaments/NEW/restore", headers=AUTH).status_code == 200
    assert_the_values_give_the_rows(client, 60)

    assert client.patch("/v1/rating-lists/rif-whr", json={"requires_review": True}, headers=AUTH).status_code == 200
    for tournament_id, start in (("KEPT", "2021-03-01"), ("DROPPED", "2021-04-01")):
        assert client.post("/v1/tournaments", json=_body(tournament_id, start), headers=AUTH).status_code == 201
    assert_the_values_give_the_rows(client, 60)  # both pending
    assert client.post("/v1/rating-lists/rif-whr/reviews/KEPT", json=CONFIRM, headers=AUTH).status_code == 200
    assert client.post("/v1/rating-lists/rif-whr/reviews/DROPPED", json=REJECT, headers=AUTH).status_code == 200
    assert_the_values_give_the_rows(client, 61)

    second = _body("SECOND", "2021-05-01")
    second["players"][0] = {"id": "p1b", "name": "Ants", "surname": "Soosorv"}
    for game in second["games"]:
        for side in ("black", "white"):
            game[side] = "p1b" if game[side] == "p1" else game[side]
    assert client.post("/v1/tournaments", json=second, headers=AUTH).status_code == 201
    assert client.post("/v1/rating-lists/rif-whr/reviews/SECOND", json=CONFIRM, headers=AUTH).status_code == 200
    assert_the_values_give_the_rows(client, 62)
    assert client.post("/v1/players/p1b/merge", json={"into": "p1"}, headers=AUTH).status_code == 200
    assert_the_values_give_the_rows(client, 62)
    assert client.post("/v1/players/p1b/unmerge", headers=AUTH).status_code == 200
    assert_the_values_give_the_rows(client, 62)


def test_an_empty_list_reads_no_games(client: TestClient) -> None:
    assert_the_values_give_the_rows(client, 0)
