"""RIF Elo engine (app/rating/rif_elo.py) against the rule text 000 and docs/decisions.md section 1.

Expected numbers come from the text: its appendix table, and its formulas worked by hand here with
``We`` below (written independently of the engine).
"""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rating.rif_elo import (
    AppendixRow,
    Game,
    Player1995,
    Player1997,
    ProvisionalRecord,
    ReplayOptions,
    Result1995,
    Result1997,
    Seed,
    Status1995,
    Status1997,
    Tournament,
    appendix_table,
    game_change,
    rate_event_1997,
    rate_tournament_1995,
    replay,
    win_expectancy,
)
from app.rating.rounding import round_half_away_from_zero

OFFICIAL = Status1995.OFFICIAL
UNOFFICIAL = Status1995.UNOFFICIAL
NEW = Status1995.NEW
ESTABLISHED = Status1997.ESTABLISHED
PROVISIONAL = Status1997.PROVISIONAL


def We(rating: float, opponent_rating: float) -> float:
    """RIF 1995 #7 / GA 1997 #8, straight from the text."""
    return 1 / (1 + 2 ** ((opponent_rating - rating) / 120))


def by_id_1995(players: list[Player1995], games: list[Game], *, before_1996: bool = False) -> dict[str, Result1995]:
    return {result.id: result for result in rate_tournament_1995(players, games, before_1996=before_1996)}


def by_id_1997(players: list[Player1997], games: list[Game]) -> dict[str, Result1997]:
    return {result.id: result for result in rate_event_1997(players, games)}


def official(player_id: str, rating: int) -> Player1995:
    return Player1995(player_id, rating, OFFICIAL)


def new(player_id: str) -> Player1995:
    return Player1995(player_id, None, NEW)


def established(player_id: str, rating: int) -> Player1997:
    return Player1997(player_id, rating, ESTABLISHED)


def record(games: int, wins: int, losses: int, opponent_average: float) -> ProvisionalRecord:
    draws = games - wins - losses
    return ProvisionalRecord(games, wins, losses, wins + draws / 2, games * opponent_average)


# --------------------------------------------------------------------------------------------------
# One game
# --------------------------------------------------------------------------------------------------


def test_game_change_of_the_design_example() -> None:
    change = game_change(2300, 2200, 1)
    assert change.expected == pytest.approx(0.6405202, abs=1e-7)
    assert change.change_unrounded == pytest.approx(11.50335, abs=1e-5)
    assert change.change == 12


@pytest.mark.parametrize(
    ("rating", "opponent", "score", "unrounded", "change"),
    [
        (2300, 2200, 0.5, 32 * (0.5 - We(2300, 2200)), -4),  # -4.4966
        (2300, 2200, 0, 32 * (0 - We(2300, 2200)), -20),  # -20.4966
        (2200, 2300, 1, 32 * (1 - We(2200, 2300)), 20),
        (2200, 2300, 0, 32 * (0 - We(2200, 2300)), -12),  # -11.503: nearest integer, away from 0
        (2000, 2000, 1, 16.0, 16),
        (2000, 2000, 0.5, 0.0, 0),
        (2000, 2000, 0, -16.0, -16),
    ],
)
def test_game_change_values(rating: int, opponent: int, score: float, unrounded: float, change: int) -> None:
    result = game_change(rating, opponent, score)
    assert result.change_unrounded == pytest.approx(unrounded, abs=1e-9)
    assert result.change == change


def test_one_game_is_zero_sum_and_symmetric() -> None:
    winner, loser = game_change(2300, 2200, 1), game_change(2200, 2300, 0)
    assert winner.change_unrounded + loser.change_unrounded == pytest.approx(0, abs=1e-12)
    assert (winner.change, loser.change) == (12, -12)
    assert winner.expected + loser.expected == 1


def test_win_expectancy_is_the_base_2_formula() -> None:
    assert win_expectancy(2200, 2320) == pytest.approx(1 / 3)  # dR = 120: 2^1
    assert win_expectancy(2320, 2200) == pytest.approx(2 / 3)
    assert win_expectancy(1500, 1500) == 0.5


@pytest.mark.parametrize("score", [2, -1, 0.25, 0.75, float("nan")])
def test_game_change_rejects_scores_other_than_win_draw_loss(score: float) -> None:
    with pytest.raises(ValueError, match="score must be 1, 0.5 or 0"):
        game_change(2000, 2000, score)


# --------------------------------------------------------------------------------------------------
# The appendix (GA 1995), INTERPRETATIONS 1.4 / 1.5
# --------------------------------------------------------------------------------------------------

# (from, to, R1 wins, R2 wins, draw) exactly as the text prints it.
PRINTED_APPENDIX = [
    (0, 10, 16, 16, 0),
    (11, 32, 15, 17, 1),
    (33, 54, 14, 18, 2),
    (55, 76, 13, 19, 3),
    (77, 100, 12, 20, 4),
    (101, 124, 11, 21, 5),
    (125, 149, 10, 22, 6),
    (150, 176, 9, 23, 7),
    (177, 204, 8, 24, 8),
    (205, 236, 7, 25, 9),
    (237, 272, 6, 26, 10),
    (273, 313, 5, 27, 11),
    (314, 363, 4, 28, 12),
    (364, 427, 3, 29, 13),
    (428, 521, 2, 30, 14),
    (522, 724, 1, 31, 15),
    (725, 2000, 0, 32, 16),
]
DIVERGENT_DIFFERENCES = range(718, 725)


def formula_gains(difference: int, low: int = 1500) -> tuple[int, int, int]:
    """R1 = low + difference wins; R2 = low wins; R2 draws: the gains by the formula, rounded."""
    high = low + difference
    return (
        game_change(high, low, 1).change,
        game_change(low, high, 1).change,
        game_change(low, high, 0.5).change,
    )


@pytest.mark.parametrize(("start", "end", "higher_wins", "lower_wins", "draw"), PRINTED_APPENDIX)
def test_every_printed_appendix_row_matches_the_formula_at_every_difference(
    start: int, end: int, higher_wins: int, lower_wins: int, draw: int
) -> None:
    for difference in range(start, end + 1):
        if difference in DIVERGENT_DIFFERENCES:
            continue
        assert formula_gains(difference) == (higher_wins, lower_wins, draw), difference
        # the opponent loses what the other gains (INTERPRETATIONS 1.5)
        high = 1500 + difference
        assert game_change(1500, high, 0).change == -higher_wins
        assert game_change(high, 1500, 0).change == -lower_wins
        assert game_change(high, 1500, 0.5).change == -draw


@pytest.mark.parametrize("difference", DIVERGENT_DIFFERENCES)
def test_718_to_724_the_print_says_1_31_15_the_formula_gives_0_32_16(difference: int) -> None:
    printed = next(row[2:] for row in PRINTED_APPENDIX if row[0] <= difference <= row[1])
    assert printed == (1, 31, 15)
    assert formula_gains(difference) == (0, 32, 16)
    # why: 32/(1 + 2^(d/120)) drops below one half at d = 120·log2(63) ≈ 717.3
    assert 32 * We(1500, 1500 + difference) < 0.5 < 32 * We(1500, 1500 + 717)


def test_appendix_table_is_the_printed_table_with_522_724_split_at_718() -> None:
    expected = [AppendixRow(*row) for row in PRINTED_APPENDIX if row[0] != 522]
    expected.insert(15, AppendixRow(522, 717, 1, 31, 15))
    expected.insert(16, AppendixRow(718, 724, 0, 32, 16))
    assert appendix_table() == expected


def test_appendix_table_rows_agree_with_the_formula_everywhere() -> None:
    table = appendix_table()
    assert table[0].difference_from == 0 and table[-1].difference_to == 2000
    for previous, row in zip(table, table[1:]):
        assert row.difference_from == previous.difference_to + 1
    for row in table:
        for difference in range(row.difference_from, row.difference_to + 1):
            assert formula_gains(difference, low=2100) == (row.higher_wins, row.lower_wins, row.draw)


# --------------------------------------------------------------------------------------------------
# GA 1995 #6/#7: rated players
# --------------------------------------------------------------------------------------------------


def test_1995_rounds_F_once_per_tournament() -> None:
    results = by_id_1995(
        [official("A", 2300), official("B", 2200), official("C", 2200)],
        [Game("A", "B", 1), Game("A", "C", 1)],
    )
    a = results["A"]
    assert a.Ee == pytest.approx(2 * We(2300, 2200))
    assert a.change_unrounded == pytest.approx(23.0067, abs=1e-4)
    assert a.change == 23  # per-game rounding would give 12 + 12 = 24
    assert a.rating_after == 2323
    assert results["B"].change == -12 and results["C"].change == -12


def test_1995_uses_the_average_opponent_not_each_game() -> None:
    # INTERPRETATIONS 1.2: one Ee from the average (2200) differs from the per-game sum (Jensen).
    players = [official("A", 2300), official("B", 2100), official("C", 2300)]
    games = [Game("A", "B", 1), Game("A", "C", 1)]
    a_1995 = by_id_1995(players, games)["A"]
    assert a_1995.Ee == pytest.approx(2 * We(2300, 2200))
    assert a_1995.change == 23  # 32(2 - 1.2810) = 23.007
    a_1997 = by_id_1997([established("A", 2300), established("B", 2100), established("C", 2300)], games)["A"]
    assert a_1997.Ee == pytest.approx(We(2300, 2100) + 0.5)
    assert a_1997.change == 24  # 32(2 - 1.2605) = 23.665


def test_1995_same_pair_twice_counts_twice() -> None:
    results = by_id_1995([official("A", 2000), official("B", 2000)], [Game("A", "B", 1), Game("B", "A", 0.5)])
    assert results["A"].games_counted == 2
    assert results["A"].Et == 1.5 and results["A"].change == 16 and results["B"].change == -16


def test_1995_player_without_games_keeps_his_rating() -> None:
    result = by_id_1995([official("A", 2000), official("B", 2000), official("C", 2100)], [Game("A", "B", 1)])["C"]
    assert (result.change, result.rating_after, result.games_counted, result.Ee) == (0, 2100, 0, 0.0)


# --------------------------------------------------------------------------------------------------
# GA 1995 #8: new players
# --------------------------------------------------------------------------------------------------

OPPONENTS_2300 = [official("A", 2200), official("B", 2300), official("C", 2400)]  # Ra = 2300


def test_new_player_inside_the_interval_gets_R0_with_F_zero() -> None:
    # 1.5 of 3 against Ra 2300: R0 = 2300 - 120·log2(3/1.5 - 1) = 2300
    results = by_id_1995(OPPONENTS_2300 + [new("X")], [Game("X", "A", 1), Game("X", "B", 0.5), Game("X", "C", 0)])
    x = results["X"]
    assert (x.R0, x.rating_before, x.rating_after, x.change, x.change_unrounded) == (2300, None, 2300, 0, 0.0)
    assert x.Et == 1.5 and x.Ee == 1.5  # #8.d: Ee = Et for new players
    assert x.status_after is UNOFFICIAL and x.games_counted == 3
    assert x.R0_reason == "inside the interval (#8.b)"


def test_new_player_R0_is_Ra_minus_120_log2() -> None:
    # 1 of 3: R0 = 2300 - 120·log2(2) = 2180, inside [2000, 2400]
    results = by_id_1995(OPPONENTS_2300 + [new("X")], [Game("X", "A", 1), Game("X", "B", 0), Game("X", "C", 0)])
    assert results["X"].R0 == 2180 and results["X"].change == 0


def test_new_player_inside_the_interval_has_no_contribution_even_after_rounding_R0() -> None:
    # 1 of 4 against Ra 2300: R0 = 2300 - 120·log2(3) = 2109.8 -> 2110; 32(Et - Ee(2110)) would be -0.03
    players = OPPONENTS_2300 + [official("D", 2300), new("X")]
    games = [Game("X", "A", 0), Game("X", "B", 1), Game("X", "C", 0), Game("X", "D", 0)]
    x = by_id_1995(players, games)["X"]
    assert x.R0 == 2110
    assert (x.change, x.change_unrounded, x.Ee, x.rating_after) == (0, 0.0, 1.0, 2110)


def test_new_players_R0_is_used_by_the_others_F_rule_8d_order() -> None:
    results = by_id_1995(OPPONENTS_2300 + [new("X")], [Game("X", "A", 1), Game("X", "B", 0.5), Game("X", "C", 0)])
    # A (2200) lost to X rated R0 = 2300: 32(0 - We(2200, 2300)) = -11.503
    assert results["A"].change_unrounded == pytest.approx(-32 * We(2200, 2300))
    assert results["A"].change == -12
    assert results["B"].change == 0  # drew an equal R0
    assert results["C"].change == 12  # 2400 beat 2300
    assert all(results[p].games_counted == 1 for p in "ABC")


def test_new_player_clamped_at_the_lower_bound_gets_a_negative_F() -> None:
    # Ra = 2300 -> [2000, 2400]; 0.5 of 4: 2300 - 120·log2(7) = 1963.1 -> 2000
    players = OPPONENTS_2300 + [official("D", 2300), new("X")]
    games = [Game("X", "A", 0.5), Game("X", "B", 0), Game("X", "C", 0), Game("X", "D", 0)]
    x = by_id_1995(players, games)["X"]
    assert x.R0 == 2000 and x.R0_reason == "clamped at interval minimum (#8.b)"
    assert x.Ee == pytest.approx(4 * We(2000, 2300))
    assert x.change_unrounded == pytest.approx(32 * (0.5 - 4 * We(2000, 2300)))  # -3.228
    assert (x.change, x.rating_after) == (-3, 1997)


def test_new_player_clamped_at_the_upper_bound_gets_a_positive_F_and_Ra_below_2200_moves_the_interval() -> None:
    # Ra = 2100 < 2200 -> [1900, 2300]; 3.5 of 4: 2100 + 120·log2(7) = 2436.9 -> 2300
    players = [official("A", 2000), official("B", 2100), official("C", 2100), official("D", 2200), new("X")]
    games = [Game("X", "A", 1), Game("X", "B", 1), Game("X", "C", 1), Game("X", "D", 0.5)]
    x = by_id_1995(players, games)["X"]
    assert x.R0 == 2300 and x.R0_reason == "clamped at interval maximum (#8.b)"
    assert x.change_unrounded == pytest.approx(32 * (3.5 - 4 * We(2300, 2100)))  # 14.66
    assert (x.change, x.rating_after) == (15, 2315)


@pytest.mark.parametrize(
    ("opponent_ratings", "score", "R0"),
    [
        ((2200, 2250, 2300), 1, 2400),  # Ra 2250 >= 2200: fixed [2000, 2400], not 2450
        ((2200, 2250, 2300), 0, 2000),  # ... not 2050
        ((2100, 2150, 2200), 1, 2350),  # Ra 2150 < 2200: [1950, 2350], not 2400
        ((2100, 2150, 2200), 0, 1950),  # ... not 2000
        ((2000, 2000, 2001, 2001), 1, 2201),  # Ra 2000.5: bound 2200.5, rounded half away from zero
        ((2000, 2000, 2001, 2001), 0, 1801),  # bound 1800.5 -> 1801 (half to even would give 1800)
    ],
)
def test_8b_interval_depends_on_Ra(opponent_ratings: tuple[int, ...], score: float, R0: int) -> None:
    players = [official(f"O{i}", rating) for i, rating in enumerate(opponent_ratings)] + [new("X")]
    games = [Game("X", f"O{i}", score) for i in range(len(opponent_ratings))]
    # before 1996 so that an all-loss score is rated (#8.c off)
    assert by_id_1995(players, games, before_1996=True)["X"].R0 == R0


def test_8c_zero_points_against_official_players_gives_no_start_rating_from_1996() -> None:
    games = [Game("X", "A", 0), Game("X", "B", 0), Game("X", "C", 0)]
    results = by_id_1995(OPPONENTS_2300 + [new("X")], games, before_1996=False)
    x = results["X"]
    assert (x.R0, x.rating_after, x.change, x.games_counted) == (None, None, None, 0)
    assert x.R0_reason == "0 points against officially rated players (#8.c)"
    assert x.status_after is NEW
    # his games count for nobody
    assert all((results[p].change, results[p].games_counted) == (0, 0) for p in "ABC")


def test_8c_is_waived_before_1996_and_the_new_player_gets_R0_at_the_bound() -> None:
    games = [Game("X", "A", 0), Game("X", "B", 0), Game("X", "C", 0)]
    results = by_id_1995(OPPONENTS_2300 + [new("X")], games, before_1996=True)
    x = results["X"]
    assert x.R0 == 2000
    assert x.R0_reason is not None and x.R0_reason.startswith("clamped at interval minimum (#8.b)")
    assert "GA 1996 #3" in x.R0_reason
    assert x.change == -14  # 32(0 - 3·We(2000, 2300)) = -14.42
    assert results["A"].change == 8  # 2200 beat 2000: 32(1 - 0.7605) = 7.66


def test_8c_looks_only_at_officially_rated_opponents() -> None:
    players = OPPONENTS_2300 + [Player1995("U", 2300, UNOFFICIAL), new("X")]
    games = [Game("X", "A", 0), Game("X", "B", 0), Game("X", "C", 0), Game("X", "U", 1)]
    x = by_id_1995(players, games)["X"]
    assert x.R0 is None and x.R0_reason == "0 points against officially rated players (#8.c)"


def test_8c_needs_a_game_against_an_official_player() -> None:
    # Decision: with no game against an official player there is no "0 points in all matches" to judge.
    players = [Player1995(f"U{i}", 2300, UNOFFICIAL) for i in range(3)] + [new("X")]
    games = [Game("X", f"U{i}", 0) for i in range(3)]
    x = by_id_1995(players, games)["X"]
    assert x.R0 == 2000 and x.R0_reason == "clamped at interval minimum (#8.b)"


def test_8a_fewer_than_three_counted_games_gives_no_start_rating() -> None:
    results = by_id_1995(OPPONENTS_2300 + [new("X")], [Game("X", "A", 1), Game("X", "B", 1)])
    x = results["X"]
    assert x.R0 is None and x.R0_reason == "fewer than 3 counted games (#8.a)"
    assert (results["A"].games_counted, results["A"].change) == (0, 0)


def test_games_between_two_new_players_count_for_neither() -> None:
    base = [Game("X", "A", 1), Game("X", "B", 0.5), Game("X", "C", 0), Game("Y", "A", 1), Game("Y", "B", 1), Game("Y", "C", 1)]
    players = OPPONENTS_2300 + [new("X"), new("Y")]
    with_game = by_id_1995(players, base + [Game("X", "Y", 1)])
    without_game = by_id_1995(players, base)
    assert with_game == without_game
    assert with_game["X"].games_counted == 3 and with_game["Y"].games_counted == 3
    assert with_game["Y"].R0 == 2400  # clamped max: the game against X is not a 4th game


def test_a_game_against_a_new_player_alone_does_not_make_three() -> None:
    players = OPPONENTS_2300[:2] + [new("X"), new("Y")]
    x = by_id_1995(players, [Game("X", "A", 1), Game("X", "B", 1), Game("X", "Y", 1)])["X"]
    assert x.R0 is None and x.R0_reason == "fewer than 3 counted games (#8.a)"


def test_unofficial_player_is_rated_by_6_7_with_his_carried_start_rating() -> None:
    results = by_id_1995([Player1995("U", 2150, UNOFFICIAL), official("A", 2150)], [Game("U", "A", 1)])
    u = results["U"]
    assert (u.rating_before, u.rating_after, u.status_after) == (2150, 2166, UNOFFICIAL)


@pytest.mark.parametrize(
    ("players", "games", "message"),
    [
        ([official("A", 2000)], [Game("A", "Z", 1)], "unknown player 'Z'"),
        ([official("A", 2000)], [Game("A", "A", 1)], "against himself"),
        ([official("A", 2000), official("B", 2000)], [Game("A", "B", 0.3)], "score must be 1, 0.5 or 0"),
        ([Player1995("X", 2000, NEW)], [], "new and cannot have a rating"),
        ([Player1995("A", None, OFFICIAL)], [], "needs a start rating"),
        ([official("A", 2000), official("A", 2100)], [], "listed twice"),
    ],
)
def test_1995_invalid_input(players: list[Player1995], games: list[Game], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rate_tournament_1995(players, games, before_1996=False)


def test_1995_accepts_status_strings() -> None:
    players = [Player1995("A", 2000, "official"), Player1995("X", None, "new")]  # type: ignore[arg-type]
    results = rate_tournament_1995(players, [], before_1996=False)
    assert [r.status_after for r in results] == [OFFICIAL, NEW]


# --------------------------------------------------------------------------------------------------
# GA 1997
# --------------------------------------------------------------------------------------------------


def test_1997_sums_unrounded_Rc_and_rounds_once_per_event() -> None:
    results = by_id_1997(
        [established("A", 2300), established("B", 2200), established("C", 2200)],
        [Game("A", "B", 1), Game("A", "C", 1)],
    )
    assert results["A"].change_unrounded == pytest.approx(2 * 32 * (1 - We(2300, 2200)))
    assert results["A"].change == 23  # 23.007; per-game rounding would be 24
    assert results["A"].rating_after == 2323
    assert results["A"].Ee == pytest.approx(2 * We(2300, 2200))


def test_1997_every_game_uses_the_ratings_at_the_event_start() -> None:
    results = by_id_1997([established("A", 2000), established("B", 2000)], [Game("A", "B", 1), Game("A", "B", 1)])
    assert results["A"].change == 32  # 16 + 16, not 16 + 32(1 - We(2016, 1984))
    assert results["B"].change == -32


def test_1997_established_players_ignore_games_against_provisional_players() -> None:
    results = by_id_1997([established("E", 2200), Player1997("P", None, PROVISIONAL)], [Game("P", "E", 1)])
    assert (results["E"].change, results["E"].games_counted, results["E"].rating_after) == (0, 0, 2200)
    assert results["P"].rating_after == 2200 + 300  # one win: Ra + 400, capped at Ra + 300


def test_1997_provisional_rating_is_performance_Ra_plus_400_W_minus_L_over_N() -> None:
    players = [Player1997("P", None, PROVISIONAL)] + [established(f"E{r}", r) for r in (2000, 2100, 2200, 2300)]
    games = [Game("P", "E2000", 1), Game("P", "E2100", 0.5), Game("P", "E2200", 0), Game("P", "E2300", 1)]
    p = by_id_1997(players, games)["P"]
    assert p.rating_after == 2250  # 2150 + 400·(2 - 1)/4
    assert (p.rating_before, p.change, p.change_unrounded, p.Ee, p.Et) == (None, None, None, 2.5, 2.5)
    assert p.record_after == ProvisionalRecord(4, 2, 1, 2.5, 8600.0)
    assert p.status_after is PROVISIONAL and p.games_counted == 4


@pytest.mark.parametrize(("score", "rating_after"), [(1, 2450), (0, 1750)])
def test_1997_Rp_is_capped_at_Ra_plus_300_with_no_floor(score: float, rating_after: int) -> None:
    players = [Player1997("P", None, PROVISIONAL)] + [established(f"E{r}", r) for r in (2000, 2100, 2200, 2300)]
    p = by_id_1997(players, [Game("P", f"E{r}", score) for r in (2000, 2100, 2200, 2300)])["P"]
    assert p.rating_after == rating_after  # Ra 2150: +400 capped at +300; -400 stays


def test_1997_Rp_runs_over_all_the_provisional_games_so_far() -> None:
    earlier = record(4, 4, 0, 2000)  # 4 wins against 2000: Rp was 2300 (capped)
    players = [Player1997("P", 2300, PROVISIONAL, earlier), established("E", 2400)]
    p = by_id_1997(players, [Game("P", "E", 0)] * 4)["P"]
    assert p.rating_after == 2200  # Ra = (8000 + 9600)/8 = 2200, W - L = 0
    assert (p.change, p.change_unrounded) == (-100, -100.0)
    assert p.record_after == ProvisionalRecord(8, 4, 4, 4.0, 17600.0)


def test_1997_Rp_is_rounded_half_away_from_zero() -> None:
    players = [Player1997("P", None, PROVISIONAL), established("A", 2000), established("B", 2001)]
    p = by_id_1997(players, [Game("P", "A", 1), Game("P", "B", 0)])["P"]
    assert p.rating_after == 2001  # Rp = 2000.5 (round() would give 2000)


def test_1997_becomes_established_with_10_games_and_3_points() -> None:
    players = [Player1997("P", 2100, PROVISIONAL, record(6, 2, 4, 2200)), established("E", 2200)]
    p = by_id_1997(players, [Game("P", "E", 1), Game("P", "E", 0), Game("P", "E", 0), Game("P", "E", 0)])["P"]
    assert p.record_after.games == 10 and p.record_after.points == 3
    assert p.status_after is ESTABLISHED
    assert p.rating_after == 2040  # Rp = 2200 + 400·(3 - 7)/10


def test_1997_nine_games_are_not_enough() -> None:
    players = [Player1997("P", 2300, PROVISIONAL, record(5, 3, 2, 2200)), established("E", 2200)]
    p = by_id_1997(players, [Game("P", "E", 1)] * 4)["P"]
    assert p.record_after.games == 9 and p.record_after.points == 7
    assert p.status_after is PROVISIONAL


def test_1997_ten_games_with_two_and_a_half_points_are_not_enough() -> None:
    players = [Player1997("P", 2000, PROVISIONAL, record(6, 2, 4, 2200)), established("E", 2200)]
    p = by_id_1997(players, [Game("P", "E", 0.5), Game("P", "E", 0), Game("P", "E", 0), Game("P", "E", 0)])["P"]
    assert (p.record_after.games, p.record_after.points) == (10, 2.5)
    assert p.status_after is PROVISIONAL


def test_1997_status_is_frozen_during_the_event() -> None:
    # P meets #5 during the event, yet his games in it still count for nobody established (GA 1997 #9).
    players = [Player1997("P", 2200, PROVISIONAL, record(9, 2, 5, 2200)), established("E", 2200)]
    results = by_id_1997(players, [Game("P", "E", 1)])
    assert results["P"].status_after is ESTABLISHED
    assert (results["E"].games_counted, results["E"].change) == (0, 0)


def test_1997_games_between_two_provisional_players_count_for_neither() -> None:
    players = [Player1997("P", 2000, PROVISIONAL, record(2, 1, 1, 2000)), Player1997("Q", None, PROVISIONAL)]
    results = by_id_1997(players, [Game("P", "Q", 1)])
    assert results["P"].record_after == record(2, 1, 1, 2000)
    assert (results["P"].rating_after, results["P"].change, results["P"].games_counted) == (2000, 0, 0)
    assert results["Q"].record_after == ProvisionalRecord() and results["Q"].rating_after is None


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ([Player1997("E", None, ESTABLISHED)], "established and needs a rating"),
        ([Player1997("P", None, PROVISIONAL, ProvisionalRecord(2, 2, 1, 2.0, 4000))], "more wins and losses"),
        ([Player1997("P", None, PROVISIONAL, ProvisionalRecord(2, 1, 1, 2.0, 4000))], "wins \\+ draws/2"),
    ],
)
def test_1997_invalid_players(players: list[Player1997], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rate_event_1997(players, [])


def test_1997_invalid_games() -> None:
    with pytest.raises(ValueError, match="unknown player 'Z'"):
        rate_event_1997([established("A", 2000)], [Game("Z", "A", 1)])


# --------------------------------------------------------------------------------------------------
# Replay
# --------------------------------------------------------------------------------------------------

SEEDS_1996 = [Seed(p, 2200, "official", date(1996, 1, 1)) for p in "ABC"]


def tournament(tournament_id: str, start: str, end: str, *games: Game) -> Tournament:
    return Tournament(tournament_id, date.fromisoformat(start), date.fromisoformat(end), list(games))


def final(result, player_id: str):  # type: ignore[no-untyped-def]
    return next(rating for rating in result.ratings if rating.player_id == player_id)


def changes_of(result, tournament_id: str):  # type: ignore[no-untyped-def]
    return {change.player_id: change for change in result.changes if change.tournament_id == tournament_id}


def test_replay_without_seeds_rates_nobody_and_says_why() -> None:
    result = replay([tournament("T1", "1996-02-01", "1996-02-03", Game("A", "B", 1), Game("A", "C", 1), Game("B", "C", 1))], [])
    assert result.ratings == [] and result.history == []
    assert all(change.rating_after is None for change in result.changes)
    assert "no seed ratings and bootstrap off: nobody can be rated (INTERPRETATIONS 1.18)" in result.notes


def test_replay_two_tournaments_of_one_period_start_from_the_same_official_rating() -> None:
    result = replay(
        [
            tournament("T1", "1996-02-08", "1996-02-10", Game("A", "B", 1)),
            tournament("T2", "1996-03-18", "1996-03-20", Game("A", "C", 1)),
        ],
        SEEDS_1996,
    )
    t2 = changes_of(result, "T2")["A"]
    assert (t2.rating_before, t2.change, t2.system) == (2200, 16, "rif-1995")  # not from 2216
    assert final(result, "A").rating == 2232  # chained it would be 2216 + 15 = 2231
    points = [point for point in result.history if point.player_id == "A"]
    assert [(point.date, point.rating, point.games) for point in points] == [
        (date(1996, 1, 1), 2200, 0),
        (date(1996, 4, 30), 2232, 2),
    ]


def test_replay_next_period_starts_from_the_new_official_rating() -> None:
    result = replay(
        [
            tournament("T1", "1996-04-28", "1996-04-30", Game("A", "B", 1)),
            tournament("T2", "1996-04-29", "1996-05-02", Game("A", "B", 1)),  # ends in the next period
        ],
        SEEDS_1996,
    )
    t2 = changes_of(result, "T2")
    assert (t2["A"].rating_before, t2["B"].rating_before) == (2216, 2184)
    assert t2["A"].change == 15  # 32(1 - We(2216, 2184)) = 14.525


def test_replay_8a_carries_an_unofficial_start_rating_to_the_next_tournament() -> None:
    result = replay(
        [
            tournament("T1", "1996-01-10", "1996-01-12", Game("X", "A", 1), Game("X", "B", 1), Game("X", "C", 1)),
            tournament("T2", "1996-02-01", "1996-02-03", Game("X", "A", 1)),
        ],
        [
            Seed("A", 2200, "official", date(1996, 1, 1)),
            Seed("B", 2300, "official", date(1996, 1, 1)),
            Seed("C", 2400, "official", date(1996, 1, 1)),
        ],
    )
    t1, t2 = changes_of(result, "T1"), changes_of(result, "T2")
    assert (t1["X"].R0, t1["X"].change, t1["X"].rating_after, t1["X"].status_after) == (2400, 35, 2435, "unofficial")
    assert (t2["X"].rating_before, t2["X"].change, t2["X"].rating_after) == (2435, 7, 2442)
    assert t2["A"].rating_before == 2200  # official players still start from the official rating
    x_points = [point for point in result.history if point.player_id == "X"]
    assert [(p.date, p.rating, p.status) for p in x_points] == [(date(1996, 4, 30), 2442, "official")]


def test_replay_pre_1996_tournaments_waive_8c() -> None:
    games = (Game("X", "A", 0), Game("X", "B", 0), Game("X", "C", 0))
    seeds = [Seed(p, 2200, "official", date(1995, 1, 1)) for p in "ABC"]
    before = replay([tournament("T", "1995-12-01", "1995-12-03", *games)], seeds)
    after = replay([tournament("T", "1996-01-05", "1996-01-07", *games)], seeds)
    assert changes_of(before, "T")["X"].R0 == 2000
    assert changes_of(after, "T")["X"].R0 is None


def test_replay_chains_1995_into_1997_by_end_date() -> None:
    result = replay(
        [
            tournament("Y", "1996-12-28", "1997-01-03", Game("A", "B", 1)),  # ends in 1997
            tournament("X", "1996-12-18", "1996-12-20", Game("A", "B", 1)),
        ],
        SEEDS_1996,
    )
    assert [change.tournament_id for change in result.changes if change.player_id == "A"] == ["X", "Y"]
    x, y = changes_of(result, "X"), changes_of(result, "Y")
    assert x["A"].system == "rif-1995" and y["A"].system == "rif-1997"
    assert (y["A"].rating_before, y["B"].rating_before) == (2216, 2184)  # the Dec 31 list
    assert y["A"].status_after == "established"
    assert y["A"].change == 15  # 32(1 - We(2216, 2184)) = 14.525
    assert final(result, "A").rating == 2231 and final(result, "A").status == "established"
    assert any("1997 rules apply" in note for note in result.notes)


def test_replay_switch_inside_a_period_closes_it_the_day_before() -> None:
    result = replay(
        [
            tournament("old", "1996-09-28", "1996-10-01", Game("A", "B", 1)),
            tournament("new", "1996-10-20", "1996-11-01", Game("A", "B", 1)),
        ],
        SEEDS_1996,
        ReplayOptions(switch_to_1997=date(1996, 10, 15)),
    )
    assert (date(1996, 10, 14), 2216) in [(p.date, p.rating) for p in result.history if p.player_id == "A"]
    assert changes_of(result, "new")["A"].system == "rif-1997"
    assert changes_of(result, "new")["A"].rating_before == 2216
    assert any("closed on 1996-10-14" in note for note in result.notes)


def test_replay_1997_events_run_in_end_date_order_then_start_then_id() -> None:
    seeds = [Seed(p, 2000, "established", date(1997, 1, 1)) for p in "AB"]
    result = replay(
        [
            tournament("E2", "1997-02-01", "1997-03-20", Game("A", "B", 1)),  # earlier start, later end
            tournament("E1", "1997-03-01", "1997-03-10", Game("A", "B", 1)),
            tournament("E4", "1997-03-15", "1997-03-20", Game("A", "B", 1)),
            tournament("E3", "1997-03-15", "1997-03-20", Game("A", "B", 1)),
        ],
        seeds,
    )
    a = [change for change in result.changes if change.player_id == "A"]
    assert [change.tournament_id for change in a] == ["E1", "E2", "E3", "E4"]
    assert [change.rating_before for change in a] == [2000, 2016, 2031, 2044]
    for previous, following in zip(a, a[1:]):
        assert following.rating_before == previous.rating_after


def test_replay_provisional_record_accumulates_across_events_until_established() -> None:
    seeds = [Seed("E", 2200, "established", date(1997, 1, 1))]
    result = replay(
        [
            tournament("1", "1997-02-01", "1997-02-02", *[Game("P", "E", 0.5)] * 5),
            tournament("2", "1997-03-01", "1997-03-02", *[Game("P", "E", 0.5)] * 5),
        ],
        seeds,
    )
    first, second = changes_of(result, "1")["P"], changes_of(result, "2")["P"]
    assert (first.status_after, first.rating_after, first.games_counted) == ("provisional", 2200, 5)
    assert (second.status_after, second.rating_after) == ("established", 2200)
    assert changes_of(result, "1")["E"].games_counted == 0  # P was provisional in both events
    assert final(result, "P").games == 10


def test_replay_players_new_in_1995_become_provisional_in_1997() -> None:
    result = replay(
        [
            tournament("T", "1996-03-01", "1996-03-02", Game("X", "A", 1)),  # X: one game, no R0
            tournament("U", "1997-03-01", "1997-03-02", Game("X", "A", 1)),
        ],
        SEEDS_1996,
    )
    u = changes_of(result, "U")
    assert (u["X"].status_after, u["X"].rating_after) == ("provisional", 2500)  # Ra 2200 + 300 cap
    assert u["A"].games_counted == 0


def test_replay_seed_applies_from_the_first_tournament_starting_on_or_after_its_date() -> None:
    seeds = [Seed("A", 2000, "established", date(1997, 6, 1)), Seed("B", 2000, "established", date(1997, 6, 1))]
    result = replay(
        [
            tournament("early", "1997-05-30", "1997-06-02", Game("A", "B", 1)),
            tournament("late", "1997-06-01", "1997-06-03", Game("A", "B", 1)),
        ],
        seeds,
    )
    assert changes_of(result, "early")["A"].rating_after is None
    assert changes_of(result, "late")["A"].rating_before == 2000


def test_replay_bootstrap_option_rates_the_earliest_tournaments_nobody_holds_a_rating_in() -> None:
    round_robin = (Game("A", "B", 1), Game("A", "C", 1), Game("B", "C", 1))
    tournaments = [
        tournament("T1", "1996-02-01", "1996-02-03", *round_robin),
        tournament("T2", "1996-02-05", "1996-02-07", Game("D", "E", 0.5), Game("D", "F", 0.5), Game("E", "F", 0.5)),
        tournament("T3", "1996-06-01", "1996-06-03", Game("A", "G", 1)),
        tournament("T4", "1996-07-01", "1996-07-03", Game("H", "I", 1), Game("H", "J", 1), Game("I", "J", 1)),
    ]
    result = replay(tournaments, [], ReplayOptions(bootstrap_rating=2000))
    assert {r.player_id: r.rating for r in result.ratings} == {
        "A": 2032,
        "B": 2000,
        "C": 1968,
        "D": 2000,
        "E": 2000,
        "F": 2000,
    }
    assert changes_of(result, "T4")["H"].rating_after is None  # the leading run ended at T3
    assert changes_of(result, "T3")["G"].rating_after is None  # one game: no R0 (#8.a)
    assert sum("bootstrap rating 2000" in note for note in result.notes) == 2
    assert not any("nobody can be rated" in note for note in result.notes)


def test_replay_bootstrap_under_1997_rules_makes_players_established() -> None:
    result = replay([tournament("T", "1998-01-01", "1998-01-02", Game("A", "B", 1))], [], ReplayOptions(bootstrap_rating=1800))
    assert [(r.player_id, r.rating, r.status) for r in result.ratings] == [
        ("A", 1816, "established"),
        ("B", 1784, "established"),
    ]


def test_replay_ignores_tournaments_ending_after_the_last_day() -> None:
    seeds = [Seed(p, 2000, "established", date(2021, 1, 1)) for p in "AB"]
    result = replay(
        [
            tournament("in", "2021-08-06", "2021-08-07", Game("A", "B", 1)),
            tournament("out", "2021-08-07", "2021-08-08", Game("A", "B", 1)),
        ],
        seeds,
    )
    assert {change.tournament_id for change in result.changes} == {"in"}
    assert final(result, "A").rating == 2016
    assert final(result, "A").last_played == date(2021, 8, 7)
    assert any("tournament out ends 2021-08-08" in note and "ignored" in note for note in result.notes)


def test_replay_final_ratings_are_best_first_with_games_and_last_played() -> None:
    seeds = [
        Seed("A", 2000, "established", date(1997, 1, 1)),
        Seed("B", 2100, "established", date(1997, 1, 1)),
        Seed("S", 2050, "established", date(1997, 1, 1)),
    ]
    result = replay([tournament("T", "1997-03-01", "1997-03-02", Game("A", "B", 1), Game("A", "B", 1))], seeds)
    # A beat B twice: 2 · 32(1 - We(2000, 2100)) = 40.99 -> 41
    assert [(r.player_id, r.rating, r.games, r.status) for r in result.ratings] == [
        ("B", 2059, 2, "established"),
        ("S", 2050, 0, "established"),
        ("A", 2041, 2, "established"),
    ]
    ratings = {r.player_id: r for r in result.ratings}
    assert ratings["S"].last_played == date(1997, 1, 1)  # seeded, never played: the seed's date
    assert ratings["A"].last_played == date(1997, 3, 2)


def test_replay_rejects_bad_input_and_names_the_tournament() -> None:
    with pytest.raises(ValueError, match="tournament 'T'.*against himself"):
        replay([tournament("T", "1997-03-01", "1997-03-02", Game("A", "A", 1))], [])
    with pytest.raises(ValueError, match="starts after it ends"):
        replay([tournament("T", "1997-03-03", "1997-03-02")], [])
    with pytest.raises(ValueError, match="status must be one of"):
        replay([], [Seed("A", 2000, "grandmaster", date(1997, 1, 1))])


# --------------------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------------------

ratings = st.integers(min_value=1000, max_value=3000)
scores = st.sampled_from([0.0, 0.5, 1.0])


@given(st.floats(0, 4000, allow_nan=False), st.floats(0, 4000, allow_nan=False))
def test_expectation_is_symmetric(rating: float, opponent: float) -> None:
    assert win_expectancy(rating, opponent) + win_expectancy(opponent, rating) == 1
    assert win_expectancy(rating, opponent) == pytest.approx(We(rating, opponent), rel=1e-12)


@given(ratings, ratings, scores)
def test_one_game_between_established_players_is_zero_sum(a: int, b: int, score: float) -> None:
    results = by_id_1997([established("A", a), established("B", b)], [Game("A", "B", score)])
    assert results["A"].change_unrounded + results["B"].change_unrounded == pytest.approx(0, abs=1e-9)
    assert results["A"].change == -results["B"].change


@given(ratings, ratings)
def test_a_higher_score_never_gives_a_lower_change(rating: int, opponent: int) -> None:
    loss, draw, win = (game_change(rating, opponent, score) for score in (0, 0.5, 1))
    assert loss.change_unrounded < draw.change_unrounded < win.change_unrounded
    assert loss.change <= draw.change <= win.change


@given(ratings, ratings, ratings, scores)
def test_a_stronger_opponent_never_gives_a_lower_change(rating: int, first: int, second: int, score: float) -> None:
    weaker, stronger = sorted((first, second))
    assert game_change(rating, weaker, score).change <= game_change(rating, stronger, score).change


@settings(max_examples=200)
@given(
    st.lists(ratings, min_size=2, max_size=5),
    st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4), scores), min_size=1, max_size=12),
    st.integers(0, 11),
)
def test_1995_a_better_result_never_lowers_F(
    player_ratings: list[int], raw_games: list[tuple[int, int, float]], pick: int
) -> None:
    players = [official(f"P{i}", rating) for i, rating in enumerate(player_ratings)]
    n = len(players)
    games = [Game(f"P{i % n}", f"P{j % n}", s) for i, j, s in raw_games if i % n != j % n]
    if not games:
        return
    index = pick % len(games)
    game = games[index]
    if game.score_a == 1:
        return
    better = games[:index] + [Game(game.a, game.b, game.score_a + 0.5)] + games[index + 1 :]
    before = by_id_1995(players, games)[game.a]
    after = by_id_1995(players, better)[game.a]
    assert after.change_unrounded > before.change_unrounded
    assert after.change >= before.change  # type: ignore[operator]


@settings(max_examples=200)
@given(st.lists(st.tuples(ratings, scores), min_size=3, max_size=8), st.booleans())
def test_new_player_R0_stays_in_the_interval_and_F_is_zero_inside(opponents: list[tuple[int, float]], before_1996: bool) -> None:
    players = [official(f"O{i}", rating) for i, (rating, _) in enumerate(opponents)] + [new("X")]
    games = [Game("X", f"O{i}", score) for i, (_, score) in enumerate(opponents)]
    x = by_id_1995(players, games, before_1996=before_1996)["X"]
    if x.R0 is None:
        assert not before_1996 and sum(score for _, score in opponents) == 0
        return
    Ra = sum(rating for rating, _ in opponents) / len(opponents)
    lower, upper = (2000, 2400) if Ra >= 2200 else (Ra - 200, Ra + 200)
    assert lower - 0.5 <= x.R0 <= upper + 0.5
    assert x.R0_reason is not None
    if x.R0_reason == "inside the interval (#8.b)":
        assert (x.change, x.Ee) == (0, x.Et)
    elif x.R0_reason.startswith("clamped at interval minimum"):
        assert x.R0 == round_half_away_from_zero(lower)
    else:
        assert x.R0_reason.startswith("clamped at interval maximum")
        assert x.R0 == round_half_away_from_zero(upper)


@settings(max_examples=200)
@given(
    st.lists(ratings, min_size=2, max_size=5),
    st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4), scores), min_size=1, max_size=12),
)
def test_1997_event_among_established_players_is_zero_sum_before_rounding(
    player_ratings: list[int], raw_games: list[tuple[int, int, float]]
) -> None:
    players = [established(f"P{i}", rating) for i, rating in enumerate(player_ratings)]
    n = len(players)
    games = [Game(f"P{i % n}", f"P{j % n}", s) for i, j, s in raw_games if i % n != j % n]
    results = rate_event_1997(players, games)
    assert sum(result.change_unrounded for result in results) == pytest.approx(0, abs=1e-9)  # type: ignore[misc]
