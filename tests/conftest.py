"""Test harness: the whole suite runs against the database DATABASE_URL names (PostgreSQL in CI's
second pass), or a fresh SQLite file when it is unset. Migrations build the schema once; every test
starts from empty tables and the default rating lists."""

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

_TMP = Path(tempfile.mkdtemp(prefix="rating-tests-"))
os.environ.setdefault("DATABASE_URL", f"sqlite:///{_TMP / 'test.sqlite3'}")
os.environ["RATING_API_KEYS"] = "tester:secret-key,other:second-secret"
os.environ["RUN_WORKER"] = "false"
os.environ["LOG_LEVEL"] = "WARNING"

from fastapi.testclient import TestClient  # noqa: E402
from sqlalchemy import text  # noqa: E402

from app import db  # noqa: E402
from app.api import response_cache  # noqa: E402
from app.services import snapshot_changes, timelines  # noqa: E402
from app.services.current_snapshots import current_snapshots  # noqa: E402
from app.settings import get_settings  # noqa: E402
from tests.helpers import alembic_runner, empty_database  # noqa: E402


@pytest.fixture(scope="session")
def database_url() -> str:
    return get_settings().database_url


@pytest.fixture(scope="session", autouse=True)
def _schema(database_url: str) -> Iterator[None]:
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
