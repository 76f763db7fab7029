"""default rating list: rivne, the Rivne Go club rating (text 004)

Revision ID: 0012
Revises: 0006
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The params are RivneListParams' defaults (app/rating/rivne_list.py), written out: a migration does
# not import the application.
DEFAULT_LISTS = [
    {
        "id": "rivne",
        "name": "Go club rating (Rivne)",
        "system": "rivne",
        "category": "go",
        "params": {"newcomer_start": "rank"},
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
    op.execute(sa.text("DELETE FROM rating_lists WHERE id = 'rivne'"))
