"""What every rating system is to the rest of the service: plain values in, plain values out.

A recompute hands a system a ``ReplayInput`` (the list's eligible stored tournaments with their
games, its seeds, its validated parameters, the list date and the previous snapshot's warm-start
blob; for a system declared ``columnar``, the games as arrays in ``GameColumns`` instead of one
object per game) and gets back a ``Replay`` (the list's entries, every player's per-day ``Point``
history, the per-tournament ``Change`` rows, notes, an optional new warm-start blob). A list ``as_of``
a date is answered from the stored points: the service finds each player's last point on or before
the date (and his next one after it) and hands them to the system's ``standings_on`` as columns
(``HeldPoints``), which answers what every player stood at as columns too (``Standings``).

What the rules expect of one game between two players at their ratings is the system's
``expected_score`` (an ``Expectation``: the score and the rule cited), which the predictions read
(``GET /v1/rating-lists/{list_id}/predict``, a head-to-head's games) and an evaluation of the list
scores against the games it had not seen (app/rating/evaluation.py: ``EvaluationPlan``,
``Forecasts``; a system whose list cannot be read game by game from one replay's points gives its
own ``forecast``, as WHR does).

Adding a system is one folder, one line in the registry and one migration; nothing else in ``app/``
changes. The Estonian system, ``app/rating/eru/``, is the worked example (its README.md lists each
file):

1. a folder ``app/rating/<system>/`` with
   - ``README.md``: the rule text it implements (docs/rules.md) and the sections of
     docs/decisions.md it follows;
   - ``rules.py``: the rule text as pure functions over plain values, each paragraph cited where it is
     implemented (no FastAPI, SQLAlchemy, settings or I/O); ``__init__.py`` re-exports its public names
     (``from app.rating.eru.rules import *``) and imports nothing else;
   - ``rating_list.py``: its ``params_model`` (a pydantic model whose defaults are the rule text's and
     whose validators are the rules' own checks: ``PATCH …/params`` answers 422 with a pointer for
     anything the rules would reject), its ``seed_model`` (one seed, or None when it takes no seeds),
     its ``replay`` and ``standings_on``, its ``conditions_model`` if its rules ask a tournament for
     more than the fields every system reads (a pydantic model of the tournament's document
     ``conditions.<id>``, which validates it there: docs/decisions.md 112), and the
     ``SYSTEM = RatingSystem[Params, Seed](...)`` record (``id``: the string stored in
     ``rating_lists.system``; ``columnar=True`` if its replay reads the games as arrays,
     ``GameColumns``, rather than ``StoredGame`` objects; ``rule_sets`` and ``change_details``, for
     the contract's descriptions, when its changes name other rule sets or carry figures). A system
     whose ratings change only at tournaments replays through ``app.rating.tournament_replay`` and
     gives only its ``TournamentRules`` (the state a player carries, how a seed sets it, how one
     tournament moves it); ``last_point_held`` is then its ``standings_on``;
   - if it has calculators: ``calculator_models.py`` (their requests and answers, the public
     contract), ``calculator.py`` (the calculations, plain functions from request to answer that
     refuse input with ``app.rating.calculators.CalculationRefused``, and their ``ENDPOINTS``: one
     ``Calculator`` record per endpoint, handed to the record as ``calculators=ENDPOINTS``;
     ``app/api/calculators.py`` mounts them under ``/v1/calc``, and one that declares a ``website``
     form has it on the website's calculators page, drawn from its request model, whose
     descriptions ``make messages`` then adds to the catalogues) and ``calculator_examples.py`` (named
     request examples and the answers the service gives, checked by tests/project/test_documentation.py);
2. one entry in ``app/rating/registry.py`` (its calculators are mounted in registry order);
3. a migration inserting its default list row into ``rating_lists`` (id, name, system = the id
   above, category, params = the params model's defaults as JSON, eligibility) from a module-level
   ``DEFAULT_LISTS`` (the test harness restores every migration's ``DEFAULT_LISTS`` between tests;
   ``migrations/versions/0002_default_rating_lists.py`` is the example).

What a system promises:

- ``replay`` is pure and deterministic; it raises ValueError for input its rules cannot rate (the
  recompute job then fails with that message and the previous snapshot stays served).
- ``Entry.status`` is one of "active", "inactive", "provisional" (the list's filter); the rules' own
  status, grade or rank goes to ``title`` / ``counters``.
- ``points``: at most one per player and date, each carrying the standing that holds from that date
  on, ``games`` cumulative; ``standings_on`` must read the list on a date from these alone.
- ``changes``: one per (tournament, player) the system rated; ``details`` holds its own figures.
- ``points`` and ``changes`` may come as ``PointColumns`` / ``ChangeColumns`` (one sequence per
  field) from a system that computes them as arrays: the recompute then builds no object per row.
  Such a system can hand over a field as arrays too: numbers as NumPy arrays, dates as ``int``
  arrays of ``date.toordinal()`` numbers, a field of repeated strings or string lists as a
  ``CodedColumn`` (codes into its distinct values), a field of dicts as a ``RecordColumn``; the
  recompute then stores them without a Python object per row.
- ``warm_start`` comes back unchanged in the next recompute's ``ReplayInput`` (or None).

``app.rating.registry.register(system)`` / ``unregister(id)`` exist for tests that define a system
(tests/systems/coin/ is a whole folder of one, tests/systems/test_throwaway_system.py gives it its line).

Nothing here imports FastAPI, SQLAlchemy or settings; pydantic only for the params and seed models
(and the calculators' declarations), numpy for the columnar games.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import date
from typing import Any, Generic, Literal, TypeVar

import numpy as np
from pydantic import BaseModel

from app.rating.calculators import Calculator
from app.rating.sorting import RADIX_MOST_BITS, radix_order

__all__ = [
    "Change",
    "ChangeColumns",
    "CodedColumn",
    "Entry",
    "EntryColumns",
    "EvaluationPlan",
    "Expectation",
    "Forecasts",
    "above_probability",
    "GameColumns",
    "HeldPoints",
    "PointArrays",
    "Point",
    "PointColumns",
    "RatingSystem",
    "RecordColumn",
    "values_at",
    "SCORE_OF_RESULT",
    "Replay",
    "ReplayInput",
    "object_column",
    "ParamsT",
    "Seed",
    "SeedT",
    "Standing",
    "Standings",
    "StoredGame",
    "StoredTournament",
]


# --- what a recompute hands a system -------------------------------------------------------------

# A game's result as submitted ("B", "W", "D": from black's side) as black's score: what every
# system rates, stored games and calculated ones alike.
SCORE_OF_RESULT = {"B": 1.0, "W": 0.0, "D": 0.5}


@dataclass(slots=True)
class StoredGame:
    """One played game as stored: ``black_score`` is 1, 0.5 or 0; ``date`` is resolved at submission."""

    id: str | None
    date: date
    black: str
    white: str
    black_score: float
    round: str | None = None
    handicap: int | None = None
    board_size: int | None = None


@dataclass(slots=True)
class StoredTournament:
    """An eligible tournament with its played games in submission order."""

    id: str
    start: date
    end: date
    games: list[StoredGame]
    time_control_minutes: int | None = None
    board_size: int | None = None
    # Every other stored field of the tournament that holds a value, by column name (category, rule,
    # rated, format, ...), and those of the system's own conditions document
    # (``RatingSystem.conditions_model``, its defaults filled in), so a system can read what its rules
    # need without a change here (``fields.get``: a field without a value is not there).
    fields: dict[str, Any] = field(default_factory=dict)
    # What was declared for each player at this tournament (rank, rating, club, egf_pin,
    # rating_origin), by player id; only players the submission declared something for.
    participants: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass(slots=True)
class Seed:
    """A starting rating (``PUT /v1/rating-lists/{id}/seeds``), only for systems with a seed model."""

    player_id: str
    rating: float  # at the system's precision: whole for the Elo systems (their seed models), fractional for rivne
    status: str
    as_of: date
    title: str | None = None  # a grade or rank the player starts from, for systems that have them
    counters: dict[str, Any] | None = None  # the system's own counters ("rated games so far")


@dataclass(slots=True, eq=False)
class GameColumns:
    """The eligible played games as arrays, one element per game, in the order of ``StoredTournament``
    objects' games (tournament by tournament, each in submission order): what a recompute hands a
    system declared ``columnar``, read from the database straight into arrays with no object per game.
    Only what such a system reads is here; a system that needs a game's id, round, handicap or board
    reads ``StoredTournament`` objects."""

    player_ids: list[str]  # player index -> id, numbered by first appearance (black before white)
    black: np.ndarray  # int64 player indices
    white: np.ndarray  # int64 player indices
    black_score: np.ndarray  # float64: 1, 0.5 or 0
    day: np.ndarray  # int64: the game's date as ``date.toordinal()``
    tournament: np.ndarray  # int64: index into ``ReplayInput.tournaments``

    @classmethod
    def from_tournaments(cls, tournaments: list[StoredTournament]) -> GameColumns:
        """The same columns built from stored tournaments' game objects (for callers that have them)."""
        index: dict[str, int] = {}
        black, white, score, day, tournament_of = [], [], [], [], []
        for position, tournament in enumerate(tournaments):
            for game in tournament.games:
                black.append(index.setdefault(game.black, len(index)))
                white.append(index.setdefault(game.white, len(index)))
                score.append(game.black_score)
                day.append(game.date.toordinal())
                tournament_of.append(position)
        return cls(
            player_ids=list(index),
            black=np.array(black, dtype=np.int64),
            white=np.array(white, dtype=np.int64),
            black_score=np.array(score, dtype=np.float64),
            day=np.array(day, dtype=np.int64),
            tournament=np.array(tournament_of, dtype=np.int64),
        )

    def __len__(self) -> int:
        return len(self.black)


ParamsT = TypeVar("ParamsT", bound=BaseModel)
SeedT = TypeVar("SeedT", bound=BaseModel)


@dataclass(slots=True)
class ReplayInput(Generic[ParamsT]):
    # Sorted by (end, start, id). For a columnar system they carry their fields and participants but
    # no game objects (``games`` is empty): the games are in ``columns``.
    tournaments: list[StoredTournament]
    seeds: list[Seed]
    params: ParamsT  # an instance of the system's params_model
    list_date: date
    warm_start: bytes | None = None  # the previous snapshot's blob, as the system returned it
    columns: GameColumns | None = None  # the games as arrays, for a columnar system (else None)


# --- what a system hands back --------------------------------------------------------------------


@dataclass(slots=True)
class Entry:
    """A player's line of the list on its date. ``last_played`` is the date of his last game."""

    player_id: str
    rating: float
    deviation: float | None
    games: int
    last_played: date | None
    status: str  # "active", "inactive" or "provisional": the statuses the list filters on
    title: str | None = None  # a grade or rank ("3 dan")
    counters: dict[str, Any] | None = None  # the system's own numbers ("games towards the next grade")


@dataclass(slots=True)
class Point:
    """A player's standing from ``date`` on, as the system recorded it. ``games`` counts his rated
    games up to and including the point; ``last_played`` is his last game's date at that point."""

    player_id: str
    date: date
    rating: float
    deviation: float | None
    games: int
    status: str
    last_played: datetime.date | None = None  # (``date`` is this class's field: spelled in full)
    title: str | None = None
    counters: dict[str, Any] | None = None
    tournament_ids: list[str] = field(default_factory=list)  # the tournaments that produced it


@dataclass(slots=True)
class Change:
    """What one tournament did to one player under this snapshot."""

    tournament_id: str
    player_id: str
    system: str  # the rule set that rated it ("rif-1995", "rif-1997", "rif-whr", …)
    rating_before: float | None
    rating_after: float | None
    change: float | None
    change_unrounded: float | None
    games_counted: int
    status_after: str | None
    title_after: str | None = None
    details: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True, eq=False)
class CodedColumn:
    """A column of strings (or None), or of lists of strings, as one integer code per row into its
    distinct values (``values[codes[i]]`` is row i's value): how a columnar system hands over ids,
    statuses and a day's tournaments without a Python object per row. The codes need not be dense or
    in any order; a value no row names is not stored."""

    codes: np.ndarray  # integers, one per row
    values: Sequence[str | None] | Sequence[Sequence[str]]
    # Of distinct strings (ids): each value's place among them in code-point order, when the system
    # has it already (the recompute sorts rows by it; the WHR list ranks its 47,051 player ids once).
    value_order: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.codes)

    def decoded(self) -> np.ndarray:
        """Row by row, as an object array (rows with the same code share the value)."""
        decoded: np.ndarray = object_column(self.values)[self.codes]
        return decoded

    def taken(self, rows: np.ndarray) -> CodedColumn:
        """Only these rows, in this order."""
        return CodedColumn(self.codes[rows], self.values, self.value_order)


@dataclass(frozen=True, slots=True, eq=False)
class RecordColumn:
    """A column of dicts that all have the same keys (at least one; none missing, no None row), as one
    column per key in the dicts' key order: a float array or a ``CodedColumn`` of strings (a
    system's details)."""

    fields: dict[str, np.ndarray | CodedColumn]

    def __len__(self) -> int:
        return len(next(iter(self.fields.values()))) if self.fields else 0

    def taken(self, rows: np.ndarray) -> RecordColumn:
        """Only these rows, in this order."""
        return RecordColumn(
            {key: column.taken(rows) if isinstance(column, CodedColumn) else column[rows] for key, column in self.fields.items()}
        )

    def decoded(self) -> np.ndarray:
        """Row by row, as an object array of dicts."""
        keys = list(self.fields)
        per_key = [(column.decoded() if isinstance(column, CodedColumn) else column).tolist() for column in self.fields.values()]
        return object_column([dict(zip(keys, row, strict=True)) for row in zip(*per_key, strict=True)])


def values_at(column: Sequence[Any] | np.ndarray | CodedColumn | RecordColumn, rows: np.ndarray) -> list[Any]:
    """A ``PointColumns`` / ``ChangeColumns`` field's values at these rows as plain Python values,
    whatever form the system gave it in (day ordinals stay numbers)."""
    if isinstance(column, CodedColumn | RecordColumn):
        taken: list[Any] = column.taken(rows).decoded().tolist()
        return taken
    if isinstance(column, np.ndarray):
        plain: list[Any] = column[rows].tolist()
        return plain
    return [column[i] for i in rows.tolist()]


@dataclass(slots=True, eq=False)
class EntryColumns:
    """Entries as one sequence per ``Entry`` field, all of one length: what a columnar system may
    return instead of ``Entry`` objects (see ``PointColumns``). Numbers may come as arrays,
    ``last_played`` as an ``int`` array of ``date.toordinal()`` numbers (``NO_DAY`` for none)."""

    player_id: Sequence[str]
    rating: Sequence[float] | np.ndarray
    deviation: Sequence[float | None] | np.ndarray
    games: Sequence[int] | np.ndarray
    last_played: np.ndarray
    status: Sequence[str]
    title: Sequence[str | None]
    counters: Sequence[dict[str, Any] | None]

    def __len__(self) -> int:
        return len(self.player_id)


@dataclass(slots=True, eq=False)
class PointColumns:
    """Points as one sequence per ``Point`` field, all of one length: what a system that computes its
    points as arrays may return instead of ``Point`` objects (the recompute stores the sequences as
    columns: no object per point). Same meaning, field by field, as ``Point``; a field may come as
    arrays (``ValuesColumn``): ``date`` and ``last_played`` as ``int`` arrays of ``date.toordinal()``
    numbers (``NO_DAY`` for none)."""

    player_id: Sequence[str] | CodedColumn
    date: Sequence[datetime.date] | np.ndarray
    rating: Sequence[float] | np.ndarray
    deviation: Sequence[float | None] | np.ndarray
    games: Sequence[int] | np.ndarray
    status: Sequence[str] | CodedColumn
    last_played: Sequence[datetime.date | None] | np.ndarray
    title: Sequence[str | None] | CodedColumn
    counters: Sequence[dict[str, Any] | None] | RecordColumn | CodedColumn  # (coded: None on every row)
    tournament_ids: Sequence[list[str]] | CodedColumn

    def __len__(self) -> int:
        return len(self.player_id)


@dataclass(slots=True, eq=False)
class ChangeColumns:
    """Changes as one sequence per ``Change`` field, all of one length (see ``PointColumns``); a
    missing number in an array is NaN."""

    tournament_id: Sequence[str] | CodedColumn
    player_id: Sequence[str] | CodedColumn
    system: Sequence[str] | CodedColumn
    rating_before: Sequence[float | None] | np.ndarray
    rating_after: Sequence[float | None] | np.ndarray
    change: Sequence[float | None] | np.ndarray
    change_unrounded: Sequence[float | None] | np.ndarray
    games_counted: Sequence[int] | np.ndarray
    status_after: Sequence[str | None] | CodedColumn
    title_after: Sequence[str | None] | CodedColumn
    details: Sequence[dict[str, Any] | None] | RecordColumn

    def __len__(self) -> int:
        return len(self.player_id)


@dataclass(slots=True)
class Replay:
    entries: list[Entry] | EntryColumns
    points: list[Point] | PointColumns
    changes: list[Change] | ChangeColumns = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warm_start: bytes | None = None
    params: dict[str, Any] = field(default_factory=dict)  # what the snapshot records beside the list's params


# --- what a list as of a date is read from --------------------------------------------------------

NO_DAY = 0  # in a day column: no date (``date.toordinal()`` is never 0)


@dataclass(frozen=True)
class PointArrays:
    """Stored points as columns, one element per point. Days are ``date.toordinal()`` numbers; a
    missing deviation is NaN, a missing ``last_played`` is ``NO_DAY``; ``status``, ``title`` and
    ``counters`` hold objects."""

    day: np.ndarray
    rating: np.ndarray
    deviation: np.ndarray
    games: np.ndarray
    last_played: np.ndarray
    status: np.ndarray
    title: np.ndarray
    counters: np.ndarray

    @classmethod
    def of(cls, points: Sequence[Point]) -> PointArrays:
        return cls(
            day=np.array([p.date.toordinal() for p in points], dtype=np.int64),
            rating=np.array([p.rating for p in points], dtype=np.float64),
            deviation=float_column([p.deviation for p in points]),
            games=np.array([p.games for p in points], dtype=np.int64),
            last_played=np.array([p.last_played.toordinal() if p.last_played else NO_DAY for p in points], dtype=np.int64),
            status=object_column([p.status for p in points]),
            title=object_column([p.title for p in points]),
            counters=object_column([p.counters for p in points]),
        )

    def columns(self, rows: np.ndarray | slice = slice(None)) -> dict[str, np.ndarray]:
        """Each column by its field's name, only the given rows."""
        return {name: getattr(self, name)[rows] for name in _POINT_ARRAY_FIELDS}


@dataclass(frozen=True)
class HeldPoints(PointArrays):
    """Each player's last stored point on or before a day (one element per player), with the date,
    rating and deviation of his next point for a system that interpolates (``next_day`` is ``NO_DAY``
    after his last point, the other two NaN)."""

    next_day: np.ndarray
    next_rating: np.ndarray
    next_deviation: np.ndarray

    @classmethod
    def around(cls, points: Sequence[Point], following: Sequence[Point | None]) -> HeldPoints:
        """``points`` (each player's point) and ``following[i]``, the next point of ``points[i]``'s
        player or None."""
        return cls(
            **PointArrays.of(points).columns(),
            next_day=np.array([f.date.toordinal() if f else NO_DAY for f in following], dtype=np.int64),
            next_rating=float_column([f.rating if f else None for f in following]),
            next_deviation=float_column([f.deviation if f else None for f in following]),
        )


@dataclass(frozen=True)
class HeldSpans:
    """Every stored point with the run of ``days`` (ascending ordinals) on which it is its player's
    last one: row ``i`` of ``points`` (sorted by player, then day) is held on ``days[first[i]:until[i]]``,
    an empty run when his next point comes before the next of ``days``; ``has_next[i]``: row ``i + 1``
    is the same player's next point (its date, rating and deviation are ``HeldPoints``' ``next_*``)."""

    points: PointArrays
    has_next: np.ndarray
    first: np.ndarray
    until: np.ndarray
    days: np.ndarray


@dataclass(frozen=True)
class ActiveOnDays:
    """The points a list reads ``active`` on each of many days, with the rating it reads there: point
    ``row[k]`` on ``days[day[k]]``, ordered by day, then row (so by player within a day)."""

    row: np.ndarray
    day: np.ndarray
    rating: np.ndarray


@dataclass(frozen=True)
class Standings:
    """The players' lines of a list as of a date, as columns in the order of the ``HeldPoints`` they
    were read from (same conventions: NaN, ``NO_DAY``, objects)."""

    rating: np.ndarray
    deviation: np.ndarray
    games: np.ndarray
    last_played: np.ndarray
    status: np.ndarray
    title: np.ndarray
    counters: np.ndarray

    def __len__(self) -> int:
        return len(self.rating)

    def at(self, i: int) -> Standing:
        deviation, last_played = float(self.deviation[i]), int(self.last_played[i])
        return Standing(
            rating=float(self.rating[i]),
            deviation=None if math.isnan(deviation) else deviation,
            games=int(self.games[i]),
            last_played=None if last_played == NO_DAY else date.fromordinal(last_played),
            status=str(self.status[i]),
            title=self.title[i],
            counters=self.counters[i],
        )


@dataclass(slots=True)
class Standing:
    """One player's line of a list as of a date (``Standings.at``)."""

    rating: float
    deviation: float | None
    games: int
    last_played: date | None
    status: str
    title: str | None = None
    counters: dict[str, Any] | None = None


def last_point_held(held: HeldPoints, day: date, params: BaseModel) -> Standings:
    """The standings of a system whose rating changes only at its tournaments: each player's last
    point holds until his next one (Olufsen, ERU 4.9, Rivne)."""
    return Standings(held.rating, held.deviation, held.games, held.last_played, held.status, held.title, held.counters)


_POINT_ARRAY_FIELDS = tuple(f.name for f in fields(PointArrays))


def float_column(values: Sequence[float | None] | np.ndarray) -> np.ndarray:
    """A column of floats, NaN for a missing value (an array of numbers as it is: no None in it)."""
    if isinstance(values, np.ndarray) and values.dtype != object:
        return values.astype(np.float64, copy=False)
    return np.array([math.nan if v is None else v for v in values], dtype=np.float64)


def lexsort_order(keys: Sequence[np.ndarray]) -> np.ndarray:
    """The order ``np.lexsort(keys)`` gives (the last key first) for integer keys, by one stable sort
    of a combined key: lexsort sorts once per key, several times slower on a million rows. Falls back
    to lexsort when the combined key would not fit in 63 bits."""
    if not len(keys) or not len(keys[0]):
        return np.lexsort(keys) if len(keys) else np.empty(0, dtype=np.intp)
    lows = [int(key.min()) for key in keys]
    spans = [int(key.max()) - low + 1 for key, low in zip(keys, lows, strict=True)]
    if math.prod(spans) >= 2**63:
        return np.lexsort(keys)
    combined = np.zeros(len(keys[0]), dtype=np.int64)
    for key, low, span in zip(reversed(keys), reversed(lows), reversed(spans), strict=True):
        combined *= span
        combined += key - low
    bits = (math.prod(spans) - 1).bit_length()
    return radix_order(combined, bits) if bits <= RADIX_MOST_BITS else np.argsort(combined, kind="stable")


def object_column(values: Sequence[Any]) -> np.ndarray:
    """A column of Python objects (strings, dicts, None): ``np.array`` would make strings fixed-width."""
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


# --- what the rules expect of one game ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Expectation:
    """What a system's rules expect of one game between two players at their ratings: ``score`` is the
    first player's expected score (his probability of winning, a draw counting half), by the rule
    ``rule`` cites as the system's code cites its paragraphs ("RIF 1995 #7", "004 (1)-(4)")."""

    score: float
    rule: str


def above_probability(rating: float, deviation: float, opponent_rating: float, opponent_deviation: float) -> float:
    """P(A's rating is above B's) for a system whose ratings carry a deviation (``has_deviation``), each
    rating taken as normal about its value with its deviation as the standard error, the two
    independent (for WHR the normal approximation of the fit's posterior, # RIF 2021 #7,
    INTERPRETATIONS 3.3): Φ((RA − RB)/sqrt(σA² + σB²)) on the rating's scale. Without any deviation
    the higher rating is above for certain, equal ones even."""
    spread = math.hypot(deviation, opponent_deviation)
    difference = rating - opponent_rating
    if spread == 0:
        return 0.5 if difference == 0 else float(difference > 0)
    return 0.5 * math.erfc(-difference / (spread * math.sqrt(2.0)))


# --- how well a list predicts its games (app/rating/evaluation.py) ----------------------------------


@dataclass(frozen=True)
class EvaluationPlan:
    """Which games an evaluation predicts and from what (app/rating/evaluation.py, issue 45).

    ``forward``: every game is predicted from the ratings the list held before the game's day, as a
    reader of the list would have predicted it then; a whole-history system (WHR) refits at the end
    of each period of ``period_months`` calendar months and predicts the next period from that fit.
    ``holdout``: the games are numbered 0, 1, 2, … in the stated order (app/rating/evaluation.py)
    and those whose number % ``every`` == ``offset`` are held out; the list is computed from the
    others and predicts the held-out ones."""

    mode: Literal["forward", "holdout"] = "forward"
    period_months: int = 1
    every: int = 10
    offset: int = 0


@dataclass(frozen=True, eq=False)
class Forecasts:
    """What a system predicted of the games it scored: one element per scored game, in the stated
    order (app/rating/evaluation.py)."""

    expected: np.ndarray  # float64: black's expected score by the system's own rule
    observed: np.ndarray  # float64: black's score, 1, 0.5 or 0
    rating: np.ndarray  # float64: black's rating the prediction used
    opponent_rating: np.ndarray  # float64: white's
    day: np.ndarray  # int64: the game's date as ``date.toordinal()``
    considered: int  # the games to predict (forward: all; holdout: the held-out ones), scored or not
    unscored: int  # of those, the games not predicted because a player had no rating yet
    rule: str  # the expected-score rule cited (``Expectation.rule``)
    # int64: each scored game's position in the input (``GameColumns`` order): two lists evaluated on
    # the same games are compared on those both scored (app/recompute/evaluations.py).
    game: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    def __len__(self) -> int:
        return len(self.expected)


# --- the system itself -----------------------------------------------------------------------------


@dataclass(frozen=True)
class RatingSystem(Generic[ParamsT, SeedT]):
    """A system, typed over its params and seed models: its ``replay`` and ``standings_on`` read the
    params as the model they are."""

    id: str
    params_model: type[ParamsT]
    seed_model: type[SeedT] | None
    # replay(input) -> Replay. Raises ValueError for input the rules cannot rate.
    replay: Callable[[ReplayInput[ParamsT]], Replay]
    # standings_on(held, day, params) -> Standings: the list on ``day`` from each player's last point
    # on or before it (and the next one's date, rating and deviation), computed as columns: a list
    # as of a date is thousands of players, read per request.
    standings_on: Callable[[HeldPoints, date, ParamsT], Standings]
    description: str = ""
    # True: the recompute reads the games straight into ``ReplayInput.columns`` (no object per game)
    # and hands ``tournaments`` without their games.
    columnar: bool = False
    # Its calculators' endpoints under /v1/calc, mounted from the registry (app/api/calculators.py).
    calculators: tuple[Calculator, ...] = ()
    # The names its changes give their rule set (``Change.system``), when not its id alone.
    rule_sets: tuple[str, ...] = ()
    # What its changes' ``details`` hold, for the contract (app/schemas/systems.py).
    change_details: str = ""
    # What its rules ask of a tournament beyond the fields every system reads (docs/decisions.md 112):
    # the model of the document a submission gives under the system's id in its ``conditions``, which
    # validates it there; None when its rules ask nothing more.
    conditions_model: type[BaseModel] | None = None
    # The document's fields are also taken at the tournament's top level and read back there, where
    # the contract had them before they moved into ``conditions`` (the Estonian system's).
    flat_conditions: bool = False
    # expected_score(rating, opponent_rating, day, params) -> Expectation: the first player's expected
    # score against the second at these ratings on ``day``, by the system's own rule (its formula or
    # table, cited); None for a system whose rules give no expectation of one game.
    expected_score: Callable[[float, float, date, ParamsT], Expectation] | None = None
    # Whether its ratings carry a deviation (a standard error on the rating's scale): then the chance
    # that one player stands above another is read from both (app/services/predictions.py).
    has_deviation: bool = False
    # handicap_correction(stones) -> the rating points a handicap is worth to the player who receives
    # the stones (black) in his expected score, by the system's rule; None for a system without
    # handicap games. An evaluation adds it to black's rating before ``expected_score``.
    handicap_correction: Callable[[int], float] | None = None
    # The change of a list's mean rating over 12 months, in its rating points, from which its drift is
    # flagged unless the list sets its own (issue 46 item 4, docs/decisions.md 127): 50 on the Elo
    # scales (RIF, WHR's display scale, Olufsen, the Estonian table).
    drift_threshold: float = 50.0
    # active_on_days(spans, params) -> ActiveOnDays: what ``standings_on`` reads ``active`` on each of
    # many days, and the ratings it reads them at, all days at once, for a system whose standing on a
    # day is a few array operations on the held point (WHR's status and bridge): the drift's month
    # ends (app/snapshots/drift.py) read every month of a history this way instead of one
    # ``standings_on`` a month. It must answer what ``standings_on`` answers day by day, to the bit;
    # None: the drift reads each day with ``standings_on``.
    active_on_days: Callable[[HeldSpans, ParamsT], ActiveOnDays] | None = None
    # forecast(input, plan) -> Forecasts: the system's own way to predict its games for an evaluation
    # (app/rating/evaluation.py), for a system whose list is not read game by game from one replay's
    # points (WHR refits the whole history: app/rating/whr/forecast.py); None: the evaluation replays
    # the system and reads its points.
    forecast: Callable[[ReplayInput[ParamsT], EvaluationPlan], Forecasts] | None = None

    def params(self, stored: dict[str, Any] | None) -> ParamsT:
        """The list's (or a snapshot's) stored parameters, validated, with the model's defaults for what
        is missing; what the snapshot records beside them (e.g. the number of seeds) is left out."""
        fields = self.params_model.model_fields
        return self.params_model.model_validate({k: v for k, v in (stored or {}).items() if k in fields})

    def conditions(self, stored: Mapping[str, Any] | None) -> dict[str, Any]:
        """A tournament's document of this system as stored (what differs from its defaults, or None),
        validated, with the model's defaults for the rest; empty for a system that asks nothing more."""
        if self.conditions_model is None:
            return {}
        return self.conditions_model.model_validate(stored or {}).model_dump(mode="json")

    def tournament_fields(self, stored: Mapping[str, Any]) -> dict[str, Any]:
        """A stored tournament's columns as this system's replay reads them (``StoredTournament.fields``):
        by name, with ``conditions`` given as the system's own document's fields among the others;
        only those that hold a value, so that a column just added, which no tournament sets yet,
        changes no snapshot's inputs (their digest, app/recompute/provenance.py)."""
        fields = {name: value for name, value in stored.items() if name != "conditions"}
        fields |= self.conditions((stored.get("conditions") or {}).get(self.id))
        return {name: value for name, value in fields.items() if value is not None}
