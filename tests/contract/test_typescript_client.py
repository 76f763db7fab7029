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

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.contract.node_packages import CLIENT, CONTRACT, MANIFESTS, installed_packages, run, tool
from tests.live_server import running_server


@pytest.fixture(scope="module")
def typescript_program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The program generated, type-checked and compiled in a temporary folder: its JavaScript."""
    node = tool("node")
    modules = installed_packages()
    build = tmp_path_factory.mktemp("typescript-client")
    for name in (*MANIFESTS, "tsconfig.json"):
        shutil.copy(CLIENT / name, build / name)
    (build / "src").mkdir()
    for source in (CLIENT / "src").glob("*.ts"):
        if source.name != "contract.ts":  # generated below from the committed contract
            shutil.copy(source, build / "src" / source.name)
    (build / "node_modules").symlink_to(modules, target_is_directory=True)
    generator = modules / "openapi-typescript" / "bin" / "cli.js"
    run([node, str(generator), str(CONTRACT), "--output", str(build / "src" / "contract.ts")], build, timeout=120)
    tsc = str(modules / "typescript" / "bin" / "tsc")
    run([node, tsc, "--strict", "--noEmit", "-p", "tsconfig.json"], build, timeout=180)  # no type error
    run([node, tsc, "--strict", "-p", "tsconfig.json"], build, timeout=180)
    return build / "dist" / "main.js"


@pytest.mark.slow
def test_typescript_client_against_a_live_server(typescript_program: Path) -> None:
    node = tool("node")
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
