"""default rating lists: rif-whr, rif-whr-gomoku and the historical rif-elo list

Revision ID: 0002
Revises: 0001
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Text 002 #8 and INTERPRETATIONS 3.2; eligibility per text 002 #9 / INTERPRETATIONS 3.7.
WHR_PARAMS = {"w2": 12.9, "virtual_games": 2, "virtual_rating": 1900.0, "start_rating": 1900.0}
CERTIFIED_RULES = ["RIF", "Yamaguchi", "Soosyrv-N", "Taraguchi-N", "Yamasyrv-N", "Sakata"]
WHR_ELIGIBILITY = {
    "rated_only": True,
    "min_time_control_minutes": 30,
    "certified_rules": CERTIFIED_RULES,
    "formats": ["face-to-face", "supervised-online"],
    "complete_records": True,
}
DEFAULT_LISTS = [
    {
        "id": "rif-whr",
        "name": "RIF rating (Whole-History Rating), renju",
        "system": "rif-whr",
        "category": "renju",
        "params": WHR_PARAMS,
        "eligibility": WHR_ELIGIBILITY,
    },
    {
        "id": "rif-whr-gomoku",
        "name": "RIF rating (Whole-History Rating), gomoku",
        "system": "rif-whr",
        "category": "gomoku",
        "params": WHR_PARAMS,
        "eligibility": {**WHR_ELIGIBILITY, "certified_rules": None},
    },
    {
        "id": "rif-elo",
        "name": "Historical RIF Elo list (1995 rules to 1996, 1997 rules to 2021-08-07)",
        "system": "rif-elo",
        "category": "renju",
        "params": {"switch_to_1997": "1997-01-01", "last_day": "2021-08-07", "bootstrap_rating": None},
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
    op.execute(
        sa.text("DELETE FROM rating_lists WHERE id IN ('rif-whr', 'rif-whr-gomoku', 'rif-elo')")
    )
