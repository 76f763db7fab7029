"""Players: created by submissions (inline), directly or from a directory file; one identity each,
with ids in other systems (unique per scheme), earlier spellings of the name, and a search that
ignores case and diacritics and ranks by how well a name matches."""

import datetime as dt
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from itertools import groupby
from typing import Any

from sqlalchemy import Column, MetaData, Table, and_, bindparam, case, delete, func, insert, select, union, update
from sqlalchemy.orm import Session

from app.db import dialect_insert, insert_rows, locked_row
from app.models import Game, Player, PlayerExternalId, PlayerName, PlayerSearchTerm, RatingEntry, RatingList, Tournament
from app.names import MAX_TERM, WHOLE_NAME, WORD, WORD_END, folded, full_name, search_key, search_terms, sort_key
from app.problems import Conflict, FieldError, InvalidInput, NotFound
from app.schemas.players import PlayerCreate, PlayerPatch, PlayerRename
from app.services import revisions

UPSERT_BATCH = 500
PLAYER_FIELDS = ("name", "surname", "native_name", "country", "city", "gender", "birth_year")
NAME_FIELDS = ("name", "surname", "native_name")  # a spelling: what the search keys are made of
SEARCH_TERM_COLUMNS = ("term", "player_id", "kind", "sort_key")
# How a name matched a search, by quality, best first (docs/decisions.md 7.53): the order of the results.
MATCHES = ("id", "exact", "prefix", "prefix", "word-prefix", "word-prefix", "substring")
# The shortest query matched inside words too (ends of words); shorter ones match starts only.
MIN_INSIDE_WORD = 3
# After every character: a term starting with q is at least q and less than q followed by this.
LAST_CHARACTER = "\U0010ffff"


def create_player(session: Session, player: PlayerCreate, *, actor: str) -> Player:
    """A new player, recorded as created by ``actor``; an id that exists is a 409."""
    if session.get(Player, player.id) is not None:
        raise Conflict(f"Player {player.id!r} already exists.", [FieldError("/id", "a player with this id already exists")])
    created = Player(**player.model_dump(exclude={"external_ids"}))
    session.add(created)
    session.flush()
    if player.external_ids is not None:
        set_external_ids(session, player.id, player.external_ids, "/external_ids")
    refresh_search_keys(session, [player.id])
    revisions.record_created(session, revisions.PLAYER, [player.id], actor=actor, summary="created by POST /v1/players")
    return created


def update_player(session: Session, player_id: str, patch: PlayerPatch, *, actor: str) -> Player:
    """An officer's change of the fields the patch gives, recorded with the player as he was; a
    merged record is changed through the player it went to (a 409)."""
    player = locked_row(session, Player, player_id)
    if player is None:
        raise NotFound(f"Player {player_id!r} does not exist.")
    refuse_merged(player, "/")
    before = player_version(session, player)
    given = patch.model_dump(exclude_unset=True, exclude={"external_ids"})
    for field, value in given.items():
        setattr(player, field, value)
    session.flush()
    if patch.external_ids is not None:
        set_external_ids(session, player_id, patch.external_ids, "/external_ids")
    refresh_search_keys(session, [player_id])
    after = player_version(session, player)
    changed = [field for field in (*PLAYER_FIELDS, "external_ids") if before[field] != after[field]]
    if changed:
        revisions.record(
            session,
            subject=revisions.PLAYER,
            subject_id=player_id,
            kind=revisions.PLAYER_UPDATED,
            actor=actor,
            summary="changed: " + ", ".join(f"{field} {before[field]!r} -> {after[field]!r}" for field in changed),
            previous=before,
        )
    return player


def get_player(session: Session, player_id: str) -> Player:
    player = session.get(Player, player_id)
    if player is None:
        raise NotFound(f"Player {player_id!r} does not exist.")
    return player


def player_detail(session: Session, player: Player) -> dict[str, Any]:
    """The player's fields with his external ids, earlier spellings and ``merged_into``."""
    return {
        **{field: getattr(player, field) for field in ("id", *PLAYER_FIELDS, "merged_into")},
        "external_ids": external_ids_of(session, [player.id])[player.id],
        "earlier_names": earlier_names_of(session, [player.id])[player.id],
    }


def player_version(session: Session, player: Player) -> dict[str, Any]:
    """The player whole as JSON values: the ``previous`` a revision of him keeps."""
    detail = player_detail(session, player)
    return {
        **detail,
        "earlier_names": [{**earlier, "until": earlier["until"].isoformat()} for earlier in detail["earlier_names"]],
    }


def rename_player(session: Session, player_id: str, rename: PlayerRename, *, actor: str) -> Player:
    """A new spelling from ``since`` on; the one it replaces is kept until the day before, and
    still found by search (issue 24 item 3)."""
    player = get_player(session, player_id)
    refuse_merged(player, "/")
    before = player_version(session, player)
    given = rename.model_dump(exclude_unset=True, exclude={"since"})
    if not given:
        raise InvalidInput("Nothing to rename.", [FieldError("/", "give name, surname or native_name")])
    keep_spelling(session, player, until=rename.since - dt.timedelta(days=1))
    for field, value in given.items():
        setattr(player, field, value)
    session.flush()
    refresh_search_keys(session, [player_id])
    revisions.record(
        session,
        subject=revisions.PLAYER,
        subject_id=player_id,
        kind=revisions.RENAMED,
        actor=actor,
        summary=f"renamed from {_spelling(before)} to {_spelling(player_detail(session, player))} on {rename.since}",
        previous=before,
    )
    return player


def keep_spelling(session: Session, player: Player, *, until: dt.date) -> None:
    """Keep the player's spelling as it is now, his until ``until``, before it is replaced: search
    still finds him by it (a record without any name has no spelling to keep)."""
    if any((player.name, player.surname, player.native_name)):
        session.add(
            PlayerName(player_id=player.id, name=player.name, surname=player.surname, native_name=player.native_name, until=until)
        )


def search_players(
    session: Session, *, q: str | None, country: str | None, external: str | None, limit: int, offset: int
) -> tuple[list[tuple[Player, str]], int]:
    """Players whose names match ``q`` (any spelling, folded), best match first; of a country; holding an
    external id. Merged records are left out: their player is found instead. The names are matched
    over the players' search terms, one range of their index (docs/decisions.md 7.53)."""
    conditions: list[Any] = [Player.merged_into.is_(None)]
    if country:
        conditions.append(Player.country == country)
    if external:
        scheme, _, value = external.partition(":")
        holder = select(PlayerExternalId.player_id).where(PlayerExternalId.scheme == scheme, PlayerExternalId.value == value)
        conditions.append(Player.id.in_(holder))
    if not (q and q.strip()):
        total = session.scalar(select(func.count()).select_from(Player).where(*conditions)) or 0
        players = session.scalars(
            select(Player).where(*conditions).order_by(Player.surname, Player.name, Player.id).limit(limit).offset(offset)
        )
        return [(player, "external-id" if external else "any") for player in players], total
    text = q.strip()
    by_id = session.scalar(select(Player).where(Player.id == text, *conditions))
    best = _best_matches(folded(text)[:MAX_TERM], exclude=text)
    if len(conditions) > 1:  # a country or an external id besides the name: those players only
        best = best.where(PlayerSearchTerm.player_id.in_(select(Player.id).where(*conditions)))
    found = best.subquery()
    first = [(by_id, MATCHES[0])] if by_id is not None and offset == 0 else []
    skip = max(0, offset - (by_id is not None))
    # The page and the number of all matches in one reading of the range (a window count).
    page = session.execute(
        select(found.c.player_id, found.c.quality, func.count().over())
        .order_by(found.c.quality, found.c.sort_key)
        .limit(limit - len(first))
        .offset(skip)
    ).all()
    # An empty page (nothing found, or past the last page) says no count: counted apart.
    by_name = page[0][2] if page else session.scalar(select(func.count()).select_from(found)) or 0
    hits = {player.id: player for player in session.scalars(select(Player).where(Player.id.in_([row[0] for row in page])))}
    return first + [(hits[player_id], MATCHES[quality]) for player_id, quality, _ in page], by_name + (by_id is not None)


def _best_matches(term: str, *, exclude: str) -> Any:
    """(player_id, quality, sort_key) of every player whose terms start with ``term``, his best match:
    the whole name; a name starting with the query as a word, or as part of one; a word that is the
    query; a word starting with it; the end of a word (docs/decisions.md 7.53). One range of the
    terms' index, grouped by player. ``exclude``: the player found by his id, listed before."""
    column, kind = PlayerSearchTerm.term, PlayerSearchTerm.kind
    quality = case(
        (and_(kind == WHOLE_NAME, column == term), 1),
        (and_(kind == WHOLE_NAME, column >= term + " ", column < term + " " + LAST_CHARACTER), 2),
        (kind == WHOLE_NAME, 3),
        (and_(kind == WORD, column == term), 4),
        (kind == WORD, 5),
        else_=6,
    )
    found = (
        select(PlayerSearchTerm.player_id, func.min(quality).label("quality"), PlayerSearchTerm.sort_key)
        .where(column >= term, column < term + LAST_CHARACTER, PlayerSearchTerm.player_id != exclude)
        .group_by(PlayerSearchTerm.player_id, PlayerSearchTerm.sort_key)
    )
    # One or two letters inside words match a good part of any directory: only starts count then.
    # (Letters and digits of the Latin alphabet: two Chinese characters are a given name, and
    # punctuation is rare enough to be searched anywhere.)
    starts_only = len(term) < MIN_INSIDE_WORD and term.isascii() and term.replace(" ", "").isalnum()
    return found.where(kind != WORD_END) if starts_only else found


def hit_details(session: Session, player_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """For each player of a page of hits: his external ids, earlier names, disciplines and current ratings."""
    externals, earlier = external_ids_of(session, player_ids), earlier_names_of(session, player_ids)
    disciplines: dict[str, set[str]] = defaultdict(set)
    played = union(
        select(Game.black_id.label("player_id"), Game.tournament_id).where(Game.black_id.in_(player_ids)),
        select(Game.white_id.label("player_id"), Game.tournament_id).where(Game.white_id.in_(player_ids)),
    ).subquery()
    for player_id, category in session.execute(
        select(played.c.player_id, Tournament.category).join(Tournament, Tournament.id == played.c.tournament_id).distinct()
    ):
        disciplines[player_id].add(category)
    ratings: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for player_id, list_id, category, rating, status in session.execute(
        select(RatingEntry.player_id, RatingList.id, RatingList.category, RatingEntry.rating, RatingEntry.status)
        .join(RatingList, RatingList.current_snapshot_id == RatingEntry.snapshot_id)
        .where(RatingEntry.player_id.in_(player_ids))
        .order_by(RatingList.id)
    ):
        ratings[player_id].append({"list_id": list_id, "category": category, "rating": rating, "status": status})
        disciplines[player_id].add(category)
    return {
        player_id: {
            "external_ids": externals[player_id],
            "earlier_names": earlier[player_id],
            "disciplines": sorted(disciplines[player_id]),
            "ratings": ratings[player_id],
        }
        for player_id in player_ids
    }


def external_ids_of(session: Session, player_ids: Sequence[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {player_id: [] for player_id in player_ids}
    for player_id, scheme, value in session.execute(
        select(PlayerExternalId.player_id, PlayerExternalId.scheme, PlayerExternalId.value)
        .where(PlayerExternalId.player_id.in_(player_ids))
        .order_by(PlayerExternalId.scheme, PlayerExternalId.value)
    ):
        found[player_id].append(f"{scheme}:{value}")
    return found


def earlier_names_of(session: Session, player_ids: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = {player_id: [] for player_id in player_ids}
    for row in session.scalars(
        select(PlayerName).where(PlayerName.player_id.in_(player_ids)).order_by(PlayerName.until, PlayerName.id)
    ):
        found[row.player_id].append(
            {"name": row.name, "surname": row.surname, "native_name": row.native_name, "until": row.until}
        )
    return found


def external_holders(session: Session, external_ids: Iterable[str]) -> dict[str, str]:
    """``scheme:value`` -> the id of the player holding it, for those held."""
    pairs = sorted({tuple(external.split(":", 1)) for external in external_ids})
    holders: dict[str, str] = {}
    for start in range(0, len(pairs), UPSERT_BATCH):
        chunk = pairs[start : start + UPSERT_BATCH]
        schemes = {scheme for scheme, _ in chunk}
        values = {value for _, value in chunk}
        for scheme, value, player_id in session.execute(
            select(PlayerExternalId.scheme, PlayerExternalId.value, PlayerExternalId.player_id).where(
                PlayerExternalId.scheme.in_(schemes), PlayerExternalId.value.in_(values)
            )
        ):
            if (scheme, value) in chunk:
                holders[f"{scheme}:{value}"] = player_id
    return holders


def set_external_ids(session: Session, player_id: str, external_ids: Sequence[str], pointer: str) -> None:
    """The player's external ids become ``external_ids``; one held by another player is a 409 naming it.
    A player may hold several ids of one scheme (two records of him in another system)."""
    held = external_holders(session, external_ids)
    errors = [
        FieldError(f"{pointer}/{index}", f"{external} is held by player {held[external]!r}")
        for index, external in enumerate(external_ids)
        if held.get(external, player_id) != player_id
    ]
    if errors:
        raise Conflict(f"{len(errors)} external id(s) cannot be those of {player_id!r}; nothing was stored.", errors)
    session.execute(delete(PlayerExternalId).where(PlayerExternalId.player_id == player_id))
    for external in dict.fromkeys(external_ids):  # an id given twice is held once
        scheme, _, value = external.partition(":")
        session.add(PlayerExternalId(scheme=scheme, value=value, player_id=player_id))
    session.flush()


def add_external_ids(session: Session, pairs: Iterable[tuple[str, str]]) -> None:
    """Attach (player id, ``scheme:value``) pairs no one holds yet; a player keeps one id a scheme,
    so an id of a scheme he already has another of is not added (the caller checked)."""
    rows = [
        {"scheme": external.split(":", 1)[0], "value": external.split(":", 1)[1], "player_id": player_id}
        for player_id, external in sorted(set(pairs))
    ]
    for start in range(0, len(rows), UPSERT_BATCH):
        statement = dialect_insert(session)(PlayerExternalId).values(rows[start : start + UPSERT_BATCH])
        session.execute(statement.on_conflict_do_nothing(index_elements=[PlayerExternalId.scheme, PlayerExternalId.value]))


def refuse_merged(player: Player, pointer: str) -> None:
    if player.merged_into is not None:
        raise Conflict(
            f"Player {player.id!r} was merged into {player.merged_into!r}; change that player instead.",
            [FieldError(pointer, f"player {player.id!r} is merged into {player.merged_into!r}")],
        )


# A player's own columns, which the upsert writes: a subclass's fields (what a tournament declared for
# him, TournamentPlayerIn) are not, nor are his external ids (a table of their own).
_PLAYER_COLUMNS = set(PlayerCreate.model_fields) - {"external_ids"}
_GIVEN_COLUMNS = frozenset(_PLAYER_COLUMNS - {"id"})


def create_players(
    session: Session,
    players: Sequence[PlayerCreate],
    new: Collection[str],
    *,
    actor: str,
    summary: str,
    search_terms_later: bool = False,
) -> None:
    """Create the players of ``new`` that a submission describes, with the fields it gives (a
    player's own fields only: ``players`` may be a submission's ``TournamentPlayerIn``); a player
    given twice takes his later fields last. Each is recorded as created (``summary``, by
    ``actor``). A stored player is never written here: only an officer changes who a player is
    (docs/decisions.md 108), and what a submission says otherwise of him is an officer's to review
    (``app.services.player_reviews``).

    One insert-or-nothing of the database itself, so two submissions naming the same new player
    both succeed (no look-up-then-insert race; the second's record of the creation then collides and
    its transaction runs again, finding him stored). Rows go in sorted id order: every transaction
    takes the players' row locks in the same order, so two never deadlock. A run of players giving
    the same fields is one statement.

    ``search_terms_later``: the players it creates are stored without their search key and terms,
    for ``write_deferred_search_terms`` to write them all in key order (an import on SQLite: see
    ``app.services.bulk_load``).
    """
    given: dict[str, dict[str, Any]] = {}
    for player in players:
        if player.id in new:
            given.setdefault(player.id, {}).update(
                (field, getattr(player, field)) for field in player.model_fields_set & _GIVEN_COLUMNS
            )
    if not given:
        return
    creating = sorted(given.items())
    table = Player.__table__
    statement = dialect_insert(session)(table).on_conflict_do_nothing(index_elements=[table.c.id])
    for _, run in groupby(creating, key=lambda item: frozenset(item[1])):
        rows = [{"id": player_id, **_NO_FIELDS, **fields} for player_id, fields in run]
        # One statement executed for many rows (the driver's executemany; SQLAlchemy batches it into
        # multi-row VALUES where the database allows), compiled once and cached.
        for start in range(0, len(rows), UPSERT_BATCH):
            session.execute(statement, rows[start : start + UPSERT_BATCH])
    revisions.record_created(session, revisions.PLAYER, [player_id for player_id, _ in creating], actor=actor, summary=summary)
    if not search_terms_later:
        refresh_search_keys(session, [player_id for player_id, _ in creating])
    # The ORM's identity map may hold players loaded before the insert: read them afresh.
    session.expire_all()


_NO_FIELDS = dict.fromkeys(sorted(_GIVEN_COLUMNS))


def _stored_fields(session: Session, player_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """The stored players among these ids, with the fields an upsert writes."""
    columns = sorted(_GIVEN_COLUMNS)
    stored: dict[str, dict[str, Any]] = {}
    for start in range(0, len(player_ids), UPSERT_BATCH):
        for player_id, *values in session.execute(
            select(Player.id, *(getattr(Player, column) for column in columns)).where(
                Player.id.in_(player_ids[start : start + UPSERT_BATCH])
            )
        ):
            stored[player_id] = dict(zip(columns, values, strict=True))
    return stored


def refresh_search_keys(session: Session, player_ids: Sequence[str]) -> None:
    """Compute the folded key of every spelling (current and earlier) of these players, and store
    the ones that changed."""
    for start in range(0, len(player_ids), UPSERT_BATCH):
        chunk = sorted(set(player_ids[start : start + UPSERT_BATCH]))
        earlier: dict[str, list[tuple[str | None, str | None, str | None]]] = defaultdict(list)
        for player_id, name, surname, native_name in session.execute(
            select(PlayerName.player_id, PlayerName.name, PlayerName.surname, PlayerName.native_name).where(
                PlayerName.player_id.in_(chunk)
            )
        ):
            earlier[player_id].append((name, surname, native_name))
        changed: list[dict[str, str]] = []
        terms: list[tuple[str, str, int, str]] = []
        for player_id, name, surname, native_name, stored_key, merged_into in session.execute(
            select(Player.id, Player.name, Player.surname, Player.native_name, Player.search_key, Player.merged_into).where(
                Player.id.in_(chunk)
            )
        ):
            # A merged record is found as the player it went to: it keeps no key and no terms.
            spellings = [] if merged_into is not None else [(name, surname, native_name), *earlier[player_id]]
            key = search_key(spellings)
            if key != stored_key:
                changed.append({"player_id": player_id, "key": key})
                order = sort_key(name, surname, player_id)
                terms.extend((term, player_id, kind, order) for term, kind in search_terms(spellings).items())
        if changed:
            session.connection().execute(
                update(Player.__table__)
                .where(Player.__table__.c.id == bindparam("player_id"))
                .values(search_key=bindparam("key")),
                changed,
            )
            session.execute(delete(PlayerSearchTerm).where(PlayerSearchTerm.player_id.in_([row["player_id"] for row in changed])))
            insert_rows(session, PlayerSearchTerm.__table__, SEARCH_TERM_COLUMNS, terms)


def write_deferred_search_terms(session: Session) -> int:
    """Give every player stored without his search key (``upsert_players(..., search_terms_later=True)``)
    his key and terms; the number of players given them. The terms go first into a temporary table,
    then into ``player_search_terms`` in the order of its key, sorted by the database: one pass
    along the index, where the same rows written as the players came, scattered all over it, took a
    million-game import 10 s against 6-7 s for this pass (docs/decisions.md 7.90); memory holds one
    page of players' terms at a time.

    Such a player has no earlier spelling: a rename writes his key at once. A merged record keeps
    his empty key and is not read; a player without any name is read and left as he is."""
    connection = session.connection()
    _PENDING_TERMS.create(connection)
    written, after = 0, ""
    while True:
        page = session.execute(
            select(Player.id, Player.name, Player.surname, Player.native_name)
            .where(Player.search_key == "", Player.merged_into.is_(None), Player.id > after)
            .order_by(Player.id)
            .limit(DEFERRED_TERMS_PAGE)
        ).all()
        if not page:
            break
        after = page[-1].id
        keys: list[dict[str, str]] = []
        terms: list[tuple[str, str, int, str]] = []
        for player_id, name, surname, native_name in page:
            spellings = [(name, surname, native_name)]  # a new player: no earlier spelling
            key = search_key(spellings)
            if key:
                keys.append({"player_id": player_id, "key": key})
                order = sort_key(name, surname, player_id)
                terms.extend((term, player_id, kind, order) for term, kind in search_terms(spellings).items())
        if keys:
            connection.execute(
                update(Player.__table__)
                .where(Player.__table__.c.id == bindparam("player_id"))
                .values(search_key=bindparam("key")),
                keys,
            )
            insert_rows(session, _PENDING_TERMS, SEARCH_TERM_COLUMNS, terms)
            written += len(keys)
    pending = _PENDING_TERMS.c
    connection.execute(
        insert(PlayerSearchTerm.__table__).from_select(
            SEARCH_TERM_COLUMNS, select(*pending).order_by(pending.term, pending.player_id, pending.kind)
        )
    )
    _PENDING_TERMS.drop(connection)
    return written


DEFERRED_TERMS_PAGE = 1_000  # players a page: some 14,000 terms in memory at once
_PENDING_TERMS = Table(
    "pending_search_terms",
    MetaData(),
    *(Column(name, PlayerSearchTerm.__table__.c[name].type) for name in SEARCH_TERM_COLUMNS),
    prefixes=["TEMPORARY"],
)


def _spelling(detail: dict[str, Any]) -> str:
    name = full_name(detail.get("name"), detail.get("surname")) or "(no name)"
    return f"{name} ({detail['native_name']})" if detail.get("native_name") else name
