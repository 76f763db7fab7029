"""Columns of many rows stored as one value: how a snapshot keeps its per-day points and its
per-tournament changes.

A RIF-sized snapshot has tens of thousands of each. Written as rows they cost more than the fit
that produced them (a database's per-row work: 0.3 s on SQLite, 0.8 s on PostgreSQL for both), and
their readers want them all at once (the list as of a date) or from columns kept per process (a
player's history, a tournament's changes: ``app.snapshots.timelines``,
``app.snapshots.snapshot_changes``). So each is written as one NumPy ``.npz`` archive: a numeric column as its array; a column of strings (or ``None``), or of
lists of strings, dictionary-encoded, as codes into its distinct values (``<name>.values``: the
UTF-8 bytes of one JSON array; the codes in the narrowest integer type that holds them); a column of dicts of one shape, whose every key holds floats or
strings, as one such column per key (``<name>.<i>``, the keys in ``<name>.fields``, which rows are
None in ``<name>.absent``); any other column of objects as the UTF-8 bytes of one JSON array of all
its values (``<name>.json``). Nothing is pickled: ``unpack`` loads with
``allow_pickle=False``, so a stored value can never run code.

Decoded dictionary-encoded columns share their distinct values (rows with equal tournament lists
hold the same list): readers never change a decoded value.

A committed snapshot never changes, so what a reader builds from its columns is kept per process
(``PerSnapshot``) for the most recently read snapshots, within a limit in bytes (``app.caches``), keyed
by the snapshot's id and creation time: a snapshot id reused after a deletion is never served another snapshot's columns. On SQLite
an archive's members are read from the database as readers first need them (``Archive.stored``)."""

from __future__ import annotations

import io
import json
import math
import sqlite3
import struct
import threading
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import chain
from typing import Any, Generic, Protocol, TypeVar

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import InstrumentedAttribute, Session

from app import caches, json_encoding
from app.models import RatingSnapshot
from app.problems import NotFound
from app.rating.system import CodedColumn, RecordColumn, object_column

_VALUES = ".values"
_PLAIN = ".json"
_FIELDS = ".fields"
_ABSENT = ".absent"
_Read = TypeVar("_Read", bound="Measured")
_NPY_HEADER_FIRST = 256  # bytes read for a .npy header (NumPy writes 64 or 128); a longer one is read again
_NPY_HEADER_FIRST_FIXED = 12  # its magic, version and length
_MOST_RUNS = 64  # runs of rows a reader of some rows reads alone (more: the whole member)
_PARTS_BEFORE_WHOLE = 2  # reads of a part of a member before the next reads it whole
_MOST_DECODED_ALONE = 1_000  # codes whose values a read decodes alone (more: all the values)
_CHUNK = 1 << 16  # bytes per read of a large member: a malloc'd size (glibc maps larger ones afresh)
_READ_WHOLE_BELOW = 4 << 20  # a stored archive smaller than this is read whole at once


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
    return {name: archive.column(None, name) for name in archive.names}


class Archive:
    """The columns of one stored archive, each decoded when asked, whole or only some of its rows.

    ``np.savez`` stores its members uncompressed, so each array is read in place from the archive's
    bytes: nothing is copied or checksummed until a column is asked for. A reader that needs a few
    rows of an object column (one player's points) decodes only those; one that needs a whole column
    of codes (a dictionary-encoded column) gets the codes and the distinct values. The distinct values
    of a column are decoded once per archive.

    An archive stored in a SQLite database (``Archive.stored``) is not fetched whole: its members are
    read from the database when first asked for, through the asking reader's session, and kept; a
    reader of a few rows of a member not kept (one player's changes) reads those rows alone. A
    snapshot's archives are 12-17 MB at the size of the Go world, and most reads need a few of their
    members (a player's changes: the player codes, then his rows; decisions 7.78)."""

    def __init__(self, data: bytes) -> None:
        """The archive ``data`` holds whole (a recompute's, or one fetched whole)."""
        self._set_up(_members(data), None, {})

    def _set_up(self, stored: dict[str, np.ndarray], blob: _StoredBlob | None, places: dict[str, tuple[int, int]]) -> None:
        self._stored = stored  # the members read, by name
        self._blob = blob  # where the members not read yet are (None: every member is read)
        self._places = places  # per member of the stored archive: where its .npy data starts, and its size
        self._headers: dict[str, tuple[np.dtype[Any], int, int]] = {}
        self._distinct: dict[str, tuple[np.ndarray, int]] = {}  # per values member decoded whole: the values, their bytes
        self._parts_read: dict[str, int] = {}  # per member not read whole: how many reads read a part of it
        self._plain_texts: dict[str, tuple[bytes, np.ndarray] | None] = {}  # per values member: see _plain
        self._present: dict[str, np.ndarray] = {}  # per column of dicts: see _places_present
        self._parts_decoded: dict[str, int] = {}  # per values member not decoded whole: how many were decoded alone
        self._lock = threading.Lock()
        self._member_names = frozenset(stored) | frozenset(places)
        self.names = list(dict.fromkeys(stored_name.split(".", 1)[0] for stored_name in (places or stored)))

    def nbytes(self) -> int:
        """The bytes read and decoded so far: the members read (as stored), the values decoded, the
        texts and counts kept (``app.caches`` counts them against a cache's limit)."""
        with self._lock:
            return (
                sum(member.nbytes for member in self._stored.values())
                + sum(size for _, size in self._distinct.values())
                + sum(len(text) + quotes.nbytes for text, quotes in filter(None, self._plain_texts.values()))
                + sum(present.nbytes for present in self._present.values())
            )

    @classmethod
    def stored(
        cls, session: Session, column: InstrumentedAttribute[bytes | None], snapshot_id: int, load: tuple[str, ...] = ()
    ) -> Archive | None:
        """The snapshot's archive stored in ``column`` (None when it has none), the members of the
        columns ``load`` read at once. On SQLite only the archive's directory and those members are
        read (through the driver's incremental blob I/O); the rest is read when asked for. Elsewhere
        the archive is fetched whole."""
        driver = _sqlite_driver(session)
        if driver is None:
            data = session.scalar(select(column).where(RatingSnapshot.id == snapshot_id))
            return cls(data) if data else None
        blob = _StoredBlob(RatingSnapshot.__tablename__, column.key, snapshot_id)
        try:
            with blob.open(driver) as opened:
                if not len(opened):
                    return None
                # The central directory at its end: each member's name, place and whether it is stored.
                members = zipfile.ZipFile(opened).infolist()  # type: ignore[call-overload]  # a Blob reads and seeks as a file
                if any(member.compress_type != zipfile.ZIP_STORED for member in members):
                    opened.seek(0)
                    return cls(opened.read())
                places = {}
                for member in members:
                    # The member's data follows its local header: 30 bytes, then its name and extra field.
                    opened.seek(member.header_offset + 26)
                    name_length, extra_length = struct.unpack("<HH", opened.read(4))
                    start = member.header_offset + 30 + name_length + extra_length
                    places[member.filename.removesuffix(".npy")] = (start, member.file_size)
                archive = cls.__new__(cls)
                archive._set_up({}, blob, places)
                # A small archive (a RIF-sized history's: 1-2 MB) is read whole: a read of a part saves
                # less than its own work costs.
                archive._load_members(opened, list(places) if len(opened) < _READ_WHOLE_BELOW else archive._members_of(load))
                return archive
        except sqlite3.OperationalError:
            # No such row, or a NULL (no blob to open): answered by the SELECT.
            data = session.scalar(select(column).where(RatingSnapshot.id == snapshot_id))
            return cls(data) if data else None

    def load(self, session: Session | None, names: tuple[str, ...]) -> None:
        """Read every member of the columns ``names`` not read yet, in one pass over the stored archive."""
        with _Reading(self._blob, session) as reading:
            self._load(reading, self._members_of(names))

    def column(self, session: Session | None, name: str) -> np.ndarray:
        return self.rows(session, name, slice(None))

    def rows(self, session: Session | None, name: str, rows: np.ndarray | slice) -> np.ndarray:
        """The column's values at ``rows`` only."""
        with _Reading(self._blob, session) as reading:
            return self._rows(reading, name, rows)

    def rows_of(self, session: Session | None, names: tuple[str, ...], rows: np.ndarray | slice) -> list[np.ndarray]:
        """Each column's values at ``rows`` only (what is not read yet read in one pass)."""
        with _Reading(self._blob, session) as reading:
            return [self._rows(reading, name, rows) for name in names]

    def codes(self, session: Session | None, name: str) -> tuple[np.ndarray, list[Any]] | None:
        """A dictionary-encoded column as its codes and its distinct values (None for another layout),
        the values decoded for the caller (an index it builds once: not kept here as objects too)."""
        if name + _VALUES not in self._member_names:
            return None
        with _Reading(self._blob, session) as reading:
            self._load(reading, self._members_of((name,)))
            return self._member(reading, name), _loaded(self._member(reading, name + _VALUES))

    def code_of(self, session: Session | None, name: str, value: str) -> int | None:
        """The code of ``value`` in the dictionary-encoded column ``name`` (None when no row holds it),
        found in the stored JSON text of its distinct values, not by decoding them: tens of thousands of
        player ids are 3 ms to decode, a search of their text a tenth of that. Where the text holds an
        escape (a backslash) or anything but strings, the values are decoded. ValueError for another
        layout."""
        if name + _VALUES not in self._member_names:
            raise ValueError(f"{name} is not dictionary-encoded")
        with _Reading(self._blob, session) as reading:
            plain = self._plain(reading, name + _VALUES)
            if plain is None:
                values = self._values(reading, name + _VALUES).tolist()
                return values.index(value) if value in values else None
        text, quotes = plain
        if not value.isascii() or any(character in '"\\' or character < " " for character in value):
            # Its JSON text would hold a backslash (json escapes all but printable ASCII), which this
            # text does not; and a lone surrogate could not even be encoded to be searched for.
            return None
        needle = f'"{value}"'.encode()
        start = text.find(needle)
        while start != -1:
            k = int(np.searchsorted(quotes, start))
            if k % 2 == 0:  # an opening quote: the whole value (its closing quote the needle's last)
                return k // 2
            start = text.find(needle, start + 1)
        return None

    def _plain(self, reading: _Reading, stored_name: str) -> tuple[bytes, np.ndarray] | None:
        """A JSON array of distinct values as its text and where its quotes are, when it holds strings
        alone and no escape (value i is then the text between quotes 2i and 2i + 1); else None."""
        with self._lock:
            known = stored_name in self._plain_texts
            found = self._plain_texts.get(stored_name)
        if not known:
            text = self._member(reading, stored_name).tobytes()
            quotes = np.flatnonzero(np.frombuffer(text, dtype=np.uint8) == ord('"'))
            found = (text, quotes) if b"\\" not in text and _strings_only(text, quotes) else None
            with self._lock:
                self._plain_texts[stored_name] = found
        return found

    def code_column(self, session: Session | None, name: str) -> np.ndarray:
        """The codes of the dictionary-encoded column ``name``, its values not decoded (ValueError for
        another layout)."""
        if name + _VALUES not in self._member_names:
            raise ValueError(f"{name} is not dictionary-encoded")
        with _Reading(self._blob, session) as reading:
            return self._member(reading, name)

    def _rows(self, reading: _Reading, name: str, rows: np.ndarray | slice) -> np.ndarray:
        stored = self._member_names
        if name + _PLAIN in stored:
            return self._values(reading, name + _PLAIN)[rows]
        if name + _FIELDS in stored:
            fields = _loaded(self._member(reading, name + _FIELDS))
            absent = self._member(reading, name + _ABSENT)[rows]
            # A field's arrays hold the rows that are not None only: the wanted rows' places among those.
            present = self._places_present(reading, name)[rows][~absent]
            per_field = [self._rows(reading, f"{name}.{i}", present).tolist() for i in range(len(fields))]
            records = np.full(len(absent), None, dtype=object)
            records[~absent] = object_column(
                [dict(zip(fields, row, strict=True)) for row in zip(*per_field, strict=True)]
                if fields
                else [{} for _ in range(int((~absent).sum()))]
            )
            return records
        if name + _VALUES in stored:
            return self._decoded(reading, name + _VALUES, self._member_rows(reading, name, rows))
        return self._member_rows(reading, name, rows)

    def _places_present(self, reading: _Reading, name: str) -> np.ndarray:
        """Per row of a column of dicts, its place among the rows that are not None: a running count
        made once per archive (a page of a player's changes took 1.7 ms to count them again, most of it
        the system handing out the count's fresh memory)."""
        with self._lock:
            found = self._present.get(name)
        if found is None:
            found = np.cumsum(~self._member(reading, name + _ABSENT), dtype=np.int64) - 1
            with self._lock:
                self._present[name] = found
        return found

    def _decoded(self, reading: _Reading, stored_name: str, codes: np.ndarray) -> np.ndarray:
        """The distinct values at ``codes``: for a few codes into values not decoded yet, those values
        alone from the stored text when it holds plain strings (a player's tournaments out of
        thousands, a tournament's players out of tens of thousands); else from all of them, decoded
        once (as when the values decoded alone reach a quarter of them)."""
        with self._lock:
            decoded = self._distinct.get(stored_name)
            decoded_alone = self._parts_decoded.get(stored_name, 0)
        if decoded is None and len(codes) <= _MOST_DECODED_ALONE:
            plain = self._plain(reading, stored_name)
            wanted = np.sort(codes.astype(np.int64))
            distinct = wanted[np.concatenate(([True], wanted[1:] != wanted[:-1]))] if len(wanted) else wanted
            if plain is not None and (decoded_alone + len(distinct)) * 4 < len(plain[1]) // 2:
                with self._lock:
                    self._parts_decoded[stored_name] = self._parts_decoded.get(stored_name, 0) + len(distinct)
                text, quotes = plain
                starts, ends = quotes[2 * distinct] + 1, quotes[2 * distinct + 1]
                # A JSON string without an escape is its text between the quotes.
                values = object_column(
                    [text[start:end].decode() for start, end in zip(starts.tolist(), ends.tolist(), strict=True)]
                )
                picked: np.ndarray = values[np.searchsorted(distinct, codes)]
                return picked
        every: np.ndarray = self._values(reading, stored_name)[codes]
        return every

    def _values(self, reading: _Reading, stored_name: str) -> np.ndarray:
        with self._lock:
            found = self._distinct.get(stored_name)
        if found is None:
            values = _loaded(self._member(reading, stored_name))
            found = (object_column(values), caches.nested_bytes(values))
            with self._lock:
                self._distinct[stored_name] = found
        return found[0]

    def _members_of(self, names: tuple[str, ...]) -> list[str]:
        """The stored members of the columns ``names``, in the archive's order."""
        return [stored_name for stored_name in self._places if stored_name.split(".", 1)[0] in names]

    def _member(self, reading: _Reading, stored_name: str) -> np.ndarray:
        with self._lock:
            found = self._stored.get(stored_name)
        if found is None:
            self._load(reading, [stored_name])
            found = self._stored[stored_name]
        return found

    def _load(self, reading: _Reading, stored_names: list[str]) -> None:
        with self._lock:
            wanted = [stored_name for stored_name in stored_names if stored_name not in self._stored]
        if wanted and self._blob is not None:
            self._load_members(reading.opened(), wanted)

    def _member_rows(self, reading: _Reading, stored_name: str, rows: np.ndarray | slice) -> np.ndarray:
        """A member's elements at ``rows``: read alone from the stored archive when the member is not
        read yet and they lie in a few runs of consecutive rows, else from the whole member (read and
        kept)."""
        with self._lock:
            found = self._stored.get(stored_name)
        if found is not None or self._blob is None or (isinstance(rows, slice) and rows == slice(None)):
            return self._member(reading, stored_name)[rows]
        opened = reading.opened()
        dtype, count, data_start = self._header(opened, stored_name)
        runs = _runs(rows, count)
        with self._lock:
            # A member read in part again and again is read whole: a process serving many players' pages
            # holds the columns, as when every archive was read whole, and each read is an index.
            self._parts_read[stored_name] = parts_read = self._parts_read.get(stored_name, 0) + 1
        if runs is None or parts_read > _PARTS_BEFORE_WHOLE:
            self._load_members(opened, [stored_name])
            return self._member(reading, stored_name)[rows]
        wanted, places = runs
        parts = [
            _read_range(opened, data_start + first * dtype.itemsize, (end - first) * dtype.itemsize).view(dtype)
            for first, end in wanted
        ]
        values = np.concatenate(parts) if parts else np.empty(0, dtype=dtype)
        return values if places is None else values[places]

    def _header(self, opened: sqlite3.Blob, stored_name: str) -> tuple[np.dtype[Any], int, int]:
        """A one-dimensional member's type, length and where its elements start, from its first bytes."""
        with self._lock:
            found = self._headers.get(stored_name)
        if found is None:
            start, size = self._places[stored_name]
            head = _read_range(opened, start, min(size, _NPY_HEADER_FIRST))
            if _npy_header_length(head) > len(head):
                head = _read_range(opened, start, min(size, _npy_header_length(head)))
            dtype, shape, _, offset = _npy_header(head)
            if len(shape) != 1:
                raise ValueError(f"{stored_name}: a stored column is one-dimensional")
            found = (dtype, shape[0], start + offset)
            with self._lock:
                self._headers[stored_name] = found
        return found

    def _load_members(self, opened: sqlite3.Blob, stored_names: list[str]) -> None:
        """Read the members, in one buffer (in huge pages when it is large: see ``_read_ranges``)."""
        read = _read_ranges(opened, [self._places[stored_name] for stored_name in stored_names])
        arrays = {stored_name: _array(member) for stored_name, member in zip(stored_names, read, strict=True)}
        with self._lock:
            for stored_name, array in arrays.items():
                self._stored.setdefault(stored_name, array)


def _strings_only(text: bytes, quotes: np.ndarray) -> bool:
    """Whether a JSON text without a backslash, its quotes at ``quotes``, is an array of strings alone:
    ``["a", "b"]`` (every quote then starts or ends a string, as ``json_text`` separates them)."""
    if not len(quotes):
        return text == b"[]"
    closes, opens = quotes[1:-1:2], quotes[2::2]
    as_bytes = np.frombuffer(text, dtype=np.uint8)
    return (
        text[:2] == b'["'
        and text[-2:] == b'"]'
        and bool(np.all(opens - closes == 3))
        and bool(np.all(as_bytes[closes + 1] == ord(",")))
        and bool(np.all(as_bytes[closes + 2] == ord(" ")))
    )


def _members(data: bytes) -> dict[str, np.ndarray]:
    """The archive's arrays by name, as read-only views of ``data`` where its members are stored
    uncompressed (as ``np.savez`` writes them), else as ``np.load`` reads them."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:  # (a BytesIO of bytes shares them: no copy)
        members = archive.infolist()
    if any(member.compress_type != zipfile.ZIP_STORED for member in members):
        with np.load(io.BytesIO(data), allow_pickle=False) as loaded:
            return {name: loaded[name] for name in loaded.files}
    buffer = memoryview(data)
    arrays = {}
    for member in members:
        # The member's data follows its local header: 30 bytes, then its name and extra field.
        name_length, extra_length = struct.unpack_from("<HH", buffer, member.header_offset + 26)
        start = member.header_offset + 30 + name_length + extra_length
        arrays[member.filename.removesuffix(".npy")] = _array(buffer[start : start + member.file_size])
    return arrays


def _array(member: memoryview | np.ndarray) -> np.ndarray:
    """A read-only view of the array a .npy member's bytes hold."""
    dtype, shape, fortran_order, offset = _npy_header(member)
    array = np.frombuffer(member, dtype=dtype, count=math.prod(shape), offset=offset)
    array.flags.writeable = False
    return array.reshape(shape, order="F" if fortran_order else "C")


def _npy_header(member: memoryview | np.ndarray) -> tuple[np.dtype[Any], tuple[int, ...], bool, int]:
    """A .npy member's type, shape and order, and where its elements start (from its first bytes)."""
    header = io.BytesIO(bytes(member[: min(len(member), _npy_header_length(member))]))
    version = np.lib.format.read_magic(header)
    read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
    shape, fortran_order, dtype = read_header(header)
    if dtype.hasobject:
        raise ValueError("an archive of columns holds no pickled objects")
    return dtype, shape, fortran_order, header.tell()


def _npy_header_length(first: memoryview | np.ndarray) -> int:
    """How long the .npy header is, from the member's first bytes (its magic, version and length):
    format 1.0 gives its length in 2 bytes, later formats in 4."""
    if len(first) < _NPY_HEADER_FIRST_FIXED:
        return _NPY_HEADER_FIRST_FIXED
    if int(first[6]) == 1:
        return 10 + int(struct.unpack("<H", bytes(first[8:10]))[0])
    return 12 + int(struct.unpack("<I", bytes(first[8:12]))[0])


def _runs(rows: np.ndarray | slice, count: int) -> tuple[list[tuple[int, int]], np.ndarray | None] | None:
    """``rows`` of a column of ``count`` as runs of consecutive rows (first, end) and where each
    wanted row is among the runs' rows (None: in order, once each); None when they are not a few runs
    (the whole column is then read)."""
    if isinstance(rows, slice):
        first, end, step = rows.indices(count)
        return ([(first, max(first, end))], None) if step == 1 else None
    wanted = np.asarray(rows)
    if wanted.ndim != 1 or wanted.dtype.kind not in "iu":
        return None
    if not len(wanted):
        return [], None
    # Widened first: rows of a narrow type (codes are one or two bytes) would overflow counted from the end.
    wanted = wanted.astype(np.int64, copy=False)
    wanted = np.where(wanted < 0, wanted + count, wanted)
    if int(wanted.min()) < 0 or int(wanted.max()) >= count:
        return None  # the whole column's indexing raises the IndexError
    ordered = np.sort(wanted)
    # (np.unique would do; its first call imports numpy.ma, 10 ms of a first read)
    distinct = ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]
    breaks = np.flatnonzero(np.diff(distinct) != 1) + 1
    if len(breaks) >= _MOST_RUNS:
        return None
    starts = distinct[np.concatenate(([0], breaks))].tolist()
    ends = (distinct[np.concatenate((breaks - 1, [len(distinct) - 1]))] + 1).tolist()
    places = None if len(distinct) == len(wanted) and bool(np.all(distinct == wanted)) else np.searchsorted(distinct, wanted)
    return list(zip(starts, ends, strict=True)), places


class _Reading:
    """One read of an archive's members through a reader's session: the stored archive opened once,
    when the first member not read yet is asked for, and closed at the end."""

    def __init__(self, blob: _StoredBlob | None, session: Session | None) -> None:
        self._blob = blob
        self._session = session
        self._opened: sqlite3.Blob | None = None

    def opened(self) -> sqlite3.Blob:
        if self._blob is None:
            raise ValueError("an archive held whole has nothing more to read")
        if self._opened is None:
            try:
                self._opened = self._blob.open(_driver_of(self._session))
            except sqlite3.OperationalError as error:
                if not str(error).startswith("no such rowid"):
                    raise
                # Deleted since a reader found it (pruned: docs/decisions.md 7.27) while this process
                # keeps its archive's directory: answered as a read of a pruned snapshot is, not as an
                # error of the database.
                raise NotFound(f"Snapshot {self._blob.row} is no longer stored (pruned).") from error
        return self._opened

    def __enter__(self) -> _Reading:
        return self

    def __exit__(self, *_: object) -> None:
        if self._opened is not None:
            self._opened.close()


@dataclass(frozen=True)
class _StoredBlob:
    """Where a stored archive is: a snapshot's row and the column holding it."""

    table: str
    column: str
    row: int

    def open(self, driver: sqlite3.Connection) -> sqlite3.Blob:
        return driver.blobopen(self.table, self.column, self.row, readonly=True)


def _read_range(opened: sqlite3.Blob, start: int, size: int) -> np.ndarray:
    """``size`` bytes of the blob from ``start``, as a read-only array."""
    opened.seek(start)
    if size <= _CHUNK:
        read = np.frombuffer(opened.read(size), dtype=np.uint8)
        if len(read) != size:
            raise ValueError(f"a stored archive ends before byte {start + size}")
        return read
    return _read_ranges(opened, [(start, size)])[0]


def _read_ranges(opened: sqlite3.Blob, ranges: list[tuple[int, int]]) -> list[np.ndarray]:
    """The blob's bytes in each (start, size) range, as read-only views of one NumPy buffer, read in
    chunks. The chunks' memory is reused from one to the next, and NumPy asks the system for a large
    buffer's memory in huge pages (from 4 MB): the ``bytes`` object of 12 MB that one read of a whole
    archive makes costs twice as long, most of it the system handing out 3,000 fresh pages."""
    buffer = np.empty(sum(size for _, size in ranges), dtype=np.uint8)
    views = []
    place = 0
    for start, size in ranges:
        opened.seek(start)
        for offset in range(place, place + size, _CHUNK):
            chunk = opened.read(min(_CHUNK, place + size - offset))
            if len(chunk) != min(_CHUNK, place + size - offset):  # (a short read: the rest never filled)
                raise ValueError(f"a stored archive ends before byte {start + size}")
            buffer[offset : offset + len(chunk)] = np.frombuffer(chunk, dtype=np.uint8)
        view = buffer[place : place + size]
        view.flags.writeable = False
        views.append(view)
        place += size
    return views


def _sqlite_driver(session: Session) -> sqlite3.Connection | None:
    driver = session.connection().connection.driver_connection
    return driver if isinstance(driver, sqlite3.Connection) else None


def _driver_of(session: Session | None) -> sqlite3.Connection:
    driver = None if session is None else _sqlite_driver(session)
    if driver is None:
        raise ValueError("a stored archive's members are read through a session of its SQLite database")
    return driver


def _loaded(utf8: np.ndarray) -> Any:
    return json.loads(utf8.tobytes().decode())


class Measured(Protocol):
    def nbytes(self) -> int:
        """The bytes it holds now (it may grow as readers read more of it)."""
        ...


class PerSnapshot(Generic[_Read]):
    """What ``read`` (session, snapshot id) builds from a snapshot's stored columns: built once per
    process and kept, the least recently read dropped once what is kept passes the limit the setting
    ``limit_setting`` names (``app.caches``), each measured as it grows with what its readers read."""

    def __init__(self, read: Callable[[Session, int], _Read], name: str, limit_setting: str) -> None:
        self._read = read
        self._kept: caches.BoundedCache[_Read] = caches.BoundedCache(name, limit_setting, _nbytes, grow=True)

    def of(self, session: Session, snapshot: RatingSnapshot) -> _Read:
        found = self._kept.get((snapshot.id, snapshot.created_at))
        if found is not None:
            return found
        built = self.build(session, snapshot)
        self.keep(snapshot, built)
        return built

    def build(self, session: Session, snapshot: RatingSnapshot) -> _Read:
        """What ``read`` builds of the snapshot, not kept (``keep``): through a session that may not
        have committed it yet (the recompute that writes it)."""
        return self._read(session, snapshot.id)

    def is_kept(self, snapshot: RatingSnapshot) -> bool:
        return (snapshot.id, snapshot.created_at) in self._kept

    def keep(self, snapshot: RatingSnapshot, built: _Read) -> None:
        """Keep ``built`` as the snapshot's, the most recently read; called once the snapshot is
        committed (one rolled back is never kept)."""
        self._kept.put((snapshot.id, snapshot.created_at), built)

    def forget_all(self) -> None:
        """Drop everything kept (tests that rebuild the database between cases)."""
        self._kept.clear()


def owned_bytes(arrays: list[np.ndarray]) -> int:
    """The bytes of those arrays that own their data (a view of an archive's member is the archive's)."""
    return sum(array.nbytes for array in arrays if array.flags.owndata)


def _nbytes(built: Measured) -> int:
    return built.nbytes()


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
        "": np.fromiter(map(code_of.__getitem__, keys), dtype=np.int32, count=len(keys)).astype(_code_type(len(distinct))),
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
    number = np.zeros(len(column.values), dtype=_code_type(len(by_first_row)))
    number[by_first_row] = np.arange(len(by_first_row))
    values = column.values
    return {
        "": number[codes],
        _VALUES: _utf8(
            _json([list(value) if type(value) is tuple else value for value in map(values.__getitem__, by_first_row.tolist())])
        ),
    }


def _code_type(distinct: int) -> type[np.integer[Any]]:
    """The narrowest type of the codes into ``distinct`` values: a status or a title (a few values) is
    one byte a row, a player (tens of thousands) two; four bytes a row for all of them made the
    columns a list as of a date reads half again as large (decisions 7.79). Readers take any."""
    if distinct <= 1 << 8:
        return np.uint8
    return np.uint16 if distinct <= 1 << 16 else np.int32


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


_json = json_encoding.encoder()
