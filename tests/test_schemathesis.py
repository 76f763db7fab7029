"""Schemathesis over every operation of the committed contract, against a live uvicorn with a write
key: no answer is a server error, and every answer (status, content type, headers, body) is one the
contract declares. The example count per operation is bounded so the run stays within CI's time."""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.helpers import AUTH
from tests.live_server import running_server

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES_PER_OPERATION = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "20"))
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]

schema = schemathesis.openapi.from_path(ROOT / "openapi" / "openapi.json")


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
    case.call_and_validate(base_url=base_url, headers=AUTH, checks=CHECKS)
