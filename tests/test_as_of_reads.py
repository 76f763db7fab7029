"""The reads of a list as of a date and of a snapshot's archives, as the large history needs them
fast (issue 27 item 6): a page ranked without sorting every player, archives read in one copy."""

import json
from bisect import bisect_left

import numpy as np
import pytest
from sqlalchemy import select

from app import db
from app.models import RatingSnapshot
from app.services import stored_columns, timelines
from app.services.rating_lists import _best_first
from tests.helpers import AUTH, recompute_now, tournament_body


@pytest.mark.parametrize("count", [0, 1, 7, 50, 199, 200, 260])
def test_a_pages_rows_are_those_a_full_stable_sort_puts_first(count):
    values = np.random.default_rng(count).integers(0, 12, 200).astype(np.float64)  # many equal values
    values[::17] = np.nan  # no rating: last, as a sort puts them
    values[::23] = -0.0
    expected = np.lexsort((np.arange(len(values)), values))[:count]
    assert _best_first(values, count).tolist() == expected.tolist()


def test_equal_ratings_on_a_date_are_paged_by_player_id_across_page_ends(client):
    # Six players in three drawn pairs of one tournament: one rating for all six on its last day.
    ids = ["b", "B", "a1", "A", "a.x", "Z9"]
    players = [{"id": player_id, "name": "N", "surname": player_id} for player_id in ids]
    games = [{"id": f"g{i}", "round": "1", "black": ids[2 * i], "white": ids[2 * i + 1], "result": "D"} for i in range(3)]
    created = client.post("/v1/tournaments", json=tournament_body(players=players, games=games), headers=AUTH)
    assert created.status_code == 201, created.text
    recompute_now(client)
    params = {"status": "all", "as_of": "2020-05-03"}
    whole = client.get("/v1/rating-lists/rif-whr/ratings", params=params).json()["items"]
    assert len({row["rating"] for row in whole}) == 1
    assert [row["player_id"] for row in whole] == sorted(ids)  # by code point: "A" < "B" < "Z9" < "a.x" < "a1" < "b"
    for limit in (1, 2, 4):
        paged = [
            row
            for offset in range(0, len(ids), limit)
            for row in client.get("/v1/rating-lists/rif-whr/ratings", params={**params, "limit": limit, "offset": offset}).json()[
                "items"
            ]
        ]
        assert paged == whole


def test_a_snapshots_archives_read_whole_as_stored(client):
    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    snapshot_id = recompute_now(client)["snapshot_id"]
    with db.session_scope() as session:
        for column in (RatingSnapshot.point_columns, RatingSnapshot.change_columns):
            stored = session.scalar(select(column).where(RatingSnapshot.id == snapshot_id))
            assert stored and stored_columns.stored_archive(session, column, snapshot_id) == stored
            assert stored_columns.stored_archive(session, column, snapshot_id + 1000) is None
        session.get(RatingSnapshot, snapshot_id).change_columns = None  # type: ignore[union-attr]
        session.flush()
        assert stored_columns.stored_archive(session, RatingSnapshot.change_columns, snapshot_id) is None


@pytest.mark.parametrize(
    ("ids", "ascending"),
    [
        (["1", "10", "100", "2", "20", "9"], True),  # as Python orders strings, not numbers
        (["A", "B", "Z9", "a.x", "a1", "b"], True),
        (["a", "ab", "b"], True),
        (["ab", "a"], False),
        (["b", "a"], False),
        (["a", "a"], False),
        (["ä", "é", "z"], False),  # as UTF-8 bytes, as Python orders them: "z" < "ä"
        (["z", "ä", "é", "ü" * 70], True),
        ([""], True),
        ([], True),
    ],
)
def test_player_ids_are_read_from_their_json_text_as_decoded(ids, ascending):
    text = json.dumps(ids, ensure_ascii=False).encode()
    quotes = np.flatnonzero(np.frombuffer(text, dtype=np.uint8) == ord('"'))
    player_ids = timelines.PlayerIds(text, quotes)
    assert player_ids.ascending() is ascending and ascending == (ids == sorted(ids) and len(set(ids)) == len(ids))
    assert len(player_ids) == len(ids) and [player_ids[i] for i in range(len(ids))] == ids
    assert list(player_ids) == ids and player_ids[1:] == ids[1:] and player_ids.all() == ids
    if ascending and ids:
        assert bisect_left(player_ids, ids[-1]) == len(ids) - 1
    fresh = timelines.PlayerIds(text, quotes)
    numbers = np.arange(len(ids))[::-1]
    assert fresh.take(numbers[:1]) == ids[-1:] and fresh.take(numbers) == ids[::-1]


def test_many_single_player_ids_decode_them_all_once():
    ids = [f"p{i:05d}" for i in range(3_000)]
    text = json.dumps(ids).encode()
    player_ids = timelines.PlayerIds(text, np.flatnonzero(np.frombuffer(text, dtype=np.uint8) == ord('"')))
    assert [player_ids[i] for i in range(len(ids))] == ids
    assert player_ids._all == ids  # decoded whole after the first 2,000
    assert player_ids.take(np.array([2_999, 0, 5])) == ["p02999", "p00000", "p00005"]
