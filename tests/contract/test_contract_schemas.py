"""The contract types what an answer always sends as present (issue 44 item 1): a generated client
then needs no check for a field that is never missing. A request's fields with defaults stay
optional (their defaults said in words, not as `default`); a problem's `errors`, sent only for invalid input,
is optional and never null."""

import json

from app.contract import _referenced
from tests.helpers import ROOT

CONTRACT = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))
SCHEMAS = CONTRACT["components"]["schemas"]
OPERATIONS = [operation for operations in CONTRACT["paths"].values() for operation in operations.values()]


def test_every_field_of_an_answer_is_required() -> None:
    requests = _referenced(SCHEMAS, [part for op in OPERATIONS for part in (op.get("requestBody"), op.get("parameters"))])
    answers = _referenced(SCHEMAS, [op.get("responses") for op in OPERATIONS])
    assert {"TournamentRead", "RatingRowRead", "RatingsPage", "SnapshotRead"} <= answers - requests
    optional = {
        name: sorted(set(SCHEMAS[name].get("properties", {})) - set(SCHEMAS[name].get("required", [])))
        for name in answers - requests - {"Problem"}
    }
    assert {name: fields for name, fields in optional.items() if fields} == {}


def test_a_request_keeps_its_defaults_optional_and_a_problem_its_errors() -> None:
    submission = SCHEMAS["TournamentIn"]
    assert "rated" in submission["properties"] and "rated" not in submission["required"]
    errors = SCHEMAS["Problem"]["properties"]["errors"]
    assert errors["type"] == "array" and "default" not in errors and "errors" not in SCHEMAS["Problem"]["required"]


def test_a_request_states_its_defaults_in_words() -> None:
    """openapi-typescript (7, its defaults) types a component's property with a `default` as always
    present, so a request's default is in its field's description instead of JSON Schema's keyword."""
    requests = _referenced(SCHEMAS, [part for op in OPERATIONS for part in (op.get("requestBody"), op.get("parameters"))])
    with_default = {
        f"{name}.{field}": declared
        for name in requests
        for field, declared in SCHEMAS[name].get("properties", {}).items()
        if "default" in declared
    }
    assert with_default == {}
    played = SCHEMAS["GameIn"]["properties"]["played"]
    assert "played" not in SCHEMAS["GameIn"]["required"] and played["description"].endswith("(default true)")
