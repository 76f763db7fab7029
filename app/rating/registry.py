"""The rating systems the service knows, by the id stored in ``rating_lists.system``.

Adding a system is one line here (see ``app/rating/system.py`` for the rest). ``register`` exists
for tests that define a throwaway system; the service itself only reads.
"""

from typing import Any

from app.rating.eru import rating_list as eru
from app.rating.olufsen import rating_list as olufsen
from app.rating.rif_elo import rating_list as rif_elo
from app.rating.rivne import rating_list as rivne
from app.rating.system import RatingSystem
from app.rating.whr import rating_list as whr

_SYSTEMS: dict[str, RatingSystem[Any, Any]] = {
    system.id: system
    # In this order their calculators are mounted (app/api/calculators.py).
    for system in (rif_elo.SYSTEM, whr.SYSTEM, olufsen.SYSTEM, eru.SYSTEM, rivne.SYSTEM)
}


class UnknownSystem(LookupError):
    pass


def get_system(system_id: str) -> RatingSystem[Any, Any]:
    """The system with this id; UnknownSystem (never a fallback) for any other."""
    try:
        return _SYSTEMS[system_id]
    except KeyError:
        raise UnknownSystem(f"rating system {system_id!r} is not registered (known: {', '.join(sorted(_SYSTEMS))})") from None


def system_ids() -> list[str]:
    return sorted(_SYSTEMS)


def systems() -> list[RatingSystem[Any, Any]]:
    """Every system, in the order they were registered."""
    return list(_SYSTEMS.values())


def register(system: RatingSystem[Any, Any]) -> None:
    """Add a system (tests: a throwaway system); an id already taken is an error."""
    if system.id in _SYSTEMS:
        raise ValueError(f"rating system {system.id!r} is already registered")
    _SYSTEMS[system.id] = system


def unregister(system_id: str) -> None:
    _SYSTEMS.pop(system_id, None)
