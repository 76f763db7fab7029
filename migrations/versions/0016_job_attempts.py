"""jobs.attempts: how many times a worker has claimed the job

A job whose worker died mid-run (killed process, lost database connection) is queued again once;
the count tells the second death from the first, so a job that kills its worker is not retried
forever. Existing jobs count as claimed once when they ever started.

Revision ID: 0016
Revises: 0015
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("jobs", schema=None, recreate="never") as batch_op:
        batch_op.add_column(sa.Column("attempts", sa.Integer(), server_default="0", nullable=False))
    op.execute(sa.text("UPDATE jobs SET attempts = 1 WHERE started_at IS NOT NULL"))


def downgrade() -> None:
    with op.batch_alter_table("jobs", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("attempts")
