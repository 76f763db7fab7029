"""The calculators on the website (issue 25 item 5): a form per system, sent with GET (no JavaScript,
nothing stored, a result that can be bookmarked), answered by the same calculations as
``POST /v1/calc/...`` (the registry's ``Calculator`` records), the answer shown with every figure the
rule text names. What a form cannot be read as, or the calculation refuses, is shown beside the form
with the field it concerns.

A table of games is typed one game a line ("black white result"), as a referee writes a crosstable's
pairings; a form takes at most ``MAX_LINES`` lines (the website is open to everyone).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from app.rating.calculators import CalculationRefused, Calculator
from app.rating.registry import systems

__all__ = ["FORMS", "Field", "Form", "calculate", "figures"]

MAX_LINES = 200


@dataclass(frozen=True)
class Field:
    """One input of a form: ``kind`` text, number, select (with ``choices``), lines (a textarea) or checkbox."""

    name: str
    label: str
    kind: str = "text"
    default: str = ""
    choices: tuple[tuple[str, str], ...] = ()
    hint: str = ""


@dataclass(frozen=True)
class Form:
    slug: str
    title: str
    rule: str  # the rule text and what the form computes, as a sentence
    operation_id: str  # the calculator it sends its request to
    fields: tuple[Field, ...]
    request: Callable[[Mapping[str, str]], dict[str, Any]]


@dataclass
class Outcome:
    """A form's answer: the calculation's answer as plain JSON values, or what is wrong and where."""

    answer: dict[str, Any] | None
    errors: list[tuple[str, str]]


def calculate(form: Form, query: Mapping[str, str]) -> Outcome:
    """The form's fields read into the calculator's request, validated and calculated."""
    calculator = _calculator(form.operation_id)
    assert calculator.request_model is not None  # every form's calculator takes a body
    try:
        body = form.request(query)
    except ValueError as error:
        return Outcome(None, [("", str(error))])
    try:
        request = calculator.request_model.model_validate(body)
    except ValidationError as error:
        return Outcome(None, [("/" + "/".join(str(p) for p in e["loc"]), e["msg"]) for e in error.errors()])
    try:
        answer = calculator.function(request)
    except CalculationRefused as refused:
        return Outcome(None, [(e.pointer, e.detail) for e in refused.errors] or [("", refused.detail)])
    return Outcome(answer.model_dump(mode="json"), [])


def figures(value: Any) -> list[tuple[str, Any]]:
    """A dict's items in order, for the templates' generic rendering of figures."""
    return list(value.items()) if isinstance(value, dict) else []


def _calculator(operation_id: str) -> Calculator:
    for system in systems():
        for calculator in system.calculators:
            if calculator.operation_id == operation_id:
                return calculator
    raise LookupError(operation_id)  # pragma: no cover - FORMS names registered calculators


def _lines(query: Mapping[str, str], name: str, words: int, label: str) -> list[list[str]]:
    """The non-empty lines of a textarea, each split into words; at most MAX_LINES of them."""
    lines = [line.split() for line in query.get(name, "").splitlines() if line.strip()]
    if len(lines) > MAX_LINES:
        raise ValueError(f"{label}: at most {MAX_LINES} lines")
    for number, line in enumerate(lines, start=1):
        if len(line) < words:
            raise ValueError(f"{label}, line {number}: give {words} words, as the example shows")
    return lines


def _number(query: Mapping[str, str], name: str) -> str | float | None:
    """A number field as a number (a text that is none is handed on, for the model to name it)."""
    text = query.get(name, "").strip()
    if not text:
        return None
    try:
        return float(text)
    except ValueError:
        return text


def _rivne_game(query: Mapping[str, str]) -> dict[str, Any]:
    def side(colour: str) -> dict[str, Any]:
        rank = query.get(f"{colour}_rank", "").strip()
        return {"rating": _number(query, f"{colour}_rating"), **({"rank": rank} if rank else {})}

    handicap = _number(query, "handicap")
    board = _number(query, "board_size")
    return {
        "black": side("black"),
        "white": side("white"),
        "result": query.get("result", ""),
        "board_size": int(board) if isinstance(board, float) else 19,
        "handicap": int(handicap) if isinstance(handicap, float) and handicap.is_integer() else (handicap or 0),
    }


def _rif_elo_game(query: Mapping[str, str]) -> dict[str, Any]:
    return {
        "rating": _number(query, "rating"),
        "opponent_rating": _number(query, "opponent_rating"),
        "score": _number(query, "score"),
    }


def _eru_norms(query: Mapping[str, str]) -> dict[str, Any]:
    games = [
        {"opponent_rank": None if rank == "-" else rank, "score": float(score) if _is_number(score) else score}
        for rank, score, *_ in _lines(query, "games", 2, "Games")
    ]
    minutes = _number(query, "time_control_minutes")
    return {
        "rank": query.get("rank", ""),
        "games": games,
        "time_control_minutes": int(minutes) if isinstance(minutes, float) else minutes,
        "recorded": query.get("recorded") == "on",
    }


def _olufsen_table(query: Mapping[str, str]) -> dict[str, Any]:
    players = []
    for player_id, rating, rated_games, category, *grade in _lines(query, "players", 4, "Players"):
        players.append(
            {
                "id": player_id,
                **({} if rating == "-" else {"rating": int(rating) if rating.isdigit() else rating}),
                "rated_games": int(rated_games) if rated_games.isdigit() else rated_games,
                "category": category,
                **({"grade": grade[0]} if grade else {}),
            }
        )
    games = [{"black": b, "white": w, "result": r} for b, w, r, *_ in _lines(query, "games", 3, "Games")]
    return {"players": players, "games": games}


def _whr(query: Mapping[str, str]) -> dict[str, Any]:
    return {"games": [{"black": b, "white": w, "result": r, "date": d} for b, w, r, d, *_ in _lines(query, "games", 4, "Games")]}


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


RESULTS = (("B", "Black won"), ("W", "White won"), ("D", "Draw"))
SCORES = (("1", "Win"), ("0.5", "Draw"), ("0", "Loss"))

FORMS: tuple[Form, ...] = (
    Form(
        "rivne-game",
        "Go club rating (Rivne): one game",
        "Text 004, formula (5) for one game alone, with ΔR, a, SE, K1, K2, Kd, Kf, the bonus and the change of each player.",
        "calc_rivne_game",
        (
            Field("black_rating", "Black's rating", "number", "1500"),
            Field("black_rank", "Black's rank (for a handicap game)", "text", "", hint="e.g. 3k or 1d"),
            Field("white_rating", "White's rating", "number", "1600"),
            Field("white_rank", "White's rank (for a handicap game)", "text", ""),
            Field("result", "Result", "select", "B", RESULTS),
            Field("board_size", "Board", "select", "19", (("19", "19×19"), ("13", "13×13"), ("9", "9×9"))),
            Field("handicap", "Handicap stones black received", "number", "0", hint="0 even, 1 no komi"),
        ),
        _rivne_game,
    ),
    Form(
        "rif-elo-game",
        "RIF Elo: one game",
        "Text 000: the expected score and the change 32(W − We), rounded and unrounded.",
        "calc_rif_elo_game",
        (
            Field("rating", "Rating", "number", "2300"),
            Field("opponent_rating", "Opponent's rating", "number", "2200"),
            Field("score", "Score", "select", "1", SCORES),
        ),
        _rif_elo_game,
    ),
    Form(
        "eru-norms",
        "Estonian norms: one player in one tournament",
        "Text 003: each game's percentage of each norm (ERU 4.3), the norms, the new rank and why.",
        "calc_eru_norms",
        (
            Field("rank", "Rank at the start", "text", "9k"),
            Field("time_control_minutes", "Minutes per player", "number", "60"),
            Field("recorded", "The games were recorded", "checkbox", "on"),
            Field(
                "games",
                "Games: the opponent's rank and the score, one a line (- for an unranked opponent)",
                "lines",
                "9k 1\n9k 1\n8k 0.5\n10k 1\n9k 0\n9k 1\n8k 0",
            ),
        ),
        _eru_norms,
    ),
    Form(
        "olufsen-table",
        "Olufsen shogi: one table",
        "Text 001: each game's k, expected score, d, the (10) factor and 18/n, the bonus of (11), grades.",
        "calc_olufsen_tournament",
        (
            Field(
                "players",
                "Players: id, rating (- for none), rated games, category, grade (optional), one a line",
                "lines",
                "anna 1600 40 established 1k\nbo 1500 12 provisional 2k\ncarl 1450 30 established",
            ),
            Field("games", "Games: black, white, result (B, W or D), one a line", "lines", "anna bo B\nbo carl D\ncarl anna W"),
        ),
        _olufsen_table,
    ),
    Form(
        "whr",
        "Whole-History Rating: a set of games",
        "Text 002: the ratings and deviations at the optimum, one point a day played.",
        "calc_whr",
        (
            Field(
                "games",
                "Games: black, white, result (B, W or D), date, one a line",
                "lines",
                "a b B 2024-01-06\nb c D 2024-01-06\nc a W 2024-01-07",
            ),
        ),
        _whr,
    ),
)
