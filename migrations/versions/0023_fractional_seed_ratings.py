"""seed ratings at the precision of their system: fractional (the Rivne Go club rating, text 004)

A Rivne rating is fractional (1533.62, INTERPRETATIONS 5.10), and a club that brings its ratings in
as seeds must not lose the decimals: ``rating_seeds.rating`` becomes a float. The other systems' seed
models still take whole numbers only. Nothing references ``rating_seeds``, so SQLite may copy the table
to change the column's type. The downgrade rounds the ratings back to whole numbers.

Revision ID: 0023
Revises: 0022
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rating_seeds", schema=None) as batch_op:
        batch_op.alter_column("rating", existing_type=sa.Integer(), type_=sa.Float(), existing_nullable=False)


def downgrade() -> None:
    op.execute("UPDATE rating_seeds SET rating = round(rating)")
    with op.batch_alter_table("rating_seeds", schema=None) as batch_op:
        batch_op.alter_column("rating", existing_type=sa.Float(), type_=sa.Integer(), existing_nullable=False)
