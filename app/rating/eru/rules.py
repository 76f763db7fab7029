"""Estonian kyu/dan norms and the Estonian rating (Estonian Renju Union, ERU).

Rule text 003 (Ants Soosõrv, "Estonian Kyu/Dan and Rating System"; docs/rules.md). Its sections are
cited as ``ERU 4.n`` after docs/decisions.md section 4, which numbers the decisions taken on what the
text leaves open (4.1 ranks … 4.10 first rating). Pure: plain values in, plain values out, no I/O.

The functions work on one tournament at a time over each player's state before it (rank, Estonian
rating, whether he is new), so a stored list replays a federation's history by calling
``rate_tournament`` once per tournament in date order and carrying ``rank_after`` / ``rating_after``
forward.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from typing import Any, Literal

__all__ = [
    "Championship",
    "Conditions",
    "Decision",
    "EstonianRatingResult",
    "Game",
    "LOWEST_RANK",
    "HIGHEST_RANK",
    "Norm",
    "GameNormPercentages",
    "NormEvaluation",
    "NormName",
    "Norms",
    "OpponentGame",
    "Player",
    "PlayerResult",
    "RatingGame",
    "RATING_TABLE",
    "table_expectancy",
    "SYSTEM",
    "RIF_OFFICIAL_OPENING_RULES",
    "conditions_of_tournament",
    "conditions_unmet",
    "evaluate_norms",
    "first_estonian_rating",
    "game_percentage",
    "game_rating_change",
    "norm_points",
    "parse_rank",
    "rank_name",
    "rate_tournament",
    "rating_conditions_unmet",
    "rating_table_row",
]

SYSTEM = "eru"

# ERU 4.1 "9 dan level ranks and 15 kyu level ranks": 15k = 1 … 1k = 15, 1d = 16 … 9d = 24, no zero.
LOWEST_RANK = 1  # 15 kyu
ONE_KYU = 15
ONE_DAN = 16
HIGHEST_RANK = 24  # 9 dan
KYU_COUNT = 15

PERCENT_PER_RANK = 15  # ERU 4.3: every rank of difference moves the percentage by 15
RANK_DIFFERENCE_CAP = 3  # ERU 4.3 "stronger by 3 ranks or more", "weaker by 3 ranks or more"
HALF_POINT_PERCENT = 50  # ERU 4.2: norms are rounded up to the half point: ceil(Σ% / 50) / 2

MINIMUM_COUNTED_GAMES = 7  # ERU 4.5 "at least 7 games"; INTERPRETATIONS 4.7: fewer, no evaluation

WIN, DRAW, LOSS = Fraction(1), Fraction(1, 2), Fraction(0)
SCORES = frozenset({WIN, DRAW, LOSS})

# ERU 4.9 the table: (lowest rating difference of the row, draw change, win change) of the
# lower-rated player, INTERPRETATIONS 4.9; the 522–724 row is normative as printed.
RATING_TABLE: tuple[tuple[int, int, int], ...] = (
    (0, 0, 16),
    (11, 1, 17),
    (33, 2, 18),
    (55, 3, 19),
    (77, 4, 20),
    (101, 5, 21),
    (125, 6, 22),
    (150, 7, 23),
    (177, 8, 24),
    (205, 9, 25),
    (237, 10, 26),
    (273, 11, 27),
    (314, 12, 28),
    (364, 13, 29),
    (428, 14, 30),
    (522, 15, 31),
    (725, 16, 32),
)
WIN_CHANGE_TOTAL = 32  # INTERPRETATIONS 4.9: a higher-rated winner gains 32 minus the table's win value
FIRST_RATING = 1500  # ERU 4.10 "normally it is 1500 points"
BONUS_PER_WIN = 50  # ERU 4.10 "extra 50 points per one victory against players with the rating above 1600"
BONUS_OPPONENT_ABOVE = 1600
RATING_MINIMUM_MINUTES = 15  # ERU 4.9 "The minimum time limit should be 15 minutes per game"


# --------------------------------------------------------------------------------------------------
# Ranks (ERU 4.1)
# --------------------------------------------------------------------------------------------------


def parse_rank(text: str) -> int:
    """'15k' … '1k', '1d' … '9d' as the index 1 … 24 (ERU 4.1, INTERPRETATIONS 4.1); '0k' is no rank."""
    number, kind = text[:-1], text[-1:]
    if not number.isdigit() or kind not in ("k", "d"):
        raise ValueError(f"{text!r} is not a rank: ranks are 15k … 1k and 1d … 9d")
    value = int(number)
    if kind == "k" and 1 <= value <= KYU_COUNT:
        return KYU_COUNT + 1 - value
    if kind == "d" and 1 <= value <= HIGHEST_RANK - KYU_COUNT:
        return KYU_COUNT + value
    raise ValueError(f"{text!r} is not a rank: ranks are 15k … 1k and 1d … 9d")


def rank_name(rank: int) -> str:
    """The index 1 … 24 as '15k' … '9d'."""
    _check_rank(rank, "rank")
    return f"{KYU_COUNT + 1 - rank}k" if rank <= ONE_KYU else f"{rank - KYU_COUNT}d"


# --------------------------------------------------------------------------------------------------
# Norms (ERU 4.2, 4.3, 4.4)
# --------------------------------------------------------------------------------------------------


class Norm(StrEnum):
    """The four norms and their percentage against opponents of the same rank (ERU 4.3)."""

    KEEP = "keep"
    UP_ONE_KYU = "up-one-kyu"
    UP_TWO_KYU = "up-two-kyu"
    UP_ONE_DAN = "up-one-dan"

    @property
    def same_rank_percent(self) -> int:
        # ERU 4.3 "65% … promoted by 1 kyu", "80% … 2 kyus", "75% … 1 dan", "30% … preserve own rank".
        return {"keep": 30, "up-one-kyu": 65, "up-two-kyu": 80, "up-one-dan": 75}[self.value]


def game_percentage(norm: Norm, rank: int, opponent_rank: int) -> int:
    """The percentage one game adds to a norm: the same-rank percentage, 15 less per rank the opponent
    is stronger and 15 more per rank he is weaker, capped at three ranks (ERU 4.3; INTERPRETATIONS 4.3
    extends the printed +1/+2 kyu rows the same way to +1 dan and keep)."""
    _check_rank(rank, "rank")
    _check_rank(opponent_rank, "opponent_rank")
    stronger_by = max(-RANK_DIFFERENCE_CAP, min(RANK_DIFFERENCE_CAP, opponent_rank - rank))
    return norm.same_rank_percent - PERCENT_PER_RANK * stronger_by


def norm_points(norm: Norm, rank: int, opponent_ranks: Iterable[int]) -> Fraction:
    """The norm in points: the games' percentages summed (ERU 4.3 "an average of all given
    percentages" times the games), rounded UP to the half point in integer arithmetic (ERU 4.2,
    INTERPRETATIONS 4.2): ten games at 65 % are exactly 6.5, seven are 4.55 → 5.0.

    A sum below zero (keep against much stronger opponents) is any score at all: reported as 0."""
    total_percent = sum(game_percentage(norm, rank, opponent) for opponent in opponent_ranks)
    half_points = -(-total_percent // HALF_POINT_PERCENT)  # ceil in integers
    return Fraction(max(half_points, 0), 2)


# --------------------------------------------------------------------------------------------------
# Conditions of a tournament (ERU 4.5)
# --------------------------------------------------------------------------------------------------


class Championship(StrEnum):
    """The championships where 9 dan can be achieved (ERU 4.5)."""

    WORLD_CHAMPIONSHIP_AT = "world-championship-at"
    TEAM_WORLD_CHAMPIONSHIP = "team-world-championship"


@dataclass(frozen=True)
class Conditions:
    """What ERU 4.5 and 4.9 ask of a tournament.

    ``time_control_minutes`` is per player (INTERPRETATIONS 4.5); ``None`` means no clocks were used.
    ``byo_yomi``: the time control is the "60 minutes/30 own moves + byo-yomi 10mins/10moves" kind.
    """

    eru_calendar: bool = False
    referee_accepted: bool = False
    international: bool = False
    rif_rules: bool = True
    time_control_minutes: int | None = None
    byo_yomi: bool = False
    recorded: bool = False
    championship: Championship | None = None
    face_to_face: bool = True


# ERU 4.5 "RIF official rules": renju under the RIF's rules with one of its official opening rules.
# A tournament stored without a rule still counts (INTERPRETATIONS 6.1); renju.net ids import as "RIF".
RIF_OFFICIAL_OPENING_RULES = frozenset({"rif", "yamaguchi", "soosyrv-8", "taraguchi-10"})


def conditions_of_tournament(fields: Mapping[str, Any]) -> Conditions:
    """A stored tournament's conditions as ERU 4.5 and 4.9 read them, from its stored fields by name
    (``category``, ``rule``, ``format``, ``time_control_minutes``, and those of its ``conditions.eru``
    document, which a recompute hands over among them: ``eru_calendar``, ``referee_accepted``,
    ``international``, ``championship``, ``games_recorded``, ``byo_yomi``); a missing flag is false,
    as a tournament that does not state it is stored."""
    rule = fields.get("rule")
    championship = fields.get("championship")
    return Conditions(
        eru_calendar=bool(fields.get("eru_calendar")),
        referee_accepted=bool(fields.get("referee_accepted")),
        international=bool(fields.get("international")),
        rif_rules=fields.get("category") == "renju" and (rule is None or str(rule).strip().lower() in RIF_OFFICIAL_OPENING_RULES),
        time_control_minutes=fields.get("time_control_minutes"),
        byo_yomi=bool(fields.get("byo_yomi")),
        recorded=bool(fields.get("games_recorded")),
        championship=None if championship is None else Championship(championship),
        # ERU 4.9 "Only the real life tournaments": a tournament is face to face unless stored otherwise.
        face_to_face=fields.get("format", "face-to-face") == "face-to-face",
    )


@dataclass(frozen=True)
class _RankBand:
    """One paragraph of ERU 4.5: the conditions under which a rank in lowest … highest is achieved."""

    lowest: int
    highest: int
    venue_referee_accepted: bool  # 10–15 kyu: "registered in the calendar of ERU or accepted by … referees"
    venue_international: bool  # 9 kyu and up: "ERU calendar or … international competitions"
    rif_rules: bool
    minimum_minutes: int | None
    minimum_minutes_with_byo_yomi: int | None
    recorded: bool
    minimum_games: int
    championship_only: bool = False

    @property
    def label(self) -> str:
        return rank_name(self.lowest) if self.lowest == self.highest else f"{rank_name(self.lowest)}–{rank_name(self.highest)}"


_BANDS = (
    # ERU 4.5 "rank between 10-15 kyu … calendar of ERU or accepted by one of the ERU referees … 7 games"
    _RankBand(1, 6, True, False, False, None, None, False, 7),
    # ERU 4.5 "ranks 9-4 kyu … RIF official rules … clocks … at least 15 minutes … 7 games"
    _RankBand(7, 12, False, True, True, 15, None, False, 7),
    # ERU 4.5 "ranks 3-1 kyu … at least 30 minutes … The recording of the game is necessary … 7 games"
    _RankBand(13, 15, False, True, True, 30, None, True, 7),
    # ERU 4.5 "ranks 1-4 dan … at least 60 minutes … recording … 7 games"
    _RankBand(16, 19, False, True, True, 60, None, True, 7),
    # ERU 4.5 "ranks 5-6 dan … at least 90 minutes … or at least 60 minutes/30 own moves + byo-yomi"
    _RankBand(20, 21, False, True, True, 90, 60, True, 7),
    # ERU 4.5 "ranks 7-8 dan … at least 120 minutes … recording … at least 9 games"
    _RankBand(22, 23, False, True, True, 120, None, True, 9),
    # ERU 4.5 "9 dan can only be achieved in the World Championship AT or in Team World Championship";
    # the paragraph names no other condition, the general 7 games of INTERPRETATIONS 4.7 still hold.
    _RankBand(24, 24, False, True, False, None, None, False, 7, championship_only=True),
)


def conditions_unmet(rank: int, conditions: Conditions, games_counted: int) -> list[str]:
    """The conditions of ERU 4.5 for achieving ``rank`` that the tournament does not meet, as
    sentences a referee reads; an empty list means the rank can be achieved here."""
    band = _band(rank)
    unmet: list[str] = []
    if band.championship_only:
        if conditions.championship is None:
            unmet.append("9d is achieved only at the World Championship AT or the Team World Championship")
    elif band.venue_referee_accepted:
        if not (conditions.eru_calendar or conditions.referee_accepted):
            unmet.append(f"{band.label} needs a tournament in the ERU calendar or accepted by an ERU referee")
    elif not (conditions.eru_calendar or conditions.international):
        unmet.append(f"{band.label} needs a tournament in the ERU calendar or an international competition")
    if band.rif_rules and not conditions.rif_rules:
        unmet.append(f"{band.label} needs RIF official rules")
    if band.minimum_minutes is not None:
        minutes = conditions.time_control_minutes
        enough_with_byo_yomi = (
            band.minimum_minutes_with_byo_yomi is not None
            and conditions.byo_yomi
            and minutes is not None
            and minutes >= band.minimum_minutes_with_byo_yomi
        )
        if minutes is None:
            unmet.append(f"{band.label} needs clocks with at least {band.minimum_minutes} minutes per player")
        elif minutes < band.minimum_minutes and not enough_with_byo_yomi:
            alternative = (
                f" (or {band.minimum_minutes_with_byo_yomi} minutes + byo-yomi)"
                if band.minimum_minutes_with_byo_yomi is not None
                else ""
            )
            unmet.append(
                f"{band.label} needs at least {band.minimum_minutes} minutes per player{alternative}, "
                f"the tournament had {minutes}" + (" with byo-yomi" if conditions.byo_yomi else "")
            )
    if band.recorded and not conditions.recorded:
        unmet.append(f"{band.label} needs the games recorded")
    if games_counted < band.minimum_games:
        unmet.append(
            f"{band.label} needs at least {band.minimum_games} games against ranked opponents, there were {games_counted}"
        )
    return unmet


# --------------------------------------------------------------------------------------------------
# One player's evaluation (ERU 4.4, 4.5, 4.6, 4.7)
# --------------------------------------------------------------------------------------------------


NormName = Literal["keep", "up1", "up2"]


class Decision(StrEnum):
    PROMOTED = "promoted"
    KEPT = "kept"
    DEMOTED = "demoted"
    NOT_EVALUATED = "not-evaluated"


@dataclass(frozen=True)
class OpponentGame:
    """One game seen from the player: the opponent's rank at the tournament's start in his own
    federation's scale (ERU 4.1, INTERPRETATIONS 4.6), ``None`` when he has none, and the score."""

    opponent_rank: int | None
    score: Fraction


@dataclass(frozen=True)
class Norms:
    """Norms in points; ``None`` where the norm cannot apply at this rank (ERU 4.4)."""

    keep: Fraction
    up1: Fraction | None
    up2: Fraction | None
    up1_norm: Norm | None  # +1 kyu below 1 kyu, +1 dan from 1 kyu on


@dataclass(frozen=True)
class NormEvaluation:
    rank: int
    games_counted: int
    score: Fraction
    norms: Norms
    new_rank: int
    decision: Decision
    norm_reached: NormName | None  # the norm that decided, None when none did
    reason: str
    games: tuple[GameNormPercentages, ...] = ()  # in the order given


@dataclass(frozen=True)
class GameNormPercentages:
    """What one game adds to each norm (ERU 4.3): the percentage for the opponent's rank relative to
    the player's; None for a norm the player has none of, and for every norm when the opponent is
    unranked (the game is left out, ERU 4.6 / INTERPRETATIONS 4.6)."""

    opponent_rank: int | None
    score: Fraction
    counted: bool
    keep: int | None
    up1: int | None
    up2: int | None


def evaluate_norms(rank: int, games: Sequence[OpponentGame], conditions: Conditions) -> NormEvaluation:
    """One player's norms, new rank and reason in one tournament.

    The highest rank whose norm and conditions are both met is awarded (INTERPRETATIONS 4.5); below
    the keep norm he drops one rank, not below 15k, and only in a tournament meeting the conditions of
    his current rank (ERU 4.1, INTERPRETATIONS 4.7)."""
    _check_rank(rank, "rank")
    for game in games:
        if game.score not in SCORES:
            raise ValueError(f"a score is 1, 1/2 or 0, not {game.score}")
    # ERU 4.6 / INTERPRETATIONS 4.6: games against unranked opponents neither enter the norm nor count.
    ranked = [game for game in games if game.opponent_rank is not None]
    opponent_ranks = [game.opponent_rank for game in ranked if game.opponent_rank is not None]
    score = sum((game.score for game in ranked), Fraction(0))
    norms = _norms(rank, opponent_ranks)
    counted = len(ranked)
    current = f"{rank_name(rank)}: {_points(score)} points from {counted} games against ranked opponents"

    percentages = tuple(_game_percentages(rank, norms, game) for game in games)

    def result(new_rank: int, decision: Decision, reached: NormName | None, reason: str) -> NormEvaluation:
        return NormEvaluation(rank, counted, score, norms, new_rank, decision, reached, f"{current}. {reason}", percentages)

    if counted < MINIMUM_COUNTED_GAMES:
        return result(
            rank,
            Decision.NOT_EVALUATED,
            None,
            f"Not evaluated: at least {MINIMUM_COUNTED_GAMES} games against ranked opponents are needed (ERU 4.5); the rank stays {rank_name(rank)}.",
        )
    missed: list[str] = []
    if rank + 1 == ONE_KYU and score >= norm_points(Norm.UP_TWO_KYU, rank, opponent_ranks):
        missed.append("the +2 kyu norm is reached, but from 2k the promotion stops at 1k (ERU 4.4)")
    promotions: tuple[tuple[NormName, Fraction | None, int], ...] = (("up2", norms.up2, 2), ("up1", norms.up1, 1))
    for name, norm, steps in promotions:
        if norm is None:
            continue
        target = rank + steps
        label = _norm_label(norms, name)
        if score < norm:
            continue
        unmet = conditions_unmet(target, conditions, counted)
        if not unmet:
            return result(
                target,
                Decision.PROMOTED,
                name,
                f"Promoted to {rank_name(target)}: the {label} norm {_points(norm)} is reached (ERU 4.3) and the tournament meets the conditions of {rank_name(target)} (ERU 4.5).{_also(missed)}",
            )
        missed.append(
            f"the {label} norm {_points(norm)} for {rank_name(target)} is reached, but " + "; ".join(unmet) + " (ERU 4.5)"
        )
    if rank == HIGHEST_RANK:
        missed.append("9d is the highest rank")
    if score >= norms.keep:
        return result(
            rank,
            Decision.KEPT,
            "keep",
            f"Keeps {rank_name(rank)}: the keep norm {_points(norms.keep)} is reached{_next_norm(norms, score)} (ERU 4.3).{_also(missed)}",
        )
    below = f"the keep norm {_points(norms.keep)} is not reached"
    if rank == LOWEST_RANK:
        return result(rank, Decision.KEPT, None, f"Keeps 15k: {below}, but 15k is the lowest rank (ERU 4.1).")
    unmet_current = conditions_unmet(rank, conditions, counted)
    if unmet_current:
        return result(
            rank,
            Decision.KEPT,
            None,
            f"Keeps {rank_name(rank)}: {below}, but only a tournament meeting the conditions of the current rank can demote and "
            + "; ".join(unmet_current)
            + " (ERU 4.5, INTERPRETATIONS 4.7).",
        )
    return result(
        rank - 1,
        Decision.DEMOTED,
        None,
        f"Demoted to {rank_name(rank - 1)}: {below} (ERU 4.3); a demotion is one rank at most (ERU 4.1).",
    )


def _game_percentages(rank: int, norms: Norms, game: OpponentGame) -> GameNormPercentages:
    if game.opponent_rank is None:
        return GameNormPercentages(None, game.score, False, None, None, None)
    opponent = game.opponent_rank
    return GameNormPercentages(
        opponent,
        game.score,
        True,
        game_percentage(Norm.KEEP, rank, opponent),
        None if norms.up1_norm is None else game_percentage(norms.up1_norm, rank, opponent),
        None if norms.up2 is None else game_percentage(Norm.UP_TWO_KYU, rank, opponent),
    )


def _norms(rank: int, opponent_ranks: Sequence[int]) -> Norms:
    # ERU 4.4 / INTERPRETATIONS 4.4: +1 and +2 kyu only while the target is at most 1 kyu; from 1 kyu
    # on one rank at a time with the 1-dan norm (1k → 1d uses 75 %); nothing above 9d.
    keep = norm_points(Norm.KEEP, rank, opponent_ranks)
    up2 = norm_points(Norm.UP_TWO_KYU, rank, opponent_ranks) if rank + 2 <= ONE_KYU else None
    if rank + 1 <= ONE_KYU:
        return Norms(keep, norm_points(Norm.UP_ONE_KYU, rank, opponent_ranks), up2, Norm.UP_ONE_KYU)
    if rank < HIGHEST_RANK:
        return Norms(keep, norm_points(Norm.UP_ONE_DAN, rank, opponent_ranks), None, Norm.UP_ONE_DAN)
    return Norms(keep, None, None, None)


def _next_norm(norms: Norms, score: Fraction) -> str:
    if norms.up1 is not None and score < norms.up1:
        return f", the {_norm_label(norms, 'up1')} norm {_points(norms.up1)} is not"
    return ""


def _norm_label(norms: Norms, name: NormName) -> str:
    if name == "up2":
        return "+2 kyu"
    return "+1 dan" if norms.up1_norm is Norm.UP_ONE_DAN else "+1 kyu"


def _also(missed: list[str]) -> str:
    return (" Not higher: " + "; ".join(missed) + ".") if missed else ""


# --------------------------------------------------------------------------------------------------
# The Estonian rating (ERU 4.9, 4.10)
# --------------------------------------------------------------------------------------------------


def rating_table_row(difference: int) -> tuple[int, int]:
    """(draw change, win change) of the lower-rated player at this rating difference (ERU 4.9)."""
    if difference < 0:
        raise ValueError("a rating difference is not negative")
    _, draw, win = RATING_TABLE[bisect_right([row[0] for row in RATING_TABLE], difference) - 1]
    return draw, win


def table_expectancy(rating: int, opponent_rating: int) -> Fraction:
    """The player's expected score against the opponent that the table implies (ERU 4.9,
    INTERPRETATIONS 4.9): its changes are 32 × (score − expectation), so the lower-rated player's draw
    value d at the difference is 32 × (1/2 − We), his We = 1/2 − d/32 (0 from a difference of 725 on),
    and the higher-rated player's is 1 − We. Equal ratings expect 1/2 each."""
    draw, _ = rating_table_row(abs(rating - opponent_rating))
    lower = DRAW - Fraction(draw, WIN_CHANGE_TOTAL)
    return lower if rating <= opponent_rating else WIN - lower


def game_rating_change(rating: int, opponent_rating: int, score: Fraction) -> int:
    """One game's change of the player's Estonian rating from the table (ERU 4.9, INTERPRETATIONS
    4.9): the lower-rated player gains the table's value for a draw or a win; a higher-rated winner
    gains 32 minus the win value; the loser loses what the winner gains (a draw likewise)."""
    if score not in SCORES:
        raise ValueError(f"a score is 1, 1/2 or 0, not {score}")
    draw, win = rating_table_row(abs(rating - opponent_rating))
    # The lower-rated player's gain for each of his scores; the higher-rated one gains the opposite.
    lower_gain = {WIN: win, DRAW: draw, LOSS: -(WIN_CHANGE_TOTAL - win)}
    if rating <= opponent_rating:
        # Equal ratings fall in the row 0–10, which is symmetric: draw 0, win 16 either way.
        return lower_gain[score]
    return -lower_gain[WIN - score]


def first_estonian_rating(wins_over_above_1600: int, bonus: bool) -> int:
    """A new player's first Estonian rating after his first tournament: 1500, plus 50 per win over a
    player rated above 1600 when the referee grants it (ERU 4.10, INTERPRETATIONS 4.10)."""
    return FIRST_RATING + (BONUS_PER_WIN * wins_over_above_1600 if bonus else 0)


def rating_conditions_unmet(conditions: Conditions) -> list[str]:
    """Why a tournament does not count for the Estonian rating (ERU 4.9); empty when it counts."""
    unmet = []
    if not conditions.face_to_face:
        unmet.append("only real-life tournaments count for the Estonian rating")
    if not conditions.eru_calendar:
        unmet.append("the tournament must be in the ERU calendar")
    if conditions.time_control_minutes is None or conditions.time_control_minutes < RATING_MINIMUM_MINUTES:
        unmet.append(f"the time limit must be at least {RATING_MINIMUM_MINUTES} minutes per player")
    return unmet


# --------------------------------------------------------------------------------------------------
# A whole tournament
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Player:
    """A player's state before the tournament.

    ``rank`` is his rank at the tournament's start (``None``: unranked; he is then evaluated from
    ``first_rank``, INTERPRETATIONS 4.8, while his opponents count him as unranked, 4.6).
    ``rating`` is his Estonian rating; without one, ``rif_rating`` is adopted as its base (ERU 4.10);
    without either he is new: he gets his first rating after this tournament, with the referee's
    ``rating_bonus`` if granted, and his games do not count for his opponents (INTERPRETATIONS 4.10).
    """

    id: str
    rank: int | None
    rating: int | None = None
    rif_rating: int | None = None
    first_rank: int = LOWEST_RANK
    rating_bonus: bool = False

    @property
    def start_rating(self) -> int | None:
        return self.rating if self.rating is not None else self.rif_rating


@dataclass(frozen=True)
class Game:
    """One game; ``score_black`` is 1, 1/2 or 0. ``played`` false: not played, never counted (ERU 4.1
    "at least 1 move", 4.9 "both players have made at least 1 move")."""

    black: str
    white: str
    score_black: Fraction
    played: bool = True


@dataclass(frozen=True)
class RatingGame:
    """One game of the player for his Estonian rating (ERU 4.9): the table's change at the start
    ratings, or None when the game does not count (the tournament does not move ratings, the player
    or his opponent is new, INTERPRETATIONS 4.10)."""

    opponent: str
    score: Fraction
    opponent_rating: int | None  # the opponent's start rating
    difference: int | None  # |R − R opponent|: the table's row
    change: int | None


@dataclass(frozen=True)
class EstonianRatingResult:
    rating_before: int | None  # the start rating used for every game (ERU 4.9)
    rating_after: int | None
    change: int | None
    games_counted: int
    reason: str
    games: tuple[RatingGame, ...] = ()  # his played games, in the order given


@dataclass(frozen=True)
class PlayerResult:
    id: str
    rank_before: int | None
    norms: NormEvaluation
    rating: EstonianRatingResult

    @property
    def rank_after(self) -> int:
        return self.norms.new_rank


def rate_tournament(players: Sequence[Player], games: Sequence[Game], conditions: Conditions) -> list[PlayerResult]:
    """Every player's norms, new rank and Estonian rating after one tournament, in the players' order."""
    by_id = {player.id: player for player in players}
    if len(by_id) != len(players):
        raise ValueError("a player is given more than once")
    for player in players:
        for name, value in (("rank", player.rank), ("first_rank", player.first_rank)):
            if value is not None:
                _check_rank(value, f"{player.id}'s {name}")
    for game in games:
        if game.black not in by_id or game.white not in by_id:
            raise ValueError(f"game {game.black}-{game.white} has a player who is not in the tournament")
        if game.black == game.white:
            raise ValueError(f"{game.black} cannot play against himself")
        if game.score_black not in SCORES:
            raise ValueError(f"a score is 1, 1/2 or 0, not {game.score_black}")
    played = [game for game in games if game.played]
    rating_unmet = rating_conditions_unmet(conditions)
    results = []
    for player in players:
        seen = [_seen_by(player.id, game) for game in played if player.id in (game.black, game.white)]
        evaluation = evaluate_norms(
            player.rank if player.rank is not None else player.first_rank,
            [OpponentGame(by_id[opponent].rank, score) for opponent, score in seen],
            conditions,
        )
        if player.rank is None:
            evaluation = _as_newcomer(evaluation)
        results.append(PlayerResult(player.id, player.rank, evaluation, _estonian_rating(player, seen, by_id, rating_unmet)))
    return results


def _seen_by(player_id: str, game: Game) -> tuple[str, Fraction]:
    if game.black == player_id:
        return game.white, game.score_black
    return game.black, WIN - game.score_black


def _as_newcomer(evaluation: NormEvaluation) -> NormEvaluation:
    note = f"Unranked before: evaluated from the first rank {rank_name(evaluation.rank)} given for him (INTERPRETATIONS 4.8). "
    return replace(evaluation, reason=note + evaluation.reason)


def _estonian_rating(
    player: Player, seen: Sequence[tuple[str, Fraction]], by_id: dict[str, Player], rating_unmet: list[str]
) -> EstonianRatingResult:
    start = player.start_rating
    counts = not rating_unmet and start is not None
    per_game = tuple(
        RatingGame(
            opponent,
            score,
            opponent_rating := by_id[opponent].start_rating,
            None if start is None or opponent_rating is None else abs(start - opponent_rating),
            game_rating_change(start, opponent_rating, score)
            if counts and start is not None and opponent_rating is not None
            else None,
        )
        for opponent, score in seen
    )
    if rating_unmet:
        return EstonianRatingResult(
            player.rating,
            player.rating,
            0 if player.rating is not None else None,
            0,
            "Not rated: " + "; ".join(rating_unmet) + " (ERU 4.9).",
            per_game,
        )
    if start is None:
        # ERU 4.10: the first rating is given after the first tournament, normally 1500.
        wins_over = sum(
            1
            for opponent, score in seen
            if score == WIN and (rating := by_id[opponent].start_rating) is not None and rating > BONUS_OPPONENT_ABOVE
        )
        first = first_estonian_rating(wins_over, player.rating_bonus)
        bonus = (
            f" + {BONUS_PER_WIN} × {wins_over} wins over players rated above {BONUS_OPPONENT_ABOVE} granted by the referee"
            if player.rating_bonus
            else ""
        )
        return EstonianRatingResult(
            None,
            first,
            None,
            len(seen),
            f"First Estonian rating {FIRST_RATING}{bonus} (ERU 4.10); his games do not count for his opponents.",
            per_game,
        )
    # INTERPRETATIONS 4.10: a new player's first-tournament games do not count for his opponents.
    counted = [game for game in per_game if game.change is not None]
    change = sum(game.change for game in counted if game.change is not None)
    source = "" if player.rating is not None else " (his RIF rating adopted as the base, ERU 4.10)"
    left_out = len(seen) - len(counted)
    not_counted = f"; {left_out} game(s) against new players without a rating do not count" if left_out else ""
    return EstonianRatingResult(
        start,
        start + change,
        change,
        len(counted),
        f"{start}{source} {change:+d} from {len(counted)} games by the table, each at the start rating (ERU 4.9){not_counted}.",
        per_game,
    )


# --------------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------------


def _band(rank: int) -> _RankBand:
    _check_rank(rank, "rank")
    return next(band for band in _BANDS if band.lowest <= rank <= band.highest)


def _check_rank(rank: int, name: str) -> None:
    if not LOWEST_RANK <= rank <= HIGHEST_RANK:
        raise ValueError(f"{name} {rank} is not a rank index: 1 (15k) … 24 (9d)")


def _points(value: Fraction) -> str:
    return f"{float(value):.1f}"
