"""The committed contract and the schema's single source of truth."""

import json
import re
import subprocess

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from app import db
from app.models import Base
from tests.helpers import ROOT


def test_models_and_migrations_agree():
    with db.get_engine().connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert differences == [], f"models differ from the migrated schema: {differences}"


def test_committed_openapi_matches_the_app(app):
    committed = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))
    current = json.loads(json.dumps(app.openapi()))
    assert committed == current, "openapi/openapi.json is stale: run `python -m app.cli export-openapi`"


def test_operation_ids_are_readable_and_unique(app):
    operation_ids = [operation["operationId"] for path in app.openapi()["paths"].values() for operation in path.values()]
    assert len(operation_ids) == len(set(operation_ids))
    for operation_id in operation_ids:
        assert re.fullmatch(r"[a-z]+(_[a-z0-9]+)*", operation_id), operation_id
        assert "v1" not in operation_id.split("_")


def test_dockerfile_passes_hadolint():
    hadolint = ROOT / ".venv" / "bin" / "hadolint"
    result = subprocess.run([str(hadolint), str(ROOT / "Dockerfile")], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
