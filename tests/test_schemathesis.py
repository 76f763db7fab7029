"""Schemathesis over every operation of the committed contract, against a live uvicorn with a write
key, with every check schemathesis has: no answer is a server error; every answer (status, content
type, headers, body) is one the contract declares; every request the contract allows is accepted and
every request it forbids is refused; a missing required header, an unsupported method and a missing
key are refused; and a resource created is there to read. The example count per operation is enough to
find what the issue 28 probe found (50) and bounded so the run stays within CI's time."""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import CHECKS, load_all_checks

from tests.helpers import AUTH
from tests.live_server import running_server

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES_PER_OPERATION = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "50"))

load_all_checks()
# Every check schemathesis registers. The one it has but does not register, max_response_time, is
# left out on purpose: response time depends on the machine and on what else runs on it, so it would
# make CI flaky without saying anything about the contract; timing belongs to the benchmarks (bench/).
CHECKS_ENABLED = CHECKS.get_all()

schema = schemathesis.openapi.from_path(ROOT / "openapi" / "openapi.json")

# Operations whose bodies follow a rule JSON Schema cannot state (it ties a field to another field,
# to the path or to stored data): a generated body that the schema allows may break it, and the
# service rightly answers 422 with a pointer. They get every check but positive_data_acceptance; each
# rule is in the operation's description. Issue 28 stays open until the API or the generator settles
# them (a schemathesis hook that makes positive examples keep the rule, or an API that needs none).
CROSS_FIELD_RULES = {
    "POST /v1/calc/rif-1995/tournament": "a game's players are among `players`; a new player has no rating",
    "POST /v1/calc/rif-1997/tournament": "a game's players are among `players`, and two different ones",
    "POST /v1/calc/olufsen/tournament": "a game's players are among `players`, and two different ones",
    "POST /v1/calc/eru/tournament": "a game's players are among `players`, and two different ones",
    "POST /v1/calc/rivne/tournament": "a game's players are among `players`; a player gives a rating or a rank",
    "POST /v1/calc/performance": "a performance is undefined at 0 % or 100 %",
    "POST /v1/calc/whr": "a game is between two different players",
    "PATCH /v1/rating-lists/{list_id}/params": "which parameters a list takes depends on its system",
    "PUT /v1/rating-lists/{list_id}/seeds": "what a seed holds depends on the list's system",
    "POST /v1/rating-lists/{list_id}/publications": "the snapshot must be one of the list's stored snapshots",
    "POST /v1/tournaments": "a renju or gomoku rule is a known opening rule; a game's players are given or stored",
    "PUT /v1/tournaments/{tournament_id}": "the body's id is the path's",
    "POST /v1/players/{player_id}/merge": "`into` is a stored player, not the path's",
}


def test_every_check_is_enabled() -> None:
    names = {check.__name__ for check in CHECKS_ENABLED}
    assert "max_response_time" not in names
    assert {
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_headers_conformance",
        "response_schema_conformance",
        "negative_data_rejection",
        "positive_data_acceptance",
        "missing_required_header",
        "unsupported_method",
        "allow_header_conformance",
        "use_after_free",
        "ensure_resource_availability",
        "ignored_auth",
    } <= names


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with running_server(RUN_WORKER="true", WORKER_POLL_SECONDS="0.2") as server:
        yield server.url


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    derandomize=True,  # the same cases on every run, so CI does not flake
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_answers_within_the_contract(case, base_url):  # type: ignore[no-untyped-def]
    checks = CHECKS_ENABLED
    if f"{case.operation.method.upper()} {case.operation.path}" in CROSS_FIELD_RULES:
        checks = [check for check in CHECKS_ENABLED if check.__name__ != "positive_data_acceptance"]
    case.call_and_validate(base_url=base_url, headers=AUTH, checks=checks)


def test_the_operations_spared_one_check_exist() -> None:
    operations = {f"{method.upper()} {path}" for path, methods in schema.raw_schema["paths"].items() for method in methods}
    assert set(CROSS_FIELD_RULES) <= operations
