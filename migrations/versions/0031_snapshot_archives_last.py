"""snapshot_archives_last: on SQLite, a snapshot's archives are stored after its other columns, the
points first and the warm start last (docs/decisions.md 101)

SQLite stores a row's columns one after the other and reaches a column by following the chain of
overflow pages of every value before it. The columns added after the archives (the system, the
digest, the eligibility: migrations 0016 and later) sat behind some 27 MB on the large history: each
read of a snapshot's row on a connection whose pages were not in its cache (a new connection, or any
after another connection's write) walked them, 11-14 ms against 0.6-0.7. The archives are moved to the
end by adding them again, copying them over and dropping the old columns (SQLite 3.35's DROP COLUMN:
the table itself, which other tables' foreign keys reference, is never dropped). PostgreSQL keeps
large values out of line (TOAST): nothing to do.

Revision ID: 0031
Revises: 0030
"""

import sqlite3
from collections.abc import Sequence

from alembic import op

revision: str = "0031"
down_revision: str | None = "0030"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# In the order they are to be stored: a list as of a date and a player's history read the points,
# a player's and a tournament's pages the changes, only the next recompute the warm start.
_ARCHIVES = ("point_columns", "change_columns", "warm_start")


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite" or sqlite3.sqlite_version_info < (3, 35, 0):
        return  # (an older SQLite has no DROP COLUMN: the order stays, only the reads' speed differs)
    for name in _ARCHIVES:
        op.execute(f"ALTER TABLE rating_snapshots ADD COLUMN {name}_moved BLOB")
    # (the old ones emptied in the same pass: each DROP COLUMN below rewrites the table once more)
    op.execute(f"UPDATE rating_snapshots SET {', '.join(f'{name}_moved = {name}, {name} = NULL' for name in _ARCHIVES)}")
    for name in _ARCHIVES:
        op.execute(f"ALTER TABLE rating_snapshots DROP COLUMN {name}")
        op.execute(f"ALTER TABLE rating_snapshots RENAME COLUMN {name}_moved TO {name}")


def downgrade() -> None:
    pass  # the columns' order is no part of the schema: the earlier code reads them where they are
