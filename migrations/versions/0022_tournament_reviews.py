"""officers' reviews of submitted tournaments, for the lists that require one

A list may require an officer's confirmation before a submitted tournament counts
(``rating_lists.requires_review``, off for every list at first). Each tournament submitted to such a
list gets a ``tournament_reviews`` row, pending until an officer of the list confirms or rejects it
with a reason; a tournament without a row was stored before the list required reviews and is not
held back (docs/decisions.md 7.29–7.31).

Revision ID: 0022
Revises: 0021
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # In place (SQLite 3.35+), never batch mode's copy: rating_lists is referenced.
    with op.batch_alter_table("rating_lists", schema=None, recreate="never") as batch_op:
        batch_op.add_column(sa.Column("requires_review", sa.Boolean(), server_default=sa.false(), nullable=False))
    op.create_table(
        "tournament_reviews",
        sa.Column("list_id", sa.String(length=64), nullable=False),
        sa.Column("tournament_id", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("submitted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("decided_by", sa.String(length=100), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["list_id"], ["rating_lists.id"], name=op.f("fk_tournament_reviews_list_id_rating_lists")),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_reviews_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("list_id", "tournament_id", name=op.f("pk_tournament_reviews")),
    )
    op.create_index(
        op.f("ix_tournament_reviews_list_id_status_submitted_at"),
        "tournament_reviews",
        ["list_id", "status", "submitted_at"],
        unique=False,
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_tournament_reviews_list_id_status_submitted_at"), table_name="tournament_reviews")
    op.drop_table("tournament_reviews")
    with op.batch_alter_table("rating_lists", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("requires_review")
