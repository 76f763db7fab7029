"""The committed contract passes Redocly's linter for OpenAPI with its recommended rules (issue 44 item
6), a linter nobody here wrote (@redocly/openapi-core, pinned by the TypeScript client's lock). What it
lets pass is named place by place, each with its reason, in openapi/.redocly.lint-ignore.yaml; a warning
anywhere else fails here."""

import json
import shutil
from pathlib import Path

import pytest

from tests.contract.node_packages import CLIENT, CONTRACT, installed_packages, run, tool

pytestmark = pytest.mark.slow  # npm packages, and Node started for each document

CONFIG = CONTRACT.parent / "redocly.yaml"


def test_the_contract_passes_the_recommended_rules_but_what_it_names(tmp_path: Path) -> None:
    report = _lint(CONTRACT, tmp_path)
    assert report["problems"] == [], json.dumps(report["problems"], indent=1)
    # The ignore file is read: without it the linter warns of what it names.
    assert report["let_pass"] == 5


def test_the_linter_refuses_what_its_rules_forbid(tmp_path: Path) -> None:
    contract = json.loads(CONTRACT.read_text(encoding="utf-8"))
    del contract["paths"]["/v1/tournaments"]["post"]["operationId"]
    contract["paths"]["/v1/health"]["get"]["responses"] = {"404": {"description": "Not found"}}
    broken = tmp_path / "contract" / "openapi.json"
    broken.parent.mkdir()
    broken.write_text(json.dumps(contract), encoding="utf-8")
    rules = {problem["rule"] for problem in _lint(broken, tmp_path)["problems"]}
    assert {"operation-operationId", "operation-2xx-response"} <= rules, rules
    # What the ignore file lets pass, it lets pass in the committed contract only.
    assert "info-license" in rules


def _lint(document: Path, work: Path) -> dict:
    """The linter's report on `document`, with the contract's configuration."""
    node = tool("node")
    program = work / "lint"
    program.mkdir()
    shutil.copy(CLIENT / "lint-contract.mjs", program / "lint-contract.mjs")
    (program / "node_modules").symlink_to(installed_packages(), target_is_directory=True)
    result = run([node, str(program / "lint-contract.mjs"), str(document), str(CONFIG)], program, timeout=120)
    return json.loads(result.stdout.strip().splitlines()[-1])
