"""The radix sorts the WHR fit and the recompute order their rows by (decisions 7.75-7.76) give
numpy's own stable orders, at the widths where they change passes (16, 32, 48 bits) and at the edges
(no keys, one key, keys of a narrow type, a strided view)."""

import io

import numpy as np
import pytest

from app.rating.system import lexsort_order
from app.rating.whr.rating_list import _distinct_days, _pack_fit, _warm_start
from app.rating.whr.solver import _sort

BITS = [0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 49, 62]


@pytest.mark.parametrize("count", [0, 1, 2, 1_000])
@pytest.mark.parametrize("bits", BITS)
def test_solver_sort_is_a_stable_argsort(count, bits):
    rng = np.random.default_rng(bits * 7 + count)
    keys = rng.integers(0, 1 << bits, count, dtype=np.int64) if bits else np.zeros(count, dtype=np.int64)
    keys[:1] = (1 << bits) - 1  # the widest key of its bits
    keys[count // 2 :] = keys[: count - count // 2]  # repeated keys: the order of equals is kept
    wanted = np.argsort(keys, kind="stable")
    as_given = [keys.copy(), np.repeat(keys, 2)[::2]]  # contiguous, and a strided view
    if bits <= 31:
        as_given.append(keys.astype(np.int32))
    for given in as_given:
        sorted_keys, order = _sort(given)
        assert order.tolist() == wanted.tolist()
        assert sorted_keys.tolist() == keys[wanted].tolist()


@pytest.mark.parametrize("count", [0, 1, 2, 1_000])
@pytest.mark.parametrize(
    "spans",
    [
        (1,),
        (2,),
        (1 << 16,),
        ((1 << 16) + 1,),
        (1 << 16, 1 << 16),
        (1 << 16, 1 << 16, 1 << 16),
        (1 << 16, 1 << 16, 1 << 17),
        (3, 5, 7),
    ],
)
def test_lexsort_order_is_numpys_lexsort(count, spans):
    rng = np.random.default_rng(count + len(spans))
    keys = [rng.integers(-5, span - 5, count) for span in spans]
    for key, span in zip(keys, spans, strict=True):
        key[:1], key[-1:] = -5, span - 6  # each key's whole span: the combined key as wide as it gets
    assert lexsort_order(keys).tolist() == np.lexsort(keys).tolist()
    narrow = [(key + 5).astype(np.uint16 if span <= 1 << 16 else np.int32) for key, span in zip(keys, spans, strict=True)]
    assert lexsort_order(narrow).tolist() == np.lexsort(narrow).tolist()  # (codes are stored as narrow as they go)


def test_distinct_days_are_numpys_unique():
    days = np.array([738_000, 737_000, 738_000, 737_500, 737_000], dtype=np.int64)
    for given in (days, days[:1], days[:0]):
        got, inverse = _distinct_days(given)
        wanted, wanted_inverse = np.unique(given, return_inverse=True)
        assert got.tolist() == wanted.tolist() and inverse.tolist() == wanted_inverse.tolist()


def test_a_warm_start_blob_of_int64_numbers_written_before_reads_as_one_of_int32():
    class Fit:  # (the fields _pack_fit reads)
        player = np.array([0, 0, 1, 2], dtype=np.int64)
        day = np.array([737_000, 737_010, 737_000, 737_020], dtype=np.int64)
        rating = np.array([1500.0, 1510.0, 1490.0, 1600.0])

    player_ids = ["a", "b", "c"]
    before = io.BytesIO()
    np.savez(before, player_ids=np.array(player_ids, dtype=str), player=Fit.player, day=Fit.day, rating=Fit.rating)
    now = _pack_fit(Fit, player_ids)  # type: ignore[arg-type]
    assert np.load(io.BytesIO(now))["player"].dtype == np.int32
    index = {"c": 0, "a": 1}  # "b" no longer eligible
    for blob in (before.getvalue(), now):
        warm = _warm_start(blob, index)
        assert warm is not None
        assert (warm.player.tolist(), warm.day.tolist(), warm.rating.tolist()) == (
            [1, 1, 0],
            [737_000, 737_010, 737_020],
            [1500.0, 1510.0, 1600.0],
        )
