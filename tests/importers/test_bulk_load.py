"""What an import on SQLite leaves to its end (app.services.bulk_load, docs/decisions.md 7.90): its
new players' search terms, written in key order when it ends, and the games' indexes by player,
dropped once the import has stored as many games as the table held and built again when it ends.
Whatever the database, an import leaves every player searchable and the schema whole; on PostgreSQL
nothing is left for later."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, event, inspect, select, text

from app import db
from app.importers.formats import FileFormat
from app.importers.source import ImportOptions, SubmissionSource
from app.models import Player, PlayerSearchTerm
from app.names import search_terms
from app.services.bulk_load import GAME_PLAYER_INDEXES
from app.services.importing import import_results_file
from tests.helpers import RENJU_CN, tournament_body

PLAYER_INDEXES = {str(index.name) for index in GAME_PLAYER_INDEXES}


@pytest.fixture
def statements() -> Iterator[list[str]]:
    """Every statement any engine runs while the test does (the import has an engine of its own on SQLite)."""
    seen: list[str] = []

    def record(_connection, _cursor, statement, _parameters, _context, _executemany) -> None:  # type: ignore[no-untyped-def]
        seen.append(statement.strip())

    event.listen(Engine, "before_cursor_execute", record)
    yield seen
    event.remove(Engine, "before_cursor_execute", record)


def _sqlite() -> bool:
    return db.get_engine().dialect.name == "sqlite"


def _game_indexes() -> set[str]:
    return {str(index["name"]) for index in inspect(db.get_engine()).get_indexes("games")}


def _terms_as_written() -> dict[str, set[tuple[str, int]]]:
    with db.session_scope() as session:
        terms: dict[str, set[tuple[str, int]]] = {}
        for player_id, term, kind in session.execute(
            select(PlayerSearchTerm.player_id, PlayerSearchTerm.term, PlayerSearchTerm.kind)
        ):
            terms.setdefault(player_id, set()).add((term, kind))
        return terms


def _terms_of_their_names() -> dict[str, set[tuple[str, int]]]:
    with db.session_scope() as session:
        players = session.execute(select(Player.id, Player.name, Player.surname, Player.native_name)).all()
    return {
        player_id: set(search_terms([(name, surname, native_name)]).items())
        for player_id, name, surname, native_name in players
        if name or surname or native_name
    }


def test_a_first_import_writes_every_player_s_terms_and_rebuilds_the_player_indexes(client: TestClient, statements: list[str]):
    """The real Chinese results (2009-2019) into an empty database: at the end, each player has the
    terms of his names, search finds one by his whole name and by the end of a word of it, and the
    games have their indexes by player again."""
    report = import_results_file(RENJU_CN)
    assert report.players_stored > 100
    dropped = [statement for statement in statements if statement.startswith("DROP INDEX")]
    assert sorted(dropped) == (sorted(f"DROP INDEX {name}" for name in PLAYER_INDEXES) if _sqlite() else [])
    assert PLAYER_INDEXES <= _game_indexes()
    assert _terms_as_written() == _terms_of_their_names()
    assert _dangling_references() == []

    hits = client.get("/v1/players", params={"q": "shicheng zha"}).json()["items"]
    assert [(hit["id"], hit["match"]) for hit in hits] == [("2487", "exact")]
    assert "2487" in [hit["id"] for hit in client.get("/v1/players", params={"q": "hicheng", "limit": 100}).json()["items"]]


def test_an_import_smaller_than_the_stored_games_keeps_the_indexes(client: TestClient, statements: list[str], tmp_path: Path):
    import_results_file(RENJU_CN)
    statements.clear()
    small = tmp_path / "small.tsv"
    small.write_text(
        "player\t90001\tNew\tComer\t\t\nplayer\t90002\tOther\tNewcomer\t\t\n"
        "tournament\t990001\tSmall Cup\t\t\t2024-01-01\t2024-01-02\t1\n"
        "game\t1\t990001\t1\t1\t90001\t90002\tB\n",
        encoding="utf-8",
    )
    report = import_results_file(small)
    assert (report.tournaments_stored, report.games_stored) == (1, 1)
    assert not [statement for statement in statements if statement.startswith("DROP INDEX")]
    assert [hit["id"] for hit in client.get("/v1/players", params={"q": "newcomer"}).json()["items"]] == ["90002"]


def _reader_of(tournaments: list[dict]) -> FileFormat:
    """A format whose reader gives these submissions (two Go tournaments in one import, which the Go
    formats, one tournament a file, never give; a game no reader would let through)."""

    def read(_path: Path, _options: ImportOptions) -> SubmissionSource:
        return SubmissionSource("submissions", len(tournaments), iter(tournaments), {})

    return FileFormat("submissions", lambda _head: True, read)


def test_a_go_tournament_finds_the_players_an_earlier_tournament_of_the_import_created(client: TestClient, tmp_path: Path):
    """A Go tournament's players are matched to stored ones by name, which reads the search terms:
    those the import left for its end are written first, so the second tournament's players are the
    first's, not new records."""
    players = [
        {"id": "ito-ken", "name": "Ken", "surname": "Ito", "country": "JPN"},
        {"id": "ode-ami", "name": "Ami", "surname": "Ode", "country": "FRA"},
    ]
    first = tournament_body(
        "go-a", category="go", players=players, games=[{"black": "ito-ken", "white": "ode-ami", "result": "B"}]
    )
    second = tournament_body(
        "go-b",
        category="go",
        start="2021-03-01",
        end="2021-03-02",
        players=[{**player, "id": player["id"] + "-again"} for player in players],
        games=[{"black": "ode-ami-again", "white": "ito-ken-again", "result": "W"}],
    )
    report = import_results_file(tmp_path / "unused", file_format=_reader_of([first, second]))
    assert (report.tournaments_stored, report.players_stored) == (2, 2), (report.rejected, report.examples)
    games = client.get("/v1/tournaments/go-b").json()["games"]
    assert [(game["black"], game["white"]) for game in games] == [("ode-ami", "ito-ken")]


def test_a_game_naming_no_stored_or_given_player_is_refused_without_the_database_s_check(client: TestClient, tmp_path: Path):
    """The import's SQLite connection does not check foreign keys (app.db): the submission service's
    own check refuses a game whose player is neither stored nor given, and stores nothing of it."""
    body = tournament_body("T1")
    body["games"][0]["white"] = "nobody"
    report = import_results_file(tmp_path / "unused", file_format=_reader_of([body, tournament_body("T2")]))
    assert report.tournaments_stored == 1
    assert report.examples["tournament refused by the submission service"] == [
        "tournament T1: /games/0/white: unknown player 'nobody': give him in players or create him first"
    ]
    assert client.get("/v1/tournaments/T1").status_code == 404
    assert _dangling_references() == []


def _dangling_references() -> list[tuple]:
    """Rows naming a row that does not exist: SQLite's own check of every foreign key, or on
    PostgreSQL (which checks each as it is written) the games' players and tournaments."""
    with db.session_scope() as session:
        if _sqlite():
            return [tuple(row) for row in session.execute(text("PRAGMA foreign_key_check"))]
        return [
            tuple(row)
            for row in session.execute(
                text(
                    "SELECT g.pk FROM games g LEFT JOIN players b ON b.id = g.black_id LEFT JOIN players w ON w.id = g.white_id"
                    " LEFT JOIN tournaments t ON t.id = g.tournament_id WHERE b.id IS NULL OR w.id IS NULL OR t.id IS NULL"
                )
            )
        ]
