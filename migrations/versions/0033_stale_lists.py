"""stale_lists: a list records when its inputs first changed after its current snapshot read them
with no recompute queued to read them, and what changed, so that its readers are told
(docs/decisions.md 7.106)

``rating_lists.stale_since`` and ``stale_reason`` say it; ``input_changes`` counts such changes, so
that a recompute clears them only if no change came after it began reading. A list that does not
recompute itself (the historical ``rif-elo``) may be stale already: it is marked from the first
recorded change after its current snapshot (every change of a tournament of its category, its seeds
or its parameters since then, as the revisions have them; for a list never computed, since the
first), which may count a change that does not touch it: its next recompute clears the mark.

Revision ID: 0033
Revises: 0032
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0033"
down_revision: str | None = "0032"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_LISTS = sa.table(
    "rating_lists",
    sa.column("id", sa.String),
    sa.column("category", sa.String),
    sa.column("auto_recompute", sa.Boolean),
    sa.column("current_snapshot_id", sa.Integer),
    sa.column("stale_since", sa.DateTime(timezone=True)),
    sa.column("stale_reason", sa.Text),
    sa.column("input_changes", sa.Integer),
)
_SNAPSHOTS = sa.table("rating_snapshots", sa.column("id", sa.Integer), sa.column("created_at", sa.DateTime(timezone=True)))
_TOURNAMENTS = sa.table("tournaments", sa.column("id", sa.String), sa.column("category", sa.String))
_REVISIONS = sa.table(
    "revisions",
    sa.column("subject", sa.String),
    sa.column("subject_id", sa.String),
    sa.column("kind", sa.String),
    sa.column("at", sa.DateTime(timezone=True)),
)
_TOURNAMENT_CHANGES = ("submitted", "corrected", "withdrawn", "restored")
_LIST_CHANGES = {"seeds_changed": "seeds changed", "params_changed": "parameters changed"}


def upgrade() -> None:
    # In place (SQLite 3.35+), never batch mode's copy: rating_lists is referenced.
    with op.batch_alter_table("rating_lists", schema=None, recreate="never") as batch_op:
        batch_op.add_column(sa.Column("stale_since", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("stale_reason", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("input_changes", sa.Integer(), server_default=sa.text("0"), nullable=False))
    connection = op.get_bind()
    lists = connection.execute(
        sa.select(_LISTS.c.id, _LISTS.c.category, _SNAPSHOTS.c.created_at)
        .outerjoin(_SNAPSHOTS, _SNAPSHOTS.c.id == _LISTS.c.current_snapshot_id)
        .where(_LISTS.c.auto_recompute.is_(False))
    ).all()
    for list_id, category, computed_at in lists:
        first = _first_change_since(connection, list_id, category, computed_at)
        if first is not None:
            at, reason = first
            connection.execute(
                _LISTS.update()
                .where(_LISTS.c.id == list_id)
                .values(stale_since=at, stale_reason=f"{reason} (found by migration 0033)", input_changes=1)
            )


def _first_change_since(connection: sa.Connection, list_id: str, category: str, computed_at: object) -> tuple[object, str] | None:
    """The list's first recorded change after its snapshot was computed (after nothing: never
    computed): the time and the words, as a change marks a list now."""
    later = [] if computed_at is None else [_REVISIONS.c.at > computed_at]
    of_tournaments = connection.execute(
        sa.select(_REVISIONS.c.at, _REVISIONS.c.subject_id, _REVISIONS.c.kind)
        .join(_TOURNAMENTS, _TOURNAMENTS.c.id == _REVISIONS.c.subject_id)
        .where(
            _REVISIONS.c.subject == "tournament",
            _REVISIONS.c.kind.in_(_TOURNAMENT_CHANGES),
            _TOURNAMENTS.c.category == category,
            *later,
        )
        .order_by(_REVISIONS.c.at)
        .limit(1)
    ).first()
    of_list = connection.execute(
        sa.select(_REVISIONS.c.at, _REVISIONS.c.kind)
        .where(
            _REVISIONS.c.subject == "rating_list",
            _REVISIONS.c.subject_id == list_id,
            _REVISIONS.c.kind.in_(_LIST_CHANGES),
            *later,
        )
        .order_by(_REVISIONS.c.at)
        .limit(1)
    ).first()
    found = []
    if of_tournaments is not None:
        found.append((of_tournaments.at, f"tournament {of_tournaments.subject_id} {of_tournaments.kind}"))
    if of_list is not None:
        found.append((of_list.at, _LIST_CHANGES[of_list.kind]))
    return min(found, key=lambda change: change[0]) if found else None


def downgrade() -> None:
    with op.batch_alter_table("rating_lists", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("input_changes")
        batch_op.drop_column("stale_reason")
        batch_op.drop_column("stale_since")
