"""Migration 0027 indexes tournaments by (category, end), which the repeat check's look-up of the
stored tournaments a new one may overlap reads as a range (on SQLite the planner took the category's
index alone and read every tournament of the category); the downgrade restores the category's
index. On a database of its own (the migration_database fixture)."""

from datetime import date

from sqlalchemy import inspect, select, text

from app.models import Tournament
from app.services.tournaments import overlapping_stored


def _indexes(engine) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    return {index["name"]: index["column_names"] for index in inspect(engine).get_indexes("tournaments")}


def test_tournaments_are_indexed_by_category_and_end_and_the_downgrade_restores_the_category_s(migration_database):  # type: ignore[no-untyped-def]
    engine, run = migration_database
    run("upgrade", "0026")
    with engine.begin() as connection:
        connection.execute(
            text(
                'INSERT INTO tournaments (id, name, category, rule, start, "end", rated, format, complete_records, '
                "created_at, updated_at) VALUES ('t', 'T', 'renju', NULL, '2020-01-01', '2020-01-02', true, "
                "'face-to-face', true, '2020-01-01', '2020-01-01')"
            )
        )
    run("upgrade", "0027")
    indexes = _indexes(engine)
    assert indexes["ix_tournaments_category_end"] == ["category", "end"]
    assert "ix_tournaments_category" not in indexes
    if engine.dialect.name == "sqlite":
        candidates = overlapping_stored("renju", date(2020, 1, 1), date(2020, 1, 2)).compile(engine)
        with engine.connect() as connection:
            plan = connection.exec_driver_sql(
                f"EXPLAIN QUERY PLAN {candidates}", tuple("2020-01-01" for _ in candidates.positiontup or ())
            ).all()
        assert any("ix_tournaments_category_end (category=? AND end>?)" in row[-1] for row in plan), plan
    run("downgrade", "0026")
    indexes = _indexes(engine)
    assert indexes["ix_tournaments_category"] == ["category"] and "ix_tournaments_category_end" not in indexes
    with engine.connect() as connection:
        assert connection.execute(select(Tournament.id).where(Tournament.category == "renju")).scalars().all() == ["t"]
