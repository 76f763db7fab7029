"""Engine and session handling. The request's session dependency commits or rolls back;
services never commit (polar's convention)."""

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import CursorResult, Engine, Table, create_engine, event, inspect, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import ConnectionPoolEntry

from app import performance
from app.settings import get_settings

T = TypeVar("T")

# Values a statement's IN list takes at most: well within every database's limit on a statement's
# parameters (SQLite 32,766, PostgreSQL 65,535), whatever an import's batch holds.
IN_LIST_SIZE = 500


def in_lists(values: Sequence[T]) -> Iterator[Sequence[T]]:
    """``values`` in slices of at most ``IN_LIST_SIZE``, one statement's IN list each."""
    for start in range(0, len(values), IN_LIST_SIZE):
        yield values[start : start + IN_LIST_SIZE]


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        database = url.split("///", 1)[-1]
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT_SECONDS})
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "checkin", _restore_automatic_checkpoints)
        return engine
    return create_engine(url, pool_pre_ping=True)


SQLITE_BUSY_TIMEOUT_SECONDS = 30
# What the write-ahead log's file is cut back to whenever the log starts over (after a checkpoint
# that copied all of it, once no reader reads it): without a limit the file keeps the size of its
# largest run between checkpoints for good (335 MB in issue 48's soak). A RIF-sized recompute
# writes 5-10 MB to it, the large history's 100-200 MB (docs/decisions.md 111).
SQLITE_JOURNAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024


def _sqlite_pragmas(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
    cursor = dbapi_connection.cursor()
    # WAL lets readers keep reading the previous snapshot while a recompute writes the next one.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA journal_size_limit={SQLITE_JOURNAL_SIZE_LIMIT_BYTES}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute(f"PRAGMA mmap_size={performance.SQLITE_MMAP_BYTES}")  # (app/performance.py says why)
    cursor.close()


def checkpoint_after_commit(session: Session) -> None:
    """SQLite: the session's transaction commits without checkpointing, however far it grows the
    write-ahead log; the caller checkpoints once the commit is seen (``checkpoint``). A recompute's
    commit otherwise copied its snapshot into the database file before its job was seen succeeded:
    120 ms of the large history's recompute, on the path its client waits on. The connection
    checkpoints by itself again once back in the pool. Nothing on PostgreSQL."""
    connection = session.connection()
    if connection.dialect.name == "sqlite":
        connection.exec_driver_sql("PRAGMA wal_autocheckpoint=0")
        connection.info[_CHECKPOINTS_DEFERRED] = True


_CHECKPOINTS_DEFERRED = "automatic checkpoints deferred"
SQLITE_AUTOMATIC_CHECKPOINT_PAGES = 1000  # SQLite's own default


def _restore_automatic_checkpoints(dbapi_connection: DBAPIConnection | None, record: ConnectionPoolEntry) -> None:
    if record.info.pop(_CHECKPOINTS_DEFERRED, False) and dbapi_connection is not None:
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA wal_autocheckpoint={SQLITE_AUTOMATIC_CHECKPOINT_PAGES}")
        cursor.close()


def checkpoint(engine: Engine, *, truncate: bool = False, wait_ms: int | None = None) -> bool:
    """SQLite: copy what the write-ahead log holds into the database file, as far as no reader still
    needs the file's older pages (``wal_checkpoint(PASSIVE)``: it never waits for a reader or a
    writer); ``truncate``: all of it, waiting for readers of an older state up to the busy timeout
    (or ``wait_ms``, after which it gives up), and the log emptied (``TRUNCATE``, after an import or
    a pruning). Whether the log was copied whole (and with ``truncate`` emptied). Readers read the file through its memory map, but a page still in the log by a read()
    of the log: a 12 MB value took 12-16 ms to fetch from the log against 9-12 ms from the file
    (in a scratch database, warm page cache). SQLite checkpoints by itself when a commit leaves the
    log over 1,000 pages, but not past a reader that was reading then. Nothing to do on PostgreSQL."""
    if engine.dialect.name != "sqlite":
        return True
    with engine.connect() as connection:
        if wait_ms is not None:
            connection.exec_driver_sql(f"PRAGMA busy_timeout={int(wait_ms)}")
        try:
            row = connection.exec_driver_sql(f"PRAGMA wal_checkpoint({'TRUNCATE' if truncate else 'PASSIVE'})").one()
        finally:
            if wait_ms is not None:
                connection.exec_driver_sql(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_SECONDS * 1000}")
    busy, log_pages, copied = row
    return not busy and log_pages == copied


# An import's batches on SQLite (``bulk_session_scope``): a batch rewrites pages all over the games'
# and search terms' indexes, which a page cache of 8 MB keeps through the batch instead of the default
# 2 MB (more would cross the import's 150 MB); the WAL is checkpointed every 256 MB instead of every
# 4 MB (once a batch or more, each copying the same index pages back), and once more when the import
# ends (``checkpoint_after_import``); no memory map: the import's counts read every row, and the map's pages
# counted in its resident memory (330 MB). Durability is the service's: synchronous=NORMAL under WAL,
# a committed batch survives a crash of the process, not necessarily of the machine (decisions 7.73).
# No foreign-key checks: every row the import writes names a tournament it wrote before in the same
# transaction, or a player it checked stored or created (app.services.tournaments._validate), under
# the write lock it holds, so the database's look-up of each reference (three a game) only repeated
# them (decisions 7.91). PostgreSQL keeps checking, and so do the service's connections.
SQLITE_BULK_CACHE_KIB = 8 * 1024
SQLITE_BULK_CHECKPOINT_PAGES = 65_536


@lru_cache
def get_engine() -> Engine:
    return make_engine(get_settings().database_url)


@lru_cache
def _get_bulk_sessionmaker() -> sessionmaker[Session]:
    """The import's sessions: on SQLite an engine of its own whose connections are tuned for bulk
    writes (``SQLITE_BULK_*``), so that the service's connections keep their settings; the service's
    engine elsewhere."""
    url = get_settings().database_url
    if not url.startswith("sqlite") or url.split("///", 1)[-1] in ("", ":memory:"):
        return get_sessionmaker()
    engine = make_engine(url)
    event.listen(engine, "connect", _sqlite_bulk_pragmas)
    return sessionmaker(engine, expire_on_commit=False)


def _sqlite_bulk_pragmas(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA cache_size=-{SQLITE_BULK_CACHE_KIB}")
    cursor.execute(f"PRAGMA wal_autocheckpoint={SQLITE_BULK_CHECKPOINT_PAGES}")
    cursor.execute("PRAGMA journal_size_limit=-1")  # the log of 256 MB is reused, not cut back each time
    cursor.execute("PRAGMA mmap_size=0")
    cursor.execute("PRAGMA foreign_keys=OFF")
    cursor.close()


@lru_cache
def get_sessionmaker() -> sessionmaker[Session]:
    return sessionmaker(get_engine(), expire_on_commit=False)


@contextmanager
def session_scope(maker: sessionmaker[Session] | None = None) -> Iterator[Session]:
    """A unit of work outside a request (CLI, worker): commit on success, roll back on error."""
    session = (maker or get_sessionmaker())()
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()


@contextmanager
def bulk_session_scope() -> Iterator[Session]:
    """``session_scope`` for one of an import's batches (see ``SQLITE_BULK_CACHE_KIB``);
    ``checkpoint_after_import`` when the import ends."""
    with session_scope(_get_bulk_sessionmaker()) as session:
        yield session


def begin_writing(session: Session) -> None:
    """Open the session's transaction as a writer's (an import's transaction of several batches).

    SQLite: ``BEGIN IMMEDIATE`` takes the write lock now rather than at the first write, so no other
    writer commits between the batches' checks and their writes (a deferred transaction that read
    first could not upgrade its lock then: SQLITE_BUSY). Nothing on PostgreSQL, whose row locks and
    savepoints (``app.services.importing``) serve there."""
    connection = session.connection()
    if connection.dialect.name == "sqlite":
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def fetch_all(session: Session, statement: Any, parameters: dict[str, Any] | None = None) -> Sequence[tuple[Any, ...]]:
    """All rows of a select as the driver's own tuples, on the session's connection (its
    transaction): SQLAlchemy's per-row processing is skipped, so the statement selects only columns
    the driver returns in the wanted form (text for dates, as ``cast(..., String)``)."""
    return _driver_tuples(session.connection().execute(statement, parameters))


def _driver_tuples(result: CursorResult[Any]) -> Sequence[tuple[Any, ...]]:
    """The result's rows as its cursor returns them, without SQLAlchemy's per-row processing."""
    try:
        return result.cursor.fetchall()
    finally:
        result.close()


def checkpoint_after_import() -> None:
    """After an import on SQLite: the WAL its batches left copied into the database and truncated, so
    that the service's readers do not search a WAL of hundreds of megabytes; should a reader outlast
    the busy timeout, the next checkpoint copies the rest."""
    maker = _get_bulk_sessionmaker()
    if maker is not get_sessionmaker():
        checkpoint(maker.kw["bind"], truncate=True)


def get_session() -> Iterator[Session]:
    """FastAPI dependency: one session per request, committed when the endpoint returns."""
    with session_scope() as session:
        yield session


def locked_row(session: Session, model: type[T], key: str | int) -> T | None:
    """The row, read after taking its write lock, which the transaction holds until it ends: a
    change that reads a row and writes what depends on it sees the version the previous writer
    left. PostgreSQL: SELECT ... FOR UPDATE. SQLite has no row locks, and runs reads before a
    transaction's first write outside it: a write that changes nothing (the key set to itself)
    takes the database's one write lock first."""
    if session.get_bind().dialect.name == "sqlite":
        primary_key = inspect(model).primary_key[0]
        session.execute(update(model).where(primary_key == key).values({primary_key: primary_key}))
    return session.get(model, key, with_for_update=True, populate_existing=True)


def hold_rows(session: Session, model: type[Any], keys: Sequence[str]) -> None:
    """Hold these rows (those that exist) against a change of them until the transaction ends, in
    key order (as ``locked_row`` takes its locks, so two transactions never deadlock), without
    keeping others from holding them too: a submission naming players holds them against a merge
    (docs/decisions.md 108). PostgreSQL: SELECT ... FOR KEY SHARE, what a foreign key's check takes,
    which a merge's FOR UPDATE waits for and which waits for it (its readers then read what the
    merge committed). SQLite has no row locks: the database's one write lock is taken now, by a
    write that changes nothing, so that what the transaction reads next no other writer changes."""
    connection = session.connection()
    if connection.dialect.name == "sqlite":
        # A transaction of the driver's holds the lock already: it began at its first write (an
        # import's begins with BEGIN IMMEDIATE).
        if not getattr(connection.connection.driver_connection, "in_transaction", False):
            quote = connection.dialect.identifier_preparer.quote
            key = quote(inspect(model).primary_key[0].name)
            connection.exec_driver_sql(f"UPDATE {quote(model.__table__.name)} SET {key} = {key} WHERE 0")
        return
    primary_key = inspect(model).primary_key[0]
    ordered = sorted(set(keys))
    for some in in_lists(ordered):
        session.execute(
            select(primary_key).where(primary_key.in_(some)).order_by(primary_key).with_for_update(key_share=True)
        ).all()


def dialect_insert(session: Session) -> Callable[[type[Any] | Table], postgresql.Insert | sqlite.Insert]:
    """The session's database's own INSERT of a mapped class or a table, which has ON CONFLICT DO NOTHING / DO
    UPDATE: the database settles a race between two inserts of one key, not a look-up before the
    insert."""
    return postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert


def select_rows_by_key(
    session: Session, table: Table, columns: Sequence[str], key: str, values: Sequence[Any]
) -> list[tuple[Any, ...]]:
    """The rows of ``table`` whose ``key`` is one of ``values`` (at most ``IN_LIST_SIZE``), as the
    driver's tuples of ``columns``: one statement in the driver's own SQL, whose IN list SQLAlchemy
    would otherwise render again for every call (0.6 ms for 500 values: a page of a list as of a
    date names its 500 players this way)."""
    if not values:
        return []
    assert len(values) <= IN_LIST_SIZE, len(values)
    connection = session.connection()
    quote = connection.dialect.identifier_preparer.quote
    marker = "?" if connection.dialect.paramstyle == "qmark" else "%s"
    statement = (
        f"SELECT {', '.join(quote(column) for column in columns)} FROM {quote(table.name)}"
        f" WHERE {quote(key)} IN ({', '.join([marker] * len(values))})"
    )
    return list(_driver_tuples(connection.exec_driver_sql(statement, tuple(values))))


def insert_rows(
    session: Session, table: Table, columns: Sequence[str], rows: Sequence[tuple[Any, ...]], *, same: dict[str, int] | None = None
) -> None:
    """Insert many rows in the session's transaction by the driver's fastest path: COPY FROM STDIN
    on PostgreSQL (psycopg 3's ``cursor.copy``), one ``executemany`` of the tuples elsewhere (SQLite).

    The rows are tuples in the order of ``columns``, their values already in storage form - the
    type processing SQLAlchemy would do per value is skipped: dates as ISO text, JSON as its text
    (``'null'`` for a JSON null). PostgreSQL parses both from COPY's text format into the columns'
    types; SQLite stores them as SQLAlchemy would. ``same``: integer columns with one value for every
    row (a snapshot id), written before ``columns`` without being copied into each tuple."""
    if not rows:
        return
    same = {name: int(value) for name, value in (same or {}).items()}
    connection = session.connection()
    quote = connection.dialect.identifier_preparer.quote
    names = ", ".join(quote(name) for name in (*same, *columns))
    if connection.dialect.name == "postgresql":
        driver = connection.connection.driver_connection
        assert driver is not None
        statement = f"COPY {quote(table.name)} ({names}) FROM STDIN"
        driver_error = connection.dialect.loaded_dbapi.Error
        leading = tuple(same.values())
        try:
            with driver.cursor() as cursor, cursor.copy(statement) as copy:
                for row in rows:
                    copy.write_row((*leading, *row))
        except driver_error as error:
            # The driver's own error as SQLAlchemy's (IntegrityError, OperationalError, ...), as for
            # every other statement: app.transactions and the job's error message read those.
            raise DBAPIError.instance(statement, None, error, driver_error, dialect=connection.dialect) from error
        return
    marker = "?" if connection.dialect.paramstyle == "qmark" else "%s"
    values = ", ".join([*(str(value) for value in same.values()), *[marker] * len(columns)])  # integers: safe as literals
    connection.exec_driver_sql(f"INSERT INTO {quote(table.name)} ({names}) VALUES ({values})", list(rows))
