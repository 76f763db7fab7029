"""idempotency_response_as_sent: a kept answer to an Idempotency-Key stored as JSON text, not JSONB

A replay must be the first answer as it was sent; PostgreSQL's ``jsonb`` keeps an object's keys in
an order of its own (shorter keys first), so a replayed 201 had the same values in another order, and
a client comparing the two answers saw two answers. ``json`` keeps the text as written. SQLite stores
JSON as text already: nothing changes there. The records kept before keep jsonb's order.

Revision ID: 0037
Revises: 0036
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0037"
down_revision: str | None = "0036"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.alter_column(
            "idempotency_records",
            "response",
            type_=sa.JSON(),
            existing_type=postgresql.JSONB(),
            postgresql_using="response::json",
        )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.alter_column(
            "idempotency_records",
            "response",
            type_=postgresql.JSONB(),
            existing_type=sa.JSON(),
            postgresql_using="response::jsonb",
        )
