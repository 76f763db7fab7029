"""Reading rating lists: their configuration, snapshots, ratings (also as of any date, answered
from the snapshot's stored per-day points) and players' chart series; and the lists' seeds. What
differs between rating systems is asked of the list's system (``app.rating.registry``)."""

import datetime as dt
import hashlib
import json
import math
from typing import Any

import numpy as np
from pydantic import TypeAdapter, ValidationError
from sqlalchemy import String, Text, cast, delete, func, insert, select
from sqlalchemy.orm import Session

from app.db import locked_row, select_rows_by_key
from app.models import (
    Player,
    RatingEntry,
    RatingList,
    RatingSeed,
    RatingSnapshot,
    TournamentReview,
)
from app.names import full_name
from app.problems import Conflict, FieldError, InvalidInput, NotFound
from app.rating.registry import UnknownSystem, get_system
from app.rating.system import NO_DAY, RatingSystem
from app.recompute import staleness
from app.schemas.rating_lists import RatingRowRead
from app.services import revisions
from app.snapshots import timelines

STATUSES = ("active", "inactive", "provisional")


def list_rating_lists(session: Session) -> list[RatingList]:
    return list(session.scalars(select(RatingList).order_by(RatingList.id)))


def get_rating_list(session: Session, list_id: str, *, lock: bool = False) -> RatingList:
    """The list; ``lock``: row-locked until the transaction ends (a change of its seeds, parameters
    or settings, so two at once each record the version the other left)."""
    rating_list = locked_row(session, RatingList, list_id) if lock else session.get(RatingList, list_id)
    if rating_list is None:
        raise NotFound(f"Rating list {list_id!r} does not exist; GET /v1/rating-lists shows the lists.")
    return rating_list


def system_of(rating_list: RatingList) -> RatingSystem[Any, Any]:
    try:
        return get_system(rating_list.system)
    except UnknownSystem as error:
        raise Conflict(f"Rating list {rating_list.id!r}: {error}.") from None


def update_params(session: Session, list_id: str, params: dict[str, Any], *, actor: str) -> RatingList:
    """Merge the changes into the list's parameters, checked by its system's own parameter model."""
    rating_list = get_rating_list(session, list_id, lock=True)
    system = system_of(rating_list)
    merged = {**(rating_list.params or {}), **params}
    try:
        system.params_model.model_validate(
            {k: v for k, v in merged.items() if k in system.params_model.model_fields or k in params}
        )
    except ValidationError as error:
        raise InvalidInput(
            f"Rating list {list_id!r} ({system.id}) does not take these parameters.",
            [FieldError("/" + "/".join(str(part) for part in e["loc"]), e["msg"]) for e in error.errors()],
        ) from None
    previous = dict(rating_list.params or {})
    rating_list.params = merged
    session.flush()
    changed = [f"{name} {previous.get(name)!r} → {value!r}" for name, value in params.items() if previous.get(name) != value]
    _record_list_change(
        session, rating_list, revisions.PARAMS_CHANGED, actor, "params: " + ("; ".join(changed) or "unchanged"), previous
    )
    if changed:  # (they apply from the next recompute, which nothing queues)
        staleness.mark(session, [list_id], "parameters changed: " + "; ".join(changed))
    return rating_list


def update_settings(session: Session, list_id: str, settings: dict[str, Any], *, actor: str) -> RatingList:
    """Change the list's own settings (``auto_recompute``, ``requires_review``, ``publication_days``)."""
    rating_list = get_rating_list(session, list_id, lock=True)
    previous = {name: getattr(rating_list, name) for name in settings}
    for name, value in settings.items():
        setattr(rating_list, name, value)
    session.flush()
    changed = [f"{name} {previous[name]!r} → {value!r}" for name, value in settings.items() if previous[name] != value]
    _record_list_change(
        session, rating_list, revisions.SETTINGS_CHANGED, actor, "settings: " + ("; ".join(changed) or "unchanged"), previous
    )
    if previous.get("requires_review") and not rating_list.requires_review and _holds_back(session, list_id):
        # What waited (pending, rejected) counts again from the next recompute, which nothing queues.
        staleness.mark(session, [list_id], "reviews no longer required")
    return rating_list


def _holds_back(session: Session, list_id: str) -> bool:
    """Whether the list has a tournament its reviews leave out (pending or rejected: not confirmed,
    app.services.reviews' statuses, which import this module)."""
    held = select(TournamentReview.tournament_id).where(
        TournamentReview.list_id == list_id, TournamentReview.status != "confirmed"
    )
    return session.scalar(held.limit(1)) is not None


def get_snapshot(session: Session, list_id: str, snapshot_id: int | None) -> RatingSnapshot | None:
    """The given snapshot of the list, or its current one (None when never computed)."""
    rating_list = get_rating_list(session, list_id)
    wanted = snapshot_id if snapshot_id is not None else rating_list.current_snapshot_id
    if wanted is None:
        return None
    snapshot = session.get(RatingSnapshot, wanted)
    if snapshot is None or snapshot.list_id != list_id:
        raise NotFound(f"Snapshot {wanted} of rating list {list_id!r} does not exist.")
    return snapshot


def list_snapshots(session: Session, list_id: str, limit: int, offset: int) -> tuple[list[RatingSnapshot], int]:
    get_rating_list(session, list_id)
    total = session.scalar(select(func.count()).where(RatingSnapshot.list_id == list_id)) or 0
    snapshots = session.scalars(
        select(RatingSnapshot)
        .where(RatingSnapshot.list_id == list_id)
        .order_by(RatingSnapshot.id.desc())
        .limit(limit)
        .offset(offset)
    )
    return list(snapshots), total


def list_etag(snapshot_id: int | None, query: dict[str, Any]) -> str:
    """Changes whenever the list's snapshot or the query changes; computed without reading rows."""
    key = json.dumps({"snapshot": snapshot_id, **query}, sort_keys=True, default=str)
    return 'W/"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'


def ratings(
    session: Session,
    snapshot: RatingSnapshot | None,
    *,
    system: RatingSystem[Any, Any],
    as_of: dt.date | None,
    country: str | None,
    status: str,
    limit: int,
    offset: int,
    gender: str | None = None,
    played_within_12_months: bool = False,
) -> tuple[list[RatingRowRead], int]:
    """A page of the list (as of a date, or as stored), filtered by country, status, gender (``M``/``F``)
    and a rated game in the 12 months up to the list's date (issue 24 item 5; docs/decisions.md 7.59)."""
    if snapshot is None:
        return [], 0
    played_after = year_before(as_of or snapshot.list_date) if played_within_12_months else None
    if as_of is None:
        return _stored_ratings(
            session,
            snapshot.id,
            country=country,
            status=status,
            limit=limit,
            offset=offset,
            gender=gender,
            played_after=played_after,
        )
    return _ratings_as_of(
        session,
        snapshot,
        system=system,
        as_of=as_of,
        country=country,
        status=status,
        limit=limit,
        offset=offset,
        gender=gender,
        played_after=played_after,
    )


def year_before(day: dt.date) -> dt.date:
    """The same day a year before (28 February for 29 February): a game after it is within the 12 months up to ``day``."""
    return day.replace(year=day.year - 1, day=min(day.day, 28) if day.month == 2 else day.day)


def player_history(session: Session, player_id: str, snapshot: RatingSnapshot | None) -> list[dict[str, Any]]:
    """The player's stored points under the snapshot, oldest first (from its timeline, read once per
    process)."""
    if session.get(Player, player_id) is None:
        raise NotFound(f"Player {player_id!r} does not exist.")
    if snapshot is None:
        return []
    return timelines.timeline_of(session, snapshot).history(player_id)


# PostgreSQL's protocol carries at most 65,535 parameters a statement (SQLite's default build 32,766):
# a list of ids is looked up in pieces, so that any number of seeds the body limit admits is stored.
IDS_PER_QUERY = 10_000


def replace_seeds(session: Session, list_id: str, seeds: list[dict[str, Any]], *, actor: str) -> list[RatingSeed]:
    rating_list = get_rating_list(session, list_id, lock=True)
    if system_of(rating_list).seed_model is None:
        raise InvalidInput(
            f"Rating list {list_id!r} uses {rating_list.system}, which starts from no seed ratings.",
            [FieldError("/seeds", f"{rating_list.system} lists take no seed ratings")],
        )
    errors: list[FieldError] = []
    validated: list[dict[str, Any]] = []
    for i, seed in enumerate(seeds):
        checked, seed_errors = _system_seed(rating_list, seed, f"/seeds/{i}/")
        validated.append(checked)
        errors += seed_errors
    if errors:
        raise InvalidInput(f"{len(errors)} seed field(s) are invalid; the seeds were not changed.", errors)
    ids = [seed["player_id"] for seed in seeds]
    known: set[str] = set()
    for start in range(0, len(ids), IDS_PER_QUERY):  # within every database's limit on bound parameters
        known.update(session.scalars(select(Player.id).where(Player.id.in_(ids[start : start + IDS_PER_QUERY]))))
    errors += [
        FieldError(f"/seeds/{i}/player_id", f"unknown player {seed['player_id']!r}")
        for i, seed in enumerate(seeds)
        if seed["player_id"] not in known
    ]
    seen: set[str] = set()
    for i, seed in enumerate(seeds):
        if seed["player_id"] in seen:
            errors.append(FieldError(f"/seeds/{i}/player_id", f"player {seed['player_id']!r} is seeded twice"))
        seen.add(seed["player_id"])
    if errors:
        raise InvalidInput(f"{len(errors)} seed(s) are invalid; the seeds were not changed.", errors)
    previous = [_seed_version(seed) for seed in get_seeds(session, list_id)]
    session.execute(delete(RatingSeed).where(RatingSeed.list_id == list_id))
    if validated:
        session.execute(insert(RatingSeed), [{"title": None, "counters": None, **seed, "list_id": list_id} for seed in validated])
    # They apply from the next recompute, which nothing queues (docs/decisions.md 7.45).
    staleness.mark(session, [list_id], "seeds replaced")
    stored = get_seeds(session, list_id)
    before, after = {s["player_id"]: s for s in previous}, {s.player_id: _seed_version(s) for s in stored}
    summary = (
        f"seeds replaced: {len(before)} → {len(after)}; {len(after.keys() - before.keys())} added, "
        f"{len(before.keys() - after.keys())} removed, "
        f"{sum(1 for p in after.keys() & before.keys() if after[p] != before[p])} changed"
    )
    _record_list_change(session, rating_list, revisions.SEEDS_CHANGED, actor, summary, {"seeds": previous})
    return stored


def put_seed(session: Session, list_id: str, player_id: str, seed: dict[str, Any], *, actor: str) -> RatingSeed:
    """Add or change one player's seed, the others untouched.
    Checked by the list's system as in ``replace_seeds``; the revision keeps the earlier version."""
    rating_list = get_rating_list(session, list_id, lock=True)
    validated, errors = _system_seed(rating_list, {**seed, "player_id": player_id}, "/")
    if errors:
        raise InvalidInput(f"{len(errors)} seed field(s) are invalid; the seed was not changed.", errors)
    if session.get(Player, player_id) is None:
        raise NotFound(f"Player {player_id!r} does not exist.")
    earlier = session.get(RatingSeed, (list_id, player_id))
    previous = None if earlier is None else _seed_version(earlier)
    values = {"title": None, "counters": None, **validated}
    if earlier is None:
        session.add(RatingSeed(list_id=list_id, **values))
    else:
        for name, value in values.items():
            setattr(earlier, name, value)
    session.flush()
    stored = session.get(RatingSeed, (list_id, player_id))
    assert stored is not None  # just written
    what = "added" if earlier is None else "changed"
    summary = f"seed of {player_id} {what}: rating {_number(stored.rating)} as of {stored.as_of}"
    _record_list_change(session, rating_list, revisions.SEEDS_CHANGED, actor, summary, {"seeds": [previous] if previous else []})
    return stored


def delete_seed(session: Session, list_id: str, player_id: str, *, actor: str) -> None:
    """Remove one player's seed; the revision keeps it."""
    rating_list = get_rating_list(session, list_id, lock=True)
    earlier = session.get(RatingSeed, (list_id, player_id))
    if earlier is None:
        raise NotFound(f"Rating list {list_id!r} has no seed for player {player_id!r}.")
    previous = _seed_version(earlier)
    session.delete(earlier)
    session.flush()
    summary = f"seed of {player_id} removed: it was rating {_number(earlier.rating)} as of {earlier.as_of}"
    _record_list_change(session, rating_list, revisions.SEEDS_CHANGED, actor, summary, {"seeds": [previous]})


def _system_seed(rating_list: RatingList, seed: dict[str, Any], pointer: str) -> tuple[dict[str, Any], list[FieldError]]:
    """The list's system's reading of one seed (its defaults, e.g. the status, filled in), or what it
    refuses, each with its pointer under ``pointer``."""
    system = system_of(rating_list)
    if system.seed_model is None:
        raise InvalidInput(
            f"Rating list {rating_list.id!r} uses {rating_list.system}, which starts from no seed ratings.",
            [FieldError(pointer.rstrip("/") or "", f"{rating_list.system} lists take no seed ratings")],
        )
    try:
        return system.seed_model.model_validate(seed).model_dump(), []
    except ValidationError as error:
        return {}, [FieldError(pointer + "/".join(str(p) for p in e["loc"]), e["msg"]) for e in error.errors()]


def _number(rating: float) -> str:
    return f"{rating:g}" if float(rating).is_integer() else f"{rating}"


def get_seeds(session: Session, list_id: str) -> list[RatingSeed]:
    get_rating_list(session, list_id)
    return list(session.scalars(select(RatingSeed).where(RatingSeed.list_id == list_id).order_by(RatingSeed.player_id)))


def _stored_ratings(
    session: Session,
    snapshot_id: int,
    *,
    country: str | None,
    status: str,
    limit: int,
    offset: int,
    gender: str | None = None,
    played_after: dt.date | None = None,
) -> tuple[list[RatingRowRead], int]:
    """A page of the stored entries in the list's order, which their stored positions keep (over the
    list, and within a status: ``app.snapshots.entry_positions``). Unfiltered but for the status, the
    page is a range of (snapshot, [status,] position), its total the snapshot's count of that status;
    other filters walk the same index in order until the page is full."""
    position = RatingEntry.position if status == "all" else RatingEntry.status_position
    conditions = [RatingEntry.snapshot_id == snapshot_id]
    if status != "all":
        conditions.append(RatingEntry.status == status)
    filtered = list(conditions)
    if country:
        filtered.append(Player.country == country)
    if gender:
        filtered.append(Player.gender == gender)
    if played_after is not None:
        filtered.append(RatingEntry.last_played > played_after)
    if len(filtered) == len(conditions):
        # The last position is the count, one index seek away (a count walks every entry).
        total = session.scalar(select(func.max(position)).where(*conditions)) or 0
    else:
        counted = select(func.count()).select_from(RatingEntry)
        if country or gender:
            counted = counted.join(Player, Player.id == RatingEntry.player_id)
        total = session.scalar(counted.where(*filtered)) or 0
    page = (
        select(
            RatingEntry.player_id,
            Player.name,
            Player.surname,
            Player.country,
            RatingEntry.rating,
            RatingEntry.deviation,
            RatingEntry.games,
            _AS_TEXT_LAST_PLAYED,
            RatingEntry.status,
            RatingEntry.title,
            _AS_TEXT_COUNTERS,
        )
        .join(Player, Player.id == RatingEntry.player_id)
        .order_by(position)
        .limit(limit)
    )
    if len(filtered) == len(conditions):
        # Positions run 1, 2, 3 ... without a gap: the page starts after the offset's position.
        rows = session.connection().execute(page.where(*conditions, position > offset))
    else:
        rows = session.connection().execute(page.where(*filtered).offset(offset))
    return _ROWS.validate_python(
        [
            dict(zip(_ROW_FIELDS, (rank, player_id, full_name(name, surname), *rest, _decoded(counters))))
            for rank, (player_id, name, surname, *rest, counters) in enumerate(rows, start=offset + 1)
        ]
    ), total


# A page's days and counters are read as their stored text: pydantic-core parses the ISO days, and
# the counters are decoded only where there are any. A list without counters (WHR) stores a JSON
# null in every entry, which SQLAlchemy's JSON type decoded one by one: 5 ms of a 500-row page's 18.
_AS_TEXT_LAST_PLAYED = cast(RatingEntry.last_played, String).label("last_played")
_AS_TEXT_COUNTERS = cast(RatingEntry.counters, Text).label("counters")


def _decoded(counters: str | None) -> Any:
    return None if counters is None or counters == "null" else json.loads(counters)


def _ratings_as_of(
    session: Session,
    snapshot: RatingSnapshot,
    *,
    system: RatingSystem[Any, Any],
    as_of: dt.date,
    country: str | None,
    status: str,
    limit: int,
    offset: int,
    gender: str | None = None,
    played_after: dt.date | None = None,
) -> tuple[list[RatingRowRead], int]:
    """A page of the list as it stood on ``as_of``: each player's last stored point on or before the
    date (and the next one) from the snapshot's timeline, read by the system's ``standings_on``;
    ranked as the stored list is (rating, then player id), rows built for the page alone."""
    timeline = timelines.timeline_of(session, snapshot)
    players, held = timeline.held_on(as_of)
    standings = system.standings_on(held, as_of, system.params(snapshot.params))
    selected = np.ones(len(players), dtype=bool)
    if status != "all":
        selected &= standings.status == status
    # The country and gender are the players' as stored now, as the page's names are.
    for attribute, wanted in ((Player.country, country), (Player.gender, gender)):
        if wanted:
            having = set(session.scalars(select(Player.id).where(attribute == wanted)))
            selected &= np.array([timeline.player_ids[p] in having for p in players.tolist()], dtype=bool)
    if played_after is not None:
        selected &= standings.last_played > played_after.toordinal()
    chosen = np.flatnonzero(selected)
    page = chosen[_best_first(-standings.rating[chosen], offset + limit)[offset:]]
    ids = [timeline.player_ids[p] for p in players[page].tolist()]
    people = {
        player_id: (full_name(name, surname), player_country)
        for player_id, name, surname, player_country in select_rows_by_key(
            session, Player.__table__, ("id", "name", "surname", "country"), "id", ids
        )
    }
    columns = zip(
        range(offset + 1, offset + 1 + len(page)),
        ids,
        [people.get(player_id, (None, None))[0] for player_id in ids],
        [people.get(player_id, (None, None))[1] for player_id in ids],
        standings.rating[page].tolist(),
        [None if math.isnan(d) else d for d in standings.deviation[page].tolist()],
        standings.games[page].tolist(),
        [None if day == NO_DAY else dt.date.fromordinal(day) for day in standings.last_played[page].tolist()],
        [str(s) for s in standings.status[page].tolist()],
        standings.title[page].tolist(),
        standings.counters[page].tolist(),
    )
    return _ROWS.validate_python([dict(zip(_ROW_FIELDS, row)) for row in columns]), len(chosen)


def _best_first(lower_first: np.ndarray, count: int) -> np.ndarray:
    """The places of the ``count`` lowest values, lowest first, equal values by place (the list's order:
    rating, then player id, the players being numbered by id): as a stable sort of all of them, but
    only the values up to the ``count``-th lowest are sorted (a page of a list of tens of thousands)."""
    if count < len(lower_first):
        threshold = np.partition(lower_first, count - 1)[count - 1]
        if not np.isnan(threshold):
            # Every value equal to the threshold is kept: which of them make the page is their places'.
            candidates = np.flatnonzero(lower_first <= threshold)
            return candidates[np.argsort(lower_first[candidates], kind="stable")[:count]]
    return np.argsort(lower_first, kind="stable")[:count]


_ROW_FIELDS = (
    "rank",
    "player_id",
    "name",
    "country",
    "rating",
    "deviation",
    "games",
    "last_played",
    "status",
    "title",
    "counters",
)
_ROWS = TypeAdapter(list[RatingRowRead])  # one validation of the page's rows, in pydantic-core


def _record_list_change(
    session: Session, rating_list: RatingList, kind: str, actor: str, summary: str, previous: dict[str, Any]
) -> None:
    revisions.record(
        session,
        subject=revisions.RATING_LIST,
        subject_id=rating_list.id,
        list_id=rating_list.id,
        kind=kind,
        actor=actor,
        summary=summary,
        previous=json.loads(json.dumps(previous, default=str)),
    )


def _seed_version(seed: RatingSeed) -> dict[str, Any]:
    return {column.name: getattr(seed, column.name) for column in RatingSeed.__table__.columns if column.name != "list_id"}
