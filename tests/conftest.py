"""Test harness: the whole suite runs against the database DATABASE_URL names (PostgreSQL in CI's
second pass), or a fresh SQLite file when it is unset. Migrations build the schema once; every test
starts from empty tables and the default rating lists. Tests that take seconds are marked ``slow``
(see ``pytest_collection_modifyitems``): ``pytest -m "not slow"`` is the quick run."""

import os
import tempfile
import types
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
os.environ["WARM_UP"] = "false"  # (its own tests turn it on: tests/test_warm_up.py)
os.environ["SNAPSHOT_WATCH_SECONDS"] = "0"  # (on in its own tests: tests/test_snapshot_preparation.py)
os.environ["LOG_LEVEL"] = "WARNING"

from fastapi.testclient import TestClient  # noqa: E402
from sqlalchemy import text  # noqa: E402

from app import db  # noqa: E402
from app.http import response_cache  # noqa: E402
from app.settings import get_settings  # noqa: E402
from app.snapshots import snapshot_changes, timelines  # noqa: E402
from app.snapshots.current_snapshots import current_snapshots  # noqa: E402
from tests.browser import ensure_chromium  # noqa: E402
from tests.helpers import alembic_runner, cli_import_renju_cn, empty_database, load_site  # noqa: E402
from tests.live_server import running_server  # noqa: E402

# What makes a test slow: it, or a fixture it uses, calls one of these. A server in a subprocess
# (running_server, also behind the live_server fixture), the real Chinese file imported through the
# CLI, every real file imported and rated (the website's data), a headless browser. Tests slow for
# other reasons (a CLI subprocess per test, a generated history) are marked where they are written:
# ``pytestmark = pytest.mark.slow`` in the module, or ``@pytest.mark.slow`` on the test.
SLOW_CALLS = (running_server, cli_import_renju_cn, load_site, ensure_chromium)


def _calls(function: object) -> set[object]:
    """The module-level objects a function's code names (nested functions and lambdas included)."""
    function = getattr(function, "__wrapped__", function)
    code, namespace = getattr(function, "__code__", None), getattr(function, "__globals__", {})
    names: set[str] = set()
    pending = [code] if code is not None else []
    while pending:
        current = pending.pop()
        names.update(current.co_names)
        pending += [const for const in current.co_consts if isinstance(const, types.CodeType)]
    return {id(namespace[name]) for name in names if name in namespace}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    slow = {id(call) for call in SLOW_CALLS}
    for item in items:
        fixtures = [fixture.func for defs in item._fixtureinfo.name2fixturedefs.values() for fixture in defs]  # type: ignore[attr-defined]
        if any(slow & _calls(function) for function in [getattr(item, "function", None), *fixtures]):
            item.add_marker(pytest.mark.slow)


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
