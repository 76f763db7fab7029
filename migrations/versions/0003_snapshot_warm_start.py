"""rating_snapshots.warm_start: the fitted player-days as a compact blob for warm starts

Revision ID: 0003
Revises: 0002
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rating_snapshots", schema=None) as batch_op:
        batch_op.add_column(sa.Column("warm_start", sa.LargeBinary(), nullable=True))


def downgrade() -> None:
    # ALTER TABLE ... DROP COLUMN (SQLite 3.35+), never batch mode's copy of rating_snapshots: dropping the old
    # table would cascade to (or be refused by) the rows that reference it (foreign keys are on).
    with op.batch_alter_table("rating_snapshots", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("warm_start")
