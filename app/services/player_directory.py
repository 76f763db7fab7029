"""Importing a player directory (``python -m app.cli import``): players created or updated with the
fields the file gives and their ids in other systems, all or nothing in one transaction, each change
recorded as a revision; a second run changes nothing (issue 24 item 6). The renju WHR site's list of
women sets the gender of the stored players it marks, from the stored games (issue 47 item 3)."""

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db import session_scope
from app.importers import directory as directory_format
from app.importers.directory import DirectoryFile, DirectoryRow, WomenList
from app.models import Game, Player, PlayerExternalId, Tournament
from app.services import revisions
from app.services.players import add_external_ids, external_holders, player_version, refresh_search_keys

IMPORT_ACTOR = "import"  # as app.services.importing names the command-line importer's changes
EXTERNAL_ID_TAKEN = "external id another player holds"
OTHER_ID_OF_SCHEME = "player who holds another id of the scheme"
MERGED_PLAYER = "player merged into another"
TOURNAMENT_NOT_STORED = "tournament not stored"
PLAYER_NOT_STORED = "player not stored"
SKIPPED_REASONS = {
    TOURNAMENT_NOT_STORED: "the list of women names a tournament this service does not hold (import its results first"
    " to mark its players)",
    PLAYER_NOT_STORED: "the list of women names a player this service does not hold: a list of women creates nobody",
}
SERVICE_REASONS = {
    EXTERNAL_ID_TAKEN: "the external id is another stored player's: one of the two records is wrong (or they are one"
    " person, to merge: POST /v1/players/{id}/merge)",
    OTHER_ID_OF_SCHEME: "the stored player holds another id of that scheme than the file gives him: one of the two"
    " is wrong (or he has two records there: give the file both)",
    MERGED_PLAYER: "the id is a record merged into another player: give that player's id",
}


class DirectoryRefused(ValueError):
    """The file has lines the import cannot take: nothing is stored; ``report`` says which and why."""

    def __init__(self, report: "DirectoryReport") -> None:
        super().__init__(f"{sum(report.rejected.values())} line(s) refused; nothing stored")
        self.report = report


@dataclass
class DirectoryReport:
    format_name: str
    rows: int = 0
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    external_ids_added: int = 0
    rejected: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)
    explanations: dict[str, str] = field(default_factory=dict)
    skipped: Counter[str] = field(default_factory=Counter)  # lines left aside, not refused (the list of women's)


def import_directory_file(path: Path, *, actor: str = IMPORT_ACTOR) -> DirectoryReport:
    """Read a directory file and store it, all or nothing; raises ``DirectoryRefused`` (nothing stored)
    when a line cannot be taken."""
    directory = directory_format.read(path)
    with session_scope() as session:
        report = import_directory(session, directory, actor=actor)
        if report.rejected:
            session.rollback()
            raise DirectoryRefused(report)
    return report


def import_directory(session: Session, directory: DirectoryFile, *, actor: str) -> DirectoryReport:
    """Create or update the directory's players in the session's transaction. When ``rejected`` of the
    report is not empty the caller must roll back: some of it may be applied."""
    report = DirectoryReport(
        directory.format_name,
        # Every player line the file holds, those refused included: "1 of 2" read "players in the
        # file: 1" when one line of two was refused (issue 47 item 7).
        rows=len(directory.rows) + directory.rejected.total(),
        rejected=Counter(directory.rejected),
        examples={reason: list(examples) for reason, examples in directory.examples.items()},
        explanations={**directory_format.REASONS, **SERVICE_REASONS, **SKIPPED_REASONS},
    )
    if report.rejected:
        return report
    rows = directory.rows if directory.women is None else _rows_of_women(session, directory.women, report)
    report.rows = len(rows)
    ids = [row.player_id for row in rows]
    stored = _players(session, ids)
    held = external_holders(session, [external for row in rows for external in row.external_ids])
    schemes = _schemes_held(session, ids)
    for row in rows:
        where = f"line {row.line_number}: player {row.player_id}"
        player = stored.get(row.player_id)
        if player is not None and player.merged_into is not None:
            _reject(report, MERGED_PLAYER, f"{where} is merged into {player.merged_into}")
        confirmed = {external.split(":", 1)[0] for external in row.external_ids if held.get(external) == row.player_id}
        for external in row.external_ids:
            holder = held.get(external)
            scheme = external.split(":", 1)[0]
            if holder is not None and holder != row.player_id:
                _reject(report, EXTERNAL_ID_TAKEN, f"{where}: {external} is player {holder}'s")
            elif holder is None and scheme in schemes.get(row.player_id, {}) and scheme not in confirmed:
                _reject(report, OTHER_ID_OF_SCHEME, f"{where}: holds {scheme}:{schemes[row.player_id][scheme]}, not {external}")
    if report.rejected:
        return report

    changed: list[str] = []
    for row in rows:
        player = stored.get(row.player_id)
        new_ids = [external for external in row.external_ids if held.get(external) != row.player_id]
        if player is None:
            session.add(Player(id=row.player_id, **row.fields))
            session.flush()
            previous: dict[str, Any] | None = None
            summary = "created from a player directory"
            report.created += 1
        else:
            differing = {name: value for name, value in row.fields.items() if getattr(player, name) != value}
            if not differing and not new_ids:
                report.unchanged += 1
                continue
            previous = player_version(session, player)
            for name, value in differing.items():
                setattr(player, name, value)
            summary = "updated from a player directory: " + ", ".join(
                [*sorted(differing), *(["external ids"] if new_ids else [])]
            )
            report.updated += 1
        add_external_ids(session, [(row.player_id, external) for external in new_ids])
        report.external_ids_added += len(new_ids)
        changed.append(row.player_id)
        revisions.record(
            session,
            subject=revisions.PLAYER,
            subject_id=row.player_id,
            kind=revisions.PLAYER_UPDATED,
            actor=actor,
            summary=summary,
            previous=previous,
        )
    session.flush()
    refresh_search_keys(session, changed)
    return report


def _rows_of_women(session: Session, women: WomenList, report: DirectoryReport) -> list[DirectoryRow]:
    """The stored players the list of women marks, each a row setting her gender (the line that first
    marks her): both players of every women's game of a stored tournament, and the players it names;
    a merged record's mark goes to the player it was merged into. What it names and this service does
    not hold is counted in ``report.skipped``, not refused: the list covers more than one database."""
    marked: dict[str, int] = {}
    tournament_ids = [tournament_id for _, tournament_id, _ in women.tournaments]
    stored_tournaments: set[str] = set()
    for start in range(0, len(tournament_ids), 500):
        stored_tournaments.update(
            session.scalars(select(Tournament.id).where(Tournament.id.in_(tournament_ids[start : start + 500])))
        )
    for line_number, tournament_id, prefixes in women.tournaments:
        if tournament_id not in stored_tournaments:
            _skip(report, TOURNAMENT_NOT_STORED, f"line {line_number}: {tournament_id}")
            continue
        games = session.execute(select(Game.round, Game.black_id, Game.white_id).where(Game.tournament_id == tournament_id))
        for round_name, black, white in games:
            if prefixes is None or (round_name or "").upper().startswith(prefixes):
                marked.setdefault(black, line_number)
                marked.setdefault(white, line_number)
    named = _players(session, [player_id for _, player_id in women.players])
    for line_number, player_id in women.players:
        if player_id in named:
            marked.setdefault(player_id, line_number)
        else:
            _skip(report, PLAYER_NOT_STORED, f"line {line_number}: {player_id}")
    players = _players(session, list(marked))
    rows: dict[str, DirectoryRow] = {}
    for player_id, line_number in sorted(marked.items(), key=lambda item: (item[1], item[0])):
        survivor = players[player_id]
        while survivor.merged_into is not None:
            survivor = players.get(survivor.merged_into) or session.get_one(Player, survivor.merged_into)
        rows.setdefault(survivor.id, DirectoryRow(line_number, survivor.id, {"gender": "F"}, ()))
    return list(rows.values())


def _skip(report: DirectoryReport, reason: str, example: str) -> None:
    _count(report, report.skipped, reason, example)


def _players(session: Session, ids: list[str]) -> dict[str, Player]:
    found: dict[str, Player] = {}
    for start in range(0, len(ids), 500):
        for player in session.scalars(select(Player).where(Player.id.in_(ids[start : start + 500]))):
            found[player.id] = player
    return found


def _schemes_held(session: Session, ids: list[str]) -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = {}
    for start in range(0, len(ids), 500):
        for player_id, scheme, value in session.execute(
            select(PlayerExternalId.player_id, PlayerExternalId.scheme, PlayerExternalId.value).where(
                PlayerExternalId.player_id.in_(ids[start : start + 500])
            )
        ):
            found.setdefault(player_id, {})[scheme] = value
    return found


def _reject(report: DirectoryReport, reason: str, example: str) -> None:
    _count(report, report.rejected, reason, example)


def _count(report: DirectoryReport, counts: Counter[str], reason: str, example: str) -> None:
    """One more line of ``reason`` (left aside or refused), its first three kept as examples."""
    counts[reason] += 1
    examples = report.examples.setdefault(reason, [])
    if len(examples) < 3:
        examples.append(example)
