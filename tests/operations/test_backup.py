"""Backups of the embedded SQLite database by SQLite's backup API (`python -m app.cli backup FILE` /
`restore FILE`, README "Run in production"), on a database file of their own whatever the suite runs
on; a PostgreSQL database is refused with the pg_dump way."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from app.backup import BackupRefused, backup, restore
from app.schema_migrations import head_revisions, migrate
from tests.helpers import ROOT


@pytest.fixture
def database(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'var' / 'rating.sqlite3'}"
    migrate(url)
    return url


def players(url: str) -> list[str]:
    engine = create_engine(url)
    with engine.connect() as connection:
        found = list(connection.execute(text("SELECT id FROM players ORDER BY id")).scalars())
    engine.dispose()
    return found


def write(url: str, statement: str) -> None:
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text(statement))
    engine.dispose()


def test_a_backup_restores_the_database_as_it_was(database: str, tmp_path: Path):
    write(database, "INSERT INTO players (id, name) VALUES ('p1', 'Ants')")
    target = tmp_path / "backups" / "rating-1.sqlite3"
    assert backup(database, target) > 0
    write(database, "DELETE FROM players")
    write(database, "INSERT INTO players (id, name) VALUES ('p2', 'Ando')")
    assert players(database) == ["p2"]
    assert restore(database, target) == ", ".join(head_revisions())
    assert players(database) == ["p1"]


def test_a_backup_taken_while_a_writer_is_open_holds_only_what_was_committed(database: str, tmp_path: Path):
    write(database, "INSERT INTO players (id, name) VALUES ('committed', 'A')")
    engine = create_engine(database)
    with engine.connect() as writer:
        writer.execute(text("INSERT INTO players (id, name) VALUES ('uncommitted', 'B')"))  # open, not committed
        target = tmp_path / "during-a-write.sqlite3"
        backup(database, target)
        writer.rollback()
    engine.dispose()
    assert players(f"sqlite:///{target}") == ["committed"]


def test_backup_and_restore_refuse_what_they_cannot_do(database: str, tmp_path: Path):
    target = tmp_path / "taken.sqlite3"
    target.write_text("someone's file")
    with pytest.raises(BackupRefused, match="exists already"):
        backup(database, target)
    assert target.read_text() == "someone's file"
    write(database, "INSERT INTO players (id, name) VALUES ('kept', 'K')")
    with pytest.raises(BackupRefused, match="not a backup of this service"):
        restore(database, target)
    assert players(database) == ["kept"]  # untouched
    with pytest.raises(BackupRefused, match="pg_dump"):
        backup("postgresql+psycopg://postgres@127.0.0.1:5432/rating", tmp_path / "pg.sqlite3")


@pytest.mark.slow  # CLI subprocesses
def test_the_commands_back_up_and_restore_the_database_database_url_names(database: str, tmp_path: Path):
    write(database, "INSERT INTO players (id, name) VALUES ('p1', 'Ants')")
    environment = {**os.environ, "DATABASE_URL": database}
    target = tmp_path / "cli-backup.sqlite3"

    def cli(*arguments: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "app.cli", *arguments], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120
        )

    made = cli("backup", str(target))
    assert made.returncode == 0 and f"into {target}" in made.stdout, made.stderr
    assert cli("backup", str(target)).returncode == 1  # never overwrites
    write(database, "DELETE FROM players")
    restored = cli("restore", str(target))
    assert restored.returncode == 0 and "restored" in restored.stdout, restored.stderr
    assert players(database) == ["p1"]
