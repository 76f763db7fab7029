"""tournaments (category, end): the repeat check's stored tournaments that may overlap a new one (same
category, ending on or after its start) as a range of one index; on SQLite the planner took the
category's index alone and read every tournament of the category (docs/decisions.md 7.73). The
composite index serves the category's own look-ups too, so that index goes.

Revision ID: 0027
Revises: 0026
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0027"
down_revision: str | None = "0026"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_tournaments_category_end", "tournaments", ["category", "end"])
    op.drop_index("ix_tournaments_category", table_name="tournaments")


def downgrade() -> None:
    op.create_index("ix_tournaments_category", "tournaments", ["category"])
    op.drop_index("ix_tournaments_category_end", table_name="tournaments")
