"""The calculators on the website (issue 25 item 5): a form per calculator that declares one
(``Calculator.website``), sent with GET (no JavaScript, nothing stored, a result that can be
bookmarked), answered by the same calculation as ``POST /v1/calc/...``, the answer shown with every
figure the rule text names. What a form cannot be read as, or the calculation refuses, is shown
beside the form with the field it concerns.

A form is drawn from its calculator's request model, not written per system (docs/decisions.md
112): each field is an input of its kind (a yes or no a checkbox; a choice of values, a ``Literal``,
an enumeration or a number of a few steps, a list; a number an input bounded as the field is; other
values text), labelled by the field's description; a record's fields stand together under its
description; a list of records is a table typed a record a line, its words the record's fields in
order (those it needs first, then those it may leave out, ``-`` for one left out), as a referee
writes a crosstable's pairings. A form shows the calculator's first request example, and reads what
is sent back into the request by the same description, so the form, the example and the reading
never disagree; a form takes at most ``MAX_LINES`` lines (the website is open to everyone).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import functools
import math
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from app.rating.calculators import CalculationRefused, Calculator
from app.rating.registry import systems
from app.web.pages import N_

__all__ = [
    "FIGURE_LABELS",
    "FIGURE_SYMBOLS",
    "VALUE_LABELS",
    "WORDED_FIGURES",
    "Field",
    "Form",
    "calculate",
    "figures",
    "form_of",
    "forms",
    "request_body",
]

MAX_LINES = 200
# A number with a step and both bounds is a choice when it has at most this many values (a score).
MAX_STEPPED_CHOICES = 10
# What a line's word, or an empty input, says of a field it leaves out.
LEFT_OUT_WORD = "-"
# The words of a yes or no in a line of a table.
YES_NO = {"true": True, "false": False}


@dataclass(frozen=True)
class Field:
    """One input of a form, drawn from one field of the calculator's request model.

    ``name``: the input's name, the field's ``path`` in the request joined by "_" (``black_rating``).
    ``kind``: checkbox, select (``choices``, the request's ``values``), number, date, text or lines (a
    textarea of records, one a line, each word one of its ``columns``). ``label``: the field's
    description; ``legend``: that of the record it is a field of ("" for the request's own).
    ``default``: what the form shows first, as typed. ``attributes``: the input's limits (min, max,
    step, maxlength). ``optional``: the request may leave it out."""

    name: str
    label: str
    kind: str = "text"
    default: str = ""
    choices: tuple[tuple[str, str], ...] = ()  # (value as typed, a word to show for it or "": the value itself)
    hint: str = ""
    path: tuple[str, ...] = ()
    legend: str = ""
    values: tuple[Any, ...] = ()
    whole: bool = False  # a number that is an integer
    nullable: bool = False
    optional: bool = False
    attributes: tuple[tuple[str, str], ...] = ()
    columns: tuple[Field, ...] = ()


@dataclass(frozen=True)
class Form:
    slug: str
    title: str
    rule: str  # the rule text and what the form computes, as a sentence
    operation_id: str  # the calculator it sends its request to
    fields: tuple[Field, ...]
    calculator: Calculator

    @property
    def sections(self) -> list[tuple[str, list[Field]]]:
        """The fields in their order, those of one record together under its legend."""
        sections: list[tuple[tuple[str, ...], str, list[Field]]] = []
        for field in self.fields:
            record = field.path[:-1]
            if not sections or sections[-1][0] != record:
                sections.append((record, field.legend, []))
            sections[-1][2].append(field)
        return [(legend, fields) for _, legend, fields in sections]


@dataclass
class Outcome:
    """A form's answer: the calculation's answer as plain JSON values, or what is wrong and where."""

    answer: dict[str, Any] | None
    errors: list[tuple[str, str]]


def forms() -> list[Form]:
    """The form of every registered calculator that declares one, in registry order."""
    return [form_of(calculator) for system in systems() for calculator in system.calculators if calculator.website]


def form_of(calculator: Calculator) -> Form:
    """A calculator's form, drawn from its request model and showing its first request example."""
    assert calculator.website is not None and calculator.request_model is not None  # a form sends a body
    example = next(iter(calculator.request_examples.values()), {}).get("value", {})
    return Form(
        calculator.website.slug,
        calculator.website.title,
        calculator.website.about,
        calculator.operation_id,
        tuple(_fields(calculator.request_model, example)),
        calculator,
    )


def calculate(form: Form, query: Mapping[str, str], gettext: Callable[[str], str] = str) -> Outcome:
    """The form's fields read into the calculator's request, validated and calculated; what is wrong
    is said in the reader's language (``gettext``) where the website words it."""
    calculator = form.calculator
    assert calculator.request_model is not None  # every form's calculator takes a body
    try:
        body = request_body(form, query)
    except _UnreadableLines as error:
        return Outcome(None, [("", error.wording(gettext))])
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


# --- a form from a request model -------------------------------------------------------------------


def _fields(model: type[BaseModel], example: Any, path: tuple[str, ...] = (), legend: str = "") -> list[Field]:
    """The inputs of a model's fields (a record's fields in its place, under its description)."""
    found: list[Field] = []
    for name, info in model.model_fields.items():
        if name in _deprecated_fields(model):
            continue  # a form asks in today's words only
        here = (*path, name)
        given = example.get(name, _MISSING) if isinstance(example, Mapping) else _MISSING
        annotation, nullable = _without_none(info.annotation)
        if _is_model(annotation):
            found += _fields(annotation, {} if given is _MISSING else given, here, info.description or "")
        elif get_origin(annotation) is list and _is_model(get_args(annotation)[0]):
            columns = _columns(get_args(annotation)[0])
            rows = [] if given is _MISSING else given
            found.append(
                Field(
                    "_".join(here),
                    info.description or name,
                    "lines",
                    "\n".join(_line(columns, row) for row in rows),
                    path=here,
                    legend=legend,
                    optional=not info.is_required(),
                    columns=columns,
                )
            )
        else:
            field = _scalar(here, info, legend)
            if field is None:
                if info.is_required():
                    raise ValueError(f"{model.__name__}.{name} cannot be given in a form")
                continue  # (left to its default: a list of values, a record inside a table's record)
            value = info.get_default(call_default_factory=True) if given is _MISSING else given
            found.append(_with_default(field, value))
    return found


def _columns(model: type[BaseModel]) -> tuple[Field, ...]:
    """The words of a table's line: the record's fields that a word can give, those it needs first."""
    columns = []
    for name, info in model.model_fields.items():
        column = _scalar((name,), info, "")
        if column is None:
            if info.is_required():
                raise ValueError(f"{model.__name__}.{name} cannot be a word of a line")
            continue
        columns.append(column)
    return tuple(sorted(columns, key=lambda column: column.optional))  # (a stable sort: the model's order kept)


def _scalar(path: tuple[str, ...], info: FieldInfo, legend: str) -> Field | None:
    """An input for a field holding one value, or None for one that holds several or a record."""
    annotation, nullable = _without_none(info.annotation)
    common: dict[str, Any] = {"path": path, "legend": legend, "nullable": nullable, "optional": not info.is_required()}
    name, label = "_".join(path), info.description or path[-1]
    values = _choices(annotation, info)
    if annotation is bool:
        return Field(name, label, "checkbox", **common)
    if values:
        shown = (("", "—"),) if nullable else ()
        return Field(name, label, "select", choices=shown + tuple((_typed(v), "") for v in values), values=values, **common)
    if annotation is int or annotation is float:
        return Field(name, label, "number", whole=annotation is int, attributes=_number_limits(annotation, info), **common)
    if annotation is dt.date:
        return Field(name, label, "date", **common)
    if annotation is str:
        longest = _limit(info, "max_length")
        return Field(name, label, "text", attributes=(("maxlength", str(longest)),) if longest else (), **common)
    return None


def _choices(annotation: Any, info: FieldInfo) -> tuple[Any, ...]:
    """The values a field may take, when they are few: a Literal's, an enumeration's, or a number's
    between bounds by a step (a score: 0, 0.5, 1)."""
    if get_origin(annotation) is Literal:
        return get_args(annotation)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return tuple(member.value for member in annotation)
    if annotation is float or annotation is int:
        low, high, step = (_limit(info, kind) for kind in ("ge", "le", "multiple_of"))
        if low is not None and high is not None and step and (high - low) / step <= MAX_STEPPED_CHOICES:
            return tuple(annotation(low + i * step) for i in range(int((high - low) / step) + 1))
    return ()


def _number_limits(annotation: Any, info: FieldInfo) -> tuple[tuple[str, str], ...]:
    low, high, step = (_limit(info, kind) for kind in ("ge", "le", "multiple_of"))
    limits = [("min", _typed(low)) if low is not None else None, ("max", _typed(high)) if high is not None else None]
    limits.append(("step", _typed(step) if step else "1" if annotation is int else "any"))
    return tuple(limit for limit in limits if limit is not None)


def _limit(info: FieldInfo, kind: str) -> Any:
    for marker in info.metadata:
        value = getattr(marker, kind, None)
        if value is not None:
            return value
    return None


def _with_default(field: Field, value: Any) -> Field:
    shown = ("on" if value else "") if field.kind == "checkbox" else "" if value is None else _typed(value)
    return dataclasses.replace(field, default=shown)


def _line(columns: tuple[Field, ...], row: Mapping[str, Any]) -> str:
    """A record of an example as a line: its words, ``-`` for a field it leaves out before one it gives."""
    words = [LEFT_OUT_WORD if row.get(c.path[-1]) is None else _word(row[c.path[-1]]) for c in columns]
    while words and words[-1] == LEFT_OUT_WORD and columns[len(words) - 1].optional:
        words.pop()
    return " ".join(words)


def _word(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else _typed(value)


def _typed(value: Any) -> str:
    """A value as the form shows it: a whole number without its ".0"."""
    if isinstance(value, enum.Enum):
        value = value.value
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def _without_none(annotation: Any) -> tuple[Any, bool]:
    """A field's type without None, and whether it takes None (its constraints' Annotated taken off)."""
    if get_origin(annotation) is Union or get_origin(annotation) is types.UnionType:
        members = [member for member in get_args(annotation) if not _is_none(member)]
        inner, _ = _without_none(members[0] if len(members) == 1 else annotation)
        return inner, len(members) < len(get_args(annotation))
    if hasattr(annotation, "__metadata__"):  # Annotated[X, ...] inside a union
        return _without_none(get_args(annotation)[0])
    return annotation, False


def _is_none(annotation: Any) -> bool:
    """None, or None kept out of the schema (``SkipJsonSchema[None]``: the service reads it as left out)."""
    return annotation is type(None) or (hasattr(annotation, "__metadata__") and get_args(annotation)[0] is type(None))


@functools.cache
def _deprecated_fields(model: type[BaseModel]) -> frozenset[str]:
    """The fields the contract marks deprecated (however the model marks them)."""
    properties = model.model_json_schema().get("properties", {})
    return frozenset(name for name, schema in properties.items() if schema.get("deprecated") is True)


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


_MISSING: Any = object()


# --- what was sent, read into the request ----------------------------------------------------------


def request_body(form: Form, query: Mapping[str, str]) -> dict[str, Any]:
    """What was typed into the form, as the calculator's request: each field at its path, those left
    empty left out (null where the field takes null), for the request model to validate."""
    body: dict[str, Any] = {}
    for field in form.fields:
        if field.kind == "checkbox":
            value: Any = query.get(field.name) == "on"  # (a box left unchecked is not sent)
        elif field.kind == "lines":
            value = _records(field, query.get(field.name, ""))
        else:
            value = _value(field, query.get(field.name, "").strip())
        if value is not _MISSING:
            record = body
            for key in field.path[:-1]:
                record = record.setdefault(key, {})
            record[field.path[-1]] = value
    return body


def _records(field: Field, text: str) -> list[dict[str, Any]]:
    """The non-empty lines of a textarea, each a record of the words' fields; at most MAX_LINES."""
    lines = [line.split() for line in text.splitlines() if line.strip()]
    if len(lines) > MAX_LINES:
        raise _UnreadableLines(N_("%(field)s: at most %(count)s lines"), field.label, count=MAX_LINES)
    needed = sum(1 for column in field.columns if not column.optional)
    records = []
    for number, words in enumerate(lines, start=1):
        if len(words) < needed:
            raise _UnreadableLines(
                N_("%(field)s, line %(line)s: give %(count)s words, as the example shows"), field.label, line=number, count=needed
            )
        record = {}
        for column, word in zip(field.columns, words):  # (words beyond the columns are no field's)
            value = _value(column, "" if word == LEFT_OUT_WORD else word)
            if value is not _MISSING:
                record[column.path[-1]] = value
        records.append(record)
    return records


def _value(field: Field, text: str) -> Any:
    """A typed text as the field's value; a text that is none of its values is handed on as it is,
    for the request model to say what is wrong with it."""
    if not text:
        return None if field.nullable else _MISSING
    if field.kind == "select":
        return next((value for value in field.values if _typed(value) == text or _number(text) == value), text)
    if field.kind == "number":
        number = _number(text)
        if isinstance(number, float) and field.whole and number.is_integer():
            return int(number)
        return text if number is None else number
    if field.kind == "checkbox":  # (a word of a line)
        return YES_NO.get(text.lower(), text)
    return text


def _number(text: str) -> float | None:
    """A finite number, or None (nan and inf are no figure of any rule)."""
    try:
        number = float(text)
    except ValueError:
        return None
    return number if math.isfinite(number) else None


class _UnreadableLines(ValueError):
    """A textarea that cannot be read as a table of records, worded when it is shown."""

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
