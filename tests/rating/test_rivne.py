"""Rivne Go club engine (app/rating/rivne.py) against text 004 and docs/decisions.md section 5.

Every expected number is worked by hand from the text's formulas, written out below with ``SE`` and
the table values read off Table I (never taken from the engine): (1) ΔR = RB − RA,
(2) SE(A) = 1/(e^(ΔR/a) + 1), (4) a = 205 − RA′/20, (5) Rn = Rc + Kd·Kf·K1·(R − SE + K2),
(6) K2 = (3100 − Rc)/50000, (7) RA# = RA + 100N − 50, (8) ΔRmax = 0.45·n·K1·(1 + K2).
"""

from __future__ import annotations

from math import exp

import pytest

from app.rating.rivne import (
    ANOMALY_PASS_LIMIT,
    AnomalyNotStable,
    Game,
    Player,
    development_K1,
    rank_difference,
    rank_index,
    rate_rounds,
    rate_tournament,
    suggested_first_rating,
)


def SE(delta_R: float, a: float) -> float:
    """(2), written from the text."""
    return 1 / (exp(delta_R / a) + 1)


def after(result, player_id: str) -> float:  # type: ignore[no-untyped-def]
    return next(p.rating_after for p in result.players if p.id == player_id)


def one_game(black: Player, white: Player, score_black: float, **game: int) -> dict[str, float]:
    """One game's formula (one pass, no anomaly loop: a single win is mostly anomalous by (8))."""
    return rate_rounds([black, white], [Game(1, black.id, white.id, score_black, **game)]).final


# -- even games on each board ------------------------------------------------------------------------

# A = 1500 beats B = 1700 in an even game.  a = 205 − 1500/20 = 130;  ΔR = 200;
# SE(A) = 1/(e^(200/130) + 1) = 0.176759…;  K1(1500) = 47, K2(1500) = 1600/50000 = 0.032;
# K1(1700) = 39, K2(1700) = 1400/50000 = 0.028.
SE_EVEN = SE(200, 130)
GAIN_A_19 = 47 * (1 - SE_EVEN + 0.032)  # = 40.19632…
GAIN_B_19 = 39 * (0 - (1 - SE_EVEN) + 0.028)  # = −31.01440…


@pytest.mark.parametrize(("board", "Kd"), [(19, 1.0), (13, 1 / 2), (9, 1 / 3)])
def test_even_game_on_each_board(board: int, Kd: float) -> None:
    ratings = one_game(Player("A", 1500), Player("B", 1700), 1.0, board_size=board)
    assert ratings["A"] == pytest.approx(1500 + Kd * GAIN_A_19, abs=1e-9)
    assert ratings["B"] == pytest.approx(1700 + Kd * GAIN_B_19, abs=1e-9)
    assert GAIN_A_19 == pytest.approx(40.19632544, abs=1e-6)  # the hand figure above


def test_K1_is_linear_in_table_I_and_held_above_2700() -> None:
    assert development_K1(1450) == pytest.approx((51 + 47) / 2)  # halfway 1400 (51) – 1500 (47)
    assert development_K1(2050) == pytest.approx(25.5)  # 2000 (27) – 2100 (24)
    assert development_K1(150) == pytest.approx(113)  # 100 (116) – 200 (110)
    assert development_K1(2700) == 10
    assert development_K1(3100) == 10  # INTERPRETATIONS 5.3: held above 2700


def test_a_is_clamped_at_2700() -> None:
    # B = 2900 vs C = 3000, B (lower) wins: a = 205 − 2700/20 = 70 (not 205 − 145 = 60);
    # K1 = 10 for both; K2(2900) = 200/50000 = 0.004.
    ratings = one_game(Player("B", 2900), Player("C", 3000), 1.0)
    assert ratings["B"] == pytest.approx(2900 + 10 * (1 - SE(100, 70) + 0.004))


def test_K2_is_earned_by_the_loser_too_in_an_even_draw() -> None:
    # Equal ratings 2000: SE = 0.5 either way; a draw gives each 27·(0.5 − 0.5 + 1100/50000) = 0.594.
    ratings = one_game(Player("A", 2000), Player("B", 2000), 0.5)
    assert ratings == {"A": pytest.approx(2000.594), "B": pytest.approx(2000.594)}


# -- handicap ----------------------------------------------------------------------------------------


def test_handicap_1_is_no_komi_and_corrects_by_50() -> None:
    # Black 1800 (3k) takes 1 stone (no komi) from white 1900 (2k), black wins.
    # RA# = 1800 + 100·1 − 50 = 1850;  ΔR = 1900 − 1850 = 50;  a = 205 − 1800/20 = 115;
    # SE(black) = 1/(e^(50/115) + 1) = 0.392985…;  K1(1800) = 35, K2 = 1300/50000 = 0.026.
    # White is the higher-rated player: Kf = 1 − 0.1·1 = 0.9; K1(1900) = 31, K2 = 0.024.
    se = SE(50, 115)
    ratings = one_game(Player("b", 1800, "3k"), Player("w", 1900, "2k"), 1.0, handicap=1)
    assert ratings["b"] == pytest.approx(1800 + 35 * (1 - se + 0.026))  # +22.1555…
    assert ratings["w"] == pytest.approx(1900 + 0.9 * 31 * (0 - (1 - se) + 0.024))  # −16.2661…


def test_handicap_4() -> None:
    # Black 1500 (6k) takes 4 stones from white 1900 (2k), white wins.
    # RA# = 1500 + 400 − 50 = 1850;  ΔR = 50;  a = 130;  SE(black) = 1/(e^(50/130) + 1) = 0.405014…
    # Black (receiver, lower): Kf = 1 → 47·(0 − 0.405014 + 0.032) = −17.5317
    # White: Kf = 1 − 0.1·4 = 0.6 → 0.6·31·(1 − 0.594986 + 0.024) = +7.9797
    se = SE(50, 130)
    ratings = one_game(Player("b", 1500, "6k"), Player("w", 1900, "2k"), 0.0, handicap=4)
    assert ratings["b"] == pytest.approx(1500 + 47 * (0 - se + 0.032))
    assert ratings["w"] == pytest.approx(1900 + 0.6 * 31 * (1 - (1 - se) + 0.024))
    assert ratings["b"] - 1500 == pytest.approx(-17.5317, abs=1e-4)


def test_fair_handicap_above_9_gives_one_half() -> None:
    # 12k (900) vs 1d (2100): 12 ranks, 12 stones is fair → SE = 0.5 (004 (7)). Black wins.
    # Black: K1(900) = 75, K2 = 2200/50000 = 0.044 → 75·(1 − 0.5 + 0.044) = 40.8
    # White: Kf(12) = 0.1, K1(2100) = 24, K2 = 0.02 → 0.1·24·(0 − 0.5 + 0.02) = −1.152
    ratings = one_game(Player("b", 900, "12k"), Player("w", 2100, "1d"), 1.0, handicap=12)
    assert ratings["b"] == pytest.approx(940.8)
    assert ratings["w"] == pytest.approx(2098.848)


def test_unfair_handicap_above_9_uses_the_real_stones() -> None:
    # The same players with 11 stones: unfair → RA# = 900 + 1100 − 50 = 1950, ΔR = 150,
    # a = 205 − 900/20 = 160, SE(black) = 1/(e^(150/160) + 1) = 0.281406…
    se = SE(150, 160)
    ratings = one_game(Player("b", 900, "12k"), Player("w", 2100, "1d"), 1.0, handicap=11)
    assert ratings["b"] == pytest.approx(900 + 75 * (1 - se + 0.044))  # +57.1946
    assert ratings["w"] == pytest.approx(2100 + 0.1 * 24 * (0 - (1 - se) + 0.02))  # −1.6766


def test_handicap_game_needs_declared_ranks() -> None:
    with pytest.raises(ValueError, match="declared rank"):
        one_game(Player("b", 1500), Player("w", 1900, "2k"), 1.0, handicap=3)


def test_rank_scale_has_no_rank_zero() -> None:
    assert rank_difference("3d", "1d") == 2
    assert rank_difference("2d", "3k") == 4  # the text's own example
    assert rank_index("30k") == -29


@pytest.mark.parametrize(
    ("rank", "rating"), [("1d", 2100), ("7d", 2700), ("1k", 2000), ("20k", 100), ("21k", 90), ("25k", 50), ("30k", 0)]
)
def test_suggested_first_rating(rank: str, rating: float) -> None:
    # INTERPRETATIONS 5.11: 1d = 2100, 100 per rank, 20k = 100; below, 1 point = 10 above 100 (004).
    assert suggested_first_rating(rank) == rating


# -- rounds: ΔR from start ratings, a / K1 / K2 from current ratings --------------------------------


def test_two_rounds_use_start_ratings_for_delta_R_and_current_for_the_rest() -> None:
    # Round 1: A 1500 beats B 1700 → A = 1500 + 40.196325 = 1540.196325 (above).
    # Round 2: A loses to C (start 1600).  ΔR = 1600 − 1500 = 100 (starts!);
    # a = 205 − 1540.196325/20 = 127.990184;  SE(A) = 0.314038;
    # K1(1540.196325) = 47 − 4·0.40196325 = 45.392147;  K2 = (3100 − 1540.196325)/50000 = 0.0311961
    # A = 1540.196325 + 45.392147·(0 − 0.314038 + 0.0311961) = 1527.357540
    # C: 1600 + 43·(1 − 0.685962 + 0.03) = 1614.793618
    players = [Player("A", 1500), Player("B", 1700), Player("C", 1600)]
    games = [Game(1, "A", "B", 1.0), Game(2, "C", "A", 1.0)]
    result = rate_tournament(players, games)
    A1 = 1500 + GAIN_A_19
    a2 = 205 - A1 / 20
    K1 = 47 - 4 * (A1 - 1500) / 100
    assert after(result, "A") == pytest.approx(A1 + K1 * (0 - SE(100, a2) + (3100 - A1) / 50000))
    assert after(result, "A") == pytest.approx(1527.357540, abs=1e-6)
    assert after(result, "C") == pytest.approx(1614.793618, abs=1e-6)
    rounds = next(p for p in result.players if p.id == "A").rounds
    assert [r.round for r in rounds] == [1, 2]
    assert rounds[0].rating_after == pytest.approx(A1)
    assert rounds[1].change == pytest.approx(1527.357540 - A1, abs=1e-6)


def test_games_of_one_round_are_simultaneous() -> None:
    # A plays B and C in round 1: both changes come from A's rating before the round (1500),
    # so the result is the sum of two independent one-game changes.
    players = [Player("A", 1500), Player("B", 1700), Player("C", 1700)]
    computed = rate_rounds(players, [Game(1, "A", "B", 1.0), Game(1, "A", "C", 1.0)])
    assert computed.final["A"] == pytest.approx(1500 + 2 * GAIN_A_19)
    assert computed.games_played["A"] == 2


def test_games_not_played_are_never_rated() -> None:
    result = rate_tournament([Player("A", 1500), Player("B", 1700)], [Game(1, "A", "B", 1.0, played=False)])
    assert after(result, "A") == 1500 and after(result, "B") == 1700


# -- anomalous results (8) ----------------------------------------------------------------------------


def test_anomaly_restarts_until_stable() -> None:
    # A 1000 beats B 2000, his only game, no handicap.  Pass 1:
    # a = 205 − 50 = 155; ΔR = 1000; SE(A) = 1/(e^(1000/155) + 1) = 0.001574…;
    # gain = 70·(1 − 0.001574 + 0.042) = 72.83;  ΔRmax = 0.45·1·70·(1 + 0.042) = 32.823 → anomalous.
    result = rate_tournament([Player("A", 1000), Player("B", 2000)], [Game(1, "A", "B", 1.0)])
    first = result.passes[0].anomalous
    gain = 70 * (1 - SE(1000, 155) + 0.042)
    assert [a.id for a in first] == ["A"]
    assert first[0].rating_after == pytest.approx(1000 + gain)
    assert first[0].limit == pytest.approx(0.45 * 70 * 1.042)
    # Pass 2 starts A at pass 1's final rating, and so on; the last pass finds nothing.
    assert result.passes[1].anomalous[0].start_rating == pytest.approx(1000 + gain)
    assert len(result.passes) > 2 and result.passes[-1].anomalous == ()
    for previous, following in zip(result.passes, result.passes[1:-1]):
        assert following.anomalous[0].start_rating == pytest.approx(previous.anomalous[0].rating_after)
    # The final pass, checked by hand: A's start S is the last restart; his gain is within (8).
    A = next(p for p in result.players if p.id == "A")
    S = result.passes[-2].anomalous[0].rating_after
    assert A.start_rating == pytest.approx(S) and A.rating_before == 1000
    K1 = development_K1(S)
    K2 = (3100 - S) / 50000
    lower_is_A = S < 2000
    a = 205 - min(S if lower_is_A else 2000, 2700) / 20
    se_A = SE(2000 - S, a) if lower_is_A else 1 - SE(S - 2000, a)
    assert A.rating_after == pytest.approx(S + K1 * (1 - se_A + K2))
    assert A.rating_after - S <= 0.45 * 1 * K1 * (1 + K2)


def test_anomaly_loop_that_does_not_settle_is_a_clear_error() -> None:
    # A 100 beats B 2700 once: every pass is anomalous (a single win is anomalous until A's start is
    # above B's), and climbing from 100 to 2700 with gains of at most 116·1.06 takes more than 50 passes.
    with pytest.raises(AnomalyNotStable, match=f"after {ANOMALY_PASS_LIMIT} passes"):
        rate_tournament([Player("A", 100), Player("B", 2700)], [Game(1, "A", "B", 1.0)])


def test_no_anomaly_check_in_handicap_tournaments() -> None:
    players = [Player("A", 1000, "11k"), Player("B", 2000, "1k"), Player("P", 1500, "6k"), Player("Q", 1900, "2k")]
    games = [Game(1, "A", "B", 1.0), Game(1, "P", "Q", 1.0, handicap=4)]
    result = rate_tournament(players, games)
    assert len(result.passes) == 1 and result.handicap_games
    assert after(result, "A") == pytest.approx(1000 + 70 * (1 - SE(1000, 155) + 0.042))


# -- players below 100 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("board", "win"), [(19, 5), (13, 3), (9, 2)])
def test_both_below_100(board: int, win: int) -> None:
    assert one_game(Player("A", 50), Player("B", 60), 1.0, board_size=board) == {"A": 50 + win, "B": 61}


@pytest.mark.parametrize(("board", "each"), [(19, 3), (13, 2), (9, 1.5)])
def test_both_below_100_draw_gives_the_average(board: int, each: float) -> None:
    assert one_game(Player("A", 50), Player("B", 60), 0.5, board_size=board) == {"A": 50 + each, "B": 60 + each}


def test_player_at_or_above_100_against_one_below() -> None:
    # X 150 beats Y 80 (19×19).  In (1): Y × 10 = 800, X + 900 = 1050, ΔR = 250;
    # a from Y's real rating: 205 − 80/20 = 201;  SE(Y) = 1/(e^(250/201) + 1) = 0.223779;
    # X: K1(150) = 113, K2 = 2950/50000 = 0.059 → 113·(1 − 0.776221 + 0.059) = +31.953972
    # Y: scored as against a player below 100: a loss is +1.
    ratings = one_game(Player("X", 150), Player("Y", 80), 1.0)
    assert ratings["X"] == pytest.approx(150 + 113 * (1 - (1 - SE(250, 201)) + 0.059))
    assert ratings["X"] == pytest.approx(181.953972, abs=1e-6)
    assert ratings["Y"] == 81


def test_player_below_100_wins_with_table_III_and_the_loser_stays_at_100() -> None:
    # Y 80 beats X 150: Y +5 and Table III (100–199, 19×19) +3 → 88.
    # X: 113·(0 − 0.776221 + 0.059) = −81.05 → 68.95, but a rating at or above 100 never falls below 100.
    result = rate_tournament([Player("X", 150), Player("Y", 80)], [Game(1, "Y", "X", 1.0)])
    assert after(result, "Y") == 88
    assert after(result, "X") == 100
    assert next(p for p in result.players if p.id == "Y").extra_points == 3
    assert len(result.passes) == 1  # 3 extra points < 9


@pytest.mark.parametrize(
    ("opponent", "board", "extra"),
    [(199, 19, 3), (200, 19, 5), (399, 13, 3), (400, 13, 4), (400, 9, 3), (150, 9, 1), (250, 9, 2)],
)
def test_table_III_brackets(opponent: float, board: int, extra: float) -> None:
    # 400 is in the top bracket (INTERPRETATIONS 5.8).  Win points 5 / 3 / 2 by board, plus Table III.
    win = {19: 5, 13: 3, 9: 2}[board]
    assert one_game(Player("Y", 10), Player("X", opponent), 1.0, board_size=board)["Y"] == 10 + win + extra


def test_crossing_100_upwards_counts_ten_times() -> None:
    # 97 + 5 = 102 → 100 + 2·10 = 120 (INTERPRETATIONS 5.10).
    assert one_game(Player("A", 97), Player("B", 50), 1.0)["A"] == 120
    # Exactly 100 is not a crossing beyond it: 95 + 5 = 100.
    assert one_game(Player("A", 95), Player("B", 50), 1.0)["A"] == 100


def test_floor_at_100() -> None:
    # 100 loses to 150: a = 200, SE(A) = 1/(e^(50/200) + 1) = 0.437823;
    # 116·(0 − 0.437823 + 0.06) = −43.83 → 56.17, yet the rating stays 100.
    assert 116 * (0 - SE(50, 200) + 0.06) == pytest.approx(-43.8275, abs=1e-4)
    assert one_game(Player("A", 100), Player("B", 150), 0.0)["A"] == 100


def test_anomaly_below_100_restarts_at_100() -> None:
    # Y 40 beats X 450 (19×19, extra 7: 40 + 5 + 7 = 52) in round 1 and Z 150 (extra 3: 52 + 8 = 60) in
    # round 2: 10 extra points ≥ 9 → anomalous; restart at max(100, 60) = 100.  A handicap game P–Q
    # in the tournament switches the check (8) off, so pass 2 is the last one.  Pass 2 (Y ≥ 100):
    # round 1: ΔR = 450 − 100 = 350, a = 205 − 100/20 = 200, SE(Y) = 0.148047,
    #          Y = 100 + 116·(1 − 0.148047 + 0.06) = 205.786525
    #          X: K1(450) = 97.5 → 450 + 97.5·(0 − 0.851953 + 0.053) = 372.102102
    # round 2: ΔR = 150 − 100 = 50 (starts), a = 205 − 205.786525/20 = 194.710674, SE(Y) = 0.436153,
    #          K1(205.786525) = 110 − 5·0.0578653 = 109.710674, K2 = 0.0578843
    #          Y = 205.786525 + 109.710674·(1 − 0.436153 + 0.0578843) = 273.997120
    #          Z = 150 + 113·(0 − 0.563847 + 0.059) = 92.95 → held at 100
    players = [
        Player("Y", 40),
        Player("X", 450),
        Player("Z", 150),
        Player("P", 1500, "6k"),
        Player("Q", 1900, "2k"),
    ]
    games = [Game(1, "Y", "X", 1.0), Game(2, "Z", "Y", 0.0), Game(1, "P", "Q", 1.0, handicap=4)]
    result = rate_tournament(players, games)
    first = result.passes[0].anomalous
    assert [(a.id, a.rating_after, a.extra_points, a.limit, a.restart_rating) for a in first] == [("Y", 60, 10, None, 100)]
    assert len(result.passes) == 2
    Y1 = 100 + 116 * (1 - SE(350, 200) + 0.06)
    assert after(result, "Y") == pytest.approx(273.997120, abs=1e-6)
    assert next(p for p in result.players if p.id == "Y").rounds[0].rating_after == pytest.approx(Y1)
    assert after(result, "X") == pytest.approx(372.102102, abs=1e-6)
    assert after(result, "Z") == 100
    Y = next(p for p in result.players if p.id == "Y")
    assert (Y.rating_before, Y.start_rating) == (40, 100)


def test_invalid_input_is_refused() -> None:
    with pytest.raises(ValueError, match="board size"):
        one_game(Player("A", 1500), Player("B", 1500), 1.0, board_size=15)
    with pytest.raises(ValueError, match="unknown player"):
        rate_tournament([Player("A", 1500)], [Game(1, "A", "B", 1.0)])
    with pytest.raises(ValueError, match="rank"):
        rate_tournament([Player("A", 1500, "0k")], [])


def test_after_crossing_100_delta_R_stays_on_one_scale() -> None:
    # Y 97 beats Z 50 in round 1: 97 + 5 = 102 → 120.  Round 2 Y (now ≥ 100) beats X 150 by (5):
    # (1) from the starts on one scale: X 150 + 900 = 1050, Y 97 × 10 = 970, ΔR = 80;
    # a = 205 − 120/20 = 199; SE(Y) = 1/(e^(80/199) + 1) = 0.400829;
    # K1(120) = 116 − 6·0.2 = 114.8; K2(120) = 2980/50000 = 0.0596
    # Y = 120 + 114.8·(1 − 0.400829 + 0.0596) = 195.6269
    computed = rate_rounds([Player("Y", 97), Player("Z", 50), Player("X", 150)], [Game(1, "Y", "Z", 1.0), Game(2, "Y", "X", 1.0)])
    assert computed.rounds["Y"][0].rating_after == 120
    assert computed.final["Y"] == pytest.approx(120 + 114.8 * (1 - SE(80, 199) + 0.0596))
    assert computed.final["Y"] == pytest.approx(195.6269, abs=1e-4)
