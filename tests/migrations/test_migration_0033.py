"""Migration 0033 adds the lists' stale mark (docs/decisions.md 7.106) and marks a list that does not
recompute itself whose inputs the revisions show changed after its current snapshot, from the first
such change; the downgrade drops the columns and keeps the lists. On a database of its own."""

import datetime as dt

from sqlalchemy import text


def _tournament(connection, tournament_id: str, category: str) -> None:  # type: ignore[no-untyped-def]
    connection.execute(
        text(
            'INSERT INTO tournaments (id, name, category, rule, start, "end", rated, format, complete_records, '
            "created_at, updated_at) VALUES (:id, :id, :category, NULL, '2020-01-01', '2020-01-02', true, "
            "'face-to-face', true, '2020-01-01', '2020-01-01')"
        ),
        {"id": tournament_id, "category": category},
    )


def _revision(connection, number: int, subject: str, subject_id: str, kind: str, at: str) -> None:  # type: ignore[no-untyped-def]
    connection.execute(
        text(
            "INSERT INTO revisions (subject, subject_id, number, kind, actor, at, summary) "
            "VALUES (:subject, :subject_id, :number, :kind, 'tester', :at, 'a change')"
        ),
        {"subject": subject, "subject_id": subject_id, "number": number, "kind": kind, "at": at},
    )


def test_a_list_changed_since_its_snapshot_is_marked_from_the_first_change(migration_database):  # type: ignore[no-untyped-def]
    engine, run = migration_database
    run("upgrade", "0032")
    with engine.begin() as connection:
        for tournament_id, category in (("before", "renju"), ("after", "renju"), ("go", "go")):
            _tournament(connection, tournament_id, category)
        connection.execute(
            text(
                "INSERT INTO rating_snapshots (id, list_id, list_date, created_at, params, players, games, tournaments, notes) "
                "VALUES (1, 'rif-elo', '2020-01-02', '2020-01-02 12:00:00', '{}', 0, 0, 0, '[]'), "
                "(2, 'rif-whr', '2020-01-02', '2020-01-02 12:00:00', '{}', 0, 0, 0, '[]')"
            )
        )
        connection.execute(text("UPDATE rating_lists SET current_snapshot_id = 1 WHERE id = 'rif-elo'"))
        connection.execute(text("UPDATE rating_lists SET current_snapshot_id = 2 WHERE id = 'rif-whr'"))
        _revision(connection, 1, "tournament", "before", "submitted", "2020-01-02 11:00:00")  # read by the snapshot
        _revision(connection, 1, "tournament", "go", "submitted", "2020-01-03 09:00:00")  # another category
        _revision(connection, 1, "tournament", "after", "submitted", "2020-01-03 10:00:00")  # the first change
        _revision(connection, 2, "tournament", "after", "corrected", "2020-01-04 10:00:00")
        _revision(connection, 1, "rating_list", "rif-elo", "seeds_changed", "2020-01-05 10:00:00")
    run("upgrade", "0033")
    with engine.connect() as connection:
        marks = {
            list_id: (since, reason, changes)
            for list_id, since, reason, changes in connection.execute(
                text("SELECT id, stale_since, stale_reason, input_changes FROM rating_lists")
            )
        }
    since, reason, changes = marks["rif-elo"]
    assert str(since).startswith("2020-01-03 10:00:00") or since == dt.datetime(2020, 1, 3, 10, tzinfo=dt.UTC)
    assert reason == "tournament after submitted (found by migration 0033)" and changes == 1
    # rif-whr recomputes itself (its submissions queued jobs); the others were never changed
    assert all(marks[list_id] == (None, None, 0) for list_id in marks if list_id != "rif-elo")
    run("downgrade", "0032")
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM rating_lists")).scalar() >= 5
        assert connection.execute(text("SELECT count(*) FROM rating_snapshots")).scalar() == 2


def test_a_list_never_computed_is_marked_from_its_first_change_and_one_not_changed_is_not(migration_database):  # type: ignore[no-untyped-def]
    engine, run = migration_database
    run("upgrade", "0032")
    with engine.begin() as connection:
        _revision(connection, 1, "rating_list", "rif-elo", "params_changed", "2020-01-05 10:00:00")
        _revision(connection, 1, "rating_list", "rif-whr", "params_changed", "2020-01-05 10:00:00")
    run("upgrade", "0033")
    with engine.connect() as connection:
        marks = dict(connection.execute(text("SELECT id, stale_reason FROM rating_lists")).all())
    assert marks["rif-elo"] == "parameters changed (found by migration 0033)"
    assert marks["rif-whr"] is None
