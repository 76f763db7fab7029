"""games_without_seq_index: the games' (tournament_id, seq) index goes. A tournament's games are found
through the unique (tournament_id, game_id) index and sorted by seq, a hundred rows; the index cost
every stored game one B-tree more to write (docs/decisions.md 7.88)

Revision ID: 0029
Revises: 0028
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0029"
down_revision: str | None = "0028"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.drop_index("ix_games_tournament_id_seq", table_name="games")


def downgrade() -> None:
    op.create_index("ix_games_tournament_id_seq", "games", ["tournament_id", "seq"])
