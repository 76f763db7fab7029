"""Backups of the embedded SQLite database (``python -m app.cli backup FILE`` / ``restore FILE``)
by SQLite's online backup API: a consistent copy page by page while the service keeps serving (a
plain file copy of a database in WAL mode can miss the pages still in its -wal file). PostgreSQL is
backed up with its own tools (``pg_dump --format=custom`` / ``pg_restore``, README "Run in
production"); these commands refuse it and say so."""

import sqlite3
from contextlib import closing
from pathlib import Path

from sqlalchemy.engine import make_url


class BackupRefused(Exception):
    """The database or the file cannot be backed up or restored this way; the message says why."""


def backup(database_url: str, target: Path) -> int:
    """Copy the database into ``target`` (a new file); the number of pages copied."""
    source_path = _sqlite_file(database_url)
    if not source_path.exists():
        raise BackupRefused(f"{source_path} does not exist: there is nothing to back up")
    if target.exists():
        raise BackupRefused(f"{target} exists already: a backup never overwrites a file")
    target.parent.mkdir(parents=True, exist_ok=True)
    with closing(_connect(source_path)) as source, closing(_connect(target)) as copy:
        source.backup(copy)
        pages: int = copy.execute("PRAGMA page_count").fetchone()[0]
    return pages


def restore(database_url: str, source: Path) -> str:
    """Replace the database's contents with the backup ``source``; the backup's migration revision.
    Run it with the service stopped: every process would otherwise go on with what it has read."""
    target_path = _sqlite_file(database_url)
    if not source.exists():
        raise BackupRefused(f"{source} does not exist")
    with closing(_connect(source)) as backup_file:
        try:
            integrity = backup_file.execute("PRAGMA quick_check").fetchone()[0]
            revision = backup_file.execute("SELECT version_num FROM alembic_version").fetchone()
        except sqlite3.DatabaseError as error:
            raise BackupRefused(f"{source} is not a backup of this service ({error})") from error
        if integrity != "ok" or revision is None:
            raise BackupRefused(f"{source} is not a sound backup of this service (integrity: {integrity})")
        target_path.parent.mkdir(parents=True, exist_ok=True)
        with closing(_connect(target_path)) as database:
            backup_file.backup(database)
    return str(revision[0])


def _sqlite_file(database_url: str) -> Path:
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite":
        raise BackupRefused(
            f"the database is {url.get_backend_name()}: back it up with pg_dump --format=custom and restore it with "
            "pg_restore (README, Run in production)"
        )
    if url.database in (None, "", ":memory:"):
        raise BackupRefused("an in-memory database has no file to back up")
    return Path(url.database)


def _connect(path: Path) -> sqlite3.Connection:
    # timeout: a writer of the service holding the lock is waited for, as the service's own connections do.
    return sqlite3.connect(path, timeout=30)
