"""Which tournaments a rating list rates: each rule once, as the SQL condition a recompute selects
games with and as the sentence a submitter reads when his tournament is left out.

The rules come from the list's ``eligibility`` settings (text 002 #9, INTERPRETATIONS 3.7). A field
the submitter left unknown (no time control, no rule) does not exclude the tournament: a rule
rejects only what is known to fail it, in SQL and in words alike.
"""

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import ColumnElement, and_, exists, func, or_

from app.models import Game, RatingList, Tournament, TournamentReview
from app.rating.registry import get_system
from app.rating.system import RatingSystem
from app.schemas.opening_rules import rule_family


class TournamentFields(Protocol):
    """What the rules read of a tournament: a stored ``Tournament`` or a submitted ``TournamentIn``.
    Read-only, so a submission's narrower types (``category: Literal["renju", ...]``) fit."""

    @property
    def id(self) -> str: ...

    @property
    def category(self) -> str: ...

    @property
    def rated(self) -> bool: ...

    @property
    def time_control_minutes(self) -> int | None: ...

    @property
    def rule(self) -> str | None: ...

    @property
    def format(self) -> str: ...

    @property
    def complete_records(self) -> bool: ...

    @property
    def end(self) -> dt.date: ...

    @property
    def conditions(self) -> Mapping[str, Any]: ...  # each system's document, as stored (app.schemas.conditions)


@dataclass(frozen=True)
class Requirement:
    condition: ColumnElement[bool] | None  # the SQL form over Tournament; None: applied by the engine
    admits: Callable[[TournamentFields], bool]
    reason: Callable[[TournamentFields], str]  # why a tournament that fails it is not rated


def eligibility_conditions(rating_list: RatingList) -> list[ColumnElement[bool]]:
    """SQL conditions a game must meet to count for the list: its tournament meets every
    requirement, and the game was played (a walkover is stored, never rated)."""
    return [*tournament_conditions(rating_list), Game.played.is_(True)]


def tournament_conditions(rating_list: RatingList) -> list[ColumnElement[bool]]:
    """The SQL conditions on the tournament alone (a tournament meeting them is rated when it has a
    played game): what a recompute reads tournaments' own fields with, without touching the games."""
    return [r.condition for r in requirements(rating_list) if r.condition is not None]


def reasons_not_rated(rating_list: RatingList, tournament: TournamentFields, review: str | None = None) -> list[str]:
    """Why the list will not rate this tournament; empty when it will. ``review``: the status of the
    tournament's review by the list (app.services.reviews), None when it has none."""
    return reasons_not_met(requirements(rating_list, review), tournament)


def reasons_not_met(rules: list["Requirement"], tournament: TournamentFields) -> list[str]:
    """Why the tournament fails these requirements (a list's, ``requirements``); empty when it meets them."""
    return [r.reason(tournament) for r in rules if not r.admits(tournament)]


def requirements(rating_list: RatingList, review: str | None = None) -> list[Requirement]:
    rules: dict[str, Any] = rating_list.eligibility or {}
    found = [
        Requirement(
            Tournament.category == rating_list.category,
            lambda t: t.category == rating_list.category,
            lambda t: f"the list rates {rating_list.category} tournaments, this one is {t.category}",
        ),
        # A withdrawn tournament is kept and shown, never rated (DELETE /v1/tournaments/{id}); a
        # submission has not been withdrawn.
        Requirement(
            Tournament.withdrawn_at.is_(None),
            lambda t: getattr(t, "withdrawn_at", None) is None,
            lambda t: f"the tournament was withdrawn: {getattr(t, 'withdrawn_reason', None)}",
        ),
    ]
    if rating_list.requires_review:
        # Held back until an officer of the list confirms it (docs/decisions.md 7.29): a pending or
        # rejected review excludes it; no review at all (stored before the list required them) does not.
        found.append(
            Requirement(
                ~exists().where(
                    and_(
                        TournamentReview.list_id == rating_list.id,
                        TournamentReview.tournament_id == Tournament.id,
                        TournamentReview.status != "confirmed",
                    )
                ),
                lambda t: review in (None, "confirmed"),
                lambda t: (
                    f"an officer of the list has {'rejected it' if review == 'rejected' else 'not confirmed it yet'}"
                    f" (POST /v1/rating-lists/{rating_list.id}/reviews/{{tournament_id}})"
                ),
            )
        )
    if rules.get("rated_only", True):
        found.append(
            Requirement(Tournament.rated.is_(True), lambda t: bool(t.rated), lambda t: "the tournament is marked not rated")
        )
    minimum = rules.get("min_time_control_minutes")
    if minimum:
        found.append(
            Requirement(
                or_(Tournament.time_control_minutes.is_(None), Tournament.time_control_minutes >= minimum),
                lambda t: t.time_control_minutes is None or t.time_control_minutes >= minimum,
                lambda t: f"time control {t.time_control_minutes} min is below the list's minimum {minimum} min",
            )
        )
    certified = rules.get("certified_rules")
    if certified:
        # RIF 2021 #9.1 names rule families ("the Soosyrv-N rule"): a stored Soosyrv-8 is one of them.
        exact = [name for name in certified if not name.endswith("-N")]
        numbered = [name[: -len("N")] for name in certified if name.endswith("-N")]
        found.append(
            Requirement(
                or_(Tournament.rule.is_(None), Tournament.rule.in_(exact), *(Tournament.rule.like(f"{p}%") for p in numbered)),
                lambda t: t.rule is None or rule_family(t.rule) in certified,
                lambda t: f"rule {t.rule!r} is not one of the list's certified rules ({', '.join(certified)})",
            )
        )
    formats = rules.get("formats")
    if formats:
        found.append(
            Requirement(
                Tournament.format.in_(formats),
                lambda t: t.format in formats,
                lambda t: f"format {t.format!r} is not one the list rates ({', '.join(formats)})",
            )
        )
    recognitions = rules.get("recognised_by")
    if recognitions:
        # A tournament counts only when one of these marks of the list's system's conditions is set
        # (ERU 4.5: the ERU calendar, a referee's acceptance or an international competition).
        system = get_system(rating_list.system)
        found.append(
            Requirement(
                or_(*(_marked(system, mark) for mark in recognitions)),
                lambda t: any(system.conditions(t.conditions.get(system.id))[mark] for mark in recognitions),
                lambda t: f"the tournament is marked none of: {', '.join(recognitions)}",
            )
        )
    if rules.get("complete_records"):
        found.append(
            Requirement(
                Tournament.complete_records.is_(True),
                lambda t: bool(t.complete_records),
                lambda t: "the list rates only tournaments whose complete game records are in the RIF database",
            )
        )
    last_day = (rating_list.params or {}).get("last_day")
    if last_day:
        # The Elo replay itself ignores tournaments ending after its last day (and notes each one in
        # the snapshot), so this rule has no SQL form of its own.
        ends = dt.date.fromisoformat(str(last_day))
        found.append(
            Requirement(
                None,
                lambda t: t.end <= ends,
                lambda t: f"the tournament ends on {t.end}, after the list's last day {ends}",
            )
        )
    return found


def _marked(system: RatingSystem[Any, Any], mark: str) -> ColumnElement[bool]:
    """SQL: the mark (a boolean of the system's conditions) is set on the tournament. A document holds
    what differs from its defaults (app.schemas.conditions): a mark it leaves out is its default."""
    default = system.conditions(None).get(mark)
    if not isinstance(default, bool):
        raise ValueError(f"{mark!r} is no mark (a yes or no) of the conditions of the system {system.id!r}")
    return func.coalesce(Tournament.conditions[(system.id, mark)].as_boolean(), default).is_(True)
