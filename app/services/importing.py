"""Importing other programs' result files through the same submission service the API uses."""

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db import session_scope
from app.importers import egd_h9, opengotha, renju_tsv
from app.models import Game, Player, Tournament
from app.problems import InvalidInput, PayloadTooLarge
from app.schemas.tournaments import TournamentIn
from app.services.tournaments import replace_tournament, stores_same, submit_tournament
from app.settings import get_settings


@dataclass
class ImportReport:
    tournaments_stored: int = 0
    tournaments_unchanged: int = 0
    players_stored: int = 0
    games_stored: int = 0
    rejected: Counter[str] = field(default_factory=Counter)


def import_results_file(path: Path, on_tournament: Callable[[int], None] | None = None) -> ImportReport:
    """Import a renju.net export, an EGD h9 table or an OpenGotha file. Safe to run twice: a tournament already stored with the same
    content is left alone, one stored with other content is corrected (its games replaced)."""
    submissions, rejected_rows = _read(path)
    report = ImportReport(rejected=Counter(row.reason for row in rejected_rows))
    max_games = get_settings().max_games_per_tournament
    with session_scope() as session:
        players_before = _count(session, Player)
        games_before = _count(session, Game)
    for raw in submissions:
        try:
            submission = TournamentIn.model_validate(raw)
            with session_scope() as session:
                stored = session.get(Tournament, submission.id)
                if stored is None:
                    submit_tournament(session, submission, max_games=max_games)
                    report.tournaments_stored += 1
                elif stores_same(session, submission):
                    report.tournaments_unchanged += 1
                else:
                    replace_tournament(session, submission.id, submission, max_games=max_games)
                    report.tournaments_stored += 1
        except (InvalidInput, PayloadTooLarge) as problem:
            reasons = {e.detail.split(":")[0] for e in problem.errors} or {problem.detail}
            for reason in reasons:
                report.rejected[f"tournament {raw['id']} rejected: {reason}"] += len(raw["games"])
        except ValueError as error:
            report.rejected[f"tournament {raw['id']} rejected: {error}"] += len(raw["games"])
        if on_tournament:
            on_tournament(len(submissions))
    with session_scope() as session:
        report.players_stored = _count(session, Player) - players_before
        report.games_stored = _count(session, Game) - games_before
    return report


def _read(path: Path) -> tuple[list[dict], list[renju_tsv.RejectedRow]]:
    """The file's submissions and rejected rows, by its content: OpenGotha XML, EGD h9, else renju.net TSV.
    (Minimal hook: the xml branch replaces it with the CLI's content-based detection.)"""
    with open(path, "rb") as file:
        head = file.read(4096)
    if opengotha.looks_like(head):
        return opengotha.read_path(path)
    if egd_h9.looks_like(head):
        return egd_h9.read_path(path)
    return renju_tsv.to_submissions(renju_tsv.parse_path(path))


def _count(session: Session, model: type) -> int:
    return session.scalar(select(func.count()).select_from(model)) or 0
