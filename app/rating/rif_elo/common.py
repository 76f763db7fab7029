"""RIF Elo, what the 1995 and 1997 rules share: the expectancy of one game and its contribution
(RIF 1995 #6/#7, GA 1997 #8) and the appendix table of GA 1995 (INTERPRETATIONS 1.4, 1.5)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from app.rating.rounding import round_half_away_from_zero

Score = float  # win 1, draw 0.5, loss 0 (INTERPRETATIONS 0)
SCORES: frozenset[float] = frozenset({0.0, 0.5, 1.0})

CONTRIBUTION_FACTOR = 32  # RIF 1995 #6 "F = 32 x (Et - Ee)"; GA 1997 #8 "Rc = 32 (W - We)"
RATING_SCALE = 120  # RIF 1995 #7 "2^{dR/120}"

APPENDIX_ROW_STARTS = (0, 11, 33, 55, 77, 101, 125, 150, 177, 205, 237, 273, 314, 364, 428, 522, 725)
APPENDIX_LAST_DIFFERENCE = 2000

SYSTEM_1995 = "rif-1995"
SYSTEM_1997 = "rif-1997"


# --------------------------------------------------------------------------------------------------
# One game
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """One played game, seen from player ``a``'s side (``b`` scores ``1 - score_a``)."""

    a: str
    b: str
    score_a: Score


def win_expectancy(rating: float, opponent_rating: float) -> float:
    """We = 1/(1 + 2^(dR/120)) with dR = opponent rating - own rating (RIF 1995 #7, GA 1997 #8)."""
    dR = opponent_rating - rating
    # The formula is evaluated on the weaker side (dR >= 0) and the stronger side takes the complement,
    # so that We(a, b) + We(b, a) == 1 holds exactly in floating point, not just nearly.
    if dR >= 0:
        return 1 / (1 + 2 ** (dR / RATING_SCALE))
    return 1 - 1 / (1 + 2 ** (-dR / RATING_SCALE))


@dataclass(frozen=True)
class GameChange:
    expected: float
    change: int
    change_unrounded: float


def game_change(rating: float, opponent_rating: float, score: Score) -> GameChange:
    """32(W - We) for one game, rounded once (RIF 1995 #6/#7 with N = 1, GA 1997 #8)."""
    _check_score(score, "score")
    expected = win_expectancy(rating, opponent_rating)
    change_unrounded = CONTRIBUTION_FACTOR * (score - expected)
    return GameChange(expected, round_half_away_from_zero(change_unrounded), change_unrounded)


# --------------------------------------------------------------------------------------------------
# The appendix of GA 1995
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AppendixRow:
    """Rating differences ``difference_from``..``difference_to`` (inclusive) and the rounded gains:
    ``higher_wins`` is the higher-rated R1's gain when he wins, ``lower_wins`` and ``draw`` are the
    lower-rated R2's gains; the opponent loses what the other gains (INTERPRETATIONS 1.5)."""

    difference_from: int
    difference_to: int
    higher_wins: int
    lower_wins: int
    draw: int


def appendix_table() -> list[AppendixRow]:
    """The appendix table computed from the formulas of #6/#7 (which are normative, INTERPRETATIONS 1.4).

    Rows keep the boundaries the text prints (0-10, 11-32, ... 725-2000); a printed row is split where
    the rounded formula changes inside it. That happens once: the printed 522-724 row (+1/+31/+15)
    becomes 522-717 (+1/+31/+15) and 718-724 (+0/+32/+16), because 32/(1 + 2^(d/120)) falls below
    0.5 at d = 120·log2(63) ≈ 717.3.
    """
    rows: list[AppendixRow] = []
    for difference in range(APPENDIX_LAST_DIFFERENCE + 1):
        gains = _appendix_gains(difference)
        previous = rows[-1] if rows else None
        if (
            previous is not None
            and difference not in APPENDIX_ROW_STARTS
            and (previous.higher_wins, previous.lower_wins, previous.draw) == gains
        ):
            rows[-1] = replace(previous, difference_to=difference)
        else:
            rows.append(AppendixRow(difference, difference, *gains))
    return rows


# --------------------------------------------------------------------------------------------------
# Checks and game views shared by both rule sets
# --------------------------------------------------------------------------------------------------


def _check_score(score: float, where: str) -> None:
    if score not in SCORES:
        raise ValueError(f"{where}: score must be 1, 0.5 or 0, got {score!r}")


def _appendix_gains(difference: int) -> tuple[int, int, int]:
    """R1 (higher by ``difference``) winning, R2 winning, R2 drawing (INTERPRETATIONS 1.5)."""
    return (
        game_change(difference, 0, 1).change,
        game_change(0, difference, 1).change,
        game_change(0, difference, 0.5).change,
    )


def _check_games(games: Sequence[Game], player_ids: set[str]) -> None:
    for index, game in enumerate(games):
        where = f"game {index} ({game.a} vs {game.b})"
        for player_id in (game.a, game.b):
            if player_id not in player_ids:
                raise ValueError(f"{where}: unknown player {player_id!r}")
        if game.a == game.b:
            raise ValueError(f"{where}: a player cannot play against himself")
        _check_score(game.score_a, where)


def _games_of(player_id: str, games: Iterable[Game]) -> list[tuple[str, float]]:
    """(opponent, score) for each of the player's games, from his side."""
    return [
        (game.b, game.score_a) if game.a == player_id else (game.a, 1 - game.score_a)
        for game in games
        if player_id in (game.a, game.b)
    ]


def _counted_games(player_id: str, games: Iterable[Game], opponent_ratings: dict[str, int]) -> list[tuple[int, float]]:
    """(opponent rating, score) for the player's games against opponents in ``opponent_ratings``."""
    return [
        (opponent_ratings[opponent], score) for opponent, score in _games_of(player_id, games) if opponent in opponent_ratings
    ]


def _unique(ids: Iterable[str]) -> None:
    seen: set[str] = set()
    for player_id in ids:
        if player_id in seen:
            raise ValueError(f"player {player_id!r} is listed twice")
        seen.add(player_id)
