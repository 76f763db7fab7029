"""Each tournament's played games kept as one value (table ``played_games``, docs/decisions.md 7.67),
so that a recompute reads a million games as some 9,500 small values instead of a million rows.

A value holds what the WHR list's columnar read needs and nothing else: the ids of the players the
tournament's played games name, numbered by first appearance (black before white), as a JSON array;
and one packed ``RECORD`` per played game in submission order (``seq``): black's and white's numbers
in that list, the day as ``date.toordinal()`` and black's score in half points. Joined in the
tournaments' order, the values give exactly the ``GameColumns`` the rows give (``columns``).

It is derived from the games' rows and written by the same code that writes them: ``store`` with
the rows ``_insert_games`` inserts (a submission, a correction, the importer), ``rewrite`` after a
merge or an unmerge changes games' players; a correction deletes it with the games, and it is
deleted with its tournament (a foreign key ON DELETE CASCADE). A withdrawal, a restore or a review
changes only the tournament's row, which the recompute's conditions read as before."""

import json
from collections.abc import Collection, Mapping, Sequence
from datetime import date
from functools import lru_cache
from itertools import chain, groupby
from operator import itemgetter
from typing import Any

import numpy as np
from sqlalchemy import delete, insert, select
from sqlalchemy.orm import Session

from app import caches
from app.db import in_lists
from app.models import Game, PlayedGames, Tournament
from app.rating.system import SCORE_OF_RESULT, GameColumns

# Packed (no padding): 13 bytes a game. Half points keep the score exact (1, 0.5 or 0) in one byte.
RECORD = np.dtype([("black", "<i4"), ("white", "<i4"), ("day", "<i4"), ("black_half_points", "u1")])
_HALF_POINTS = {result: round(2 * score) for result, score in SCORE_OF_RESULT.items()}


def store_values(session: Session, values: Sequence[Mapping[str, Any]]) -> None:
    """Write these values (``value_of_columns``) of tournaments that have none yet (new ones, or a
    correction that deleted it with the games)."""
    if values:
        session.execute(insert(PlayedGames.__table__), values)


def rewrite(session: Session, tournament_ids: Collection[str]) -> None:
    """Build these tournaments' values again from their stored games (after their players changed)."""
    if not tournament_ids:
        return
    for wanted in in_lists(sorted(set(tournament_ids))):
        # Two merges that touch one tournament rebuild its value one after the other: the second waits
        # for the first's tournament row lock (PostgreSQL; SQLite has one writer), then reads its games
        # and deletes its value as the first committed them.
        session.execute(select(Tournament.id).where(Tournament.id.in_(wanted)).order_by(Tournament.id).with_for_update())
        session.execute(delete(PlayedGames).where(PlayedGames.tournament_id.in_(wanted)))
        rows = session.execute(
            select(Game.tournament_id, Game.black_id, Game.white_id, Game.result, Game.played, Game.date)
            .where(Game.tournament_id.in_(wanted))
            .order_by(Game.tournament_id, Game.seq)
        ).mappings()
        values = [value_of(list(games)) for _, games in groupby(rows, key=itemgetter("tournament_id"))]
        stored = [value for value in values if value is not None]
        if stored:
            session.execute(insert(PlayedGames.__table__), stored)


def value_of(rows: Sequence[Mapping[Any, Any]]) -> dict[str, Any] | None:
    """One tournament's ``played_games`` row from its game rows in ``seq`` order (None: none played)."""
    if not rows:
        return None
    games = [(row["black_id"], row["white_id"], row["result"], row["played"], row["date"]) for row in rows]
    return value_of_columns(rows[0]["tournament_id"], games, black=0, white=1, result=2, played=3, day=4)


def value_of_columns(
    tournament_id: str, games: Sequence[Sequence[Any]], *, black: int, white: int, result: int, played: int, day: int
) -> dict[str, Any] | None:
    """One tournament's ``played_games`` row from its games in ``seq`` order, each a tuple whose
    columns at these places hold the players' ids, the result, whether it was played and the day (a
    date, or its ISO text as the bulk insert writes it); None when no game was played."""
    played_games = [game for game in games if game[played]]
    if not played_games:
        return None
    number: dict[str, int] = {}
    records = np.empty(len(played_games), dtype=RECORD)
    black_numbers, white_numbers = [], []
    for game in played_games:  # numbered by first appearance, black before white, game after game
        black_numbers.append(number.setdefault(game[black], len(number)))
        white_numbers.append(number.setdefault(game[white], len(number)))
    records["black"], records["white"] = black_numbers, white_numbers
    records["day"] = [_ordinal(game[day]) for game in played_games]
    records["black_half_points"] = [_HALF_POINTS[game[result]] for game in played_games]
    return {"tournament_id": tournament_id, "players": json.dumps(list(number)), "games": records.tobytes()}


def games_of(players: str, games: bytes) -> list[tuple[date, str, str, str]]:
    """A stored value's played games as a repeat check compares them (``TournamentIn.played_games``):
    day, black, white and result, in submission order."""
    ids = json.loads(players)
    return [
        (date.fromordinal(day), ids[black], ids[white], _RESULT_OF_HALF_POINTS[half_points])
        for black, white, day, half_points in np.frombuffer(games, dtype=RECORD).tolist()
    ]


_RESULT_OF_HALF_POINTS = {half_points: result for result, half_points in _HALF_POINTS.items()}


@lru_cache(maxsize=4096)
def _ordinal(value: date | str) -> int:
    return (date.fromisoformat(value) if isinstance(value, str) else value).toordinal()


caches.memo("day_numbers", _ordinal)


def columns(values: Sequence[tuple[str, bytes]]) -> GameColumns:
    """The games of these values (``players``, ``games``), one tournament after another in the
    order given (``GameColumns.tournament`` numbers them so), players numbered across all of them by
    first appearance, black before white: each tournament's own list is in that order, so the
    first appearances across tournaments are those of the lists read one after another."""
    locals_ = json.loads("[" + ",".join(players for players, _ in values) + "]")
    records = np.frombuffer(b"".join(games for _, games in values), dtype=RECORD)
    counts = np.fromiter((len(games) // RECORD.itemsize for _, games in values), np.int64, len(values))
    sizes = np.fromiter(map(len, locals_), np.int64, len(values))
    distinct = dict.fromkeys(chain.from_iterable(locals_))
    number = dict(zip(distinct, range(len(distinct))))  # (twice as fast as a comprehension)
    global_of_local = np.fromiter(map(number.__getitem__, chain.from_iterable(locals_)), np.int64, int(sizes.sum()))
    # Each game's tournament's first entry in global_of_local, so a local number indexes it.
    offset = np.repeat(np.cumsum(sizes) - sizes, counts)
    return GameColumns(
        player_ids=list(number),
        black=global_of_local[offset + records["black"]],
        white=global_of_local[offset + records["white"]],
        black_score=records["black_half_points"] / 2.0,
        day=records["day"].astype(np.int64),
        tournament=np.repeat(np.arange(len(values), dtype=np.int64), counts),
    )
