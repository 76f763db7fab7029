"""Examples of the Olufsen calculators: a small table with a newcomer, and three results rated on two scales.

Each response example is what the service answers to the request example of the same name:
tests/project/test_documentation.py sends every request example and compares.
"""

from typing import Any

from app.rating.calculators import answers
from app.rating.olufsen.calculator_models import PERFORMANCE_EXAMPLE, TOURNAMENT_EXAMPLE

OLUFSEN_REQUESTS: dict[str, dict[str, Any]] = {
    "small": {
        "summary": "Four players over three rounds, one newcomer with a grade",
        "value": TOURNAMENT_EXAMPLE,
    },
}

PERFORMANCE_REQUESTS: dict[str, dict[str, Any]] = {
    "olufsen": {
        "summary": "Three results on the Olufsen scale (base 10, scale 400)",
        "value": PERFORMANCE_EXAMPLE,
    },
    "rif": {
        "summary": "The same results on the RIF Elo scale (base 2, scale 120)",
        "value": {**PERFORMANCE_EXAMPLE, "base": 2, "scale": 120},
    },
}

OLUFSEN_ANSWERS: dict[str, Any] = {
    "small": {
        "system": "olufsen",
        "precision": 1e-09,
        "players": [
            {
                "id": "andersen",
                "category": "established",
                "games": 3,
                "score": 3.0,
                "rating_before": 1843,
                "rating_after": 1849,
                "change": 6,
                "change_unrounded": 6.231730743219941,
                "rating_after_unrounded": 1849.23173074322,
                "category_after": "established",
                "performance_rating": 1827.798656536351,
                "bonus_applied": 0.0,
                "bonus_capped": False,
                "change_before_bonus": 6.231730743216927,
                "bonus_threshold": 29.0,
                "change_with_uncapped_bonus": None,
                "game_figures": [
                    {
                        "opponent": "eriksen",
                        "score": 1.0,
                        "opponent_rating": 1299.6115056451026,
                        "k": 24,
                        "expected": 0.9580328789014941,
                        "d": 1.0072109063641408,
                        "opponent_factor": 0.5833333333333334,
                        "provisional_factor": 1.0,
                        "change": 0.5875396953790821,
                    },
                    {
                        "opponent": "berg",
                        "score": 1.0,
                        "opponent_rating": 1570.7817091053857,
                        "k": 24,
                        "expected": 0.8273575774258825,
                        "d": 4.143418141778821,
                        "opponent_factor": 0.9166666666666667,
                        "provisional_factor": 1.0,
                        "change": 3.7981332966305863,
                    },
                    {
                        "opponent": "dahl",
                        "score": 1.0,
                        "opponent_rating": 1411.3177055662004,
                        "k": 24,
                        "expected": 0.9230809270330309,
                        "d": 1.8460577512072582,
                        "opponent_factor": 1.0,
                        "provisional_factor": 1.0,
                        "change": 1.8460577512072582,
                    },
                ],
                "grade_before": "2d",
                "grade_after": "2d",
                "pending_grade_after": None,
                "promotions": [],
                "state": {
                    "id": "andersen",
                    "rating": 1849,
                    "rated_games": 64,
                    "category": "established",
                    "prior_results": [],
                    "grade": "2d",
                    "pending_grade": None,
                    "streaks": [],
                },
                "seed": {
                    "rating": 1849,
                    "status": "established",
                    "title": "2d",
                    "counters": {"rated_games": 64, "pending_grade": None, "streaks": [], "prior_results": []},
                },
            },
            {
                "id": "berg",
                "category": "provisional",
                "games": 3,
                "score": 0.5,
                "rating_before": 1604,
                "rating_after": 1571,
                "change": -33,
                "change_unrounded": -33.218290894614256,
                "rating_after_unrounded": 1570.7817091053857,
                "category_after": "provisional",
                "performance_rating": 1151.655090428663,
                "bonus_applied": 0.0,
                "bonus_capped": False,
                "change_before_bonus": -33.21829089462172,
                "bonus_threshold": 29.0,
                "change_with_uncapped_bonus": None,
                "game_figures": [
                    {
                        "opponent": "dahl",
                        "score": 0.0,
                        "opponent_rating": 1411.3177055662004,
                        "k": 24,
                        "expected": 0.7519740517774065,
                        "d": -18.047377242657756,
                        "opponent_factor": 1.0,
                        "provisional_factor": 1.2,
                        "change": -21.656852691189307,
                    },
                    {
                        "opponent": "eriksen",
                        "score": 0.5,
                        "opponent_rating": 1299.6115056451026,
                        "k": 24,
                        "expected": 0.8522302004133857,
                        "d": -8.453524809921257,
                        "opponent_factor": 0.5833333333333334,
                        "provisional_factor": 1.2,
                        "change": -5.91746736694488,
                    },
                    {
                        "opponent": "andersen",
                        "score": 0.0,
                        "opponent_rating": 1849.23173074322,
                        "k": 24,
                        "expected": 0.1959712096002614,
                        "d": -4.703309030406274,
                        "opponent_factor": 1.0,
                        "provisional_factor": 1.2,
                        "change": -5.6439708364875285,
                    },
                ],
                "grade_before": "2k",
                "grade_after": "2k",
                "pending_grade_after": None,
                "promotions": [],
                "state": {
                    "id": "berg",
                    "rating": 1571,
                    "rated_games": 15,
                    "category": "provisional",
                    "prior_results": [],
                    "grade": "2k",
                    "pending_grade": None,
                    "streaks": [
                        {
                            "grade": "1k",
                            "games_above_lower_bound": 3,
                            "games_above_midpoint": 0,
                            "midpoint_in_lower_bound_run": False,
                        }
                    ],
                },
                "seed": {
                    "rating": 1571,
                    "status": "provisional",
                    "title": "2k",
                    "counters": {
                        "rated_games": 15,
                        "pending_grade": None,
                        "streaks": [
                            {
                                "grade": "1k",
                                "games_above_lower_bound": 3,
                                "games_above_midpoint": 0,
                                "midpoint_in_lower_bound_run": False,
                            }
                        ],
                        "prior_results": [],
                    },
                },
            },
            {
                "id": "dahl",
                "category": "established",
                "games": 3,
                "score": 2.0,
                "rating_before": 1388,
                "rating_after": 1411,
                "change": 23,
                "change_unrounded": 23.317705566200402,
                "rating_after_unrounded": 1411.3177055662004,
                "category_after": "established",
                "performance_rating": 1739.8994687600425,
                "bonus_applied": 0.0,
                "bonus_capped": False,
                "change_before_bonus": 23.317705566191027,
                "bonus_threshold": 29.0,
                "change_with_uncapped_bonus": None,
                "game_figures": [
                    {
                        "opponent": "andersen",
                        "score": 0.0,
                        "opponent_rating": 1849.23173074322,
                        "k": 28,
                        "expected": 0.0656776225785686,
                        "d": -1.838973432199921,
                        "opponent_factor": 1.0,
                        "provisional_factor": 1.0,
                        "change": -1.838973432199921,
                    },
                    {
                        "opponent": "eriksen",
                        "score": 1.0,
                        "opponent_rating": 1299.6115056451026,
                        "k": 28,
                        "expected": 0.6245263141092563,
                        "d": 10.513263204940824,
                        "opponent_factor": 0.5833333333333334,
                        "provisional_factor": 1.0,
                        "change": 6.132736869548814,
                    },
                    {
                        "opponent": "berg",
                        "score": 1.0,
                        "opponent_rating": 1570.7817091053857,
                        "k": 28,
                        "expected": 0.2588074495256311,
                        "d": 20.753391413282326,
                        "opponent_factor": 0.9166666666666667,
                        "provisional_factor": 1.0,
                        "change": 19.023942128842133,
                    },
                ],
                "grade_before": "4k",
                "grade_after": "4k",
                "pending_grade_after": None,
                "promotions": [],
                "state": {
                    "id": "dahl",
                    "rating": 1411,
                    "rated_games": 36,
                    "category": "established",
                    "prior_results": [],
                    "grade": "4k",
                    "pending_grade": None,
                    "streaks": [
                        {
                            "grade": "3k",
                            "games_above_lower_bound": 7,
                            "games_above_midpoint": 1,
                            "midpoint_in_lower_bound_run": True,
                        }
                    ],
                },
                "seed": {
                    "rating": 1411,
                    "status": "established",
                    "title": "4k",
                    "counters": {
                        "rated_games": 36,
                        "pending_grade": None,
                        "streaks": [
                            {
                                "grade": "3k",
                                "games_above_lower_bound": 7,
                                "games_above_midpoint": 1,
                                "midpoint_in_lower_bound_run": True,
                            }
                        ],
                        "prior_results": [],
                    },
                },
            },
            {
                "id": "eriksen",
                "category": "unrated",
                "games": 3,
                "score": 0.5,
                "rating_before": None,
                "rating_after": 1300,
                "change": None,
                "change_unrounded": None,
                "rating_after_unrounded": 1299.6115056451026,
                "category_after": "unrated",
                "performance_rating": 1273.7133508852332,
                "bonus_applied": 0.0,
                "bonus_capped": False,
                "change_before_bonus": None,
                "bonus_threshold": None,
                "change_with_uncapped_bonus": None,
                "game_figures": [
                    {
                        "opponent": "berg",
                        "score": 0.5,
                        "opponent_rating": 1570.7817091053857,
                        "k": None,
                        "expected": None,
                        "d": None,
                        "opponent_factor": None,
                        "provisional_factor": None,
                        "change": None,
                    },
                    {
                        "opponent": "andersen",
                        "score": 0.0,
                        "opponent_rating": 1849.23173074322,
                        "k": None,
                        "expected": None,
                        "d": None,
                        "opponent_factor": None,
                        "provisional_factor": None,
                        "change": None,
                    },
                    {
                        "opponent": "dahl",
                        "score": 0.0,
                        "opponent_rating": 1411.3177055662004,
                        "k": None,
                        "expected": None,
                        "d": None,
                        "opponent_factor": None,
                        "provisional_factor": None,
                        "change": None,
                    },
                ],
                "grade_before": "4k",
                "grade_after": "4k",
                "pending_grade_after": None,
                "promotions": [],
                "state": {
                    "id": "eriksen",
                    "rating": 1300,
                    "rated_games": 3,
                    "category": "unrated",
                    "prior_results": [
                        {"opponent_rating": 1320.0, "score": 1.0, "dummy": True},
                        {"opponent_rating": 1320.0, "score": 0.0, "dummy": True},
                        {"opponent_rating": 1571.0, "score": 0.5, "dummy": False},
                        {"opponent_rating": 1849.0, "score": 0.0, "dummy": False},
                        {"opponent_rating": 1411.0, "score": 0.0, "dummy": False},
                    ],
                    "grade": "4k",
                    "pending_grade": None,
                    "streaks": [],
                },
                "seed": {
                    "rating": 1300,
                    "status": "unrated",
                    "title": "4k",
                    "counters": {
                        "rated_games": 3,
                        "pending_grade": None,
                        "streaks": [],
                        "prior_results": [
                            {"opponent_rating": 1320.0, "score": 1.0, "dummy": True},
                            {"opponent_rating": 1320.0, "score": 0.0, "dummy": True},
                            {"opponent_rating": 1571.0, "score": 0.5, "dummy": False},
                            {"opponent_rating": 1849.0, "score": 0.0, "dummy": False},
                            {"opponent_rating": 1411.0, "score": 0.0, "dummy": False},
                        ],
                    },
                },
            },
        ],
    }
}

# fmt: off
PERFORMANCE_ANSWERS: dict[str, Any] = {
    "olufsen": {
        "performance_rating": 1610.5837063863207, "rounded": 1611, "games": 3, "score": 1.5,
        "precision": 1e-09,
        "method": "scipy.optimize.brentq on Σ expected − score, bracketed so that the root is inside",
    },
    "rif": {
        "performance_rating": 1610.5764228089458, "rounded": 1611, "games": 3, "score": 1.5,
        "precision": 1e-09,
        "method": "scipy.optimize.brentq on Σ expected − score, bracketed so that the root is inside",
    },
}
# fmt: on

OLUFSEN_EXAMPLES = answers(OLUFSEN_REQUESTS, OLUFSEN_ANSWERS)
PERFORMANCE_EXAMPLES = answers(PERFORMANCE_REQUESTS, PERFORMANCE_ANSWERS)
