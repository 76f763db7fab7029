"""The npm packages of the TypeScript client's committed lock (clients/typescript/package-lock.json),
installed once per lock into a cache outside the repository, for the tests that run Node: the generated
client's (test_typescript_client.py) and the contract's linter (test_openapi_linter.py). Node and npm are
needed (CI's machine has them): without them a test fails, it does not skip."""

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

from tests.helpers import ROOT

CLIENT = ROOT / "clients" / "typescript"
CONTRACT = ROOT / "openapi" / "openapi.json"
MANIFESTS = ("package.json", "package-lock.json")


def tool(name: str) -> str:
    found = shutil.which(name)
    assert found is not None, f"{name} is not on PATH: the tests that run Node need Node 20 and npm (apt-get install nodejs npm)"
    return found


def run(command: list[str], cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{' '.join(command)} exited with {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result


def installed_packages() -> Path:
    """The node_modules of the committed lock, installed by `npm ci` when this lock has none yet."""
    npm = tool("npm")
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
        run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--prefer-offline"], staging, timeout=300)
        (staging / "node_modules" / ".installed").touch()
        shutil.rmtree(target, ignore_errors=True)
        try:
            staging.rename(target)
        except OSError:  # another run put its own in place meanwhile: the same lock, the same packages
            shutil.rmtree(staging, ignore_errors=True)
    return target / "node_modules"
