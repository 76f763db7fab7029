"""The website in headless Chromium (Debian's package) against a live server on the real data, in
every language (chosen with the site's own switch) at a phone's width (390 px, and 360 px for the
geometry) and a desktop's (1280 px): every page type renders in its language; the columns a reader comes for (place, name,
rating, change: the header cells marked ``data-key``) are inside the screen on the first rows; no two
blocks of a page overlap (a block's extent includes what overflows it); a phone needs no sideways
scrolling of the page itself; axe-core (npm) finds no serious or critical accessibility violation
(at the phone's width in every language, at the desktop's in English);
no request leaves the service; and the README's screenshots are taken (into docs/screenshots/ when
SCREENSHOTS_DIR names it, else into a temporary directory). The documentation pages (Swagger UI,
ReDoc) work under their Content-Security-Policy."""

import json
import os
import re
import tempfile
from functools import cache
from pathlib import Path
from urllib.parse import quote

import pytest
from babel.messages.pofile import read_po

from app.recompute.jobs import run_pending_jobs
from app.web.i18n import LANGUAGES, LOCALE_DIRECTORY
from tests.browser import Browser, ensure_axe, ensure_chromium
from tests.helpers import AUTH, ROOT, SITE_EARLIER, SITE_LIST_DATE, load_site, store_three_tournaments
from tests.live_server import running_server

pytestmark = pytest.mark.slow

# The README's screenshots are retaken only when asked (SCREENSHOTS_DIR=docs/screenshots): a test run
# leaves the checkout as it found it, and a machine's fonts do not rewrite tracked files.
SCREENSHOTS = Path(os.environ.get("SCREENSHOTS_DIR") or tempfile.mkdtemp(prefix="screenshots-"))
DESKTOP, PHONE, SMALL_PHONE, WIDE = (1280, 900), (390, 844), (360, 740), (1920, 1080)
# Tables people read whole (issue 47 item 4): at 1920 px every column of these pages' tables is within
# the page, as the EGD and renju.net show them: EGC 2013's ten rounds with its MMS and SOS, the
# Chinese file's longest renju tournament (12 rounds) and one of seven, and a list's every column.
WHOLE_TABLES = ("/tournaments/egc2013main-2013-07-28", "/tournaments/T0048", "/tournaments/T0003", "/lists/rif-whr")
SCREENSHOT_LANGUAGES = ("en", "ru")

# Every key cell (header and first rows) of every table outside the screen or its table's box, and
# every pair of sibling blocks whose extents overlap by more than a pixel each way.
GEOMETRY = """(() => {
  const width = document.documentElement.clientWidth;
  const found = [];
  for (const table of document.querySelectorAll('table')) {
    const keys = [...table.querySelectorAll('thead th')].map((th, i) => th.hasAttribute('data-key') ? i : -1).filter(i => i >= 0);
    if (!keys.length || !table.tBodies.length) continue;
    const wrap = table.closest('.table-wrap');
    const box = wrap ? wrap.getBoundingClientRect() : {left: 0, right: width};
    const left = Math.max(0, box.left), right = Math.min(width, box.right);
    for (const row of [table.tHead.rows[0], ...[...table.tBodies[0].rows].slice(0, 3)]) {
      for (const i of keys) {
        const cell = row.cells[i];
        if (!cell) continue;
        const r = cell.getBoundingClientRect();
        if (r.left < left - 0.5 || r.right > right + 0.5)
          found.push(`key cell "${cell.textContent.trim().slice(0, 30)}" at ${Math.round(r.left)}-${Math.round(r.right)}, outside ${Math.round(left)}-${Math.round(right)}`);
      }
    }
  }
  const extent = (el) => {
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    const clips = style.overflowX !== 'visible';
    return {left: r.left, top: r.top, right: clips ? r.right : Math.max(r.right, r.left + el.scrollWidth),
            bottom: clips ? r.bottom : Math.max(r.bottom, r.top + el.scrollHeight)};
  };
  const shown = (el) => {
    const style = getComputedStyle(el);
    // An inline element (a name marked translate="no" inside a heading) is a run of text, not a block:
    // its box spans the lines it wraps over, so it may cross its neighbour's without covering it.
    return style.display !== 'none' && style.display !== 'inline' && style.position !== 'absolute' && el.getBoundingClientRect().width > 0 && !el.classList.contains('sr-only');
  };
  const containers = [document.body, document.querySelector('header'), ...document.querySelectorAll('header *, main, main *')]
    .filter(el => el && el.children.length > 1 && !el.closest('table') && !el.closest('svg') && !['P', 'SELECT', 'UL', 'LI', 'A', 'LABEL'].includes(el.tagName));
  for (const container of containers) {
    const blocks = [...container.children].filter(shown);
    for (let a = 0; a < blocks.length; a++) for (let b = a + 1; b < blocks.length; b++) {
      const p = extent(blocks[a]), q = extent(blocks[b]);
      const across = Math.min(p.right, q.right) - Math.max(p.left, q.left), down = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      if (across > 1 && down > 1)
        found.push(`${blocks[a].tagName}.${blocks[a].className} overlaps ${blocks[b].tagName}.${blocks[b].className} (${Math.round(across)}x${Math.round(down)} px)`);
    }
  }
  return found;
})()"""


# Every table whose columns do not all fit its box (it scrolls) or the page.
WHOLE = """(() => {
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll('.table-wrap')].map(wrap => {
    const table = wrap.querySelector('table'), r = table.getBoundingClientRect();
    return wrap.scrollWidth > wrap.clientWidth + 1 || r.right > width + 0.5
      ? `${wrap.getAttribute('aria-label')}: ${Math.round(r.width)} px wide, its box ${wrap.clientWidth} px, the page ${width} px` : '';
  }).filter(Boolean);
})()"""

# On a phone, each table scrolled to its end: its first row's number and name cells still in its box
# (the first columns stay while the rest scroll, issue 47 item 4).
STAYING = """(() => {
  const found = [];
  for (const wrap of document.querySelectorAll('.table-wrap')) {
    if (wrap.scrollWidth <= wrap.clientWidth) continue;
    wrap.scrollLeft = wrap.scrollWidth;
    const box = wrap.getBoundingClientRect(), row = wrap.querySelector('tbody tr');
    for (const cell of row ? row.querySelectorAll('.lead, th[scope="row"]') : []) {
      const r = cell.getBoundingClientRect();
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5)
        found.push(`"${cell.textContent.trim().slice(0, 30)}" scrolled out of ${wrap.getAttribute('aria-label')}`);
    }
    wrap.scrollLeft = 0;
  }
  return found;
})()"""

# Every word of the site's own English vocabulary (``VOCABULARY``) in the page's text outside what is
# marked as names and data (``translate="no"``, issue 47 item 5). Attributes are not read: an
# aria-label names a list or a player inside its sentence, with no element to mark him.
ENGLISH_WORDS = """((vocabulary) => {
  const words = new Set(vocabulary), found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest('[translate="no"], script, style')) continue;
    // (The API's paths and the system name translations keep, as the vocabulary leaves them out.)
    const text = node.textContent.replace(/\\/v1\\/\\S*|Whole-History Rating/g, ' ');
    for (const word of text.match(/[A-Za-z]{3,}/g) || [])
      if (words.has(word.toLowerCase())) found.push(`English "${word}" in "${node.textContent.trim().slice(0, 80)}"`);
  }
  return found;
})(%s)"""


def _words(text: str) -> set[str]:
    """A message's words of three letters or more, without its markup, its placeholders, the API's
    paths and the one system name translations keep as a name (Whole-History Rating), so that
    "rating" stays a word a translation must not leave."""
    text = re.sub(r"%\([a-z_]+\)[sd]|<[^>]*>|&[a-z]+;|/v1/\S*|Whole-History Rating", " ", text)
    return {word.lower() for word in re.findall(r"[A-Za-z]{3,}", text)}


@cache
def vocabulary(code: str) -> list[str]:
    """The English words of the site's own messages (the catalogue's msgids) that its translation into
    ``code`` never uses itself (Estonian, written in Latin letters, shares some; every language keeps
    "API"), so that any of them on a page in that language is a word left untranslated."""
    with (LOCALE_DIRECTORY / code / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalog = read_po(po)
    english: set[str] = set()
    translated: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        for text in message.id if isinstance(message.id, tuple) else (message.id,):
            english |= _words(text)
        for text in message.string if isinstance(message.string, tuple) else (message.string,):
            translated |= _words(text or "")
    return sorted(english - translated)


def test_the_vocabulary_holds_the_sites_words_and_not_the_translations():
    for code in ("ru", "zh", "ja", "et"):
        assert {"rating", "player", "tournament", "crosstable", "face"} <= set(vocabulary(code)), code
    assert "api" not in vocabulary("ru") and "place" in vocabulary("et")


@pytest.fixture(scope="session")
def chromium() -> str:
    return ensure_chromium()


@pytest.fixture(scope="session")
def axe_source() -> str:
    return ensure_axe(ROOT / "var" / "test-tools" / "axe-core")


def test_pages_in_chromium_in_every_language_at_both_widths(client, chromium, axe_source):  # type: ignore[no-untyped-def]
    load_site(client)
    # Two publications: the second's page has its change column, "new" markers and who left.
    for day, title in ((SITE_EARLIER, "RIF rating list, earlier"), (SITE_LIST_DATE, "RIF rating list, 2019")):
        published = client.post("/v1/rating-lists/rif-whr/publications", json={"date": str(day), "title": title}, headers=AUTH)
        assert published.status_code == 201, published.text
    # The best active player the file names (many are known by their renju.net id alone).
    rows = client.get("/v1/rating-lists/rif-whr/ratings", params={"limit": 100}).json()["items"]
    top = next(row["player_id"] for row in rows if row["name"])
    egc_player = client.get("/v1/rating-lists/rivne/ratings", params={"limit": 1}).json()["items"][0]["player_id"]
    # The RIF's own check of its w² (a 9:1 holdout, three values tried), for the accuracy page.
    asked = {"mode": "holdout", "every": 10, "sweep": {"parameter": "w2", "values": [6, 12.9, 25]}}
    assert client.post("/v1/rating-lists/rif-whr/evaluations", json=asked, headers=AUTH).status_code == 202
    run_pending_jobs(list_date=SITE_LIST_DATE)
    assert client.get("/v1/rating-lists/rif-whr/evaluations").json()["items"][0]["status"] == "succeeded"
    pages = [
        # (screenshot name or None, path)
        ("home", "/"),
        ("list", "/lists/rif-whr"),
        ("publication", "/lists/rif-whr/publications/2?status=all"),
        ("player", f"/players/{top}"),
        ("tournament", "/tournaments/T0003"),
        ("tournaments", "/tournaments"),
        ("search", "/players?q=wang"),
        ("publications", "/lists/rif-whr/publications"),
        (None, "/lists/rivne?country=FR"),
        (None, "/lists/olufsen"),
        ("snapshots", "/lists/rif-whr/snapshots"),
        (None, "/players/s1"),
        (None, "/tournaments/egc2013main-2013-07-28"),
        (None, "/tournaments/T0048"),  # the Chinese file's longest tournament: twelve rounds
        (None, f"/players/{egc_player}"),  # a Go player: his club, declared in the h9 file
        ("error", "/players/nobody"),
        (None, "/players/952/vs/1219"),  # two players who met eight times, with each list's expectation
        (None, "/lists/rif-whr/predict?a=952&b=1219"),  # who is favoured: both chances, ratings ± deviations
        (None, "/lists/rif-whr/drift"),  # the list's drift: its chart and a table of ten columns, month by month
        (None, "/lists/rif-whr/accuracy"),  # its evaluation: the scores, the calibration plot and tables, w²'s curve
        (None, "/lists/rif-elo/accuracy"),  # a list not evaluated yet: how an officer runs one
        (None, "/lists/rif-elo?status=provisional"),  # provisional ratings marked ≈ and explained
        (None, "/calculators"),
        (None, "/calculators/rivne-game?rating=1500&opponent_rating=1600&score=1&board_size=19&handicap=0"),
        (None, "/calculators/olufsen-table"),  # a form refused: the errors shown
        (None, "/tournaments/T0003/lists/rif-whr/figures"),
        # A Go tournament's figures (Juvisy, 19 players): EGC 2013's page holds 594 players' figures, on
        # which one axe run takes some 50 s, ten runs of the same markup as this page's.
        (None, "/tournaments/tournoi-de-juvisy-2019-10-26/lists/rivne/figures"),
    ]
    problems: list[tuple[str, str, int, object]] = []
    with running_server() as server, Browser(chromium) as browser:
        base = server.url
        for code, language in LANGUAGES.items():
            for name, path in pages:
                # 360 px, the narrowest the site is made for: the same geometry. axe-core at 390 px in every
                # language and at 1280 px in English: what it checks is the markup (names, roles, labels,
                # landmarks, each text's language), which a translation changes only in its words, and the
                # colours, which are the same in every language; what a width changes (the menu, which
                # columns show) it sees at both. A translation's own geometry is checked at every width.
                for width, height in (SMALL_PHONE, PHONE, DESKTOP):
                    # Through the site's own switch: its cookie, then back to the page.
                    page = browser.open(
                        f"{base}/language/{code}?next={quote(path, safe='')}",
                        width=width,
                        height=height,
                        mobile=width < DESKTOP[0],
                    )
                    assert page.evaluate("location.pathname + location.search") == path
                    assert page.evaluate("document.documentElement.lang") == language.tag, (code, path)
                    if width < DESKTOP[0]:  # wide tables scroll inside their own box; the page itself fits the screen
                        if not page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"):
                            problems.append((code, path, width, "the page scrolls sideways"))
                    if path.startswith("/players/") and path != "/players/nobody" and "/vs/" not in path:
                        widths = page.evaluate(
                            "[...document.querySelectorAll('svg.chart')].map(svg => svg.getBoundingClientRect().width)"
                        )
                        assert widths and min(widths) > 300, (path, widths)
                    for found in page.evaluate(GEOMETRY):
                        problems.append((code, path, width, found))
                    if path in WHOLE_TABLES and width < DESKTOP[0]:
                        for found in page.evaluate(STAYING):
                            problems.append((code, path, width, found))
                    violations = page.axe(axe_source) if width == PHONE[0] or (width == DESKTOP[0] and code == "en") else []
                    for violation in violations:
                        if violation["impact"] in ("serious", "critical"):
                            problems.append((code, path, width, violation))
                    if name and code in SCREENSHOT_LANGUAGES and width != SMALL_PHONE[0]:
                        page.screenshot(SCREENSHOTS / f"{name}-{code}-{width}.png", max_height=1400)
                    if code != "en" and width == DESKTOP[0]:
                        for found in page.evaluate(ENGLISH_WORDS % json.dumps(vocabulary(code))):
                            problems.append((code, path, width, found))
                    page.call("Page.close")
                if path in WHOLE_TABLES:
                    page = browser.open(f"{base}{path}", width=WIDE[0], height=WIDE[1])
                    for found in page.evaluate(WHOLE) + page.evaluate(GEOMETRY):
                        problems.append((code, path, WIDE[0], found))
                    page.call("Page.close")
        outside = [url for url in browser.requested if not url.startswith((base + "/", "data:"))]
        assert not outside, outside
    assert not problems, "\n".join(map(str, problems))
    for name, _ in pages:
        for code in SCREENSHOT_LANGUAGES:
            for width in (PHONE[0], DESKTOP[0]):
                if name:
                    assert (SCREENSHOTS / f"{name}-{code}-{width}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_geometry_check_finds_overlapping_blocks_and_key_cells_off_the_screen(chromium):  # type: ignore[no-untyped-def]
    """The home page's old fault (a card's table wider than its card, over its neighbour) and a
    phone's (the rating behind a wide first column) are both reported."""
    faulty = (
        '<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"></head><body><main>'
        '<div style="display:grid;grid-template-columns:200px 200px">'
        '<section><table><tr><td style="width:400px;white-space:nowrap">a card wider than its column</td></tr></table></section>'
        "<section><p>its neighbour</p></section></div>"
        '<div class="table-wrap" style="overflow-x:auto"><table><thead><tr><th data-key>Player</th>'
        '<th style="min-width:600px">ID</th><th data-key>Rating</th></tr></thead>'
        "<tbody><tr><td>A</td><td>1</td><td>2400</td></tr></tbody></table></div>"
        "</main></body></html>"
    )
    with Browser(chromium) as browser:
        page = browser.open("data:text/html," + quote(faulty), width=PHONE[0], height=PHONE[1], mobile=True)
        found = page.evaluate(GEOMETRY)
    assert any("SECTION. overlaps SECTION." in problem for problem in found), found
    assert any('key cell "Rating"' in problem for problem in found) and any('key cell "2400"' in problem for problem in found), (
        found
    )
    assert not any('key cell "Player"' in problem for problem in found), found


def test_why_a_rating_changed_fits_a_small_phone_in_every_language(client, chromium, axe_source):  # type: ignore[no-untyped-def]
    """The why-changed section of issue 47 item 1, with its form, figures and both tables: at 360 px
    the page does not scroll sideways, its tables' key cells stay on the screen and no blocks
    overlap; at 390 px axe-core finds no serious or critical violation."""
    from tests.rating_changes_scenario import history_with_a_correction

    history_with_a_correction(client)
    path = "/players/p1?list=rif-whr&from=publication%3A1&to=publication%3A2"

    def shows_both_tables(page, code: str) -> list[str]:  # type: ignore[no-untyped-def]
        assert page.evaluate("document.querySelectorAll('#why-rif-whr table').length") == 2, code
        return []

    problems = _phone_problems(chromium, axe_source, path, shows_both_tables)
    assert not problems, "\n".join(map(str, problems))


def test_a_sweep_of_two_parameters_fits_a_small_phone_in_every_language(client, chromium, axe_source):  # type: ignore[no-untyped-def]
    """The accuracy page's table of a sweep of ten values of w² by ten numbers of virtual games: at 360
    px the table scrolls inside its own box and the page does not scroll sideways, no blocks overlap;
    at 390 px axe-core finds no serious or critical violation."""
    day = SITE_LIST_DATE
    store_three_tournaments(client, day)
    w2 = [2, 4, 6, 8, 10, 12.9, 16, 20, 25, 32]
    asked = {
        "mode": "holdout",
        "every": 2,
        "sweep": {"parameter": "w2", "values": w2, "and_parameter": {"parameter": "virtual_games", "values": list(range(1, 11))}},
    }
    assert client.post("/v1/rating-lists/rif-whr/evaluations", json=asked, headers=AUTH).status_code == 202
    run_pending_jobs(list_date=day)
    path = "/lists/rif-whr/accuracy"

    def scrolls_the_grid_in_its_box(page, code: str) -> list[str]:  # type: ignore[no-untyped-def]
        assert page.evaluate("document.querySelectorAll('table.sweep-grid tbody tr').length") == len(w2), code
        wrap = "document.querySelector('table.sweep-grid').closest('.table-wrap')"
        return [] if page.evaluate(f"{wrap}.scrollWidth > {wrap}.clientWidth") else ["the grid does not scroll in its own box"]

    problems = _phone_problems(chromium, axe_source, path, scrolls_the_grid_in_its_box)
    assert not problems, "\n".join(map(str, problems))


def _phone_problems(chromium, axe_source, path: str, page_problems) -> list[tuple[str, int, object]]:  # type: ignore[no-untyped-def]
    """``path`` at 360 and 390 px in every language: whether the page scrolls sideways, the geometry's
    problems and ``page_problems(page, code)``'s, and at 390 px axe-core's serious or critical violations."""
    problems: list[tuple[str, int, object]] = []
    with running_server() as server, Browser(chromium) as browser:
        for code in LANGUAGES:
            for width, height in (SMALL_PHONE, PHONE):
                page = browser.open(
                    f"{server.url}/language/{code}?next={quote(path, safe='')}", width=width, height=height, mobile=True
                )
                if not page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"):
                    problems.append((code, width, "the page scrolls sideways"))
                problems += [(code, width, found) for found in page_problems(page, code)]
                problems += [(code, width, found) for found in page.evaluate(GEOMETRY)]
                if width == PHONE[0]:
                    violations = page.axe(axe_source)
                    problems += [(code, width, v) for v in violations if v["impact"] in ("serious", "critical")]
                page.call("Page.close")
    return problems


# Each violation of a document's Content-Security-Policy, recorded before the document's own scripts run.
RECORD_VIOLATIONS = (
    "window.violations = [];"
    "document.addEventListener('securitypolicyviolation', e => window.violations.push(e.violatedDirective + ' ' + e.blockedURI));"
)


def test_the_documentation_pages_work_under_their_policies(app, chromium):  # type: ignore[no-untyped-def]
    """Swagger UI lists every operation of the contract and ReDoc renders it and searches it, under the
    policies app/http/security_headers.py gives them: nothing they run is blocked, and nothing leaves
    the service but the logo ReDoc asks of its CDN, which the policy blocks (the pages need no network)."""
    operations = sum(len(methods) for methods in app.openapi()["paths"].values())
    with running_server() as server, Browser(chromium) as browser:
        swagger = browser.open(f"{server.url}/docs", width=1280, height=900, before_scripts=RECORD_VIOLATIONS)
        assert swagger.wait_until(f"document.querySelectorAll('.opblock').length >= {operations}")
        assert swagger.evaluate("window.violations") == []
        redoc = browser.open(f"{server.url}/redoc", width=1280, height=900, before_scripts=RECORD_VIOLATIONS)
        assert redoc.wait_until("document.querySelectorAll('[data-section-id^=\"tag/\"]').length > 5")
        redoc.evaluate(
            "(() => { const box = document.querySelector('input.search-input');"
            " Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(box, 'publication');"
            " box.dispatchEvent(new Event('input', {bubbles: true})); return true; })()"
        )
        assert redoc.wait_until("document.querySelectorAll('[data-role=\"search:results\"] li').length")  # (in its worker)
        assert redoc.evaluate("window.violations") == ["img-src https://cdn.redoc.ly/redoc/logo-mini.svg"]
        # (Asked for, and blocked by the policy: the one violation above.)
        outside = [url for url in browser.requested if not url.startswith((server.url + "/", "data:", "blob:"))]
        assert outside == ["https://cdn.redoc.ly/redoc/logo-mini.svg"], outside
