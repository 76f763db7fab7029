"""Merging two records of one person, and undoing it (issue 24 item 2; docs/decisions.md 7.58).

A merge moves every game, declaration at a tournament, seed and external id of one record to the
other, marks the record ``merged_into`` the other (its id then answers with where it went, and
submissions naming it reach the other), and queues a recompute of every list that rates what moved.
The revision of the merged record keeps exactly what moved, so that an unmerge moves it back and
both records are as they were."""

from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.orm import Session

from app.db import locked_row
from app.models import Game, Player, PlayerExternalId, RatingSeed, Revision, TournamentPlayer
from app.problems import Conflict, FieldError, InvalidInput, NotFound
from app.recompute.jobs import trigger_recompute
from app.services import revisions
from app.services.players import get_player, player_version, refresh_search_keys
from app.services.reviews import lists_rating
from app.snapshots import played_games


def merge_player(session: Session, player_id: str, into: str, *, actor: str) -> tuple[Player, list[str]]:
    """Merge ``player_id`` into ``into``; the merged record and the lists queued for a recompute."""
    if into == player_id:
        get_player(session, player_id)  # an unknown player is a 404 first
        raise InvalidInput("A player cannot be merged into himself.", [FieldError("/into", "the player's own id")])
    source, target = _locked_pair(session, player_id, into)
    if source.merged_into is not None:
        raise Conflict(
            f"Player {player_id!r} is merged into {source.merged_into!r} already.",
            [FieldError("/into", f"{player_id!r} is merged into {source.merged_into!r}; unmerge him first")],
        )
    if target.merged_into is not None:
        raise Conflict(
            f"Player {into!r} is merged into {target.merged_into!r}.",
            [FieldError("/into", f"{into!r} is merged into {target.merged_into!r}: merge into that player")],
        )
    _refuse_overlaps(session, source.id, target.id)

    moved = _what_moves(session, player_id)
    before_source, before_target = player_version(session, source), player_version(session, target)
    session.execute(update(Game).where(Game.black_id == player_id).values(black_id=into))
    session.execute(update(Game).where(Game.white_id == player_id).values(white_id=into))
    played_games.rewrite(session, {tournament_id for tournament_id, _, _ in moved["games"]})
    session.execute(update(TournamentPlayer).where(TournamentPlayer.player_id == player_id).values(player_id=into))
    session.execute(update(RatingSeed).where(RatingSeed.player_id == player_id).values(player_id=into))
    session.execute(update(PlayerExternalId).where(PlayerExternalId.player_id == player_id).values(player_id=into))
    source.merged_into = into
    session.flush()
    refresh_search_keys(session, [player_id])
    queued = _queue_recomputes(session, moved)
    counts = f"{len(moved['games'])} games, {len(moved['declarations'])} declarations, {len(moved['seeds'])} seeds"
    counts += f", {len(moved['external_ids'])} external ids"
    revisions.record(
        session,
        subject=revisions.PLAYER,
        subject_id=player_id,
        kind=revisions.MERGED,
        actor=actor,
        summary=f"merged into {into}: {counts} moved",
        previous={**before_source, "moved": moved},
    )
    revisions.record(
        session,
        subject=revisions.PLAYER,
        subject_id=into,
        kind=revisions.MERGED,
        actor=actor,
        summary=f"received {player_id} ({counts})",
        previous=before_target,
    )
    return source, queued


def unmerge_player(session: Session, player_id: str, *, actor: str) -> tuple[Player, list[str]]:
    """Undo the merge of ``player_id``: what moved with it moves back, from the merge's revision."""
    source = get_player(session, player_id)
    if source.merged_into is None:
        raise Conflict(f"Player {player_id!r} is not merged.", [FieldError("/", f"{player_id!r} is merged into nobody")])
    into = source.merged_into
    source, _ = _locked_pair(session, player_id, into)
    merge = session.scalar(
        select(Revision)
        .where(Revision.subject == revisions.PLAYER, Revision.subject_id == player_id, Revision.kind == revisions.MERGED)
        .order_by(Revision.number.desc())
        .limit(1)
    )
    if merge is None or merge.previous is None or "moved" not in merge.previous:
        raise Conflict(f"The merge of {player_id!r} has no record to undo it from.", [FieldError("/", "no merge revision")])
    moved: dict[str, Any] = merge.previous["moved"]
    before_source, before_target = player_version(session, source), player_version(session, get_player(session, into))
    for tournament_id, seq, side in moved["games"]:
        column = Game.black_id if side == "black" else Game.white_id
        session.execute(
            update(Game)
            .where(Game.tournament_id == tournament_id, Game.seq == seq, column == into)
            .values({column.key: player_id})
        )
    played_games.rewrite(session, {tournament_id for tournament_id, _, _ in moved["games"]})
    for row in moved["declarations"]:
        session.execute(
            update(TournamentPlayer)
            .where(TournamentPlayer.tournament_id == row["tournament_id"], TournamentPlayer.player_id == into)
            .values(player_id=player_id)
        )
    for row in moved["seeds"]:
        session.execute(
            update(RatingSeed)
            .where(RatingSeed.list_id == row["list_id"], RatingSeed.player_id == into)
            .values(player_id=player_id)
        )
    for external in moved["external_ids"]:
        scheme, _, value = external.partition(":")
        session.execute(
            update(PlayerExternalId)
            .where(PlayerExternalId.scheme == scheme, PlayerExternalId.value == value, PlayerExternalId.player_id == into)
            .values(player_id=player_id)
        )
    source.merged_into = None
    session.flush()
    refresh_search_keys(session, [player_id])
    queued = _queue_recomputes(session, moved)
    for subject_id, before, summary in (
        (player_id, before_source, f"unmerged from {into}: what moved with the merge moved back"),
        (into, before_target, f"{player_id} unmerged from him"),
    ):
        revisions.record(
            session,
            subject=revisions.PLAYER,
            subject_id=subject_id,
            kind=revisions.UNMERGED,
            actor=actor,
            summary=summary,
            previous=before,
        )
    return source, queued


def _locked_pair(session: Session, player_id: str, into: str) -> tuple[Player, Player]:
    """Both players, locked in id order (two merges of the same pair never deadlock)."""
    found: dict[str, Player | None] = {key: locked_row(session, Player, key) for key in sorted((player_id, into))}
    source, target = found[player_id], found[into]
    if source is None:
        raise NotFound(f"Player {player_id!r} does not exist.")
    if target is None:
        raise InvalidInput(f"Player {into!r} does not exist.", [FieldError("/into", f"no player {into!r}")])
    return source, target


def _refuse_overlaps(session: Session, player_id: str, into: str) -> None:
    """What cannot be one person's: a game between the two, both declared at one tournament, both
    seeded on one list, ids of one scheme in each."""
    errors: list[FieldError] = []
    pair = (player_id, into)
    between = session.scalars(
        select(Game.tournament_id).where(Game.black_id.in_(pair), Game.white_id.in_(pair)).distinct().limit(5)
    ).all()
    if between:
        errors.append(FieldError("/into", f"the two played each other (tournaments {', '.join(between)}): two people"))
    shared = session.scalars(
        select(TournamentPlayer.tournament_id)
        .where(TournamentPlayer.player_id.in_(pair))
        .group_by(TournamentPlayer.tournament_id)
        .having(func.count() > 1)
        .limit(5)
    ).all()
    if shared:
        errors.append(FieldError("/into", f"both are declared at tournaments {', '.join(shared)}: correct those first"))
    seeded = session.scalars(
        select(RatingSeed.list_id).where(RatingSeed.player_id.in_(pair)).group_by(RatingSeed.list_id).having(func.count() > 1)
    ).all()
    if seeded:
        errors.append(FieldError("/into", f"both have a seed on lists {', '.join(seeded)}: remove one first"))
    schemes = session.scalars(
        select(PlayerExternalId.scheme)
        .where(PlayerExternalId.player_id.in_(pair))
        .group_by(PlayerExternalId.scheme)
        .having(func.count() > 1)
    ).all()
    if schemes:
        errors.append(FieldError("/into", f"each holds an id of {', '.join(schemes)}: two people, or remove one id first"))
    merged_in = session.scalars(select(Player.id).where(Player.merged_into == player_id).limit(5)).all()
    if merged_in:
        errors.append(FieldError("/into", f"{', '.join(merged_in)} are merged into {player_id!r}: unmerge them first"))
    if errors:
        raise Conflict(f"Player {player_id!r} cannot be merged into {into!r}; nothing was changed.", errors)


def _what_moves(session: Session, player_id: str) -> dict[str, Any]:
    games = [
        [tournament_id, seq, "black" if black == player_id else "white"]
        for tournament_id, seq, black in session.execute(
            select(Game.tournament_id, Game.seq, Game.black_id)
            .where(or_(Game.black_id == player_id, Game.white_id == player_id))
            .order_by(Game.tournament_id, Game.seq)
        )
    ]
    declarations = [
        {"tournament_id": row.tournament_id}
        for row in session.scalars(select(TournamentPlayer).where(TournamentPlayer.player_id == player_id))
    ]
    seeds = [{"list_id": row.list_id} for row in session.scalars(select(RatingSeed).where(RatingSeed.player_id == player_id))]
    external_ids = [
        f"{scheme}:{value}"
        for scheme, value in session.execute(
            select(PlayerExternalId.scheme, PlayerExternalId.value).where(PlayerExternalId.player_id == player_id)
        )
    ]
    return {"games": games, "declarations": declarations, "seeds": seeds, "external_ids": sorted(external_ids)}


def _queue_recomputes(session: Session, moved: dict[str, Any]) -> list[str]:
    """A recompute of every list that rates a tournament of the moved games, or holds a moved seed."""
    lists: set[str] = {row["list_id"] for row in moved["seeds"]}
    for tournament_id in sorted({tournament_id for tournament_id, _, _ in moved["games"]}):
        lists |= lists_rating(session, tournament_id)
    for list_id in sorted(lists):
        trigger_recompute(session, list_id)
    return sorted(lists)


__all__ = ["merge_player", "unmerge_player"]
