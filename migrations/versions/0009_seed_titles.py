"""rating_seeds.title and .counters: systems with grades or ranks start a player from one

Revision ID: 0009
Revises: 0007
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0009"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("rating_seeds", schema=None) as batch_op:
        batch_op.add_column(sa.Column("title", sa.String(length=20), nullable=True))
        batch_op.add_column(sa.Column("counters", JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rating_seeds", schema=None) as batch_op:
        batch_op.drop_column("counters")
        batch_op.drop_column("title")
