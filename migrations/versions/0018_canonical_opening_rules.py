"""renju and gomoku tournaments' rules stored by their canonical names

Submissions now store a renju or gomoku rule under its canonical name (app/schemas/opening_rules.py),
and the lists' eligibility compares names exactly. Rules stored before, in another case ("rif"), are
given the canonical case here, so that the lists rate them; numbered rules (Soosyrv-8) too. Names
that are not known rules are left as they were: no list rates them, as before.

Revision ID: 0018
Revises: 0017
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The names as of this migration (a later change of the application's list does not change it).
NAMES = ("RIF", "Yamaguchi", "Sakata", "Tarannikov", "Gomoku", "Freestyle", "Standard", "Swap1", "Swap2", "Pro", "Caro", "Omok")
NUMBERED = ("Soosyrv", "Taraguchi", "Yamasyrv")


def upgrade() -> None:
    tournaments = sa.table("tournaments", sa.column("rule", sa.String), sa.column("category", sa.String))
    rule = tournaments.c.rule
    renju_or_gomoku = tournaments.c.category.in_(("renju", "gomoku"))
    for name in NAMES:
        op.execute(tournaments.update().where(renju_or_gomoku, sa.func.lower(rule) == name.lower()).values(rule=name))
    for name in NUMBERED:
        prefix = f"{name}-"
        op.execute(
            tournaments.update()
            .where(renju_or_gomoku, sa.func.lower(rule).like(f"{prefix.lower()}%"))
            .values(rule=prefix + sa.func.substr(rule, len(prefix) + 1))
        )


def downgrade() -> None:
    """Nothing to undo: the canonical names were valid before too."""
