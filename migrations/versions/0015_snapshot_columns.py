"""a snapshot's per-day points and per-tournament changes as archives of columns on the snapshot row
(rating_snapshots.point_columns, .change_columns) instead of rating_points and
tournament_rating_changes rows

Revision ID: 0015
Revises: 0014

Every stored snapshot's rows are converted. An archive is a NumPy ``.npz`` of one array per field,
the rows sorted as the tables' primary keys were (points by player id, then date; changes by
tournament id, then player id). Dates are ``date.toordinal()`` numbers (0 for none) and a point's
``date`` is named ``day``; a missing number is NaN; an object column (ids, statuses, titles, JSON
values) is ``int32`` codes into ``<name>.values``, the UTF-8 bytes of one JSON array of its distinct
values. That format is written out here, not imported: a migration does not follow the application's
code. The application (app/snapshots/stored_columns.py) reads it, and writes it or, for some object
columns, two more layouts (one JSON array of all the values; dicts of one shape as a column per
key), which the downgrade reads too. Downgrading restores the rows.
"""
import datetime as dt
import io
import json
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")
DAY, FLOAT, INT, OBJECT = "day", "float", "int", "object"
# Each table's columns besides snapshot_id, in primary-key order first, with how the archive holds them.
POINTS = {
    "player_id": OBJECT, "date": DAY, "rating": FLOAT, "deviation": FLOAT, "games": INT, "status": OBJECT,
    "last_played": DAY, "title": OBJECT, "counters": OBJECT, "tournament_ids": OBJECT,
}
CHANGES = {
    "tournament_id": OBJECT, "player_id": OBJECT, "system": OBJECT, "rating_before": FLOAT, "rating_after": FLOAT,
    "change": FLOAT, "change_unrounded": FLOAT, "games_counted": INT, "status_after": OBJECT, "title_after": OBJECT,
    "details": OBJECT,
}
KEYS = {"rating_points": ("player_id", "date"), "tournament_rating_changes": ("tournament_id", "player_id")}
ARCHIVE_NAME = {"date": "day"}
STORED_IN = {"rating_points": ("point_columns", POINTS), "tournament_rating_changes": ("change_columns", CHANGES)}
SQL_TYPE = {DAY: sa.Date, FLOAT: sa.Float, INT: sa.Integer}
# PostgreSQL 14+ built with lz4 lists it among the values of this setting (older servers have no such setting).
LZ4_AVAILABLE = "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
INDEX = {"rating_points": ("snapshot_id", "date"), "tournament_rating_changes": ("tournament_id", "snapshot_id")}


def upgrade() -> None:
    with op.batch_alter_table("rating_snapshots", schema=None) as batch_op:
        batch_op.add_column(sa.Column("point_columns", sa.LargeBinary(), nullable=True))
        batch_op.add_column(sa.Column("change_columns", sa.LargeBinary(), nullable=True))
    bind = op.get_bind()
    if bind.dialect.name == "postgresql" and bind.scalar(sa.text(LZ4_AVAILABLE)):
        # A few MB per snapshot: PostgreSQL's default compression (pglz) took 80 ms of the write, lz4
        # about a tenth of it, for the same halving of the size.
        op.execute("ALTER TABLE rating_snapshots ALTER COLUMN point_columns SET COMPRESSION lz4, "
                   "ALTER COLUMN change_columns SET COMPRESSION lz4")
    for table_name, (archive_column, fields) in STORED_IN.items():
        table, snapshots = _table(table_name, fields), _snapshots_table()
        for snapshot_id in bind.scalars(sa.select(table.c.snapshot_id).distinct()).all():
            rows = bind.execute(sa.select(*[table.c[name] for name in fields]).where(table.c.snapshot_id == snapshot_id)).all()
            # As Python orders ids, whatever the database's collation.
            rows.sort(key=lambda row, key=KEYS[table_name]: tuple(getattr(row, name) for name in key))  # type: ignore[misc]
            bind.execute(snapshots.update().where(snapshots.c.id == snapshot_id).values({archive_column: _archive(rows, fields)}))
        with op.batch_alter_table(table_name, schema=None) as batch_op:
            batch_op.drop_index(batch_op.f(f"ix_{table_name}_{'_'.join(INDEX[table_name])}"))
        op.drop_table(table_name)


def downgrade() -> None:
    op.create_table(
        "rating_points",
        sa.Column("snapshot_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("date", sa.Date(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("last_played", sa.Date(), nullable=True),
        sa.Column("title", sa.String(length=50), nullable=True),
        sa.Column("counters", JSON, nullable=True),
        sa.Column("tournament_ids", JSON, nullable=False),
        sa.ForeignKeyConstraint(
            ["snapshot_id"], ["rating_snapshots.id"], name=op.f("fk_rating_points_snapshot_id_rating_snapshots"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("snapshot_id", "player_id", "date", name=op.f("pk_rating_points")),
    )
    op.create_table(
        "tournament_rating_changes",
        sa.Column("snapshot_id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("system", sa.String(length=20), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=True),
        sa.Column("rating_after", sa.Float(), nullable=True),
        sa.Column("change", sa.Float(), nullable=True),
        sa.Column("change_unrounded", sa.Float(), nullable=True),
        sa.Column("games_counted", sa.Integer(), nullable=False),
        sa.Column("status_after", sa.String(length=20), nullable=True),
        sa.Column("title_after", sa.String(length=50), nullable=True),
        sa.Column("details", JSON, nullable=True),
        sa.ForeignKeyConstraint(
            ["snapshot_id"], ["rating_snapshots.id"], name=op.f("fk_tournament_rating_changes_snapshot_id_rating_snapshots"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("snapshot_id", "tournament_id", "player_id", name=op.f("pk_tournament_rating_changes")),
    )
    bind = op.get_bind()
    snapshots = _snapshots_table()
    for table_name, (archive_column, fields) in STORED_IN.items():
        with op.batch_alter_table(table_name, schema=None) as batch_op:
            batch_op.create_index(batch_op.f(f"ix_{table_name}_{'_'.join(INDEX[table_name])}"), list(INDEX[table_name]), unique=False)
        stored = bind.execute(sa.select(snapshots.c.id, snapshots.c[archive_column]).where(snapshots.c[archive_column].is_not(None)))
        for snapshot_id, archive in stored.all():
            rows = _rows(snapshot_id, archive, fields)
            if rows:
                op.bulk_insert(_table(table_name, fields), rows)
    # ALTER TABLE ... DROP COLUMN (SQLite 3.35+), never batch mode's copy of the table: dropping the
    # old rating_snapshots would cascade to every snapshot's rows (foreign keys are on).
    with op.batch_alter_table("rating_snapshots", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("change_columns")
        batch_op.drop_column("point_columns")


def _archive(rows: list, fields: dict[str, str]) -> bytes:
    arrays: dict[str, np.ndarray] = {}
    for name, kind in fields.items():
        values = [getattr(row, name) for row in rows]
        stored_name = ARCHIVE_NAME.get(name, name)
        if kind == DAY:
            arrays[stored_name] = np.array([0 if v is None else v.toordinal() for v in values], dtype=np.int32)
        elif kind == FLOAT:
            arrays[stored_name] = np.array([math.nan if v is None else v for v in values], dtype=np.float64)
        elif kind == INT:
            arrays[stored_name] = np.array(values, dtype=np.int64)
        else:
            texts: dict[str, int] = {}
            arrays[stored_name] = np.array([texts.setdefault(json.dumps(v), len(texts)) for v in values], dtype=np.int32)
            arrays[stored_name + ".values"] = np.frombuffer(("[" + ",".join(texts) + "]").encode(), dtype=np.uint8)
    buffer = io.BytesIO()
    np.savez(buffer, allow_pickle=False, **arrays)
    return buffer.getvalue()


def _rows(snapshot_id: int, archive: bytes, fields: dict[str, str]) -> list[dict]:
    columns: dict[str, list[Any]] = {}
    with np.load(io.BytesIO(archive), allow_pickle=False) as loaded:
        stored = {name: loaded[name] for name in loaded.files}
    for name, kind in fields.items():
        if kind == OBJECT:
            columns[name] = _objects(stored, ARCHIVE_NAME.get(name, name))
            continue
        values = stored[ARCHIVE_NAME.get(name, name)].tolist()
        if kind == DAY:
            columns[name] = [dt.date.fromordinal(v) if v else None for v in values]
        elif kind == FLOAT:
            columns[name] = [None if math.isnan(v) else v for v in values]
        else:
            columns[name] = values
    count = len(next(iter(columns.values())))
    return [{"snapshot_id": snapshot_id, **{name: columns[name][i] for name in fields}} for i in range(count)]


def _objects(stored: dict[str, np.ndarray], name: str) -> list[Any]:
    """An object column in any of the application's three layouts: codes into ``<name>.values``;
    one JSON array ``<name>.json``; or dicts of one shape, a column per key (``<name>.fields``,
    ``<name>.absent``, ``<name>.<i>``, each a number array or codes with values)."""
    if name + ".json" in stored:
        return list(json.loads(stored[name + ".json"].tobytes().decode()))
    if name + ".fields" in stored:
        keys = json.loads(stored[name + ".fields"].tobytes().decode())
        per_key = [_objects(stored, f"{name}.{i}") for i in range(len(keys))]
        records = iter([dict(zip(keys, values, strict=True)) for values in zip(*per_key, strict=True)] if keys else [])
        return [None if absent else next(records, {}) for absent in stored[name + ".absent"].tolist()]
    if name + ".values" in stored:
        distinct = json.loads(stored[name + ".values"].tobytes().decode())
        return [distinct[code] for code in stored[name].tolist()]
    return stored[name].tolist()  # a key's numbers inside dicts of one shape


def _table(name: str, fields: dict[str, str]) -> sa.TableClause:
    return sa.table(
        name, sa.column("snapshot_id", sa.Integer),
        *[sa.column(field, JSON if kind == OBJECT and field in ("counters", "tournament_ids", "details")
                    else SQL_TYPE.get(kind, sa.String)) for field, kind in fields.items()],
    )


def _snapshots_table() -> sa.TableClause:
    return sa.table(
        "rating_snapshots", sa.column("id", sa.Integer), sa.column("point_columns", sa.LargeBinary),
        sa.column("change_columns", sa.LargeBinary),
    )
