"""rating rows for every system: entries gain title and counters, the per-day history moves from
the entries' JSON blob into rating_points rows, per-tournament changes gain title_after and details

Revision ID: 0004
Revises: 0003

The stored blobs are converted: a WHR series (its ``games`` counted per day) becomes rows with
cumulative games and the status of # RIF 2021 #10 on each day; an Elo series (with the rules' own
``status``) keeps its cumulative games and maps its status as the list does (RIF 1995 #9,
INTERPRETATIONS 1.17), the rules' status kept in ``counters.rif_status``. What the blobs never held
(the tournaments of each point, an Elo point's last game) is left empty until the next recompute.
Downgrading rebuilds the blobs from the rows.
"""
import datetime as dt
import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


ESTABLISHED_GAMES = 10  # RIF 2021 #10 (app.rating.whr), copied: a migration does not follow the code
PROVISIONAL = ("provisional", "unofficial", "new")  # Elo statuses the list shows as provisional
EMPTY_SERIES = {"date": [], "rating": [], "deviation": [], "games": []}


def upgrade() -> None:
    blobs = op.get_bind().execute(sa.text("SELECT snapshot_id, player_id, history FROM rating_entries")).all()
    with op.batch_alter_table("rating_entries", schema=None) as batch_op:
        batch_op.add_column(sa.Column("title", sa.String(length=50), nullable=True))
        batch_op.add_column(sa.Column("counters", JSON, nullable=True))
        batch_op.create_index(batch_op.f("ix_rating_entries_snapshot_id_rating"), ["snapshot_id", "rating"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_rating_entries_snapshot_id_status_rating"), ["snapshot_id", "status", "rating"], unique=False
        )
    op.create_table(
        "rating_points",
        sa.Column("snapshot_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("date", sa.Date(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("last_played", sa.Date(), nullable=True),
        sa.Column("title", sa.String(length=50), nullable=True),
        sa.Column("counters", JSON, nullable=True),
        sa.Column("tournament_ids", JSON, nullable=False),
        sa.ForeignKeyConstraint(
            ["snapshot_id"], ["rating_snapshots.id"], name=op.f("fk_rating_points_snapshot_id_rating_snapshots"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("snapshot_id", "player_id", "date", name=op.f("pk_rating_points")),
    )
    with op.batch_alter_table("rating_points", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_rating_points_snapshot_id_date"), ["snapshot_id", "date"], unique=False)
    with op.batch_alter_table("tournament_rating_changes", schema=None) as batch_op:
        batch_op.add_column(sa.Column("title_after", sa.String(length=50), nullable=True))
        batch_op.add_column(sa.Column("details", JSON, nullable=True))
    rows = [row for snapshot_id, player_id, history in blobs for row in _points(snapshot_id, player_id, _loaded(history))]
    if rows:
        op.bulk_insert(_points_table(), rows)
    with op.batch_alter_table("rating_entries", schema=None) as batch_op:
        batch_op.drop_column("history")


def downgrade() -> None:
    bind = op.get_bind()
    series: dict[tuple[int, str], list] = {}
    for row in bind.execute(
        sa.text("SELECT snapshot_id, player_id, date, rating, deviation, games, counters FROM rating_points ORDER BY snapshot_id, player_id, date")
    ):
        series.setdefault((row.snapshot_id, row.player_id), []).append(row)
    with op.batch_alter_table("tournament_rating_changes", schema=None) as batch_op:
        batch_op.drop_column("details")
        batch_op.drop_column("title_after")
    with op.batch_alter_table("rating_entries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_rating_entries_snapshot_id_status_rating"))
        batch_op.drop_index(batch_op.f("ix_rating_entries_snapshot_id_rating"))
        batch_op.drop_column("counters")
        batch_op.drop_column("title")
        batch_op.add_column(sa.Column("history", JSON, nullable=False, server_default=sa.text(f"'{json.dumps(EMPTY_SERIES)}'")))
    entries = sa.table("rating_entries", sa.column("snapshot_id", sa.Integer), sa.column("player_id", sa.String), sa.column("history", JSON))
    for (snapshot_id, player_id), points in series.items():
        bind.execute(
            entries.update()
            .where(entries.c.snapshot_id == snapshot_id, entries.c.player_id == player_id)
            .values(history=_blob(points))
        )
    with op.batch_alter_table("rating_entries", schema=None) as batch_op:
        batch_op.alter_column("history", server_default=None)
    with op.batch_alter_table("rating_points", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_rating_points_snapshot_id_date"))
    op.drop_table("rating_points")


def _loaded(history):  # type: ignore[no-untyped-def]
    return json.loads(history) if isinstance(history, str) else history


def _points(snapshot_id: int, player_id: str, history: dict) -> list[dict]:
    dates = [dt.date.fromisoformat(d) for d in history.get("date", [])]
    elo = "status" in history
    kept: dict[dt.date, dict] = {}  # one row per day: the day's last point holds
    total = 0
    for i, day in enumerate(dates):
        if elo:
            games, rif_status = int(history["games"][i]), history["status"][i]
            status = "provisional" if rif_status in PROVISIONAL else "active"
            counters = {"rif_status": rif_status}
        else:
            total += int(history["games"][i])
            games, counters = total, None
            status = "provisional" if games < ESTABLISHED_GAMES else "active"
        kept[day] = {
            "snapshot_id": snapshot_id, "player_id": player_id, "date": day, "rating": float(history["rating"][i]),
            "deviation": history["deviation"][i], "games": games, "status": status, "last_played": None if elo else day,
            "title": None, "counters": counters, "tournament_ids": [],
        }
    return list(kept.values())


def _blob(points: list) -> dict:
    """The pre-0004 parallel arrays; an Elo series (rif_status counters) keeps its rules' statuses."""
    blob = {
        "date": [p.date.isoformat() if isinstance(p.date, dt.date) else str(p.date)[:10] for p in points],
        "rating": [p.rating for p in points],
        "deviation": [p.deviation for p in points],
        "games": [p.games for p in points],
    }
    counters = [_loaded(p.counters) or {} for p in points]
    if any("rif_status" in c for c in counters):
        blob["status"] = [c.get("rif_status", "established") for c in counters]
    else:  # WHR stored games per day
        blob["games"] = [n - (points[i - 1].games if i else 0) for i, n in enumerate(blob["games"])]
    return blob


def _points_table() -> sa.Table:
    return sa.table(
        "rating_points",
        sa.column("snapshot_id", sa.Integer), sa.column("player_id", sa.String), sa.column("date", sa.Date),
        sa.column("rating", sa.Float), sa.column("deviation", sa.Float), sa.column("games", sa.Integer),
        sa.column("status", sa.String), sa.column("last_played", sa.Date), sa.column("title", sa.String),
        sa.column("counters", JSON), sa.column("tournament_ids", JSON),
    )
