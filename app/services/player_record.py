"""A player's record as the website shows it: his line and place on a list's snapshot, the changes
every list's current snapshot made at each of his tournaments, and his games with their opponents.
Reads only; the list rows and chart series themselves come from ``app.services.rating_lists``."""

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import Executable, bindparam, func, select, union_all
from sqlalchemy.orm import Session, aliased

from app.models import Game, Player, RatingEntry, Tournament, TournamentPlayer
from app.names import full_name
from app.rating.system import Change
from app.snapshots import snapshot_changes


@dataclass(frozen=True)
class ListStanding:
    """His entry on a snapshot and his place among the players of the same status, counted as the
    list page orders them (rating, then player id), so that the place links to the right page."""

    entry: RatingEntry
    place: int
    of: int


@dataclass(frozen=True)
class TournamentChange:
    list_id: str
    tournament_id: str
    tournament_name: str
    start: dt.date
    end: dt.date
    change: Change


@dataclass(frozen=True)
class PlayedGame:
    """One game from the player's side: ``outcome`` is "won", "lost" or "drawn"."""

    date: dt.date
    tournament_id: str
    tournament_name: str
    round: str | None
    colour: str  # "black" or "white"
    opponent_id: str
    opponent_name: str | None
    outcome: str
    played: bool
    handicap: int | None


def standing(session: Session, snapshot_id: int, player_id: str) -> ListStanding | None:
    entry = session.get(RatingEntry, (snapshot_id, player_id))
    if entry is None:
        return None
    # His place within his status was stored with the snapshot (app.snapshots.entry_positions).
    total = (
        session.scalar(
            select(func.max(RatingEntry.status_position)).where(
                RatingEntry.snapshot_id == snapshot_id, RatingEntry.status == entry.status
            )
        )
        or 0
    )
    return ListStanding(entry, entry.status_position or 0, total)


@dataclass(frozen=True)
class Declared:
    """What his tournaments' files declared of him besides his rank (a Go file's club, an OpenGotha
    file's EGF PIN): each the latest declared, by the tournament's end."""

    club: str | None = None
    egf_pin: str | None = None


def declared(session: Session, player_id: str) -> Declared:
    latest: dict[str, str] = {}
    for club, egf_pin in session.execute(
        select(TournamentPlayer.club, TournamentPlayer.egf_pin)
        .join(Tournament, Tournament.id == TournamentPlayer.tournament_id)
        .where(
            TournamentPlayer.player_id == player_id,
            (TournamentPlayer.club.is_not(None)) | (TournamentPlayer.egf_pin.is_not(None)),
        )
        .order_by(Tournament.end.desc(), Tournament.id.desc())
    ):
        if club and "club" not in latest:
            latest["club"] = club
        if egf_pin and "egf_pin" not in latest:
            latest["egf_pin"] = egf_pin
    return Declared(latest.get("club"), latest.get("egf_pin"))


def tournament_changes(session: Session, player_id: str) -> list[TournamentChange]:
    """Every list's changes for the player under its current snapshot, by list, oldest tournament first."""
    found = [
        (list_id, change)
        for list_id, _, changes in snapshot_changes.current_changes(session)
        for change in changes.of_player(player_id)
    ]
    ids = {change.tournament_id for _, change in found}
    tournaments = (
        {
            t.id: t
            for t in session.execute(
                select(Tournament.id, Tournament.name, Tournament.start, Tournament.end).where(Tournament.id.in_(ids))
            )
        }
        if ids
        else {}
    )
    listed = [
        TournamentChange(list_id, t.id, t.name, t.start, t.end, change)
        for list_id, change in found
        if (t := tournaments.get(change.tournament_id)) is not None  # deleted since the snapshot: not shown, as before
    ]
    listed.sort(key=lambda c: (c.list_id, c.end, c.start, c.tournament_id))
    return listed


def game_count(session: Session, player_id: str) -> int:
    """How many games he has stored (each game once, whichever colour he had)."""
    as_black = select(func.count()).select_from(Game).where(Game.black_id == player_id).scalar_subquery()
    as_white = select(func.count()).select_from(Game).where(Game.white_id == player_id).scalar_subquery()
    return int(session.scalar(select(as_black + as_white)) or 0)


def games(session: Session, player_id: str, *, limit: int, offset: int = 0) -> list[PlayedGame]:
    """His games, newest first (by date, then tournament and the submission's order): ``limit`` of
    them from ``offset`` on."""
    rows = session.execute(_GAMES_PAGE, {"player_id": player_id, "page_end": offset + limit, "limit": limit, "offset": offset})
    out = []
    for row in rows:
        black = row.black_id == player_id
        if row.result == "D":
            outcome = "drawn"
        else:
            outcome = "won" if (row.result == "B") == black else "lost"
        out.append(
            PlayedGame(
                row.date,
                row.tournament_id,
                row.tournament_name,
                row.round,
                "black" if black else "white",
                row.white_id if black else row.black_id,
                full_name(row.white_name, row.white_surname) if black else full_name(row.black_name, row.black_surname),
                outcome,
                row.played,
                row.handicap,
            )
        )
    return out


def _games_page() -> Executable:
    """The statement ``games`` runs, built once: building its subqueries took longer than running
    them. Each colour's games come in the page's order from its index (player, date, tournament,
    seq), so each side reads no further than the page's end, and only the page's rows are fetched
    (decision 94); a game is on one side only, as nobody plays himself (submissions and merges
    refuse it). Parameters: player_id, page_end (offset + limit), limit, offset."""
    player_id = bindparam("player_id", type_=Game.black_id.type)
    newest_first = (Game.date.desc(), Game.tournament_id.desc(), Game.seq.desc())
    sides = [
        select(Game.pk, Game.date, Game.tournament_id, Game.seq)
        .where(colour == player_id)
        .order_by(*newest_first)
        .limit(bindparam("page_end"))
        .subquery()
        for colour in (Game.black_id, Game.white_id)
    ]
    both = union_all(*(select(side) for side in sides)).subquery()
    page = (
        select(both.c.pk)
        .order_by(both.c.date.desc(), both.c.tournament_id.desc(), both.c.seq.desc())
        .limit(bindparam("limit"))
        .offset(bindparam("offset"))
    )
    black, white = aliased(Player), aliased(Player)
    return (
        select(
            Game.date,
            Game.tournament_id,
            Tournament.name.label("tournament_name"),
            Game.round,
            Game.black_id,
            Game.white_id,
            Game.result,
            Game.played,
            Game.handicap,
            black.name.label("black_name"),
            black.surname.label("black_surname"),
            white.name.label("white_name"),
            white.surname.label("white_surname"),
        )
        .join(Tournament, Tournament.id == Game.tournament_id)
        .join(black, black.id == Game.black_id)
        .join(white, white.id == Game.white_id)
        .where(Game.pk.in_(page.scalar_subquery()))
        .order_by(*newest_first)
    )


_GAMES_PAGE = _games_page()
