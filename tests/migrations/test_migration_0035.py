"""Migration 0035 moves the Estonian conditions out of the tournaments' shared columns into the
tournament's document of the eru system, ``conditions.eru``, as the service stores it (what differs
from the defaults), and the downgrade puts the columns back with the document's values
(docs/decisions.md 112). On a database of its own; the stored tournaments then read and rate as before."""

import json

from sqlalchemy import text

FLAGS = ("eru_calendar", "referee_accepted", "international", "games_recorded", "byo_yomi")


def _tournament(connection, tournament_id: str, **conditions: object) -> None:  # type: ignore[no-untyped-def]
    columns = {flag: False for flag in FLAGS} | {"championship": None} | conditions
    connection.execute(
        text(
            'INSERT INTO tournaments (id, name, category, rule, start, "end", rated, format, complete_records, '
            f"created_at, updated_at, {', '.join(columns)}) VALUES (:id, :id, 'renju', 'RIF', '2020-01-01', "
            f"'2020-01-02', true, 'face-to-face', true, '2020-01-01', '2020-01-01', {', '.join(':' + c for c in columns)})"
        ),
        {"id": tournament_id, **columns},
    )


def _conditions(value: object) -> object:
    return json.loads(value) if isinstance(value, str) else value  # (SQLite gives the JSON text)


def test_the_estonian_columns_become_the_eru_document_and_come_back(migration_database):  # type: ignore[no-untyped-def]
    engine, run = migration_database
    run("upgrade", "0033")
    with engine.begin() as connection:
        _tournament(connection, "calendar", eru_calendar=True, games_recorded=True)
        _tournament(connection, "worlds", international=True, championship="team-world-championship", byo_yomi=True)
        _tournament(connection, "club")  # stated none of them
    run("upgrade", "0035")
    with engine.connect() as connection:
        stored = {tid: _conditions(value) for tid, value in connection.execute(text("SELECT id, conditions FROM tournaments"))}
        names = set(connection.execute(text("SELECT * FROM tournaments")).keys())
    assert stored == {
        "calendar": {"eru": {"eru_calendar": True, "games_recorded": True}},
        "worlds": {"eru": {"international": True, "byo_yomi": True, "championship": "team-world-championship"}},
        "club": {},
    }
    assert not names & {*FLAGS, "championship"} and "conditions" in names
    run("downgrade", "0033")
    with engine.connect() as connection:
        rows = {
            tid: (flags, championship)
            for tid, *flags, championship in connection.execute(
                text(f"SELECT id, {', '.join(FLAGS)}, championship FROM tournaments")
            )
        }
    assert {tid: ([bool(flag) for flag in flags], championship) for tid, (flags, championship) in rows.items()} == {
        "calendar": ([True, False, False, True, False], None),
        "worlds": ([False, False, True, False, True], "team-world-championship"),
        "club": ([False] * 5, None),
    }


def test_the_service_reads_the_moved_conditions_as_it_read_the_columns(client):  # type: ignore[no-untyped-def]
    """What a stored tournament said of the ERU conditions reads back in both spellings, and rates."""
    from tests.helpers import AUTH, tournament_body

    body = tournament_body(eru_calendar=True, championship="world-championship-at")
    assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201
    read = client.get("/v1/tournaments/T1").json()
    assert read["conditions"]["eru"] == {
        "eru_calendar": True,
        "referee_accepted": False,
        "international": False,
        "championship": "world-championship-at",
        "games_recorded": False,
        "byo_yomi": False,
    }
    assert (read["eru_calendar"], read["championship"]) == (True, "world-championship-at")
