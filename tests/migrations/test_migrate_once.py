"""Migrations run once when several processes start together (issue 27 item 2): two `python -m app.cli
migrate` started at the same moment on a fresh database of the suite's kind (a throwaway PostgreSQL
database on the suite's server, or a new SQLite file) serialise on the migration lock; one migrates,
the other waits and finds nothing to do."""

import fcntl
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from app import db
from app.schema_migrations import ADVISORY_LOCK_KEY, head_revisions, sqlite_lock_path
from tests.helpers import ROOT

pytestmark = pytest.mark.slow  # CLI subprocesses

WAITING = "waiting for the migration lock"


@pytest.fixture
def fresh_database_url(database_url: str, tmp_path: Path) -> Iterator[str]:
    url = make_url(database_url)
    if url.get_backend_name() != "postgresql":
        yield f"sqlite:///{tmp_path / 'fresh' / 'rating.sqlite3'}"
        return
    scratch = f"{url.database}_migrate_once"
    server = db.make_engine(database_url).execution_options(isolation_level="AUTOCOMMIT")
    with server.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{scratch}"'))
        connection.execute(text(f'CREATE DATABASE "{scratch}"'))
    yield url.set(database=scratch).render_as_string(hide_password=False)
    with server.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)'))
    server.dispose()


def test_two_migrations_started_together_run_once(fresh_database_url: str) -> None:
    # The test holds the lock while both start, so that both certainly meet it (neither can finish
    # before the other begins), then lets them go.
    with _holding_the_migration_lock(fresh_database_url):
        runs = [_start_migrate(fresh_database_url) for _ in range(2)]
        for run in runs:
            assert WAITING in _first_stderr_line(run), "each migrate must wait for the lock the test holds"
    outputs = []
    for run in runs:
        stdout, stderr = run.communicate(timeout=120)
        assert run.returncode == 0, stderr
        outputs.append(stdout)
    heads = ", ".join(head_revisions())
    assert sorted("nothing to do" in output for output in outputs) == [False, True], outputs
    assert any(f"from an empty database to {heads}" in output for output in outputs), outputs
    engine = db.make_engine(fresh_database_url)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == list(head_revisions())
        assert connection.execute(text("SELECT count(*) FROM rating_lists")).scalar_one() > 0  # the data migrations ran
    engine.dispose()


def test_migrate_on_a_database_at_head_does_nothing(fresh_database_url: str) -> None:
    first, second = (_run_migrate(fresh_database_url) for _ in range(2))
    assert "from an empty database" in first and "nothing to do" in second


class _holding_the_migration_lock:
    def __init__(self, database_url: str) -> None:
        self.database_url = database_url

    def __enter__(self) -> None:
        lock_path = sqlite_lock_path(self.database_url)
        if lock_path is not None:
            self.lock_file = open(lock_path, "a")  # noqa: SIM115 - closed in __exit__
            fcntl.flock(self.lock_file, fcntl.LOCK_EX)
            return
        self.engine = db.make_engine(self.database_url)
        self.connection = self.engine.connect()
        self.connection.exec_driver_sql(f"SELECT pg_advisory_lock({ADVISORY_LOCK_KEY})")
        self.connection.commit()

    def __exit__(self, *_: object) -> None:
        if sqlite_lock_path(self.database_url) is not None:
            self.lock_file.close()
            return
        self.connection.close()
        self.engine.dispose()


def _start_migrate(database_url: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "app.cli", "migrate"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": database_url},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _first_stderr_line(run: subprocess.Popen[str]) -> str:
    assert run.stderr is not None
    return run.stderr.readline()  # printed before it blocks on the lock; empty if it exited instead


def _run_migrate(database_url: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "migrate"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": database_url},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout
