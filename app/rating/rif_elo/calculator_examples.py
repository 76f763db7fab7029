"""Examples of the RIF Elo calculators. Where the rule text publishes numbers, the example is that
published case: the design's game (2300 beats 2200: +12), rows of the GA 1995 appendix table. The
tournaments are the real tournament T0017 of the Chinese file (tests/data/renju-cn-2009-2019), its
players starting from their WHR ratings before it, rounded.

Each response example is what the service answers to the request example of the same name:
tests/project/test_documentation.py sends every request example and compares.
"""

from typing import Any

from app.rating.calculators import answers
from app.rating.examples import REAL_TOURNAMENT, T0017_CALC_GAMES

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
            "games": T0017_CALC_GAMES,
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
            "games": T0017_CALC_GAMES,
        },
    },
}

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

ELO_GAME_EXAMPLES = answers(ELO_GAME_REQUESTS, ELO_GAME_ANSWERS)
RIF_1995_EXAMPLES = answers(RIF_1995_REQUESTS, RIF_1995_ANSWERS)
RIF_1997_EXAMPLES = answers(RIF_1997_REQUESTS, RIF_1997_ANSWERS)

APPENDIX_TABLE_ANSWERS: dict[str, dict[str, Any]] = {
    "formula": {
        "summary": "The GA 1995 appendix as the formula gives it",
        "description": "The printed table, row for row, except that its row 522–724 splits at 718 (INTERPRETATIONS 1.4).",
        "value": APPENDIX_TABLE,
    },
}
