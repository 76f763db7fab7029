"""Which stored player a submission's player is: by an id in another system first (his
``external_ids``, his EGF PIN as ``egd:PIN``), so that files naming a person by another id or
spelling reach one record; a record merged into another is its player. The Go importers then match
by name, and report an ambiguous name instead of guessing (issue 24 item 1; docs/decisions.md 7.54).

Only an officer changes who a stored player is: what a submission says of him otherwise is found
here (``PlayerFindings``) and queued for an officer by ``app.services.player_reviews``
(docs/decisions.md 108)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, func, or_, select
from sqlalchemy.orm import Session

from app.db import fetch_all, hold_rows, in_lists
from app.models import Game, Player, PlayerExternalId, PlayerName, PlayerSearchTerm, Tournament
from app.names import MAX_TERM, WHOLE_NAME, folded
from app.problems import Conflict, FieldError
from app.schemas.players import PlayerCreate
from app.schemas.tournaments import TournamentIn, TournamentPlayerIn
from app.services.players import add_external_ids, external_holders

EGD = "egd"  # the European Go Database's scheme: EGF PINs


def resolve_players(
    session: Session,
    submission: TournamentIn,
    *,
    hold: bool = False,
    pending: Sequence[TournamentIn] = (),
    find_duplicates: bool = True,
    known: KnownPlayers | None = None,
) -> ResolvedSubmission:
    """The submission with each player named by the stored player he is (the holder of one of his
    external ids, when his own id is no stored player's; the player a merged record went to), and
    what it says of the stored players it names (``PlayerFindings``).

    A player whose external id another stored player holds is a 409 with its pointer, and so is one
    whose name contradicts the stored player of his id (``contradicting_names``): the club whose
    software numbers its players 1…N never lands on another federation's players 1…N by accident.

    ``hold``: the named players are held against a merge until the transaction ends (a submission
    that stores; ``app.db.hold_rows``), so that no game is ever stored under a record merged in the
    meantime: a merge either waits for the submission, or the submission reads it and names the
    surviving player (docs/decisions.md 108). ``pending``: new tournaments of the same batch checked
    before it, whose players count as new, not stored. ``find_duplicates`` False: the new players'
    namesakes are not looked up (an import looks them all up at its end: ``namesakes_of_created``).
    ``known``: the stored players' identity fields an import's batch read at once (``KnownPlayers``)."""
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
                errors.append(
                    FieldError(f"/players/{index}/{pointer}", f"this id is that of player {holder!r}, not of {player.id!r}")
                )
            continue
        renames[player.id] = next(iter(holders))
    if errors:
        raise Conflict(f"{len(errors)} external id(s) name another player; nothing was stored.", errors)
    named = (
        {player.id for player in submission.players} | {g.black for g in submission.games} | {g.white for g in submission.games}
    )
    if hold:
        hold_rows(session, Player, sorted({renames.get(player_id, player_id) for player_id in named}))
    merged_records: dict[str, list[str]] = {}
    for merged, target in merged_among(session, named):
        if renames.setdefault(merged, target) == target:
            merged_records.setdefault(target, []).append(merged)
    if renames:
        submission = _renamed(submission, renames)
    return ResolvedSubmission(submission, _findings(session, submission, pending, merged_records, find_duplicates, known))


@dataclass(frozen=True)
class DetailsDiffer:
    """A stored player whom the submission gives other details than his stored ones: each field's
    stored and given value (``external_ids``: the ids given that he does not hold)."""

    player_id: str
    pointer: str
    stored: dict[str, Any]
    given: dict[str, Any]


@dataclass(frozen=True)
class PossibleDuplicate:
    """A new player whose folded name is a stored player's, who differs from him in nothing both
    records have (country, native name, gender, year of birth)."""

    player_id: str
    pointer: str
    candidates: tuple[str, ...]


@dataclass(frozen=True)
class PlayerFindings:
    """What a checked submission says of its players: which are new (to be created with what it
    gives), which stored ones it gives other details (never written: an officer's to accept), and
    which new ones may be stored players under another id."""

    new: frozenset[str] = frozenset()
    differing: tuple[DetailsDiffer, ...] = ()
    possible_duplicates: tuple[PossibleDuplicate, ...] = ()


@dataclass(frozen=True)
class ResolvedSubmission:
    submission: TournamentIn
    players: PlayerFindings


# Who a player is (docs/decisions.md 108): only an officer changes these of a stored player.
IDENTITY_FIELDS = ("name", "surname", "native_name", "country", "city", "gender", "birth_year")
# Most candidates a possible duplicate names (a common name has many namesakes: the officer searches).
MAX_CANDIDATES = 10


def contradicting_names(given: TournamentPlayerIn, spellings: Sequence[Spelling]) -> bool:
    """Whether the name the submission gives a stored player's id is another person's: neither his
    Latin name (in either order, one part of the other: a surname alone, or a record of a first
    name only given a surname) nor his native name is one of his spellings, current or earlier,
    while one of them, given, differs from every spelling of the same script. A name the record
    lacks is no evidence either way (it is a detail to add)."""
    latin = _latin_words(given.name, given.surname)
    native = folded(given.native_name or "")
    stored_latin = [words for words in (_latin_words(s[0], s[1]) for s in spellings) if words]
    stored_native = {folded(s[2]) for s in spellings if s[2]}
    latin_known, native_known = bool(latin and stored_latin), bool(native and stored_native)
    # One is part of the other: a surname alone, or a record of a first name only given a surname.
    latin_agrees = latin_known and any(not latin - words or not words - latin for words in stored_latin)
    native_agrees = native_known and native in stored_native
    against = (latin_known and not latin_agrees) or (native_known and not native_agrees)
    return against and not (latin_agrees or native_agrees)


Spelling = tuple[str | None, str | None, str | None]


def _latin_words(name: str | None, surname: str | None) -> Counter[str]:
    return Counter(folded(f"{name or ''} {surname or ''}").split())


def _findings(
    session: Session,
    submission: TournamentIn,
    pending: Sequence[TournamentIn],
    merged_records: dict[str, list[str]],
    find_duplicates: bool,
    known: KnownPlayers | None,
) -> PlayerFindings:
    """Compare each player the submission gives with the stored player of his id (a 409 when the
    names contradict), and look up the new ones' namesakes. ``merged_records``: the records merged
    into a player that the submission named him by, whose spellings are his too."""
    given = {player.id: (index, player) for index, player in enumerate(submission.players)}
    if not given:
        return PlayerFindings()
    stored_ids, stored = _identities(session, sorted(given), given, known)
    if merged_records:
        _, aliases = _identities(session, sorted({record for records in merged_records.values() for record in records}))
        for player_id, records in merged_records.items():
            if player_id in stored:
                stored[player_id].spellings.extend(
                    s for record in records if record in aliases for s in aliases[record].spellings
                )
    errors: list[FieldError] = []
    differing: list[DetailsDiffer] = []
    for player_id, identity in stored.items():
        index, player = given[player_id]
        # An id of his in another system (a Go file's EGF PIN) names him whatever the spelling.
        named_by_external_id = any(external in identity.external_ids for _, external in _externals(player))
        if not named_by_external_id and contradicting_names(player, identity.spellings):
            errors.append(_contradiction(index, player, identity))
            continue
        difference = _differences(player, identity)
        if difference is not None:
            differing.append(DetailsDiffer(player_id, f"/players/{index}", *difference))
    if errors:
        raise IdentityConflict(
            f"{len(errors)} player(s) of the submission are given the id of a stored player whose name is another; "
            "nothing was stored. A player of your own numbering who is not that person needs an id of his own "
            "(e.g. prefixed with your club's or federation's name: 'tallinn-12'); if he is that person, give his "
            "name as stored, or none, and an officer renames him (POST /v1/players/{player_id}/rename).",
            errors,
        )
    new = frozenset(given) - stored_ids
    if not find_duplicates:
        return PlayerFindings(new, tuple(differing), ())
    in_batch = {player.id for earlier in pending for player in earlier.players}
    namesakes = _namesakes(session, [given[player_id][1] for player_id in sorted(new - in_batch)], submission)
    duplicates = tuple(
        PossibleDuplicate(player_id, f"/players/{given[player_id][0]}", candidates) for player_id, candidates in namesakes.items()
    )
    return PlayerFindings(new, tuple(differing), duplicates)


def possible_duplicates_of(session: Session, player: PlayerCreate) -> PlayerFindings:
    """A player created on his own (``POST /v1/players``) and the stored players he may be."""
    namesakes = _namesakes(session, [player], None)
    return PlayerFindings(
        frozenset({player.id}),
        (),
        tuple(PossibleDuplicate(player_id, "/", candidates) for player_id, candidates in namesakes.items()),
    )


def namesakes_of_created(session: Session, created: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """The possible duplicates among players an import created, in the order it created them
    (``created``): each one's namesakes stored before the import or created before him by it, so
    that two namesakes of one file are one review, not two. Asked once the import has written its
    players' search terms (on SQLite it writes them at its end). Only the players holding a whole
    name that another player holds too are looked at: one aggregate of the terms finds them, where
    a look-up of every created player's name cost a large import a second."""
    order = {player_id: position for position, player_id in enumerate(created)}
    shared = select(PlayerSearchTerm.term).where(PlayerSearchTerm.kind == WHOLE_NAME).group_by(PlayerSearchTerm.term)
    shared = shared.having(func.count() > 1)
    holders = select(PlayerSearchTerm.player_id).where(PlayerSearchTerm.kind == WHOLE_NAME, PlayerSearchTerm.term.in_(shared))
    looked_at = sorted({player_id for (player_id,) in fetch_all(session, holders.distinct()) if player_id in order})
    found: dict[str, tuple[str, ...]] = {}
    for some in in_lists(looked_at):
        players = [
            PlayerCreate.model_construct(**dict(zip(("id", *IDENTITY_FIELDS), row, strict=True)))
            for row in fetch_all(session, _IDENTITIES, {"ids": list(some)})
        ]
        found |= _namesakes(session, players, None, earlier_than=order)
    return dict(sorted(found.items(), key=lambda item: order[item[0]]))


class IdentityConflict(Conflict):
    """A submission names a stored player's id with another person's name."""


@dataclass(frozen=True)
class _Identity:
    fields: dict[str, Any]
    spellings: list[Spelling]
    external_ids: frozenset[str]


def _identities(
    session: Session,
    player_ids: Sequence[str],
    given: dict[str, tuple[int, TournamentPlayerIn]] | None = None,
    known: KnownPlayers | None = None,
) -> tuple[set[str], dict[str, _Identity]]:
    """The stored players among these ids, and the identity of each: his identity fields, every
    spelling of his name (current first, then earlier ones) and his external ids. With ``given``
    (the submission's players), one given as stored (each field he is given is his stored one, and
    no id in another system) is looked no further at: most players of a result file, who played
    before (an import asks this of every tournament). ``known``: fields read before."""
    stored: set[str] = set()
    rows: dict[str, dict[str, Any]] = {}
    asked = list(player_ids)
    found: list[tuple[str, dict[str, Any] | None]] = []
    if known is not None:
        found, asked = known.split(asked)
    for some in in_lists(sorted(asked)):
        found += [
            (player_id, dict(zip(IDENTITY_FIELDS, values, strict=True)))
            for player_id, *values in fetch_all(session, _IDENTITIES, {"ids": list(some)})
        ]
    for player_id, fields in found:
        if fields is None:
            continue
        stored.add(player_id)
        if given is None or not _given_as_stored(given[player_id][1], fields):
            rows[player_id] = fields
    if not rows:
        return stored, {}
    earlier: dict[str, list[Spelling]] = {player_id: [] for player_id in rows}
    externals: dict[str, set[str]] = {player_id: set() for player_id in rows}
    for some in in_lists(sorted(rows)):
        for player_id, name, surname, native_name in session.connection().execute(_EARLIER_NAMES, {"ids": list(some)}):
            earlier[player_id].append((name, surname, native_name))
        for player_id, scheme, value in session.connection().execute(_EXTERNAL_IDS, {"ids": list(some)}):
            externals[player_id].add(f"{scheme}:{value}")
    return stored, {
        player_id: _Identity(
            fields,
            [(fields["name"], fields["surname"], fields["native_name"]), *earlier[player_id]],
            frozenset(externals[player_id]),
        )
        for player_id, fields in rows.items()
    }


class KnownPlayers:
    """The identity fields of the players an import's batch names, read in one statement for the
    batch rather than one for each of its tournaments (docs/decisions.md 108); a player it does not
    hold is read as a submission reads him. A player the batch creates is forgotten once it is
    stored (``forget_new``), so that a later tournament of the batch finds him stored."""

    def __init__(self, session: Session, player_ids: Sequence[str]) -> None:
        self._fields: dict[str, dict[str, Any] | None] = dict.fromkeys(player_ids)
        for some in in_lists(sorted(self._fields)):
            # The driver's own tuples: the fields are text and integers, which need no processing.
            for player_id, *values in fetch_all(session, _IDENTITIES, {"ids": list(some)}):
                self._fields[player_id] = dict(zip(IDENTITY_FIELDS, values, strict=True))

    def split(self, player_ids: Sequence[str]) -> tuple[list[tuple[str, dict[str, Any] | None]], list[str]]:
        """(the fields held of these players, None for one not stored), and the players not held."""
        held = [(player_id, self._fields[player_id]) for player_id in player_ids if player_id in self._fields]
        return held, [player_id for player_id in player_ids if player_id not in self._fields]

    def forget_new(self) -> None:
        self._fields = {player_id: fields for player_id, fields in self._fields.items() if fields is not None}


def _given_as_stored(player: TournamentPlayerIn, stored: dict[str, Any]) -> bool:
    if player.external_ids or player.egf_pin:
        return False
    for name in player.model_fields_set:
        if name in stored:
            value = getattr(player, name)
            if value is not None and value != stored[name]:
                return False
    return True


# Built once: every submission asks them (an import thousands of times), on the session's connection.
_IDENTITIES = select(Player.id, *(getattr(Player, name) for name in IDENTITY_FIELDS)).where(
    Player.id.in_(bindparam("ids", expanding=True))
)
_EARLIER_NAMES = (
    select(PlayerName.player_id, PlayerName.name, PlayerName.surname, PlayerName.native_name)
    .where(PlayerName.player_id.in_(bindparam("ids", expanding=True)))
    .order_by(PlayerName.until.desc(), PlayerName.id.desc())
)
_EXTERNAL_IDS = select(PlayerExternalId.player_id, PlayerExternalId.scheme, PlayerExternalId.value).where(
    PlayerExternalId.player_id.in_(bindparam("ids", expanding=True))
)


def _differences(player: TournamentPlayerIn, identity: _Identity) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(stored, given) of each identity field the submission gives otherwise than stored, None when
    it gives nothing new. A name is compared as search compares it (case, diacritics and order do
    not matter), and any spelling of his, current or earlier, is his; a field given as null says
    nothing."""
    stored: dict[str, Any] = {}
    given: dict[str, Any] = {}
    fields = {name: getattr(player, name) for name in IDENTITY_FIELDS if name in player.model_fields_set}
    fields = {name: value for name, value in fields.items() if value is not None}
    latin = _latin_words(fields.get("name"), fields.get("surname"))
    if latin and not any(not latin - _latin_words(s[0], s[1]) for s in identity.spellings):
        for name in ("name", "surname"):
            if name in fields and folded(fields[name]) != folded(identity.fields[name] or ""):
                stored[name], given[name] = identity.fields[name], fields[name]
    native = fields.get("native_name")
    if native and folded(native) not in {folded(s[2]) for s in identity.spellings if s[2]}:
        stored["native_name"], given["native_name"] = identity.fields["native_name"], native
    for name in ("country", "gender", "birth_year"):
        if name in fields and fields[name] != identity.fields[name]:
            stored[name], given[name] = identity.fields[name], fields[name]
    if "city" in fields and folded(fields["city"]) != folded(identity.fields["city"] or ""):
        stored["city"], given["city"] = identity.fields["city"], fields["city"]
    unheld = sorted({external for _, external in _externals(player)} - identity.external_ids)
    if unheld:
        stored["external_ids"], given["external_ids"] = sorted(identity.external_ids), unheld
    return (stored, given) if given else None


def _contradiction(index: int, player: TournamentPlayerIn, identity: _Identity) -> FieldError:
    field = next(name for name in ("name", "surname", "native_name") if getattr(player, name))
    fields = identity.fields
    stored_as = " ".join(part for part in (fields["name"], fields["surname"]) if part) or fields["native_name"] or "?"
    extra = ", ".join(
        part for part in (fields["native_name"] if stored_as != fields["native_name"] else None, fields["country"]) if part
    )
    return FieldError(
        f"/players/{index}/{field}",
        f"player {player.id!r} is stored as {stored_as}{f' ({extra})' if extra else ''}: this name is another person's",
    )


def _namesakes(
    session: Session,
    new_players: Sequence[PlayerCreate],
    submission: TournamentIn | None,
    *,
    earlier_than: dict[str, int] | None = None,
) -> dict[str, tuple[str, ...]]:
    """New player id -> the stored players (not merged records) whose whole name, in either order,
    or native name is his, and who differ from him in nothing both have: country, native name (two
    He Juns of China, 何骏 and 何俊, are two people), gender, year of birth; none who plays in the
    submission (two players of one tournament are two people). ``earlier_than``: the order in which
    an import created its players, a candidate it created being one created before him."""
    wanted: dict[str, set[str]] = {}
    for player in new_players:
        for whole in (folded(f"{player.name or ''} {player.surname or ''}"), folded(player.native_name or "")):
            if whole:
                wanted.setdefault(whole[:MAX_TERM], set()).add(player.id)
    if not wanted:
        return {}
    in_submission: set[str] = set()
    if submission is not None:
        in_submission |= {player.id for player in submission.players}
        in_submission |= {g.black for g in submission.games} | {g.white for g in submission.games}
    found: dict[str, set[str]] = {}
    known: dict[str, dict[str, Any]] = {}
    for some in in_lists(sorted(wanted)):
        for term, player_id, *values in session.connection().execute(_NAMESAKES, {"terms": list(some)}):
            if player_id in in_submission:
                continue
            known[player_id] = dict(zip(_TELLING_APART, values, strict=True))
            for new_id in wanted[term]:
                found.setdefault(new_id, set()).add(player_id)
    own = {player.id: player for player in new_players}
    namesakes = {}
    for new_id, candidates in sorted(found.items()):
        kept = sorted(
            candidate
            for candidate in candidates
            if candidate != new_id
            and not _told_apart(own[new_id], known[candidate])
            and (earlier_than is None or earlier_than.get(candidate, -1) < earlier_than[new_id])
        )
        if kept:
            namesakes[new_id] = tuple(kept[:MAX_CANDIDATES])
    return namesakes


# What tells two players of one name apart, where both records have it.
_TELLING_APART = ("country", "native_name", "gender", "birth_year")


def _told_apart(player: PlayerCreate, candidate: dict[str, Any]) -> bool:
    for field_name in _TELLING_APART:
        mine, theirs = getattr(player, field_name), candidate[field_name]
        if mine is None or theirs is None:
            continue
        if (folded(mine) != folded(theirs)) if field_name == "native_name" else (mine != theirs):
            return True
    return False


_NAMESAKES = (
    select(PlayerSearchTerm.term, Player.id, *(getattr(Player, name) for name in _TELLING_APART))
    .join(Player, Player.id == PlayerSearchTerm.player_id)
    .where(
        PlayerSearchTerm.term.in_(bindparam("terms", expanding=True)),
        PlayerSearchTerm.kind == WHOLE_NAME,
        Player.merged_into.is_(None),
    )
)


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


def attach_external_ids(session: Session, submission: TournamentIn, new: frozenset[str]) -> None:
    """Store the external ids (and EGF PINs) the submission gives its new players (``new``), those no
    one holds; a stored player's are a detail for an officer (``PlayerFindings.differing``)."""
    wanted = [(player.id, external) for player in submission.players if player.id in new for _, external in _externals(player)]
    if wanted:
        add_external_ids(session, wanted)


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
