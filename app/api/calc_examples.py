"""Request and response examples of the calculations (`/v1/calc/*`).

Where a rule text publishes numbers, the example is that published case: the design's game of RIF Elo
(2300 beats 2200: +12), rows of the GA 1995 appendix table, the Estonian text's norms of a 9 kyu
(ERU 4.3). The RIF Elo and WHR tournaments are the real tournament T0017 of the Chinese file
(tests/data/renju-cn-2009-2019), its players starting from their WHR ratings before it, rounded.
Each response example is what the service answers to the request example of the same name:
tests/test_documentation.py sends every request example and compares.
"""

from typing import Any

from app.api.examples import REAL_TOURNAMENT
from app.schemas.calc_eru import NORMS_EXAMPLE
from app.schemas.calc_eru import TOURNAMENT_EXAMPLE as ERU_TOURNAMENT_EXAMPLE
from app.schemas.calc_olufsen import OlufsenTournamentIn, PerformanceIn
from app.schemas.calc_rivne import EXAMPLE as RIVNE_EXAMPLE

ELO_GAME_REQUESTS: dict[str, dict[str, Any]] = {
    "design": {
        "summary": "2300 beats 2200: +12",
        "description": "The example of the service's design: expected score 0.64, change 32(1 − 0.64) = 11.5, rounded to 12.",
        "value": {"rating": 2300, "opponent_rating": 2200, "score": 1},
    },
    "appendix-lower-wins": {
        "summary": "2200 beats 2300: +20, as the appendix prints",
        "description": "A difference of 100 falls in the GA 1995 appendix row 77–100, where the lower-rated winner gains 20.",
        "value": {"rating": 2200, "opponent_rating": 2300, "score": 1},
    },
    "appendix-draw": {
        "summary": "2200 draws with 2300: +4, as the appendix prints",
        "description": "The same appendix row: in a draw the lower-rated player gains 4.",
        "value": {"rating": 2200, "opponent_rating": 2300, "score": 0.5},
    },
}

# T0017's players with their rif-whr ratings before it (the list's own figures over the whole file),
# rounded; 3578 played his first tournament there.
_T0017_RATINGS = {"1003": 2237, "1193": 2451, "498": 2449, "503": 2162}
_T0017_CALC_GAMES = [
    {"black": game["black"], "white": game["white"], "result": game["result"]} for game in REAL_TOURNAMENT["games"]
]

RIF_1995_REQUESTS: dict[str, dict[str, Any]] = {
    "real-2017": {
        "summary": "A real tournament, one newcomer",
        "description": "The 10 games of T0017 (2017) in the Chinese file, rated as if the 1995 rules applied: four "
        "official players, and 3578, new, who gets a start rating R0 from his 4 games (#8).",
        "value": {
            "end": REAL_TOURNAMENT["end"],
            "players": [
                *({"id": player_id, "rating": rating, "status": "official"} for player_id, rating in _T0017_RATINGS.items()),
                {"id": "3578", "status": "new"},
            ],
            "games": _T0017_CALC_GAMES,
        },
    },
}

RIF_1997_REQUESTS: dict[str, dict[str, Any]] = {
    "real-2017": {
        "summary": "A real event, one provisional player",
        "description": "The 10 games of T0017 (2017) in the Chinese file under the 1997 rules: four established "
        "players, and 3578, provisional with no earlier games, who gets a provisional rating Rp (#7).",
        "value": {
            "players": [
                *({"id": player_id, "rating": rating, "status": "established"} for player_id, rating in _T0017_RATINGS.items()),
                {"id": "3578", "status": "provisional"},
            ],
            "games": _T0017_CALC_GAMES,
        },
    },
}

WHR_REQUESTS: dict[str, dict[str, Any]] = {
    "real-2017": {
        "summary": "A real tournament rated from nothing but itself",
        "description": "The 10 games of T0017 in the Chinese file, each on the tournament's last day, with the rule "
        "text's parameters.",
        "value": {"games": [{**game, "date": REAL_TOURNAMENT["end"]} for game in _T0017_CALC_GAMES]},
    },
}

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

OLUFSEN_REQUESTS: dict[str, dict[str, Any]] = {
    "small": {
        "summary": "Four players over three rounds, one newcomer with a grade",
        "value": OlufsenTournamentIn.model_config["json_schema_extra"]["examples"][0],  # type: ignore[index]
    },
}

PERFORMANCE_REQUESTS: dict[str, dict[str, Any]] = {
    "olufsen": {
        "summary": "Three results on the Olufsen scale (base 10, scale 400)",
        "value": PerformanceIn.model_config["json_schema_extra"]["examples"][0],  # type: ignore[index]
    },
    "rif": {
        "summary": "The same results on the RIF Elo scale (base 2, scale 120)",
        "value": {**PerformanceIn.model_config["json_schema_extra"]["examples"][0], "base": 2, "scale": 120},  # type: ignore[index]
    },
}

RIVNE_REQUESTS: dict[str, dict[str, Any]] = {
    "small": {"summary": "Four players over two rounds, handicap games and a newcomer", "value": RIVNE_EXAMPLE},
}


# --- answers: what the service answers to each request above, under the same name ---------------------------
# fmt: off
ELO_GAME_ANSWERS: dict[str, Any] = {
    "design": {"expected": 0.6405201949797534, "change": 12, "change_unrounded": 11.50335376064789},
    "appendix-lower-wins": {"expected": 0.35947980502024657, "change": 20, "change_unrounded": 20.49664623935211},
    "appendix-draw": {"expected": 0.35947980502024657, "change": 4, "change_unrounded": 4.49664623935211},
}

RIF_1995_ANSWERS: dict[str, Any] = {
    "real-2017": {
        "system": "rif-1995", "before_1996": False,
        "players": [
            {
                "id": "1003", "rating_before": 2237, "rating_after": 2264, "change": 27,
                "change_unrounded": 27.383854513772015, "Et": 2.5, "Ee": 1.6442545464446245,
                "games_counted": 4, "status_after": "official", "R0": None, "R0_reason": None,
            },
            {
                "id": "1193", "rating_before": 2451, "rating_after": 2465, "change": 14,
                "change_unrounded": 13.958666999395433, "Et": 3.5, "Ee": 3.0637916562688927,
                "games_counted": 4, "status_after": "official", "R0": None, "R0_reason": None,
            },
            {
                "id": "498", "rating_before": 2449, "rating_after": 2383, "change": -66,
                "change_unrounded": -65.70869683687738, "Et": 1.0, "Ee": 3.053396776152418,
                "games_counted": 4, "status_after": "official", "R0": None, "R0_reason": None,
            },
            {
                "id": "503", "rating_before": 2162, "rating_after": 2189, "change": 27,
                "change_unrounded": 27.03023623757695, "Et": 2.0, "Ee": 1.1553051175757203,
                "games_counted": 4, "status_after": "official", "R0": None, "R0_reason": None,
            },
            {
                "id": "3578", "rating_before": None, "rating_after": 2135, "change": 0,
                "change_unrounded": 0.0, "Et": 1.0, "Ee": 1.0, "games_counted": 4,
                "status_after": "unofficial", "R0": 2135, "R0_reason": "inside the interval (#8.b)",
            },
        ],
    },
}

RIF_1997_ANSWERS: dict[str, Any] = {
    "real-2017": {
        "system": "rif-1997",
        "players": [
            {
                "id": "1003", "rating_before": 2237, "rating_after": 2251, "change": 14,
                "change_unrounded": 14.115521537915404, "Et": 1.5, "Ee": 1.0588899519401436,
                "games_counted": 3, "status_after": "established",
                "record_after": {"games": 0, "wins": 0, "losses": 0, "points": 0.0, "opponent_rating_sum": 0.0},
            },
            {
                "id": "1193", "rating_before": 2451, "rating_after": 2463, "change": 12,
                "change_unrounded": 12.183645109518299, "Et": 2.5, "Ee": 2.1192610903275533,
                "games_counted": 3, "status_after": "established",
                "record_after": {"games": 0, "wins": 0, "losses": 0, "points": 0.0, "opponent_rating_sum": 0.0},
            },
            {
                "id": "498", "rating_before": 2449, "rating_after": 2413, "change": -36,
                "change_unrounded": -35.517322180474125, "Et": 1.0, "Ee": 2.1099163181398164,
                "games_counted": 3, "status_after": "established",
                "record_after": {"games": 0, "wins": 0, "losses": 0, "points": 0.0, "opponent_rating_sum": 0.0},
            },
            {
                "id": "503", "rating_before": 2162, "rating_after": 2171, "change": 9,
                "change_unrounded": 9.218155533040429, "Et": 1.0, "Ee": 0.7119326395924865,
                "games_counted": 3, "status_after": "established",
                "record_after": {"games": 0, "wins": 0, "losses": 0, "points": 0.0, "opponent_rating_sum": 0.0},
            },
            {
                "id": "3578", "rating_before": None, "rating_after": 2125, "change": None,
                "change_unrounded": None, "Et": 1.0, "Ee": 1.0, "games_counted": 4,
                "status_after": "provisional",
                "record_after": {"games": 4, "wins": 1, "losses": 3, "points": 1.0, "opponent_rating_sum": 9299.0},
            },
        ],
    },
}

WHR_ANSWERS: dict[str, Any] = {
    "real-2017": {
        "players": [
            {
                "id": "503",
                "history": [
                    {"date": "2017-04-09", "rating": 1899.9999999999986, "deviation": 146.87413444523062, "games": 4},
                ],
            },
            {
                "id": "1193",
                "history": [
                    {"date": "2017-04-09", "rating": 2068.9117921005836, "deviation": 165.4046267707829, "games": 4},
                ],
            },
            {
                "id": "498",
                "history": [
                    {"date": "2017-04-09", "rating": 1791.92182673519, "deviation": 153.77420709613094, "games": 4},
                ],
            },
            {
                "id": "3578",
                "history": [
                    {"date": "2017-04-09", "rating": 1791.92182673519, "deviation": 153.77420709613094, "games": 4},
                ],
            },
            {
                "id": "1003",
                "history": [
                    {"date": "2017-04-09", "rating": 1953.1012183565667, "deviation": 148.7406041753573, "games": 4},
                ],
            },
        ],
    },
}

ERU_NORMS_ANSWERS: dict[str, Any] = {
    "text-10-games": {
        "games_counted": 10, "score": 6.0, "norms": {"keep": 3.0, "up1": 6.5, "up2": 8.0}, "new_rank": "9k",
        "decision": "kept", "norm_reached": "keep",
        "reason": "9k: 6.0 points from 10 games against ranked opponents. Keeps 9k: the keep norm 3.0 is reached, the +1 kyu norm 6.5 is not (ERU 4.3).",
    },
    "text-7-games": {
        "games_counted": 7, "score": 5.0, "norms": {"keep": 2.5, "up1": 5.0, "up2": 6.0}, "new_rank": "8k",
        "decision": "promoted", "norm_reached": "up1",
        "reason": "9k: 5.0 points from 7 games against ranked opponents. Promoted to 8k: the +1 kyu norm 5.0 is reached (ERU 4.3) and the tournament meets the conditions of 8k (ERU 4.5).",
    },
}

ERU_TOURNAMENT_ANSWERS: dict[str, Any] = {
    "small": {
        "system": "eru",
        "players": [
            {
                "games_counted": 1, "score": 1.0, "norms": {"keep": 0.5, "up1": 1.0, "up2": None},
                "new_rank": "3d", "decision": "not-evaluated", "norm_reached": None,
                "reason": "3d: 1.0 points from 1 games against ranked opponents. Not evaluated: at least 7 games against ranked opponents are needed (ERU 4.5); the rank stays 3d.",
                "id": "ando", "rank_before": "3d", "rating_before": 2050, "rating_after": 2063,
                "change": 13, "rating_games_counted": 1,
                "rating_reason": "2050 +13 from 1 games by the table, each at the start rating (ERU 4.9).",
            },
            {
                "games_counted": 2, "score": 0.5, "norms": {"keep": 1.0, "up1": 2.0, "up2": None},
                "new_rank": "2d", "decision": "not-evaluated", "norm_reached": None,
                "reason": "2d: 0.5 points from 2 games against ranked opponents. Not evaluated: at least 7 games against ranked opponents are needed (ERU 4.5); the rank stays 2d.",
                "id": "tunnet", "rank_before": "2d", "rating_before": 1980, "rating_after": 1957,
                "change": -23, "rating_games_counted": 2,
                "rating_reason": "1980 -23 from 2 games by the table, each at the start rating (ERU 4.9).",
            },
            {
                "games_counted": 1, "score": 0.5, "norms": {"keep": 0.0, "up1": 0.5, "up2": None},
                "new_rank": "1k", "decision": "not-evaluated", "norm_reached": None,
                "reason": "1k: 0.5 points from 1 games against ranked opponents. Not evaluated: at least 7 games against ranked opponents are needed (ERU 4.5); the rank stays 1k.",
                "id": "maris", "rank_before": "1k", "rating_before": 1720, "rating_after": 1730,
                "change": 10, "rating_games_counted": 1,
                "rating_reason": "1720 (his RIF rating adopted as the base, ERU 4.10) +10 from 1 games by the table, each at the start rating (ERU 4.9); 1 game(s) against new players without a rating do not count.",
            },
            {
                "games_counted": 1, "score": 1.0, "norms": {"keep": 0.0, "up1": 0.5, "up2": 0.5},
                "new_rank": "15k", "decision": "not-evaluated", "norm_reached": None,
                "reason": "Unranked before: evaluated from the first rank 15k given for him (INTERPRETATIONS 4.8). 15k: 1.0 points from 1 games against ranked opponents. Not evaluated: at least 7 games against ranked opponents are needed (ERU 4.5); the rank stays 15k.",
                "id": "new", "rank_before": None, "rating_before": None, "rating_after": 1550,
                "change": None, "rating_games_counted": 1,
                "rating_reason": "First Estonian rating 1500 + 50 × 1 wins over players rated above 1600 granted by the referee (ERU 4.10); his games do not count for his opponents.",
            },
        ],
    },
}

OLUFSEN_ANSWERS: dict[str, Any] = {
    "small": {
        "system": "olufsen", "precision": 1e-09,
        "players": [
            {
                "id": "andersen", "category": "established", "games": 3, "score": 3.0,
                "rating_before": 1843, "rating_after": 1849, "change": 6,
                "change_unrounded": 6.231730743219941, "rating_after_unrounded": 1849.23173074322,
                "category_after": "established", "performance_rating": 1827.798656536351,
                "bonus_applied": 0.0, "bonus_capped": False, "grade_before": "2d",
                "grade_after": "2d", "pending_grade_after": None, "promotions": [],
                "state": {
                    "id": "andersen", "rating": 1849, "rated_games": 64,
                    "category": "established", "prior_results": [], "grade": "2d",
                    "pending_grade": None, "streaks": [],
                },
            },
            {
                "id": "berg", "category": "provisional", "games": 3, "score": 0.5,
                "rating_before": 1604, "rating_after": 1571, "change": -33,
                "change_unrounded": -33.218290894614256,
                "rating_after_unrounded": 1570.7817091053857, "category_after": "provisional",
                "performance_rating": 1151.655090428663, "bonus_applied": 0.0, "bonus_capped": False,
                "grade_before": "2k", "grade_after": "2k", "pending_grade_after": None,
                "promotions": [],
                "state": {
                    "id": "berg", "rating": 1571, "rated_games": 15, "category": "provisional",
                    "prior_results": [], "grade": "2k", "pending_grade": None,
                    "streaks": [
                        {
                            "grade": "1k", "games_above_lower_bound": 3,
                            "games_above_midpoint": 0,
                            "midpoint_in_lower_bound_run": False,
                        },
                    ],
                },
            },
            {
                "id": "dahl", "category": "established", "games": 3, "score": 2.0,
                "rating_before": 1388, "rating_after": 1411, "change": 23,
                "change_unrounded": 23.317705566200402, "rating_after_unrounded": 1411.3177055662004,
                "category_after": "established", "performance_rating": 1739.8994687600425,
                "bonus_applied": 0.0, "bonus_capped": False, "grade_before": "4k",
                "grade_after": "4k", "pending_grade_after": None, "promotions": [],
                "state": {
                    "id": "dahl", "rating": 1411, "rated_games": 36, "category": "established",
                    "prior_results": [], "grade": "4k", "pending_grade": None,
                    "streaks": [
                        {
                            "grade": "3k", "games_above_lower_bound": 7,
                            "games_above_midpoint": 1,
                            "midpoint_in_lower_bound_run": True,
                        },
                    ],
                },
            },
            {
                "id": "eriksen", "category": "unrated", "games": 3, "score": 0.5,
                "rating_before": None, "rating_after": 1300, "change": None,
                "change_unrounded": None, "rating_after_unrounded": 1299.6115056451026,
                "category_after": "unrated", "performance_rating": 1273.7133508852332,
                "bonus_applied": 0.0, "bonus_capped": False, "grade_before": "4k",
                "grade_after": "4k", "pending_grade_after": None, "promotions": [],
                "state": {
                    "id": "eriksen", "rating": 1300, "rated_games": 3, "category": "unrated",
                    "prior_results": [
                        {"opponent_rating": 1320.0, "score": 1.0, "dummy": True},
                        {"opponent_rating": 1320.0, "score": 0.0, "dummy": True},
                        {"opponent_rating": 1571.0, "score": 0.5, "dummy": False},
                        {"opponent_rating": 1849.0, "score": 0.0, "dummy": False},
                        {"opponent_rating": 1411.0, "score": 0.0, "dummy": False},
                    ],
                    "grade": "4k", "pending_grade": None, "streaks": [],
                },
            },
        ],
    },
}

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

RIVNE_ANSWERS: dict[str, Any] = {
    "small": {
        "system": "rivne", "handicap_games": True,
        "anomaly_passes": [{"number": 1, "anomalous": []}],
        "players": [
            {
                "id": "kravets", "newcomer": False, "rank": "4d", "rating_before": 2380.0,
                "start_rating": 2380.0, "rating_after": 2386.2261924366207,
                "rating_after_display": 2386, "change": 6.2261924366207495, "games_played": 2,
                "extra_points": 0.0,
                "rounds": [
                    {"round": 1, "rating_after": 2386.1752926069835, "change": 6.175292606983476},
                    {"round": 2, "rating_after": 2386.2261924366207, "change": 0.0508998296372738},
                ],
            },
            {
                "id": "melnyk", "newcomer": False, "rank": "1d", "rating_before": 2150.0,
                "start_rating": 2150.0, "rating_after": 2142.934998936276,
                "rating_after_display": 2143, "change": -7.065001063724139, "games_played": 2,
                "extra_points": 0.0,
                "rounds": [
                    {"round": 1, "rating_after": 2138.027682815281, "change": -11.972317184719032},
                    {"round": 2, "rating_after": 2142.934998936276, "change": 4.907316120994892},
                ],
            },
            {
                "id": "bondar", "newcomer": False, "rank": "4k", "rating_before": 1720.0,
                "start_rating": 1720.0, "rating_after": 1699.0476382791448,
                "rating_after_display": 1699, "change": -20.95236172085515, "games_played": 2,
                "extra_points": 0.0,
                "rounds": [
                    {"round": 1, "rating_after": 1711.0307240664717, "change": -8.969275933528252},
                    {"round": 2, "rating_after": 1699.0476382791448, "change": -11.9830857873269},
                ],
            },
            {
                "id": "novak", "newcomer": True, "rank": "10k", "rating_before": 1100.0,
                "start_rating": 1100.0, "rating_after": 1142.1520756095101,
                "rating_after_display": 1142, "change": 42.15207560951012, "games_played": 2,
                "extra_points": 0.0,
                "rounds": [
                    {"round": 1, "rating_after": 1142.5486423873908, "change": 42.54864238739083},
                    {"round": 2, "rating_after": 1142.1520756095101, "change": -0.3965667778807074},
                ],
            },
        ],
    },
}

APPENDIX_TABLE: dict[str, Any] = {
    "note": "Computed from the formulas of #6/#7, which are normative (INTERPRETATIONS 1.4). The printed row 522-724 (+1/+31/+15) splits at 718: there the formula gives +0/+32/+16.",
    "rows": [
        {"difference_from": 0, "difference_to": 10, "r1_wins": 16, "r2_wins": 16, "draw": 0},
        {"difference_from": 11, "difference_to": 32, "r1_wins": 15, "r2_wins": 17, "draw": 1},
        {"difference_from": 33, "difference_to": 54, "r1_wins": 14, "r2_wins": 18, "draw": 2},
        {"difference_from": 55, "difference_to": 76, "r1_wins": 13, "r2_wins": 19, "draw": 3},
        {"difference_from": 77, "difference_to": 100, "r1_wins": 12, "r2_wins": 20, "draw": 4},
        {"difference_from": 101, "difference_to": 124, "r1_wins": 11, "r2_wins": 21, "draw": 5},
        {"difference_from": 125, "difference_to": 149, "r1_wins": 10, "r2_wins": 22, "draw": 6},
        {"difference_from": 150, "difference_to": 176, "r1_wins": 9, "r2_wins": 23, "draw": 7},
        {"difference_from": 177, "difference_to": 204, "r1_wins": 8, "r2_wins": 24, "draw": 8},
        {"difference_from": 205, "difference_to": 236, "r1_wins": 7, "r2_wins": 25, "draw": 9},
        {"difference_from": 237, "difference_to": 272, "r1_wins": 6, "r2_wins": 26, "draw": 10},
        {"difference_from": 273, "difference_to": 313, "r1_wins": 5, "r2_wins": 27, "draw": 11},
        {"difference_from": 314, "difference_to": 363, "r1_wins": 4, "r2_wins": 28, "draw": 12},
        {"difference_from": 364, "difference_to": 427, "r1_wins": 3, "r2_wins": 29, "draw": 13},
        {"difference_from": 428, "difference_to": 521, "r1_wins": 2, "r2_wins": 30, "draw": 14},
        {"difference_from": 522, "difference_to": 717, "r1_wins": 1, "r2_wins": 31, "draw": 15},
        {"difference_from": 718, "difference_to": 724, "r1_wins": 0, "r2_wins": 32, "draw": 16},
        {"difference_from": 725, "difference_to": 2000, "r1_wins": 0, "r2_wins": 32, "draw": 16},
    ],
}
# fmt: on


def answers(requests: dict[str, dict[str, Any]], values: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Response examples named and summarised like the request examples they answer."""
    return {name: {"summary": example["summary"], "value": values[name]} for name, example in requests.items()}


APPENDIX_TABLE_ANSWERS: dict[str, dict[str, Any]] = {
    "formula": {
        "summary": "The GA 1995 appendix as the formula gives it",
        "description": "The printed table, row for row, except that its row 522–724 splits at 718 (INTERPRETATIONS 1.4).",
        "value": APPENDIX_TABLE,
    },
}
