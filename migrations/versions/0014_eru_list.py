"""default rating list: eru, the Estonian kyu/dan ranks and rating (text 003)

Revision ID: 0014
Revises: 0013
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The params are EruListParams' defaults (app/rating/eru_list.py, INTERPRETATIONS 4.8), written out: a
# migration does not import the application. Only tournaments in the ERU calendar, accepted by a
# referee or international are read (ERU 4.5); the replay itself leaves out what the text cannot
# count further (ERU 4.9: the rating only from calendar tournaments).
DEFAULT_LISTS = [
    {
        "id": "eru",
        "name": "Estonian kyu/dan ranks and rating (ERU)",
        "system": "eru",
        "category": "renju",
        "params": {"first_rank": "15k"},
        "eligibility": {"rated_only": True, "recognised_by": ["eru_calendar", "referee_accepted", "international"]},
        "auto_recompute": True,  # a current list: it recomputes itself after each submission it rates
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
        sa.column("auto_recompute", sa.Boolean),
    )
    op.bulk_insert(rating_lists, DEFAULT_LISTS)


def downgrade() -> None:
    op.execute(sa.text("DELETE FROM rating_lists WHERE id = 'eru'"))
