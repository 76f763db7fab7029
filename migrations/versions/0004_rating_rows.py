"""rating rows for every system: entries gain title and counters, the per-day history moves from
the entries' JSON blob into rating_points rows, per-tournament changes gain title_after and details

Revision ID: 0004
Revises: 0003

Snapshots written before this revision keep their entries but lose their per-day history (it was a
JSON blob); recompute a list once after upgrading to fill its chart series and as-of reads.
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("rating_entries", schema=None) as batch_op:
        batch_op.drop_column("history")
        batch_op.add_column(sa.Column("title", sa.String(length=50), nullable=True))
        batch_op.add_column(sa.Column("counters", JSON, nullable=True))
        batch_op.create_index(batch_op.f("ix_rating_entries_snapshot_id_rating"), ["snapshot_id", "rating"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_rating_entries_snapshot_id_status_rating"), ["snapshot_id", "status", "rating"], unique=False
        )
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
    with op.batch_alter_table("tournament_rating_changes", schema=None) as batch_op:
        batch_op.add_column(sa.Column("title_after", sa.String(length=50), nullable=True))
        batch_op.add_column(sa.Column("details", JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament_rating_changes", schema=None) as batch_op:
        batch_op.drop_column("details")
        batch_op.drop_column("title_after")
    with op.batch_alter_table("rating_points", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_rating_points_snapshot_id_date"))
    op.drop_table("rating_points")
    with op.batch_alter_table("rating_entries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_rating_entries_snapshot_id_status_rating"))
        batch_op.drop_index(batch_op.f("ix_rating_entries_snapshot_id_rating"))
        batch_op.drop_column("counters")
        batch_op.drop_column("title")
        # The per-day history of older snapshots is not restored: recompute after downgrading.
        batch_op.add_column(sa.Column("history", JSON, nullable=False, server_default=sa.text("'{}'")))
