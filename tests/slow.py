"""Which tests are slow is declared where they are written: ``pytestmark = pytest.mark.slow`` in a
module, or ``@pytest.mark.slow`` on a test (``make test-fast`` leaves them out). What takes seconds (a
server in a subprocess, the real Chinese file through the CLI, every real file imported and rated, a
headless browser) calls ``require_slow`` first, so that a test using it without the mark fails and
names what to mark, instead of making the quick run slow unseen."""

from __future__ import annotations

import pytest

_running: pytest.Item | None = None


def running(item: pytest.Item | None) -> None:
    """The test now set up, run or torn down (tests/conftest.py's hook tells), or None between tests."""
    global _running
    _running = item


def require_slow(what: str) -> None:
    if _running is not None and _running.get_closest_marker("slow") is None:
        pytest.fail(f"{_running.nodeid} uses {what}, which takes seconds: mark it @pytest.mark.slow", pytrace=False)
