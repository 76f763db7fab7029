"""The website (issue 14) on real data: the Chinese renju results (rif-whr, and rif-elo started from
its bootstrap rating) and the Go files (rivne), plus the Olufsen shogi tables of
tests/test_olufsen_list_api.py (tests/helpers.py) for a grade change. Every page is rendered and read back as HTML
tables, against the API's own answers for the same data."""

import csv
import datetime as dt
import io
import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.web.charts import ChartPoint, rating_chart
from app.web.crosstable import CrossGame, crosstable
from tests.helpers import SITE_EARLIER, SITE_LIST_DATE, Page, cells, empty_database, load_site

EGC = "egc2013main-2013-07-28"


@pytest.fixture(autouse=True)
def _clean_tables() -> Iterator[None]:
    """The module's tests only read: the data is loaded once (``site``) and cleaned at its end."""
    yield


@pytest.fixture(scope="module")
def site(app) -> Iterator[TestClient]:  # type: ignore[no-untyped-def]
    empty_database()
    with TestClient(app) as client:
        load_site(client)
        yield client
    empty_database()


# --- reading pages back -------------------------------------------------------------------------


def get_page(client: TestClient, url: str, status: int = 200) -> Page:
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code, response.text[:500])
    if status == 200:
        assert response.headers["content-type"].startswith("text/html")
    return Page(response.text)


def api_rows(client: TestClient, list_id: str, **params: object) -> list[dict]:
    page = client.get(f"/v1/rating-lists/{list_id}/ratings", params={"limit": 500, **params})
    assert page.status_code == 200, page.text
    return page.json()["items"]


def shown(value: float | None) -> str:
    """A rating as the pages show it (rounded half away from zero)."""
    if value is None:
        return ""
    return str(int(abs(value) + 0.5) * (1 if value >= 0 else -1))


# --- the pages ------------------------------------------------------------------------------------


def test_home_shows_each_list_with_its_date_count_and_top_ten(site):
    page = get_page(site, "/")
    words = page.words
    lists = site.get("/v1/rating-lists").json()
    for rating_list in lists:
        assert rating_list["name"] in words
    assert "Not computed yet." in words  # rif-whr-gomoku was never recomputed
    assert f"List of {SITE_LIST_DATE}: 526 players" in words
    top = api_rows(site, "rif-whr", status="active", limit=10)
    whr = page.table("Top ten active players on RIF rating (Whole-History Rating), renju")
    assert [row[1][1] for row in whr["rows"]] == [f"/players/{r['player_id']}" for r in top]
    assert [c["Rating"] for c in cells(whr)] == [shown(r["rating"]) for r in top]
    assert "/players" in page.sources and 'role="search"' in site.get("/").text  # the search form


def test_a_list_page_shows_the_api_rows_with_the_columns_its_system_has(site):
    page = get_page(site, "/lists/rif-whr?status=all&per_page=500")
    table = page.table()
    assert table["headers"] == ["#", "Player", "ID", "Rating", "Deviation", "Games", "Last played", "Status"]
    expected = api_rows(site, "rif-whr", status="all")
    assert len(table["rows"]) == len(expected) == 500
    for row, (text_and_links, api) in zip(cells(table), zip(table["rows"], expected)):
        assert row["#"] == str(api["rank"]) and row["ID"] == api["player_id"]
        assert row["Player"] == (api["name"] or api["player_id"]) and text_and_links[1][1] == f"/players/{api['player_id']}"
        assert (row["Rating"], row["Deviation"]) == (shown(api["rating"]), shown(api["deviation"]))
        assert (row["Games"], row["Last played"], row["Status"]) == (str(api["games"]), api["last_played"], api["status"])
    assert "Players 1 to 500 of 526" in page.words
    # Elo: integers, no deviation; Rivne: countries and declared ranks.
    assert get_page(site, "/lists/rif-elo?status=all").table()["headers"] == [
        "#",
        "Player",
        "ID",
        "Rating",
        "Games",
        "Last played",
        "Status",
    ]
    rivne = get_page(site, "/lists/rivne")
    assert rivne.table()["headers"] == [
        "#",
        "Player",
        "ID",
        "Country",
        "Rating",
        "Games",
        "Last played",
        "Status",
        "Grade or rank",
    ]
    first = cells(rivne.table())[0]
    api_first = api_rows(site, "rivne")[0]
    assert (first["Country"], first["Grade or rank"], first["Rating"]) == (
        api_first["country"],
        api_first["title"],
        shown(api_first["rating"]),
    )


def test_filters_and_pagination_read_what_the_api_reads(site):
    # Country: only French players, as many as the API counts; the EGD's two-letter FR is stored as FRA.
    page = get_page(site, "/lists/rivne?country=FR&per_page=500")
    expected = api_rows(site, "rivne", country="FR")
    assert [c["ID"] for c in cells(page.table())] == [r["player_id"] for r in expected] and expected
    assert {c["Country"] for c in cells(page.table())} == {"FRA"}
    assert '<option value="FRA" selected>' in site.get("/lists/rivne?country=FR").text
    # Status: the default is active, as in the API; inactive players only on request.
    default = cells(get_page(site, "/lists/rif-whr?per_page=500").table())
    assert {c["Status"] for c in default} == {"active"}
    assert len(default) == len(api_rows(site, "rif-whr"))
    inactive = cells(get_page(site, "/lists/rif-whr?status=inactive&per_page=500").table())
    assert {c["Status"] for c in inactive} == {"inactive"}
    # As of a date: the list as it stood then, answered from the stored points.
    as_of = cells(get_page(site, "/lists/rif-whr?status=all&as_of=2014-01-01&per_page=500").table())
    expected_then = api_rows(site, "rif-whr", status="all", as_of="2014-01-01")
    assert [(c["ID"], c["Rating"], c["Status"]) for c in as_of] == [
        (r["player_id"], shown(r["rating"]), r["status"]) for r in expected_then
    ]
    # Pagination: page 3 of 50 begins at rank 101 and links to its neighbours with the same filters.
    third = get_page(site, "/lists/rif-whr?status=all&per_page=50&page=3")
    assert cells(third.table())[0]["#"] == "101" and "Players 101 to 150 of 526" in third.words
    assert "/lists/rif-whr?status=all&per_page=50&page=2" in third.links
    assert "/lists/rif-whr?status=all&per_page=50&page=4" in third.links
    assert "/lists/rif-whr?status=all&per_page=50" in third.links  # the first page


def test_an_empty_selection_says_so_and_offers_the_list_on_its_last_day(site):
    # On today's date every renju player is inactive (five years without a game, RIF 2021 #10).
    page = get_page(site, "/lists/rif-whr?as_of=2030-01-01")
    assert "No player matches these filters with the status active" in page.words and not page.tables
    assert "/lists/rif-whr?status=all&as_of=2030-01-01" in page.links


@pytest.mark.parametrize(
    "query",
    ["status=all&per_page=50&page=2", "country=FRA", "status=all&as_of=2012-06-01&per_page=200", "status=inactive"],
)
def test_the_csv_download_is_exactly_the_table_shown(site, query):
    list_id = "rivne" if "country" in query else "rif-whr"
    html = site.get(f"/lists/{list_id}?{query}")
    page = Page(html.text)
    table = page.table()
    assert f"/lists/{list_id}/ratings.csv?{query}" in page.links
    download = site.get(f"/lists/{list_id}/ratings.csv?{query}")
    assert download.status_code == 200 and download.headers["content-type"] == "text/csv; charset=utf-8"
    assert download.headers["content-disposition"].startswith(f'attachment; filename="{list_id}-')
    rows = list(csv.reader(io.StringIO(download.text)))
    assert rows[0] == table["headers"]
    assert rows[1:] == [[text for text, _ in row] for row in table["rows"]] and len(rows) > 1


def test_snapshots_are_listed_by_date_and_each_reads_as_it_was(site):
    page = get_page(site, "/lists/rif-whr/snapshots")
    rows = cells(page.table())
    assert [row["List date"] for row in rows] == [f"{SITE_LIST_DATE} (current)", str(SITE_EARLIER)]
    snapshots = site.get("/v1/rating-lists/rif-whr/snapshots").json()["items"]
    earlier = next(s for s in snapshots if s["list_date"] == str(SITE_EARLIER))
    assert f"/lists/rif-whr?snapshot={earlier['id']}" in page.links
    old = site.get(f"/lists/rif-whr?snapshot={earlier['id']}&status=all&per_page=500")
    assert old.headers["cache-control"] == "public, max-age=31536000, immutable"
    old_page = Page(old.text)
    assert f"Snapshot of {SITE_EARLIER}, as it was published" in old_page.words
    expected = api_rows(site, "rif-whr", status="all", snapshot_id=earlier["id"])
    assert [(c["ID"], c["Rating"]) for c in cells(old_page.table())] == [(r["player_id"], shown(r["rating"])) for r in expected]
    assert len(expected) < 526  # the players of 2019 were not on it yet
    # The download keeps the snapshot.
    csv_rows = list(csv.reader(io.StringIO(site.get(f"/lists/rif-whr/ratings.csv?status=all&snapshot={earlier['id']}").text)))
    assert len(csv_rows) == 1 + min(100, len(expected))


def test_a_player_page_has_a_chart_and_the_tournaments_of_each_list_and_his_games(site):
    top = api_rows(site, "rif-whr", status="all", limit=1)[0]["player_id"]
    response = site.get(f"/players/{top}")
    page = Page(response.text)
    html = response.text
    # WHR: a line in a band of one deviation; Elo: steps, no band.
    whr_chart = html[html.index('id="chart-rif-whr-title"') : html.index("</svg>", html.index('id="chart-rif-whr-title"'))]
    elo_chart = html[html.index('id="chart-rif-elo-title"') : html.index("</svg>", html.index('id="chart-rif-elo-title"'))]
    assert 'class="band"' in whr_chart and "<polyline" in whr_chart
    assert 'class="band"' not in elo_chart and re.search(r'<path class="line" d="M[\d.,]+(H[\d.]+V[\d.]+)+"', elo_chart)
    history = site.get(f"/v1/players/{top}/history", params={"list": "rif-whr"}).json()["points"]
    assert whr_chart.count('class="dot"') == len(history)
    assert f"{len(history)} rating points from {history[0]['date']}" in whr_chart
    # His tournaments on each list: before, after and change as the tournament's own page says.
    for list_id in ("rif-whr", "rif-elo"):
        name = site.get(f"/v1/rating-lists/{list_id}").json()["name"]
        table = page.table(f"Tournaments rated on {name}")
        rows = table["rows"]
        ids = [link.rsplit("/", 1)[1] for (_, link), *_ in rows]
        assert ids and len(ids) == len(set(ids))
        for (_, link), *rest in rows:
            row = dict(zip(table["headers"][1:], (text for text, _ in rest)))
            tournament = site.get(f"/v1/{link.lstrip('/')}").json()
            change = next(c for c in tournament["rating_changes"] if c["list_id"] == list_id and c["player_id"] == top)
            assert (row["Before"], row["After"]) == (shown(change["rating_before"]), shown(change["rating_after"]))
            if change["rating_before"] is not None:
                assert int(row["Change"].replace("\u2212", "-")) == int(row["After"]) - int(row["Before"])
    # His games, each with the opponent linked.
    games = page.table("games, the latest first")
    assert len(games["rows"]) == int(re.search(r"Games (\d+)", page.words).group(1)) > 50  # type: ignore[union-attr]
    for row in games["rows"]:
        opponent_link = row[4][1]
        assert opponent_link and opponent_link.startswith("/players/") and opponent_link != f"/players/{top}"
        assert row[5][0] in ("won", "lost", "drawn")
    # The place links to the list page that holds him.
    assert f"/lists/rif-whr?status=inactive#p-{top}" in page.links or f"/lists/rif-whr#p-{top}" in page.links


def test_a_grade_change_is_marked_on_the_chart(site):
    html = site.get("/players/s1").text
    chart = html[html.index('id="chart-olufsen-title"') : html.index("</svg>", html.index('id="chart-olufsen-title"'))]
    assert chart.count('class="mark"') == 1 and '<text class="mark-label"' in chart and ">3d</text>" in chart
    assert "Starts at 2d. 2d to 3d on 2024-06-02." in chart
    table = Page(html).table("Tournaments rated on Shogi rating (Olufsen)")
    assert table["headers"][-1] == "Grade or rank after" and table["rows"][-1][-1][0] == "3d"


def test_a_tournament_page_has_its_crosstable_and_each_lists_changes(site):
    tournament = site.get("/v1/tournaments/T0001").json()
    page = get_page(site, "/tournaments/T0001")
    table = page.table("Crosstable of")
    rows = cells(table)
    played = {g["black"] for g in tournament["games"]} | {g["white"] for g in tournament["games"]}
    assert len(rows) == len(played)
    rounds = sorted({g["round"] for g in tournament["games"]}, key=int)
    assert table["headers"] == ["No.", "Place", "Player", *[f"R{r}" for r in rounds], "Score"]
    # Scores add up to the games played, best first; each cell is answered by the opponent's.
    scores = [float(row["Score"].replace("\u00bd", ".5")) for row in rows]
    assert sum(scores) == len(tournament["games"]) and scores == sorted(scores, reverse=True)
    by_number = {row["No."]: row for row in rows}
    opposite = {"+": "\u2212", "\u2212": "+", "=": "="}
    for row in rows:
        for r in rounds:
            for cell in row[f"R{r}"].split():
                number, result, colour = re.fullmatch(r"(\d+)([+=\u2212])([bw])", cell).groups()  # type: ignore[union-attr]
                answer = f"{row['No.']}{opposite[result]}{'w' if colour == 'b' else 'b'}"
                assert answer in by_number[number][f"R{r}"].split()
    # Every list's changes, as the API gives them.
    for list_id in ("rif-whr", "rif-elo"):
        name = site.get(f"/v1/rating-lists/{list_id}").json()["name"]
        shown_rows = page.table(f"Each player's change on {name}")["rows"]
        expected = {c["player_id"]: c for c in tournament["rating_changes"] if c["list_id"] == list_id}
        assert {link.rsplit("/", 1)[1] for (_, link), *_ in shown_rows} == set(expected)
        for (_, link), before, after, *_ in shown_rows:
            change = expected[link.rsplit("/", 1)[1]]
            assert (before[0], after[0]) == (shown(change["rating_before"]), shown(change["rating_after"]))


def test_the_go_tournament_crosstable_has_every_player_and_his_declared_rank(site):
    tournament = site.get(f"/v1/tournaments/{EGC}").json()
    table = get_page(site, f"/tournaments/{EGC}").table("Crosstable of")
    assert len(table["rows"]) == len(tournament["players"]) == 594
    assert table["headers"][:4] == ["No.", "Place", "Player", "Rank"] and table["headers"][4:-1] == [
        f"R{n}" for n in range(1, 11)
    ]
    ranks = {p["id"]: p["rank"] for p in tournament["players"]}
    for row in table["rows"]:
        assert row[3][0] == ranks[row[2][1].rsplit("/", 1)[1]]


def test_search_finds_players_by_name_and_the_index_lists_tournaments(site):
    page = get_page(site, "/players?q=zha")
    found = page.table()
    assert "/players/2487" in [row[0][1] for row in found["rows"]]
    assert "No player matches" in get_page(site, "/players?q=nobody-at-all").words
    index = get_page(site, "/tournaments")
    assert "61 tournaments" in index.words or "tournaments, the latest first" in index.words
    total = site.get("/v1/tournaments", params={"limit": 1}).json()["total"]
    assert f"{total} tournaments, the latest first" in index.words
    assert [row[1][1] for row in index.table()["rows"]][0].startswith("/tournaments/")


def test_every_link_resolves_and_nothing_comes_from_outside(site):
    """From the home page, one step into every list, a player, a tournament and their links."""
    top = api_rows(site, "rif-whr", status="all", limit=1)[0]["player_id"]
    start = [
        "/",
        "/lists/rif-whr?status=all",
        "/lists/rivne",
        "/lists/olufsen?status=all",
        f"/players/{top}",
        "/players/s1",
        "/tournaments/T0001",
        "/tournaments",
        "/players?q=wang",
        "/lists/rif-whr/snapshots",
    ]
    seen: set[str] = set()
    for url in start:
        response = site.get(url)
        assert response.status_code == 200, url
        page = Page(response.text)
        assert "http:" not in response.text and "https:" not in response.text and "//" not in "".join(page.sources)
        for link in page.links + page.sources:
            assert link.startswith(("/", "#", "data:")) and not link.startswith("//"), (url, link)
            target = link.split("#")[0]
            if target.startswith("/") and target not in seen and not target.startswith("/docs"):
                seen.add(target)
                assert site.get(target).status_code == 200, (url, link)
    assert len(seen) > 100
    css = site.get(next(s for s in Page(site.get("/").text).links if s.startswith("/static/")))
    assert css.headers["cache-control"] == "public, max-age=31536000, immutable" and "url(" not in css.text


def test_pages_send_etags_and_answer_304(site):
    for url in (
        "/",
        "/lists/rif-whr",
        "/lists/rif-whr/ratings.csv",
        "/lists/rif-whr/snapshots",
        "/players/s1",
        "/tournaments/T0001",
    ):
        first = site.get(url)
        assert first.headers["cache-control"] == "public, max-age=60, stale-while-revalidate=600", url
        again = site.get(url, headers={"If-None-Match": first.headers["etag"]})
        assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == first.headers["etag"], url
        assert site.get(url, headers={"If-None-Match": '"other"'}).status_code == 200
    # A list page's tag follows its query and snapshot.
    tags = {site.get(url).headers["etag"] for url in ("/lists/rif-whr", "/lists/rif-whr?status=all", "/lists/rif-whr?page=2")}
    assert len(tags) == 3


def test_wrong_input_and_missing_things_are_pages_that_say_so(site):
    missing = get_page(site, "/players/nobody", status=404)
    assert "Player 'nobody' does not exist." in missing.words
    assert "does not exist" in get_page(site, "/lists/nope", status=404).words
    assert "does not exist" in get_page(site, "/tournaments/nope", status=404).words
    assert "does not exist" in get_page(site, "/lists/rif-whr?snapshot=999999", status=404).words
    bad = site.get("/lists/rif-whr?as_of=2019-13-01&page=0&status=best")
    assert bad.status_code == 422 and bad.headers["content-type"].startswith("text/html")
    words = Page(bad.text).words
    assert "as_of must be a date" in words and "page must be a whole number" in words and "status must be one of" in words
    assert site.get("/lists/rif-whr/ratings.csv?per_page=501").status_code == 422
    assert site.get("/lists/rif-whr?page=%C2%B2").status_code == 422  # a superscript two
    assert site.get("/tournaments?page=x").status_code == 422 and site.get("/players?page=-1").status_code == 422


def test_the_pages_are_not_in_the_contract(app):
    paths = app.openapi()["paths"]
    assert all(path.startswith("/v1/") for path in paths), [p for p in paths if not p.startswith("/v1/")]


# --- the pure parts --------------------------------------------------------------------------------


def test_csv_cells_a_spreadsheet_would_run_are_made_inert():
    from app.web.pages import ALL_COLUMNS, ShownRow, csv_rows

    columns = [c for c in ALL_COLUMNS if c.key in ("rank", "player", "rating")]
    row = ShownRow("x", "/players/x", {"rank": "1", "player": '=HYPERLINK("http://x")', "rating": "2100"})
    assert csv_rows({"columns": columns, "rows": [row]})[1] == ["1", '\'=HYPERLINK("http://x")', "2100"]


def test_chart_draws_steps_without_deviation_and_escapes_its_names():
    points = [ChartPoint(dt.date(2020, 1, 1), 1800), ChartPoint(dt.date(2021, 6, 1), 1850), ChartPoint(dt.date(2022, 3, 1), 1820)]
    svg = str(rating_chart(points, chart_id="c", subject="<Ann> & Bo"))
    assert "&lt;Ann&gt; &amp; Bo" in svg and "<Ann>" not in svg
    assert re.search(r'd="M[\d.]+,[\d.]+H[\d.]+V[\d.]+H[\d.]+V[\d.]+"', svg) and "band" not in svg
    assert ">2021<" in svg and ">2022<" in svg  # year ticks
    assert rating_chart([], chart_id="c", subject="x") == ""


def test_crosstable_shares_places_and_counts_a_walkover():
    games = [CrossGame("1", "a", "b", "B"), CrossGame("1", "c", "d", "D"), CrossGame("2", "a", "c", "W", played=False)]
    table = crosstable(["a", "b", "c", "d", "e"], games, order_key=str)
    assert table.rounds == ["1", "2"]
    assert [(r.player_id, r.place, r.score) for r in table.rows] == [
        ("c", "1", 1.5),
        ("a", "2", 1.0),
        ("d", "3", 0.5),
        ("b", "4\u20135", 0.0),
        ("e", "4\u20135", 0.0),
    ]
    assert table.rows[1].cells["2"][0].text == "1\u2212b f"
