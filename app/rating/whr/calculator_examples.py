"""Examples of the WHR calculator: the real tournament T0017 of the Chinese file
(tests/data/renju-cn-2009-2019) rated from nothing but itself.

Each response example is what the service answers to the request example of the same name:
tests/project/test_documentation.py sends every request example and compares.
"""

from typing import Any

from app.rating.calculators import answers
from app.rating.examples import REAL_TOURNAMENT, T0017_CALC_GAMES

WHR_REQUESTS: dict[str, dict[str, Any]] = {
    "real-2017": {
        "summary": "A real tournament rated from nothing but itself",
        "description": "The 10 games of T0017 in the Chinese file, each on the tournament's last day, with the rule "
        "text's parameters.",
        "value": {"games": [{**game, "date": REAL_TOURNAMENT["end"]} for game in T0017_CALC_GAMES]},
    },
}

# fmt: off
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
# fmt: on

WHR_EXAMPLES = answers(WHR_REQUESTS, WHR_ANSWERS)
