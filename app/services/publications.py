"""Publications: a rating list as an officer (or the list's schedule) publishes it on a date.

A publication is numbered per list from 1 and never changes. Its rows are the list of its snapshot
as of its date (every player with a point on or before it, read from the snapshot's timeline as
``as_of`` reads are) and are *copied* into ``publication_entries``, with the player's name and
country as they were: a publication reads the same forever, whatever is corrected, recomputed or
renamed later (docs/decisions.md 7.22). Its snapshot is kept too (a foreign key), for ``verify``.

Each row carries the player's rating and place in the previous publication and the change, or a
marker instead of a number: ``new`` (no row in the previous publication), ``returned`` (inactive
there, not now). A player's *place* is his rank among the publication's players of his status,
which is what a reader of that list (status=active by default) saw. The publication names who left
since the previous one and why: an open set of reasons (``DEPARTURE_REASONS``: ``tournament_withdrawn``,
``not_on_list``, ``became_inactive``, ``merged``). The live list carries the same columns against the
latest publication (``compare_rows``).

A list may declare days of the year (``publication_days``, "MM-DD"); the worker publishes each
such day once, as of that day, from the current snapshot (``publish_scheduled``), up to
``CATCH_UP`` days late. Publishing takes the list's row lock and the unique (list, scheduled day)
settles two workers racing: exactly one publication."""

import datetime as dt
import hashlib
import logging
import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sqlalchemy import func, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.db import session_scope
from app.models import Player, Publication, PublicationEntry, RatingList, RatingSnapshot, Tournament
from app.problems import Conflict, FieldError, InvalidInput, NotFound
from app.rating.rounding import change_as_shown
from app.rating.system import NO_DAY, RatingSystem
from app.schemas.rating_lists import Change, RatingRowRead
from app.services import revisions
from app.services.rating_lists import get_rating_list, system_of
from app.snapshots import timelines
from app.snapshots.timelines import Timeline

log = logging.getLogger("app.publications")

NEW, RETURNED = "new", "returned"
BECAME_INACTIVE, NOT_ON_LIST, TOURNAMENT_WITHDRAWN = "became_inactive", "not_on_list", "tournament_withdrawn"
MERGED = "merged"
SCHEDULE_ACTOR = "schedule"
# A scheduled day is published by the first worker loop on or after it, at most this late.
CATCH_UP = dt.timedelta(days=14)
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")  # fmt: skip


@dataclass(frozen=True)
class Previous:
    """A player's row in the publication compared with."""

    rating: float
    place: int
    status: str


def today() -> dt.date:
    return dt.datetime.now(dt.UTC).date()


def publish(
    session: Session,
    list_id: str,
    *,
    date: dt.date,
    title: str,
    snapshot_id: int | None,
    actor: str,
    scheduled_for: dt.date | None = None,
    on: dt.date | None = None,
) -> Publication | None:
    """Publish the list (its current snapshot, or ``snapshot_id``) as of ``date``: the next number,
    its rows compared with the previous publication, a revision ``published``. ``scheduled_for``:
    a worker's publication of that scheduled day, None (nothing done) when it exists already or a
    publication on or after that day was made by hand. ``on``: today (tests)."""
    rating_list = get_rating_list(session, list_id, lock=True)
    now = on or today()
    latest = latest_publication(session, list_id)
    if scheduled_for is not None and (
        (latest is not None and latest.date >= scheduled_for)
        or session.scalar(
            select(Publication.id).where(Publication.list_id == list_id, Publication.scheduled_for == scheduled_for)
        )
    ):
        return None
    errors = []
    if date > now:
        errors.append(FieldError("/date", f"{date} is in the future (today is {now}); a list is published as of a past day"))
    if latest is not None and date < latest.date:
        errors.append(
            FieldError("/date", f"before publication {latest.number}'s date ({latest.date}); publications follow each other")
        )
    wanted = snapshot_id if snapshot_id is not None else rating_list.current_snapshot_id
    snapshot = session.get(RatingSnapshot, wanted) if wanted is not None else None
    if snapshot_id is not None and (snapshot is None or snapshot.list_id != list_id):
        errors.append(FieldError("/snapshot_id", f"rating list {list_id!r} has no snapshot {snapshot_id}"))
    if errors:
        raise InvalidInput(f"Rating list {list_id!r} was not published: {errors[0].detail}.", errors)
    if snapshot is None:
        raise Conflict(f"Rating list {list_id!r} has no snapshot to publish yet: recompute it first.")
    system = system_of(rating_list)
    rows = rows_from_timeline(session, timelines.timeline_of(session, snapshot), system, snapshot.params, date)
    previous = _previous_rows(session, latest) if latest is not None else None
    entries, departing = _compared(rows, previous)
    left = departures(session, latest, departing) if latest is not None else []
    publication = Publication(
        list_id=list_id,
        number=(latest.number if latest is not None else 0) + 1,
        date=date,
        title=title,
        snapshot_id=snapshot.id,
        previous_number=latest.number if latest is not None else None,
        scheduled_for=scheduled_for,
        actor=actor,
        players=len(entries),
        departures=left,
    )
    session.add(publication)
    session.flush()
    if entries:
        session.execute(insert(PublicationEntry), [{**entry, "publication_id": publication.id} for entry in entries])
    revisions.record(
        session,
        subject=revisions.RATING_LIST,
        subject_id=list_id,
        list_id=list_id,
        kind=revisions.PUBLISHED,
        actor=actor,
        summary=f"published no. {publication.number} {title!r} as of {date} from snapshot {snapshot.id}: "
        f"{len(entries)} players, {len(left)} left since "
        + (f"no. {latest.number}" if latest is not None else "none before")
        + (f" (scheduled for {scheduled_for})" if scheduled_for is not None else ""),
        previous=None,
    )
    return publication


def rows_from_timeline(
    session: Session, timeline: Timeline, system: RatingSystem[Any, Any], params: dict[str, Any] | None, day: dt.date
) -> list[dict[str, Any]]:
    """Every player of the timeline with a point on or before ``day``, best first (rating, then
    player id in code-point order), as the list ``as_of`` that day shows them, with his place
    among the players of his status."""
    players, held = timeline.held_on(day)
    standings = system.standings_on(held, day, system.params(params))
    names, countries = timeline.people(session)
    order = np.lexsort((players, -standings.rating))
    places: Counter[str] = Counter()
    rows = []
    for position, i in enumerate(order.tolist(), start=1):
        player = int(players[i])
        status = str(standings.status[i])
        places[status] += 1
        deviation = float(standings.deviation[i])
        last_played = int(standings.last_played[i])
        rows.append(
            {
                "position": position,
                "player_id": timeline.player_ids[player],
                "name": names[player],
                "country": countries[player],
                "rating": float(standings.rating[i]),
                "deviation": None if math.isnan(deviation) else deviation,
                "games": int(standings.games[i]),
                "last_played": None if last_played == NO_DAY else dt.date.fromordinal(last_played),
                "status": status,
                "title": standings.title[i],
                "counters": standings.counters[i],
                "place": places[status],
            }
        )
    return rows


def comparison(rating: float, status: str, previous: Previous | None, compared: bool) -> dict[str, Any]:
    """previous_rating, previous_place, change and marker of a row against the publication compared
    with (``compared``: there is one)."""
    if not compared:
        return {"previous_rating": None, "previous_place": None, "change": None, "marker": None}
    if previous is None:
        return {"previous_rating": None, "previous_place": None, "change": None, "marker": NEW}
    returned = previous.status == "inactive" and status != "inactive"
    return {
        "previous_rating": previous.rating,
        "previous_place": previous.place,
        "change": None if returned else rating - previous.rating,
        "marker": RETURNED if returned else None,
    }


@dataclass(frozen=True)
class Departing:
    """A player of the previous publication with no row now, or inactive now after not being so."""

    player_id: str
    before: dict[str, Any]  # his row in the previous publication
    after: dict[str, Any] | None  # his row now, None without one


def _compared(
    rows: list[dict[str, Any]], previous: dict[str, dict[str, Any]] | None
) -> tuple[list[dict[str, Any]], list[Departing]]:
    """The rows with their comparison, and the players of the previous publication who left it."""
    entries = []
    for row in rows:
        before = previous.get(row["player_id"]) if previous is not None else None
        known = Previous(before["rating"], before["place"], before["status"]) if before is not None else None
        entries.append({**row, **comparison(row["rating"], row["status"], known, previous is not None)})
    departing = []
    if previous is not None:
        now = {row["player_id"]: row for row in rows}
        for player_id, before in previous.items():
            after = now.get(player_id)
            if after is None or (before["status"] != "inactive" and after["status"] == "inactive"):
                departing.append(Departing(player_id, before, after))
    return entries, departing


# --- who left, and why ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Reason:
    code: str
    detail: str
    tournaments: list[dict[str, Any]] = field(default_factory=list)  # the tournaments it names, if any


class DepartureFacts:
    """What the reasons read beyond the two publications' rows, looked up only when a reason asks
    (most publications have few or no departures)."""

    def __init__(self, session: Session, previous: Publication) -> None:
        self.session, self.previous = session, previous

    def merged_into(self, player_id: str) -> str | None:
        player = self.session.get(Player, player_id)
        return player.merged_into if player is not None else None

    def withdrawn_tournaments(self, player_id: str) -> list[dict[str, Any]] | None:
        """The tournaments of his rated games in the previous publication when every one of them
        has been withdrawn (by end, start and id); None when any of them still stands."""
        snapshot = self.session.get(RatingSnapshot, self.previous.snapshot_id)
        assert snapshot is not None  # a publication's snapshot is kept (a foreign key)
        history = timelines.timeline_of(self.session, snapshot).history(player_id)
        played = {t for point in history if point["date"] <= self.previous.date for t in point["tournament_ids"]}
        if not played:
            return None
        found = self.session.scalars(select(Tournament).where(Tournament.id.in_(sorted(played)))).all()
        if len(found) != len(played) or any(t.withdrawn_at is None for t in found):
            return None
        return [
            {"tournament_id": t.id, "name": t.name, "withdrawn_reason": t.withdrawn_reason}
            for t in sorted(found, key=lambda t: (t.end, t.start, t.id))
        ]


def merged(departing: Departing, facts: DepartureFacts) -> Reason | None:
    """His record was merged into another player's (issue 24 item 2): his games are that player's now."""
    if departing.after is not None:
        return None
    into = facts.merged_into(departing.player_id)
    if into is None:
        return None
    return Reason(MERGED, f"merged into player {into}: his games and rating are that player's now")


def tournament_withdrawn(departing: Departing, facts: DepartureFacts) -> Reason | None:
    if departing.after is not None:
        return None
    withdrawn = facts.withdrawn_tournaments(departing.player_id)
    if withdrawn is None:
        return None
    names = ", ".join(f"{t['tournament_id']} ({t['name']})" for t in withdrawn)
    return Reason(
        TOURNAMENT_WITHDRAWN,
        f"no longer on the list: his only rated games were in tournaments withdrawn since: {names}",
        withdrawn,
    )


def not_on_list(departing: Departing, facts: DepartureFacts) -> Reason | None:
    if departing.after is not None:
        return None
    return Reason(NOT_ON_LIST, "no longer on the list: none of his rated games counts any more")


def became_inactive(departing: Departing, facts: DepartureFacts) -> Reason | None:
    return Reason(BECAME_INACTIVE, "became inactive: no rated game in the period the list's rules allow")


# Asked in this order; the first that applies is the departure's reason. A new reason is one function
# here and one code in the schema's description.
DEPARTURE_REASONS: tuple[Callable[[Departing, DepartureFacts], Reason | None], ...] = (
    merged,
    tournament_withdrawn,
    not_on_list,
    became_inactive,
)


def departures(session: Session, previous: Publication, departing: list[Departing]) -> list[dict[str, Any]]:
    """Who left since the previous publication, each with the first of ``DEPARTURE_REASONS`` that applies."""
    facts = DepartureFacts(session, previous)
    answer = []
    for player in departing:
        reason = next(r for check in DEPARTURE_REASONS if (r := check(player, facts)) is not None)
        before = player.before
        answer.append(
            {
                "player_id": player.player_id,
                "name": before["name"],
                "country": before["country"],
                "previous_rating": before["rating"],
                "previous_place": before["place"],
                "previous_status": before["status"],
                "reason": reason.code,
                "detail": reason.detail,
                "tournaments": reason.tournaments,
            }
        )
    return answer


def _previous_rows(session: Session, publication: Publication) -> dict[str, dict[str, Any]]:
    columns = (PublicationEntry.player_id, PublicationEntry.name, PublicationEntry.country, PublicationEntry.rating)
    rows = session.execute(
        select(*columns, PublicationEntry.place, PublicationEntry.status)
        .where(PublicationEntry.publication_id == publication.id)
        .order_by(PublicationEntry.position)
    )
    return {
        player_id: {"name": name, "country": country, "rating": rating, "place": place, "status": status}
        for player_id, name, country, rating, place, status in rows
    }


def latest_publication(session: Session, list_id: str) -> Publication | None:
    return session.scalar(select(Publication).where(Publication.list_id == list_id).order_by(Publication.number.desc()).limit(1))


def published_row(session: Session, publication: Publication, player_id: str) -> Previous | None:
    """The player's row in the publication (his rating, place and status there), if he has one."""
    found = session.execute(
        select(PublicationEntry.rating, PublicationEntry.place, PublicationEntry.status).where(
            PublicationEntry.publication_id == publication.id, PublicationEntry.player_id == player_id
        )
    ).first()
    return Previous(*found) if found else None


def list_publications(session: Session, list_id: str, limit: int, offset: int) -> tuple[list[Publication], int]:
    """The list's publications, the latest first."""
    get_rating_list(session, list_id)
    total = session.scalar(select(func.count()).select_from(Publication).where(Publication.list_id == list_id)) or 0
    rows = session.scalars(
        select(Publication).where(Publication.list_id == list_id).order_by(Publication.number.desc()).limit(limit).offset(offset)
    )
    return list(rows), total


def get_publication(session: Session, list_id: str, number: int) -> Publication:
    get_rating_list(session, list_id)
    publication = session.scalar(select(Publication).where(Publication.list_id == list_id, Publication.number == number))
    if publication is None:
        raise NotFound(
            f"Rating list {list_id!r} has no publication {number}; GET /v1/rating-lists/{list_id}/publications lists them.",
            [FieldError("path:number", f"no publication {number} of {list_id!r}")],
        )
    return publication


def publication_rows(
    session: Session, publication: Publication, *, country: str | None, status: str, limit: int, offset: int
) -> tuple[list[RatingRowRead], int]:
    """A page of the publication's stored rows, as the live list pages its own (rank over the
    players the query selects)."""
    conditions = [PublicationEntry.publication_id == publication.id]
    if status != "all":
        conditions.append(PublicationEntry.status == status)
    if country:
        conditions.append(PublicationEntry.country == country)
    total = session.scalar(select(func.count()).select_from(PublicationEntry).where(*conditions)) or 0
    entries = session.scalars(
        select(PublicationEntry).where(*conditions).order_by(PublicationEntry.position).limit(limit).offset(offset)
    )
    return [row_read(rank, entry) for rank, entry in enumerate(entries, start=offset + 1)], total


def change_of(change: float | None, marker: str | None, previous: float | None = None, rating: float | None = None) -> Change:
    """A row's change as the contract shows it: the marker instead of a number, when there is one;
    else the change as the list shows it, a whole number (``change_as_shown``, decision 145)."""
    if marker == "new":
        return "new"
    if marker == "returned":
        return "returned"
    return change_as_shown(previous, rating, change)


def row_change(change: float | None, marker: str | None, previous: float | None, rating: float) -> dict[str, Any]:
    """A row's ``change`` and ``change_unrounded``: the difference itself only beside a number."""
    shown = change_of(change, marker, previous, rating)
    return {"change": shown, "change_unrounded": change if isinstance(shown, float) else None}


def row_read(rank: int, entry: PublicationEntry) -> RatingRowRead:
    """A stored row as the live list's rows read: its columns by their names, and the two the
    publication keeps in its own terms (the previous place, the change or its marker)."""
    kept = {name: getattr(entry, name) for name in _ROW_COLUMNS}
    changes = row_change(entry.change, entry.marker, entry.previous_rating, entry.rating)
    return RatingRowRead(**kept, rank=rank, previous_rank=entry.previous_place, **changes)


_ROW_COLUMNS = [
    name for name in RatingRowRead.model_fields if name not in ("rank", "previous_rank", "change", "change_unrounded")
]


def compare_rows(session: Session, publication: Publication | None, rows: list[RatingRowRead]) -> list[RatingRowRead]:
    """The live list's rows with their standing in ``publication`` (the latest) and the change."""
    if publication is None or not rows:
        return rows
    found = session.execute(
        select(PublicationEntry.player_id, PublicationEntry.rating, PublicationEntry.place, PublicationEntry.status).where(
            PublicationEntry.publication_id == publication.id,
            PublicationEntry.player_id.in_([row.player_id for row in rows]),
        )
    )
    previous = {player_id: Previous(rating, place, status) for player_id, rating, place, status in found}
    compared = []
    for row in rows:
        fields = comparison(row.rating, row.status, previous.get(row.player_id), True)
        compared.append(
            row.model_copy(
                update={
                    "previous_rating": fields["previous_rating"],
                    "previous_rank": fields["previous_place"],
                    **row_change(fields["change"], fields["marker"], fields["previous_rating"], row.rating),
                }
            )
        )
    return compared


def publication_etag(publication: Publication, path: str, query: bytes) -> str:
    """A publication's page never changes: the publication, the path and the query name it."""
    key = f"publication {publication.id} {publication.created_at.isoformat()}\n{path}\n{query.decode('latin-1')}"
    return 'W/"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'


# --- the schedule -------------------------------------------------------------------------------


def scheduled_day(days: list[str] | None, on: dt.date) -> dt.date | None:
    """The latest of the days ("MM-DD") on or before ``on``, when at most ``CATCH_UP`` ago."""
    candidates = []
    for day in days or []:
        month, day_of_month = int(day[:2]), int(day[3:])
        for year in (on.year, on.year - 1):
            candidates.append(dt.date(year, month, day_of_month))
    due = max((d for d in candidates if d <= on), default=None)
    return due if due is not None and on - due <= CATCH_UP else None


def scheduled_title(rating_list: RatingList, day: dt.date) -> str:
    return f"{rating_list.name}, {day.day} {_MONTHS[day.month - 1]} {day.year}"


def publish_scheduled(on: dt.date | None = None) -> list[tuple[str, int]]:
    """Publish every list whose scheduled day has come and is not published yet: (list, number)
    for each publication made. Called by the worker's loop; several workers may call it at once."""
    on = on or today()
    with session_scope() as session:
        due = []
        for rating_list in session.scalars(select(RatingList).order_by(RatingList.id)):
            day = scheduled_day(rating_list.publication_days, on)
            if day is None or rating_list.current_snapshot_id is None:
                continue
            latest = latest_publication(session, rating_list.id)
            if latest is not None and latest.date >= day:
                continue  # published already (this schedule's day, or by hand on or after it)
            due.append((rating_list.id, day, scheduled_title(rating_list, day)))
    published = []
    for list_id, day, title in due:
        try:
            with session_scope() as session:
                publication = publish(
                    session, list_id, date=day, title=title, snapshot_id=None, actor=SCHEDULE_ACTOR, scheduled_for=day, on=on
                )
                number = publication.number if publication is not None else None
        except IntegrityError:
            number = None  # another worker published it between our check and our lock (the unique day)
        if number is not None:
            log.info("scheduled publication", extra={"list_id": list_id, "number": number, "date": day.isoformat()})
            published.append((list_id, number))
    return published
