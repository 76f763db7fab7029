"""A real server for tests that need one: uvicorn in a subprocess, on a free port, on the test
database (the harness's DATABASE_URL, SQLite or PostgreSQL). Use the ``live_server`` fixture (one
server per test module, recompute worker off) or ``running_server(...)`` for a server of your own,
e.g. one to kill, one whose worker runs recompute jobs, or one with other settings.

    def test_something(live_server):
        httpx.get(f"{live_server.url}/v1/health")
"""

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.slow import require_slow

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class LiveServer:
    url: str
    process: subprocess.Popen
    _written: str = ""

    def log(self) -> str:
        """What the server has written to its standard error so far (read without waiting)."""
        stream = self.process.stderr
        if stream is not None and not stream.closed:
            os.set_blocking(stream.fileno(), False)
            self._written += (stream.read() or b"").decode(errors="replace")
        return self._written

    def kill(self) -> None:
        """SIGKILL: no shutdown hook, no pending write gets a chance to finish."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def running_server(**environment: str) -> Iterator[LiveServer]:
    """Start ``uvicorn app.main:app`` with the test environment plus ``environment``; stop it after."""
    require_slow("a live server in a subprocess")
    port = free_port()
    env = {**os.environ, "RUN_WORKER": "false", "LOG_LEVEL": "WARNING", **environment}
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1", "--port", str(port), "--no-access-log"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    server = LiveServer(f"http://127.0.0.1:{port}", process)
    try:
        _wait_until_up(server)
        yield server
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
        if process.stderr is not None:
            process.stderr.close()


@pytest.fixture(scope="module")
def live_server() -> Iterator[LiveServer]:
    with running_server() as server:
        yield server


def _wait_until_up(server: LiveServer, timeout: float = 90.0) -> None:
    # A server up in two seconds returns in two; the bound only says when one that never answers is
    # given up. 30 s was passed on a machine of 2 cores at a load average of 16-19 (a start's imports
    # and migrations alone), failing tests that had nothing wrong.
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            error = server.process.stderr.read().decode(errors="replace") if server.process.stderr else ""
            raise RuntimeError(f"the server exited with {server.process.returncode}: {error[-2000:]}")
        try:
            httpx.get(f"{server.url}/openapi.json", timeout=1.0)
            return  # it answers: up (whether its database is reachable is the test's business)
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the server at {server.url} did not answer within {timeout} s")
