"""The real tournament the examples of the contract are drawn from: T0017 of the Chinese file
(tests/data/renju-cn-2009-2019/source.tsv), as its submission, and its games as a calculator takes them."""

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

T0017_CALC_GAMES = [
    {"black": game["black"], "white": game["white"], "result": game["result"]} for game in REAL_TOURNAMENT["games"]
]
