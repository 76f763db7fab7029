"""entry_positions: each rating entry's place in its snapshot's list and within its status, so a page
of a list is a range of an index, not a sort of every entry (app.snapshots.entry_positions); filled
in here for the snapshots already stored

Revision ID: 0026
Revises: 0025
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    from app.snapshots.entry_positions import with_positions

    op.drop_index("ix_rating_entries_snapshot_id_status_rating", table_name="rating_entries")
    op.drop_index("ix_rating_entries_snapshot_id_rating", table_name="rating_entries")
    op.add_column("rating_entries", sa.Column("position", sa.Integer(), nullable=True))
    op.add_column("rating_entries", sa.Column("status_position", sa.Integer(), nullable=True))
    connection = op.get_bind()
    entries = sa.table(
        "rating_entries",
        sa.column("snapshot_id", sa.Integer()),
        sa.column("player_id", sa.String()),
        sa.column("rating", sa.Float()),
        sa.column("status", sa.String()),
        sa.column("position", sa.Integer()),
        sa.column("status_position", sa.Integer()),
    )
    snapshot_ids = connection.execute(sa.select(entries.c.snapshot_id).distinct()).scalars().all()
    update = (
        sa.update(entries)
        .where(entries.c.snapshot_id == sa.bindparam("snapshot"), entries.c.player_id == sa.bindparam("player"))
        .values(position=sa.bindparam("first"), status_position=sa.bindparam("second"))
    )
    for snapshot_id in snapshot_ids:  # one snapshot at a time: tens of thousands of rows each at most
        rows = connection.execute(
            sa.select(entries.c.player_id, entries.c.rating, entries.c.status).where(entries.c.snapshot_id == snapshot_id)
        ).all()
        positioned = with_positions([tuple(row) for row in rows], player_id=0, rating=1, status=2)
        connection.execute(
            update, [{"snapshot": snapshot_id, "player": p, "first": first, "second": second} for p, _, _, first, second in positioned]
        )
    op.create_index("ix_rating_entries_snapshot_id_position", "rating_entries", ["snapshot_id", "position"])
    op.create_index(
        "ix_rating_entries_snapshot_id_status_status_position", "rating_entries", ["snapshot_id", "status", "status_position"]
    )


def downgrade() -> None:
    op.drop_index("ix_rating_entries_snapshot_id_status_status_position", table_name="rating_entries")
    op.drop_index("ix_rating_entries_snapshot_id_position", table_name="rating_entries")
    with op.batch_alter_table("rating_entries") as batch:
        batch.drop_column("status_position")
        batch.drop_column("position")
    op.create_index("ix_rating_entries_snapshot_id_rating", "rating_entries", ["snapshot_id", "rating"])
    op.create_index("ix_rating_entries_snapshot_id_status_rating", "rating_entries", ["snapshot_id", "status", "rating"])
