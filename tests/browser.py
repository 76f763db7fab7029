"""Headless Chromium driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``: the
browser reads commands on fd 3 and writes answers on fd 4, each a JSON text ended by a NUL), so no
driver package and no browser download is needed: Debian's ``chromium`` and axe-core's script from
the npm registry, both installed by ``ensure_chromium`` / ``ensure_axe`` when missing.

    with Browser(chromium) as browser:
        page = browser.open(url, width=1280, height=900)
        page.screenshot(path)
        violations = page.axe(axe_source)
        browser.requested  # every URL the pages asked for
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.slow import require_slow

AXE_VERSION = "4.14.1"


def ensure_chromium() -> str:
    """Debian's chromium, installed with apt-get when missing (CI runs as root on a fresh machine),
    with a font for Latin and Cyrillic and one for Chinese and Japanese (the pages' five languages)."""
    require_slow("a headless browser")
    found = shutil.which("chromium")
    if found:
        return found
    with _installing("chromium"):  # (apt-get takes one install at a time: another suite may be at it)
        found = shutil.which("chromium")
        if found:
            return found
        environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        install = ["apt-get", "install", "-y", "--no-install-recommends", "chromium", "fonts-dejavu-core", "fonts-wqy-microhei"]
        if subprocess.run(install, env=environment, capture_output=True).returncode != 0:
            subprocess.run(["apt-get", "update"], env=environment, check=True, capture_output=True)
            subprocess.run(install, env=environment, check=True, capture_output=True)
        found = shutil.which("chromium")
    if not found:
        raise RuntimeError("chromium is not installed and apt-get could not install it")
    return found


def ensure_axe(directory: Path) -> str:
    """axe-core's script (pinned), installed from the npm registry into ``directory`` when missing."""
    script = directory / "node_modules" / "axe-core" / "axe.min.js"
    with _installing("axe-core"):  # (the suites on both databases may run side by side in one checkout)
        if not script.exists():
            npm = shutil.which("npm")
            if npm is None:
                raise RuntimeError("npm is needed to install axe-core (apt-get install npm)")
            directory.mkdir(parents=True, exist_ok=True)
            subprocess.run(
                [npm, "install", "--prefix", str(directory), "--no-audit", "--no-fund", "--no-save", f"axe-core@{AXE_VERSION}"],
                check=True,
                capture_output=True,
            )
    return script.read_text(encoding="utf-8")


@contextmanager
def _installing(what: str) -> Iterator[None]:
    """One process at a time installs ``what`` on this machine (an exclusive lock on a file in the
    temporary directory); the others wait, then find it installed."""
    with (Path(tempfile.gettempdir()) / f"rating-tests-install-{what}.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


class Browser:
    def __init__(self, chromium: str, timeout: float = 60) -> None:
        self.chromium = chromium
        self.timeout = timeout
        self.requested: list[str] = []
        self._next_id = 0
        self._buffer = b""
        self._events: list[dict[str, Any]] = []

    def __enter__(self) -> Browser:
        self._profile = tempfile.mkdtemp(prefix="chromium-profile-")
        to_browser_read, self._to_browser = os.pipe()
        self._from_browser, from_browser_write = os.pipe()
        # The child must find them exactly at fds 3 and 4: moved there after the fork.
        high_read, high_write = os.dup(to_browser_read), os.dup(from_browser_write)

        def on_fds_3_and_4() -> None:
            os.dup2(high_read, 3)
            os.dup2(high_write, 4)

        self.process = subprocess.Popen(
            [
                self.chromium,
                "--headless=new",
                "--remote-debugging-pipe",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--hide-scrollbars",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--font-render-hinting=none",
                f"--user-data-dir={self._profile}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=on_fds_3_and_4,
            pass_fds=(3, 4),
        )
        for fd in (to_browser_read, from_browser_write, high_read, high_write):
            os.close(fd)
        return self

    def __exit__(self, *_: object) -> None:
        try:
            self.call("Browser.close")
        except Exception:  # noqa: BLE001 - closing anyway
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)
        shutil.rmtree(self._profile, ignore_errors=True)

    def open(self, url: str, *, width: int, height: int, mobile: bool = False, before_scripts: str = "") -> Page:
        """A new tab on ``url``; ``before_scripts`` runs in each of its documents before their own
        scripts (and outside their Content-Security-Policy)."""
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        page.call("Page.enable")
        page.call("Network.enable")
        if before_scripts:
            page.call("Page.addScriptToEvaluateOnNewDocument", {"source": before_scripts})
        page.call(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
        )
        page.goto(url)
        return page

    # --- the protocol ------------------------------------------------------------------------

    def call(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        while True:
            answer = self._read()
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self._event(answer)

    def wait_for(self, method: str, session: str) -> dict[str, Any]:
        for index, event in enumerate(self._events):
            if event.get("method") == method and event.get("sessionId") == session:
                return self._events.pop(index)
        while True:
            event = self._read()
            if event.get("method") == method and event.get("sessionId") == session:
                return event
            self._event(event)

    def _event(self, event: dict[str, Any]) -> None:
        if event.get("method") == "Network.requestWillBeSent":
            self.requested.append(event["params"]["request"]["url"])
        self._events.append(event)
        del self._events[:-200]

    def _read(self) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError("chromium stopped answering")
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed its pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)


class Page:
    def __init__(self, browser: Browser, session: str) -> None:
        self.browser = browser
        self.session = session

    def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.browser.call(method, params, self.session)

    def goto(self, url: str) -> None:
        self.call("Page.navigate", {"url": url})
        self.browser.wait_for("Page.loadEventFired", self.session)

    def wait_until(self, expression: str, timeout: float = 30) -> Any:
        """The expression's value once it is truthy (it is evaluated every tenth of a second)."""
        deadline = time.monotonic() + timeout
        while not (value := self.evaluate(expression)):
            if time.monotonic() > deadline:
                raise RuntimeError(f"still false after {timeout} s: {expression}")
            time.sleep(0.1)
        return value

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"script failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, path: Path, *, max_height: int = 2000) -> None:
        """The page from its top, as tall as its content (at most ``max_height`` CSS pixels)."""
        import base64

        size = self.call("Page.getLayoutMetrics")["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], max_height), "scale": 1}
        data = self.call("Page.captureScreenshot", {"format": "png", "clip": clip, "captureBeyondViewport": True})["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))

    def axe(self, source: str) -> list[dict[str, Any]]:
        """axe-core's violations of WCAG 2.1 A and AA and its best practices on the page."""
        self.evaluate(source + "\n;true")
        found = self.evaluate(
            "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']},"
            " resultTypes: ['violations']})"
            ".then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
            " nodes: v.nodes.slice(0, 5).map(n => n.target.join(' '))})))"
        )
        return list(found)
