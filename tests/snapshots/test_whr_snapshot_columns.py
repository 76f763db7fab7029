"""The WHR list's points and changes as a snapshot stores them: the list hands them over as coded
columns (no Python object per row), and the archives must be exactly what the same points and
changes give as ``Point`` and ``Change`` objects, read back by the readers as before. The objects
here are built one by one from the fit, the plain way, as the rules say them."""

import datetime as dt
from collections import defaultdict

import pytest
from sqlalchemy import select

from app import db
from app.models import RatingList, RatingSnapshot
from app.rating import whr
from app.rating.registry import get_system
from app.rating.system import Change, Point, Replay
from app.recompute import compute
from app.snapshots import stored_columns
from tests.helpers import AUTH, cli_import_renju_cn, recompute_now, tournament_body

pytestmark = pytest.mark.slow


def test_the_stored_points_and_changes_are_those_of_the_objects(client):
    cli_import_renju_cn()  # 59 real tournaments, then a player's day of two tournaments
    for tournament_id, results in (("SAME-DAY-B", "BWDBWB"), ("SAME-DAY-A", "WWBDBW")):
        body = tournament_body(tournament_id, start="2021-04-10", end="2021-04-10")
        for game, result in zip(body["games"], results, strict=True):
            game.pop("date", None)
            game["result"] = result
        assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201
    spread = tournament_body("SPREAD", start="2021-06-01", end="2021-06-03")  # games on two days
    spread["games"][4]["date"] = "2021-06-03"
    assert client.post("/v1/tournaments", json=spread, headers=AUTH).status_code == 201
    recompute_now(client, list_date=dt.date(2022, 1, 1))  # the list's first snapshot: no warm start

    with db.session_scope() as session:
        rating_list = session.get(RatingList, "rif-whr")
        stored = session.execute(
            select(RatingSnapshot.point_columns, RatingSnapshot.change_columns).where(
                RatingSnapshot.id == rating_list.current_snapshot_id
            )
        ).one()
        params = get_system("rif-whr").params(rating_list.params)
        tournaments, games = compute.eligible_games(session, rating_list)
    points, changes = _points_and_changes(tournaments, games, params)
    assert any(len(point.tournament_ids) > 1 for point in points)
    assert any(change.games_counted > 1 and change.details["day_after"] == "2021-06-03" for change in changes)

    as_objects = Replay(entries=[], points=points, changes=changes)
    expected = (compute.point_archive(as_objects), compute.change_archive(as_objects))
    for name, archive, wanted in zip(("points", "changes"), map(bytes, stored), expected, strict=True):
        decoded, wanted_decoded = stored_columns.unpack(archive), stored_columns.unpack(wanted)
        assert list(decoded) == list(wanted_decoded), name
        for column in decoded:
            assert decoded[column].dtype == wanted_decoded[column].dtype, (name, column)
            assert str(decoded[column].tolist()) == str(wanted_decoded[column].tolist()), (name, column)
        assert archive == wanted, name  # the very layout: members, dtypes, codes and values
    assert len(stored_columns.unpack(bytes(stored[0]))["day"]) == len(points)


def _points_and_changes(tournaments, games, params) -> tuple[list[Point], list[Change]]:  # type: ignore[no-untyped-def]
    """The list's points and changes, one object at a time from the fit (INTERPRETATIONS 3.6, issue
    7 #4): a point per player-day; per (tournament, player) the rating before his first day in it
    and after his last, the games he played in it."""
    fitted = whr.fit(games.black, games.white, games.black_score, games.day, len(games.player_ids), params.engine())
    ids = games.player_ids
    days_of: dict[int, list[tuple[int, float, float, int]]] = defaultdict(list)  # player: (day, rating, deviation, games so far)
    for player, day, rating, deviation, played in zip(
        fitted.player.tolist(), fitted.day.tolist(), fitted.rating.tolist(), fitted.deviation.tolist(), fitted.games.tolist()
    ):
        so_far = days_of[player][-1][3] if days_of[player] else 0
        days_of[player].append((day, rating, deviation, so_far + played))
    tournaments_of_day: dict[tuple[int, int], set[str]] = defaultdict(set)
    days_in: dict[tuple[int, int], list[int]] = defaultdict(list)  # (tournament, player): his games' days
    for black, white, day, tournament in zip(
        games.black.tolist(), games.white.tolist(), games.day.tolist(), games.tournament.tolist()
    ):
        for player in (black, white):
            tournaments_of_day[player, day].add(tournaments[tournament].id)
            days_in[tournament, player].append(day)

    def status(games_so_far: int) -> str:
        return str(whr.Status.PROVISIONAL if games_so_far < whr.ESTABLISHED_GAMES else whr.Status.ACTIVE)

    points = [
        Point(
            ids[player],
            dt.date.fromordinal(day),
            rating,
            deviation,
            so_far,
            status(so_far),
            last_played=dt.date.fromordinal(day),
            tournament_ids=sorted(tournaments_of_day[player, day]),
        )
        for player, rows in days_of.items()
        for day, rating, deviation, so_far in rows
    ]
    changes = []
    for (tournament, player), days in days_in.items():
        rows = days_of[player]
        earlier = [row for row in rows if row[0] < min(days)]
        before = earlier[-1][1] if earlier else params.virtual_rating
        (_, after, deviation, so_far) = next(row for row in rows if row[0] == max(days))
        details = {"deviation_after": deviation, "day_after": dt.date.fromordinal(max(days)).isoformat()}
        changes.append(
            Change(
                tournaments[tournament].id,
                ids[player],
                "rif-whr",
                before,
                after,
                after - before,
                after - before,
                len(days),
                status(so_far),
                None,
                details,
            )
        )
    return points, changes
