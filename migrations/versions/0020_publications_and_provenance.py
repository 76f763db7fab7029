"""publications of rating lists, their schedule, and what produced each snapshot

A publication is a numbered, immutable copy of a list's rows as of a date (``publications`` and
``publication_entries``), each row with the player's rating and place in the previous publication.
A list may declare the days of the year it is published on (``rating_lists.publication_days``; the
historical Elo list: 30 April, 31 August and 31 December, text 000 #2 and #5); the worker publishes
on them once, whatever the number of workers (unique (list_id, scheduled_for)). A snapshot records
its system, the service's version, the number of seeds, the eligibility it was computed under and
a SHA-256 digest of its inputs and the ids of the tournaments it read, so that ``python -m app.cli verify`` can reproduce it.

Revision ID: 0020
Revises: 0019
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Text 000 #2 (periods ending 30 April, 31 August, 31 December): the historical Elo list's schedule.
PUBLICATION_DAYS = {"rif-elo": ["04-30", "08-31", "12-31"]}
_JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    # In place (SQLite 3.35+), never batch mode's copy: both tables are referenced.
    with op.batch_alter_table("rating_lists", schema=None, recreate="never") as batch_op:
        batch_op.add_column(sa.Column("publication_days", _JSON, nullable=True))
    rating_lists = sa.table("rating_lists", sa.column("id", sa.String), sa.column("publication_days", _JSON))
    for list_id, days in PUBLICATION_DAYS.items():
        op.execute(rating_lists.update().where(rating_lists.c.id == list_id).values(publication_days=days))
    with op.batch_alter_table("rating_snapshots", schema=None, recreate="never") as batch_op:
        batch_op.add_column(sa.Column("system", sa.String(length=20), nullable=True))
        batch_op.add_column(sa.Column("service_version", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("seeds", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("eligibility", _JSON, nullable=True))
        batch_op.add_column(sa.Column("inputs_digest", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("input_tournaments", _JSON, nullable=True))
    op.create_table(
        "publications",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("list_id", sa.String(length=64), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("date", sa.Date(), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("snapshot_id", sa.Integer(), nullable=False),
        sa.Column("previous_number", sa.Integer(), nullable=True),
        sa.Column("scheduled_for", sa.Date(), nullable=True),
        sa.Column("actor", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("departures", _JSON, nullable=False),
        sa.ForeignKeyConstraint(["list_id"], ["rating_lists.id"], name=op.f("fk_publications_list_id_rating_lists")),
        sa.ForeignKeyConstraint(
            ["snapshot_id"], ["rating_snapshots.id"], name=op.f("fk_publications_snapshot_id_rating_snapshots")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_publications")),
        sa.UniqueConstraint("list_id", "number", name=op.f("uq_publications_list_id_number")),
        sa.UniqueConstraint("list_id", "scheduled_for", name=op.f("uq_publications_list_id_scheduled_for")),
    )
    op.create_table(
        "publication_entries",
        sa.Column("publication_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=401), nullable=True),
        sa.Column("country", sa.String(length=3), nullable=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("last_played", sa.Date(), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("title", sa.String(length=50), nullable=True),
        sa.Column("counters", _JSON, nullable=True),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("previous_rating", sa.Float(), nullable=True),
        sa.Column("previous_place", sa.Integer(), nullable=True),
        sa.Column("change", sa.Float(), nullable=True),
        sa.Column("marker", sa.String(length=20), nullable=True),
        sa.ForeignKeyConstraint(
            ["publication_id"], ["publications.id"], name=op.f("fk_publication_entries_publication_id_publications")
        ),
        sa.PrimaryKeyConstraint("publication_id", "player_id", name=op.f("pk_publication_entries")),
    )
    op.create_index(op.f("ix_publication_entries_publication_id_position"), "publication_entries", ["publication_id", "position"])
    op.create_index(
        op.f("ix_publication_entries_publication_id_status_position"),
        "publication_entries",
        ["publication_id", "status", "position"],
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_publication_entries_publication_id_status_position"), table_name="publication_entries")
    op.drop_index(op.f("ix_publication_entries_publication_id_position"), table_name="publication_entries")
    op.drop_table("publication_entries")
    op.drop_table("publications")
    with op.batch_alter_table("rating_snapshots", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("input_tournaments")
        batch_op.drop_column("inputs_digest")
        batch_op.drop_column("eligibility")
        batch_op.drop_column("seeds")
        batch_op.drop_column("service_version")
        batch_op.drop_column("system")
    with op.batch_alter_table("rating_lists", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("publication_days")
