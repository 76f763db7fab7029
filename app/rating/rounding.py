"""Rounding as the rule texts mean it (docs/decisions.md section 0)."""

import math

__all__ = ["round_half_away_from_zero"]


def round_half_away_from_zero(value: float) -> int:
    """ "Rounded to the nearest integer": 2.5 -> 3, -2.5 -> -3 (Python's round() is half-to-even)."""
    magnitude = math.floor(abs(value) + 0.5)
    return int(magnitude) if value >= 0 else -int(magnitude)
