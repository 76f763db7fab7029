"""games_by_player_and_date: a player's games are indexed by colour in the order his page lists them
(player, date, tournament, seq), replacing the indexes of the player alone: a page of a busy
player's games reads its hundred entries from each colour's index instead of fetching and sorting
every game he played (docs/decisions.md 94)

Revision ID: 0030
Revises: 0029
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0030"
down_revision: str | None = "0029"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_ORDER = ["date", "tournament_id", "seq"]


def upgrade() -> None:
    for colour in ("black_id", "white_id"):
        # (IF EXISTS: an import killed midway on SQLite may have left them dropped, app.services.bulk_load.)
        op.drop_index(f"ix_games_{colour}", table_name="games", if_exists=True)
        op.create_index(f"ix_games_{colour}_{'_'.join(_ORDER)}", "games", [colour, *_ORDER])


def downgrade() -> None:
    for colour in ("black_id", "white_id"):
        op.drop_index(f"ix_games_{colour}_{'_'.join(_ORDER)}", table_name="games", if_exists=True)
        op.create_index(f"ix_games_{colour}", "games", [colour])
