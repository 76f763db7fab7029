"""default rating list: eru, the Estonian kyu/dan ranks and rating (text 003)

Revision ID: 0013
Revises: 0012
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The params are EruListParams' defaults (app/rating/eru_list.py, INTERPRETATIONS 4.8), written out: a
# migration does not import the application. Every stored renju tournament is read; the replay itself
# leaves out those the text cannot count (ERU 4.5, 4.9).
DEFAULT_LISTS = [
    {
        "id": "eru",
        "name": "Estonian kyu/dan ranks and rating (ERU)",
        "system": "eru",
        "category": "renju",
        "params": {"first_rank": "15k"},
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
    op.execute(sa.text("DELETE FROM rating_lists WHERE id = 'eru'"))
