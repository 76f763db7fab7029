"""Each system's expected score of one game between two ratings (``RatingSystem.expected_score``),
against the rule text's formula or table computed here by hand, and the normal approximation of who
stands above whom (``above_probability``) against a numerical integration."""

import datetime as dt
import math

import pytest
from scipy import integrate

from app.rating.registry import get_system
from app.rating.system import above_probability

DAY = dt.date(2019, 12, 15)


def expected(system_id: str, rating: float, opponent_rating: float, day: dt.date = DAY, **params: object) -> tuple[float, str]:
    system = get_system(system_id)
    assert system.expected_score is not None
    expectation = system.expected_score(rating, opponent_rating, day, system.params(params))
    return expectation.score, expectation.rule


def test_whr_is_bradley_terry_on_the_natural_ratings():
    # 1/(1 + 10^((Rb - Ra)/400)) = 1/(1 + e^(-(ra - rb))) with r = R ln 10 / 400 (RIF 2021 #1-#7)
    score, rule = expected("rif-whr", 2100, 1900)
    assert score == pytest.approx(1 / (1 + 10 ** (-200 / 400)), abs=1e-15)
    assert score == pytest.approx(0.7597469266479578, abs=1e-15)
    assert rule == "RIF 2021 #1-#7"
    assert expected("rif-whr", 1900, 2100)[0] == pytest.approx(1 - score, abs=1e-15)
    assert expected("rif-whr", 2000, 2000)[0] == 0.5


def test_rif_elo_is_base_2_scale_120_by_the_text_in_force_on_the_day():
    # We = 1/(1 + 2^(dR/120)), dR = opponent's rating - own: the design's game, 2300 against 2200
    score, rule = expected("rif-elo", 2300, 2200, dt.date(1996, 6, 1))
    assert score == pytest.approx(1 / (1 + 2 ** (-100 / 120)), abs=1e-15)
    assert score == pytest.approx(0.6405, abs=5e-5)
    assert rule == "RIF 1995 #7"  # before the list's switch to the 1997 rules (1997-01-01 by default)
    assert expected("rif-elo", 2300, 2200, dt.date(1997, 1, 1))[1] == "GA 1997 #8"
    assert expected("rif-elo", 2300, 2200, dt.date(1998, 1, 1), switch_to_1997="1998-06-01")[1] == "RIF 1995 #7"
    assert expected("rif-elo", 2200, 2300)[0] + score == 1  # exactly: each text's complement (GA 1997 #8)


def test_rivne_is_se_of_an_even_game_with_the_lower_players_scale():
    # 004 (1) ΔR = 2100 - 2000, (4) a = 205 - 2000/20 = 105, (2) SE(A) = 1/(e^(100/105) + 1), (3) SE(B) = 1 - SE(A)
    score, rule = expected("rivne", 2000, 2100)
    assert score == pytest.approx(1 / (math.exp(100 / 105) + 1), abs=1e-15)
    assert score == pytest.approx(0.27841, abs=5e-6)
    assert rule == "004 (1)-(4)"
    assert expected("rivne", 2100, 2000)[0] == pytest.approx(1 - score, abs=1e-15)
    # Below 100 the ratings are put on one scale (× 10 below 100, + 900 above): 50 → 500, 150 → 1050;
    # a = 205 - 50/20 = 202.5 of the lower player's own rating.
    low, _ = expected("rivne", 50, 150)
    assert low == pytest.approx(1 / (math.exp(550 / 202.5) + 1), abs=1e-15)
    # Above 2700 the scale is held: a = 205 - 2700/20 = 70.
    assert expected("rivne", 2800, 2870)[0] == pytest.approx(1 / (math.exp(70 / 70) + 1), abs=1e-15)


def test_eru_is_what_its_table_implies():
    # ERU 4.9: the lower-rated player's draw value d at the difference is 32(1/2 - We): 100 points
    # apart is the row 77-100 (draw 4, win 20), We = 1/2 - 4/32 = 0.375, and the higher's 0.625.
    score, rule = expected("eru", 1500, 1600)
    assert score == 0.375 and rule == "ERU 4.9"
    assert expected("eru", 1600, 1500)[0] == 0.625
    assert expected("eru", 1600, 1589)[0] == pytest.approx(0.5 + 1 / 32)  # the row 11-32: draw 1
    assert expected("eru", 1600, 1590)[0] == 0.5  # 10 apart: the row 0-10, draw 0, as if equal
    assert expected("eru", 1000, 1725)[0] == 0.0  # 725 and more: draw 16, win 32, nothing expected
    assert expected("eru", 1000, 1724)[0] == pytest.approx(0.5 - 15 / 32)  # the 522-724 row, as printed


def test_olufsen_is_base_10_scale_400():
    # 001 (1): 1/(1 + 10^((or - tr)/400))
    score, rule = expected("olufsen", 1800, 1600)
    assert score == pytest.approx(1 / (1 + 10 ** (-200 / 400)), abs=1e-15)
    assert rule == "001 (1)"
    assert expected("olufsen", 1600, 1800)[0] == pytest.approx(1 - score, abs=1e-15)


@pytest.mark.parametrize(
    ("rating", "deviation", "opponent_rating", "opponent_deviation"),
    [(2522.5, 230.9, 2404.6, 229.7), (2000.0, 50.0, 2100.0, 120.0), (1900.0, 80.0, 1900.0, 10.0), (2400, 1.0, 2300, 0.5)],
)
def test_above_is_the_chance_that_one_normal_rating_exceeds_the_other(rating, deviation, opponent_rating, opponent_deviation):
    """P(Ra > Rb) for independent normal ratings, integrated numerically: ∫ φa(x) P(Rb < x) dx with the
    inner probability integrated too."""

    # The densities written out: scipy.stats' frozen pdf costs some 50 µs a call, and the nested
    # integrals call it tens of thousands of times.
    def density(mean: float, sd: float):  # type: ignore[no-untyped-def]
        return lambda x: math.exp(-0.5 * ((x - mean) / sd) ** 2) / (sd * math.sqrt(2 * math.pi))

    a_pdf, b_pdf = density(rating, deviation), density(opponent_rating, opponent_deviation)

    def below(x: float) -> float:  # P(Rb < x), integrated on the side of x that holds less of it
        if x < opponent_rating:
            return float(integrate.quad(b_pdf, -math.inf, x)[0])
        return 1 - float(integrate.quad(b_pdf, x, math.inf)[0])

    low, high = rating - 12 * deviation, rating + 12 * deviation
    integrated = integrate.quad(lambda x: a_pdf(x) * below(x), low, high, points=[opponent_rating], limit=200)[0]
    assert above_probability(rating, deviation, opponent_rating, opponent_deviation) == pytest.approx(integrated, abs=1e-7)


def test_above_without_deviations_is_certain_or_even():
    assert above_probability(2100, 0, 2000, 0) == 1.0
    assert above_probability(2000, 0, 2100, 0) == 0.0
    assert above_probability(2000, 0, 2000, 0) == 0.5
