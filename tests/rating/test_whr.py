"""The WHR engine (app/rating/whr.py) against the reference `whr` package and the rule texts.

RIF 2021 (text 002) #1-#8, docs/decisions.md 3.1-3.6.
"""

from __future__ import annotations

import math
from collections import defaultdict
from datetime import date

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rating import whr as W
from app.rating.whr import Status, WarmStart, WhrFit, WhrParams, fit, rating_on, ratings_on, status_on
from bench.histories import History, federation_history
from tests.helpers import RENJU_CN, random_history

try:
    import whr as whr_reference
except ImportError:  # the reference is a dev dependency; only the comparisons need it
    whr_reference = None
needs_reference = pytest.mark.skipif(whr_reference is None, reason="the reference package `whr` is not installed")

REAL_DATA = RENJU_CN
RESULT_CODE = {1.0: "B", 0.5: "D", 0.0: "W"}
LN10_400 = math.log(10.0) / 400.0

RATING_TOLERANCE = 0.01  # Elo, per player-day, against the reference
DEVIATION_TOLERANCE = 0.1  # Elo


# ------------------------------------------------------------------------------------------------
# helpers


def run_reference(black, white, score, day, w2=12.9, virtual_games=2):
    """The reference, configured as the RIF list computes: Base(config={"w2", "virtual_games"}).

    Its w2 is in Elo^2 per day (converted inside with (ln10/400)^2), its virtual games are draws
    against a player rated 0 on its scale, i.e. our virtual_rating 1900.
    """
    base = whr_reference.Base(config={"w2": w2, "virtual_games": virtual_games})
    base.create_games(
        [
            [str(b), str(w), RESULT_CODE[s], int(d)]
            for b, w, s, d in zip(black.tolist(), white.tolist(), score.tolist(), day.tolist())
        ]
    )
    base.iterate_until_converge(False)
    return base


def assert_matches_reference(result: WhrFit, base, n_players: int, virtual_rating: float = 1900.0):
    rows = 0
    worst_rating = worst_deviation = 0.0
    for player in range(n_players):
        mine = result.history(player)
        ref = base.ratings_for_player(str(player))
        assert len(ref) == mine.stop - mine.start, f"player {player}: number of playing days"
        if not ref:
            continue
        ref = np.asarray(ref, dtype=float)
        np.testing.assert_array_equal(ref[:, 0], result.day[mine])
        worst_rating = max(worst_rating, float(np.max(np.abs(ref[:, 1] + virtual_rating - result.rating[mine]))))
        worst_deviation = max(worst_deviation, float(np.max(np.abs(ref[:, 2] - result.deviation[mine]))))
        rows += len(ref)
    assert rows == len(result.player)
    assert worst_rating < RATING_TOLERANCE, f"rating differs from the reference by {worst_rating} Elo"
    assert worst_deviation < DEVIATION_TOLERANCE, f"deviation differs from the reference by {worst_deviation} Elo"


def posterior_gradient(result: WhrFit, black, white, score, day, params: WhrParams) -> np.ndarray:
    """Gradient of the log-posterior of # RIF 2021 #2-#8 at the fitted ratings, written out
    independently of the engine (natural units, one entry per row of `result`)."""
    row = {(int(p), int(d)): i for i, (p, d) in enumerate(zip(result.player, result.day))}
    r = (result.rating - params.virtual_rating) * LN10_400
    g = np.zeros(len(r))
    for b, w, s, d in zip(black.tolist(), white.tolist(), score.tolist(), day.tolist()):
        i, j = row[(b, d)], row[(w, d)]
        p_black = 1.0 / (1.0 + math.exp(r[j] - r[i]))
        g[i] += s - p_black
        g[j] -= s - p_black
    w2 = params.w2 * LN10_400**2
    days = defaultdict(list)
    for i, (p, d) in enumerate(zip(result.player.tolist(), result.day.tolist())):
        days[p].append((d, i))
    for p, items in days.items():
        items.sort()
        first = items[0][1]
        g[first] += params.virtual_games * (0.5 - 1.0 / (1.0 + math.exp(-r[first])))
        for (d1, i1), (d2, i2) in zip(items, items[1:]):
            flow = (r[i2] - r[i1]) / (w2 * (d2 - d1))
            g[i1] += flow
            g[i2] -= flow
    return g


def own_block_deviations(result: WhrFit, black, white, score, day, params: WhrParams, player: int) -> np.ndarray:
    """sqrt(diag(inverse of the player's own negative Hessian block)), dense, in Elo
    (INTERPRETATIONS 3.4), with the reference's 0.001 damping of that block's diagonal."""
    rows = result.history(player)
    d_of = {int(d): k for k, d in enumerate(result.day[rows])}
    m = len(d_of)
    r = (result.rating - params.virtual_rating) * LN10_400
    row = {(int(p), int(d)): i for i, (p, d) in enumerate(zip(result.player, result.day))}
    h = np.zeros((m, m))
    for b, w, d in zip(black.tolist(), white.tolist(), day.tolist()):
        if player in (b, w):
            i, j = row[(b, d)], row[(w, d)]
            p = 1.0 / (1.0 + math.exp(r[j] - r[i]))
            h[d_of[d], d_of[d]] += p * (1.0 - p)
    first = rows.start
    pf = 1.0 / (1.0 + math.exp(-r[first]))
    h[0, 0] += params.virtual_games * pf * (1.0 - pf)
    days = result.day[rows]
    w2 = params.w2 * LN10_400**2
    for k in range(m - 1):
        c = 1.0 / (w2 * (days[k + 1] - days[k]))
        h[k, k] += c
        h[k + 1, k + 1] += c
        h[k, k + 1] -= c
        h[k + 1, k] -= c
    h += W.REFERENCE_HESSIAN_DAMPING * np.eye(m)
    return np.sqrt(np.diag(np.linalg.inv(h))) / LN10_400


def history_arrays(h: History):
    return h.black, h.white, h.score, h.day, h.n_players


@pytest.fixture(scope="module")
def medium():
    return federation_history(n_players=300, n_games=6000, years=12.0, seed=7, regions=6)


@pytest.fixture(scope="module")
def real_games():
    """The 4,644 self-contained games of the real Chinese file, each dated on its tournament's
    last day (# RIF 2021 #8.4; data README)."""
    from app.importers.renju_tsv import parse_path

    parsed = parse_path(REAL_DATA)
    games = [g for g in parsed.games if g.tournament_id in parsed.tournaments and g.result in ("B", "W", "D")]
    ids = sorted({g.black for g in games} | {g.white for g in games}, key=lambda s: (len(s), s))
    index = {pid: i for i, pid in enumerate(ids)}
    black = np.array([index[g.black] for g in games])
    white = np.array([index[g.white] for g in games])
    score = np.array([{"B": 1.0, "D": 0.5, "W": 0.0}[g.result] for g in games])
    day = np.array([parsed.tournaments[g.tournament_id].end.toordinal() for g in games])
    return black, white, score, day, len(ids)


# ------------------------------------------------------------------------------------------------
# against the reference


@needs_reference
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_matches_reference_on_random_small_histories(seed):
    black, white, score, day = random_history(seed, n_players=25, n_games=400, n_days=30)
    result = fit(black, white, score, day, 25)
    assert_matches_reference(result, run_reference(black, white, score, day), 25)


@needs_reference
def test_matches_reference_on_a_federation_shaped_history(medium):
    black, white, score, day, n = history_arrays(medium)
    assert np.mean(score == 0.5) > 0.05  # draws are exercised
    result = fit(black, white, score, day, n)
    assert np.max(np.bincount(result.player)) > 10  # several days per player
    assert_matches_reference(result, run_reference(black, white, score, day), n)


@needs_reference
@pytest.mark.parametrize("w2, virtual_games", [(300.0, 1), (50.0, 3), (19.3, 2)])
def test_matches_reference_with_other_parameters(w2, virtual_games):
    black, white, score, day = random_history(11, n_players=20, n_games=300, n_days=25)
    result = fit(black, white, score, day, 20, WhrParams(w2=w2, virtual_games=virtual_games))
    assert_matches_reference(result, run_reference(black, white, score, day, w2, virtual_games), 20)


@needs_reference
def test_matches_reference_on_the_real_chinese_tournaments(real_games):
    black, white, score, day, n = real_games
    assert len(black) == 4644 and n == 526  # data README
    result = fit(black, white, score, day, n)
    assert result.max_change < 1e-6
    assert_matches_reference(result, run_reference(black, white, score, day), n)


def test_scale_follows_the_virtual_opponent():
    """1900 is the virtual opponent: moving it moves every rating by the same amount; the
    starting point does not change the optimum (INTERPRETATIONS 3.3)."""
    black, white, score, day = random_history(5, n_players=15, n_games=150, n_days=12)
    base = fit(black, white, score, day, 15)
    shifted = fit(black, white, score, day, 15, WhrParams(virtual_rating=2000.0, start_rating=2000.0))
    other_start = fit(black, white, score, day, 15, WhrParams(start_rating=1500.0))
    np.testing.assert_allclose(shifted.rating, base.rating + 100.0, atol=1e-6)
    np.testing.assert_allclose(shifted.deviation, base.deviation, atol=1e-9)
    np.testing.assert_allclose(other_start.rating, base.rating, atol=1e-6)


def test_one_game_by_hand():
    """Two newcomers, one game, one day: by symmetry the winner is as far above 1900 as the loser
    is below, and the first-order condition for the winner is
    1 - P(win) + 2 (1/2 - P(beat a 1900 player)) = 0."""
    result = fit(np.array([0]), np.array([1]), np.array([1.0]), np.array([100]), 2)
    assert result.rating[0] - 1900 == pytest.approx(1900 - result.rating[1], abs=1e-9)
    r = (result.rating[0] - 1900) * LN10_400
    p_win = 1.0 / (1.0 + math.exp(-2 * r))
    p_virtual = 1.0 / (1.0 + math.exp(-r))
    assert 1 - p_win + 2 * (0.5 - p_virtual) == pytest.approx(0.0, abs=1e-12)
    assert result.rating[0] > 1900
    np.testing.assert_array_equal(result.games, [1, 1])


# ------------------------------------------------------------------------------------------------
# convergence, structure, invariances


def test_converges_to_the_maximum_a_posteriori(medium):
    black, white, score, day, n = history_arrays(medium)
    result = fit(black, white, score, day, n)
    assert result.max_change < 1e-6
    assert 1 <= result.newton_steps < 30
    g = posterior_gradient(result, black, white, score, day, WhrParams())
    assert np.max(np.abs(g)) < 1e-7
    # a far tighter fit moves no rating by more than the tolerance
    tight = fit(black, white, score, day, n, tolerance=1e-10)
    assert np.max(np.abs(tight.rating - result.rating)) < 1e-6


def test_gradient_check_would_catch_a_wrong_optimum(medium):
    """The gradient test above is not vacuous: 0.01 Elo off the optimum is visible."""
    black, white, score, day, n = history_arrays(medium)
    result = fit(black, white, score, day, n)
    nudged = WhrFit(result.player, result.day, result.rating + 0.01 * (result.player % 2), result.deviation, result.games)
    assert np.max(np.abs(posterior_gradient(nudged, black, white, score, day, WhrParams()))) > 1e-6


def test_deviation_is_from_the_players_own_block(medium):
    black, white, score, day, n = history_arrays(medium)
    params = WhrParams()
    result = fit(black, white, score, day, n, params)
    players = np.unique(result.player)
    for player in players[:: max(1, len(players) // 12)]:
        rows = result.history(int(player))
        expected = own_block_deviations(result, black, white, score, day, params, int(player))
        np.testing.assert_allclose(result.deviation[rows], expected, rtol=1e-9)


def log_posterior(result: WhrFit, rating: np.ndarray, black, white, score, day, params: WhrParams) -> float:
    """The log-posterior of # RIF 2021 #2-#8 at `rating` (Elo, one per row of `result`), written out
    independently of the engine (up to a constant)."""
    row = {(int(p), int(d)): i for i, (p, d) in enumerate(zip(result.player, result.day))}
    r = (rating - params.virtual_rating) * LN10_400
    i = np.array([row[(b, d)] for b, d in zip(black.tolist(), day.tolist())])
    j = np.array([row[(w, d)] for w, d in zip(white.tolist(), day.tolist())])
    log_p_black = -np.logaddexp(0.0, r[j] - r[i])
    log_p_white = -np.logaddexp(0.0, r[i] - r[j])
    value = float(np.sum(score * log_p_black + (1.0 - score) * log_p_white))  # a draw: sqrt(pA pB)
    first = np.flatnonzero(np.r_[True, result.player[1:] != result.player[:-1]])
    virtual = -0.5 * np.logaddexp(0.0, -r[first]) - 0.5 * np.logaddexp(0.0, r[first])  # draws against 0
    value += params.virtual_games * float(np.sum(virtual))
    same = result.player[1:] == result.player[:-1]
    gap = (result.day[1:] - result.day[:-1])[same]
    value -= float(np.sum(np.diff(r)[same] ** 2 / (2.0 * params.w2 * LN10_400**2 * gap)))
    return value


def test_short_newton_steps_gain_enough_without_a_line_search(medium):
    """maximise() takes a Newton step of at most _SAFE_STEP (natural units) in every rating without
    a line search, because such a step provably gains at least 1.3 % of gradient.step (Armijo asks
    1e-4). Checked on steps from the cold start and from points around the optimum, with loose and
    tight conjugate gradients, shortened to _SAFE_STEP where longer. (The bound is conservative:
    these steps gain most of gradient.step; the test guards the argument, not its sharpness.)"""
    from scipy.linalg.lapack import dpttrf

    black, white, score, day, n = history_arrays(medium)
    params = WhrParams()
    result = fit(black, white, score, day, n)
    problem = W._Problem(*W._validated_games(black, white, score, day, n), params)
    optimum = (result.rating - params.virtual_rating) * LN10_400
    rng = np.random.default_rng(5)
    checked = 0
    for spread in (None, 0.02, 0.1, 0.3, 1.0):  # natural units around the optimum; None: all at 1900
        x = np.zeros(len(optimum)) if spread is None else optimum + rng.normal(0.0, spread, len(optimum))
        grad, diag, q = problem.derivatives(x, problem.differences(x))
        np.maximum(diag, W._MIN_CURVATURE, out=diag)
        matrix = problem._fill_matrix(diag, q)
        pd, pe, _ = dpttrf(diag, -problem.link)
        for rtol in (0.5, 0.1, 1e-3, 1e-10):
            step, _ = W._pcg(matrix, grad, pd, pe, rtol, 0.0)
            step *= min(1.0, W._SAFE_STEP / np.max(np.abs(step)))
            x_elo = x / LN10_400 + params.virtual_rating
            gain = log_posterior(result, x_elo + step / LN10_400, black, white, score, day, params) - log_posterior(
                result, x_elo, black, white, score, day, params
            )
            assert gain >= 0.013 * float(grad @ step) > 0.0
            checked += 1
    assert checked == 20


def test_rows_are_player_days_sorted_with_game_counts(medium):
    black, white, score, day, n = history_arrays(medium)
    result = fit(black, white, score, day, n)
    keys = result.player * 10**7 + result.day
    assert np.all(np.diff(keys) > 0)
    counts = defaultdict(int)
    for b, w, d in zip(black.tolist(), white.tolist(), day.tolist()):
        counts[(b, d)] += 1
        counts[(w, d)] += 1
    assert len(counts) == len(result.player)
    assert all(counts[(p, d)] == g for p, d, g in zip(result.player.tolist(), result.day.tolist(), result.games.tolist()))
    assert result.games.sum() == 2 * len(black)


def test_players_without_games_get_no_rows():
    result = fit(np.array([0, 3]), np.array([3, 0]), np.array([1.0, 0.5]), np.array([5, 9]), 6)
    assert set(result.player.tolist()) == {0, 3}
    rows = result.history(1)
    assert rows.stop == rows.start
    assert rating_on(result, 1, 100, 12.9) is None


def test_no_games():
    result = fit(np.array([], dtype=int), np.array([], dtype=int), np.array([]), np.array([], dtype=int), 4)
    assert len(result.player) == 0
    players, rating, deviation = ratings_on(result, 10, 12.9)
    assert len(players) == len(rating) == len(deviation) == 0


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n_players=st.integers(2, 8),
    n_games=st.integers(1, 40),
    shift=st.integers(-700_000, 700_000),
)
def test_invariant_to_game_order_colours_and_epoch(seed, n_players, n_games, shift):
    black, white, score, day = random_history(seed, n_players, n_games, n_days=6)
    base = fit(black, white, score, day, n_players)
    rng = np.random.default_rng(seed + 1)
    order = rng.permutation(n_games)
    swap = rng.random(n_games) < 0.5
    b2 = np.where(swap, white, black)[order]
    w2 = np.where(swap, black, white)[order]
    s2 = np.where(swap, 1.0 - score, score)[order]
    other = fit(b2, w2, s2, day[order] + shift, n_players)
    np.testing.assert_array_equal(other.player, base.player)
    np.testing.assert_array_equal(other.day, base.day + shift)
    np.testing.assert_allclose(other.rating, base.rating, atol=1e-6)
    np.testing.assert_allclose(other.deviation, base.deviation, atol=1e-6)
    g = posterior_gradient(base, black, white, score, day, WhrParams())
    assert np.max(np.abs(g)) < 1e-7


def test_huge_player_indices_give_the_same_fit():
    """Player indices of 2^44 leave no room to pack key and position into one integer for sorting:
    the stable argsort path must give the same rows and ratings."""
    black, white, score, day = random_history(3, n_players=15, n_games=150, n_days=12)
    base = fit(black, white, score, day, 15)
    big = 2**44
    far = fit(black + big, white + big, score, day, big + 15)
    np.testing.assert_array_equal(far.player, base.player + big)
    np.testing.assert_array_equal(far.day, base.day)
    np.testing.assert_array_equal(far.games, base.games)
    np.testing.assert_allclose(far.rating, base.rating, atol=1e-9)
    np.testing.assert_allclose(far.deviation, base.deviation, atol=1e-9)


def test_extreme_results_do_not_diverge():
    """One player wins 60 games in a row against newcomers on one day, another loses them all:
    the line search keeps the iteration on its way; ratings stay finite and the optimum is found."""
    n = 62
    black = np.concatenate([np.zeros(60, dtype=int), np.arange(2, 62)])
    white = np.concatenate([np.arange(2, 62), np.ones(60, dtype=int)])
    score = np.ones(120)
    day = np.full(120, 1000)
    result = fit(black, white, score, day, n)
    assert np.all(np.isfinite(result.rating))
    assert result.rating[0] > 2400 and result.rating[result.history(1)][0] < 1400
    g = posterior_gradient(result, black, white, score, day, WhrParams())
    assert np.max(np.abs(g)) < 1e-7


@pytest.mark.parametrize("start", [-1e6, -3000.0, 5000.0, 1e6])
def test_far_starting_points_reach_the_same_optimum(start):
    """Plain Newton diverges from such starts (curvatures underflow); the trust region and the
    line search bring it home."""
    black, white, score, day = random_history(8, n_players=20, n_games=200, n_days=15)
    black = np.concatenate([black, np.zeros(30, dtype=int)])  # and a lopsided match
    white = np.concatenate([white, np.ones(30, dtype=int)])
    score = np.concatenate([score, np.ones(30)])
    day = np.concatenate([day, np.full(30, day[0])])
    reference = fit(black, white, score, day, 20)
    far = fit(black, white, score, day, 20, WhrParams(start_rating=start))
    np.testing.assert_allclose(far.rating, reference.rating, atol=1e-5)


# ------------------------------------------------------------------------------------------------
# warm start


def test_warm_start_reaches_the_same_optimum_in_fewer_steps(medium):
    previous = medium.without_last_tournament()
    before = fit(*history_arrays(previous))
    cold = fit(*history_arrays(medium))
    warm = fit(*history_arrays(medium), warm_start=WarmStart.from_fit(before))
    np.testing.assert_array_equal(warm.player, cold.player)
    np.testing.assert_array_equal(warm.day, cold.day)
    assert np.max(np.abs(warm.rating - cold.rating)) < 1e-5
    assert np.max(np.abs(warm.deviation - cold.deviation)) < 1e-5
    assert warm.max_change < 1e-6
    assert warm.newton_steps < cold.newton_steps


def test_the_cold_start_reaches_the_flat_starts_optimum_in_fewer_steps(medium):
    """A cold fit starts from a few per-player sweeps (``Problem.static_ratings``) rather than from
    everyone at the start rating (# RIF 2021 #8.3): the optimum is the same, reached sooner."""
    from app.rating.whr.solver import NATURAL_PER_ELO, Problem

    params = WhrParams()
    problem = Problem(medium.black, medium.white, medium.score.astype(np.float64), medium.day, params)
    tolerance = 1e-6 * NATURAL_PER_ELO
    flat, flat_steps, _ = problem.maximise(
        np.full(problem.n, (params.start_rating - params.virtual_rating) * NATURAL_PER_ELO), tolerance
    )
    static, static_steps, _ = problem.maximise(problem.initial_ratings(None), tolerance)
    assert np.max(np.abs(static - flat)) / NATURAL_PER_ELO < 1e-5
    assert static_steps < flat_steps


@pytest.mark.parametrize("added", [1, 4, 30])
def test_warm_start_result_equals_the_cold_one(medium, added):
    """Warm-started after `added` more tournaments (a newcomer's first day included), the fit is the
    cold one to well within the tolerance: a warm start changes the work, never the result."""
    before = fit(*history_arrays(medium.head(medium.n_tournaments - added)))
    cold = fit(*history_arrays(medium))
    warm = fit(*history_arrays(medium), warm_start=WarmStart.from_fit(before))
    np.testing.assert_array_equal(warm.player, cold.player)
    np.testing.assert_array_equal(warm.day, cold.day)
    np.testing.assert_array_equal(warm.games, cold.games)
    assert np.max(np.abs(warm.rating - cold.rating)) < 1e-6
    assert np.max(np.abs(warm.deviation - cold.deviation)) < 1e-6
    assert warm.max_change < 1e-6 and cold.max_change < 1e-6


def test_warm_start_from_the_optimum_itself_stops_at_once(medium):
    black, white, score, day, n = history_arrays(medium)
    cold = fit(black, white, score, day, n)
    again = fit(black, white, score, day, n, warm_start=WarmStart(cold.player, cold.day, cold.rating))
    assert again.newton_steps <= 2
    assert np.max(np.abs(again.rating - cold.rating)) < 1e-6


def test_warm_start_places_new_days_between_known_ones():
    """A warm start only sets the starting point: rows it does not know are interpolated or held,
    and nonsense in it cannot change the optimum."""
    black, white, score, day = random_history(21, n_players=12, n_games=120, n_days=10)
    cold = fit(black, white, score, day, 12)
    junk = WarmStart(np.array([0, 0, 5, 99]), np.array([0, 10**6, 730_500, 5]), np.array([3000.0, 800.0, 1900.0, 2500.0]))
    warm = fit(black, white, score, day, 12, warm_start=junk)
    np.testing.assert_allclose(warm.rating, cold.rating, atol=1e-5)
    with pytest.raises(ValueError):
        fit(black, white, score, day, 12, warm_start=WarmStart(np.array([0, 1]), np.array([5]), np.array([1900.0])))


# ------------------------------------------------------------------------------------------------
# rating on a date (INTERPRETATIONS 3.6)


@pytest.fixture
def hand_fit():
    return WhrFit(
        player=np.array([0, 0, 0, 2]),
        day=np.array([10, 20, 40, 15]),
        rating=np.array([2000.0, 2100.0, 1900.0, 1800.0]),
        deviation=np.array([50.0, 40.0, 60.0, 100.0]),
        games=np.array([3, 2, 5, 7]),
    )


def test_rating_on_a_playing_day_is_that_days_rating(hand_fit):
    assert rating_on(hand_fit, 0, 20, 12.9) == (2100.0, 40.0)
    assert rating_on(hand_fit, 2, 15, 12.9) == (1800.0, 100.0)


def test_rating_before_the_first_day_is_none(hand_fit):
    assert rating_on(hand_fit, 0, 9, 12.9) is None
    assert rating_on(hand_fit, 2, 14, 12.9) is None
    assert rating_on(hand_fit, 1, 1000, 12.9) is None  # never played


def test_rating_between_two_days_is_interpolated(hand_fit):
    rating, deviation = rating_on(hand_fit, 0, 15, 12.9)
    assert rating == pytest.approx(2050.0)
    # Brownian bridge (12.9 * 5 * 5 / 10) plus the interpolated deviation (45)
    assert deviation == pytest.approx(math.sqrt(12.9 * 2.5 + 45.0**2))
    rating, deviation = rating_on(hand_fit, 0, 35, 12.9)
    assert rating == pytest.approx(2100.0 + (1900.0 - 2100.0) * 15 / 20)
    assert deviation == pytest.approx(math.sqrt(12.9 * 15 * 5 / 20 + (0.25 * 40 + 0.75 * 60) ** 2))


def test_rating_after_the_last_day_is_held_and_its_deviation_grows(hand_fit):
    rating, deviation = rating_on(hand_fit, 0, 140, 12.9)
    assert rating == 1900.0
    assert deviation == pytest.approx(math.sqrt(60.0**2 + 12.9 * 100))
    rating, deviation = rating_on(hand_fit, 2, 15 + 365, 19.3)
    assert (rating, deviation) == (1800.0, pytest.approx(math.sqrt(100.0**2 + 19.3 * 365)))


def test_ratings_on_is_rating_on_for_everyone(medium, hand_fit):
    result = fit(*history_arrays(medium))
    for f in (hand_fit, result):
        lo, hi = int(f.day.min()), int(f.day.max())
        for day in [lo - 1, lo, (lo + hi) // 3, (lo + hi) // 2 + 1, hi, hi + 400]:
            players, rating, deviation = ratings_on(f, day, 12.9)
            expected = {p: rating_on(f, p, day, 12.9) for p in np.unique(f.player).tolist()}
            expected = {p: v for p, v in expected.items() if v is not None}
            assert players.tolist() == sorted(expected)
            for p, r, s in zip(players.tolist(), rating, deviation):
                assert r == pytest.approx(expected[p][0], abs=1e-9)
                assert s == pytest.approx(expected[p][1], abs=1e-9)


def test_games_on_counts_rated_games_and_last_day(hand_fit):
    players, games, last = W.games_on(hand_fit, 25)
    assert players.tolist() == [0, 2]
    assert games.tolist() == [5, 7]
    assert last.tolist() == [20, 15]
    players, games, last = W.games_on(hand_fit, 9)
    assert players.tolist() == [] and games.tolist() == [] and last.tolist() == []


# ------------------------------------------------------------------------------------------------
# status (# RIF 2021 #10, INTERPRETATIONS 3.5)


LIST_DAY = date(2024, 6, 15)


def test_status_nine_games_is_provisional_ten_is_established():
    recent = date(2024, 6, 1)
    assert status_on(9, recent, LIST_DAY) is Status.PROVISIONAL
    assert status_on(0, recent, LIST_DAY) is Status.PROVISIONAL
    assert status_on(10, recent, LIST_DAY) is Status.ACTIVE
    assert status_on(9, date(2001, 1, 1), LIST_DAY) is Status.PROVISIONAL
    assert status_on(10, date(2001, 1, 1), LIST_DAY) is Status.INACTIVE


def test_status_exactly_five_years_is_active_a_day_more_is_not():
    assert status_on(10, date(2019, 6, 15), LIST_DAY) is Status.ACTIVE
    assert status_on(10, date(2019, 6, 14), LIST_DAY) is Status.INACTIVE
    # ordinals work the same as dates
    assert status_on(25, date(2019, 6, 15).toordinal(), LIST_DAY.toordinal()) is Status.ACTIVE
    assert status_on(25, date(2019, 6, 14).toordinal(), LIST_DAY.toordinal()) is Status.INACTIVE
    assert W.active_cutoff(LIST_DAY) == date(2019, 6, 15).toordinal()


def test_status_five_years_across_29_february():
    assert W.active_cutoff(date(2024, 2, 29)) == date(2019, 2, 28).toordinal()
    assert status_on(10, date(2019, 2, 28), date(2024, 2, 29)) is Status.ACTIVE
    assert status_on(10, date(2019, 2, 27), date(2024, 2, 29)) is Status.INACTIVE
    # a game on 29 February 2020 is within 5 years on 28 February 2025 (cutoff 28 February 2020)
    # and not on 1 March 2025 (cutoff 1 March 2020)
    assert status_on(10, date(2020, 2, 29), date(2025, 2, 28)) is Status.ACTIVE
    assert status_on(10, date(2020, 2, 29), date(2025, 3, 1)) is Status.INACTIVE


def test_statuses_on_is_status_on_vectorised():
    games = np.array([9, 10, 10, 10, 30])
    last = np.array([date(2024, 1, 1), date(2019, 6, 15), date(2019, 6, 14), date(2024, 6, 15), date(1990, 1, 1)])
    last = np.array([d.toordinal() for d in last])
    statuses = W.statuses_on(games, last, LIST_DAY)
    assert statuses.tolist() == [status_on(int(g), int(d), LIST_DAY) for g, d in zip(games, last)]
    assert statuses.tolist() == ["provisional", "active", "inactive", "active", "inactive"]
    assert all(isinstance(s, Status) for s in statuses)


# ------------------------------------------------------------------------------------------------
# input validation


GOOD = (np.array([0, 1]), np.array([1, 2]), np.array([1.0, 0.5]), np.array([10, 11]))


@pytest.mark.parametrize(
    "black, white, score, day, message",
    [
        (np.array([0, 1]), np.array([1, 1]), GOOD[2], GOOD[3], "himself"),
        (GOOD[0], GOOD[1], np.array([1.0, 0.25]), GOOD[3], "score"),
        (GOOD[0], GOOD[1], np.array([1.0, 2.0]), GOOD[3], "score"),
        (GOOD[0], GOOD[1], np.array([1.0, np.nan]), GOOD[3], "score"),
        (GOOD[0], GOOD[1], np.array([1.0]), GOOD[3], "same length"),
        (GOOD[0], np.array([1, 2, 0]), GOOD[2], GOOD[3], "same length"),
        (GOOD[0], GOOD[1], GOOD[2], np.array([10]), "same length"),
        (np.array([0, 3]), GOOD[1], GOOD[2], GOOD[3], "outside"),
        (np.array([-1, 1]), GOOD[1], GOOD[2], GOOD[3], "outside"),
        (GOOD[0], GOOD[1], GOOD[2], np.array([10.5, 11.0]), "integers"),
    ],
)
def test_invalid_games_are_rejected(black, white, score, day, message):
    with pytest.raises(ValueError, match=message):
        fit(black, white, score, day, 3)


@pytest.mark.parametrize(
    "params",
    [WhrParams(w2=0.0), WhrParams(w2=-1.0), WhrParams(w2=math.nan), WhrParams(virtual_games=0), WhrParams(virtual_games=1.5)],
)
def test_invalid_parameters_are_rejected(params):
    with pytest.raises(ValueError):
        fit(*GOOD, 3, params)


def test_invalid_tolerance_and_player_count_are_rejected():
    with pytest.raises(ValueError):
        fit(*GOOD, 3, tolerance=0.0)
    with pytest.raises(ValueError):
        fit(*GOOD, -1)


def test_a_packed_fit_stores_player_ids_as_utf8_and_reads_blobs_written_before(medium):
    """The warm start's ids cost their bytes, not 4 a character padded to the longest (decision 123),
    and a snapshot's blob written before that still warm-starts the same players."""
    import io

    from app.rating.whr.rating_list import _pack_fit, _warm_start

    fitted = fit(*history_arrays(medium))
    ids = [f"p{i}" for i in range(medium.n_players - 1)] + ["a-player-id-of-sixty-characters-" + "x" * 28]
    packed = _pack_fit(fitted, ids)
    with np.load(io.BytesIO(packed)) as arrays:
        assert "player_ids" not in arrays
        assert arrays["player_ids_utf8"].nbytes == len("\n".join(ids))
    before = io.BytesIO()
    np.savez(before, player_ids=np.array(ids, dtype=str), player=fitted.player, day=fitted.day, rating=fitted.rating)
    assert len(packed) < len(before.getvalue()) / 2
    index = {player_id: n for n, player_id in enumerate(reversed(ids))}
    new, old = _warm_start(packed, index), _warm_start(before.getvalue(), index)
    assert new is not None and old is not None
    np.testing.assert_array_equal(new.player, len(ids) - 1 - fitted.player)
    for field in ("player", "day", "rating"):
        np.testing.assert_array_equal(getattr(new, field), getattr(old, field))


# --- a prefix of a problem (the forward evaluation's refits, issue 45) ------------------------------


PROBLEM_ARRAYS = (
    "row_player",
    "row_day",
    "row_games",
    "link",
    "_neg_link",
    "prior_diag",
    "first",
    "pair_lo",
    "pair_hi",
    "pair_n",
    "pair_s",
    "_pos_diag",
    "_pos_up",
    "_pos_low",
)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_prefix_of_a_problem_is_the_problem_its_games_build(seed):
    # Problem.before(day) masks the whole history's structure instead of building the prefix anew:
    # every array a fit reads must be the one the build gives, bit for bit, for any day (each day of
    # the history, and one before every game and one after them all).
    from app.rating.whr.solver import Problem

    black, white, score, day = random_history(seed, 30, 600, 30, in_day_order=True)
    params = WhrParams()
    whole = Problem(black, white, score, day, params)
    days = np.unique(day)
    for cut in [int(days[0]), *days[1::2].tolist(), int(days[-1]) + 1]:
        k = int(np.searchsorted(day, cut))
        built = Problem(black[:k], white[:k], score[:k], day[:k], params)
        prefix = whole.before(cut)
        assert prefix.n == built.n
        if not built.n:
            continue
        for name in PROBLEM_ARRAYS:
            got, expected = getattr(prefix, name), getattr(built, name)
            assert got.dtype == expected.dtype, name
            np.testing.assert_array_equal(got, expected, err_msg=name)
        for name in ("indptr", "indices", "data"):
            got, expected = getattr(prefix.matrix, name), getattr(built.matrix, name)
            assert got.dtype == expected.dtype, name
            np.testing.assert_array_equal(got, expected, err_msg=name)
        # and so its fit is the build's, to the last bit
        x = prefix.maximise(prefix.initial_ratings(None), 1e-6)[0]
        np.testing.assert_array_equal(x, built.maximise(built.initial_ratings(None), 1e-6)[0])
