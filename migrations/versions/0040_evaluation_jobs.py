"""evaluation jobs: a job's request, and one queued recompute per list, whatever else is queued (issue 45)

An evaluation of a list (how well its ratings predict its games) is a job of kind ``evaluation`` in
the same queue as the recomputes: the same workers claim it, report its progress and heartbeats and
queue it again when its worker dies. What it was asked (mode, periods, holdout, sweep) is the job's
``request``. The index that keeps one queued recompute per list now names the kind: an evaluation
queued for a list must neither block its recompute nor be joined by a submission.

Revision ID: 0040
Revises: 0039
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0040"
down_revision: str | None = "0039"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD_PREDICATE = "status = 'queued'"
NEW_PREDICATE = "status = 'queued' AND kind = 'recompute'"


def upgrade() -> None:
    with op.batch_alter_table("jobs", schema=None, recreate="never") as batch_op:
        batch_op.add_column(
            sa.Column("request", sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"), nullable=True)
        )
    _replace_queued_index(OLD_PREDICATE, NEW_PREDICATE)


def downgrade() -> None:
    op.execute("DELETE FROM jobs WHERE kind <> 'recompute'")
    _replace_queued_index(NEW_PREDICATE, OLD_PREDICATE)
    with op.batch_alter_table("jobs", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("request")


def _replace_queued_index(old: str, new: str) -> None:
    op.drop_index("uq_jobs_list_id_queued", table_name="jobs", sqlite_where=sa.text(old), postgresql_where=sa.text(old))
    op.create_index(
        "uq_jobs_list_id_queued", "jobs", ["list_id"], unique=True, sqlite_where=sa.text(new), postgresql_where=sa.text(new)
    )
