"""What produced a snapshot: the rating system, the service's version, the counts of its inputs
and a SHA-256 digest of them, recorded on the snapshot so that a published number can be
reproduced (``python -m app.cli verify``, ``app.services.verification``).

The digest covers what a recompute reads, in the order it reads it: every eligible tournament
(id, dates, its other stored fields and what its players declared) in (end, start, id) order, each
eligible game in that order (submission order within a tournament), and the seeds by player id.
Two recomputes over the same stored data give the same digest on either database; a game changed
behind the service's back gives another."""

import hashlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from app import json_encoding
from app.rating.system import GameColumns, Seed, StoredTournament
from app.version import VERSION


def service_version() -> str:
    """The service's version (app/version.py): the image runs the code without installing the
    package, where the package's metadata said "unknown"."""
    return VERSION


# A line's text: json.dumps(values, sort_keys=True, default=str, ensure_ascii=False), its encoder built
# once (a digest of ten thousand tournaments writes ten thousand lines).
_LINE = json_encoding.encoder(sort_keys=True, ensure_ascii=False, default=str)
_LINES_HASHED_AT_ONCE = 1000  # (a few hundred kilobytes of text at a time)


def inputs_digest(tournaments: Sequence[StoredTournament], columns: GameColumns | None, seeds: Sequence[Seed]) -> str:
    """SHA-256 (hex) of the replay's inputs in their canonical order."""
    digest = hashlib.sha256()
    lines: list[str] = []

    def line(*values: Any) -> None:
        lines.append(_LINE(values))
        if len(lines) == _LINES_HASHED_AT_ONCE:
            hash_lines()

    def hash_lines() -> None:
        # The same bytes as each line hashed with its line break, in fewer, longer updates.
        if lines:
            digest.update("".join(f"{text}\n" for text in lines).encode())
            lines.clear()

    for tournament in tournaments:
        line("tournament", tournament.id, tournament.start, tournament.end, tournament.fields, tournament.participants)
        for game in tournament.games:
            game_fields = (game.id, game.date, game.black, game.white, game.black_score, game.round, game.handicap)
            line("game", tournament.id, *game_fields, game.board_size)
    if columns is not None:
        line("players", columns.player_ids)
        hash_lines()
        # The arrays' own memory is hashed (no copy as bytes) when they already are what is hashed.
        for name in ("black", "white", "day", "tournament"):
            digest.update(np.ascontiguousarray(getattr(columns, name), dtype="<i8").data)
        digest.update(np.ascontiguousarray(columns.black_score, dtype="<f8").data)
    for seed in sorted(seeds, key=lambda s: s.player_id):
        line("seed", seed.player_id, seed.rating, seed.status, seed.as_of, seed.title, seed.counters)
    hash_lines()
    return digest.hexdigest()
