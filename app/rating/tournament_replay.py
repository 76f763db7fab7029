"""The replay of a list whose ratings change only at tournaments (Olufsen, ERU, Rivne): one loop.

The stored tournaments are rated one after another in (end, start, id) order, the seeds set their
players at their dates, and every player carries a state from tournament to tournament. A system gives
only what differs, as a ``TournamentRules``: the state a player carries, how a seed sets it, how one
tournament moves it, and how a state reads as a history point and a line of the list.

What the loop does the same for all of them:

- a seed is a player's standing at the end of its day: it holds for tournaments ending after that
  day, so a seed dated on a tournament's last day comes after it;
- the list's lines are read on the list date; tournaments after it still give histories and changes;
- one point per player and day, the last standing of the day, naming every tournament rated into it
  in the order they were rated;
- a tournament the rules cannot rate (``rate`` raises ValueError) is left out with a note naming it
  and the reason, so one bad file does not block the list; its players keep their states.
"""

from __future__ import annotations

import datetime as dt
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from app.rating.system import Change, Entry, Point, ReplayInput, Seed, StoredTournament

__all__ = ["Replayed", "TournamentRules", "replay_tournaments"]

StateT = TypeVar("StateT")


class TournamentRules(ABC, Generic[StateT]):
    """What one system's tournament replay does differently from the others'."""

    @abstractmethod
    def seeded(self, seed: Seed, state: StateT | None) -> StateT:
        """The state a seed gives its player (``state``: what the replay made of him so far, if anything)."""

    @abstractmethod
    def rate(self, tournament: StoredTournament, states: dict[str, StateT]) -> list[Change]:
        """Rate one tournament: set the states of its players in ``states`` and return its changes
        (one per player rated). A ValueError leaves the tournament out (the states must then be as
        they were)."""

    @abstractmethod
    def point(self, player_id: str, day: dt.date, state: StateT, tournament_ids: list[str]) -> Point | None:
        """The history point of a state from ``day`` on; None: the state has no place in the history."""

    @abstractmethod
    def entry(self, player_id: str, state: StateT) -> Entry | None:
        """The list's line of a state; None: the state has no line."""

    def not_rated(self, tournament: StoredTournament, error: ValueError) -> str:
        """The note on a tournament the rules refused."""
        return f"tournament {tournament.id!r} ({tournament.start}..{tournament.end}) not rated: {error}"


@dataclass
class Replayed(Generic[StateT]):
    entries: list[Entry]  # on the list date
    points: list[Point]  # by (date, player id)
    changes: list[Change]  # in the order the tournaments were rated
    notes: list[str]  # the tournaments left out and why
    states: dict[str, StateT]  # after the last tournament


def replay_tournaments(given: ReplayInput[Any], rules: TournamentRules[StateT]) -> Replayed[StateT]:
    """Replay the stored tournaments in (end, start, id) order, the seeds at their dates."""
    states: dict[str, StateT] = {}
    points: dict[tuple[str, dt.date], Point] = {}
    changes: list[Change] = []
    notes: list[str] = []
    entries: list[Entry] | None = None
    for day, seed, tournament in _timeline(given):
        if entries is None and day > given.list_date:
            entries = _entries(rules, states)  # the list on its date; later tournaments still give histories
        if seed is not None:
            state = states[seed.player_id] = rules.seeded(seed, states.get(seed.player_id))
            _record(points, rules.point(seed.player_id, seed.as_of, state, []))
            continue
        assert tournament is not None
        try:
            rated = rules.rate(tournament, states)
        except ValueError as error:  # what the rules refuse: the tournament is left out, not the list
            notes.append(rules.not_rated(tournament, error))
            continue
        for change in rated:
            changes.append(change)
            _record(points, rules.point(change.player_id, tournament.end, states[change.player_id], [tournament.id]))
    return Replayed(
        entries=entries if entries is not None else _entries(rules, states),
        points=sorted(points.values(), key=lambda point: (point.date, point.player_id)),
        changes=changes,
        notes=notes,
        states=states,
    )


def _timeline(given: ReplayInput[Any]) -> list[tuple[dt.date, Seed | None, StoredTournament | None]]:
    """Tournaments by (end, start, id) and seeds by date; a seed dated on a tournament's last day
    comes after it (a seed is the standing at the end of its day)."""
    events: list[tuple[tuple[Any, ...], dt.date, Seed | None, StoredTournament | None]] = [
        ((t.end, 0, t.start, t.id), t.end, None, t) for t in given.tournaments
    ]
    events += [((s.as_of, 1, s.as_of, s.player_id), s.as_of, s, None) for s in given.seeds]
    return [(day, seed, tournament) for _, day, seed, tournament in sorted(events, key=lambda event: event[0])]


def _record(points: dict[tuple[str, dt.date], Point], point: Point | None) -> None:
    """One point per player and day: the last holds, naming every tournament rated into it."""
    if point is None:
        return
    earlier = points.get((point.player_id, point.date))
    if earlier is not None:
        point.tournament_ids = [*earlier.tournament_ids, *(t for t in point.tournament_ids if t not in earlier.tournament_ids)]
    points[(point.player_id, point.date)] = point


def _entries(rules: TournamentRules[StateT], states: dict[str, StateT]) -> list[Entry]:
    return [entry for player_id, state in sorted(states.items()) if (entry := rules.entry(player_id, state)) is not None]
