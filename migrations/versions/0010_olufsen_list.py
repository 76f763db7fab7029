"""default rating list: olufsen (shogi ratings and grades, text 001)

Revision ID: 0010
Revises: 0009
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The params are app.rating.olufsen_list.OlufsenListParams' defaults (INTERPRETATIONS 2.15, 2.17 options
# off); written out here so that the migration does not change when the code does.
DEFAULT_LISTS = [
    {
        "id": "olufsen",
        "name": "Shogi rating (Olufsen)",
        "system": "olufsen",
        "category": "shogi",
        "params": {"provisional_highest_grade": False, "fesa": False},
        "eligibility": {"rated_only": True},
    },
]


def upgrade() -> None:
    rating_lists = sa.table(
        "rating_lists",
        sa.column("id", sa.String),
        sa.column("name", sa.String),
        sa.column("system", sa.String),
        sa.column("category", sa.String),
        sa.column("params", sa.JSON),
        sa.column("eligibility", sa.JSON),
    )
    op.bulk_insert(rating_lists, DEFAULT_LISTS)


def downgrade() -> None:
    op.execute(sa.text("DELETE FROM rating_lists WHERE id = 'olufsen'"))
