"""The committed contract is a valid OpenAPI 3.1 document by openapi-spec-validator, a validator
nobody here wrote, and says of every operation who may send it (issue 44 item 6)."""

import json

from openapi_spec_validator import validate
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

from tests.helpers import ROOT

CONTRACT = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))


def test_the_contract_is_a_valid_openapi_3_1_document():
    assert CONTRACT["openapi"].startswith("3.1")
    validate(CONTRACT)


def test_the_validator_refuses_a_broken_document():
    broken = json.loads(json.dumps(CONTRACT))
    broken["paths"]["/v1/tournaments"]["post"]["responses"]["201"] = {"content": {}}  # no description
    try:
        validate(broken)
    except OpenAPIValidationError:
        return
    raise AssertionError("a response without its description passed")


def test_every_operation_says_who_may_send_it_and_the_document_where_it_is_served():
    operations = [operation for methods in CONTRACT["paths"].values() for operation in methods.values()]
    assert operations and all("security" in operation for operation in operations)
    assert any(operation["security"] == [] for operation in operations)
    assert any(operation["security"] for operation in operations)
    assert CONTRACT["servers"]
