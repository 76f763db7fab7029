"""The schema's migrations applied once, however many processes start together: ``python -m app.cli
migrate`` (and ``serve``, ``worker``, ``import``) take the database's migration lock before Alembic
reads the schema's version, so that of two replicas starting on a fresh database one migrates and the
other waits, then finds nothing to do. Readiness (``/v1/health/ready``) asks whether the database is
at the head revision this code expects."""

import fcntl
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from sqlalchemy import Connection, Engine
from sqlalchemy.engine import make_url

from app.db import make_engine
from app.settings import PROJECT_ROOT, get_settings

# The PostgreSQL advisory lock the migrations serialise on: one 64-bit key of this service's own
# (the bytes of "renju-mg"), so that no other application sharing the server takes it by chance.
ADVISORY_LOCK_KEY = int.from_bytes(b"renju-mg", "big") - 2**63


@dataclass(frozen=True)
class MigrationRun:
    """The database's revisions before and after a run: equal when there was nothing to do."""

    before: tuple[str, ...]
    after: tuple[str, ...]
    waited: bool

    @property
    def applied(self) -> bool:
        return self.before != self.after


def migrate(database_url: str | None = None) -> MigrationRun:
    """Upgrade the database to the head revision under the migration lock, on a connection of its
    own (closed afterwards, which also frees a PostgreSQL session lock left by a crash)."""
    from alembic import command
    from alembic.config import Config

    engine = make_engine(database_url or get_settings().database_url)
    try:
        with _migration_lock(engine) as (connection, waited):
            before = current_revisions(connection)
            config = Config(str(PROJECT_ROOT / "alembic.ini"))
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
            connection.commit()
            return MigrationRun(before, current_revisions(connection), waited)
    finally:
        engine.dispose()


def current_revisions(connection: Connection) -> tuple[str, ...]:
    """The revisions the database's ``alembic_version`` table holds (none on a fresh database)."""
    from alembic.runtime.migration import MigrationContext

    return tuple(sorted(MigrationContext.configure(connection).get_current_heads()))


@lru_cache
def head_revisions() -> tuple[str, ...]:
    """The head revisions of the migrations this code ships (read from migrations/ once a process)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    return tuple(sorted(ScriptDirectory.from_config(Config(str(PROJECT_ROOT / "alembic.ini"))).get_heads()))


@contextmanager
def _migration_lock(engine: Engine) -> Iterator[tuple[Connection, bool]]:
    """A connection holding the database's migration lock, and whether it had to wait for it.

    PostgreSQL: a session-level advisory lock (held across Alembic's own transactions, released at
    the end or when the connection closes). SQLite: an exclusive ``flock`` on a file beside the
    database (released when the process ends, however it ends); an in-memory database is one
    process's own and needs none."""
    with engine.connect() as connection:
        if engine.dialect.name == "postgresql":
            waited = not connection.exec_driver_sql(f"SELECT pg_try_advisory_lock({ADVISORY_LOCK_KEY})").scalar_one()
            if waited:
                _say_waiting()
                connection.exec_driver_sql(f"SELECT pg_advisory_lock({ADVISORY_LOCK_KEY})")
            connection.commit()
            try:
                yield connection, waited
            finally:
                connection.rollback()
                connection.exec_driver_sql(f"SELECT pg_advisory_unlock({ADVISORY_LOCK_KEY})")
                connection.commit()
            return
        lock_path = sqlite_lock_path(engine.url.render_as_string(hide_password=False))
        if lock_path is None:
            yield connection, False
            return
        with open(lock_path, "a") as lock_file:
            try:
                fcntl.flock(lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
                waited = False
            except BlockingIOError:
                waited = True
                _say_waiting()
                fcntl.flock(lock_file, fcntl.LOCK_EX)
            try:
                yield connection, waited
            finally:
                fcntl.flock(lock_file, fcntl.LOCK_UN)


def sqlite_lock_path(database_url: str) -> Path | None:
    """The lock file of an SQLite database file (``<file>.migrate-lock``); None for another database
    or an in-memory one."""
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    database = Path(url.database)
    database.parent.mkdir(parents=True, exist_ok=True)
    return database.with_name(database.name + ".migrate-lock")


def _say_waiting() -> None:
    print("waiting for the migration lock (another process is migrating this database)", file=sys.stderr, flush=True)
