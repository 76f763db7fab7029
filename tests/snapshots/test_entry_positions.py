"""Each entry's stored place in its list (migration 0026, app/snapshots/entry_positions.py): every page
of the stored list, whole or of one status, is the slice of the list as ordered by rating, then player
id by code point, after submissions, a correction, a withdrawal and a restore; it agrees with the list
computed from the snapshot's points on its own date; and the migration fills it in for stored
snapshots."""

import datetime as dt

from sqlalchemy import text

from tests.helpers import AUTH, recompute_now, tournament_body

LIST_DATE = dt.date(2021, 1, 1)
# Two players of one draw only: the same rating, so the order between them is the player ids' ("Zed"
# before "anna" by code point, after it in a dictionary's order).
PAIR = tournament_body(
    "T2",
    start="2020-06-01",
    end="2020-06-01",
    players=[{"id": "anna", "name": "Anna"}, {"id": "Zed", "name": "Zed"}],
    games=[{"black": "anna", "white": "Zed", "result": "D"}],
)


def _whole(client, **params):  # type: ignore[no-untyped-def]
    response = client.get("/v1/rating-lists/rif-whr/ratings", params={"limit": 500, **params})
    assert response.status_code == 200, response.text
    return response.json()


def _check_every_page(client) -> list[dict]:  # type: ignore[no-untyped-def]
    """Every page of every status equals its slice of the list sorted here; the whole list's rows."""
    whole = _whole(client, status="all")
    rows = whole["items"]
    assert [(row["player_id"]) for row in rows] == [
        row["player_id"] for row in sorted(rows, key=lambda row: (-row["rating"], row["player_id"]))
    ]
    for status in ("all", "active", "inactive", "provisional"):
        expected = [row for row in rows if status == "all" or row["status"] == status]
        assert _whole(client, status=status)["total"] == len(expected)
        for offset in range(len(expected) + 1):
            page = _whole(client, status=status, limit=2, offset=offset)
            assert [(row["rank"], row["player_id"]) for row in page["items"]] == [
                (rank, row["player_id"]) for rank, row in enumerate(expected, start=1)
            ][offset : offset + 2]
            assert page["total"] == len(expected)
    # The same list computed from the snapshot's points on its own date ranks everybody alike.
    computed = _whole(client, status="all", as_of=LIST_DATE.isoformat())["items"]
    assert [(row["rank"], row["player_id"]) for row in computed] == [(row["rank"], row["player_id"]) for row in rows]
    return rows


def test_pages_follow_the_stored_places_through_corrections_and_withdrawals(client):  # type: ignore[no-untyped-def]
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    assert client.post("/v1/tournaments", json=PAIR, headers=AUTH).status_code == 201
    recompute_now(client, list_date=LIST_DATE)
    rows = _check_every_page(client)
    assert [row["player_id"] for row in rows if row["player_id"] in ("anna", "Zed")] == ["Zed", "anna"]
    assert (
        next(row for row in rows if row["player_id"] == "Zed")["rating"]
        == next(r for r in rows if r["player_id"] == "anna")["rating"]
    )

    corrected = tournament_body(
        games=[{"black": "p4", "white": "p1", "result": "B"}, {"black": "p2", "white": "p3", "result": "W"}]
    )
    assert client.put("/v1/tournaments/T1", json=corrected, headers=AUTH).status_code == 200
    recompute_now(client, list_date=LIST_DATE)
    assert {row["player_id"] for row in _check_every_page(client)} == {"p1", "p2", "p3", "p4", "anna", "Zed"}

    assert client.delete("/v1/tournaments/T2", params={"reason": "entered twice"}, headers=AUTH).status_code == 200
    recompute_now(client, list_date=LIST_DATE)
    assert {row["player_id"] for row in _check_every_page(client)} == {"p1", "p2", "p3", "p4"}

    assert client.post("/v1/tournaments/T2/restore", headers=AUTH).status_code == 200
    recompute_now(client, list_date=LIST_DATE)
    assert len(_check_every_page(client)) == 6


def test_the_migration_places_the_stored_entries_and_its_downgrade_keeps_them(migration_database):  # type: ignore[no-untyped-def]
    engine, run = migration_database
    run("upgrade", "0024")
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO rating_snapshots (id, list_id, list_date, params, players, games, tournaments, notes) "
                "VALUES (1, 'rif-whr', '2020-01-02', '{}', 4, 2, 1, '[]'), (2, 'rif-whr', '2020-01-03', '{}', 1, 0, 0, '[]')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO rating_entries (snapshot_id, player_id, rating, games, status) VALUES "
                "(1, 'anna', 1900.0, 1, 'active'), (1, 'Zed', 1900.0, 1, 'active'), (1, 'c', 2000.0, 1, 'provisional'), "
                "(1, 'd', 1800.0, 1, 'provisional'), (2, 'x', 1500.0, 0, 'active')"
            )
        )
    run("upgrade", "0026")
    with engine.connect() as connection:
        placed = connection.execute(
            text("SELECT snapshot_id, player_id, position, status_position FROM rating_entries ORDER BY snapshot_id, position")
        ).all()
    assert [tuple(row) for row in placed] == [
        (1, "c", 1, 1),
        (1, "Zed", 2, 1),
        (1, "anna", 3, 2),
        (1, "d", 4, 2),
        (2, "x", 1, 1),
    ]
    run("downgrade", "0025")
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM rating_entries")).scalar() == 5
