"""A TypeScript client generated from the committed openapi/openapi.json (openapi-typescript 7 and
openapi-fetch, pinned by clients/typescript/package-lock.json) type-checks under `tsc --strict` and
works against a live server: clients/typescript/src/main.ts plays tournament software (submit, retry
with the same Idempotency-Key, correct with the 201's ETag in If-Match, a stale If-Match, withdraw,
restore, a 422's pointers) and a website (a list page by page and its 304, a query parameter's 422,
a player's history and changes, search, a calculator, a what-if), and validates every answer it
receives against the contract (ajv, src/validate.ts).

Node and npm are needed (CI's machine has them): without them the test fails, it does not skip. The
npm packages are installed with `npm ci` once per lock file, into a cache outside the repository
($XDG_CACHE_HOME or ~/.cache, renju-rating/typescript-client/<digest of the lock>), and the program
is built in a temporary folder, so the checkout stays as it is."""

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers import ROOT
from tests.live_server import running_server

CLIENT = ROOT / "clients" / "typescript"
CONTRACT = ROOT / "openapi" / "openapi.json"
MANIFESTS = ("package.json", "package-lock.json")


def _tool(name: str) -> str:
    found = shutil.which(name)
    assert found is not None, (
        f"{name} is not on PATH: the TypeScript client test needs Node 20 and npm (apt-get install nodejs npm)"
    )
    return found


def _run(command: list[str], cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{' '.join(command)} exited with {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result


def _installed_packages() -> Path:
    """The node_modules of the committed lock, installed by `npm ci` when this lock has none yet."""
    npm = _tool("npm")
    digest = hashlib.sha256(b"".join((CLIENT / name).read_bytes() for name in MANIFESTS)).hexdigest()[:16]
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "renju-rating" / "typescript-client"
    target = cache / digest
    if not (target / "node_modules" / ".installed").exists():
        # Installed beside it and renamed into place: a run stopped midway, or another checkout
        # installing at the same time, never leaves a half-installed folder under the digest.
        staging = cache / f"{digest}.{os.getpid()}"
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        for name in MANIFESTS:
            shutil.copy(CLIENT / name, staging / name)
        _run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--prefer-offline"], staging, timeout=300)
        (staging / "node_modules" / ".installed").touch()
        shutil.rmtree(target, ignore_errors=True)
        try:
            staging.rename(target)
        except OSError:  # another run put its own in place meanwhile: the same lock, the same packages
            shutil.rmtree(staging, ignore_errors=True)
    return target / "node_modules"


@pytest.fixture(scope="module")
def typescript_program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The program generated, type-checked and compiled in a temporary folder: its JavaScript."""
    node = _tool("node")
    modules = _installed_packages()
    build = tmp_path_factory.mktemp("typescript-client")
    for name in (*MANIFESTS, "tsconfig.json"):
        shutil.copy(CLIENT / name, build / name)
    (build / "src").mkdir()
    for source in (CLIENT / "src").glob("*.ts"):
        if source.name != "contract.ts":  # generated below from the committed contract
            shutil.copy(source, build / "src" / source.name)
    (build / "node_modules").symlink_to(modules, target_is_directory=True)
    generator = modules / "openapi-typescript" / "bin" / "cli.js"
    _run([node, str(generator), str(CONTRACT), "--output", str(build / "src" / "contract.ts")], build, timeout=120)
    tsc = str(modules / "typescript" / "bin" / "tsc")
    _run([node, tsc, "--strict", "--noEmit", "-p", "tsconfig.json"], build, timeout=180)  # no type error
    _run([node, tsc, "--strict", "-p", "tsconfig.json"], build, timeout=180)
    return build / "dist" / "main.js"


@pytest.mark.slow
def test_typescript_client_against_a_live_server(typescript_program: Path) -> None:
    node = _tool("node")
    with running_server(RUN_WORKER="true", WORKER_POLL_SECONDS="0.2") as server:
        result = subprocess.run(
            [node, str(typescript_program), server.url, "secret-key", str(CONTRACT)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        log = server.log()
    lines = result.stdout.strip().splitlines()
    assert lines, f"the program printed nothing (exit {result.returncode})\n{result.stderr}\n{log[-3000:]}"
    report = json.loads(lines[-1])
    assert report["violations"] == [], "answers the contract does not describe:\n" + "\n".join(report["violations"])
    assert report["failure"] is None, report["failure"] + "\n" + log[-3000:]
    assert report["ok"] and result.returncode == 0, result.stderr
    # Every kind of answer the program exists for was received, and so validated.
    received = {(exchange["operation"], exchange["status"]) for exchange in report["exchanges"]}
    assert {
        ("submit_tournament", 201),
        ("submit_tournament", 422),
        ("replace_tournament", 200),
        ("replace_tournament", 412),
        ("withdraw_tournament", 200),
        ("restore_tournament", 200),
        ("get_tournament", 200),
        ("get_tournament", 404),
        ("get_job", 200),
        ("get_ratings", 200),
        ("get_ratings", 304),
        ("get_ratings", 422),
        ("get_player_history", 200),
        ("get_player_changes", 200),
        ("search_players", 200),
        ("calc_rif_elo_game", 200),
        ("what_if", 200),
    } <= received, sorted(received)
