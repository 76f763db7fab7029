"""The calculators on the website (issue 25 item 5): a form per system, sent with GET (no JavaScript,
nothing stored, a result that can be bookmarked), answered by the same calculations as
``POST /v1/calc/...`` (the registry's ``Calculator`` records), the answer shown with every figure the
rule text names. What a form cannot be read as, or the calculation refuses, is shown beside the form
with the field it concerns.

A table of games is typed one game a line ("black white result"), as a referee writes a crosstable's
pairings; a form takes at most ``MAX_LINES`` lines (the website is open to everyone).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from app.rating.calculators import CalculationRefused, Calculator
from app.rating.registry import systems
from app.web.pages import N_

__all__ = ["FIGURE_LABELS", "FIGURE_SYMBOLS", "FORMS", "VALUE_LABELS", "WORDED_FIGURES", "Field", "Form", "calculate", "figures"]

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


def calculate(form: Form, query: Mapping[str, str], gettext: Callable[[str], str] = str) -> Outcome:
    """The form's fields read into the calculator's request, validated and calculated; what is wrong
    is said in the reader's language (``gettext``) where the website words it."""
    calculator = _calculator(form.operation_id)
    assert calculator.request_model is not None  # every form's calculator takes a body
    try:
        body = form.request(query)
    except ValueError as error:
        return Outcome(None, [("", error.wording(gettext) if isinstance(error, _UnreadableLines) else str(error))])
    try:
        request = calculator.request_model.model_validate(body)
    except ValidationError as error:
        return Outcome(
            None, [("/" + "/".join(str(p) for p in e["loc"]), _validation_wording(e, gettext)) for e in error.errors()]
        )
    try:
        answer = calculator.function(request)
    except CalculationRefused as refused:
        # The rule engines' own wording (app/rating/ has no catalogue): pointers are shown beside it.
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
        raise _UnreadableLines(N_("%(field)s: at most %(count)s lines"), label, count=MAX_LINES)
    for number, line in enumerate(lines, start=1):
        if len(line) < words:
            raise _UnreadableLines(
                N_("%(field)s, line %(line)s: give %(count)s words, as the example shows"), label, line=number, count=words
            )
    return lines


class _UnreadableLines(ValueError):
    """A textarea that cannot be read as a table of games or players, worded when it is shown."""

    def __init__(self, message: str, label: str, **values: int) -> None:
        super().__init__(message % {"field": label, **values})
        self.message, self.label, self.values = message, label, values

    def wording(self, gettext: Callable[[str], str]) -> str:
        return gettext(self.message) % {"field": gettext(self.label), **self.values}


def _validation_wording(error: Any, gettext: Callable[[str], str]) -> str:
    """Pydantic's complaint in the reader's language where the website words its kind, else as it is."""
    message = VALIDATION_MESSAGES.get(error["type"])
    if message is None:
        return str(error["msg"])
    context = {key: str(value).replace(" or ", ", ") for key, value in (error.get("ctx") or {}).items()}
    return gettext(message) % context


def _number(query: Mapping[str, str], name: str) -> str | float | None:
    """A number field as a finite number (a text that is none is handed on, for the model to name it)."""
    text = query.get(name, "").strip()
    if not text:
        return None
    try:
        number = float(text)
    except ValueError:
        return text
    return number if math.isfinite(number) else text  # nan and inf are no figure of any rule


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
        for rank, score, *_ in _lines(query, "games", 2, N_("Games"))
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
    for player_id, rating, rated_games, category, *grade in _lines(query, "players", 4, N_("Players")):
        players.append(
            {
                "id": player_id,
                **({} if rating == "-" else {"rating": int(rating) if rating.isdigit() else rating}),
                "rated_games": int(rated_games) if rated_games.isdigit() else rated_games,
                "category": category,
                **({"grade": grade[0]} if grade else {}),
            }
        )
    games = [{"black": b, "white": w, "result": r} for b, w, r, *_ in _lines(query, "games", 3, N_("Games"))]
    return {"players": players, "games": games}


def _whr(query: Mapping[str, str]) -> dict[str, Any]:
    return {
        "games": [{"black": b, "white": w, "result": r, "date": d} for b, w, r, d, *_ in _lines(query, "games", 4, N_("Games"))]
    }


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


RESULTS = (("B", N_("Black won")), ("W", N_("White won")), ("D", N_("Draw")))
SCORES = (("1", N_("Win")), ("0.5", N_("Draw")), ("0", N_("Loss")))

FORMS: tuple[Form, ...] = (
    Form(
        "rivne-game",
        N_("Go club rating (Rivne): one game"),
        N_("Text 004, formula (5) for one game alone, with ΔR, a, SE, K1, K2, Kd, Kf, the bonus and the change of each player."),
        "calc_rivne_game",
        (
            Field("black_rating", N_("Black's rating"), "number", "1500"),
            Field("black_rank", N_("Black's rank (for a handicap game)"), "text", "", hint=N_("e.g. 3k or 1d")),
            Field("white_rating", N_("White's rating"), "number", "1600"),
            Field("white_rank", N_("White's rank (for a handicap game)"), "text", ""),
            Field("result", N_("Result"), "select", "B", RESULTS),
            Field("board_size", N_("Board"), "select", "19", (("19", "19×19"), ("13", "13×13"), ("9", "9×9"))),
            Field("handicap", N_("Handicap stones black received"), "number", "0", hint=N_("0 even, 1 no komi")),
        ),
        _rivne_game,
    ),
    Form(
        "rif-elo-game",
        N_("RIF Elo: one game"),
        N_("Text 000: the expected score and the change 32(W − We), rounded and unrounded."),
        "calc_rif_elo_game",
        (
            Field("rating", N_("Rating"), "number", "2300"),
            Field("opponent_rating", N_("Opponent's rating"), "number", "2200"),
            Field("score", N_("Score"), "select", "1", SCORES),
        ),
        _rif_elo_game,
    ),
    Form(
        "eru-norms",
        N_("Estonian norms: one player in one tournament"),
        N_("Text 003: each game's percentage of each norm (ERU 4.3), the norms, the new rank and why."),
        "calc_eru_norms",
        (
            Field("rank", N_("Rank at the start"), "text", "9k"),
            Field("time_control_minutes", N_("Minutes per player"), "number", "60"),
            Field("recorded", N_("The games were recorded"), "checkbox", "on"),
            Field(
                "games",
                N_("Games: the opponent's rank and the score, one a line (- for an unranked opponent)"),
                "lines",
                "9k 1\n9k 1\n8k 0.5\n10k 1\n9k 0\n9k 1\n8k 0",
            ),
        ),
        _eru_norms,
    ),
    Form(
        "olufsen-table",
        N_("Olufsen shogi: one table"),
        N_("Text 001: each game's k, expected score, d, the (10) factor and 18/n, the bonus of (11), grades."),
        "calc_olufsen_tournament",
        (
            Field(
                "players",
                N_(
                    "Players: id, rating (- for none), rated games, category (established, provisional or unrated), grade (optional), one a line"
                ),
                "lines",
                "anna 1600 40 established 1k\nbo 1500 12 provisional 2k\ncarl 1450 30 established",
            ),
            Field(
                "games", N_("Games: black, white, result (B, W or D), one a line"), "lines", "anna bo B\nbo carl D\ncarl anna W"
            ),
        ),
        _olufsen_table,
    ),
    Form(
        "whr",
        N_("Whole-History Rating: a set of games"),
        N_("Text 002: the ratings and deviations at the optimum, one point a day played."),
        "calc_whr",
        (
            Field(
                "games",
                N_("Games: black, white, result (B, W or D), date, one a line"),
                "lines",
                "a b B 2024-01-06\nb c D 2024-01-06\nc a W 2024-01-07",
            ),
        ),
        _whr,
    ),
)

# The kinds of pydantic's complaints a form's fields can draw, worded for the catalogues (their
# placeholders are pydantic's context); any other kind is shown in pydantic's English.
VALIDATION_MESSAGES = {
    "missing": N_("a value is needed"),
    "float_parsing": N_("not a number"),
    "float_type": N_("not a number"),
    "int_parsing": N_("not a whole number"),
    "int_type": N_("not a whole number"),
    "int_from_float": N_("not a whole number"),
    "finite_number": N_("not a finite number"),
    "string_type": N_("not a text"),
    "string_pattern_mismatch": N_("not in the form the example shows"),
    "literal_error": N_("not one of %(expected)s"),
    "enum": N_("not one of %(expected)s"),
    "greater_than": N_("must be greater than %(gt)s"),
    "greater_than_equal": N_("must be at least %(ge)s"),
    "less_than": N_("must be less than %(lt)s"),
    "less_than_equal": N_("must be at most %(le)s"),
    "too_short": N_("too few: at least %(min_length)s"),
    "too_long": N_("too many: at most %(max_length)s"),
    "date_parsing": N_("not a date (YYYY-MM-DD)"),
    "date_from_datetime_parsing": N_("not a date (YYYY-MM-DD)"),
    "date_type": N_("not a date (YYYY-MM-DD)"),
    "bool_parsing": N_("not yes or no"),
    "extra_forbidden": N_("not a field of this calculation"),
    "value_error": N_("not a value this calculation accepts"),
}

# The figures' names in words, as the templates label them (docs/decisions.md 7.60): a name the rule
# text gives as a symbol (SE, K1, K2, Kd, Kf, ΔR as delta_R, R, Rc, a, d, k, R0) is not here and is
# shown as it is, as the form's sentence names it.
FIGURE_SYMBOLS = {"delta_R": "ΔR"}  # the rule text's symbol where the API spells it in ASCII
FIGURE_LABELS = {
    "anomalous": N_("anomalous"),
    "anomaly_passes": N_("passes of the check (8)"),
    "black": N_("black"),
    "bonus": N_("bonus"),
    "bonus_applied": N_("bonus applied"),
    "bonus_capped": N_("bonus capped"),
    "bonus_threshold": N_("bonus threshold"),
    "category": N_("category"),
    "category_after": N_("category after"),
    "change": N_("change"),
    "change_before_bonus": N_("change before the bonus"),
    "change_unrounded": N_("change unrounded"),
    "change_with_uncapped_bonus": N_("change with the uncapped bonus"),
    "colour": N_("colour"),
    "correction": N_("correction"),
    "counted": N_("counted"),
    "counters": N_("counters"),
    "date": N_("date"),
    "day_after": N_("day of the rating after"),
    "decision": N_("decision"),
    "deviation": N_("deviation"),
    "deviation_after": N_("deviation after"),
    "evaluated_from": N_("evaluated from"),
    "expected": N_("expected score"),
    "extra_points": N_("extra points"),
    "game": N_("game"),
    "game_figures": N_("figures of each game"),
    "games": N_("games"),
    "games_above_lower_bound": N_("games above the lower bound"),
    "games_above_midpoint": N_("games above the midpoint"),
    "games_counted": N_("games counted"),
    "games_played": N_("games played"),
    "grade": N_("grade"),
    "grade_after": N_("grade after"),
    "grade_before": N_("grade before"),
    "handicap_games": N_("handicap games"),
    "history": N_("history"),
    "id": N_("id"),
    "keep": N_("to keep the rank"),
    "limit": N_("limit"),
    "midpoint_in_lower_bound_run": N_("midpoint in the lower-bound run"),
    "new_rank": N_("new rank"),
    "norm_reached": N_("norm reached"),
    "norms": N_("norms"),
    "number": N_("number"),
    "opponent": N_("opponent"),
    "opponent_factor": N_("opponent factor (10)"),
    "opponent_rank": N_("opponent's rank"),
    "opponent_rating": N_("opponent's rating"),
    "passes": N_("passes"),
    "pending_approval": N_("pending approval"),
    "pending_grade": N_("pending grade"),
    "pending_grade_after": N_("pending grade after"),
    "performance_rating": N_("performance rating"),
    "player_A": N_("player A"),
    "players": N_("players"),
    "precision": N_("precision"),
    "prior_results": N_("prior results"),
    "promotions": N_("promotions"),
    "provisional_factor": N_("provisional factor (9)"),
    "rank_before": N_("rank before"),
    "rank_on_list": N_("rank on the list"),
    "rank_remark": N_("rank remark"),
    "rank_source": N_("rank source"),
    "rated_games": N_("rated games"),
    "rating": N_("rating"),
    "rating_after": N_("rating after"),
    "rating_after_display": N_("rating after, rounded"),
    "rating_after_unrounded": N_("rating after, unrounded"),
    "rating_before": N_("rating before"),
    "rating_reason": N_("rating reason"),
    "reason": N_("reason"),
    "round": N_("round"),
    "rounds": N_("rounds"),
    "route": N_("route"),
    "score": N_("score"),
    "seed": N_("seed"),
    "start_rating": N_("start rating"),
    "state": N_("state"),
    "status": N_("status"),
    "streaks": N_("streaks"),
    "system": N_("system"),
    "table_III": N_("Table III points"),
    "title": N_("title"),
    "up1": N_("up one rank"),
    "up2": N_("up two ranks"),
    "white": N_("white"),
}

# The words among the figures' values (categories, colours, ERU's decisions and norms), as the
# templates show them under the figures named in WORDED_FIGURES; other values (ranks, ids, the rule
# engines' reasons) are shown as they are. (A single game's calculator names the opponent black or
# white: a tournament's player ids are not these words.)
WORDED_FIGURES = frozenset({"category", "category_after", "status", "colour", "decision", "norm_reached", "opponent"})
VALUE_LABELS = {
    "established": N_("established"),
    "provisional": N_("provisional"),
    "unrated": N_("unrated"),
    "black": N_("black"),
    "white": N_("white"),
    "promoted": N_("promoted"),
    "kept": N_("kept"),
    "demoted": N_("demoted"),
    "not-evaluated": N_("not evaluated"),
    "keep": N_("to keep the rank"),
    "up1": N_("up one rank"),
    "up2": N_("up two ranks"),
}
