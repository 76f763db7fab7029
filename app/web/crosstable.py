"""A tournament's crosstable from its stored games: one row per player, one column per round, each
cell naming the opponent by his row number with the result and colour, then the score and place.

The service stores results, not a tournament's tie-break rules, so players are placed by score
alone and equal scores share a place ("3-5"); within a shared place the order is by name. A game
marked not played (a walkover) keeps its result in the score, as a forfeit does in the standings,
and its cell says it was not played; no list rates it (INTERPRETATIONS 0)."""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

POINTS = {"B": (1.0, 0.0), "W": (0.0, 1.0), "D": (0.5, 0.5)}
SYMBOL = {1.0: "+", 0.5: "=", 0.0: "\u2212"}


@dataclass(frozen=True)
class CrossGame:
    round: str | None
    black: str
    white: str
    result: str  # "B", "W" or "D", from black's side
    played: bool = True


@dataclass(frozen=True)
class Cell:
    opponent: int  # the opponent's row number
    symbol: str  # "+", "=" or "−"
    colour: str  # "b" or "w"
    played: bool

    @property
    def text(self) -> str:
        return f"{self.opponent}{self.symbol}{self.colour}" + ("" if self.played else " f")


@dataclass
class CrossRow:
    player_id: str
    number: int = 0
    place: str = ""
    score: float = 0.0
    games: int = 0
    cells: dict[str, list[Cell]] = field(default_factory=dict)  # by round label


@dataclass(frozen=True)
class Crosstable:
    rounds: list[str]  # round labels in playing order ("" for games without one)
    rows: list[CrossRow]  # best first


def crosstable(player_ids: Iterable[str], games: Sequence[CrossGame], order_key: Callable[[str], str]) -> Crosstable:
    """Every player of ``player_ids`` (and of the games), placed by score; ``order_key`` orders equal
    scores (a display name)."""
    rows = {pid: CrossRow(pid) for pid in player_ids}
    for game in games:
        for pid in (game.black, game.white):
            rows.setdefault(pid, CrossRow(pid))
        black_points, white_points = POINTS[game.result]
        rows[game.black].score += black_points
        rows[game.white].score += white_points
        rows[game.black].games += 1
        rows[game.white].games += 1
    ordered = sorted(rows.values(), key=lambda row: (-row.score, order_key(row.player_id), row.player_id))
    for number, row in enumerate(ordered, start=1):
        row.number = number
    _place(ordered)
    for game in games:
        label = game.round or ""
        black, white = rows[game.black], rows[game.white]
        black_points, white_points = POINTS[game.result]
        black.cells.setdefault(label, []).append(Cell(white.number, SYMBOL[black_points], "b", game.played))
        white.cells.setdefault(label, []).append(Cell(black.number, SYMBOL[white_points], "w", game.played))
    rounds = sorted({game.round or "" for game in games}, key=round_order)
    return Crosstable(rounds, ordered)


def round_order(label: str) -> tuple[int, int, str]:
    """Numbered rounds in numeric order, then named ones ("T", a tie-break), then games with none."""
    if label.isdigit():
        return (0, int(label), "")
    return (1, 0, label) if label else (2, 0, "")


def _place(ordered: list[CrossRow]) -> None:
    start = 0
    while start < len(ordered):
        end = start
        while end + 1 < len(ordered) and ordered[end + 1].score == ordered[start].score:
            end += 1
        label = str(start + 1) if end == start else f"{start + 1}\u2013{end + 1}"
        for row in ordered[start : end + 1]:
            row.place = label
        start = end + 1
