"""rating_lists.auto_recompute; idempotency records may be in progress (no response yet)

A list with auto_recompute queues its own recompute when a tournament it rates is submitted (on
for the lists of today's systems: WHR, Olufsen and Rivne; off for the historical Elo list, which
ends in 2017). An idempotency record is now inserted first,
in the submission's own transaction, and completed with the response before the commit: the key's
row lock makes a concurrent request with the same key wait for the outcome instead of repeating
the work; so status_code and response are empty until the record is completed.

Revision ID: 0013
Revises: 0012
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

AUTO_RECOMPUTE_LISTS = ("rif-whr", "rif-whr-gomoku", "olufsen", "rivne")
_JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("rating_lists", schema=None) as batch_op:
        batch_op.add_column(sa.Column("auto_recompute", sa.Boolean(), server_default=sa.false(), nullable=False))
    rating_lists = sa.table("rating_lists", sa.column("id", sa.String), sa.column("auto_recompute", sa.Boolean))
    op.execute(rating_lists.update().where(rating_lists.c.id.in_(AUTO_RECOMPUTE_LISTS)).values(auto_recompute=True))
    with op.batch_alter_table("idempotency_records", schema=None) as batch_op:
        batch_op.alter_column("status_code", existing_type=sa.Integer(), nullable=True)
        batch_op.alter_column("response", existing_type=_JSON, nullable=True)


def downgrade() -> None:
    op.execute(sa.text("DELETE FROM idempotency_records WHERE status_code IS NULL"))
    with op.batch_alter_table("idempotency_records", schema=None) as batch_op:
        batch_op.alter_column("response", existing_type=_JSON, nullable=False)
        batch_op.alter_column("status_code", existing_type=sa.Integer(), nullable=False)
    # ALTER TABLE ... DROP COLUMN (SQLite 3.35+), never batch mode's copy of rating_lists: dropping the old
    # table would cascade to (or be refused by) the rows that reference it (foreign keys are on).
    with op.batch_alter_table("rating_lists", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("auto_recompute")
