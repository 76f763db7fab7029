"""Examples of the Estonian calculators: the text's own norms of a 9 kyu (ERU 4.3) and a small tournament.

Each response example is what the service answers to the request example of the same name:
tests/project/test_documentation.py sends every request example and compares.
"""

from typing import Any

from app.rating.calculators import answers
from app.rating.eru.calculator_models import NORMS_EXAMPLE
from app.rating.eru.calculator_models import TOURNAMENT_EXAMPLE as ERU_TOURNAMENT_EXAMPLE

ERU_NORMS_REQUESTS: dict[str, dict[str, Any]] = {
    "text-10-games": {
        "summary": "The text's example: a 9 kyu against ten 9 kyu",
        "description": "ERU 4.3: he needs 6.5 points for 8 kyu, 8.0 for 7 kyu and 3.0 to keep 9 kyu; with 6 he keeps it.",
        "value": NORMS_EXAMPLE,
    },
    "text-7-games": {
        "summary": "The text's example with 7 games: 4.55 rounds up to 5.0",
        "description": "ERU 4.3: against seven 9 kyu the norm for 8 kyu is 4.55, rounded up to 5.0, and for 7 kyu "
        "5.6, rounded up to 6.0; 5 points give 8 kyu.",
        "value": {
            **NORMS_EXAMPLE,
            "games": [{"opponent_rank": "9k", "score": 1}] * 5 + [{"opponent_rank": "9k", "score": 0}] * 2,
        },
    },
}

ERU_TOURNAMENT_REQUESTS: dict[str, dict[str, Any]] = {
    "small": {"summary": "Four players, one of them new", "value": ERU_TOURNAMENT_EXAMPLE},
}

ERU_NORMS_ANSWERS: dict[str, Any] = {
    "text-10-games": {
        "games_counted": 10,
        "score": 6.0,
        "norms": {"keep": 3.0, "up1": 6.5, "up2": 8.0},
        "new_rank": "9k",
        "decision": "kept",
        "norm_reached": "keep",
        "reason": "9k: 6.0 points from 10 games against ranked opponents. Keeps 9k: the keep norm 3.0 is reached, the +1 kyu norm 6.5 is not (ERU 4.3).",
        "games": [
            {"opponent_rank": "9k", "score": 1.0, "counted": True, "keep": 30, "up1": 65, "up2": 80},
            {"opponent_rank": "9k", "score": 1.0, "counted": True, "keep": 30, "up1": 65, "up2": 80},
            {"opponent_rank": "9k", "score": 1.0, "counted": True, "keep": 30, "up1": 65, "up2": 80},
            {"opponent_rank": "9k", "score": 1.0, "counted": True, "keep": 30, "up1": 65, "up2": 80},
            {"opponent_rank": "9k", "score": 1.0, "counted": True, "keep": 30, "up1": 65, "up2": 80},
            {"opponent_rank": "9k", "score": 1.0, "counted": True, "keep": 30, "up1": 65, "up2": 80},
            {"opponent_rank": "9k", "score": 0.0, "counted": True, "keep": 30, "up1": 65, "up2": 80},
            {"opponent_rank": "9k", "score": 0.0, "counted": True, "keep": 30, "up1": 65, "up2": 80},
            {"opponent_rank": "9k", "score": 0.0, "counted": True, "keep": 30, "up1": 65, "up2": 80},
            {"opponent_rank": "9k", "score": 0.0, "counted": True, "keep": 30, "up1": 65, "up2": 80},
        ],
    },
    "text-7-games": {
        "games_counted": 7,
        "score": 5.0,
        "norms": {"keep": 2.5, "up1": 5.0, "up2": 6.0},
        "new_rank": "8k",
        "decision": "promoted",
        "norm_reached": "up1",
        "reason": "9k: 5.0 points from 7 games against ranked opponents. Promoted to 8k: the +1 kyu norm 5.0 is reached (ERU 4.3) and the tournament meets the conditions of 8k (ERU 4.5).",
        "games": [
            {"opponent_rank": "9k", "score": 1.0, "counted": True, "keep": 30, "up1": 65, "up2": 80},
            {"opponent_rank": "9k", "score": 1.0, "counted": True, "keep": 30, "up1": 65, "up2": 80},
            {"opponent_rank": "9k", "score": 1.0, "counted": True, "keep": 30, "up1": 65, "up2": 80},
            {"opponent_rank": "9k", "score": 1.0, "counted": True, "keep": 30, "up1": 65, "up2": 80},
            {"opponent_rank": "9k", "score": 1.0, "counted": True, "keep": 30, "up1": 65, "up2": 80},
            {"opponent_rank": "9k", "score": 0.0, "counted": True, "keep": 30, "up1": 65, "up2": 80},
            {"opponent_rank": "9k", "score": 0.0, "counted": True, "keep": 30, "up1": 65, "up2": 80},
        ],
    },
}
ERU_TOURNAMENT_ANSWERS: dict[str, Any] = {
    "small": {
        "system": "eru",
        "players": [
            {
                "games_counted": 1,
                "score": 1.0,
                "norms": {"keep": 0.5, "up1": 1.0, "up2": None},
                "new_rank": "3d",
                "decision": "not-evaluated",
                "norm_reached": None,
                "reason": "3d: 1.0 points from 1 games against ranked opponents. Not evaluated: at least 7 games against ranked opponents are needed (ERU 4.5); the rank stays 3d.",
                "games": [{"opponent_rank": "2d", "score": 1.0, "counted": True, "keep": 45, "up1": 90, "up2": None}],
                "id": "ando",
                "rank_before": "3d",
                "rating_before": 2050,
                "rating_after": 2063,
                "change": 13,
                "rating_games_counted": 1,
                "rating_reason": "2050 +13 from 1 games by the table, each at the start rating (ERU 4.9).",
                "seed": {
                    "rating": 2063,
                    "status": "estonian",
                    "title": "3d",
                    "counters": {"first_rank": None, "rating_bonus": False},
                },
                "rating_games": [{"opponent": "tunnet", "score": 1.0, "opponent_rating": 1980, "difference": 70, "change": 13}],
            },
            {
                "games_counted": 2,
                "score": 0.5,
                "norms": {"keep": 1.0, "up1": 2.0, "up2": None},
                "new_rank": "2d",
                "decision": "not-evaluated",
                "norm_reached": None,
                "reason": "2d: 0.5 points from 2 games against ranked opponents. Not evaluated: at least 7 games against ranked opponents are needed (ERU 4.5); the rank stays 2d.",
                "games": [
                    {"opponent_rank": "3d", "score": 0.0, "counted": True, "keep": 15, "up1": 60, "up2": None},
                    {"opponent_rank": "1k", "score": 0.5, "counted": True, "keep": 60, "up1": 105, "up2": None},
                ],
                "id": "tunnet",
                "rank_before": "2d",
                "rating_before": 1980,
                "rating_after": 1957,
                "change": -23,
                "rating_games_counted": 2,
                "rating_reason": "1980 -23 from 2 games by the table, each at the start rating (ERU 4.9).",
                "seed": {
                    "rating": 1957,
                    "status": "estonian",
                    "title": "2d",
                    "counters": {"first_rank": None, "rating_bonus": False},
                },
                "rating_games": [
                    {"opponent": "ando", "score": 0.0, "opponent_rating": 2050, "difference": 70, "change": -13},
                    {"opponent": "maris", "score": 0.5, "opponent_rating": 1720, "difference": 260, "change": -10},
                ],
            },
            {
                "games_counted": 1,
                "score": 0.5,
                "norms": {"keep": 0.0, "up1": 0.5, "up2": None},
                "new_rank": "1k",
                "decision": "not-evaluated",
                "norm_reached": None,
                "reason": "1k: 0.5 points from 1 games against ranked opponents. Not evaluated: at least 7 games against ranked opponents are needed (ERU 4.5); the rank stays 1k.",
                "games": [
                    {"opponent_rank": None, "score": 0.0, "counted": False, "keep": None, "up1": None, "up2": None},
                    {"opponent_rank": "2d", "score": 0.5, "counted": True, "keep": 0, "up1": 45, "up2": None},
                ],
                "id": "maris",
                "rank_before": "1k",
                "rating_before": 1720,
                "rating_after": 1730,
                "change": 10,
                "rating_games_counted": 1,
                "rating_reason": "1720 (his RIF rating adopted as the base, ERU 4.10) +10 from 1 games by the table, each at the start rating (ERU 4.9); 1 game(s) against new players without a rating do not count.",
                "seed": {
                    "rating": 1730,
                    "status": "estonian",
                    "title": "1k",
                    "counters": {"first_rank": None, "rating_bonus": False},
                },
                "rating_games": [
                    {"opponent": "new", "score": 0.0, "opponent_rating": None, "difference": None, "change": None},
                    {"opponent": "tunnet", "score": 0.5, "opponent_rating": 1980, "difference": 260, "change": 10},
                ],
            },
            {
                "games_counted": 1,
                "score": 1.0,
                "norms": {"keep": 0.0, "up1": 0.5, "up2": 0.5},
                "new_rank": "15k",
                "decision": "not-evaluated",
                "norm_reached": None,
                "reason": "Unranked before: evaluated from the first rank 15k given for him (INTERPRETATIONS 4.8). 15k: 1.0 points from 1 games against ranked opponents. Not evaluated: at least 7 games against ranked opponents are needed (ERU 4.5); the rank stays 15k.",
                "games": [{"opponent_rank": "1k", "score": 1.0, "counted": True, "keep": -15, "up1": 20, "up2": 35}],
                "id": "new",
                "rank_before": None,
                "rating_before": None,
                "rating_after": 1550,
                "change": None,
                "rating_games_counted": 1,
                "rating_reason": "First Estonian rating 1500 + 50 × 1 wins over players rated above 1600 granted by the referee (ERU 4.10); his games do not count for his opponents.",
                "seed": {
                    "rating": 1550,
                    "status": "estonian",
                    "title": None,
                    "counters": {"first_rank": "15k", "rating_bonus": False},
                },
                "rating_games": [
                    {"opponent": "maris", "score": 1.0, "opponent_rating": 1720, "difference": None, "change": None}
                ],
            },
        ],
    }
}

ERU_NORMS_EXAMPLES = answers(ERU_NORMS_REQUESTS, ERU_NORMS_ANSWERS)
ERU_TOURNAMENT_EXAMPLES = answers(ERU_TOURNAMENT_REQUESTS, ERU_TOURNAMENT_ANSWERS)
