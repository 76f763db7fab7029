"""api_keys: write keys stored hashed, each an organiser's or an officer's

A key created with ``python -m app.cli keys create`` is stored as the SHA-256 digest of its secret
(a random token, so a fast digest is enough: nothing to guess from it), with its role and, for an
officer, the lists and categories it is limited to. A revoked key keeps its row, so its name (the
actor of its revisions) is never given to another key. Keys from RATING_API_KEYS are not stored.

Revision ID: 0019
Revises: 0018
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    op.create_table(
        "api_keys",
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("lists", _JSON, nullable=False),
        sa.Column("categories", _JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_api_keys")),
        sa.UniqueConstraint("digest", name=op.f("uq_api_keys_digest")),
    )


def downgrade() -> None:
    op.drop_table("api_keys")
