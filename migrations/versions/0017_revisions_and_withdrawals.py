"""revisions (the audit trail); tournaments may be withdrawn

Every submission, correction, withdrawal, restore, seed change and parameter change is recorded in
``revisions`` in the change's own transaction, with the whole earlier version. A withdrawn
tournament keeps its row, games and players, with when and why it was withdrawn; no list rates it.

Revision ID: 0017
Revises: 0016
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    # In place (SQLite 3.35+), never batch mode's copy: tournaments is referenced by games.
    with op.batch_alter_table("tournaments", schema=None, recreate="never") as batch_op:
        batch_op.add_column(sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("withdrawn_reason", sa.Text(), nullable=True))
    op.create_table(
        "revisions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("subject", sa.String(length=20), nullable=False),
        sa.Column("subject_id", sa.String(length=64), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=30), nullable=False),
        sa.Column("list_id", sa.String(length=64), nullable=True),
        sa.Column("actor", sa.String(length=100), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("previous", _JSON, nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_revisions")),
        sa.UniqueConstraint("subject", "subject_id", "number", name=op.f("uq_revisions_subject_subject_id_number")),
    )
    op.create_index(op.f("ix_revisions_at"), "revisions", ["at"])
    op.create_index(op.f("ix_revisions_actor_at"), "revisions", ["actor", "at"])
    op.create_index(op.f("ix_revisions_list_id_at"), "revisions", ["list_id", "at"])


def downgrade() -> None:
    op.drop_index(op.f("ix_revisions_list_id_at"), table_name="revisions")
    op.drop_index(op.f("ix_revisions_actor_at"), table_name="revisions")
    op.drop_index(op.f("ix_revisions_at"), table_name="revisions")
    op.drop_table("revisions")
    with op.batch_alter_table("tournaments", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("withdrawn_reason")
        batch_op.drop_column("withdrawn_at")
