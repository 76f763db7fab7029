"""player_reviews: what submissions and imports said of stored players without changing them, for
an officer to accept or dismiss: details that differ from the stored ones, and new players who may
be stored ones (docs/decisions.md 108)

Revision ID: 0032
Revises: 0031
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0032"
down_revision: str | None = "0031"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    op.create_table(
        "player_reviews",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("tournament_id", sa.String(length=64), nullable=True),
        sa.Column("actor", sa.String(length=100), nullable=False),
        sa.Column("stored", _JSON, nullable=False),
        sa.Column("proposed", _JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_by", sa.String(length=100), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_player_reviews_player_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_reviews")),
    )
    op.create_index(op.f("ix_player_reviews_status_id"), "player_reviews", ["status", "id"], unique=False)
    op.create_index(op.f("ix_player_reviews_player_id_status"), "player_reviews", ["player_id", "status"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_player_reviews_player_id_status"), table_name="player_reviews")
    op.drop_index(op.f("ix_player_reviews_status_id"), table_name="player_reviews")
    op.drop_table("player_reviews")
