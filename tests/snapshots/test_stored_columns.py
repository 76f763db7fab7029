"""A snapshot's columns stored as one archive (app.snapshots.stored_columns) read back exactly: every
kind of column a rating system may fill, including the awkward values."""

import datetime as dt
import io
import math

import numpy as np
import pytest
from sqlalchemy import create_engine, insert
from sqlalchemy.orm import Session

from app.models import Base, RatingSnapshot
from app.rating.system import CodedColumn, RecordColumn, object_column
from app.snapshots import stored_columns

AWKWARD = 'tab\there, "quotes", back\\slash, ünïcödé ✓ 𝄞, \x00 nul'


def test_every_kind_of_column_reads_back_exactly():
    columns = {
        "day": np.array([738000, 0, 738001], dtype=np.int32),
        "rating": np.array([1e-300, -0.0, 5e300]),
        "deviation": np.array([math.nan, 12.345678901234567, 1 / 3]),
        "games": np.array([0, 2**40, -1], dtype=np.int64),
        "status": object_column(["active", None, "active"]),
        "title": object_column([None, None, None]),
        "ids": object_column([["t1", "t2"], [], ["t1", "t2"]]),
        "mixed": object_column([1, True, 1.0]),  # equal as Python keys, different as JSON
        "lists_of_other": object_column([[1], [True], None]),
        "counters": object_column([{"norms": [1, 2.5, None, True]}, None, {"note": AWKWARD, "nested": {}}]),
        "text": object_column([AWKWARD, "", AWKWARD]),
        "details": object_column(
            [{"deviation_after": 51.25, "day_after": "2019-05-01"}, None, {"deviation_after": -0.0, "day_after": None}]
        ),
        "empty_dicts": object_column([{}, None, {}]),
        "ints_in_dicts": object_column([{"n": 1}, {"n": 2.5}, {"n": True}]),
        "two_shapes": object_column([{"a": 1.5, "b": "x"}, {"b": "x", "a": 1.5}, None]),
    }
    back = stored_columns.unpack(stored_columns.pack(columns))
    assert set(back) == set(columns)
    for name, column in columns.items():
        assert back[name].dtype == column.dtype, name
        if column.dtype == object:
            assert back[name].tolist() == column.tolist(), name
            assert [type(v) for v in back[name].tolist()] == [type(v) for v in column.tolist()], name
        else:
            np.testing.assert_array_equal(back[name], column)
    assert math.copysign(1.0, back["rating"][1]) == -1.0


def test_repeated_strings_are_stored_once():
    statuses = object_column(["provisional", "active"] * 10_000)
    ids = object_column([["t1"], ["t1", "t2"]] * 10_000)
    stored = np.load(io.BytesIO(stored_columns.pack({"status": statuses, "ids": ids})), allow_pickle=False)
    assert stored["status.values"].nbytes < 50 and stored["status"].dtype == np.uint8  # a byte a row for a few values
    assert stored["ids.values"].nbytes < 50


def test_dicts_of_one_shape_are_stored_a_column_per_key():
    details = object_column([{"deviation_after": 40.0 + i / 7, "day_after": f"2019-05-{i % 28 + 1:02d}"} for i in range(10_000)])
    archive = stored_columns.pack({"details": details})
    stored = np.load(io.BytesIO(archive), allow_pickle=False)
    assert stored["details.0"].dtype == np.float64 and stored["details.1"].dtype == np.uint8
    assert "details.json" not in stored.files and len(archive) < 150_000
    assert stored_columns.unpack(archive)["details"].tolist() == details.tolist()


def test_empty_columns_read_back_empty():
    back = stored_columns.unpack(
        stored_columns.pack({"rating": np.empty(0), "status": object_column([]), "counters": object_column([])})
    )
    assert [len(column) for column in back.values()] == [0, 0, 0]


@pytest.mark.parametrize("rows", [[2, 0, 2, 3, 0], []])
def test_coded_columns_are_stored_as_their_values_would_be(rows):
    """A columnar system's coded columns give the very bytes the same values give as objects: codes
    numbered by first row, the values no row names left out (the WHR list's points and changes)."""
    codes = np.array(rows, dtype=np.int64)
    ids = ["t9", "unused", "t1", AWKWARD]
    lists = [["t2", "t1"], ["never"], ["t1"], []]
    days = ["2019-05-02", "2019-05-01", None, "2019-05-01 (never named)"]
    deviations = np.linspace(-0.0, 51.25, len(rows))
    coded = {
        "ids": CodedColumn(codes, ids),
        "tournament_ids": CodedColumn(codes, lists),
        "title": CodedColumn(np.zeros(len(rows), dtype=np.int8), [None]),
        "details": RecordColumn({"deviation_after": deviations, "day_after": CodedColumn(codes, days)}),
    }
    as_objects = {
        "ids": object_column([ids[c] for c in rows]),
        "tournament_ids": object_column([lists[c] for c in rows]),
        "title": object_column([None] * len(rows)),
        "details": object_column(
            [{"deviation_after": d, "day_after": days[c]} for d, c in zip(deviations.tolist(), rows, strict=True)]
        ),
    }
    assert stored_columns.pack(coded) == stored_columns.pack(as_objects)
    back = stored_columns.unpack(stored_columns.pack(coded))
    assert {name: column.tolist() for name, column in back.items()} == {n: c.tolist() for n, c in as_objects.items()}
    assert {name: column.decoded().tolist() for name, column in coded.items()} == {n: c.tolist() for n, c in as_objects.items()}


def test_nothing_pickled_is_ever_loaded():
    buffer = io.BytesIO()
    np.savez(buffer, status=np.array([object()], dtype=object))  # a pickled object array
    with pytest.raises(ValueError, match="pickle"):
        stored_columns.unpack(buffer.getvalue())


@pytest.mark.parametrize(
    ("distinct", "code_type"), [(1, np.uint8), (256, np.uint8), (257, np.uint16), (65_536, np.uint16), (65_537, np.int32)]
)
def test_codes_are_as_narrow_as_their_distinct_values_allow(distinct, code_type):
    values = object_column([f"v{i}" for i in range(distinct)] + ["v0"])
    coded = CodedColumn(np.arange(distinct + 1) % distinct, [f"v{i}" for i in range(distinct)])
    for column in (values, coded):
        stored = np.load(io.BytesIO(stored_columns.pack({"ids": column})), allow_pickle=False)
        assert stored["ids"].dtype == code_type
        assert stored_columns.unpack(stored_columns.pack({"ids": column}))["ids"].tolist() == values.tolist()


def test_an_archive_in_a_database_is_read_member_by_member_as_in_memory(tmp_path, monkeypatch):
    rows = 5_000
    rng = np.random.default_rng(7)
    columns = {
        "day": np.arange(rows, dtype=np.int32),
        "rating": rng.normal(size=rows),
        "status": object_column([("active", "inactive", None)[i % 3] for i in range(rows)]),
        "tournament_ids": object_column([[f"t{i % 7}", f"t{i % 11}"] for i in range(rows)]),
        "counters": object_column([{"n": [i]} if i % 2 else None for i in range(rows)]),
        "details": object_column([{"after": float(i), "day": f"d{i % 5}"} if i % 4 else None for i in range(rows)]),
        "tournament_id": object_column([f"t{i // 3}, x" for i in range(rows)]),  # plain strings: a few decoded alone
    }
    data = stored_columns.pack(columns)
    engine = create_engine(f"sqlite:///{tmp_path / 'archive.sqlite3'}")  # (no foreign keys: the snapshot's table alone)
    Base.metadata.create_all(engine, tables=[RatingSnapshot.__table__])
    with Session(engine) as session:
        session.execute(insert(RatingSnapshot).values(id=1, list_id="l", list_date=dt.date(2020, 1, 1), point_columns=data))
        session.commit()
    in_memory = stored_columns.Archive(data)
    with Session(engine) as session:  # a small archive is read whole at once
        whole = stored_columns.Archive.stored(session, RatingSnapshot.point_columns, 1)
    assert whole is not None and whole.column(None, "tournament_id").tolist() == columns["tournament_id"].tolist()
    monkeypatch.setattr(stored_columns, "_READ_WHOLE_BELOW", 0)  # this one as a large one: member by member
    picks: list[np.ndarray | slice] = [
        slice(10, 20),
        np.array([3, 4, 5, 900, 901, 4_999]),
        np.array([7, 2, 7]),
        np.array([], dtype=np.int64),
    ]
    picks += [np.arange(0, rows, 3), slice(None)]  # too many runs, and every row: read whole
    with Session(engine) as session:
        archive = stored_columns.Archive.stored(session, RatingSnapshot.point_columns, 1, load=("day",))
        assert archive is not None and archive.names == in_memory.names
        assert stored_columns.Archive.stored(session, RatingSnapshot.change_columns, 1) is None
        assert stored_columns.Archive.stored(session, RatingSnapshot.point_columns, 2) is None
        for rows_wanted in picks:
            # A fresh archive reads the rows alone (or, for too many runs, whole); one read in part
            # twice before reads them from the whole member.
            fresh = stored_columns.Archive.stored(session, RatingSnapshot.point_columns, 1)
            for source in (fresh, archive):
                assert source is not None
                for name in columns:
                    got, wanted = source.rows(session, name, rows_wanted), in_memory.rows(None, name, rows_wanted)
                    assert got.dtype == wanted.dtype and got.tolist() == wanted.tolist(), (name, rows_wanted)
                    assert got.tolist() == columns[name][rows_wanted].tolist(), (name, rows_wanted)
        with pytest.raises(IndexError):
            archive.rows(session, "rating", np.array([rows]))
        assert [c.tolist() for c in archive.rows_of(session, ("day", "status"), slice(0, 3))] == [
            [0, 1, 2],
            ["active", "inactive", None],
        ]
        codes = archive.codes(session, "status")
        assert codes is not None and codes[1] == ["active", "inactive", None] and codes[0].dtype == np.uint8
    with Session(engine) as session:
        unread = stored_columns.Archive.stored(session, RatingSnapshot.point_columns, 1)
    assert unread is not None
    with pytest.raises(ValueError, match="session"):
        unread.rows(None, "rating", slice(0, 1))  # what is not read yet is read through a reader's session
    engine.dispose()


@pytest.mark.parametrize(
    "ids",
    [
        ["a", "b, c", "10", "1", ", ", '"', "x\\y", "", "ü", "a"],  # escapes: the values decoded
        ["a", "b, c", "10", "1", ", ", "", "z", "a"],  # no escape: the text searched
        [],
    ],
)
def test_a_values_code_is_found_in_the_stored_text_as_by_decoding(ids):
    archive = stored_columns.Archive(stored_columns.pack({"player_id": object_column(ids)}))
    distinct = list(dict.fromkeys(ids))
    for value in [*distinct, "b", "c", '"b', ', "', "0", "", "ü", "A", '1", "']:
        assert archive.code_of(None, "player_id", value) == (distinct.index(value) if value in distinct else None), value
    assert archive.code_column(None, "player_id").tolist() == [distinct.index(value) for value in ids]
    with pytest.raises(ValueError):
        stored_columns.Archive(stored_columns.pack({"n": np.arange(3)})).code_of(None, "n", "1")


def _stored_as_large(tmp_path, monkeypatch, columns):
    """An engine whose snapshot 1 stores ``columns`` as its points, read member by member."""
    engine = create_engine(f"sqlite:///{tmp_path / 'archive.sqlite3'}")  # (no foreign keys: the snapshot's table alone)
    Base.metadata.create_all(engine, tables=[RatingSnapshot.__table__])
    with Session(engine) as session:
        session.execute(
            insert(RatingSnapshot).values(
                id=1, list_id="l", list_date=dt.date(2020, 1, 1), point_columns=stored_columns.pack(columns)
            )
        )
        session.commit()
    monkeypatch.setattr(stored_columns, "_READ_WHOLE_BELOW", 0)
    return engine


@pytest.mark.parametrize("row_type", [np.uint8, np.int8, np.uint16, np.int16, np.int32])
def test_rows_of_any_integer_type_are_read_alone_as_from_memory(tmp_path, monkeypatch, row_type):
    """A few rows of a member not read yet, asked for with a narrow integer type (codes, say), are
    read alone as the archive held whole indexes them: no overflow of the type counting from the end."""
    columns = {"rating": np.arange(1_000, dtype=np.float64), "status": object_column(["a", "b", None] * 333 + ["c"])}
    engine = _stored_as_large(tmp_path, monkeypatch, columns)
    rows = np.array([3, 4, 100, 5, -1 if np.issubdtype(row_type, np.signedinteger) else 7], dtype=row_type)
    in_memory = stored_columns.Archive(stored_columns.pack(columns))
    with Session(engine) as session:
        archive = stored_columns.Archive.stored(session, RatingSnapshot.point_columns, 1)
        assert archive is not None
        for name in columns:
            assert archive.rows(session, name, rows).tolist() == in_memory.rows(None, name, rows).tolist(), name
    engine.dispose()


def test_a_code_is_none_for_any_value_no_plain_text_holds():
    """Plain stored text is ASCII (json escapes the rest): a value that is not, even one that cannot
    be encoded (a lone surrogate), names no code, as when the values are decoded."""
    plain = stored_columns.Archive(stored_columns.pack({"player_id": object_column(["a", "b"])}))
    escaped = stored_columns.Archive(stored_columns.pack({"player_id": object_column(["a", "ü"])}))
    for archive in (plain, escaped):
        for value in ("\ud800", "ü\ud800", "é"):
            assert archive.code_of(None, "player_id", value) is None, value
    assert escaped.code_of(None, "player_id", "ü") == 1


def test_a_read_past_the_end_of_a_stored_archive_is_refused():
    """A member said to reach past the stored bytes (a damaged archive) is refused, whatever its
    size, never handed back with bytes that were not read."""
    stored = io.BytesIO(bytes(range(200)) * 1_000)  # (reads and seeks as a blob does)
    size = len(stored.getvalue())
    assert stored_columns._read_ranges(stored, [(size - 10, 10)])[0].tolist() == list(stored.getvalue()[-10:])
    for start, length in ((size - 10, 20), (size - 70_000, 70_010), (0, size + 1)):
        with pytest.raises(ValueError, match="ends before"):
            stored_columns._read_ranges(stored, [(start, length)])
        with pytest.raises(ValueError, match="ends before"):
            stored_columns._read_range(stored, start, length)


def test_a_member_of_a_snapshot_deleted_since_is_not_found(tmp_path, monkeypatch):
    """A snapshot pruned after a reader found it (its archive's directory kept by the process, its
    members not read yet) answers as a pruned snapshot does: not found, not a database error."""
    from app.problems import NotFound

    engine = _stored_as_large(tmp_path, monkeypatch, {"rating": np.arange(10, dtype=np.float64)})
    with Session(engine) as session:
        archive = stored_columns.Archive.stored(session, RatingSnapshot.point_columns, 1)
    assert archive is not None
    with Session(engine) as session:
        session.execute(RatingSnapshot.__table__.delete())
        session.commit()
    with Session(engine) as session, pytest.raises(NotFound, match="1"):
        archive.rows(session, "rating", slice(0, 3))
    engine.dispose()
