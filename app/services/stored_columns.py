"""Columns of many rows stored as one value: how a snapshot keeps its per-day points.

A RIF-sized snapshot has tens of thousands of points. Written as rows they cost more than the fit
that produced them (a database's per-row work: 0.2 s on SQLite, 0.4 s on PostgreSQL), and every
reader needs all of them at once anyway (``app.services.timelines``). So they are written as one
NumPy ``.npz`` archive: a numeric column as its array; a column of objects (strings, ``None``,
dicts, lists) dictionary-encoded, as ``int32`` codes into the JSON texts of its distinct values
(``<name>.values``, one UTF-8 JSON array). Nothing is pickled: ``unpack`` loads with
``allow_pickle=False``, so a stored value can never run code.

Decoded object columns share their distinct values: rows with equal counters hold the same dict.
Readers never change them."""

import io
import json
from collections.abc import Callable, Mapping
from json.encoder import c_make_encoder, encode_basestring_ascii  # type: ignore[attr-defined]
from typing import Any

import numpy as np

from app.rating.system import object_column

_VALUES = ".values"


def pack(columns: Mapping[str, np.ndarray]) -> bytes:
    """The columns (all of one length) as one archive; object columns dictionary-encoded."""
    arrays: dict[str, np.ndarray] = {}
    for name, column in columns.items():
        if column.dtype == object:
            arrays[name], arrays[name + _VALUES] = _dictionary_encoded(column)
        else:
            arrays[name] = column
    buffer = io.BytesIO()
    np.savez(buffer, allow_pickle=False, **arrays)
    return buffer.getvalue()


def unpack(data: bytes) -> dict[str, np.ndarray]:
    """The columns ``pack`` stored, object columns as object arrays again."""
    with np.load(io.BytesIO(data), allow_pickle=False) as archive:
        stored = {name: archive[name] for name in archive.files}
    columns: dict[str, np.ndarray] = {}
    for name, array in stored.items():
        if name.endswith(_VALUES):
            continue
        values = stored.get(name + _VALUES)
        columns[name] = array if values is None else object_column(json.loads(values.tobytes().decode()))[array]
    return columns


def json_text(value: Any) -> str:
    """JSON text exactly as ``json.dumps`` with its defaults writes it, from an encoder built once
    (``json.dumps`` builds one per call: half the cost over tens of thousands of small values)."""
    return _json(value)


def _dictionary_encoded(column: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes into the distinct values, and those values as the bytes of one JSON array. Values are
    told apart by equality where they are hashable (a list by its items), else by their JSON text."""
    code_of: dict[Any, int] = {}
    code_of_text: dict[str, int] = {}
    texts: list[str] = []
    codes = np.empty(len(column), dtype=np.int32)
    for i, value in enumerate(column.tolist()):
        try:
            key = (type(value), tuple(value)) if type(value) is list else (type(value), value)
            code = code_of.get(key)
            if code is None:
                code = code_of[key] = len(texts)
                texts.append(_json(value))
        except TypeError:  # unhashable: a dict, or a list holding one
            text = _json(value)
            code = code_of_text.get(text)
            if code is None:
                code = code_of_text[text] = len(texts)
                texts.append(text)
        codes[i] = code
    return codes, np.frombuffer(("[" + ",".join(texts) + "]").encode(), dtype=np.uint8)


def _json_encoder() -> Callable[[Any], str]:
    default = json.JSONEncoder()
    if c_make_encoder is None:  # a Python without the json accelerator
        return default.encode
    make = c_make_encoder(None, default.default, encode_basestring_ascii, None, ": ", ", ", False, False, True)

    def encode(value: Any) -> str:
        return "".join(make(value, 0))

    return encode


_json = _json_encoder()
