"""A real uvicorn process serving the app on a free local port, on the test database (the one
tests/conftest.py migrated), with its background worker on so recompute jobs run."""

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def live_server(**environment: str) -> Iterator[str]:
    """Start uvicorn, wait until /v1/health answers, yield its base URL, stop it."""
    port = free_port()
    env = {**os.environ, "RUN_WORKER": "true", "WORKER_POLL_SECONDS": "0.2", **environment}
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    base_url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"uvicorn exited: {process.stderr.read().decode() if process.stderr else ''}")
            try:
                if httpx.get(f"{base_url}/v1/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not answer /v1/health within 60 s")
            time.sleep(0.2)
        yield base_url
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
