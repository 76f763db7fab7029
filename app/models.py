"""ORM tables. The schema changes only through Alembic migrations (migrations/); a test checks
that these models and the migrations agree."""

from datetime import UTC, date, datetime
from typing import Any, ClassVar, Literal

from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

ID_LENGTH = 64
JsonType = JSON().with_variant(JSONB(), "postgresql")


class UtcDateTime(TypeDecorator[datetime]):
    """A moment, read back in UTC with its time zone on every database (an RFC 3339 date-time in
    the contract, ``...+00:00``). PostgreSQL's ``timestamptz`` keeps the zone; SQLite has no such
    type and stores the UTC wall-clock text (``CURRENT_TIMESTAMP`` writes UTC too), so what it
    gives back is marked as UTC here. A moment with a zone is stored as its UTC time on SQLite."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is not None and value.tzinfo is not None and dialect.name == "sqlite":
            return value.astimezone(UTC).replace(tzinfo=None)
        return value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(
        naming_convention={
            "ix": "ix_%(table_name)s_%(column_0_N_name)s",
            "uq": "uq_%(table_name)s_%(column_0_N_name)s",
            "ck": "ck_%(table_name)s_%(constraint_name)s",
            "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
            "pk": "pk_%(table_name)s",
        }
    )
    # Every class here is mapped to a table of its own (none to a join or a select), so its
    # __table__ is a Table, with a name, as app.db.insert_rows needs.
    __table__: ClassVar[Table]


class Player(Base):
    __tablename__ = "players"
    # The merged records alone (few: an officer's merges), for every submission's question "is one of
    # my players merged?" to read a handful of index entries, not each player's row
    # (app.services.player_identity; docs/decisions.md 7.85).
    __table_args__ = (
        Index(
            "ix_players_merged",
            "merged_into",
            "id",
            sqlite_where=text("merged_into IS NOT NULL"),
            postgresql_where=text("merged_into IS NOT NULL"),
        ),
    )

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    name: Mapped[str | None] = mapped_column(String(200))
    surname: Mapped[str | None] = mapped_column(String(200))
    native_name: Mapped[str | None] = mapped_column(String(200))
    country: Mapped[str | None] = mapped_column(String(3), index=True)
    city: Mapped[str | None] = mapped_column(String(200))
    gender: Mapped[str | None] = mapped_column(String(1))
    birth_year: Mapped[int | None] = mapped_column(Integer)
    # Every spelling of his name, current and earlier, folded (app.names.search_key): search is one
    # indexed query over it, never Python over every player.
    search_key: Mapped[str] = mapped_column(String(2000), default="", server_default="", index=True)
    # The player this record was merged into (POST /v1/players/{id}/merge); null for a player of his own.
    merged_into: Mapped[str | None] = mapped_column(String(ID_LENGTH))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime(), server_default=func.now(), onupdate=func.now())


class PlayerExternalId(Base):
    """A player's id in another system (``renjunet:952``, ``egd:13300010``): unique per scheme."""

    __tablename__ = "player_external_ids"

    scheme: Mapped[str] = mapped_column(String(20), primary_key=True)
    value: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)


class PlayerSearchTerm(Base):
    """A term search finds a player by (app.names.search_terms): a whole name, a word of it or the
    end of a word, folded, with its kind. A query is the start of the terms it finds, so search is one
    range of this table's index, compared byte by byte (collation C on PostgreSQL). A record merged
    into another player has none."""

    __tablename__ = "player_search_terms"
    # SQLite keeps the rows in the primary key's order, so a range of terms is read without the table.
    __table_args__ = {"sqlite_with_rowid": False}

    term: Mapped[str] = mapped_column(String(200).with_variant(String(200, collation="C"), "postgresql"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    kind: Mapped[int] = mapped_column(Integer, primary_key=True)
    # The player's folded surname, first name and id (app.names.sort_key): the order of equal matches,
    # here so that a page of hits is sorted from this table alone.
    sort_key: Mapped[str] = mapped_column(String(500))


class PlayerName(Base):
    """An earlier spelling of a player's name, kept when he is renamed: used until ``until`` (the day
    the next spelling took over), and still found by search."""

    __tablename__ = "player_names"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    name: Mapped[str | None] = mapped_column(String(200))
    surname: Mapped[str | None] = mapped_column(String(200))
    native_name: Mapped[str | None] = mapped_column(String(200))
    until: Mapped[date] = mapped_column(Date)


class PlayerReview(Base):
    """What a submission or an import said of a stored player and did not change, for an officer to
    accept or dismiss (docs/decisions.md 108): ``details`` that differ from the stored ones
    (``proposed`` against ``stored``), or a new player who may be a stored one
    (``possible_duplicate``: ``proposed`` names the ``candidates``). Only an officer changes who a
    player is; the submission that said it is ``tournament_id``, sent with the key ``actor``."""

    __tablename__ = "player_reviews"
    __table_args__ = (Index(None, "status", "id"), Index(None, "player_id", "status"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    kind: Mapped[str] = mapped_column(String(20))  # details or possible_duplicate
    status: Mapped[str] = mapped_column(String(10))  # pending, accepted or dismissed
    tournament_id: Mapped[str | None] = mapped_column(String(ID_LENGTH))
    actor: Mapped[str] = mapped_column(String(100))
    stored: Mapped[dict[str, Any]] = mapped_column(JsonType)
    proposed: Mapped[dict[str, Any]] = mapped_column(JsonType)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    decided_by: Mapped[str | None] = mapped_column(String(100))
    decided_at: Mapped[datetime | None] = mapped_column(UtcDateTime())
    reason: Mapped[str | None] = mapped_column(Text)

    @property
    def differences(self) -> list[dict[str, Any]]:
        """Each detail given otherwise than stored (``details``), as the contract shows them."""
        if self.kind != "details":
            return []
        return [{"field": field, "stored": self.stored.get(field), "given": given} for field, given in self.proposed.items()]

    @property
    def candidates(self) -> list[str]:
        """The stored players a possible duplicate may be."""
        return list(self.proposed.get("candidates", [])) if self.kind == "possible_duplicate" else []


class Tournament(Base):
    __tablename__ = "tournaments"
    # The repeat check's candidates: one category's tournaments ending on or after a day (decisions 7.73).
    __table_args__ = (Index(None, "category", "end"),)

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    name: Mapped[str] = mapped_column(String(300))
    category: Mapped[str] = mapped_column(String(10))
    rule: Mapped[str | None] = mapped_column(String(100))
    start: Mapped[date] = mapped_column(Date)
    end: Mapped[date] = mapped_column(Date, index=True)
    country: Mapped[str | None] = mapped_column(String(3), index=True)
    city: Mapped[str | None] = mapped_column(String(200))
    venue: Mapped[str | None] = mapped_column(String(200))
    time_control_minutes: Mapped[int | None] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean, default=True)
    format: Mapped[str] = mapped_column(String(20), default="face-to-face")
    complete_records: Mapped[bool] = mapped_column(Boolean, default=True)
    board_size: Mapped[int | None] = mapped_column(Integer)
    # What each system's rules ask of it beyond these columns, a document per system by its id, each
    # as what differs from the defaults of the system's model (app/schemas/conditions.py, decision 112).
    conditions: Mapped[dict[str, Any]] = mapped_column(JsonType, default=dict, server_default=text("'{}'"))
    # Go tournament files (EGD h9 CL/HA/KM, OpenGotha parameters).
    tournament_class: Mapped[str | None] = mapped_column(String(10))
    handicap_rule: Mapped[str | None] = mapped_column(String(40))
    komi: Mapped[float | None] = mapped_column(Float)
    # A withdrawn tournament stays stored and readable; no list rates it (DELETE /v1/tournaments/{id}).
    withdrawn_at: Mapped[datetime | None] = mapped_column(UtcDateTime())
    withdrawn_reason: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime(), server_default=func.now(), onupdate=func.now())


class Game(Base):
    __tablename__ = "games"
    # A tournament's games are found by the unique index's first column and put in seq order by a sort
    # of their own (a hundred rows): an index of (tournament_id, seq) besides cost a million-game
    # import a B-tree more to write, and no read was faster for it (docs/decisions.md 7.88).
    # A player's games are found by colour, each colour's index in the order his page lists them, the
    # latest first, so that a page of a busy player's games reads only that page (decision 94).
    __table_args__ = (
        UniqueConstraint("tournament_id", "game_id"),
        Index(None, "black_id", "date", "tournament_id", "seq"),
        Index(None, "white_id", "date", "tournament_id", "seq"),
    )

    pk: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    game_id: Mapped[str | None] = mapped_column(String(ID_LENGTH))
    round: Mapped[str | None] = mapped_column(String(20))
    black_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    white_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    # From black's side: B black won, W white won, D draw (the submission's Result, checked on the way in).
    result: Mapped[Literal["B", "W", "D"]] = mapped_column(String(1))
    played: Mapped[bool] = mapped_column(Boolean, default=True)
    # Resolved at submission: a game without a date is dated on its tournament's end (RIF 2021 #8.4).
    date: Mapped[date] = mapped_column(Date, nullable=False)
    handicap: Mapped[int | None] = mapped_column(Integer)
    board_size: Mapped[int | None] = mapped_column(Integer)


class PlayedGames(Base):
    """A tournament's played games as one value, for the recompute to read a million games as some
    9,500 values rather than rows (docs/decisions.md 7.67): ``players``, the JSON array of the ids
    its games name, numbered by first appearance (black before white); ``games``, one packed record
    per played game in submission order (``app.snapshots.played_games``). Written with the games
    (``_insert_games``) and rewritten wherever their players change (a merge, an unmerge); a
    tournament without a played game has none."""

    __tablename__ = "played_games"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    players: Mapped[str] = mapped_column(Text)
    games: Mapped[bytes] = mapped_column(LargeBinary)


class RatingList(Base):
    __tablename__ = "rating_lists"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    system: Mapped[str] = mapped_column(String(20))
    category: Mapped[str] = mapped_column(String(10))
    params: Mapped[dict[str, Any]] = mapped_column(JsonType, default=dict)
    eligibility: Mapped[dict[str, Any]] = mapped_column(JsonType, default=dict)
    # Queue a recompute of this list when a tournament it rates is submitted or corrected.
    auto_recompute: Mapped[bool] = mapped_column(Boolean, server_default=false(), default=False)
    # Readers follow this pointer; a recompute moves it in the same transaction that writes the
    # new snapshot, so the old snapshot is served until the new one commits.
    current_snapshot_id: Mapped[int | None] = mapped_column(Integer)
    # Days of the year ("MM-DD") on which the worker publishes the list by itself (app.services.publications).
    publication_days: Mapped[list[str] | None] = mapped_column(JsonType)
    # An officer of the list confirms each tournament submitted to it before the list rates it
    # (tournament_reviews; docs/decisions.md 7.29, the European Go Database's way).
    requires_review: Mapped[bool] = mapped_column(Boolean, server_default=false(), default=False)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), server_default=func.now())
    # When the list's inputs first changed after its current snapshot read them with no recompute
    # queued to read them (a tournament it rates while it does not recompute itself, its seeds or
    # parameters), and what changed: its readers are told, until a recompute that read the change
    # commits its snapshot (app.recompute.staleness; docs/decisions.md 7.106). Null: none such.
    stale_since: Mapped[datetime | None] = mapped_column(UtcDateTime())
    stale_reason: Mapped[str | None] = mapped_column(Text)
    # Such changes counted, ever: a recompute clears stale_since only if the count is still what it
    # read before reading its inputs, so that a change made while it ran leaves the list stale.
    input_changes: Mapped[int] = mapped_column(Integer, server_default=text("0"), default=0)
    # The change of the mean rating over 12 months from which the list's drift is flagged (issue 46
    # item 4); null: its system's default (docs/decisions.md 127).
    drift_threshold: Mapped[float | None] = mapped_column(Float)


class RatingSnapshot(Base):
    __tablename__ = "rating_snapshots"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    list_id: Mapped[str] = mapped_column(ForeignKey("rating_lists.id"), index=True)
    list_date: Mapped[date] = mapped_column(Date)
    # Written to the microsecond (SQLite's own clock keeps seconds): with the id it tells a snapshot
    # from one written under a reused id, which the per-process timelines rely on.
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), server_default=func.now(), default=lambda: datetime.now(UTC))
    job_id: Mapped[int | None] = mapped_column(Integer)
    params: Mapped[dict[str, Any]] = mapped_column(JsonType, default=dict)
    players: Mapped[int] = mapped_column(Integer, default=0)
    games: Mapped[int] = mapped_column(Integer, default=0)
    tournaments: Mapped[int] = mapped_column(Integer, default=0)
    notes: Mapped[list[Any]] = mapped_column(JsonType, default=list)
    # The fitted player-days in compact binary form (numpy .npz), so the next recompute can
    # warm-start without decoding every entry's JSON history.
    warm_start: Mapped[bytes | None] = mapped_column(LargeBinary, deferred=True)
    # Each player's standing from each day on (one point per player and day), for his chart and for
    # the list as of any date: one archive of columns (app.snapshots.stored_columns; its fields are
    # app.recompute.compute.point_archive's), because a reader needs them all at once and tens of thousands of
    # rows cost more to write than the fit that produced them.
    point_columns: Mapped[bytes | None] = mapped_column(LargeBinary, deferred=True)
    # What each tournament did to each player's rating (app.recompute.compute.change_archive's fields), read a
    # tournament or a player at a time from columns kept per process (app.snapshots.snapshot_changes).
    change_columns: Mapped[bytes | None] = mapped_column(LargeBinary, deferred=True)
    # What produced it (app.recompute.provenance), null for snapshots written before migration 0019:
    # the system, the service's version, the seeds counted, the eligibility applied and a SHA-256 of
    # the inputs (eligible tournaments, games and seeds in a canonical order).
    system: Mapped[str | None] = mapped_column(String(20))
    service_version: Mapped[str | None] = mapped_column(String(40))
    seeds: Mapped[int | None] = mapped_column(Integer)
    eligibility: Mapped[dict[str, Any] | None] = mapped_column(JsonType)
    inputs_digest: Mapped[str | None] = mapped_column(String(64))
    # The ids of the tournaments it read, in the order read: what ``verify`` reproduces it from.
    input_tournaments: Mapped[list[str] | None] = mapped_column(JsonType, deferred=True)


class RatingEntry(Base):
    """A player's line of one snapshot of a list."""

    __tablename__ = "rating_entries"
    # A page of the list, whole or of one status, is a range of one of these (app.snapshots.entry_positions).
    __table_args__ = (Index(None, "snapshot_id", "position"), Index(None, "snapshot_id", "status", "status_position"))

    snapshot_id: Mapped[int] = mapped_column(ForeignKey("rating_snapshots.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float | None] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    last_played: Mapped[date | None] = mapped_column(Date)
    status: Mapped[str] = mapped_column(String(20))
    title: Mapped[str | None] = mapped_column(String(50))
    counters: Mapped[dict[str, Any] | None] = mapped_column(JsonType)
    # Its place in the list (rating, then player id) and within its status, from 1: written with
    # the snapshot (migration 0026 filled them in for the snapshots before it). Nullable only so that
    # a row written by hand, as the migration tests do, needs no place.
    position: Mapped[int | None] = mapped_column(Integer)
    status_position: Mapped[int | None] = mapped_column(Integer)


class RatingSeed(Base):
    """Starting official ratings an Elo list's replay begins from (INTERPRETATIONS 1.18)."""

    __tablename__ = "rating_seeds"

    list_id: Mapped[str] = mapped_column(ForeignKey("rating_lists.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)  # fractional where the system is (Rivne, text 004)
    status: Mapped[str] = mapped_column(String(20))
    as_of: Mapped[date] = mapped_column(Date)
    # What a system with grades or ranks starts a player from ("3 dan") and its own counters.
    title: Mapped[str | None] = mapped_column(String(20))
    counters: Mapped[dict[str, Any] | None] = mapped_column(JsonType)


class Job(Base):
    __tablename__ = "jobs"
    __table_args__ = (
        # At most one queued recompute per list: a second trigger coalesces into it (an evaluation
        # queued beside it is another kind of job, migration 0040).
        Index(
            "uq_jobs_list_id_queued",
            "list_id",
            unique=True,
            sqlite_where=text("status = 'queued' AND kind = 'recompute'"),
            postgresql_where=text("status = 'queued' AND kind = 'recompute'"),
        ),
        Index(None, "status", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(20))
    list_id: Mapped[str] = mapped_column(ForeignKey("rating_lists.id"))
    status: Mapped[str] = mapped_column(String(10))
    progress: Mapped[float] = mapped_column(Float, default=0.0)
    error: Mapped[str | None] = mapped_column(Text)
    result: Mapped[dict[str, Any] | None] = mapped_column(JsonType)
    # What an evaluation was asked (app.schemas.evaluations.EvaluationRequest); None for a recompute.
    request: Mapped[dict[str, Any] | None] = mapped_column(JsonType)
    snapshot_id: Mapped[int | None] = mapped_column(Integer)
    worker: Mapped[str | None] = mapped_column(String(100))
    # Claims so far: a job whose worker died is queued again once (app.recompute.jobs).
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), server_default=func.now())
    started_at: Mapped[datetime | None] = mapped_column(UtcDateTime())
    heartbeat_at: Mapped[datetime | None] = mapped_column(UtcDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UtcDateTime())


class IdempotencyRecord(Base):
    __tablename__ = "idempotency_records"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    request_hash: Mapped[str] = mapped_column(String(64))
    # Empty while the request that inserted the record is in progress; filled in the same transaction
    # before its commit, so other transactions only ever see a complete record.
    status_code: Mapped[int | None] = mapped_column(Integer)
    # JSON as text, not JSONB: a replay is the answer as it was sent, its keys in their order (0037).
    response: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    location: Mapped[str | None] = mapped_column(String(300))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), server_default=func.now())


class TournamentPlayer(Base):
    """A player as he was declared at one tournament: rank, rating, club, EGF pin (Go lists and the
    ERU norms read the rank a player had at that tournament, not his current one)."""

    __tablename__ = "tournament_players"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    rank: Mapped[str | None] = mapped_column(String(4))
    rating: Mapped[float | None] = mapped_column(Float)
    club: Mapped[str | None] = mapped_column(String(100))
    egf_pin: Mapped[str | None] = mapped_column(String(20))
    rating_origin: Mapped[str | None] = mapped_column(String(40))


class TournamentReview(Base):
    """An officer's review of a tournament for a list that requires one: ``pending`` from its
    submission (or its last correction) until an officer of the list confirms or rejects it, with
    a reason. The list rates the tournament only once it is ``confirmed``; a tournament without a
    row (stored before the list required reviews) is not held back."""

    __tablename__ = "tournament_reviews"
    __table_args__ = (Index(None, "list_id", "status", "submitted_at"),)

    list_id: Mapped[str] = mapped_column(ForeignKey("rating_lists.id"), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    status: Mapped[str] = mapped_column(String(10))  # pending, confirmed or rejected
    # When the version under review was stored (its submission or latest correction).
    submitted_at: Mapped[datetime] = mapped_column(UtcDateTime())
    reason: Mapped[str | None] = mapped_column(Text)
    decided_by: Mapped[str | None] = mapped_column(String(100))
    decided_at: Mapped[datetime | None] = mapped_column(UtcDateTime())


class TournamentStanding(Base):
    """A player's place in one tournament as the tournament decided it, with its tie-break values
    (e.g. Go's MMS, SOS, SOSOS) in the tournament's order: what its file or its submitter gives,
    never computed here (docs/decisions.md 7.33)."""

    __tablename__ = "tournament_standings"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    # The standing's position in the submission: equal places keep the order they were given in.
    seq: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)
    # [{"name": "MMS", "value": 44.0}, ...]: the same names in the same order for every player.
    tie_breaks: Mapped[list[dict[str, Any]]] = mapped_column(JsonType, default=list)


class Revision(Base):
    """One change of a stored object, written in the change's own transaction: who (the key's
    name), when, what kind, a readable summary and the object's whole version before the change
    (null when the change created it). Each version is stored once: the latest is the object
    itself, every earlier one the ``previous`` of the change that ended it."""

    __tablename__ = "revisions"
    __table_args__ = (
        UniqueConstraint("subject", "subject_id", "number"),
        Index(None, "at"),
        Index(None, "actor", "at"),
        Index(None, "list_id", "at"),
        # The latest change of what the lists show of a player, read every second by each process
        # (app.snapshots.current_snapshots.players_edition): a few index entries, not the table.
        Index(None, "subject", "kind", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    subject: Mapped[str] = mapped_column(String(20))  # "tournament", "rating_list" or "player"
    subject_id: Mapped[str] = mapped_column(String(ID_LENGTH))
    number: Mapped[int] = mapped_column(Integer)  # the subject's recorded changes counted from 1
    kind: Mapped[str] = mapped_column(String(30))
    list_id: Mapped[str | None] = mapped_column(String(ID_LENGTH))
    actor: Mapped[str] = mapped_column(String(100))
    at: Mapped[datetime] = mapped_column(UtcDateTime())
    summary: Mapped[str] = mapped_column(Text)
    previous: Mapped[dict[str, Any] | None] = mapped_column(JsonType)


class ApiKey(Base):
    """A write key stored in the database (``python -m app.cli keys``): its name (the ``actor`` of the
    revisions it makes; never reused, so a revoked key's row stays), the SHA-256 digest of its
    secret (the secret itself is shown once, when created, and stored nowhere), its role and, for
    an officer, the lists and categories it is limited to (both empty: no limit)."""

    __tablename__ = "api_keys"

    name: Mapped[str] = mapped_column(String(100), primary_key=True)
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    role: Mapped[str] = mapped_column(String(20))  # "organiser" or "officer"
    lists: Mapped[list[str]] = mapped_column(JsonType, default=list)
    categories: Mapped[list[str]] = mapped_column(JsonType, default=list)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=lambda: datetime.now(UTC))
    revoked_at: Mapped[datetime | None] = mapped_column(UtcDateTime())


class Publication(Base):
    """A list as published on a date: numbered per list from 1, never changed. Its rows are copied
    into ``publication_entries`` (with names and countries as they were), so that it reads the same
    forever; its snapshot is kept (the foreign key) for ``verify`` and explanations."""

    __tablename__ = "publications"
    __table_args__ = (UniqueConstraint("list_id", "number"), UniqueConstraint("list_id", "scheduled_for"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    list_id: Mapped[str] = mapped_column(ForeignKey("rating_lists.id"))
    number: Mapped[int] = mapped_column(Integer)
    # The scheduled day a worker published it for (null when published by hand): unique per list,
    # so two workers publish a scheduled day once. (Before ``date``, which names the type until then.)
    scheduled_for: Mapped[date | None] = mapped_column(Date)
    date: Mapped[date] = mapped_column(Date)
    title: Mapped[str] = mapped_column(String(200))
    snapshot_id: Mapped[int] = mapped_column(ForeignKey("rating_snapshots.id"))
    previous_number: Mapped[int | None] = mapped_column(Integer)
    actor: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=lambda: datetime.now(UTC))
    players: Mapped[int] = mapped_column(Integer)
    # Who left the list since the previous publication, and why (an open set of reasons).
    departures: Mapped[list[dict[str, Any]]] = mapped_column(JsonType, default=list)


class PublicationEntry(Base):
    """A player's row of a publication, with his standing in the previous one."""

    __tablename__ = "publication_entries"
    __table_args__ = (Index(None, "publication_id", "position"), Index(None, "publication_id", "status", "position"))

    publication_id: Mapped[int] = mapped_column(ForeignKey("publications.id"), primary_key=True)
    # Order of the whole publication: rating, then player id in code-point order (the same on both databases).
    position: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    name: Mapped[str | None] = mapped_column(String(401))
    country: Mapped[str | None] = mapped_column(String(3))
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float | None] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    last_played: Mapped[date | None] = mapped_column(Date)
    status: Mapped[str] = mapped_column(String(20))
    title: Mapped[str | None] = mapped_column(String(50))
    counters: Mapped[dict[str, Any] | None] = mapped_column(JsonType)
    place: Mapped[int] = mapped_column(Integer)  # rank among the publication's players of his status
    previous_rating: Mapped[float | None] = mapped_column(Float)
    previous_place: Mapped[int | None] = mapped_column(Integer)
    change: Mapped[float | None] = mapped_column(Float)
    marker: Mapped[str | None] = mapped_column(String(20))  # "new" or "returned" instead of a change
