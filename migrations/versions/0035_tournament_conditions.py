"""tournament_conditions: what a rating system asks of a tournament beyond the fields every system
reads moves out of the shared columns into one document per system, ``tournaments.conditions``
(docs/decisions.md 112)

The Estonian system's six columns (``eru_calendar``, ``referee_accepted``, ``international``,
``championship``, ``games_recorded``, ``byo_yomi``, migration 0007) become its document
``conditions.eru``, holding what differs from their defaults (false, none) as the service stores it
now: a tournament that stated none of them has an empty ``conditions``. The downgrade puts the
columns back with the document's values and drops ``conditions`` (with any other system's
document, which the earlier code has no place for).

Revision ID: 0035
Revises: 0033
"""

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0035"
down_revision: str | None = "0033"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FLAGS = ("eru_calendar", "referee_accepted", "international", "games_recorded", "byo_yomi")
SYSTEM = "eru"  # the document's key: the Estonian system's id

_JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")
_TOURNAMENTS = sa.table(
    "tournaments",
    sa.column("id", sa.String),
    sa.column("conditions", _JSON),
    *(sa.column(flag, sa.Boolean) for flag in FLAGS),
    sa.column("championship", sa.String),
)


def upgrade() -> None:
    # In place (SQLite 3.35+), never batch mode's copy: dropping the old copy of tournaments would
    # cascade to (or be refused by) the rows that reference it (foreign keys are on).
    with op.batch_alter_table("tournaments", schema=None, recreate="never") as batch_op:
        batch_op.add_column(sa.Column("conditions", _JSON, server_default=sa.text("'{}'"), nullable=False))
    connection = op.get_bind()
    stated = connection.execute(
        sa.select(_TOURNAMENTS.c.id, *(_TOURNAMENTS.c[flag] for flag in FLAGS), _TOURNAMENTS.c.championship).where(
            sa.or_(*(_TOURNAMENTS.c[flag].is_(True) for flag in FLAGS), _TOURNAMENTS.c.championship.is_not(None))
        )
    ).all()
    for tournament_id, *flags, championship in stated:
        document: dict[str, Any] = {flag: True for flag, value in zip(FLAGS, flags, strict=True) if value}
        if championship is not None:
            document["championship"] = championship
        connection.execute(_TOURNAMENTS.update().where(_TOURNAMENTS.c.id == tournament_id).values(conditions={SYSTEM: document}))
    with op.batch_alter_table("tournaments", schema=None, recreate="never") as batch_op:
        for column in (*FLAGS, "championship"):
            batch_op.drop_column(column)


def downgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None, recreate="never") as batch_op:
        for flag in FLAGS:
            batch_op.add_column(sa.Column(flag, sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column("championship", sa.String(length=30), nullable=True))
    connection = op.get_bind()
    for tournament_id, conditions in connection.execute(sa.select(_TOURNAMENTS.c.id, _TOURNAMENTS.c.conditions)).all():
        document = (conditions or {}).get(SYSTEM)
        if document:
            values = {flag: bool(document.get(flag)) for flag in FLAGS}
            connection.execute(
                _TOURNAMENTS.update()
                .where(_TOURNAMENTS.c.id == tournament_id)
                .values(**values, championship=document.get("championship"))
            )
    with op.batch_alter_table("tournaments", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("conditions")
