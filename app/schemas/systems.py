"""What the contract says of the rating systems, drawn from the registry when the contract is drawn:
the descriptions that name the systems, their rule sets, parameters, seeds and figures, so that a
system added to the registry is described with the others and no schema writes a system's name.
Each is a field's ``json_schema_extra``, which replaces the field's generic description in the
contract by the one the registered systems give."""

from collections.abc import Callable
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel

from app.rating.registry import systems
from app.rating.system import RatingSystem

Systems = list[RatingSystem[Any, Any]]


def described(describe: Callable[[Systems], str]) -> Callable[[dict[str, Any]], None]:
    """A field's ``json_schema_extra``: its description as ``describe`` words it from the systems
    registered when the contract is drawn."""

    def extra(schema: dict[str, Any]) -> None:
        schema["description"] = describe(systems())

    return extra


def system_ids(registered: Systems) -> str:
    return "The rating system: " + _listed([system.id for system in registered])


def rule_sets(registered: Systems) -> str:
    names = [name for system in registered for name in (system.rule_sets or (system.id,))]
    return "The rule set that rated the tournament: " + _listed(names)


def list_params(registered: Systems) -> str:
    by_system = [f"{system.id}: {', '.join(system.params_model.model_fields)}" for system in registered]
    return "The rule system's parameters, with the system's defaults for what a list leaves out (" + "; ".join(by_system) + ")"


def seed_rating(registered: Systems) -> str:
    whole = [system.id for system in _seeded(registered) if _seed_field(system, "rating") is int]
    fractional = [system.id for system in _seeded(registered) if _seed_field(system, "rating") is not int]
    return (
        "His rating on `as_of`, at the precision of the list's system: "
        + "; ".join(
            part
            for part in (
                f"a whole number for {_listed(whole, 'and')}" if whole else "",
                f"fractional for {_listed(fractional, 'and')}" if fractional else "",
            )
            if part
        )
        + "; the system may bound it further"
    )


def seed_status(registered: Systems) -> str:
    statuses = []
    for system in _seeded(registered):
        field = _seed_model(system).model_fields.get("status")
        if field is None or get_origin(field.annotation) is not Literal:
            continue
        values = [str(value) for value in get_args(field.annotation)]
        default = field.get_default()
        by_default = f", by default {default}" if len(values) > 1 and default in values else ""
        statuses.append(f"{system.id}: {_listed(values)}{by_default}")
    return "The list's system's own status, checked by it (" + "; ".join(statuses) + ")"


def seed_counters(registered: Systems) -> str:
    counted = []
    for system in _seeded(registered):
        model = _seed_field(system, "counters")
        if isinstance(model, type) and issubclass(model, BaseModel):
            counted.append(f"for {system.id} {_listed(list(model.model_fields), 'and')}")
    return (
        "The system's own counters (" + "; ".join(counted) + "), as the `seed` of its tournament calculator's answer gives them"
    )


def change_details(registered: Systems) -> str:
    described_systems = [f"{system.id}: {system.change_details}" for system in registered if system.change_details]
    return "The system's own figures (" + "; ".join(described_systems) + ")"


def _seeded(registered: Systems) -> Systems:
    return [system for system in registered if system.seed_model is not None]


def _seed_model(system: RatingSystem[Any, Any]) -> type[BaseModel]:
    assert system.seed_model is not None  # (only seeded systems are asked)
    return system.seed_model


def _seed_field(system: RatingSystem[Any, Any], name: str) -> Any:
    """The type of a seed model's field, without None."""
    field = _seed_model(system).model_fields.get(name)
    if field is None:
        return None
    members = [member for member in get_args(field.annotation) if member is not type(None)]
    return members[0] if len(members) == 1 else field.annotation


def _listed(names: list[str], last: str = "or") -> str:
    if len(names) < 2:
        return names[0] if names else "none"
    return f"{', '.join(names[:-1])} {last} {names[-1]}"
