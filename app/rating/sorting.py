"""Stable orders of non-negative integer keys by numpy's radix sort (decisions 7.75-7.76).

numpy sorts int64 keys by comparison (some 55 ns a key on the development VM), but a stable sort of
uint16 by radix, in linear time. So keys of up to 48 bits are ordered by stable passes over their
16-bit digits, least significant first: the WHR fit's two million player-days, the recompute's
points and changes. Pure: numpy only."""

import numpy as np

DIGIT_BITS = 16  # a radix pass sorts by this many bits of the keys
RADIX_MOST_BITS = 3 * DIGIT_BITS  # wider keys take more passes than a comparison sort costs


def radix_order(keys: np.ndarray, bits: int) -> np.ndarray:
    """``np.argsort(keys, kind="stable")`` of non-negative integer keys below ``2**bits`` (at most
    ``RADIX_MOST_BITS``). The digits are read in place as 16-bit words of the keys (little-endian
    int64: the first word is the lowest; a copy only when the keys are not such an array), so that no
    key-sized temporary is made: each costs a page fault per 4 KiB when first touched, as much as the
    sorting on the development VM."""
    if bits > RADIX_MOST_BITS:
        raise ValueError(f"radix_order takes keys of at most {RADIX_MOST_BITS} bits, not {bits}")
    words = np.ascontiguousarray(keys, dtype="<i8").view("<u2").reshape(len(keys), 4)
    order: np.ndarray = np.argsort(words[:, 0], kind="stable")
    for digit in range(1, -(-bits // DIGIT_BITS)):
        order = order[np.argsort(words[:, digit][order], kind="stable")]
    return order
