"""The Olufsen calculators (text 001) and the general performance rating: check the envelope and each
player's state (with pointers), turn them into the rules' plain values (``app.rating.olufsen.rules``),
and shape their results. Nothing is stored."""

from collections import Counter
from typing import Any

from app.rating import olufsen
from app.rating.calculators import CalculationRefused, Calculator, Pointer, WebsiteForm, envelope_errors, refuse_if_any
from app.rating.olufsen import calculator_examples as examples
from app.rating.olufsen import calculator_models as schemas
from app.rating.rounding import round_half_away_from_zero
from app.rating.system import SCORE_OF_RESULT


def tournament(body: schemas.OlufsenTournamentIn) -> schemas.OlufsenTournamentOut:
    errors = envelope_errors(body.players, body.games, game_errors=_handicap_errors) + _games_per_player_errors(body)
    refuse_if_any(errors + [error for index, player in enumerate(body.players) for error in state_errors(index, player)])
    states = {player.id: _state(player) for player in body.players}
    games = [olufsen.Game(game.black, game.white, SCORE_OF_RESULT[game.result]) for game in body.games if _rated(game)]
    options = olufsen.Options(provisional_highest_grade=body.options.provisional_highest_grade, fesa=body.options.fesa)
    position = {player.id: index for index, player in enumerate(body.players)}
    try:
        results = olufsen.rate_table(states, games, options)
    except olufsen.TooManyGames as error:
        raise CalculationRefused(str(error), [Pointer(f"/players/{position[error.player_id]}", str(error))]) from error
    except olufsen.UndeterminedRatings as error:
        raise CalculationRefused(
            str(error), [Pointer(f"/players/{position[p]}", "rating not determined") for p in error.player_ids]
        ) from error
    except olufsen.OlufsenError as error:
        raise CalculationRefused(f"The rules cannot be applied to this input: {error}") from error
    return schemas.OlufsenTournamentOut(
        system="olufsen", precision=olufsen.TABLE_TOLERANCE, players=[_player_out(result) for result in results]
    )


def performance(body: schemas.PerformanceIn) -> schemas.PerformanceOut:
    opponents = [result.opponent_rating for result in body.results]
    scores = [float(result.score) for result in body.results]
    try:
        value = olufsen.performance_rating(opponents, scores, base=body.base, scale=body.scale)
    except olufsen.PerformanceUndefined as error:
        raise CalculationRefused(
            "A performance rating is not defined at 0 % or 100 % (001 (5)).", [Pointer("/results", str(error))]
        ) from error
    return schemas.PerformanceOut(
        performance_rating=value,
        rounded=round_half_away_from_zero(value),
        games=len(scores),
        score=sum(scores),
        precision=olufsen.PERFORMANCE_PRECISION,
        method="scipy.optimize.brentq on Σ expected − score, bracketed so that the root is inside",
    )


# --------------------------------------------------------------------------------------------------


# The calculator endpoints, mounted under /v1/calc from the registry (app/api/calculators.py).
ENDPOINTS = (
    Calculator(
        path="/olufsen/tournament",
        operation_id="calc_olufsen_tournament",
        doc="""Rate one table under the Olufsen shogi rules

        One table (a tournament, or the part of one rated at once) under text 001. Established and
        provisional players are rated against their opponents' ratings after the table, so the table is a
        set of simultaneous equations, solved until no rating moves by 1e-9 (001 (8), INTERPRETATIONS 2.7).
        Unrated players get their performance rating over their recorded results and this table (001 (6));
        a provisional player's change is multiplied by 18/n (001 (9)), a game against a player with fewer
        than 18 games is reduced (001 (10)), a large gain earns the bonus of 001 (11) up to the performance
        rating, and grades are awarded by the bounds and streaks of 001 (12). Each player's change is
        rounded once (INTERPRETATIONS 2.1).

        Send each player's `state` from the answer, unchanged, as his input for his next table. At most
        16 rated games per player (001 (13)): a longer table must be split. Nothing is stored; no key is
        needed.""",
        request_model=schemas.OlufsenTournamentIn,
        response_model=schemas.OlufsenTournamentOut,
        function=tournament,
        request_examples=examples.OLUFSEN_REQUESTS,
        response_examples=examples.OLUFSEN_EXAMPLES,
        website=WebsiteForm(
            slug="olufsen-table",
            title="Olufsen shogi: one table",
            about="Text 001: each game's k, expected score, d, the (10) factor and 18/n, the bonus of (11), grades.",
        ),
    ),
    Calculator(
        path="/performance",
        operation_id="calc_performance",
        doc="""Performance rating of a set of results

        The rating at which rating these results would change nothing: the single P whose expected score
        against the opponents equals the score (001 (5), INTERPRETATIONS 2.4), every game weighted
        equally. `base` and `scale` make it serve any Elo-type system: 10 and 400 (the default) for the
        Olufsen rules, 2 and 120 for RIF Elo. It does not exist at a score of 0 % or 100 %: those are a
        422. Nothing is stored; no key is needed.""",
        request_model=schemas.PerformanceIn,
        response_model=schemas.PerformanceOut,
        function=performance,
        request_examples=examples.PERFORMANCE_REQUESTS,
        response_examples=examples.PERFORMANCE_EXAMPLES,
        within_budget=False,
    ),
)


def _rated(game: schemas.OlufsenGameIn) -> bool:
    # 001 (4): games not played are not rated; handicap games are not rated (INTERPRETATIONS 2.17).
    return game.played and game.rated


def _handicap_errors(index: int, game: schemas.OlufsenGameIn) -> list[Pointer]:
    if game.handicap and game.rated and game.played:
        return [
            Pointer(
                f"/games/{index}/handicap",
                "a handicap game cannot be rated: 001 has no rules for handicap games; send it with rated: false",
            )
        ]
    return []


def _games_per_player_errors(body: schemas.OlufsenTournamentIn) -> list[Pointer]:
    """001 (13): at most 16 rated games per player in one table."""
    rated_games = Counter(side for game in body.games if _rated(game) for side in (game.black, game.white))
    return [
        Pointer(f"/players/{index}", str(olufsen.TooManyGames(player.id, rated_games[player.id])))
        for index, player in enumerate(body.players)
        if rated_games[player.id] > olufsen.MAX_GAMES_PER_TABLE
    ]


def state_errors(index: int, player: schemas.OlufsenPlayerIn) -> list[Pointer]:
    """What a player's state before a table contradicts in 001 (3), (6), (7) and (12); a list's seed
    carrying the same state is checked by it too."""
    where = f"/players/{index}"
    errors: list[Pointer] = []
    real_results = [r for r in player.prior_results if not r.dummy]
    if player.category != "unrated":
        if player.rating is None:
            errors.append(Pointer(f"{where}/rating", f"a {player.category} player needs his rating"))
        if player.prior_results:
            errors.append(Pointer(f"{where}/prior_results", "prior results are kept only while a player is unrated (001 (6))"))
    if (games_error := olufsen.games_of_category_error(olufsen.Category(player.category), player.rated_games)) is not None:
        errors.append(
            Pointer(
                f"{where}/rated_games",
                f"{games_error}: `category` is his category after his last table, counted without this one "
                "(the category this table rates him in, its games counted, is the answer's `category`)",
            )
        )
    if player.category == "unrated":
        if len(real_results) != player.rated_games:
            errors.append(
                Pointer(
                    f"{where}/prior_results",
                    f"an unrated player is rated from all his results (001 (6)): {player.rated_games} rated games "
                    f"need {player.rated_games} prior results, not {len(real_results)}",
                )
            )
        recorded = [olufsen.RecordedResult(r.opponent_rating, float(r.score), r.dummy) for r in player.prior_results]
        if player.rated_games >= 9 and olufsen.standing(player.rated_games, recorded, True) is not olufsen.Category.UNRATED:
            errors.append(
                Pointer(f"{where}/category", "mixed results and 9 or more rated games: this player is provisional (001 (3))")
            )
    held = max((olufsen.grade_index(g) for g in (player.grade, player.pending_grade) if g is not None), default=-1)
    if (
        player.pending_grade is not None
        and player.grade is not None
        and olufsen.grade_index(player.pending_grade) <= olufsen.grade_index(player.grade)
    ):
        errors.append(Pointer(f"{where}/pending_grade", "a pending grade is above the grade held"))
    streak_grades: set[str] = set()
    for position, streak in enumerate(player.streaks):
        at = f"{where}/streaks/{position}"
        row = olufsen.grade_row(streak.grade)
        if olufsen.grade_index(streak.grade) <= held or streak.grade in streak_grades:
            errors.append(Pointer(f"{at}/grade", "streaks are kept once per grade above the one held"))
        streak_grades.add(streak.grade)
        if streak.games_above_midpoint > streak.games_above_lower_bound:
            errors.append(Pointer(f"{at}/games_above_midpoint", "a game above MP is also above LB"))
        if streak.games_above_midpoint and not streak.midpoint_in_lower_bound_run:
            errors.append(Pointer(f"{at}/midpoint_in_lower_bound_run", "the MP run lies inside the LB run"))
        rating = player.rating if player.rating is not None else -1
        if (streak.games_above_lower_bound and rating <= row.lower_bound) or (
            streak.games_above_midpoint and rating <= row.midpoint
        ):
            errors.append(Pointer(at, "a run goes up to the last game, so the rating is above its limit"))
    return errors


def _state(player: schemas.OlufsenPlayerIn) -> olufsen.PlayerState:
    if player.category == "unrated" and player.rated_games == 0 and not player.prior_results and player.grade:
        # 001 (7): a newcomer with a prior grade starts with the two dummy results at its MP.
        start = olufsen.newcomer(player.grade)
        return olufsen.PlayerState(
            rating=player.rating,
            recorded_results=start.recorded_results,
            grades=olufsen.GradeState(player.grade, player.pending_grade, _streaks(player)),
        )
    return olufsen.PlayerState(
        rating=player.rating,
        rated_games=player.rated_games,
        category=olufsen.Category(player.category),
        recorded_results=tuple(olufsen.RecordedResult(r.opponent_rating, float(r.score), r.dummy) for r in player.prior_results),
        grades=olufsen.GradeState(player.grade, player.pending_grade, _streaks(player)),
    )


def _streaks(player: schemas.OlufsenPlayerIn) -> tuple[olufsen.Streak, ...]:
    return tuple(
        olufsen.Streak(s.grade, s.games_above_lower_bound, s.games_above_midpoint, s.midpoint_in_lower_bound_run)
        for s in player.streaks
    )


def _player_out(result: olufsen.PlayerResult) -> schemas.OlufsenPlayerOut:
    # Validated from the rules' plain values: the grades and routes are the model's literals.
    return schemas.OlufsenPlayerOut.model_validate(
        {
            "id": result.id,
            "category": result.category.value,
            "games": result.games,
            "score": result.score,
            "rating_before": result.rating_before,
            "rating_after": result.rating_after,
            "change": result.change,
            "change_unrounded": result.change_unrounded,
            "rating_after_unrounded": result.rating_after_unrounded,
            "category_after": result.category_after.value,
            "performance_rating": result.performance_rating,
            "bonus_applied": result.bonus_applied,
            "bonus_capped": result.bonus_capped,
            "grade_before": result.grade_before,
            "grade_after": result.grade_after,
            "pending_grade_after": result.pending_grade_after,
            "promotions": [
                {"grade": p.grade, "route": p.route.value, "pending_approval": p.pending_approval} for p in result.promotions
            ],
            "state": _state_out(result.id, result.state),
            "seed": _seed_out(result.state),
            "change_before_bonus": result.change_before_bonus,
            "bonus_threshold": result.bonus_threshold,
            "change_with_uncapped_bonus": result.change_with_uncapped_bonus,
            "game_figures": [figures.__dict__ for figures in result.game_figures],
        }
    )


def _state_out(player_id: str, state: olufsen.PlayerState) -> schemas.OlufsenPlayerIn:
    return schemas.OlufsenPlayerIn.model_validate(
        {
            "id": player_id,
            "rating": state.rating,
            "rated_games": state.rated_games,
            "category": state.category.value,
            "prior_results": [
                {"opponent_rating": r.opponent_rating, "score": _score(r.score), "dummy": r.dummy} for r in state.recorded_results
            ],
            "grade": state.grades.grade,
            "pending_grade": state.grades.pending_grade,
            "streaks": [s.__dict__ for s in state.grades.streaks],
        }
    )


def _seed_out(state: olufsen.PlayerState) -> dict[str, Any] | None:
    """The state as the body of PUT /v1/rating-lists/{list_id}/seeds/{player_id} (with its as_of)."""
    if state.rating is None:
        return None
    return {
        "rating": state.rating,
        "status": state.category.value,
        "title": state.grades.grade,
        "counters": {
            "rated_games": state.rated_games,
            "pending_grade": state.grades.pending_grade,
            "streaks": [s.__dict__ for s in state.grades.streaks],
            "prior_results": [
                {"opponent_rating": r.opponent_rating, "score": _score(r.score), "dummy": r.dummy} for r in state.recorded_results
            ],
        },
    }


def _score(score: float) -> float | int:
    # The schema's Score is the literal 0, 0.5 or 1.
    return int(score) if score in (0.0, 1.0) else score
