"""A snapshot's columns stored as one archive (app.services.stored_columns) read back exactly: every
kind of column a rating system may fill, including the awkward values."""

import io
import math

import numpy as np
import pytest

from app.rating.system import CodedColumn, RecordColumn, object_column
from app.services import stored_columns

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
    assert stored["status.values"].nbytes < 50 and stored["status"].dtype == np.int32
    assert stored["ids.values"].nbytes < 50


def test_dicts_of_one_shape_are_stored_a_column_per_key():
    details = object_column([{"deviation_after": 40.0 + i / 7, "day_after": f"2019-05-{i % 28 + 1:02d}"} for i in range(10_000)])
    archive = stored_columns.pack({"details": details})
    stored = np.load(io.BytesIO(archive), allow_pickle=False)
    assert stored["details.0"].dtype == np.float64 and stored["details.1"].dtype == np.int32
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
