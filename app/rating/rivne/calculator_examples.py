"""Examples of the Rivne calculator: a small Go tournament with handicap games and a newcomer.

Each response example is what the service answers to the request example of the same name:
tests/test_documentation.py sends every request example and compares.
"""

from typing import Any

from app.rating.calculators import answers
from app.rating.rivne.calculator_models import EXAMPLE as RIVNE_EXAMPLE

RIVNE_REQUESTS: dict[str, dict[str, Any]] = {
    "small": {"summary": "Four players over two rounds, handicap games and a newcomer", "value": RIVNE_EXAMPLE},
}

# fmt: off
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
# fmt: on

RIVNE_EXAMPLES = answers(RIVNE_REQUESTS, RIVNE_ANSWERS)
