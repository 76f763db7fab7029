"""players: one identity across files, scripts and federations (issue 24)

Every stored country becomes the IOC code (``FR`` -> ``FRA``, ``DEU`` -> ``GER``; app/countries.py),
players and tournaments alike; a code no table knows is left as it was. A player gets ids in other
systems (``player_external_ids``, unique per scheme), earlier spellings of his name
(``player_names``), the folded key every spelling is searched by (``players.search_key``, filled
here for every player) and, once merged into another, ``players.merged_into``.

Revision ID: 0021
Revises: 0020
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from app.countries import country_code
from app.names import search_key, search_terms, sort_key

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 1000


def upgrade() -> None:
    # In place (SQLite 3.35+), never batch mode's copy: players is referenced by games and seeds.
    with op.batch_alter_table("players", schema=None, recreate="never") as batch_op:
        batch_op.add_column(sa.Column("search_key", sa.String(length=2000), server_default="", nullable=False))
        batch_op.add_column(sa.Column("merged_into", sa.String(length=64), nullable=True))
    op.create_index(op.f("ix_players_search_key"), "players", ["search_key"])
    op.create_table(
        "player_external_ids",
        sa.Column("scheme", sa.String(length=20), nullable=False),
        sa.Column("value", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_player_external_ids_player_id_players")),
        sa.PrimaryKeyConstraint("scheme", "value", name=op.f("pk_player_external_ids")),
    )
    op.create_index(op.f("ix_player_external_ids_player_id"), "player_external_ids", ["player_id"])
    op.create_table(
        "player_search_terms",
        sa.Column("term", sa.String(length=200).with_variant(sa.String(length=200, collation="C"), "postgresql"), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.Integer(), nullable=False),
        sa.Column("sort_key", sa.String(length=500), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_player_search_terms_player_id_players")),
        sa.PrimaryKeyConstraint("term", "player_id", "kind", name=op.f("pk_player_search_terms")),
        sqlite_with_rowid=False,
    )
    op.create_index(op.f("ix_player_search_terms_player_id"), "player_search_terms", ["player_id"])
    op.create_table(
        "player_names",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=True),
        sa.Column("surname", sa.String(length=200), nullable=True),
        sa.Column("native_name", sa.String(length=200), nullable=True),
        sa.Column("until", sa.Date(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_player_names_player_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_names")),
    )
    op.create_index(op.f("ix_player_names_player_id"), "player_names", ["player_id"])
    _convert_countries("tournaments")
    _convert_countries("players")
    _fill_search_keys()


def downgrade() -> None:
    # The IOC codes stay: they are codes the schema before accepted too.
    op.drop_index(op.f("ix_player_names_player_id"), table_name="player_names")
    op.drop_table("player_names")
    op.drop_index(op.f("ix_player_search_terms_player_id"), table_name="player_search_terms")
    op.drop_table("player_search_terms")
    op.drop_index(op.f("ix_player_external_ids_player_id"), table_name="player_external_ids")
    op.drop_table("player_external_ids")
    op.drop_index(op.f("ix_players_search_key"), table_name="players")
    with op.batch_alter_table("players", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("merged_into")
        batch_op.drop_column("search_key")


def _convert_countries(table_name: str) -> None:
    table = sa.table(table_name, sa.column("country", sa.String))
    connection = op.get_bind()
    stored = connection.execute(sa.select(table.c.country).where(table.c.country.is_not(None)).distinct()).scalars()
    for code in list(stored):
        standard = country_code(code)
        if standard is not None and standard != code:
            connection.execute(table.update().where(table.c.country == code).values(country=standard))


def _fill_search_keys() -> None:
    players = sa.table(
        "players",
        sa.column("id", sa.String),
        sa.column("name", sa.String),
        sa.column("surname", sa.String),
        sa.column("native_name", sa.String),
        sa.column("search_key", sa.String),
    )
    connection = op.get_bind()
    rows = connection.execute(sa.select(players.c.id, players.c.name, players.c.surname, players.c.native_name)).all()
    keys = [{"player_id": row.id, "key": search_key([(row.name, row.surname, row.native_name)])} for row in rows]
    statement = players.update().where(players.c.id == sa.bindparam("player_id")).values(search_key=sa.bindparam("key"))
    for start in range(0, len(keys), BATCH):
        if keys[start : start + BATCH]:
            connection.execute(statement, keys[start : start + BATCH])
    terms = sa.table(
        "player_search_terms",
        sa.column("term", sa.String),
        sa.column("player_id", sa.String),
        sa.column("kind", sa.Integer),
        sa.column("sort_key", sa.String),
    )
    found = [
        {"term": term, "player_id": row.id, "kind": kind, "sort_key": sort_key(row.name, row.surname, row.id)}
        for row in rows
        for term, kind in search_terms([(row.name, row.surname, row.native_name)]).items()
    ]
    for start in range(0, len(found), BATCH):
        connection.execute(terms.insert(), found[start : start + BATCH])
