"""tournaments: the conditions the Estonian kyu/dan system asks of a tournament (ERU 4.5, 4.9)

Revision ID: 0007
Revises: 0003
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FLAGS = ("eru_calendar", "referee_accepted", "international", "games_recorded", "byo_yomi")


def upgrade() -> None:
    # Stored tournaments did not state these conditions: false (not met) until corrected.
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        for flag in FLAGS:
            batch_op.add_column(sa.Column(flag, sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column("championship", sa.String(length=30), nullable=True))


def downgrade() -> None:
    # ALTER TABLE ... DROP COLUMN (SQLite 3.35+), never batch mode's copy of tournaments: dropping the old
    # table would cascade to (or be refused by) the rows that reference it (foreign keys are on).
    with op.batch_alter_table("tournaments", schema=None, recreate="never") as batch_op:
        for column in (*FLAGS, "championship"):
            batch_op.drop_column(column)
