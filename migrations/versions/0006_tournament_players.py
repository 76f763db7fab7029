"""tournament_players: each player's declared rank, rating, club and EGF pin as at one tournament;
tournaments.tournament_class / handicap_rule / komi from Go tournament files

Revision ID: 0006
Revises: 0003
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("rank", sa.String(length=4), nullable=True),
        sa.Column("rating", sa.Float(), nullable=True),
        sa.Column("club", sa.String(length=100), nullable=True),
        sa.Column("egf_pin", sa.String(length=20), nullable=True),
        sa.Column("rating_origin", sa.String(length=40), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_tournament_players_player_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_players_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "player_id", name=op.f("pk_tournament_players")),
    )
    with op.batch_alter_table("tournament_players", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tournament_players_player_id"), ["player_id"], unique=False)
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.add_column(sa.Column("tournament_class", sa.String(length=10), nullable=True))
        batch_op.add_column(sa.Column("handicap_rule", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("komi", sa.Float(), nullable=True))


def downgrade() -> None:
    # ALTER TABLE ... DROP COLUMN (SQLite 3.35+), never batch mode's copy of tournaments: dropping the old
    # table would cascade to (or be refused by) the rows that reference it (foreign keys are on).
    with op.batch_alter_table("tournaments", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("komi")
        batch_op.drop_column("handicap_rule")
        batch_op.drop_column("tournament_class")
    with op.batch_alter_table("tournament_players", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_players_player_id"))
    op.drop_table("tournament_players")
