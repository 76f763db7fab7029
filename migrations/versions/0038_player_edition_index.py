"""player_edition_index: an index of the revisions by subject, kind and id

Each process reads, with the lists' current snapshots, the latest revision that changed what a list
shows of a player (a rename, a change, a merge): a list's kept answers and ETags follow it
(app.snapshots.current_snapshots). The index answers that from a few entries, not the table.

Revision ID: 0038
Revises: 0037
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0038"
down_revision: str | None = "0037"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_revisions_subject_kind_id", "revisions", ["subject", "kind", "id"])


def downgrade() -> None:
    op.drop_index("ix_revisions_subject_kind_id", table_name="revisions")
