"""merged_players_index: the merged player records alone in a partial index, so that each submission
asks "is one of my players merged?" of a handful of index entries (docs/decisions.md 7.85)

Revision ID: 0028
Revises: 0027
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0028"
down_revision: str | None = "0027"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MERGED = sa.text("merged_into IS NOT NULL")


def upgrade() -> None:
    op.create_index(
        "ix_players_merged", "players", ["merged_into", "id"], sqlite_where=MERGED, postgresql_where=MERGED
    )


def downgrade() -> None:
    op.drop_index("ix_players_merged", table_name="players")
