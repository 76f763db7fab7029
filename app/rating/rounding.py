"""Rounding as the rule texts mean it (docs/decisions.md section 0)."""

import math

__all__ = ["change_as_shown", "round_half_away_from_zero"]


def round_half_away_from_zero(value: float) -> int:
    """ "Rounded to the nearest integer": 2.5 -> 3, -2.5 -> -3 (Python's round() is half-to-even)."""
    magnitude = math.floor(abs(value) + 0.5)
    return int(magnitude) if value >= 0 else -int(magnitude)


def change_as_shown(before: float | None, after: float | None, change: float | None) -> float | None:
    """A change as a list shows it, every rating there a whole number: the shown rating after minus
    the shown rating before, so that a row adds up (a WHR change of 0.6 between 1900.4 and 1901.0 is
    +1, and 6.8e-13 between two equal ratings is 0); the change rounded when there is no rating
    before (a newcomer). A whole change (Elo's, Olufsen's: what their rules round) is the rules' own
    and stays as it is (docs/decisions.md 145)."""
    if change is not None and float(change).is_integer():
        return float(change)
    if before is not None and after is not None:
        return float(round_half_away_from_zero(after) - round_half_away_from_zero(before))
    return None if change is None else float(round_half_away_from_zero(change))
