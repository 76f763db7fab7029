"""The recompute's bulk read and write (issue 10 #4): the columnar read gives exactly the games the
object read gives, a columnar system still gets every tournament's fields and participants, and rows
written in bulk (COPY on PostgreSQL, executemany on SQLite) read back exactly, whatever they hold."""

import datetime as dt

import numpy as np
import pytest
from pydantic import BaseModel, ConfigDict
from sqlalchemy import insert, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import sessionmaker

from app import db
from app.models import RatingList
from app.rating import registry
from app.rating.system import (
    Change,
    Entry,
    GameColumns,
    Point,
    RatingSystem,
    Replay,
    ReplayInput,
    last_point_held,
)
from app.recompute import compute
from tests.helpers import AUTH, cli_import_renju_cn, go_body, recompute_now, tournament_body


@pytest.mark.slow
def test_the_columnar_read_gives_the_games_the_object_read_gives(client):
    cli_import_renju_cn()  # the renju.cn history (59 tournaments), then what the list must leave out
    assert client.post("/v1/tournaments", json=tournament_body("BLITZ", time_control_minutes=5), headers=AUTH).status_code == 201
    walkovers = _undated(tournament_body("WALKOVERS", start="2021-02-01", end="2021-02-01"))
    for game in walkovers["games"]:
        game["played"] = False
    assert client.post("/v1/tournaments", json=walkovers, headers=AUTH).status_code == 201
    late = _undated(tournament_body("LATE", start="2021-03-01", end="2021-03-02"))
    assert client.post("/v1/tournaments", json=late, headers=AUTH).status_code == 201
    with db.session_scope() as session:
        rating_list = session.get(RatingList, "rif-whr")
        stored = compute.stored_tournaments(session, rating_list)
        listed, columns = compute.eligible_games(session, rating_list)
    expected = GameColumns.from_tournaments(stored)
    ids = [t.id for t in stored]
    assert len(ids) == 60 and "LATE" in ids and "BLITZ" not in ids and "WALKOVERS" not in ids
    assert [t.id for t in listed] == ids
    assert [(t.start, t.end, t.fields, t.participants) for t in listed] == [
        (t.start, t.end, t.fields, t.participants) for t in stored
    ]
    assert not any(t.games for t in listed)
    assert columns.player_ids == expected.player_ids
    assert len(columns) == len(expected) == sum(len(t.games) for t in stored)
    for name in ("black", "white", "black_score", "day", "tournament"):
        np.testing.assert_array_equal(getattr(columns, name), getattr(expected, name), err_msg=name)
        assert getattr(columns, name).dtype == getattr(expected, name).dtype


def test_a_tournament_stored_between_the_two_reads_waits_for_the_next_recompute(client, monkeypatch):
    for body in (tournament_body("A"), _undated(tournament_body("B", start="2020-06-01", end="2020-06-01"))):
        assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201
    read_tournaments = compute._eligible_tournaments

    def before_b_was_stored(session, rating_list):  # type: ignore[no-untyped-def]
        tournaments = read_tournaments(session, rating_list)
        del tournaments["A"]  # the tournaments' read did not see it; the games' read does
        return tournaments

    monkeypatch.setattr(compute, "_eligible_tournaments", before_b_was_stored)
    with db.session_scope() as session:
        rating_list = session.get(RatingList, "rif-whr")
        stored = compute.stored_tournaments(session, rating_list)
        listed, columns = compute.eligible_games(session, rating_list)
    assert [t.id for t in stored] == [t.id for t in listed] == ["B"]
    expected = GameColumns.from_tournaments(stored)
    assert len(columns) == 5 and columns.player_ids == expected.player_ids
    for name in ("black", "white", "black_score", "day", "tournament"):
        np.testing.assert_array_equal(getattr(columns, name), getattr(expected, name), err_msg=name)


def _undated(body: dict) -> dict:
    for game in body["games"]:
        game.pop("date", None)  # on the tournament's last day
    return body


def test_an_empty_list_reads_no_games(client):
    with db.session_scope() as session:
        listed, columns = compute.eligible_games(session, session.get(RatingList, "rif-whr"))
    assert listed == [] and columns.player_ids == [] and len(columns) == 0


# --- a columnar throwaway system: each player's games, and what it was handed ------------------------


class NoParams(BaseModel):
    model_config = ConfigDict(extra="forbid")


handed: list[ReplayInput] = []


def replay_counting(given: ReplayInput) -> Replay:
    handed.append(given)
    columns = given.columns
    assert columns is not None
    games = np.bincount(np.concatenate((columns.black, columns.white)), minlength=len(columns.player_ids))
    last = np.zeros(len(columns.player_ids), dtype=np.int64)
    np.maximum.at(last, columns.black, columns.day)
    np.maximum.at(last, columns.white, columns.day)
    entries = [
        Entry(player_id, float(n), None, int(n), dt.date.fromordinal(int(day)), "active")
        for player_id, n, day in zip(columns.player_ids, games.tolist(), last.tolist())
    ]
    return Replay(entries=entries, points=[])


@pytest.fixture
def counting_system():
    system = RatingSystem(
        id="test-counting",
        params_model=NoParams,
        seed_model=None,
        replay=replay_counting,
        standings_on=last_point_held,
        columnar=True,
    )
    registry.register(system)
    handed.clear()
    yield system
    registry.unregister(system.id)


def test_a_columnar_system_gets_arrays_and_every_tournaments_fields_and_participants(client, counting_system):
    with db.session_scope() as session:
        session.execute(
            insert(RatingList).values(id="count", name="Count", system="test-counting", category="go", params={}, eligibility={})
        )
    assert client.post("/v1/tournaments", json=go_body(), headers=AUTH).status_code == 201
    later = _undated(go_body(id="G2", start="2020-06-01", end="2020-06-02", komi=6.5))
    later["players"][0]["rank"] = "7d"
    assert client.post("/v1/tournaments", json=later, headers=AUTH).status_code == 201
    job = recompute_now(client, "count")
    assert job["result"]["games"] == 10 and job["result"]["players"] == 4
    given = handed[-1]
    assert [t.id for t in given.tournaments] == ["G1", "G2"] and not any(t.games for t in given.tournaments)
    assert given.tournaments[1].fields["komi"] == 6.5 and given.tournaments[1].fields["category"] == "go"
    assert given.tournaments[0].participants["p1"]["rank"] == "6d" and given.tournaments[1].participants["p1"]["rank"] == "7d"
    assert given.tournaments[0].participants["p1"]["egf_pin"] == "13219100"
    assert given.columns is not None and given.columns.tournament.tolist() == [0] * 5 + [1] * 5
    rows = {r["player_id"]: r for r in client.get("/v1/rating-lists/count/ratings", params={"status": "all"}).json()["items"]}
    assert rows["p1"]["games"] == 6 and rows["p1"]["last_played"] == "2020-06-02"


# --- rows in bulk: every character a system may put in a text or JSON value reads back -----------------

AWKWARD = 'tab\there, newline\nhere, back\\slash, "quotes", \\N, \\., ünïcödé ✓ 𝄞, comma, pipe|'


def replay_awkward(given: ReplayInput) -> Replay:
    players = sorted({p for t in given.tournaments for g in t.games for p in (g.black, g.white)})
    counters = {"note": AWKWARD, "nested": {"list": [1, 2.5, None, True, AWKWARD]}, "empty": {}}
    entries = [
        Entry(
            p, 1000.0 + i + 0.1, None if i % 2 else 12.345678901234567, i, None, "active", title=AWKWARD[:50], counters=counters
        )
        for i, p in enumerate(players)
    ]
    points = [
        Point(
            p,
            dt.date(2020, 5, 3),
            1e-300 if i == 0 else -1234.5,
            None,
            i,
            "provisional",
            None,
            title=None,
            counters=None,
            tournament_ids=[t.id for t in given.tournaments],
        )
        for i, p in enumerate(players)
    ]
    changes = [
        Change(t.id, p, AWKWARD[:20], None, 5e300, -0.0, 1 / 3, 0, None, title_after=AWKWARD[:50], details=counters)
        for t in given.tournaments
        for p in players
    ]
    return Replay(entries=entries, points=points, changes=changes)


@pytest.fixture
def awkward_system():
    system = RatingSystem(
        id="test-awkward", params_model=NoParams, seed_model=None, replay=replay_awkward, standings_on=last_point_held
    )
    registry.register(system)
    yield system
    registry.unregister(system.id)


def test_rows_written_in_bulk_read_back_exactly(client, awkward_system):
    with db.session_scope() as session:
        session.execute(
            insert(RatingList).values(
                id="awkward", name="Awkward", system="test-awkward", category="renju", params={}, eligibility={}
            )
        )
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    recompute_now(client, "awkward")
    counters = {"note": AWKWARD, "nested": {"list": [1, 2.5, None, True, AWKWARD]}, "empty": {}}
    rows = client.get("/v1/rating-lists/awkward/ratings", params={"status": "all"}).json()["items"]
    assert [r["player_id"] for r in rows] == ["p4", "p3", "p2", "p1"]
    assert [r["rating"] for r in rows] == [1000.0 + i + 0.1 for i in (3, 2, 1, 0)]
    assert [r["deviation"] for r in rows] == [None, 12.345678901234567, None, 12.345678901234567]
    assert all(r["title"] == AWKWARD[:50] and r["counters"] == counters and r["last_played"] is None for r in rows)
    first = client.get("/v1/players/p1/history", params={"list": "awkward"}).json()["points"]
    assert first == [
        {
            "date": "2020-05-03",
            "rating": 1e-300,
            "deviation": None,
            "games": 0,
            "status": "provisional",
            "title": None,
            "counters": None,
            "tournament_ids": ["T1"],
        }
    ]
    assert client.get("/v1/players/p2/history", params={"list": "awkward"}).json()["points"][0]["rating"] == -1234.5
    changes = [c for c in client.get("/v1/tournaments/T1").json()["rating_changes"] if c["list_id"] == "awkward"]
    assert [c["player_id"] for c in changes] == ["p1", "p2", "p3", "p4"]
    for change in changes:
        assert (change["system"], change["title_after"], change["details"]) == (AWKWARD[:20], AWKWARD[:50], counters)
        assert (change["rating_before"], change["rating_after"], change["change"], change["change_unrounded"]) == (
            None,
            5e300,
            -0.0,
            1 / 3,
        )
        assert change["status_after"] is None


@pytest.mark.slow
def test_a_jobs_rows_are_freed_before_the_collector_runs_again(client, monkeypatch):
    """The collector is paused while a job builds its rows (app.performance.cyclic_gc_paused); rows still held
    when it resumes are all scanned at the next allocation of any thread, a reader's request as often
    as not (20 ms for the large history's 47,051 entries). So the job's snapshot data is gone by then."""
    import contextlib
    import gc
    import weakref

    from app import performance

    cli_import_renju_cn()
    computed: list[weakref.ref[compute.SnapshotData]] = []
    alive_when_resumed: list[bool] = []
    compute_snapshot, paused = compute.compute_snapshot, performance.cyclic_gc_paused

    def watched_compute(*args, **kwargs):  # type: ignore[no-untyped-def]
        data = compute_snapshot(*args, **kwargs)
        computed.append(weakref.ref(data))
        return data

    @contextlib.contextmanager
    def watched_pause():  # type: ignore[no-untyped-def]
        with paused():
            yield
            alive_when_resumed.append(computed[-1]() is not None)
        assert gc.isenabled()

    monkeypatch.setattr(compute, "compute_snapshot", watched_compute)
    monkeypatch.setattr(performance, "cyclic_gc_paused", watched_pause)
    job = recompute_now(client)
    assert job["result"]["players"] > 0 and job["result"]["timings_s"]["write"] >= 0
    assert alive_when_resumed == [False]


@pytest.mark.slow
def test_a_jobs_commit_leaves_the_checkpoint_until_the_job_is_seen_succeeded(client, monkeypatch, database_url):
    """On SQLite the commit of a snapshot does not copy the write-ahead log into the database file
    (120 ms of the large history's recompute, which its client waited on); the worker checkpoints
    once the job has succeeded (``jobs._checkpoint_after``), and the connection checkpoints by itself
    again once back in the pool. Nothing changes on PostgreSQL."""
    from app.recompute import jobs

    sqlite = make_url(database_url).get_backend_name() == "sqlite"
    cli_import_renju_cn()
    seen: list[tuple[str, object]] = []
    write_snapshot, checkpoint = jobs.write_snapshot, jobs.checkpoint

    def watched_write(session, *args, **kwargs):  # type: ignore[no-untyped-def]
        if sqlite:
            seen.append(("automatic checkpoints while writing", session.scalar(text("PRAGMA wal_autocheckpoint"))))
        return write_snapshot(session, *args, **kwargs)

    def watched_checkpoint(engine, **kwargs):  # type: ignore[no-untyped-def]
        with db.session_scope() as session:
            seen.append(("job when checkpointed", session.scalar(text("SELECT status FROM jobs ORDER BY id DESC LIMIT 1"))))
        checkpoint(engine, **kwargs)

    monkeypatch.setattr(jobs, "write_snapshot", watched_write)
    monkeypatch.setattr(jobs, "checkpoint", watched_checkpoint)
    assert recompute_now(client)["result"]["players"] > 0
    assert seen == ([("automatic checkpoints while writing", 0)] if sqlite else []) + [("job when checkpointed", "succeeded")]
    if sqlite:
        with db.get_engine().connect() as connection:  # the writer's connection, back in the pool
            assert connection.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == db.SQLITE_AUTOMATIC_CHECKPOINT_PAGES


def test_a_commit_after_which_the_caller_checkpoints_leaves_the_database_file_as_it_was(tmp_path):
    """``checkpoint_after_commit`` on a transaction far over SQLite's 1,000 pages: the database file
    does not grow at its commit, the log holds it, and ``checkpoint`` then copies it; the next
    transaction on the same connection checkpoints by itself as SQLite does."""
    path = tmp_path / "deferred.sqlite3"
    engine = db.make_engine(f"sqlite:///{path}")
    maker = sessionmaker(engine)
    blob_bytes = 6 << 20  # 6 MiB: 1,536 pages of 4 KiB
    with db.session_scope(maker) as session:
        session.execute(text("CREATE TABLE blobs (value BLOB)"))
    db.checkpoint(engine, truncate=True)
    empty = path.stat().st_size
    with db.session_scope(maker) as session:
        db.checkpoint_after_commit(session)
        session.execute(text("INSERT INTO blobs VALUES (randomblob(:size))"), {"size": blob_bytes})
    assert path.stat().st_size == empty
    assert path.with_name(path.name + "-wal").stat().st_size > blob_bytes
    db.checkpoint(engine)
    assert path.stat().st_size > blob_bytes
    with db.session_scope(maker) as session:  # the same pooled connection, its automatic checkpoints back
        session.execute(text("INSERT INTO blobs VALUES (randomblob(:size))"), {"size": blob_bytes})
    assert path.stat().st_size > 2 * blob_bytes
    engine.dispose()
