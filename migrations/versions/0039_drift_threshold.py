"""drift_threshold: a list's threshold of drift, in rating points over 12 months (issue 46 item 4)

Null: the default of the list's system (``RatingSystem.drift_threshold``, docs/decisions.md 127).

Revision ID: 0039
Revises: 0038
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0039"
down_revision: str | None = "0038"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # In place (SQLite 3.35+), never batch mode's copy: rating_lists is referenced.
    with op.batch_alter_table("rating_lists", schema=None, recreate="never") as batch_op:
        batch_op.add_column(sa.Column("drift_threshold", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rating_lists", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("drift_threshold")
