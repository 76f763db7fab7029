"""JSON text exactly as ``json.dumps`` writes it, from an encoder built once.

``json.dumps`` (and ``JSONEncoder.encode``) builds the C encoder again on every call, a few
microseconds that a caller encoding tens of thousands of small values pays each time: a snapshot's
columns of objects (``stored_columns``), a recompute's digest of ten thousand tournaments
(``provenance``)."""

import json
from collections.abc import Callable
from json.encoder import encode_basestring, encode_basestring_ascii
from typing import Any


def encoder(
    *, sort_keys: bool = False, ensure_ascii: bool = True, default: Callable[[Any], Any] | None = None
) -> Callable[[Any], str]:
    """``lambda value: json.dumps(value, sort_keys=sort_keys, ensure_ascii=ensure_ascii, default=default)``,
    the same text for every value, its encoder built here once."""
    reference = json.JSONEncoder(sort_keys=sort_keys, ensure_ascii=ensure_ascii, default=default)
    try:
        from _json import make_encoder  # the accelerator json.encoder knows as c_make_encoder
    except ImportError:  # a Python without it
        return reference.encode
    # (Its arguments as JSONEncoder.iterencode passes them; no circular check, which only changes
    # the error a value holding itself would raise.)
    make = make_encoder(
        None,
        reference.default,
        encode_basestring_ascii if ensure_ascii else encode_basestring,
        None,
        reference.key_separator,
        reference.item_separator,
        sort_keys,
        reference.skipkeys,
        reference.allow_nan,
    )

    def encode(value: Any) -> str:
        return "".join(make(value, 0))

    return encode
