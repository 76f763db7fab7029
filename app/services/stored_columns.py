"""Columns of many rows stored as one value: how a snapshot keeps its per-day points and its
per-tournament changes.

A RIF-sized snapshot has tens of thousands of each. Written as rows they cost more than the fit
that produced them (a database's per-row work: 0.3 s on SQLite, 0.8 s on PostgreSQL for both), and
their readers want them all at once (the list as of a date) or from columns kept per process (a
player's history, a tournament's changes: ``app.services.timelines``,
``app.services.snapshot_changes``). So each is written as one NumPy ``.npz`` archive: a numeric column as its array; a column of strings (or ``None``), or of
lists of strings, dictionary-encoded, as ``int32`` codes into its distinct values (``<name>.values``:
the UTF-8 bytes of one JSON array); a column of dicts of one shape, whose every key holds floats or
strings, as one such column per key (``<name>.<i>``, the keys in ``<name>.fields``, which rows are
None in ``<name>.absent``); any other column of objects as the UTF-8 bytes of one JSON array of all
its values (``<name>.json``). Nothing is pickled: ``unpack`` loads with
``allow_pickle=False``, so a stored value can never run code.

Decoded dictionary-encoded columns share their distinct values (rows with equal tournament lists
hold the same list): readers never change a decoded value.

A committed snapshot never changes, so what a reader builds from its columns is kept per process
(``PerSnapshot``) for the few most recently read snapshots, keyed by the snapshot's id and creation
time: a snapshot id reused after a deletion is never served another snapshot's columns."""

import datetime as dt
import io
import json
import math
import sqlite3
import struct
import threading
import zipfile
from collections import OrderedDict
from collections.abc import Callable, Mapping
from itertools import chain
from json.encoder import encode_basestring_ascii
from typing import Any, Generic, TypeVar

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import InstrumentedAttribute, Session

from app.models import RatingSnapshot
from app.rating.system import CodedColumn, RecordColumn, object_column

CACHED_SNAPSHOTS = 8

_VALUES = ".values"
_PLAIN = ".json"
_FIELDS = ".fields"
_ABSENT = ".absent"
_Read = TypeVar("_Read")
_NPY_HEADER_MOST = 65_536 + 12  # a .npy header (format 2.0) is at most this long


def pack(columns: Mapping[str, np.ndarray | CodedColumn | RecordColumn]) -> bytes:
    """The columns (all of one length) as one archive, each object column in the layout that suits it.
    A column already coded (``CodedColumn``, ``RecordColumn``: a columnar system's) is stored in the
    layout its values would get, without a Python object per row."""
    arrays: dict[str, np.ndarray] = {}
    for name, column in columns.items():
        if isinstance(column, CodedColumn):
            encoded = _coded(column)
        elif isinstance(column, RecordColumn):
            encoded = _record_columns(column)
        elif column.dtype == object:
            encoded = _encoded(column)
        else:
            arrays[name] = column
            continue
        arrays.update({name + suffix: array for suffix, array in encoded.items()})
    buffer = io.BytesIO()
    np.savez(buffer, allow_pickle=False, **arrays)
    return buffer.getvalue()


def unpack(data: bytes) -> dict[str, np.ndarray]:
    """The columns ``pack`` stored, object columns as object arrays again."""
    archive = Archive(data)
    return {name: archive.column(name) for name in archive.names}


class Archive:
    """The columns of one stored archive, each decoded when asked, whole or only some of its rows.

    ``np.savez`` stores its members uncompressed, so each array is read in place from the archive's
    bytes (``_members``): nothing is copied or checksummed until a column is asked for. A reader that
    needs a few rows of an object column (one player's points) decodes only those; one that needs a
    whole column of codes (a dictionary-encoded column) gets the codes and the distinct values. The
    distinct values of a column are decoded once per archive."""

    def __init__(self, data: bytes) -> None:
        self._stored = _members(data)
        self._distinct: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()
        self.names = list(dict.fromkeys(stored_name.split(".", 1)[0] for stored_name in self._stored))

    def column(self, name: str) -> np.ndarray:
        return self.rows(name, slice(None))

    def rows(self, name: str, rows: np.ndarray | slice) -> np.ndarray:
        """The column's values at ``rows`` only."""
        stored = self._stored
        if name + _PLAIN in stored:
            return self._values(name + _PLAIN)[rows]
        if name + _FIELDS in stored:
            fields = _loaded(stored[name + _FIELDS])
            every_absent = stored[name + _ABSENT]
            absent = every_absent[rows]
            # A field's arrays hold the rows that are not None only: the wanted rows' places among those.
            present = (np.cumsum(~every_absent) - 1)[rows][~absent]
            per_field = [self.rows(f"{name}.{i}", present).tolist() for i in range(len(fields))]
            records = np.full(len(absent), None, dtype=object)
            records[~absent] = object_column(
                [dict(zip(fields, row, strict=True)) for row in zip(*per_field, strict=True)]
                if fields
                else [{} for _ in range(int((~absent).sum()))]
            )
            return records
        if name + _VALUES in stored:
            decoded: np.ndarray = self._values(name + _VALUES)[stored[name][rows]]
            return decoded
        plain: np.ndarray = stored[name][rows]
        return plain

    def codes(self, name: str) -> tuple[np.ndarray, np.ndarray] | None:
        """A dictionary-encoded column as its codes and its distinct values (None for another layout)."""
        return (self._stored[name], self._values(name + _VALUES)) if name + _VALUES in self._stored else None

    def _values(self, stored_name: str) -> np.ndarray:
        with self._lock:
            found = self._distinct.get(stored_name)
        if found is None:
            found = object_column(_loaded(self._stored[stored_name]))
            with self._lock:
                self._distinct[stored_name] = found
        return found


def _members(data: bytes) -> dict[str, np.ndarray]:
    """The archive's arrays by name, as read-only views of ``data`` where its members are stored
    uncompressed (as ``np.savez`` writes them), else as ``np.load`` reads them."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = archive.infolist()
    if any(member.compress_type != zipfile.ZIP_STORED for member in members):
        with np.load(io.BytesIO(data), allow_pickle=False) as loaded:
            return {name: loaded[name] for name in loaded.files}
    arrays = {}
    for member in members:
        # The member's data follows its local header: 30 bytes, then its name and extra field.
        name_length, extra_length = struct.unpack_from("<HH", data, member.header_offset + 26)
        start = member.header_offset + 30 + name_length + extra_length
        header = io.BytesIO(data[start : start + min(member.file_size, _NPY_HEADER_MOST)])
        version = np.lib.format.read_magic(header)
        read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        shape, fortran_order, dtype = read_header(header)
        if dtype.hasobject:
            raise ValueError("an archive of columns holds no pickled objects")
        count = math.prod(shape)
        array = np.frombuffer(data, dtype=dtype, count=count, offset=start + header.tell())
        arrays[member.filename.removesuffix(".npy")] = array.reshape(shape, order="F" if fortran_order else "C")
    return arrays


def _loaded(utf8: np.ndarray) -> Any:
    return json.loads(utf8.tobytes().decode())


class PerSnapshot(Generic[_Read]):
    """What ``read`` (session, snapshot id) builds from a snapshot's stored columns: built once per
    process for each of the ``CACHED_SNAPSHOTS`` most recently read snapshots, then from memory."""

    def __init__(self, read: Callable[[Session, int], _Read]) -> None:
        self._read = read
        self._lock = threading.Lock()
        self._kept: OrderedDict[tuple[int, dt.datetime | None], _Read] = OrderedDict()

    def of(self, session: Session, snapshot: RatingSnapshot) -> _Read:
        key = (snapshot.id, snapshot.created_at)
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                return found
        built = self._read(session, snapshot.id)
        with self._lock:
            self._kept[key] = built
            while len(self._kept) > CACHED_SNAPSHOTS:
                self._kept.popitem(last=False)
        return built

    def forget_all(self) -> None:
        """Drop everything kept (tests that rebuild the database between cases)."""
        with self._lock:
            self._kept.clear()


def stored_archive(session: Session, column: InstrumentedAttribute[bytes | None], snapshot_id: int) -> bytes | None:
    """The snapshot's archive stored in ``column`` (None when it has none). On SQLite it is read
    through the driver's incremental blob I/O, copied once from the database's pages into the bytes
    returned: a SELECT copies the value twice (SQLite's buffer, then Python's), and a large history's
    archives are 12-17 MB, half of the first read of a snapshot in a process (decisions 7.74)."""
    connection = session.connection()
    driver = connection.connection.driver_connection
    if isinstance(driver, sqlite3.Connection):
        try:
            with driver.blobopen(RatingSnapshot.__tablename__, column.key, snapshot_id, readonly=True) as blob:
                read: bytes = blob.read()
                return read
        except sqlite3.OperationalError:
            pass  # no such row, or a NULL (no blob to open): answered by the SELECT below
    return session.scalar(select(column).where(RatingSnapshot.id == snapshot_id))


def json_text(value: Any) -> str:
    """JSON text exactly as ``json.dumps`` with its defaults writes it, from an encoder built once
    (``json.dumps`` builds one per call: half the cost over tens of thousands of small values)."""
    return _json(value)


def _encoded(column: np.ndarray) -> dict[str, np.ndarray]:
    """A column of objects as stored arrays under the suffixes ``unpack`` reads. Strings (or None), and
    lists of strings, repeat a lot (statuses, ids, a day's tournaments): codes into the distinct
    values. Dicts of one shape (a system's details) are a column per key (``_records``). Anything else
    is one JSON array of all the values, encoded in one call."""
    values = column.tolist()
    kinds = set(map(type, values)) - {type(None)}  # (C loops: a few milliseconds for tens of thousands)
    if kinds <= {str}:
        return _dictionary(values)
    if kinds == {list} and set(map(type, chain.from_iterable(v for v in values if v is not None))) <= {str}:
        return _dictionary([None if v is None else tuple(v) for v in values])
    records = _records(values) if kinds == {dict} else None
    return records if records is not None else {_PLAIN: _utf8(_json(values))}


def _dictionary(keys: list[Any]) -> dict[str, np.ndarray]:
    distinct = dict.fromkeys(keys)
    code_of = {key: i for i, key in enumerate(distinct)}
    return {
        "": np.fromiter(map(code_of.__getitem__, keys), dtype=np.int32, count=len(keys)),
        _VALUES: _utf8(_json([list(key) if type(key) is tuple else key for key in distinct])),
    }


def _coded(column: CodedColumn) -> dict[str, np.ndarray]:
    """What ``_dictionary`` stores for the column's values, from its codes: renumbered in the order of
    each value's first row, the values no row names left out."""
    codes = np.asarray(column.codes, dtype=np.int64)
    rows = len(codes)
    first_row = np.full(len(column.values), rows, dtype=np.int64)
    np.minimum.at(first_row, codes, np.arange(rows))
    named = np.flatnonzero(first_row < rows)
    by_first_row = named[np.argsort(first_row[named])]
    number = np.zeros(len(column.values), dtype=np.int32)
    number[by_first_row] = np.arange(len(by_first_row), dtype=np.int32)
    values = column.values
    return {
        "": number[codes],
        _VALUES: _utf8(
            _json([list(value) if type(value) is tuple else value for value in map(values.__getitem__, by_first_row.tolist())])
        ),
    }


def _record_columns(column: RecordColumn) -> dict[str, np.ndarray]:
    """What ``_records`` stores for dicts of the column's one shape, from its per-key columns (and
    what ``_encoded`` stores for no rows at all: an empty dictionary)."""
    rows = len(column)
    if not rows:
        return _dictionary([])
    arrays = {_ABSENT: np.zeros(rows, dtype=bool), _FIELDS: _utf8(_json(list(column.fields)))}
    for i, values in enumerate(column.fields.values()):
        if isinstance(values, CodedColumn):
            arrays.update({f".{i}{suffix}": array for suffix, array in _coded(values).items()})
        else:
            arrays[f".{i}"] = values.astype(np.float64, copy=False)
    return arrays


def _records(values: list[Any]) -> dict[str, np.ndarray] | None:
    """Dicts (or None) that all have the same keys, each key's values all floats or all strings (or
    None): which rows are None, the keys, and per key a float64 array or dictionary-encoded strings.
    None when the dicts are not of that one shape."""
    present = [v for v in values if v is not None]
    shapes = set(map(tuple, present))
    if len(shapes) != 1:
        return None
    (fields,) = shapes
    arrays = {_ABSENT: np.array([v is None for v in values], dtype=bool), _FIELDS: _utf8(_json(list(fields)))}
    for i, field in enumerate(fields):
        field_values = [record[field] for record in present]
        kinds = set(map(type, field_values))
        if kinds == {float}:
            arrays[f".{i}"] = np.array(field_values, dtype=np.float64)
        elif kinds - {type(None)} <= {str}:
            arrays.update({f".{i}{suffix}": array for suffix, array in _dictionary(field_values).items()})
        else:
            return None
    return arrays


def _utf8(text: str) -> np.ndarray:
    return np.frombuffer(text.encode(), dtype=np.uint8)


def _json_encoder() -> Callable[[Any], str]:
    default = json.JSONEncoder()
    try:
        from _json import make_encoder  # the accelerator json.encoder knows as c_make_encoder
    except ImportError:  # a Python without it
        return default.encode
    make = make_encoder(None, default.default, encode_basestring_ascii, None, ": ", ", ", False, False, True)

    def encode(value: Any) -> str:
        return "".join(make(value, 0))

    return encode


_json = _json_encoder()
