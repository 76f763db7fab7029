"""Reading rating lists: their configuration, snapshots, ratings (also as of any date, answered
from the snapshot's stored histories) and players' chart series; and the Elo lists' seeds."""

import datetime as dt
import hashlib
import json

import numpy as np
from sqlalchemy import delete, func, insert, select
from sqlalchemy.orm import Session

from app.models import Player, RatingEntry, RatingList, RatingSeed, RatingSnapshot
from app.problems import FieldError, InvalidInput, NotFound
from app.rating import whr
from app.schemas.rating_lists import RatingRowRead

STATUSES = ("active", "inactive", "provisional")


def list_rating_lists(session: Session) -> list[RatingList]:
    return list(session.scalars(select(RatingList).order_by(RatingList.id)))


def get_rating_list(session: Session, list_id: str) -> RatingList:
    rating_list = session.get(RatingList, list_id)
    if rating_list is None:
        raise NotFound(f"Rating list {list_id!r} does not exist; GET /v1/rating-lists shows the lists.")
    return rating_list


def update_params(session: Session, list_id: str, params: dict) -> RatingList:
    rating_list = get_rating_list(session, list_id)
    rating_list.params = {**(rating_list.params or {}), **params}
    session.flush()
    return rating_list


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
        select(RatingSnapshot).where(RatingSnapshot.list_id == list_id).order_by(RatingSnapshot.id.desc()).limit(limit).offset(offset)
    )
    return list(snapshots), total


def list_etag(snapshot: RatingSnapshot | None, query: dict) -> str:
    """Changes whenever the list's snapshot or the query changes."""
    key = json.dumps({"snapshot": snapshot.id if snapshot else None, **query}, sort_keys=True, default=str)
    return 'W/"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'


def ratings(
    session: Session,
    snapshot: RatingSnapshot | None,
    *,
    system: str,
    w2: float | None,
    as_of: dt.date | None,
    country: str | None,
    status: str,
    limit: int,
    offset: int,
) -> tuple[list[RatingRowRead], int]:
    if snapshot is None:
        return [], 0
    if as_of is None:
        return _stored_ratings(session, snapshot.id, country=country, status=status, limit=limit, offset=offset)
    rows = _ratings_as_of(session, snapshot.id, system=system, w2=w2, as_of=as_of, country=country)
    if status != "all":
        rows = [row for row in rows if row.status == status]
    rows.sort(key=lambda row: (-row.rating, row.player_id))
    page = rows[offset : offset + limit]
    return [row.model_copy(update={"rank": offset + i + 1}) for i, row in enumerate(page)], len(rows)


def player_history(session: Session, player_id: str, list_id: str) -> list[dict]:
    if session.get(Player, player_id) is None:
        raise NotFound(f"Player {player_id!r} does not exist.")
    snapshot = get_snapshot(session, list_id, None)
    if snapshot is None:
        return []
    history = session.scalar(
        select(RatingEntry.history).where(RatingEntry.snapshot_id == snapshot.id, RatingEntry.player_id == player_id)
    )
    if history is None:
        return []
    return [
        {"date": d, "rating": r, "deviation": s, "games": n}
        for d, r, s, n in zip(history["date"], history["rating"], history["deviation"], history["games"])
    ]


def replace_seeds(session: Session, list_id: str, seeds: list[dict]) -> list[RatingSeed]:
    rating_list = get_rating_list(session, list_id)
    if rating_list.system != "rif-elo":
        raise InvalidInput(
            f"Rating list {list_id!r} uses {rating_list.system}, which starts from no seed ratings.",
            [FieldError("/seeds", "only Elo lists take seed ratings")],
        )
    ids = [seed["player_id"] for seed in seeds]
    known = set(session.scalars(select(Player.id).where(Player.id.in_(ids)))) if ids else set()
    errors = [
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
    session.execute(delete(RatingSeed).where(RatingSeed.list_id == list_id))
    if seeds:
        session.execute(insert(RatingSeed), [{**seed, "list_id": list_id} for seed in seeds])
    return get_seeds(session, list_id)


def get_seeds(session: Session, list_id: str) -> list[RatingSeed]:
    get_rating_list(session, list_id)
    return list(session.scalars(select(RatingSeed).where(RatingSeed.list_id == list_id).order_by(RatingSeed.player_id)))


def _stored_ratings(
    session: Session, snapshot_id: int, *, country: str | None, status: str, limit: int, offset: int
) -> tuple[list[RatingRowRead], int]:
    conditions = [RatingEntry.snapshot_id == snapshot_id]
    if status != "all":
        conditions.append(RatingEntry.status == status)
    if country:
        conditions.append(Player.country == country)
    base = select(RatingEntry, Player.name, Player.surname, Player.country).join(Player, Player.id == RatingEntry.player_id)
    total = session.scalar(
        select(func.count()).select_from(RatingEntry).join(Player, Player.id == RatingEntry.player_id).where(*conditions)
    ) or 0
    rows = session.execute(
        base.where(*conditions).order_by(RatingEntry.rating.desc(), RatingEntry.player_id).limit(limit).offset(offset)
    ).all()
    return [
        RatingRowRead(
            rank=offset + i + 1,
            player_id=entry.player_id,
            name=_display_name(name, surname),
            country=player_country,
            rating=entry.rating,
            deviation=entry.deviation,
            games=entry.games,
            last_played=entry.last_played,
            status=entry.status,
        )
        for i, (entry, name, surname, player_country) in enumerate(rows)
    ], total


def _ratings_as_of(
    session: Session, snapshot_id: int, *, system: str, w2: float | None, as_of: dt.date, country: str | None
) -> list[RatingRowRead]:
    from app.services.recompute import elo_list_status, ordinal_days

    conditions = [RatingEntry.snapshot_id == snapshot_id]
    if country:
        conditions.append(Player.country == country)
    rows = session.execute(
        select(RatingEntry.player_id, RatingEntry.history, Player.name, Player.surname, Player.country)
        .join(Player, Player.id == RatingEntry.player_id)
        .where(*conditions)
    ).all()
    day = as_of.toordinal()
    out: list[RatingRowRead] = []
    if system == "rif-whr":
        # Rebuild the snapshot's fit from its stored series, and read it on the day (INTERPRETATIONS 3.6).
        lengths = [len(r.history["date"]) for r in rows]
        if not rows or sum(lengths) == 0:
            return []
        fitted = whr.WhrFit(
            player=np.repeat(np.arange(len(rows)), lengths),
            day=np.concatenate([ordinal_days(r.history["date"]) for r in rows]),
            rating=np.concatenate([np.asarray(r.history["rating"], dtype=float) for r in rows]),
            deviation=np.concatenate([np.asarray(r.history["deviation"], dtype=float) for r in rows]),
            games=np.concatenate([np.asarray(r.history["games"], dtype=np.int64) for r in rows]),
        )
        players, rating, deviation = whr.ratings_on(fitted, day, w2 or whr.WhrParams().w2)
        _, games, last_day = whr.games_on(fitted, day)
        statuses = whr.statuses_on(games, last_day, day)
        for p, r, s, n, last, status in zip(players.tolist(), rating.tolist(), deviation.tolist(), games.tolist(), last_day.tolist(), statuses.tolist()):
            row = rows[p]
            out.append(
                RatingRowRead(
                    rank=0,
                    player_id=row.player_id,
                    name=_display_name(row.name, row.surname),
                    country=row.country,
                    rating=r,
                    deviation=s,
                    games=n,
                    last_played=dt.date.fromordinal(last),
                    status=str(status),
                )
            )
        return out
    # Elo lists: a rating holds from its date on.
    cutoff = whr.active_cutoff(as_of)
    for row in rows:
        dates = row.history["date"]
        position = int(np.searchsorted(np.asarray(dates, dtype="datetime64[D]"), np.datetime64(as_of), side="right")) - 1 if dates else -1
        if position < 0:
            continue
        last_played = dt.date.fromisoformat(dates[position])
        engine_status = row.history.get("status", ["established"] * len(dates))[position]
        out.append(
            RatingRowRead(
                rank=0,
                player_id=row.player_id,
                name=_display_name(row.name, row.surname),
                country=row.country,
                rating=float(row.history["rating"][position]),
                deviation=None,
                games=int(row.history["games"][position]),
                last_played=last_played,
                status=elo_list_status(engine_status, last_played, cutoff),
            )
        )
    return out


def _display_name(name: str | None, surname: str | None) -> str | None:
    full = " ".join(part for part in (name, surname) if part)
    return full or None
