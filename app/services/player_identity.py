"""Which stored player a submission's player is: by an id in another system first (his
``external_ids``, his EGF PIN as ``egd:PIN``), so that files naming a person by another id or
spelling reach one record; a record merged into another is its player. The Go importers then match
by name, and report an ambiguous name instead of guessing (issue 24 item 1; docs/decisions.md 7.54)."""

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, or_, select
from sqlalchemy.orm import Session

from app.models import Game, Player, PlayerExternalId, PlayerSearchTerm, Tournament
from app.names import MAX_TERM, WHOLE_NAME, folded
from app.problems import Conflict, FieldError
from app.schemas.tournaments import TournamentIn, TournamentPlayerIn
from app.services.players import add_external_ids, external_holders

EGD = "egd"  # the European Go Database's scheme: EGF PINs


def resolve_players(session: Session, submission: TournamentIn) -> TournamentIn:
    """The submission with each player named by the stored player he is: the holder of one of his
    external ids (when his own id is no stored player's), or the player a merged record went to.
    A player whose external id another stored player holds is a 409 with its pointer."""
    held = external_holders(session, [external for player in submission.players for _, external in _externals(player)])
    renames: dict[str, str] = {}
    errors: list[FieldError] = []
    stored = _stored(session, {player.id for player in submission.players}) if held else set()
    for index, player in enumerate(submission.players):
        holders = {held[external]: pointer for pointer, external in _externals(player) if external in held}
        holders.pop(player.id, None)
        if not holders:
            continue
        if player.id in stored or len(holders) > 1:
            for holder, pointer in holders.items():
                errors.append(FieldError(f"/players/{index}/{pointer}", f"this id is player {holder!r}'s, not {player.id!r}'s"))
            continue
        renames[player.id] = next(iter(holders))
    if errors:
        raise Conflict(f"{len(errors)} external id(s) name another player; nothing was stored.", errors)
    named = (
        {player.id for player in submission.players} | {g.black for g in submission.games} | {g.white for g in submission.games}
    )
    for merged, target in merged_among(session, named):
        renames.setdefault(merged, target)
    return _renamed(submission, renames) if renames else submission


def merged_among(session: Session, player_ids: set[str]) -> list[tuple[str, str]]:
    """(record, the player it was merged into) for each of these ids that names a merged record.

    Merged records are few (an officer merges a duplicate now and then), so they are read whole from
    their partial index when there are no more of them than ids asked: one statement compiled once,
    reading a handful of index entries, where looking each id up read each player's row (an import asks
    this of every tournament). A federation with more merged records than the submission has players
    is asked by id, as before (docs/decisions.md 7.85)."""
    if not player_ids:
        return []
    # On the session's connection, past the ORM's execution (60 of the 100 microseconds each of an
    # import's tournaments spent here): no merge is ever pending in a session that asks this, since
    # merges are requests of their own, so there is nothing to flush first.
    connection = session.connection()
    merged = connection.execute(_MERGED, {"most": len(player_ids) + 1}).all()
    if len(merged) > len(player_ids):
        merged = connection.execute(_MERGED_AMONG, {"ids": sorted(player_ids)}).all()
    return [(record, into) for record, into in merged if record in player_ids and into is not None]


# Built once (each submission asks them, an import thousands of times).
_MERGED = select(Player.id, Player.merged_into).where(Player.merged_into.is_not(None)).limit(bindparam("most"))
_MERGED_AMONG = select(Player.id, Player.merged_into).where(
    Player.id.in_(bindparam("ids", expanding=True)), Player.merged_into.is_not(None)
)


def gives_external_ids(submission: TournamentIn) -> bool:
    """Whether the submission gives a player an id in another system (or an EGF PIN)."""
    return any(True for player in submission.players for _ in _externals(player))


def attach_external_ids(session: Session, submission: TournamentIn) -> None:
    """Store the external ids (and EGF PINs) the submission gives its players, when no one holds them
    and the player has no id of that scheme yet."""
    wanted = [(player.id, external) for player in submission.players for _, external in _externals(player)]
    if not wanted:
        return
    schemes_held = {
        (player_id, scheme)
        for player_id, scheme in session.execute(
            select(PlayerExternalId.player_id, PlayerExternalId.scheme).where(
                PlayerExternalId.player_id.in_(sorted({player_id for player_id, _ in wanted}))
            )
        )
    }
    add_external_ids(
        session,
        [(player_id, external) for player_id, external in wanted if (player_id, external.split(":")[0]) not in schemes_held],
    )


@dataclass
class NameMatches:
    """What matching a Go file's players by EGF PIN and name found: the file's ids replaced by stored
    players' ids, and the names that match several stored players (reported, never guessed)."""

    renames: dict[str, str] = field(default_factory=dict)
    ambiguous: list[str] = field(default_factory=list)
    # Whether an ambiguous player has no PIN either: nothing tells who he is.
    unresolved: bool = False


def match_go_players(session: Session, raw: dict[str, Any]) -> NameMatches:
    """Match a Go file's players (ids made from names, ``egf_pin`` when the file has it) to stored
    players: the holder of his ``egd:PIN`` first; else the one stored player of the same name (with no
    other PIN); a new record when none. A name that several stored players have is ambiguous: with a
    PIN he becomes a new record ``<id>-<PIN>``; without one, nothing tells who he is and the caller
    refuses the tournament. ``raw`` (the submission body) is changed in place."""
    matches = NameMatches()
    players = raw.get("players") or []
    pins = {player["id"]: player.get("egf_pin") for player in players}
    held = external_holders(session, [f"{EGD}:{pin}" for pin in pins.values() if pin])
    for player in players:
        pin = pins[player["id"]]
        if pin and f"{EGD}:{pin}" in held:
            matches.renames[player["id"]] = held[f"{EGD}:{pin}"]
            continue
        candidates = _same_name(session, player.get("name"), player.get("surname"), without_other_pin=bool(pin))
        if len(candidates) == 1:
            matches.renames[player["id"]] = candidates[0]
        elif len(candidates) > 1:
            names = " ".join(part for part in (player.get("name"), player.get("surname")) if part)
            matches.ambiguous.append(f"{names} (players {', '.join(candidates)})")
            if pin:
                matches.renames[player["id"]] = f"{player['id'][: 63 - len(pin)]}-{pin}"
            else:
                matches.unresolved = True
        elif pin and session.get(Player, player["id"]) is not None:
            # His id is another person's (same name, another PIN): a record of his own.
            matches.renames[player["id"]] = f"{player['id'][: 63 - len(pin)]}-{pin}"
    if not matches.unresolved:
        _rename_raw(raw, {old: new for old, new in matches.renames.items() if old != new})
    return matches


def _same_name(session: Session, name: str | None, surname: str | None, *, without_other_pin: bool) -> list[str]:
    whole = folded(f"{name or ''} {surname or ''}")
    if not whole:
        return []
    named = select(PlayerSearchTerm.player_id).where(
        PlayerSearchTerm.term == whole[:MAX_TERM], PlayerSearchTerm.kind == WHOLE_NAME
    )
    # Only Go players: one who played Go, or holds an EGF PIN. A renju or shogi player of the same
    # name is another record (an officer merges them if they are one person).
    played_go = or_(
        *(
            select(Game.pk)
            .join(Tournament, Tournament.id == Game.tournament_id)
            .where(side == Player.id, Tournament.category == "go")
            .exists()
            for side in (Game.black_id, Game.white_id)
        ),
        select(PlayerExternalId.player_id)
        .where(PlayerExternalId.player_id == Player.id, PlayerExternalId.scheme == EGD)
        .exists(),
    )
    query = select(Player.id).where(Player.id.in_(named), Player.merged_into.is_(None), played_go)
    if without_other_pin:
        with_pin = select(PlayerExternalId.player_id).where(PlayerExternalId.scheme == EGD)
        query = query.where(Player.id.not_in(with_pin))
    return list(session.scalars(query.order_by(Player.id).limit(10)))


def _externals(player: TournamentPlayerIn) -> Iterator[tuple[str, str]]:
    """(pointer within the player, ``scheme:value``) of every id he is given in another system."""
    for index, external in enumerate(player.external_ids or []):
        yield f"external_ids/{index}", external
    if player.egf_pin:
        yield "egf_pin", f"{EGD}:{player.egf_pin}"


def _stored(session: Session, player_ids: set[str]) -> set[str]:
    found: set[str] = set()
    ordered = sorted(player_ids)
    for start in range(0, len(ordered), 500):
        found.update(session.scalars(select(Player.id).where(Player.id.in_(ordered[start : start + 500]))))
    return found


def _renamed(submission: TournamentIn, renames: dict[str, str]) -> TournamentIn:
    body = submission.model_dump(exclude_unset=True)
    body["players"] = [player.model_dump(exclude_unset=True) for player in submission.players]
    _rename_raw(body, renames)
    return TournamentIn.model_validate(body)


def _rename_raw(body: dict[str, Any], renames: dict[str, str]) -> None:
    if not renames:
        return
    seen: set[str] = set()
    players = []
    for player in body.get("players") or []:
        player["id"] = renames.get(player["id"], player["id"])
        if player["id"] not in seen:  # two records of one person in one file: given once
            seen.add(player["id"])
            players.append(player)
    body["players"] = players
    for game in body.get("games") or []:
        game["black"] = renames.get(game["black"], game["black"])
        game["white"] = renames.get(game["white"], game["white"])
