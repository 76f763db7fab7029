"""Why a player's rating changed between two readings of a list (issue 22 item 4).

A reading is a snapshot of the list read as of a day: a publication (its snapshot as of its day,
which is what its rows hold), a snapshot (as of its list date) or a day (the snapshot that was the
list's current one at the end of that day, as of that day; docs/decisions.md 7.36), and a day before
the list had any snapshot is a rating day: what the list says of him that day, read from the later
reading's snapshot (or, for the later reading itself, the current one; 7.130). Between an
earlier reading (snapshot A, day a) and a later one (B, b) his rating moved from A(a) to B(b), in
two parts that add up by construction:

- the past read again, B(a) - A(a): what the later snapshot says his rating was on the earlier day,
  against what the earlier said (under WHR every new or corrected game re-estimates the past; under
  Elo only changed tournaments before that day move it);
- his new games, B(b) - B(a): the later snapshot's own moves, from B(a) through his points after a
  up to b (each a playing day with its tournaments), and, when b falls between two of his playing
  days under WHR, the pull of the games after it (the rating between playing days is interpolated).

Every number is one a client can read itself: A(a) and B(b) are the two readings' rows, B(a) the
later snapshot's list as of the earlier day, each step two of B's stored points (his history).
Beside them: the tournaments added, corrected or withdrawn between the two snapshots (their inputs
and the revisions recorded between them), his games in them and what each did to him."""

import datetime as dt
import re
from bisect import bisect_left
from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from app.models import Game, Job, Player, Publication, RatingList, RatingSnapshot, Revision, Tournament
from app.names import full_name
from app.problems import FieldError, InvalidInput, NotFound
from app.rating.system import RatingSystem, Standing
from app.schemas.common import EARLIEST_DATE, LATEST_DATE
from app.services import revisions
from app.services.publications import latest_publication, today
from app.services.rating_lists import get_rating_list, system_of
from app.settings import get_settings
from app.snapshots import snapshot_changes, timelines

CURRENT = "current"
# How a reading was found (``Reading.source``): named as a publication or a snapshot, the live list,
# the snapshot current at the end of a day, or a day before the list's first snapshot (7.130).
PUBLICATION, SNAPSHOT, CURRENT_THAT_DAY, RATING_DAY = "publication", "snapshot", "current_that_day", "rating_day"
GAMES, LATER_GAMES = "games", "later_games"
ADDED, CORRECTED, WITHDRAWN, NO_LONGER_RATED, RATED = "added", "corrected", "withdrawn", "no_longer_rated", "rated"
_REFERENCE = re.compile(r"^(publication|snapshot):([0-9]+)$")
_IDS_PER_QUERY = 500  # within every database's limit on bound parameters


@dataclass(frozen=True)
class Reading:
    """A snapshot read as of a day, and what named it."""

    reference: str
    snapshot: RatingSnapshot
    day: dt.date
    source: str
    publication: int | None = None


def explain(
    session: Session, player_id: str, list_id: str, earlier: str | None, later: str | None, *, on: dt.date | None = None
) -> dict[str, Any]:
    """The answer of ``GET /v1/players/{player_id}/changes`` (``app.schemas.rating_changes.PlayerChanges``).
    ``earlier``/``later``: the ``from``/``to`` references as given (None: the defaults); ``on``: today."""
    rating_list = _rating_list(session, list_id)
    if session.get(Player, player_id) is None:
        raise NotFound(f"Player {player_id!r} does not exist.", [FieldError("path:player_id", f"no player {player_id!r}")])
    now = on or today()
    # The later reading first: a day before the list's first snapshot is read from its snapshot (7.130).
    end = _reading(session, rating_list, later, "to", now, rating_list.current_snapshot_id)
    start = _reading(session, rating_list, earlier, "from", now, end.snapshot.id)
    system = system_of(rating_list)
    before = _standing(session, system, start.snapshot, start.day, player_id)
    after = _standing(session, system, end.snapshot, end.day, player_id)
    # One snapshot at both ends reads the earlier day as the earlier reading does: the past is not revised.
    same = start.snapshot.id == end.snapshot.id
    past_now = before if same else _standing(session, system, end.snapshot, start.day, player_id)
    history = timelines.timeline_of(session, end.snapshot).history(player_id)
    if before is None and after is None and past_now is None and not _points_between(history, start.day, end.day):
        raise NotFound(
            f"Player {player_id!r} has no rating on list {list_id!r} in either reading.",
            [FieldError("path:player_id", f"not on {list_id!r} on {start.day} nor on {end.day}")],
        )
    _check_order(start, end)
    steps = _steps(history, start.day, end.day, past_now, after)
    past_rating = past_now.rating if past_now is not None else None
    return {
        "player_id": player_id,
        "list_id": list_id,
        "system": rating_list.system,
        "from": _reading_answer(start, before),
        "to": _reading_answer(end, after),
        "change": _difference(after, before),
        "past_rating_now": past_rating,
        "past_revised": _difference(past_now, before),
        "new_games": _difference(after, past_now),
        "steps": steps,
        "tournaments": _tournaments(session, player_id, start, end, {i for step in steps for i in step["tournament_ids"]}),
        "list_changes": [_note(r) for r in _revisions_between(session, start, end, revisions.RATING_LIST, [list_id])],
    }


# --- the two readings -----------------------------------------------------------------------------


def _rating_list(session: Session, list_id: str) -> RatingList:
    try:
        return get_rating_list(session, list_id)
    except NotFound as error:
        raise NotFound(error.detail, [FieldError("query:list", f"no rating list {list_id!r}")]) from None


def _reading(
    session: Session, rating_list: RatingList, reference: str | None, name: str, now: dt.date, holder: int | None
) -> Reading:
    """What ``from`` (``name``) or ``to`` names: by default the latest publication and the current
    snapshot as of today. ``holder``: the snapshot that reads a day before the list's first one."""
    pointer = f"query:{name}"
    if reference is None and name == "from":
        latest = latest_publication(session, rating_list.id)
        if latest is None:
            raise NotFound(
                f"Rating list {rating_list.id!r} has no publication yet to explain changes since: name `from` "
                "(a snapshot or a day).",
                [FieldError(pointer, "required while the list has no publication")],
            )
        return Reading(f"publication:{latest.number}", _snapshot_of(session, latest), latest.date, PUBLICATION, latest.number)
    if reference is None:
        snapshot = _kept_snapshot(session, rating_list, rating_list.current_snapshot_id, pointer, "current")
        return Reading(CURRENT, snapshot, max(now, snapshot.list_date), CURRENT)
    matched = _REFERENCE.fullmatch(reference)
    if matched is not None and matched.group(1) == "publication":
        number = int(matched.group(2))
        publication = session.scalar(
            select(Publication).where(Publication.list_id == rating_list.id, Publication.number == number)
        )
        if publication is None:
            raise NotFound(
                f"Rating list {rating_list.id!r} has no publication {number}; GET /v1/rating-lists/{rating_list.id}/publications "
                "lists them.",
                [FieldError(pointer, f"no publication {number} of {rating_list.id!r}")],
            )
        return Reading(reference, _snapshot_of(session, publication), publication.date, PUBLICATION, number)
    if matched is not None:
        snapshot = _kept_snapshot(session, rating_list, int(matched.group(2)), pointer, reference)
        return Reading(reference, snapshot, snapshot.list_date, SNAPSHOT)
    day = _day(reference, pointer)
    that_day = _current_at_end_of(session, rating_list, day, pointer)
    if that_day is not None:
        return Reading(reference, that_day, day, CURRENT_THAT_DAY)
    # The list said nothing on that day (its history was rated after it): the day is a rating day,
    # what the later reading says of him then, so that the past is not "revised" by a list that did not
    # exist; the later reading's own such day reads the current snapshot, as the list `as_of` it does.
    snapshot = _kept_snapshot(session, rating_list, holder, pointer, f"the one that reads {day}")
    return Reading(reference, snapshot, day, RATING_DAY)


def _snapshot_of(session: Session, publication: Publication) -> RatingSnapshot:
    """A publication's snapshot: kept as long as the publication (a foreign key the pruner cannot break)."""
    snapshot = session.get(RatingSnapshot, publication.snapshot_id)
    assert snapshot is not None
    return snapshot


def _kept_snapshot(
    session: Session, rating_list: RatingList, snapshot_id: int | None, pointer: str, named: str
) -> RatingSnapshot:
    if snapshot_id is None:
        raise NotFound(
            f"Rating list {rating_list.id!r} has never been computed: there is no snapshot to read.",
            [FieldError(pointer, "the list has no snapshot yet")],
        )
    snapshot = session.get(RatingSnapshot, snapshot_id)
    if snapshot is not None and snapshot.list_id != rating_list.id:
        raise NotFound(
            f"Snapshot {snapshot_id} is a snapshot of rating list {snapshot.list_id!r}, not of {rating_list.id!r}.",
            [FieldError(pointer, f"snapshot {snapshot_id} belongs to {snapshot.list_id!r}")],
        )
    if snapshot is None:
        keep = get_settings().keep_snapshots
        raise NotFound(
            f"Snapshot {snapshot_id} ({named}) is not kept: a list keeps its latest {keep} snapshots, its current one and "
            "every published one, and prunes the others (or it never existed). A publication is kept for good: name one "
            f"(`publication:N`, GET /v1/rating-lists/{rating_list.id}/publications).",
            [FieldError(pointer, f"snapshot {snapshot_id} is not kept (pruned, or never one)")],
        )
    return snapshot


def _day(reference: str, pointer: str) -> dt.date:
    try:
        day = dt.date.fromisoformat(reference)
    except ValueError:
        day = None
    if day is None or not EARLIEST_DATE <= day <= LATEST_DATE or len(reference) != 10:
        raise InvalidInput(
            f"{reference!r} names no publication, snapshot or day: write publication:N, snapshot:N or YYYY-MM-DD.",
            [FieldError(pointer, "publication:N, snapshot:N or a day YYYY-MM-DD from 1900 to 2199")],
        )
    return day


def _current_at_end_of(session: Session, rating_list: RatingList, day: dt.date, pointer: str) -> RatingSnapshot | None:
    """The snapshot that was the list's current one at the end of ``day`` (UTC): the one its last
    recompute finished by then wrote (every snapshot is a recompute job's, and jobs are kept). For
    a day to come, the current one: the latest known. None before the list's first snapshot."""
    end = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)
    snapshot_id = session.scalar(
        select(Job.snapshot_id)
        .where(Job.list_id == rating_list.id, Job.snapshot_id.is_not(None), Job.finished_at < end)
        .order_by(Job.finished_at.desc(), Job.id.desc())
        .limit(1)
    )
    if snapshot_id is None:
        return None
    return _kept_snapshot(session, rating_list, snapshot_id, pointer, f"the current one on {day}")


def _check_order(start: Reading, end: Reading) -> None:
    errors = []
    if start.day > end.day:
        errors.append(FieldError("query:from", f"its day {start.day} is after the `to` day {end.day}"))
    if start.snapshot.id > end.snapshot.id:
        errors.append(
            FieldError("query:from", f"its snapshot {start.snapshot.id} is newer than the `to` snapshot {end.snapshot.id}")
        )
    if errors:
        raise InvalidInput(f"`from` is after `to`: {errors[0].detail}.", errors)


def _standing(
    session: Session, system: RatingSystem[Any, Any], snapshot: RatingSnapshot, day: dt.date, player_id: str
) -> Standing | None:
    """His line of the list as of ``day`` under ``snapshot``, as the list ``as_of`` that day (and a
    publication's rows) read it; None without a point on or before that day."""
    timeline = timelines.timeline_of(session, snapshot)
    number = bisect_left(timeline.player_ids, player_id)
    if number == len(timeline.player_ids) or timeline.player_ids[number] != player_id:
        return None
    players, held = timeline.held_on(day, np.array([number], dtype=np.int64))
    if len(players) == 0:
        return None
    return system.standings_on(held, day, system.params(snapshot.params)).at(0)


def _reading_answer(reading: Reading, standing: Standing | None) -> dict[str, Any]:
    return {
        "reference": reading.reference,
        "source": reading.source,
        "publication": reading.publication,
        "snapshot_id": reading.snapshot.id,
        "date": reading.day,
        "rating": standing.rating if standing is not None else None,
        "status": standing.status if standing is not None else None,
        "games": standing.games if standing is not None else None,
    }


def _difference(later: Standing | None, earlier: Standing | None) -> float | None:
    return later.rating - earlier.rating if later is not None and earlier is not None else None


# --- the later snapshot's moves between the two days ----------------------------------------------


def _points_between(history: list[dict[str, Any]], start: dt.date, end: dt.date) -> list[dict[str, Any]]:
    return [point for point in history if start < point["date"] <= end]


def _steps(
    history: list[dict[str, Any]], start: dt.date, end: dt.date, past_now: Standing | None, after: Standing | None
) -> list[dict[str, Any]]:
    """From his rating on the ``start`` day to the one on the ``end`` day under the later snapshot,
    through each of his points in between: each step begins where the previous one ended, so their
    changes add up to the difference."""
    steps = []
    rating = past_now.rating if past_now is not None else None
    for point in _points_between(history, start, end):
        steps.append(_step(point["date"], rating, point["rating"], point["tournament_ids"], GAMES))
        rating = point["rating"]
    if after is not None and rating != after.rating:
        # b lies between two of his playing days: WHR reads it between them, pulled by the next one's games.
        following = next((point for point in history if point["date"] > end), None)
        if following is not None:
            steps.append(_step(following["date"], rating, after.rating, following["tournament_ids"], LATER_GAMES))
    return steps


def _step(day: dt.date, before: float | None, after: float, tournament_ids: list[str], cause: str) -> dict[str, Any]:
    change = after - before if before is not None else None
    return {
        "date": day,
        "rating_before": before,
        "rating_after": after,
        "change": change,
        "tournament_ids": tournament_ids,
        "cause": cause,
    }


# --- what changed in between ----------------------------------------------------------------------


def _tournaments(session: Session, player_id: str, start: Reading, end: Reading, stepped: set[str]) -> list[dict[str, Any]]:
    """The tournaments added, corrected or withdrawn between the two snapshots, and those of the
    steps, by end, start and id; each with his games and what it did to him."""
    if start.snapshot.id == end.snapshot.id:
        # One snapshot read twice (the default since a publication with no recompute after it, or two
        # rating days): nothing was added, corrected or withdrawn in between, and its inputs need no reading.
        earlier = later = set()
    else:
        earlier, later = _inputs(session, start.snapshot), _inputs(session, end.snapshot)
    changed = [r for r in _revisions_between(session, start, end, revisions.TOURNAMENT, None) if r.subject_id in earlier | later]
    revised: dict[str, list[Revision]] = {}
    for revision in changed:
        revised.setdefault(revision.subject_id, []).append(revision)
    wanted = (later - earlier) | (earlier - later) | set(revised) | stepped
    stored = {t.id: t for t in _in_chunks(session, select(Tournament), Tournament.id, wanted)}
    games = _games(session, player_id, set(stored))
    his_later = {c.tournament_id: c for c in snapshot_changes.changes_of(session, end.snapshot).of_player(player_id)}
    his_earlier = {c.tournament_id: c for c in snapshot_changes.changes_of(session, start.snapshot).of_player(player_id)}
    moves = []
    for tournament in sorted(stored.values(), key=lambda t: (t.end, t.start, t.id)):
        how = _how(tournament, earlier, later, tournament.id in revised)
        change = his_earlier.get(tournament.id) if how in (WITHDRAWN, NO_LONGER_RATED) else his_later.get(tournament.id)
        moves.append(
            {
                "tournament_id": tournament.id,
                "name": tournament.name,
                "start": tournament.start,
                "end": tournament.end,
                "how": how,
                "revisions": [_note(r) for r in revised.get(tournament.id, [])],
                "games": games.get(tournament.id, []),
                "rating_before": change.rating_before if change is not None else None,
                "rating_after": change.rating_after if change is not None else None,
                "change": change.change if change is not None else None,
            }
        )
    return moves


def _how(tournament: Tournament, earlier: set[str], later: set[str], revised: bool) -> str:
    if tournament.id in later and tournament.id not in earlier:
        return ADDED
    if tournament.id in earlier and tournament.id not in later:
        return WITHDRAWN if tournament.withdrawn_at is not None else NO_LONGER_RATED
    return CORRECTED if revised else RATED


def _inputs(session: Session, snapshot: RatingSnapshot) -> set[str]:
    """The tournaments the snapshot read (for one written before they were recorded: those it rated)."""
    if snapshot.input_tournaments is not None:
        return set(snapshot.input_tournaments)
    return set(snapshot_changes.changes_of(session, snapshot).tournaments())


def _revisions_between(
    session: Session, start: Reading, end: Reading, subject: str, subject_ids: list[str] | None
) -> list[Revision]:
    """Revisions recorded after the earlier snapshot's recompute began reading (its job's start) and
    up to the later snapshot's writing: what the later one may have read and the earlier not."""
    if start.snapshot.id == end.snapshot.id:
        return []
    started = session.scalar(select(Job.started_at).where(Job.id == start.snapshot.job_id)) if start.snapshot.job_id else None
    since = min(started, start.snapshot.created_at) if started is not None else start.snapshot.created_at
    query = select(Revision).where(Revision.subject == subject, Revision.at > since, Revision.at <= end.snapshot.created_at)
    if subject_ids is not None:
        query = query.where(Revision.subject_id.in_(subject_ids))
    kinds = (revisions.SEEDS_CHANGED, revisions.PARAMS_CHANGED, revisions.SETTINGS_CHANGED)
    if subject == revisions.RATING_LIST:
        query = query.where(Revision.kind.in_(kinds))
    return list(session.scalars(query.order_by(Revision.at, Revision.id)))


def _note(revision: Revision) -> dict[str, Any]:
    return {
        "number": revision.number,
        "kind": revision.kind,
        "at": revision.at,
        "actor": revision.actor,
        "summary": revision.summary,
    }


def _games(session: Session, player_id: str, tournament_ids: set[str]) -> dict[str, list[dict[str, Any]]]:
    """His games in these tournaments as stored, from his side, in each one's submission order."""
    rows: list[Game] = []
    ordered = sorted(tournament_ids)
    for first in range(0, len(ordered), _IDS_PER_QUERY):
        rows += session.execute(
            select(Game)
            .where(Game.tournament_id.in_(ordered[first : first + _IDS_PER_QUERY]))
            .where(or_(Game.black_id == player_id, Game.white_id == player_id))
            .order_by(Game.tournament_id, Game.seq)
        ).scalars()
    opponents = {game.white_id if game.black_id == player_id else game.black_id for game in rows}
    names = {
        player.id: full_name(player.name, player.surname) for player in _in_chunks(session, select(Player), Player.id, opponents)
    }
    games: dict[str, list[dict[str, Any]]] = {}
    for game in rows:
        black = game.black_id == player_id
        opponent = game.white_id if black else game.black_id
        outcome = "drawn" if game.result == "D" else "won" if (game.result == "B") == black else "lost"
        games.setdefault(game.tournament_id, []).append(
            {
                "date": game.date,
                "round": game.round,
                "colour": "black" if black else "white",
                "opponent_id": opponent,
                "opponent_name": names.get(opponent),
                "outcome": outcome,
                "played": game.played,
            }
        )
    return games


def _in_chunks(session: Session, query: Any, column: Any, ids: set[str]) -> list[Any]:
    ordered = sorted(ids)
    found: list[Any] = []
    for first in range(0, len(ordered), _IDS_PER_QUERY):
        found += session.scalars(query.where(column.in_(ordered[first : first + _IDS_PER_QUERY])))
    return found
