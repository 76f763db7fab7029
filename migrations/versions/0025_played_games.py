"""played_games: each tournament's played games as one value (player ids and packed game records), which
the recompute reads instead of the games' rows (docs/decisions.md 7.67); filled from the stored games

Revision ID: 0025
Revises: 0024
"""

from collections.abc import Sequence
from itertools import groupby
from operator import itemgetter

import sqlalchemy as sa
from alembic import op

from app.snapshots.played_games import value_of

revision: str = "0025"
down_revision: str | None = "0024"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_BATCH = 500  # tournaments' values a statement

_games = sa.table(
    "games",
    sa.column("tournament_id", sa.String),
    sa.column("seq", sa.Integer),
    sa.column("black_id", sa.String),
    sa.column("white_id", sa.String),
    sa.column("result", sa.String),
    sa.column("played", sa.Boolean),
    sa.column("date", sa.Date),
)


def upgrade() -> None:
    played_games = op.create_table(
        "played_games",
        sa.Column("tournament_id", sa.String(length=64), nullable=False),
        sa.Column("players", sa.Text(), nullable=False),
        sa.Column("games", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"], name=op.f("fk_played_games_tournament_id_tournaments"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("tournament_id", name=op.f("pk_played_games")),
    )
    connection = op.get_bind()
    # Streamed a tournament at a time: the whole games table never sits in memory.
    rows = connection.execute(
        sa.select(_games.c.tournament_id, _games.c.black_id, _games.c.white_id, _games.c.result, _games.c.played, _games.c.date)
        .where(_games.c.played.is_(True))
        .order_by(_games.c.tournament_id, _games.c.seq)
        .execution_options(stream_results=True, yield_per=10_000)  # this statement's, not the connection's
    )
    batch = []
    for _, games in groupby(rows.mappings(), key=itemgetter("tournament_id")):
        value = value_of(list(games))
        if value is not None:
            batch.append(value)
        if len(batch) == _BATCH:
            connection.execute(played_games.insert(), batch)
            batch = []
    if batch:
        connection.execute(played_games.insert(), batch)


def downgrade() -> None:
    op.drop_table("played_games")
