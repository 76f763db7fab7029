"""Temporary SQLite databases in which a streamed reader keeps a file's records, so that its memory
does not grow with the file: the renju.net XML export's reader (issue 15) and the results file's
(docs/decisions.md 102)."""

import sqlite3
from collections.abc import Collection, Iterator
from typing import Any

IDS_PER_QUERY = 500  # within every SQLite build's limit on a statement's bound parameters


def temporary_database(tables: dict[str, str], cache_kib: int) -> sqlite3.Connection:
    """A private database on disk (SQLite's "" file name), deleted when the connection closes, with
    these tables (name: its columns' definitions) and at most ``cache_kib`` of pages in memory.
    Nothing in it outlives the read: no journal, no syncs. One thread uses it at a time, not always
    the one that opened it (a reader's submissions may be read in another thread than its first pass)."""
    connection = sqlite3.connect("", check_same_thread=False)
    connection.execute("PRAGMA journal_mode=OFF")
    connection.execute("PRAGMA synchronous=OFF")
    connection.execute(f"PRAGMA cache_size=-{int(cache_kib)}")
    for table, columns in tables.items():
        connection.execute(f"CREATE TABLE {table} ({columns})")
    return connection


def rows_for_ids(connection: sqlite3.Connection, query: str, ids: Collection[str]) -> Iterator[tuple[Any, ...]]:
    """The rows of ``query``, whose ``{marks}`` stands for the placeholders of an ``IN`` list, run
    over ``ids`` at most ``IDS_PER_QUERY`` at a time."""
    wanted = list(ids)
    for start in range(0, len(wanted), IDS_PER_QUERY):
        chunk = wanted[start : start + IDS_PER_QUERY]
        yield from connection.execute(query.format(marks=", ".join("?" * len(chunk))), chunk)
