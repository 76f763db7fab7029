"""What an import on SQLite leaves to its end, because one sorted pass builds it faster than the same
entries written as the file's tournaments come, each into a random place of a large index
(docs/decisions.md 7.90):

- the search terms of the players it creates (``app.services.players.write_deferred_search_terms``);
- the games' two indexes by player, when the import has stored as many games as were stored before
  it: they are dropped then, and built again from the whole table when it ends.

``finish_import`` builds both. The import runs it when it ends, and before a Go tournament, whose
players are matched by name (through the terms) among those who played Go (through the indexes);
every process runs it when it starts (``app.cli.migrate``: ``serve``, ``worker``, ``import``,
``migrate``), so an import killed midway leaves nothing unbuilt past the next start. Until then its
new players are not found by search, and a player's games are read without the index (slower,
still right).

On PostgreSQL nothing is left for later: other writers run beside an import there, and neither its
search nor its reads may lag behind what it has committed (nor was the import timed there)."""

from sqlalchemy import Index
from sqlalchemy.orm import Session

from app.models import Game
from app.services.players import write_deferred_search_terms

GAME_PLAYER_INDEXES: tuple[Index, ...] = tuple(
    sorted(
        (index for index in Game.__table__.indexes if next(iter(index.columns)).name in ("black_id", "white_id")),
        key=lambda index: str(index.name),
    )
)


def leaves_for_later(session: Session) -> bool:
    """Whether an import in this session leaves its search terms and player indexes for ``finish_import``."""
    return session.connection().dialect.name == "sqlite"


def drop_game_player_indexes(session: Session) -> None:
    """Drop the games' indexes by player in the session's transaction, for ``finish_import`` to build
    again: an import that has stored as many games as the table held before it writes fewer index
    entries by building them from the whole table than by adding its own one by one."""
    for index in GAME_PLAYER_INDEXES:
        index.drop(session.connection(), checkfirst=True)


def finish_import(session: Session) -> None:
    """Build what imports on SQLite left for later (nothing elsewhere): the games' indexes by player,
    where dropped, and the search terms of the players stored without them."""
    if not leaves_for_later(session):
        return
    connection = session.connection()
    cache = connection.exec_driver_sql("PRAGMA cache_size").scalar_one()
    # SQLite sorts an index's entries in as much memory as its page cache holds: at the import's
    # cache (app.db.SQLITE_BULK_CACHE_KIB) the sorts took the import past its 150 MB.
    connection.exec_driver_sql(f"PRAGMA cache_size=-{SORT_MEMORY_KIB}")
    try:
        for index in GAME_PLAYER_INDEXES:
            index.create(connection, checkfirst=True)
        write_deferred_search_terms(session)
    finally:
        connection.exec_driver_sql(f"PRAGMA cache_size={int(cache)}")


SORT_MEMORY_KIB = 2 * 1024
