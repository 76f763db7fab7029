"""Rivne Go club rating (text 004): one tournament, round by round, from the players' start states.

Rule text 004 (docs/rules.md; Ukrainian original with an English rendering, formulas (1)–(8)
numbered as there). Decisions on what the text leaves open: docs/decisions.md section 5, cited as
``INTERPRETATIONS 5.n``. Pure: plain values in, plain values out, no I/O.

The public entry point is :func:`rate_tournament`. A rating list replays its tournaments in date order
by feeding each tournament's ``rating_after`` values back as the next tournament's start ratings
(newcomers start at an input rating, by default :func:`suggested_first_rating` of their declared rank).
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

__all__ = [
    "ANOMALY_PASS_LIMIT",
    "AnomalousPlayer",
    "AnomalyNotStable",
    "AnomalyPass",
    "BOARD_FACTOR",
    "Game",
    "GameFigures",
    "Player",
    "Pass",
    "PassStanding",
    "PlayerResult",
    "RoundChange",
    "TournamentResult",
    "anomaly_limit",
    "bonus_K2",
    "development_K1",
    "even_game_expectancy",
    "handicap_correction",
    "handicap_factor_Kf",
    "rank_difference",
    "rank_index",
    "scale_a",
    "rate_game",
    "rate_rounds",
    "rate_tournament",
    "suggested_first_rating",
    "win_expectancy",
]

SYSTEM = "rivne"
SCORES: frozenset[float] = frozenset({0.0, 0.5, 1.0})

# 004 Table I: rating -> K1, interpolated linearly; held at 10 above 2700 (INTERPRETATIONS 5.3).
TABLE_I_RATING = np.arange(100.0, 2701.0, 100.0)
TABLE_I_K1 = np.array(
    [116, 110, 105, 100, 95, 90, 85, 80, 75, 70, 65, 60, 55, 51, 47, 43, 39, 35, 31, 27, 24, 21, 18, 15, 13, 11, 10],
    dtype=np.float64,
)
A_RATING_CAP = 2700.0  # INTERPRETATIONS 5.3: a = 205 − R/20 with R clamped at 2700, so a ≥ 70
BOARD_FACTOR = {19: 1.0, 13: 0.5, 9: 1.0 / 3.0}  # 004 (5): Kd
LOW_RATING = 100.0  # 004 "players rated below 100"
# 004 below 100 (INTERPRETATIONS 5.8): a win between players below 100 by board size; a loss +1.
LOW_WIN_POINTS = {19: 5.0, 13: 3.0, 9: 2.0}
LOW_LOSS_POINTS = 1.0
# 004 Table III: extra points for a win of a player below 100, by the opponent's rating bracket.
TABLE_III_BRACKETS = (200.0, 400.0)  # 100–199, 200–399, 400 and more (INTERPRETATIONS 5.8: 400 is top)
TABLE_III = {9: (1.0, 2.0, 3.0), 13: (2.0, 3.0, 4.0), 19: (3.0, 5.0, 7.0)}
# 004 below 100: extra points in one tournament that make the result anomalous (INTERPRETATIONS 5.9).
LOW_ANOMALY_EXTRA = {19: 9.0, 13: 6.0, 9: 4.0}
CROSSING_FACTOR = 10.0  # 004: "1 point below 100 equals 10 points at 100 or above"
ANOMALY_PASS_LIMIT = 50  # INTERPRETATIONS 5.7: guard on the recompute loop
HANDICAP_CORRECTION_LIMIT = 9  # 004 (7): "at most 9 ranks"; "a handicap greater than 9"

_RANK = re.compile(r"^\s*(\d{1,2})\s*([kKdD])\s*$")


class AnomalyNotStable(ValueError):
    """The anomaly loop (004 (8)) still finds anomalous results after ``ANOMALY_PASS_LIMIT`` passes."""


# --------------------------------------------------------------------------------------------------
# Input and output
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Player:
    """A player at the start of the tournament: his declared start rating and declared rank.

    ``rank`` (``"30k"``…``"1k"``, ``"1d"``…``"9d"``) is needed only for handicap games (Kf, and the
    fairness of a handicap above 9).
    """

    id: str
    rating: float
    rank: str | None = None


@dataclass(frozen=True)
class Game:
    """One game. ``round`` orders the rounds (games of one round are simultaneous, INTERPRETATIONS 5.1);
    ``score_black`` is 1, 0.5 or 0; ``handicap`` is the stones black received (0 = even, 1 = no komi)."""

    round: int
    black: str
    white: str
    score_black: float
    board_size: int = 19
    handicap: int = 0
    played: bool = True


@dataclass(frozen=True)
class GameFigures:
    """One player's figures in one game, named as text 004 names them.

    ``SE``, ``a``, ``delta_R``, ``K1``, ``K2``, ``Kf`` and ``bonus`` are None where the rule for
    players below 100 replaces formula (5) for this player (INTERPRETATIONS 5.8); ``a`` and
    ``delta_R`` also when a fair handicap above 9 fixes SE at 0.5 (004 (7))."""

    round: int
    game: int  # the game's position in the games given to the rules
    id: str
    opponent: str
    colour: str  # "black" receives the handicap stones
    player_A: bool  # the lower-rated player of (1) by start rating (INTERPRETATIONS 5.2)
    R: float  # the result: 1, 0.5 or 0
    start_rating: float  # declared before the tournament: what (1) uses
    Rc: float  # current rating before the round: what (4), (5), (6) and Table I use
    correction: float  # (7) N·100 − 50 added to black's start rating in (1); 0 without handicap
    delta_R: float | None  # (1) ΔR = RB − RA on one scale (below 100 ×10, else +900), RA# for black
    a: float | None  # (4) a = 205 − RA′/20 of the lower-rated player
    SE: float | None  # (2) / (3)
    K1: float | None  # Table I at Rc
    K2: float | None  # (6) at Rc
    Kf: float | None  # 004: 1 unless the higher-rated player of a handicap game
    Kd: float  # (5): 19 → 1, 13 → 1/2, 9 → 1/3
    bonus: float | None  # Kd·Kf·K1·K2: the part of (5) the bonus K2 gives
    table_III: float  # extra points of a win below 100 (Table III)
    change: float  # (5) Kd·Kf·K1·(R − SE + K2), or the points below 100, before the round's crossing of 100


@dataclass(frozen=True)
class PassStanding:
    """One player in one computation of the tournament, with the check (8) made on him."""

    id: str
    start_rating: float
    rating_after: float
    games_played: int
    limit: float | None  # ΔRmax of (8); None when (8) is not made on him (handicap games, below 100, no game)
    extra_points: float
    anomalous: bool


@dataclass(frozen=True)
class RoundChange:
    round: int
    rating_after: float
    change: float


@dataclass(frozen=True)
class PlayerResult:
    """``rating_before`` is the declared start; ``start_rating`` the start of the final pass (differs
    after an anomaly restart); ``change`` is ``rating_after − rating_before``."""

    id: str
    rating_before: float
    start_rating: float
    rating_after: float
    change: float
    games_played: int
    extra_points: float
    rounds: tuple[RoundChange, ...]
    games: tuple[GameFigures, ...] = ()  # his games of the final pass, by round


@dataclass(frozen=True)
class AnomalousPlayer:
    id: str
    start_rating: float
    rating_after: float
    limit: float | None  # ΔRmax of (8); None for the below-100 check (extra points)
    extra_points: float
    restart_rating: float


@dataclass(frozen=True)
class AnomalyPass:
    """One computation of the whole tournament and the anomalous results it found (none in the last)."""

    number: int
    anomalous: tuple[AnomalousPlayer, ...]
    players: tuple[PassStanding, ...] = ()  # every player, in the order of the input players


@dataclass(frozen=True)
class TournamentResult:
    players: tuple[PlayerResult, ...]  # in the order of the input players
    passes: tuple[AnomalyPass, ...]
    handicap_games: bool  # whether the check (8) was skipped (004: only "in tournaments without handicap")


# --------------------------------------------------------------------------------------------------
# The tournament
# --------------------------------------------------------------------------------------------------


def rate_tournament(players: Sequence[Player], games: Sequence[Game]) -> TournamentResult:
    """Rate one tournament: round by round (INTERPRETATIONS 5.1), then the anomaly loop (004 (8),
    INTERPRETATIONS 5.7, 5.9) until no result is anomalous. Raises ValueError on invalid input and
    AnomalyNotStable when the loop does not settle within ``ANOMALY_PASS_LIMIT`` passes."""
    by_id = _checked_players(players)
    rated = _checked_games(games, by_id)
    # 004: "In tournaments without handicap, each result is checked for anomaly."
    handicap_games = any(game.handicap >= 1 for _, game in rated)
    starts = {player.id: float(player.rating) for player in players}
    passes: list[AnomalyPass] = []
    while True:
        computed = _one_pass(by_id, starts, rated)
        standings = _checked_standings(computed, starts, check_formula_8=not handicap_games)
        anomalous = tuple(a for a, _ in standings if a is not None)
        passes.append(AnomalyPass(len(passes) + 1, anomalous, tuple(standing for _, standing in standings)))
        if not anomalous:
            break
        if len(passes) >= ANOMALY_PASS_LIMIT:
            raise AnomalyNotStable(
                f"results still anomalous after {ANOMALY_PASS_LIMIT} passes "
                f"({', '.join(sorted(a.id for a in anomalous))}); the tournament cannot be rated as given"
            )
        # INTERPRETATIONS 5.7: every anomalous player restarts at once, the whole tournament again.
        starts = {**starts, **{a.id: a.restart_rating for a in anomalous}}
    results = tuple(
        PlayerResult(
            id=player.id,
            rating_before=float(player.rating),
            start_rating=starts[player.id],
            rating_after=computed.final[player.id],
            change=computed.final[player.id] - float(player.rating),
            games_played=computed.games_played[player.id],
            extra_points=computed.extra_points_total(player.id),
            rounds=tuple(computed.rounds[player.id]),
            games=tuple(computed.games[player.id]),
        )
        for player in players
    )
    return TournamentResult(results, tuple(passes), handicap_games)


def rate_game(black: Player, white: Player, game: Game) -> tuple[GameFigures, GameFigures, float, float]:
    """One game alone, formula (5) with every intermediate: black's and white's figures and ratings
    after. No anomaly check: (8) is about a tournament's total gain, not a single game."""
    if not game.played:
        raise ValueError("a game not played is never rated")  # INTERPRETATIONS 0
    computed = rate_rounds([black, white], [game])
    return computed.games[black.id][0], computed.games[white.id][0], computed.final[black.id], computed.final[white.id]


def rate_rounds(players: Sequence[Player], games: Sequence[Game]) -> Pass:
    """One computation of the tournament, round by round from the players' ratings (INTERPRETATIONS
    5.1), without the anomaly check: what each pass of :func:`rate_tournament` computes."""
    by_id = _checked_players(players)
    return _one_pass(by_id, {player.id: float(player.rating) for player in players}, _checked_games(games, by_id))


# --------------------------------------------------------------------------------------------------
# The formulas
# --------------------------------------------------------------------------------------------------


def win_expectancy(start_lower: float, start_higher: float, current_lower: float) -> float:
    """SE(A) of the lower-rated player A: (1) ΔR = RB − RA, (2) SE(A) = 1/(e^(ΔR/a) + 1),
    (4) a = 205 − RA′/20 with RA′ his current rating clamped at 2700 (INTERPRETATIONS 5.3).
    SE(B) = 1 − SE(A) is (3)."""
    delta_R = start_higher - start_lower  # (1)
    return 1.0 / (math.exp(delta_R / scale_a(current_lower)) + 1.0)  # (2)


def even_game_expectancy(rating: float, opponent_rating: float) -> float:
    """SE of the first player in an even game (no handicap) between two players who hold these ratings
    at its start: (1) ΔR = RB − RA between the lower-rated A and B, each on the one scale of ratings
    below 100 (004 below 100, INTERPRETATIONS 5.8), (2) SE(A) = 1/(e^(ΔR/a) + 1) with (4) a of A's
    rating, (3) SE(B) = 1 − SE(A). At equal ratings both expect 1/2."""
    lower, higher = (rating, opponent_rating) if rating <= opponent_rating else (opponent_rating, rating)
    se_lower = 1.0 / (math.exp((_one_scale(higher) - _one_scale(lower)) / scale_a(lower)) + 1.0)  # (1), (2), (4)
    return se_lower if rating <= opponent_rating else 1.0 - se_lower  # (3)


def scale_a(current_lower: float) -> float:
    """(4) a = 205 − RA′/20, RA′ the lower-rated player's current rating clamped at 2700
    (INTERPRETATIONS 5.3)."""
    return 205.0 - min(current_lower, A_RATING_CAP) / 20.0


def development_K1(rating: float) -> float:
    """K1 from Table I, linear between its rows, held at the ends (INTERPRETATIONS 5.3)."""
    return float(np.interp(rating, TABLE_I_RATING, TABLE_I_K1))


def bonus_K2(rating: float) -> float:
    """(6) K2 = (3100 − Rc)/50000."""
    return (3100.0 - rating) / 50000.0


def handicap_correction(stones: int) -> float:
    """What N handicap stones add to black's rating in SE: RA# = RA + (N·100 − 50) (004 (7)); 0 in
    an even game. (The SE of 0.5 that a fair handicap above 9 gives needs both ranks, which an
    evaluation of stored games does not read: INTERPRETATIONS 5.6.)"""
    return 100.0 * stones - 50.0 if stones >= 1 else 0.0


def handicap_factor_Kf(rank_difference_value: int) -> float:
    """Kf(0) = 1, Kf(1) = 0.9, …, Kf(9) = Kf(10 and more) = 0.1 (004, INTERPRETATIONS 5.5)."""
    return max(0.1, 1.0 - 0.1 * abs(rank_difference_value))


def anomaly_limit(start_rating: float, games_played: int) -> float:
    """(8) ΔRmax = 0.45·n·K1·(1 + K2), K1 and K2 at the pass's start rating; Kd is not in (8)
    (INTERPRETATIONS 5.7)."""
    return 0.45 * games_played * development_K1(start_rating) * (1.0 + bonus_K2(start_rating))


def rank_index(rank: str) -> int:
    """Declared rank on one scale without a rank zero: 1d = 1, 9d = 9, 1k = 0, 2k = −1, 30k = −29,
    so that the difference counts ranks (3d−1d = 2, 2d−3k = 4; INTERPRETATIONS 5.5)."""
    match = _RANK.match(rank)
    if match is None:
        raise ValueError(f"rank {rank!r} is not a kyu/dan rank like 5k or 2d")
    number, kind = int(match.group(1)), match.group(2).lower()
    if kind == "d" and 1 <= number <= 9:
        return number
    if kind == "k" and 1 <= number <= 30:
        return 1 - number
    raise ValueError(f"rank {rank!r} is outside 30k..9d")


def rank_difference(stronger: str, weaker: str) -> int:
    return rank_index(stronger) - rank_index(weaker)


def suggested_first_rating(rank: str) -> float:
    """A newcomer's first rating from his declared rank (INTERPRETATIONS 5.11): 1d = 2100, 100 per rank,
    20k = 100; below 20k 10 per rank (1 point below 100 is 10 above it, 004), so 21k = 90 … 30k = 0."""
    index = rank_index(rank)  # 1d = 1, 20k = −19
    on_high_scale = 2000.0 + 100.0 * index  # 1d -> 2100, 20k -> 100, 30k -> −900
    return on_high_scale if on_high_scale >= LOW_RATING else (on_high_scale + 900.0) / CROSSING_FACTOR


# --------------------------------------------------------------------------------------------------
# One pass over the tournament
# --------------------------------------------------------------------------------------------------


@dataclass
class Pass:
    """One computation of a tournament: final ratings, games played, Table III points by board size,
    and each player's rating after every round he played."""

    final: dict[str, float]
    games_played: dict[str, int]
    extra_points: dict[str, dict[int, float]]  # player -> board size -> Table III points
    rounds: dict[str, list[RoundChange]]
    games: dict[str, list[GameFigures]]  # player -> his games' figures, by round

    def extra_points_total(self, player_id: str) -> float:
        return sum(self.extra_points[player_id].values())


def _one_pass(by_id: dict[str, Player], starts: dict[str, float], games: Sequence[tuple[int, Game]]) -> Pass:
    current = dict(starts)
    games_played: dict[str, int] = defaultdict(int)
    extra_points: dict[str, dict[int, float]] = {player_id: defaultdict(float) for player_id in by_id}
    rounds: dict[str, list[RoundChange]] = {player_id: [] for player_id in by_id}
    figures: dict[str, list[GameFigures]] = {player_id: [] for player_id in by_id}
    for round_number, round_games in _by_round(games):
        # Games of one round are simultaneous: every change comes from the ratings before the round.
        gains: dict[str, float] = defaultdict(float)
        for index, game in round_games:
            for side in _game_figures(index, game, by_id, starts, current):
                gains[side.id] += side.change
                extra_points[side.id][game.board_size] += side.table_III
                games_played[side.id] += 1
                figures[side.id].append(side)
        for player_id, gain in gains.items():
            after = _apply(current[player_id], gain)
            rounds[player_id].append(RoundChange(round_number, after, after - current[player_id]))
            current[player_id] = after
    return Pass(current, {p: games_played[p] for p in by_id}, extra_points, rounds, figures)


def _game_figures(
    index: int, game: Game, by_id: dict[str, Player], starts: dict[str, float], current: dict[str, float]
) -> tuple[GameFigures, GameFigures]:
    """Black's and white's figures in one game: the change each gets and every intermediate of it."""
    black, white = game.black, game.white
    scores = {black: game.score_black, white: 1.0 - game.score_black}
    low = {p for p in (black, white) if current[p] < LOW_RATING}
    lower, higher = _lower_and_higher(game, starts)
    correction = handicap_correction(game.handicap)  # (7)
    Kd = BOARD_FACTOR[game.board_size]
    scale: _Scale | None = None if len(low) == 2 else _expectancies(game, by_id, starts, current)

    def figures(player_id: str, SE: float | None, Kf: float | None, table_III: float, change: float) -> GameFigures:
        rating, below_formula_5 = current[player_id], scale is None or player_id in low
        K1, K2 = (None, None) if below_formula_5 else (development_K1(rating), bonus_K2(rating))
        return GameFigures(
            round=game.round,
            game=index,
            id=player_id,
            opponent=white if player_id == black else black,
            colour="black" if player_id == black else "white",
            player_A=player_id == lower,
            R=scores[player_id],
            start_rating=starts[player_id],
            Rc=rating,
            correction=correction if player_id == black else 0.0,
            delta_R=None if scale is None or below_formula_5 else scale.delta_R,
            a=None if scale is None or below_formula_5 else scale.a,
            SE=SE,
            K1=K1,
            K2=K2,
            Kf=Kf,
            Kd=Kd,
            bonus=None if K1 is None or K2 is None or Kf is None else Kd * Kf * K1 * K2,
            table_III=table_III,
            change=change,
        )

    sides = []
    for player_id in (black, white):
        opponent = white if player_id == black else black
        if scale is None or player_id in low:
            # Both below 100 (004), or this player below 100 against one at or above it: scored as
            # against a player below 100, plus Table III on a win (INTERPRETATIONS 5.8).
            extra = 0.0 if scale is None or scores[player_id] != 1.0 else _table_III(current[opponent], game.board_size)
            sides.append(figures(player_id, None, None, extra, _low_points(scores[player_id], game.board_size) + extra))
            continue
        Kf = 1.0
        if game.handicap >= 1 and player_id == higher:
            # 004 / INTERPRETATIONS 5.5: Kf for the higher-rated player of a handicap game only.
            Kf = handicap_factor_Kf(_declared_rank_difference(by_id, black, white))
        rating = current[player_id]
        SE = scale.SE[player_id]
        # (5) Rn = Rc + Kd·Kf·K1·(R − SE + K2), K2 inside the parentheses (INTERPRETATIONS 5.4)
        gain = Kd * Kf * development_K1(rating) * (scores[player_id] - SE + bonus_K2(rating))
        sides.append(figures(player_id, SE, Kf, 0.0, gain))
    return sides[0], sides[1]


@dataclass(frozen=True)
class _Scale:
    """SE of both players and the ΔR and a that gave it (None when a fair handicap above 9 fixes it)."""

    SE: dict[str, float]
    delta_R: float | None
    a: float | None


def _expectancies(game: Game, by_id: dict[str, Player], starts: dict[str, float], current: dict[str, float]) -> _Scale:
    lower, higher = _lower_and_higher(game, starts)
    # 004 below 100: in (1) a start rating below 100 × 10 and one at or above 100 + 900
    # (INTERPRETATIONS 5.8). Between two ratings at or above 100 this leaves ΔR unchanged, so it is
    # applied to every game: it also keeps ΔR on one scale for a player who started below 100 and has
    # crossed 100 during the tournament.
    effective = {p: _one_scale(starts[p]) for p in (game.black, game.white)}
    if game.handicap >= 1:
        if game.handicap > HANDICAP_CORRECTION_LIMIT and _fair(game, by_id):
            # 004 (7): "With a handicap greater than 9, SE(A) = 0.5" when it is fair (INTERPRETATIONS 5.6).
            return _Scale({lower: 0.5, higher: 0.5}, None, None)
        # (7) RA# = RA + (N·100 − 50) for the player receiving the stones (black), in SE only.
        effective[game.black] += 100.0 * game.handicap - 50.0
    # a keeps the real current rating of the lower-rated player (INTERPRETATIONS 5.8).
    delta_R = effective[higher] - effective[lower]  # (1)
    a = scale_a(current[lower])  # (4)
    se_lower = 1.0 / (math.exp(delta_R / a) + 1.0)  # (2)
    return _Scale({lower: se_lower, higher: 1.0 - se_lower}, delta_R, a)  # (3)


def _lower_and_higher(game: Game, starts: dict[str, float]) -> tuple[str, str]:
    """Player A (lower) and B by start rating (INTERPRETATIONS 5.2); at equal ratings the handicap
    receiver (black) is A, so the giver (white) takes Kf."""
    if starts[game.white] < starts[game.black]:
        return game.white, game.black
    return game.black, game.white


def _fair(game: Game, by_id: dict[str, Player]) -> bool:
    """A handicap is fair when its stones equal the declared rank difference (004 (7))."""
    black, white = by_id[game.black], by_id[game.white]
    if black.rank is None or white.rank is None:
        return False
    return rank_difference(white.rank, black.rank) == game.handicap


def _declared_rank_difference(by_id: dict[str, Player], black: str, white: str) -> int:
    black_rank, white_rank = by_id[black].rank, by_id[white].rank
    if black_rank is None or white_rank is None:
        missing = black if black_rank is None else white
        raise ValueError(f"player {missing!r} plays a handicap game: Kf needs his declared rank")
    return rank_difference(white_rank, black_rank)


def _one_scale(rating: float) -> float:
    """Ratings below 100 × 10, ratings at or above 100 + 900: one scale for (1) (004 below 100)."""
    return rating * CROSSING_FACTOR if rating < LOW_RATING else rating + 900.0


def _low_points(score: float, board_size: int) -> float:
    # INTERPRETATIONS 5.8: a draw gives the average of a win and a loss.
    win = LOW_WIN_POINTS[board_size]
    return {1.0: win, 0.0: LOW_LOSS_POINTS, 0.5: (win + LOW_LOSS_POINTS) / 2.0}[score]


def _table_III(opponent_rating: float, board_size: int) -> float:
    bracket = int(np.searchsorted(TABLE_III_BRACKETS, opponent_rating, side="right"))
    return TABLE_III[board_size][bracket]


def _apply(rating: float, gain: float) -> float:
    """A round's gain: crossing 100 upwards counts the part above 100 ×10; a rating at or above 100
    never falls below 100 (004, INTERPRETATIONS 5.10)."""
    if rating < LOW_RATING:
        after = rating + gain
        return after if after <= LOW_RATING else LOW_RATING + (after - LOW_RATING) * CROSSING_FACTOR
    return max(LOW_RATING, rating + gain)


# --------------------------------------------------------------------------------------------------
# Anomalous results
# --------------------------------------------------------------------------------------------------


def _checked_standings(
    computed: Pass, starts: dict[str, float], *, check_formula_8: bool
) -> list[tuple[AnomalousPlayer | None, PassStanding]]:
    """Every player of one pass with the check made on him, and the anomalous result it found."""
    checked: list[tuple[AnomalousPlayer | None, PassStanding]] = []
    for player_id, start in starts.items():
        final = computed.final[player_id]
        extra = computed.extra_points_total(player_id)
        games_played = computed.games_played[player_id]
        limit: float | None = None
        anomalous: AnomalousPlayer | None = None
        if start < LOW_RATING:
            # INTERPRETATIONS 5.9: 9 / 6 / 4 extra points (19 / 13 / 9); on mixed boards the shares add up.
            share = sum(points / LOW_ANOMALY_EXTRA[size] for size, points in computed.extra_points[player_id].items())
            if share >= 1.0 - 1e-12:
                anomalous = AnomalousPlayer(player_id, start, final, None, extra, max(LOW_RATING, final))
        elif check_formula_8 and games_played > 0:
            limit = anomaly_limit(start, games_played)  # (8)
            if final - start > limit:
                anomalous = AnomalousPlayer(player_id, start, final, limit, extra, final)
        standing = PassStanding(player_id, start, final, games_played, limit, extra, anomalous is not None)
        checked.append((anomalous, standing))
    return checked


# --------------------------------------------------------------------------------------------------
# Input checks
# --------------------------------------------------------------------------------------------------


def _checked_players(players: Sequence[Player]) -> dict[str, Player]:
    by_id: dict[str, Player] = {}
    for player in players:
        if player.id in by_id:
            raise ValueError(f"player {player.id!r} is given twice")
        if not math.isfinite(player.rating):
            raise ValueError(f"player {player.id!r} has no finite rating")
        if player.rank is not None:
            rank_index(player.rank)
        by_id[player.id] = player
    return by_id


def _checked_games(games: Iterable[Game], by_id: dict[str, Player]) -> list[tuple[int, Game]]:
    """The games to rate, each with its position among the games given."""
    rated: list[tuple[int, Game]] = []
    for index, game in enumerate(games):
        for player_id in (game.black, game.white):
            if player_id not in by_id:
                raise ValueError(f"game of round {game.round} names unknown player {player_id!r}")
        if game.black == game.white:
            raise ValueError(f"player {game.black!r} cannot play himself")
        if game.score_black not in SCORES:
            raise ValueError(f"score {game.score_black} is not 1, 0.5 or 0")
        if game.board_size not in BOARD_FACTOR:
            raise ValueError(f"board size {game.board_size} is not 9, 13 or 19")
        if game.handicap < 0:
            raise ValueError(f"handicap {game.handicap} is negative")
        if game.played:  # INTERPRETATIONS 0: games not played are never rated
            rated.append((index, game))
    return rated


def _by_round(games: Sequence[tuple[int, Game]]) -> list[tuple[int, list[tuple[int, Game]]]]:
    grouped: dict[int, list[tuple[int, Game]]] = defaultdict(list)
    for index, game in games:
        grouped[game.round].append((index, game))
    return sorted(grouped.items())
