"""The encoders built once (``app.json_encoding``) write what ``json.dumps`` writes, and the
recompute's digest of its inputs is the one it always was: a snapshot's recorded digest is compared
with a recomputation's by ``python -m app.cli verify``, so its bytes must never change."""

import datetime as dt
import hashlib
import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from app import db
from app.json_encoding import encoder
from app.models import RatingList
from app.rating.system import Seed
from app.recompute import compute, provenance
from tests.helpers import cli_import_renju_cn

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()  # NaN and the infinities too (allow_nan)
    | st.text()  # any code point, escapes and non-ASCII alike
    | st.dates()
    | st.datetimes()  # (default=str writes these)
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)


@given(_VALUES)
def test_an_encoder_writes_what_json_dumps_writes(value):  # type: ignore[no-untyped-def]
    for options in (
        {"sort_keys": True, "ensure_ascii": False, "default": str},
        {"default": str},
        {"sort_keys": True, "default": str},
    ):
        assert encoder(**options)(value) == json.dumps(value, **options)  # type: ignore[arg-type]


@given(st.recursive(st.none() | st.integers() | st.text(), lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner)))
def test_the_default_encoder_writes_what_json_dumps_writes_with_its_defaults(value):  # type: ignore[no-untyped-def]
    assert encoder()(value) == json.dumps(value)


@pytest.mark.slow
def test_the_inputs_digest_is_the_one_written_line_by_line(client):
    """On the real Chinese results: the columnar read (rif-whr) and the tournaments with their
    games (rif-elo: thousands of lines, hashed a thousand at a time), with seeds, against the
    digest as it was first written, one json.dumps and one update a line."""
    cli_import_renju_cn()
    seeds = [
        Seed("p2", 1734.0, "provisional", dt.date(2015, 1, 1), counters={"games": 3, "ß": [1.5, None]}),
        Seed("p1", 2100.0, "established", dt.date(2014, 6, 30), title="M"),
    ]
    with db.session_scope() as session:
        whr_list, elo_list = session.get(RatingList, "rif-whr"), session.get(RatingList, "rif-elo")
        assert whr_list is not None and elo_list is not None
        tournaments, columns = compute.eligible_games(session, whr_list)
        with_games = compute.stored_tournaments(session, elo_list)
    assert sum(len(t.games) for t in with_games) > 3 * provenance._LINES_HASHED_AT_ONCE
    assert provenance.inputs_digest(tournaments, columns, seeds) == _written_line_by_line(tournaments, columns, seeds)
    assert provenance.inputs_digest(with_games, None, seeds) == _written_line_by_line(with_games, None, seeds)
    assert provenance.inputs_digest(with_games, None, []) != provenance.inputs_digest(with_games[:-1], None, [])


def _written_line_by_line(tournaments, columns, seeds) -> str:  # type: ignore[no-untyped-def]
    digest = hashlib.sha256()

    def line(*values: object) -> None:
        digest.update(json.dumps(values, sort_keys=True, default=str, ensure_ascii=False).encode())
        digest.update(b"\n")

    for tournament in tournaments:
        line("tournament", tournament.id, tournament.start, tournament.end, tournament.fields, tournament.participants)
        for game in tournament.games:
            fields = (game.id, game.date, game.black, game.white, game.black_score, game.round, game.handicap)
            line("game", tournament.id, *fields, game.board_size)
    if columns is not None:
        line("players", columns.player_ids)
        for name in ("black", "white", "day", "tournament"):
            digest.update(np.asarray(getattr(columns, name), dtype="<i8").tobytes())
        digest.update(np.asarray(columns.black_score, dtype="<f8").tobytes())
    for seed in sorted(seeds, key=lambda s: s.player_id):
        line("seed", seed.player_id, seed.rating, seed.status, seed.as_of, seed.title, seed.counters)
    return digest.hexdigest()
