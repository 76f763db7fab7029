"""Evaluations of a rating list (app/rating/evaluation.py, app/rating/whr/forecast.py; issue 45): the
scores by hand, WHR's holdout against the reference ``whr`` package's ``Evaluate``, forward forecasts
that never see a game of the predicted game's day or later, each system's own expected score, and
the parameter sweep of one parameter and of two."""

from __future__ import annotations

import dataclasses
import datetime as dt
import math

import numpy as np
import pytest

from app.rating import whr
from app.rating.evaluation import EvaluationPlan, Forecasts, best_pair, forecast, score, sweep, sweep_grid, wilson_interval
from app.rating.registry import get_system, systems
from app.rating.system import GameColumns, ReplayInput, Seed, StoredGame, StoredTournament
from app.rating.whr import forecast as fx
from app.rating.whr.rating_list import WhrListParams
from tests.helpers import random_history

try:
    import whr as whr_reference
except ImportError:  # the reference is a dev dependency; only the comparison needs it
    whr_reference = None
needs_reference = pytest.mark.skipif(whr_reference is None, reason="the reference package `whr` is not installed")

RESULT_CODE = {1.0: "B", 0.5: "D", 0.0: "W"}
START = dt.date(2005, 1, 10)  # before RIF Elo's last replayed day (2021-08-07), after its switch to 1997


# --- shared histories ------------------------------------------------------------------------------


def random_games(seed: int, n_players: int = 25, n_games: int = 500, n_days: int = 40, draw_rate: float = 0.15):
    """Unstructured random games on days a few weeks apart over a few years (several months, several
    days a player, draws), in day order."""
    black, white, score_, day = random_history(
        seed, n_players, n_games, n_days, draw_rate, spacing=25, first_day=START.toordinal(), in_day_order=True
    )
    return black.astype(np.int64), white.astype(np.int64), score_, day.astype(np.int64)


def whr_input(black, white, score_, day, n_players: int, **params: float) -> ReplayInput[WhrListParams]:
    """A columnar WHR input: one tournament per day."""
    distinct, tournament = np.unique(day, return_inverse=True)
    tournaments = [
        StoredTournament(f"t{i:03d}", dt.date.fromordinal(int(d)), dt.date.fromordinal(int(d)), [])
        for i, d in enumerate(distinct)
    ]
    columns = GameColumns(
        [str(i) for i in range(n_players)], black, white, np.asarray(score_, float), day, tournament.astype(np.int64)
    )
    return ReplayInput(tournaments, [], WhrListParams(**params), dt.date(2010, 1, 1), None, columns)


def round_robins(seed: int = 1, n_players: int = 12, n_tournaments: int = 10, **fields: object) -> list[StoredTournament]:
    """Round robins of 6 of the players, 45 days apart, each over three days; every player declares 2 dan
    (a rank, for the systems that start newcomers from one)."""
    rng = np.random.default_rng(seed)
    strength = rng.normal(0.0, 1.0, n_players)
    tournaments = []
    for k in range(n_tournaments):
        end = START + dt.timedelta(days=45 * k + 2)
        players = rng.choice(n_players, 6, replace=False)
        games = []
        for i in range(6):
            for j in range(i + 1, 6):
                b, w = (players[i], players[j]) if rng.random() < 0.5 else (players[j], players[i])
                p = 1.0 / (1.0 + math.exp(strength[w] - strength[b]))
                result = 0.5 if rng.random() < 0.1 else float(rng.random() < p)
                games.append(StoredGame(None, end - dt.timedelta(days=(i + j) % 3), f"p{b}", f"p{w}", result, round=str(i + 1)))
        tournaments.append(
            StoredTournament(
                f"t{k:02d}",
                end - dt.timedelta(days=2),
                end,
                games,
                fields=dict(fields),
                participants={f"p{p}": {"rank": "2d"} for p in players},
            )
        )
    return tournaments


def sequential_input(system_id: str, tournaments: list[StoredTournament]) -> ReplayInput:
    """An input each sequential system can rate from its first tournament: RIF Elo with its bootstrap
    rating (INTERPRETATIONS 1.18), Olufsen and ERU with everyone seeded, Rivne from the declared ranks."""
    system = get_system(system_id)
    seeds: list[Seed] = []
    stored: dict[str, object] = {}
    if system_id == "rif-elo":
        stored = {"bootstrap_rating": 1800}
    elif system_id == "olufsen":
        seeds = [Seed(f"p{i}", 1500, "established", START - dt.timedelta(days=30)) for i in range(12)]
    elif system_id == "eru":
        seeds = [Seed(f"p{i}", 1500, "estonian", START - dt.timedelta(days=30), "1d") for i in range(12)]
        tournaments = [dataclasses.replace(t, fields={**t.fields, "eru_calendar": True}) for t in tournaments]
    return ReplayInput(tournaments, seeds, system.params(stored), dt.date(2007, 1, 1))


# --- scores by hand --------------------------------------------------------------------------------


def hand_forecasts() -> Forecasts:
    return Forecasts(
        expected=np.array([0.8, 0.3, 0.5, 0.65, 0.85]),
        observed=np.array([1.0, 0.0, 0.5, 0.0, 0.5]),
        rating=np.array([2000.0, 1800.0, 1900.0, 2100.0, 2050.0]),
        opponent_rating=np.array([1900.0, 1950.0, 1900.0, 2000.0, 1850.0]),
        day=np.array([dt.date(2019, 3, 1), dt.date(2019, 5, 1), dt.date(2019, 5, 1), dt.date(2020, 1, 1), dt.date(2020, 2, 1)])
        .astype("datetime64[D]")
        .astype(np.int64)
        + dt.date(1970, 1, 1).toordinal(),
        considered=7,
        unscored=2,
        rule="test",
    )


def test_scores_of_five_games_by_hand():
    scores = score(hand_forecasts())
    assert scores.games == 5
    # s ln p + (1 - s) ln(1 - p): a draw half of each
    ll = [math.log(0.8), math.log(0.7), math.log(0.5), math.log(0.35), 0.5 * math.log(0.85) + 0.5 * math.log(0.15)]
    assert scores.mean_log_likelihood == pytest.approx(sum(ll) / 5, abs=1e-15)
    assert scores.brier == pytest.approx((0.04 + 0.09 + 0.0 + 0.4225 + 0.1225) / 5, abs=1e-15)
    # decisive: games 0, 1, 3; the favourite (p > 0.5, or white where p < 0.5) won 0 and 1, lost 3
    assert scores.decisive_games == 3
    assert scores.favourite_won == pytest.approx(2 / 3)
    assert len(scores.calibration) == 10
    top = scores.calibration[8]  # [0.8, 0.9): 0.8 (won) and 0.85 (drawn)
    assert (top.low, top.high, top.games) == (0.8, 0.9, 2)
    assert top.mean_expected == pytest.approx(0.825) and top.observed == pytest.approx(0.75)
    # Wilson: n = 2, p = 0.75, z = 1.96: (p + z²/2n ± z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)
    z = 1.959963984540054
    centre = (0.75 + z * z / 4) / (1 + z * z / 2)
    half = z / (1 + z * z / 2) * math.sqrt(0.75 * 0.25 / 2 + z * z / 16)
    assert (top.interval_low, top.interval_high) == (pytest.approx(centre - half), pytest.approx(centre + half))
    assert (top.interval_low, top.interval_high) == (pytest.approx(0.19787, abs=1e-5), pytest.approx(0.97332, abs=1e-5))
    assert scores.calibration[0].games == 0 and scores.calibration[0].observed is None  # empty bins kept
    assert [(g.label, g.games) for g in scores.by_band] == [("1800–2000", 4), ("2000–2200", 1)]
    assert [(g.label, g.games) for g in scores.by_gap] == [("0–100", 1), ("100–200", 3), ("200–300", 1)]
    assert [(g.label, g.games) for g in scores.by_year] == [("2019", 3), ("2020", 2)]
    year_2020 = scores.by_year[1]
    assert year_2020.mean_log_likelihood == pytest.approx((ll[3] + ll[4]) / 2)
    assert year_2020.brier == pytest.approx((0.4225 + 0.1225) / 2)
    assert (year_2020.mean_expected, year_2020.observed) == (pytest.approx(0.75), pytest.approx(0.25))
    assert all(type(v) in (int, float) for v in (scores.mean_log_likelihood, scores.brier, year_2020.games, top.games))


def test_a_certain_expectation_that_fails_costs_ln_1e6_not_infinity():
    f = hand_forecasts()
    certain = dataclasses.replace(f, expected=np.array([1.0, 0.0, 1.0, 1.0, 1.0]), observed=np.array([0.0, 0.0, 1.0, 1.0, 1.0]))
    scores = score(certain)
    assert scores.mean_log_likelihood == pytest.approx((math.log(1e-6) + 4 * math.log1p(-1e-6)) / 5)
    assert scores.calibration[9].games == 4  # 1.0 falls in the last bin
    assert wilson_interval(1.0, 4)[1] == 1.0


def test_no_scored_game_gives_no_means():
    empty = np.zeros(0)
    scores = score(Forecasts(empty, empty, empty, empty, np.zeros(0, dtype=np.int64), 3, 3, "x"))
    assert (scores.games, scores.mean_log_likelihood, scores.brier, scores.favourite_won) == (0, None, None, None)
    assert len(scores.calibration) == 10 and scores.by_band == [] and scores.by_year == []


# --- WHR's holdout is the reference's Evaluate --------------------------------------------------------


@needs_reference
@pytest.mark.parametrize("seed, every, offset, w2", [(1, 10, 0, 12.9), (2, 5, 3, 50.0), (3, 4, 1, 300.0)])
def test_whr_holdout_equals_the_reference_evaluate(seed, every, offset, w2):
    black, white, score_, day = random_games(seed)
    given = whr_input(black, white, score_, day, 25, w2=w2)
    forecasts = forecast(get_system("rif-whr"), given, EvaluationPlan("holdout", every=every, offset=offset))
    order = np.argsort(day, kind="stable")
    held = np.zeros(len(day), dtype=bool)
    held[order[offset::every]] = True
    games = [
        [str(b), str(w), RESULT_CODE[s], int(d)]
        for b, w, s, d in zip(black.tolist(), white.tolist(), score_.tolist(), day.tolist())
    ]
    base = whr_reference.Base(config={"w2": w2, "virtual_games": 2})
    base.create_games([g for g, h in zip(games, held.tolist()) if not h])
    base.iterate_until_converge(False)  # (iterate(100) stops short of the optimum on some histories)
    evaluate = whr_reference.Evaluate(base)
    expected = evaluate.evaluate_ave_log_likelihood_games([g for g, h in zip(games, held.tolist()) if h])
    assert forecasts.considered == int(held.sum())
    assert score(forecasts).mean_log_likelihood == pytest.approx(expected, abs=1e-6)
    # and game by game: each player's rating as get_rating reads it (the reference's scale is ours - 1900),
    # the same games scored (those where both players have one)
    targets = order[offset::every]
    reference = [
        (evaluate.get_rating(str(b), d), evaluate.get_rating(str(w), d))
        for b, w, d in zip(black[targets].tolist(), white[targets].tolist(), day[targets].tolist())
    ]
    known = [(rb + 1900, rw + 1900) for rb, rw in reference if rb is not None and rw is not None]
    assert forecasts.unscored == len(targets) - len(known)
    np.testing.assert_allclose(np.column_stack((forecasts.rating, forecasts.opponent_rating)), known, atol=1e-3)


def test_whr_holdout_leaves_a_player_without_a_fitted_day_unscored():
    # p2 plays only the held-out game (number 0)
    black, white, score_ = np.array([0, 0, 1, 0]), np.array([2, 1, 0, 1]), np.array([1.0, 0.0, 0.5, 1.0])
    day = np.array([START.toordinal()] * 2 + [START.toordinal() + 30] * 2)
    forecasts = forecast(get_system("rif-whr"), whr_input(black, white, score_, day, 3), EvaluationPlan("holdout", every=2))
    assert (forecasts.considered, forecasts.unscored, len(forecasts)) == (2, 1, 1)


def test_whr_evaluates_a_list_of_no_game_or_one():
    system = get_system("rif-whr")
    none = np.zeros(0, dtype=np.int64)
    for black, white, score_, day in (
        (none, none, np.zeros(0), none),
        (np.array([0]), np.array([1]), np.array([1.0]), np.array([START.toordinal()])),
    ):
        for plan in (EvaluationPlan(), EvaluationPlan("holdout", every=2)):
            forecasts = forecast(system, whr_input(black, white, score_, day, 2), plan)
            assert (len(forecasts), forecasts.considered, forecasts.unscored) == (0, len(day), len(day))


# --- forward never sees the game's day or later ----------------------------------------------------------


def test_whr_forward_does_not_see_a_later_game():
    black, white, score_, day = random_games(4)
    system = get_system("rif-whr")
    before = forecast(system, whr_input(black, white, score_, day, 25), EvaluationPlan())
    # A surprise on the last day: the weakest-looking player beats the strongest
    last = int(day.max())
    planted_day = last + 1
    fitted = whr.fit(black, white, score_, day, 25)
    _, held, _ = whr.ratings_on(fitted, last, 12.9)
    weak, strong = int(np.argmin(held)), int(np.argmax(held))
    with_planted = [np.append(a, v) for a, v in zip((black, white, score_, day), (weak, strong, 1.0, planted_day))]
    after = forecast(system, whr_input(*with_planted, 25), EvaluationPlan())
    # every game before the planted game's period (and in it, before it) is predicted as before
    earlier = after.day < planted_day
    for name in ("expected", "rating", "opponent_rating", "observed", "day"):
        np.testing.assert_array_equal(getattr(after, name)[earlier], getattr(before, name))
    # while a fit of the whole history would have moved those players' earlier ratings
    refit = whr.fit(*with_planted, 25)
    assert abs(whr.rating_on(refit, weak, last, 12.9)[0] - whr.rating_on(fitted, weak, last, 12.9)[0]) > 1.0


def test_whr_forward_refits_once_a_month():
    # Three months; in each a game of p0 against p1. The third month's game is predicted from a fit of
    # the first two months' games, the second month's from the first's.
    first = dt.date(2011, 1, 20).toordinal()
    day = np.array([first, first + 15, first + 40])  # 20 January, 4 February, 1 March
    black, white, score_ = np.array([0, 0, 0]), np.array([1, 1, 1]), np.array([1.0, 1.0, 0.0])
    forecasts = forecast(get_system("rif-whr"), whr_input(black, white, score_, day, 2), EvaluationPlan())
    assert (forecasts.considered, forecasts.unscored) == (3, 1)
    one = whr.fit(black[:1], white[:1], score_[:1], day[:1], 2)
    two = whr.fit(black[:2], white[:2], score_[:2], day[:2], 2)
    np.testing.assert_allclose(forecasts.rating, [one.rating[0], two.rating[1]], atol=1e-3)
    # Two-month periods: the first two games are in the first period, unscored.
    assert forecast(get_system("rif-whr"), whr_input(black, white, score_, day, 2), EvaluationPlan(period_months=2)).unscored == 2


def refit_forward(black, white, score_, day, n_players: int, period_months: int) -> tuple[np.ndarray, np.ndarray]:
    """The forward plan as plainly as it reads (the algorithm before issue 45's speed-up): at each
    period's start a cold ``whr.fit`` of every game before it, and each game of the period predicted
    from each player's rating on his last fitted day (NaN: none). The games in day order."""
    month = np.array([dt.date.fromordinal(int(d)).year * 12 + dt.date.fromordinal(int(d)).month - 1 for d in day])
    period = (month - month[0]) // period_months
    rating = np.full(len(day), np.nan)
    opponent = np.full(len(day), np.nan)
    for p in np.unique(period)[1:].tolist():
        start, stop = np.searchsorted(period, p), np.searchsorted(period, p, side="right")
        fitted = whr.fit(black[:start], white[:start], score_[:start], day[:start], n_players)
        held = np.full(n_players, np.nan)
        held[fitted.player] = fitted.rating  # rows by (player, day): each player's last one stays
        rating[start:stop], opponent[start:stop] = held[black[start:stop]], held[white[start:stop]]
    return rating, opponent


@pytest.mark.parametrize(("seed", "period_months"), [(5, 1), (6, 1), (7, 2)])
def test_whr_forward_equals_a_plain_refit_of_each_period(seed, period_months):
    # The forward plan fits a prefix of one structure built once (Problem.before), warm-started, to
    # FIT_TOLERANCE (1e-4 Elo a Newton step): it must predict what plain cold refits of each period's
    # games to 1e-6 Elo predict, to 1e-3 Elo a rating and 1e-6 a probability, the same games scored.
    black, white, score_, day = random_games(seed, n_players=40, n_games=800, n_days=60)
    forecasts = forecast(
        get_system("rif-whr"), whr_input(black, white, score_, day, 40), EvaluationPlan(period_months=period_months)
    )
    rating, opponent = refit_forward(black, white, score_, day, 40, period_months)
    scored = ~(np.isnan(rating) | np.isnan(opponent))
    assert (forecasts.considered, forecasts.unscored) == (len(day), int((~scored).sum()))
    assert forecasts.unscored > 0 and len(forecasts) > 500
    np.testing.assert_array_equal(forecasts.game, np.flatnonzero(scored))
    np.testing.assert_allclose(forecasts.rating, rating[scored], rtol=0, atol=1e-3)
    np.testing.assert_allclose(forecasts.opponent_rating, opponent[scored], rtol=0, atol=1e-3)
    np.testing.assert_allclose(forecasts.expected, fx.win_probabilities(rating[scored], opponent[scored]), rtol=0, atol=1e-6)


@pytest.mark.parametrize("system_id", ["rivne", "rif-elo"])
def test_a_sequential_forward_does_not_see_a_later_game(system_id):
    system = get_system(system_id)
    tournaments = round_robins()
    before = forecast(system, sequential_input(system_id, tournaments), EvaluationPlan())
    assert len(before) > 50
    # A later tournament: the players' results reversed, over days after the last one
    last = tournaments[-1]
    reversed_games = [
        dataclasses.replace(g, date=last.end + dt.timedelta(days=10), black_score=1.0 - g.black_score) for g in last.games
    ]
    planted = dataclasses.replace(
        last, id="t99", start=last.end + dt.timedelta(days=10), end=last.end + dt.timedelta(days=10), games=reversed_games
    )
    with_planted = sequential_input(system_id, [*tournaments, planted])
    after = forecast(system, with_planted, EvaluationPlan())
    earlier = after.day <= last.end.toordinal()
    for name in ("expected", "rating", "opponent_rating", "observed", "day"):
        np.testing.assert_array_equal(getattr(after, name)[earlier], getattr(before, name))
    # The planted games themselves are predicted from the list as it stood after the last tournament...
    assert int((~earlier).sum()) == len(reversed_games)
    # ... and it would have changed the list of the full history.
    final = {e.player_id: e.rating for e in system.replay(with_planted).entries}
    assert final != {e.player_id: e.rating for e in system.replay(sequential_input(system_id, tournaments)).entries}


def test_a_tournaments_own_games_never_feed_its_predictions():
    # Rivne dates a tournament's ratings at its end: every game of a tournament, on any of its days,
    # is predicted from the ratings before it began (the tournament's players all played before).
    system = get_system("rivne")
    tournaments = round_robins(n_players=6)  # the same six players every time
    forecasts = forecast(system, sequential_input("rivne", tournaments), EvaluationPlan())
    points = system.replay(sequential_input("rivne", tournaments[:1])).points
    after_first = {p.player_id: p.rating for p in points}
    second = tournaments[1].games
    in_second = (forecasts.day >= tournaments[1].start.toordinal()) & (forecasts.day <= tournaments[1].end.toordinal())
    assert int(in_second.sum()) == len(second)
    np.testing.assert_array_equal(
        forecasts.rating[in_second], [after_first[g.black] for g in sorted(second, key=lambda g: g.date)]
    )


def test_a_newcomer_is_predicted_from_what_his_system_rated_him_from_and_a_handicap_counts():
    # Rivne rates a newcomer from the rank declared at his first tournament (004 (5)): the first
    # tournament's games are predicted from the ratings it started them from (its changes'
    # rating_before), not left unscored, each by SE with the stones' worth on black's side,
    # RA# = RA + (N·100 - 50) (004 (7)).
    system = get_system("rivne")
    first = round_robins(n_tournaments=1)[0]
    ranks = iter(["5k", "3k", "1k", "1d", "2d", "3d"])
    participants = {player: {"rank": next(ranks)} for player in sorted(first.participants)}
    games = [dataclasses.replace(g, handicap=2) if i == 0 else g for i, g in enumerate(first.games)]
    given = sequential_input("rivne", [dataclasses.replace(first, games=games, participants=participants)])
    started = {change.player_id: change.rating_before for change in system.replay(given).changes}
    assert len(set(started.values())) == 6  # six ranks, six start ratings
    forecasts = forecast(system, given, EvaluationPlan())
    assert forecasts.unscored == 0 and len(forecasts) == len(games)
    by_day = sorted(games, key=lambda g: g.date)  # (the stated order: by day, then as submitted)
    for i, game in enumerate(by_day):
        assert forecasts.rating[i] == started[game.black] and forecasts.opponent_rating[i] == started[game.white]
        stones = 150.0 if game.handicap == 2 else 0.0
        expected = system.expected_score(started[game.black] + stones, started[game.white], game.date, given.params)
        assert forecasts.expected[i] == pytest.approx(expected.score, abs=1e-14)
    assert any(g.handicap == 2 for g in by_day)


def test_a_sequential_holdout_replays_without_the_held_out_games():
    system = get_system("rivne")
    given = sequential_input("rivne", round_robins())
    forecasts = forecast(system, given, EvaluationPlan("holdout", every=3, offset=2))
    assert forecasts.considered == 50  # of 150 games, numbers 2, 5, ..., 149
    assert forecasts.unscored + len(forecasts) == 50


# --- each system's own expected score ----------------------------------------------------------------------


@pytest.mark.parametrize("system_id", [s.id for s in systems()])
def test_each_system_predicts_by_its_own_expected_score(system_id):
    system = get_system(system_id)
    if system.columnar:
        given = whr_input(*random_games(5), 25)
    else:
        given = sequential_input(system_id, round_robins())
    forecasts = forecast(system, given, EvaluationPlan())
    assert len(forecasts) > 10
    for i in (0, len(forecasts) // 2, len(forecasts) - 1):
        on = dt.date.fromordinal(int(forecasts.day[i]))
        expectation = system.expected_score(float(forecasts.rating[i]), float(forecasts.opponent_rating[i]), on, given.params)
        assert forecasts.expected[i] == pytest.approx(expectation.score, abs=1e-14)
        assert expectation.rule in forecasts.rule.split("; ")


def test_bad_plans_and_systems_without_an_expectation_are_refused():
    system = get_system("rif-whr")
    given = whr_input(*random_games(6), 25)
    for plan, message in (
        (EvaluationPlan("holdout", every=1), "every"),
        (EvaluationPlan("holdout", every=5, offset=5), "offset"),
        (EvaluationPlan("holdout", every=5, offset=-1), "offset"),
        (EvaluationPlan(period_months=0), "period_months"),
        (EvaluationPlan("backward"), "mode"),  # type: ignore[arg-type]
    ):
        with pytest.raises(ValueError, match=message):
            forecast(system, given, plan)
    with pytest.raises(ValueError, match="no expected score"):
        forecast(dataclasses.replace(system, expected_score=None), given, EvaluationPlan())


# --- the sweep -----------------------------------------------------------------------------------------------


def test_sweep_finds_the_best_w2_and_its_interval():
    black, white, score_, day = random_games(7, n_games=800)
    given = whr_input(black, white, score_, day, 25)
    values = [3.0, 12.9, 50.0, 200.0, 800.0, 3200.0]
    result = sweep(get_system("rif-whr"), given, EvaluationPlan("holdout", every=4), "w2", values)
    assert result.parameter == "w2" and result.current == 12.9
    assert [p.value for p in result.points] == values
    totals = [p.mean_log_likelihood * p.games for p in result.points]
    assert result.best == values[int(np.argmax(totals))]
    assert result.interval_low <= result.best <= result.interval_high
    inside = [v for v, t in zip(values, totals) if t >= max(totals) - 1.92]
    assert (result.interval_low, result.interval_high) == (min(inside), max(inside))
    one = score(
        forecast(
            get_system("rif-whr"), dataclasses.replace(given, params=WhrListParams(w2=50.0)), EvaluationPlan("holdout", every=4)
        )
    )
    assert result.points[2].mean_log_likelihood == one.mean_log_likelihood


def test_sweep_refuses_an_unknown_parameter_or_an_invalid_value():
    system = get_system("rif-whr")
    given = whr_input(*random_games(8), 25)
    with pytest.raises(ValueError, match="no parameter 'k_factor'"):
        sweep(system, given, EvaluationPlan("holdout"), "k_factor", [1.0])
    with pytest.raises(ValueError, match="w2 = -1.0 is not a valid value"):
        sweep(system, given, EvaluationPlan("holdout"), "w2", [12.9, -1.0])


def test_a_sweep_of_two_parameters_finds_the_best_pair_and_each_profile_interval():
    """Against the one-parameter sweep run once per value of the second parameter: each pair's total,
    the best pair, and each parameter's profile (its best total over the other) and interval by hand."""
    black, white, score_, day = random_games(7, n_games=800)
    given = whr_input(black, white, score_, day, 25)
    system, plan = get_system("rif-whr"), EvaluationPlan("holdout", every=4)
    w2s, virtual = [3.0, 12.9, 200.0, 3200.0], [1.0, 2.0, 6.0]
    told = []
    result = sweep_grid(
        system, given, plan, "w2", w2s, "virtual_games", virtual, progress=lambda done, cells: told.append((done, cells))
    )
    assert told == [(n, 12) for n in range(1, 13)]
    rows = [
        sweep(system, dataclasses.replace(given, params=WhrListParams(virtual_games=int(v))), plan, "w2", w2s) for v in virtual
    ]
    totals = np.array([[p.mean_log_likelihood * p.games for p in row.points] for row in rows]).T  # [w2, virtual_games]
    assert [(p.value, p.second_value) for p in result.grid] == [(w, v) for w in w2s for v in virtual]
    assert [p.mean_log_likelihood * p.games for p in result.grid] == pytest.approx(totals.ravel().tolist(), abs=1e-9)
    i, j = np.unravel_index(int(np.argmax(totals)), totals.shape)
    pair = best_pair(result.grid)
    assert (pair.value, pair.second_value) == (w2s[i], virtual[j])
    assert (result.best, result.and_parameter.best) == (w2s[i], virtual[j])
    for curve, values, profile in ((result, w2s, totals.max(axis=1)), (result.and_parameter, virtual, totals.max(axis=0))):
        assert [p.value for p in curve.points] == values
        assert [p.mean_log_likelihood * p.games for p in curve.points] == pytest.approx(profile.tolist(), abs=1e-9)
        inside = [v for v, t in zip(values, profile) if t >= profile.max() - 1.92]
        assert (curve.interval_low, curve.interval_high) == (min(inside), max(inside))
    assert (result.parameter, result.current) == ("w2", 12.9)
    assert (result.and_parameter.parameter, result.and_parameter.current) == ("virtual_games", 2.0)
    assert result.and_parameter.grid is None and result.and_parameter.and_parameter is None


def test_a_sweep_of_two_parameters_refuses_one_parameter_twice_or_a_pair_the_rules_refuse():
    system = get_system("rif-whr")
    given = whr_input(*random_games(8), 25)
    with pytest.raises(ValueError, match="'w2' twice"):
        sweep_grid(system, given, EvaluationPlan("holdout"), "w2", [6.0, 12.9], "w2", [20.0, 25.0])
    with pytest.raises(ValueError, match="w2 = 6.0, virtual_games = 1.5 is not a valid value"):
        sweep_grid(system, given, EvaluationPlan("holdout"), "w2", [6.0, 12.9], "virtual_games", [1.0, 1.5])
    with pytest.raises(ValueError, match="no parameter 'k_factor'"):
        sweep_grid(system, given, EvaluationPlan("holdout"), "w2", [6.0, 12.9], "k_factor", [1.0, 2.0])
