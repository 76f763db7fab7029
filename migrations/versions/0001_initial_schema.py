"""initial schema

Revision ID: 0001
Revises: 
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = '0001'
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('idempotency_records',
    sa.Column('key', sa.String(length=200), nullable=False),
    sa.Column('request_hash', sa.String(length=64), nullable=False),
    sa.Column('status_code', sa.Integer(), nullable=False),
    sa.Column('response', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.Column('location', sa.String(length=300), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.PrimaryKeyConstraint('key', name=op.f('pk_idempotency_records'))
    )
    op.create_table('players',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=True),
    sa.Column('surname', sa.String(length=200), nullable=True),
    sa.Column('native_name', sa.String(length=200), nullable=True),
    sa.Column('country', sa.String(length=3), nullable=True),
    sa.Column('city', sa.String(length=200), nullable=True),
    sa.Column('gender', sa.String(length=1), nullable=True),
    sa.Column('birth_year', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_players'))
    )
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_players_country'), ['country'], unique=False)

    op.create_table('rating_lists',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('system', sa.String(length=20), nullable=False),
    sa.Column('category', sa.String(length=10), nullable=False),
    sa.Column('params', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.Column('eligibility', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.Column('current_snapshot_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_rating_lists'))
    )
    op.create_table('tournaments',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('name', sa.String(length=300), nullable=False),
    sa.Column('category', sa.String(length=10), nullable=False),
    sa.Column('rule', sa.String(length=100), nullable=True),
    sa.Column('start', sa.Date(), nullable=False),
    sa.Column('end', sa.Date(), nullable=False),
    sa.Column('country', sa.String(length=3), nullable=True),
    sa.Column('city', sa.String(length=200), nullable=True),
    sa.Column('time_control_minutes', sa.Integer(), nullable=True),
    sa.Column('rated', sa.Boolean(), nullable=False),
    sa.Column('format', sa.String(length=20), nullable=False),
    sa.Column('complete_records', sa.Boolean(), nullable=False),
    sa.Column('board_size', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tournaments'))
    )
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tournaments_category'), ['category'], unique=False)
        batch_op.create_index(batch_op.f('ix_tournaments_country'), ['country'], unique=False)
        batch_op.create_index(batch_op.f('ix_tournaments_end'), ['end'], unique=False)

    op.create_table('games',
    sa.Column('pk', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('tournament_id', sa.String(length=64), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.String(length=64), nullable=True),
    sa.Column('round', sa.String(length=20), nullable=True),
    sa.Column('black_id', sa.String(length=64), nullable=False),
    sa.Column('white_id', sa.String(length=64), nullable=False),
    sa.Column('result', sa.String(length=1), nullable=False),
    sa.Column('played', sa.Boolean(), nullable=False),
    sa.Column('date', sa.Date(), nullable=False),
    sa.Column('handicap', sa.Integer(), nullable=True),
    sa.Column('board_size', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['black_id'], ['players.id'], name=op.f('fk_games_black_id_players')),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_games_tournament_id_tournaments'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['white_id'], ['players.id'], name=op.f('fk_games_white_id_players')),
    sa.PrimaryKeyConstraint('pk', name=op.f('pk_games')),
    sa.UniqueConstraint('tournament_id', 'game_id', name=op.f('uq_games_tournament_id_game_id'))
    )
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_games_black_id'), ['black_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_games_tournament_id_seq'), ['tournament_id', 'seq'], unique=False)
        batch_op.create_index(batch_op.f('ix_games_white_id'), ['white_id'], unique=False)

    op.create_table('jobs',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('list_id', sa.String(length=64), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('progress', sa.Float(), nullable=False),
    sa.Column('error', sa.Text(), nullable=True),
    sa.Column('result', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=True),
    sa.Column('snapshot_id', sa.Integer(), nullable=True),
    sa.Column('worker', sa.String(length=100), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('heartbeat_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['list_id'], ['rating_lists.id'], name=op.f('fk_jobs_list_id_rating_lists')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_jobs'))
    )
    with op.batch_alter_table('jobs', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_jobs_status_id'), ['status', 'id'], unique=False)
        batch_op.create_index('uq_jobs_list_id_queued', ['list_id'], unique=True, sqlite_where=sa.text("status = 'queued'"), postgresql_where=sa.text("status = 'queued'"))

    op.create_table('rating_seeds',
    sa.Column('list_id', sa.String(length=64), nullable=False),
    sa.Column('player_id', sa.String(length=64), nullable=False),
    sa.Column('rating', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('as_of', sa.Date(), nullable=False),
    sa.ForeignKeyConstraint(['list_id'], ['rating_lists.id'], name=op.f('fk_rating_seeds_list_id_rating_lists')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_rating_seeds_player_id_players')),
    sa.PrimaryKeyConstraint('list_id', 'player_id', name=op.f('pk_rating_seeds'))
    )
    op.create_table('rating_snapshots',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('list_id', sa.String(length=64), nullable=False),
    sa.Column('list_date', sa.Date(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.Column('job_id', sa.Integer(), nullable=True),
    sa.Column('params', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.Column('players', sa.Integer(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('tournaments', sa.Integer(), nullable=False),
    sa.Column('notes', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.ForeignKeyConstraint(['list_id'], ['rating_lists.id'], name=op.f('fk_rating_snapshots_list_id_rating_lists')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_rating_snapshots'))
    )
    with op.batch_alter_table('rating_snapshots', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_rating_snapshots_list_id'), ['list_id'], unique=False)

    op.create_table('rating_entries',
    sa.Column('snapshot_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.String(length=64), nullable=False),
    sa.Column('rating', sa.Float(), nullable=False),
    sa.Column('deviation', sa.Float(), nullable=True),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('last_played', sa.Date(), nullable=True),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('history', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.ForeignKeyConstraint(['snapshot_id'], ['rating_snapshots.id'], name=op.f('fk_rating_entries_snapshot_id_rating_snapshots'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('snapshot_id', 'player_id', name=op.f('pk_rating_entries'))
    )
    op.create_table('tournament_rating_changes',
    sa.Column('snapshot_id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.String(length=64), nullable=False),
    sa.Column('player_id', sa.String(length=64), nullable=False),
    sa.Column('system', sa.String(length=20), nullable=False),
    sa.Column('rating_before', sa.Float(), nullable=True),
    sa.Column('rating_after', sa.Float(), nullable=True),
    sa.Column('change', sa.Float(), nullable=True),
    sa.Column('change_unrounded', sa.Float(), nullable=True),
    sa.Column('games_counted', sa.Integer(), nullable=False),
    sa.Column('status_after', sa.String(length=20), nullable=True),
    sa.ForeignKeyConstraint(['snapshot_id'], ['rating_snapshots.id'], name=op.f('fk_tournament_rating_changes_snapshot_id_rating_snapshots'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('snapshot_id', 'tournament_id', 'player_id', name=op.f('pk_tournament_rating_changes'))
    )
    with op.batch_alter_table('tournament_rating_changes', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tournament_rating_changes_tournament_id_snapshot_id'), ['tournament_id', 'snapshot_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('tournament_rating_changes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tournament_rating_changes_tournament_id_snapshot_id'))

    op.drop_table('tournament_rating_changes')
    op.drop_table('rating_entries')
    with op.batch_alter_table('rating_snapshots', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_rating_snapshots_list_id'))

    op.drop_table('rating_snapshots')
    op.drop_table('rating_seeds')
    with op.batch_alter_table('jobs', schema=None) as batch_op:
        batch_op.drop_index('uq_jobs_list_id_queued', sqlite_where=sa.text("status = 'queued'"), postgresql_where=sa.text("status = 'queued'"))
        batch_op.drop_index(batch_op.f('ix_jobs_status_id'))

    op.drop_table('jobs')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_games_white_id'))
        batch_op.drop_index(batch_op.f('ix_games_tournament_id_seq'))
        batch_op.drop_index(batch_op.f('ix_games_black_id'))

    op.drop_table('games')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tournaments_end'))
        batch_op.drop_index(batch_op.f('ix_tournaments_country'))
        batch_op.drop_index(batch_op.f('ix_tournaments_category'))

    op.drop_table('tournaments')
    op.drop_table('rating_lists')
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_players_country'))

    op.drop_table('players')
    op.drop_table('idempotency_records')
