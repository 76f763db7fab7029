"""tournament_venue: a tournament's venue, the hall or club it was played in (docs/decisions.md 113)

A column of its own, as every field a tournament says of itself has (``TournamentDetails`` in
app/schemas/tournaments.py declares it); null for the tournaments stored before.

Revision ID: 0036
Revises: 0035
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0036"
down_revision: str | None = "0035"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # In place (SQLite 3.35+), never batch mode's copy: dropping the old copy of tournaments would
    # cascade to (or be refused by) the rows that reference it (foreign keys are on).
    with op.batch_alter_table("tournaments", schema=None, recreate="never") as batch_op:
        batch_op.add_column(sa.Column("venue", sa.String(length=200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("venue")
