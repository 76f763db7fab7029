"""What every system's calculator (``POST /v1/calc/...``) shares: how it declares its endpoints, the
one envelope check of a calculated tournament's players and games, and how it refuses input.

A system declares its calculator endpoints as data, ``Calculator`` records in its folder's
``calculator.py`` (``ENDPOINTS``), handed to its ``RatingSystem`` as ``calculators``;
``app/api/calculators.py`` builds the routes from the registry. A calculation is a plain function
from its request model to its response model: it checks what pydantic cannot (with a JSON pointer
for each offending field), hands plain values to the system's rules and shapes their answer. It
refuses input by raising ``CalculationRefused``, which the API answers as a 422 problem. Nothing
here imports FastAPI or SQLAlchemy; pydantic for the models only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, ParamSpec, Protocol, TypeVar

from pydantic import AfterValidator, BaseModel, Field

__all__ = [
    "MAX_CALC_GAMES",
    "MAX_CALC_PLAYERS",
    "Calculator",
    "CalculationRefused",
    "Pointer",
    "SCORES",
    "Score",
    "WebsiteForm",
    "answers",
    "envelope_errors",
    "refuse_if_any",
    "under_the_rules",
]

P = ParamSpec("P")
R = TypeVar("R")

SCORES = (0.0, 0.5, 1.0)


def _one_of_the_scores(value: float) -> float:
    """A score is one of the rules' values exactly (docs/decisions.md 104): pydantic's multipleOf lets a
    float within its tolerance of a multiple through (1e-300, 0.5000000000000001), which the rules
    either refuse as an internal error or rate into nonsense. -0.0 equals 0 and is answered as 0."""
    for score in SCORES:
        if value == score:
            return score
    raise ValueError(f"a score is exactly 0, 0.5 or 1, not {value!r}")


# 0, 0.5 or 1, said as bounds and a step: every client generator reads `number` with minimum, maximum
# and multipleOf, while an enum of floats (or one mixing 0 and 0.5) is dropped by some of them. The
# step is only the contract's words: the value must equal one of the three.
Score = Annotated[float, Field(ge=0, le=1, multiple_of=0.5), AfterValidator(_one_of_the_scores)]

# Work an anonymous caller may ask for in one request (the endpoints are open): a tournament of
# a thousand players and ten thousand games is far beyond any real one, and rates in about a second.
MAX_CALC_PLAYERS = 1_000
MAX_CALC_GAMES = 10_000


@dataclass(frozen=True)
class WebsiteForm:
    """How a calculator appears on the website's calculators page (``Calculator.website``). The form
    itself is drawn from the calculator's request model (each field's type, description, limits and
    choices, a record's fields together, a list of records as a table typed a line a record) and
    shows its first request example; this says only what no model does: the form's address on the
    page (``slug``), its title and a sentence saying what it computes (the website's catalogues
    translate both)."""

    slug: str
    title: str
    about: str


@dataclass(frozen=True)
class Calculator:
    """One calculator endpoint of a system, mounted under ``/v1/calc``.

    ``doc``: the operation's summary (first line) and description (the paragraphs after it).
    ``request_model`` None: a ``GET`` without a body, ``function`` taking no argument.
    ``request_examples``: named OpenAPI examples of the body; ``response_examples`` the answers,
    named like the requests they answer (``answers``). ``within_budget``: the calculation can take
    long on a large request, so it runs in a thread of its own within the calculation slots and the
    time budget; otherwise it takes microseconds and runs on the event loop. ``asked_often``: mounted
    right after the health probes, before the list pages (routes are matched in order, one by one).
    ``website``: its form on the website's calculators page, if it has one (app/web/calculators.py)."""

    path: str
    operation_id: str
    doc: str
    request_model: type[BaseModel] | None
    response_model: type[BaseModel]
    function: Callable[..., BaseModel]
    request_examples: dict[str, dict[str, Any]]
    response_examples: dict[str, dict[str, Any]]
    within_budget: bool = True
    asked_often: bool = False
    website: WebsiteForm | None = None


@dataclass(frozen=True)
class Pointer:
    """An offending field of the request: an RFC 6901 pointer and what is wrong there."""

    pointer: str
    detail: str


class CalculationRefused(ValueError):
    """The request cannot be calculated: a 422 problem with ``detail`` and the offending fields."""

    def __init__(self, detail: str, errors: Sequence[Pointer] = ()) -> None:
        super().__init__(detail)
        self.detail = detail
        self.errors = list(errors)


class _Player(Protocol):
    @property
    def id(self) -> str: ...


class _Game(Protocol):
    @property
    def black(self) -> str: ...

    @property
    def white(self) -> str: ...


PlayerT = TypeVar("PlayerT", bound=_Player)
GameT = TypeVar("GameT", bound=_Game)


def envelope_errors(
    players: Sequence[PlayerT],
    games: Sequence[GameT],
    *,
    player_errors: Callable[[int, PlayerT], list[Pointer]] | None = None,
    game_errors: Callable[[int, GameT], list[Pointer]] | None = None,
) -> list[Pointer]:
    """The players/games envelope of a calculated tournament: each player given once, each game
    between two different players of ``players``. A system's own checks of one player or one game
    (``player_errors``, ``game_errors``) follow that player's or game's, so the pointers come in the
    order of the request."""
    errors: list[Pointer] = []
    counts = Counter(player.id for player in players)
    seen: set[str] = set()
    for index, player in enumerate(players):
        if counts[player.id] > 1 and player.id in seen:
            errors.append(Pointer(f"/players/{index}/id", f"player {player.id!r} is given more than once"))
        seen.add(player.id)
        if player_errors is not None:
            errors += player_errors(index, player)
    for index, game in enumerate(games):
        for side, player_id in (("black", game.black), ("white", game.white)):
            if player_id not in counts:
                errors.append(Pointer(f"/games/{index}/{side}", f"player {player_id!r} is not in players"))
        if game.black == game.white:
            errors.append(Pointer(f"/games/{index}/white", f"player {game.white!r} cannot play against himself"))
        if game_errors is not None:
            errors += game_errors(index, game)
    return errors


def refuse_if_any(errors: Sequence[Pointer]) -> None:
    if errors:
        raise CalculationRefused(f"The request has {len(errors)} invalid field(s).", errors)


def under_the_rules(call: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """The rules re-check their input; whatever they still refuse is the caller's error."""
    try:
        return call(*args, **kwargs)
    except CalculationRefused:
        raise
    except ValueError as error:
        raise CalculationRefused(f"The rules cannot be applied to this input: {error}") from error


def answers(requests: dict[str, dict[str, Any]], values: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Response examples named and summarised like the request examples they answer."""
    return {name: {"summary": example["summary"], "value": values[name]} for name, example in requests.items()}
