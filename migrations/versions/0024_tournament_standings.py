"""tournament_standings: each player's place in a tournament as the tournament decided it, with its
tie-break values (e.g. MMS, SOS, SOSOS for Go) as the submission or the file gives them

Revision ID: 0024
Revises: 0023
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    op.create_table(
        "tournament_standings",
        sa.Column("tournament_id", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("tie_breaks", _JSON, nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_tournament_standings_player_id_players")),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_standings_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "player_id", name=op.f("pk_tournament_standings")),
    )
    op.create_index(op.f("ix_tournament_standings_player_id"), "tournament_standings", ["player_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_tournament_standings_player_id"), table_name="tournament_standings")
    op.drop_table("tournament_standings")
