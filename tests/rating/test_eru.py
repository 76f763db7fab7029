"""The Estonian kyu/dan norms and rating (text 003, INTERPRETATIONS 4). Every expected value is worked
by hand from the text; the comments show the arithmetic."""

from fractions import Fraction

import pytest

from app.rating import eru
from app.rating.eru import Championship, Conditions, Decision, Game, Norm, OpponentGame, Player

HALF = Fraction(1, 2)
# A tournament that meets every condition up to 8 dan (ERU 4.5).
FULL = Conditions(eru_calendar=True, rif_rules=True, time_control_minutes=120, recorded=True)


def r(text: str) -> int:
    return eru.parse_rank(text)


def same_rank_games(rank: str, scores: list[Fraction]) -> list[OpponentGame]:
    return [OpponentGame(r(rank), score) for score in scores]


def scored(points: Fraction, games: int) -> list[Fraction]:
    """`games` scores adding up to `points` (wins, then one draw, then losses)."""
    wins, half = divmod(points, 1)
    result = [Fraction(1)] * int(wins) + ([HALF] if half else [])
    return result + [Fraction(0)] * (games - len(result))


# --- ranks (ERU 4.1, INTERPRETATIONS 4.1) -----------------------------------------------------------


@pytest.mark.parametrize(("text", "index"), [("15k", 1), ("10k", 6), ("9k", 7), ("1k", 15), ("1d", 16), ("5d", 20), ("9d", 24)])
def test_ranks_are_indexed_without_zero(text, index):
    assert eru.parse_rank(text) == index
    assert eru.rank_name(index) == text


@pytest.mark.parametrize("text", ["0k", "16k", "0d", "10d", "9x", "k", "", "-1k"])
def test_ranks_that_do_not_exist_are_refused(text):
    with pytest.raises(ValueError):
        eru.parse_rank(text)


# --- the text's three examples (ERU 4.3 example, 4.2 rounding) ----------------------------------------


def test_example_ten_games_at_the_same_rank():
    opponents = [r("9k")] * 10
    assert eru.norm_points(Norm.UP_ONE_KYU, r("9k"), opponents) == Fraction(13, 2)  # 10 × 65 % = 6.5 exactly
    assert eru.norm_points(Norm.KEEP, r("9k"), opponents) == Fraction(3)  # 10 × 30 % = 3.0


def test_example_seven_games():
    opponents = [r("9k")] * 7
    assert eru.norm_points(Norm.UP_ONE_KYU, r("9k"), opponents) == Fraction(5)  # 4.55 → 5.0
    assert eru.norm_points(Norm.UP_TWO_KYU, r("9k"), opponents) == Fraction(6)  # 5.6 → 6.0


def test_example_eight_games():
    opponents = [r("9k")] * 8
    assert eru.norm_points(Norm.UP_ONE_KYU, r("9k"), opponents) == Fraction(11, 2)  # 5.2 → 5.5
    assert eru.norm_points(Norm.UP_TWO_KYU, r("9k"), opponents) == Fraction(13, 2)  # 6.4 → 6.5


# --- every percentage row (ERU 4.3, INTERPRETATIONS 4.3) ---------------------------------------------

# stronger_by: +1 kyu, +2 kyu, +1 dan, keep. The text prints the first two columns; the last two go
# ±15 per rank from 75 and 30, capped at three ranks.
PERCENTAGES = {
    -4: (110, 125, 120, 75),
    -3: (110, 125, 120, 75),
    -2: (95, 110, 105, 60),
    -1: (80, 95, 90, 45),
    0: (65, 80, 75, 30),
    1: (50, 65, 60, 15),
    2: (35, 50, 45, 0),
    3: (20, 35, 30, -15),
    5: (20, 35, 30, -15),
}


@pytest.mark.parametrize("stronger_by", sorted(PERCENTAGES))
def test_every_percentage_row(stronger_by):
    rank = 12  # 4k: five ranks either way stay inside 15k … 9d
    expected = PERCENTAGES[stronger_by]
    norms = (Norm.UP_ONE_KYU, Norm.UP_TWO_KYU, Norm.UP_ONE_DAN, Norm.KEEP)
    assert tuple(eru.game_percentage(norm, rank, rank + stronger_by) for norm in norms) == expected


def test_norm_is_the_sum_of_mixed_percentages():
    # +1 kyu for a 9k against 9k, 8k, 7k, 6k, 10k, 11k, 12k: 65+50+35+20+80+95+110 = 455 → 4.55 → 5.0
    opponents = [r(x) for x in ("9k", "8k", "7k", "6k", "10k", "11k", "12k")]
    assert eru.norm_points(Norm.UP_ONE_KYU, r("9k"), opponents) == Fraction(5)
    # +2 kyu: 80+65+50+35+95+110+125 = 560 → 5.6 → 6.0
    assert eru.norm_points(Norm.UP_TWO_KYU, r("9k"), opponents) == Fraction(6)
    # keep: 30+15+0−15+45+60+75 = 210 → 2.1 → 2.5
    assert eru.norm_points(Norm.KEEP, r("9k"), opponents) == Fraction(5, 2)


# --- rounding up at every half-point edge (ERU 4.2) ---------------------------------------------------


@pytest.mark.parametrize(
    ("opponents", "norm", "expected"),
    [
        (["5k", "7k"], Norm.UP_ONE_KYU, Fraction(1)),  # 35 + 65 = 100 → exactly 1.0
        (["7k", "7k"], Norm.UP_ONE_KYU, Fraction(3, 2)),  # 130 → 1.3 → 1.5
        (["6k", "6k"], Norm.UP_ONE_KYU, Fraction(1)),  # 50 + 50 = 100 → 1.0
        (["6k", "7k"], Norm.UP_ONE_KYU, Fraction(3, 2)),  # 115 → 1.15 → 1.5
        (["8k", "8k"], Norm.UP_ONE_KYU, Fraction(2)),  # 80 + 80 = 160 → 1.6 → 2.0
        (["9k", "9k"], Norm.UP_ONE_KYU, Fraction(2)),  # 95 + 95 = 190 → 1.9 → 2.0
        (["10k", "8k"], Norm.UP_ONE_KYU, Fraction(2)),  # 110 + 80 = 190 → 2.0
        (["10k", "10k"], Norm.UP_ONE_KYU, Fraction(5, 2)),  # 110 + 110 = 220 → 2.2 → 2.5
        (["7k"] * 5, Norm.KEEP, Fraction(3, 2)),  # 150 → exactly 1.5
        (["7k"] * 4 + ["8k"], Norm.KEEP, Fraction(2)),  # 120 + 45 = 165 → 1.65 → 2.0
        (["7k"] * 4 + ["6k"], Norm.KEEP, Fraction(3, 2)),  # 120 + 15 = 135 → 1.35 → 1.5
        (["7k"] * 4 + ["5k"], Norm.KEEP, Fraction(3, 2)),  # 120 + 0 = 120 → 1.2 → 1.5
        (["7k"] * 2 + ["4k"] * 2, Norm.KEEP, Fraction(1, 2)),  # 60 − 30 = 30 → 0.3 → 0.5
        (["7k"] + ["4k"] * 2, Norm.KEEP, Fraction(0)),  # 30 − 30 = 0 → 0.0
    ],
)
def test_rounding_up_to_the_half_point(opponents, norm, expected):
    assert eru.norm_points(norm, r("7k"), [r(x) for x in opponents]) == expected


def test_a_keep_norm_below_zero_is_any_score():
    # keep against seven opponents three ranks stronger: 7 × (−15) = −105 → no points needed.
    assert eru.norm_points(Norm.KEEP, r("9k"), [r("6k")] * 7) == Fraction(0)


# --- promotion steps (ERU 4.1, 4.4) -------------------------------------------------------------------


def test_nine_kyu_promotions_and_keep():
    def decide(points: Fraction) -> eru.NormEvaluation:
        return eru.evaluate_norms(r("9k"), same_rank_games("9k", scored(points, 10)), FULL)

    assert decide(Fraction(13, 2)).new_rank == r("8k")  # 6.5 ≥ 6.5
    assert decide(Fraction(13, 2)).decision is Decision.PROMOTED
    assert decide(Fraction(6)).new_rank == r("9k")  # 6.0 < 6.5, ≥ 3.0
    assert decide(Fraction(6)).decision is Decision.KEPT
    assert decide(Fraction(8)).new_rank == r("7k")  # up2: 10 × 80 % = 8.0
    assert decide(Fraction(15, 2)).new_rank == r("8k")  # 7.5 < 8.0
    assert decide(Fraction(3)).new_rank == r("9k")  # exactly the keep norm
    assert decide(Fraction(5, 2)).new_rank == r("10k")  # 2.5 < 3.0: one rank down
    assert decide(Fraction(0)).new_rank == r("10k")  # never more than one rank down
    evaluation = decide(Fraction(6))
    assert (evaluation.norms.keep, evaluation.norms.up1, evaluation.norms.up2) == (3, Fraction(13, 2), 8)
    assert evaluation.score == 6 and evaluation.games_counted == 10


def test_one_kyu_to_one_dan_uses_75_percent():
    # 1k against seven 1k: up1 = 7 × 75 % = 5.25 → 5.5; no up2; keep 7 × 30 % = 2.1 → 2.5.
    evaluation = eru.evaluate_norms(r("1k"), same_rank_games("1k", scored(Fraction(11, 2), 7)), FULL)
    assert evaluation.norms.up1 == Fraction(11, 2) and evaluation.norms.up2 is None
    assert evaluation.norms.up1_norm is Norm.UP_ONE_DAN
    assert evaluation.new_rank == r("1d")
    five = eru.evaluate_norms(r("1k"), same_rank_games("1k", scored(Fraction(5), 7)), FULL)
    assert five.new_rank == r("1k")  # 5.0 would have been the 65 % kyu norm (4.55 → 5.0), not enough


def test_double_jump_stops_at_one_kyu():
    # 2k scoring 7/7: +2 would be 1d; from 2k only +1 applies (65 %: 4.55 → 5.0).
    evaluation = eru.evaluate_norms(r("2k"), same_rank_games("2k", scored(Fraction(7), 7)), FULL)
    assert evaluation.norms.up2 is None and evaluation.norms.up1 == 5
    assert evaluation.new_rank == r("1k") and "stops at 1k" in evaluation.reason
    # 3k may still jump two: to 1k (10 × 80 % = 8.0).
    three = eru.evaluate_norms(r("3k"), same_rank_games("3k", scored(Fraction(8), 10)), FULL)
    assert three.new_rank == r("1k") and three.norm_reached == "up2"


def test_dan_players_go_one_rank_at_a_time():
    evaluation = eru.evaluate_norms(r("3d"), same_rank_games("3d", scored(Fraction(10), 10)), FULL)
    assert evaluation.norms.up2 is None and evaluation.norms.up1 == Fraction(15, 2)  # 750 → 7.5
    assert evaluation.new_rank == r("4d")


def test_nine_dan_has_no_promotion_norm():
    evaluation = eru.evaluate_norms(r("9d"), same_rank_games("9d", scored(Fraction(9), 9)), FULL)
    assert evaluation.norms.up1 is None and evaluation.norms.up2 is None
    assert evaluation.new_rank == r("9d") and evaluation.decision is Decision.KEPT


# --- conditions per target rank (ERU 4.5) -------------------------------------------------------------


def test_ten_to_fifteen_kyu_needs_calendar_or_a_referee():
    assert eru.conditions_unmet(r("10k"), Conditions(referee_accepted=True), 7) == []
    assert eru.conditions_unmet(r("15k"), Conditions(eru_calendar=True), 7) == []
    assert eru.conditions_unmet(r("10k"), Conditions(international=True), 7) != []
    assert eru.conditions_unmet(r("10k"), Conditions(), 7) != []
    assert eru.conditions_unmet(r("10k"), Conditions(referee_accepted=True), 6) != []  # 7 games


def test_nine_to_four_kyu():
    good = Conditions(international=True, rif_rules=True, time_control_minutes=15)
    assert eru.conditions_unmet(r("9k"), good, 7) == [] and eru.conditions_unmet(r("4k"), good, 7) == []
    assert eru.conditions_unmet(r("9k"), Conditions(referee_accepted=True, time_control_minutes=15), 7) != []
    assert eru.conditions_unmet(r("9k"), Conditions(eru_calendar=True, time_control_minutes=14), 7) != []
    assert eru.conditions_unmet(r("9k"), Conditions(eru_calendar=True, time_control_minutes=None), 7) != []  # no clocks
    assert eru.conditions_unmet(r("9k"), Conditions(eru_calendar=True, rif_rules=False, time_control_minutes=60), 7) != []
    assert eru.conditions_unmet(r("4k"), good, 6) != []


def test_three_to_one_kyu():
    good = Conditions(eru_calendar=True, time_control_minutes=30, recorded=True)
    assert eru.conditions_unmet(r("3k"), good, 7) == [] and eru.conditions_unmet(r("1k"), good, 7) == []
    assert eru.conditions_unmet(r("3k"), Conditions(eru_calendar=True, time_control_minutes=29, recorded=True), 7) != []
    assert eru.conditions_unmet(r("1k"), Conditions(eru_calendar=True, time_control_minutes=30, recorded=False), 7) != []
    # the same tournament still qualifies for 4k (no recording needed there)
    assert eru.conditions_unmet(r("4k"), Conditions(eru_calendar=True, time_control_minutes=30), 7) == []


def test_one_to_four_dan():
    assert eru.conditions_unmet(r("1d"), Conditions(eru_calendar=True, time_control_minutes=60, recorded=True), 7) == []
    assert eru.conditions_unmet(r("4d"), Conditions(international=True, time_control_minutes=60, recorded=True), 7) == []
    assert eru.conditions_unmet(r("1d"), Conditions(eru_calendar=True, time_control_minutes=59, recorded=True), 7) != []


def test_five_to_six_dan_with_or_without_byo_yomi():
    def unmet(minutes: int, byo_yomi: bool) -> list[str]:
        return eru.conditions_unmet(
            r("5d"), Conditions(eru_calendar=True, time_control_minutes=minutes, byo_yomi=byo_yomi, recorded=True), 7
        )

    assert unmet(90, False) == [] and unmet(89, False) != []
    assert unmet(60, True) == [] and unmet(59, True) != [] and unmet(60, False) != []
    assert eru.conditions_unmet(r("6d"), Conditions(eru_calendar=True, time_control_minutes=90, recorded=True), 7) == []
    # byo-yomi does not help below 5 dan's band or above it
    assert (
        eru.conditions_unmet(r("7d"), Conditions(eru_calendar=True, time_control_minutes=90, byo_yomi=True, recorded=True), 9)
        != []
    )


def test_seven_to_eight_dan_needs_120_minutes_and_nine_games():
    good = Conditions(eru_calendar=True, time_control_minutes=120, recorded=True)
    assert eru.conditions_unmet(r("7d"), good, 9) == [] and eru.conditions_unmet(r("8d"), good, 9) == []
    assert eru.conditions_unmet(r("8d"), good, 8) != []
    assert eru.conditions_unmet(r("7d"), Conditions(eru_calendar=True, time_control_minutes=119, recorded=True), 9) != []
    assert eru.conditions_unmet(r("6d"), good, 7) == []  # 7 games are enough below 7 dan


def test_nine_dan_only_at_the_listed_championships():
    assert eru.conditions_unmet(r("9d"), FULL, 13) != []
    for championship in Championship:
        assert eru.conditions_unmet(r("9d"), Conditions(international=True, championship=championship), 13) == []


def test_the_highest_rank_whose_norm_and_conditions_are_met():
    # 11k scores 8/10 in a referee-accepted club tournament without clocks: up2 (9k, 8.0) needs the
    # ERU calendar and clocks; up1 (10k, 6.5) only the referee's acceptance.
    club = Conditions(referee_accepted=True)
    evaluation = eru.evaluate_norms(r("11k"), same_rank_games("11k", scored(Fraction(8), 10)), club)
    assert evaluation.new_rank == r("10k") and evaluation.norm_reached == "up1"
    assert "9k" in evaluation.reason and "ERU calendar" in evaluation.reason
    # 4k with 20-minute games: 3k and 2k need 30 minutes and recorded games: he keeps 4k.
    blitz = Conditions(eru_calendar=True, time_control_minutes=20)
    kept = eru.evaluate_norms(r("4k"), same_rank_games("4k", scored(Fraction(10), 10)), blitz)
    assert kept.new_rank == r("4k") and kept.decision is Decision.KEPT
    assert "30 minutes" in kept.reason


def test_seven_dan_needs_nine_games_to_rise():
    eight_games = eru.evaluate_norms(r("7d"), same_rank_games("7d", scored(Fraction(8), 8)), FULL)
    assert eight_games.new_rank == r("7d")
    nine_games = eru.evaluate_norms(r("7d"), same_rank_games("7d", scored(Fraction(7), 9)), FULL)
    assert nine_games.norms.up1 == 7 and nine_games.new_rank == r("8d")  # 9 × 75 % = 6.75 → 7.0


def test_eight_dan_to_nine_dan_only_at_a_championship():
    games = same_rank_games("8d", scored(Fraction(9), 9))
    assert eru.evaluate_norms(r("8d"), games, FULL).new_rank == r("8d")
    world = Conditions(
        international=True, time_control_minutes=120, recorded=True, championship=Championship.WORLD_CHAMPIONSHIP_AT
    )
    assert eru.evaluate_norms(r("8d"), games, world).new_rank == r("9d")


# --- minimum games, unranked opponents (ERU 4.5, 4.6, INTERPRETATIONS 4.6, 4.7) ----------------------


def test_fewer_than_seven_ranked_games_are_not_evaluated():
    six = eru.evaluate_norms(r("9k"), same_rank_games("9k", scored(Fraction(6), 6)), FULL)
    assert six.decision is Decision.NOT_EVALUATED and six.new_rank == r("9k")
    with_unranked = same_rank_games("9k", scored(Fraction(6), 6)) + [OpponentGame(None, Fraction(1))] * 3
    evaluation = eru.evaluate_norms(r("9k"), with_unranked, FULL)
    assert evaluation.games_counted == 6 and evaluation.score == 6
    assert evaluation.decision is Decision.NOT_EVALUATED


def test_unranked_opponents_are_out_of_the_norm():
    games = same_rank_games("9k", scored(Fraction(5), 7)) + [OpponentGame(None, Fraction(1))]
    evaluation = eru.evaluate_norms(r("9k"), games, FULL)
    assert evaluation.games_counted == 7 and evaluation.score == 5
    assert evaluation.norms.up1 == 5  # 7 × 65 % = 4.55 → 5.0, the unranked game adds nothing
    assert evaluation.new_rank == r("8k")


# --- demotion (ERU 4.1, INTERPRETATIONS 4.7) ---------------------------------------------------------


def test_never_below_fifteen_kyu():
    evaluation = eru.evaluate_norms(r("15k"), same_rank_games("15k", scored(Fraction(0), 7)), FULL)
    assert evaluation.new_rank == r("15k") and evaluation.decision is Decision.KEPT


def test_demotion_only_in_a_tournament_meeting_the_current_ranks_conditions():
    games = same_rank_games("1d", scored(Fraction(1), 7))  # keep: 7 × 30 % = 2.1 → 2.5
    assert eru.evaluate_norms(r("1d"), games, FULL).new_rank == r("1k")
    rapid = Conditions(eru_calendar=True, time_control_minutes=30, recorded=True)  # 1d needs 60 minutes
    kept = eru.evaluate_norms(r("1d"), games, rapid)
    assert kept.new_rank == r("1d") and "60 minutes" in kept.reason
    # 9d can be demoted only where 9d can be achieved
    nine = same_rank_games("9d", scored(Fraction(0), 9))
    assert eru.evaluate_norms(r("9d"), nine, FULL).new_rank == r("9d")
    world = Conditions(international=True, championship=Championship.TEAM_WORLD_CHAMPIONSHIP)
    assert eru.evaluate_norms(r("9d"), nine, world).new_rank == r("8d")


# --- the Estonian rating table (ERU 4.9) -------------------------------------------------------------

PRINTED_ROWS = [  # (from, to, draw, win) as printed in text 003
    (0, 10, 0, 16),
    (11, 32, 1, 17),
    (33, 54, 2, 18),
    (55, 76, 3, 19),
    (77, 100, 4, 20),
    (101, 124, 5, 21),
    (125, 149, 6, 22),
    (150, 176, 7, 23),
    (177, 204, 8, 24),
    (205, 236, 9, 25),
    (237, 272, 10, 26),
    (273, 313, 11, 27),
    (314, 363, 12, 28),
    (364, 427, 13, 29),
    (428, 521, 14, 30),
    (522, 724, 15, 31),
    (725, 3000, 16, 32),
]


@pytest.mark.parametrize(("low", "high", "draw", "win"), PRINTED_ROWS)
def test_rating_table_rows(low, high, draw, win):
    assert eru.rating_table_row(low) == (draw, win)
    assert eru.rating_table_row(high) == (draw, win)


def test_rating_changes_of_one_game():
    # 1500 against 1600: difference 100, row 77–100 (draw 4, win 20).
    assert eru.game_rating_change(1500, 1600, Fraction(1)) == 20
    assert eru.game_rating_change(1500, 1600, HALF) == 4
    assert eru.game_rating_change(1500, 1600, Fraction(0)) == -12  # the higher-rated winner gains 32 − 20
    assert eru.game_rating_change(1600, 1500, Fraction(1)) == 12
    assert eru.game_rating_change(1600, 1500, HALF) == -4
    assert eru.game_rating_change(1600, 1500, Fraction(0)) == -20
    assert eru.game_rating_change(1700, 1700, Fraction(1)) == 16 and eru.game_rating_change(1700, 1700, HALF) == 0
    # 600 points apart: the printed 522–724 row (draw 15, win 31) holds as printed.
    assert eru.game_rating_change(1400, 2000, Fraction(1)) == 31
    assert eru.game_rating_change(2000, 1400, Fraction(1)) == 1


def test_the_start_rating_is_held_for_the_whole_tournament():
    players = [Player("a", r("5k"), rating=1600), Player("b", r("5k"), rating=1500)]
    games = [Game("a", "b", Fraction(1)), Game("b", "a", Fraction(0)), Game("a", "b", HALF)]
    results = {p.id: p for p in eru.rate_tournament(players, games, FULL)}
    # a: +12 +12 −4 at the difference 100 every time (not 124, 148 after the first wins)
    assert results["a"].rating.change == 20 and results["a"].rating.rating_after == 1620
    assert results["b"].rating.change == -20 and results["b"].rating.rating_after == 1480


def test_rating_only_for_real_life_calendar_tournaments_of_15_minutes():
    players = [Player("a", None, rating=1600), Player("b", None, rating=1500)]
    games = [Game("a", "b", Fraction(1))]
    for conditions in (
        Conditions(eru_calendar=False, time_control_minutes=60),
        Conditions(eru_calendar=True, time_control_minutes=10),
        Conditions(eru_calendar=True, time_control_minutes=60, face_to_face=False),
    ):
        a = eru.rate_tournament(players, games, conditions)[0]
        assert a.rating.rating_after == 1600 and a.rating.change == 0


def test_games_not_played_do_not_count():
    players = [Player("a", None, rating=1600), Player("b", None, rating=1500)]
    a = eru.rate_tournament(players, [Game("a", "b", Fraction(1), played=False)], FULL)[0]
    assert a.rating.change == 0 and a.rating.games_counted == 0


# --- newcomers (ERU 4.10, INTERPRETATIONS 4.8, 4.10) --------------------------------------------------


def newcomer_tournament(bonus: bool) -> dict[str, eru.PlayerResult]:
    players = [
        Player("new", None, rating_bonus=bonus),
        Player("a", r("5k"), rating=1700),
        Player("b", r("5k"), rating=1650),
        Player("c", r("5k"), rating=1600),
        Player("rif", r("5k"), rif_rating=1800),
    ]
    games = [
        Game("new", "a", Fraction(1)),
        Game("b", "new", Fraction(0)),
        Game("new", "c", Fraction(1)),
        Game("rif", "new", Fraction(1)),
        Game("a", "c", Fraction(1)),
    ]
    return {p.id: p for p in eru.rate_tournament(players, games, FULL)}


def test_first_rating_is_1500_plus_the_referees_bonus():
    assert newcomer_tournament(bonus=False)["new"].rating.rating_after == 1500
    # wins over 1700 and 1650 (above 1600); over 1600 not: 1500 + 2 × 50
    with_bonus = newcomer_tournament(bonus=True)["new"].rating
    assert with_bonus.rating_after == 1600 and with_bonus.rating_before is None


def test_a_newcomers_games_do_not_count_for_his_opponents():
    results = newcomer_tournament(bonus=False)
    # a lost to the newcomer and beat c (1600, difference 100: the higher-rated winner gains 12)
    assert results["a"].rating.change == 12 and results["a"].rating.games_counted == 1
    assert results["b"].rating.change == 0 and results["b"].rating.rating_after == 1650


def test_a_rif_rating_is_adopted_as_the_base():
    rif = newcomer_tournament(bonus=False)["rif"].rating
    assert rif.rating_before == 1800 and rif.rating_after == 1800 and rif.games_counted == 0
    players = [Player("rif", None, rif_rating=1800), Player("a", None, rating=1700)]
    a = eru.rate_tournament(players, [Game("rif", "a", Fraction(0))], FULL)
    # 1800 lost to 1700: difference 100, the lower-rated winner gains 20; his RIF rating counts for a.
    assert a[0].rating.rating_after == 1780 and a[1].rating.change == 20


def test_an_unranked_newcomer_starts_from_his_first_rank_and_is_unranked_for_others():
    players = [Player("new", None, first_rank=r("12k"))] + [Player(f"p{i}", r("12k")) for i in range(7)]
    games = [Game("new", f"p{i}", Fraction(1)) for i in range(7)]
    games += [Game(f"p{i}", f"p{i + 1}", HALF) for i in range(6)]
    results = {p.id: p for p in eru.rate_tournament(players, games, Conditions(eru_calendar=True))}
    new = results["new"]
    # 7/7 against 12k from 12k: up2 = 7 × 80 % = 5.6 → 6.0 → 10k (10–15k needs the ERU calendar only)
    assert new.rank_before is None and new.norms.new_rank == r("10k")
    assert "first rank 12k" in new.norms.reason
    # p1 played the newcomer and two draws: only the draws are against ranked opponents
    assert results["p1"].norms.games_counted == 2


def test_rate_tournament_refuses_what_the_rules_cannot_rate():
    with pytest.raises(ValueError):
        eru.rate_tournament([Player("a", 1), Player("a", 1)], [], FULL)
    with pytest.raises(ValueError):
        eru.rate_tournament([Player("a", 1)], [Game("a", "x", Fraction(1))], FULL)
    with pytest.raises(ValueError):
        eru.evaluate_norms(0, [], FULL)
    with pytest.raises(ValueError):
        eru.evaluate_norms(1, [OpponentGame(1, Fraction(1, 3))], FULL)
