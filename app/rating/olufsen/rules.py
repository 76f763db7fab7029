"""Olufsen shogi ratings and grades: one table (tournament) at a time, with the state that carries a
player from table to table.

Rule text 001 (docs/rules.md; paragraphs (1)-(13), cited ``# 001 (n)``). Decisions on what the text
leaves open: docs/decisions.md sections 0 and 2, cited ``INTERPRETATIONS 2.n``. Pure:
plain values in, plain values out, no I/O.

Here: the grades (001 (2)), the state a player carries from table to table, one game's change and its
factors (001 (1), (9)-(11)), the performance rating (001 (5)), the categories (001 (3)) and the grades'
promotions (001 (12)). The table that puts them together is ``table.rate_table``: a list replay calls
it once per table in date order, feeding each player's returned ``PlayerState`` into his next table;
a newcomer starts from ``newcomer(prior_grade)``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "ESTABLISHED_GAMES",
    "GRADES",
    "MAX_GAMES_PER_TABLE",
    "PERFORMANCE_PRECISION",
    "TABLE_TOLERANCE",
    "Category",
    "Game",
    "GradeRow",
    "GradeState",
    "OlufsenError",
    "Options",
    "PerformanceUndefined",
    "PlayerResult",
    "PlayerState",
    "Promotion",
    "RecordedResult",
    "Route",
    "Streak",
    "TableNotConverged",
    "TooManyGames",
    "UndeterminedRatings",
    "UnknownGrade",
    "apply_bonus",
    "category_for_table",
    "coefficient",
    "expected_score",
    "game_change",
    "games_of_category_error",
    "grade_index",
    "grade_row",
    "newcomer",
    "opponent_factor",
    "performance_rating",
    "provisional_factor",
    "standing",
    "update_grade",
]

Score = float  # win 1, draw 0.5, loss 0 (INTERPRETATIONS 0)
SCORES: frozenset[float] = frozenset({0.0, 0.5, 1.0})

BASE = 10.0  # 001 (1) "10^((or - tr)/400)"
SCALE = 400.0
# 001 (1): k(tr) by the player's own rating, lower-inclusive bands (INTERPRETATIONS 2.2), highest first.
K_TABLE: tuple[tuple[float, int], ...] = (
    (2240, 16),
    (1920, 20),
    (1560, 24),
    (1280, 28),
    (1040, 32),
    (720, 36),
    (-math.inf, 40),
)
UNRATED_BELOW_GAMES = 9  # 001 (3) "less than 9 rated games"
ESTABLISHED_GAMES = 18  # 001 (3) "less than 18"; (9) 18/n; (10) "less than 18 games"
ZERO_SCORE_RATING = 400  # 001 (6) "If the score is 0% the rating is set to 400"
BONUS_BASE = 20  # 001 (11) "20+3*n"
BONUS_PER_GAME = 3
MAX_GAMES_PER_TABLE = 16  # 001 (13), INTERPRETATIONS 2.16
FESA_OPPONENT_FLOOR = 400  # INTERPRETATIONS 2.17 option
FESA_UPSET_DIVISOR = 160  # INTERPRETATIONS 2.17 option: d' = k(or - tr)/160
# INTERPRETATIONS 2.4/2.7: the performance rating and the table's equations are exact to 1e-9.
TABLE_TOLERANCE = 1e-9
PERFORMANCE_PRECISION = 1e-9
_BRENTQ_XTOL = 1e-12  # brentq stops within xtol + 4 eps |P|, well inside PERFORMANCE_PRECISION


class OlufsenError(ValueError):
    """The rules cannot be applied to this input."""


class PerformanceUndefined(OlufsenError):
    """001 (5): "Performance rating is not defined if the outcome of all the games is 100% victory or
    100% defeat" (nor for no games)."""


class UnknownGrade(OlufsenError):
    pass


class TooManyGames(OlufsenError):
    """INTERPRETATIONS 2.16: a player has more than 16 games in one table."""

    def __init__(self, player_id: str, games: int) -> None:
        super().__init__(
            f"player {player_id!r} has {games} games in this table; 001 (13) allows at most "
            f"{MAX_GAMES_PER_TABLE} per player in one table: split the table in two at a point in time"
        )
        self.player_id = player_id
        self.games = games


class UndeterminedRatings(OlufsenError):
    """Unrated players who meet only each other, with no recorded results, no prior grade and nobody
    at 0 %: 001 (6) fixes their ratings only up to a common shift."""

    def __init__(self, player_ids: Sequence[str]) -> None:
        super().__init__(
            "the ratings of the unrated players "
            + ", ".join(repr(p) for p in player_ids)
            + " are not determined: they met only each other and none has a rated opponent, a prior"
            " result, a prior grade or a 0 % score (001 (6), (7))"
        )
        self.player_ids = tuple(player_ids)


class TableNotConverged(OlufsenError):
    pass


# --------------------------------------------------------------------------------------------------
# (2) The grade table
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GradeRow:
    """One row of the table in 001 (2). ``lower_bound_games`` (#LB) and ``midpoint_games`` (#MP) are
    None where the row has no such route (INTERPRETATIONS 2.12: 5 dan has #MP 10 only, 6 dan UB only)."""

    name: str
    lower_bound: int
    midpoint: int
    upper_bound: int
    lower_bound_games: int | None
    midpoint_games: int | None
    needs_approval: bool = False  # 001 (12) "5 Dan and 6 Dan is not awarded without the approval of Nihon Shogi Renmei"


# 001 (2), lowest first. Names: "15k" ... "1k", "1d" ... "6d".
GRADES: tuple[GradeRow, ...] = (
    GradeRow("15k", 400, 440, 480, 6, 3),
    GradeRow("14k", 480, 520, 560, 6, 3),
    GradeRow("13k", 560, 600, 640, 6, 3),
    GradeRow("12k", 640, 680, 720, 6, 3),
    GradeRow("11k", 720, 760, 800, 8, 4),
    GradeRow("10k", 800, 840, 880, 8, 4),
    GradeRow("9k", 880, 920, 960, 8, 4),
    GradeRow("8k", 960, 1000, 1040, 8, 4),
    GradeRow("7k", 1040, 1080, 1120, 10, 5),
    GradeRow("6k", 1120, 1160, 1200, 10, 5),
    GradeRow("5k", 1200, 1240, 1280, 10, 5),
    GradeRow("4k", 1280, 1320, 1360, 12, 6),
    GradeRow("3k", 1360, 1410, 1460, 12, 6),
    GradeRow("2k", 1460, 1510, 1560, 12, 6),
    GradeRow("1k", 1560, 1620, 1680, 14, 7),
    GradeRow("1d", 1680, 1740, 1800, 14, 7),
    GradeRow("2d", 1800, 1860, 1920, 14, 7),
    GradeRow("3d", 1920, 2000, 2080, 16, 8),
    GradeRow("4d", 2080, 2160, 2240, 16, 8),
    GradeRow("5d", 2240, 2340, 2440, None, 10, needs_approval=True),
    GradeRow("6d", 2440, 2540, 2640, None, None, needs_approval=True),
)
_GRADE_INDEX: dict[str, int] = {row.name: index for index, row in enumerate(GRADES)}


def grade_row(name: str) -> GradeRow:
    """The row of 001 (2) for a grade name ("15k" ... "1k", "1d" ... "6d")."""
    try:
        return GRADES[_GRADE_INDEX[name]]
    except KeyError:
        raise UnknownGrade(f"{name!r} is not a grade of 001 (2): use 15k ... 1k, 1d ... 6d") from None


def grade_index(name: str) -> int:
    """A grade's place in 001 (2), from 15k (0) up: a higher grade has a higher index."""
    return GRADES.index(grade_row(name))


def games_of_category_error(category: Category, rated_games: int | None) -> str | None:
    """Why a player's rated games cannot go with his category (001 (3): unrated below 9 games,
    provisional below 18, established from 18); None when they can. ``rated_games`` None: not given,
    which an established player may leave out ("18 or more")."""
    if category is Category.PROVISIONAL and (rated_games is None or not UNRATED_BELOW_GAMES <= rated_games < ESTABLISHED_GAMES):
        return "a provisional player has 9 to 17 rated games (001 (3))"
    if category is Category.ESTABLISHED and rated_games is not None and rated_games < ESTABLISHED_GAMES:
        return "an established player has at least 18 rated games (001 (3))"
    return None


# --------------------------------------------------------------------------------------------------
# State carried from table to table
# --------------------------------------------------------------------------------------------------


class Category(StrEnum):
    """001 (3)."""

    UNRATED = "unrated"
    PROVISIONAL = "provisional"
    ESTABLISHED = "established"


class Route(StrEnum):
    """001 (12): the ways to a grade."""

    UPPER_BOUND = "UB"
    MIDPOINT = "MP"
    LOWER_BOUND = "LB"
    BOUND_TO_GET_IT = "bound-to-get-it"


@dataclass(frozen=True)
class RecordedResult:
    """A prior result kept for an unrated player's performance (001 (6)): the opponent's post-event
    rating of that time (rounded, as published) and the score. ``dummy`` marks the two prior-grade
    results of 001 (7), which are not rated games (INTERPRETATIONS 2.6)."""

    opponent_rating: float
    score: Score
    dummy: bool = False


@dataclass(frozen=True)
class Streak:
    """Consecutive games (the table's change spread evenly over its games, 001 (13)) above one grade's
    limits, up to the player's last game: above LB, above MP, and whether the LB run holds a game above
    MP (INTERPRETATIONS 2.13). Kept only for grades above the player's grade, with a run going."""

    grade: str
    games_above_lower_bound: int
    games_above_midpoint: int
    midpoint_in_lower_bound_run: bool


@dataclass(frozen=True)
class GradeState:
    """``grade`` is the grade held (never lost); ``pending_grade`` a 5 or 6 dan earned and awaiting the
    approval of Nihon Shogi Renmei (001 (12)): the caller records the approval by moving it to ``grade``."""

    grade: str | None = None
    pending_grade: str | None = None
    streaks: tuple[Streak, ...] = ()


@dataclass(frozen=True)
class PlayerState:
    """Everything the rules need about a player before a table.

    ``rating``: the published (rounded) rating, None before his first table. ``rated_games``: rated
    games so far (dummy results excluded). ``category``: his standing after his last table (001 (3)
    counted without a next table; see ``standing``). ``recorded_results``: kept while he is unrated,
    since 001 (6) rates him from all of them; empty once he is provisional or established."""

    rating: int | None = None
    rated_games: int = 0
    category: Category = Category.UNRATED
    recorded_results: tuple[RecordedResult, ...] = ()
    grades: GradeState = field(default_factory=GradeState)


def newcomer(prior_grade: str | None = None) -> PlayerState:
    """A player's state before his first table. 001 (7): with a prior grade he "starts with a prior
    result of 2 games consisting of one victory and one defeat against a dummy player with a rating
    equal to the MP of the players grade", and keeps that grade while unrated."""
    if prior_grade is None:
        return PlayerState()
    midpoint = grade_row(prior_grade).midpoint
    dummies = (RecordedResult(midpoint, 1.0, dummy=True), RecordedResult(midpoint, 0.0, dummy=True))
    return PlayerState(recorded_results=dummies, grades=GradeState(grade=prior_grade))


@dataclass(frozen=True)
class Game:
    """One rated game of the table. The caller leaves out games not played (001 (4)) and handicap
    games ("Rules for rating handicap games are so far not included", INTERPRETATIONS 2.17)."""

    black: str
    white: str
    score_black: Score


@dataclass(frozen=True)
class Options:
    provisional_highest_grade: bool = False  # INTERPRETATIONS 2.15 option: highest UB reached, not one grade
    fesa: bool = False  # INTERPRETATIONS 2.17 option: opponent floor 400 and the linear upset formula


@dataclass(frozen=True)
class Promotion:
    grade: str
    route: Route
    pending_approval: bool


@dataclass(frozen=True)
class GameFigures:
    """One game of a player in a table, as 001 (1), (8), (9) and (10) rate it. For a player rated by
    his performance (an unrated one, 001 (6)) only the opponent, the score and ``or`` are given."""

    opponent: str
    score: float  # res of (1)
    opponent_rating: float  # or: the opponent's post-event rating (001 (8)), unrounded; at least 400 with FESA
    k: int | None  # k(tr) of (1), by the band of the player's pre-table rating (INTERPRETATIONS 2.2)
    expected: float | None  # 1/(1 + 10^((or − tr)/400)) of (1)
    d: float | None  # k(res − expected) of (1); with FESA the upset formula when larger (INTERPRETATIONS 2.17)
    opponent_factor: float | None  # (10): (1 + n/18)/2 for an opponent with n < 18 games, else 1
    provisional_factor: float | None  # (9): 18/n for a provisional player, else 1
    change: float | None  # d × (10) × (9): the game's share of the change before the bonus (11)


@dataclass(frozen=True)
class PlayerResult:
    """What one table did to one player. ``change_unrounded`` is after (9), (10) and (11); ``change``
    is it rounded once (INTERPRETATIONS 2.1). For an unrated player ``rating_after`` is his rounded
    performance over all his results (001 (6)) and ``change`` the difference to his previous rating, if
    any. ``performance_rating`` is this table's performance against post-event ratings as (11) uses it
    (with the dummy draw at 100 %), None at 0 % or without games."""

    id: str
    category: Category
    games: int
    score: float
    rating_before: int | None
    rating_after: int | None
    change: int | None
    change_unrounded: float | None
    rating_after_unrounded: float | None
    performance_rating: float | None
    bonus_applied: float
    bonus_capped: bool
    grade_before: str | None
    grade_after: str | None
    pending_grade_after: str | None
    promotions: tuple[Promotion, ...]
    category_after: Category
    state: PlayerState
    game_figures: tuple[GameFigures, ...] = ()  # his games, in the order of the table's games
    change_before_bonus: float | None = None  # Σ of the games' changes: the "normal way" of (11)
    bonus_threshold: float | None = None  # (11) T = 20 + 3n
    change_with_uncapped_bonus: float | None = None  # (11) 2·change − T, before the cap at the performance


# --------------------------------------------------------------------------------------------------
# (1) One game, (9) (10) factors, (11) bonus
# --------------------------------------------------------------------------------------------------


def coefficient(rating: float) -> int:
    """001 (1) k(tr): the band of the player's own pre-table rating, lower-inclusive (INTERPRETATIONS 2.2)."""
    for lower, k in K_TABLE:
        if rating >= lower:
            return k
    raise AssertionError("the last band is open below")  # pragma: no cover


def expected_score(rating: float, opponent_rating: float, *, base: float = BASE, scale: float = SCALE) -> float:
    """001 (1): 1/(1 + 10^((or - tr)/400)), evaluated as a logistic so that it never overflows."""
    from scipy.special import expit  # imported when used: see app/rating/whr/solver.py

    return float(expit(math.log(base) * (rating - opponent_rating) / scale))


def game_change(rating: float, opponent_rating: float, score: Score, *, fesa: bool = False) -> float:
    """001 (1) d = k(tr)(res - 1/(1 + 10^((or - tr)/400))), unrounded (INTERPRETATIONS 2.1).

    With ``fesa`` (INTERPRETATIONS 2.17 option) an opponent below 400 counts as 400, and a win gives
    d' = k(or - tr)/160 when that is larger than d."""
    k = coefficient(rating)
    if fesa:
        opponent_rating = max(opponent_rating, FESA_OPPONENT_FLOOR)
    d = k * (score - expected_score(rating, opponent_rating))
    if fesa and score == 1.0:
        d = max(d, k * (opponent_rating - rating) / FESA_UPSET_DIVISOR)
    return d


def provisional_factor(rated_games_including_table: int) -> float:
    """001 (9): a provisional player's change is multiplied by 18/n, n his rated games including this
    table (INTERPRETATIONS 2.8)."""
    return ESTABLISHED_GAMES / rated_games_including_table


def opponent_factor(opponent_rated_games_including_table: int) -> float:
    """001 (10): a game against a player with fewer than 18 games (including this table) counts
    (1 + n/18)/2, n the opponent's games; for every category of player (INTERPRETATIONS 2.9)."""
    n = opponent_rated_games_including_table
    return (1 + n / ESTABLISHED_GAMES) / 2 if n < ESTABLISHED_GAMES else 1.0


def apply_bonus(rating: float, change: float, games: int, performance: float | None) -> float:
    """001 (11) with INTERPRETATIONS 2.10: the change above T = 20 + 3n is doubled, but the bonus may
    not lift the rating above the table's performance; it never reduces the normal change."""
    threshold = BONUS_BASE + BONUS_PER_GAME * games
    if change <= threshold:
        return change
    with_bonus = 2 * change - threshold
    if performance is None or rating + change >= performance:
        return change
    return min(rating + with_bonus, performance) - rating


# --------------------------------------------------------------------------------------------------
# (5) Performance rating
# --------------------------------------------------------------------------------------------------


def performance_rating(
    opponent_ratings: Sequence[float] | NDArray[np.float64],
    scores: Sequence[float] | NDArray[np.float64],
    *,
    base: float = BASE,
    scale: float = SCALE,
) -> float:
    """001 (5): the rating P at which rating the results "in the normal way" changes nothing, i.e. the
    unique P with sum 1/(1 + base^((or_i - P)/scale)) = score (INTERPRETATIONS 2.4), unrounded, found by
    scipy's brentq inside a bracket that provably holds it; exact to 1e-9. Defaults are 001's base 10
    and 400; other Elo systems pass theirs (RIF: base 2, scale 120).

    Raises PerformanceUndefined at 0 % and 100 % (and for no results)."""
    if base <= 1 or scale <= 0:
        raise OlufsenError("the expectation needs a base above 1 and a positive scale")
    opponents = np.asarray(opponent_ratings, dtype=np.float64)
    results = np.asarray(scores, dtype=np.float64)
    if len(opponents) != len(results):
        raise OlufsenError("one score per opponent rating")
    games = len(opponents)
    score = float(results.sum())
    if games == 0 or score <= 0 or score >= games:
        raise PerformanceUndefined(
            "a performance rating is not defined when every game is won or every game is lost (001 (5))"
            if games
            else "a performance rating needs at least one result"
        )
    from scipy.optimize import brentq
    from scipy.special import expit

    steepness = math.log(base) / scale

    def excess(p: float) -> float:
        return float(expit(steepness * (p - opponents)).sum()) - score

    # Below min(or) - D every expectation is under 1/(1 + base^(D/scale)); with
    # D = scale·log_base(games / min(score, games - score)) + scale the sum is below the score there,
    # and symmetrically above max(or) + D it exceeds it: the root lies in between.
    margin = scale * (math.log(games / min(score, games - score)) / math.log(base) + 1)
    root = brentq(excess, float(opponents.min()) - margin, float(opponents.max()) + margin, xtol=_BRENTQ_XTOL)
    return float(root)


# --------------------------------------------------------------------------------------------------
# (3) Categories
# --------------------------------------------------------------------------------------------------


def category_for_table(state: PlayerState, games_in_table: int) -> Category:
    """001 (3) for the table being rated, with INTERPRETATIONS 2.3's union: unrated when the prior
    results are none, all wins or all losses, or when the rated games including this table are fewer
    than 9; else provisional below 18 games including this table; else established.

    A player without a rating is unrated whatever his counts: (1) needs his rating tr. (A newcomer with
    a prior grade has mixed prior results through his dummies and may play 9 games in his first table.)"""
    games = state.rated_games + games_in_table
    if state.category is Category.UNRATED and (state.rating is None or not _mixed(state.recorded_results)):
        return Category.UNRATED
    if games < UNRATED_BELOW_GAMES:
        return Category.UNRATED
    return Category.PROVISIONAL if games < ESTABLISHED_GAMES else Category.ESTABLISHED


def standing(rated_games: int, results: Sequence[RecordedResult], was_unrated: bool) -> Category:
    """The category a player holds after a table: 001 (3) counted with no further games. A player who
    left "unrated" has mixed results for good, so only unrated players need their results."""
    if (was_unrated and not _mixed(results)) or rated_games < UNRATED_BELOW_GAMES:
        return Category.UNRATED
    return Category.PROVISIONAL if rated_games < ESTABLISHED_GAMES else Category.ESTABLISHED


def _mixed(results: Sequence[RecordedResult]) -> bool:
    # 001 (3) "prior results only include victories or only defeats (including ... no prior results)".
    # The prior-grade dummies of (7) are prior results: "starts with a prior result of 2 games".
    scores = {result.score for result in results}
    return bool(scores) and scores != {1.0} and scores != {0.0}


# --------------------------------------------------------------------------------------------------
# (12) (13) Grades and promotions
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GradeUpdate:
    state: GradeState
    promotions: tuple[Promotion, ...]


def update_grade(
    grades: GradeState,
    category: Category,
    rating_before: int | None,
    rating_after: int,
    games: int,
    *,
    highest_grade: bool = False,
) -> GradeUpdate:
    """001 (12) (13) after one table in which the player had ``games`` rated games.

    Established players: the UB, MP and LB routes and "bound to get it"; provisional players only the
    next grade's UB (``highest_grade``: the highest UB reached, INTERPRETATIONS 2.15 option); unrated
    players none, keeping a prior grade. Grades are never lost; 5 and 6 dan wait for approval
    (INTERPRETATIONS 2.11, 2.12)."""
    if games == 0:
        return GradeUpdate(grades, ())
    if category is Category.UNRATED or rating_before is None:
        # 001 (12) "An unrated players can not get a grade, but he keeps any prior grade he has". His
        # rating is a performance, not a running rating: no games count towards streaks (a decision).
        return GradeUpdate(replace(grades, streaks=()), ())
    held = _held_index(grades)
    earned: dict[int, Route] = {}
    streaks = _run_streaks(grades, held, rating_before, rating_after, games, earned)
    if category is Category.ESTABLISHED:
        # 001 (12) "reach the UB of a grade": at least UB (INTERPRETATIONS 2.11), several at once.
        for index in range(held + 1, len(GRADES)):
            if rating_after >= GRADES[index].upper_bound:
                earned[index] = Route.UPPER_BOUND
        _bound_to_get_it(streaks, rating_after, earned)
    else:
        earned = {}  # 001 (12): a provisional player "can only achieve a grade by reaching the UB of the next grade above"
        candidates = range(held + 1, len(GRADES)) if highest_grade else range(held + 1, min(held + 2, len(GRADES)))
        for index in candidates:
            if rating_after >= GRADES[index].upper_bound:
                earned[index] = Route.UPPER_BOUND
    return _award(grades, held, streaks, earned)


def _held_index(grades: GradeState) -> int:
    held = -1
    for name in (grades.grade, grades.pending_grade):
        if name is not None:
            grade_row(name)
            held = max(held, _GRADE_INDEX[name])
    return held


def _run_streaks(
    grades: GradeState, held: int, rating_before: int, rating_after: int, games: int, earned: dict[int, Route]
) -> dict[int, Streak]:
    """001 (13): the table's change spread equally over its games, after game j R0 + j·change/n, in
    exact fractions; runs break at the first game not strictly above the limit (INTERPRETATIONS 2.11,
    2.13). A run that reaches #MP, or #LB holding a game above MP, earns the grade at that game."""
    previous = {_GRADE_INDEX[grade_row(s.grade).name]: s for s in grades.streaks}
    streaks: dict[int, Streak] = {}
    change = rating_after - rating_before
    per_game = [Fraction(rating_before) + Fraction(j * change, games) for j in range(1, games + 1)]
    for index in range(held + 1, len(GRADES)):
        row = GRADES[index]
        if row.lower_bound_games is None and row.midpoint_games is None:
            continue  # 6 dan: by UB only (INTERPRETATIONS 2.12)
        streak = previous.get(index, Streak(row.name, 0, 0, False))
        above_lb, above_mp, mp_in_lb = (
            streak.games_above_lower_bound,
            streak.games_above_midpoint,
            streak.midpoint_in_lower_bound_run,
        )
        for rating in per_game:
            above_mp = above_mp + 1 if rating > row.midpoint else 0
            if rating > row.lower_bound:
                above_lb += 1
                mp_in_lb = mp_in_lb or rating > row.midpoint
            else:
                above_lb, mp_in_lb = 0, False
            if row.midpoint_games is not None and above_mp >= row.midpoint_games:
                earned.setdefault(index, Route.MIDPOINT)
            if row.lower_bound_games is not None and above_lb >= row.lower_bound_games and mp_in_lb:
                earned.setdefault(index, Route.LOWER_BOUND)
        streaks[index] = Streak(row.name, above_lb, above_mp, mp_in_lb)
    return streaks


def _bound_to_get_it(streaks: Mapping[int, Streak], rating: int, earned: dict[int, Route]) -> None:
    """001 (12) "bound to get it": the remaining games needed, all lost, each costing k at the current
    rating (the most a game can cost), keep him above the limit throughout (INTERPRETATIONS 2.14)."""
    for index, streak in streaks.items():
        if index in earned:
            continue
        row = GRADES[index]
        routes = (
            (row.midpoint, row.midpoint_games, streak.games_above_midpoint, streak.games_above_midpoint > 0),
            (row.lower_bound, row.lower_bound_games, streak.games_above_lower_bound, streak.midpoint_in_lower_bound_run),
        )
        for limit, needed, run, possible in routes:
            if needed is None or run == 0 or not possible:
                continue
            simulated = rating
            for _ in range(needed - run):
                simulated -= coefficient(simulated)
            if simulated > limit:
                earned[index] = Route.BOUND_TO_GET_IT
                break


def _award(grades: GradeState, held: int, streaks: Mapping[int, Streak], earned: Mapping[int, Route]) -> GradeUpdate:
    grade, pending = grades.grade, grades.pending_grade
    grade_index = -1 if grade is None else _GRADE_INDEX[grade]
    pending_index = -1 if pending is None else _GRADE_INDEX[pending]
    promotions: list[Promotion] = []
    approved = [i for i in earned if not GRADES[i].needs_approval and i > grade_index]
    if approved:
        best = max(approved)
        grade = GRADES[best].name
        promotions.append(Promotion(grade, earned[best], pending_approval=False))
    waiting = [i for i in earned if GRADES[i].needs_approval and i > max(pending_index, grade_index)]
    if waiting:
        best = max(waiting)
        pending = GRADES[best].name
        promotions.append(Promotion(pending, earned[best], pending_approval=True))
    new_held = max(held, max(earned, default=-1))
    kept = tuple(
        streak
        for index, streak in sorted(streaks.items())
        if index > new_held and (streak.games_above_lower_bound or streak.games_above_midpoint)
    )
    return GradeUpdate(GradeState(grade, pending, kept), tuple(promotions))
