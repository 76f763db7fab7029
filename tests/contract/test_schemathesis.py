"""Schemathesis over every operation of the committed contract, against a live uvicorn with a write
key, with every check schemathesis has: no answer is a server error; every answer (status, content
type, headers, body) is one the contract declares; every request the contract allows is accepted and
every request it forbids is refused; a missing required header, an unsupported method and a missing
key are refused; and a resource created is there to read. The example count per operation is enough to
find what the issue 28 probe found (50) and bounded so the run stays within CI's time."""

import inspect
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import CHECKS, load_all_checks
from schemathesis.core.parameters import ParameterLocation
from schemathesis.pytest import _test_builder

from tests.contract.contract_rules import PERIODS, RULES, STORED_PLAYERS, keep_the_rules, within_the_body_limit
from tests.helpers import AUTH, RENJU_CN, ROOT, wait_until_no_job_runs
from tests.live_server import running_server

pytestmark = pytest.mark.slow

EXAMPLES_PER_OPERATION = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "50"))

load_all_checks()
# Every check schemathesis registers. The one it has but does not register, max_response_time, is
# left out on purpose: response time depends on the machine and on what else runs on it, so it would
# make CI flaky without saying anything about the contract; timing belongs to the benchmarks (bench/).
CHECKS_ENABLED = CHECKS.get_all()

schema = schemathesis.openapi.from_path(ROOT / "openapi" / "openapi.json")


def _built_when_run(build: Callable[..., Callable[..., Any]]) -> Callable[..., Callable[..., Any]]:
    """Each operation's test built when it runs, not when it is collected: schemathesis builds an
    operation's coverage cases with its test, 12 of the suite's 20 s of collection, which every run
    paid even for one test of another module (``-k``, a node id). The test's arguments (its fixtures)
    are the built test's; the marks schemathesis' pytest hooks read on the test (its metadata
    attribute) are copied over from the built one after it runs. Written against schemathesis 4.32.5
    (requirements-dev.lock), whose ``_gen_items`` imports ``build_operation_test`` when it collects."""

    def lazily(**arguments: Any) -> Callable[..., Any]:
        built: list[Callable[..., Any]] = []
        fixtures = [name for name in inspect.signature(arguments["test_func"]).parameters if name != "case"]

        def run(**fixture_values: Any) -> Any:
            if not built:
                built.append(build(**arguments))
            try:
                return built[0](**fixture_values)
            finally:
                vars(run).update(vars(built[0]))

        run.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY) for name in fixtures]
        )
        return run

    return lazily


_test_builder.build_operation_test = _built_when_run(_test_builder.build_operation_test)


@schema.hook
def map_case(context, case):  # type: ignore[no-untyped-def]
    """Positive examples keep the rules JSON Schema cannot state (tests/contract/contract_rules.py)."""
    return keep_the_rules(case)


@schema.hook
def filter_case(context, case):  # type: ignore[no-untyped-def]
    """Positive examples within the path's byte limit (tests/contract/contract_rules.py)."""
    return within_the_body_limit(case)


@schema.hook
def before_add_examples(context, examples):  # type: ignore[no-untyped-def]
    """The examples phase's cases (combined from the contract's examples) keep the rules too."""
    for case in examples:
        keep_the_rules(case)


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


@pytest.fixture(scope="module")
def t0017() -> str:
    """T0017 of the Chinese results as a submission: its players are the stored ones a seed names."""
    return subprocess.run(
        [sys.executable, "-m", "app.cli", "submission", str(RENJU_CN), "--tournament", "T0017"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout


@pytest.fixture
def stored_players(base_url: str, t0017: str) -> Iterator[None]:
    """Stored before each operation's run (every test starts on empty tables, emptied once the
    server's worker has finished the recomputes the run queued)."""
    answer = httpx.post(f"{base_url}/v1/tournaments", content=t0017, headers={**AUTH, "Content-Type": "application/json"})
    assert answer.status_code == 201, answer.text
    assert {player["id"] for player in answer.json()["players"]} >= set(STORED_PLAYERS)
    yield
    wait_until_no_job_runs()


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    derandomize=True,  # the same cases on every run, so CI does not flake
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_answers_within_the_contract(case, base_url, stored_players):  # type: ignore[no-untyped-def]
    case.call_and_validate(base_url=base_url, headers=credentials(case), checks=CHECKS_ENABLED)


def credentials(case):  # type: ignore[no-untyped-def]
    """The write key, unless the case is a negative one that leaves the key out on purpose (a request
    without its required Authorization must be refused, so it is sent without one)."""
    meta = case.meta
    sent = {name.lower() for name in case.headers or {}}
    if meta is not None and meta.is_negative_at(ParameterLocation.HEADER) and "authorization" not in sent:
        return {}
    return AUTH


def test_every_rule_kept_names_an_operation_of_the_contract() -> None:
    operations = {f"{method.upper()} {path}" for path, methods in schema.raw_schema["paths"].items() for method in methods}
    assert set(RULES) | PERIODS <= operations
