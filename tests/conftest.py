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
from sqlalchemy import delete, insert, text  # noqa: E402

from app import db  # noqa: E402
from app.http import response_cache  # noqa: E402
from app.models import Base, RatingList  # noqa: E402
from app.services import snapshot_changes, timelines  # noqa: E402
from app.services.current_snapshots import current_snapshots  # noqa: E402
from app.settings import get_settings  # noqa: E402

# Test data ships inside the repository, each set with its source and licence (tests/data/*/README.md).
DATA = Path(__file__).resolve().parent / "data"
RENJU_CN = DATA / "renju-cn-2009-2019" / "source.tsv"
# Go tournament files from OpenGotha's public repository (GPL): see tests/data/go/README.md.
GO_DATA = Path(__file__).resolve().parent / "data" / "go"
AUTH = {"Authorization": "Bearer secret-key"}


def _migration(file_name: str):  # type: ignore[no-untyped-def]
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "migrations" / "versions" / file_name
    spec = importlib.util.spec_from_file_location(f"migration_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def _default_lists() -> list[dict]:
    """The lists the migrations create, as they leave them: every migration module's DEFAULT_LISTS
    in order (a new rating system's migration adds its list the same way), with the auto_recompute
    setting migration 0013 gives the lists that existed before it (a later list's row says its own) and
    the publication schedule migration 0019 gives."""
    versions = Path(__file__).resolve().parents[1] / "migrations" / "versions"
    lists: list[dict] = []
    for path in sorted(versions.glob("*.py")):
        lists += getattr(_migration(path.name), "DEFAULT_LISTS", [])
    auto_recompute = _migration("0013_auto_recompute_and_idempotency_in_progress.py").AUTO_RECOMPUTE_LISTS
    schedules = _migration("0020_publications_and_provenance.py").PUBLICATION_DAYS
    return [
        {
            "auto_recompute": rating_list["id"] in auto_recompute,
            "publication_days": schedules.get(rating_list["id"]),
            **rating_list,
        }
        for rating_list in lists
    ]


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
    engine = db.get_engine()
    with engine.begin() as connection:
        for table in reversed(Base.metadata.sorted_tables):
            connection.execute(delete(table))
        connection.execute(insert(RatingList), _default_lists())
    # What this process remembers of the database it just emptied (the deletes above bypass the
    # session hooks that forget it after a write).
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


def tournament_body(tournament_id: str = "T1", **overrides: object) -> dict:
    """A small valid renju tournament: four players, a round robin of six games."""
    body: dict = {
        "id": tournament_id,
        "name": "Test Open",
        "category": "renju",
        "rule": "RIF",
        "start": "2020-05-01",
        "end": "2020-05-03",
        "country": "EST",
        "time_control_minutes": 60,
        "players": [
            {"id": "p1", "name": "Ants", "surname": "Soosõrv", "country": "EST"},
            {"id": "p2", "name": "Ando", "surname": "Meritee", "country": "EST"},
            {"id": "p3", "name": "Tunnet", "surname": "Taimla", "country": "EST"},
            {"id": "p4", "name": "Yusui", "surname": "Nakamura", "country": "JPN"},
        ],
        "games": [
            {"id": "g1", "round": "1", "black": "p1", "white": "p2", "result": "B"},
            {"id": "g2", "round": "1", "black": "p3", "white": "p4", "result": "W"},
            {"id": "g3", "round": "2", "black": "p1", "white": "p3", "result": "D"},
            {"id": "g4", "round": "2", "black": "p2", "white": "p4", "result": "W"},
            {"id": "g5", "round": "3", "black": "p4", "white": "p1", "result": "B", "date": "2020-05-03"},
            {"id": "g6", "round": "3", "black": "p2", "white": "p3", "result": "B", "played": False},
        ],
    }
    body.update(overrides)
    return body


def alembic_runner(engine):  # type: ignore[no-untyped-def]
    """``run(direction, revision)``: Alembic's upgrade or downgrade on ``engine``, in one transaction."""
    from alembic import command
    from alembic.config import Config

    def run(direction: str, revision: str) -> None:
        config = Config(str(Path(__file__).resolve().parents[1] / "alembic.ini"))
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            getattr(command, direction)(config, revision)

    return run


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
