"""Request examples for the contract, taken from the real results in tests/data/ (the test
tests/test_documentation.py checks they still match the data and validate)."""

from typing import Any

# Tournament T0017 of tests/data/renju-cn-2009-2019/source.tsv, exactly as
# `python -m app.cli submission tests/data/renju-cn-2009-2019/source.tsv --tournament T0017` prints it.
REAL_TOURNAMENT: dict[str, Any] = {
    "id": "T0017",
    "name": "Qualification to Chinese National Network Mind Sports Games 2016",
    "category": "renju",
    "rule": "RIF",
    "start": "2017-04-08",
    "end": "2017-04-09",
    "rated": True,
    "players": [
        {"id": "498"},
        {"id": "503"},
        {"id": "1003"},
        {"id": "1193"},
        {"id": "3578", "name": "Wenhui", "surname": "Ma"},
    ],
    "games": [
        {"id": "G00865", "round": "1", "black": "503", "white": "3578", "result": "B"},
        {"id": "G00866", "round": "1", "black": "1193", "white": "1003", "result": "D"},
        {"id": "G00867", "round": "2", "black": "498", "white": "503", "result": "B"},
        {"id": "G00868", "round": "2", "black": "3578", "white": "1193", "result": "W"},
        {"id": "G00869", "round": "3", "black": "1193", "white": "498", "result": "B"},
        {"id": "G00870", "round": "3", "black": "1003", "white": "3578", "result": "B"},
        {"id": "G00871", "round": "4", "black": "498", "white": "1003", "result": "W"},
        {"id": "G00872", "round": "4", "black": "503", "white": "1193", "result": "W"},
        {"id": "G00873", "round": "5", "black": "3578", "white": "498", "result": "B"},
        {"id": "G00874", "round": "5", "black": "1003", "white": "503", "result": "W"},
    ],
}

SUBMIT_TOURNAMENT_EXAMPLES: dict[str, dict[str, Any]] = {
    "real-2017": {
        "summary": "A real tournament of 2017 (5 players, 10 games)",
        "description": "Players the service does not know yet are created from `players`; "
        "games name players by id; results are from black's side.",
        "value": REAL_TOURNAMENT,
    },
    "minimal": {
        "summary": "The smallest valid submission",
        "value": {
            "id": "demo-2024",
            "name": "Demo Open",
            "category": "renju",
            "start": "2024-05-01",
            "end": "2024-05-02",
            "players": [{"id": "p1", "country": "EST"}, {"id": "p2", "country": "EST"}],
            "games": [{"black": "p1", "white": "p2", "result": "D"}],
        },
    },
}
