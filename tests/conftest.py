"""Test harness: the whole suite runs against the database DATABASE_URL names (PostgreSQL in CI's
second pass), or a fresh SQLite file when it is unset. Migrations build the schema once; every test
starts from empty tables and the default rating lists. Tests that take seconds are marked ``slow``
where they are written (tests/slow.py): ``pytest -m "not slow"`` is the quick run."""

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url


def _worker_database(url: str, worker: str) -> str:
    """The database of one pytest-xdist worker (``-n``): ``<name>_<worker>`` beside the one named (a
    PostgreSQL database on the same server, created by ``_schema``; a SQLite file beside the file), so
    that workers never drop or empty each other's tables. ``url`` itself when not under xdist."""
    if not worker:
        return url
    parsed = make_url(url)
    if parsed.get_backend_name() == "postgresql":
        return parsed.set(database=f"{parsed.database}_{worker}").render_as_string(hide_password=False)
    if parsed.database and parsed.database != ":memory:":
        path = Path(parsed.database)
        return parsed.set(database=str(path.with_name(f"{path.stem}_{worker}{path.suffix}"))).render_as_string(
            hide_password=False
        )
    return url


_TMP = Path(tempfile.mkdtemp(prefix="rating-tests-"))  # one per process: each xdist worker has its own
_SUITE_DATABASE_URL = os.environ.get("DATABASE_URL", f"sqlite:///{_TMP / 'test.sqlite3'}")
os.environ["DATABASE_URL"] = _worker_database(_SUITE_DATABASE_URL, os.environ.get("PYTEST_XDIST_WORKER", ""))
os.environ["RATING_API_KEYS"] = "tester:secret-key,other:second-secret"
os.environ["RUN_WORKER"] = "false"
os.environ["WARM_UP"] = "false"  # (its own tests turn it on: tests/operations/test_warm_up.py)
os.environ["SNAPSHOT_WATCH_SECONDS"] = "0"  # (on in its own tests: tests/snapshots/test_snapshot_preparation.py)
os.environ["LOG_LEVEL"] = "WARNING"

from fastapi.testclient import TestClient  # noqa: E402
from sqlalchemy import text  # noqa: E402

from app import db  # noqa: E402
from app.http import response_cache  # noqa: E402
from app.settings import get_settings  # noqa: E402
from app.snapshots import drift, snapshot_changes, timelines  # noqa: E402
from app.snapshots.current_snapshots import current_snapshots  # noqa: E402
from tests import slow  # noqa: E402
from tests.helpers import alembic_runner, empty_database  # noqa: E402


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """The quick run (``-m "not slow"``) does not even import a module marked slow as a whole: building
    schemathesis' cases for every operation alone takes most of a collection."""
    if config.option.markexpr == "not slow" and collection_path.suffix == ".py" and collection_path.name.startswith("test_"):
        if "\npytestmark = pytest.mark.slow\n" in collection_path.read_text(encoding="utf-8"):
            return True
    return None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """The test running, for tests/slow.py's check that what takes seconds is used only by a test
    marked slow."""
    slow.running(item)
    try:
        return (yield)
    finally:
        slow.running(None)


@pytest.fixture(scope="session")
def database_url() -> str:
    return get_settings().database_url


def _create_database_if_missing(database_url: str) -> None:
    """A worker's PostgreSQL database, created through a connection to the suite's (same server)."""
    url = make_url(database_url)
    if url.get_backend_name() != "postgresql" or database_url == _SUITE_DATABASE_URL:
        return
    server = db.make_engine(_SUITE_DATABASE_URL).execution_options(isolation_level="AUTOCOMMIT")
    with server.connect() as connection:
        exists = connection.execute(text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": url.database}).first()
        if exists is None:
            connection.execute(text(f'CREATE DATABASE "{url.database}"'))
    server.dispose()


@pytest.fixture(scope="session", autouse=True)
def _schema(database_url: str) -> Iterator[None]:
    _create_database_if_missing(database_url)
    engine = db.get_engine()
    if engine.dialect.name == "postgresql":
        with engine.begin() as connection:
            connection.execute(text("DROP SCHEMA public CASCADE"))
            connection.execute(text("CREATE SCHEMA public"))
    from app.cli import migrate

    migrate()
    yield
    engine.dispose()


@pytest.fixture(autouse=True)
def _clean_tables() -> Iterator[None]:
    yield
    empty_database()
    # What this process remembers of the database it just emptied (empty_database's deletes bypass
    # the session hooks that forget it after a write).
    current_snapshots.forget()
    response_cache.responses.clear()
    timelines.forget_all()
    snapshot_changes.forget_all()
    drift.forget_all()


@pytest.fixture(scope="session")
def app():  # type: ignore[no-untyped-def]
    from app.main import create_app

    return create_app(start_worker=False)


@pytest.fixture
def client(app) -> Iterator[TestClient]:  # type: ignore[no-untyped-def]
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def migration_database(tmp_path, database_url):  # type: ignore[no-untyped-def]
    """(engine, run) on a database of its own, never the suite's: a SQLite file, or on PostgreSQL (the
    suite's second pass) a scratch database on the same server, so that migrations meet its types."""
    from sqlalchemy.engine import make_url

    url = make_url(database_url)
    scratch = None
    if url.get_backend_name() == "postgresql":
        scratch = f"{url.database}_migrations"
        with db.make_engine(database_url).execution_options(isolation_level="AUTOCOMMIT").connect() as server:
            server.execute(text(f'DROP DATABASE IF EXISTS "{scratch}"'))
            server.execute(text(f'CREATE DATABASE "{scratch}"'))
        engine = db.make_engine(url.set(database=scratch).render_as_string(hide_password=False))
    else:
        engine = db.make_engine(f"sqlite:///{tmp_path / 'migrations.sqlite3'}")
    yield engine, alembic_runner(engine)
    engine.dispose()
    if scratch is not None:
        with db.make_engine(database_url).execution_options(isolation_level="AUTOCOMMIT").connect() as server:
            server.execute(text(f'DROP DATABASE IF EXISTS "{scratch}"'))
