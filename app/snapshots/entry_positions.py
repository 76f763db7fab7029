"""Each entry's place in its snapshot's list, written with the snapshot: over the whole list and
within its status, in the list's order (rating, highest first; then player id, compared by code
point, as everywhere else, docs/decisions.md 7.10).

A page of the list is then a range of an index (``position > offset``) rather than a sort of every
entry followed by an ``OFFSET`` that walks the rows before the page: at the size of the Go world
(47,051 entries) the sort alone cost 40-120 ms a page, growing with the offset. A player's place
within his status is read from his own row in the same way."""

from collections.abc import Sequence
from typing import Any

import numpy as np

POSITION_COLUMNS = ("position", "status_position")


def with_positions(entries: Sequence[tuple[Any, ...]], *, rating: int, player_id: int, status: int) -> list[tuple[Any, ...]]:
    """The entry tuples, each followed by its position and its position within its status (both
    from 1); ``rating``, ``player_id`` and ``status`` say where the tuples hold those fields."""
    if not entries:
        return []
    ids = [entry[player_id] for entry in entries]
    # Code-point order of the ids as one integer per entry, so numpy sorts the whole list at once.
    id_rank = np.empty(len(ids), dtype=np.int64)
    id_rank[sorted(range(len(ids)), key=ids.__getitem__)] = np.arange(len(ids))
    ratings = np.array([entry[rating] for entry in entries], dtype=np.float64)
    order = np.lexsort((id_rank, -ratings))
    position = np.empty(len(entries), dtype=np.int64)
    position[order] = np.arange(1, len(entries) + 1)
    code_of: dict[Any, int] = {}
    codes = np.array([code_of.setdefault(entry[status], len(code_of)) for entry in entries], dtype=np.int64)
    status_code = codes[order]
    # Within each status, the rows keep the list's order: a stable sort by status of the ordered rows.
    by_status = np.argsort(status_code, kind="stable")
    status_start = np.searchsorted(status_code[by_status], status_code[by_status], side="left")
    status_position = np.empty(len(entries), dtype=np.int64)
    status_position[order[by_status]] = np.arange(len(entries)) - status_start + 1
    return [
        (*entry, first, second) for entry, first, second in zip(entries, position.tolist(), status_position.tolist(), strict=True)
    ]
