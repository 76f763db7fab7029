"""A tournament's crosstable from its stored games: one row per player, one column per round, each
cell naming the opponent by his row number with the result and colour, then the score and place.

A tournament that gave its own standings (a place and tie-break values per player, e.g. a Go file's
MMS and SOS) is shown in its order, with its places and values; its players it did not place follow,
by score (docs/decisions.md 7.34). One without is placed by score alone, since the service computes
no tie-break: equal scores share a place ("3-5"), and within a shared place the order is by name. A game
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


@dataclass(frozen=True)
class Standing:
    """A player's place as the tournament decided it, with its tie-break values in its order."""

    player_id: str
    place: int
    tie_breaks: tuple[float, ...]


@dataclass
class CrossRow:
    player_id: str
    number: int = 0
    place: str = ""
    score: float = 0.0
    games: int = 0
    cells: dict[str, list[Cell]] = field(default_factory=dict)  # by round label
    tie_breaks: tuple[float, ...] = ()  # the tournament's own values; empty when it gave none for him


@dataclass(frozen=True)
class Crosstable:
    rounds: list[str]  # round labels in playing order ("" for games without one)
    rows: list[CrossRow]  # best first
    tie_break_names: tuple[str, ...] = ()
    by_standings: bool = False  # placed as the tournament decided, not by score


def crosstable(
    player_ids: Iterable[str],
    games: Sequence[CrossGame],
    order_key: Callable[[str], str],
    standings: Sequence[Standing] = (),
    tie_break_names: Sequence[str] = (),
) -> Crosstable:
    """Every player of ``player_ids`` (and of the games): in the order of ``standings`` (by place,
    as the tournament gave them) when there are some, the players they leave out after them by
    score; else placed by score, ``order_key`` ordering equal scores (a display name)."""
    rows = {pid: CrossRow(pid) for pid in player_ids}
    for game in games:
        for pid in (game.black, game.white):
            rows.setdefault(pid, CrossRow(pid))
        black_points, white_points = POINTS[game.result]
        rows[game.black].score += black_points
        rows[game.white].score += white_points
        rows[game.black].games += 1
        rows[game.white].games += 1
    for standing in standings:
        rows.setdefault(standing.player_id, CrossRow(standing.player_id))
    placed = {standing.player_id for standing in standings}
    by_score = sorted(
        (row for row in rows.values() if row.player_id not in placed),
        key=lambda row: (-row.score, order_key(row.player_id), row.player_id),
    )
    _place(by_score, after=len(placed))
    for standing in standings:
        row = rows[standing.player_id]
        row.place, row.tie_breaks = str(standing.place), standing.tie_breaks
    ordered = [rows[standing.player_id] for standing in standings] + by_score
    for number, row in enumerate(ordered, start=1):
        row.number = number
    for game in games:
        label = game.round or ""
        black, white = rows[game.black], rows[game.white]
        black_points, white_points = POINTS[game.result]
        black.cells.setdefault(label, []).append(Cell(white.number, SYMBOL[black_points], "b", game.played))
        white.cells.setdefault(label, []).append(Cell(black.number, SYMBOL[white_points], "w", game.played))
    rounds = sorted({game.round or "" for game in games}, key=round_order)
    return Crosstable(rounds, ordered, tuple(tie_break_names) if standings else (), bool(standings))


def round_order(label: str) -> tuple[int, int, str]:
    """Numbered rounds in numeric order, then named ones ("T", a tie-break), then games with none."""
    if label.isdigit():
        return (0, int(label), "")
    return (1, 0, label) if label else (2, 0, "")


def _place(ordered: list[CrossRow], *, after: int = 0) -> None:
    """Places by score, from ``after`` + 1 (below the players the tournament placed itself)."""
    start = 0
    while start < len(ordered):
        end = start
        while end + 1 < len(ordered) and ordered[end + 1].score == ordered[start].score:
            end += 1
        first, last = after + start + 1, after + end + 1
        label = str(first) if end == start else f"{first}\u2013{last}"
        for row in ordered[start : end + 1]:
            row.place = label
        start = end + 1
