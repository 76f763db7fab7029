"""Migration 0021 stores every country as its IOC code (players and tournaments), gives every player
his folded search key and search terms, and its downgrade leaves the players and tournaments. On a
database of its own (the migration_database fixture)."""

from sqlalchemy import text


def test_countries_become_ioc_codes_and_players_become_searchable(migration_database):  # type: ignore[no-untyped-def]
    engine, run = migration_database
    run("upgrade", "0020")
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO players (id, name, surname, native_name, country) VALUES "
                "('a', 'Ants', 'Soosõrv', NULL, 'EST'), ('b', 'Fan', 'Hui', NULL, 'FR'), "
                "('c', 'Qingqing', 'Wang', '汪清清', 'CHN'), ('d', NULL, NULL, NULL, 'ZZ'), ('e', 'Jan', 'Ertl', NULL, 'DEU')"
            )
        )
        connection.execute(
            text(
                'INSERT INTO tournaments (id, name, category, rule, start, "end", country, rated, format, complete_records, '
                "created_at, updated_at) VALUES ('t', 'T', 'go', NULL, '2020-01-01', '2020-01-02', 'DE', true, 'face-to-face', "
                "true, '2020-01-01', '2020-01-01')"
            )
        )
    run("upgrade", "0021")
    with engine.connect() as connection:
        countries = dict(connection.execute(text("SELECT id, country FROM players")).all())
        assert countries == {"a": "EST", "b": "FRA", "c": "CHN", "d": "ZZ", "e": "GER"}  # ZZ: unknown, left as it was
        assert connection.execute(text("SELECT country FROM tournaments")).scalar() == "GER"
        keys = dict(connection.execute(text("SELECT id, search_key FROM players")).all())
        assert keys["a"] == "|ants soosorv|soosorv ants|" and keys["d"] == ""
        terms = connection.execute(text("SELECT term, player_id, kind FROM player_search_terms WHERE player_id = 'c'")).all()
        assert ("汪清清", "c", 0) in terms and ("wang", "c", 1) in terms and ("ang", "c", 2) in terms
    run("downgrade", "0020")
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM players")).scalar() == 5
        assert connection.execute(text("SELECT count(*) FROM tournaments")).scalar() == 1
