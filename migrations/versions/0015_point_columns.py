"""a snapshot's per-day points as one archive of columns (rating_snapshots.point_columns) instead of
rating_points rows

Revision ID: 0015
Revises: 0014

Every stored snapshot's rows are converted: the archive is a NumPy ``.npz`` of one array per field,
sorted by player id, then date. Dates are ``date.toordinal()`` numbers (0 for none), a missing
deviation NaN; an object column (player_id, status, title, counters, tournament_ids) is ``int32``
codes into ``<name>.values``, the UTF-8 bytes of one JSON array of its distinct values. That format
is written out here, not imported: a migration does not follow the application's code
(app/services/stored_columns.py reads and writes the same format). Downgrading restores the rows.
"""
import datetime as dt
import io
import json
import math
from collections.abc import Sequence

import numpy as np
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")
NUMBERS = {"day": np.int32, "rating": np.float64, "deviation": np.float64, "games": np.int64, "last_played": np.int32}
OBJECTS = ("player_id", "status", "title", "counters", "tournament_ids")


def upgrade() -> None:
    with op.batch_alter_table("rating_snapshots", schema=None) as batch_op:
        batch_op.add_column(sa.Column("point_columns", sa.LargeBinary(), nullable=True))
    bind = op.get_bind()
    points, snapshots = _points_table(), _snapshots_table()
    for snapshot_id in bind.scalars(sa.select(points.c.snapshot_id).distinct()).all():
        rows = bind.execute(
            sa.select(*[points.c[name] for name in _ROW_FIELDS])
            .where(points.c.snapshot_id == snapshot_id)
        ).all()
        rows.sort(key=lambda row: (row.player_id, row.date))  # as Python orders ids, whatever the collation
        bind.execute(snapshots.update().where(snapshots.c.id == snapshot_id).values(point_columns=_archive(rows)))
    with op.batch_alter_table("rating_points", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_rating_points_snapshot_id_date"))
    op.drop_table("rating_points")


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
    with op.batch_alter_table("rating_points", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_rating_points_snapshot_id_date"), ["snapshot_id", "date"], unique=False)
    bind = op.get_bind()
    snapshots = _snapshots_table()
    stored = bind.execute(sa.select(snapshots.c.id, snapshots.c.point_columns).where(snapshots.c.point_columns.is_not(None)))
    for snapshot_id, archive in stored.all():
        rows = _rows(snapshot_id, archive)
        if rows:
            op.bulk_insert(_points_table(), rows)
    # ALTER TABLE ... DROP COLUMN (SQLite 3.35+), never batch mode's copy of the table: dropping the
    # old rating_snapshots would cascade to every snapshot's rows (foreign keys are on).
    with op.batch_alter_table("rating_snapshots", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("point_columns")


_ROW_FIELDS = ("player_id", "date", "rating", "deviation", "games", "status", "last_played", "title", "counters", "tournament_ids")


def _archive(rows: list) -> bytes:
    arrays: dict[str, np.ndarray] = {
        "day": np.array([row.date.toordinal() for row in rows], dtype=np.int32),
        "rating": np.array([row.rating for row in rows], dtype=np.float64),
        "deviation": np.array([math.nan if row.deviation is None else row.deviation for row in rows], dtype=np.float64),
        "games": np.array([row.games for row in rows], dtype=np.int64),
        "last_played": np.array([row.last_played.toordinal() if row.last_played else 0 for row in rows], dtype=np.int32),
    }
    for name in OBJECTS:
        texts: dict[str, int] = {}
        codes = [texts.setdefault(json.dumps(getattr(row, name)), len(texts)) for row in rows]
        arrays[name] = np.array(codes, dtype=np.int32)
        arrays[name + ".values"] = np.frombuffer(("[" + ",".join(texts) + "]").encode(), dtype=np.uint8)
    buffer = io.BytesIO()
    np.savez(buffer, allow_pickle=False, **arrays)
    return buffer.getvalue()


def _rows(snapshot_id: int, archive: bytes) -> list[dict]:
    with np.load(io.BytesIO(archive), allow_pickle=False) as stored:
        numbers = {name: stored[name].tolist() for name in NUMBERS}
        objects = {}
        for name in OBJECTS:
            values = json.loads(stored[name + ".values"].tobytes().decode())
            objects[name] = [values[code] for code in stored[name].tolist()]
    return [
        {
            "snapshot_id": snapshot_id,
            "player_id": objects["player_id"][i],
            "date": dt.date.fromordinal(day),
            "rating": numbers["rating"][i],
            "deviation": None if math.isnan(numbers["deviation"][i]) else numbers["deviation"][i],
            "games": numbers["games"][i],
            "status": objects["status"][i],
            "last_played": dt.date.fromordinal(numbers["last_played"][i]) if numbers["last_played"][i] else None,
            "title": objects["title"][i],
            "counters": objects["counters"][i],
            "tournament_ids": objects["tournament_ids"][i],
        }
        for i, day in enumerate(numbers["day"])
    ]


def _points_table() -> sa.Table:
    return sa.table(
        "rating_points",
        sa.column("snapshot_id", sa.Integer), sa.column("player_id", sa.String), sa.column("date", sa.Date),
        sa.column("rating", sa.Float), sa.column("deviation", sa.Float), sa.column("games", sa.Integer),
        sa.column("status", sa.String), sa.column("last_played", sa.Date), sa.column("title", sa.String),
        sa.column("counters", JSON), sa.column("tournament_ids", JSON),
    )


def _snapshots_table() -> sa.Table:
    return sa.table("rating_snapshots", sa.column("id", sa.Integer), sa.column("point_columns", sa.LargeBinary))
