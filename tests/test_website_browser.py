"""The website in headless Chromium (Debian's package) against a live server on the real data: the
pages render, a phone needs no sideways scrolling of the page itself, axe-core (npm) finds no serious
or critical accessibility violation, no request leaves the service, and the screenshots shown in the
README are taken (docs/screenshots/)."""

from pathlib import Path

import pytest

from tests.browser import Browser, ensure_axe, ensure_chromium
from tests.helpers import load_site
from tests.live_server import running_server

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = ROOT / "docs" / "screenshots"
DESKTOP, PHONE = (1280, 900), (390, 844)


@pytest.fixture(scope="session")
def chromium() -> str:
    return ensure_chromium()


@pytest.fixture(scope="session")
def axe_source() -> str:
    return ensure_axe(ROOT / "var" / "test-tools" / "axe-core")


def test_pages_in_chromium(client, chromium, axe_source):  # type: ignore[no-untyped-def]
    load_site(client)
    # The best active player the file names (many are known by their renju.net id alone).
    rows = client.get("/v1/rating-lists/rif-whr/ratings", params={"limit": 100}).json()["items"]
    top = next(row["player_id"] for row in rows if row["name"])
    pages = [
        # (screenshot name or None, path, viewport, phone)
        ("list", "/lists/rif-whr", DESKTOP, False),
        ("player", f"/players/{top}", DESKTOP, False),
        ("tournament", "/tournaments/T0003", DESKTOP, False),
        ("player-phone", f"/players/{top}", PHONE, True),
        (None, "/", DESKTOP, False),
        (None, "/", PHONE, True),
        (None, "/lists/rivne?country=FR", PHONE, True),
        (None, "/lists/rif-whr/snapshots", DESKTOP, False),
        (None, "/players/s1", DESKTOP, False),
        (None, "/tournaments/egc2013main-2013-07-28", PHONE, True),
        (None, "/tournaments", DESKTOP, False),
        (None, "/players?q=wang", DESKTOP, False),
        (None, "/players/nobody", DESKTOP, False),
        (None, "/calculators", PHONE, True),
        (None, "/calculators/rivne-game?black_rating=1500&white_rating=1600&result=B&board_size=19&handicap=0", DESKTOP, False),
        (None, "/calculators/olufsen-table", DESKTOP, False),  # a form refused: the errors shown
        (None, "/tournaments/T0003/lists/rif-whr/figures", PHONE, True),
        (None, "/tournaments/egc2013main-2013-07-28/lists/rivne/figures", DESKTOP, False),
    ]
    with running_server() as server, Browser(chromium) as browser:
        base = server.url
        for name, path, (width, height), phone in pages:
            page = browser.open(base + path, width=width, height=height, mobile=phone)
            assert page.evaluate("document.documentElement.lang") == "en"
            if phone:  # wide tables scroll inside their own box; the page itself fits the screen
                assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), path
            if path.startswith("/players/") and path != "/players/nobody":
                widths = page.evaluate(
                    "[...document.querySelectorAll('svg.chart')].map(svg => svg.getBoundingClientRect().width)"
                )
                assert widths and min(widths) > 300, (path, widths)
            violations = page.axe(axe_source)
            serious = [v for v in violations if v["impact"] in ("serious", "critical")]
            assert not serious, (path, phone, serious)
            if name:
                page.screenshot(SCREENSHOTS / f"{name}.png", max_height=2100 if name.startswith("player") else 1500)
        outside = [url for url in browser.requested if not url.startswith((base + "/", "data:"))]
        assert not outside, outside
    for name in ("list", "player", "tournament", "player-phone"):
        assert (SCREENSHOTS / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
