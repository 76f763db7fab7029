"""The coin's one rule: each game moves a player's rating by ``step`` times his score's distance
from a draw (a win +step/2, a loss −step/2, a draw nothing). Pure: plain values in, plain values out."""


def change(scores: list[float], step: float) -> float:
    return step * sum(score - 0.5 for score in scores)
