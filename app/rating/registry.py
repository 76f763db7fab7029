"""The rating systems the service knows, by the id stored in ``rating_lists.system``.

Adding a system is one line here (see ``app/rating/system.py`` for the rest). ``register`` exists
for tests that define a throwaway system; the service itself only reads.
"""

from typing import Any

from app.rating import eru_list, olufsen_list, rif_elo_list, rivne_list, whr_list
from app.rating.system import RatingSystem

_SYSTEMS: dict[str, RatingSystem[Any, Any]] = {
    system.id: system
    for system in (whr_list.SYSTEM, rif_elo_list.SYSTEM, olufsen_list.SYSTEM, rivne_list.SYSTEM, eru_list.SYSTEM)
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


def register(system: RatingSystem[Any, Any]) -> None:
    """Add a system (tests: a throwaway system); an id already taken is an error."""
    if system.id in _SYSTEMS:
        raise ValueError(f"rating system {system.id!r} is already registered")
    _SYSTEMS[system.id] = system


def unregister(system_id: str) -> None:
    _SYSTEMS.pop(system_id, None)
