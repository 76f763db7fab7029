"""A score is one of the rules' values exactly (docs/decisions.md 104). Every calculator that takes a
game's result as a number answers 0, 0.5 and 1 (the integers 0 and 1, and -0.0, which equals 0) and
refuses any other float with a 422 pointing at it. pydantic's multipleOf alone let a float within its
tolerance through: 1e-300 or 0.5000000000000001 was a 500 on /v1/calc/rif-elo/game and 1e-300 a
performance of -118,500 on /v1/calc/performance. An olufsen seed's recorded results, the one score
stored as a number, are checked alike."""

import math
import types
import typing
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from app.rating.calculators import SCORES, Score
from app.rating.registry import systems
from tests.helpers import AUTH

PROBLEM = "application/problem+json"


# Every calculator field that takes a score: (path, the body with that score, the field's pointer).
SCORED: list[tuple[str, Callable[[float], dict[str, Any]], str]] = [
    ("/v1/calc/rif-elo/game", lambda score: {"rating": 2300, "opponent_rating": 2200, "score": score}, "/score"),
    (
        "/v1/calc/performance",
        # A win and a loss besides it, so that every legal score has a finite performance.
        lambda score: {
            "results": [
                {"opponent_rating": 1500, "score": 1},
                {"opponent_rating": 1600, "score": 0},
                {"opponent_rating": 1700, "score": score},
            ]
        },
        "/results/2/score",
    ),
    (
        "/v1/calc/eru/norms",
        lambda score: {
            "rank": "9k",
            "games": [{"opponent_rank": "9k", "score": 1}, {"opponent_rank": "8k", "score": score}],
            "time_control_minutes": 60,
            "recorded": True,
        },
        "/games/1/score",
    ),
    (
        "/v1/calc/olufsen/tournament",
        lambda score: {
            "players": [
                {"id": "s", "rated_games": 1, "prior_results": [{"opponent_rating": 700, "score": score}]},
                {"id": "o", "rating": 700, "rated_games": 40, "category": "established"},
            ],
            "games": [{"round": "1", "black": "s", "white": "o", "result": "B"}],
        },
        "/players/0/prior_results/0/score",
    ),
]


def _ulps_away(value: float, steps: int) -> float:
    """The float ``steps`` representable numbers above ``value`` (below for a negative ``steps``)."""
    direction = math.inf if steps > 0 else -math.inf
    for _ in range(abs(steps)):
        value = math.nextafter(value, direction)
    return value


# What a tolerance admits: the floats a few steps from a legal score, numbers next to zero (the
# smallest subnormal 5e-324 among them), and any other finite float.
NEAR_A_SCORE = st.builds(_ulps_away, st.sampled_from(SCORES), st.integers(-64, 64).filter(bool))
NEAR_ZERO = st.floats(min_value=-1e-280, max_value=1e-280, allow_subnormal=True)
NOT_A_SCORE = (NEAR_A_SCORE | NEAR_ZERO | st.floats(allow_nan=False, allow_infinity=False)).filter(
    lambda value: value not in SCORES
)


@pytest.mark.parametrize(("path", "body", "pointer"), SCORED, ids=[path for path, _, _ in SCORED])
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(score=NOT_A_SCORE)
@example(score=1e-300)
@example(score=5e-324)
@example(score=0.5000000000000001)
@example(score=0.49999999999999994)
@example(score=0.9999999999999999)
@example(score=1.0000000000000002)
@example(score=-5e-324)
def test_a_float_that_is_not_a_score_is_a_422_pointing_at_it(client, path, body, pointer, score):
    response = client.post(path, json=body(score))
    assert response.status_code == 422, (score, response.text)
    assert response.headers["content-type"] == PROBLEM
    assert pointer in [error["pointer"] for error in response.json()["errors"]], (score, response.text)


@pytest.mark.parametrize(("path", "body", "pointer"), SCORED, ids=[path for path, _, _ in SCORED])
@pytest.mark.parametrize("score", [0, 1, 0.0, 0.5, 1.0, -0.0], ids=repr)
def test_each_legal_score_is_answered(client, path, body, pointer, score):
    response = client.post(path, json=body(score))
    assert response.status_code == 200, response.text


def test_minus_zero_is_zero_in_the_answer(client):
    """-0.0 equals 0 exactly: it is taken as 0, and an answer that repeats the score says 0."""
    path, body, _ = SCORED[3]
    answer = client.post(path, json=body(-0.0))
    assert answer.status_code == 200 and "-0.0" not in answer.text
    recorded = answer.json()["players"][0]["state"]["prior_results"][0]["score"]
    assert recorded == 0 and math.copysign(1, recorded) == 1


def _score_fields(model: type[BaseModel], pointer: str = "") -> Iterator[str]:
    """The pointers (``*`` for a list's index) of every field of the request model that is a ``Score``."""
    for name, field in model.model_fields.items():
        if typing.get_args(Score)[-1] in field.metadata:  # (its exactness check)
            yield f"{pointer}/{name}"
        for inner, listed in _models_in(field.annotation):
            yield from _score_fields(inner, f"{pointer}/{name}" + ("/*" if listed else ""))


def _models_in(annotation: Any, listed: bool = False) -> Iterator[tuple[type[BaseModel], bool]]:
    """The models a field's annotation holds, each with whether it is an item of a list."""
    if typing.get_origin(annotation) is list:
        yield from _models_in(typing.get_args(annotation)[0], listed=True)
    elif typing.get_origin(annotation) in (typing.Union, types.UnionType):
        for argument in typing.get_args(annotation):
            yield from _models_in(argument, listed)
    elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation, listed


def test_every_score_of_every_calculator_is_tested_here():
    """A new calculator (or a new field) taking a score is listed in SCORED, so that it is tested too."""
    declared = {
        (f"/v1/calc{calculator.path}", pointer)
        for system in systems()
        for calculator in system.calculators
        if calculator.request_model is not None
        for pointer in _score_fields(calculator.request_model)
    }
    tested = {(path, "/".join("*" if part.isdigit() else part for part in pointer.split("/"))) for path, _, pointer in SCORED}
    assert declared == tested


# A provisional player's running points under GA 1997 are whole and half points too: wins + draws/2.
def _provisional(points: float) -> dict[str, Any]:
    record = {"games": 2, "wins": 1, "losses": 0, "points": points, "opponent_rating_sum": 4000}
    return {
        "players": [{"id": "p", "status": "provisional", "record": record}, {"id": "q", "rating": 2000, "status": "established"}],
        "games": [{"black": "p", "white": "q", "result": "D"}],
    }


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(points=st.builds(_ulps_away, st.just(1.5), st.integers(-64, 64).filter(bool)))
@example(points=1.5000000000000002)
@example(points=1.4999999999999998)
def test_a_provisional_record_with_points_next_to_its_own_is_a_422_pointing_at_them(client, points):
    response = client.post("/v1/calc/rif-1997/tournament", json=_provisional(points))
    assert response.status_code == 422, response.text
    assert "/players/0/record/points" in [error["pointer"] for error in response.json()["errors"]]


def test_a_provisional_record_with_its_points_is_answered(client):
    response = client.post("/v1/calc/rif-1997/tournament", json=_provisional(1.5))
    assert response.status_code == 200, response.text
    assert {p["id"]: p for p in response.json()["players"]}["p"]["record_after"]["points"] == 2.0


# The one score that is stored as a number: an olufsen seed's recorded results (001 (6)), checked by
# the same model as the calculator's.
def _one_recorded_result(score: float) -> dict[str, Any]:
    return {"rated_games": 1, "prior_results": [{"opponent_rating": 700, "score": score}]}


@pytest.mark.parametrize("score", [1e-300, 5e-324, 0.5000000000000001, 0.9999999999999999, -5e-324], ids=repr)
def test_a_seeds_recorded_result_that_is_not_a_score_is_a_422_and_nothing_is_stored(client, score):
    assert client.post("/v1/players", json={"id": "s1", "name": "S"}, headers=AUTH).status_code == 201
    seed = {"rating": 700, "status": "unrated", "as_of": "2020-01-01", "counters": _one_recorded_result(score)}
    one = client.put("/v1/rating-lists/olufsen/seeds/s1", json=seed, headers=AUTH)
    every = client.put("/v1/rating-lists/olufsen/seeds", json={"seeds": [{"player_id": "s1", **seed}]}, headers=AUTH)
    assert one.status_code == every.status_code == 422
    assert [error["pointer"] for error in one.json()["errors"]] == ["/counters/prior_results/0/score"]
    assert [error["pointer"] for error in every.json()["errors"]] == ["/seeds/0/counters/prior_results/0/score"]
    assert client.get("/v1/rating-lists/olufsen/seeds").json()["seeds"] == []


@pytest.mark.parametrize("score", [0, 0.5, 1, -0.0], ids=repr)
def test_a_seeds_recorded_result_that_is_a_score_is_stored(client, score):
    assert client.post("/v1/players", json={"id": "s1", "name": "S"}, headers=AUTH).status_code == 201
    seed = {"rating": 700, "status": "unrated", "as_of": "2020-01-01", "counters": _one_recorded_result(score)}
    assert client.put("/v1/rating-lists/olufsen/seeds/s1", json=seed, headers=AUTH).status_code == 200
    (stored,) = client.get("/v1/rating-lists/olufsen/seeds").json()["seeds"]
    recorded = stored["counters"]["prior_results"][0]["score"]
    assert recorded == score and math.copysign(1, recorded) == 1
